"""The namespace level's cost (issue 27): one run of a trivial command (``true``) through
:func:`gate.testrun.running.run_command` wrapped for the ``namespace`` level
(:meth:`gate.testrun.isolation.Seal.wrap`: bubblewrap, and util-linux ``unshare`` where this
process may) against the same launch unwrapped; and what choosing the level costs
(:func:`gate.testrun.isolation.observe`: Yama, the bubblewrap probe, the sockets), once per
``gate stamp``; and the tests' venv an install gets at that level
(:func:`gate.testrun.running.with_tests_venv`, made and removed) against the wrapped launch.
In this process, interleaved, medians of ``reps`` (at least 30); the 1-minute
load is printed beside each figure.
"""

from __future__ import annotations

import io
import os
import statistics
import time
from pathlib import Path

from bench.common import Results, say


def _once(argv: list[str]) -> float:
    from gate.testrun import running

    started = time.perf_counter()
    running.run_command(argv, 60, io.BytesIO(), io.BytesIO(), grace=0.0)
    return time.perf_counter() - started


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    from gate.decide import isolation as levels
    from gate.testrun import isolation

    reps = 5 if quick else max(reps, 30)
    facts = isolation.observe()
    routes = [by for by, holds in ((levels.BWRAP, facts.bwrap),
                                   (levels.UNSHARE, facts.unshare and facts.root),
                                   (levels.SUDO_UNSHARE, facts.unshare and facts.sudo)) if holds]
    if not routes:
        say("# isolation: no namespace can be made here (no bubblewrap, no root or sudo): "
            "skipped")
        return
    for by in routes:
        seal = isolation.Seal(levels.Level(levels.NAMESPACE, by), facts.ptrace_scope, facts,
                              read_only=tuple(isolation.protected_paths(os.environ)))
        wrapped = seal.wrap(["true"], dict(os.environ)).argv
        ours: list[float] = []
        base: list[float] = []
        loads: list[float] = []
        _once(wrapped)
        _once(["true"])
        for _ in range(reps):
            loads.append(os.getloadavg()[0])
            ours.append(_once(wrapped))
            base.append(_once(["true"]))
        results.ratio(f"namespace ({by}) launch of `true`", statistics.median(ours),
                      statistics.median(base), None,
                      note=f"interleaved medians of {reps}; baseline: the same launch "
                           f"unwrapped; load {min(loads):.2f}-{max(loads):.2f}; the wrap "
                           f"alone {statistics.median(ours) - statistics.median(base):+.4f}s")
        _home(results, seal, reps, by)
        _tests_venv(results, seal, wrapped, reps, by)
    observed: list[float] = []
    for _ in range(reps):
        started = time.perf_counter()
        isolation.observe()
        observed.append(time.perf_counter() - started)
    launch = statistics.median(base)
    results.ratio("choosing the level (observe)", statistics.median(observed), launch, None,
                  note=f"medians of {reps}; baseline: one unwrapped launch of `true`; once per "
                       "gate stamp")


def _home(results: Results, seal: object, reps: int, by: str) -> None:
    """The job's home read-only with its writable islands, the PATH folders read-only and the
    command's own HOME (:func:`gate.testrun.mounts.mount_plan`), against the same seal without
    them, wrapping ``true``: interleaved medians."""
    import shutil
    import tempfile

    from gate.testrun import mounts
    from gate.testrun.isolation import Seal

    assert isinstance(seal, Seal)
    home = tempfile.mkdtemp(prefix="gate-bench-home-")
    try:
        sealed = seal.replace(homes=tuple(mounts.home_folders(os.environ)),
                              islands=tuple(mounts.writable_islands(os.environ)), home=home)
        plain = seal.wrap(["true"], dict(os.environ)).argv
        wrapped = sealed.wrap(["true"], dict(os.environ)).argv
        count = len(mounts.mount_plan(sealed.homes, [*sealed.islands, home], seal.read_only,
                                      seal.hidden, [os.environ.get("PATH", "")])) - len(
            seal.read_only) - len(seal.hidden)
        ours: list[float] = []
        base: list[float] = []
        loads: list[float] = []
        _once(wrapped)
        _once(plain)
        for _ in range(reps):
            loads.append(os.getloadavg()[0])
            ours.append(_once(wrapped))
            base.append(_once(plain))
        results.ratio(f"namespace ({by}) with the home and PATH mounts", statistics.median(ours),
                      statistics.median(base), None,
                      note=f"interleaved medians of {reps}; baseline: the namespace launch "
                           f"without them; {count} more mounts here; load "
                           f"{min(loads):.2f}-{max(loads):.2f}; the mounts alone "
                           f"{statistics.median(ours) - statistics.median(base):+.4f}s")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _tests_venv(results: Results, seal: object, wrapped: list[str], reps: int, by: str) -> None:
    """The tests' venv made (sealed) and removed, against one wrapped launch of ``true``."""
    import shutil

    from gate.testrun import running
    from gate.testrun.isolation import Seal
    from gate.testrun.stamping import Request

    assert isinstance(seal, Seal)
    python = shutil.which("python3")
    if python is None:
        say("# isolation: no python3 on PATH: the tests' venv skipped")
        return
    seal = seal.replace(read_only=(*seal.read_only, os.path.dirname(python)))
    request = Request(properties=[], server_class="free-server", out=Path("out"),
                      root=Path("."), run_ids=[], timeout_codes=(), command=["true"],
                      install="true", seal=seal)

    def made() -> float:
        started = time.perf_counter()
        running.without_tests_venv(running.with_tests_venv(request))
        return time.perf_counter() - started

    ours: list[float] = []
    base: list[float] = []
    loads: list[float] = []
    made()
    for _ in range(reps):
        loads.append(os.getloadavg()[0])
        ours.append(made())
        base.append(_once(wrapped))
    results.ratio(f"the tests' venv ({by}): made sealed and removed", statistics.median(ours),
                  statistics.median(base), None,
                  note=f"interleaved medians of {reps}; baseline: one wrapped launch of "
                       f"`true`; load {min(loads):.2f}-{max(loads):.2f}; once per gate stamp "
                       "with an install at namespace, when the Python is the tool cache's")
