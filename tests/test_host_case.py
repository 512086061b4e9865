"""Issue 14 class 9: host names compare as DNS does (case-insensitive), one way, in one
function (gate.decide.halt.host_key), through every route: halt check, the hook, the guard."""

from __future__ import annotations

import ast
import io
import itertools
import json
from pathlib import Path

import pytest

from gate.agent import guard as guard_mod
from gate.agent import hook
from gate.decide import halt
from gate.records import ledger
from tests.core_helpers import MARKER, run_cli, write_json

GATE = Path(__file__).resolve().parents[1] / "gate"
HOST_MODULES = ("gate/decide/halt.py", "gate/agent/hook.py", "gate/agent/hook_input.py",
                "gate/agent/guard.py", "gate/agent/target.py", "gate/records/ledger.py")
#: Functions that fold case for something other than a host (the hook's --help metavars).
NOT_HOSTS = {("gate/agent/hook.py", "help_text"),
             ("gate/agent/hook_input.py", "_http_scheme")}  # a URL's scheme, never a host

SPELLINGS = ["api.lab.invalid", "API.LAB.INVALID", "Api.Lab.Invalid", "aPI.lab.INVALID"]
SCOPES = ["lab.invalid", "fixture.local"]


def test_no_other_case_folding_in_the_halt_gate() -> None:
    for rel in HOST_MODULES:
        tree = ast.parse((GATE.parent / rel).read_text(encoding="utf-8"))
        skipped = {id(inner) for fn in ast.walk(tree)
                   if isinstance(fn, ast.FunctionDef) and (rel, fn.name) in NOT_HOSTS
                   for inner in ast.walk(fn)}
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in ("lower", "casefold", "upper"), (rel, node.lineno)


def test_host_key_folds_ascii_only() -> None:
    assert halt.host_key("API.Lab.INVALID") == "api.lab.invalid"
    assert halt.host_key("\u0130.invalid") == "\u0130.invalid"  # never a Unicode fold
    assert halt.same_host("A.invalid", "a.INVALID")


@pytest.mark.parametrize(("minted", "called", "scope"),
                         list(itertools.product(SPELLINGS, SPELLINGS, SCOPES)))
def test_every_route_allows_the_minted_host_in_any_case(tmp_path: Path, minted: str,
                                                        called: str, scope: str) -> None:
    book = tmp_path / "l.jsonl"
    bound = ledger.Ledger(book).bind("run-1", scope, minted, MARKER)
    # halt check, with the binding as minted and as the call spells it
    for i, spelling in enumerate((minted, called)):
        record = dict(bound.to_record(), host=spelling)
        path = write_json(tmp_path / f"b{i}.json", record)
        result = run_cli("halt", "check", "--ledger", book, "--binding", path,
                         "--issued-gen", 1, "--attempt-id", f"check-{i}")
        assert (result.code, result.out.strip()) == (0, "allow"), (spelling, result)
    # the hook (which reads the call's host from a URL)
    args = hook.parse_argv(["--ledger", str(book)])
    data = json.dumps({"tool_name": "WebFetch", "tool_input": {"url": f"https://{called}/x"},
                       "tool_use_id": "hook-1"}).encode()
    err = io.StringIO()
    assert hook.run(args, io.BytesIO(data), err) == 0, err.getvalue()
    # the guard
    guard = guard_mod.ToolGuard(book)
    attempted = halt.Binding("run-1", 1, scope, called, MARKER, "fixture")
    assert guard.call(lambda url: "ran", f"https://{called}/x", target="url", binding=attempted,
                      issued_generation=1, attempt_id="guard-1") == "ran"
    assert run_cli("halt", "audit", book).lines[-1] == "failed=0 denominator=4"


def test_another_host_is_still_rejected_in_any_case(tmp_path: Path) -> None:
    book = tmp_path / "l.jsonl"
    bound = ledger.Ledger(book).bind("run-1", "lab.invalid", "API.lab.invalid", MARKER)
    other = halt.Binding("run-1", 1, "lab.invalid", "OTHER.lab.invalid", MARKER, "fixture")
    result = ledger.Ledger(book).check(other, bound.generation, "a1")
    assert result.decision is halt.Decision.REJECT
