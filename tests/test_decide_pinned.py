"""Table rows a user reads that no other unit test pinned (issue 32: each was left standing by
a mutation of gate/decide/): the stamp gate's row 6 with a flagged and a healthy allowlist
entry, the actions a report's row 6 may carry, what a rerun pair may be re-derived to, the
receipt binder's record and field names, the halt gate's row-3 target class, and the row-6
outcomes of a test that did not run."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from gate.decide import digest, halt, receipts, stamps
from gate.decide import outcome as _outcome
from gate.decide.outcome import Outcome, ProcessResult
from gate.decide.stamps import AllowEntry
from tests.core_helpers import FREE, FUTURE, LOCAL, NOW, SHA_X, SHA_Y, TEST_ID, stamp

HEALTHY = AllowEntry(TEST_ID, FREE, "@parsers", "free runner lacks the locale", FUTURE)
FLAGGED = dataclasses.replace(HEALTHY, owner="@someone", finding="allowlist[1]: no issue named")


def _row6(allowlist: tuple[AllowEntry, ...]) -> stamps.StampResult:
    first = stamps.classify_pair(stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"), allowlist, NOW)
    second = stamps.classify_pair(stamp(FREE, "assert_fail"), stamp(LOCAL, "pass"), allowlist,
                                  NOW)
    assert first == second
    return first


# --- stamp gate row 6: a flagged entry grants nothing, a healthy one beside it still does -----


@pytest.mark.parametrize("allowlist", [(FLAGGED, HEALTHY), (HEALTHY, FLAGGED)])
def test_row6_a_healthy_entry_beside_a_flagged_one_still_grants_the_freeze(
        allowlist: tuple[AllowEntry, ...]) -> None:
    result = _row6(allowlist)
    assert (result.action, result.row, result.door_open) == ("freeze_inside_server_class", 6, True)


def test_row6_only_flagged_entries_grant_nothing_and_say_why() -> None:
    result = _row6((FLAGGED, dataclasses.replace(FLAGGED, finding="second finding")))
    assert (result.action, result.row, result.door_open) == ("reject_not_allowlisted", 6, False)
    assert result.reason == "the allowlist entry grants nothing: allowlist[1]: no issue named"


def test_row6_a_flagged_entry_never_counts_for_the_expiry_check() -> None:
    # the healthy entry has expired; the flagged one runs on: nothing grants the freeze
    expired = dataclasses.replace(HEALTHY, expires=NOW)
    result = _row6((expired, dataclasses.replace(FLAGGED, expires=FUTURE * 2)))
    assert (result.action, result.row, result.reason) == (
        "reject_freeze_expired", 6, "the allowlist entry has expired")


# --- the actions a report's pair may carry (gate.records.report re-derives with these) --------


@pytest.mark.parametrize(("lo", "fo", "classes", "actions"), [
    ("pass", "assert_fail", (LOCAL, FREE),
     {"reject_fixture_mismatch": 1, "freeze_inside_server_class": 6,
      "reject_not_allowlisted": 6, "reject_freeze_expired": 6}),
    ("assert_fail", "pass", (FREE, LOCAL),
     {"reject_fixture_mismatch": 1, "freeze_inside_server_class": 6,
      "reject_not_allowlisted": 6, "reject_freeze_expired": 6}),
    ("pass", "pass", (LOCAL, FREE), {"reject_fixture_mismatch": 1, "accept_candidate": 7}),
    ("assert_fail", "pass", (LOCAL, FREE),
     {"reject_fixture_mismatch": 1, "reject_cross_class_pass": 5}),
    ("assert_fail", "assert_fail", (LOCAL, FREE),
     {"reject_fixture_mismatch": 1, "reject_stable_fail": 8}),
    ("resource_exit", "pass", (LOCAL, FREE),
     {"reject_fixture_mismatch": 1, "reject_run_retry_new_id": 4}),
    ("pass", "pass", (FREE, FREE), {"reject_fixture_mismatch": 1, "reject_unstamped_pair": 3}),
    ("pass", "pass", ("ci", FREE), {"reject_fixture_mismatch": 1, "reject_bad_class": 2}),
    ("pass", None, (LOCAL, FREE), {"reject_fixture_mismatch": 1, "reject_unclassified": 9}),
])
def test_table_actions_are_every_end_of_the_row_the_runs_reach(
        lo: Any, fo: Any, classes: tuple[str, str], actions: dict[str, int]) -> None:
    assert stamps.table_actions(lo, fo, classes) == actions


def test_table_actions_default_to_local_pinned_then_free_server() -> None:
    assert stamps.table_actions("pass", "assert_fail") == stamps.table_actions(
        "pass", "assert_fail", (LOCAL, FREE))
    assert "freeze_inside_server_class" in stamps.table_actions("pass", "assert_fail")


# --- rerun_table: what a rerun pair of a report may be re-derived to -------------------------


def _runs(first: str, second: str, **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    return ({"run_id": "r1", "server_class": FREE, "outcome": first, **extra},
            {"run_id": "r2", "server_class": FREE, "outcome": second, **extra})


def test_rerun_table_two_reds_with_a_recorded_digest() -> None:
    # each run's digest absent, the recorded one or another, the first present one recorded
    assert stamps.rerun_table(*_runs("assert_fail", "assert_fail"), SHA_X) == {
        "unclassified": {1}, "property_miss": {3}, "fixture_drift": {2}}


def test_rerun_table_a_green_and_a_transport_fault() -> None:
    assert stamps.rerun_table(*_runs("pass", "resource_exit"), SHA_X) == {
        "unclassified": {1}, "harness_flake": {5}, "fixture_drift": {2}}
    assert stamps.rerun_table(*_runs("pass", "pass"), SHA_X) == {
        "unclassified": {1}, "none": {6}, "fixture_drift": {2}}
    assert stamps.rerun_table(*_runs("pass", "assert_fail"), SHA_X) == {
        "unclassified": {1, 4}, "fixture_drift": {2}}


def test_rerun_table_without_a_recorded_digest_only_row_1() -> None:
    for pin in (None, "not a digest", 7):
        assert stamps.rerun_table(*_runs("assert_fail", "assert_fail"), pin) == {
            "unclassified": {1}}


def test_rerun_table_a_recorded_digest_of_zeros_still_has_another_one() -> None:
    assert stamps.rerun_table(*_runs("assert_fail", "assert_fail"), "0" * 64) == {
        "unclassified": {1}, "property_miss": {3}, "fixture_drift": {2}}


def test_rerun_table_reads_the_hypothesis_generator_and_failure_a_report_keeps() -> None:
    generator = {"version": "6.100.0", "seed": 7, "max_examples": 32, "derandomize": True,
                 "database": None, "deadline_ms": None, "suppress_health_check": []}
    pin = digest.generator_digest(generator)
    first, second = _runs("assert_fail", "assert_fail", hypothesis=generator)
    first["failure"] = {"example": "f(x=0)", "type": "AssertionError"}
    second["failure"] = {"example": "f(x=1)", "type": "AssertionError"}
    # the generator digest is each run's fixture digest: both runs always carry the pin, and
    # the two minimal examples differ (row 3, unclassified), or one run's digest is another
    assert stamps.rerun_table(first, second, pin) == {"unclassified": {3},
                                                      "fixture_drift": {2}}
    second["failure"] = first["failure"]
    assert stamps.rerun_table(first, second, pin) == {"property_miss": {3},
                                                      "fixture_drift": {2}}
    # another generator in one run: row 0 whatever the fixture digests
    other = dict(second, hypothesis=dict(generator, seed=8))
    assert stamps.rerun_table(first, other, pin) == {"fixture_drift": {0}}


def test_rerun_table_ignores_what_a_report_does_not_keep() -> None:
    first, second = _runs("assert_fail", "assert_fail")
    kept = stamps.rerun_table(first, second, SHA_X)
    noisy = ({**first, "fixture_sha256": SHA_Y, "timed_out": True},
             {**second, "transport_ok": False, "fixture_sha256": SHA_Y})
    assert stamps.rerun_table(*noisy, SHA_X) == kept


# --- receipts: the record a report carries, and the field each mismatch names -----------------

BOUND = {"diff_sha256": "d" * 64, "prompt_sha256": "e" * 64, "model_id": "reviewer-1",
         "workspace_generation": "3"}


def _receipt(**changes: Any) -> dict[str, Any]:
    return {**BOUND, "verdict": "pass", "reasons": ["covers the change"], **changes}


def test_to_record_of_an_accepted_receipt() -> None:
    result = receipts.verify(_receipt(), BOUND)
    assert result.to_record() == {"decision": "accept", "line": "accept", "mismatches": []}


def test_to_record_of_a_rejected_receipt() -> None:
    result = receipts.verify(_receipt(verdict="fail", model_id="other"), BOUND)
    assert result.to_record() == {"decision": "reject", "line": "reject: model_id,verdict",
                                  "mismatches": ["model_id", "verdict"]}


@pytest.mark.parametrize("reasons", [[], "covers the change", None, {}])
def test_empty_or_non_list_reasons_are_a_mismatch(reasons: Any) -> None:
    result = receipts.verify(_receipt(reasons=reasons), BOUND)
    assert (result.accepted, result.mismatches) == (False, ("reasons",))
    in_toto = receipts.to_in_toto(_receipt(reasons=reasons))
    assert receipts.verify(in_toto, BOUND).mismatches == ("reasons",)


def test_missing_reasons_are_a_mismatch() -> None:
    document = _receipt()
    del document["reasons"]
    assert receipts.verify(document, BOUND).mismatches == ("reasons",)


@pytest.mark.parametrize(("path", "field"), [
    (("predicate",), "predicate"),
    (("predicate", "model_id"), "model_id"),
    (("predicate", "reasons", "0"), "reasons"),
    (("predicate", "diff_sha256"), "diff_sha256"),
    (("predicate", "comment"), "unknown_fields"),
    (("subject", "0", "digest", "sha256"), "diff_sha256"),
    (("_type",), "statement_type"),
    (("predicateType",), "statement_type"),
    (("extra",), "unknown_fields"),
    ((), "unknown_fields"),
])
def test_an_in_toto_schema_error_names_the_receipt_field(path: tuple[str, ...],
                                                        field: str) -> None:
    document = receipts.to_in_toto(_receipt())
    assert receipts.verify(document, BOUND).accepted
    result = receipts.verify(document, BOUND, [path])
    assert (result.accepted, result.mismatches) == (False, (field,))


@pytest.mark.parametrize(("path", "field"), [
    (("model_id",), "model_id"),
    (("reasons", "0"), "reasons"),
    (("comment",), "unknown_fields"),
    (("predicate",), "unknown_fields"),
    (("_type",), "unknown_fields"),
    ((), "unknown_fields"),
])
def test_a_plain_schema_error_names_the_receipt_field(path: tuple[str, ...], field: str) -> None:
    result = receipts.verify(_receipt(), BOUND, [path])
    assert (result.accepted, result.mismatches) == (False, (field,))


def test_mismatches_come_in_the_field_order_then_the_statement_words() -> None:
    document = receipts.to_in_toto(_receipt(verdict="fail", reasons=[]))
    paths = [("comment",), ("predicate",), ("_type",), ("predicate", "extra")]
    result = receipts.verify(document, BOUND, paths)
    assert result.mismatches == ("verdict", "reasons", "statement_type", "predicate",
                                 "unknown_fields")
    assert receipts.verify([document], BOUND).mismatches == ("receipt_type",)


def test_schema_name_follows_the_format() -> None:
    assert receipts.schema_name(receipts.to_in_toto(_receipt())) == "receipt-in-toto"
    assert receipts.schema_name(_receipt()) == "receipt"


# --- halt gate row 3: the target class the hook and the ledger print --------------------------

FIXTURE = halt.Binding("run-1", 2, "lab.invalid", "api.lab.invalid", halt.DEFAULT_MARKER,
                       "fixture")


def test_row3_an_unminted_binding_is_a_fixture_target_that_halts() -> None:
    result = halt.decide(FIXTURE, 2, halt.MemoryIssuer(), halt.HaltPolicy())
    assert result == halt.HaltResult(
        halt.Decision.HALT, 3, "no issuer minted this binding (run and generation unknown)",
        halt.TargetClass.FIXTURE)


def test_row3_a_generation_no_longer_current_is_a_fixture_target_rejected() -> None:
    issuer = halt.MemoryIssuer()
    issuer.record(FIXTURE)
    issuer.record(FIXTURE.replace(generation=3))
    result = halt.decide(FIXTURE, 2, issuer, halt.HaltPolicy())
    assert result == halt.HaltResult(
        halt.Decision.REJECT, 3, "generation is no longer the run's current one",
        halt.TargetClass.FIXTURE)


def test_row3_a_binding_other_than_the_minted_one_is_a_fixture_target_rejected() -> None:
    issuer = halt.MemoryIssuer()
    issuer.record(FIXTURE.replace(host="db.lab.invalid"))
    result = halt.decide(FIXTURE, 2, issuer, halt.HaltPolicy())
    assert result == halt.HaltResult(
        halt.Decision.REJECT, 3, "binding differs from the one the issuer minted for this "
        "generation", halt.TargetClass.FIXTURE)


# --- outcome row 6: a test that did not run, on the pytest routes ------------------------------

CLEAN = ProcessResult(exit_code=0, body_bytes=120)
SILENT = ProcessResult(exit_code=0, body_bytes=0)
NAMES = [("tests.test_x.TestParse", "test_a"), ("tests.test_x.TestParse", "test_b")]


def _unmatched(proc: ProcessResult, seen: str, names: list[tuple[str, str]] = NAMES,
               classname: str | None = "tests.test_x", name: str = "test_gone",
               pytest_route: bool = True) -> Outcome:
    return _outcome.not_matched(proc, (124,), classname=classname, name=name, names=names,
                                seen=seen, pytest_route=pytest_route)


def test_pytest_route_a_session_that_ran_no_test() -> None:
    assert _unmatched(CLEAN, _outcome.SEEN_UNKNOWN, names=[]) == Outcome(
        "resource_exit", 6, "did not run: the session ran no test")
    # printed nothing and exit 0: row 3 of the run comes first
    assert _unmatched(SILENT, _outcome.SEEN_UNKNOWN, names=[]) == Outcome(
        "empty_body", 3, "exit 0 but the process printed nothing")


@pytest.mark.parametrize("proc", [CLEAN, SILENT, ProcessResult(exit_code=1, body_bytes=9)])
def test_pytest_route_a_session_that_did_not_say_what_it_collected(proc: ProcessResult) -> None:
    assert _unmatched(proc, _outcome.SEEN_UNKNOWN) == Outcome(
        "resource_exit", 6, "did not run: the session did not say whether it collected this "
        "test (no result to stamp)")


@pytest.mark.parametrize(("seen", "pytest_route", "note"), [
    (_outcome.DESELECTED, True, "did not run: collected, then deselected (-k, -m, --deselect, "
                                "--lf)"),
    (_outcome.DESELECTED, False, "not in JUnit report: collected, then deselected (-k, -m, "
                                 "--deselect, --lf): it did not run"),
    (_outcome.NOT_REACHED, True, "did not run: collected, but the session stopped before its "
                                 "result (exit status 1: -x, --maxfail or an interrupt)"),
    (_outcome.NOT_COLLECTED, True, _outcome.NOT_COLLECTED_NOTE),
])
def test_row6_outcomes_of_a_test_that_did_not_run(seen: str, pytest_route: bool,
                                                  note: str) -> None:
    proc = ProcessResult(exit_code=1, body_bytes=9)
    assert _unmatched(proc, seen, pytest_route=pytest_route) == Outcome("resource_exit", 6, note)


def test_row6_a_collection_failure_before_what_the_route_saw() -> None:
    result = _outcome.not_matched(CLEAN, (), classname="tests.test_x", name="test_gone",
                                  names=NAMES, seen=_outcome.NOT_COLLECTED,
                                  collection_errors=["tests/test_y.py"], pytest_route=True)
    assert result == Outcome("resource_exit", 6,
                             "did not run: the test collection failed (tests/test_y.py)")


def test_a_module_that_ran_only_under_a_class_classname_was_collected() -> None:
    # its tests ran as tests.test_x.TestParse: the module was collected, this test was not
    assert _unmatched(CLEAN, _outcome.NOT_COLLECTED) == Outcome(
        "resource_exit", 6, _outcome.NOT_COLLECTED_NOTE)
    with pytest.raises(_outcome.SelectorTypo) as typo:
        _unmatched(CLEAN, _outcome.SEEN_UNKNOWN, pytest_route=False)
    assert typo.value.message.startswith(
        "classname 'tests.test_x', name 'test_gone' matches no test case in the report; nearest: "
        "'tests.test_x.TestParse.test_")


def test_a_module_whose_name_only_starts_another_module_was_not_collected() -> None:
    names = [("tests.test_xy", "test_a"), ("tests.test_xy.TestParse", "test_b")]
    assert _unmatched(CLEAN, _outcome.NOT_COLLECTED, names=names) == Outcome(
        "resource_exit", 6, _outcome.module_not_collected_note("tests.test_x"))
    with pytest.raises(_outcome.SelectorTypo) as typo:
        _unmatched(CLEAN, _outcome.SEEN_UNKNOWN, names=names, pytest_route=False)
    assert "no test of 'tests.test_x' ran at all" in typo.value.message
