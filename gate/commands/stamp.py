"""``gate stamp``: run (or record) one test run and write one stamp per property."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate.commands.args import OPEN, policy_path, print_json, say
from gate.errors import GateInputError


def _stamp_usage(flag: str, message: str) -> GateInputError:
    return GateInputError("gate stamp", flag, message)


def cmd_stamp(args: argparse.Namespace) -> int:
    from gate.decide import outcome
    from gate.records import manifest, policy
    from gate.testrun import routes, stamping

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
    else:
        for flag, given in (("--timeout", args.timeout is not None),
                            ("--install", args.install is not None), ("--fence", args.fence)):
            if given:
                raise _stamp_usage(flag, "only with -- COMMAND")
    if args.install is not None and not args.install.strip():
        raise _stamp_usage("--install", "empty: give the install command, or leave it out")
    if args.timeout is not None and not args.timeout > 0:
        raise _stamp_usage("--timeout", "must be a positive number of seconds")
    if args.body_bytes is not None and args.body_bytes < 0:
        raise _stamp_usage("--body-bytes", "must be at least 0")
    if args.assertion_failed and args.junit:
        raise _stamp_usage("--assertion-failed", "not with --junit: the report says which "
                           "assertion failed")
    tests = args.tests if args.tests is not None else "gated"
    if tests not in stamping.TESTS:
        raise _stamp_usage("--tests", f"must be gated or all, not {tests!r}")
    if args.tests is not None and not args.pytest:
        raise _stamp_usage("--tests", "only with --pytest (the recorder selects what runs; "
                           "with --junit the command runs what it names)")
    if command is None:
        for flag, value in (("--isolation", args.isolation),
                            ("--isolation-user", args.isolation_user)):
            if value is not None:
                raise _stamp_usage(flag, "only with -- COMMAND (the gate runs no command "
                                   "with --exit-code)")
    root = Path(args.root)
    if args.manifest is not None:
        for flag, value in (("--card", args.card), ("--test-id", args.test_id),
                            ("--fixtures", args.fixtures), ("--sample", args.sample),
                            ("--run-id", args.run_id), ("--junit-name", args.junit_name),
                            ("--junit-classname", args.junit_classname)):
            if value:
                raise _stamp_usage(flag, "comes from the manifest with --manifest")
        if args.pytest and args.junit:
            raise _stamp_usage("--pytest", "not with --junit: the recorder reports each test")
        if args.pytest and command is None:
            raise _stamp_usage("--pytest", "needs -- COMMAND (the pytest run to record)")
        if not args.junit and not args.pytest:
            raise _stamp_usage("--junit", "required with --manifest (one run, many "
                               "properties), or --pytest")
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
        if args.pytest:
            raise _stamp_usage("--pytest", "only with --manifest")
        from gate.records.load import load_card

        manifest.check_card(args.test_id, load_card(Path(args.card)), args.card, "property",
                            args.card, given="--test-id")
        run_ids = [args.run_id or stamping.new_run_id()]
    pol = policy.load(policy_path(args))
    recorded = None
    if args.exit_code is not None:
        recorded = outcome.ProcessResult(args.exit_code, None, False, args.body_bytes, None)
    request = stamping.Request(
        properties=props, server_class=args.server_class, out=Path(args.out), root=root,
        run_ids=run_ids, timeout_codes=pol.timeout_exit_codes,
        junit_path=Path(args.junit) if args.junit else None,
        store=Path(args.store) if args.store else None, command=command,
        timeout=args.timeout, recorded=recorded, assertion_failed=args.assertion_failed,
        manifest=args.manifest, pytest_recorder=args.pytest, tests=tests,
        install=args.install, fence=args.fence,
        isolation=args.isolation or "auto", isolation_user=args.isolation_user,
        isolation_place=((args.isolation_input, "(input)") if args.isolation_input
                         else ("gate stamp", "--isolation")))
    written = routes.stamp_run(request)
    if args.json:
        print_json([{"path": str(path), "stamp": stamp} for path, stamp in written])
    else:
        for path, stamp in written:
            say(f"stamped {path} test_id={stamp['test_id']} outcome={stamp['outcome']}")
        line = stamping.ungated_line([stamp for _, stamp in written])
        if line is not None:
            say(line)
    return OPEN
