"""The sealed launch's cost (issue 27, the ``process`` level): one run of a trivial command
(``true``) through :func:`gate.testrun.running.run_command` as every route runs it (subreaper
and not dumpable meanwhile, the processes it left stopped, killed and named, the runner's file
commands snapshotted and compared), against the same launcher with the reaping switched off
(the process group killed on a timeout or interrupt only, as before issue 27; the file
commands still compared on both sides); and the same pair for a command that leaves one
``setsid`` process behind (ours kills it; the baseline's is killed by the bench after the
timing). In this process, interleaved, medians of ``reps`` (at least 30); the 1-minute load is
printed beside each figure.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import statistics
import time
from pathlib import Path

from bench.common import Results, say

#: The command that leaves a process behind (its pid on stdout).
LEAVES = ["bash", "-c", "setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $!"]


def _once(argv: list[str], reap: bool) -> tuple[float, bytes]:
    from gate.testrun import reaping, running

    sink = io.BytesIO()
    real = reaping.can_reap
    if not reap:
        reaping.can_reap = lambda: False
    try:
        started = time.perf_counter()
        running.run_command(argv, 60, sink, io.BytesIO(), grace=0.0)
        seconds = time.perf_counter() - started
    finally:
        reaping.can_reap = real
    return seconds, sink.getvalue()


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    from gate.testrun import reaping

    if not reaping.can_reap():
        say("# reaping: this system has no /proc children walk or prctl: skipped")
        return
    reps = 5 if quick else max(reps, 30)
    env_before = dict(os.environ)
    loads: list[float] = []
    for name, argv in (("sealed launch of `true`", ["true"]),
                       ("sealed launch, one left behind", LEAVES)):
        ours: list[float] = []
        base: list[float] = []
        _once(argv, True)  # warm: ctypes loaded, the code imported
        for _ in range(reps):
            loads.append(os.getloadavg()[0])
            seconds, _ = _once(argv, True)
            ours.append(seconds)
            seconds, out = _once(argv, False)
            base.append(seconds)
            if out.strip().isdigit():  # the baseline left it running: end it untimed
                with contextlib.suppress(OSError):
                    os.kill(int(out.strip()), signal.SIGKILL)
        results.ratio(name, statistics.median(ours), statistics.median(base), None,
                      note=f"interleaved medians of {reps}; baseline: the same launcher "
                           f"without reaping; load {min(loads):.2f}-{max(loads):.2f}; "
                           f"reaping alone "
                           f"{statistics.median(ours) - statistics.median(base):+.4f}s")
    assert dict(os.environ) == env_before
