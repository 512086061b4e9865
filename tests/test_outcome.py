"""gate.decide.outcome: every row of both outcome tables (pure)."""

from __future__ import annotations

from typing import Any

import pytest

from gate.decide import outcome as _outcome
from gate.decide.outcome import (
    ERROR,
    FAILURE,
    PASSED,
    SKIPPED,
    ProcessResult,
    case_status,
    from_process,
)
from gate.decide.outcome import from_junit as _from_junit

CODES = (124, 137)


def from_junit(*args: Any, **kwargs: Any) -> _outcome.Outcome:
    """from_junit for a selector ``t`` and a report holding no test case (row 6 without the
    typo rule, tested on its own below)."""
    kwargs.setdefault("classname", None)
    kwargs.setdefault("name", "t")
    kwargs.setdefault("names", [])
    kwargs.setdefault("seen", "unknown")
    return _from_junit(*args, **kwargs)


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
    assert got.note == note + "; not an assertion result"  # what to do is the review's


def test_row8_hypothesis_errors_do_not_touch_a_passing_case() -> None:
    got = from_junit(ProcessResult(0), CODES, report_found=True, matches=[PASSED],
                     report_has_red=False, hypothesis_errors=("DeadlineExceeded",))
    assert got.outcome == "pass"


# --- row 6: a selector that matches nothing: a typo, or a test that did not run (class 8) ------

NAMES = [("suite", "test_round_trip"), ("suite", "test_total"), ("suite", "test_unicode"),
         ("other", "test_x")]


def unmatched(proc: ProcessResult, seen: str, classname: str | None = "suite",
              names: list[tuple[str, str]] | None = None) -> Any:
    return _outcome.not_matched(proc, CODES, classname=classname, name="test_totl",
                                names=NAMES if names is None else names, seen=seen)


@pytest.mark.parametrize("proc", [OK, RED, ProcessResult(2, None, False, 9),
                                  ProcessResult(5, None, False, 9),
                                  ProcessResult(0, None, False, 0)])  # also an empty body
@pytest.mark.parametrize("seen", [_outcome.SEEN_UNKNOWN, _outcome.NOT_COLLECTED])
def test_a_selector_typo_is_an_error_whatever_the_exit_status(proc: ProcessResult,
                                                               seen: str) -> None:
    with pytest.raises(_outcome.SelectorTypo) as caught:
        unmatched(proc, seen)
    message = caught.value.message
    assert message.startswith("classname 'suite', name 'test_totl' matches no test case in "
                              "the report; nearest: 'suite.test_total', ")
    if seen == _outcome.SEEN_UNKNOWN:  # the JUnit route says what to do for either cause
        assert "a typo? fix it" in message and "-x/--maxfail" in message
        assert "--gate-stamps" in message
    else:
        assert "pytest collected no test of that name" in message


def test_a_module_the_run_left_out_is_named_as_such_not_as_a_typo() -> None:
    """attrs trial: ``pytest tests/test_newcomer.py`` with a manifest that also names tests of
    other files said "fix the selector", though the selector was right."""
    names = [("tests.test_newcomer", "test_round_trip")]
    with pytest.raises(_outcome.SelectorTypo) as caught:
        _outcome.not_matched(OK, CODES, classname="tests.test_3rd_party.TestRepr",
                             name="test_repr", names=names, seen=_outcome.NOT_COLLECTED)
    message = caught.value.message
    assert "no test of 'tests.test_3rd_party' ran at all" in message
    assert "run every file the manifest names in this job" in message
    assert "fix the selector" not in message
    assert "nearest" not in message  # names of another module would only mislead
    # a module that did run: a typo in the name is still called one
    with pytest.raises(_outcome.SelectorTypo) as caught:
        _outcome.not_matched(OK, CODES, classname="tests.test_newcomer", name="test_rond_trip",
                             names=names, seen=_outcome.NOT_COLLECTED)
    assert "fix the selector" in caught.value.message


@pytest.mark.parametrize(("classname", "module"), [
    ("tests.test_funcs.TestAsDict", "tests.test_funcs"), ("tests.test_funcs", "tests.test_funcs"),
    ("test_x.TestA.TestB", "test_x"), ("TestTop", None), ("", None), (None, None)])
def test_the_module_of_a_junit_classname(classname: str | None, module: str | None) -> None:
    assert _outcome.module_of(classname) == module


def test_the_newcomer_case_red_run_and_a_typo_is_an_error_not_a_rerun() -> None:
    # the run exits 1 (a real red elsewhere); the manifest names test_totl for test_total
    with pytest.raises(_outcome.SelectorTypo):
        _from_junit(RED, CODES, report_found=True, matches=[], report_has_red=True,
                    classname="suite", name="test_totl", names=NAMES,
                    seen=_outcome.SEEN_UNKNOWN)


@pytest.mark.parametrize(("proc", "row", "words"), [
    (ProcessResult(None, 9, True, 10), 1, "wall-clock"),
    (ProcessResult(None, 15, False, 10), 2, "signal 15"),
    (ProcessResult(124, None, False, 10), 4, "timeout code"),
])
@pytest.mark.parametrize("seen", _outcome.SEEN)
def test_a_run_cut_short_did_not_reach_the_test(proc: ProcessResult, row: int, words: str,
                                                seen: str) -> None:
    got = unmatched(proc, seen)
    assert (got.outcome, got.row) == ("resource_exit", row) and words in got.note


@pytest.mark.parametrize("seen", _outcome.SEEN)
def test_a_report_without_test_cases_is_not_a_typo(seen: str) -> None:
    got = unmatched(RED, seen, names=[])
    assert (got.outcome, got.row, got.note) == ("resource_exit", 6, "not in JUnit report")
    assert unmatched(ProcessResult(0, None, False, 0), seen, names=[]).outcome == "empty_body"


@pytest.mark.parametrize("seen", _outcome.SEEN)
def test_a_collection_failure_is_not_a_typo(seen: str) -> None:
    # pytest stops before any test runs when a file fails to collect: fix that, not a rerun
    got = _outcome.not_matched(ProcessResult(2, None, False, 9), CODES, classname="suite",
                               name="test_totl", names=NAMES, seen=seen,
                               collection_errors=["tests.test_a", "b", "c", "d"])
    assert (got.outcome, got.row) == ("resource_exit", 6)
    assert got.note == ("not in JUnit report: the test collection failed (tests.test_a, b, c "
                        "and 1 more)")
    assert _from_junit(ProcessResult(2, None, False, 9), CODES, report_found=True, matches=[],
                       report_has_red=True, classname="suite", name="test_totl", names=NAMES,
                       seen=seen, collection_errors=["m"]).note == (
        "not in JUnit report: the test collection failed (m)")


@pytest.mark.parametrize("proc", [OK, RED, ProcessResult(2, None, False, 9)])
def test_the_plugin_knows_a_deselected_or_unreached_test_exists(proc: ProcessResult) -> None:
    got = unmatched(proc, _outcome.DESELECTED)
    assert (got.outcome, got.row) == ("resource_exit", 6)
    assert got.note == ("not in JUnit report: collected, then deselected (-k, -m, --deselect, "
                        "--lf): it did not run")
    got = unmatched(proc, _outcome.NOT_REACHED)
    assert (got.outcome, got.row) == ("resource_exit", 6)
    assert got.note == ("not in JUnit report: collected, but the session stopped before its "
                        f"result (exit status {proc.exit_code}: -x, --maxfail or an interrupt)")


def test_an_internal_error_is_not_called_an_interrupt() -> None:
    """pytest's exit status 3 is its internal error (a hook raised), not -x or an interrupt."""
    got = unmatched(ProcessResult(3, None, False, 9), _outcome.NOT_REACHED)
    assert (got.outcome, got.row) == ("resource_exit", 6)
    assert got.note == ("not in JUnit report: collected, but the session stopped before its "
                        "result (exit status 3: pytest's internal error: a plugin's or a "
                        "conftest's hook raised (its INTERNALERROR traceback is in the log))")
    assert "interrupt" not in got.note


def test_nearest_names_follow_the_selector_spelling() -> None:
    by_name = _outcome.nearest(None, "test_totl", NAMES)
    assert by_name[0] == "test_total" and len(by_name) == 3 and all("." not in n for n in by_name)
    assert _outcome.nearest("suite", "test_totl", NAMES)[0] == "suite.test_total"
    assert len(_outcome.nearest("zzz", "qqq", NAMES)) == 3  # always some names to show
    with pytest.raises(ValueError):
        unmatched(RED, "guess")


def test_from_junit_sends_every_unmatched_selector_through_not_matched(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def spy(proc: ProcessResult, codes: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return _outcome.Outcome("resource_exit", 6, "spied")

    monkeypatch.setattr(_outcome, "not_matched", spy)
    got = _from_junit(RED, CODES, report_found=True, matches=[], report_has_red=True,
                      classname="c", name="n", names=NAMES, seen=_outcome.DESELECTED)
    assert got.note == "spied" and calls == [{"classname": "c", "name": "n", "names": NAMES,
                                              "seen": _outcome.DESELECTED,
                                              "collection_errors": (),
                                              "pytest_route": False,
                                              "collection_blame": None}]
    # and never for a selector that matched, or a report that was not written
    _from_junit(RED, CODES, report_found=True, matches=[PASSED], report_has_red=True,
                classname="c", name="n", names=NAMES, seen=_outcome.SEEN_UNKNOWN)
    _from_junit(RED, CODES, report_found=False, matches=[], report_has_red=False,
                classname="c", name="n", names=[], seen=_outcome.SEEN_UNKNOWN)
    assert len(calls) == 1


# --- issue 22: the pytest routes' words (the plugin, the recorder) ---------------------------

GONE = ("not collected: renamed or removed? `gate init --add` names the new test; remove the "
        "old entry")


@pytest.mark.parametrize("proc", [OK, RED, ProcessResult(5, None, False, 9)])
def test_on_the_pytest_routes_a_test_not_collected_is_its_own_resource_exit(
        proc: ProcessResult) -> None:
    """A test renamed after ``gate init`` is that property's ``resource_exit`` (the others are
    stamped), never a typo that throws every stamp away."""
    got = _outcome.not_matched(proc, CODES, classname="suite", name="test_totl", names=NAMES,
                               seen=_outcome.NOT_COLLECTED, pytest_route=True)
    assert (got.outcome, got.row, got.note) == ("resource_exit", 6, GONE)
    alone = _outcome.not_matched(proc, CODES, classname="gone_module", name="test_x",
                                 names=NAMES, seen=_outcome.NOT_COLLECTED, pytest_route=True)
    assert alone.note.startswith("not collected: no test of 'gone_module' was collected")
    assert "gate init --add" in alone.note


@pytest.mark.parametrize("names", [NAMES, []])
@pytest.mark.parametrize("seen", _outcome.SEEN)
@pytest.mark.parametrize("errors", [(), ("tests.test_a",)])
def test_the_pytest_routes_never_speak_of_a_junit_report_or_a_selector(
        names: list[tuple[str, str]], seen: str, errors: tuple[str, ...]) -> None:
    got = _outcome.not_matched(RED, CODES, classname="suite", name="test_totl", names=names,
                               seen=seen, collection_errors=errors, pytest_route=True)
    assert got.outcome == "resource_exit"
    assert "JUnit" not in got.note and "selector" not in got.note, got.note
    assert "report" not in got.note, got.note
