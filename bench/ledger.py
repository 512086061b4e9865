"""Ledger: halt checks appended (flock + fsync each) and audited, against plain appends of the
same JSON lines (with fsync per line, like for like, and without) and a JSON-parse replay."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from bench.common import Results, say


def _plain_append(lines: list[bytes], path: Path, fsync: bool) -> float:
    started = time.perf_counter()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        for line in lines:
            os.write(fd, line)
            if fsync:
                os.fsync(fd)
    finally:
        os.close(fd)
    return time.perf_counter() - started


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    from gate.decide import halt
    from gate.records import ledger

    checks = 500 if quick else 100_000
    path = work / "ledger.jsonl"
    book = ledger.Ledger(path, halt.HaltPolicy())
    binding = book.bind("run-1", "fixture.local", "api.lab.invalid", "synthetic-fixture-v1")
    started = time.perf_counter()
    for i in range(checks):
        book.check(binding, 1, f"attempt-{i:06d}")
    ours_append = time.perf_counter() - started
    lines = path.read_bytes().splitlines(keepends=True)
    say(f"# ledger: {checks} halt checks, {path.stat().st_size / (1 << 20):.1f} MiB")

    started = time.perf_counter()
    audited = ledger.audit(path, halt.HaltPolicy())
    ours_audit = time.perf_counter() - started
    assert audited.failed == 0 and audited.denominator == checks, audited

    synced = _plain_append(lines, work / "plain-fsync.jsonl", fsync=True)
    unsynced = _plain_append(lines, work / "plain.jsonl", fsync=False)
    started = time.perf_counter()
    for line in (work / "plain.jsonl").read_bytes().splitlines():
        json.loads(line)
    parse = time.perf_counter() - started
    for name in ("plain-fsync.jsonl", "plain.jsonl", "ledger.jsonl"):
        (work / name).unlink()

    n = len(lines)
    results.ratio("ledger append vs write+fsync", ours_append, synced, None,
                  note=f"{n / ours_append:.0f} appends/s ours, {n / synced:.0f}/s plain "
                       "write+fsync (like for like)")
    results.ratio("ledger append vs plain write", ours_append, unsynced, None,
                  note=f"{n / unsynced:.0f}/s plain write, no fsync (not durable)")
    results.ratio("ledger audit vs json parse", ours_audit, parse, None,
                  note=f"audit replays the chain (sha256 + schema + table) of {n} lines")
