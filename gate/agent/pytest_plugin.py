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
that did not run (deselected, not collected, session interrupted) is not in the report and is
``resource_exit`` ("not in JUnit report"); a passing test in a session whose exit status does
not agree (interrupted, internal error) is ``resource_exit``; a run that changed its own card,
fixtures or sampler output is ``resource_exit``.

**One deliberate difference.** JUnit writes ``<failure>`` for any exception raised by the test
function; the plugin sees the exception. A call-phase failure whose exception is not an
``AssertionError`` (including pytest's rewritten asserts; an exception group counts when every
exception in it is one) is not an assertion result: ``resource_exit`` with a note naming the
exception type. That includes ``pytest.fail()`` and pytest-timeout's signal-method timeout
(both raise ``Failed``) and a strict xfail that passed (no exception at all). A process
killed outright (a thread-method timeout, SIGKILL) writes no stamps at all: a missing stamp
means the class did not run.

Fields that differ from ``gate stamp --manifest`` for the same run: ``run_id`` (random per
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
        plugin = StampPlugin.prepare(config)
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

    def _open(self, nodeid: str) -> _Case:
        if nodeid not in self.open:
            self.open[nodeid] = _Case(junit_key(nodeid))
        return self.open[nodeid]

    def _finalize(self, nodeid: str) -> None:
        case = self.open.pop(nodeid, None)
        if case is not None:
            self.done.append(case)

    def add(self, report: pytest.TestReport) -> None:
        nodeid = report.nodeid
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


# --- the plugin ---------------------------------------------------------------------------------


class StampPlugin:
    def __init__(self, prepared: list[Any], run_ids: list[str], out: Path, server_class: str,
                 timeout_codes: tuple[int, ...]) -> None:
        self.prepared = prepared
        self.run_ids = run_ids
        self.out = out
        self.server_class = server_class
        self.timeout_codes = timeout_codes
        self.cases = Cases()
        self.started = time.monotonic()

    @classmethod
    def prepare(cls, config: pytest.Config) -> StampPlugin:
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
                   tuple(pol.timeout_exit_codes))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        excinfo = call.excinfo
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

    def pytest_internalerror(self) -> None:
        self.cases.add_internal_error()

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, None, None]:
        result = yield
        from gate.errors import GateInputError

        try:
            written = self.write(int(session.exitstatus))
        except GateInputError as exc:
            session.config.get_terminal_writer().line(f"gate: error: {exc}", red=True)
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
        else:
            reporter = session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_sep("-", f"gate: {len(written)} stamps written to {self.out}")
        return result

    def decide(self, prepared: Any, exit_code: int) -> Any:
        from gate.decide import outcome

        cases = self.cases.all()
        matches = lookup(cases, prepared.prop.junit_classname, prepared.prop.junit_name)
        proc = outcome.ProcessResult(exit_code, None, False, None, None)
        has_red = any(c.status in (FAILURE, ERROR) for c in cases)
        decided = outcome.from_junit(proc, self.timeout_codes, report_found=True,
                                     matches=[c.status for c in matches],
                                     report_has_red=has_red)
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
        built = [stamping.build_stamp(item, server_class=self.server_class, run_id=run_id,
                                      decided=self.decide(item, exit_code), proc=proc,
                                      source=SOURCE, written_at=when, ran=True)
                 for item, run_id in zip(self.prepared, self.run_ids, strict=True)]
        targets = [self.out / f"{run_id}.json" for run_id in self.run_ids]
        for target, stamp in zip(targets, built, strict=True):
            write_once(target, canonical_json(stamp) + b"\n")
        return targets
