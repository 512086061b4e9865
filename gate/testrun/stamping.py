"""``gate stamp``: turn one real test run into stamps (SPEC §3), written once, by the runner.

The decision (which outcome) is :mod:`gate.decide.outcome`, pure; this module does the I/O around
it:
it reads every input *before* the run (card, fixtures, sampler output, policy), runs the
command itself or takes what a previous step recorded, reads the JUnit report, builds the
stamps, validates each against ``schemas/stamp.schema.json`` and writes each atomically and
write-once as ``OUT/<run_id>.json``.

Rules the issue leaves open, decided here:

* the fixture hash is taken before the command runs and again after it; if the fixtures (or the
  card, or the sampler output) changed during the run, the stamp is ``resource_exit`` with a
  note — the run did not test the bytes it names;
* with ``-- COMMAND`` and ``--junit FILE``, FILE must not exist before the run (a stale report
  from an earlier run must never stamp a green): exit 2;
* a JUnit report that was not written at all gives ``resource_exit`` stamps (the run happened
  and the stamp says so); a report that is malformed, too large or carries a DOCTYPE is bad
  input (exit 2, no stamps);
* all target files are checked before the run, so a taken run id fails fast (exit 2);
* a JUnit selector (a manifest entry's, or the bare ``--test-id``/``--junit-name``) that
  matches no test case of a report holding test cases is a typo, whatever the run's exit
  status, unless the run was cut short (timeout, signal): exit 2 naming the entry and the
  nearest test case names, no stamps (:func:`gate.decide.outcome.not_matched`; a JUnit report
  cannot tell a test left out by ``-k`` or ``-x`` from a typo, so it fails closed).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import selectors
import signal
import subprocess
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO, Any

from gate import __version__
from gate.decide import outcome
from gate.errors import GateInputError
from gate.records import hashing, junit
from gate.records import load as records
from gate.records.files import canonical_json, lexists, read_bytes_capped, write_once
from gate.records.manifest import Property

SOURCES = ("command", "recorded", "junit")
_CHUNK = 65536


# --- running the command ----------------------------------------------------------------------


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _cancel(signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def run_command(
    argv: Sequence[str],
    timeout: float | None,
    stdout: IO[bytes],
    stderr: IO[bytes],
    *,
    grace: float = 5.0,
    env: Mapping[str, str] | None = None,
) -> outcome.ProcessResult:
    """Run ``argv`` in its own process group, stream its output through, count the bytes.

    ``timeout`` is a wall-clock limit: when it passes, the whole process group gets SIGKILL and
    the result has ``timed_out``. After the process exits, output still held open by a
    descendant is drained for at most ``grace`` seconds. If ``gate`` itself is interrupted
    (SIGINT, SIGTERM, SIGHUP) the group is killed and no stamp is written.
    """
    start = time.monotonic()
    try:
        proc = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True,
                                env=dict(env) if env is not None else None)
    except FileNotFoundError:
        raise GateInputError(argv[0], "(command)", "no such command") from None
    except OSError as exc:
        raise GateInputError(argv[0], "(command)", f"cannot run: {exc.strerror}") from None
    assert proc.stdout is not None and proc.stderr is not None
    deadline = start + timeout if timeout is not None else None
    handlers: dict[signal.Signals, Any] = {}
    with contextlib.suppress(ValueError):  # not the main thread: leave handlers alone
        for signum in (signal.SIGTERM, signal.SIGHUP):
            handlers[signum] = signal.signal(signum, _cancel)
    sinks: dict[int, IO[bytes] | None] = {proc.stdout.fileno(): stdout,
                                          proc.stderr.fileno(): stderr}
    body = 0
    timed_out = False
    ended_at: float | None = None
    selector = selectors.DefaultSelector()
    try:
        selector.register(proc.stdout, selectors.EVENT_READ)
        selector.register(proc.stderr, selectors.EVENT_READ)
        open_pipes = 2
        while open_pipes:
            now = time.monotonic()
            if ended_at is None and proc.poll() is not None:
                ended_at = now
            if deadline is not None and ended_at is None and now >= deadline:
                _kill_group(proc)
                timed_out = True
                deadline = None
            if ended_at is not None and now - ended_at > grace:
                break
            wait = 0.25 if deadline is None else max(0.0, min(0.25, deadline - now))
            for key, _ in selector.select(wait):
                fd = key.fd
                chunk = os.read(fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    open_pipes -= 1
                    continue
                body += len(chunk)
                sink = sinks[fd]
                if sink is not None:
                    try:
                        sink.write(chunk)
                        sink.flush()
                    except (BrokenPipeError, ValueError, OSError):
                        sinks[fd] = None  # keep counting, stop forwarding
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                returncode = proc.wait(timeout=remaining)
                break
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                timed_out = True
                deadline = None
        if ended_at is None:
            ended_at = time.monotonic()
    finally:
        if proc.poll() is None:
            _kill_group(proc)
            proc.wait()
        selector.close()
        proc.stdout.close()
        proc.stderr.close()
        for signum, previous in handlers.items():
            signal.signal(signum, previous)
    wall = round(ended_at - start, 3)
    if returncode < 0:
        return outcome.ProcessResult(None, -returncode, timed_out, body, wall)
    return outcome.ProcessResult(returncode, None, timed_out, body, wall)


# --- what is stamped ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prepared:
    """One property's inputs, read before the run."""

    prop: Property
    root: Path
    card: dict[str, Any]
    fixture_hash: str
    pin: hashing.Pin | None
    pin_path: str | None
    #: The manifest's ``location`` with its path made relative to the repository root.
    location: dict[str, Any] | None = None

    def still_same(self) -> bool:
        """Do the card, fixtures and sampler output still hold the bytes read before the run?"""
        try:
            card = records.load_card(self.prop.card)
            same = card == self.card and hashing.fixture_hash(
                list(self.prop.fixtures), self.root, card) == self.fixture_hash
            if same and self.pin is not None and self.prop.sample is not None:
                same = hashing.pin(self.prop.sample).fixture_sha256 == self.pin.fixture_sha256
        except GateInputError:
            return False
        return same


def _posix(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def repository_root(start: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The repository ``start`` is in: the nearest folder at or above it holding ``.git`` (a
    folder, or a file in a worktree or submodule); else ``$GITHUB_WORKSPACE`` when ``start``
    is inside it; else None."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    workspace = (os.environ if env is None else env).get("GITHUB_WORKSPACE", "").strip()
    if workspace:
        base = Path(workspace).resolve()
        if here == base or base in here.parents:
            return base
    return None


def repository_path(prop: Property, root: Path,
                    env: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The manifest's ``location`` as GitHub needs it: its path relative to the repository
    root (annotations and links name repository paths), whatever the stamping root is. Outside
    any repository the path stays relative to the stamping root, as written."""
    if prop.location is None:
        return None
    location = dict(prop.location)
    if prop.location_file is None:
        return location
    repo = repository_root(root, env)
    if repo is not None:
        try:
            location["path"] = prop.location_file.resolve().relative_to(repo).as_posix()
        except ValueError:
            raise GateInputError(str(prop.location_file), "location.path",
                                 f"test {prop.test_id!r}: the file is outside the repository "
                                 f"{repo}") from None
    return location


def prepare(prop: Property, root: Path, store: Path | None) -> Prepared:
    card = records.load_card(prop.card)
    value = hashing.fixture_hash(list(prop.fixtures), root, card)
    pin: hashing.Pin | None = None
    pin_path: str | None = None
    if prop.sample is not None:
        pin = hashing.pin(prop.sample, store)
        pin_path = pin.fixture_path if pin.fixture_path is not None else _posix(prop.sample, root)
    return Prepared(prop, root, card, value, pin, pin_path, repository_path(prop, root))


def new_run_id() -> str:
    return secrets.token_hex(8)


#: Bounds of the ``failure`` object's strings (``schemas/stamp.schema.json``).
FAILURE_BOUNDS = {"type": 200, "message": 2000, "example": 4000, "reproduce": 1000}


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


def build_stamp(
    prepared: Prepared,
    *,
    server_class: str,
    run_id: str,
    decided: outcome.Outcome,
    proc: outcome.ProcessResult,
    source: str,
    written_at: int,
    ran: bool,
    hypothesis: dict[str, Any] | None = None,
    failure: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The stamp for one property, validated against its schema (and its own card)."""
    card = prepared.card
    stamp: dict[str, Any] = {
        "run_id": run_id,
        "test_id": prepared.prop.test_id,
        "server_class": server_class,
        "fixture_hash": prepared.fixture_hash,
        "sample_card": card,
        "outcome": decided.outcome,
        "freeze_expires_at": card.get("freeze_expires_at"),
        "source": source,
        "written_at": written_at,
        "gate_version": __version__,
    }
    if prepared.pin is not None:
        stamp["fixture_sha256"] = prepared.pin.fixture_sha256
        if prepared.pin_path:
            stamp["fixture_path"] = prepared.pin_path
    if ran or proc.exit_code is not None:
        stamp["exit_code"] = proc.exit_code
    if proc.signal is not None:
        stamp["signal"] = proc.signal
    if proc.body_bytes is not None:
        stamp["body_bytes"] = proc.body_bytes
    if proc.wall_seconds is not None:
        stamp["wall_seconds"] = proc.wall_seconds
    if ran or proc.timed_out:
        stamp["timed_out"] = proc.timed_out
    if decided.note:
        stamp["note"] = decided.note
    if prepared.location is not None:
        stamp["location"] = dict(prepared.location)
    if hypothesis is not None:
        stamp["hypothesis"] = dict(hypothesis)
    if failure is not None:
        stamp["failure"] = bounded_failure(failure)
    return records.check_stamp(stamp, f"stamp {run_id} for {prepared.prop.test_id!r}")


def decide_cases(
    prepared: Sequence[Prepared],
    cases: Sequence[Any] | None,
    *,
    proc: outcome.ProcessResult,
    timeout_codes: Collection[int],
    collected: Any = None,
    manifest: str | None = None,
) -> list[outcome.Outcome]:
    """The outcome of every property of one pytest session from its testcases
    (:class:`gate.testrun.cases.Case`): the one decide path of both pytest routes (the plugin
    in-process, the recorder through ``gate stamp --pytest``). ``cases`` None: the session
    wrote none. ``collected`` (:class:`gate.testrun.cases.Collected`) tells a deselected or
    unreached test from a selector typo, which is bad input naming the ``manifest`` entry
    (exit 2): every property is decided before any stamp is built, so a typo writes none."""
    from gate.testrun import cases as folded

    decisions = []
    for index, item in enumerate(prepared):
        try:
            decided = folded.decide(cases, item.prop.junit_classname, item.prop.junit_name,
                                    proc, tuple(timeout_codes), collected)
        except outcome.SelectorTypo as typo:
            place = place_of(manifest, index, item.prop)
            raise GateInputError(place[0], place[1], typo.message) from None
        if not item.still_same():
            decided = outcome.Outcome(outcome.RESOURCE_EXIT, 0,
                                      "the card, fixtures or sampler output changed during "
                                      "the run")
        decisions.append(decided)
    return decisions


def build_from_cases(
    prepared: Sequence[Prepared],
    run_ids: Sequence[str],
    cases: Sequence[Any] | None,
    decisions: Sequence[outcome.Outcome],
    *,
    proc: outcome.ProcessResult,
    server_class: str,
    source: str,
    written_at: int,
) -> list[dict[str, Any]]:
    """The stamps of one pytest session, one per property, from its testcases and the
    :func:`decide_cases` decisions (both pytest routes)."""
    from gate.testrun import cases as folded

    built = []
    for item, run_id, decided in zip(prepared, run_ids, decisions, strict=True):
        matches = (folded.lookup(cases, item.prop.junit_classname, item.prop.junit_name)
                   if cases is not None else [])
        one = matches[0] if len(matches) == 1 else None
        built.append(build_stamp(
            item, server_class=server_class, run_id=run_id, decided=decided, proc=proc,
            source=source, written_at=written_at, ran=True,
            hypothesis=one.hypothesis if one else None, failure=one.failure if one else None))
    return built


# --- one run in, stamps out ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Request:
    """Everything ``gate stamp`` was asked to do, in either mode."""

    properties: Sequence[Property]
    server_class: str
    out: Path
    root: Path
    run_ids: Sequence[str]
    timeout_codes: Collection[int]
    junit_path: Path | None = None
    store: Path | None = None
    command: Sequence[str] | None = None
    timeout: float | None = None
    recorded: outcome.ProcessResult | None = None
    assertion_failed: bool = False
    #: The manifest the properties came from (named when a junit selector is a typo).
    manifest: str | None = None
    #: The command runs pytest: load the gate's recorder into it (no JUnit report).
    pytest_recorder: bool = False
    #: With ``pytest_recorder``: which collected tests run (one of :data:`TESTS`).
    tests: str = "gated"


def selector_place(request: Request, index: int) -> tuple[str, str]:
    """Where property ``index``'s JUnit selector was written: (file, field) for an error."""
    return place_of(request.manifest, index, request.properties[index])


def place_of(manifest: str | None, index: int, prop: Property) -> tuple[str, str]:
    """(file, field) of property ``index``'s selector: the manifest entry, or the flags."""
    if manifest is not None:
        return manifest, f"properties.{index}.junit (test {prop.test_id!r})"
    flags = "--junit-name" if prop.junit_name != prop.test_id else "--test-id/--junit-name"
    return "gate stamp", ("--junit-classname/" if prop.junit_classname else "") + flags


def decide_junit(proc: outcome.ProcessResult, timeout_codes: Collection[int], *,
                 classname: str | None, name: str, statuses: Sequence[str],
                 names: Sequence[tuple[str, str]], report_has_red: bool, seen: str,
                 hypothesis_errors: Sequence[str], place: tuple[str, str],
                 collection_errors: Sequence[str] = ()) -> outcome.Outcome:
    """:func:`gate.decide.outcome.from_junit` for one property of a written report (every
    route: ``gate stamp --junit``, the pytest plugin), with a selector typo made bad input
    (exit 2) naming ``place``: the manifest file and entry, or the flags."""
    try:
        return outcome.from_junit(proc, timeout_codes, report_found=True, matches=statuses,
                                  report_has_red=report_has_red, classname=classname,
                                  name=name, names=names, seen=seen,
                                  hypothesis_errors=hypothesis_errors,
                                  collection_errors=collection_errors)
    except outcome.SelectorTypo as typo:
        raise GateInputError(place[0], place[1], typo.message) from None


def _decide(request: Request, proc: outcome.ProcessResult, report: junit.Report | None,
            index: int) -> outcome.Outcome:
    prop = request.properties[index]
    if request.junit_path is None:
        return outcome.from_process(proc, request.timeout_codes, request.assertion_failed)
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


def stamp_run(
    request: Request,
    stdout: IO[bytes] | None = None,
    stderr: IO[bytes] | None = None,
    *,
    written_at: int | None = None,
) -> list[tuple[Path, dict[str, Any]]]:
    """Read inputs, run (or take the recorded run), decide, validate and write every stamp."""
    if (request.command is None) == (request.recorded is None):
        raise GateInputError("gate stamp", "(usage)",
                             "give either -- COMMAND [ARG...] or --exit-code N")
    if len(request.run_ids) != len(request.properties) or len(set(request.run_ids)) != len(
            request.run_ids):
        raise GateInputError("gate stamp", "--run-id", "one distinct run id per property")
    targets = [request.out / f"{run_id}.json" for run_id in request.run_ids]
    for target in targets:
        if lexists(target):
            raise GateInputError(str(target), "(file)", "already exists; never overwritten")
    prepared = [prepare(p, request.root, request.store) for p in request.properties]
    if request.pytest_recorder:
        if request.command is None or request.junit_path is not None:
            raise GateInputError("gate stamp", "--pytest",
                                 "needs -- COMMAND and no --junit (the recorder reports)")
        import sys

        return _write_all(targets, _recorder_run(
            request, prepared, stdout if stdout is not None else sys.stdout.buffer,
            stderr if stderr is not None else sys.stderr.buffer,
            int(time.time()) if written_at is None else written_at))
    if request.command is not None:
        if request.junit_path is not None and lexists(request.junit_path):
            raise GateInputError(str(request.junit_path), "--junit",
                                 "exists before the command ran; remove it (a stale report "
                                 "must never stamp a green)")
        import sys

        proc = run_command(request.command, request.timeout,
                           stdout if stdout is not None else sys.stdout.buffer,
                           stderr if stderr is not None else sys.stderr.buffer)
    else:
        assert request.recorded is not None
        proc = request.recorded
    report = junit.load(request.junit_path) if request.junit_path is not None else None
    source = "junit" if request.junit_path is not None else (
        "command" if request.command is not None else "recorded")
    when = int(time.time()) if written_at is None else written_at
    built: list[dict[str, Any]] = []
    decisions = [_decide(request, proc, report, index) for index in range(len(prepared))]
    for item, run_id, decided in zip(prepared, request.run_ids, decisions, strict=True):
        if request.command is not None and not item.still_same():
            decided = outcome.Outcome(outcome.RESOURCE_EXIT, 0,
                                      "the card, fixtures or sampler output changed during "
                                      "the run")
        built.append(build_stamp(item, server_class=request.server_class, run_id=run_id,
                                 decided=decided, proc=proc, source=source, written_at=when,
                                 ran=request.command is not None))
    return _write_all(targets, built)


def _write_all(targets: Sequence[Path], built: Sequence[dict[str, Any]]
               ) -> list[tuple[Path, dict[str, Any]]]:
    written: list[tuple[Path, dict[str, Any]]] = []
    for target, stamp in zip(targets, built, strict=True):
        write_once(target, canonical_json(stamp) + b"\n")
        written.append((target, stamp))
    return written


# --- the recorder route: the gate's recorder inside the user's pytest ---------------------------

RECORDER_SOURCE = "pytest-recorder"
#: Which collected tests the recorder runs (``gate stamp --tests``, the action's ``tests``):
#: only those a manifest property selects (the default), or every one.
TESTS = ("gated", "all")
#: What to do when the recorder did not load, for the one-line error.
RECORDER_FIX = ("the gate's recorder never loaded into pytest: the command must run pytest "
                "with the environment it was given (PYTEST_ADDOPTS carries -p "
                "gate.testrun.recorder, PYTHONPATH the gate's package, GATE_RECORDER_* the "
                "files; tox: pass_env = PYTEST_ADDOPTS PYTHONPATH GATE_RECORDER_*; nox: keep "
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
    return _posix(prepared.prop.card, repo if repo is not None else prepared.root)


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


def recorder_env(private: Path, plan: Path, results: Path,
                 environ: Mapping[str, str]) -> dict[str, str]:
    """The command's environment: ``PYTEST_ADDOPTS`` (the user's value kept, ours appended)
    loads the recorder; ``PYTHONPATH`` starts with a private folder holding only a link to
    the gate's package (never the action's whole checkout: its ``tests`` would shadow the
    user's)."""
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
    env[cases.ENV_RESULTS] = str(results)
    return env


def read_results(results: Path, manifest: str | None = None
                 ) -> tuple[list[Any], Any] | None:
    """The recorder's testcases and what it collected (``schemas/recorder-results.schema.json``),
    or None when it wrote none; card conflicts are bad input (exit 2, no stamps), named on the
    manifest's ``properties`` (their sample cards), where the fix goes."""
    from gate.records import schemas
    from gate.records.files import read_json
    from gate.testrun.cases import Case, Collected

    if not lexists(results):
        return None
    record = read_json(results)
    schemas.validate("recorder-results", record, str(results))
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


def _recorder_run(request: Request, prepared: Sequence[Prepared], stdout: IO[bytes],
                  stderr: IO[bytes], when: int) -> list[dict[str, Any]]:
    import shutil
    import tempfile

    assert request.command is not None
    plan = recorder_plan(prepared, request.tests)
    private = Path(tempfile.mkdtemp(prefix="gate-recorder-"))
    try:
        plan_path, results = private / "plan.json", private / "results.json"
        write_once(plan_path, canonical_json(plan) + b"\n")
        env = recorder_env(private, plan_path, results, os.environ)
        proc = run_command(request.command, request.timeout, stdout, stderr, env=env)
        marker = Path(f"{results}.loaded")
        sessions = (len(read_bytes_capped(marker, 1 << 20).splitlines())
                    if lexists(marker) else 0)
        if sessions > 1:
            raise GateInputError("the test command", "(pytest)",
                                 f"it ran {sessions} pytest sessions with the recorder; the "
                                 "gate stamps one session (run the gated tests in one pytest "
                                 "command, or stamp each in its own step)")
        killed = proc.timed_out or proc.signal is not None
        if sessions == 0 and not killed:
            raise GateInputError("the test command", "(pytest)", RECORDER_FIX)
        got = read_results(results, request.manifest) if sessions else None
    finally:
        shutil.rmtree(private, ignore_errors=True)
    cases = got[0] if got else None
    decisions = decide_cases(prepared, cases, proc=proc, timeout_codes=request.timeout_codes,
                             collected=got[1] if got else None, manifest=request.manifest)
    return build_from_cases(prepared, request.run_ids, cases, decisions, proc=proc,
                            server_class=request.server_class, source=RECORDER_SOURCE,
                            written_at=when)


def manifest_run_ids(count: int, prefix: str | None) -> list[str]:
    """Per-stamp run ids for a manifest run: random, or ``PREFIX.N`` (N = 1-based position)."""
    if prefix is None:
        return [new_run_id() for _ in range(count)]
    return [f"{prefix}.{n}" for n in range(1, count + 1)]
