"""The gate job's scan for ungated Hypothesis tests (issue 29; :mod:`gate.github.ungated`
says what the section means): the Python files the pull request changes, read at its head
commit through GitHub's contents API (no checkout, so a fork's too) and parsed by
:func:`gate.decide.ungated.scan_source` (``ast``: nothing imported or run), compared with the
manifest in this job's checkout and the stamps' test ids. A conftest or a ``-k`` hides a test
from the stamp jobs' collection, not from its file. Never an error: a failure is a note, and
the stamps' own names still count.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gate.decide import ungated as rules
from gate.errors import GateInputError

#: Changed Python files the scan reads (one contents request each); the rest are counted.
MAX_FILES = 50
MAX_BYTES = 1_000_000


def _selectors(test_ids: Sequence[str], manifest_path: str,
               root: str) -> tuple[list[tuple[str, str | None, str]], str]:
    """``(test_id, classname, name)`` of every property the manifest in this job's checkout
    lists, and the stamps' test ids; one note when the manifest is not read."""
    from gate.records import manifest
    from gate.records.files import read_yaml

    found: list[tuple[str, str | None, str]] = [
        (t, *rules.junit_key(t)) for t in test_ids]
    if not manifest_path or not os.path.isfile(manifest_path):
        return found, f"no manifest at {manifest_path or '(none)'}: compared with the stamps' ids"
    try:
        loaded = manifest.from_record(read_yaml(Path(manifest_path)), manifest_path,
                                      Path(root or "."), check_paths=False)
    except GateInputError as exc:
        return found, f"the manifest was not read ({exc}): compared with the stamps' ids"
    found += [(p.test_id, p.junit_classname, p.junit_name) for p in loaded]
    return found, ""


def scan(env: Mapping[str, str], test_ids: Sequence[str], listed: Any, *, token: str,
         manifest_path: str, root: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    """``(scan, test, kind)`` of every Hypothesis test in the Python files the pull request
    changes (``listed``: :func:`gate.github.judges.changed_files`) that no property selects,
    and notes (a file not read, the list refused). Nothing when the run is not for a pull
    request. Never raises."""
    from gate.github import judges

    refs = judges.event_refs(env)
    if refs is None:
        return [], []
    if listed is None:
        return [], ["the changed files were not scanned for ungated tests: "
                    + ("GITHUB_REPOSITORY not set" if token else "no token")]
    try:
        return _scan(env, refs[1], listed, test_ids, token=token,
                     manifest_path=manifest_path, root=root)
    except Exception as exc:  # only adds names: a defect here never loses the stamps' own
        return [], [_one_line(f"the changed files were not scanned ({type(exc).__name__}: "
                              f"{exc})")]


def _one_line(text: str) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= 400 else flat[:399] + "…"


def _scan(env: Mapping[str, str], head: str, listed: Any, test_ids: Sequence[str], *,
          token: str, manifest_path: str, root: str
          ) -> tuple[list[tuple[str, str, str]], list[str]]:
    from gate.github import checks, judges

    if listed.error:
        return [], [_one_line(f"the changed files were not scanned for ungated tests: "
                              f"{listed.error}")]
    settings = judges.settings_for(env, token, head)
    selectors, why = _selectors(test_ids, manifest_path, root)
    notes = [why] if why else []
    python = [path for path, _ in listed.files if path.endswith(".py")]
    if len(python) > MAX_FILES:
        notes.append(f"{len(python) - MAX_FILES} more changed Python files were not scanned")
    found: list[tuple[str, str, str]] = []
    for path in python[:MAX_FILES]:
        got = checks.file_at(settings, path, head, MAX_BYTES)
        if got.missing:
            continue  # deleted by the pull request
        if got.data is None:
            notes.append(_one_line(f"{path} was not scanned: {got.error}"))
            continue
        text = got.data.decode("utf-8", "replace")
        found += [(rules.SCAN, test, kind) for test, kind in rules.scan_source(path, text)
                  if not rules.selected(test, selectors)]
    return found, notes[:10]
