"""The fixture hashes of one ``gate stamp`` run, taken while the command runs (issue 23).

Every route takes each property's ``gate-fixture-v1`` hash (:func:`gate.records.hashing.
fixture_hash`, the same bytes, the same value) before the command runs and checks after it that
the fixtures did not change during the run (:func:`gate.testrun.stamping.build_all`). Hashing
every file first made the whole hashing time part of the step before any test ran; now:

1. **before the run** (:meth:`FixtureWatch.add`, per property, in the manifest's order): the
   fixture set is listed exactly as :func:`~gate.records.hashing.fixture_hash` lists it (so a
   missing file, a symbolic link, a special file or a name that is not UTF-8 is still bad input
   before anything runs) and every distinct file is ``lstat``-ed once: its device, inode, mode,
   size, ``mtime`` and ``ctime``, in nanoseconds. A file shared by many properties (a project
   module every test imports) is hashed once.
2. :meth:`FixtureWatch.start`: files changed in the last :data:`RACY_NS` before the listing
   (their timestamps could share a clock tick with a change made during the run) are hashed at
   once, before the run; every other file is hashed by a thread while the command runs. After
   reading a file, the thread ``lstat``-s it again: only if nothing changed since the listing are
   these the bytes the file held before the run.
3. **after the run** (:meth:`FixtureWatch.changed`): the set is listed again (a file added,
   removed or replaced is a change) and every file ``lstat``-ed; a file whose status differs
   from the listing's (``ctime`` moves on every write, and no process can set it back), a racy
   file, and a file the thread could not read are hashed again and compared. So the question is
   the one the old code answered by hashing everything twice: do the files hold, after the run,
   the bytes they held before it? One case is answered more strictly: a file written *and
   restored* during the run before the thread read it counts as changed (its bytes before the
   run are not known), and its stamp's ``fixture_hash`` names the bytes the thread read.

A file the thread could not read (unreadable, replaced by a special file) that did not change
during the run is bad input after the run (exit 2, no stamps), as it would have been before.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time

from gate.errors import GateInputError
from gate.records import hashing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    Status = tuple[int, int, int, int, int, int]

#: A file whose ``mtime`` or ``ctime`` is this close to the listing (or later) is hashed before
#: the run and again after it: a change during the run could carry the same timestamp (one
#: clock tick, or a file system that keeps whole seconds).
RACY_NS = 2_000_000_000


def _status(path: bytes) -> Status | None:
    """What a change would move (None: gone)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return _of(info)


def _of(info: os.stat_result) -> Status:
    return (info.st_dev, info.st_ino, info.st_mode, info.st_size, info.st_mtime_ns,
            info.st_ctime_ns)


class FixtureWatch:
    """The fixture sets of one run (one per property), sharing a root."""

    def __init__(self, root: Any, clock: Callable[[], int] = time.time_ns) -> None:
        self._root = root
        self._clock = clock
        self._base = b""
        self._sets: list[tuple[list[Any], list[bytes]]] = []
        self._before: dict[bytes, Status | None] = {}
        self._digests: dict[bytes, tuple[int, bytes]] = {}
        self._failed: dict[bytes, GateInputError] = {}
        self._moved: set[bytes] = set()  # changed between the listing and the thread's read
        self._racy: set[bytes] = set()
        self._pending: list[bytes] = []
        self._thread: threading.Thread | None = None
        self._started = False
        self._after: dict[bytes, bool] | None = None  # name -> same bytes after the run

    def add(self, paths: Sequence[Any]) -> int:
        """List one property's fixture set now (bad input raises here); its index."""
        listed_at = self._clock()
        root_b, names = hashing._collect_names(paths, self._root)
        self._base = root_b if root_b.endswith(b"/") else root_b + b"/"
        for name in names:
            if name not in self._before:
                status = _status(self._base + name)
                self._before[name] = status
                if status is None or max(status[4], status[5]) >= listed_at - RACY_NS:
                    self._racy.add(name)
                self._pending.append(name)
        self._sets.append((list(paths), names))
        return len(self._sets) - 1

    def _hash(self, name: bytes) -> None:
        try:
            self._digests[name] = hashing._digest_path(self._base + name)
        except GateInputError as exc:
            self._failed[name] = exc

    def start(self, background: bool = True) -> None:
        """Hash the racy files now, the rest in a thread (``background``) or now too."""
        if self._started:
            return
        self._started = True
        pending, self._pending = self._pending, []
        rest = []
        for name in pending:
            if name in self._racy or not background:
                self._hash(name)
            else:
                rest.append(name)
        for name in pending:  # a racy file that failed: bad input before the run, as before
            if name in self._failed and (name in self._racy or not background):
                raise self._failed[name]
        if rest:
            self._thread = threading.Thread(target=self._hash_all, args=(rest,),
                                            name="gate-fixture-hash", daemon=True)
            self._thread.start()

    def _hash_all(self, names: list[bytes]) -> None:
        for name in names:
            self._hash_read(name)

    def _hash_read(self, name: bytes) -> None:
        """The thread's read of ``name``: moved unless the file read (its descriptor's
        ``fstat`` after the read: a folder swapped in for the read and back before a path
        ``lstat`` would leave the path's status as listed) and the path both still have the
        listing's status. A file not read is left to :meth:`digest` (its own refusal)."""
        path = self._base + name
        read: list[os.stat_result] = []
        try:
            self._digests[name] = hashing._digest_path(path, read_status=read)
        except (GateInputError, OSError):
            return
        if _of(read[0]) != self._before[name] or _status(path) != self._before[name]:
            self._moved.add(name)

    def finish(self) -> None:
        """Every file hashed (the thread joined)."""
        self.start(background=False)
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def digest(self, index: int, card: dict[str, Any] | None) -> str:
        """Set ``index``'s ``gate-fixture-v1`` hash with ``card`` (the value
        :func:`gate.records.hashing.fixture_hash` gives for the bytes read)."""
        outer = hashlib.sha256(hashing.FORMAT)
        self._records(index, outer)
        outer.update(hashing.encode((), card)[len(hashing.FORMAT):])
        return outer.hexdigest()

    def harness_digest(self, index: int) -> str:
        """Set ``index``'s ``gate-harness-v1`` digest (the value
        :func:`gate.records.hashing.harness_hash` gives for the bytes read)."""
        outer = hashlib.sha256(hashing.HARNESS_FORMAT)
        self._records(index, outer)
        return outer.hexdigest()

    def _records(self, index: int, outer: Any) -> None:
        """Set ``index``'s file records, in name order, into ``outer``."""
        self.finish()
        _, names = self._sets[index]
        for name in names:
            if name not in self._digests:  # the thread could not read it: once more, now
                self._failed.pop(name, None)
                self._hash(name)
                if name in self._failed:
                    raise self._failed[name]
            size, raw = self._digests[name]
            outer.update(b"F" + len(name).to_bytes(8, "big") + name + size.to_bytes(8, "big")
                         + raw)

    def _same_after(self, name: bytes) -> bool:
        """Does ``name`` hold, after the run, the bytes hashed for it?"""
        assert self._after is not None
        if name not in self._after:
            before = self._before[name]
            if (name not in self._racy and name not in self._moved and name in self._digests
                    and before is not None and _status(self._base + name) == before):
                self._after[name] = True
            elif name in self._failed or name not in self._digests:
                self._after[name] = _status(self._base + name) == before and before is not None
            else:
                try:
                    again = hashing._digest_path(self._base + name)
                except GateInputError:
                    self._after[name] = False
                else:
                    self._after[name] = again == self._digests[name] and name not in self._moved
        return self._after[name]

    def changed(self, index: int) -> bool:
        """After the run: did set ``index`` change during it (listing, or any file's bytes)?"""
        self.finish()
        if self._after is None:
            self._after = {}
        paths, names = self._sets[index]
        try:
            _, again = hashing._collect_names(paths, self._root)
        except GateInputError:
            return True
        if again != names:
            return True
        return not all(self._same_after(name) for name in names)
