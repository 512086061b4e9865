"""pytest plugin: the test runner writes the stamps itself (SPEC §3), one per manifest property.

Registered through the ``pytest11`` entry point ``gate``; it does nothing unless
``--gate-stamps`` is given::

    pytest --gate-stamps DIR --gate-server-class local-pinned --gate-manifest .github/gate.yml \\
           [--gate-root DIR] [--gate-run-id-prefix P] [--gate-store DIR] [--gate-policy FILE]

Everything is read before the first test runs (manifest, cards, fixtures, sampler output,
policy; a taken run id fails fast): bad input is a usage error and no test runs. At the end of
the session one stamp per manifest property is validated and written, write-once, as
``DIR/<run_id>.json`` — the same files ``gate stamp --manifest`` writes.

**Same stamps as the JUnit route.** A property is matched to test items exactly as
``gate stamp --manifest --junit`` matches it to JUnit testcases: by ``classname``/``name`` as
pytest's own ``--junitxml`` writes them (``_pytest.junitxml.mangle_test_address``, without
``--junit-prefix``), or by ``name`` alone when the manifest gives no classname. The reports
are folded into testcase statuses by the rules ``--junitxml`` follows (a passing call, a
failing call, a set-up or teardown error, a skip or xfail; a call failure followed by a
teardown error is two testcases, so ambiguous; collection errors and skips are testcases of
their own), and the outcome is decided by :func:`gate.decide.outcome.from_junit` with the session's
exit status, and the stamp built by :func:`gate.agent.stamping.build_stamp`. So: an assertion
failure
is ``assert_fail``; an error in set-up or teardown, a skip or xfail is ``resource_exit``; a test
that pytest collected but that did not run (deselected, or the session stopped before it: ``-x``,
``--maxfail``, an interrupt) is not in the report and is ``resource_exit``, its note saying
which; a selector that matches no collected test, in a session that produced testcases, is a
typo: no stamp is written, the session exits 2 naming the manifest entry and the nearest
testcase names (:func:`gate.decide.outcome.not_matched` decides, for every route); a
passing test in a session whose exit status does not agree (interrupted, internal error) is
``resource_exit``; a run that changed its own card, fixtures or sampler output is
``resource_exit``.

**One deliberate difference.** JUnit writes ``<failure>`` for any exception raised by the test
function; the plugin sees the exception. A call-phase failure whose exception is not an
``AssertionError`` (including pytest's rewritten asserts; an exception group counts when every
exception in it is one) is not an assertion result: ``resource_exit`` with a note naming the
exception type. That includes ``pytest.fail()`` and pytest-timeout's signal-method timeout
(both raise ``Failed``) and a strict xfail that passed (no exception at all). A process
killed outright (a thread-method timeout, SIGKILL) writes no stamps at all: a missing stamp
means the class did not run.

**The sample card governs every gated test** (a test some manifest property selects): see
:mod:`gate.agent.hypothesis_card`. At collection (after ``-k``/``-m`` deselection), a gated
test the card cannot govern (not a Hypothesis test, ``@seed``, ``@reproduce_failure``,
``@settings`` or a profile with other governed values, two different cards) stops the session
with exit status 2 before any test runs, and no stamp is written. Each gated test's stamp
records ``hypothesis`` (version, settings in force, ``examples_run``) and, on a red, ``failure``
(type, message, the falsifying example, the ``@reproduce_failure`` line). A call that failed
with Hypothesis's own errors (``hypothesis.errors.DeadlineExceeded``, ``Flaky*``,
``FailedHealthCheck``, ``Unsatisfiable``, ``InvalidArgument``; the JUnit route finds the same
names in the ``<failure>`` text) is ``resource_exit`` with the note
:func:`gate.decide.outcome.hypothesis_note` words, on both routes alike.

Fields that differ from ``gate stamp --manifest`` for the same run: ``hypothesis`` and
``failure`` (the plugin's only), ``run_id`` (random per
stamp, equal only when both are given the same prefix), ``written_at``, ``wall_seconds`` (the
session's duration, not the process's), ``source`` (``pytest-plugin``), ``body_bytes`` (absent:
the plugin does not see the process's output, so ``empty_body`` cannot arise), and ``note`` for
the difference above. Under pytest-xdist only the controller writes stamps.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

SOURCE = "pytest-plugin"
PASSED, FAILURE, ERROR, SKIPPED = "passed", "failure", "error", "skipped"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gate", "agent-patch gate stamps (SPEC §3)")
    group.addoption("--gate-stamps", metavar="DIR",
                    help="write one stamp per manifest property to DIR (enables the plugin)")
    group.addoption("--gate-server-class", metavar="CLASS",
                    choices=("local-pinned", "free-server"), help="local-pinned or free-server")
    group.addoption("--gate-manifest", metavar="FILE", default=".github/gate.yml",
                    help="the stamp manifest (YAML; default: .github/gate.yml)")
    group.addoption("--gate-root", metavar="DIR", default=".",
                    help="manifest paths are relative to DIR (default: the current folder)")
    group.addoption("--gate-run-id-prefix", metavar="P",
                    help="run ids P.1, P.2, ... (default: random)")
    group.addoption("--gate-store", metavar="DIR", help="copy pinned sampler output to DIR")
    group.addoption("--gate-policy", metavar="FILE",
                    help="timeout exit codes (default: .github/gate-policy.yml if present)")


def pytest_configure(config: pytest.Config) -> None:
    stamps = config.getoption("gate_stamps")
    others = {flag: config.getoption(dest) for flag, dest in (
        ("--gate-server-class", "gate_server_class"),
        ("--gate-run-id-prefix", "gate_run_id_prefix"), ("--gate-store", "gate_store"),
        ("--gate-policy", "gate_policy"))}
    if stamps is None:
        given = [flag for flag, value in others.items() if value is not None]
        if given:
            raise pytest.UsageError(f"gate: {given[0]} needs --gate-stamps DIR")
        return
    if hasattr(config, "workerinput"):  # an xdist worker: the controller stamps
        return
    if others["--gate-server-class"] is None:
        raise pytest.UsageError("gate: --gate-stamps needs --gate-server-class")
    from gate.errors import GateInputError

    try:
        # an xdist worker applies the cards to the tests it runs; only the controller stamps
        plugin = StampPlugin.prepare(config, worker=hasattr(config, "workerinput"))
    except GateInputError as exc:
        raise pytest.UsageError(f"gate: error: {exc}") from None
    config.pluginmanager.register(plugin, "gate-stamps")


# --- reports folded into testcases, as --junitxml does -------------------------------------------


def junit_key(nodeid: str) -> tuple[str, str]:
    """(classname, name) of a node as ``--junitxml`` writes it (no ``--junit-prefix``)."""
    from _pytest.junitxml import mangle_test_address

    names = mangle_test_address(nodeid)
    return ".".join(names[:-1]), names[-1]


def is_assertion(exc: BaseException) -> bool:
    """An ``AssertionError``, or an exception group made only of them."""
    if isinstance(exc, BaseExceptionGroup):
        return all(is_assertion(inner) for inner in exc.exceptions)
    return isinstance(exc, AssertionError)


@dataclass
class _Case:
    key: tuple[str, str]
    kinds: set[str] = field(default_factory=set)
    crash: str | None = None  # the exception type of a call failure that is not an assertion
    hypothesis: dict[str, Any] | None = None  # the generator in force (a gated test)
    failure: dict[str, Any] | None = None  # the call failure, as the stamp's ``failure``
    raised: tuple[str, ...] = ()  # qualified types of every exception the call raised

    @property
    def status(self) -> str:
        from gate.decide import outcome

        return outcome.case_status(self.kinds)


@dataclass
class Cases:
    """Testcases by the rules of ``_pytest.junitxml.LogXML`` (not the XML, just the statuses)."""

    done: list[_Case] = field(default_factory=list)
    open: dict[str, _Case] = field(default_factory=dict)
    failed_call: set[str] = field(default_factory=set)
    generators: dict[str, dict[str, Any]] = field(default_factory=dict)

    def _open(self, nodeid: str) -> _Case:
        if nodeid not in self.open:
            self.open[nodeid] = _Case(junit_key(nodeid), hypothesis=self.generators.get(nodeid))
        return self.open[nodeid]

    def _finalize(self, nodeid: str) -> None:
        case = self.open.pop(nodeid, None)
        if case is not None:
            self.done.append(case)

    def add(self, report: pytest.TestReport) -> None:
        nodeid = report.nodeid
        generator = getattr(report, "gate_hypothesis", None)
        if generator is not None:  # every phase's report of a gated test carries it
            self.generators[nodeid] = generator
            if nodeid in self.open:
                self.open[nodeid].hypothesis = generator
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

    def add_collect(self, report: pytest.CollectReport) -> None:
        if report.passed:
            return
        self._open(report.nodeid).kinds.add(ERROR if report.failed else SKIPPED)

    def add_internal_error(self) -> None:
        self.done.append(_Case(("pytest", "internal"), {ERROR}))

    def all(self) -> list[_Case]:
        return [*self.done, *self.open.values()]


def lookup(cases: list[_Case], classname: str | None, name: str) -> list[_Case]:
    """The testcases a manifest selector matches (as :meth:`gate.records.junit.Report.lookup`)."""
    return [c for c in cases if c.key[1] == name and (classname is None or c.key[0] == classname)]


@dataclass
class Collected:
    """What pytest collected, as (classname, name) keys: the tests selected to run and those
    deselected (``-k``, ``-m``, ``--deselect``, ``--lf``). ``selected`` stays None when this
    process did not collect (an xdist controller): then nothing is known."""

    selected: set[tuple[str, str]] | None = None
    deselected: set[tuple[str, str]] = field(default_factory=set)
    #: the names of the files that failed to collect (as JUnit names them), in order
    failed: list[str] = field(default_factory=list)

    def seen(self, classname: str | None, name: str) -> str:
        """What was seen before the run of a selector that matched no testcase
        (:data:`gate.decide.outcome.SEEN`), for :func:`gate.decide.outcome.not_matched`."""
        from gate.decide import outcome

        if self.selected is None:
            return outcome.SEEN_UNKNOWN
        if lookup([_Case(k) for k in self.selected], classname, name):
            return outcome.NOT_REACHED
        if lookup([_Case(k) for k in self.deselected], classname, name):
            return outcome.DESELECTED
        return outcome.NOT_COLLECTED


# --- the plugin ---------------------------------------------------------------------------------


class StampPlugin:
    def __init__(self, prepared: list[Any], run_ids: list[str], out: Path, server_class: str,
                 timeout_codes: tuple[int, ...], worker: bool = False,
                 manifest: str = ".github/gate.yml") -> None:
        self.prepared = prepared
        self.manifest = manifest
        self.run_ids = run_ids
        self.out = out
        self.server_class = server_class
        self.timeout_codes = timeout_codes
        self.worker = worker
        self.cases = Cases()
        self.collected = Collected()
        self.started = time.monotonic()
        self.gated: dict[str, Any] = {}  # nodeid -> gate.agent.hypothesis_card.Applied
        self.refused = False  # the cards could not govern the collected tests: no stamps

    @classmethod
    def prepare(cls, config: pytest.Config, worker: bool = False) -> StampPlugin:
        from gate.agent import stamping
        from gate.errors import GateInputError
        from gate.records import manifest, policy

        root = Path(config.getoption("gate_root"))
        props = manifest.load(Path(config.getoption("gate_manifest")), root)
        prefix = config.getoption("gate_run_id_prefix")
        run_ids = stamping.manifest_run_ids(len(props), prefix)
        out = Path(config.getoption("gate_stamps"))
        for run_id in run_ids:
            if os.path.lexists(out / f"{run_id}.json"):
                raise GateInputError(str(out / f"{run_id}.json"), "(file)",
                                     "already exists; never overwritten")
        policy_path = config.getoption("gate_policy")
        if policy_path is None and Path(".github/gate-policy.yml").is_file():
            policy_path = ".github/gate-policy.yml"
        pol = policy.load(Path(policy_path) if policy_path else None)
        store = config.getoption("gate_store")
        prepared = [stamping.prepare(p, root, Path(store) if store else None) for p in props]
        return cls(prepared, run_ids, out, config.getoption("gate_server_class"),
                   tuple(pol.timeout_exit_codes), worker, str(config.getoption("gate_manifest")))

    # --- the sample card governs every gated test (gate.agent.hypothesis_card) ------------------

    @pytest.hookimpl(trylast=True)  # after -k/-m deselection: only the tests that will run
    def pytest_collection_modifyitems(self, session: pytest.Session,
                                      items: list[pytest.Item]) -> None:
        problems: list[str] = []
        for item in items:
            key = junit_key(item.nodeid)
            props = [p for p in self.prepared
                     if lookup([_Case(key)], p.prop.junit_classname, p.prop.junit_name)]
            if not props:
                continue
            from gate.agent import hypothesis_card

            try:
                self.gated[item.nodeid] = hypothesis_card.govern(item, props)
            except hypothesis_card.CardConflict as exc:
                problems.append(f"{item.nodeid}: {exc}")
        if problems:
            self.refused = True
            shown = "; ".join(problems[:20]) + (f"; and {len(problems) - 20} more"
                                                if len(problems) > 20 else "")
            pytest.exit(f"gate: error: the sample card cannot govern {len(problems)} gated "
                        f"test{'s' if len(problems) > 1 else ''} (no test ran): {shown}",
                        returncode=2)

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.collected.deselected.update(junit_key(item.nodeid) for item in items)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected.selected = {junit_key(item.nodeid) for item in session.items}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        applied = self.gated.get(item.nodeid)
        if applied is not None:
            applied.apply()

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> None:
        applied = self.gated.get(item.nodeid)
        if applied is not None:
            applied.restore()

    @pytest.hookimpl(wrapper=True, trylast=True)  # inside Hypothesis's own wrapper
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        applied = self.gated.get(item.nodeid)
        if applied is None:
            return (yield)
        with applied.observing():
            return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        excinfo = call.excinfo
        applied = self.gated.get(item.nodeid)
        if applied is not None:
            report.gate_hypothesis = applied.record()  # type: ignore[attr-defined]
            if call.when == "call" and report.failed and excinfo is not None:
                from gate.agent import hypothesis_card

                report.gate_failure = hypothesis_card.failure_of(  # type: ignore[attr-defined]
                    excinfo.value)
                report.gate_raised = hypothesis_card.raised_types(  # type: ignore[attr-defined]
                    excinfo.value)
        if call.when == "call" and report.failed:
            if excinfo is None:  # a strict xfail that passed: no exception at all
                crash = "no exception (a strict xfail passed)"
                report.gate_crash = crash  # type: ignore[attr-defined]
            elif not is_assertion(excinfo.value):
                report.gate_crash = excinfo.typename  # type: ignore[attr-defined]
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.cases.add(report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        self.cases.add_collect(report)
        if report.failed:
            self.collected.failed.append(junit_key(report.nodeid)[1])

    def pytest_internalerror(self) -> None:
        self.cases.add_internal_error()

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, None, None]:
        result = yield
        if self.worker or self.refused:
            return result
        from gate.errors import GateInputError

        try:
            written = self.write(int(session.exitstatus))
        except GateInputError as exc:  # bad input (a selector typo, a taken run id): exit 2
            writer = session.config.get_terminal_writer()
            writer.line()  # after the progress line
            writer.line(f"gate: error: {exc}", red=True)
            session.exitstatus = 2
        else:
            reporter = session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                writer = session.config.get_terminal_writer()
                if writer.width_of_current_line:  # pytest -q leaves its progress line open
                    writer.line()
                reporter.write_sep("-", f"gate: {len(written)} stamps written to {self.out}")
        return result

    def decide(self, prepared: Any, exit_code: int) -> Any:
        from gate.agent import stamping
        from gate.decide import outcome

        cases = self.cases.all()
        classname, name = prepared.prop.junit_classname, prepared.prop.junit_name
        matches = lookup(cases, classname, name)
        proc = outcome.ProcessResult(exit_code, None, False, None, None)
        has_red = any(c.status in (FAILURE, ERROR) for c in cases)
        raised = matches[0].raised if len(matches) == 1 else ()
        index = next((str(i) for i, p in enumerate(self.prepared) if p is prepared), "?")
        decided = stamping.decide_junit(
            proc, self.timeout_codes, classname=classname, name=name,
            statuses=[c.status for c in matches], names=[c.key for c in cases],
            report_has_red=has_red, seen=self.collected.seen(classname, name),
            hypothesis_errors=outcome.hypothesis_errors(raised),
            place=(self.manifest, f"properties.{index}.junit (test {prepared.prop.test_id!r})"),
            collection_errors=self.collected.failed)
        if decided.outcome == outcome.ASSERT_FAIL and matches[0].crash is not None:
            decided = outcome.Outcome(outcome.RESOURCE_EXIT, decided.row,
                                      f"the test call failed with {matches[0].crash}, not "
                                      "an AssertionError: not an assertion result")
        if not prepared.still_same():
            decided = outcome.Outcome(outcome.RESOURCE_EXIT, 0,
                                      "the card, fixtures or sampler output changed during "
                                      "the run")
        return decided

    def write(self, exit_code: int) -> list[Path]:
        from gate.agent import stamping
        from gate.decide import outcome
        from gate.records.files import canonical_json, write_once

        wall = round(time.monotonic() - self.started, 3)
        proc = outcome.ProcessResult(exit_code, None, False, None, wall)
        when = int(time.time())
        built = []
        decisions = [self.decide(item, exit_code) for item in self.prepared]  # typos first
        for item, run_id, decided in zip(self.prepared, self.run_ids, decisions, strict=True):
            matches = lookup(self.cases.all(), item.prop.junit_classname, item.prop.junit_name)
            one = matches[0] if len(matches) == 1 else None
            built.append(stamping.build_stamp(
                item, server_class=self.server_class, run_id=run_id,
                decided=decided, proc=proc, source=SOURCE,
                written_at=when, ran=True, hypothesis=one.hypothesis if one else None,
                failure=one.failure if one else None))
        targets = [self.out / f"{run_id}.json" for run_id in self.run_ids]
        for target, stamp in zip(targets, built, strict=True):
            write_once(target, canonical_json(stamp) + b"\n")
        return targets
