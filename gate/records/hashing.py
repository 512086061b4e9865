"""Fixture hashing (SPEC §1), format ``gate-fixture-v1``, and sampler-output pinning.

The byte format is written down in the README so anyone can recompute it::

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
whole with one ``read`` (a large one is streamed through a reused 1 MiB buffer); files are
hashed on every core -- threads (``hashlib`` and ``read`` release the GIL) when the files are
large enough for that to pay, and, for many small files where the GIL-held per-file work is
the whole cost, forked worker processes that send back 40 bytes per file.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
import struct
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.errors import GateInputError
from gate.records import forked
from gate.records.files import NONBLOCK, canonical_json, lexists, read_all, write_once

FORMAT = b"gate-fixture-v1\n"
_U64 = 8
_U64BE = struct.Struct(">Q")

#: Files up to this size are read whole with one ``read``; larger ones are streamed.
_WHOLE = 1 << 16
#: The streaming buffer (one per thread, reused).
_CHUNK = 1 << 20
#: Files per task handed to a worker thread.
_BATCH = 64
#: Below this many files, or above this average size, worker processes do not pay.
_FORK_MIN_FILES = 4096
_FORK_MAX_AVG = 16 * 1024
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | NONBLOCK | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True, slots=True)
class FixtureFile:
    name: bytes  # path relative to the root, '/'-separated, UTF-8
    path: str  # where to read it


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


def _collect_names(paths: Sequence[Path], root: Path) -> tuple[bytes, list[bytes]]:
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


def collect(paths: Sequence[Path], root: Path) -> list[FixtureFile]:
    """Every file under ``paths``, named relative to ``root``, ordered by name; no duplicates."""
    root_b, names = _collect_names(paths, root)
    return [FixtureFile(n, os.fsdecode(os.path.join(root_b, n))) for n in names]


# --- one file -------------------------------------------------------------------------------

_local = threading.local()


def _buffer() -> bytearray:
    buf: bytearray | None = getattr(_local, "buf", None)
    if buf is None:
        buf = _local.buf = bytearray(_CHUNK)
    return buf


def _stream(fd: int, digest: Any, total: int, limit: int) -> int:
    """Feed the rest of ``fd`` to ``digest``; stops once past ``limit`` (the file grew)."""
    buf = _buffer()
    view = memoryview(buf)
    readv = getattr(os, "readv", None)
    while total <= limit:
        if readv is not None:
            n = readv(fd, [buf])
            if not n:
                break
            digest.update(view[:n])
        else:  # pragma: no cover - platforms without readv
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            n = len(chunk)
            digest.update(chunk)
        total += n
    return total


def _digest_fd(fd: int, source: str | bytes) -> tuple[int, bytes]:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise GateInputError(os.fsdecode(source), "(file)", "not a regular file")
    size = info.st_size
    if size <= _WHOLE:
        data = os.read(fd, size + 1)  # one more byte than expected: a grown file shows
        if len(data) == size:
            return size, hashlib.sha256(data).digest()
        digest = hashlib.sha256(data)
        total = _stream(fd, digest, len(data), size) if len(data) < size else len(data)
    else:
        digest = hashlib.sha256()
        total = _stream(fd, digest, 0, size)
    if total != size:
        raise GateInputError(os.fsdecode(source), "(file)",
                             "file changed while it was being hashed")
    return size, digest.digest()


def _digest_path(path: str | bytes) -> tuple[int, bytes]:
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise GateInputError(os.fsdecode(path), "(file)",
                             f"cannot open: {exc.strerror}") from None
    try:
        return _digest_fd(fd, path)
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


def _frame(root: bytes, names: Sequence[bytes]) -> bytearray:
    """The framed records (``F`` + name + size + digest) of ``names``, in that order."""
    base = root if root.endswith(b"/") else root + b"/"
    out = bytearray()
    pack = _U64BE.pack
    for name in names:
        size, digest = _digest_path(base + name)
        out += b"F" + pack(len(name)) + name + pack(size) + digest
    return out


def _threads(root: bytes, names: list[bytes], count: int) -> Iterator[bytearray]:
    from concurrent.futures import ThreadPoolExecutor

    batches = [names[i:i + _BATCH] for i in range(0, len(names), _BATCH)]
    with ThreadPoolExecutor(max_workers=count) as pool:
        yield from pool.map(lambda batch: _frame(root, batch), batches)


def _forked(root: bytes, names: list[bytes], count: int) -> Iterator[bytearray]:
    """Slice 0 here, slices 1.. in forked children that send back their framed records."""
    step = -(-len(names) // count)
    slices = [names[i:i + step] for i in range(0, len(names), step)]
    children = [forked.start(functools.partial(_frame_bytes, root, part)) for part in slices[1:]]
    try:
        yield _frame(root, slices[0])
        for part in slices[1:]:
            data = forked.join(children.pop(0))
            yield bytearray(data) if data is not None else _frame(root, part)
    finally:
        for child in children:  # stopped early (an error came first): end and reap the rest
            forked.abandon(child)


def _frame_bytes(root: bytes, names: Sequence[bytes]) -> bytes:
    return bytes(_frame(root, names))


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


def _framed(root: bytes, names: list[bytes], workers: int | None) -> Iterator[bytearray]:
    """Every file's framed record, in name order, in pieces; hashed on every core."""
    count = workers if workers is not None else min(32, _cores())
    count = min(count, len(names))
    if count <= 1:
        for i in range(0, len(names), 4096):
            yield _frame(root, names[i:i + 4096])
    elif (len(names) >= _FORK_MIN_FILES and forked.can_fork()
          and _average_size(root, names) <= _FORK_MAX_AVG):
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
        body = canonical_json(card)
        parts += [b"C", _u64(len(body)), body]
    return b"".join(parts)


def fixture_hash(
    paths: Sequence[Path],
    root: Path,
    card: dict[str, Any] | None,
    *,
    workers: int | None = None,
) -> str:
    """The ``gate-fixture-v1`` digest: the bytes :func:`encode` frames, hashed as they come."""
    root_b, names = _collect_names(paths, root)
    outer = hashlib.sha256(FORMAT)
    for piece in _framed(root_b, names, workers):
        outer.update(piece)
    outer.update(encode((), card)[len(FORMAT):])
    return outer.hexdigest()


@dataclass(frozen=True, slots=True)
class Pin:
    fixture_sha256: str
    fixture_path: str | None


def _safe_suffix(name: str) -> str:
    suffix = Path(name).suffix
    if 1 < len(suffix) <= 16 and suffix[1:].isascii() and suffix[1:].isalnum():
        return suffix.lower()
    return ""


def pin(path: Path, store: Path | None = None) -> Pin:
    """SHA-256 of one sampler output file; with ``store``, a content-addressed copy."""
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
    if hashlib.sha256(data).digest() != raw:
        raise GateInputError(str(path), "(file)", "file changed while it was being pinned")
    try:
        write_once(target, data)
    except GateInputError:
        # Another writer stored it first; it must hold the same bytes.
        _, existing = file_digest(str(target))
        if existing != raw:
            raise
    return Pin(digest, str(target))
