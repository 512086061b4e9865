"""Start-up: ``gate --version`` and ``gate hash`` of one small file against the bare
interpreter, and which heavy modules each command imports."""

from __future__ import annotations

import functools
import statistics
import subprocess
import sys
from pathlib import Path

from bench.common import Results, gate_command, interleaved, run, say

HEAVY = ("github", "requests", "jsonschema", "yaml", "fastjsonschema", "urllib3")


def imported(argv: list[str]) -> list[str]:
    """Top-level heavy packages imported by ``python -X importtime -m gate ARGV``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gate", *argv],
                          capture_output=True, text=True, check=False)
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return sorted(n for n in HEAVY if n in names)


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    reps = 5 if quick else 30
    small = work / "startup"
    small.mkdir(exist_ok=True)
    (small / "one.txt").write_bytes(b"one small fixture file\n")
    gate = gate_command()
    bare = [sys.executable, "-c", "pass"]
    cases = [("--version", [*gate, "--version"], 2.0),
             ("hash one file", [*gate, "hash", str(small / "one.txt"), "--root", str(small)],
              None)]
    for label, argv, target in cases:
        ours, base = interleaved(functools.partial(run, argv), lambda: run(bare), reps)
        o = [r.seconds for r in ours]
        b = [r.seconds for r in base]
        results.ratio(f"startup gate {label} vs python -c pass", statistics.median(o),
                      statistics.median(b), target,
                      note=f"medians of {reps}; min {min(o) * 1000:.1f} ms vs "
                           f"{min(b) * 1000:.1f} ms")
    for argv in (["--version"], ["hash", str(small / "one.txt"), "--root", str(small)]):
        heavy = imported(argv)
        say(f"# imports of `gate {argv[0]}`: {', '.join(heavy) if heavy else 'none'} of "
            f"{', '.join(HEAVY)}")
