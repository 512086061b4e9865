"""Issue 14 classes 6 and 11: every decision read back is re-derived from its own inputs by the
same pure table (gate.records.report.rederive), and two records of one attempt never pair."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest

from gate.decide import stamps
from gate.records import report
from tests.core_helpers import (
    FREE,
    LOCAL,
    NOW,
    assert_bad_input,
    run_cli,
    stamp,
    write_json,
)

OUTCOMES = ("pass", "assert_fail", "resource_exit", "empty_body")
ALL_ACTIONS = ("reject_fixture_mismatch", "reject_bad_class", "reject_unstamped_pair",
               "reject_run_retry_new_id", "reject_cross_class_pass", "reject_not_allowlisted",
               "reject_freeze_expired", "freeze_inside_server_class", "accept_candidate",
               "reject_stable_fail", "reject_unclassified")


def _real_pair(lo: str, fo: str, allow: bool = True, same_hash: bool = True,
               classes: tuple[str, str] = (LOCAL, FREE)) -> dict[str, Any]:
    first = stamp(classes[0], lo, run_id="L")
    second = stamp(classes[1], fo, run_id="F",
                   **({} if same_hash else {"fixture_hash": "c" * 64}))
    entries = (stamps.AllowEntry(first["test_id"], FREE, "o", "r", NOW + 100),) if allow else ()
    result = stamps.classify_pair(first, second, entries, NOW)
    return report.cross_class_pair(first, second, result)


CASES = [(lo, fo, allow, same, classes)
         for lo, fo in itertools.product(OUTCOMES, repeat=2)
         for allow in (True, False) for same in (True, False)
         for classes in ((LOCAL, FREE), (FREE, LOCAL), (FREE, FREE))]


@pytest.mark.parametrize(("lo", "fo", "allow", "same", "classes"), CASES)
def test_every_pair_the_table_makes_re_derives(lo: str, fo: str, allow: bool, same: bool,
                                              classes: tuple[str, str]) -> None:
    pair = _real_pair(lo, fo, allow, same, classes)
    assert report.rederive({"now": NOW, "pairs": [pair]}) == []


def _status(action: str) -> str:
    return {"accept_candidate": "accepted",
            "freeze_inside_server_class": "frozen"}.get(action, "rejected")


@pytest.mark.parametrize(("lo", "fo"), list(itertools.product(OUTCOMES, repeat=2)))
def test_no_opening_action_is_believed_unless_the_table_can_give_it(lo: str, fo: str) -> None:
    base = _real_pair(lo, fo)
    possible = stamps.table_actions(lo, fo)
    for action in ALL_ACTIONS:
        forged = dict(base, action=action, row=possible.get(action, 7), status=_status(action),
                      freeze_allowed=base["failure_class"] == "harness_flake")
        problems = report.rederive({"now": NOW, "pairs": [forged]})
        assert (problems == []) == (action in possible), (lo, fo, action, problems)


def _consistent_open_report() -> dict[str, Any]:
    return report.build([_real_pair("pass", "pass")], NOW)


def _forge_and_expect_refused(tmp_path: Path, doc: dict[str, Any], field: str) -> None:
    path = write_json(tmp_path / "report.json", doc)
    for command in (["outputs"], ["summary", "--out", str(tmp_path / "s.md")], ["publish"]):
        assert_bad_input(run_cli(*command, "--report", path), field)


def test_the_consistent_report_opens(tmp_path: Path) -> None:
    path = write_json(tmp_path / "report.json", _consistent_open_report())
    assert run_cli("outputs", "--report", path).code == 0


def test_accept_candidate_beside_two_assert_fail_runs_is_refused(tmp_path: Path) -> None:
    doc = _consistent_open_report()
    for run in doc["pairs"][0]["runs"]:
        run["outcome"] = "assert_fail"
    _forge_and_expect_refused(tmp_path, doc, "pairs.0.action")


def test_a_freeze_beside_a_red_local_pinned_run_is_refused(tmp_path: Path) -> None:
    pair = _real_pair("pass", "assert_fail")
    assert pair["status"] == "frozen"
    pair["runs"][0]["outcome"] = "assert_fail"
    _forge_and_expect_refused(tmp_path, report.build([pair], NOW), "pairs.0.action")


@pytest.mark.parametrize(("edit", "field"), [
    (lambda p, doc: p.update(card_expires=doc["now"] - 1), "pairs.0.card_expires"),
    (lambda p, doc: p.update(card_expires=None), "pairs.0.card_expires"),
    (lambda p, doc: p.pop("card_expires"), "pairs.0.card_expires"),
    (lambda p, doc: p.update(freeze={"owner": "o", "reason": "r", "expires": 1,
                                     "card_expires": p["card_expires"]}), "pairs.0.freeze.expires"),
    (lambda p, doc: doc.update(now=p["card_expires"]), "pairs.0.card_expires"),
])
def test_a_freeze_whose_expiry_has_passed_is_refused(tmp_path: Path, edit: Any,
                                                     field: str) -> None:
    """Found in the review of the merge: a report read back could say frozen past the card's
    freeze_expires_at (or the allowlist entry's expires) and still open outputs/summary."""
    pair = _real_pair("pass", "assert_fail")
    assert pair["status"] == "frozen" and isinstance(pair["card_expires"], int)
    doc = report.build([pair], NOW)
    path = write_json(tmp_path / "ok.json", doc)
    assert run_cli("outputs", "--report", path).code == 0  # the real freeze opens
    edit(doc["pairs"][0], doc)
    _forge_and_expect_refused(tmp_path, doc, field)


def test_a_receipt_section_that_accepts_beside_its_reject_line_is_refused(
        tmp_path: Path) -> None:
    doc = _consistent_open_report()
    doc["receipt"] = {"decision": "accept", "line": "reject: verdict", "mismatches": []}
    _forge_and_expect_refused(tmp_path, doc, "receipt.decision")
    doc["receipt"] = {"decision": "accept", "line": "accept", "mismatches": ["model_id"]}
    _forge_and_expect_refused(tmp_path, doc, "receipt.decision")


def test_a_halt_audit_that_passes_beside_failures_is_refused(tmp_path: Path) -> None:
    doc = _consistent_open_report()
    doc["halt_audit"] = {"failed": 0, "denominator": 1, "chain_ok": True,
                         "problems": ["line 2: attempt 'a': recorded allow, the table says halt"]}
    _forge_and_expect_refused(tmp_path, doc, "halt_audit.failed")
    doc["halt_audit"] = {"failed": 0, "denominator": 1, "chain_ok": True,
                         "problems": ["chain: line 2: hash mismatch"]}
    _forge_and_expect_refused(tmp_path, doc, "halt_audit.chain_ok")


@pytest.mark.parametrize(("outcome", "fields"), [
    ("pass", {"timed_out": True}), ("pass", {"transport_ok": False}),
    ("assert_fail", {"timed_out": True}), ("resource_exit", {"transport_ok": True}),
])
def test_stamp_optional_fields_must_agree_with_the_outcome(tmp_path: Path, outcome: str,
                                                          fields: dict[str, Any]) -> None:
    bad = write_json(tmp_path / "bad.json", stamp(FREE, outcome, run_id="B",
                                                  fixture_sha256="a" * 64, **fields))
    other = write_json(tmp_path / "other.json", stamp(FREE, "pass", run_id="O",
                                                      fixture_sha256="a" * 64))
    field = next(iter(fields))
    assert_bad_input(run_cli("triage", bad, other), field)
    assert_bad_input(run_cli("classify", bad, other, "--now", NOW), field)


def test_agreeing_optional_fields_still_load(tmp_path: Path) -> None:
    a = write_json(tmp_path / "a.json", stamp(FREE, "resource_exit", run_id="A",
                                              fixture_sha256="a" * 64, timed_out=True))
    b = write_json(tmp_path / "b.json", stamp(FREE, "pass", run_id="B",
                                              fixture_sha256="a" * 64, transport_ok=True))
    assert run_cli("triage", a, b).code in (0, 1)


# --- class 11 ----------------------------------------------------------------------------------


def test_a_relabelled_copy_is_not_a_pair(tmp_path: Path) -> None:
    local = stamp(LOCAL, "pass", run_id="same")
    relabelled = copy.deepcopy(local)
    relabelled["server_class"] = FREE
    a = write_json(tmp_path / "a.json", local)
    b = write_json(tmp_path / "b.json", relabelled)
    assert_bad_input(run_cli("classify", a, b, "--now", NOW), "run_id", "one attempt")
    assert_bad_input(run_cli("classify", "--stamps", tmp_path, "--now", NOW), "run_id")
    assert_bad_input(run_cli("triage", a, b), "run_id")
    assert_bad_input(run_cli("triage", a, a), "run_id")


def test_a_report_pair_of_one_attempt_is_refused(tmp_path: Path) -> None:
    doc = _consistent_open_report()
    doc["pairs"][0]["runs"][1]["run_id"] = doc["pairs"][0]["runs"][0]["run_id"]
    _forge_and_expect_refused(tmp_path, doc, "pairs.0.runs")
