"""The action's set-up step, under act: this tree's against main's, in the same act job.

Both set-up scripts are taken verbatim from their ``action.yml``: this tree's (installing with
the uv pinned by sha256 in requirements/installer.lock, which the step downloads) and main's
at the merge base with this branch (``git merge-base HEAD main``, extracted to a temporary
folder with ``git archive``: a ``--without-pip`` venv and pip, or a ``uv`` found on PATH). One
act job runs them as ``bash`` scripts in the job's environment (``RUNNER_TEMP``,
``GITHUB_OUTPUT``, ``GITHUB_ACTION_PATH`` pointed at the matching copy of the action),
interleaved: for each repetition baseline stamp, ours stamp, baseline gate, ours gate, each
**cold** (a fresh venv root, which also holds our uv binary and uv cache, and a fresh, empty
pip cache: nothing cached) and then **warm** (the same venv root again, as on a self-hosted
runner with ``AGENT_PATCH_GATE_VENV_ROOT`` or a second step in one job).

The packages come from the index (PyPI, reachable from the job), with the same machine
configuration for both sides: ``PIP_CONFIG_FILE=/dev/null`` and an empty ``PIP_FIND_LINKS``
(no local extra indexes or wheel folders, as on a GitHub-hosted runner). A ``uv`` on PATH
would make main's script install with it; the bench prints whether there was one, and the
load average before and after. Each figure is the median of ``reps`` runs; the ratio is
ours / baseline.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import yaml

from bench.common import ROOT, Results, say

BASELINE_BRANCH = "main"
TARGET_COLD = 3.0
TARGET_WARM = 0.3
SIDES = ("baseline", "ours")
MODES = ("stamp", "gate")
STATES = ("cold", "warm")

DRIVER = r"""
set -euo pipefail
echo "BENCHINFO uv-on-PATH=$(command -v uv || echo none) load=$(cut -d' ' -f1-3 /proc/loadavg)"
for rep in $(seq "$BENCH_REPS"); do
  for variant in $BENCH_VARIANTS; do
    side="${variant%%:*}"; mode="${variant##*:}"
    venvs="$BENCH_WORK/venvs-$side-$mode-$rep"
    for state in cold warm; do
      if [ "$state" = cold ]; then rm -rf "$venvs" "$BENCH_WORK/pip-cache"; fi
      start=$(date +%s%N)
      GITHUB_ACTION_PATH="$BENCH_WORK/$side" AGENT_PATCH_GATE_VENV_ROOT="$venvs" \
        PIP_CACHE_DIR="$BENCH_WORK/pip-cache" \
        GATE_PYTHON=python3 GATE_MODE="$mode" GITHUB_OUTPUT="$BENCH_WORK/out.txt" \
        bash "$BENCH_WORK/$side.sh" >>"$BENCH_WORK/setup.log" 2>&1
      end=$(date +%s%N)
      echo "BENCH $side $mode $state $(( (end - start) / 1000000 ))"
    done
  done
done
echo "BENCHINFO load-after=$(cut -d' ' -f1-3 /proc/loadavg)"
"""

WORKFLOW = """name: setup-bench
on: push
permissions: {}
jobs:
  setup:
    runs-on: ubuntu-latest
    steps:
      - name: Time both set-up scripts
        run: bash "$BENCH_WORK/driver.sh"
"""


def _setup_script(action_yml: str) -> str:
    steps = yaml.safe_load(action_yml)["runs"]["steps"]
    (step,) = [s for s in steps if s.get("id") == "setup"]
    return str(step["run"])


def baseline_commit() -> str:
    """The merge base of HEAD with main: the set-up this branch replaces."""
    return subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", BASELINE_BRANCH],
                          capture_output=True, text=True, check=True).stdout.strip()


def _trees(work: Path, commit: str) -> None:
    ours = work / "ours"
    ours.mkdir()
    for name in ("action.yml", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, ours / name)
    for folder in ("gate", "schemas", "requirements"):
        shutil.copytree(ROOT / folder, ours / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    base = work / "baseline"
    base.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "action.yml",
                              "pyproject.toml", "README.md", "gate", "schemas", "requirements"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    for side in SIDES:
        script = _setup_script((work / side / "action.yml").read_text(encoding="utf-8"))
        (work / f"{side}.sh").write_text(script, encoding="utf-8")
    (work / "driver.sh").write_text(DRIVER, encoding="utf-8")


def run_setup_bench(work: Path, reps: int) -> tuple[dict[tuple[str, str, str], float], str]:
    """Medians per (side, mode, state), and what the job said about uv on PATH and the load."""
    from tests.act.harness import run_act

    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    _trees(work, baseline_commit())
    repo = work / "repo"
    repo.mkdir()
    (repo / "wf.yml").write_text(WORKFLOW, encoding="utf-8")
    env = {"BENCH_WORK": str(work), "BENCH_REPS": str(reps),
           "BENCH_VARIANTS": " ".join(f"{side}:{mode}" for mode in MODES for side in SIDES),
           # the same for both sides: PyPI itself, no local pip config, indexes or wheels
           "PIP_CONFIG_FILE": "/dev/null", "PIP_FIND_LINKS": ""}
    result = run_act(repo, repo / "wf.yml", env=env, artifacts_dir=work / "artifacts",
                     timeout=3600)
    if result.returncode != 0:
        log = (work / "setup.log").read_text(errors="replace")[-3000:]
        raise RuntimeError("act run failed:\n" + result.log_tail(60) + "\n" + log)
    samples: dict[tuple[str, str, str], list[float]] = {}
    info: list[str] = []
    for line in result.job("setup").stdout.splitlines():
        if "BENCHINFO " in line:
            info.append(line[line.find("BENCHINFO ") + len("BENCHINFO "):].strip())
        parts = line[line.find("BENCH "):].split() if "BENCH " in line else []
        if len(parts) == 5:
            samples.setdefault((parts[1], parts[2], parts[3]), []).append(int(parts[4]) / 1000)
    return {key: statistics.median(values) for key, values in samples.items()}, "; ".join(info)


def _lines(figures: dict[tuple[str, str, str], float]) -> list[tuple[str, str, float, float]]:
    return [(mode, state, figures[("ours", mode, state)], figures[("baseline", mode, state)])
            for mode in MODES for state in STATES]


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    if quick:
        say("# setup: act runs skipped in --quick (a full run takes minutes)")
        return
    figures, info = run_setup_bench(work / "index", reps)
    say(f"# set-up: baseline = main's action.yml at the merge base {baseline_commit()[:7]}; "
        f"PyPI with PIP_CONFIG_FILE=/dev/null and empty PIP_FIND_LINKS for both; "
        f"median of {reps}; {info}")
    for mode, state, ours, base in _lines(figures):
        say(f"# set-up {mode} {state}: ours {ours:.3f}s, baseline {base:.3f}s, "
            f"ratio {ours / base:.3f}")
        target = TARGET_COLD if state == "cold" else TARGET_WARM
        results.ratio(f"set-up {mode} {state} (PyPI)", ours, base, None,
                      note=f"target ours <= {target}s: {'met' if ours <= target else 'MISSED'}")


if __name__ == "__main__":  # python -m bench.setup [reps]
    sys.path.insert(0, str(ROOT))
    args = sys.argv[1:]
    got, about = run_setup_bench(Path(os.environ.get("BENCH_TMP", "/tmp")) / "gate-setup-bench",
                                 int(args[0]) if args else 1)
    print(f"baseline: main's set-up at {baseline_commit()[:7]}; {about}")
    for mode, state, ours, base in _lines(got):
        print(f"{mode} {state}: ours {ours:.3f}s baseline {base:.3f}s ratio {ours / base:.3f}")
