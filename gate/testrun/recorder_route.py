"""The recorder route of ``gate stamp --manifest M --pytest -- COMMAND`` (the action's stamp mode
without ``junit``): the gate's recorder (:mod:`gate.testrun.recorder`) loaded into the user's
own pytest governs the gated tests by a plan the gate wrote, and reports their testcases back
over a channel the gate opened (:mod:`gate.testrun.channel`; no file the test process could
rewrite); the gate decides them as the plugin does (:func:`gate.testrun.stamping.decide_cases`),
and a stream that is not whole, or disagrees with the command's exit status, is
``resource_exit`` for every property, never a pass."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, cast

from gate import __version__
from gate.decide import outcome
from gate.errors import GateInputError
from gate.records.files import canonical_json, write_once
from gate.records.redaction import Redactor
from gate.testrun.blame import _in_repository, import_blame
from gate.testrun.channel import ResultsChannel, disagreement
from gate.testrun.running import run_command
from gate.testrun.stamping import (
    Decided,
    Prepared,
    Request,
    decide_cases,
    harness_of,
    relative_posix,
    repository_root,
    ungated_of,
)

RECORDER_SOURCE = "pytest-recorder"
#: What to do when the recorder did not load, for the one-line error.
RECORDER_ENV_FIX = ("the command must run pytest with the environment it was given "
                    "(PYTEST_ADDOPTS carries -p gate.testrun.recorder, PYTHONPATH the gate's "
                    "package, GATE_RECORDER_* the plan and the descriptor of the gate's "
                    "channel, which pytest must inherit; tox: pass_env = PYTEST_ADDOPTS "
                    "PYTHONPATH GATE_RECORDER_*; nox: keep os.environ), or stamp through "
                    "JUnit with the junit input")
RECORDER_FIX = f"the gate's recorder never loaded into pytest: {RECORDER_ENV_FIX}"


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


#: Lines only pytest writes (its header, collection, failure headers, summaries, its own
#: errors): one of them in the command's output means pytest ran. A pattern, compiled (and
#: cached by ``re``) on first use: only a session that did not begin reads it (start-up).
_PYTEST_LINE = (
    r"^(=+ test session starts =+|collected \d+ items?\b.*|collecting \.\.\..*"
    r"|_{3,} .* _{3,}|(FAILED|ERROR) \S+::\S.*|INTERNALERROR> .*|ImportError while loading "
    r"conftest .*|=* ?(no tests ran|\d+ (passed|failed|errors?|skipped|deselected|xfailed"
    r"|xpassed|warnings?|rerun))\b.* in \d+(\.\d+)?s\b.*)$")
#: What the shell's exit statuses 126 and 127 say (POSIX: found but not run, not found).
_SHELL_STATUS = {126: "a program it runs could not be executed (not a program, or not "
                      "executable): fix the command",
                 127: "a program it runs was not found: install it (list it in "
                      "requirements-test.txt, which the install input installs) or fix its "
                      "name in the command"}
#: What a failed install says (pip's own words): an install run inside the test command.
_INSTALL_WORDS = ("No matching distribution found", "Could not find a version that satisfies",
                  "Could not install packages", "pip install", "requirements")
_SYNTAX = r'^E?\s*File "(?P<path>[^"]+)", line (?P<line>\d+)'  # as _PYTEST_LINE, multi-line


def pytest_line(text: str) -> str | None:
    """The last line of ``text`` (the command's output) only pytest writes (its summary, when
    it got there), stripped, runs of ``=`` and ``_`` shortened; None when there is none:
    pytest did not run (or said nothing: ``-qq`` and every test passed)."""
    found = [m.group(0) for m in re.finditer(_PYTEST_LINE, text.replace("\r", "\n"),
                                             re.MULTILINE)]
    return re.sub(r"([=_])\1{3,}", r"\1\1\1", found[-1].strip()) if found else None


def _last_words(text: str) -> str:
    """The last line the command wrote on stderr, bounded and masked, or empty."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    said = Redactor.from_env(os.environ).text(lines[-1]) if lines else ""
    return said if len(said) <= SAID_CHARS else said[:SAID_CHARS - 1] + "…"


def syntax_blame(stderr_text: str, root: Path) -> str | None:
    """When a conftest.py failed to import because a file of the repository (under ``root``)
    has a syntax error (``SyntaxError``, ``IndentationError``, ``TabError``), the words naming
    that file and line; None otherwise."""
    lines = stderr_text.split("\n")
    starts = [i for i, line in enumerate(lines)
              if line.startswith("ImportError while loading conftest")]
    if not starts:
        return None
    rest = "\n".join(lines[starts[-1] + 1:])
    raised = [line[4:].strip() for line in rest.split("\n") if line.startswith("E   ")]
    error = next((r for r in reversed(raised)
                  if r.startswith(("SyntaxError", "IndentationError", "TabError"))), None)
    where = [(m["path"], m["line"]) for m in re.finditer(_SYNTAX, rest, re.MULTILINE)]
    if error is None or not where:
        return None
    path = _in_repository(where[-1][0], root)
    if path is None:
        return None
    shown = error if len(error) <= SAID_CHARS else error[:SAID_CHARS - 1] + "…"
    return (f"{path} line {where[-1][1]} does not parse ({shown}): pytest stopped importing "
            "it before any test ran, so no stamp is written; fix that file (the code under "
            "test, not the job's configuration)")


def not_begun(exit_code: int | None, stderr_text: str, root: Path | None = None,
              stdout_text: str = "") -> str:
    """Why no session of the recorder began, for the one-line error, with the fix:

    - the command ended with one of pytest's own stops (:data:`PYTEST_STOPS`): its exit
      status, what pytest said and the fix (a conftest that failed to import because a file
      of the repository under ``root`` raised, or does not parse, is named as the patch's:
      :func:`import_blame`, :func:`syntax_blame`);
    - pytest ran (a line only it writes is in the output, :func:`pytest_line`) but without
      the recorder: its environment was dropped (:data:`RECORDER_FIX`);
    - the command exited N with no line of pytest's: it stopped before pytest started (a
      program not found, an install in the command that failed, ``false``): its last words
      and the fix;
    - exit 0 and no line of pytest's: :data:`RECORDER_FIX`."""
    if exit_code in PYTEST_STOPS:
        return _pytest_stopped(exit_code, stderr_text, root)
    output = f"{stdout_text}\n{stderr_text}"
    seen = pytest_line(output)
    if seen is not None:
        shown = Redactor.from_env(os.environ).text(seen)[:SAID_CHARS]
        return (f"the command exited {exit_code}: pytest ran (it wrote «{shown}») but did not "
                f"load the gate's recorder: {RECORDER_ENV_FIX}")
    if not exit_code:
        return (f"the command exited {exit_code} and wrote no line of pytest's: "
                f"{RECORDER_FIX}")
    said = _last_words(stderr_text)
    quoted = f": it said «{said}»" if said else ", writing nothing on stderr"
    if exit_code in _SHELL_STATUS:
        fix = _SHELL_STATUS[exit_code]
    elif any(words in output for words in _INSTALL_WORDS):
        fix = ("an install in the command failed: give the install to the install input "
               "(it runs sealed before the tests, and its failure is named as the install's) "
               "and fix what it names")
    else:
        fix = ("the command must run pytest once (python -m pytest), exiting with pytest's "
               "status; fix what stops it before")
    return (f"the command exited {exit_code} before pytest started (no line of pytest's in "
            f"its output){quoted}; {fix}")


def _pytest_stopped(exit_code: int, stderr_text: str, root: Path | None) -> str:
    said = pytest_said(stderr_text)
    quoted = f": pytest said «{said}»" if said else ""
    stopped = f"the command exited {exit_code} (pytest: {PYTEST_STOPS[exit_code]})"
    if exit_code == 5:  # a session ran (its words are on stdout), without the recorder
        return f"{stopped}, and {RECORDER_FIX}"
    redacted = Redactor.from_env(os.environ).text(stderr_text)
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
    elif "ImportError while loading conftest" in said and root is not None and (
            blame := syntax_blame(redacted, root) or import_blame(redacted, root)):
        fix = blame
    elif "ImportError while loading conftest" in said:
        fix = ("requirements-test.txt must list what the conftest.py imports: the job has "
               "only what it installs")
    else:
        fix = "fix what pytest names (it is in the log above)"
    return f"{stopped} before the gate's recorder began{quoted}; {fix}"


#: The recorder's module (also loadable by its old name, :mod:`gate.agent.recorder`); the run loads
#: it through a loader named :data:`LOADER_PREFIX` and a random token (:func:`recorder_env`).
RECORDER_MODULE = "gate.testrun.recorder"
LOADER_PREFIX = "_gate_recorder_"

#: The loader the gate writes for one run: imported by pytest under a name no workspace file can
#: take, it puts the gate's own package in ``sys.modules`` from its absolute path (``python -m
#: pytest`` puts the current folder first on ``sys.path``: a ``gate`` package the patch adds
#: there would otherwise be what ``-p gate.testrun.recorder`` imports), refuses the run when a
#: module named ``gate`` from elsewhere is already imported, or pytest, pluggy or Hypothesis
#: come from the workspace, and hands pytest the recorder's hooks.
LOADER = '''"""The gate's recorder for one run (written by gate stamp --pytest; issue 27)."""

import sys

PACKAGE = {package!r}
WORKSPACE = {workspace!r}


def _refuse(why):
    from _pytest.config.exceptions import UsageError

    raise UsageError("gate: error: " + why)


def _load():
    import importlib
    import importlib.util
    import os

    own = os.path.realpath(PACKAGE) + os.sep
    for name, held in list(sys.modules.items()):
        if name == "gate" or name.startswith("gate."):
            origin = getattr(getattr(held, "__spec__", None), "origin", None)
            if not isinstance(origin, str) or not os.path.realpath(origin).startswith(own):
                _refuse(f"{{origin or name}}: a module named {{name}} was imported before the "
                        "gate's recorder, not from the gate's own package: the patch's code "
                        "would stand in for the recorder (rename or remove it)")
    if "gate" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "gate", os.path.join(PACKAGE, "__init__.py"), submodule_search_locations=[PACKAGE])
        module = importlib.util.module_from_spec(spec)
        sys.modules["gate"] = module
        spec.loader.exec_module(module)
    importlib.import_module("hypothesis")  # now, to see where it comes from
    integrity = importlib.import_module("gate.testrun.integrity")
    problems = integrity.foreign_modules(PACKAGE, WORKSPACE)
    if problems:
        _refuse(problems[0])
    recorder = importlib.import_module("gate.testrun.recorder")
    recorder.loaded(PACKAGE, WORKSPACE)
    return recorder


_recorder = _load()
pytest_load_initial_conftests = _recorder.pytest_load_initial_conftests
pytest_configure = _recorder.pytest_configure
'''


def workspace_path(workspace: Sequence[str], pythonpath: str) -> list[str]:
    """The folders of the test process's ``sys.path`` the patch writes: ``workspace`` (the
    command's folder, ``sys.path[0]`` of ``python -m pytest``; the stamping root) and the
    ``PYTHONPATH`` entries inside them (an entry elsewhere is the user's environment)."""
    from gate.testrun import integrity

    roots = [os.path.realpath(w) for w in workspace]
    inside = [e for e in pythonpath.split(os.pathsep) if e and any(
        integrity.inside(os.path.realpath(e), r) for r in roots)]
    return [*workspace, *inside]


def shadowing_refused(folders: Sequence[str | os.PathLike[str]]) -> None:
    """Exit 2 naming the first workspace file Python would import in place of a module the run
    trusts (:data:`gate.testrun.integrity.TRUSTED`): the test command's folder, the stamping
    root and the ``PYTHONPATH`` entries come before the installed packages on ``sys.path``."""
    from gate.testrun import integrity

    package = str(Path(__file__).resolve().parent.parent)
    found = integrity.shadowing_files([os.fspath(f) for f in folders], package)
    # uses: ./ — the action runs from a copy of its folder made before anything ran
    # (requirements/seal.sh place); the workspace's gate/ is what it was copied from, and the
    # loader puts the copy in sys.modules first (refusing a `gate` imported from elsewhere)
    origin = os.environ.get("GITHUB_ACTION_PATH", "").strip()
    if origin:
        source = os.path.realpath(os.path.join(origin, "gate"))
        found = [f for f in found if not integrity.inside(os.path.realpath(f), source)]
    if found:
        name = Path(found[0]).name
        top = Path(found[0]).parent.name if name.startswith("__init__") else name.split(".")[0]
        raise GateInputError(found[0], "(workspace)",
                             f"a module named {top} where the test process finds it before "
                             "the installed one (python -m pytest puts the current folder "
                             "first on sys.path): the patch's code would run as the gate's "
                             f"recorder or as {top} itself; rename or remove it")


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


def recorder_env(private: Path, plan: Path, channel_fd: int, environ: Mapping[str, str],
                 workspace: Sequence[str | os.PathLike[str]] = ()) -> dict[str, str]:
    """The command's environment: ``PYTEST_ADDOPTS`` loads the recorder through a loader named
    ``_gate_recorder_<random>`` (:data:`LOADER`), ahead of the user's value (kept);
    ``PYTHONPATH`` starts with a private folder holding only that loader (the gate's package is
    loaded from its own path, never found by name); ``GATE_RECORDER_PLAN`` names the plan,
    ``GATE_RECORDER_CHANNEL`` the descriptor the results go back on. ``workspace``: the
    folders the patch writes (the command's folder, the stamping root), named in the loader."""
    import tempfile

    from gate.testrun import cases

    package = Path(__file__).resolve().parent.parent
    path = Path(tempfile.mkdtemp(prefix="path-", dir=private))
    name = f"{LOADER_PREFIX}{os.urandom(8).hex()}"  # secrets.token_hex(8)
    source = LOADER.format(package=str(package),
                           workspace=[os.path.realpath(os.fspath(w)) for w in workspace])
    write_once(path / f"{name}.py", source.encode("utf-8"), durable=False)  # scratch
    env = dict(environ)
    addopts = env.get("PYTEST_ADDOPTS", "").strip()
    env["PYTEST_ADDOPTS"] = f"-p {name} {addopts}".strip()
    pythonpath = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = str(path) + (os.pathsep + pythonpath if pythonpath else "")
    env[cases.ENV_PLAN] = str(plan)
    env[cases.ENV_CHANNEL] = str(channel_fd)
    return env


def tampered_note(found: Sequence[str]) -> str:
    """The note of every property when the recorder found pytest or Hypothesis replaced in the
    test process (at its load, or at the session's end): nothing the session said can pass."""
    more = f"; and {len(found) - 1} more" if len(found) > 1 else ""
    return f"the recorder found the test process tampered with: {found[0]}{more}"


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
    kept_out = _Kept(stdout if stdout is not None else sys.stdout.buffer)
    kept = _Kept(stderr if stderr is not None else sys.stderr.buffer)
    plan = recorder_plan(prepared, request.tests)
    workspace = [os.getcwd(), str(request.root)]
    shadowing_refused(workspace_path(workspace, os.environ.get("PYTHONPATH", "")))
    private = Path(tempfile.mkdtemp(prefix="gate-recorder-"))
    from gate.testrun.cases import ENV_CHANNEL

    seal = request.seal
    channel = ResultsChannel(own_pid_namespace=seal is not None and seal.namespaced)
    try:
        plan_path = private / "plan.json"
        write_once(plan_path, canonical_json(plan) + b"\n", durable=False)  # scratch
        env = recorder_env(private, plan_path, channel.child_fd, os.environ, workspace)
        argv, stdin = list(request.command), None
        if seal is not None:  # the recorder loads from its private folder, read-only inside
            seal.share(private)
            wrapped = seal.wrap(argv, env, channel_fd=channel.child_fd,
                                channel_env=ENV_CHANNEL, extra_read_only=[private])
            argv, env, stdin = wrapped.argv, wrapped.env, wrapped.stdin
        proc = run_command(argv, request.timeout, cast(IO[bytes], kept_out),
                           cast(IO[bytes], kept),
                           env=env, channel=channel, stdin=stdin,
                           fence=request.fence)
        if seal is not None:
            proc = seal.result(proc)
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
                             not_begun(proc.exit_code, kept.text(), Path.cwd(),
                                       kept_out.text()))
    problem = channel.problem
    results = channel.results() if problem is None else None
    got = read_results(results, request.manifest) if results is not None else None
    if results is not None and results["tampered"]:
        problem = tampered_note(results["tampered"])
    if problem is None and results is not None and not killed:
        problem = disagreement(results, proc.exit_code)
    if problem is not None:  # the stream cannot be believed: no property passes on it
        broken = outcome.Outcome(outcome.RESOURCE_EXIT, 5, problem)
        return Decided(proc, [broken] * len(prepared), RECORDER_SOURCE, ran=True, cases=None)
    cases = got[0] if got else None
    decisions = decide_cases(prepared, cases, proc=proc, timeout_codes=request.timeout_codes,
                             collected=got[1] if got else None, manifest=request.manifest)
    return Decided(proc, decisions, RECORDER_SOURCE, ran=True, cases=cases,
                   ungated=ungated_of(prepared, got[1] if got else None),
                   harness_files=harness_of(prepared, got[1] if got else None))
