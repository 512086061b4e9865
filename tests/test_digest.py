"""Digest gate (SPEC §4): the six rows, malformed values, symmetry, and `gate triage`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gate.decide import digest
from gate.decide.digest import FailureClass
from tests.core_helpers import (
    FREE,
    LOCAL,
    MISSING,
    SHA_X,
    SHA_Y,
    assert_bad_input,
    four_lines,
    run_cli,
    run_record,
    stamp,
    write_json,
)


def both_orders(a: dict[str, Any], b: dict[str, Any]) -> digest.DigestResult:
    first, second = digest.classify_runs(a, b), digest.classify_runs(b, a)
    assert first == second
    return first


def check(result: digest.DigestResult, cls: FailureClass, row: int) -> None:
    assert (result.failure_class, result.row, result.freeze_allowed) == (
        cls, row, cls is FailureClass.HARNESS_FLAKE)


# --- row 1 -------------------------------------------------------------------------------------

MALFORMED_DIGESTS = [
    MISSING,
    None,
    SHA_X.upper(),  # uppercase
    SHA_X[:63],  # 63 characters
    SHA_X + "0",  # 65 characters
    SHA_X[:63] + "g",  # not hex
    SHA_X + "\n",  # trailing newline
    " " + SHA_X[1:],
    int(SHA_X[:15], 16),  # not a string
    [SHA_X],
    {"sha256": SHA_X},
    True,
    "",
]
#: Plain ids (a repr's quotes, brackets and escapes cannot be given back to pytest as a node id,
#: which the mutation run does: docs/testing.md).
MALFORMED_IDS = ["missing", "null", "uppercase", "63-chars", "65-chars", "not-hex",
                 "trailing-newline", "leading-space", "int", "list", "object", "true", "empty"]


@pytest.mark.parametrize("bad", MALFORMED_DIGESTS, ids=MALFORMED_IDS)
def test_row1_missing_or_malformed_digest(bad: Any) -> None:
    # even on a pair that would otherwise be a harness flake
    flaky = run_record(None, False)
    check(both_orders(run_record(None, False, bad), flaky), FailureClass.UNCLASSIFIED, 1)
    check(both_orders(run_record(None, False, bad), run_record(None, False, bad)),
          FailureClass.UNCLASSIFIED, 1)


def test_row1_wins_over_differing_digests() -> None:
    check(both_orders(run_record(False, True, MISSING), run_record(False, True, SHA_Y)),
          FailureClass.UNCLASSIFIED, 1)


# --- row 2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("o1", "o2"), [(False, False), (None, None), (True, False)])
def test_row2_digests_differ(o1: Any, o2: Any) -> None:
    check(both_orders(run_record(o1, False, SHA_X), run_record(o2, False, SHA_Y)),
          FailureClass.FIXTURE_DRIFT, 2)


# --- row 3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("t1", "t2"), [(True, True), (False, False), (None, True)])
def test_row3_both_oracles_false(t1: Any, t2: Any) -> None:
    # a property miss wins over a recorded transport fault
    check(both_orders(run_record(False, t1), run_record(False, t2)),
          FailureClass.PROPERTY_MISS, 3)


# --- row 4 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("other", [True, None, "false", 0, MISSING])
def test_row4_one_oracle_false(other: Any) -> None:
    right = run_record(other, False)
    if other is MISSING:
        del right["oracle_passed"]
    check(both_orders(run_record(False, False), right), FailureClass.UNCLASSIFIED, 4)


# --- row 5 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (run_record(None, False), run_record(None, False)),
        (run_record(None, False), run_record(True, True)),
        (run_record(True, True), run_record(True, False)),
        (run_record(None, None, timed_out=True), run_record(None, None)),
        (run_record(True, True, timed_out=True), run_record(True, True)),
    ],
)
def test_row5_transport_fault(left: dict[str, Any], right: dict[str, Any]) -> None:
    check(both_orders(left, right), FailureClass.HARNESS_FLAKE, 5)


# --- row 6 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (run_record(None, None), run_record(None, None)),
        (run_record(None, True), run_record(True, None)),
        (run_record(True, True, timed_out=False), run_record(None, True, status_code=502)),
    ],
)
def test_row6_anything_else(left: dict[str, Any], right: dict[str, Any]) -> None:
    check(both_orders(left, right), FailureClass.UNCLASSIFIED, 6)


def test_row6_both_green_is_no_failure_class() -> None:
    check(both_orders(run_record(True, True), run_record(True, True)), FailureClass.NONE, 6)
    assert digest.classify_runs(run_record(True, True), run_record(True, True)).reason == (
        "both oracles passed: nothing to classify")


# --- malformed oracle / transport values --------------------------------------------------------


@pytest.mark.parametrize("bad", ["false", "False", 0, "", [], {}])
def test_oracle_string_false_is_not_a_property_miss(bad: Any) -> None:
    check(both_orders(run_record(bad, True), run_record(bad, True)),
          FailureClass.UNCLASSIFIED, 6)


@pytest.mark.parametrize("bad", ["false", "true", "False", 0, 1, [], {"ok": True}])
def test_malformed_oracle_never_opens_the_freeze_door(bad: Any) -> None:
    # oracle "false" (a string) on both sides with a real transport fault: the malformed
    # value must not turn a would-be property miss into a frozen harness flake
    check(both_orders(run_record(bad, False), run_record(bad, False)),
          FailureClass.UNCLASSIFIED, 6)
    check(both_orders(run_record(bad, False), run_record(None, False)),
          FailureClass.UNCLASSIFIED, 6)


@pytest.mark.parametrize("bad", ["false", "False", 0, "", [False]])
def test_transport_ok_string_is_not_a_fault(bad: Any) -> None:
    check(both_orders(run_record(None, bad), run_record(None, bad)),
          FailureClass.UNCLASSIFIED, 6)


@pytest.mark.parametrize("bad", ["false", 0, "yes"])
def test_malformed_transport_with_a_real_fault_is_closed(bad: Any) -> None:
    check(both_orders(run_record(None, bad), run_record(None, False)),
          FailureClass.UNCLASSIFIED, 6)


@pytest.mark.parametrize("bad", ["true", 1])
def test_timed_out_string_is_not_a_fault(bad: Any) -> None:
    check(both_orders(run_record(None, True, timed_out=bad), run_record(None, True)),
          FailureClass.UNCLASSIFIED, 6)


def test_clean_helpers() -> None:
    assert digest.clean_digest(SHA_X) == SHA_X
    assert digest.clean_digest(SHA_X.upper()) is None
    assert digest.clean_bool(False) is False
    assert digest.clean_bool(0) is None
    assert digest.clean_bool("true") is None


# --- CLI: gate triage --------------------------------------------------------------------------

TRIAGE_CASES = [
    # row 1: the malformed digest is never printed; the other run's clean pin is
    (run_record(None, False, MISSING), run_record(None, False), "unclassified", 1, SHA_X),
    (run_record(None, False, SHA_X.upper()), run_record(None, False), "unclassified", 1, SHA_X),
    (run_record(None, False, SHA_X[:63]), run_record(None, False), "unclassified", 1, SHA_X),
    (run_record(None, False, 12345), run_record(None, False), "unclassified", 1, SHA_X),
    (run_record(None, False, MISSING), run_record(None, False, None), "unclassified", 1, None),
    (run_record(False, True, SHA_Y), run_record(False, True), "fixture_drift", 1, SHA_Y),
    (run_record(False, True), run_record(False, True), "property_miss", 1, SHA_X),
    (run_record(False, True), run_record(True, True), "unclassified", 1, SHA_X),
    (run_record(None, False), run_record(None, False), "harness_flake", 0, SHA_X),
    (run_record(None, True, timed_out=True), run_record(True, True), "harness_flake", 0, SHA_X),
    (run_record(True, True), run_record(True, True), "none", 1, SHA_X),  # green: nothing red
    (run_record("false", False), run_record("false", False), "unclassified", 1, SHA_X),
    (run_record(None, "false"), run_record(None, "false"), "unclassified", 1, SHA_X),
]


@pytest.mark.parametrize(("left", "right", "cls", "code", "sha"), TRIAGE_CASES)
@pytest.mark.parametrize("swap", [False, True], ids=["as-given", "swapped"])
def test_cli_triage_rows(tmp_path: Path, left: dict[str, Any], right: dict[str, Any], cls: str,
                         code: int, sha: str | None, swap: bool) -> None:
    a = write_json(tmp_path / "left.json", left)
    b = write_json(tmp_path / "right.json", {**right, "run_id": "r-right"})
    result = run_cli("triage", *((b, a) if swap else (a, b)))
    assert result.code == code
    assert result.err == ""
    if swap and cls == "fixture_drift":
        sha = SHA_X  # the first clean digest is the one reported
    assert result.lines == four_lines(sha, cls, cls == "harness_flake", None)


def test_cli_triage_prints_the_pinned_path(tmp_path: Path) -> None:
    a = write_json(tmp_path / "a.json", run_record(None, False, fixture_path="fixtures/x.json"))
    b = write_json(tmp_path / "b.json", run_record(None, False, run_id="r2"))
    result = run_cli("triage", a, b)
    assert (result.code, result.lines) == (0, four_lines(SHA_X, "harness_flake", True,
                                                         "fixtures/x.json"))


def test_cli_triage_spec_example(tmp_path: Path) -> None:
    rec = {"run_id": "r2", "fixture_sha256": SHA_X, "fixture_path": f"fixtures/{SHA_X}.json",
           "oracle_passed": None, "transport_ok": False}
    a = write_json(tmp_path / "a.json", rec)
    b = write_json(tmp_path / "b.json", dict(rec, run_id="r3"))
    result = run_cli("triage", a, b)
    assert (result.code, result.lines) == (0, four_lines(SHA_X, "harness_flake", True,
                                                         f"fixtures/{SHA_X}.json"))


@pytest.mark.parametrize(
    ("lo", "ro", "cls", "code"),
    [("resource_exit", "empty_body", "harness_flake", 0),
     ("assert_fail", "assert_fail", "property_miss", 1),
     ("pass", "assert_fail", "unclassified", 1),
     ("pass", "pass", "none", 1)],
)
def test_cli_triage_stamps(tmp_path: Path, lo: str, ro: str, cls: str, code: int) -> None:
    a = write_json(tmp_path / "a.json", stamp(FREE, lo, run_id="F1", fixture_sha256=SHA_X))
    b = write_json(tmp_path / "b.json", stamp(FREE, ro, run_id="F2", fixture_sha256=SHA_X))
    result = run_cli("triage", a, b)
    assert (result.code, result.lines) == (code, four_lines(SHA_X, cls, code == 0, None))


def test_cli_triage_stamp_and_run_record(tmp_path: Path) -> None:
    a = write_json(tmp_path / "a.json", stamp(LOCAL, "resource_exit", fixture_sha256=SHA_X))
    b = write_json(tmp_path / "b.json", run_record(None, False, run_id="r2"))
    assert run_cli("triage", a, b).code == 0


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({"fixture_sha256": SHA_X, "transport_ok": False}, "oracle_passed"),
        ({"fixture_sha256": SHA_X, "oracle_passed": None}, "transport_ok"),
        (run_record(None, False, extra=1), "extra"),
        (run_record(None, False, retry_count=-1), "retry_count"),
        (run_record(None, False, status_code="502"), "status_code"),
        (run_record(None, False, timed_out="true"), "timed_out"),
        (run_record(None, False, run_id=""), "run_id"),
        (dict(stamp(FREE, "resource_exit"), outcome="crashed"), "outcome"),
        ([run_record(None, False)], "(root)"),
    ],
)
def test_cli_triage_bad_record(tmp_path: Path, record: Any, field: str) -> None:
    a = write_json(tmp_path / "bad.json", record)
    b = write_json(tmp_path / "good.json", run_record(None, False))
    assert_bad_input(run_cli("triage", a, b), str(a), field)
    assert_bad_input(run_cli("triage", b, a), str(a), field)


def test_cli_triage_unparsable(tmp_path: Path) -> None:
    a = tmp_path / "bad.json"
    a.write_text('{"oracle_passed": null, "transport_ok": false', encoding="utf-8")
    b = write_json(tmp_path / "good.json", run_record(None, False))
    assert_bad_input(run_cli("triage", a, b), str(a), "(json)")
    dup = tmp_path / "dup.json"
    dup.write_text('{"oracle_passed": null, "transport_ok": false, "transport_ok": true}',
                   encoding="utf-8")
    assert_bad_input(run_cli("triage", dup, b), str(dup), "(json)")


def test_cli_triage_json(tmp_path: Path) -> None:
    import json

    a = write_json(tmp_path / "a.json", run_record(None, False))
    b = write_json(tmp_path / "b.json", run_record(None, False, run_id="r2"))
    result = run_cli("triage", a, b, "--json")
    pair = json.loads(result.out)
    assert result.code == 0
    assert (pair["gate"], pair["failure_class"], pair["freeze_allowed"], pair["row"]) == (
        "digest", "harness_flake", True, 5)
