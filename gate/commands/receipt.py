"""``gate receipt write|verify|selftest``: the receipt binder (SPEC §5)."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate.commands.args import CLOSED, OPEN, print_json, say
from gate.errors import GateInputError


def _sha256_file(path: str) -> str:
    from gate.records import hashing

    return hashing.file_digest(path)[1].hex()


def cmd_receipt_write(args: argparse.Namespace) -> int:
    from gate.records import receipts
    from gate.records.files import canonical_json, read_json, write_once

    reasons = read_json(Path(args.reasons_file))
    try:
        receipt = receipts.build(
            diff_sha256=_sha256_file(args.diff), prompt_sha256=_sha256_file(args.prompt),
            model_id=args.model, workspace_generation=args.workspace_gen,
            verdict=args.verdict, reasons=reasons,
        )
    except receipts.ReceiptWriteError as exc:
        source = args.reasons_file if exc.field.startswith("reasons") else "(arguments)"
        raise GateInputError(source, exc.field, str(exc)) from None
    document = receipts.to_in_toto(receipt) if args.format == "in-toto" else receipt
    write_once(Path(args.out), canonical_json(document) + b"\n")
    say(args.out)
    return OPEN


def cmd_receipt_verify(args: argparse.Namespace) -> int:
    from gate.records import load as records

    result = records.verify_receipt_files(Path(args.receipt), args.diff, args.prompt,
                                          args.model, args.workspace_gen, args.attempt_id,
                                          Path(args.dir))
    if args.json:
        print_json(result.to_record())
    else:
        say(result.line)
    return OPEN if result.accepted else CLOSED


def cmd_receipt_bootstrap(args: argparse.Namespace) -> int:
    from gate.records import attempts

    folder, generation = attempts.bootstrap(Path(args.dir), args.attempt_id)
    if args.json:
        print_json({"attempt_id": args.attempt_id, "dir": str(folder),
                    "workspace_generation": generation})
    else:
        say(generation)
    return OPEN


def cmd_receipt_selftest(args: argparse.Namespace) -> int:
    from gate.commands import selftest

    return OPEN if selftest.run_receipt_selftest(say) else CLOSED
