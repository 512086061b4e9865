"""Part of a job in a forked child process, on another core.

Used where per-file Python work dominates (hashing many small files, loading many stamps) and
threads would only take turns on the GIL. The child runs one function that returns bytes and
exits; the parent reads them from a pipe. A bad-input error in the child comes back as the same
:class:`~gate.errors.GateInputError`; a child that fails for any other reason yields ``None``
and the caller does that part itself, so the result never depends on the child, only the time.
"""

from __future__ import annotations

import os
import sys

from gate.errors import GateInputError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (``gate hash`` start-up: no typing, no dataclasses)
    from collections.abc import Callable, Iterator


def can_fork() -> bool:
    """Forking a process that runs other threads can deadlock the child: never do it then.
    (A process that never imported ``threading`` started no thread through it.)"""
    threading = sys.modules.get("threading")
    return (hasattr(os, "fork") and sys.platform != "darwin"
            and (threading is None or threading.active_count() == 1))


class Child:
    """A started child: its process id and the pipe its bytes come on."""

    __slots__ = ("pid", "read_fd")

    def __init__(self, pid: int, read_fd: int) -> None:
        self.pid = pid
        self.read_fd = read_fd


def start(work: Callable[[], bytes]) -> Child:
    """Run ``work`` in a forked child; collect it with :func:`join` or end it with
    :func:`abandon`."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child process (coverage does not follow)
        os.close(read_fd)
        code = 0
        try:
            try:
                message = b"K" + work()
            except GateInputError as exc:
                import json

                message = b"E" + json.dumps([exc.source, exc.field, exc.message]).encode()
            view = memoryview(message)
            while view:
                view = view[os.write(write_fd, view):]
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    return Child(pid, read_fd)


def join(child: Child) -> bytes | None:
    """The child's bytes; its GateInputError raised here; None if it failed otherwise."""
    data = bytearray()
    try:
        while chunk := os.read(child.read_fd, 1 << 20):
            data += chunk
    finally:
        os.close(child.read_fd)
        _, status = os.waitpid(child.pid, 0)
    if status == 0 and data[:1] == b"E":
        import json

        source, field, message = json.loads(data[1:])
        raise GateInputError(source, field, message)
    if status == 0 and data[:1] == b"K":
        return bytes(data[1:])
    return None


def abandon(child: Child) -> None:
    """End a child whose result is no longer wanted (an error came first), and reap it."""
    import contextlib
    import signal

    with contextlib.suppress(OSError):
        os.close(child.read_fd)
    with contextlib.suppress(OSError):
        os.kill(child.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(child.pid, 0)


def spare_core() -> bool:
    """Whether the 1-minute load average (this process included) leaves at least half a core
    idle for a child. Where forking costs real work of its own (copy-on-write copies of every
    page either process then writes, the result sent back), a child on a machine with no idle
    core only adds that work: ``gate classify --stamps`` of 100,000 stamps at load 2.3-3.1 on 2
    cores took 7.8 s (median of 5) deciding with a child against 6.9 s without."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    try:
        return cores > 1 and os.getloadavg()[0] < cores - 0.5
    except (AttributeError, OSError):  # pragma: no cover - no load average here
        return False


#: 4 bytes a chunk number, all written before anyone reads: 128 numbers fill 512 bytes, the
#: least PIPE_BUF POSIX allows (a Linux pipe holds 64 KiB); the callers use at most 2 x 32.
MAX_SHARED_CHUNKS = 128


def share(chunks: int, mine: Callable[[int], object], theirs: Callable[[int], bytes]
          ) -> dict[int, bytes]:
    """Chunks ``0 .. chunks - 1`` shared between this process and one forked child, each
    claiming the next chunk number from a pipe (a 4-byte read; the kernel gives each number to
    one reader) until none is left, so a core that other work slows down takes fewer: this
    process runs ``mine(i)`` for its claims, the child ``theirs(i)``. Returns the child's bytes
    by chunk number, or nothing when it failed; the caller does every chunk missing from
    both. A GateInputError of either process is raised here (the child's once this process
    has run out of chunks). At most :data:`MAX_SHARED_CHUNKS`: every number is written into
    the pipe before anyone reads it, so more than its buffer holds would block here forever."""
    if not 0 <= chunks <= MAX_SHARED_CHUNKS:
        raise ValueError(f"share: {chunks} chunks, at most {MAX_SHARED_CHUNKS}")
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, b"".join(i.to_bytes(4, "big") for i in range(chunks)))
    finally:
        os.close(write_fd)

    def claimed() -> Iterator[int]:
        while number := os.read(read_fd, 4):
            yield int.from_bytes(number, "big")

    def work() -> bytes:
        out = bytearray()
        for index in claimed():
            data = theirs(index)
            out += index.to_bytes(4, "big") + len(data).to_bytes(8, "big") + data
        return bytes(out)

    try:
        child = start(work)
        try:
            for index in claimed():
                mine(index)
        except BaseException:
            abandon(child)
            raise
        data = join(child)
    finally:
        os.close(read_fd)
    done: dict[int, bytes] = {}
    at = 0
    while data is not None and at + 12 <= len(data):
        index = int.from_bytes(data[at:at + 4], "big")
        length = int.from_bytes(data[at + 4:at + 12], "big")
        done[index] = data[at + 12:at + 12 + length]
        at += 12 + length
    return done
