"""Concurrency: 8 processes making halt checks against one ledger and one issuer, with rebinds.

Each worker process opens its own :class:`gate.records.ledger.Ledger` on the same file (so the only
coordination is the ledger's own ``flock`` compare-and-swap) and loops: about 2% of the time
it rebinds one of two runs (generation + 1, which makes every binding other workers hold for
that run stale); otherwise it checks an attempt with the binding it last saw for a run (often
stale), and now and then repeats an earlier attempt id with the same inputs (which must be
answered from the ledger, not decided again). Every answer is logged by the worker.

Figures: entries expected (binds + first checks) versus entries written, chain intact
(``gate.records.ledger.audit``), attempt ids decided exactly once, ALLOWs under a stale generation
(found by an independent replay of the ledger, and by cross-checking every worker's answers).
Budget: the full 8 x 1000 checks by default (about 7 s on 2 cores with an fsync per append);
``GATE_CONCURRENCY_CHECKS=N`` changes the number per process.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections import Counter
from pathlib import Path

from gate.decide import halt
from gate.records import ledger
from tests.hardening import figures

WORKERS = 8
CHECKS = int(os.environ.get("GATE_CONCURRENCY_CHECKS", "1000"))
RUNS = ("run-A", "run-B")
SCOPE, HOST, MARKER = "lab.invalid", "api.lab.invalid", halt.DEFAULT_MARKER


def _worker(path: str, log: str, worker: int, checks: int) -> None:
    rng = random.Random(worker)
    book = ledger.Ledger(Path(path))
    held: dict[str, halt.Binding] = dict(book.current_bindings())
    done: list[tuple[str, halt.Binding, int]] = []
    with open(log, "w", encoding="utf-8") as out:
        made = 0
        while made < checks:
            run = rng.choice(RUNS)
            if rng.random() < 0.02:
                binding = book.bind(run, SCOPE, HOST, MARKER)
                held[run] = binding
                out.write(json.dumps({"kind": "bind", "run": run,
                                      "generation": binding.generation}) + "\n")
                continue
            if done and rng.random() < 0.05:
                attempt, binding, issued = rng.choice(done)
                replay = True
            else:
                binding = held[run]
                if rng.random() < 0.3:  # refresh what this worker believes is current
                    binding = book.current_bindings()[run]
                    held[run] = binding
                attempt = f"w{worker}-{made}"
                issued = binding.generation
                replay = False
            result = book.check(binding, issued, attempt)
            if not replay:
                done.append((attempt, binding, issued))
            made += 1
            out.write(json.dumps({"kind": "check", "attempt": attempt,
                                  "decision": result.decision.value,
                                  "replayed": result.replayed, "again": replay,
                                  "generation": binding.generation}) + "\n")


def _replay(path: Path) -> tuple[int, list[str], dict[str, str]]:
    """Independent replay: current generation per run from bind lines; every ALLOW must name
    the run's current generation at that point, exactly as minted."""
    current: dict[str, int] = {}
    minted: dict[tuple[str, int], dict[str, object]] = {}
    stale: list[str] = []
    decided: dict[str, str] = {}
    entries = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        entries += 1
        record = entry["binding"]
        key = (record["run_id"], record["generation"])
        if entry["kind"] == "bind":
            assert record["generation"] == current.get(record["run_id"], 0) + 1
            current[record["run_id"]] = record["generation"]
            minted[key] = record
        elif entry["kind"] == "decision":
            assert entry["attempt_id"] not in decided, f"{entry['attempt_id']} decided twice"
            decided[entry["attempt_id"]] = entry["decision"]
            if entry["decision"] == "allow" and (
                    current.get(record["run_id"]) != record["generation"]
                    or minted.get(key) != record
                    or entry["issued_generation"] != record["generation"]):
                stale.append(entry["attempt_id"])
    return entries, stale, decided


def test_eight_processes_one_ledger(tmp_path: Path) -> None:
    section = f"concurrency ({WORKERS} processes x {CHECKS} checks)"
    path = tmp_path / "ledger.jsonl"
    book = ledger.Ledger(path)
    for run in RUNS:
        book.bind(run, SCOPE, HOST, MARKER)
    context = multiprocessing.get_context("fork")
    started = time.monotonic()
    procs = [context.Process(target=_worker, args=(str(path), str(tmp_path / f"w{n}.jsonl"), n,
                                                   CHECKS)) for n in range(WORKERS)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=600)
        assert proc.exitcode == 0
    seconds = time.monotonic() - started

    logs = [json.loads(line) for n in range(WORKERS)
            for line in (tmp_path / f"w{n}.jsonl").read_text().splitlines()]
    binds = sum(1 for item in logs if item["kind"] == "bind") + len(RUNS)
    checks = [item for item in logs if item["kind"] == "check"]
    first = [item for item in checks if not item["again"]]
    expected = binds + len(first)

    entries, stale, decided = _replay(path)
    result = ledger.audit(path)
    answers_differ = sum(1 for item in checks if decided.get(item["attempt"]) != item["decision"])
    replays_not_replayed = sum(1 for item in checks if item["again"] and not item["replayed"])
    counts = Counter(item["decision"] for item in first)

    figures.put(section, "checks made", len(checks))
    figures.put(section, "rebinds", binds - len(RUNS))
    figures.put(section, "entries expected", expected)
    figures.put(section, "entries written", entries)
    figures.put(section, "chain intact (audit)", result.chain_ok and result.passed)
    figures.put(section, "attempt ids decided exactly once",
                f"{len(decided)}/{len(first)}")
    figures.put(section, "answers differing from the ledger", answers_differ)
    figures.put(section, "ALLOW under a stale generation", len(stale))
    figures.put(section, "decisions allow/reject/halt",
                f"{counts['allow']}/{counts['reject']}/{counts['halt']}")
    figures.put(section, "seconds", round(seconds, 1))

    assert entries == expected
    assert result.passed and result.chain_ok, result.problems[:5]
    assert result.denominator == len(first) == len(decided)
    assert answers_differ == 0 and replays_not_replayed == 0
    assert stale == []
    assert counts["allow"] > 0 and counts["reject"] > 0  # the race was really exercised
