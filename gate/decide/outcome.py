"""Outcome of one attempt (SPEC §3), from what the process did and what JUnit says. Pure.

What a process did is a :class:`ProcessResult` (exit status or signal, our own wall-clock
limit, how many bytes it printed). Without a JUnit report, :func:`from_process` decides, rows
in order (SPEC §3, preceded by the two ways a process can fail to finish):

==  ===========================================================  ===============
#   condition                                                     outcome
==  ===========================================================  ===============
1   our ``--timeout`` fired (we killed the process group)         resource_exit
2   killed by a signal                                            resource_exit
3   exit 0 and an empty body (printed nothing on stdout+stderr)   empty_body
4   exit status in the policy's ``timeouts.exit_codes``           resource_exit
5   an assertion failure was recorded (``--assertion-failed``)    assert_fail
6   exit 0                                                        pass
7   anything else (including exit 1 with no assertion evidence)   resource_exit
==  ===========================================================  ===============

With a JUnit report, :func:`from_junit` decides for one property; rows 1-4 are the same (they
are about the whole run: a killed or timed-out run's report, if any, is stale or partial), then:

==  ===========================================================  ===============
#   condition                                                     outcome
==  ===========================================================  ===============
5   no JUnit report was written                                   resource_exit
6   the report does not mention the property's testcase, and the  resource_exit
    test legitimately did not run (see :func:`not_matched`; when
    the report holds a collection failure, the note says the test
    collection failed: deterministic, a re-run fails the same way;
    see :data:`COLLECTION_NOTE`); otherwise the selector is a
    typo: :class:`SelectorTypo`
7   the selector matches more than one testcase (ambiguous)       resource_exit
8   the testcase has a ``<failure>`` raised by Hypothesis itself  resource_exit
    (``hypothesis.errors.DeadlineExceeded``, ``Flaky*``,
    ``FailedHealthCheck``, ``Unsatisfiable``, ``InvalidArgument``:
    not an assertion result; the note names it)
8   the testcase has a ``<failure>`` (an assertion failed)        assert_fail
9   the testcase has an ``<error>`` (not an assertion)            resource_exit
10  the testcase is skipped (this includes xfail)                 resource_exit
11  the testcase passed and the run exited 0                      pass
12  the testcase passed, the run exited 1, and the report holds   pass
    a ``<failure>`` or ``<error>`` for some testcase (pytest's
    "tests failed" status, explained by the other testcases)
13  anything else (passed, but the exit status does not agree:    resource_exit
    exit 1 with no red testcase, or 2 interrupted, 3 internal
    error, 4 usage error, 5 no tests, ...)
==  ===========================================================  ===============

Row 8's Hypothesis errors are found the same way by both routes: the JUnit reader collects
every ``hypothesis.errors.<Type>`` named in the failure's message and text; the pytest plugin
collects the qualified type of every exception in the raised exception (groups walked). Either
way :func:`hypothesis_errors` keeps the known ones in a fixed order and :func:`hypothesis_note`
words the note, so the two routes give the same outcome and note for the same run.

"Empty body": a command that printed nothing on stdout and stderr; a recorded run with
``--body-bytes 0``; unknown (``None``) is not empty. A killed process, a timeout or an empty
body is never an assertion result, and only rows 6/11/12 give green.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

PASS, ASSERT_FAIL, RESOURCE_EXIT, EMPTY_BODY = "pass", "assert_fail", "resource_exit", "empty_body"

#: JUnit testcase statuses (see gate.records.junit).
PASSED, FAILURE, ERROR, SKIPPED = "passed", "failure", "error", "skipped"


@dataclass(frozen=True, slots=True)
class ProcessResult:
    """What one run of the test process did.

    ``exit_code`` is ``None`` when the process was killed by a signal (then ``signal`` is set);
    ``body_bytes`` is ``None`` when unknown (a recorded run without ``--body-bytes``).
    """

    exit_code: int | None
    signal: int | None = None
    timed_out: bool = False
    body_bytes: int | None = None
    wall_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    outcome: str
    row: int
    note: str


def _run_level(proc: ProcessResult, timeout_codes: Collection[int]) -> Outcome | None:
    """Rows 1-4: decided by the run as a whole, before any evidence about assertions."""
    if proc.timed_out:
        return Outcome(RESOURCE_EXIT, 1, "wall-clock limit reached; the process group was killed")
    if proc.signal is not None or proc.exit_code is None:
        return Outcome(RESOURCE_EXIT, 2, f"killed by signal {proc.signal}")
    if proc.exit_code == 0 and proc.body_bytes == 0:
        return Outcome(EMPTY_BODY, 3, "exit 0 but the process printed nothing")
    if proc.exit_code in timeout_codes:
        return Outcome(RESOURCE_EXIT, 4, f"exit status {proc.exit_code} is a timeout code")
    return None


def from_process(
    proc: ProcessResult, timeout_codes: Collection[int], assertion_failed: bool = False
) -> Outcome:
    """Rows 1-7 of the first table (no JUnit report)."""
    early = _run_level(proc, timeout_codes)
    if early is not None:
        return early
    if assertion_failed:
        return Outcome(ASSERT_FAIL, 5, "an assertion failure was recorded")
    if proc.exit_code == 0:
        return Outcome(PASS, 6, "")
    return Outcome(RESOURCE_EXIT, 7,
                   f"exit status {proc.exit_code} without assertion evidence is not a result")


#: Hypothesis's own errors that are not assertion results, in the order a note names them.
HYPOTHESIS_ERRORS = ("FlakyStrategyDefinition", "FlakyBackendFailure", "FlakyReplay",
                     "FlakyFailure", "Flaky", "FailedHealthCheck", "DeadlineExceeded",
                     "Unsatisfiable", "InvalidArgument")
_WHY = {"Flaky": "Hypothesis saw unreliable results (flaky)",
        "FailedHealthCheck": "a Hypothesis health check failed",
        "DeadlineExceeded": "a test case exceeded the deadline",
        "Unsatisfiable": "Hypothesis could not satisfy the test's assumptions",
        "InvalidArgument": "Hypothesis refused an invalid argument"}


def hypothesis_errors(names: Iterable[str]) -> tuple[str, ...]:
    """The known Hypothesis errors among qualified type names (``hypothesis.errors.X``)."""
    found = {n.removeprefix("hypothesis.errors.") for n in names
             if n.startswith("hypothesis.errors.")}
    return tuple(n for n in HYPOTHESIS_ERRORS if n in found)


def hypothesis_note(errors: Sequence[str]) -> str:
    """The stamp note for a run ended by Hypothesis's own errors (the retry class): what
    happened, never what to do about it (a re-run does not help a deadline the runner always
    misses: the gate job's next step says what does, :mod:`gate.github.review`)."""
    first = errors[0]
    why = _WHY["Flaky" if first.startswith("Flaky") else first]
    named = ", ".join(f"hypothesis.errors.{e}" for e in errors)
    return f"{named}: {why}; not an assertion result"


#: The note of a property missing from a report that holds a collection failure (pytest writes
#: ``<error message="collection failure">`` for a test file that cannot be imported, and stops:
#: exit status 2). Deterministic, so the reviewer is told to fix the collection, not to re-run
#: (:mod:`gate.github.review` looks for this phrase).
COLLECTION_NOTE = "the test collection failed"
#: How the words naming a repository module whose import broke a test file's collection start
#: (:func:`gate.testrun.blame.collection_blame`, appended to :func:`collection_note`; the gate
#: job's next step looks for it).
BREAKS_IMPORTING = "the patch breaks importing "
#: The note of row 6 when nothing more is known (a report without the property's testcase).
NOT_IN_REPORT = "not in JUnit report"


#: The pytest routes' words for a test that did not run (the plugin and the recorder see the
#: session, not a JUnit report, and the user wrote no selector there: the manifest's ``junit``
#: entry is what ``gate init`` wrote from pytest's own node id).
DID_NOT_RUN = "did not run"
#: A property whose test pytest did not collect, on the pytest routes: a test renamed or removed
#: after ``gate init`` (the other properties are stamped as usual).
NOT_COLLECTED_PREFIX = "not collected:"  # how every such note starts (gate.github.review)
NOT_COLLECTED_NOTE = ("not collected: renamed or removed? `gate init --add` names the new test; "
                      "remove the old entry")


def _prefix(pytest_route: bool) -> str:
    return DID_NOT_RUN if pytest_route else NOT_IN_REPORT


def collection_note(failed: Sequence[str], pytest_route: bool = False,
                    blame: str | None = None) -> str:
    """Row 6's note when the report names test files that failed to collect; ``blame``: the
    words naming the repository module whose import broke the first of them, when one did."""
    shown = ", ".join(failed[:3]) + (f" and {len(failed) - 3} more" if len(failed) > 3 else "")
    return (f"{_prefix(pytest_route)}: {COLLECTION_NOTE} ({shown})"
            + (f": {blame}" if blame else ""))


def module_not_collected_note(module: str) -> str:
    """The pytest routes' note for a property none of whose module's tests were collected."""
    return (f"not collected: no test of {module!r} was collected (the command runs a subset "
            "of the tests that leaves this module out, or the module was renamed or removed: "
            "`gate init --add` names the new tests; remove the old entries)")


def case_status(results: Collection[str]) -> str:
    """One testcase's status from the result elements it holds (``failure`` wins)."""
    if FAILURE in results:
        return FAILURE
    if ERROR in results:
        return ERROR
    if SKIPPED in results:
        return SKIPPED
    return PASSED


#: What a route saw of a selector's test before the run (:func:`not_matched`): nothing (a
#: JUnit report says only what ran), or, on the pytest plugin's routes, that pytest collected
#: no test of that name, collected it and deselected it (``-k``, ``-m``, ``--deselect``,
#: ``--lf``), or collected and selected it but the session stopped before it ran.
SEEN_UNKNOWN, NOT_COLLECTED, DESELECTED, NOT_REACHED = (
    "unknown", "not_collected", "deselected", "not_reached")
SEEN = (SEEN_UNKNOWN, NOT_COLLECTED, DESELECTED, NOT_REACHED)


class SelectorTypo(Exception):
    """A selector that matches no test case where the gate cannot tell that the test
    legitimately did not run: bad input (exit 2), never a stamp. ``message`` names the
    selector, the nearest test case names in the report and what to do."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def selector_text(classname: str | None, name: str) -> str:
    return (f"classname {classname!r}, " if classname is not None else "") + f"name {name!r}"


def nearest(classname: str | None, name: str, names: Iterable[tuple[str, str]],
            count: int = 3) -> list[str]:
    """The ``count`` test case names closest to the selector (difflib), as the selector
    spells them (``classname.name``, or the name alone when it gives no classname)."""
    import difflib

    wanted = f"{classname}.{name}" if classname is not None else name
    spelled = sorted({(f"{c}.{n}" if c else n) if classname is not None else n
                      for c, n in names})
    return difflib.get_close_matches(wanted, spelled, n=count, cutoff=0.0) or spelled[:count]


#: What to do, by what the route saw (the JUnit route cannot tell a left-out test from a typo).
_TYPO_HINT = {
    SEEN_UNKNOWN: "a typo? fix it. Left out of the run (-k/-m, -x/--maxfail, an interrupt)? "
                  "run every gated test to the end, or stamp with the pytest plugin "
                  "(--gate-stamps), which tells the two apart",
    NOT_COLLECTED: "pytest collected no test of that name: fix the selector",
}


#: pytest's exit status 3 (``ExitCode.INTERNAL_ERROR``): a plugin's or conftest's hook raised.
INTERNAL_ERROR_CAUSE = ("pytest's internal error: a plugin's or a conftest's hook raised "
                        "(its INTERNALERROR traceback is in the log)")


def _stop_cause(exit_code: int | None) -> str:
    """What stops a pytest session before a collected test's result, by its exit status."""
    if exit_code == 3:
        return INTERNAL_ERROR_CAUSE
    return "-x, --maxfail or an interrupt"


def not_matched(
    proc: ProcessResult,
    timeout_codes: Collection[int],
    *,
    classname: str | None,
    name: str,
    names: Sequence[tuple[str, str]],
    seen: str,
    collection_errors: Sequence[str] = (),
    pytest_route: bool = False,
    collection_blame: str | None = None,
) -> Outcome:
    """Row 6: a selector that matches no test case of a report that was written. The one place
    that decides "a typo, or a test that did not run" (issue 14 class 8), for every route.

    ``names`` are the (classname, name) of every test case in the report; ``seen`` what the
    route saw of the selector's test before the run (one of :data:`SEEN`).

    * The run was cut short (our wall-clock limit, a signal, a timeout exit status: rows 1, 2
      and 4): ``resource_exit``, that row.
    * The report holds no test case at all (the run never got to testing): ``resource_exit``.
    * A test file failed to collect (``collection_errors``: the report's collection failures;
      pytest stops before any test runs): ``resource_exit``, :func:`collection_note` (a typo,
      if there is one, shows once the collection is fixed).
    * The plugin saw the test collected, and deselected, or selected but never reached (the
      session stopped first: ``-x``, ``--maxfail``, an interrupt): ``resource_exit`` saying so.
    * On the pytest routes (``pytest_route``: the plugin, the recorder) the session was seen,
      and the manifest's selector is what ``gate init`` wrote from pytest's node id: a test
      pytest did not collect was renamed or removed (:data:`NOT_COLLECTED_NOTE`; when no test of
      its module was collected, :func:`module_not_collected_note`), and a session that did not
      say what it collected (``seen`` unknown) gives no result either: ``resource_exit`` for
      that property, every other property stamped as usual. Their notes never speak of a JUnit
      report or a selector.
    * Otherwise (the JUnit route), whatever the run's exit status: :class:`SelectorTypo`. There
      a stop-early run and a typo look alike; it fails closed and says what to do for each.
    """
    if seen not in SEEN:
        raise ValueError(f"unknown seen {seen!r}")
    early = _run_level(proc, timeout_codes)
    if early is not None and early.outcome == RESOURCE_EXIT:
        return early
    said = _prefix(pytest_route)
    if not names and not pytest_route:
        return early or Outcome(RESOURCE_EXIT, 6, NOT_IN_REPORT)
    if collection_errors:
        return Outcome(RESOURCE_EXIT, 6, collection_note(collection_errors, pytest_route,
                                                         collection_blame))
    module = module_of(classname)
    if pytest_route and seen == NOT_COLLECTED:
        if module and not any(c == module or c.startswith(module + ".") for c, _ in names):
            return Outcome(RESOURCE_EXIT, 6, module_not_collected_note(module))
        return Outcome(RESOURCE_EXIT, 6, NOT_COLLECTED_NOTE)
    if seen == DESELECTED:
        return Outcome(RESOURCE_EXIT, 6, f"{said}: collected, then deselected "
                       "(-k, -m, --deselect, --lf)" + ("" if pytest_route else ": it did not run"))
    if seen == NOT_REACHED:
        return Outcome(RESOURCE_EXIT, 6, f"{said}: collected, but the session "
                                         "stopped before its result (exit status "
                                         f"{proc.exit_code}: {_stop_cause(proc.exit_code)})")
    if pytest_route and not names:
        return early or Outcome(RESOURCE_EXIT, 6, f"{DID_NOT_RUN}: the session ran no test")
    if pytest_route:  # the session did not say what it collected (an xdist run cut short)
        return Outcome(RESOURCE_EXIT, 6, f"{DID_NOT_RUN}: the session did not say whether it "
                                         "collected this test (no result to stamp)")
    near = ", ".join(repr(n[:80]) for n in nearest(classname, name, names))
    if module and not any(c == module or c.startswith(module + ".") for c, _ in names):
        raise SelectorTypo(
            f"{selector_text(classname, name)} matches no test case in the report, and no "
            f"test of {module!r} ran at all: the command runs a subset of the tests (a path, "
            "-k) that leaves this module out, or the module moved: run every file the "
            "manifest names in this job (or leave this property out of the manifest); if the "
            "module moved, fix junit.classname")
    raise SelectorTypo(f"{selector_text(classname, name)} matches no test case in the report; "
                       f"nearest: {near}; {_TYPO_HINT[seen]}")


def module_of(classname: str | None) -> str | None:
    """The module part of a JUnit ``classname`` (``tests.test_funcs.TestAsDict`` ->
    ``tests.test_funcs``): its dotted components up to the first that starts with a capital
    letter (a class, by the Python naming convention pytest's ``Test*`` classes follow)."""
    if not classname:
        return None
    parts = classname.split(".")
    for index, part in enumerate(parts):
        if part[:1].isupper():
            parts = parts[:index]
            break
    return ".".join(parts) or None


def from_junit(
    proc: ProcessResult,
    timeout_codes: Collection[int],
    *,
    report_found: bool,
    matches: Sequence[str],
    report_has_red: bool,
    classname: str | None,
    name: str,
    names: Sequence[tuple[str, str]],
    seen: str,
    hypothesis_errors: Sequence[str] = (),
    collection_errors: Sequence[str] = (),
    pytest_route: bool = False,
    collection_blame: str | None = None,
) -> Outcome:
    """Rows 1-13 of the second table, for one property.

    ``matches`` holds the status of every testcase the property's selector (``classname``,
    ``name``) matched; ``report_has_red`` says whether any testcase in the report has a failure
    or an error; ``names``, ``seen`` and ``collection_errors`` (the test files the report says
    failed to collect) are for :func:`not_matched` (row 6, which may raise
    :class:`SelectorTypo`); ``hypothesis_errors`` the Hypothesis errors (see
    :func:`hypothesis_errors`) of the one matched testcase's failure.
    """
    if report_found and not matches:
        return not_matched(proc, timeout_codes, classname=classname, name=name, names=names,
                           seen=seen, collection_errors=collection_errors,
                           pytest_route=pytest_route, collection_blame=collection_blame)
    early = _run_level(proc, timeout_codes)
    if early is not None:
        return early
    if not report_found:
        return Outcome(RESOURCE_EXIT, 5, "no JUnit report was written")
    if len(matches) > 1:
        return Outcome(RESOURCE_EXIT, 7,
                       f"ambiguous: matches {len(matches)} testcases in the JUnit report")
    status = matches[0]
    if status == FAILURE and hypothesis_errors:
        return Outcome(RESOURCE_EXIT, 8, hypothesis_note(hypothesis_errors))
    if status == FAILURE:
        return Outcome(ASSERT_FAIL, 8, "JUnit <failure>")
    if status == ERROR:
        return Outcome(RESOURCE_EXIT, 9, "JUnit <error> is not an assertion")
    if status == SKIPPED:
        return Outcome(RESOURCE_EXIT, 10, "skipped")
    if status == PASSED and proc.exit_code == 0:
        return Outcome(PASS, 11, "")
    if status == PASSED and proc.exit_code == 1 and report_has_red:
        return Outcome(PASS, 12, "")
    return Outcome(RESOURCE_EXIT, 13,
                   f"passed in JUnit, but exit status {proc.exit_code} does not agree")
