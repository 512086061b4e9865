"""Which of the files a pull request changes do the gated properties depend on? Pure.

"What judges the patch is shown" (SPEC §7): the reviewer is told, per gated property, the
files of its fixtures, its card and the test harness that the pull request changes. This
table only *shows*; it never opens or closes the door.

Every gated property of a stamp job runs in **one** pytest session, so a file that runs in that
process (a conftest's or a test module's module-level code can replace pytest's report for
every test) judges every property, wherever it sits. A changed file (and, for a rename, its
previous name) is a judge of:

==  ===============================================================  =================  ==========
#   the changed path                                                 properties         kind
==  ===============================================================  =================  ==========
1   the manifest or the policy file the gate reads                   all                manifest /
                                                                                         policy
2   anything else under ``.github/`` (workflows, composite actions   all                workflow
    in ``.github/actions/``, scripts a step runs; not rows 1 and 8)
3   ``sitecustomize.py``, ``usercustomize.py`` or ``*.pth``, any      all                harness
    folder (Python runs them at start from any folder on the path)
4   in any folder: ``conftest.py`` (pytest loads every collected     all                harness
    folder's, a new sibling folder's too); a test module
    (``test_*.py``, ``*_test.py``: collected, so imported, even
    when deselected); plugins and entry points (``setup.py``,
    ``setup.cfg``, ``pyproject.toml``); ``noxfile.py``;
    coverage's configuration (``.coveragerc``: its plugins run in
    the process); requirements files (``requirements*.txt``,
    ``constraints*.txt``, a ``.txt``/``.in`` under a
    ``requirements/`` folder, ``Pipfile``, lock files)
5   pytest's configuration (``pytest.toml``, ``.pytest.toml``,       all                harness
    ``pytest.ini``, ``.pytest.ini``, ``tox.ini``, and
    ``pyproject.toml``/``setup.cfg`` by row 4) in a folder from the
    root to a gated test's folder (where pytest looks for it)
6   ``__init__.py`` in a folder from the root to a gated test's      all                harness
    folder, or to the folder of a changed conftest or test module
    (pytest imports a test module's packages with it)
7   a file a stamp job's pytest session reported loading as a        all                harness
    plugin module (a conftest, ``-p forge``, ``pytest_plugins``, an
    entry point of a package installed from the workspace: the
    stamps' ``harness_files``, from stamps not refused)
8   a path the manifest lists for the property: a fixture (or a      that property      fixture /
    file one of its fixture globs matches), its card, its test file,                    card /
    its harness listed apart (``harness``, its files and globs)                         harness
==  ===============================================================  =================  ==========

Rows 1-6 need no manifest: they are judged by name, by rules in this code that the patch
cannot edit (a ``python_files`` pattern or a plugin module the configuration names is shown
through the configuration's own change), so a patch that edits its own manifest (to drop a
file from a property's fixtures) cannot hide a harness change, and the manifest change itself is
shown for every property (row 1). Row 7 adds what the process really loaded (it only ever adds
to the name rules: a test process can leave a file out, never hide one rows 1-6 name). Row 8
reads the properties it is given: on ``pull_request``
those of the base commit's manifest and the pull request's together (a property listed in both
appears twice, each with its files), so that dropping a file from the patch's own manifest
never hides it. A path matching several rows gets every kind; the properties are the union.
The package under test is not the harness: its files are shown where the manifest lists them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from gate.decide import globs

#: pytest's configuration files (pytest reads the first one it finds walking up from the
#: common folder of its arguments; ``setup.cfg``/``pyproject.toml`` only with a pytest section,
#: which a patch can add; pytest 9 reads ``pytest.toml`` before ``pytest.ini``).
CONFIG_NAMES = frozenset({"pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini",
                          "pyproject.toml", "tox.ini", "setup.cfg"})
STARTUP_NAMES = frozenset({"sitecustomize.py", "usercustomize.py"})
#: Files that run in the test process, or decide what does, wherever they sit (row 4).
PROCESS_NAMES = frozenset({"conftest.py", "setup.py", "setup.cfg", "pyproject.toml",
                           "noxfile.py", ".coveragerc", "Pipfile", "Pipfile.lock",
                           "poetry.lock", "pdm.lock", "uv.lock", "pylock.toml"})
GITHUB = ".github/"
WORKFLOWS = ".github/workflows/"
KINDS = ("manifest", "policy", "workflow", "harness", "fixture", "card")


@dataclass(frozen=True, slots=True)
class PropertyFiles:
    """What one gated property depends on, by path relative to the repository root."""

    test_id: str
    test_file: str | None  # its test file (the manifest's location.path), for rows 4 and 5
    fixtures: tuple[str, ...] = ()
    card: str | None = None
    #: Its fixture globs (:mod:`gate.decide.globs`), repository-relative: a changed path
    #: one matches is a fixture of the property, whether or not it existed when listed.
    globs: tuple[str, ...] = ()
    #: The test harness its manifest entry lists apart (``harness``: files and globs).
    harness: tuple[str, ...] = ()
    harness_globs: tuple[str, ...] = ()


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


def judged(changed: Iterable[tuple[str, str | None]], properties: Sequence[PropertyFiles],
           config: Mapping[str, str] | None = None,
           loaded: frozenset[str] = frozenset()) -> list[Changed]:
    """The changed files (``(path, previous path or None)``) that any property depends on,
    with the properties and kinds; ``config`` maps the manifest's and the policy's paths to
    ``"manifest"``/``"policy"``; ``loaded``: the files the stamp jobs' sessions reported
    loading as plugin modules (row 7). Ordered: every property first, then by how many, then
    path."""
    config = dict(config or {})
    every = tuple(sorted({p.test_id for p in properties}))
    per_path: dict[str, dict[str, set[str]]] = {}
    for prop in properties:
        test_file = prop.test_file or test_file_of(prop.test_id)
        for path in {test_file, *prop.fixtures}:
            per_path.setdefault(path, {}).setdefault("fixture", set()).add(prop.test_id)
        if prop.card:
            per_path.setdefault(prop.card, {}).setdefault("card", set()).add(prop.test_id)
        for path in prop.harness:
            per_path.setdefault(path, {}).setdefault("harness", set()).add(prop.test_id)
    globbed = [(p.test_id, p.globs) for p in properties if p.globs]
    globbed_harness = [(p.test_id, p.harness_globs) for p in properties if p.harness_globs]
    changed = list(changed)
    test_folders = _package_folders(properties, changed)
    out: list[Changed] = []
    seen: set[str] = set()
    for path, previous in changed:
        if path in seen:
            continue
        seen.add(path)
        acc = _Acc()
        for name in (path, previous):
            if name:
                _match(name, config, per_path, every, test_folders, globbed, loaded, acc)
                _match_globs(name, globbed_harness, "harness", acc)
        if acc.kinds and acc.ids:
            ordered = tuple(k for k in KINDS if k in acc.kinds)
            everyone = set(every) <= acc.ids
            out.append(Changed(path, ordered, tuple(sorted(acc.ids)), everyone,
                               previous if previous and previous != path else None))
    return sorted(out, key=lambda c: (not c.all_, -len(c.test_ids), c.path))


def is_test_module(name: str) -> bool:
    """pytest's default ``python_files`` (``test_*.py``, ``*_test.py``)."""
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def is_requirements(path: str) -> bool:
    """A requirements or constraints file pip is given (by its name or its folder)."""
    folder, name = posixpath.split(path)
    if name.endswith(".txt") and (name.startswith(("requirements", "constraints"))
                                  or "requirements" in name):
        return True
    return (posixpath.basename(folder) == "requirements"
            and name.endswith((".txt", ".in")))


def _ancestors(path: str) -> set[str]:
    """Every folder from the root (``""``) to ``path``'s own folder."""
    folder = posixpath.dirname(path)
    found = {""}
    while folder:
        found.add(folder)
        folder = posixpath.dirname(folder)
    return found


def _package_folders(properties: Sequence[PropertyFiles],
                     changed: Iterable[tuple[str, str | None]]) -> set[str]:
    """The folders whose ``__init__.py`` pytest imports with a test (row 6): from the root to
    every gated test's folder and to every changed conftest's or test module's folder."""
    folders: set[str] = set()
    for prop in properties:
        folders |= _ancestors(prop.test_file or test_file_of(prop.test_id))
    for path, previous in changed:
        for name in (path, previous):
            if name and (posixpath.basename(name) == "conftest.py"
                         or is_test_module(posixpath.basename(name))):
                folders |= _ancestors(name)
    return folders


def runs_in_the_test_process(path: str, test_folders: frozenset[str] | set[str]) -> bool:
    """Rows 3-6: a file that runs in the test process (or decides what does), by name, given
    the folders on the gated tests' (and changed test modules') package paths."""
    folder, name = posixpath.split(path)
    return (name in STARTUP_NAMES or name.endswith(".pth")  # row 3
            or name in PROCESS_NAMES or is_test_module(name) or is_requirements(path)  # row 4
            or (name in CONFIG_NAMES and folder in test_folders)  # row 5
            or (name == "__init__.py" and folder in test_folders))  # row 6


def _match(path: str, config: Mapping[str, str],
           per_path: Mapping[str, Mapping[str, set[str]]], every: Sequence[str],
           test_folders: set[str], globbed: Sequence[tuple[str, tuple[str, ...]]],
           loaded: frozenset[str], acc: _Acc) -> None:
    if path in config:  # row 1
        acc.kinds.add(config[path])
        acc.ids.update(every)
    if path.startswith(GITHUB) and path not in config and path not in per_path:  # row 2 (not 1, 8)
        acc.kinds.add("workflow")
        acc.ids.update(every)
    if runs_in_the_test_process(path, test_folders) or path in loaded:  # rows 3-7
        acc.kinds.add("harness")
        acc.ids.update(every)
    for kind, ids in per_path.get(path, {}).items():  # row 8
        acc.kinds.add(kind)
        acc.ids.update(ids)
    _match_globs(path, globbed, "fixture", acc)  # row 8, its fixture globs


def _match_globs(path: str, globbed: Sequence[tuple[str, tuple[str, ...]]], kind: str,
                 acc: _Acc) -> None:
    """Row 8's globs: the properties one of whose patterns matches ``path``, as ``kind``."""
    matched = {test_id for test_id, patterns in globbed
               if any(globs.matches(g, path) for g in patterns)}
    if matched:
        acc.kinds.add(kind)
        acc.ids.update(matched)
