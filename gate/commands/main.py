"""The ``gate`` command: the parser, and dispatch to one module per command (``gate.commands.*``).

Exit status: 0 the door is open, 1 it is closed, 2 bad input or usage. Every error is one line
on stderr naming the file and the field. A command's module is imported only when it runs.
"""

from __future__ import annotations

import sys

from gate import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: argparse and typing are not imported to start up
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

_PARSER_CLASS: Any = None


def _parser_class() -> Any:
    """``argparse.ArgumentParser`` whose usage errors are :class:`GateInputError` (built on
    first use: ``gate --version`` and ``gate halt hook`` never import argparse)."""
    global _PARSER_CLASS
    if _PARSER_CLASS is None:
        import argparse

        from gate.errors import GateInputError

        class _Parser(argparse.ArgumentParser):
            def error(self, message: str) -> Any:
                raise GateInputError(self.prog, "(usage)", f"{message} (see --help)")

        _PARSER_CLASS = _Parser
    return _PARSER_CLASS


def _add(sub: Any, name: str, func: str | None, help_: str) -> argparse.ArgumentParser:
    """A subcommand; ``func`` is ``"module:function"`` under ``gate.commands`` (None: a group)."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help_, description=help_)
    parser.set_defaults(func=func)
    return parser


def command_function(spec: str) -> Any:
    """The function a ``"module:function"`` names, imported now."""
    import importlib

    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(f"gate.commands.{module}"), name)


#: The top-level commands, in the order ``gate --help`` lists them (tests/test_cli_parser.py
#: checks it against the parser).
COMMANDS = ("hash", "act-summary", "pin", "classify", "triage", "receipt", "halt", "stamp",
            "init", "policy", "signing", "demo", "action", "publish", "summary", "outputs")


class _Unbuilt:
    """The parser of a command this run does not invoke: whatever is added to it goes nowhere
    (:func:`build_parser` builds only the command ``argv`` names)."""

    def __getattr__(self, name: str) -> Any:
        return self._nothing

    def __setattr__(self, name: str, value: Any) -> None:
        pass

    def _nothing(self, *args: Any, **kwargs: Any) -> _Unbuilt:
        return self


class _OneCommand:
    """The subcommands action of a parser that builds only ``name``'s parser."""

    def __init__(self, sub: Any, name: str) -> None:
        self.sub, self.name = sub, name

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        return self.sub.add_parser(name, **kwargs) if name == self.name else _Unbuilt()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Every command's arguments (``gate halt hook`` reads its own: :mod:`gate.agent.hook`);
    when ``argv`` starts with a command's name, only that command's parser is built (issue 31:
    building all of them was ~12 ms of a stamp leg): it parses that ``argv``, and prints its
    help and its errors, as the whole parser does (tests/test_cli_parser.py)."""
    import argparse

    from gate.commands.args import DEFAULT_POLICY

    _Parser = _parser_class()
    parser: argparse.ArgumentParser = _Parser(prog="gate", description=__doc__)
    parser.add_argument("--version", action="version", version=f"gate {__version__}")
    sub: Any = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    if argv and argv[0] in COMMANDS:
        sub = _OneCommand(sub, argv[0])

    p = _add(sub, "hash", "hash:cmd_hash", "print the fixture_hash of files and a sample card")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--card", metavar="CARD.json")
    p.add_argument("--root", default=".", help="names are relative to this folder (default: .)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--harness", action="store_true",
                   help="print the harness_sha256 (gate-harness-v1) of the files instead: a "
                        "manifest entry's test harness; no card")

    p = _add(sub, "act-summary", "act_summary:cmd_act_summary",
             "print each job's summary once from an act --json log")
    p.add_argument("log", metavar="LOG", help="the file act --json wrote its standard output to")
    p.add_argument("--all", action="store_true", help="also name the jobs without a summary")
    p.epilog = ("A composite action's summary is printed once (act logs it for each inner step "
                "and again for the outer one). Exit 0; 2 when LOG holds no act --json job.")

    p = _add(sub, "pin", "hash:cmd_pin", "print the fixture_sha256 of one sampler output file")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--store", metavar="DIR", help="also copy the bytes to DIR/<digest>.<ext>")
    p.add_argument("--json", action="store_true")

    p = _add(sub, "classify", "classify:cmd_classify",
             "stamp gate: classify a local-pinned/free-server pair")
    p.add_argument("pair", nargs="*", metavar="STAMP.json")
    p.add_argument("--stamps", metavar="DIR", help="pair every stamp under DIR by test id")
    p.add_argument("--policy", metavar="FILE", help=f"default: {DEFAULT_POLICY} if present")
    p.add_argument("--now", type=int, metavar="UNIX")
    p.add_argument("--report", metavar="FILE", help="write the JSON report here")
    p.add_argument("--json", action="store_true")

    p = _add(sub, "triage", "classify:cmd_triage", "digest gate: label a red pair of runs")
    p.add_argument("left", metavar="LEFT.json")
    p.add_argument("right", metavar="RIGHT.json")
    p.add_argument("--policy", metavar="FILE", help=f"default: {DEFAULT_POLICY} if present "
                   "(its signing.require: see gate classify)")
    p.add_argument("--json", action="store_true")

    receipt = _add(sub, "receipt", None, "receipt binder")
    rsub = receipt.add_subparsers(dest="receipt_command", required=True, parser_class=_Parser)
    for name, func in (("write", "receipt:cmd_receipt_write"),
                       ("verify", "receipt:cmd_receipt_verify")):
        p = _add(rsub, name, func, f"{name} a review receipt")
        p.add_argument("--diff", required=True, metavar="F")
        p.add_argument("--prompt", required=True, metavar="F")
        p.add_argument("--model", required=True, metavar="ID")
        p.add_argument("--workspace-gen", required=name == "write", metavar="GEN",
                       help=None if name == "write" else
                       "the bootstrap's generation: must be the one minted in DIR/A "
                       "(default: that one)")
        if name == "write":
            p.add_argument("--verdict", required=True, metavar="pass|fail")
            p.add_argument("--reasons-file", required=True, metavar="F",
                           help="a JSON array of non-empty strings")
            p.add_argument("--out", required=True, metavar="F")
            p.add_argument("--format", choices=("json", "in-toto"), default="json")
        else:
            p.add_argument("--receipt", required=True, metavar="F")
            p.add_argument("--attempt-id", required=True, metavar="A",
                           help="the receipt must be in D/A, bootstrapped for A")
            p.add_argument("--dir", required=True, metavar="D",
                           help="the folder given to receipt bootstrap")
            p.add_argument("--json", action="store_true")
    p = _add(rsub, "bootstrap", "receipt:cmd_receipt_bootstrap",
             "mint the workspace generation (printed) and create DIR/ATTEMPT for the receipt; "
             "run outside the agent")
    p.add_argument("--attempt-id", required=True, metavar="A")
    p.add_argument("--dir", required=True, metavar="D")
    p.add_argument("--json", action="store_true")
    _add(rsub, "selftest", "receipt:cmd_receipt_selftest",
             "write and verify receipts in a temp folder")

    halt_p = _add(sub, "halt", None, "halt gate: tool-call bindings and their ledger")
    hsub = halt_p.add_subparsers(dest="halt_command", required=True, parser_class=_Parser)
    p = _add(hsub, "bind", "halt:cmd_halt_bind", "mint (or rebind, generation + 1) a binding")
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
    p = _add(hsub, "check", "halt:cmd_halt_check",
             "decide one attempted tool call, before the call")
    p.add_argument("--ledger", required=True, metavar="L")
    p.add_argument("--binding", required=True, metavar="B.json")
    p.add_argument("--issued-gen", required=True, type=int, metavar="N")
    p.add_argument("--attempt-id", required=True, metavar="A")
    p.add_argument("--expect", choices=("allow", "halt", "reject"))
    p.add_argument("--policy", metavar="FILE")
    p.add_argument("--halt-report", metavar="FILE",
                   help="where halts are written for people (default: L.halts.jsonl)")
    p.add_argument("--json", action="store_true")
    p = _add(hsub, "audit", "halt:cmd_halt_audit",
             "replay a ledger; last line failed=K denominator=N")
    p.add_argument("ledger", metavar="L")
    p.add_argument("--policy", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p = _add(hsub, "repair-tail", "halt:cmd_halt_repair_tail",
             "move a torn last line to L.torn-<time>, only if every complete line verifies "
             "(exit 1 and no change otherwise)")
    p.add_argument("ledger", metavar="L")
    p = _add(hsub, "hook", "halt:cmd_halt_hook",
             "pre-tool-use hook of an agent CLI (--format claude-code|codex|gemini|cursor|"
             "copilot|generic): one JSON tool call on stdin, answered as that CLI's allow or "
             "block; see gate halt hook --help")
    p.add_argument("hook_argv", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    p = _add(sub, "stamp", "stamp:cmd_stamp",
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
    p.add_argument("--pytest", action="store_true",
                   help="with --manifest and -- COMMAND (no --junit): the command runs pytest; "
                   "the gate loads its recorder into it (PYTEST_ADDOPTS, PYTHONPATH), which "
                   "applies the sample cards and reports each test")
    p.add_argument("--tests", metavar="gated|all",
                   help="with --pytest: run only the tests the manifest gates (gated, the "
                   "default: the recorder deselects the others) or every collected test (all)")
    p.add_argument("--isolation", metavar="auto|none|process|namespace|user",
                   help="the isolation level the command runs at "
                   "(docs/threat-model.md#isolation-levels): "
                   "auto (the default) takes the highest this machine allows; a level named "
                   "that cannot be had is exit 2 saying why")
    p.add_argument("--isolation-input", metavar="INPUT", help=argparse.SUPPRESS)  # the action's
    p.add_argument("--isolation-user", metavar="NAME",
                   help="the user the user level runs the command as (no sudo, no container "
                   "socket, the workspace writable)")
    p.add_argument("--junit-name", metavar="NAME", help="testcase name (default: the test id)")
    p.add_argument("--junit-classname", metavar="CLASS", help="testcase classname")
    p.add_argument("--policy", metavar="FILE", help=f"timeout exit codes; default: "
                   f"{DEFAULT_POLICY} if present")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="wall-clock limit for -- COMMAND; kills the process group")
    p.add_argument("--install", metavar="SHELL-COMMAND",
                   help="with -- COMMAND: run this (bash) first, sealed as the command is "
                   "(e.g. pip install -r requirements-test.txt); it must exit 0")
    p.add_argument("--fence", action="store_true",
                   help="with -- COMMAND, on a GitHub runner: the commands' output (stderr "
                   "too, on stdout) goes between ::stop-commands::TOKEN and ::TOKEN::, so no "
                   "line of it is a workflow command (the action sets it)")
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

    p = _add(sub, "init", "init:cmd_init",
             "adopt the gate: write a sample card per Hypothesis test, the manifest and an "
             "empty policy")
    p.add_argument("tests", nargs="*", metavar="TESTS",
                   help="test files or folders, passed to pytest (default: pytest's own)")
    p.add_argument("--manifest", default=".github/gate.yml", metavar="FILE",
                   help="the manifest to write (default: .github/gate.yml)")
    p.add_argument("--cards", default=None, metavar="DIR",
                   help="write each sample card as a file in DIR (e.g. .github/gate-cards; "
                   "default: each card inline in the manifest, the same card hash)")
    p.add_argument("--policy", default=str(DEFAULT_POLICY), metavar="FILE",
                   help=f"the empty policy to write (default: {DEFAULT_POLICY})")
    p.add_argument("--add", action="store_true",
                   help="add only the properties the manifest does not hold yet")
    p.add_argument("--refresh", action="store_true",
                   help="rewrite the settings fields (cases, deadline_ms, "
                   "suppress_health_check) of the manifest's existing cards from the settings "
                   "in force, keeping each seed, freeze_expires_at and file name")
    p.add_argument("--new-seeds", action="store_true",
                   help="with --refresh: mint a new seed for every card (rotate seeds on "
                   "purpose, in review)")
    p.add_argument("--root", default=".",
                   help="manifest paths are relative to this (default: .)")
    p.add_argument("--python", default=sys.executable, metavar="PYTHON",
                   help="the interpreter whose pytest collects the tests (default: the one "
                   "running gate)")
    p.add_argument("--workflow", default=".github/workflows/properties.yml", metavar="FILE",
                   help="the workflow to write (default: .github/workflows/properties.yml)")
    p.add_argument("--no-workflow", action="store_true", help="write no workflow")
    p.add_argument("--two-job", action="store_true",
                   help="write the two-job workflow (both stamp legs and the gate job in your "
                   "file, to compose your own) instead of the caller of the gate's reusable "
                   "workflow")
    p.add_argument("--check", action="store_true",
                   help="write nothing; report what would break the first CI run: plugins "
                   "requirements-test.txt lacks, cards the CI settings conflict with, "
                   "properties the manifest no longer matches (exit 1 with findings)")
    p.add_argument("--local-runner", default="self-hosted,pinned", metavar="LABELS",
                   help="the labels of the runner you control, comma-separated (default: "
                   "self-hosted,pinned)")
    p.add_argument("--free-runner", default="ubuntu-latest", metavar="LABELS",
                   help="the free runner's labels (default: ubuntu-latest)")
    p.add_argument("--test-command", metavar="COMMAND",
                   help="the stamp jobs' test command, pytest run once (default: python -m "
                   "pytest TESTS)")
    p.add_argument("--python-version", metavar="X.Y",
                   help="the Python the stamp jobs set up (default: PYTHON's)")
    p.epilog = ("Collects the tests with PYTHON -m pytest --collect-only in the current folder. "
                "Never overwrites a file (exit 2 naming it); exit 2 when no Hypothesis test "
                "is found. --check: exit 0 when nothing would break, 1 with findings, 2 on "
                "bad input.")

    pol = _add(sub, "policy", None, "the reviewed policy file")
    psub = pol.add_subparsers(dest="policy_command", required=True, parser_class=_Parser)
    p = _add(psub, "check", "policy:cmd_policy_check",
             "fail on expired, too long or future entries (exit 1); malformed: exit 2")
    p.add_argument("file", metavar="FILE", nargs="?", default=str(DEFAULT_POLICY))
    p.add_argument("--now", type=int, metavar="UNIX")
    p.add_argument("--max-days", type=int, metavar="N",
                   help="longest freeze window in days (default: the file's max_freeze_days, "
                   "else 30)")
    p.add_argument("--manifest", action="append", metavar="M",
                   help="an allowlist test id in none of these manifests, or whose card "
                   "has no unexpired freeze_expires_at, is a finding (repeatable; default: "
                   ".github/gate.yml under --root when it exists)")
    p.add_argument("--root", default=".", help="manifest paths are relative to this")

    sig = _add(sub, "signing", None, "signed stamps (docs/signing.md)")
    ssub = sig.add_subparsers(dest="signing_command", required=True, parser_class=_Parser)
    p = _add(ssub, "keygen", "signing:cmd_keygen",
             "write a new ed25519 private key (PEM) and print its policy entry")
    p.add_argument("--id", required=True, help="the key's name in the policy, e.g. pinned-2026")
    p.add_argument("--private-key", required=True, metavar="FILE",
                   help="where the private key goes (a new file, mode 0600; never overwritten)")
    p.epilog = ("Put the private key in a secret (gh secret set NAME < FILE), then delete "
                "FILE (a stamp job refuses signing-key-file: its tests could read the file); "
                "paste the printed entry under signing.keys.<class> in the policy.")

    p = _add(ssub, "verify", "signing:cmd_verify",
             "verify an ed25519 envelope a stamp job signed (its test-result statement or "
             "stamp set) and that each FILE is one of its subjects")
    p.add_argument("envelope", metavar="ENVELOPE",
                   help="gate-test-result.dsse.json or gate-stamp-set.dsse.json")
    p.add_argument("files", nargs="*", metavar="FILE", help="stamp files of the artifact")
    p.add_argument("--public-key", required=True, metavar="BASE64",
                   help="the class's public_key from the policy's signing.keys")
    p.add_argument("--json", action="store_true", help="also print the verified statement")
    p.epilog = ("Exit 0: it verifies and every FILE is a subject; 1: it does not (named); 2: "
                "bad input. The run, attempt, job and class the statement names are the gate "
                "job's to check.")

    _add(sub, "demo", "demo:cmd_demo", "run every gate on the examples shipped in the package")
    _add(sub, "action", "action:cmd_action",
         "what the composite action runs (configured by GATE_* environment variables)")

    # publishing (gate.github): shown on GitHub

    def add(name: str, func: str, help_: str) -> argparse.ArgumentParser:
        parser = _add(sub, name, func, help_)
        parser.add_argument("--report", required=True, metavar="FILE",
                            help="the JSON report written by gate classify --report")
        parser.add_argument("--policy", metavar="FILE",
                            help=f"default: {DEFAULT_POLICY} if present; when it requires "
                            "signed stamps, a report that says open is refused (exit 2)")
        return parser

    p = add("publish", "publish:cmd_publish", "publish the report as a check run (PyGithub)")
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

    p = add("summary", "publish:cmd_summary", "write the job summary Markdown")
    p.add_argument("--check-run-url", metavar="URL")
    p.add_argument("--note", action="append", default=[], metavar="TEXT",
                   help="a line to show (e.g. why no check run); repeatable")
    p.add_argument("--out", metavar="FILE",
                   help="default: append to $GITHUB_STEP_SUMMARY, else print")

    add("outputs", "publish:cmd_outputs", "write the step outputs ($GITHUB_OUTPUT) from a report")
    return parser


def _error(message: str) -> None:
    """The one stderr line of a failed command (through the log-line escaper: a file name or
    value in the message can never start a workflow command or a second line)."""
    from gate.github.workflow import log_line

    sys.stderr.write(log_line(f"gate: error: {message}") + "\n")


def _shown(value: object) -> str:
    text = value.decode("utf-8", "backslashreplace") if isinstance(value, bytes) else str(value)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


#: Parsed values that are not text for the gate (the test command after ``--`` is passed on).
_NOT_TEXT = frozenset({"func", "command_argv"})


def _check_text_arguments(args: argparse.Namespace) -> None:
    """Every argument is UTF-8 text: bytes that are not (decoded by Python as lone
    surrogates) would end in a traceback wherever they are written or hashed."""
    from gate.errors import GateInputError

    for name, value in sorted(vars(args).items()):
        if name in _NOT_TEXT:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise GateInputError(
                        "gate", f"--{name.replace('_', '-')}",
                        f"not UTF-8 text: {_shown(item)!s:.80}") from None


def main(argv: Sequence[str] | None = None) -> int:
    program = argv is None  # the `gate` command itself (not a caller in the same process)
    argv = list(sys.argv[1:] if argv is None else argv)
    if program and _starts_a_command(argv):
        from gate.testrun.withheld import restart_without_secrets

        restart_without_secrets()  # returns only when no secret is in this process's environ
    if argv == ["--version"]:  # the fast path: no parser, no command module
        sys.stdout.write(f"gate {__version__}\n")
        return 0
    if argv[:2] == ["halt", "hook"]:  # every agent tool call: no parser (it reads its flags)
        from gate.agent import hook

        return hook.main(argv[2:], exit_now=program)
    if argv[:1] == ["hash"]:  # timed against OpenSSL: the plain forms are read without argparse
        from gate.commands import hash as hash_command

        fast = hash_command.fast_args(argv[1:])
        if fast is not None:
            return _edge(lambda: hash_command.cmd_hash(fast))
    code = _edge(lambda: _parse_and_run(argv))
    args_module = sys.modules.get("gate.commands.args")  # not imported: nothing held
    if args_module is not None and args_module.HELD:
        if program:
            end_without_freeing(code)
        args_module.HELD.clear()  # a caller in this process keeps running: freed now
    return code


def end_without_freeing(code: int) -> None:
    """End the process with ``code`` without the interpreter freeing what a command held to
    the end (gate.commands.args.hold_to_exit): the exit handlers run and both standard
    streams are flushed, as at a normal exit, then ``os._exit``. Output that did not reach its
    reader (a closed pipe) is never a success: exit 2, as the edge gives a broken pipe."""
    import atexit
    import os

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        code = _BAD
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        code = code or _BAD
    os._exit(code)


def _starts_a_command(argv: list[str]) -> bool:
    """Does this run start a sealed command (``gate stamp ... -- COMMAND``; ``gate action`` in
    stamp mode)? Then the gate must hold no secret in its own environment while it runs."""
    import os

    return ((argv[:1] == ["stamp"] and "--" in argv)
            or (argv[:1] == ["action"] and os.environ.get("GATE_MODE", "").strip() == "stamp"))


def _parse_and_run(argv: list[str]) -> int:
    command: list[str] | None = None
    if argv[:1] == ["stamp"] and "--" in argv:
        split = argv.index("--")
        argv, command = argv[:split], argv[split + 1:]
    args = build_parser(argv).parse_args(argv)
    _check_text_arguments(args)
    if command is not None:
        args.command_argv = command
    code: int = command_function(args.func)(args)
    return code


def run_raising(argv: Sequence[str]) -> int:
    """One command for ``gate action`` (stamp mode runs ``gate stamp`` through it): like
    :func:`main`, but bad input (:class:`GateInputError`) goes on to the caller, which reports
    it on the job's surfaces; ``gate action``'s own edge then prints the line (exit 2)."""
    return _parse_and_run(list(argv))


#: Exit status of bad input or usage (gate.commands.args.BAD, not imported to start up).
_BAD = 2


def _edge(run: Callable[[], int]) -> int:
    """Run a command; bad input, whatever its source, is one stderr line and exit 2."""
    from gate.errors import GateInputError

    try:
        return run()
    except GateInputError as exc:
        _error(str(exc))
        return _BAD
    # The edge: what the operating system or a codec refuses below is bad input, one line,
    # naming the file where the error knows it (never a traceback).
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return _BAD
        where = _shown(exc.filename) if exc.filename is not None else "(file)"
        _error(f"{where}: (file): {exc.strerror or exc}")
        return _BAD
    except UnicodeError as exc:
        _error(f"(input): (text): not UTF-8 text ({type(exc).__name__}); a file name, an "
               "argument or a record holds bytes that are not UTF-8")
        return _BAD
    except ValueError as exc:
        if "null" not in str(exc):
            raise
        _error("(input): (path): a path holds a NUL character")
        return _BAD
    except KeyboardInterrupt:
        _error("interrupted")
        return _BAD
