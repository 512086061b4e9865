"""The stamp leg under pytest-xdist (``-n 2``) against the same leg run serially.

Issue 31: a new user's stamp leg with ``-n 2`` took 44 s against 18 s serially (attrs 26.1.0,
59 properties, under act, load 5-8); the target is that, on a quiet machine, ``-n 2`` is no
slower than serial beyond xdist's own start-up. Six commands, interleaved, ``reps`` rounds
after one warm-up round, on attrs 26.1.0's PyPI sdist (downloaded once with ``pip download
--no-deps --no-binary :all:`` into ``$GATE_BENCH_CACHE/attrs``; ``gate init`` on it, as a
newcomer would; ``PYTHONPATH=src``) or, with ``--quick``, tests/hypo_suite's
``hypo_props.py``:

    gate stamp --manifest .github/gate.yml --server-class local-pinned --out DIR --pytest -- \\
        python -m pytest -p no:cacheprovider -q [-n 2] IDS...        (stamp serial, stamp -n 2)
    python -m pytest -p no:cacheprovider -q [-n 2] IDS...           (plain serial, plain -n 2)
    python -m pytest -p no:cacheprovider -q [-n 2] -k NONE IDS...   (xdist's start-up: nothing run)

``--quick`` runs one round of the stamp and start-up pairs on two of hypo_props.py's gated
tests, without a warm-up round or plain pytest.

The ratios: the stamp leg's ``-n 2`` against its serial run plus xdist's own start-up (the
plain ``-n 2`` minus the plain serial run when nothing is selected), target <= 1; then, as
information, ``-n 2`` against serial for each side and the stamp leg's ``-n 2`` against plain
pytest's. Wall seconds, with each side's CPU (the process tree's, ``wait4``) in the note.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import Results, gate_command, say
from bench.stamp import CACHE, _gated, _hypo_tree

ATTRS = "attrs==26.1.0"
#: Selects nothing: what is left is Python, pytest, xdist's workers and the collection.
NONE = "zz_bench_selects_no_test"


def _sdist(quick: bool) -> Path | None:
    if quick:
        return None
    folder = CACHE / "attrs"
    found = sorted(folder.glob("attrs-26.1.0.tar.gz")) if folder.is_dir() else []
    if found:
        return found[0]
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                    "--no-binary", ":all:", ATTRS, "-d", str(folder)], check=True, timeout=300)
    return sorted(folder.glob("attrs-26.1.0.tar.gz"))[0]


def _attrs_tree(work: Path, sdist: Path) -> Path:
    with tarfile.open(sdist) as archive:
        archive.extractall(work, filter="data")
    return work / "attrs-26.1.0"


def _run(argv: list[str], tree: Path, env: dict[str, str]) -> tuple[float, float]:
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 5):
        raise RuntimeError(f"{' '.join(argv[:6])} ... exited {proc.returncode}: "
                           f"{err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    del profile
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GATE_", "PYTEST_"))}
    env.pop("CI", None)
    sdist = _sdist(quick)
    if sdist is None:
        tree = _hypo_tree(work)
        ids = _gated(tree, env, ["hypo_props.py"])[:2]  # a smoke run: start-up, mostly
        what = f"tests/hypo_suite hypo_props.py, the first {len(ids)} gated tests"
    else:
        tree = _attrs_tree(work, sdist)
        env["PYTHONPATH"] = str(tree / "src")
        ids = _gated(tree, env, [])
        what = f"attrs 26.1.0 from {sdist}, gate init: {len(ids)} gated tests"
    say(f"# xdist: {what}")
    pytest_args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"]
    count = [0]

    def stamp(*extra: str) -> list[str]:
        count[0] += 1
        return [*gate_command(), "stamp", "--manifest", ".github/gate.yml", "--server-class",
                "local-pinned", "--out", str(work / "stamps" / str(count[0])), "--pytest",
                "--", *pytest_args, *extra, *ids]

    sides: dict[str, Callable[[], list[str]]] = {
        "stamp serial": lambda: stamp(),
        "stamp -n 2": lambda: stamp("-n", "2"),
        "plain serial": lambda: [*pytest_args, *ids],
        "plain -n 2": lambda: [*pytest_args, "-n", "2", *ids],
        "start-up serial": lambda: [*pytest_args, "-k", NONE, *ids],
        "start-up -n 2": lambda: [*pytest_args, "-n", "2", "-k", NONE, *ids],
    }
    if quick:  # a smoke run: no plain pytest pair, no warm-up round
        del sides["plain serial"], sides["plain -n 2"]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    loads: list[float] = []
    for round_ in range(reps + (0 if quick else 1)):  # a full run's round 0 warms the caches
        for name, argv in sides.items():
            measured = _run(argv(), tree, env)
            if quick or round_:
                runs[name].append(measured)
                loads.append(os.getloadavg()[0])

    def wall(name: str) -> float:
        return statistics.median(w for w, _ in runs[name])

    def cpu(name: str) -> float:
        return statistics.median(c for _, c in runs[name])

    start_up = wall("start-up -n 2") - wall("start-up serial")
    note = (f"medians of {reps}, {len(ids)} gated tests; load {min(loads):.2f}-{max(loads):.2f};"
            f" CPU: stamp serial {cpu('stamp serial'):.2f}s, -n 2 {cpu('stamp -n 2'):.2f}s")
    results.ratio("xdist stamp -n 2 vs serial + xdist start-up", wall("stamp -n 2"),
                  wall("stamp serial") + start_up, 1.0,
                  note=f"{note}; xdist's start-up {start_up:+.2f}s wall "
                       f"({wall('start-up serial'):.2f} -> {wall('start-up -n 2'):.2f}s), "
                       f"{cpu('start-up -n 2') - cpu('start-up serial'):+.2f}s CPU")
    results.ratio("xdist stamp -n 2 vs stamp serial", wall("stamp -n 2"), wall("stamp serial"),
                  None, note=note)
    if quick:
        return
    results.ratio("xdist plain -n 2 vs plain serial", wall("plain -n 2"), wall("plain serial"),
                  None, note=f"medians of {reps}; CPU {cpu('plain serial'):.2f}s serial, "
                             f"{cpu('plain -n 2'):.2f}s -n 2")
    results.ratio("xdist stamp -n 2 vs plain -n 2", wall("stamp -n 2"), wall("plain -n 2"), None,
                  note=f"medians of {reps}: the recorder in each worker; CPU "
                       f"{cpu('stamp -n 2') - cpu('plain -n 2'):+.2f}s")
