"""Fixture hashing: ``gate hash DIR`` against OpenSSL over the same bytes, three shapes
(512 MiB in one file, 4,000 x 64 KiB, 100,000 x 1 KiB), interleaved in the same run."""

from __future__ import annotations

import functools
import hashlib
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from bench.common import (
    Results,
    best,
    cores,
    fmt_bytes,
    gate_command,
    interleaved,
    profile,
    run,
    say,
)

OPENSSL = ('find "$1" -type f -print0 | LC_ALL=C sort -z | xargs -0 openssl dgst -sha256 '
           "| openssl dgst -sha256")
MEMORY_LIMIT = 64 << 20


@dataclass(frozen=True)
class Shape:
    name: str
    files: int
    size: int
    target: float
    folders: int


# One large file is bound by SHA-256 on one core, as OpenSSL's is: what is left is start-up.
# Many medium files are hashed on every core, against one OpenSSL process per xargs batch.
FULL = (Shape("1x512MiB", 1, 512 << 20, 0.9, 1),
        Shape("4000x64KiB", 4_000, 64 << 10, 0.6, 40),
        Shape("100000x1KiB", 100_000, 1 << 10, 1.0, 100))
QUICK = (Shape("1x16MiB", 1, 16 << 20, 0.9, 1),
         Shape("300x64KiB", 300, 64 << 10, 0.6, 10),
         Shape("3000x1KiB", 3000, 1 << 10, 1.0, 30))

BLOCK = 8 << 20  # the random bytes every file is cut from


def _block() -> bytes:
    return random.Random(20261).randbytes(BLOCK)  # noqa: S311 - test data, not a secret


def _pieces(shape: Shape, block: bytes) -> list[tuple[str, list[memoryview]]]:
    """(relative path, the views of ``block`` that make its content) per file."""
    view = memoryview(block)
    out: list[tuple[str, list[memoryview]]] = []
    for i in range(shape.files):
        name = f"d{i % shape.folders:03d}/f{i:06d}.bin"
        if shape.size <= BLOCK:
            offset = (i * 7919 * 61) % (BLOCK - shape.size + 1)
            out.append((name, [view[offset:offset + shape.size]]))
        else:
            out.append((name, [view] * (shape.size // BLOCK) + [view[:shape.size % BLOCK]]))
    return out


def generate(shape: Shape, directory: Path, block: bytes) -> None:
    for folder in range(min(shape.folders, shape.files)):
        (directory / f"d{folder:03d}").mkdir(parents=True, exist_ok=True)
    for name, parts in _pieces(shape, block):
        with open(directory / name, "wb") as handle:
            for part in parts:
                handle.write(part)


def in_memory(shape: Shape, block: bytes) -> float:
    """hashlib.sha256 over the same bytes already in memory, one core (best of 3)."""
    pieces = _pieces(shape, block)
    times = []
    for _ in range(3):
        started = time.perf_counter()
        for _name, parts in pieces:
            digest = hashlib.sha256()
            for part in parts:
                digest.update(part)
            digest.digest()
        times.append(time.perf_counter() - started)
    return min(times)


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    block = _block()
    gate = gate_command()
    for shape in QUICK if quick else FULL:
        directory = work / f"hash-{shape.name}"
        started = time.perf_counter()
        generate(shape, directory, block)
        os.sync()  # no write-back of the new files during the timed runs
        total = shape.files * shape.size
        say(f"# hashing {shape.name}: {shape.files} files, {fmt_bytes(total)} "
            f"(generated in {time.perf_counter() - started:.1f}s)")
        if shutil.which("openssl") is None:  # the bar is missing: our side alone, vs itself
            say("# openssl is not installed: no baseline")
            baseline = [*gate, "hash", str(directory), "--root", str(directory)]
        else:
            baseline = ["bash", "-c", OPENSSL, "_", str(directory)]
        ours_argv = [*gate, "hash", str(directory), "--root", str(directory)]
        ours, base = interleaved(functools.partial(run, ours_argv),
                                 functools.partial(run, baseline), reps)
        peak = max(r.max_rss for r in ours)
        limit = in_memory(shape, block) / cores()
        ours_t, base_t = best(ours), best(base)
        results.ratio(f"hash {shape.name} vs openssl", ours_t, base_t, shape.target,
                      note=f"peak RSS {fmt_bytes(peak)} "
                           f"{'<' if peak < MEMORY_LIMIT else '>='} 64 MiB")
        results.ratio(f"hash {shape.name} vs limit", ours_t, limit, None,
                      note=f"limit = in-memory sha256 {limit * cores():.3f}s / {cores()} cores")
        if profile:
            _profile(directory)
        _remove(directory)


def _profile(directory: Path) -> None:
    from gate.records import hashing

    profile("profile (in process, tottime; forked workers and threads not included)",
            lambda: hashing.fixture_hash([directory], directory, None), top=10)


def _remove(directory: Path) -> None:
    shutil.rmtree(directory, ignore_errors=True)

