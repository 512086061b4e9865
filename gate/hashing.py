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
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.errors import GateInputError
from gate.files import NONBLOCK, canonical_json, write_once

FORMAT = b"gate-fixture-v1\n"
_U64 = 8


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


def _walk(directory: str, root: str, out: list[FixtureFile]) -> None:
    try:
        entries = list(os.scandir(directory))
    except OSError as exc:
        raise GateInputError(directory, "(path)", f"cannot list: {exc.strerror}") from None
    for entry in entries:
        if entry.is_symlink():
            raise GateInputError(entry.path, "(path)", "symbolic link in fixture set refused")
        if entry.is_dir(follow_symlinks=False):
            _walk(entry.path, root, out)
        elif entry.is_file(follow_symlinks=False):
            rel = os.path.relpath(entry.path, root).replace(os.sep, "/")
            out.append(FixtureFile(_encode_name(rel, entry.path), entry.path))
        else:
            raise GateInputError(entry.path, "(path)", "special file in fixture set refused")


def _refuse_linked_parents(rel: str, root_abs: str, source: str) -> None:
    """A folder between the root and a given path must not be a symbolic link either."""
    current = root_abs
    for part in rel.split(os.sep)[:-1]:
        current = os.path.join(current, part)
        if os.path.islink(current):
            raise GateInputError(source, "(path)", "symbolic link in fixture set refused")


def collect(paths: Sequence[Path], root: Path) -> list[FixtureFile]:
    """Every file under ``paths``, named relative to ``root``, ordered by name; no duplicates."""
    root_abs = os.path.abspath(root)
    if not os.path.isdir(root_abs):
        raise GateInputError(str(root), "(root)", "root is not a directory")
    found: list[FixtureFile] = []
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
            _walk(absolute, root_abs, found)
        elif stat.S_ISREG(mode):
            found.append(FixtureFile(_encode_name(rel.replace(os.sep, "/"), str(given)), absolute))
        else:
            raise GateInputError(str(given), "(path)", "special file in fixture set refused")
    unique = {f.name: f for f in found}
    if not unique:
        raise GateInputError(", ".join(str(p) for p in paths) or "(none)", "(path)",
                             "empty fixture set")
    return [unique[name] for name in sorted(unique)]


def file_digest(path: str) -> tuple[int, bytes]:
    """(size, raw SHA-256) of one regular file, streamed; refuses links and special files."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | NONBLOCK)
    except OSError as exc:
        raise GateInputError(path, "(file)", f"cannot open: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # before fdopen, which raises on a folder
        os.close(fd)
        raise GateInputError(path, "(file)", "not a regular file")
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise GateInputError(path, "(file)", "not a regular file")
        digest = hashlib.file_digest(handle, "sha256")
        size = handle.tell()
    if size != info.st_size:
        raise GateInputError(path, "(file)", "file changed while it was being hashed")
    return size, digest.digest()


def _digests(files: Sequence[FixtureFile], workers: int | None) -> list[tuple[int, bytes]]:
    count = workers if workers is not None else min(32, os.cpu_count() or 1)
    if count <= 1 or len(files) < 2:
        return [file_digest(f.path) for f in files]
    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(file_digest, (f.path for f in files), chunksize=16))


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
    files = collect(paths, root)
    sums = _digests(files, workers)
    framed = encode(((f.name, s, d) for f, (s, d) in zip(files, sums, strict=True)), card)
    return hashlib.sha256(framed).hexdigest()


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
    if target.exists() or target.is_symlink():
        _, existing = file_digest(str(target))
        if existing != raw:
            raise GateInputError(str(target), "(file)", "stored pin exists with other bytes")
        return Pin(digest, str(target))
    with open(path, "rb") as handle:
        data = handle.read()
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
