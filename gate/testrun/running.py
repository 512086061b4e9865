"""Running the test command sealed: its own process group, its output streamed through and
counted, a wall-clock limit, and every descendant it leaves killed when it ends or the gate is
interrupted (:mod:`gate.testrun.reaping`; SPEC §3: a killed process, a timeout or an empty body
is never an assertion result). Every route that runs a command runs it here
(:func:`run_command`)."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import FrameType
from typing import IO, Any, Protocol

from gate.decide import outcome
from gate.errors import GateInputError
from gate.records.redaction import Redactor
from gate.testrun import file_commands, reaping, withheld
from gate.testrun.stamping import Request

_CHUNK = 65536


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _cancel(signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


#: What the test command never gets (:func:`gate.testrun.withheld.secret` is the rule; these
#: are the names it withholds by name).
WITHHELD = tuple(sorted(withheld.SECRETS))
command_env = withheld.command_env


class Channel(Protocol):
    """A stream the command writes back on besides its output (the recorder's,
    :class:`gate.testrun.channel.ResultsChannel`): the command inherits ``child_fd``; the
    gate reads the other end in the same loop as the output, while the command runs."""

    @property
    def child_fd(self) -> int: ...

    def fileno(self) -> int: ...

    def close_child_end(self) -> None: ...

    def on_readable(self) -> bool: ...


def run_command(
    argv: Sequence[str],
    timeout: float | None,
    stdout: IO[bytes],
    stderr: IO[bytes],
    *,
    grace: float = 5.0,
    env: Mapping[str, str] | None = None,
    channel: Channel | None = None,
    fence: bool = False,
    stdin: int | None = None,
) -> outcome.ProcessResult:
    """Run ``argv`` sealed: in its own process group, its output streamed through and counted,
    and nothing it started left running after it. Every route runs its command here (the
    test command of ``gate stamp``, the action's install command).

    ``timeout`` is a wall-clock limit: when it passes, the whole process group gets SIGKILL and
    the result has ``timed_out``. If ``gate`` itself is interrupted (SIGINT, SIGTERM, SIGHUP)
    the group is killed and no stamp is written. However the command ends, every process it
    left below the gate (a ``setsid`` daemon, a double fork, a fork loop: the gate is their
    subreaper meanwhile) is stopped, killed and named in the log before this returns
    (:func:`gate.testrun.reaping.reap`), so before any stamp is written; output a descendant
    still held open is drained for at most ``grace`` seconds after. Then the runner's file
    commands must be byte for byte as they were before it, else bad input, no stamps
    (:mod:`gate.testrun.file_commands`). ``fence`` (on a GitHub runner): ``stdout`` gets
    ``::stop-commands::TOKEN`` before the command starts and ``::TOKEN::`` once nothing it
    started is left (:func:`fenced`), so no line it prints is a workflow command; give the
    same sink as ``stdout`` and ``stderr`` then (the runner reads two pipes in no fixed
    order: only one stream keeps the fence around every line). ``channel``: the command
    inherits its ``child_fd`` (and no other descriptor of the gate's); it is read while the
    command runs, and drained with the output. ``stdin``: a descriptor given as the command's
    standard input (the channel, on the sealed routes that lose every other one:
    :mod:`gate.testrun.isolation`), else the gate's own.
    """
    environment = os.environ if env is None else env
    watched = file_commands.snapshot(environment)
    with contextlib.ExitStack() as stack:
        if fence:
            stack.enter_context(fenced(stdout, Redactor.from_env(environment).secrets))
        spared = stack.enter_context(reaping.subreaper()) if reaping.can_reap() else None
        killed: list[reaping.Killed] = []
        try:
            result = _run(argv, timeout, stdout, stderr, grace=grace, env=env, channel=channel,
                          stdin=stdin, reap=lambda: killed.extend(_reap(spared)))
        finally:
            for one in killed:
                print(one.log_line(), file=sys.stderr, flush=True)
    file_commands.check(watched, environment)
    return result


def mask_commands(values: Sequence[str]) -> str:
    """``::add-mask::VALUE`` for each one-line value, escaped as the runner unescapes a
    command's data (so a value is always one command on one line); a multi-line value is
    masked through its lines, which :func:`gate.records.redaction.secret_values` lists."""
    return "".join("::add-mask::" + v.replace("%", "%25").replace("\r", "%0D") + "\n"
                   for v in values if v.strip() and "\n" not in v and "\r" not in v)


@contextlib.contextmanager
def fenced(sink: IO[bytes], masks: Sequence[str] = ()) -> Iterator[None]:
    """The runner's workflow commands stopped while the block runs: ``::stop-commands::TOKEN``
    before, ``::TOKEN::`` after on a line of its own, ``TOKEN`` fresh (``secrets.token_hex``)
    and written only to ``sink`` (the gate's own output, which the command cannot read: the
    gate is not dumpable meanwhile). The gate's own buffered lines go out first.

    ``masks``: secret values of the command's environment (the job's secret-named variables,
    :mod:`gate.records.redaction`), registered with the runner by ``::add-mask::`` before the
    fence, so the command's own output shows them as ``***`` in the log (issue 29: a failing
    assertion on ``os.environ`` prints them; the stamps and every later sink are masked by
    the gate itself)."""
    import secrets

    token = secrets.token_hex(16)
    sys.stdout.flush()
    sys.stderr.flush()
    sink.write(mask_commands(masks).encode("utf-8", "surrogateescape"))
    sink.write(f"::stop-commands::{token}\n".encode("ascii"))
    sink.flush()
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):  # a closed sink: nothing to resume
            sink.write(f"\n::{token}::\n".encode("ascii"))  # after a line left unfinished
            sink.flush()


def _reap(spared: frozenset[int] | None) -> list[reaping.Killed]:
    """What the command left running, killed (nothing where the system cannot reap: there
    the process group was killed)."""
    return [] if spared is None else reaping.reap(spared)


def _run(
    argv: Sequence[str],
    timeout: float | None,
    stdout: IO[bytes],
    stderr: IO[bytes],
    *,
    grace: float,
    env: Mapping[str, str] | None,
    channel: Channel | None,
    stdin: int | None,
    reap: Callable[[], None],
) -> outcome.ProcessResult:
    start = time.monotonic()
    try:
        proc = subprocess.Popen(list(argv), stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True,
                                env=command_env(env),
                                pass_fds=(channel.child_fd,) if channel is not None else ())
    except FileNotFoundError:
        raise GateInputError(argv[0], "(command)", "no such command") from None
    except OSError as exc:
        raise GateInputError(argv[0], "(command)", f"cannot run: {exc.strerror}") from None
    finally:
        if channel is not None:
            channel.close_child_end()
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
    reaped = False
    selector = selectors.DefaultSelector()
    try:
        selector.register(proc.stdout, selectors.EVENT_READ)
        selector.register(proc.stderr, selectors.EVENT_READ)
        open_pipes = 2
        if channel is not None:
            selector.register(channel, selectors.EVENT_READ)
            open_pipes += 1
        while open_pipes:
            now = time.monotonic()
            if ended_at is None and proc.poll() is not None:
                ended_at = now
            if ended_at is not None and not reaped:
                _kill_group(proc)  # the command ended (not yet waited for): what it left goes
                reap()
                reaped = True
            if deadline is not None and ended_at is None and now >= deadline:
                _kill_group(proc)
                timed_out = True
                deadline = None
            if ended_at is not None and now - ended_at > grace:
                break
            wait = 0.25 if deadline is None else max(0.0, min(0.25, deadline - now))
            for key, _ in selector.select(wait):
                if key.fileobj is channel:
                    if not channel.on_readable():
                        selector.unregister(channel)
                        open_pipes -= 1
                    continue
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
        reap()  # again: whatever started while the output drained, or on an interrupt
        selector.close()
        proc.stdout.close()
        proc.stderr.close()
        for signum, previous in handlers.items():
            signal.signal(signum, previous)
    wall = round(ended_at - start, 3)
    if returncode < 0:
        return outcome.ProcessResult(None, -returncode, timed_out, body, wall)
    return outcome.ProcessResult(returncode, None, timed_out, body, wall)


def run_or_recorded(request: Request, stdout: IO[bytes] | None,
                    stderr: IO[bytes] | None) -> outcome.ProcessResult:
    """The request's command, run now; or the run an earlier step recorded (``--exit-code``)."""
    if request.command is None:
        assert request.recorded is not None
        return request.recorded
    argv, env = list(request.command), dict(os.environ)
    if request.seal is not None:  # the level in force (gate.testrun.isolation)
        wrapped = request.seal.wrap(argv, env)
        argv, env = wrapped.argv, wrapped.env
    proc = run_command(argv, request.timeout,
                       stdout if stdout is not None else sys.stdout.buffer,
                       stderr if stderr is not None else sys.stderr.buffer, env=env,
                       fence=request.fence)
    return request.seal.result(proc) if request.seal is not None else proc


#: The Python the tests' venv is made from: the first of these on the command's ``PATH``.
TESTS_PYTHONS = ("python3", "python")


def with_tests_venv(request: Request) -> Request:
    """At ``namespace`` and ``user``, with an install command, when the Python first on the
    command's ``PATH`` is in a folder the seal binds read-only (the tool cache's): the request
    whose seal puts a fresh venv for the tests first on the command's ``PATH``
    (``VIRTUAL_ENV`` too). Inside the
    namespace the tool cache is read-only (setup-python's interpreter, its ``site-packages``
    and its ``bin``), so the shipped ``python -m pip install -r requirements-test.txt``
    installs into this venv instead, and the tests run from it; the interpreter the gate's
    own venv was built from stays read-only, so nothing the install or the tests write there
    can run in a later step. The venv is made, sealed like the install, by the Python first on
    the command's ``PATH`` (``python -I -m venv --system-site-packages --without-pip``: what an
    earlier step installed stays importable, and that Python's pip installs into the venv), in
    a fresh folder under ``RUNNER_TEMP`` (the other user's at ``user``); its output is kept,
    not shown (no fence needed: none of it reaches the runner), and its last line is named
    when it fails. Below ``namespace``, without an install command, without a Python on
    ``PATH`` or with one in a folder the command may write (a venv of the workspace): the
    request unchanged."""
    import io
    import shutil
    import tempfile
    from pathlib import Path

    from gate.records.redaction import Redactor

    seal = request.seal
    if not request.install or seal is None or not seal.namespaced:
        return request
    env = dict(os.environ)
    found = [shutil.which(name, path=env.get("PATH", os.defpath)) for name in TESTS_PYTHONS]
    python = next((f for f in found if f), None)
    if python is None or not seal.reads_only(os.path.dirname(python)):
        return request  # no Python, or one whose folder is writable inside (a venv of the
        # workspace): the install goes where it would without the seal
    folder = Path(tempfile.mkdtemp(prefix="gate-tests-venv-",
                                   dir=env.get("RUNNER_TEMP", "").strip() or None))
    venv = folder / "venv"
    try:
        seal.give(folder)
        wrapped = seal.wrap([python, "-I", "-m", "venv", "--system-site-packages",
                             "--without-pip", str(venv)], env)
        said = io.BytesIO()
        proc = seal.result(run_command(wrapped.argv, None, said, said, env=wrapped.env))
    except BaseException:
        seal.discard(folder)
        raise
    if proc.exit_code != 0 or not (venv / "bin" / "python").exists():
        seal.discard(folder)
        how = (f"was killed by signal {proc.signal}" if proc.signal is not None
               else f"exited {proc.exit_code}")
        lines = said.getvalue().decode("utf-8", "replace").strip().splitlines()
        last = Redactor.from_env(os.environ).text(lines[-1].strip())[:200] if lines else ""
        said_last = f" ({last})" if last else ""
        raise GateInputError(python, "(tests' venv)",
                             f"{python} -m venv {how}{said_last}: the tests' venv "
                             "the install goes into at this isolation level could not be "
                             "made; no stamps written (fix: install the venv module, e.g. "
                             "apt-get install python3-venv, or use setup-python)")
    return request.replace(seal=seal.replace(tests_venv=str(venv)))


def without_tests_venv(request: Request) -> None:
    """Remove the tests' venv :func:`with_tests_venv` made, and the command's own home
    :func:`with_home` made, if any."""
    from pathlib import Path

    if request.seal is not None and request.seal.tests_venv is not None:
        request.seal.discard(Path(request.seal.tests_venv).parent)
    if request.seal is not None and request.seal.home is not None:
        request.seal.discard(Path(request.seal.home))


def with_home(request: Request) -> Request:
    """At ``namespace`` and ``user``: the request whose seal gives the install and the test
    command a ``HOME`` of their own, a fresh empty folder under ``RUNNER_TEMP`` (the other
    user's at ``user``), writable inside the namespace, where the job's home is read-only
    (:func:`gate.testrun.mounts.mount_plan`): caches and configuration a tool writes (pip's
    cache, ``~/.gitconfig``) land there and are removed after the run, so nothing the command
    writes in a home is read or run by a later step. Below ``namespace``: unchanged."""
    import tempfile
    from pathlib import Path

    seal = request.seal
    if seal is None or not seal.namespaced:
        return request
    folder = Path(tempfile.mkdtemp(prefix="gate-home-",
                                   dir=os.environ.get("RUNNER_TEMP", "").strip() or None))
    try:
        seal.give(folder)
    except BaseException:
        seal.discard(folder)
        raise
    return request.replace(seal=seal.replace(home=str(folder)))


def install(request: Request, stdout: IO[bytes], stderr: IO[bytes]) -> None:
    """The request's install command (bash), run sealed as the test command is (the same
    environment rules, reaped, its output fenced, the file commands checked, at the same
    isolation level: :mod:`gate.testrun.isolation`), before it: an install that does not exit
    0 is bad input, no stamps."""
    if not request.install:
        return
    argv, env = ["bash", "-c", request.install], dict(os.environ)
    if request.seal is not None:
        wrapped = request.seal.wrap(argv, env)
        argv, env = wrapped.argv, wrapped.env
    proc = run_command(argv, None, stdout, stderr, env=env, fence=request.fence)
    if request.seal is not None:
        proc = request.seal.result(proc)
    if proc.exit_code != 0:
        how = (f"was killed by signal {proc.signal}" if proc.signal is not None
               else f"exited {proc.exit_code}")
        raise GateInputError("install", "(input)",
                             f"the install command {how} (its output is above); no stamps "
                             "written: fix the install command or the files it installs from")
