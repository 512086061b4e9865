"""pytest plugin: the test runner writes the stamps itself (SPEC §3), one per manifest property.

Registered through the ``pytest11`` entry point ``gate``; it does nothing unless
``--gate-stamps`` is given::

    pytest --gate-stamps DIR --gate-server-class local-pinned --gate-manifest .github/gate.yml \\
           [--gate-root DIR] [--gate-run-id-prefix P] [--gate-store DIR] [--gate-policy FILE] \\
           [--gate-tests gated|all]

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
exit status, and the stamp built by :func:`gate.testrun.stamping.build_stamp`. So: an assertion
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
exception type, unless Hypothesis printed a falsifying example for it (a gated test whose code
raised, say, ``TypeError`` on an input Hypothesis found, shrank and replayed; also
``pytest.fail()`` and pytest-timeout's signal-method timeout inside the test, both ``Failed``,
which Hypothesis catches like any exception): ``assert_fail``, as JUnit says. A strict xfail
that passed (no exception at all) stays ``resource_exit``. A process
killed outright (a thread-method timeout, SIGKILL) writes no stamps at all: a missing stamp
means the class did not run.

**The sample card governs every gated test** (a test some manifest property selects): see
:mod:`gate.testrun.hypothesis_card`. At collection (after ``-k``/``-m`` deselection), a gated
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
the difference above. Under pytest-xdist the workers apply the cards to the tests they run
(their reports carry the recorded generator back; a worker's card conflict stops its session
and the controller writes no stamps) and only the controller writes stamps.

**Shared with the action's route.** The governing hooks (:class:`gate.testrun.recorder.Governor`),
the folding of reports (:class:`gate.testrun.cases.Cases`) and the decide/build step
(:func:`gate.testrun.stamping.build_all`) are the ones ``gate stamp --pytest`` uses
through its recorder: for one run both routes give the same stamps but for ``run_id``,
``written_at``, ``wall_seconds``, ``source`` and ``body_bytes`` (tests/test_recorder.py).
"""

from __future__ import annotations

import time
from collections.abc import Generator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from gate.testrun.cases import Case, Cases, Collected, is_assertion, junit_key, lookup
from gate.testrun.recorder import Folder, Governor, keep_gated

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
    group.addoption("--gate-tests", metavar="WHICH", choices=("all", "gated"),
                    help="gated: run only the tests the manifest gates (the others are "
                         "deselected, as the action's tests: gated does); all (default): "
                         "every test pytest collects")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Before any conftest runs: keep Hypothesis's own ``ci`` profile, so a project's profile
    registered under that name later is read as the project's (only when stamping: other
    pytest runs in this environment never import Hypothesis for the gate)."""
    if getattr(early_config.known_args_namespace, "gate_stamps", None):
        from gate.testrun import hypothesis_card

        hypothesis_card.remember_ci_profile()


def _refuse(message: str) -> NoReturn:
    """Bad input or usage: the gate's exit status 2 (docs/stamping.md#gate-stamp, the
    recorder), not pytest's usage error (4); the message stays one line naming the file and
    field."""
    pytest.exit(message, returncode=2)


def pytest_configure(config: pytest.Config) -> None:
    stamps = config.getoption("gate_stamps")
    others = {flag: config.getoption(dest) for flag, dest in (
        ("--gate-server-class", "gate_server_class"),
        ("--gate-run-id-prefix", "gate_run_id_prefix"), ("--gate-store", "gate_store"),
        ("--gate-policy", "gate_policy"),
        ("--gate-tests", "gate_tests"))}
    if stamps is None:
        given = [flag for flag, value in others.items() if value is not None]
        if given:
            _refuse(f"gate: error: {given[0]} needs --gate-stamps DIR")
        return
    if others["--gate-server-class"] is None:
        _refuse("gate: error: --gate-stamps needs --gate-server-class")
    from gate.errors import GateInputError

    try:
        # an xdist worker applies the cards to the tests it runs; only the controller stamps
        # (before, workers returned early here and ran the tests without the cards)
        plugin = StampPlugin.prepare(config, worker=hasattr(config, "workerinput"))
    except GateInputError as exc:
        _refuse(f"gate: error: {exc}")
    plugin.config = config
    config.pluginmanager.register(plugin, "gate-stamps")


# --- shared with the recorder (gate.testrun.cases, gate.testrun.recorder) -------------------

# Old names, kept importable: the folding and the governing now live where the recorder (the
# action's route) can use them without the gate's dependencies.
_Case = Case
__all__ = ["Case", "Cases", "Collected", "StampPlugin", "is_assertion", "junit_key", "lookup"]


# --- the plugin ---------------------------------------------------------------------------------


class StampPlugin(Governor, Folder):
    def __init__(self, prepared: list[Any], run_ids: list[str], out: Path, server_class: str,
                 timeout_codes: tuple[int, ...], worker: bool = False,
                 manifest: str = ".github/gate.yml") -> None:
        Governor.__init__(self, prepared)
        Folder.__init__(self)
        self.prepared = prepared
        self.manifest = manifest
        self.run_ids = run_ids
        self.out = out
        self.server_class = server_class
        self.timeout_codes = timeout_codes
        self.worker = worker
        self.started = time.monotonic()
        self.only_gated = False  # --gate-tests gated
        self.ungated_line: str | None = None

    @classmethod
    def prepare(cls, config: pytest.Config, worker: bool = False) -> StampPlugin:
        from gate.errors import GateInputError
        from gate.records import manifest, policy
        from gate.testrun import stamping

        root = Path(config.getoption("gate_root"))
        props = manifest.load(Path(config.getoption("gate_manifest")), root)
        prefix = config.getoption("gate_run_id_prefix")
        run_ids = stamping.manifest_run_ids(len(props), prefix)
        out = Path(config.getoption("gate_stamps"))
        if not worker and out.is_dir() and any(out.iterdir()):
            raise GateInputError(str(out), "--gate-stamps",
                                 "is not empty: one session's stamps go to a fresh folder (a "
                                 "second set beside them would pair as duplicates and close "
                                 "the gate); give a new folder or remove this one")
        policy_path = config.getoption("gate_policy")
        if policy_path is None and Path(".github/gate-policy.yml").is_file():
            policy_path = ".github/gate-policy.yml"
        pol = policy.load(Path(policy_path) if policy_path else None)
        store = config.getoption("gate_store")
        prepared = stamping.prepare_all(props, root, Path(store) if store else None,
                                        background=False)  # the tests run in this process
        plugin = cls(prepared, run_ids, out, config.getoption("gate_server_class"),
                     tuple(pol.timeout_exit_codes), worker, str(config.getoption("gate_manifest")))
        plugin.only_gated = config.getoption("gate_tests") == "gated"
        return plugin

    @pytest.hookimpl(trylast=True)  # after -k/-m: they narrow what runs further
    def pytest_collection_modifyitems(self, session: pytest.Session,
                                      items: list[pytest.Item]) -> None:
        """``--gate-tests gated``: only the gated tests run (:func:`keep_gated`, as the
        recorder's ``tests: gated``); then the cards govern them."""
        if self.only_gated:
            keep_gated(self, session, items)
        Governor.pytest_collection_modifyitems(self, session, items)

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, None, None]:
        result = yield
        if self.worker:
            return result
        if self.refused or self.worker_refused:
            if self.worker_refused and not self.refused:  # xdist: a worker refused the cards
                session.config.get_terminal_writer().line(
                    f"gate: error: the sample card cannot govern {self.worker_refused_tests} "
                    f"gated test(s), no stamps written: {'; '.join(self.worker_refused[:20])}",
                    red=True)
                session.exitstatus = 2  # bad input, as every card conflict
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
                count = f"{len(written)} stamp{'' if len(written) == 1 else 's'}"
                reporter.write_sep("-", f"gate: {count} written to {self.out}")
                if self.ungated_line:
                    writer.line(self.ungated_line, yellow=True)
        return result

    def decisions(self, proc: Any) -> list[Any]:
        """Every property's outcome from this session's testcases and what it collected
        (:func:`gate.testrun.stamping.decide_cases`; a selector typo is bad input)."""
        from gate.testrun import stamping

        return stamping.decide_cases(self.prepared, self.cases.all(), proc=proc,
                                     timeout_codes=self.timeout_codes,
                                     collected=self.collected, manifest=self.manifest)

    def write(self, exit_code: int) -> list[Path]:
        from gate.decide import outcome
        from gate.testrun import stamping

        wall = round(time.monotonic() - self.started, 3)
        proc = outcome.ProcessResult(exit_code, None, False, None, wall)
        cases = self.cases.all()
        decided = stamping.Decided(proc, self.decisions(proc), SOURCE, ran=True, cases=cases,
                                   ungated=stamping.ungated_of(self.prepared, self.collected),
                                   harness_files=stamping.harness_of(self.prepared,
                                                                     self.collected))
        built = stamping.build_all(self.prepared, self.run_ids, decided,
                                   server_class=self.server_class, written_at=int(time.time()))
        targets = [self.out / f"{run_id}.json" for run_id in self.run_ids]
        stamping.write_all(targets, built)
        self.ungated_line = stamping.ungated_line(built)
        return targets
