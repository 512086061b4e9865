"""The recorder bounds failure text before it writes it, as the plugin bounds it when it builds a
stamp (issue 20.6): a red whose message is 200,000 characters is ``assert_fail`` with the text
cut, on both pytest routes, not exit 2 naming a results file that broke its schema."""

from __future__ import annotations

import json
from pathlib import Path

from tests.property_suite.harness import read_stamps
from tests.test_hypothesis_card import workspace
from tests.test_recorder import stamp

LONG = '''
from hypothesis import given
from hypothesis import strategies as st


@given(st.integers(0, 10))
def test_long(n):
    assert n < 0, "m" * 200_000
'''


def _long_workspace(root: Path) -> None:
    from tests.property_suite.harness import write_manifest

    workspace(root, {})
    (root / "hypo_long.py").write_text(LONG)
    (root / "cards" / "long.json").write_text(json.dumps(
        {"property": "long", "cases": 5, "seed": 1}))
    write_manifest(root / "gate.yml", [{
        "test_id": "long", "card": "cards/long.json", "fixtures": ["hypo_long.py"],
        "junit": {"classname": "hypo_long", "name": "test_long"}}])


def _bounded_red(got: dict[str, object]) -> None:
    assert got["outcome"] == "assert_fail", got
    failure = got["failure"]
    assert isinstance(failure, dict)
    message = failure["message"]
    assert isinstance(message, str) and len(message) <= 2000 and "…[cut " in message, failure
    assert message.startswith("m" * 100) or "m" * 100 in message


def test_a_200000_character_red_is_assert_fail_with_the_text_cut_on_the_recorder_route(
        tmp_path: Path) -> None:
    import sys

    _long_workspace(tmp_path)
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_long.py")
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    _bounded_red(got)


def test_a_200000_character_red_is_assert_fail_with_the_text_cut_on_the_plugin_route(
        tmp_path: Path) -> None:
    from tests.test_hypothesis_card import LOCAL, run_class

    _long_workspace(tmp_path)
    done = run_class(tmp_path, LOCAL, "out", None, "-k", "test_long", module="hypo_long.py")
    assert " written to out" in done.stdout, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    _bounded_red(got)


def test_a_testcase_record_bounds_its_failure_and_crash() -> None:
    from gate.records import schemas
    from gate.testrun.cases import CRASH_BOUND, FAILURE, FAILURE_BOUNDS, Case

    case = Case(("c", "n"), {FAILURE}, crash="E" * 5000,
                failure={"type": "T", "message": "m" * 200_000, "example": "e" * 200_000,
                         "reproduce": None})
    record = case.to_record()
    assert len(record["failure"]["message"]) == FAILURE_BOUNDS["message"]
    assert len(record["failure"]["example"]) == FAILURE_BOUNDS["example"]
    assert len(record["crash"]) == CRASH_BOUND and "…[cut " in record["crash"]
    assert Case.from_record(record).failure == record["failure"]  # bounded once, kept as cut
    schemas.validate("recorder-results", {
        "schema": "gate-recorder-results/v1", "gate_version": "0", "pytest_version": "8",
        "hypothesis_version": "6", "exit_status": 1, "refused": [], "refused_tests": 0,
        "cases": [record], "tampered": [],
        "collected": {"selected": None, "deselected": [], "ungated": [], "failed": []}},
        "results")
