"""Where the time goes (issue 23; measurement only): ``gate classify --stamps`` at 100,000
stamps and ``gate hash`` of 4,000 x 64 KiB, phase by phase, in process, with the gate's own
functions (gate/records/pairing.py, load.py, files.py, hashing.py).

classify, one process, the cyclic collector off as ``gate classify`` runs it: listing
(``pairing._files``), reading (``files.read_listed_capped``, as classify reads), parsing
(``files.parse_json``, with its duplicate-key hook), validating (``load.check_stamp``: schema
and the stamp rules), collecting (``pairing.collect``: the same three on two cores plus the
merge by run id), pairing (``pairing.decide_by_policy``, on one core and as classify runs it:
on two when one is idle), building the report (``pairing.report_by_policy``), writing it
(``load.write_report``: check, canonical JSON, atomic write). Each phase is a ``PHASE`` line
against the baseline's whole loop (read + ``json.loads`` in the same process).

hash: start-up (``gate hash`` of one small file vs ``python -c pass``, medians), listing
(``hashing._collect_names``), the per-file system calls alone (open, fstat, read into one
buffer, close), SHA-256 of the same bytes in memory, ``fixture_hash`` on one core
(``workers=1``) and as ``gate hash`` runs it (default workers).
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench import classify as classify_bench
from bench import hashing as hashing_bench
from bench.common import Results, gate_command, say


def _timed(work: Callable[[], object], reps: int) -> tuple[float, object]:
    """Best of ``reps`` wall times of ``work()`` (the cyclic collector off) and its value."""
    times = []
    value: object = None
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(reps):
            started = time.perf_counter()
            value = work()
            times.append(time.perf_counter() - started)
    finally:
        if collecting:
            gc.enable()
    return min(times), value


def _phase(name: str, seconds: float, whole: float, per: int, unit: str) -> None:
    load = os.getloadavg()[0]
    say(f"PHASE {name:<40} {seconds:8.4f}s  {seconds / whole:6.2f}x baseline  "
        f"{seconds / per * 1e6:8.2f} us/{unit}  load={load:.2f}")


def classify_phases(results: Results, work: Path, quick: bool, reps: int) -> None:
    from gate.records import files, pairing, policy
    from gate.records import load as records

    stamps = 2_000 if quick else 100_000
    directory = work / "stamps"
    classify_bench.generate(directory, stamps)
    os.sync()
    now = classify_bench.NOW
    pol = policy.load(None)

    def baseline() -> int:
        count = 0
        for folder, _dirs, names in os.walk(directory):
            for name in names:
                if name.endswith(".json"):
                    with open(os.path.join(folder, name), "rb") as handle:
                        json.loads(handle.read())
                    count += 1
        return count

    base, _ = _timed(baseline, reps)
    say(f"# classify phases: {stamps} stamps, in process; baseline read + json.loads loop "
        f"{base:.3f}s")
    listing, paths = _timed(lambda: pairing._files(directory), reps)
    assert isinstance(paths, list)
    reading, blobs = _timed(lambda: list(files.read_listed_capped(paths)), reps)
    assert isinstance(blobs, list)
    parsing, parsed = _timed(
        lambda: [files.parse_json(b, p) for b, p in zip(blobs, paths, strict=True)], reps)
    assert isinstance(parsed, list)
    validating, _ = _timed(
        lambda: [records.check_stamp(s, p) for s, p in zip(parsed, paths, strict=True)], reps)
    collecting, loaded = _timed(lambda: pairing.collect_some(directory), reps)
    assert isinstance(loaded, list)
    pairing_t, decisions = _timed(lambda: pairing.decide_by_policy(loaded, pol, now), reps)
    assert isinstance(decisions, list)
    forking_from = pairing._FORK_MIN_TESTS
    pairing._FORK_MIN_TESTS = len(loaded) + 1  # the same deciding, in this process alone
    try:
        pairing_1, _ = _timed(lambda: pairing.decide_by_policy(loaded, pol, now), reps)
    finally:
        pairing._FORK_MIN_TESTS = forking_from
    building, built = _timed(lambda: pairing.report_by_policy(decisions, now, pol), reps)
    assert isinstance(built, dict)
    out = work / "report.json"

    def write() -> None:
        out.unlink(missing_ok=True)
        records.write_report(out, built)

    writing, _ = _timed(write, reps)
    rows = [("listing (_files)", listing), ("reading (read_listed_capped)", reading),
            ("parsing (parse_json)", parsing), ("validating (check_stamp)", validating),
            ("pairing (decide_by_policy, 1 core)", pairing_1),
            ("report building (report_by_policy)", building),
            ("report writing (write_report)", writing)]
    for name, seconds in rows:
        _phase(name, seconds, base, stamps, "stamp")
    _phase("pairing (decide_by_policy, as classify)", pairing_t, base, stamps, "stamp")
    single = sum(s for _, s in rows)
    _phase("sum of the phases, one process", single, base, stamps, "stamp")
    _phase("collect_some (read+parse+validate, 2 cores)", collecting, base, stamps, "stamp")
    two = collecting + pairing_t + building + writing
    _phase("collect_some + pairing + report", two, base, stamps, "stamp")
    results.ratio("classify phases, one process, vs json loop", single, base, None,
                  note="sum of the PHASE lines, in process, no start-up")
    results.ratio("classify phases, as classify runs them", two, base, 1.5,
                  note="collect on 2 cores + pairing + report, in process")
    results.ratio("classify floor: read+parse+validate+list", listing + reading + parsing
                  + validating, base, None, note="one core, before any pairing")


def hash_phases(results: Results, work: Path, quick: bool, reps: int) -> None:
    from gate.records import hashing

    shape = hashing_bench.FULL[1] if not quick else hashing_bench.QUICK[1]
    block = hashing_bench._block()
    directory = work / f"hash-{shape.name}"
    hashing_bench.generate(shape, directory, block)
    os.sync()
    gate = gate_command()
    small = work / "one.txt"
    small.write_bytes(b"x\n")
    starts, bare = [], []
    for _ in range(5 if quick else 20):  # interleaved
        started = time.perf_counter()
        subprocess.run([*gate, "hash", str(small), "--root", str(work)], check=True,
                       stdout=subprocess.DEVNULL)
        starts.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - started)
    start, bare_t = statistics.median(starts), statistics.median(bare)
    in_memory = hashing_bench.in_memory(shape, block)
    listing, found = _timed(lambda: hashing._collect_names([directory], directory), reps)
    assert isinstance(found, tuple)
    root_b, names = found
    buf = bytearray(shape.size)

    def syscalls() -> None:
        for name in names:
            fd = os.open(os.path.join(root_b, name), os.O_RDONLY)
            try:
                os.fstat(fd)
                os.readv(fd, [buf])
            finally:
                os.close(fd)

    calls, _ = _timed(syscalls, reps)
    one_core, _ = _timed(lambda: hashing.fixture_hash([directory], directory, None,
                                                      workers=1), reps)
    default, _ = _timed(lambda: hashing.fixture_hash([directory], directory, None), reps)
    say(f"# hash phases: {shape.files} x {shape.size >> 10} KiB, in process "
        f"(the RATIO lines of `--only hashing` give the whole `gate hash` vs OpenSSL)")
    n = shape.files
    _phase("start-up: gate hash of one small file", start, in_memory, 1, "run")
    _phase("start-up: python -c pass", bare_t, in_memory, 1, "run")
    _phase("listing (_collect_names)", listing, in_memory, n, "file")
    _phase("per-file system calls (open/fstat/readv/close)", calls, in_memory, n, "file")
    _phase("sha256 in memory, one core (the baseline)", in_memory, in_memory, n, "file")
    _phase("fixture_hash, workers=1", one_core, in_memory, n, "file")
    _phase("fixture_hash, default workers (as gate hash)", default, in_memory, n, "file")
    overhead = one_core - in_memory - calls - listing
    _phase("python per-file work (workers=1 - the rest)", max(overhead, 0.0), in_memory, n,
           "file")
    results.ratio("hash phases: start-up vs python -c pass", start, bare_t, None,
                  note=f"medians; start-up beyond the bare interpreter {start - bare_t:.4f}s")
    results.ratio("hash phases: fixture_hash workers=1 vs sha256", one_core, in_memory, None,
                  note=f"system calls {calls:.4f}s, listing {listing:.4f}s")


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    classify_phases(results, work, quick, reps)
    hash_phases(results, work, quick, reps)
