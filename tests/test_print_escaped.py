"""Issue 14 class 2: every string from a record is escaped for its sink.

Mechanism: the commands print only through ``gate.commands.args.say`` (the log-line escaper)
or ``print_json``; the few other writers are listed here with the escaper they use. Examples:
a test id ``::stop-commands::x``, a ``fixture_path`` with a newline, ``gate stamp`` echoing a
test id.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from gate.decide import block
from gate.github import workflow
from gate.records import report
from tests.core_helpers import (
    FREE,
    HASH_A,
    LOCAL,
    NOW,
    assert_bad_input,
    run_cli,
    stamp,
    write_json,
)


def make_stamp(server_class: str, outcome: str = "pass", **extra: Any) -> dict[str, Any]:
    return stamp(server_class, outcome, **extra)

GATE = Path(__file__).resolve().parents[1] / "gate"

#: (file, function) -> why its direct write is escaped.
ALLOWED_WRITERS = {
    ("gate/commands/args.py", "say"): "log_line",
    ("gate/commands/args.py", "print_json"): "json.dumps(ensure_ascii=True): one JSON value",
    ("gate/commands/main.py", "_error"): "log_line",
    ("gate/commands/main.py", "main"): "the constant version line only",
    ("gate/commands/classify.py", "classify_folder"): "json.dumps",
    ("gate/commands/classify.py", "batched"): "lines log_line'd as they are collected",
    ("gate/commands/publish.py", "cmd_summary"): "log_line",
    ("gate/commands/hash.py", "cmd_hash"): "hex_line: a digest as it is, anything else log_line",
    ("gate/commands/hash.py", "_harness"): "hex_line: a digest as it is, anything else log_line",
}
ESCAPERS = {"log_line", "command", "escape_data", "escape_property", "inline", "code_line",
            "dumps", "render", "hex_line"}


def _writes(path: Path) -> list[tuple[str, int, ast.Call]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, int, ast.Call]] = []

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef) else func
            if isinstance(child, ast.Call):
                target = child.func
                if (isinstance(target, ast.Name) and target.id == "print") or (
                        isinstance(target, ast.Attribute) and target.attr == "write"
                        and isinstance(target.value, ast.Attribute)
                        and target.value.attr in ("stdout", "stderr")):
                    out.append((name, child.lineno, child))
            visit(child, name)

    visit(tree, "<module>")
    return out


def _escaped(arg: ast.expr) -> bool:
    if isinstance(arg, ast.Constant):
        return True
    if isinstance(arg, ast.JoinedStr):  # f"gate {__version__}\n": constants and the version
        return all(isinstance(v, ast.Constant) or (
            isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name)
            and v.value.id == "__version__") for v in arg.values)
    if isinstance(arg, ast.BinOp):  # escaped + "\n"
        return _escaped(arg.left) and _escaped(arg.right)
    if isinstance(arg, ast.Call):
        func = arg.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "join" and arg.args and isinstance(arg.args[0], ast.Name):
            return True  # "\n".join(lines): the lines are escaped where they are collected
        return name in ESCAPERS
    return False


def test_commands_print_only_through_the_escapers() -> None:
    offenders = []
    for path in [*sorted((GATE / "commands").glob("*.py")),
                 *sorted((GATE / "action").glob("*.py"))]:
        rel = path.relative_to(GATE.parent).as_posix()
        for func, line, call in _writes(path):
            if (rel, func) in ALLOWED_WRITERS and all(_escaped(a) for a in call.args):
                continue
            if rel.startswith("gate/action/") and all(_escaped(a) for a in call.args):
                continue
            offenders.append(f"{rel}:{line} in {func}")
    assert offenders == [], "print through gate.commands.args.say:\n" + "\n".join(offenders)


def test_the_mechanism_test_sees_a_raw_print(tmp_path: Path) -> None:
    bad = tmp_path / "x.py"
    bad.write_text("import sys\ndef f(r):\n    print(r['test_id'])\n"
                   "    sys.stdout.write(f'{r}')\n", encoding="utf-8")
    assert len(_writes(bad)) == 2
    assert not any(_escaped(a) for _, _, c in _writes(bad) for a in c.args)


def _no_command_lines(text: str) -> None:
    for line in text.splitlines():
        assert not line.lstrip().startswith("::"), line
        assert "##[" not in line, line


HOSTILE_IDS = ["::stop-commands::x", "::add-mask::secret", "  ::error::x", "##[error]x",
               "a\n::warning::b", "t\u2028::notice::x"]


@pytest.mark.parametrize("test_id", HOSTILE_IDS)
def test_classify_stamps_never_prints_a_workflow_command(tmp_path: Path, test_id: str) -> None:
    folder = tmp_path / "stamps"
    write_json(folder / "l.json", make_stamp(LOCAL, test_id=test_id, run_id="r-l"))
    write_json(folder / "r.json", make_stamp(FREE, test_id=test_id, run_id="r-r"))
    result = run_cli("classify", "--stamps", folder, "--now", NOW)
    assert result.code in (0, 1, 2), result
    _no_command_lines(result.out + result.err)
    pair = run_cli("classify", folder / "l.json", folder / "r.json", "--now", NOW)
    _no_command_lines(pair.out + pair.err)


@pytest.mark.parametrize("path_value", ["a\nfreeze_allowed=true", "a\rb", "a\u2028b",
                                        "a\u202eb", "x\x1b[2Kb", "a\tb"])
def test_fixture_path_that_cannot_be_printed_is_refused_when_read(tmp_path: Path,
                                                                 path_value: str) -> None:
    local = make_stamp(LOCAL, run_id="r-l")
    local["fixture_sha256"], local["fixture_path"] = HASH_A, path_value
    lpath = write_json(tmp_path / "l.json", local)
    rpath = write_json(tmp_path / "r.json", make_stamp(FREE, run_id="r-r"))
    assert_bad_input(run_cli("classify", lpath, rpath, "--now", NOW), "fixture_path")
    assert_bad_input(run_cli("triage", lpath, rpath), "fixture_path")
    assert_bad_input(run_cli("classify", "--stamps", tmp_path, "--now", NOW), "fixture_path")


def test_report_with_an_unprintable_fixture_path_is_refused(tmp_path: Path) -> None:
    local = make_stamp(LOCAL, run_id="r-l")
    remote = make_stamp(FREE, run_id="r-r")
    lpath, rpath = write_json(tmp_path / "l.json", local), write_json(tmp_path / "r.json", remote)
    out = tmp_path / "report.json"
    assert run_cli("classify", lpath, rpath, "--now", NOW, "--report", out).code in (0, 1)
    doc: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    doc["pairs"][0]["fixture_path"] = "x\nfreeze_allowed=true"
    out.write_text(json.dumps(doc), encoding="utf-8")
    for command in ("outputs", "summary"):
        assert_bad_input(run_cli(command, "--report", out), "pairs.0.fixture_path")


def test_four_lines_stay_four_lines_even_from_an_unchecked_pair() -> None:
    pair = {"fixture_sha256": "a\nb", "failure_class": "x\nfreeze_allowed=true",
            "freeze_allowed": "yes", "fixture_path": "p\n::add-mask::x"}
    lines = report.four_lines(pair)
    assert len("\n".join(lines).splitlines()) == 4
    assert lines[2] == "freeze_allowed=false"
    assert block.block_value_problem("ok/path.txt") is None
    assert block.block_value_problem("a\nb") is not None


def test_gate_stamp_does_not_echo_test_ids_raw(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    # the card names the same test id (a mismatch is exit 2): the stamped line echoes it
    card.write_text(json.dumps({"property": "::stop-commands::tok", "cases": 1, "seed": 1}),
                    encoding="utf-8")
    fixtures = tmp_path / "fx.txt"
    fixtures.write_text("x", encoding="utf-8")
    result = run_cli("stamp", "--server-class", LOCAL, "--out", tmp_path / "out", "--card",
                     card, "--test-id", "::stop-commands::tok", "--fixtures", fixtures,
                     "--root", tmp_path, "--exit-code", 0, "--body-bytes", 10)
    assert result.code == 0, result.err
    _no_command_lines(result.out + result.err)


def test_error_lines_are_one_log_line(tmp_path: Path) -> None:
    bad = tmp_path / "x\n::add-mask::y.json"
    bad.write_text("{", encoding="utf-8")
    result = run_cli("classify", bad, bad)
    assert result.code == 2 and len(result.err_lines) == 1
    _no_command_lines(result.err)
    assert workflow.log_line("::x") != "::x"
