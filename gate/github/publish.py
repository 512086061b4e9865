"""``gate publish``, ``gate summary`` and ``gate outputs``: the GitHub surfaces of a report.

Exit status always follows the report's decision (0 open, 1 closed; 2 for bad input or usage),
never whether GitHub accepted anything. PyGithub is imported only when ``gate publish`` runs.

Environment read by ``gate publish``:

* ``GITHUB_TOKEN`` (needs ``checks: write``), ``GITHUB_API_URL`` (default
  ``https://api.github.com``; GitHub Enterprise Server: ``https://HOST/api/v3``),
  ``GITHUB_REPOSITORY`` (``owner/repo``), ``GITHUB_SHA``, ``GITHUB_EVENT_PATH`` (the head SHA of
  ``pull_request.head.sha``, ``workflow_run.head_sha`` or ``merge_group.head_sha``, wins over
  ``GITHUB_SHA``);
* ``GITHUB_RUN_ID``, ``GITHUB_RUN_ATTEMPT``, ``GITHUB_JOB`` (default ``external_id``),
  ``GITHUB_SERVER_URL`` (``details_url`` of the run), ``RUNNER_TEMP`` (idempotency marker),
  ``GITHUB_WORKSPACE`` (stripped from absolute annotation paths);
* ``GITHUB_OUTPUT`` (``check-run-url`` and ``publish-note`` are written when set),
  ``GITHUB_STEP_SUMMARY`` (with ``--summary``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.errors import GateInputError

if TYPE_CHECKING:
    from gate.github.checks import Settings
    from gate.github.review import View
    from gate.records.report_data import Report

OPEN, CLOSED, BAD = 0, 1, 2
_HEX40 = re.compile(r"[0-9a-fA-F]{40}")
DEFAULT_API_URL = "https://api.github.com"


def exit_code(report: Report) -> int:
    return OPEN if report.decision == "open" else CLOSED


def load_report(path: str) -> Report:
    from gate.records import load as records

    return records.load_report(Path(path))


def head_sha(env: Mapping[str, str]) -> str | None:
    """``pull_request.head.sha`` (or, in a ``workflow_run`` event, ``workflow_run.head_sha``; in
    a ``merge_group`` event, ``merge_group.head_sha``, the commit the queue tests) from the
    event payload when there is one, else ``GITHUB_SHA``."""
    from gate.records.files import read_json

    event_path = env.get("GITHUB_EVENT_PATH")
    if event_path:
        try:
            event = read_json(Path(event_path))
        except GateInputError:
            event = None
        pr = event.get("pull_request") if isinstance(event, dict) else None
        head = pr.get("head") if isinstance(pr, dict) else None
        sha = head.get("sha") if isinstance(head, dict) else None
        for key in ("workflow_run", "merge_group"):  # a queue's group: its own head commit
            run = event.get(key) if isinstance(event, dict) and sha is None else None
            if isinstance(run, dict):
                sha = run.get("head_sha")
        if isinstance(sha, str) and _HEX40.fullmatch(sha):
            return sha.lower()
    sha = env.get("GITHUB_SHA", "")
    return sha.lower() if _HEX40.fullmatch(sha) else None


def pr_number(env: Mapping[str, str]) -> int | None:
    """The pull request's number from the event payload, or None (not a pull request). In a
    ``workflow_run`` workflow: the one pull request the event names (GitHub lists none for a
    pull request from a fork, so there is no comment then)."""
    from gate.records.files import read_json

    event_path = env.get("GITHUB_EVENT_PATH")
    if not event_path:
        return None
    try:
        event = read_json(Path(event_path))
    except GateInputError:
        return None
    pr = event.get("pull_request") if isinstance(event, dict) else None
    if pr is None and isinstance(event, dict) and isinstance(event.get("workflow_run"), dict):
        listed = event["workflow_run"].get("pull_requests")
        pr = listed[0] if isinstance(listed, list) and len(listed) == 1 else None
    number = pr.get("number") if isinstance(pr, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) and number > 0 \
        else None


def post_comment(report: Report, env: Mapping[str, str], *, name: str, mode: str,
                 view: View | None = None) -> str:
    """The optional pull-request comment; returns one log line saying what happened."""
    from gate.github import checks, comment

    todo = comment.action(mode, report)
    if todo == "none":
        return ""
    number = pr_number(env)
    if number is None:
        return "gate: no pull-request comment: this run is not for a pull request"
    settings, missing = _check_settings(env, name=name, view=view, max_retries=2,
                                        max_wait=10.0)
    if settings is None:
        return f"gate: pull-request comment not posted: {missing}"
    body = comment.body(report, name, settings.view)
    result = checks.upsert_comment(settings, number, comment.marker(name), body,
                                   create=todo == "create")
    if result.skipped:
        return ""
    if not result.posted:
        return (f"gate: pull-request comment not posted (it needs pull-requests: write): "
                f"{result.reason}")
    return (f"gate: pull-request comment {'created' if result.created else 'updated'}: "
            f"{result.url or ''}")


def default_external_id(env: Mapping[str, str]) -> str | None:
    run_id, attempt, job = (env.get(k, "") for k in ("GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT",
                                                      "GITHUB_JOB"))
    if not run_id:
        return None
    return f"{run_id}-{attempt or '1'}-{job or 'job'}"


def _details_url(env: Mapping[str, str]) -> str | None:
    server, repo, run_id = (env.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY",
                                                     "GITHUB_RUN_ID"))
    if server.startswith(("https://", "http://")) and repo and run_id.isdigit():
        return f"{server.rstrip('/')}/{repo}/actions/runs/{run_id}"
    return None


def view_from_env(env: Mapping[str, str], **extra: Any) -> View:
    """Where the reviewer's links point (:class:`gate.github.review.View`), from the job's
    environment: ``GITHUB_SERVER_URL``, ``GITHUB_REPOSITORY``, the head SHA, the run page."""
    from gate.github import review

    server = env.get("GITHUB_SERVER_URL", "") or "https://github.com"
    run_url = _details_url({**env, "GITHUB_SERVER_URL": server})
    return review.View(server_url=server if server.startswith(("https://", "http://")) else None,
                       repository=env.get("GITHUB_REPOSITORY") or None, head_sha=head_sha(env),
                       workspace=env.get("GITHUB_WORKSPACE") or None, run_url=run_url, **extra)


def write_summary(report: Report, url: str | None, notes: list[str],
                  out: str | None, env: Mapping[str, str], view: View | None = None) -> bool:
    from gate.github import summary, workflow
    from gate.records.files import write_replace

    view = view if view is not None else view_from_env(env)
    if out:
        text = summary.render(report, url, notes, view=view)
        write_replace(Path(out), text.encode("utf-8"))
        return True
    target = env.get("GITHUB_STEP_SUMMARY")
    if target:
        path = Path(target)
        try:  # a surface that cannot be written is reported; the decision's status stands
            room = workflow.summary_room(path) - 16
            if room <= 0:
                return False
            text = summary.render(report, url, notes, max_bytes=min(room,
                                                                    summary.DEFAULT_MAX_BYTES),
                                  view=view)
            return workflow.append_step_summary(path, text)
        except GateInputError as exc:
            surface_not_written("GITHUB_STEP_SUMMARY", "job summary", exc)
            return True
    sys.stdout.write(summary.render(report, url, notes, view=view))
    return True


def write_outputs(env: Mapping[str, str], values: Mapping[str, str]) -> None:
    from gate.github import workflow

    target = env.get("GITHUB_OUTPUT")
    if target:
        try:
            workflow.append_outputs(Path(target), values)
        except (GateInputError, OSError, ValueError) as exc:
            surface_not_written("GITHUB_OUTPUT", "outputs", exc)


def surface_not_written(variable: str, what: str, exc: Exception) -> None:
    """One stderr line for a GitHub surface that cannot be written (the exit status stays the
    decision's: the surface only shows the decision)."""
    from gate.github import workflow

    sys.stderr.write(workflow.log_line(f"gate: {what} not written (${variable}): {exc}") + "\n")


def _check_settings(env: Mapping[str, str], *, name: str, external_id: str | None = None,
                    max_retries: int = 3, backoff: float = 1.0, max_wait: float = 60.0,
                    timeout: int = 15, view: View | None = None,
                    memory: str = "") -> tuple[Settings | None, str]:
    """checks.Settings from the environment, or (None, what is missing)."""
    from gate.github import checks

    sha = head_sha(env)
    repository = env.get("GITHUB_REPOSITORY", "")
    missing = [key for key, value in (("GITHUB_TOKEN", env.get("GITHUB_TOKEN")),
                                      ("GITHUB_REPOSITORY", repository),
                                      ("GITHUB_SHA", sha)) if not value]
    if missing:
        return None, f"{', '.join(missing)} not set"
    runner_temp = env.get("RUNNER_TEMP")
    return checks.Settings(
        token=env["GITHUB_TOKEN"],
        api_url=env.get("GITHUB_API_URL") or DEFAULT_API_URL,
        repository=repository,
        head_sha=str(sha),
        name=name,
        external_id=external_id or default_external_id(env),
        details_url=_details_url(env),
        max_retries=max_retries,
        backoff=backoff,
        max_wait=max_wait,
        timeout=timeout,
        state_dir=Path(runner_temp) / "agent-patch-gate" if runner_temp else None,
        workspace=env.get("GITHUB_WORKSPACE") or None,
        view=view if view is not None else view_from_env(env),
        memory=memory,
    ), ""


def publish_report(report: Report, env: Mapping[str, str], *, name: str,
                   external_id: str | None = None, max_retries: int = 3, backoff: float = 1.0,
                   max_wait: float = 60.0, timeout: int = 15,
                   view: View | None = None, memory: str = "") -> tuple[str | None, list[str]]:
    """Publish the check run; without one, print why and the workflow-command annotations.
    ``memory``: the hidden re-run record ending its text (gate/github/rerun.py).

    Returns the check run URL (None when not published) and the notes for the job summary.
    """
    from gate.github import checks, review, workflow

    settings, missing = _check_settings(env, name=name, external_id=external_id,
                                        max_retries=max_retries, backoff=backoff,
                                        max_wait=max_wait, timeout=timeout, view=view,
                                        memory=memory)
    if settings is None:
        result = checks.PublishResult(False, missing)
    else:
        result = checks.publish(report, settings)
    if result.published:
        return result.url or None, []
    why = f"check run not published: {result.reason}"
    print(workflow.log_line(why))
    print(workflow.command(workflow.Annotation("warning", why,
                                               title="gate: check run not published")))
    for line in review.annotation_commands(report, env.get("GITHUB_WORKSPACE")):
        print(line)
    return None, [why]


def publish_error(what: str, env: Mapping[str, str], *, name: str,
                  view: View | None = None, memory: str = "") -> tuple[str | None, list[str]]:
    """A ``failure`` check run saying what went wrong (the gate could not decide)."""
    from gate.github import checks, workflow

    settings, missing = _check_settings(env, name=name, view=view, max_retries=2,
                                        max_wait=10.0, memory=memory)
    result = (checks.publish_error(what, settings) if settings is not None
              else checks.PublishResult(False, missing))
    if result.published:
        return result.url or None, []
    why = f"check run not published: {result.reason}"
    print(workflow.log_line(why))
    return None, [why]
