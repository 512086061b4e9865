"""Fixture hashing (SPEC §1), format ``gate-fixture-v1``, and sampler-output pinning.

The byte format is written down in docs/formats.md#fixture-hash-format-gate-fixture-v1 so
anyone can recompute it::

    sha256( b"gate-fixture-v1\\n"
            + for each file, ordered by the UTF-8 bytes of its path relative to the root:
                b"F" + u64be(len(path)) + path + u64be(size) + sha256(content)   # 32 raw bytes
            + (b"C" + u64be(len(card)) + card   if a sample card is given, card = canonical JSON
               else b"N") )

Each file is hashed on its own (streamed, so memory does not grow with file size), which lets
many files be hashed on every core; the framing is unambiguous because every variable-length
part is length-prefixed and every digest has a fixed length.

How it is fast (bench/ measures it against OpenSSL): the tree is walked with ``os.scandir`` on
bytes paths (the kernel's file type, no ``stat`` per entry, names are the framed bytes as they
are); each file is opened once and checked with one ``fstat``; a file of up to 64 KiB is read
whole with one ``read`` (a large one is streamed through a reused 1 MiB buffer). A set under
8 MiB is hashed by this thread alone; one large file is read ahead by a second thread while
this one hashes (the page-cache copy runs beside SHA-256). Many files are hashed on every
core: from 1,024 files of up to 1 MiB on average by forked worker processes that claim
batches from a shared pipe and send back their framed records (no GIL shared), otherwise by
threads (``hashlib`` and ``read`` release the GIL). The module imports only ``os``, ``stat``
and OpenSSL's SHA-256 at start-up: ``gate hash`` is timed against ``openssl dgst``.
"""

from __future__ import annotations

import os
import stat

from gate.decide.frozen import FrozenValue
from gate.errors import GateInputError

try:  # OpenSSL's SHA-256, as hashlib.sha256 is, without hashlib's other constructors
    from _hashlib import openssl_sha256 as _sha256
except ImportError:  # pragma: no cover - a Python built without OpenSSL's hashlib
    from hashlib import sha256 as _sha256

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `gate hash` start-up is timed against OpenSSL's
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from pathlib import Path
    from typing import Any

    from gate.records.forked import Child

    PathText = str | os.PathLike[str]

FORMAT = b"gate-fixture-v1\n"
#: The test harness's digest (``harness_sha256``): the same file records, another name, no card.
HARNESS_FORMAT = b"gate-harness-v1\n"
_U64 = 8

#: Files up to this size are read whole with one ``read``; larger ones are streamed.
_WHOLE = 1 << 16
#: The streaming buffer (one per batch of files, reused).
_CHUNK = 1 << 20
#: Files per task handed to a worker thread.
_BATCH = 64
#: From this many files, and up to this average size, the files are hashed by forked worker
#: processes (no GIL shared: the per-file work in Python runs on every core too); larger
#: files go to threads (hashlib and read release the GIL, and a thread pool starts faster).
_FORK_MIN_FILES = 1024
_FORK_MAX_AVG = 1 << 20
#: Batches per worker process (claimed one at a time, so a slowed core takes fewer).
_CLAIMS_PER_WORKER = 16
#: Fewer bytes than this (in fewer files than _FORK_MIN_FILES) are hashed by this thread alone.
_PARALLEL_MIN = 8 << 20
#: Opening a FIFO for reading blocks until a writer appears (gate.records.files.NONBLOCK).
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | _NONBLOCK | getattr(os, "O_CLOEXEC", 0)


class FixtureFile(FrozenValue):
    __slots__ = ("name", "path")
    name: bytes  # path relative to the root, '/'-separated, UTF-8
    path: str  # where to read it

    def __init__(self, name: bytes, path: str) -> None:
        self._set(name=name, path=path)


def _u64(n: int) -> bytes:
    return n.to_bytes(_U64, "big")


def _encode_name(relative: str, source: str) -> bytes:
    try:
        return relative.encode("utf-8")
    except UnicodeEncodeError:
        raise GateInputError(source, "(path)", "file name is not valid UTF-8") from None


def _walk(directory: bytes, prefix: bytes, out: list[bytes]) -> None:
    """Append the names (``prefix`` + relative path) of every file under ``directory``."""
    pending = [(directory, prefix)]
    while pending:
        folder, base = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as exc:
            raise GateInputError(os.fsdecode(folder), "(path)",
                                 f"cannot list: {exc.strerror}") from None
        for entry in entries:
            # is_file/is_dir with follow_symlinks=False are False for a link: the common case
            # costs no system call (the kernel's d_type), links and specials are refused below.
            if entry.is_file(follow_symlinks=False):
                out.append(base + entry.name)
            elif entry.is_dir(follow_symlinks=False):
                pending.append((entry.path, base + entry.name + b"/"))
            elif entry.is_symlink():
                raise GateInputError(os.fsdecode(entry.path), "(path)",
                                     "symbolic link in fixture set refused")
            else:
                raise GateInputError(os.fsdecode(entry.path), "(path)",
                                     "special file in fixture set refused")


def _refuse_linked_parents(rel: str, root_abs: str, source: str) -> None:
    """A folder between the root and a given path must not be a symbolic link either."""
    current = root_abs
    for part in rel.split(os.sep)[:-1]:
        current = os.path.join(current, part)
        if os.path.islink(current):
            raise GateInputError(source, "(path)", "symbolic link in fixture set refused")


def _check_utf8(names: list[bytes], root: bytes) -> None:
    try:
        b"\x00".join(names).decode("utf-8")  # one pass; NUL never occurs in a file name
    except UnicodeDecodeError:
        for name in names:
            try:
                name.decode("utf-8")
            except UnicodeDecodeError:
                raise GateInputError(os.fsdecode(os.path.join(root, name)), "(path)",
                                     "file name is not valid UTF-8") from None


def _collect_names(paths: Sequence[PathText], root: PathText) -> tuple[bytes, list[bytes]]:
    """(absolute root, every file's name relative to it, sorted, no duplicates)."""
    root_abs = os.path.abspath(root)
    if not os.path.isdir(root_abs):
        raise GateInputError(str(root), "(root)", "root is not a directory")
    root_b = os.fsencode(root_abs)
    found: list[bytes] = []
    for given in paths:
        absolute = os.path.abspath(given)
        rel = os.path.relpath(absolute, root_abs)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
            raise GateInputError(str(given), "(path)", f"outside the root {root}")
        _refuse_linked_parents(rel, root_abs, str(given))
        try:
            mode = os.lstat(absolute).st_mode
        except FileNotFoundError:
            raise GateInputError(str(given), "(path)", "no such file or directory") from None
        if stat.S_ISLNK(mode):
            raise GateInputError(str(given), "(path)", "symbolic link in fixture set refused")
        if stat.S_ISDIR(mode):
            prefix = b"" if rel == os.curdir else _encode_name(
                rel.replace(os.sep, "/"), str(given)) + b"/"
            _walk(os.fsencode(absolute), prefix, found)
        elif stat.S_ISREG(mode):
            found.append(_encode_name(rel.replace(os.sep, "/"), str(given)))
        else:
            raise GateInputError(str(given), "(path)", "special file in fixture set refused")
    names = sorted(set(found)) if len(paths) > 1 else sorted(found)
    if not names:
        raise GateInputError(", ".join(str(p) for p in paths) or "(none)", "(path)",
                             "empty fixture set")
    _check_utf8(names, root_b)
    return root_b, names


def collect(paths: Sequence[PathText], root: PathText) -> list[FixtureFile]:
    """Every file under ``paths``, named relative to ``root``, ordered by name; no duplicates."""
    root_b, names = _collect_names(paths, root)
    return [FixtureFile(n, os.fsdecode(os.path.join(root_b, n))) for n in names]


# --- one file -------------------------------------------------------------------------------

#: Streamed files of at least this size, hashed while nothing else runs, are read ahead by a
#: second thread (reading copies from the page cache while SHA-256 runs on the other core).
_READ_AHEAD_MIN = 8 << 20
#: Buffers in the read-ahead ring.
_RING = 3


def _stream(fd: int, digest: Any, total: int, limit: int, buf: bytearray) -> int:
    """Feed the rest of ``fd`` to ``digest`` through ``buf``; stops once past ``limit`` (the
    file grew)."""
    view = memoryview(buf)
    while total <= limit:
        n = os.readv(fd, [buf])
        if not n:
            break
        digest.update(view[:n])
        total += n
    return total


def _stream_read_ahead(fd: int, digest: Any, total: int, limit: int) -> int:
    """:func:`_stream`, with a second thread reading the next buffers while this one hashes.

    The reader fills a ring of buffers (``empty[i]`` held while slot i is being filled or
    waits to be hashed, ``filled[i]`` released once it holds ``sizes[i]`` bytes); both sides
    stop at the same slot (end of file, an error, or past ``limit``). This thread never
    returns before the reader has ended, so ``fd`` is closed only after its last read."""
    import _thread

    bufs = [bytearray(_CHUNK) for _ in range(_RING)]
    sizes = [0] * _RING
    empty = [_thread.allocate_lock() for _ in range(_RING)]
    filled = [_thread.allocate_lock() for _ in range(_RING)]
    for lock in filled:
        lock.acquire()
    done = _thread.allocate_lock()
    done.acquire()
    cancelled: list[bool] = []
    failure: list[OSError] = []

    def reader(got: int) -> None:
        try:
            i = 0
            while True:
                empty[i].acquire()
                if cancelled:
                    return
                try:
                    n = os.readv(fd, [bufs[i]])
                except OSError as exc:
                    failure.append(exc)
                    n = -1
                sizes[i] = n
                filled[i].release()
                got += max(n, 0)
                if n <= 0 or got > limit:
                    return
                i = (i + 1) % _RING
        finally:
            done.release()

    _thread.start_new_thread(reader, (total,))
    try:
        i = 0
        while True:
            filled[i].acquire()
            n = sizes[i]
            if n <= 0:
                break
            digest.update(memoryview(bufs[i])[:n])
            total += n
            empty[i].release()
            if total > limit:
                break
            i = (i + 1) % _RING
    finally:
        cancelled.append(True)
        for lock in empty:  # wake a reader waiting for a slot: it sees `cancelled` and ends
            if lock.locked():  # only this thread releases `empty` locks: no race here
                lock.release()
        done.acquire()
    if failure:
        raise failure[0]
    return total


def _digest_fd(fd: int, source: str | bytes, buf: bytearray | None = None,
               read_ahead: bool = False) -> tuple[int, bytes]:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise GateInputError(os.fsdecode(source), "(file)", "not a regular file")
    size = info.st_size
    if size <= _WHOLE:
        data = os.read(fd, size + 1)  # one more byte than expected: a grown file shows
        if len(data) == size:
            return size, _sha256(data).digest()
        digest = _sha256(data)
        total = len(data)
        if total < size:
            total = _stream(fd, digest, total, size, buf or bytearray(_CHUNK))
    else:
        digest = _sha256()
        if read_ahead and size >= _READ_AHEAD_MIN:
            total = _stream_read_ahead(fd, digest, 0, size)
        else:
            total = _stream(fd, digest, 0, size, buf or bytearray(_CHUNK))
    if total != size:
        raise GateInputError(os.fsdecode(source), "(file)",
                             "file changed while it was being hashed")
    return size, digest.digest()


def _digest_path(path: str | bytes, buf: bytearray | None = None,
                 read_ahead: bool = False,
                 read_status: list[os.stat_result] | None = None) -> tuple[int, bytes]:
    """``read_status``: given, the descriptor's ``fstat`` after the read is appended to it
    (the status of the file read, whatever the path names by then)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise GateInputError(os.fsdecode(path), "(file)",
                             f"cannot open: {exc.strerror}") from None
    try:
        digested = _digest_fd(fd, path, buf, read_ahead)
        if read_status is not None:
            read_status.append(os.fstat(fd))
        return digested
    finally:
        os.close(fd)


def file_digest(path: str) -> tuple[int, bytes]:
    """(size, raw SHA-256) of one regular file, streamed; refuses links (on the way too) and
    special files (:func:`gate.records.files.open_fd`)."""
    from gate.records.files import open_fd

    fd = open_fd(path)
    try:
        return _digest_fd(fd, path)
    finally:
        os.close(fd)


# --- many files -----------------------------------------------------------------------------


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _spare_core(cores: int) -> bool:
    """Whether a core is free for reading ahead: by the 1-minute load average (this process
    included), at least half a core idle. A reader thread on a busy machine waits for a core
    while the hashing thread waits for it (measured: ~20% slower at load 4 on 2 cores, ~8%
    faster at load 1)."""
    try:
        return cores > 1 and os.getloadavg()[0] < cores - 0.5
    except (AttributeError, OSError):  # pragma: no cover - no load average here
        return False


def _frame(root: bytes, names: Sequence[bytes], read_ahead: bool = False) -> bytearray:
    """The framed records (``F`` + name + size + digest) of ``names``, in that order."""
    base = root if root.endswith(b"/") else root + b"/"
    out = bytearray()
    buf = bytearray(_CHUNK)  # one streaming buffer for the batch, reused
    for name in names:
        size, digest = _digest_path(base + name, buf, read_ahead)
        out += b"F" + len(name).to_bytes(8, "big") + name + size.to_bytes(8, "big") + digest
    return out


def _threads(root: bytes, names: list[bytes], count: int) -> Iterator[bytearray]:
    from concurrent.futures import ThreadPoolExecutor

    batches = [names[i:i + _BATCH] for i in range(0, len(names), _BATCH)]
    with ThreadPoolExecutor(max_workers=count) as pool:
        yield from pool.map(lambda batch: _frame(root, batch), batches)


def _claims(batches: int) -> int:
    """The read end of a pipe holding every batch number (4 bytes each) and then its end: a
    process claims the next batch with one 4-byte read (pipe reads are serialised by the
    kernel, so each number goes to exactly one reader), and stops at end of file."""
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, b"".join(i.to_bytes(4, "big") for i in range(batches)))
    finally:
        os.close(write_fd)
    return read_fd


def _claim_frames(root: bytes, batches: list[list[bytes]], claims: int) -> dict[int, bytearray]:
    """Frame the batches this process claims, until none are left."""
    done: dict[int, bytearray] = {}
    while claimed := os.read(claims, 4):
        index = int.from_bytes(claimed, "big")
        done[index] = _frame(root, batches[index])
    return done


def _claimed_bytes(root: bytes, batches: list[list[bytes]],
                   claims: int) -> Callable[[], bytes]:
    """A child's work: its claimed batches as (number, length, framed records) triples."""

    def work() -> bytes:
        out = bytearray()
        for index, framed in _claim_frames(root, batches, claims).items():
            out += index.to_bytes(4, "big") + len(framed).to_bytes(8, "big") + framed
        return bytes(out)

    return work


def _unpack(data: bytes) -> dict[int, bytearray]:
    done: dict[int, bytearray] = {}
    at = 0
    while at < len(data):
        index = int.from_bytes(data[at:at + 4], "big")
        length = int.from_bytes(data[at + 4:at + 12], "big")
        done[index] = bytearray(data[at + 12:at + 12 + length])
        at += 12 + length
    return done


def _forked(root: bytes, names: list[bytes], count: int) -> Iterator[bytearray]:
    """This process and ``count - 1`` forked children take batches from a shared pipe until
    none are left (so a core that other work slows down takes fewer); the records come back
    in name order. A child that fails leaves its batches to this process. On bad input the
    error is the one a single process reports (the first bad file in name order)."""
    from gate.records import forked

    size = max(16, -(-len(names) // (count * _CLAIMS_PER_WORKER)))
    batches = [names[i:i + size] for i in range(0, len(names), size)]
    claims = _claims(len(batches))
    children: list[Child] = []
    try:
        try:
            children = [forked.start(_claimed_bytes(root, batches, claims))
                        for _ in range(count - 1)]
            done = _claim_frames(root, batches, claims)
            while children:
                data = forked.join(children.pop(0))
                if data is not None:
                    done.update(_unpack(data))
        finally:
            for child in children:  # stopped early (an error came first): end and reap them
                forked.abandon(child)
    except GateInputError:
        for i in range(0, len(names), 4096):  # raises the error one process would raise
            _frame(root, names[i:i + 4096])
        raise  # pragma: no cover - the file was repaired in between
    finally:
        os.close(claims)
    for index, batch in enumerate(batches):
        yield done[index] if index in done else _frame(root, batch)


def _average_size(root: bytes, names: list[bytes]) -> float:
    """Mean size of a few files spread over the set (lstat; it only chooses a strategy)."""
    probe = names[:: max(1, len(names) // 16)][:16]
    total = 0
    for name in probe:
        try:
            total += os.lstat(os.path.join(root, name)).st_size
        except OSError:
            return 0.0
    return total / len(probe)


def _can_fork() -> bool:
    from gate.records import forked

    return forked.can_fork()


def _framed(root: bytes, names: list[bytes], workers: int | None) -> Iterator[bytearray]:
    """Every file's framed record, in name order, in pieces; hashed on every core."""
    cores = _cores()
    count = workers if workers is not None else min(32, cores)
    count = min(count, len(names))
    average = _average_size(root, names) if count > 1 else 0.0
    if workers is None and len(names) < _FORK_MIN_FILES and average * len(names) < _PARALLEL_MIN:
        count = 1  # a small set: starting threads would cost more than they save
    if count <= 1:
        read_ahead = workers is None and _spare_core(cores)
        for i in range(0, len(names), 4096):
            yield _frame(root, names[i:i + 4096], read_ahead)
    elif len(names) >= _FORK_MIN_FILES and average <= _FORK_MAX_AVG and _can_fork():
        yield from _forked(root, names, count)
    else:
        yield from _threads(root, names, count)


def encode(entries: Iterable[tuple[bytes, int, bytes]], card: dict[str, Any] | None) -> bytes:
    """The exact bytes hashed for (name, size, digest) entries and an optional card."""
    parts = [FORMAT]
    for name, size, digest in entries:
        parts += [b"F", _u64(len(name)), name, _u64(size), digest]
    if card is None:
        parts.append(b"N")
    else:
        from gate.records.files import canonical_json

        body = canonical_json(card)
        parts += [b"C", _u64(len(body)), body]
    return b"".join(parts)


def fixture_hash(
    paths: Sequence[PathText],
    root: PathText,
    card: dict[str, Any] | None,
    *,
    workers: int | None = None,
) -> str:
    """The ``gate-fixture-v1`` digest: the bytes :func:`encode` frames, hashed as they come."""
    root_b, names = _collect_names(paths, root)
    outer = _sha256(FORMAT)
    for piece in _framed(root_b, names, workers):
        outer.update(piece)
    outer.update(encode((), card)[len(FORMAT):])
    return outer.hexdigest()


def encode_harness(entries: Iterable[tuple[bytes, int, bytes]]) -> bytes:
    """The exact bytes hashed into a ``gate-harness-v1`` digest: the format name, then each
    file's record as in :func:`encode` (ordered by name), and nothing after them."""
    parts = [HARNESS_FORMAT]
    for name, size, digest in entries:
        parts += [b"F", _u64(len(name)), name, _u64(size), digest]
    return b"".join(parts)


def harness_hash(paths: Sequence[PathText], root: PathText, *,
                 workers: int | None = None) -> str:
    """The ``gate-harness-v1`` digest (a manifest's and a stamp's ``harness_sha256``): the
    test harness's files listed, refused and framed exactly as :func:`fixture_hash` frames
    fixtures (a link, a special file or an empty set is bad input), under their own format
    name and without a card, so a harness digest never equals a fixture hash."""
    root_b, names = _collect_names(paths, root)
    outer = _sha256(HARNESS_FORMAT)
    for piece in _framed(root_b, names, workers):
        outer.update(piece)
    return outer.hexdigest()


class Pin(FrozenValue):
    __slots__ = ("fixture_path", "fixture_sha256")
    fixture_sha256: str
    fixture_path: str | None

    def __init__(self, fixture_sha256: str, fixture_path: str | None) -> None:
        self._set(fixture_sha256=fixture_sha256, fixture_path=fixture_path)


def _safe_suffix(name: str) -> str:
    from pathlib import Path

    suffix = Path(name).suffix
    if 1 < len(suffix) <= 16 and suffix[1:].isascii() and suffix[1:].isalnum():
        return suffix.lower()
    return ""


def pin(path: Path, store: Path | None = None) -> Pin:
    """SHA-256 of one sampler output file; with ``store``, a content-addressed copy."""
    from gate.records.files import lexists, read_all, write_once

    _, raw = file_digest(str(path))
    digest = raw.hex()
    if store is None:
        return Pin(digest, None)
    target = store / f"{digest}{_safe_suffix(path.name)}"
    if lexists(target):
        _, existing = file_digest(str(target))
        if existing != raw:
            raise GateInputError(str(target), "(file)", "stored pin exists with other bytes")
        return Pin(digest, str(target))
    data = read_all(path)
    if _sha256(data).digest() != raw:
        raise GateInputError(str(path), "(file)", "file changed while it was being pinned")
    try:
        write_once(target, data)
    except GateInputError:
        # Another writer stored it first; it must hold the same bytes.
        _, existing = file_digest(str(target))
        if existing != raw:
            raise
    return Pin(digest, str(target))
