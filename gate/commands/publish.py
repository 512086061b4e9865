"""``gate publish``, ``gate summary`` and ``gate outputs``: a report shown on GitHub."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping

from gate.commands.args import policy_path, say
from gate.github.publish import (
    exit_code,
    load_report,
    publish_report,
    write_outputs,
    write_summary,
)
from gate.records.report_data import Report


def _report(args: argparse.Namespace) -> Report:
    """The report, refused when it says open under a policy that requires signed stamps
    (gate.commands.signed)."""
    from gate.commands import signed
    from gate.records import policy

    report = load_report(args.report)
    signed.refuse_open_report(policy.load(policy_path(args)), report.decision, args.report)
    return report


def cmd_publish(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> int:
    env = os.environ if env is None else env
    report = _report(args)
    url, notes = publish_report(report, env, name=args.name, external_id=args.external_id,
                                max_retries=args.max_retries, backoff=args.backoff,
                                max_wait=args.max_wait, timeout=args.timeout)
    if url:
        say(url)
    write_outputs(env, {"check-run-url": url or "", "publish-note": notes[0] if notes else ""})
    if args.summary:
        write_summary(report, url, notes, None, env)
    return exit_code(report)


def cmd_summary(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> int:
    env = os.environ if env is None else env
    report = _report(args)
    if not write_summary(report, args.check_run_url, list(args.note), args.out, env):
        from gate.github import workflow

        sys.stderr.write(workflow.log_line("gate: job summary not written: the step's 1 MiB "
                                           "summary limit is used up") + "\n")
    return exit_code(report)


def cmd_outputs(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> int:
    from gate.github import workflow

    env = os.environ if env is None else env
    report = _report(args)
    values = workflow.report_outputs(report, args.report)
    if env.get("GITHUB_OUTPUT"):
        write_outputs(env, values)
    else:
        for name, value in values.items():
            say(f"{name}={value}")
    return exit_code(report)
