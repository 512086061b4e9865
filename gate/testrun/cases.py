"""pytest's reports folded into JUnit-like testcases, and the per-property decision on them.

Shared by both pytest routes (the in-process plugin, :mod:`gate.testrun.pytest_plugin`, and the
recorder the action loads into the user's pytest, :mod:`gate.testrun.recorder`), so both fold
reports and decide outcomes with one piece of code. It imports only the standard library and
:mod:`gate.decide` (the recorder runs in the user's test environment, where the gate's own
dependencies may be absent); pytest is imported lazily, only where a node id is mangled into
the names ``--junitxml`` writes.

Testcases follow the rules of ``_pytest.junitxml.LogXML`` (a passing call, a failing call, a
set-up or teardown error, a skip or xfail; a call failure followed by a teardown error is two
testcases, so ambiguous; collection errors and skips are testcases of their own). A testcase
round-trips through :meth:`Case.to_record` / :meth:`Case.from_record` (the records the recorder
sends the gate, ``schemas/recorder-record.schema.json``), its failure text bounded on the way
out as a stamp bounds it (:func:`bounded_failure`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

PASSED, FAILURE, ERROR, SKIPPED = "passed", "failure", "error", "skipped"
#: What ``gate stamp --pytest`` sets in the test command's environment: the plan's file, and
#: the number of the descriptor of the channel the results travel on (:mod:`gate.testrun.channel`).
ENV_PLAN = "GATE_RECORDER_PLAN"
ENV_CHANNEL = "GATE_RECORDER_CHANNEL"
PLAN_SCHEMA = "gate-recorder-plan/v1"
RESULTS_SCHEMA = "gate-recorder-results/v1"
KINDS = (FAILURE, ERROR, SKIPPED)


#: Bounds of the ``failure`` object's strings (``schemas/stamp.schema.json``).
FAILURE_BOUNDS = {"type": 200, "message": 2000, "example": 4000, "reproduce": 1000}
#: The bound of a testcase's ``crash`` (an exception type's name) in the recorder's records.
CRASH_BOUND = 1000
#: The bound of a testcase's ``tampered`` (what the recorder found) in the recorder's records.
TAMPERED_BOUND = 1000


def bounded(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, with a marker saying how much was cut."""
    if len(text) <= limit:
        return text
    for _ in range(2):  # the marker's own length can change the count by a digit
        marker = f" …[cut {len(text) - limit + 32} chars]"
        keep = limit - len(marker)
        marker = f" …[cut {len(text) - keep} chars]"
    return text[:limit - len(marker)] + marker


def bounded_failure(failure: dict[str, Any]) -> dict[str, Any]:
    """The ``failure`` object with every string cut to its schema bound at write time."""
    out: dict[str, Any] = {}
    for key, limit in FAILURE_BOUNDS.items():
        value = failure.get(key)
        out[key] = bounded(value, limit) if isinstance(value, str) else (
            None if key in ("example", "reproduce") else "")
    return out


def junit_key(nodeid: str) -> tuple[str, str]:
    """(classname, name) of a node as ``--junitxml`` writes it (no ``--junit-prefix``)."""
    from _pytest.junitxml import mangle_test_address

    names = mangle_test_address(nodeid)
    return ".".join(names[:-1]), names[-1]


#: How a Hypothesis test is written (``collected.hypothesis``, the stamps' ``ungated``).
GIVEN, STATEFUL = "given", "stateful"


def hypothesis_kind(item: Any) -> str | None:
    """``"stateful"`` for a ``RuleBasedStateMachine``'s ``TestCase``, ``"given"`` for a
    ``@given`` test, else None (not a Hypothesis test, or Hypothesis is absent). Only names
    what was collected: never imports the test's module or calls it."""
    obj = getattr(item, "obj", None)
    if obj is None:
        return None
    if getattr(obj, "_hypothesis_state_machine_class", None) is not None:
        return STATEFUL
    try:
        import hypothesis

        return GIVEN if hypothesis.is_hypothesis_test(obj) else None
    except Exception:  # Hypothesis absent, or an object that refuses to be looked at
        return None


def is_assertion(exc: BaseException) -> bool:
    """An ``AssertionError``, or an exception group made only of them."""
    if isinstance(exc, BaseExceptionGroup):
        return all(is_assertion(inner) for inner in exc.exceptions)
    return isinstance(exc, AssertionError)


@dataclass
class Case:
    key: tuple[str, str]
    kinds: set[str] = field(default_factory=set)
    crash: str | None = None  # the exception type of a call failure that is not an assertion
    hypothesis: dict[str, Any] | None = None  # the generator in force (a gated test)
    failure: dict[str, Any] | None = None  # the call failure, as the stamp's ``failure``
    raised: tuple[str, ...] = ()  # qualified types of every exception the call raised
    #: Why a report of this test cannot be believed (the recorder's finding, issue 27).
    tampered: str | None = None

    @property
    def status(self) -> str:
        from gate.decide import outcome

        return outcome.case_status(self.kinds)

    def to_record(self) -> dict[str, Any]:
        return {"classname": self.key[0], "name": self.key[1],
                "kinds": sorted(self.kinds),
                "crash": None if self.crash is None else bounded(self.crash, CRASH_BOUND),
                "hypothesis": self.hypothesis,
                "failure": None if self.failure is None else bounded_failure(self.failure),
                "raised": list(self.raised),
                "tampered": None if self.tampered is None else bounded(self.tampered,
                                                                        TAMPERED_BOUND)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Case:
        return cls((record["classname"], record["name"]), set(record["kinds"]),
                   record["crash"], record["hypothesis"], record["failure"],
                   tuple(record["raised"]), record["tampered"])


@dataclass
class Cases:
    """Testcases by the rules of ``_pytest.junitxml.LogXML`` (not the XML, just the statuses)."""

    done: list[Case] = field(default_factory=list)
    open: dict[str, Case] = field(default_factory=dict)
    failed_call: set[str] = field(default_factory=set)
    generators: dict[str, dict[str, Any]] = field(default_factory=dict)
    tampered: dict[str, str] = field(default_factory=dict)

    def _open(self, nodeid: str) -> Case:
        if nodeid not in self.open:
            self.open[nodeid] = Case(junit_key(nodeid), hypothesis=self.generators.get(nodeid),
                                     tampered=self.tampered.get(nodeid))
        return self.open[nodeid]

    def _finalize(self, nodeid: str) -> None:
        case = self.open.pop(nodeid, None)
        if case is not None:
            self.done.append(case)

    def add(self, report: Any) -> None:
        """One ``pytest.TestReport`` (as the controller sees it, under xdist too)."""
        nodeid = report.nodeid
        generator = getattr(report, "gate_hypothesis", None)
        if generator is not None:  # every phase's report of a gated test carries it
            self.generators[nodeid] = generator
            if nodeid in self.open:
                self.open[nodeid].hypothesis = generator
        tampered = getattr(report, "gate_tampered", None)
        if tampered is not None and nodeid not in self.tampered:  # the first finding stays
            self.tampered[nodeid] = str(tampered)
            if nodeid in self.open and self.open[nodeid].tampered is None:
                self.open[nodeid].tampered = str(tampered)
        if report.passed:
            if report.when == "call":
                self._open(nodeid)
        elif report.failed:
            if report.when == "teardown" and nodeid in self.failed_call:
                self._finalize(nodeid)  # call failure and teardown error: two testcases
            case = self._open(nodeid)
            if report.when == "call":
                case.kinds.add(SKIPPED if hasattr(report, "wasxfail") else FAILURE)
                crash = getattr(report, "gate_crash", None)
                if crash is not None and not hasattr(report, "wasxfail"):
                    case.crash = str(crash)
                if not hasattr(report, "wasxfail"):
                    case.failure = getattr(report, "gate_failure", None)
                    case.raised = tuple(getattr(report, "gate_raised", ()))
                self.failed_call.add(nodeid)
            else:
                case.kinds.add(ERROR)
        elif report.skipped:
            self._open(nodeid).kinds.add(SKIPPED)
        else:  # e.g. pytest-rerunfailures' "rerun": a red attempt that a retry may hide
            self._open(nodeid).kinds.add(ERROR)
        if report.when == "teardown":
            self._open(nodeid)
            self._finalize(nodeid)
            self.failed_call.discard(nodeid)

    def add_collect(self, report: Any) -> None:
        if report.passed:
            return
        self._open(report.nodeid).kinds.add(ERROR if report.failed else SKIPPED)

    def add_internal_error(self) -> None:
        self.done.append(Case(("pytest", "internal"), {ERROR}))

    def all(self) -> list[Case]:
        return [*self.done, *self.open.values()]


def lookup(cases: Sequence[Case], classname: str | None, name: str) -> list[Case]:
    """The testcases a manifest selector matches (as :meth:`gate.records.junit.Report.lookup`)."""
    return [c for c in cases if c.key[1] == name and (classname is None or c.key[0] == classname)]


@dataclass
class Collected:
    """What pytest collected, as (classname, name) keys: the tests selected to run and those
    deselected (``-k``, ``-m``, ``--deselect``, ``--lf``), and the files that failed to collect.
    ``selected`` stays None when this process did not collect (an xdist controller): then
    nothing is known, and a selector that matched no testcase fails closed as on the JUnit
    route."""

    selected: set[tuple[str, str]] | None = None
    deselected: set[tuple[str, str]] = field(default_factory=set)
    #: the names of the files that failed to collect (as JUnit names them), in order
    failed: list[str] = field(default_factory=list)
    #: the tests the recorder deselected because no property selects them (``tests: gated``;
    #: under xdist, what the workers deselected): they would have run, so a selector typo's
    #: nearest names come from them too, as when the whole suite ran
    ungated: set[tuple[str, str]] = field(default_factory=set)
    #: every Hypothesis test collected (selected, or deselected by anyone): node id -> its
    #: kind (:func:`hypothesis_kind`); the gate names those no property selects (issue 29)
    hypothesis: dict[str, str] = field(default_factory=dict)
    #: the (classname, name) of each of those, as ``--junitxml`` writes them: worked out where
    #: the test ran (pytest is there; the gate's own process may have none)
    hypothesis_keys: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: the file of every plugin module registered in the session (conftests, ``-p`` and
    #: ``addopts``, ``pytest_plugins``, entry points), as the process reports them: the gate's
    #: process keeps those in the repository as the stamps' ``harness_files`` (issue 27)
    plugins: list[str] = field(default_factory=list)
    #: when a file failed to collect because a repository module it imports raised: the
    #: words naming that module (:func:`gate.testrun.blame.collection_blame`)
    blame: str | None = None

    def note_plugins(self, config: Any) -> None:
        """Remember the files of the plugin modules registered in ``config`` (pytest's)."""
        import os

        found = {os.path.abspath(f) for plugin in config.pluginmanager.get_plugins()
                 if isinstance(f := getattr(plugin, "__file__", None), str)}
        self.plugins = sorted(found | set(self.plugins))

    def note_hypothesis(self, items: Sequence[Any]) -> None:
        """Remember which of ``items`` (collected pytest items) are Hypothesis tests."""
        for item in items:
            kind = hypothesis_kind(item)
            if kind is not None:
                self.hypothesis[str(item.nodeid)] = kind
                self.hypothesis_keys[str(item.nodeid)] = junit_key(str(item.nodeid))

    def seen(self, classname: str | None, name: str) -> str:
        """What was seen before the run of a selector that matched no testcase
        (:data:`gate.decide.outcome.SEEN`), for :func:`gate.decide.outcome.not_matched`."""
        from gate.decide import outcome

        if self.selected is None:
            return outcome.SEEN_UNKNOWN
        if lookup([Case(k) for k in self.selected], classname, name):
            return outcome.NOT_REACHED
        if lookup([Case(k) for k in self.deselected], classname, name):
            return outcome.DESELECTED
        return outcome.NOT_COLLECTED

    def to_record(self) -> dict[str, Any]:
        return {"selected": None if self.selected is None else sorted(
                    [list(k) for k in self.selected]),
                "deselected": sorted([list(k) for k in self.deselected]),
                "ungated": sorted([list(k) for k in self.ungated]),
                "hypothesis": sorted([[n, k, *self.key_of(n)]
                                      for n, k in self.hypothesis.items()]),
                "plugins": list(self.plugins),
                "failed": list(self.failed), "blame": self.blame}

    def key_of(self, nodeid: str) -> tuple[str, str]:
        """The (classname, name) of a Hypothesis test this session collected."""
        key = self.hypothesis_keys.get(nodeid)
        return key if key is not None else junit_key(nodeid)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Collected:
        selected = record["selected"]
        found = [[str(part) for part in entry] for entry in record.get("hypothesis", ())]
        return cls(None if selected is None else {(c, n) for c, n in selected},
                   {(c, n) for c, n in record["deselected"]}, list(record["failed"]),
                   {(c, n) for c, n in record["ungated"]},
                   {entry[0]: entry[1] for entry in found},
                   {entry[0]: (entry[2], entry[3]) for entry in found},
                   [str(f) for f in record.get("plugins", ())],
                   blame if isinstance(blame := record.get("blame"), str) else None)


def decide(cases: Sequence[Case] | None, classname: str | None, name: str,
           proc: Any, timeout_codes: Sequence[int], collected: Collected | None = None) -> Any:
    """The outcome of one property from the testcases of its run (both pytest routes).

    ``cases`` None: the session ended without handing over its testcases (killed, timed out
    before the end): ``resource_exit``, as a missing JUnit report is. Same rows as
    :func:`gate.decide.outcome.from_junit`; a call failure that is not an ``AssertionError``
    (``crash``) is ``resource_exit`` too, unless Hypothesis printed a falsifying example for it
    (it found and replayed an input on which the call raises): ``assert_fail``. A selector
    that matches no testcase is decided by :func:`gate.decide.outcome.not_matched` with what
    ``collected`` saw, on the pytest routes' terms: a test pytest did not collect (renamed or
    removed after ``gate init``) is that property's ``resource_exit``, never a reason to drop
    the other properties' stamps; the names it looks among are the testcases' and the tests the
    recorder left out as ungated (``collected.ungated``), so running only the gated tests
    decides a missing test as running them all would.
    """
    from gate.decide import outcome

    if cases is None:
        decided = outcome.from_junit(proc, timeout_codes, report_found=False, matches=[],
                                     report_has_red=False, classname=classname, name=name,
                                     names=[], seen=outcome.SEEN_UNKNOWN)
        if decided.row == 5:
            decided = outcome.Outcome(outcome.RESOURCE_EXIT, 5,
                                      "the pytest session wrote no results (killed or "
                                      "stopped before its end)")
        return decided
    matches = lookup(cases, classname, name)
    tampered = next((c.tampered for c in matches if c.tampered), None)
    if tampered is not None:  # nothing its reports say can be believed: never a pass
        return outcome.Outcome(outcome.RESOURCE_EXIT, 5,
                               f"the recorder found the test process tampered with: "
                               f"{tampered}")
    has_red = any(c.status in (FAILURE, ERROR) for c in cases)
    raised = matches[0].raised if len(matches) == 1 else ()
    decided = outcome.from_junit(
        proc, timeout_codes, report_found=True, matches=[c.status for c in matches],
        report_has_red=has_red, classname=classname, name=name,
        names=[c.key for c in cases] + sorted(collected.ungated if collected else ()),
        seen=collected.seen(classname, name) if collected else outcome.SEEN_UNKNOWN,
        hypothesis_errors=outcome.hypothesis_errors(raised),
        collection_errors=collected.failed if collected else (), pytest_route=True,
        collection_blame=collected.blame if collected else None)
    if decided.outcome == outcome.ASSERT_FAIL and matches[0].crash is not None:
        example = (matches[0].failure or {}).get("example")
        if isinstance(example, str) and example:
            # Hypothesis found, shrank and replayed an input on which the call raises: the
            # property fails there (a TypeError in the code under test is what it looks for),
            # the same stamp as the JUnit route's <failure>
            return decided
        decided = outcome.Outcome(outcome.RESOURCE_EXIT, decided.row,
                                  f"the test call failed with {matches[0].crash}, not "
                                  "an AssertionError: not an assertion result")
    return decided
