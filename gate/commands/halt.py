"""``gate halt bind|check|audit|repair-tail|hook``: the halt gate (SPEC §2) and its ledger."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gate.commands.args import CLOSED, OPEN, print_json, say


def _ledger(args: argparse.Namespace) -> Any:
    from gate.records import ledger, policy

    pol = policy.load(Path(args.policy) if args.policy else None)
    report_path = getattr(args, "halt_report", None)
    path = Path(args.ledger)
    halts = Path(report_path) if report_path else path.with_name(path.name + ".halts.jsonl")
    return ledger.Ledger(path, pol.halt, halts), pol


def cmd_halt_bind(args: argparse.Namespace) -> int:
    book, pol = _ledger(args)
    marker = None if args.no_marker else (args.marker or pol.halt.expected_marker)
    binding = book.bind(args.run_id, args.scope, args.host, marker, args.target_class,
                        expect_generation=args.expect_generation)
    print_json(binding.to_record())
    return OPEN


def cmd_halt_check(args: argparse.Namespace) -> int:
    from gate.decide import halt
    from gate.records import load as records

    book, _ = _ledger(args)
    binding = halt.Binding.from_record(records.load_binding(Path(args.binding)))
    result = book.check(binding, args.issued_gen, args.attempt_id, args.expect)
    if args.json:
        print_json({"decision": result.decision.value, "row": result.row,
                     "reason": result.reason, "target_class": result.target_class.value,
                     "replayed": result.replayed})
    else:
        say(result.decision.value)
    return OPEN if result.decision is halt.Decision.ALLOW else CLOSED


def cmd_halt_hook(args: argparse.Namespace) -> int:
    """Reached only through the parser (``gate.commands.main.main`` runs the hook before it)."""
    from gate.agent import hook

    return hook.main(list(args.hook_argv))


def cmd_halt_repair_tail(args: argparse.Namespace) -> int:
    from gate.records import ledger

    try:
        line, kept = ledger.repair_tail(Path(args.ledger))
    except ledger.LedgerError as exc:
        say(f"repair refused: {exc.field}: {exc.message}; nothing was changed")
        return CLOSED
    if kept is None:
        say("no torn tail: nothing to repair")
    else:
        say(f"torn tail at line {line} moved to {kept}; the ledger ends at line {line - 1}")
    return OPEN


def cmd_halt_audit(args: argparse.Namespace) -> int:
    from gate.records import ledger, policy

    pol = policy.load(Path(args.policy) if args.policy else None)
    result = ledger.audit(Path(args.ledger), pol.halt)
    if args.json:
        print_json(result.to_record())
    else:
        for problem in result.problems:
            say(problem)
        say(f"failed={result.failed} denominator={result.denominator}")
    return OPEN if result.passed else CLOSED
