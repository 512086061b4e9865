"""The README's test command on a fresh clone, against issue 31's 300 s.

    git clone --quiet ROOT CLONE && cd CLONE && CI=true python -m pytest --junitxml=J

with this interpreter (its installed test extras; ``python -m pytest`` puts the clone first on
``sys.path``, so the clone's ``gate`` is the one tested) and ``GATE_WHEELHOUSE`` passed on when
set (.ci/run fills it up front; without it the act tests' session fixture fills a cache
folder). Run only when asked (``--only suite``: about 12 minutes on 2 cores) and never with
``--quick``.

The ratios: the wall time against the target (300 s), and, as information, against the floor
that the tests' own summed times set on this machine's cores (the JUnit report's ``time`` of
every test case divided by the cores): what is left above that floor is pytest's and xdist's
own, and the load. The note names the five slowest files by summed time.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import time
from pathlib import Path

from junitparser import JUnitXml

from bench import common
from bench.common import Results, cores, say

TARGET = 300.0


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    del reps, profile
    if quick:
        say("# suite: skipped (--quick)")
        return
    clone = work / "clone"
    subprocess.run(["git", "clone", "--quiet", str(common.ROOT), str(clone)], check=True,
                   timeout=300)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, check=True,
                          capture_output=True, text=True).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_",))}
    env["CI"] = "true"
    report = work / "junit.xml"
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", f"--junitxml={report}"],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=5400,
                          check=False)
    wall = time.perf_counter() - started
    tail = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
    say(f"# suite: {head}, exit {done.returncode}: {tail[0]}")
    if done.returncode != 0:
        raise RuntimeError(f"the README's test command failed: {done.stdout[-3000:]}")
    per_file: collections.Counter[str] = collections.Counter()
    tests = 0
    for case in (case for cases in JUnitXml.fromfile(str(report)) for case in cases):
        tests += 1
        parts = (case.classname or "?").split(".")  # tests.hardening.test_x.TestClass
        module = next((part for part in parts if part.startswith("test_")), ".".join(parts))
        per_file[module] += case.time
    summed = sum(per_file.values())
    floor = summed / cores()
    slowest = ", ".join(f"{name} {seconds:.0f}s" for name, seconds in per_file.most_common(5))
    load = f"load {load_before:.2f} at the start, {os.getloadavg()[0]:.2f} at the end"
    results.ratio("suite README test command vs 300 s", wall, TARGET, 1.0,
                  note=f"{tests} tests at {head}; {load}")
    results.ratio("suite wall vs its tests' time / cores", wall, floor, None,
                  note=f"{summed:.0f}s of tests on {cores()} cores; slowest files: {slowest}")
