"""Table rows a user reads that no other unit test pinned (issue 32: each was left standing by
a mutation of gate/decide/): the stamp gate's row 6 with a flagged and a healthy allowlist
entry, the actions a report's row 6 may carry, what a rerun pair may be re-derived to, the
receipt binder's record and field names, the halt gate's row-3 target class, and the row-6
outcomes of a test that did not run; and what each row of the tables says, word for word (the
reason or note a user reads in the job summary, the check run, the hook's answer and the
ledger: the row tests pin the action and the row, these the words)."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from gate.decide import block, digest, halt, judges, receipts, signing, stamps, ungated, when
from gate.decide import outcome as _outcome
from gate.decide.digest import FailureClass
from gate.decide.outcome import Outcome, ProcessResult
from gate.decide.stamps import AllowEntry
from tests.core_helpers import FREE, FUTURE, HASH_B, LOCAL, NOW, SHA_X, SHA_Y, TEST_ID, stamp
from tests.core_helpers import run_record as rr

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


@pytest.mark.parametrize("pin", ["0" * 64, "1" * 64])
def test_rerun_table_a_recorded_digest_of_zeros_or_ones_still_has_another_one(pin: str) -> None:
    assert stamps.rerun_table(*_runs("assert_fail", "assert_fail"), pin) == {
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


def test_row6_a_collection_failure_names_the_module_whose_import_broke_it() -> None:
    """The words naming the repository module that broke the first file's import (b89e5eb)
    reach row 6's note from the report, after the files that failed to collect."""
    blame = ("the patch breaks importing src/m.py (line 9: ImportError: x), which "
             "tests/test_y.py imports: fix that file")
    result = _outcome.from_junit(CLEAN, (), report_found=True, matches=[], report_has_red=False,
                                 classname="tests.test_x", name="test_gone", names=NAMES,
                                 seen=_outcome.NOT_COLLECTED,
                                 collection_errors=["tests/test_y.py"], pytest_route=True,
                                 collection_blame=blame)
    assert result == Outcome("resource_exit", 6, "did not run: the test collection failed "
                             f"(tests/test_y.py): {blame}")


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


GEN = "1" * 64
OTHER_GEN = "2" * 64

# --- what each row says (the reason a user reads, word for word) ------------------------------

# stamp gate (SPEC §3)-

HYP = {"version": "6.100.0", "seed": 7, "max_examples": 32, "derandomize": True,
       "database": None, "deadline_ms": 200, "suppress_health_check": [], "examples_run": 32}


@pytest.mark.parametrize(("first", "second", "allowlist", "action", "row", "reason"), [
    (stamp(LOCAL, "pass"), stamp(FREE, "pass", fixture_hash=HASH_B), (HEALTHY,),
     "reject_fixture_mismatch", 1,
     "the two stamps are for different tests, fixtures or sample cards"),
    (stamp(LOCAL, "pass", hypothesis=HYP), stamp(FREE, "pass"), (HEALTHY,),
     "reject_fixture_mismatch", 1,
     "only the local-pinned stamp records its Hypothesis generator: the two runs are not "
     "provably the same experiment"),
    (stamp(LOCAL, "pass"), stamp(FREE, "pass", hypothesis=HYP), (HEALTHY,),
     "reject_fixture_mismatch", 1,
     "only the free-server stamp records its Hypothesis generator: the two runs are not "
     "provably the same experiment"),
    (stamp(LOCAL, "pass", hypothesis=HYP),
     stamp(FREE, "pass", hypothesis=dict(HYP, seed=8, version="6.101.0")), (HEALTHY,),
     "reject_fixture_mismatch", 1,
     "the Hypothesis generators differ: version '6.100.0' (local-pinned) vs '6.101.0' "
     "(free-server); seed 7 (local-pinned) vs 8 (free-server)"),
    (stamp("ci", "pass"), stamp(FREE, "pass"), (HEALTHY,), "reject_bad_class", 2,
     "a server class is not one of the two"),
    (stamp(FREE, "pass"), stamp(FREE, "pass"), (HEALTHY,), "reject_unstamped_pair", 3,
     "both stamps are free-server; the other class did not run"),
    (stamp(LOCAL, "empty_body"), stamp(FREE, "resource_exit"), (HEALTHY,),
     "reject_run_retry_new_id", 4,
     "a run ended in empty_body: discard it and rerun with a new run id and the same card"),
    (stamp(LOCAL, "pass"), stamp(FREE, "resource_exit"), (HEALTHY,),
     "reject_run_retry_new_id", 4,
     "a run ended in resource_exit: discard it and rerun with a new run id and the same card"),
    (stamp(LOCAL, "assert_fail"), stamp(FREE, "pass"), (HEALTHY,), "reject_cross_class_pass", 5,
     "a free-server green never closes a local-pinned red"),
    (stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"), (), "reject_not_allowlisted", 6,
     "free-server red, local-pinned green, but the test is not allowlisted for a freeze in "
     "free-server"),
    (stamp(LOCAL, "pass", expires=None), stamp(FREE, "assert_fail", expires=None), (HEALTHY,),
     "reject_freeze_expired", 6,
     "the sample card's freeze_expires_at is missing or has passed"),
    (stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"),
     (dataclasses.replace(HEALTHY, expires=NOW),), "reject_freeze_expired", 6,
     "the allowlist entry has expired"),
    (stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"), (HEALTHY,),
     "freeze_inside_server_class", 6,
     f"frozen inside free-server until {when.utc_date(FUTURE)} (the card's freeze_expires_at); "
     "local-pinned is green"),
    (stamp(LOCAL, "pass"), stamp(FREE, "pass"), (), "accept_candidate", 7,
     "green in both server classes"),
    (stamp(LOCAL, "assert_fail"), stamp(FREE, "assert_fail"), (), "reject_stable_fail", 8,
     "red in both server classes"),
    (stamp(LOCAL, "pass"), stamp(FREE, "skipped"), (), "reject_unclassified", 9,
     "no row matched"),
])
def test_each_stamp_gate_row_says(first: dict[str, Any], second: dict[str, Any],
                                  allowlist: tuple[AllowEntry, ...], action: str, row: int,
                                  reason: str) -> None:
    assert stamps.classify_pair(first, second, allowlist, NOW) == stamps.StampResult(
        action, row, reason)
    # the other order gives the same action and row (a generator difference names the first
    # argument's value first)
    other = stamps.classify_pair(second, first, allowlist, NOW)
    assert (other.action, other.row) == (action, row)
    if not reason.startswith("the Hypothesis generators differ"):
        assert other.reason == reason


HARNESS_SAME_FIXTURES = ("; the fixtures and cards are the same (a harness file changed between "
                         "the runs? gate init --refresh records the new harness; re-run both "
                         "stamp jobs)")


@pytest.mark.parametrize(("first", "second", "said"), [
    ({"harness_sha256": "a" * 64}, {"harness_sha256": "b" * 64},
     "aaaaaaaaaaaa (local-pinned) vs bbbbbbbbbbbb (free-server)"),
    ({}, {"harness_sha256": "b" * 64}, "absent (local-pinned) vs bbbbbbbbbbbb (free-server)"),
    ({"harness_sha256": "a" * 64}, {}, "aaaaaaaaaaaa (local-pinned) vs absent (free-server)"),
])
def test_row1_two_harnesses_say_which_each_stamp_recorded(first: dict[str, Any],
                                                           second: dict[str, Any],
                                                           said: str) -> None:
    """Row 1, the harness (harness_sha256): each side's first 12 hex or absent, with its class,
    the first argument first; checked before the generators, after the fixtures."""
    reason = ("the two stamps ran under different test harnesses: harness_sha256 " + said
              + HARNESS_SAME_FIXTURES)
    local, free = stamp(LOCAL, "pass", **first), stamp(FREE, "pass", **second)
    assert stamps.classify_pair(local, free, (), NOW) == stamps.StampResult(
        "reject_fixture_mismatch", 1, reason)
    assert stamps.classify_pair(free, local, (), NOW).reason == (
        "the two stamps ran under different test harnesses: harness_sha256 "
        + " vs ".join(reversed(said.split(" vs "))) + HARNESS_SAME_FIXTURES)
    drifted = stamp(FREE, "pass", hypothesis=HYP, **second)
    assert stamps.classify_pair(local, drifted, (), NOW).reason == reason
    other_fixture = stamp(FREE, "pass", fixture_hash=HASH_B, **second)
    assert stamps.classify_pair(local, other_fixture, (), NOW).reason == (
        "the two stamps are for different tests, fixtures or sample cards")


def test_row1_the_same_harness_or_none_recorded_is_no_difference() -> None:
    same = {"harness_sha256": "a" * 64}
    assert stamps.harness_difference(stamp(LOCAL, "pass", **same),
                                     stamp(FREE, "pass", **same)) is None
    assert stamps.harness_difference(stamp(LOCAL, "pass"), stamp(FREE, "pass")) is None


def test_the_freeze_names_the_card_expiry_not_the_allowlist_entry() -> None:
    entry = dataclasses.replace(HEALTHY, expires=FUTURE * 2)
    result = stamps.classify_pair(stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"), (entry,),
                                  NOW)
    assert "frozen inside free-server until 2026-09-22 14:13 UTC (the card's" in result.reason


def test_a_generator_missing_beside_a_discarded_run_is_no_difference() -> None:
    # the class without a generator ended in a retry outcome: row 4 discards it anyway
    for retry in stamps.RETRY_OUTCOMES:
        recorded = stamp(FREE, "pass", hypothesis=HYP)
        lacking = stamp(LOCAL, retry)
        assert stamps.generator_difference(recorded, lacking) is None
        assert stamps.generator_difference(lacking, recorded) is None
        assert stamps.classify_pair(recorded, lacking, (), NOW).row == 4
    assert stamps.generator_difference(stamp(LOCAL, "pass"), stamp(FREE, "pass")) is None
    assert stamps.generator_difference(stamp(LOCAL, "pass", hypothesis=HYP),
                                       stamp(FREE, "pass", hypothesis=HYP)) is None


def test_a_generator_that_is_not_an_object_counts_as_missing() -> None:
    assert stamps.generator_difference(stamp(LOCAL, "pass", hypothesis="6.100.0"),
                                       stamp(FREE, "pass", hypothesis=HYP)) == (
        "only the free-server stamp records its Hypothesis generator: the two runs are not "
        "provably the same experiment")


@pytest.mark.parametrize(("record", "found"), [
    ({"outcome": "pass", "timed_out": True},
     [("timed_out", "true, but the outcome pass means the run finished in time")]),
    ({"outcome": "assert_fail", "transport_ok": False, "timed_out": True},
     [("timed_out", "true, but the outcome assert_fail means the run finished in time"),
      ("transport_ok", "false, but the outcome assert_fail means the transport delivered")]),
    ({"outcome": "resource_exit", "transport_ok": True},
     [("transport_ok", "true, but the outcome resource_exit means no result was delivered")]),
    ({"outcome": "empty_body", "transport_ok": True, "timed_out": True},
     [("transport_ok", "true, but the outcome empty_body means no result was delivered")]),
    ({"outcome": "pass", "timed_out": False, "transport_ok": True}, []),
    ({"outcome": "resource_exit", "transport_ok": False, "timed_out": True}, []),
    ({"outcome": "pass", "timed_out": 1, "transport_ok": 0}, []),
    ({"outcome": "bogus", "transport_ok": True, "timed_out": True}, []),
])
def test_optional_fields_that_contradict_the_outcome(record: dict[str, Any],
                                                     found: list[tuple[str, str]]) -> None:
    assert stamps.optional_field_conflicts(record) == found


def test_a_stamp_seen_as_a_run_record_keeps_its_optional_fields() -> None:
    s = stamp(FREE, "resource_exit", run_id="r9", fixture_sha256=SHA_X, fixture_path="fx",
              status_code=503, timed_out=True, retry_count=2, note="not kept")
    assert stamps.as_run_record(s) == {
        "run_id": "r9", "oracle_passed": None, "transport_ok": False, "fixture_sha256": SHA_X,
        "fixture_path": "fx", "status_code": 503, "timed_out": True, "retry_count": 2}


def test_a_hypothesis_run_record_keeps_a_pinned_fixture_digest() -> None:
    s = stamp(FREE, "assert_fail", fixture_sha256=SHA_X, hypothesis=HYP,
              failure={"type": "AssertionError", "message": "m", "example": None})
    record = stamps.as_run_record(s)
    assert record["fixture_sha256"] == SHA_X
    assert record["generator_sha256"] == digest.generator_digest(HYP)
    assert "failure_sha256" not in record and "health_check_sha256" not in record
    assert "failure_sha256" not in stamps.as_run_record(dict(s, failure="AssertionError"))


# --- digest gate (SPEC §4) ---------------------------------------------------------------------


@pytest.mark.parametrize(("left", "right", "cls", "row", "reason"), [
    (rr(False, True, generator_sha256=GEN), rr(False, True, generator_sha256=OTHER_GEN),
     FailureClass.FIXTURE_DRIFT, 0,
     "the Hypothesis generators differ (version or settings in force)"),
    (rr(False, True, generator_sha256=GEN), rr(False, True), FailureClass.FIXTURE_DRIFT, 0,
     "the Hypothesis generators differ (version or settings in force)"),
    (rr(False, True, sha=None), rr(False, True), FailureClass.UNCLASSIFIED, 1,
     "a fixture digest is missing or malformed"),
    (rr(False, True), rr(False, True, sha=SHA_Y), FailureClass.FIXTURE_DRIFT, 2,
     "the fixture digests differ"),
    (rr(False, True, failure_sha256=GEN), rr(False, True, failure_sha256=OTHER_GEN),
     FailureClass.UNCLASSIFIED, 3, "both oracles failed, but on different minimal examples"),
    (rr(False, True, failure_sha256=GEN), rr(False, True), FailureClass.PROPERTY_MISS, 3,
     "both oracles failed on the same bytes"),
    (rr(False, True), rr(True, True), FailureClass.UNCLASSIFIED, 4, "only one oracle failed"),
    (rr(True, "yes"), rr(True, True), FailureClass.UNCLASSIFIED, 6,
     "an oracle or transport value is malformed; no freeze"),
    (rr(None, False, sha=GEN, generator_sha256=GEN, health_check_sha256=SHA_X),
     rr(True, True, sha=GEN, generator_sha256=GEN, health_check_sha256=SHA_X),
     FailureClass.UNCLASSIFIED, 5,
     "both runs failed the same Hypothesis health check on the same generator: "
     "deterministic, not harness noise; no freeze"),
    (rr(None, False), rr(True, True), FailureClass.HARNESS_FLAKE, 5,
     "a transport fault was recorded"),
    (rr(True, True, timed_out=True), rr(True, True), FailureClass.HARNESS_FLAKE, 5,
     "a transport fault was recorded"),
    (rr(True, True), rr(True, True), FailureClass.NONE, 6,
     "both oracles passed: nothing to classify"),
    (rr(None, True), rr(True, True), FailureClass.UNCLASSIFIED, 6, "no row matched"),
])
def test_each_digest_gate_row_says(left: dict[str, Any], right: dict[str, Any],
                                   cls: FailureClass, row: int, reason: str) -> None:
    for a, b in ((left, right), (right, left)):
        assert digest.classify_runs(a, b) == digest.DigestResult(cls, row, reason)


@pytest.mark.parametrize(("left", "right", "row"), [
    # one health check is not a repeated one; nor is the same check on other generators
    (rr(None, False, sha=GEN, generator_sha256=GEN, health_check_sha256=SHA_X),
     rr(True, True, sha=GEN, generator_sha256=GEN, health_check_sha256=SHA_Y), 5),
    (rr(None, False, sha=GEN, generator_sha256=GEN, health_check_sha256=SHA_X),
     rr(True, True, sha=GEN, generator_sha256=GEN), 5),
    (rr(None, False, sha=GEN, health_check_sha256=SHA_X),
     rr(True, True, sha=GEN, health_check_sha256=SHA_X), 5),
])
def test_a_health_check_that_does_not_repeat_is_a_flake(left: dict[str, Any],
                                                        right: dict[str, Any],
                                                        row: int) -> None:
    for a, b in ((left, right), (right, left)):
        result = digest.classify_runs(a, b)
        assert (result.failure_class, result.row) == (FailureClass.HARNESS_FLAKE, row)
        assert result.freeze_allowed


def test_a_discarded_run_without_a_generator_is_left_to_the_other_rows() -> None:
    # no oracle result in the run lacking one: not a generator difference
    result = digest.classify_runs(rr(None, False, sha=GEN), rr(True, True, sha=GEN,
                                                               generator_sha256=GEN))
    assert (result.failure_class, result.row) == (FailureClass.HARNESS_FLAKE, 5)
    # a malformed generator digest counts as missing
    result = digest.classify_runs(rr(True, True, generator_sha256="x"),
                                  rr(True, True, generator_sha256=GEN))
    assert (result.failure_class, result.row) == (FailureClass.FIXTURE_DRIFT, 0)


@pytest.mark.parametrize(("failure", "expected"), [
    ({"type": "AssertionError", "example": None}, None),
    ({"type": None, "example": "f(x=0)"}, None),
    ({"example": "f(x=0)"}, None),
    ({"type": "AssertionError"}, None),
])
def test_no_failure_digest_without_an_example_and_a_type(failure: dict[str, Any],
                                                         expected: None) -> None:
    assert digest.failure_digest(failure) is expected


@pytest.mark.parametrize("failure", [
    {"type": "AssertionError", "message": "Input generation is slow"},
    {"type": digest.HEALTH_CHECK_TYPE, "message": ""},
    {"type": digest.HEALTH_CHECK_TYPE, "message": None},
    {"type": digest.HEALTH_CHECK_TYPE},
])
def test_no_health_check_digest_without_a_health_check_and_its_text(
        failure: dict[str, Any]) -> None:
    assert digest.health_check_digest(failure) is None


def test_addresses_are_replaced_in_a_health_check_message() -> None:
    one = {"type": digest.HEALTH_CHECK_TYPE, "message": "self=<T object at 0x7f01>, too slow"}
    two = dict(one, message="self=<T object at 0x7eAB>, too slow")
    assert digest.health_check_digest(one) == digest.health_check_digest(two)
    assert digest.without_addresses("<T object at 0x7eAB> and <U at 0xff>") == (
        "<T object at 0x…> and <U at 0x…>")
    assert digest.without_addresses("at 0x7f not closed") == "at 0x7f not closed"


@pytest.mark.parametrize(("value", "clean"), [
    (True, True), (False, False), (None, None), (0, None), (1, None), ("true", None)])
def test_clean_bool(value: Any, clean: Any) -> None:
    assert digest.clean_bool(value) is clean


@pytest.mark.parametrize(("record", "fault"), [
    ({"transport_ok": False}, True), ({"timed_out": True}, True),
    ({"transport_ok": True, "timed_out": False}, False), ({}, False),
    ({"transport_ok": 0, "timed_out": 1}, False),
])
def test_transport_fault(record: dict[str, Any], fault: bool) -> None:
    assert digest.transport_fault(record) is fault


# --- halt gate (SPEC §2) -----------------------------------------------------------------------

def _issuer(*bindings: halt.Binding) -> halt.MemoryIssuer:
    issuer = halt.MemoryIssuer()
    for binding in bindings:
        issuer.record(binding)
    return issuer


@pytest.mark.parametrize(("binding", "issued", "result"), [
    (FIXTURE, 3, halt.HaltResult(
        halt.Decision.REJECT, 1, "issued generation 3 differs from the binding's generation 2; "
        "discarded, never replayed", halt.TargetClass.FIXTURE)),
    (FIXTURE.replace(target_class="live"), 2, halt.HaltResult(
        halt.Decision.HALT, 2, "target class is live, not fixture", halt.TargetClass.LIVE)),
    (FIXTURE.replace(marker=None), 2, halt.HaltResult(
        halt.Decision.HALT, 2, "target class is unknown, not fixture",
        halt.TargetClass.UNKNOWN)),
    (FIXTURE, 2, halt.HaltResult(
        halt.Decision.ALLOW, 4, "closed fixture, minted and current", halt.TargetClass.FIXTURE)),
])
def test_each_halt_gate_row_says(binding: halt.Binding, issued: int,
                                 result: halt.HaltResult) -> None:
    assert halt.decide(binding, issued, _issuer(FIXTURE), halt.HaltPolicy()) == result


# outcome (SPEC §3): the note of each row, as a stamp and the summary print it

@pytest.mark.parametrize(("proc", "assertion", "expected"), [
    (ProcessResult(None, 9, True, 10), False,
     Outcome("resource_exit", 1, "wall-clock limit reached; the process group was killed")),
    (ProcessResult(None, 15, False, 10), True,
     Outcome("resource_exit", 2, "killed by signal 15")),
    (ProcessResult(None, None, False, 10), False,
     Outcome("resource_exit", 2, "killed by signal None")),
    (ProcessResult(3, 15, False, 10), False, Outcome("resource_exit", 2, "killed by signal 15")),
    (ProcessResult(0, None, False, 0), True,
     Outcome("empty_body", 3, "exit 0 but the process printed nothing")),
    (ProcessResult(124, None, False, 0), False,
     Outcome("resource_exit", 4, "exit status 124 is a timeout code")),
    (ProcessResult(1, None, False, 5), True,
     Outcome("assert_fail", 5, "an assertion failure was recorded")),
    (ProcessResult(0, None, False, 5), False, Outcome("pass", 6, "")),
    (ProcessResult(2, None, False, 0), False,
     Outcome("resource_exit", 7, "exit status 2 without assertion evidence is not a result")),
])
def test_each_process_row_says(proc: ProcessResult, assertion: bool, expected: Outcome) -> None:
    assert _outcome.from_process(proc, (124,), assertion) == expected


def test_from_process_needs_no_assertion_argument() -> None:
    assert _outcome.from_process(ProcessResult(1, body_bytes=5), (124,)) == Outcome(
        "resource_exit", 7, "exit status 1 without assertion evidence is not a result")


@pytest.mark.parametrize(("proc", "found", "matches", "red", "errors", "expected"), [
    (CLEAN, False, [], False, (), Outcome("resource_exit", 5, "no JUnit report was written")),
    (CLEAN, True, ["passed", "failure"], True, (),
     Outcome("resource_exit", 7, "ambiguous: matches 2 testcases in the JUnit report")),
    (CLEAN, True, ["failure"], True, ("DeadlineExceeded",),
     Outcome("resource_exit", 8, "hypothesis.errors.DeadlineExceeded: a test case exceeded the "
             "deadline; not an assertion result")),
    (CLEAN, True, ["failure"], True, (), Outcome("assert_fail", 8, "JUnit <failure>")),
    (CLEAN, True, ["error"], True, ("DeadlineExceeded",),
     Outcome("resource_exit", 9, "JUnit <error> is not an assertion")),
    (CLEAN, True, ["skipped"], False, (), Outcome("resource_exit", 10, "skipped")),
    (CLEAN, True, ["passed"], False, (), Outcome("pass", 11, "")),
    (ProcessResult(1, body_bytes=5), True, ["passed"], True, ("Flaky",), Outcome("pass", 12, "")),
    (ProcessResult(1, body_bytes=5), True, ["passed"], False, (),
     Outcome("resource_exit", 13, "passed in JUnit, but exit status 1 does not agree")),
    (ProcessResult(2, body_bytes=5), True, ["passed"], True, (),
     Outcome("resource_exit", 13, "passed in JUnit, but exit status 2 does not agree")),
    (CLEAN, True, ["bogus"], False, (),
     Outcome("resource_exit", 13, "passed in JUnit, but exit status 0 does not agree")),
])
def test_each_junit_row_says(proc: ProcessResult, found: bool, matches: list[str], red: bool,
                             errors: tuple[str, ...], expected: Outcome) -> None:
    assert _outcome.from_junit(proc, (124,), report_found=found, matches=matches,
                               report_has_red=red, classname=None, name="t", names=[],
                               seen=_outcome.SEEN_UNKNOWN, hypothesis_errors=errors) == expected


@pytest.mark.parametrize(("errors", "note"), [
    (("Flaky",), "hypothesis.errors.Flaky: Hypothesis saw unreliable results (flaky)"),
    (("FlakyFailure", "FailedHealthCheck"),
     "hypothesis.errors.FlakyFailure, hypothesis.errors.FailedHealthCheck: Hypothesis saw "
     "unreliable results (flaky)"),
    (("FailedHealthCheck",), "hypothesis.errors.FailedHealthCheck: a Hypothesis health check "
                             "failed"),
    (("Unsatisfiable",), "hypothesis.errors.Unsatisfiable: Hypothesis could not satisfy the "
                         "test's assumptions"),
    (("InvalidArgument",), "hypothesis.errors.InvalidArgument: Hypothesis refused an invalid "
                           "argument"),
])
def test_each_hypothesis_error_note(errors: tuple[str, ...], note: str) -> None:
    assert _outcome.hypothesis_note(errors) == (
        f"{note}; not an assertion result")


def test_the_junit_route_row6_notes() -> None:
    def junit(proc: ProcessResult, names: list[tuple[str, str]],
              errors: tuple[str, ...] = ()) -> Outcome:
        return _outcome.from_junit(proc, (124,), report_found=True, matches=[],
                                   report_has_red=False, classname="tests.test_x", name="t",
                                   names=names, seen=_outcome.DESELECTED,
                                   collection_errors=errors)

    # a report without test cases: the run level first, else "not in JUnit report"
    assert junit(CLEAN, []) == Outcome("resource_exit", 6, "not in JUnit report")
    assert junit(SILENT, []) == Outcome("empty_body", 3, "exit 0 but the process printed nothing")
    assert junit(ProcessResult(124, body_bytes=1), NAMES) == Outcome(
        "resource_exit", 4, "exit status 124 is a timeout code")
    assert junit(CLEAN, NAMES, ("a.py", "b.py", "c.py", "d.py", "e.py")) == Outcome(
        "resource_exit", 6, "not in JUnit report: the test collection failed (a.py, b.py, c.py "
        "and 2 more)")


def test_an_unknown_seen_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown seen 'bogus'"):
        _unmatched(CLEAN, "bogus")


def test_a_typo_names_the_selector_the_nearest_names_and_what_to_do() -> None:
    with pytest.raises(_outcome.SelectorTypo) as typo:
        _outcome.not_matched(CLEAN, (), classname=None, name="test_prase", names=NAMES,
                             seen=_outcome.SEEN_UNKNOWN)
    assert typo.value.message == (
        "name 'test_prase' matches no test case in the report; nearest: 'test_a', 'test_b'; "
        + _outcome._TYPO_HINT[_outcome.SEEN_UNKNOWN])
    assert str(typo.value) == typo.value.message
    with pytest.raises(_outcome.SelectorTypo) as typo:
        _outcome.not_matched(CLEAN, (), classname="tests.test_y", name="t", names=NAMES,
                             seen=_outcome.SEEN_UNKNOWN)
    assert typo.value.message == (
        "classname 'tests.test_y', name 't' matches no test case in the report, and no test of "
        "'tests.test_y' ran at all: the command runs a subset of the tests (a path, -k) that "
        "leaves this module out, or the module moved: run every file the manifest names in "
        "this job (or leave this property out of the manifest); if the module moved, fix "
        "junit.classname")


def test_nearest_returns_the_closest_names_or_the_first_ones() -> None:
    names = [("tests.a.TestA", "test_one"), ("tests.a.TestA", "test_two"), ("", "test_three")]
    assert _outcome.nearest("tests.a.TestA", "test_on", names, count=1) == [
        "tests.a.TestA.test_one"]
    assert _outcome.nearest(None, "test_tw", names, count=2) == ["test_two", "test_three"]
    assert _outcome.nearest(None, "zzz", []) == []
    # a selector without a classname is compared by name alone, and spelled so
    assert _outcome.nearest(None, "test", [("m", "Noneq"), ("m", "tes")], count=1) == ["tes"]
    assert _outcome.nearest("x", "test_three", names, count=1) == ["test_three"]


# receipts: the refusals of `gate receipt write`

@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"verdict": "maybe"}, "verdict", "must be pass or fail, not 'maybe'"),
    ({"reasons": []}, "reasons", "must be a non-empty list of strings"),
    ({"reasons": "fine"}, "reasons", "must be a non-empty list of strings"),
    ({"reasons": ["fine", ""]}, "reasons", "every reason must be a non-empty string"),
    ({"reasons": ["fine", 3]}, "reasons", "every reason must be a non-empty string"),
])
def test_each_receipt_write_refusal_says(changes: dict[str, Any], field: str,
                                         message: str) -> None:
    args = {**BOUND, "verdict": "pass", "reasons": ["covers the change"], **changes}
    with pytest.raises(receipts.ReceiptWriteError) as refused:
        receipts.build(**args)
    assert (refused.value.field, str(refused.value)) == (field, message)


def test_a_written_receipt_is_the_six_fields_and_its_in_toto_form() -> None:
    reasons = ["covers the change"]
    receipt = receipts.build(**BOUND, verdict="fail", reasons=reasons)
    assert receipt == {**BOUND, "verdict": "fail", "reasons": reasons}
    assert receipt["reasons"] is not reasons
    assert receipts.to_in_toto(receipt) == {
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [{"name": "diff", "digest": {"sha256": BOUND["diff_sha256"]}}],
        "predicateType": "https://github.com/agent-patch-gate/gate/review-receipt/v1",
        "predicate": {"prompt_sha256": BOUND["prompt_sha256"], "model_id": "reviewer-1",
                      "workspace_generation": "3", "verdict": "fail", "reasons": reasons}}


# --- times for people (gate/decide/when.py): what the summary prints beside a freeze ----------


@pytest.mark.parametrize(("ts", "text"), [
    (0, "1970-01-01 00:00 UTC"),
    (1791590400, "2026-10-10 00:00 UTC"),
    (1790086405, "2026-09-22 14:13 UTC"),
    (10**20, "100000000000000000000 (Unix seconds)"),
    (-(10**20), "-100000000000000000000 (Unix seconds)"),
])
def test_utc_date(ts: int, text: str) -> None:
    assert when.utc_date(ts) == text


@pytest.mark.parametrize(("ts", "now", "past", "text"), [
    (NOW + 12 * when.DAY + 5, NOW, "expired", "in 12 days"),
    (NOW + when.DAY, NOW, "expired", "in 1 day"),
    (NOW + when.DAY - 1, NOW, "expired", "in 23 hours"),
    (NOW + 3600, NOW, "expired", "in 1 hour"),
    (NOW + 3599, NOW, "expired", "in 59 minutes"),
    (NOW + 120, NOW, "expired", "in 2 minutes"),
    (NOW + 60, NOW, "expired", "in 1 minute"),
    (NOW + 1, NOW, "expired", "in 1 minute"),
    (NOW, NOW, "expired", "expired just now"),
    (NOW, NOW, "added", "added just now"),
    (NOW - 3 * when.DAY, NOW, "expired", "expired 3 days ago"),
    (NOW - 2 * 3600, NOW, "added", "added 2 hours ago"),
    (NOW - 59, NOW, "expired", "expired 1 minute ago"),
])
def test_relative(ts: int, now: int, past: str, text: str) -> None:
    assert when.relative(ts, now, past) == text


def test_relative_says_expired_by_default_and_expiry_joins_both() -> None:
    assert when.relative(NOW - when.DAY, NOW) == "expired 1 day ago"
    assert when.expiry(1791590400, 1791590400 - 12 * when.DAY) == (
        "2026-10-10 00:00 UTC, in 12 days")


@pytest.mark.parametrize(("ts", "now", "days"), [
    (NOW + 2 * when.DAY, NOW, 2), (NOW + 2 * when.DAY - 1, NOW, 1), (NOW, NOW, 0),
    (NOW - 1, NOW, -1), (NOW - when.DAY, NOW, -1)])
def test_days_left(ts: int, now: int, days: int) -> None:
    assert when.days_left(ts, now) == days


@pytest.mark.parametrize(("ts", "days", "soon"), [
    (NOW + 7 * when.DAY, None, True), (NOW + 7 * when.DAY + 1, None, False),
    (NOW + 1, None, True), (NOW, None, False), (NOW - 1, None, False),
    (NOW + 2 * when.DAY, 1, False), (NOW + 2 * when.DAY, 2, True)])
def test_soon(ts: int, days: int | None, soon: bool) -> None:
    if days is None:
        assert when.soon(ts, NOW) is soon
    else:
        assert when.soon(ts, NOW, days) is soon


# --- ungated tests (gate/decide/ungated.py): the line the stamp step's log prints ------------


def test_the_union_gives_an_unknown_kind_the_first_kind_and_keeps_the_first_seen() -> None:
    assert ungated.union([("free-server", "t.py::a", "other"), ("scan", "t.py::a", "stateful"),
                          ("scan", "t.py::b", "stateful"), ("free-server", "t.py::b", "given")]
                         ) == [ungated.Ungated("t.py::a", "given", ("free-server", "scan")),
                               ungated.Ungated("t.py::b", "stateful", ("free-server", "scan"))]
    assert ungated.union([]) == []


def test_the_ungated_decision_of_a_negative_count_is_none() -> None:
    assert ungated.decision(-1, "fail") == "none"
    assert ungated.decision(1, "warn") == "named"


def test_the_fix_of_five_files_has_no_ellipsis() -> None:
    tests = [f"t{i}.py::x" for i in range(5)]
    assert ungated.fix(tests) == "gate init --add t0.py t1.py t2.py t3.py t4.py"
    assert ungated.files_of(["a.py::C::t", "b.py", "a.py::u"]) == ["a.py", "b.py"]


def test_the_log_line_of_many_tests() -> None:
    tests = [(f"t{i}.py::x", "given") for i in range(6)]
    assert ungated.log_line(tests, 9) == (
        "gate: 9 Hypothesis tests no manifest property selects (ungated: they run in no stamp "
        "job and are never decided): t0.py::x, t1.py::x, t2.py::x, t3.py::x, t4.py::x and 4 "
        "more; fix: gate init --add t0.py t1.py t2.py t3.py t4.py ...")
    assert ungated.log_line(tests[:2], 2) == (
        "gate: 2 Hypothesis tests no manifest property selects (ungated: they run in no stamp "
        "job and are never decided): t0.py::x, t1.py::x; fix: gate init --add t0.py t1.py")
    assert ungated.log_line(tests[:5], 5).endswith("t4.py::x; fix: gate init --add t0.py t1.py "
                                                  "t2.py t3.py t4.py")


def test_the_ungated_output_is_the_node_ids() -> None:
    assert ungated.output_value([{"test": "a.py::t"}, {"test": "b.py::u", "kind": "given"}]) == (
        "a.py::t b.py::u")
    assert ungated.output_value([]) == ""


@pytest.mark.parametrize("subject", [
    [{"name": "diff", "digest": {"sha512": "d" * 128}}],
    [{"name": "diff", "digest": "sha256:" + "d" * 64}],
    [{"name": "diff"}],
    [{"name": "diff", "digest": {"sha256": "d" * 64}}] * 2,
    ["diff"],
    {"name": "diff", "digest": {"sha256": "d" * 64}},
])
def test_an_in_toto_subject_without_one_sha256_digest_binds_no_diff(subject: Any) -> None:
    document = dict(receipts.to_in_toto(_receipt()), subject=subject)
    result = receipts.verify(document, BOUND)
    assert (result.accepted, result.mismatches) == (False, ("diff_sha256",))


@pytest.mark.parametrize("document", [None, [], "receipt", 3])
def test_a_receipt_that_is_not_an_object_is_refused_as_such(document: Any) -> None:
    result = receipts.verify(document, BOUND)
    assert result.accepted is False
    assert result.to_record() == {"decision": "reject", "line": "reject: receipt_type",
                                  "mismatches": ["receipt_type"]}


def test_a_memory_issuer_compares_and_prints_its_state() -> None:
    one, two = _issuer(FIXTURE), _issuer(FIXTURE)
    assert one == two
    assert (one != two) is False
    assert one != _issuer(FIXTURE.replace(generation=3))
    assert one != halt.MemoryIssuer(dict(one.bindings), {"run-1": 9})
    assert one.__eq__(object()) is NotImplemented
    assert repr(halt.MemoryIssuer()) == "MemoryIssuer(bindings={}, current={})"
    assert repr(one) == (f"MemoryIssuer(bindings={{('run-1', 2): {FIXTURE!r}}}, "
                         "current={'run-1': 2})")
    with pytest.raises(TypeError):
        hash(one)


def test_a_memory_issuer_starts_empty_or_from_what_it_is_given() -> None:
    assert (halt.MemoryIssuer().bindings, halt.MemoryIssuer().current) == ({}, {})
    given = {("run-1", 2): FIXTURE}
    issuer = halt.MemoryIssuer(given, {"run-1": 2})
    assert issuer.bindings is given and issuer.minted("run-1", 2) == FIXTURE
    assert issuer.current_generation("run-1") == 2
    assert issuer.current_generation("run-2") is None and issuer.minted("run-1", 1) is None


def test_the_first_binding_of_a_run_at_generation_zero_is_current() -> None:
    issuer = _issuer(FIXTURE.replace(generation=0))
    assert issuer.current_generation("run-1") == 0
    issuer.record(FIXTURE.replace(generation=5))
    issuer.record(FIXTURE.replace(generation=4))
    assert issuer.current_generation("run-1") == 5


def test_a_binding_record_names_every_field() -> None:
    assert FIXTURE.to_record() == {"run_id": "run-1", "generation": 2, "scope": "lab.invalid",
                                   "host": "api.lab.invalid", "marker": halt.DEFAULT_MARKER,
                                   "target_class": "fixture"}
    record = dict(FIXTURE.to_record())
    del record["marker"]
    assert halt.Binding.from_record(record) == FIXTURE.replace(marker=None)
    assert halt.HaltPolicy() == halt.HaltPolicy(("lab.invalid", "fixture.local"),
                                                "synthetic-fixture-v1")


# --- signed stamps (gate/decide/signing.py): what a refused stamp set is told ----------------

EXPECT = signing.Expect(artifact="gate-stamps-local", server_class=LOCAL, job="stamp",
                        run_attempt=2, repository="Acme/Widgets", repository_id="42",
                        run_ids=("1001", "1002"), max_attempt=3, head_sha="c" * 40)
PREDICATE = {"artifact": "gate-stamps-local", "server_class": LOCAL, "job": "stamp",
             "run_attempt": 2, "repository": "acme/widgets", "repository_id": "42",
             "run_id": "1002", "head_sha": "c" * 40, "policy_sha256": "a" * 64,
             "manifest_sha256": "b" * 64}


@pytest.mark.parametrize(("require", "local", "free"), [
    ("off", False, False), ("local-pinned", True, False), ("all", True, True)])
def test_which_stamps_must_be_signed(require: str, local: bool, free: bool) -> None:
    policy = signing.SigningPolicy(mode="ed25519", require=require)
    assert (policy.required(LOCAL), policy.required(FREE)) == (local, free)


def test_keys_and_workflows_by_owner() -> None:
    one, two = signing.Key("k1", b"1" * 32), signing.Key("k2", b"2" * 32)
    policy = signing.SigningPolicy(keys=((LOCAL, one), ("gate", two), (LOCAL, two)),
                                   workflows=((FREE, "wf-a"), (LOCAL, "wf-b"), (FREE, "wf-c")))
    assert policy.keys_of(LOCAL) == (one, two) and policy.keys_of(FREE) == ()
    assert policy.workflows_of(FREE) == ("wf-a", "wf-c") and policy.workflows_of("gate") == ()
    assert signing.SigningPolicy() == signing.SigningPolicy("off", "off", (), (), False)


def test_a_predicate_that_speaks_for_the_stamps() -> None:
    assert signing.predicate_problem(PREDICATE, EXPECT) is None
    # no repository id known, no head compared, an earlier attempt: still speaks for them
    loose = dataclasses.replace(EXPECT, repository_id="", head_sha="")
    assert signing.predicate_problem(dict(PREDICATE, repository_id="7", head_sha="d"),
                                     loose) is None
    assert signing.predicate_problem(
        PREDICATE, dataclasses.replace(EXPECT, files_compared=True, policy_sha256="a" * 64,
                                       manifest_sha256="b" * 64)) is None


@pytest.mark.parametrize(("changes", "field", "why"), [
    ({"artifact": "other"}, "predicate.artifact",
     "'other', not 'gate-stamps-local' (the artifact's own)"),
    ({"server_class": FREE}, "predicate.server_class",
     "'free-server', not 'local-pinned' (the artifact's own)"),
    ({"job": "x" * 90}, "predicate.job", f"{'x' * 80!r}, not 'stamp' (the artifact's own)"),
    ({"run_attempt": 1}, "predicate.run_attempt", "'1', not '2' (the artifact's own)"),
    ({"repository": "acme/other"}, "predicate.repository",
     "'acme/other', not this repository 'Acme/Widgets'"),
    ({"repository_id": "43"}, "predicate.repository_id",
     "'43', not this repository's '42'"),
    ({"run_id": "999"}, "predicate.run_id", "'999', not the run decided on (1001, 1002)"),
    ({"head_sha": "d" * 40}, "predicate.head_sha",
     "'dddddddddddd', not the commit decided on (cccccccccccc)"),
])
def test_each_predicate_field_that_does_not_speak_for_the_stamps(
        changes: dict[str, Any], field: str, why: str) -> None:
    assert signing.predicate_problem({**PREDICATE, **changes}, EXPECT) == (field, why)


def test_a_predicate_of_a_later_attempt_than_the_one_decided() -> None:
    expect = dataclasses.replace(EXPECT, run_attempt=4)
    assert signing.predicate_problem(dict(PREDICATE, run_attempt=4), expect) == (
        "predicate.run_attempt", "4 is later than the attempt being decided (3)")
    assert signing.predicate_problem(dict(PREDICATE, run_attempt=3),
                                     dataclasses.replace(EXPECT, run_attempt=3)) is None
    missing = {k: v for k, v in PREDICATE.items() if k != "repository"}
    assert signing.predicate_problem(missing, EXPECT) == (
        "predicate.repository", "'', not this repository 'Acme/Widgets'")


@pytest.mark.parametrize(("policy", "manifest", "predicate", "field", "why"), [
    ("a" * 64, "b" * 64, {"policy_sha256": "f" * 64}, "predicate.policy_sha256",
     "'ffffffffffff', not the policy file the gate job decides with ('aaaaaaaaaaaa'): the "
     "stamps were made under another policy; fix: give every job of the run the same policy "
     "input (and the same checkout)"),
    (None, "b" * 64, {}, None, None),
    (None, "b" * 64, {"policy_sha256": "a" * 64}, "predicate.policy_sha256",
     "'aaaaaaaaaaaa', not the policy file the gate job decides with (null (no file)): the "
     "stamps were made under another policy; fix: give every job of the run the same policy "
     "input (and the same checkout)"),
    ("a" * 64, "b" * 64, {"manifest_sha256": None}, "predicate.manifest_sha256",
     "null (no file), not the manifest file the gate job decides with ('bbbbbbbbbbbb'): the "
     "stamps were made under another manifest; fix: give every job of the run the same "
     "manifest input (and the same checkout)"),
    ("a" * 64, None, {}, "predicate.manifest_sha256",
     "the gate job has no manifest file to compare it with; fix: check the repository out in "
     "the gate job and give its manifest input the stamp jobs' manifest"),
])
def test_the_files_a_stamp_set_was_signed_under(policy: str | None, manifest: str | None,
                                                predicate: dict[str, Any], field: str | None,
                                                why: str | None) -> None:
    expect = dataclasses.replace(EXPECT, files_compared=True, policy_sha256=policy,
                                 manifest_sha256=manifest)
    base = {k: v for k, v in PREDICATE.items() if k not in ("policy_sha256", "manifest_sha256")}
    if policy is not None:
        base["policy_sha256"] = policy
    base["manifest_sha256"] = "b" * 64
    got = signing.predicate_problem({**base, **predicate}, expect)
    assert got == (None if field is None else (field, why))


def test_the_subjects_are_exactly_the_stamp_files() -> None:
    files = {"a.json": "1" * 64, "b.json": "2" * 64}

    def subject(name: str, sha: object) -> dict[str, Any]:
        return {"name": name, "digest": {"sha256": sha}}

    assert signing.subject_problem([subject("a.json", "1" * 64), subject("b.json", "2" * 64)],
                                   files) is None
    assert signing.subject_problem([subject("a.json", "1" * 64)], files) is None
    assert signing.subject_problem([subject("a.json", "1" * 64), subject("a.json", "1" * 64)],
                                   files) == ("subject.1.name", "'a.json' is named twice")
    assert signing.subject_problem([subject("a.json", "1" * 64), subject("c.json", "3" * 64)],
                                   files) == (
        "subject.1.name", "'c.json' is not in the artifact (a stamp removed after signing)")
    assert signing.subject_problem([subject("b.json", "1" * 64)], files) == (
        "subject.0.digest.sha256", "'b.json' has other bytes than were signed")
    assert signing.subject_problem([{"name": "a.json", "digest": "1" * 64}], files) == (
        "subject.0.digest.sha256", "'a.json' has other bytes than were signed")


def test_the_collection_note_names_at_most_three_files() -> None:
    assert _outcome.collection_note(["a.py", "b.py", "c.py"]) == (
        "not in JUnit report: the test collection failed (a.py, b.py, c.py)")
    assert _outcome.collection_note(["a.py"], pytest_route=True) == (
        "did not run: the test collection failed (a.py)")
    assert _outcome.collection_note(["a.py", "b.py", "c.py", "d.py"]) == (
        "not in JUnit report: the test collection failed (a.py, b.py, c.py and 1 more)")


def test_the_note_of_a_module_none_of_whose_tests_was_collected() -> None:
    assert _outcome.module_not_collected_note("tests.test_x") == (
        "not collected: no test of 'tests.test_x' was collected (the command runs a subset of "
        "the tests that leaves this module out, or the module was renamed or removed: "
        "`gate init --add` names the new tests; remove the old entries)")


# --- the frozen value class (gate/decide/frozen.py) -------------------------------------------


def test_a_frozen_value_refuses_change_and_says_so() -> None:
    with pytest.raises(AttributeError) as refused:
        FIXTURE.host = "x"  # type: ignore[misc]
    assert str(refused.value) == "cannot assign to field 'host': Binding is frozen"
    with pytest.raises(AttributeError) as refused:
        del FIXTURE.host  # type: ignore[misc]
    assert str(refused.value) == "cannot delete field 'host': Binding is frozen"
    with pytest.raises(TypeError) as refused:
        FIXTURE.replace(hots="x")
    assert str(refused.value) == "Binding has no field 'hots'"


def test_a_frozen_value_compares_hashes_and_prints_by_its_fields() -> None:
    assert FIXTURE.replace() == FIXTURE and hash(FIXTURE) == hash(FIXTURE.replace())
    assert FIXTURE.replace(generation=3) != FIXTURE
    assert FIXTURE.__eq__(FIXTURE.to_record()) is NotImplemented
    assert hash(FIXTURE) == hash((2, "api.lab.invalid", halt.DEFAULT_MARKER, "run-1",
                                  "lab.invalid", "fixture"))
    assert repr(halt.HaltPolicy(("a.invalid",), "m")) == (
        "HaltPolicy(expected_marker='m', reserved_scopes=('a.invalid',))")
    assert FIXTURE.replace(host="db.lab.invalid", generation=5) == halt.Binding(
        "run-1", 5, "lab.invalid", "db.lab.invalid", halt.DEFAULT_MARKER, "fixture")


def test_a_typo_shows_each_nearest_name_cut_at_80_characters() -> None:
    long = "test_" + "x" * 120
    with pytest.raises(_outcome.SelectorTypo) as typo:
        _outcome.not_matched(CLEAN, (), classname=None, name="test_y", names=[("m", long)],
                             seen=_outcome.SEEN_UNKNOWN)
    assert f"nearest: {long[:80]!r}; " in typo.value.message


def test_utc_date_is_utc_whatever_the_machines_time_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert when.utc_date(0) == "1970-01-01 00:00 UTC"
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.mark.parametrize("key", ["oracle_passed", "transport_ok", "timed_out"])
def test_a_malformed_value_of_any_of_the_three_fields_never_reads_green(key: str) -> None:
    malformed = dict(rr(True, True, timed_out=False), **{key: "yes"})
    for a, b in ((malformed, rr(True, True)), (rr(True, True), malformed)):
        assert digest.classify_runs(a, b) == digest.DigestResult(
            FailureClass.UNCLASSIFIED, 6, "an oracle or transport value is malformed; no freeze")


def test_every_value_a_refusal_quotes_is_cut_to_its_bound() -> None:
    long = "x" * 200
    expect = dataclasses.replace(EXPECT, artifact="a" * 120)
    assert signing.predicate_problem(PREDICATE, expect) == (
        "predicate.artifact", f"'gate-stamps-local', not {'a' * 80!r} (the artifact's own)")
    assert signing.predicate_problem(dict(PREDICATE, repository=long), EXPECT) == (
        "predicate.repository", f"{long[:100]!r}, not this repository 'Acme/Widgets'")
    assert signing.predicate_problem(dict(PREDICATE, repository_id=long), EXPECT) == (
        "predicate.repository_id", f"{long[:30]!r}, not this repository's '42'")
    assert signing.predicate_problem(dict(PREDICATE, run_id=long), EXPECT) == (
        "predicate.run_id", f"{long[:30]!r}, not the run decided on (1001, 1002)")
    subject = {"name": long, "digest": {"sha256": "1" * 64}}
    assert signing.subject_problem([subject, subject], {long: "1" * 64}) == (
        "subject.1.name", f"{long[:100]!r} is named twice")
    assert signing.subject_problem([subject], {}) == (
        "subject.0.name", f"{long[:100]!r} is not in the artifact (a stamp removed after "
        "signing)")
    assert signing.subject_problem([subject], {long: "2" * 64}) == (
        "subject.0.digest.sha256", f"{long[:100]!r} has other bytes than were signed")


# --- what judges the patch (gate/decide/judges.py) --------------------------------------------


def _judged_paths(changed: list[tuple[str, str | None]],
                  properties: list[judges.PropertyFiles]) -> list[str]:
    return [c.path for c in judges.judged(changed, properties)]


def test_the_file_of_a_node_id() -> None:
    assert judges.test_file_of("tests/a b.py::TestX::test_y") == "tests/a b.py"
    assert judges.test_file_of("tests/a.py") == "tests/a.py"


def test_a_property_without_a_test_file_is_judged_by_its_node_ids_file() -> None:
    prop = judges.PropertyFiles("c/test_z.py::test_t", None)
    assert _judged_paths([("c/test_z.py", None), ("c/__init__.py", None)], [prop]) == [
        "c/__init__.py", "c/test_z.py"]
    [test_file] = judges.judged([("c/test_z.py", None)], [prop])
    assert "fixture" in test_file.kinds  # the property's own test file, not only a harness


def test_every_gated_tests_package_path_is_judged() -> None:
    props = [judges.PropertyFiles("a/test_x.py::t", "a/test_x.py"),
             judges.PropertyFiles("b/test_y.py::t", "b/test_y.py")]
    assert _judged_paths([("a/__init__.py", None), ("b/__init__.py", None)], props) == [
        "a/__init__.py", "b/__init__.py"]
    # a changed conftest's folder is on the package path too
    assert "d/__init__.py" in _judged_paths([("d/conftest.py", None), ("d/__init__.py", None)],
                                            props)


def test_a_path_listed_twice_is_judged_once_and_the_rest_still_are() -> None:
    prop = judges.PropertyFiles("a/test_x.py::t", "a/test_x.py", fixtures=("fx/1.json",))
    found = judges.judged([("fx/1.json", None), ("fx/1.json", None), ("a/test_x.py", None)],
                          [prop])
    assert sorted(c.path for c in found) == ["a/test_x.py", "fx/1.json"]


def test_a_rename_keeps_its_previous_name_only_when_it_differs() -> None:
    prop = judges.PropertyFiles("a/test_x.py::t", "a/test_x.py", fixtures=("fx/1.json",))
    [renamed] = judges.judged([("fx/2.json", "fx/1.json")], [prop])
    assert renamed.previous == "fx/1.json"
    [same] = judges.judged([("fx/1.json", "fx/1.json")], [prop])
    assert same.previous is None


def test_nothing_is_judged_without_a_property() -> None:
    assert judges.judged([(".github/gate.yml", None)], [],
                         config={".github/gate.yml": "manifest"}) == []


@pytest.mark.parametrize(("path", "pip_reads"), [
    ("requirements-dev.txt", True), ("constraints.txt", True), ("ci/test-requirements.txt", True),
    ("requirements/base.in", True), ("requirements/notes.md", False), ("docs/notes.txt", False),
    ("docs/requirements.md", False)])
def test_which_files_pip_is_given(path: str, pip_reads: bool) -> None:
    assert judges.is_requirements(path) is pip_reads


# the four-line block (SPEC §4): a value printed verbatim is one printable line


@pytest.mark.parametrize(("value", "problem"), [
    ("tests/test_x.py::test_y[a b]", None),
    ("", None),
    ("a\tb\nc", "holds U+0009, which cannot be printed on one line of the four-line block"),
    ("ok\u202egnp.exe", "holds U+202E, which cannot be printed on one line of the four-line block"),
    (7, "not a string"),
    (None, "not a string"),
])
def test_a_block_value_is_one_printable_line(value: object, problem: str | None) -> None:
    """The first character that cannot be printed is named (the earliest, not any)."""
    assert block.block_value_problem(value) == problem
