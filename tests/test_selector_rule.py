"""Issue 14 class 8: one function decides "a selector typo, or a test that did not run"
(:func:`gate.decide.outcome.not_matched`), and every route reaches it: ``gate stamp --junit``
with a manifest and with the bare ``--test-id`` selector, and the pytest plugin. The branches
themselves are tested in tests/test_outcome.py; the routes end to end in tests/test_stamping.py
and tests/test_pytest_plugin.py."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gate.decide import outcome
from gate.errors import GateInputError
from gate.records import junit
from gate.records.manifest import Property
from gate.testrun import junit_route, pytest_plugin, stamping

GATE = Path(__file__).resolve().parents[1] / "gate"
RED = outcome.ProcessResult(1, None, False, 10)


def _sources() -> dict[str, ast.Module]:
    return {str(p.relative_to(GATE.parent)): ast.parse(p.read_text(encoding="utf-8"))
            for p in GATE.rglob("*.py")}


def test_only_not_matched_words_the_unmatched_outcome() -> None:
    found = []
    for name, tree in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                    "not in JUnit report" in node.value or "not collected: renamed" in
                    node.value):
                found.append(name)
    assert set(found) == {"gate/decide/outcome.py"}


def test_the_pytest_routes_code_speaks_of_no_junit_report_or_selector() -> None:
    """Issue 22: no string the plugin or the recorder prints speaks of a JUnit report or a
    selector the user never wrote (their words come from gate.decide.outcome's pytest-route
    branch, tested in tests/test_outcome.py)."""
    for name in ("gate/testrun/pytest_plugin.py", "gate/testrun/recorder.py",
                 "gate/testrun/recorder_route.py", "gate/testrun/cases.py"):
        tree = _sources()[name]
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                assert "JUnit report" not in node.value and "selector" not in node.value, (
                    name, node.value)


def test_a_typo_is_turned_into_bad_input_in_one_place_and_never_swallowed() -> None:
    users = set()
    for name, tree in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "SelectorTypo":
                users.add(name)
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                caught = ast.unparse(node.type)
                assert "SelectorTypo" not in caught or name == "gate/testrun/stamping.py", name
    assert users == {"gate/testrun/stamping.py"}
    assert not hasattr(junit, "check_selector")  # the exit-0-only rule is gone


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    real = outcome.not_matched

    def recording(proc: outcome.ProcessResult, codes: Any, **kwargs: Any) -> outcome.Outcome:
        calls.append(kwargs)
        return real(proc, codes, **kwargs)

    monkeypatch.setattr(outcome, "not_matched", recording)
    return calls


REPORT = junit.parse(b'<testsuite><testcase classname="s" name="test_total"/>'
                     b'<testcase classname="s" name="test_x"><failure/></testcase></testsuite>',
                     "r.xml")


def _prop(test_id: str, name: str, classname: str | None = "s") -> Property:
    return Property(test_id=test_id, card=Path("c.json"), fixtures=(), sample=None,
                    junit_classname=classname, junit_name=name, location=None)


@pytest.mark.parametrize(("manifest", "where"), [
    ("gate.yml", "gate.yml: properties.1.junit (test 'p2')"),
    (None, "gate stamp: --junit-classname/--junit-name"),
])
def test_the_gate_stamp_routes_go_through_it(spy: list[dict[str, Any]], manifest: str | None,
                                             where: str) -> None:
    props = ([_prop("p1", "test_total"), _prop("p2", "test_totl")] if manifest
             else [_prop("p2", "test_totl")])
    request = stamping.Request(properties=props, server_class="local-pinned", out=Path("o"),
                               root=Path("."), run_ids=[f"r{n}" for n in range(len(props))],
                               timeout_codes=(124,), junit_path=Path("r.xml"), recorded=RED,
                               manifest=manifest)
    index = len(props) - 1
    with pytest.raises(GateInputError) as caught:
        junit_route._decide(request, RED, REPORT, index)
    assert str(caught.value).startswith(where + ": classname 's', name 'test_totl' matches no "
                                        "test case in the report; nearest: 's.test_total'")
    assert spy == [{"classname": "s", "name": "test_totl", "names": REPORT.names(),
                    "seen": outcome.SEEN_UNKNOWN, "collection_errors": (),
                    "pytest_route": False, "collection_blame": None}]
    if manifest:  # a selector that matches is decided without it
        assert junit_route._decide(request, RED, REPORT, 0).outcome == "pass"
        assert len(spy) == 1


@dataclass
class _Prepared:
    prop: Property

    def still_same(self) -> bool:
        return True


@pytest.mark.parametrize(("collected", "seen"), [
    (None, outcome.SEEN_UNKNOWN),  # an xdist controller collects nothing itself
    (pytest_plugin.Collected(set()), outcome.NOT_COLLECTED),
    (pytest_plugin.Collected({("s", "test_totl")}), outcome.NOT_REACHED),
    (pytest_plugin.Collected(set(), {("s", "test_totl")}), outcome.DESELECTED),
])
def test_the_plugin_route_goes_through_it_with_what_it_collected(
        spy: list[dict[str, Any]], collected: pytest_plugin.Collected | None,
        seen: str) -> None:
    item = _Prepared(_prop("p1", "test_totl"))
    plugin = pytest_plugin.StampPlugin([item], ["r1"], Path("o"), "local-pinned", (124,),
                                       manifest="m.yml")
    plugin.cases = pytest_plugin.Cases(done=[pytest_plugin._Case(("s", "test_total"))])
    if collected is not None:
        plugin.collected = collected
    # issue 22: on the pytest routes a test that did not run is never a typo (no stamps at
    # all): it is that property's resource_exit, in words that name no JUnit report
    (decided,) = plugin.decisions(RED)
    assert decided.outcome == "resource_exit"
    assert "JUnit" not in decided.note and "selector" not in decided.note
    assert spy == [{"classname": "s", "name": "test_totl", "names": [("s", "test_total")],
                    "seen": seen, "collection_errors": [], "pytest_route": True,
                    "collection_blame": None}]


def test_every_route_builds_and_writes_through_the_one_shared_step() -> None:
    """Issue 19: one module per route, the decide-and-build step once. Only
    ``stamping.build_all`` calls ``build_stamp``; only ``stamping.write_all`` writes a stamp;
    each route module decides and nothing else."""
    calls: dict[str, set[str]] = {"build_stamp": set(), "write_all": set(), "build_all": set()}
    for name, tree in _sources().items():
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Call):
                    called = ast.unparse(node.func).rsplit(".", 1)[-1]
                    if called in calls:
                        calls[called].add(f"{name}:{func.name}")
    assert calls["build_stamp"] == {"gate/testrun/stamping.py:build_all"}
    assert calls["build_all"] == {"gate/testrun/routes.py:stamp_run",
                                  "gate/testrun/pytest_plugin.py:write"}
    assert calls["write_all"] == {"gate/testrun/routes.py:stamp_run",
                                  "gate/testrun/pytest_plugin.py:write"}
    for route in ("exit_route", "junit_route", "recorder_route"):
        tree = _sources()[f"gate/testrun/{route}.py"]
        assert "decide" in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}, route
