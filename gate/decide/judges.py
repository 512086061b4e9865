"""Which of the files a pull request changes do the gated properties depend on? Pure.

"What judges the patch is shown" (SPEC §7): the reviewer is told, per gated property, the
files of its fixtures, its card and the test harness that the pull request changes. This
table only *shows*; it never opens or closes the door.

A changed file (and, for a rename, its previous name) is a judge of:

==  ===============================================================  =================  ==========
#   the changed path                                                 properties         kind
==  ===============================================================  =================  ==========
1   the manifest or the policy file the gate reads                   all                manifest /
                                                                                         policy
2   under ``.github/workflows/`` (the workflow that runs the tests)  all                workflow
3   ``sitecustomize.py``, ``usercustomize.py`` or ``*.pth``, any      all                harness
    folder (Python runs them at start from any folder on the path)
4   ``conftest.py`` or a pytest configuration file (``pytest.ini``,  those whose test   harness
    ``.pytest.ini``, ``pyproject.toml``, ``tox.ini``,                file is in its
    ``setup.cfg``) in folder D                                       folder or below
                                                                     (D = the root: all)
5   a path the manifest lists for the property: a fixture, its       that property      fixture /
    card, its test file                                                                 card
==  ===============================================================  =================  ==========

Rows 1-4 need no manifest: they are judged by name, so a patch that edits its own manifest
(to drop a file from a property's fixtures) cannot hide a harness change, and the manifest
change itself is shown for every property (row 1). Row 5 reads the properties it is given: on
``pull_request`` those of the base commit's manifest and the pull request's together (a
property listed in both appears twice, each with its files), so that dropping a file from the
patch's own manifest never hides it. A path matching several rows gets every kind; the
properties are the union.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: pytest's configuration files (pytest reads the first one it finds walking up from the
#: common folder of its arguments; ``setup.cfg``/``pyproject.toml`` only with a pytest section,
#: which a patch can add).
CONFIG_NAMES = frozenset({"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"})
STARTUP_NAMES = frozenset({"sitecustomize.py", "usercustomize.py"})
WORKFLOWS = ".github/workflows/"
KINDS = ("manifest", "policy", "workflow", "harness", "fixture", "card")


@dataclass(frozen=True, slots=True)
class PropertyFiles:
    """What one gated property depends on, by path relative to the repository root."""

    test_id: str
    test_file: str | None  # its test file (the manifest's location.path), for rows 4 and 5
    fixtures: tuple[str, ...] = ()
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Changed:
    """One changed file the properties depend on: which ones (``all_`` means every one)."""

    path: str
    kinds: tuple[str, ...]
    test_ids: tuple[str, ...]
    all_: bool = False
    previous: str | None = None  # a rename's previous path


@dataclass(slots=True)
class _Acc:
    kinds: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)


def test_file_of(test_id: str) -> str:
    """The file part of a pytest node id (``tests/test_x.py::test_y`` → ``tests/test_x.py``)."""
    return test_id.split("::", 1)[0]


def _under(path: str | None, folder: str) -> bool:
    return bool(path) and (folder == "" or str(path).startswith(folder + "/"))


def judged(changed: Iterable[tuple[str, str | None]], properties: Sequence[PropertyFiles],
           config: Mapping[str, str] | None = None) -> list[Changed]:
    """The changed files (``(path, previous path or None)``) that any property depends on,
    with the properties and kinds; ``config`` maps the manifest's and the policy's paths to
    ``"manifest"``/``"policy"``. Ordered: every property first, then by how many, then path."""
    config = dict(config or {})
    every = tuple(sorted({p.test_id for p in properties}))
    per_path: dict[str, dict[str, set[str]]] = {}
    for prop in properties:
        test_file = prop.test_file or test_file_of(prop.test_id)
        for path in {test_file, *prop.fixtures}:
            per_path.setdefault(path, {}).setdefault("fixture", set()).add(prop.test_id)
        if prop.card:
            per_path.setdefault(prop.card, {}).setdefault("card", set()).add(prop.test_id)
    out: list[Changed] = []
    seen: set[str] = set()
    for path, previous in changed:
        if path in seen:
            continue
        seen.add(path)
        acc = _Acc()
        for name in (path, previous):
            if name:
                _match(name, properties, config, per_path, every, acc)
        if acc.kinds and acc.ids:
            ordered = tuple(k for k in KINDS if k in acc.kinds)
            everyone = set(every) <= acc.ids
            out.append(Changed(path, ordered, tuple(sorted(acc.ids)), everyone,
                               previous if previous and previous != path else None))
    return sorted(out, key=lambda c: (not c.all_, -len(c.test_ids), c.path))


def _match(path: str, properties: Sequence[PropertyFiles], config: Mapping[str, str],
           per_path: Mapping[str, Mapping[str, set[str]]], every: Sequence[str],
           acc: _Acc) -> None:
    folder, name = posixpath.split(path)
    if path in config:  # row 1
        acc.kinds.add(config[path])
        acc.ids.update(every)
    if path.startswith(WORKFLOWS):  # row 2
        acc.kinds.add("workflow")
        acc.ids.update(every)
    if name in STARTUP_NAMES or name.endswith(".pth"):  # row 3
        acc.kinds.add("harness")
        acc.ids.update(every)
    if name in CONFIG_NAMES or name == "conftest.py":  # row 4
        ids = {p.test_id for p in properties
               if _under(p.test_file or test_file_of(p.test_id), folder)}
        if ids:
            acc.kinds.add("harness")
            acc.ids.update(ids)
    for kind, ids in per_path.get(path, {}).items():  # row 5
        acc.kinds.add(kind)
        acc.ids.update(ids)
