"""The recorder route of ``gate stamp --manifest M --pytest -- COMMAND`` (the action's stamp mode
without ``junit``): the gate's recorder (:mod:`gate.testrun.recorder`) loaded into the user's
own pytest governs the gated tests by a plan the gate wrote, and reports their testcases back
over a channel the gate opened (:mod:`gate.testrun.channel`; no file the test process could
rewrite); the gate decides them as the plugin does (:func:`gate.testrun.stamping.decide_cases`),
and a stream that is not whole, or disagrees with the command's exit status, is
``resource_exit`` for every property, never a pass."""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from gate import __version__
from gate.decide import outcome
from gate.errors import GateInputError
from gate.records.files import canonical_json, write_once
from gate.testrun.channel import ResultsChannel, disagreement
from gate.testrun.running import run_command
from gate.testrun.stamping import (
    Decided,
    Prepared,
    Request,
    decide_cases,
    relative_posix,
    repository_root,
)

RECORDER_SOURCE = "pytest-recorder"
#: What to do when the recorder did not load, for the one-line error.
RECORDER_FIX = ("the gate's recorder never loaded into pytest: the command must run pytest "
                "with the environment it was given (PYTEST_ADDOPTS carries -p "
                "gate.testrun.recorder, PYTHONPATH the gate's package, GATE_RECORDER_* the "
                "plan and the descriptor of the gate's channel, which pytest must inherit; "
                "tox: pass_env = PYTEST_ADDOPTS PYTHONPATH GATE_RECORDER_*; nox: keep "
                "os.environ), or stamp through JUnit with the junit input")


#: The recorder's module, and its old name (the very same module, :mod:`gate.agent.recorder`).
RECORDER_MODULE = "gate.testrun.recorder"
RECORDER_NAMES = (RECORDER_MODULE, "gate.agent.recorder")


def _loads_recorder(addopts: str) -> bool:
    """Does the user's ``PYTEST_ADDOPTS`` already load the recorder (``-p NAME``, ``-pNAME``),
    under either name?"""
    import shlex

    try:
        words = shlex.split(addopts)
    except ValueError:  # unbalanced quotes: pytest itself will say so
        return False
    named = {b for a, b in itertools.pairwise(words) if a == "-p"}
    named |= {w[2:] for w in words if w.startswith("-p") and len(w) > 2}
    return bool(named & set(RECORDER_NAMES))


def card_file(prepared: Prepared) -> str:
    """The property's card file as a message names it: relative to the repository (the
    stamping root outside any repository; as given when outside that too)."""
    repo = repository_root(prepared.root)
    return relative_posix(prepared.prop.card, repo if repo is not None else prepared.root)


def recorder_plan(prepared: Sequence[Prepared], tests: str = "gated") -> dict[str, Any]:
    """The plan the recorder governs by (``schemas/recorder-plan.schema.json``), validated.
    ``tests``: one of :data:`TESTS` (which collected tests run)."""
    from gate.records import schemas
    from gate.testrun.cases import PLAN_SCHEMA

    plan = {"schema": PLAN_SCHEMA, "gate_version": __version__, "tests": tests,
            "properties": [{"test_id": p.prop.test_id,
                            "junit": {"classname": p.prop.junit_classname,
                                      "name": p.prop.junit_name},
                            "card": p.card, "card_path": card_file(p)} for p in prepared]}
    schemas.validate("recorder-plan", plan, "the recorder plan")
    return plan


def recorder_env(private: Path, plan: Path, channel_fd: int,
                 environ: Mapping[str, str]) -> dict[str, str]:
    """The command's environment: ``PYTEST_ADDOPTS`` (the user's value kept, ours appended)
    loads the recorder; ``PYTHONPATH`` starts with a private folder holding only a link to
    the gate's package (never the action's whole checkout: its ``tests`` would shadow the
    user's); ``GATE_RECORDER_PLAN`` names the plan, ``GATE_RECORDER_CHANNEL`` the descriptor
    the results go back on."""
    import tempfile

    from gate.testrun import cases

    package = Path(__file__).resolve().parent.parent
    path = Path(tempfile.mkdtemp(prefix="path-", dir=private))
    os.symlink(package, path / "gate", target_is_directory=True)
    env = dict(environ)
    addopts = env.get("PYTEST_ADDOPTS", "").strip()
    if not _loads_recorder(addopts):  # the module twice under two names: pytest refuses it
        env["PYTEST_ADDOPTS"] = f"{addopts} -p {RECORDER_MODULE}".strip()
    pythonpath = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = str(path) + (os.pathsep + pythonpath if pythonpath else "")
    env[cases.ENV_PLAN] = str(plan)
    env[cases.ENV_CHANNEL] = str(channel_fd)
    return env


def read_results(record: dict[str, Any], manifest: str | None = None
                 ) -> tuple[list[Any], Any]:
    """The recorder's testcases and what it collected, from the assembled and validated
    results (:meth:`gate.testrun.channel.ResultsChannel.results`); card conflicts are bad
    input (exit 2, no stamps), named on the manifest's ``properties`` (their sample cards),
    where the fix goes."""
    from gate.testrun.cases import Case, Collected

    refused = record["refused"]
    if refused:
        shown = "; ".join(refused[:5]) + (f"; and {len(refused) - 5} more"
                                          if len(refused) > 5 else "")
        count = record["refused_tests"]
        raise GateInputError(manifest or "the manifest", "properties (sample cards)",
                             f"the sample card cannot govern {count} gated test"
                             f"{'s' if count > 1 else ''}, no stamps written: {shown}")
    return ([Case.from_record(c) for c in record["cases"]],
            Collected.from_record(record["collected"]))


def decide(request: Request, prepared: Sequence[Prepared], stdout: IO[bytes] | None,
           stderr: IO[bytes] | None) -> Decided:
    import shutil
    import sys
    import tempfile

    if request.command is None or request.junit_path is not None:
        raise GateInputError("gate stamp", "--pytest",
                             "needs -- COMMAND and no --junit (the recorder reports)")
    stdout = stdout if stdout is not None else sys.stdout.buffer
    stderr = stderr if stderr is not None else sys.stderr.buffer
    plan = recorder_plan(prepared, request.tests)
    private = Path(tempfile.mkdtemp(prefix="gate-recorder-"))
    channel = ResultsChannel()
    try:
        plan_path = private / "plan.json"
        write_once(plan_path, canonical_json(plan) + b"\n")
        env = recorder_env(private, plan_path, channel.child_fd, os.environ)
        proc = run_command(request.command, request.timeout, stdout, stderr, env=env,
                           channel=channel)
    finally:
        channel.close()
        shutil.rmtree(private, ignore_errors=True)
    channel.after_run()
    sessions = channel.sessions
    if sessions > 1:
        raise GateInputError("the test command", "(pytest)",
                             f"it ran {sessions} pytest sessions with the recorder; the "
                             "gate stamps one session (run the gated tests in one pytest "
                             "command, or stamp each in its own step)")
    killed = proc.timed_out or proc.signal is not None
    if sessions == 0 and not killed and channel.problem is None:
        raise GateInputError("the test command", "(pytest)", RECORDER_FIX)
    problem = channel.problem
    results = channel.results() if problem is None else None
    got = read_results(results, request.manifest) if results is not None else None
    if results is not None and not killed:
        problem = disagreement(results, proc.exit_code)
    if problem is not None:  # the stream cannot be believed: no property passes on it
        broken = outcome.Outcome(outcome.RESOURCE_EXIT, 5, problem)
        return Decided(proc, [broken] * len(prepared), RECORDER_SOURCE, ran=True, cases=None)
    cases = got[0] if got else None
    decisions = decide_cases(prepared, cases, proc=proc, timeout_codes=request.timeout_codes,
                             collected=got[1] if got else None, manifest=request.manifest)
    return Decided(proc, decisions, RECORDER_SOURCE, ran=True, cases=cases)
