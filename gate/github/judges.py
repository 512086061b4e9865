"""What judges the patch is shown: the files a pull request changes that the gated properties
depend on (SPEC §7), as the report's ``judge_files`` section.

The changed files come from GitHub's compare API for the base and head the *event* names
(:func:`compare_refs`: never a stamp or an artifact), so it works for a fork without checking
its code out. What each property depends on comes from two places, so that the patch never
decides alone what is shown (:mod:`gate.decide.judges`): the rules by file name (pytest
configuration, ``conftest.py``, ``sitecustomize.py``, ``*.pth``, the workflows, and the
manifest and policy files themselves), and the manifest the gate job reads from its checkout
(the default branch's on the ``workflow_run`` route; on ``pull_request`` the pull request's,
whose every edit is itself shown for every property).

Nothing here decides anything: any failure (no pull request, a compare refused, a manifest
that does not load) becomes one line in the section, never an error or a changed door.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gate.decide import judges
from gate.errors import GateInputError

_HEX40 = re.compile(r"[0-9a-fA-F]{40}")
_BRANCH = re.compile(r"[A-Za-z0-9._/-]{1,200}")
LINE_CHARS = 400
PATH_CHARS = 1024
MAX_FILES = 1000  # files kept in the report (the rest are counted)
MAX_IDS = 100  # test ids kept per file (the rest are counted; "all" needs none)
PR_EVENTS = ("pull_request", "pull_request_target")


def _sha(value: object) -> str | None:
    return value.lower() if isinstance(value, str) and _HEX40.fullmatch(value) else None


def compare_refs(env: Mapping[str, str]) -> tuple[str, str] | None:
    """``(base, head)`` for the pull request the event is about, else None.

    ``pull_request``/``pull_request_target``: ``pull_request.base.sha`` and ``head.sha``. A
    ``workflow_run`` of a pull-request run: its head SHA against the base SHA of the one pull
    request it lists, or, when it lists none (a fork's), against the repository's default
    branch (the compare then starts at their merge base, as the pull request's own view does
    for a pull request into that branch)."""
    from gate.records.files import read_json

    path = env.get("GITHUB_EVENT_PATH", "")
    if not path:
        return None
    try:
        event = read_json(Path(path))
    except GateInputError:
        return None
    if not isinstance(event, dict):
        return None
    pr = event.get("pull_request")
    if isinstance(pr, dict):
        base, head = (_sha((pr.get(k) or {}).get("sha") if isinstance(pr.get(k), dict)
                           else None) for k in ("base", "head"))
        return (base, head) if base and head else None
    run = event.get("workflow_run")
    if not isinstance(run, dict) or run.get("event") not in PR_EVENTS:
        return None
    head = _sha(run.get("head_sha"))
    if head is None:
        return None
    listed = run.get("pull_requests")
    if isinstance(listed, list) and len(listed) == 1 and isinstance(listed[0], dict):
        base_ref = listed[0].get("base")
        base = _sha(base_ref.get("sha")) if isinstance(base_ref, dict) else None
        return (base, head) if base else None
    repo = event.get("repository")
    branch = repo.get("default_branch") if isinstance(repo, dict) else None
    if isinstance(branch, str) and _BRANCH.fullmatch(branch) and ".." not in branch:
        return branch, head
    return None


def _repo_path(path: Path | str, workspace: str) -> str:
    """A path as the compare API names it: relative to the repository root, POSIX."""
    text = os.fspath(path)
    if os.path.isabs(text):
        text = os.path.relpath(text, workspace)
    return posixpath.normpath(Path(text).as_posix())


def properties_of(test_ids: Sequence[str], manifest_path: str, root: str,
                  workspace: str) -> tuple[list[judges.PropertyFiles], str]:
    """Each test id's files from the manifest (``("", ...)`` when it loads), else only its
    test id, and one line saying why the manifest was not read."""
    from gate.records import manifest
    from gate.records.files import read_yaml

    base = Path(root or ".")
    bare = [judges.PropertyFiles(t, _repo_path(base / judges.test_file_of(t), workspace))
            for t in test_ids]
    if not manifest_path or not os.path.isfile(manifest_path):
        return bare, (f"no manifest at {manifest_path or '(none)'} in this job's checkout: "
                      "files are judged by name only")
    try:
        loaded = manifest.from_record(read_yaml(Path(manifest_path)), manifest_path, base,
                                      check_paths=False)
    except GateInputError as exc:
        return bare, f"the manifest was not read ({exc}): files are judged by name only"
    by_id = {p.test_id: p for p in loaded}
    found: list[judges.PropertyFiles] = []
    for plain in bare:
        prop = by_id.get(plain.test_id)
        if prop is None:
            found.append(plain)
            continue
        where = (prop.location or {}).get("path")
        found.append(judges.PropertyFiles(
            plain.test_id,
            _repo_path(base / str(where), workspace) if where else plain.test_file,
            tuple(_repo_path(f, workspace) for f in prop.fixtures)
            + ((_repo_path(prop.sample, workspace),) if prop.sample else ()),
            _repo_path(prop.card, workspace)))
    return found, ""


def _one_line(text: str) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= LINE_CHARS else flat[:LINE_CHARS - 1] + "…"


def _bounded(path: str) -> str:
    """A file name as the report keeps it: whole, unless longer than any real one."""
    return path if len(path) <= PATH_CHARS else path[:PATH_CHARS - 1] + "…"


def section(report: Mapping[str, Any], env: Mapping[str, str], *, token: str,
            manifest_path: str, root: str, policy_path: str) -> dict[str, Any] | None:
    """The report's ``judge_files`` section, or None when the run is not for a pull request.
    Never raises: every failure is its ``error`` or a ``notes`` line."""
    refs = compare_refs(env)
    if refs is None:
        return None
    base, head = refs
    test_ids = sorted({str(p.get("test_id")) for p in report.get("pairs", [])
                       if isinstance(p, Mapping) and p.get("test_id")})
    out: dict[str, Any] = {"base": base, "head": head, "properties": len(test_ids),
                           "files": []}
    repository = env.get("GITHUB_REPOSITORY", "")
    if not token or not repository:
        out["error"] = ("GITHUB_REPOSITORY not set" if token
                        else "no token to ask GitHub with (github-token)")
        return out
    try:
        return _listed(out, test_ids, env, token=token, repository=repository,
                       manifest_path=manifest_path, root=root, policy_path=policy_path)
    except Exception as exc:  # only shown: a defect here must never decide the door
        out["files"] = []
        out["error"] = _one_line(f"{type(exc).__name__}: {exc}")
        return out


def _listed(out: dict[str, Any], test_ids: Sequence[str], env: Mapping[str, str], *,
            token: str, repository: str, manifest_path: str, root: str,
            policy_path: str) -> dict[str, Any]:
    from gate.github import checks

    base, head = out["base"], out["head"]
    workspace = env.get("GITHUB_WORKSPACE") or os.getcwd()
    props, note = properties_of(test_ids, manifest_path, root, workspace)
    if note:
        out["notes"] = [_one_line(note)]
    listed = checks.changed_files(checks.Settings(
        token=token, api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
        repository=repository, head_sha=head, max_retries=2, max_wait=10.0), base, head)
    if listed.error:
        out["error"] = _one_line(listed.error)
        return out
    out["changed"] = len(listed.files)
    if not listed.complete:
        out["complete"] = False
    config = {_repo_path(p, workspace): kind for p, kind in
              ((manifest_path, "manifest"), (policy_path, "policy")) if p}
    found = judges.judged(listed.files, props, config)
    for item in found[:MAX_FILES]:
        entry: dict[str, Any] = {"path": _bounded(item.path), "kinds": list(item.kinds)}
        if item.previous:
            entry["previous"] = _bounded(item.previous)
        if item.all_:
            entry["all"] = True
        else:
            entry["count"] = len(item.test_ids)
            entry["test_ids"] = list(item.test_ids[:MAX_IDS])
        out["files"].append(entry)
    if len(found) > MAX_FILES:
        out["more_files"] = len(found) - MAX_FILES
    return out
