"""``gate act-summary LOG``: each job's summary, once, from an act ``--json`` log."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate.commands.args import OPEN, say
from gate.errors import GateInputError


def cmd_act_summary(args: argparse.Namespace) -> int:
    from gate.records import act_log
    from gate.records.files import read_bytes_capped

    path = Path(args.log)
    data = read_bytes_capped(path, 1 << 30)
    found = act_log.summaries(act_log.records(data.decode("utf-8", "replace").splitlines()))
    if not found:
        raise GateInputError(str(path), "(log)", "no job of an act --json log in it; run act "
                             "with --json and give the file its standard output went to")
    shown = [run for run in found if run.text or args.all]
    for index, run in enumerate(shown):
        if index:
            say("")
        say(f"=== {run.title} ===")
        for line in run.text.rstrip("\n").splitlines():
            say(line)  # one log line each: a summary line never starts a workflow command
    if not shown:
        say(f"no job summary in {path} ({len(found)} job runs; a summary is what a step "
            "appends to $GITHUB_STEP_SUMMARY)")
    return OPEN
