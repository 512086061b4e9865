"""Classification at scale: ``gate classify --stamps DIR`` against reading and JSON-parsing the
same files in one Python loop."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

from bench.common import (
    Results,
    best,
    fmt_bytes,
    gate_command,
    interleaved,
    profile,
    run,
    say,
)

NOW = 1_790_000_000
EXPIRES = 1_791_590_400

BASELINE = """
import json, os, sys
count = 0
for folder, _dirs, names in os.walk(sys.argv[1]):
    for name in names:
        if name.endswith(".json"):
            with open(os.path.join(folder, name), "rb") as handle:
                json.loads(handle.read())
            count += 1
print(count)
"""


def _stamp(test: int, server_class: str) -> dict[str, object]:
    test_id = f"prop_{test:06d}"
    card = {"property": test_id, "cases": 32, "seed": test, "freeze_expires_at": EXPIRES}
    red = server_class == "free-server" and test % 10 == 0
    return {
        "run_id": f"r{test:06d}-{'L' if server_class == 'local-pinned' else 'F'}",
        "test_id": test_id, "server_class": server_class,
        "fixture_hash": hashlib.sha256(test_id.encode()).hexdigest(),
        "sample_card": card, "outcome": "assert_fail" if red else "pass",
        "freeze_expires_at": EXPIRES, "written_at": NOW - 60, "exit_code": 1 if red else 0,
        "source": "junit",
    }


def generate(directory: Path, stamps: int) -> Path:
    """``stamps`` stamps (stamps/2 tests, one per class) in DIR/<half>/<class>/<shard>/;
    the first half alone is DIR/a (for the memory growth figure)."""
    tests = stamps // 2
    made: set[Path] = set()
    for test in range(tests):
        half = "a" if test < tests // 2 else "b"
        for server_class in ("local-pinned", "free-server"):
            folder = directory / half / server_class / f"s{test % 64:02d}"
            if folder not in made:
                folder.mkdir(parents=True, exist_ok=True)
                made.add(folder)
            stamp = _stamp(test, server_class)
            (folder / f"{stamp['run_id']}.json").write_text(json.dumps(stamp, indent=2))
    return directory


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    stamps = 2_000 if quick else 100_000
    directory = work / "stamps"
    started = time.perf_counter()
    generate(directory, stamps)
    os.sync()
    say(f"# classify: {stamps} stamps ({stamps // 2} pairs) in {directory} "
        f"(generated in {time.perf_counter() - started:.1f}s)")
    gate = gate_command()
    ours_argv = [*gate, "classify", "--stamps", str(directory), "--now", str(NOW)]
    ours, base = interleaved(lambda: run(ours_argv, ok=(0, 1)),
                             lambda: run([sys.executable, "-c", BASELINE, str(directory)]),
                             reps)
    half = run([*gate, "classify", "--stamps", str(directory / "a"), "--now", str(NOW)],
               ok=(0, 1))
    full_rss = max(r.max_rss for r in ours)
    results.ratio("classify --stamps vs json loop", best(ours), best(base), 1.5,
                  note=f"peak RSS {fmt_bytes(half.max_rss)} at {stamps // 2} stamps, "
                       f"{fmt_bytes(full_rss)} at {stamps}; baseline peak RSS "
                       f"{fmt_bytes(max(r.max_rss for r in base))}")
    if profile:
        _profile(directory)
    shutil.rmtree(directory, ignore_errors=True)


def _profile(directory: Path) -> None:
    import argparse

    from gate.commands import classify

    args = argparse.Namespace(stamps=str(directory), report=None, json=False)
    profile("profile of classify --stamps (in process, tottime)",
            lambda: classify.classify_folder(args, NOW, None))
