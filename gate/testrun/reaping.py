"""Nothing the sealed command starts outlives it (issue 27, the ``process`` level).

While the command runs, the gate is a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``): a
descendant whose parent exits (a double fork, a ``setsid`` daemon) is re-parented to the gate,
not to the system's init, so it stays below the gate in the process tree. After the command
ends (normally, by the timeout or by an interrupt) :func:`reap` walks ``/proc`` for every
process below the gate (but the gate's own other children), stops each one it finds
(SIGSTOP: a stopped process forks no more, so a fork loop cannot win the race), repeats until a
pass finds no process it has not stopped, then kills them all (SIGKILL) and waits until none is
left; each one killed is named (:class:`Killed`) for the log. When the command runs in its own
PID namespace, its processes are still below the gate in this walk, and killing the
namespace's init ends the rest (the kernel's rule).

Linux only: elsewhere (no ``/proc``, no ``prctl``) :func:`subreaper` says so and the caller
kills the command's process group as before.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator

from gate.decide.frozen import FrozenValue
from gate.errors import GateInputError

#: ``prctl`` options (linux/prctl.h).
PR_GET_DUMPABLE = 3
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
#: How long killed processes may take to be gone (a process in uninterruptible sleep).
GONE_WITHIN = 10.0
#: The longest command line shown per killed process, in characters.
SHOWN_CHARS = 200


class Killed(FrozenValue):
    """A process the command left running, killed: its id and its command line, escaped."""

    __slots__ = ("pid", "command_line")  # noqa: RUF023 - field order
    pid: int
    command_line: str

    def __init__(self, pid: int, command_line: str) -> None:
        self._set(pid=pid, command_line=command_line)

    def log_line(self) -> str:
        """One log line naming it (printable ASCII, never a workflow command)."""
        return (f"agent-patch gate: killed pid {self.pid}, left running by the command: "
                f"{self.command_line}")


def _prctl(option: int, value: int = 0) -> int | None:
    """``prctl(option, value)``'s result, None where there is no ``prctl``."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        call = libc.prctl
    except (OSError, AttributeError):
        return None
    if option == PR_GET_DUMPABLE:
        got_value: int = call(option, 0, 0, 0, 0)
        return got_value if got_value >= 0 else None
    if option == PR_GET_CHILD_SUBREAPER:
        got = ctypes.c_int(0)
        if call(option, ctypes.byref(got), 0, 0, 0) != 0:
            return None
        return got.value
    if call(option, ctypes.c_ulong(value), 0, 0, 0) != 0:
        return None
    return 0


def can_reap() -> bool:
    """Can this system hold the command's descendants below the gate (Linux: ``/proc`` and
    ``prctl``)?"""
    return os.path.isdir("/proc/self/task") and _prctl(PR_GET_CHILD_SUBREAPER) is not None


@contextlib.contextmanager
def subreaper() -> Iterator[frozenset[int]]:
    """While the block runs, the gate is a child subreaper, and not dumpable: a process of its
    user that is not root can then open nothing under ``/proc/GATE`` (its environment, its
    memory, its descriptors: the runner's output pipe), where the kernel applies ptrace's
    rules (``PR_SET_DUMPABLE`` 0; the command's own processes are dumpable again from their
    ``execve``). Both settings are restored after. Yields the gate's children from before
    the block: theirs are not the command's, and :func:`reap` spares them."""
    before = _prctl(PR_GET_CHILD_SUBREAPER)
    dumpable = _prctl(PR_GET_DUMPABLE)
    spared = children_now()
    if before is not None:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
    if dumpable:
        _prctl(PR_SET_DUMPABLE, 0)
    try:
        yield spared
    finally:
        if dumpable:
            _prctl(PR_SET_DUMPABLE, dumpable)
        if before is not None and not before:
            _prctl(PR_SET_CHILD_SUBREAPER, 0)


def _stat(pid: int) -> tuple[int, str] | None:
    """A process's parent and state from ``/proc/PID/stat``; None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    rest = raw[raw.rfind(b")") + 2:].split()  # the name may hold spaces and parentheses
    if len(rest) < 2:
        return None
    return int(rest[1]), rest[0].decode("ascii", "replace")


def _table() -> dict[int, tuple[int, str]]:
    """Every process's parent and state, from ``/proc``."""
    table: dict[int, tuple[int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if name.isdigit():
            got = _stat(int(name))
            if got is not None:
                table[int(name)] = got
    return table


def _children(parent: int, table: dict[int, tuple[int, str]]) -> list[int]:
    return [pid for pid, (ppid, _) in table.items() if ppid == parent]


def _kids(pid: int) -> list[int] | None:
    """A process's children from ``/proc/PID/task/*/children`` (one read per thread: quick
    enough to catch a process that forks and exits in a loop); None where the kernel has no
    such file."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    kids: list[int] = []
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as handle:
                kids += [int(word) for word in handle.read().split()]
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{tid}"):
                continue  # the thread ended
            return None
        except OSError:
            continue
    return kids


def below(me: int, spared: frozenset[int]) -> list[int]:
    """Every process below ``me`` (its children, theirs, ...), but ``spared`` and those below
    them; from the children files where the kernel has them, else from a scan of ``/proc``."""
    first = _kids(me)
    table: dict[int, list[int]] | None = None
    if first is None:
        table = {}
        for pid, (ppid, _) in _table().items():
            table.setdefault(ppid, []).append(pid)
        first = table.get(me, [])
    found: list[int] = []
    todo = [pid for pid in first if pid not in spared]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(table.get(pid, []) if table is not None else _kids(pid) or [])
    return found


def children_now() -> frozenset[int]:
    """This process's children now."""
    me = os.getpid()
    kids = _kids(me)
    return frozenset(kids if kids is not None else _children(me, _table()))


def shown_command_line(raw: bytes) -> str:
    """A command line (``/proc/PID/cmdline``, NUL-separated) as printable ASCII: words split by
    spaces, every other byte outside ``!``..``~`` and every backslash as ``\\xNN``, ``##[``
    defused; at most :data:`SHOWN_CHARS` characters."""
    words = [w for w in raw.split(b"\0") if w] or [b"(no command line)"]
    text = " ".join("".join(chr(b) if 0x21 <= b <= 0x7E and b != 0x5C else f"\\x{b:02x}"
                            for b in word) for word in words)
    text = text.replace("##[", "##\\x5b")
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def _command_line(pid: int) -> str | None:
    """What to name a process by; None when it has ended (a zombie has no command line)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read(4096)
    except OSError:
        return None
    return shown_command_line(raw) if raw else None


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signum)


def _wait(pid: int) -> None:
    """Reap ``pid`` when it is an ended child of this process (not a child: nothing)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def reap(spared: frozenset[int] = frozenset(), *, within: float = GONE_WITHIN) -> list[Killed]:
    """Stop, kill and wait for every process below this one but ``spared`` (and theirs),
    until a pass finds none; the ones killed, in the order found. Processes still there after
    ``within`` seconds are bad input (exit 2, no stamps): the gate cannot promise they are
    gone."""
    me = os.getpid()
    found: dict[int, str | None] = {}  # None: ended already (a zombie), so not killed
    deadline = time.monotonic() + within
    while True:  # stop every one: a stopped process starts no other
        new = [pid for pid in below(me, spared) if pid not in found]
        if not new:
            break
        for pid in new:
            _signal(pid, signal.SIGSTOP)
        for pid in new:
            found[pid] = _command_line(pid)
            _wait(pid)  # an ended child (a fork loop leaves one per turn): gone now
        _give_up(deadline, within, new, found)
    while True:  # kill, and wait for the ones re-parented to this one, until none is left
        left = below(me, spared)
        if not left:
            break
        for pid in left:
            if pid not in found:  # started before its parent was stopped: caught now
                _signal(pid, signal.SIGSTOP)
                found[pid] = _command_line(pid)
            _signal(pid, signal.SIGKILL)
            _wait(pid)
        _give_up(deadline, within, left, found)
        time.sleep(0.001)
    return [Killed(pid, line) for pid, line in found.items() if line is not None]


def _give_up(deadline: float, within: float, left: list[int],
             found: dict[int, str | None]) -> None:
    if time.monotonic() <= deadline:
        return
    shown = ", ".join(f"pid {pid} ({found.get(pid) or '?'})" for pid in left[:5])
    raise GateInputError("the command", "(processes)",
                         f"{len(left)} process(es) it left running could not be stopped and "
                         f"killed within {within:g} s (a fork loop?): {shown}; no stamps "
                         "written")
