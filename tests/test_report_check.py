"""A report read back from a file must agree with itself before it can open anything:
``gate publish``, ``summary`` and ``outputs`` refuse a self-contradicting one (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gate.errors import GateInputError
from gate.records import load as records
from tests.core_helpers import run_cli, write_json
from tests.test_summary import make_pair, make_report


def _open_report(**pair_fields: Any) -> dict[str, Any]:
    report = make_report(accepted=1)
    # consistent with its own runs (issue 14 class 6: the table re-derives every pair)
    report["pairs"][0].update(row=7, runs=[
        {"run_id": "ra", "server_class": "local-pinned", "outcome": "pass"},
        {"run_id": "rb", "server_class": "free-server", "outcome": "pass"}])
    report["pairs"][0].update(pair_fields)
    return report


@pytest.mark.parametrize("fields", [
    {"action": "reject_stable_fail"},  # an accepted status on a closing action
    {"gate": "digest", "action": "accept_candidate"},  # a rerun label cannot accept
    {"gate": "pairing", "action": "accept_candidate"},
    {"status": "frozen", "action": "accept_candidate", "freeze_allowed": False},
], ids=["accepted-reject", "digest", "pairing", "frozen-accept"])
def test_an_opening_status_must_follow_from_its_action(tmp_path: Path,
                                                      fields: dict[str, Any]) -> None:
    report = _open_report(**fields)
    if report["pairs"][0]["status"] == "frozen":
        report["counts"] = {"accepted": 0, "frozen": 1, "rejected": 0}
    path = write_json(tmp_path / "report.json", report)
    for command in (["outputs"], ["summary", "--out", str(tmp_path / "s.md")]):
        result = run_cli(*command, "--report", path)
        assert result.code == 2, (command, result)
        assert "pairs.0.status" in result.err


def test_a_consistent_open_report_still_opens(tmp_path: Path) -> None:
    path = write_json(tmp_path / "report.json", _open_report())
    assert run_cli("summary", "--report", path, "--out", tmp_path / "s.md").code == 0


def test_rerun_labels_are_always_rejected() -> None:
    report = _open_report()
    rerun = make_pair(1, "rejected", gate="digest", action="harness_flake")
    report["reruns"] = [dict(rerun, status="accepted")]
    with pytest.raises(GateInputError) as caught:
        records.check_report(report, "r.json")
    assert caught.value.field == "reruns.0.status"
