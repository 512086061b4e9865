"""Secret values are never republished: which values of an environment count as secret, and the
one function every writer of text that came from the test run uses to mask them.

A test's failure text can carry the job's environment (an assertion on ``os.environ`` makes
pytest print part of it; under act the composite action's inputs are ``INPUT_*`` variables,
``INPUT_SIGNING-KEY`` among them). The stamp job is where those values are known, so the stamps
are masked there, before anything is written (stamps, artifacts, the report, the log), and every
later sink (job summary, check run, annotations, comment) reads only masked text.

What counts as secret (:func:`secret_values`): the value of every variable whose name marks it
secret (:data:`SECRET_NAME`: ``TOKEN``, ``SECRET``, ``PASSWORD``, ``PASSWD``, ``PASSPHRASE``,
``PRIVATE``, ``CREDENTIAL``, ``API_KEY``/``APIKEY``, a name ending in ``KEY`` or ``KEY_FILE``
after ``_`` or ``-`` (``GATE_SIGNING_KEY``, ``INPUT_SIGNING-KEY``), ``AUTH``), at least
:data:`MIN_CHARS` characters long (a shorter value, ``true`` or ``1``, would mask ordinary
words); and of a multi-line value (a PEM key) each of its lines of at least
:data:`MIN_LINE_CHARS` characters, and the value as ``repr`` writes it (``\\n`` for a newline).
Each is replaced by :data:`MASK`, the mask GitHub's own log uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from gate.decide.frozen import FrozenValue

#: A variable name that marks its value secret (case-insensitive).
SECRET_NAME = re.compile(
    r"TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|PRIVATE|CREDENTIAL|API_?KEY|AUTH"
    r"|(?:^|[_-])KEY(?:[_-]FILE)?$", re.IGNORECASE)
#: The shortest value masked: shorter ones are ordinary words.
MIN_CHARS = 8
#: The shortest line of a multi-line value masked on its own.
MIN_LINE_CHARS = 16
MASK = "***"


def secret_name(name: str) -> bool:
    """Does ``name`` mark its variable's value secret?"""
    return SECRET_NAME.search(name) is not None


def secret_values(env: Mapping[str, str], extra: Iterable[str] = ()) -> tuple[str, ...]:
    """Every string to mask for ``env`` (and the ``extra`` values the caller knows to be
    secret, e.g. a key read from a file), longest first so a longer secret is masked whole
    before any shorter one inside it."""
    found: set[str] = set()
    values = [value for name, value in env.items() if secret_name(name)]
    for value in [*values, *extra]:
        if len(value.strip()) < MIN_CHARS:
            continue
        found.add(value)
        found.add(value.strip())
        if "\n" in value.strip():
            found.update(form.replace("\r", "\\r").replace("\n", "\\n")
                         for form in (value, value.strip()))
            found.update(line.strip() for line in value.splitlines()
                         if len(line.strip()) >= MIN_LINE_CHARS)
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


class Redactor(FrozenValue):
    """Masks a fixed set of secret values in text (:func:`secret_values`)."""

    __slots__ = ("secrets",)
    secrets: tuple[str, ...]

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        self._set(secrets=secrets)

    @classmethod
    def from_env(cls, env: Mapping[str, str], extra: Iterable[str] = ()) -> Redactor:
        return cls(secret_values(env, extra))

    def text(self, text: str) -> str:
        """``text`` with every secret value replaced by :data:`MASK`."""
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        return text

    def optional(self, text: str | None) -> str | None:
        return None if text is None else self.text(text)
