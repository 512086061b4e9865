"""gate.decide.outcome: every row of both outcome tables (pure)."""

from __future__ import annotations

import pytest

from gate.decide.outcome import (
    ERROR,
    FAILURE,
    PASSED,
    SKIPPED,
    ProcessResult,
    case_status,
    from_junit,
    from_process,
)

CODES = (124, 137)


@pytest.mark.parametrize(
    ("proc", "assertion", "outcome", "row"),
    [
        (ProcessResult(None, 9, True, 10), False, "resource_exit", 1),
        (ProcessResult(None, 9, True, 10), True, "resource_exit", 1),
        (ProcessResult(None, 15, False, 10), True, "resource_exit", 2),
        (ProcessResult(None, None, False, 10), False, "resource_exit", 2),
        (ProcessResult(0, None, False, 0), False, "empty_body", 3),
        (ProcessResult(0, None, False, 0), True, "empty_body", 3),
        (ProcessResult(124, None, False, 5), False, "resource_exit", 4),
        (ProcessResult(137, None, False, 5), True, "resource_exit", 4),
        (ProcessResult(1, None, False, 5), True, "assert_fail", 5),
        (ProcessResult(0, None, False, 5), True, "assert_fail", 5),
        (ProcessResult(0, None, False, 5), False, "pass", 6),
        (ProcessResult(0, None, False, None), False, "pass", 6),  # body unknown: not empty
        (ProcessResult(1, None, False, 5), False, "resource_exit", 7),
        (ProcessResult(1, None, False, 0), False, "resource_exit", 7),
        (ProcessResult(2, None, False, 5), False, "resource_exit", 7),
        (ProcessResult(-1, None, False, 5), False, "resource_exit", 7),
    ],
)
def test_from_process_rows(proc: ProcessResult, assertion: bool, outcome: str, row: int) -> None:
    got = from_process(proc, CODES, assertion)
    assert (got.outcome, got.row) == (outcome, row)
    if outcome != "pass":
        assert got.note


def test_timeout_codes_come_from_the_policy() -> None:
    assert from_process(ProcessResult(99, None, False, 3), (99,)).row == 4
    assert from_process(ProcessResult(124, None, False, 3), (99,), True).outcome == "assert_fail"
    assert from_process(ProcessResult(124, None, False, 3), ()).outcome == "resource_exit"


OK = ProcessResult(0, None, False, 100)
RED = ProcessResult(1, None, False, 100)


@pytest.mark.parametrize(
    ("proc", "found", "matches", "red", "outcome", "row"),
    [
        (ProcessResult(None, 9, True, 100), True, [FAILURE], True, "resource_exit", 1),
        (ProcessResult(None, 9, False, 100), True, [FAILURE], True, "resource_exit", 2),
        (ProcessResult(0, None, False, 0), True, [PASSED], False, "empty_body", 3),
        (ProcessResult(137, None, False, 10), True, [FAILURE], True, "resource_exit", 4),
        (OK, False, [], False, "resource_exit", 5),
        (RED, True, [], True, "resource_exit", 6),
        (OK, True, [PASSED, PASSED], False, "resource_exit", 7),
        (RED, True, [FAILURE], True, "assert_fail", 8),
        (ProcessResult(2, None, False, 9), True, [FAILURE], True, "assert_fail", 8),
        (RED, True, [ERROR], True, "resource_exit", 9),
        (OK, True, [SKIPPED], False, "resource_exit", 10),
        (OK, True, [PASSED], False, "pass", 11),
        (RED, True, [PASSED], True, "pass", 12),
        (RED, True, [PASSED], False, "resource_exit", 13),
        (ProcessResult(2, None, False, 9), True, [PASSED], True, "resource_exit", 13),
        (ProcessResult(5, None, False, 9), True, [PASSED], False, "resource_exit", 13),
    ],
)
def test_from_junit_rows(proc: ProcessResult, found: bool, matches: list[str], red: bool,
                         outcome: str, row: int) -> None:
    got = from_junit(proc, CODES, report_found=found, matches=matches, report_has_red=red)
    assert (got.outcome, got.row) == (outcome, row)


def test_notes_name_the_reason() -> None:
    def note(matches: list[str]) -> str:
        return from_junit(RED, CODES, report_found=True, matches=matches,
                          report_has_red=True).note

    assert note([]) == "not in JUnit report"
    assert note([SKIPPED]) == "skipped"
    assert "<error>" in note([ERROR])


def test_case_status_failure_wins() -> None:
    assert case_status({FAILURE, ERROR}) == FAILURE
    assert case_status({ERROR, SKIPPED}) == ERROR
    assert case_status({SKIPPED}) == SKIPPED
    assert case_status(set()) == PASSED


def test_no_signal_timeout_or_empty_body_is_ever_an_assertion() -> None:
    for proc in (ProcessResult(None, 9, True, 1), ProcessResult(None, 6, False, 1),
                 ProcessResult(0, None, False, 0), ProcessResult(124, None, False, 1)):
        assert from_process(proc, CODES, True).outcome != "assert_fail"
        assert from_junit(proc, CODES, report_found=True, matches=[FAILURE],
                          report_has_red=True).outcome != "assert_fail"


# --- row 8: Hypothesis's own errors are the retry class (issue 11) -----------------------------


def test_hypothesis_errors_are_known_names_in_a_fixed_order() -> None:
    from gate.decide.outcome import hypothesis_errors

    assert hypothesis_errors(["hypothesis.errors.DeadlineExceeded", "builtins.ValueError",
                              "hypothesis.errors.FlakyFailure", "hypothesis.errors.Nope",
                              "DeadlineExceeded"]) == ("FlakyFailure", "DeadlineExceeded")
    assert hypothesis_errors(["AssertionError"]) == ()


@pytest.mark.parametrize(("errors", "note"), [
    (("DeadlineExceeded",), "hypothesis.errors.DeadlineExceeded: a test case exceeded the "
                            "deadline"),
    (("FlakyFailure", "DeadlineExceeded"), "hypothesis.errors.FlakyFailure, "
     "hypothesis.errors.DeadlineExceeded: Hypothesis saw unreliable results (flaky)"),
    (("FailedHealthCheck",), "hypothesis.errors.FailedHealthCheck: a Hypothesis health check "
                             "failed"),
    (("Unsatisfiable",), "hypothesis.errors.Unsatisfiable: Hypothesis could not satisfy the "
                         "test's assumptions"),
])
def test_row8_a_hypothesis_failure_is_resource_exit(errors: tuple[str, ...], note: str) -> None:
    got = from_junit(ProcessResult(1), CODES, report_found=True, matches=[FAILURE],
                     report_has_red=True, hypothesis_errors=errors)
    assert (got.outcome, got.row) == ("resource_exit", 8)
    assert got.note == note + ("; not an assertion result, rerun with a new run id and the "
                               "same card")


def test_row8_hypothesis_errors_do_not_touch_a_passing_case() -> None:
    got = from_junit(ProcessResult(0), CODES, report_found=True, matches=[PASSED],
                     report_has_red=False, hypothesis_errors=("DeadlineExceeded",))
    assert got.outcome == "pass"
