"""Ungated properties are named, by mechanism (issue 29 item 1; SPEC §6).

A Hypothesis test that no manifest property selects runs in no stamp job: the gate said
"open — all N tests green" with nothing naming it. Here: both pytest routes (the recorder, the
plugin) report every collected Hypothesis test (``@given``, a state machine's ``TestCase``),
deselected or not, and the gate's process keeps those no property selects in every stamp's
``ungated`` object; the stamp step's log names them with the fix.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gate.decide import ungated
from tests.property_suite.harness import env, read_stamps
from tests.test_hypothesis_card import LOCAL, run_class, workspace
from tests.test_recorder import stamp

UNGATED_PROPS = ["hypo_props.py::test_filtered", "hypo_props.py::test_fixed_band",
                 "hypo_props.py::test_flaky", "hypo_props.py::test_round_trip",
                 "hypo_props.py::test_slow", "hypo_props.py::test_split"]
MACHINE = "hypo_stateful.py::TestLedger::runTest"


def _named(stamped: dict[str, object]) -> dict[str, str]:
    found = stamped["ungated"]
    assert isinstance(found, dict)
    return {t["test"]: t["kind"] for t in found["tests"]}


@pytest.mark.parametrize("select", [(), ("-k", "test_draws or TestLedger")])
def test_the_recorder_names_every_hypothesis_test_no_property_selects(
        tmp_path: Path, select: tuple[str, ...]) -> None:
    """One property gated (test_draws); the file's six other ``@given`` tests and a state
    machine are named ungated, also when ``-k`` deselects them (on the code before: no stamp
    named any, and the log said nothing)."""
    workspace(tmp_path, {"draws": 1})
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", *select,
                 "hypo_props.py", "hypo_stateful.py", environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["outcome"] == "pass"
    assert _named(got) == {**dict.fromkeys(UNGATED_PROPS, "given"), MACHINE: "stateful"}
    assert got["ungated"]["count"] == 7
    (line,) = [x for x in done.stdout.splitlines() if "no manifest property selects" in x]
    assert line.startswith("gate: 7 Hypothesis tests no manifest property selects (ungated")
    assert line.endswith("fix: gate init --add hypo_props.py hypo_stateful.py")


def test_the_plugin_names_them_too(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    done = run_class(tmp_path, LOCAL, "plugin")  # -k test_draws: the others are deselected
    assert " written to plugin" in done.stdout, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "plugin").values()
    assert _named(got) == dict.fromkeys(UNGATED_PROPS, "given")
    assert "gate: 6 Hypothesis tests no manifest property selects" in done.stdout


def test_a_fully_gated_session_names_nothing(tmp_path: Path) -> None:
    every = ["draws", *(t.split("::test_")[1] for t in UNGATED_PROPS)]
    workspace(tmp_path, dict.fromkeys(every, 1))
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_props.py",
                 environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(tmp_path / "out")
    assert len(got) == 7 and all("ungated" not in s for s in got.values())
    assert "no manifest property selects" not in done.stdout


# --- the pure rules (gate/decide/ungated.py) -------------------------------------------------


def test_the_union_keeps_one_entry_per_test_with_its_sources_in_order() -> None:
    got = ungated.union([("scan", "t.py::b", "given"), ("free-server", "t.py::a", "stateful"),
                         ("local-pinned", "t.py::a", "stateful"), ("local-pinned", "t.py::b",
                                                                     "given")])
    assert got == [ungated.Ungated("t.py::a", "stateful", ("local-pinned", "free-server")),
                   ungated.Ungated("t.py::b", "given", ("local-pinned", "scan"))]


@pytest.mark.parametrize(("count", "policy", "decision"), [
    (0, "warn", "none"), (0, "fail", "none"), (2, "warn", "named"), (2, "fail", "closed"),
    (1, "bogus", "closed"),  # never reached (the schema refuses it): fails closed
])
def test_the_ungated_decision_table(count: int, policy: str, decision: str) -> None:
    assert ungated.decision(count, policy) == decision


def test_the_fix_names_each_file_once() -> None:
    tests = [f"t{i}.py::x" for i in range(7)] + ["t0.py::y"]
    assert ungated.fix(tests) == "gate init --add t0.py t1.py t2.py t3.py t4.py ..."
    assert ungated.log_line([("a.py::t", "given")], 1) == (
        "gate: 1 Hypothesis test no manifest property selects (ungated: it runs in no stamp "
        "job and is never decided): a.py::t; fix: gate init --add a.py")
