"""``python -m bench``: run every benchmark, print ours, the baseline (same run) and the ratio.

    python -m bench                 # full sizes (about 10 minutes on 2 cores, and ~11 more for
                                    # gate-step: its signed runs at 100,000 stamps take ~110 s,
                                    # ~4 more for xdist: attrs 26.1.0, 6 commands x 4 rounds)
    python -m bench --quick         # small smoke sizes (seconds)
    python -m bench --only hashing --only startup
    python -m bench --only suite    # the README's test command on a fresh clone (~12 minutes;
                                    # only when named)
    python -m bench --profile       # also cProfile the hashing and classify runs
    python -m bench --json out.json # the ratio lines as JSON too

Every result is one line starting with ``RATIO``. Generated data goes under a temporary folder
(``--tmp`` to choose where) and is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench import (
    action,
    classify,
    gate_step,
    hashing,
    isolation,
    ledger,
    phases,
    reaping,
    seal,
    setup,
    stamp,
    startup,
    suite,
    xdist,
)
from bench.common import ROOT, Results, compile_gate, machine, say

BENCHMARKS = {
    "hashing": hashing.bench,
    "classify": classify.bench,
    "gate-step": gate_step.bench,
    "ledger": ledger.bench,
    "startup": startup.bench,
    "action": action.bench,
    "setup": setup.bench,
    "seal": seal.bench,
    "reaping": reaping.bench,
    "isolation": isolation.bench,
    "stamp": stamp.bench,
    "phases": phases.bench,
    "xdist": xdist.bench,
    "suite": suite.bench,
}
#: Run only when named with --only: the README's test command on a fresh clone (~12 minutes).
EXPLICIT = ("suite",)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small smoke sizes")
    parser.add_argument("--only", action="append", choices=sorted(BENCHMARKS),
                        help="run this benchmark (repeatable; default: all)")
    parser.add_argument("--reps", type=int, default=None,
                        help="timed runs per side (default 3; 1 with --quick)")
    parser.add_argument("--profile", action="store_true", help="print cProfile summaries")
    parser.add_argument("--no-act", action="store_true", help="skip the act runs")
    parser.add_argument("--tmp", metavar="DIR", help="where generated data goes")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    reps = args.reps or (1 if args.quick else 3)
    chosen = args.only or [name for name in BENCHMARKS if name not in EXPLICIT]
    info = machine()
    say("# machine: " + ", ".join(f"{k}={v}" for k, v in info.items()))
    say(f"# mode: {'quick' if args.quick else 'full'}, reps={reps}, benchmarks={','.join(chosen)}")
    say("# bytecode: " + compile_gate())
    results = Results()
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="gate-bench-", dir=args.tmp))
    try:
        for name in chosen:
            part = time.perf_counter()
            folder = work / name
            folder.mkdir()
            if name == "action":
                action.bench(results, folder, args.quick, reps, args.profile,
                             act=not args.no_act)
            elif name == "setup" and args.no_act:
                say("# setup: act runs skipped (--no-act)")
            else:
                BENCHMARKS[name](results, folder, args.quick, reps, args.profile)
            say(f"# {name} done in {time.perf_counter() - part:.1f}s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    say(f"# total {time.perf_counter() - started:.1f}s")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "results": results.lines},
                                              indent=2) + "\n")
    missed = [line["name"] for line in results.lines if line["verdict"] == "MISSED"]
    if missed:
        say("# targets missed: " + "; ".join(missed))
    return 0
