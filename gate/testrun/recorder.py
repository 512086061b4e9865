"""The recorder: the part of the gate that runs inside the user's pytest process.

The action's stamp mode (``gate stamp --manifest M --pytest -- COMMAND``) loads it into the
test command's pytest with ``PYTEST_ADDOPTS=-p gate.testrun.recorder`` and ``PYTHONPATH``
naming a private folder that holds only the gate's package. It runs in the **user's** test
environment, where the gate's own dependencies (PyYAML, jsonschema, junitparser) may be
absent, so it imports only the standard library, pytest, Hypothesis, :mod:`gate.decide`,
:mod:`gate.errors`, :mod:`gate.testrun.cases` and :mod:`gate.testrun.hypothesis_card`
(tests/test_layout.py enforces that closure; tests/test_recorder.py runs it on an interpreter
that has nothing but pytest and Hypothesis).

Before the command runs, the gate (in its own environment) reads the manifest, cards,
fixtures, samplers and policy exactly as the plugin does and writes a **plan**
(``schemas/recorder-plan.schema.json``): which collected tests run (``tests``), and per
property its test id, JUnit selector, card and the card's file (named in a conflict's fix).
The recorder, configured by ``GATE_RECORDER_PLAN`` and ``GATE_RECORDER_CHANNEL`` (the number of
a socket descriptor the gate opened and this process inherited; :mod:`gate.testrun.channel`):

1. at configure, takes the channel (its number leaves the environment, the socket is made
   non-inheritable: no worker or child process holds it) and sends ``begin``; the gate answers
   whether this is the command's first session, and a **second pytest session** in one command
   is refused (a usage error in that session, and the gate refuses the run, exit 2). Without a
   channel (a pytest a test starts) it does nothing;
2. with ``tests: gated`` (the default) deselects every collected test that no property
   selects, after ``-k``/``-m`` (pytest reports them as deselected; an xdist worker does the
   same and sends what it left out to the controller, so a property whose test was not
   collected is decided among the same names as when every test runs); then governs every
   gated test with :class:`Governor`, the same code the plugin uses (the card's seed,
   ``max_examples``, no database, ...; a card conflict stops the session before any test
   runs);
3. folds every report into testcases with :class:`gate.testrun.cases.Cases`, as the plugin does,
   and sends them as each test finishes (``started``, ``finished``: one line of JSON each,
   ``schemas/recorder-record.schema.json``, failure text cut to the stamp's bounds), and at
   the end of the session ``end``: the exit status, what was collected, or the card conflicts.

The gate checks the stream as it arrives, validates the assembled results
(``schemas/recorder-results.schema.json``) and builds the stamps with the same decide/build
code the plugin uses (:func:`gate.testrun.stamping.build_all`). Under pytest-xdist the workers
govern the tests they run (and send the recorded generator back with their reports); only the
controller writes on the channel.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from gate.testrun import integrity
from gate.testrun.cases import (
    ENV_CHANNEL,
    ENV_PLAN,
    PLAN_SCHEMA,
    RESULTS_SCHEMA,
    Case,
    Cases,
    Collected,
    is_assertion,
    junit_key,
    lookup,
)

# --- governing the gated tests (both routes) ----------------------------------------------------


def _some(nodeids: Sequence[str]) -> str:
    """The tests one shared clause refuses, named up to three."""
    named = ", ".join(nodeids[:3])
    more = f" and {len(nodeids) - 3} more" if len(nodeids) > 3 else ""
    return f"{len(nodeids)} gated test{'s' if len(nodeids) > 1 else ''}: {named}{more}"


class Governor:
    """Applies the sample card to every gated test and records what ran (both pytest routes).

    ``props``: per property, an object with ``prop.test_id``, ``prop.junit_classname``,
    ``prop.junit_name`` and ``card`` (the plugin's :class:`gate.testrun.stamping.Prepared`, the
    recorder's :class:`PlanItem`). Registered in xdist workers too: they run the tests.
    """

    def __init__(self, props: Sequence[Any]) -> None:
        self.props = props
        self.gated: dict[str, Any] = {}  # nodeid -> gate.testrun.hypothesis_card.Applied
        self.refused: list[str] = []  # the card conflicts: no stamps
        self.refused_tests = 0  # the gated tests they refuse
        self.by_name: dict[str, list[Any]] = {}  # a selector's JUnit name -> its properties
        for p in props:
            self.by_name.setdefault(p.prop.junit_name, []).append(p)
        if not integrity.WATCH.refs:  # loaded without the gate's loader (the plugin route)
            integrity.WATCH.take()
        #: What the process did to pytest or Hypothesis, found at load or at a report.
        self.tampered: list[str] = list(integrity.WATCH.found)
        self.config: pytest.Config | None = None

    def selecting(self, item: pytest.Item) -> list[Any]:
        """The properties whose JUnit selector matches ``item`` (as :func:`lookup` matches)."""
        key = junit_key(item.nodeid)
        return [p for p in self.by_name.get(key[1], ())
                if lookup([Case(key)], p.prop.junit_classname, p.prop.junit_name)]

    @pytest.hookimpl(trylast=True)  # after -k/-m deselection: only the tests that will run
    def pytest_collection_modifyitems(self, session: pytest.Session,
                                      items: list[pytest.Item]) -> None:
        from gate.testrun import hypothesis_card

        self.say_not_collected(session, items)
        problems: list[str] = []
        shared: dict[str, list[str]] = {}  # a profile's clause -> the tests it alone refuses
        refused = 0
        for item in items:
            props = self.selecting(item)
            if not props:
                continue
            try:
                self.gated[item.nodeid] = hypothesis_card.govern(item, props)
            except hypothesis_card.CardConflict as exc:
                refused += 1
                if exc.shared and not exc.own:
                    shared.setdefault("; ".join(exc.shared), []).append(item.nodeid)
                else:
                    problems.append(f"{item.nodeid}: {exc}")
        if refused:
            problems[:0] = [f"{clause} ({_some(nodeids)})" for clause, nodeids in shared.items()]
            self.refused, self.refused_tests = problems, refused
            output = getattr(session.config, "workeroutput", None)
            if output is not None:  # an xdist worker: the controller must refuse too
                output["gate_refused"] = list(problems)
                output["gate_refused_tests"] = refused
            shown = "; ".join(problems[:20]) + (f"; and {len(problems) - 20} more"
                                                if len(problems) > 20 else "")
            pytest.exit(f"gate: error: the sample card cannot govern {refused} gated "
                        f"test{'s' if refused > 1 else ''} (no test ran): {shown}",
                        returncode=2)

    def not_collected(self, items: Sequence[pytest.Item]) -> list[Any]:
        """The properties whose test pytest did not collect (neither among ``items`` nor
        deselected): renamed or removed after ``gate init``. Empty when a test file failed to
        collect (that error is the news) or in an xdist controller (the workers collect)."""
        collected = getattr(self, "collected", None)
        if collected is None or collected.failed:
            return []
        keys = [Case(junit_key(item.nodeid)) for item in items]
        gone = [Case(k) for k in collected.deselected]
        return [p for p in self.props
                if not lookup(keys, p.prop.junit_classname, p.prop.junit_name)
                and not lookup(gone, p.prop.junit_classname, p.prop.junit_name)]

    def say_not_collected(self, session: pytest.Session, items: Sequence[pytest.Item]) -> None:
        """At collection, before any test runs: name the properties whose test is gone (their
        stamps will be ``resource_exit``; the others run and are stamped)."""
        if getattr(session.config, "workeroutput", None) is not None:
            return  # an xdist worker's output is not shown; the stamps still say it
        from gate.decide import outcome

        missing = self.not_collected(items)
        if not missing:
            return
        shown = ", ".join(repr(p.prop.test_id) for p in missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        one = len(missing) == 1
        session.config.get_terminal_writer().line(
            f"gate: {outcome.NOT_COLLECTED_NOTE}: {'test' if one else 'tests'} {shown} "
            f"({'its stamp' if one else 'their stamps'} will be resource_exit; "
            "every other property runs and is stamped)", yellow=True)

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

    def judged(self, report: pytest.TestReport) -> str | None:
        """Why ``report`` of a gated test cannot be believed, or None (issue 27): pytest's or
        Hypothesis's objects replaced (:data:`gate.testrun.integrity.WATCH`), the engine run
        with other settings or another seed than the card's, or a ``passed`` call report
        whose call did not pass as seen by the recorder itself (the engine found a failing
        example, the call raised, or no engine ran at all). Under pytest-xdist the worker
        judges, and its verdict travels with the report (``gate_tampered``)."""
        applied = self.gated.get(report.nodeid)
        if applied is None:
            return getattr(report, "gate_tampered", None)
        found = integrity.WATCH.check(self.config)
        if found:
            self.tampered.extend(f for f in found if f not in self.tampered)
            return f"{found[0]} (found at the {report.when} report of {report.nodeid})"
        if integrity.WATCH.found:  # found at load (an xdist worker sends no end record)
            return integrity.WATCH.found[0]
        if report.when != "call":
            return getattr(report, "gate_tampered", None)
        if not applied.called:  # another process ran it (an xdist controller), or no call
            return getattr(report, "gate_tampered", None) or (
                "the test's call report came, but the recorder saw no call"
                if not _remote(self.config) else None)
        changed = applied.changed()
        if changed:
            return (f"the card was changed during the run: the engine ran with another "
                    f"{', '.join(changed)} than the card's")
        if report.outcome == "passed":
            if any(run.failed for run in applied.engines):
                return ("the report says passed, but Hypothesis's engine found a failing "
                        "example in the call")
            if applied.raised is not None:
                return f"the report says passed, but the call raised {applied.raised}"
            if not applied.engines:
                return "the report says passed, but Hypothesis's engine never ran in the call"
        return None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        excinfo = call.excinfo
        applied = self.gated.get(item.nodeid)
        if applied is not None:  # plain data: xdist sends it to the controller with the report
            report.gate_hypothesis = applied.record()  # type: ignore[attr-defined]
            if call.when == "call" and report.failed and excinfo is not None:
                from gate.testrun import hypothesis_card

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


def _remote(config: pytest.Config | None) -> bool:
    """An xdist controller: its tests run in the workers."""
    return config is not None and config.pluginmanager.has_plugin("dsession")


class Folder:
    """Folds the session's reports into testcases (the controller's part, both routes)."""

    def __init__(self) -> None:
        self.cases = Cases()
        #: What this process collected and deselected (typo or not run: class 8).
        self.collected = Collected()
        #: Card conflicts an xdist worker reported (its session stopped before any test ran).
        self.worker_refused: list[str] = []
        self.worker_refused_tests = 0

    def judged(self, report: pytest.TestReport) -> str | None:
        """What the process that ran the test found wrong with its report (under xdist, the
        worker's verdict; :meth:`Governor.judged` where this process governs)."""
        return getattr(report, "gate_tampered", None)

    @pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker sends the report on
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        verdict = self.judged(report)
        if verdict is not None:
            report.gate_tampered = verdict  # type: ignore[attr-defined]
        self.cases.add(report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        self.cases.add_collect(report)
        if report.failed:
            self.collected.failed.append(junit_key(report.nodeid)[1])
            if self.collected.blame is None:  # the first file a repository module broke
                from pathlib import Path

                from gate.testrun.blame import collection_blame

                self.collected.blame = collection_blame(
                    report.longreprtext, Path.cwd(), report.nodeid.split("::")[0])

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.collected.note_hypothesis(items)  # deselected is not gated (issue 29)
        keys = (junit_key(item.nodeid) for item in items)  # the recorder's own: kept apart
        self.collected.deselected.update(k for k in keys if k not in self.collected.ungated)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected.selected = {junit_key(item.nodeid) for item in session.items}
        self.collected.note_hypothesis(session.items)
        self.collected.note_plugins(session.config)
        output = getattr(session.config, "workeroutput", None)
        if output is not None:  # an xdist worker: the controller collects nothing itself
            output["gate_hypothesis"] = sorted([n, k] for n, k in
                                               self.collected.hypothesis.items())
            output["gate_plugins"] = list(self.collected.plugins)
            output["gate_selected"] = sorted([list(k) for k in self.collected.selected])
            output["gate_deselected"] = sorted([list(k) for k in self.collected.deselected])

    def pytest_internalerror(self) -> None:
        self.cases.add_internal_error()

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """xdist: a worker that refused the cards says so in its ``workeroutput``."""
        output = getattr(node, "workeroutput", None) or {}
        refused = output.get("gate_refused")
        if refused and not self.worker_refused:  # every worker collects, and refuses, alike
            self.worker_refused.extend(str(p) for p in refused)
            self.worker_refused_tests = int(output.get("gate_refused_tests", len(refused)))
            _replace_no_worker(node)
        self.collected.ungated.update((str(c), str(n)) for c, n in output.get("gate_ungated", ()))
        self.collected.hypothesis.update((str(n), str(k))
                                         for n, k in output.get("gate_hypothesis", ()))
        self.collected.plugins = sorted({*self.collected.plugins,
                                         *(str(f) for f in output.get("gate_plugins", ()))})
        if "gate_selected" in output:  # what the worker collected: a missing test is known
            self.collected.selected = (self.collected.selected or set()) | {
                (str(c), str(n)) for c, n in output["gate_selected"]}
            self.collected.deselected.update(
                (str(c), str(n)) for c, n in output.get("gate_deselected", ()))


def _replace_no_worker(node: Any) -> None:
    """xdist: a worker that refused the cards stopped its session with ``pytest.exit``, which
    xdist takes for a crash and replaces the worker, up to four times per worker (``-n 2``:
    eight more workers, each starting Python, pytest and Hypothesis, collecting, and refusing
    alike). Every worker collects the same tests under the same cards, so no replacement can
    do otherwise: xdist is told to replace none (its restart limit, set to 0, ends the run at
    this worker as its own limit would after the eighth). Where that limit is not there (an
    xdist of another shape), the replacements run as before."""
    config = getattr(node, "config", None)
    manager = getattr(config, "pluginmanager", None)
    dsession = manager.get_plugin("dsession") if manager is not None else None
    if dsession is not None and hasattr(dsession, "_max_worker_restart"):  # None: no limit
        dsession._max_worker_restart = 0


# --- the recorder plugin (loaded with -p gate.testrun.recorder) ----------------------------------


@dataclass(frozen=True)
class PlanProp:
    test_id: str
    junit_classname: str | None
    junit_name: str
    #: The card's file, relative to the repository (named in a card conflict's fix).
    card: str


@dataclass(frozen=True)
class PlanItem:
    prop: PlanProp
    card: dict[str, Any]


@dataclass(frozen=True)
class Plan:
    #: ``gated``: deselect every collected test no property selects; ``all``: run them all.
    tests: str
    items: list[PlanItem]


def read_plan(path: str) -> Plan:
    """The plan the gate wrote and validated; here only its shape is trusted."""
    with open(path, encoding="utf-8") as handle:
        plan = json.load(handle)
    if not isinstance(plan, dict) or plan.get("schema") != PLAN_SCHEMA:
        raise pytest.UsageError(f"gate: error: {path}: not a {PLAN_SCHEMA} plan")
    return Plan(str(plan["tests"]), [
        PlanItem(PlanProp(p["test_id"], p["junit"]["classname"], p["junit"]["name"],
                          p["card_path"]), dict(p["card"])) for p in plan["properties"]])


class Channel:
    """The recorder's end of the channel the gate opened (:mod:`gate.testrun.channel`): a
    socket this process inherited, one line of JSON per record
    (``schemas/recorder-record.schema.json``), written whole as each test finishes. Never
    handed on: not inheritable here, and its number leaves the environment (an xdist worker, or
    a pytest a test starts, runs without it: the controller reports every worker's tests)."""

    def __init__(self, fd: int) -> None:
        import socket
        import stat

        try:
            is_socket = stat.S_ISSOCK(os.fstat(fd).st_mode)
        except OSError:
            is_socket = False
        if not is_socket:
            raise pytest.UsageError(
                f"gate: error: {ENV_CHANNEL}={fd} names no open socket: the gate's recorder "
                "reports only on the channel the gate opened (run pytest directly under the "
                "gate's command, not through a wrapper that closes descriptors)")
        self.sock = socket.socket(fileno=fd)
        self.sock.set_inheritable(False)

    def send(self, record: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(record, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8") + b"\n")

    def begin(self) -> None:
        """The session's first record; the gate answers whether it is the command's first
        session (a second one is refused: the gate stamps one session per step)."""
        import hypothesis

        from gate import __version__

        self.send({"record": "begin", "schema": RESULTS_SCHEMA, "pid": os.getpid(),
                   "gate_version": __version__, "pytest_version": pytest.__version__,
                   "hypothesis_version": hypothesis.__version__})
        self.sock.settimeout(_ANSWER_SECONDS)
        try:
            answer = self.sock.recv(1)
        except OSError:
            answer = b""
        self.sock.settimeout(None)
        if answer == b"2":
            raise pytest.UsageError(
                "gate: error: a second pytest session in one stamp command: the gate stamps "
                "one pytest session per step (run the gated tests in one pytest command)")
        if answer != b"1":
            raise pytest.UsageError(
                f"gate: error: {ENV_CHANNEL}: the gate did not answer on its channel")


#: How long the recorder waits for the gate to acknowledge the session's begin record.
_ANSWER_SECONDS = 60.0


def keep_gated(governor: Any, session: pytest.Session, items: list[pytest.Item]) -> None:
    """``tests: gated`` (the recorder's plan, the plugin's ``--gate-tests gated``): deselect
    every collected test that no property selects (in an xdist worker too: each collects, and
    runs, on its own); pytest reports them as deselected. ``governor`` is a
    :class:`Governor` and :class:`Folder`: what it dropped is kept as
    :attr:`Collected.ungated`, sent by the workers to the controller, so a property whose test
    was not collected is still found missing among the tests that would have run."""
    config = session.config
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        (kept if governor.selecting(item) else dropped).append(item)
    if dropped:
        governor.collected.ungated.update(junit_key(item.nodeid) for item in dropped)
        items[:] = kept
        config.hook.pytest_deselected(items=dropped)
        output = getattr(config, "workeroutput", None)
        if output is not None:  # an xdist worker: the controller collects nothing
            output["gate_ungated"] = sorted([list(k) for k in governor.collected.ungated])


class Recorder(Governor, Folder):
    def __init__(self, plan: Plan, channel: Channel | None) -> None:
        Governor.__init__(self, plan.items)
        Folder.__init__(self)
        self.only_gated = plan.tests == "gated"
        #: None in an xdist worker: it governs, the controller reports.
        self.channel = channel
        self.started: set[str] = set()
        self.finished: set[str] = set()
        self.reported: set[str] = set()
        self.sent = 0  # the testcases of self.cases.done already sent

    def _new_cases(self) -> list[dict[str, Any]]:
        done = self.cases.done[self.sent:]
        self.sent = len(self.cases.done)
        return [c.to_record() for c in done]

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        if self.channel is not None and nodeid not in self.started:
            self.started.add(nodeid)
            self.channel.send({"record": "started", "nodeid": nodeid})

    @pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker sends the report on
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        Folder.pytest_runtest_logreport(self, report)
        self.reported.add(report.nodeid)

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        if self.channel is not None and nodeid in self.started - self.finished:
            self.finished.add(nodeid)
            self.channel.send({"record": "finished", "nodeid": nodeid,
                               "cases": self._new_cases()})

    @pytest.hookimpl(trylast=True)  # after -k/-m: they narrow what runs further
    def pytest_collection_modifyitems(self, session: pytest.Session,
                                      items: list[pytest.Item]) -> None:
        """``tests: gated``: deselect every collected test that no property selects (in an
        xdist worker too: each collects, and runs, on its own), then govern the gated ones.
        A property whose test was not collected is still found missing among the tests that
        would have run (:attr:`Collected.ungated`, sent by the workers to the controller)."""
        if self.only_gated:
            keep_gated(self, session, items)
        Governor.pytest_collection_modifyitems(self, session, items)

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, None, None]:
        result = yield
        if self.channel is None:
            return result
        # a test whose reports came but not its logfinish (an xdist worker that crashed in it)
        for nodeid in sorted(self.started - self.finished):
            if nodeid in self.reported:
                self.finished.add(nodeid)
                self.channel.send({"record": "finished", "nodeid": nodeid, "cases": []})
        refused = self.refused or self.worker_refused
        found = integrity.WATCH.check(session.config)
        self.tampered.extend(f for f in found if f not in self.tampered)
        rest = self._new_cases() + [c.to_record() for c in self.cases.open.values()]
        self.channel.send({
            "record": "end", "exit_status": int(session.exitstatus), "refused": list(refused),
            "refused_tests": (self.refused_tests if self.refused
                              else self.worker_refused_tests if refused else 0),
            "cases": [] if refused else rest,
            "tampered": [integrity.bounded_line(f) for f in self.tampered[:20]],
            "collected": self.collected.to_record()})
        return result


#: Where the gate's loader found the package, and the workspace folders it named (:func:`loaded`).
LOADED: dict[str, Any] = {}


def loaded(package: str, workspace: list[str]) -> None:
    """Called by the per-run loader (:data:`gate.testrun.recorder_route.LOADER`) once it put the
    gate's own package in place and found the trusted modules installed, not the patch's: the
    references to what pytest and Hypothesis report through are taken now, before any
    conftest (:data:`gate.testrun.integrity.WATCH`)."""
    LOADED.update(package=package, workspace=list(workspace))
    integrity.WATCH.take()


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Before any conftest runs: keep Hypothesis's own ``ci`` profile (a project may register
    a profile of its own under that name: that one is the project's settings)."""
    if os.environ.get(ENV_PLAN, ""):
        from gate.testrun import hypothesis_card

        hypothesis_card.remember_ci_profile()


def pytest_configure(config: pytest.Config) -> None:
    plan = os.environ.get(ENV_PLAN, "")
    if not plan:
        return  # loaded without a plan (a leaked PYTEST_ADDOPTS): nothing to do
    if hasattr(config, "workerinput"):  # an xdist worker: governs, and reports to the controller
        channel = None
    else:
        number = os.environ.pop(ENV_CHANNEL, "")
        if not number:
            return  # a pytest inside a test, or run without the gate: not the gate's session
        if not number.isdigit():
            raise pytest.UsageError(f"gate: error: {ENV_CHANNEL}={number!r}: not a descriptor")
        channel = Channel(int(number))
        channel.begin()
    recorder = Recorder(read_plan(plan), channel)
    recorder.config = config
    config.pluginmanager.register(recorder, "gate-recorder")
