"""``gate policy check``: the reviewed policy file's findings."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate.commands.args import CLOSED, OPEN, clock, say
from gate.errors import GateInputError


def cmd_policy_check(args: argparse.Namespace) -> int:
    from gate.records import policy

    if args.max_days is not None and not 1 <= args.max_days <= 3650:
        raise GateInputError("gate policy check", "--max-days", "must be between 1 and 3650")
    pol = policy.load(Path(args.file))
    now = clock(args)
    ids: set[str] | None = None
    if args.manifest:
        from gate.records import manifest

        ids = {prop.test_id for path in args.manifest
               for prop in manifest.load(Path(path), Path(args.root))}
    findings = policy.check(pol, now, args.max_days, ids)
    for line in policy.describe(pol, now):
        say(f"{args.file}: {line}")
    for finding in findings:
        say(f"{args.file}: {finding}")
    say(f"policy: {len(pol.allowlist)} entries, {len(findings)} findings")
    return CLOSED if findings else OPEN
