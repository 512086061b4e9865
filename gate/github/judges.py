"""What judges the patch is shown: the files a pull request changes that the gated properties
depend on (SPEC §7), as the report's ``judge_files`` section.

The changed files come from GitHub's compare API for the base and head the *event* names
(:func:`compare_refs`: never a stamp or an artifact), so it works for a fork without checking
its code out. What each property depends on comes from two places, so that the patch never
decides alone what is shown (:mod:`gate.decide.judges`): the rules by file name (what runs
in the test process: pytest configuration, ``conftest.py``, test modules, packages'
``__init__.py``, plugins and entry points, ``noxfile.py``, ``.coveragerc``, requirements files,
``sitecustomize.py``, ``*.pth``; everything under ``.github/``; and the manifest and policy
files themselves), and the manifest: the one the gate job reads from its
checkout (the default branch's on the ``workflow_run`` route; on ``pull_request`` the pull
request's, whose every edit is itself shown for every property), and on ``pull_request`` also
the base commit's, read through GitHub's contents API at the event's base SHA
(:func:`base_properties`: no checkout of the base, so it works for forks). A changed file is
attributed to every property that lists it in either, so a patch that drops a fixture from its
own manifest still has that fixture's change shown for the property.

Nothing here decides anything: any failure (no pull request, a compare refused, a manifest
that does not load) becomes one line in the section, never an error or a changed door.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.decide import judges
from gate.errors import GateInputError

if TYPE_CHECKING:
    from gate.github.checks import Settings

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
    """``(base, head)`` for the pull request the event is about, else None (:func:`event_refs`
    without the route)."""
    found = event_refs(env)
    return (found[0], found[1]) if found is not None else None


def event_refs(env: Mapping[str, str]) -> tuple[str, str, str] | None:
    """``(base, head)`` for the pull request the event is about, else None.

    ``pull_request``/``pull_request_target``: ``pull_request.base.sha`` and ``head.sha``. A
    ``workflow_run`` of a pull-request run: its head SHA against the base SHA of the one pull
    request it lists, or, when it lists none (a fork's), against the repository's default
    branch (the compare then starts at their merge base, as the pull request's own view does
    for a pull request into that branch). The third item names the route:
    ``"pull_request"`` (the event names the pull request) or ``"workflow_run"``."""
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
        return (base, head, "pull_request") if base and head else None
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
        return (base, head, "workflow_run") if base else None
    repo = event.get("repository")
    branch = repo.get("default_branch") if isinstance(repo, dict) else None
    if isinstance(branch, str) and _BRANCH.fullmatch(branch) and ".." not in branch:
        return branch, head, "workflow_run"
    return None


def _repo_path(path: Path | str, workspace: str) -> str:
    """A path as the compare API names it: relative to the repository root, POSIX."""
    text = os.fspath(path)
    if os.path.isabs(text):
        text = os.path.relpath(text, workspace)
    return posixpath.normpath(Path(text).as_posix())


def _bare(test_ids: Sequence[str], root: str, workspace: str) -> list[judges.PropertyFiles]:
    base = Path(root or ".")
    return [judges.PropertyFiles(t, _repo_path(base / judges.test_file_of(t), workspace))
            for t in test_ids]


def _head_properties(test_ids: Sequence[str], manifest_path: str, root: str,
                     workspace: str) -> tuple[list[judges.PropertyFiles], str]:
    """:func:`properties_of`, its note without the consequence ("files are judged by ...")."""
    from gate.records import manifest
    from gate.records.files import read_yaml

    bare = _bare(test_ids, root, workspace)
    if not manifest_path or not os.path.isfile(manifest_path):
        return bare, f"no manifest at {manifest_path or '(none)'} in this job's checkout"
    try:
        loaded = manifest.from_record(read_yaml(Path(manifest_path)), manifest_path,
                                      Path(root or "."), check_paths=False)
    except GateInputError as exc:
        return bare, f"the manifest was not read ({exc})"
    return _files_of(loaded, bare, root, workspace, keep_bare=True), ""


def properties_of(test_ids: Sequence[str], manifest_path: str, root: str,
                  workspace: str) -> tuple[list[judges.PropertyFiles], str]:
    """Each test id's files from the manifest in this job's checkout (``("", ...)`` when it
    loads), else only its test id, and one line saying why the manifest was not read."""
    found, why = _head_properties(test_ids, manifest_path, root, workspace)
    return found, (f"{why}: files are judged by name only" if why else "")


def base_properties(test_ids: Sequence[str], settings: Settings, base_sha: str,
                    manifest_path: str, root: str,
                    workspace: str) -> tuple[list[judges.PropertyFiles], str]:
    """The files each test id lists in the base commit's manifest (the same path, read through
    GitHub's contents API at ``base_sha``: no checkout, so a fork's pull request too), validated
    as any manifest is; only the test ids it lists. Else ``[]`` and why, in a few words (no
    manifest there: a new adoption; refused; invalid): it only ever adds what is shown."""
    from gate.github import checks
    from gate.records import manifest
    from gate.records.files import max_record_bytes, max_yaml_bytes, parse_yaml

    where = _repo_path(manifest_path, workspace) if manifest_path else ""
    if not where or where == ".." or where.startswith("../") or os.path.isabs(where):
        return [], (f"the manifest {manifest_path or '(none)'} is not a file of the repository,"
                    " so the base commit's was not read")
    short = base_sha[:12]
    got = checks.file_at(settings, where, base_sha, min(max_yaml_bytes(), max_record_bytes()))
    if got.missing:
        return [], f"no manifest at {where} in the base commit {short} (a new adoption?)"
    source = f"{where} at the base commit {short}"
    try:
        if got.data is None:
            raise GateInputError(source, "(contents API)", got.error or "not read")
        loaded = manifest.from_record(parse_yaml(got.data, source), source, Path(root or "."),
                                      in_checkout=False)
    except GateInputError as exc:
        return [], f"the base commit's manifest was not read ({exc})"
    return _files_of(loaded, _bare(test_ids, root, workspace), root, workspace,
                     keep_bare=False), ""


def _files_of(loaded: Sequence[Any], bare: Sequence[judges.PropertyFiles], root: str,
              workspace: str, *, keep_bare: bool) -> list[judges.PropertyFiles]:
    """Each of ``bare``'s test ids with the files ``loaded`` (a manifest's properties) lists
    for it; a test id it does not list stays bare (``keep_bare``) or is left out."""
    base = Path(root or ".")
    by_id = {p.test_id: p for p in loaded}
    found: list[judges.PropertyFiles] = []
    for plain in bare:
        prop = by_id.get(plain.test_id)
        if prop is None:
            if keep_bare:
                found.append(plain)
            continue
        where = (prop.location or {}).get("path")
        found.append(judges.PropertyFiles(
            plain.test_id,
            _repo_path(base / str(where), workspace) if where else plain.test_file,
            tuple(_repo_path(f, workspace) for f in prop.fixtures)
            + ((_repo_path(prop.sample, workspace),) if prop.sample else ()),
            # an inline card is the manifest's: row 1 shows its change for every property
            _repo_path(prop.card, workspace) if prop.card_record is None else None,
            tuple(_repo_path(base / g, workspace) for g in prop.globs),
            tuple(_repo_path(f, workspace) for f in prop.harness),
            tuple(_repo_path(base / g, workspace) for g in prop.harness_globs)))
    return found


def _one_line(text: str) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= LINE_CHARS else flat[:LINE_CHARS - 1] + "…"


def _bounded(path: str) -> str:
    """A file name as the report keeps it: whole, unless longer than any real one."""
    return path if len(path) <= PATH_CHARS else path[:PATH_CHARS - 1] + "…"


def settings_for(env: Mapping[str, str], token: str, head: str) -> Settings:
    """The GitHub settings the gate job reads the pull request's files with."""
    from gate.github import checks

    return checks.Settings(
        token=token, api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
        repository=env.get("GITHUB_REPOSITORY", ""), head_sha=head, max_retries=2,
        max_wait=10.0)


def changed_files(env: Mapping[str, str], token: str) -> Any:
    """The pull request's changed files (:func:`gate.github.checks.changed_files`: one compare
    request), listed once for every section that reads them; None when the run is not for a
    pull request or there is no token or repository to ask with."""
    from gate.github import checks

    refs = event_refs(env)
    if refs is None or not token or not env.get("GITHUB_REPOSITORY", ""):
        return None
    return checks.changed_files(settings_for(env, token, refs[1]), refs[0], refs[1])


def section(gated: Sequence[str], env: Mapping[str, str], *, token: str,
            manifest_path: str, root: str, policy_path: str,
            listed: Any = None, loaded: Any = frozenset()) -> dict[str, Any] | None:
    """The report's ``judge_files`` section (being built: ``gated`` are its pairs' test ids),
    or None when the run is not for a pull request. ``listed``: the changed files when
    :func:`changed_files` already listed them. Never raises: every failure is its ``error``
    or a ``notes`` line."""
    refs = event_refs(env)
    if refs is None:
        return None
    base, head, route = refs
    test_ids = sorted({t for t in gated if t})
    out: dict[str, Any] = {"base": base, "head": head, "properties": len(test_ids),
                           "files": []}
    repository = env.get("GITHUB_REPOSITORY", "")
    if not token or not repository:
        out["error"] = ("GITHUB_REPOSITORY not set" if token
                        else "no token to ask GitHub with (github-token)")
        return out
    try:
        return _listed(out, test_ids, env, token=token, repository=repository,
                       manifest_path=manifest_path, root=root, policy_path=policy_path,
                       read_base=route == "pull_request", given=listed, loaded=loaded)
    except Exception as exc:  # only shown: a defect here must never decide the door
        out["files"] = []
        out["error"] = _one_line(f"{type(exc).__name__}: {exc}")
        return out


def _listed(out: dict[str, Any], test_ids: Sequence[str], env: Mapping[str, str], *,
            token: str, repository: str, manifest_path: str, root: str,
            policy_path: str, read_base: bool, given: Any = None,
            loaded: Any = frozenset()) -> dict[str, Any]:
    from gate.github import checks

    base, head = out["base"], out["head"]
    workspace = env.get("GITHUB_WORKSPACE") or os.getcwd()
    props, why = _head_properties(test_ids, manifest_path, root, workspace)
    settings = checks.Settings(
        token=token, api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
        repository=repository, head_sha=head, max_retries=2, max_wait=10.0)
    listed = given if given is not None else checks.changed_files(settings, base, head)
    if listed.error:
        if why:
            out["notes"] = [_one_line(f"{why}: files are judged by name only")]
        out["error"] = _one_line(listed.error)
        return out
    # on pull_request, the manifest in the checkout is the patch's own: the base commit's
    # counts too, so that dropping a fixture from it never hides that fixture's change
    based: list[judges.PropertyFiles] = []
    base_why = ""
    if read_base:
        try:
            based, base_why = base_properties(test_ids, settings, base, manifest_path, root,
                                              workspace)
        except Exception as exc:  # only adds to what is shown: never loses the list
            base_why = f"the base commit's manifest was not read ({type(exc).__name__}: {exc})"
    notes: list[str] = []
    if why:
        by = ("the base commit's manifest and by name" if read_base and not base_why
              else "name only")
        notes.append(f"{why}: files are judged by {by}")
    if base_why:
        by = "name only" if why else "the pull request's manifest and by name"
        notes.append(f"{base_why}: files are judged by {by}")
    if notes:
        out["notes"] = [_one_line(n) for n in notes]
    props = [*props, *based]
    out["changed"] = len(listed.files)
    if not listed.complete:
        out["complete"] = False
    config = {_repo_path(p, workspace): kind for p, kind in
              ((manifest_path, "manifest"), (policy_path, "policy")) if p}
    found = judges.judged(listed.files, props, config, frozenset(loaded))
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
