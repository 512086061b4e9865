"""The ``gate`` command. Exit status: 0 the door is open, 1 it is closed, 2 bad input or usage.

Every error is one line on stderr naming the file and the field. GitHub is never imported here.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from gate import __version__
from gate.errors import GateInputError

OPEN, CLOSED, BAD = 0, 1, 2
DEFAULT_POLICY = Path(".github/gate-policy.yml")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise GateInputError(self.prog, "(usage)", f"{message} (see --help)")


def _print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True) + "\n")


def _now(args: argparse.Namespace) -> int:
    return int(args.now) if args.now is not None else int(time.time())


def _policy_path(args: argparse.Namespace) -> Path | None:
    if args.policy is not None:
        return Path(args.policy)
    return DEFAULT_POLICY if DEFAULT_POLICY.is_file() else None


# --- hash and pin -----------------------------------------------------------------------------


def cmd_hash(args: argparse.Namespace) -> int:
    from gate import hashing, records

    card = records.load_card(Path(args.card)) if args.card else None
    value = hashing.fixture_hash([Path(p) for p in args.paths], Path(args.root), card)
    if args.json:
        _print_json({"fixture_hash": value, "format": hashing.FORMAT.decode().strip()})
    else:
        print(value)
    return OPEN


def cmd_pin(args: argparse.Namespace) -> int:
    from gate import hashing

    pinned = hashing.pin(Path(args.file), Path(args.store) if args.store else None)
    if args.json:
        _print_json({"fixture_sha256": pinned.fixture_sha256, "fixture_path": pinned.fixture_path})
    else:
        print(f"fixture_sha256={pinned.fixture_sha256}")
        if pinned.fixture_path is not None:
            print(f"fixture_path={pinned.fixture_path}")
    return OPEN


# --- pair gates -------------------------------------------------------------------------------


def _emit_pair(pair: dict[str, Any], args: argparse.Namespace, with_action: bool) -> None:
    from gate import report

    if args.json:
        _print_json(pair)
        return
    if with_action:
        print(f"action={pair['action']}")
    for line in report.four_lines(pair):
        print(line)


def cmd_classify(args: argparse.Namespace) -> int:
    from gate import policy, records, report, stamps

    if args.stamps is not None:
        from gate import pairing

        if args.pair:
            raise GateInputError("gate classify", "(usage)",
                                 "give LOCAL.json REMOTE.json or --stamps DIR, not both")

        return pairing.classify_folder(args, _now(args), _policy_path(args))
    if len(args.pair) != 2:
        raise GateInputError("gate classify", "(usage)",
                             "give LOCAL.json REMOTE.json, or --stamps DIR")
    now = _now(args)
    pol = policy.load(_policy_path(args))
    first, second = (records.load_stamp(Path(p)) for p in args.pair)
    result = stamps.classify_pair(first, second, pol.allowlist, now)
    pair = report.cross_class_pair(first, second, result, (args.pair[0], args.pair[1]))
    if args.report:
        records.write_report(Path(args.report), report.build([pair], now))
    _emit_pair(pair, args, with_action=True)
    return OPEN if result.door_open else CLOSED


def cmd_triage(args: argparse.Namespace) -> int:
    from gate import digest, records, report

    left, right = (records.load_run_or_stamp(Path(p)) for p in (args.left, args.right))
    result = digest.classify_runs(left, right)
    runs = [{"run_id": str(r.get("run_id", "")), "server_class": str(r.get("server_class", "")),
             "outcome": str(r.get("outcome", ""))} for r in (left, right)]
    test_id = str(left.get("test_id") or right.get("test_id") or "(unnamed)")
    pair = report.same_class_pair(test_id, left, right, result, runs)
    _emit_pair(pair, args, with_action=False)
    return OPEN if result.freeze_allowed else CLOSED


# --- receipts ---------------------------------------------------------------------------------


def _sha256_file(path: str) -> str:
    from gate import hashing

    return hashing.file_digest(path)[1].hex()


def cmd_receipt_write(args: argparse.Namespace) -> int:
    from gate import receipts
    from gate.files import canonical_json, read_json, write_once

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
    print(args.out)
    return OPEN


def cmd_receipt_verify(args: argparse.Namespace) -> int:
    from gate import records

    result = records.verify_receipt_files(Path(args.receipt), args.diff, args.prompt,
                                          args.model, args.workspace_gen)
    if args.json:
        _print_json(result.to_record())
    else:
        print(result.line)
    return OPEN if result.accepted else CLOSED


def cmd_receipt_selftest(args: argparse.Namespace) -> int:
    from gate import selftest

    return OPEN if selftest.run_receipt_selftest(print) else CLOSED


# --- halt gate --------------------------------------------------------------------------------


def _ledger(args: argparse.Namespace) -> Any:
    from gate import ledger, policy

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
    _print_json(binding.to_record())
    return OPEN


def cmd_halt_check(args: argparse.Namespace) -> int:
    from gate import halt, records

    book, _ = _ledger(args)
    binding = halt.Binding.from_record(records.load_binding(Path(args.binding)))
    result = book.check(binding, args.issued_gen, args.attempt_id, args.expect)
    if args.json:
        _print_json({"decision": result.decision.value, "row": result.row,
                     "reason": result.reason, "target_class": result.target_class.value,
                     "replayed": result.replayed})
    else:
        print(result.decision.value)
    return OPEN if result.decision is halt.Decision.ALLOW else CLOSED


def cmd_halt_hook(args: argparse.Namespace) -> int:
    from gate import hook

    return hook.main(args)


def cmd_halt_repair_tail(args: argparse.Namespace) -> int:
    from gate import ledger

    try:
        line, kept = ledger.repair_tail(Path(args.ledger))
    except ledger.LedgerError as exc:
        print(f"repair refused: {exc.field}: {exc.message}; nothing was changed")
        return CLOSED
    if kept is None:
        print("no torn tail: nothing to repair")
    else:
        print(f"torn tail at line {line} moved to {kept}; the ledger ends at line {line - 1}")
    return OPEN


def cmd_halt_audit(args: argparse.Namespace) -> int:
    from gate import ledger, policy

    pol = policy.load(Path(args.policy) if args.policy else None)
    result = ledger.audit(Path(args.ledger), pol.halt)
    if args.json:
        _print_json(result.to_record())
    else:
        for problem in result.problems:
            print(problem)
        print(f"failed={result.failed} denominator={result.denominator}")
    return OPEN if result.passed else CLOSED


# --- stamping -----------------------------------------------------------------------------------


def _stamp_usage(flag: str, message: str) -> GateInputError:
    return GateInputError("gate stamp", flag, message)


def cmd_stamp(args: argparse.Namespace) -> int:
    from gate import manifest, outcome, policy, stamping

    command: list[str] | None = args.command_argv
    if command is not None and not command:
        raise _stamp_usage("--", "no command after --")
    if (command is None) == (args.exit_code is None):
        raise _stamp_usage("(usage)", "give either -- COMMAND [ARG...] or --exit-code N")
    if command is not None:
        for flag, value in (("--body-bytes", args.body_bytes),
                            ("--assertion-failed", args.assertion_failed or None)):
            if value is not None:
                raise _stamp_usage(flag, "only with --exit-code (a recorded run); a command's "
                                   "output is counted and its assertions read from --junit")
    elif args.timeout is not None:
        raise _stamp_usage("--timeout", "only with -- COMMAND")
    if args.timeout is not None and not args.timeout > 0:
        raise _stamp_usage("--timeout", "must be a positive number of seconds")
    if args.body_bytes is not None and args.body_bytes < 0:
        raise _stamp_usage("--body-bytes", "must be at least 0")
    if args.assertion_failed and args.junit:
        raise _stamp_usage("--assertion-failed", "not with --junit: the report says which "
                           "assertion failed")
    root = Path(args.root)
    if args.manifest is not None:
        for flag, value in (("--card", args.card), ("--test-id", args.test_id),
                            ("--fixtures", args.fixtures), ("--sample", args.sample),
                            ("--run-id", args.run_id), ("--junit-name", args.junit_name),
                            ("--junit-classname", args.junit_classname)):
            if value:
                raise _stamp_usage(flag, "comes from the manifest with --manifest")
        if not args.junit:
            raise _stamp_usage("--junit", "required with --manifest (one run, many properties)")
        props = manifest.load(Path(args.manifest), root)
        run_ids = stamping.manifest_run_ids(len(props), args.run_id_prefix)
    else:
        for flag, value in (("--card", args.card), ("--test-id", args.test_id),
                            ("--fixtures", args.fixtures)):
            if not value:
                raise _stamp_usage(flag, "required (or --manifest FILE)")
        if args.run_id_prefix is not None:
            raise _stamp_usage("--run-id-prefix", "only with --manifest; use --run-id")
        props = [manifest.Property(
            test_id=args.test_id, card=Path(args.card),
            fixtures=tuple(Path(p) for p in args.fixtures),
            sample=Path(args.sample) if args.sample else None,
            junit_classname=args.junit_classname,
            junit_name=args.junit_name or args.test_id, location=None)]
        run_ids = [args.run_id or stamping.new_run_id()]
    pol = policy.load(_policy_path(args))
    recorded = None
    if args.exit_code is not None:
        recorded = outcome.ProcessResult(args.exit_code, None, False, args.body_bytes, None)
    request = stamping.Request(
        properties=props, server_class=args.server_class, out=Path(args.out), root=root,
        run_ids=run_ids, timeout_codes=pol.timeout_exit_codes,
        junit_path=Path(args.junit) if args.junit else None,
        store=Path(args.store) if args.store else None, command=command,
        timeout=args.timeout, recorded=recorded, assertion_failed=args.assertion_failed)
    written = stamping.stamp_run(request)
    if args.json:
        _print_json([{"path": str(path), "stamp": stamp} for path, stamp in written])
    else:
        for path, stamp in written:
            print(f"stamped {path} test_id={stamp['test_id']} outcome={stamp['outcome']}")
    return OPEN


# --- policy and demo --------------------------------------------------------------------------


def cmd_policy_check(args: argparse.Namespace) -> int:
    from gate import policy

    if args.max_days is not None and not 1 <= args.max_days <= 3650:
        raise GateInputError("gate policy check", "--max-days", "must be between 1 and 3650")
    pol = policy.load(Path(args.file))
    findings = policy.check(pol, _now(args), args.max_days)
    for finding in findings:
        print(f"{args.file}: {finding}")
    print(f"policy: {len(pol.allowlist)} entries, {len(findings)} findings")
    return CLOSED if findings else OPEN


def cmd_demo(args: argparse.Namespace) -> int:
    from gate import demo

    return OPEN if demo.run(print) else CLOSED


def cmd_action(args: argparse.Namespace) -> int:
    from gate import action

    return action.run()


# --- parser -----------------------------------------------------------------------------------


def _add(sub: Any, name: str, func: Callable[[argparse.Namespace], int], help_: str
         ) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help_, description=help_)
    parser.set_defaults(func=func)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gate", description=__doc__)
    parser.add_argument("--version", action="version", version=f"gate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = _add(sub, "hash", cmd_hash, "print the fixture_hash of files and a sample card")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--card", metavar="CARD.json")
    p.add_argument("--root", default=".", help="names are relative to this folder (default: .)")
    p.add_argument("--json", action="store_true")

    p = _add(sub, "pin", cmd_pin, "print the fixture_sha256 of one sampler output file")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--store", metavar="DIR", help="also copy the bytes to DIR/<digest>.<ext>")
    p.add_argument("--json", action="store_true")

    p = _add(sub, "classify", cmd_classify, "stamp gate: classify a local-pinned/free-server pair")
    p.add_argument("pair", nargs="*", metavar="STAMP.json")
    p.add_argument("--stamps", metavar="DIR", help="pair every stamp under DIR by test id")
    p.add_argument("--policy", metavar="FILE", help=f"default: {DEFAULT_POLICY} if present")
    p.add_argument("--now", type=int, metavar="UNIX")
    p.add_argument("--report", metavar="FILE", help="write the JSON report here")
    p.add_argument("--json", action="store_true")

    p = _add(sub, "triage", cmd_triage, "digest gate: label a red pair of runs")
    p.add_argument("left", metavar="LEFT.json")
    p.add_argument("right", metavar="RIGHT.json")
    p.add_argument("--json", action="store_true")

    receipt = _add(sub, "receipt", lambda a: BAD, "receipt binder")
    rsub = receipt.add_subparsers(dest="receipt_command", required=True, parser_class=_Parser)
    for name, func in (("write", cmd_receipt_write), ("verify", cmd_receipt_verify)):
        p = _add(rsub, name, func, f"{name} a review receipt")
        p.add_argument("--diff", required=True, metavar="F")
        p.add_argument("--prompt", required=True, metavar="F")
        p.add_argument("--model", required=True, metavar="ID")
        p.add_argument("--workspace-gen", required=True, metavar="GEN")
        if name == "write":
            p.add_argument("--verdict", required=True, metavar="pass|fail")
            p.add_argument("--reasons-file", required=True, metavar="F",
                           help="a JSON array of non-empty strings")
            p.add_argument("--out", required=True, metavar="F")
            p.add_argument("--format", choices=("json", "in-toto"), default="json")
        else:
            p.add_argument("--receipt", required=True, metavar="F")
            p.add_argument("--json", action="store_true")
    _add(rsub, "selftest", cmd_receipt_selftest, "write and verify receipts in a temp folder")

    halt_p = _add(sub, "halt", lambda a: BAD, "halt gate: tool-call bindings and their ledger")
    hsub = halt_p.add_subparsers(dest="halt_command", required=True, parser_class=_Parser)
    p = _add(hsub, "bind", cmd_halt_bind, "mint (or rebind, generation + 1) a binding")
    p.add_argument("--ledger", required=True, metavar="L")
    p.add_argument("--run-id", required=True)
    p.add_argument("--scope", required=True)
    p.add_argument("--host", required=True)
    p.add_argument("--marker", help="default: the policy's expected marker")
    p.add_argument("--no-marker", action="store_true", help="mint a binding without a marker")
    p.add_argument("--class", dest="target_class", default="fixture",
                   choices=("fixture", "live", "unknown"))
    p.add_argument("--expect-generation", type=int, metavar="N",
                   help="compare-and-swap: fail unless the current generation is N (0: none)")
    p.add_argument("--policy", metavar="FILE")
    p = _add(hsub, "check", cmd_halt_check, "decide one attempted tool call, before the call")
    p.add_argument("--ledger", required=True, metavar="L")
    p.add_argument("--binding", required=True, metavar="B.json")
    p.add_argument("--issued-gen", required=True, type=int, metavar="N")
    p.add_argument("--attempt-id", required=True, metavar="A")
    p.add_argument("--expect", choices=("allow", "halt", "reject"))
    p.add_argument("--policy", metavar="FILE")
    p.add_argument("--halt-report", metavar="FILE",
                   help="where halts are written for people (default: L.halts.jsonl)")
    p.add_argument("--json", action="store_true")
    p = _add(hsub, "audit", cmd_halt_audit, "replay a ledger; last line failed=K denominator=N")
    p.add_argument("ledger", metavar="L")
    p.add_argument("--policy", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p = _add(hsub, "repair-tail", cmd_halt_repair_tail,
             "move a torn last line to L.torn-<time>, only if every complete line verifies "
             "(exit 1 and no change otherwise)")
    p.add_argument("ledger", metavar="L")
    p = _add(hsub, "hook", cmd_halt_hook,
             "pre-tool-use hook: one JSON tool call on stdin; exit 0 allows, 2 blocks")
    from gate import hook

    hook.add_arguments(p)

    p = _add(sub, "stamp", cmd_stamp,
             "run (or record) one test run and write one stamp per property, write-once")
    p.add_argument("--server-class", required=True, choices=("local-pinned", "free-server"))
    p.add_argument("--out", required=True, metavar="DIR", help="stamps go to DIR/<run_id>.json")
    p.add_argument("--manifest", nargs="?", const=".github/gate.yml", metavar="FILE",
                   help="stamp every property of a manifest (default file: .github/gate.yml)")
    p.add_argument("--card", metavar="CARD.json")
    p.add_argument("--test-id", metavar="ID")
    p.add_argument("--fixtures", action="append", metavar="PATH",
                   help="fixture file or folder (repeatable)")
    p.add_argument("--root", default=".",
                   help="fixture names and manifest paths are relative to this (default: .)")
    p.add_argument("--sample", metavar="FILE", help="sampler output to pin")
    p.add_argument("--store", metavar="DIR", help="copy pinned sampler output to DIR/<digest>")
    p.add_argument("--run-id", metavar="ID", help="default: a fresh random id")
    p.add_argument("--run-id-prefix", metavar="P",
                   help="with --manifest: run ids P.1, P.2, ... (default: random)")
    p.add_argument("--junit", metavar="FILE", help="JUnit XML report of the run")
    p.add_argument("--junit-name", metavar="NAME", help="testcase name (default: the test id)")
    p.add_argument("--junit-classname", metavar="CLASS", help="testcase classname")
    p.add_argument("--policy", metavar="FILE", help=f"timeout exit codes; default: "
                   f"{DEFAULT_POLICY} if present")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="wall-clock limit for -- COMMAND; kills the process group")
    p.add_argument("--exit-code", type=int, metavar="N", help="record a run a previous step saw")
    p.add_argument("--body-bytes", type=int, metavar="N",
                   help="with --exit-code: bytes the run printed (0 = empty body)")
    p.add_argument("--assertion-failed", action="store_true",
                   help="with --exit-code: the run saw an assertion failure")
    p.add_argument("--json", action="store_true")
    p.set_defaults(command_argv=None)
    p.epilog = ("End with -- COMMAND [ARG...] to run the test command (its output is streamed "
                "through and counted), or give --exit-code N to record a run a previous step "
                "saw. Exit 0 when the stamps were written (the gate decides later), 2 on bad "
                "input.")

    pol = _add(sub, "policy", lambda a: BAD, "the reviewed policy file")
    psub = pol.add_subparsers(dest="policy_command", required=True, parser_class=_Parser)
    p = _add(psub, "check", cmd_policy_check,
             "fail on expired, too long or future entries (exit 1); malformed: exit 2")
    p.add_argument("file", metavar="FILE", nargs="?", default=str(DEFAULT_POLICY))
    p.add_argument("--now", type=int, metavar="UNIX")
    p.add_argument("--max-days", type=int, metavar="N",
                   help="longest freeze window in days (default: the file's max_freeze_days, "
                   "else 30)")

    _add(sub, "demo", cmd_demo, "run every gate on the examples shipped in the package")
    _add(sub, "action", cmd_action,
         "what the composite action runs (configured by GATE_* environment variables)")

    from gate import github_cli

    github_cli.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command: list[str] | None = None
    if argv[:1] == ["stamp"] and "--" in argv:
        split = argv.index("--")
        argv, command = argv[:split], argv[split + 1:]
    try:
        args = build_parser().parse_args(argv)
        if command is not None:
            args.command_argv = command
        code: int = args.func(args)
        return code
    except GateInputError as exc:
        print(f"gate: error: {exc}", file=sys.stderr)
        return BAD
    except KeyboardInterrupt:
        print("gate: error: interrupted", file=sys.stderr)
        return BAD
    except BrokenPipeError:
        return BAD
