"""Issue 22: a Hypothesis health check that fails exactly the same way in both classes (the same
card, so the same generator; the same check; the same text) is deterministic — a re-run cannot
pass — and the red block says so and names the two real ways out; a check on one class only
stays the retry class. Run for real: ``gate init`` on a tiny project, the pytest plugin in both
classes, the stamps paired by the gate's own code, the summary rendered."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.commands.main import main
from gate.decide import digest
from gate.decide import stamps as stamp_gate
from gate.github import review, summary
from gate.records import pairing
from gate.records.files import read_json
from tests import golden_cases as g
from tests.property_suite.harness import env
from tests.typed_report import typed, typed_pair

FILTERING = '''\
from hypothesis import given, strategies as st


@given(st.integers().filter(lambda x: str(x).endswith("1234567")))
def test_filtered(x):
    assert str(x).endswith("1234567")


@given(st.integers())
def test_fine(x):
    assert x == x
'''


def _run(root: Path, server_class: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests",
         "--gate-stamps", f"stamps/{server_class}", "--gate-server-class", server_class],
        cwd=root, env=env(), capture_output=True, text=True, timeout=300, check=False)


def _report(root: Path) -> dict[str, Any]:
    loaded = [pairing.Loaded(read_json(p), str(p))
              for p in sorted((root / "stamps").rglob("*.json"))]
    return pairing.build_report(pairing.decide_all(loaded, [], g.NOW, None), g.NOW,
                                max_freeze_days=30)


def test_a_health_check_both_classes_fail_alike_is_deterministic_not_a_flake(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_filter.py").write_text(FILTERING)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert main(["init", "tests"]) == 0
    for server_class in (stamp_gate.LOCAL, stamp_gate.FREE):
        done = _run(tmp_path, server_class)
        assert "gate: 2 stamps written" in done.stdout, done.stdout + done.stderr
    report = _report(tmp_path)
    (pair,) = [p for p in report["pairs"] if p["status"] == "rejected"]
    assert pair["test_id"] == "tests/test_filter.py::test_filtered"
    assert pair["action"] == "reject_run_retry_new_id"  # the stamp gate's row stands
    # the digest gate: not harness noise, so never a freeze request
    assert (pair["failure_class"], pair["freeze_allowed"]) == ("unclassified", False)
    check = review.repeated_health_check(typed_pair(pair))
    assert check is not None and check.name == "filter_too_much"
    text = summary.render(typed(report), view=g.VIEW)
    assert "it is deterministic, so a re-run cannot pass" in text
    assert "**Fix the strategy**" in text
    assert "`@settings(suppress_health_check=[HealthCheck.filter_too_much])`" in text
    assert '`"suppress_health_check": ["filter_too_much"]` to its card' in text
    assert "Re-run the" not in text and "re-run the" not in text.replace(
        "a re-run cannot pass", "")
    # Hypothesis's whole text once (folded away), not once per class
    assert text.count(check.message.splitlines()[-1].strip()) == 1


def _records(text_left: str, text_right: str, seed_right: int = 7) -> tuple[dict[str, Any], ...]:
    def stamp(text: str, seed: int) -> dict[str, Any]:
        return {"outcome": "resource_exit", "run_id": f"r{seed}{len(text)}",
                "hypothesis": dict(g.HYPOTHESIS, seed=seed),
                "failure": {"type": digest.HEALTH_CHECK_TYPE, "message": text,
                            "example": None, "reproduce": None}}

    return (stamp_gate.as_run_record(stamp(text_left, 7)),
            stamp_gate.as_run_record(stamp(text_right, seed_right)))


def test_the_digest_gate_tells_a_repeated_health_check_from_noise() -> None:
    same = digest.classify_runs(*_records(g.FILTER_TOO_MUCH, g.FILTER_TOO_MUCH))
    assert (same.failure_class, same.row, same.freeze_allowed) == (
        digest.FailureClass.UNCLASSIFIED, 5, False)
    assert "deterministic" in same.reason
    other = digest.classify_runs(*_records(g.FILTER_TOO_MUCH, g.TOO_SLOW))
    assert (other.failure_class, other.row) == (digest.FailureClass.HARNESS_FLAKE, 5)
    moved = digest.classify_runs(*_records(g.FILTER_TOO_MUCH, g.FILTER_TOO_MUCH, 8))
    assert moved.failure_class is digest.FailureClass.FIXTURE_DRIFT  # another generator
    assert digest.health_check_digest({"type": "AssertionError", "message": "x"}) is None


def test_a_check_on_one_class_only_stays_the_retry_class() -> None:
    report = g.health_check()
    by_id = {p["test_id"]: p for p in report["pairs"]}
    slow = by_id["tests/test_props.py::test_render_all"]
    assert review.repeated_health_check(typed_pair(slow)) is None
    assert slow["failure_class"] == "harness_flake"
    assert "Re-run the free-server stamp job" in "\n".join(
        review.next_step(typed_pair(slow), g.NOW, 30, g.VIEW))
    repeated = by_id["tests/test_props.py::test_parse_ranges"]
    assert review.repeated_health_check(typed_pair(repeated)) is not None
    changed = {**repeated, "runs": [repeated["runs"][0], {
        **repeated["runs"][1], "failure": {**repeated["runs"][1]["failure"],
                                           "message": g.TOO_SLOW}}]}
    # another text: not the same check
    assert review.repeated_health_check(typed_pair(changed)) is None
