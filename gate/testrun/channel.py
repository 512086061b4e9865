"""The recorder's channel: how results travel from the user's pytest back to the gate (SPEC §7).

The gate opens a Unix socket pair before it runs the test command; the command inherits one end
(its number in ``GATE_RECORDER_CHANNEL``, passed with ``pass_fds``), the gate keeps the other,
which no child can reach (close-on-exec, never passed, and a socket cannot be reopened through
``/proc/PID/fd``). There is no results file a test could rewrite. The recorder writes one line
of JSON per record (``schemas/recorder-record.schema.json``): ``begin``, then ``started`` and
``finished`` per test as it runs, then ``end``; :func:`gate.testrun.running.run_command` reads
them *while pytest runs*, in the loop that streams its output. On Linux the kernel names the
process that wrote every byte (``SO_PASSCRED``): a record from any process but the session's
is a second writer.

Every record is validated as it arrives and the stream is checked as a whole; the first thing
that disagrees poisons it, and every property of the run is then ``resource_exit`` with a note
naming it (:attr:`ResultsChannel.problem`), never a pass: bytes that are not JSON or break the
schema, a record longer than :data:`RECORD_LIMIT`, a record before ``begin`` or after ``end``,
a second ``begin`` while a session is open, a record from another process, a test started twice
or finished without starting, a test started and never reported. A stream with no ``end``
record is a session that wrote no results (killed, or stopped before its end), as before. The
cross-checks with the process's exit status are :func:`disagreement`.

A ``begin`` is answered with one byte: ``1`` for the command's first session, ``2`` for any
later one (the recorder then refuses to run that session, and the gate refuses the run).
"""

from __future__ import annotations

import contextlib
import socket
import struct
from typing import Any

from gate.errors import GateInputError
from gate.testrun.cases import ENV_CHANNEL

__all__ = ["ENV_CHANNEL", "ResultsChannel", "disagreement"]
#: The longest record (one line) the gate reads; a longer one poisons the stream.
RECORD_LIMIT = 64 << 20
#: The most the gate reads from one stream before it stops listening (and poisons it).
STREAM_LIMIT = 1 << 30
_CHUNK = 1 << 16
_CREDENTIALS = struct.Struct("iII")  # struct ucred: pid, uid, gid
FIRST, LATER = b"1", b"2"


class ResultsChannel:
    """The gate's end of the recorder's channel, and what the stream said."""

    def __init__(self, *, own_pid_namespace: bool = False) -> None:
        #: The command runs in its own PID namespace (:mod:`gate.testrun.isolation`): the pid
        #: a begin record names is the recorder's in there, the kernel names the writer as the
        #: gate sees it; the session is the writer of the begin record.
        self.own_pid_namespace = own_pid_namespace
        self._ours, self._theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.attested = hasattr(socket, "SO_PASSCRED")
        if self.attested:  # the kernel names the writer of every byte (Linux)
            self._ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self._buffer = bytearray()
        self._writers: set[int] = set()  # the processes that wrote the buffered line
        self._read = 0
        self._count = 0
        #: The first thing that disagreed (None: the stream is whole so far).
        self.problem: str | None = None
        #: How many ``begin`` records arrived (the sessions that loaded the recorder).
        self.sessions = 0
        self._pid: int | None = None
        self._begin: dict[str, Any] | None = None
        self._started: set[str] = set()
        self._finished: set[str] = set()
        self._cases: list[Any] = []
        self.end: dict[str, Any] | None = None

    # --- the edges run_command uses ---------------------------------------------------------

    @property
    def child_fd(self) -> int:
        """The end the command inherits (``pass_fds``)."""
        return self._theirs.fileno()

    def fileno(self) -> int:
        return self._ours.fileno()

    def close_child_end(self) -> None:
        """After the command started: only the command (and what it hands on) holds it now."""
        self._theirs.close()

    def close(self) -> None:
        self._theirs.close()
        self._ours.close()

    def on_readable(self) -> bool:
        """Read what arrived; False at the end of the stream (every writer closed it)."""
        writer = None
        try:
            if self.attested:
                data, ancillary, _flags, _address = self._ours.recvmsg(
                    _CHUNK, socket.CMSG_SPACE(_CREDENTIALS.size))
                for level, kind, payload in ancillary:
                    if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                        writer = _CREDENTIALS.unpack(payload[:_CREDENTIALS.size])[0]
            else:
                data = self._ours.recv(_CHUNK)
        except OSError as exc:  # e.g. a writer closed it with the gate's answer unread
            self._poison(f"the stream broke ({exc.strerror or type(exc).__name__})")
            return False
        if not data:
            return False
        self.feed(data, writer)
        return True

    # --- the stream -------------------------------------------------------------------------

    def _poison(self, problem: str) -> None:
        if self.problem is None:
            self.problem = f"the recorder's channel: {problem}"
        self._buffer.clear()

    def feed(self, data: bytes, writer: int | None) -> None:
        """Bytes one process wrote (``writer``: its pid as the kernel names it, or None)."""
        self._read += len(data)
        if self.problem is not None:
            return  # drained, never read: the writer must not block on a full socket
        if self._read > STREAM_LIMIT:
            self._poison(f"more than {STREAM_LIMIT} bytes")
            return
        start = 0
        while self.problem is None:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if piece or end >= 0:
                if writer is not None:
                    self._writers.add(writer)
                self._buffer += piece
            if len(self._buffer) > RECORD_LIMIT:
                self._poison(f"record {self._count + 1} is longer than {RECORD_LIMIT} bytes")
                return
            if end < 0:
                return
            line, writers = bytes(self._buffer), set(self._writers)
            self._buffer.clear()
            self._writers.clear()
            self._line(line, writers)
            start = end + 1

    def _line(self, line: bytes, writers: set[int]) -> None:
        from gate.records import schemas
        from gate.records.files import parse_json

        self._count += 1
        where = f"record {self._count}"
        try:
            record = parse_json(line, where)
        except GateInputError as exc:
            self._poison(f"{where} is not one line of JSON ({exc.message})")
            return
        try:
            schemas.validate("recorder-record", record, where)
        except GateInputError as exc:
            self._poison(f"{where} breaks schemas/recorder-record.schema.json: {exc.field}: "
                         f"{exc.message}")
            return
        if len(writers) > 1:
            self._poison(f"{where} was written by {len(writers)} processes "
                         f"({', '.join(map(str, sorted(writers)))})")
            return
        writer = next(iter(writers), None)
        kind = record["record"]
        if kind == "begin":
            self._on_begin(where, record, writer)
            return
        if self._begin is None:
            self._poison(f"{where} ({kind}) came before the session's begin record")
            return
        if self.end is not None:
            self._poison(f"{where} ({kind}) came after the session's end record")
            return
        if writer is not None and writer != self._pid:
            self._poison(f"a second writer: {where} ({kind}) was written by process {writer}, "
                         f"not the session's {self._pid}")
            return
        if kind == "started":
            self._on_started(where, record["nodeid"])
        elif kind == "finished":
            self._on_finished(where, record["nodeid"], record["cases"])
        else:
            self._on_end(record)

    def _on_begin(self, where: str, record: dict[str, Any], writer: int | None) -> None:
        pid = int(record["pid"])
        if self.own_pid_namespace and writer is not None:
            pid = writer
        if writer is not None and writer != pid:
            self._poison(f"a second writer: {where} (begin) names process {pid} but process "
                         f"{writer} wrote it")
            return
        if self._begin is not None and self.end is None:
            self._poison(f"a second writer: {where} is a second begin record while the "
                         f"session of process {self._pid} is still open")
            return
        self.sessions += 1
        self._answer(FIRST if self.sessions == 1 else LATER)
        if self.sessions == 1:
            self._begin, self._pid = record, pid

    def _answer(self, byte: bytes) -> None:
        with contextlib.suppress(OSError):  # gone, or not reading: what it sent is judged
            self._ours.send(byte, socket.MSG_DONTWAIT)

    def _on_started(self, where: str, nodeid: str) -> None:
        if nodeid in self._started:
            self._poison(f"{where}: test {nodeid} started twice")
            return
        self._started.add(nodeid)

    def _on_finished(self, where: str, nodeid: str, cases: list[Any]) -> None:
        if nodeid not in self._started or nodeid in self._finished:
            self._poison(f"{where}: test {nodeid} finished "
                         f"{'twice' if nodeid in self._finished else 'without starting'}")
            return
        self._finished.add(nodeid)
        self._cases += cases

    def _on_end(self, record: dict[str, Any]) -> None:
        missing = sorted(self._started - self._finished)
        if missing:
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            self._poison(f"test {missing[0]}{more} started and never reported")
            return
        self.end = record

    def after_run(self) -> None:
        """At the end of the stream: bytes after the last full line are a cut record."""
        if self.problem is None and self._buffer:
            self._poison(f"record {self._count + 1} was cut off (no end of line)")

    def results(self) -> dict[str, Any] | None:
        """The assembled results (``schemas/recorder-results.schema.json``, validated), or
        None when the session never reached its end record (or never began). Only for a
        stream that is whole (:attr:`problem` None)."""
        from gate.records import schemas

        assert self.problem is None
        if self._begin is None or self.end is None:
            return None
        begin, end = self._begin, self.end
        assembled = {
            "schema": begin["schema"], "gate_version": begin["gate_version"],
            "pytest_version": begin["pytest_version"],
            "hypothesis_version": begin["hypothesis_version"],
            "exit_status": end["exit_status"], "refused": end["refused"],
            "refused_tests": end["refused_tests"], "cases": [*self._cases, *end["cases"]],
            "tampered": end["tampered"], "collected": end["collected"]}
        schemas.validate("recorder-results", assembled, "the recorder's channel")
        return assembled


def disagreement(results: dict[str, Any], exit_code: int | None) -> str | None:
    """What the process's exit status and a whole stream disagree on, or None. Only when the
    command exited by itself (``exit_code`` not None): a kill or timeout is decided as before.
    """
    from gate.testrun.cases import ERROR, FAILURE, Case

    if exit_code is None:
        return None
    cases = [Case.from_record(c) for c in results["cases"]]
    reds = [c for c in cases if c.status in (FAILURE, ERROR)]
    if exit_code == 0 and reds:
        key = reds[0].key
        return (f"the command's exit status 0 disagrees with the recorder's channel, which "
                f"reported a red testcase ({'::'.join(k for k in key if k)})")
    if exit_code == 1 and not reds:
        return ("the command's exit status 1 disagrees with the recorder's channel, which "
                "reported every testcase green")
    if exit_code != results["exit_status"]:
        return (f"the command's exit status {exit_code} disagrees with the recorder's channel, "
                f"whose pytest session ended with exit status {results['exit_status']}")
    return None
