"""``gate init --check``: what would break the first CI run, found before the first push.

Each finding names the file, the field and the fix (:class:`Finding`); the command
(:mod:`gate.commands.init`) collects the tests as CI will and hands this module what it found.
Read-only: nothing here writes a file.

* **plugins**: a pytest plugin distribution the configuration needs (an ``addopts`` option or
  an ini key it registers, ``-p`` its entry point) that ``requirements-test.txt`` does not
  install: by its own line, a ``-r`` file it includes, the project's dependencies (``-e .``)
  or an extra it names (``-e .[test]``); and pytest and Hypothesis themselves.
* **offline**: the packages an editable install of the project builds with (its
  ``build-system.requires``; hatchling's editable wheels also need ``editables``): pip fetches
  them online, but an offline run (act with ``PIP_NO_INDEX``) needs them in its wheel folder.
  A note, not a finding: CI runs online.
* **cards**: a card whose ``deadline_ms`` or ``suppress_health_check`` differ from the settings
  the test runs with on CI (a profile the conftest loads there): the recorder refuses it.
* **manifest**: a property whose test is no longer collected, and a Hypothesis test no property
  selects.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.errors import GateInputError
from gate.records.files import is_regular_file, read_bytes_capped

_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[([^\]]*)\])?")
_LOCAL = re.compile(r"^(?:-e\s+|--editable[=\s]+)?\.(?:/)?\s*(\[([^\]]*)\])?\s*$")


@dataclass(frozen=True, slots=True)
class Finding:
    file: str
    field: str
    problem: str
    fix: str

    def line(self) -> str:
        return f"{self.file}: {self.field}: {self.problem}; fix: {self.fix}"


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _pyproject(root: Path) -> dict[str, Any]:
    path = root / "pyproject.toml"
    if not is_regular_file(path):
        return {}
    try:
        return tomllib.loads(read_bytes_capped(path).decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise GateInputError(str(path), "(toml)", f"not valid TOML: {exc}") from None


def _names(requirements: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for line in requirements:
        match = _NAME.match(line)
        if match:
            found.add(normalized(match.group(1)))
    return found


def installed_names(requirements: Path, root: Path) -> tuple[set[str], bool]:
    """The distribution names ``requirements`` installs (its ``-r`` files followed; the
    project's own dependencies and the named extras for ``.``/``-e .``), and whether it
    installs the project (``-e .``)."""
    project = _pyproject(root).get("project") or {}
    names: set[str] = set()
    installs_project = False
    pending, seen = [requirements], set()
    while pending:
        path = pending.pop()
        if path.resolve() in seen:
            continue
        seen.add(path.resolve())
        try:
            text = read_bytes_capped(path).decode("utf-8")
        except UnicodeDecodeError:
            raise GateInputError(str(path), "(text)", "not UTF-8 text") from None
        for raw in text.splitlines():
            line = raw.split(" #", 1)[0].strip()
            if not line or line.startswith("#"):
                continue
            local = _LOCAL.match(line)
            if local:
                installs_project = True
                if project.get("name"):
                    names.add(normalized(str(project["name"])))
                names |= _names(project.get("dependencies") or [])
                extras = project.get("optional-dependencies") or {}
                for extra in (local.group(2) or "").split(","):
                    names |= _names(extras.get(extra.strip(), []))
                continue
            include = re.match(r"^(?:-r|--requirement)[=\s]+(\S+)$", line)
            if include:
                pending.append(path.parent / include.group(1))
                continue
            if line.startswith("-"):
                continue
            names |= _names([line])
    return names, installs_project


def plugin_findings(requirements: Path, root: Path,
                    plugin_dists: Sequence[tuple[str, Sequence[str]]],
                    not_needed: Iterable[str] = ()) -> list[Finding]:
    """The plugin distributions (and pytest, Hypothesis) the run needs that ``requirements``
    does not install."""
    shown = requirements.as_posix()
    if not is_regular_file(requirements):
        return [Finding(shown, "(file)", "no such file, and the workflow installs it",
                        "run gate init (it writes one when there is none), or create it: "
                        "-e ., pytest, hypothesis and your pytest plugins, one a line")]
    names, _ = installed_names(requirements, root)
    skip = {normalized(n) for n in not_needed}
    found: list[Finding] = []
    for name in ("pytest", "hypothesis"):
        if name not in names:
            found.append(Finding(shown, name, f"{name} is not installed by it",
                                 f"add a line {name}"))
    for name, needed_by in plugin_dists:
        if needed_by and normalized(name) not in names | skip:
            found.append(Finding(
                shown, name, f"the pytest plugin {name} is not installed by it, and the "
                "configuration needs it (" + ", ".join(needed_by[:4]) + "): pytest stops "
                "with 'unrecognized arguments' before the gate's recorder loads",
                f"add a line {name}"))
    return found


#: Packages a build back-end also needs for an editable wheel (PEP 660), beyond its own.
EDITABLE_EXTRAS = {"hatchling": ("editables",)}


def offline_build(requirements: Path, root: Path) -> list[str]:
    """The packages ``pip install -e .`` builds with (an offline run needs their wheels),
    when ``requirements`` installs the project; else ``[]``."""
    if not is_regular_file(requirements):
        return []
    _, installs_project = installed_names(requirements, root)
    if not installs_project:
        return []
    system = _pyproject(root).get("build-system") or {}
    requires = [str(r) for r in system.get("requires") or []]
    if not requires:
        requires = ["setuptools", "wheel"]  # pip's default back-end
    packages: list[str] = []
    for requirement in requires:
        match = _NAME.match(requirement)
        if match:
            packages.append(match.group(1))
    for package in list(packages):
        packages += [p for p in EDITABLE_EXTRAS.get(normalized(package), ())
                     if p not in packages]
    return packages


def card_findings(cards: Sequence[tuple[str, str, str, Mapping[str, Any], Mapping[str, Any]]],
                  fields: Sequence[str]) -> list[Finding]:
    """``(test id, file, field prefix, card, the card the CI settings give)``: each field
    that differs."""
    found: list[Finding] = []
    for test_id, where, prefix, card, wanted in cards:
        for key in fields:
            if card.get(key) != wanted.get(key):
                found.append(Finding(
                    where, prefix + key, f"{test_id}: the card says {card.get(key)!r}, the "
                    f"settings it runs with on CI say {wanted.get(key)!r} (a profile the conftest "
                    "loads?): the recorder refuses a card that conflicts with them",
                    "CI=true gate init --refresh (rewrites the cards' settings fields)"))
    return found


def manifest_findings(manifest: str, listed: Sequence[str], collected: Sequence[str]
                      ) -> list[Finding]:
    """Properties whose test is not collected, and Hypothesis tests no property selects."""
    have = set(collected)
    found = [Finding(manifest, "properties", f"{test_id}: not collected (renamed or removed?); "
                     "its stamps would be resource_exit",
                     "remove its entry, and gate init --add for the new name")
             for test_id in listed if test_id not in have]
    missing = [t for t in collected if t not in set(listed)]
    if missing:
        found.append(Finding(manifest, "properties", f"{len(missing)} Hypothesis test(s) no "
                             f"property selects, e.g. {missing[0]}", "gate init --add"))
    return found
