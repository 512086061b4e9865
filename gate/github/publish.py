"""``gate publish``, ``gate summary`` and ``gate outputs``: the GitHub surfaces of a report.

Exit status always follows the report's decision (0 open, 1 closed; 2 for bad input or usage),
never whether GitHub accepted anything. PyGithub is imported only when ``gate publish`` runs.

Environment read by ``gate publish``:

* ``GITHUB_TOKEN`` (needs ``checks: write``), ``GITHUB_API_URL`` (default
  ``https://api.github.com``; GitHub Enterprise Server: ``https://HOST/api/v3``),
  ``GITHUB_REPOSITORY`` (``owner/repo``), ``GITHUB_SHA``, ``GITHUB_EVENT_PATH`` (the head SHA of
  ``pull_request.head.sha`` wins over ``GITHUB_SHA``);
* ``GITHUB_RUN_ID``, ``GITHUB_RUN_ATTEMPT``, ``GITHUB_JOB`` (default ``external_id``),
  ``GITHUB_SERVER_URL`` (``details_url`` of the run), ``RUNNER_TEMP`` (idempotency marker),
  ``GITHUB_WORKSPACE`` (stripped from absolute annotation paths);
* ``GITHUB_OUTPUT`` (``check-run-url`` and ``publish-note`` are written when set),
  ``GITHUB_STEP_SUMMARY`` (with ``--summary``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gate.errors import GateInputError

OPEN, CLOSED, BAD = 0, 1, 2
_HEX40 = re.compile(r"[0-9a-fA-F]{40}")
DEFAULT_API_URL = "https://api.github.com"


def _exit_code(report: Mapping[str, Any]) -> int:
    return OPEN if report.get("decision") == "open" else CLOSED


def _load(path: str) -> dict[str, Any]:
    from gate import records

    return records.load_report(Path(path))


def head_sha(env: Mapping[str, str]) -> str | None:
    """``pull_request.head.sha`` from the event payload when there is one, else ``GITHUB_SHA``."""
    from gate.files import read_json

    event_path = env.get("GITHUB_EVENT_PATH")
    if event_path:
        try:
            event = read_json(Path(event_path))
        except GateInputError:
            event = None
        pr = event.get("pull_request") if isinstance(event, dict) else None
        head = pr.get("head") if isinstance(pr, dict) else None
        sha = head.get("sha") if isinstance(head, dict) else None
        if isinstance(sha, str) and _HEX40.fullmatch(sha):
            return sha.lower()
    sha = env.get("GITHUB_SHA", "")
    return sha.lower() if _HEX40.fullmatch(sha) else None


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


def write_summary(report: Mapping[str, Any], url: str | None, notes: list[str],
                   out: str | None, env: Mapping[str, str]) -> bool:
    from gate import summary, workflow
    from gate.files import write_replace

    if out:
        text = summary.render(report, url, notes)
        write_replace(Path(out), text.encode("utf-8"))
        return True
    target = env.get("GITHUB_STEP_SUMMARY")
    if target:
        path = Path(target)
        room = workflow.summary_room(path) - 16
        if room <= 0:
            return False
        text = summary.render(report, url, notes, max_bytes=min(room,
                                                                summary.DEFAULT_MAX_BYTES))
        return workflow.append_step_summary(path, text)
    sys.stdout.write(summary.render(report, url, notes))
    return True


def write_outputs(env: Mapping[str, str], values: Mapping[str, str]) -> None:
    from gate import workflow

    target = env.get("GITHUB_OUTPUT")
    if target:
        try:
            workflow.append_outputs(Path(target), values)
        except (OSError, ValueError) as exc:
            print(workflow.log_line(f"gate: outputs not written: {exc}"), file=sys.stderr)


def publish_report(report: Mapping[str, Any], env: Mapping[str, str], *, name: str,
                   external_id: str | None = None, max_retries: int = 3, backoff: float = 1.0,
                   max_wait: float = 60.0, timeout: int = 15) -> tuple[str | None, list[str]]:
    """Publish the check run; without one, print why and the workflow-command annotations.

    Returns the check run URL (None when not published) and the notes for the job summary.
    """
    from gate import checks, workflow

    sha = head_sha(env)
    repository = env.get("GITHUB_REPOSITORY", "")
    missing = [key for key, value in (("GITHUB_TOKEN", env.get("GITHUB_TOKEN")),
                                      ("GITHUB_REPOSITORY", repository),
                                      ("GITHUB_SHA", sha)) if not value]
    if missing:
        result = checks.PublishResult(False, f"{', '.join(missing)} not set")
    else:
        runner_temp = env.get("RUNNER_TEMP")
        settings = checks.Settings(
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
        )
        result = checks.publish(report, settings)
    if result.published:
        return result.url or None, []
    why = f"check run not published: {result.reason}"
    print(workflow.log_line(why))
    print(workflow.command(workflow.Annotation("warning", why,
                                               title="gate: check run not published")))
    for line in workflow.annotation_commands(report, env.get("GITHUB_WORKSPACE")):
        print(line)
    return None, [why]


def cmd_publish(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> int:
    env = os.environ if env is None else env
    report = _load(args.report)
    url, notes = publish_report(report, env, name=args.name, external_id=args.external_id,
                                max_retries=args.max_retries, backoff=args.backoff,
                                max_wait=args.max_wait, timeout=args.timeout)
    if url:
        print(url)
    write_outputs(env, {"check-run-url": url or "", "publish-note": notes[0] if notes else ""})
    if args.summary:
        write_summary(report, url, notes, None, env)
    return _exit_code(report)


def cmd_summary(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> int:
    env = os.environ if env is None else env
    report = _load(args.report)
    if not write_summary(report, args.check_run_url, list(args.note), args.out, env):
        from gate import workflow

        print(workflow.log_line("gate: job summary not written: the step's 1 MiB summary "
                                "limit is used up"), file=sys.stderr)
    return _exit_code(report)


def cmd_outputs(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> int:
    from gate import workflow

    env = os.environ if env is None else env
    report = _load(args.report)
    values = workflow.report_outputs(report, args.report)
    if env.get("GITHUB_OUTPUT"):
        write_outputs(env, values)
    else:
        for name, value in values.items():
            print(workflow.log_line(f"{name}={value}"))
    return _exit_code(report)


def add_commands(sub: Any) -> None:
    """Register ``publish``, ``summary`` and ``outputs`` on ``gate``'s subparsers object."""

    def add(name: str, func: Callable[[argparse.Namespace], int], help_: str
            ) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = sub.add_parser(name, help=help_, description=help_)
        parser.set_defaults(func=func)
        parser.add_argument("--report", required=True, metavar="FILE",
                            help="the JSON report written by gate classify --report")
        return parser

    p = add("publish", cmd_publish, "publish the report as a check run (PyGithub)")
    p.add_argument("--name", default="agent-patch gate", help="check run name")
    p.add_argument("--external-id", metavar="ID",
                   help="default: $GITHUB_RUN_ID-$GITHUB_RUN_ATTEMPT-$GITHUB_JOB")
    p.add_argument("--max-retries", type=int, default=3, metavar="N")
    p.add_argument("--backoff", type=float, default=1.0, metavar="SECONDS")
    p.add_argument("--max-wait", type=float, default=60.0, metavar="SECONDS",
                   help="longest Retry-After honoured")
    p.add_argument("--timeout", type=int, default=15, metavar="SECONDS")
    p.add_argument("--summary", action="store_true",
                   help="also append the job summary (with the link or why there is none)")

    p = add("summary", cmd_summary, "write the job summary Markdown")
    p.add_argument("--check-run-url", metavar="URL")
    p.add_argument("--note", action="append", default=[], metavar="TEXT",
                   help="a line to show (e.g. why no check run); repeatable")
    p.add_argument("--out", metavar="FILE",
                   help="default: append to $GITHUB_STEP_SUMMARY, else print")

    add("outputs", cmd_outputs, "write the step outputs ($GITHUB_OUTPUT) from a report")
