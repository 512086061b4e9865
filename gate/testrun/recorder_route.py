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
from typing import IO, Any, cast

from gate import __version__
from gate.decide import outcome
from gate.errors import GateInputError
from gate.records.files import canonical_json, write_once
from gate.records.redaction import Redactor
from gate.testrun.channel import ResultsChannel, disagreement
from gate.testrun.running import run_command
from gate.testrun.stamping import (
    Decided,
    Prepared,
    Request,
    decide_cases,
    relative_posix,
    repository_root,
    ungated_of,
)

RECORDER_SOURCE = "pytest-recorder"
#: What to do when the recorder did not load, for the one-line error.
RECORDER_FIX = ("the gate's recorder never loaded into pytest: the command must run pytest "
                "with the environment it was given (PYTEST_ADDOPTS carries -p "
                "gate.testrun.recorder, PYTHONPATH the gate's package, GATE_RECORDER_* the "
                "plan and the descriptor of the gate's channel, which pytest must inherit; "
                "tox: pass_env = PYTEST_ADDOPTS PYTHONPATH GATE_RECORDER_*; nox: keep "
                "os.environ), or stamp through JUnit with the junit input")


#: pytest's own exit statuses that stop it before (or without) a session the recorder began in.
PYTEST_STOPS = {3: "internal error", 4: "usage error", 5: "no tests collected"}
#: How much of pytest's own words (its stderr) the one-line error quotes.
SAID_CHARS = 200
#: The command's stderr kept to find them: its first and its last this many bytes.
KEPT_BYTES = 8192


class _Kept:
    """The command's stderr on its way to the gate's: passed through whole, its first and last
    :data:`KEPT_BYTES` kept, to name what pytest said when it stopped before the recorder.
    (:func:`gate.testrun.running.run_command` only writes and flushes its sinks.)"""

    def __init__(self, sink: IO[bytes]) -> None:
        self._sink = sink
        self._head = bytearray()
        self._tail = bytearray()

    def write(self, chunk: bytes) -> int:
        room = KEPT_BYTES - len(self._head)
        self._head += chunk[:max(room, 0)]
        self._tail += chunk[max(room, 0):]
        del self._tail[:-KEPT_BYTES]
        self._sink.write(chunk)
        return len(chunk)

    def flush(self) -> None:
        self._sink.flush()

    def text(self) -> str:
        return (bytes(self._head) + b"\n" + bytes(self._tail)).decode("utf-8", "replace")


def pytest_said(text: str) -> str:
    """pytest's own error lines in its stderr ``text``, as one bounded line: a usage error
    (``ERROR: ...``, argparse's ``prog: error: ...``), a conftest that failed to import (that
    line and the exception's ``E   ...`` line), the exception of an ``INTERNALERROR>``
    traceback; else the last line it wrote. Empty when it wrote nothing."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]  # a CR stays shown
    picked: list[str] = []
    internal = [rest for line in lines if line.startswith("INTERNALERROR>")
                if (rest := line.removeprefix("INTERNALERROR>").strip())]
    raised = [line.removeprefix("E").strip() for line in lines if line.startswith("E   ")]
    for line in lines:
        if line.startswith("ERROR: usage:") or line.startswith("INTERNALERROR>"):
            continue  # argparse's usage line says nothing; the traceback's last line is kept
        if (line.startswith(("ERROR: ", "ImportError while loading conftest"))
                or (": error: " in line and not line.startswith("gate: error:"))):
            picked.append(line.rstrip(".") if line.startswith("ImportError") else line)
    if any(p.startswith("ImportError while loading conftest") for p in picked) and raised:
        picked.append(raised[-1])
    if internal:
        picked.append(internal[-1])
    if not picked and lines:
        picked.append(lines[-1])
    said = Redactor.from_env(os.environ).text("; ".join(dict.fromkeys(picked)))
    return said if len(said) <= SAID_CHARS else said[:SAID_CHARS - 1] + "…"


def not_begun(exit_code: int | None, stderr_text: str) -> str:
    """Why no session of the recorder began, for the one-line error: when the command ended
    with one of pytest's own stops (:data:`PYTEST_STOPS`), its exit status, what pytest said
    and the fix; else :data:`RECORDER_FIX`."""
    if exit_code not in PYTEST_STOPS:
        return RECORDER_FIX
    said = pytest_said(stderr_text)
    quoted = f": pytest said «{said}»" if said else ""
    stopped = f"the command exited {exit_code} (pytest: {PYTEST_STOPS[exit_code]})"
    if exit_code == 5:  # a session ran (its words are on stdout), without the recorder
        return f"{stopped}, and {RECORDER_FIX}"
    if exit_code == 3:
        fix = ("a plugin or a conftest.py hook raised before the session began: fix what "
               "pytest names (the whole INTERNALERROR traceback is in the log above)")
    elif "unrecognized arguments" in said:
        fix = ("requirements-test.txt must list the plugins the configuration's addopts "
               "needs (--benchmark-* needs pytest-benchmark): the job has only what it "
               "installs")
    elif "Error importing plugin" in said:
        fix = ("requirements-test.txt must list the plugins pytest is told to load "
               "(-p, addopts, pytest_plugins): the job has only what it installs")
    elif "ImportError while loading conftest" in said:
        fix = ("requirements-test.txt must list what the conftest.py imports: the job has "
               "only what it installs")
    else:
        fix = "fix what pytest names (it is in the log above)"
    return f"{stopped} before the gate's recorder began{quoted}; {fix}"


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
    kept = _Kept(stderr if stderr is not None else sys.stderr.buffer)
    plan = recorder_plan(prepared, request.tests)
    private = Path(tempfile.mkdtemp(prefix="gate-recorder-"))
    channel = ResultsChannel()
    try:
        plan_path = private / "plan.json"
        write_once(plan_path, canonical_json(plan) + b"\n")
        env = recorder_env(private, plan_path, channel.child_fd, os.environ)
        proc = run_command(request.command, request.timeout, stdout, cast(IO[bytes], kept),
                           env=env, channel=channel)
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
        raise GateInputError("the test command", "(pytest)",
                             not_begun(proc.exit_code, kept.text()))
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
    return Decided(proc, decisions, RECORDER_SOURCE, ran=True, cases=cases,
                   ungated=ungated_of(prepared, got[1] if got else None))
