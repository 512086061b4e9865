"""The JUnit route of ``gate stamp --junit FILE``: a report any runner wrote, read after the run.

Rules decided here:

* with ``-- COMMAND`` and ``--junit FILE``, FILE must not exist before the run (a stale report
  from an earlier run must never stamp a green): exit 2;
* a JUnit report that was not written at all gives ``resource_exit`` stamps (the run happened
  and the stamp says so); a report that is malformed, too large or carries a DOCTYPE is bad
  input (exit 2, no stamps);
* a JUnit selector (a manifest entry's, or the bare ``--test-id``/``--junit-name``) that
  matches no test case of a report holding test cases is a typo, whatever the run's exit
  status, unless the run was cut short (timeout, signal): exit 2 naming the entry and the
  nearest test case names, no stamps (:func:`gate.decide.outcome.not_matched`; a JUnit report
  cannot tell a test left out by ``-k`` or ``-x`` from a typo, so it fails closed).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import IO

from gate.decide import outcome
from gate.errors import GateInputError
from gate.records import junit
from gate.records.files import lexists
from gate.testrun.running import run_or_recorded
from gate.testrun.stamping import Decided, Prepared, Request, selector_place, typo_is_bad_input


def decide(request: Request, prepared: list[Prepared], stdout: IO[bytes] | None,
           stderr: IO[bytes] | None) -> Decided:
    assert request.junit_path is not None
    if request.command is not None and lexists(request.junit_path):
        raise GateInputError(str(request.junit_path), "--junit",
                             "exists before the command ran; remove it (a stale report "
                             "must never stamp a green)")
    proc = run_or_recorded(request, stdout, stderr)
    report = junit.load(request.junit_path)
    return Decided(proc, [_decide(request, proc, report, index)
                          for index in range(len(prepared))],
                   "junit", ran=request.command is not None)


def decide_junit(proc: outcome.ProcessResult, timeout_codes: Collection[int], *,
                 classname: str | None, name: str, statuses: Sequence[str],
                 names: Sequence[tuple[str, str]], report_has_red: bool, seen: str,
                 hypothesis_errors: Sequence[str], place: tuple[str, str],
                 collection_errors: Sequence[str] = ()) -> outcome.Outcome:
    """:func:`gate.decide.outcome.from_junit` for one property of a written report, with a
    selector typo made bad input (exit 2) naming ``place``: the manifest file and entry, or the
    flags."""
    return typo_is_bad_input(place, lambda: outcome.from_junit(
        proc, timeout_codes, report_found=True, matches=statuses, report_has_red=report_has_red,
        classname=classname, name=name, names=names, seen=seen,
        hypothesis_errors=hypothesis_errors, collection_errors=collection_errors))


def _decide(request: Request, proc: outcome.ProcessResult, report: junit.Report | None,
            index: int) -> outcome.Outcome:
    prop = request.properties[index]
    if report is None:
        return outcome.from_junit(proc, request.timeout_codes, report_found=False, matches=[],
                                  report_has_red=False, classname=prop.junit_classname,
                                  name=prop.junit_name, names=[], seen=outcome.SEEN_UNKNOWN)
    # A JUnit report says only what ran: a test left out of the run looks like a typo.
    return decide_junit(proc, request.timeout_codes, classname=prop.junit_classname,
                        name=prop.junit_name,
                        statuses=report.lookup(prop.junit_classname, prop.junit_name),
                        names=report.names(), report_has_red=report.has_red,
                        seen=outcome.SEEN_UNKNOWN,
                        hypothesis_errors=report.hypothesis_errors(prop.junit_classname,
                                                                   prop.junit_name),
                        place=selector_place(request, index),
                        collection_errors=report.collection_errors)
