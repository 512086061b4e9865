"""Whose fault an import error is: when pytest could not import a ``conftest.py`` because a file
of the repository raised, the patch broke importing that file (the code under test failing, not
the job's configuration); likewise a test module whose collection failed that way. Read from
pytest's own traceback."""

from __future__ import annotations

import re
from pathlib import Path

from gate.decide.outcome import BREAKS_IMPORTING

#: How much of the raised error the words quote.
SAID_CHARS = 200
#: The longest collection blame (schemas/recorder-results.schema.json: collected.blame).
BLAME_CHARS = 2000


_FRAME = re.compile(r"^(?P<path>[^\s:][^:]*\.py):(?P<line>\d+): in ")
_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<name>[^']+)'")
_NO_NAME = re.compile(r"cannot import name '[^']+' from '[^']+' \((?P<path>[^)]+)\)")


def _in_repository(path: str, root: Path) -> str | None:
    """``path`` (as pytest printed a frame's file) relative to ``root`` when it is a file of the
    repository: not outside it, and not an installed package inside it (a venv's
    ``site-packages``)."""
    given = Path(path)
    full = given if given.is_absolute() else root / given
    try:
        relative = full.resolve().relative_to(root.resolve())
    except (OSError, ValueError):
        return None
    if {"site-packages", "dist-packages"} & set(relative.parts) or not full.is_file():
        return None
    return relative.as_posix()


def _provides(root: Path, module: str) -> bool:
    """Does the repository hold the top-level package or module of ``module`` (at the root or
    under ``src/``)?"""
    top = module.split(".")[0]
    return any((base / top).is_dir() or (base / f"{top}.py").is_file()
               for base in (root, root / "src"))


def broken_import(text: str, root: Path, marker: str) -> tuple[str, str, str] | None:
    """The repository file whose import raised, its line and the error (as pytest's ``E`` line
    says it), from pytest's traceback after the last line of ``text`` that starts with
    ``marker``; None when the cause is outside the repository (a package the job did not
    install), which is the configuration's to fix.

    Its deepest frame and its ``E`` line: a module the repository does not provide (``No
    module named``) or a name missing from an installed package (``cannot import name …
    (path)``) outside it is not the patch's; anything else raised while a repository file ran
    is."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith(marker)]
    if not starts:
        return None
    frames: list[tuple[str, str]] = []
    raised = ""
    for line in lines[starts[-1] + 1:]:
        if (frame := _FRAME.match(line)) is not None:
            frames.append((frame["path"], frame["line"]))
        elif line.startswith("E   "):
            raised = raised or line[4:].strip()
    if not frames or not raised:
        return None
    missing = _NO_MODULE.search(raised)
    if missing is not None and not _provides(root, missing["name"]):
        return None
    elsewhere = _NO_NAME.search(raised)
    if elsewhere is not None and _in_repository(elsewhere["path"], root) is None:
        return None
    path, line = frames[-1]
    where = _in_repository(path, root)
    if where is None:
        return None
    shown = raised if len(raised) <= SAID_CHARS else raised[:SAID_CHARS - 1] + "…"
    return where, line, shown


def import_blame(stderr_text: str, root: Path) -> str | None:
    """When a ``conftest.py`` failed to import because a file of the repository raised (the
    patch broke importing it), the words naming that file (:func:`broken_import`, under
    ``ImportError while loading conftest``); None when the cause is outside the repository."""
    found = broken_import(stderr_text, root, "ImportError while loading conftest")
    if found is None:
        return None
    where, line, shown = found
    return (f"the patch breaks importing {where} (line {line}: {shown}), which the tests' "
            "conftest.py imports: no test could run, so no stamp is written; fix that file "
            "(this is the code under test failing, not the job's configuration)")


def collection_blame(longrepr: str, root: Path, test_file: str) -> str | None:
    """When a test module failed to collect because a file of the repository raised while it
    was imported (pytest's ``ImportError while importing test module`` and its traceback, a
    collect report's ``longreprtext``), the words naming that file; None otherwise (a syntax
    error, a package the job did not install: the collection's own words say those)."""
    found = broken_import(longrepr, root, "ImportError while importing test module")
    if found is None:
        return None
    where, line, shown = found
    via = "" if where == test_file else f", which {test_file} imports"
    said = (f"{BREAKS_IMPORTING}{where} (line {line}: {shown}){via}: fix that file (the code "
            "under test fails to import, not the job's configuration)")
    return said if len(said) <= BLAME_CHARS else said[:BLAME_CHARS - 1] + "…"
