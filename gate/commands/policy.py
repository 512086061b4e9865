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
    cards: dict[str, tuple[str, dict[str, object]]] | None = None
    manifests = list(args.manifest or [])
    if not manifests:
        from gate.records.manifest import DEFAULT_MANIFEST

        if (Path(args.root) / DEFAULT_MANIFEST).is_file():
            manifests = [str(Path(args.root) / DEFAULT_MANIFEST)]
    if manifests:
        from gate.records import manifest

        props = [prop for path in manifests for prop in manifest.load(Path(path), Path(args.root))]
        ids = {prop.test_id for prop in props}
        allowlisted = {entry.test_id for entry in pol.allowlist}
        cards = {prop.test_id: (prop.card.as_posix(), manifest.card_of(prop)) for prop in props
                 if prop.test_id in allowlisted}
    findings = policy.check(pol, now, args.max_days, ids, cards)
    for line in policy.describe(pol, now):
        say(f"{args.file}: {line}")
    for finding in findings:
        say(f"{args.file}: {finding}")
    for line in policy.describe_signing(pol.signing):
        say(f"{args.file}: {line}")
    say(f"{args.file}: {policy.describe_ungated(pol)}")
    say(f"policy: {len(pol.allowlist)} entries, {len(findings)} findings")
    return CLOSED if findings else OPEN
