"""``build_parser`` builds only the command ``argv`` names (issue 31): the same parse, help and
usage errors as the whole parser, byte for byte."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

from gate.commands import main as cli
from gate.errors import GateInputError


def _subcommands(parser: Any) -> dict[str, Any]:
    action = next(a for a in parser._actions if a.dest == "command")
    return dict(action.choices)


def _run(parser: Any, argv: list[str]) -> tuple[str, Any]:
    """What parsing ``argv`` gives: the namespace, the usage error, or the printed help."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            return "parsed", sorted(vars(parser.parse_args(argv)).items())
    except GateInputError as exc:
        return "error", str(exc)
    except SystemExit as exc:
        return "exit", (exc.code, out.getvalue())


def test_commands_lists_every_command_in_order() -> None:
    assert tuple(_subcommands(cli.build_parser())) == cli.COMMANDS


def test_one_command_parser_holds_only_that_command() -> None:
    assert list(_subcommands(cli.build_parser(["stamp", "--json"]))) == ["stamp"]
    assert tuple(_subcommands(cli.build_parser(["--version"]))) == cli.COMMANDS
    assert tuple(_subcommands(cli.build_parser(["nope"]))) == cli.COMMANDS


ARGVS: list[list[str]] = [
    *([name, "--help"] for name in cli.COMMANDS),
    *([group, sub, "--help"] for group, subs in (
        ("receipt", ("write", "verify", "bootstrap", "selftest")),
        ("halt", ("bind", "check", "audit", "repair-tail", "hook")),
        ("policy", ("check",)), ("signing", ("keygen", "verify"))) for sub in subs),
    ["stamp", "--server-class", "local-pinned", "--out", "o", "--manifest", "--pytest"],
    ["stamp", "--server-class", "local-pinned", "--out", "o", "--manifest", "m.yml",
     "--fixtures", "a", "--fixtures", "b", "--timeout", "2.5", "--isolation", "none"],
    ["stamp", "--server-class", "elsewhere", "--out", "o"],
    ["stamp", "--out", "o"],
    ["stamp", "--server-class", "local-pinned", "--out", "o", "--timeout", "x"],
    ["stamp", "--server-class", "local-pinned", "--out", "o", "--bogus"],
    ["stamp", "--server-class", "local-pinned", "--out", "o", "extra"],
    ["hash", "a", "b", "--json", "--root", "r"],
    ["hash"],
    ["pin", "f", "--store", "d"],
    ["classify", "a.json", "b.json", "--now", "5", "--json"],
    ["classify", "--now", "soon"],
    ["triage", "l.json", "r.json"],
    ["receipt"],
    ["receipt", "write", "--diff", "d"],
    ["receipt", "verify", "--diff", "d", "--prompt", "p", "--model", "m", "--receipt", "r",
     "--attempt-id", "a", "--dir", "x"],
    ["halt", "check", "--ledger", "l", "--binding", "b", "--issued-gen", "1",
     "--attempt-id", "a", "--expect", "allow"],
    ["halt", "check", "--ledger", "l", "--binding", "b", "--issued-gen", "one",
     "--attempt-id", "a"],
    ["halt", "bind", "--ledger", "l", "--run-id", "r", "--scope", "s", "--host", "h",
     "--class", "live"],
    ["halt", "audit", "l", "--json"],
    ["init", "tests", "--cards", ".github/gate-cards", "--two-job"],
    ["policy", "check", "p.yml", "--max-days", "3", "--manifest", "a", "--manifest", "b"],
    ["policy", "check", "--max-days", "many"],
    ["signing", "keygen", "--id", "k", "--private-key", "f"],
    ["signing", "verify", "e", "f1", "f2", "--public-key", "k"],
    ["demo"],
    ["demo", "extra"],
    ["action"],
    ["publish", "--report", "r.json", "--max-retries", "2", "--summary"],
    ["publish"],
    ["summary", "--report", "r.json", "--note", "a", "--note", "b"],
    ["outputs", "--report", "r.json"],
    ["act-summary", "log.json", "--all"],
]


@pytest.mark.parametrize("argv", ARGVS, ids=[" ".join(a) for a in ARGVS])
def test_one_command_parser_parses_as_the_whole_parser(argv: list[str]) -> None:
    whole = _run(cli.build_parser(), argv)
    assert _run(cli.build_parser(argv), argv) == whole
    if argv[-1] == "--help":
        assert whole[0] == "exit" and whole[1][0] == 0 and "usage: gate " in whole[1][1]
