"""The stamp leg on the recorder route against plain pytest of the same gated node ids.

    gate stamp --manifest M --server-class local-pinned --out DIR --pytest -- \\
        python -m pytest -p no:cacheprovider -q IDS...
    python -m pytest -p no:cacheprovider -p bench_nodb -q IDS...

on (a) hpack 4.1.0's PyPI sdist (downloaded once with ``pip download --no-deps --no-binary
:all:`` into ``$GATE_BENCH_CACHE/hpack``, default ``~/.cache/gate-bench``; ``gate init`` on it,
as a newcomer would) and (b) the repository's own Hypothesis suite (tests/hypo_suite, the
modules whose properties a card can govern). No example database on either side: the card
puts ``database=None`` (gate/testrun/hypothesis_card.py), and the baseline loads a profile with
``database=None`` and ``print_blob=True`` from a one-line plugin (``-p bench_nodb``); both run
the cards' ``cases`` (``gate init`` writes the settings in force) with ``-p no:cacheprovider``.
The baseline plugin puts each card's seed on its test as ``@seed(n)`` would (on a state
machine's class for its ``runTest``, as the card does) and hides Hypothesis's local-constants
pool while a gated test runs (as the card does: it changes the draws), so both sides draw the
same examples; on tests/hypo_suite, which records every draw (``HYPO_SUITE_DRAWS``), the bench
checks that before timing and refuses to print a ratio otherwise.
(c) the same suite with every card's ``cases`` raised to :data:`LONG_CASES` (its gated
tests then take ~14 s on this machine at load 2, 20 s and more under load; the baseline plugin
applies each card's cases as ``@settings(max_examples=n)`` would, a no-op where the card keeps
the test's own). With ``--quick``, only the Hypothesis suite's ``hypo_props.py``
(no download, no hpack).

Beside each ratio, the gate's own CPU in a stamp run against issue 31's 0.1 s: the process
tree's CPU minus the test command's, timed by GNU time inside the run (``/usr/bin/time``; the
figure is left out without it), median of ``reps`` runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from bench.common import ROOT, Results, Run, gate_command, interleaved, run, say

#: GNU time, which times the test command inside a stamp run (the gate's own time is the rest).
TIME = Path("/usr/bin/time")
#: The gate's own time in a stamp leg, outside the test process (issue 31's target).
OWN_TARGET = 0.1

CACHE = Path(os.environ.get("GATE_BENCH_CACHE", Path.home() / ".cache" / "gate-bench"))
HPACK = "hpack==4.1.0"
#: The cards' cases for the long run of tests/hypo_suite (~14 s of gated tests at load 2 here).
LONG_CASES = 5000
NODB = """import contextlib, json, pathlib, re
import pytest
from hypothesis import settings
settings.register_profile("bench-nodb", database=None, print_blob=True, derandomize=False)
settings.load_profile("bench-nodb")
SEEDS = {}
CASES = {}

def pytest_collection_modifyitems(config, items):  # each card's seed, as @seed(n) puts it,
    for path in pathlib.Path(".github/gate-cards").glob("*.json"):  # and its cases as
        card = json.loads(path.read_text())                     # @settings(max_examples=n)
        SEEDS[card["property"]] = card["seed"]
        CASES[card["property"]] = card["cases"]
    manifest = pathlib.Path(".github/gate.yml")  # gate init's cards written in the manifest
    inline = r'- test_id: "([^"]+)"\\n +card: \\{cases: (\\d+), seed: (\\d+)'
    for test, cases, seed in re.findall(inline, manifest.read_text() if manifest.is_file()
                                        else ""):
        SEEDS[test], CASES[test] = int(seed), int(cases)
    for item in items:
        obj = getattr(item, "obj", None)
        test = getattr(obj, "__func__", obj)
        if item.nodeid not in SEEDS:
            continue
        machine = getattr(test, "_hypothesis_state_machine_class", None)
        if machine is not None:  # a state machine's runTest: @seed(n) goes on the machine
            machine._hypothesis_internal_use_seed = SEEDS[item.nodeid]
            item.cls.settings = settings(item.cls.settings, max_examples=CASES[item.nodeid])
        elif hasattr(test, "hypothesis"):
            test._hypothesis_internal_use_seed = SEEDS[item.nodeid]
            test._hypothesis_internal_use_settings = settings(
                test._hypothesis_internal_use_settings, max_examples=CASES[item.nodeid])

@contextlib.contextmanager
def no_local_constants():  # as the card runs a gated test (gate/testrun/hypothesis_card.py)
    from hypothesis.internal.conjecture import providers as prov
    empty = prov.Constants(integers=prov.SortedSet(), floats=prov.SortedSet(
        key=prov.float_to_int), bytes=prov.SortedSet(), strings=prov.SortedSet())
    saved, prov._get_local_constants = prov._get_local_constants, lambda: empty
    try:
        yield
    finally:
        prov._get_local_constants = saved

@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item):
    if item.nodeid not in SEEDS:
        return (yield)
    with no_local_constants():
        return (yield)
"""


def _sdist(quick: bool) -> Path | None:
    if quick:
        return None
    folder = CACHE / "hpack"
    found = sorted(folder.glob("hpack-4.1.0.tar.gz")) if folder.is_dir() else []
    if found:
        return found[0]
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                    "--no-binary", ":all:", HPACK, "-d", str(folder)], check=True, timeout=300)
    return sorted(folder.glob("hpack-4.1.0.tar.gz"))[0]


def _hpack_tree(work: Path, sdist: Path) -> Path:
    with tarfile.open(sdist) as archive:
        archive.extractall(work, filter="data")
    tree = work / "hpack-4.1.0"
    # tests/conftest.py lists tests/test_fixtures (a git checkout's; not in the sdist) at import
    (tree / "tests" / "test_fixtures" / "raw-data").mkdir(parents=True, exist_ok=True)
    return tree


def _hypo_tree(work: Path) -> Path:
    tree = work / "hypo_suite"
    shutil.copytree(ROOT / "tests" / "hypo_suite", tree,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tree


def _gated(tree: Path, env: dict[str, str], targets: list[str]) -> list[str]:
    subprocess.run([*gate_command(), "init", *targets], cwd=tree, env=env, check=True,
                   stdout=subprocess.DEVNULL, timeout=600)
    text = (tree / ".github" / "gate.yml").read_text()
    return re.findall(r'^  - test_id: "([^"]+)"', text, re.MULTILINE)


def _measure(results: Results, name: str, tree: Path, env: dict[str, str], ids: list[str],
             reps: int, target: float) -> None:
    (tree / "bench_nodb.py").write_text(NODB)
    env = {**env, "PYTHONPATH": os.pathsep.join(
        p for p in (env.get("PYTHONPATH", ""), str(tree)) if p)}
    out = tree.parent / f"{name}-stamps"
    pytest_args = ["-m", "pytest", "-p", "no:cacheprovider", "-q"]
    count = [0]

    def ours() -> Run:
        count[0] += 1
        folder = out / str(count[0])
        return run([*gate_command(), "stamp", "--manifest", ".github/gate.yml",
                    "--server-class", "local-pinned", "--out", str(folder), "--pytest", "--",
                    sys.executable, *pytest_args, *ids], cwd=tree, env=env, ok=(0, 1))

    def base() -> Run:
        return run([sys.executable, *pytest_args, "-p", "bench_nodb", *ids], cwd=tree,
                   env=env, ok=(0, 1))

    if name.startswith("hypo_suite"):  # the suite records its draws: both sides must draw the same
        drawn: list[str] = []
        for side in (ours, base):
            draws = tree.parent / f"{name}-draws-{len(drawn)}.txt"
            env["HYPO_SUITE_DRAWS"] = str(draws)
            side()
            del env["HYPO_SUITE_DRAWS"]
            drawn.append(draws.read_text() if draws.exists() else "")
        same = drawn[0] == drawn[1] and bool(drawn[0])
        say(f"# stamp {name}: both sides drew the same examples: {'yes' if same else 'NO'} "
            f"({drawn[0].count(chr(10))} draws)")
        if not same:
            raise RuntimeError(f"stamp {name}: the baseline does not run the same examples")
    a, b = interleaved(ours, base, reps)
    stamps = sum(1 for _ in (out / str(count[0])).glob("*.json"))
    ours_s = statistics.median(r.seconds for r in a)
    base_s = statistics.median(r.seconds for r in b)
    ratios = sorted(x.seconds / y.seconds for x, y in zip(a, b, strict=True))
    results.ratio(f"stamp {name} vs pytest", ours_s, base_s, target,
                  note=f"medians of {reps}, {len(ids)} gated tests, {stamps} stamps a run, "
                       f"pair ratios {ratios[0]:.2f}-{ratios[-1]:.2f}")
    if TIME.is_file():
        owns = [_own(tree, env, out / f"own-{n}", [sys.executable, *pytest_args, *ids])
                for n in range(reps)]
        cpu = statistics.median(own[0] for own in owns)
        results.ratio(f"stamp {name}: the gate's own CPU vs {OWN_TARGET:g} s", cpu, OWN_TARGET,
                      1.0, note=f"median of {reps}: {cpu:.3f}s CPU, "
                                f"{statistics.median(own[1] for own in owns):.3f}s wall; the "
                                "process tree's minus the test command's (GNU time inside the "
                                "run)")


def _own(tree: Path, env: dict[str, str], out: Path, command: list[str]) -> tuple[float, float]:
    """The gate's own CPU and wall seconds in one stamp run: the process tree's (``wait4``)
    minus the test command's, which runs under GNU time inside the run (its figures written
    in the tree: the workspace is writable at every isolation level)."""
    times = tree / ".bench-own-times"
    times.unlink(missing_ok=True)
    started = time.perf_counter()
    proc = subprocess.Popen([*gate_command(), "stamp", "--manifest", ".github/gate.yml",
                             "--server-class", "local-pinned", "--out", str(out), "--pytest",
                             "--", str(TIME), "-f", "%U %S %e", "-o", str(times), *command],
                            cwd=tree, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError(f"stamp run for the gate's own time exited {status}")
    user, system, elapsed = (float(x) for x in times.read_text().split()[-3:])
    times.unlink()
    return usage.ru_utime + usage.ru_stime - user - system, wall - elapsed


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GATE_", "PYTEST_"))}
    env.pop("CI", None)
    sdist = _sdist(quick)
    if sdist is None:
        say("# stamp: hpack skipped (--quick)")
    else:
        tree = _hpack_tree(work, sdist)
        hpack_env = {**env, "PYTHONPATH": str(tree / "src")}
        ids = _gated(tree, hpack_env, [])
        say(f"# stamp: hpack 4.1.0 from {sdist}, gate init: {len(ids)} properties")
        _measure(results, "hpack", tree, hpack_env, ids, reps, 1.05)
    tree = _hypo_tree(work)
    targets = ["hypo_props.py"] if quick else ["hypo_props.py", "hypo_stateful.py"]
    ids = _gated(tree, env, targets)
    say(f"# stamp: tests/hypo_suite ({', '.join(targets)}), gate init: {len(ids)} properties")
    _measure(results, "hypo_suite", tree, env, ids, reps, 1.05)
    if quick:
        return
    # gated tests of >= 20 s: the same suite with every card's cases raised (a card's cases are
    # the user's to choose; the baseline runs them as @settings(max_examples=n) would)
    long_tree = work / "hypo_long"
    shutil.copytree(tree, long_tree, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for card_path in (long_tree / ".github" / "gate-cards").glob("*.json"):
        card = json.loads(card_path.read_text())
        card["cases"] = LONG_CASES
        card_path.write_text(json.dumps(card, indent=2) + "\n")
    manifest = long_tree / ".github" / "gate.yml"  # cards gate init wrote in the manifest
    manifest.write_text(re.sub(r"card: \{cases: \d+,", f"card: {{cases: {LONG_CASES},",
                               manifest.read_text()))
    say(f"# stamp: tests/hypo_suite with every card's cases = {LONG_CASES}")
    _measure(results, "hypo_suite_long", long_tree, env, ids, reps, 1.02)
