"""The action's set-up step, under act: this tree's against the set-up before the fast one.

Both set-up scripts are taken verbatim from their ``action.yml`` (this tree's, and the one at
``BASELINE_COMMIT``, which built a virtual environment with pip, installed all 26 locked
packages with hatchling and built the action's own wheel). One act job runs them as
``bash`` scripts in the job's environment (``RUNNER_TEMP``, ``GITHUB_OUTPUT``,
``GITHUB_ACTION_PATH`` pointed at the matching copy of the action), interleaved, each **cold**
(a fresh venv root and a fresh, empty pip cache: nothing cached) and then **warm** (the same
venv root again, as on a self-hosted runner with ``AGENT_PATCH_GATE_VENV_ROOT`` or a second
step in one job). Two package sources: the package index (``index``: PyPI, reachable from the
job) and the offline wheelhouse (``wheelhouse``: ``GATE_WHEELHOUSE``, as the act tests use).
With ``uv`` on PATH (or ``BENCH_UV`` naming it) a third variant runs this tree's script with
uv installing (``uv``). Each line reports the median of ``reps`` runs; the ratio is ours /
baseline.
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

BASELINE_COMMIT = "1cf98a08cdf6ad4f8540e158dded5e2b20fdcdc1"
TARGET_COLD = 3.0
TARGET_WARM = 0.3

DRIVER = r"""
set -euo pipefail
for rep in $(seq "$BENCH_REPS"); do
  for variant in $BENCH_VARIANTS; do
    side="${variant%%:*}"; mode="${variant##*:}"
    venvs="$BENCH_WORK/venvs-$side-$mode-$rep"
    for state in cold warm; do
      if [ "$state" = cold ]; then rm -rf "$venvs" "$BENCH_WORK/pip-cache"; fi
      tree="$side"; path="$PATH"
      if [ "$side" = uv ]; then tree=ours; path="$BENCH_UV_DIR:$PATH"; fi
      start=$(date +%s%N)
      PATH="$path" GITHUB_ACTION_PATH="$BENCH_WORK/$tree" AGENT_PATCH_GATE_VENV_ROOT="$venvs" \
        PIP_CACHE_DIR="$BENCH_WORK/pip-cache" UV_CACHE_DIR="$BENCH_WORK/pip-cache" \
        GATE_PYTHON=python3 GATE_MODE="$mode" GITHUB_OUTPUT="$BENCH_WORK/out.txt" \
        bash "$BENCH_WORK/$tree.sh" >>"$BENCH_WORK/setup.log" 2>&1
      end=$(date +%s%N)
      echo "BENCH $side $mode $state $(( (end - start) / 1000000 ))"
    done
  done
done
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


def _trees(work: Path) -> None:
    ours = work / "ours"
    ours.mkdir()
    for name in ("action.yml", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, ours / name)
    for folder in ("gate", "schemas", "requirements"):
        shutil.copytree(ROOT / folder, ours / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    base = work / "baseline"
    base.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", BASELINE_COMMIT, "action.yml",
                              "pyproject.toml", "README.md", "gate", "schemas", "requirements"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    for side in ("ours", "baseline"):
        script = _setup_script((work / side / "action.yml").read_text(encoding="utf-8"))
        (work / f"{side}.sh").write_text(script, encoding="utf-8")
    (work / "driver.sh").write_text(DRIVER, encoding="utf-8")


def _uv(work: Path) -> Path | None:
    """A folder holding ``uv`` (``$BENCH_UV``, or the one on PATH), for the ours+uv variant."""
    given = os.environ.get("BENCH_UV") or shutil.which("uv")
    if not given:
        return None
    folder = work / "uv-bin"
    folder.mkdir()
    (folder / "uv").symlink_to(Path(given).resolve())
    return folder


def run_setup_bench(work: Path, reps: int, source: str) -> dict[tuple[str, str, str], float]:
    from tests.act.harness import run_act

    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    _trees(work)
    repo = work / "repo"
    repo.mkdir()
    (repo / "wf.yml").write_text(WORKFLOW, encoding="utf-8")
    variants = "baseline:stamp ours:stamp baseline:gate ours:gate"
    env = {"BENCH_WORK": str(work), "BENCH_REPS": str(reps), "BENCH_VARIANTS": variants}
    uv = _uv(work)
    if uv is not None:
        env["BENCH_UV_DIR"] = str(uv)
        env["BENCH_VARIANTS"] = variants + " uv:stamp uv:gate"
    if source == "index":  # PyPI itself: no local find-links or config files
        env.update(PIP_CONFIG_FILE="/dev/null", PIP_FIND_LINKS="")
    if source == "wheelhouse":
        wheels = os.environ.get("GATE_WHEELHOUSE", "")
        if not wheels:
            raise RuntimeError("GATE_WHEELHOUSE is not set")
        env.update(PIP_FIND_LINKS=wheels, PIP_NO_INDEX="1", UV_FIND_LINKS=wheels,
                   UV_NO_INDEX="1")
    result = run_act(repo, repo / "wf.yml", env=env, artifacts_dir=work / "artifacts",
                     timeout=3600)
    if result.returncode != 0:
        log = (work / "setup.log").read_text(errors="replace")[-3000:]
        raise RuntimeError("act run failed:\n" + result.log_tail(60) + "\n" + log)
    samples: dict[tuple[str, str, str], list[float]] = {}
    for line in result.job("setup").stdout.splitlines():
        parts = line[line.find("BENCH "):].split() if "BENCH " in line else []
        if len(parts) == 5:
            samples.setdefault((parts[1], parts[2], parts[3]), []).append(int(parts[4]) / 1000)
    return {key: statistics.median(values) for key, values in samples.items()}


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    if quick:
        say("# setup: act runs skipped in --quick (a full run takes minutes)")
        return
    sources = ["index", "wheelhouse"] if os.environ.get("GATE_WHEELHOUSE") else ["index"]
    for source in sources:
        got = run_setup_bench(work / source, reps, source)
        for side in ("ours", "uv"):
            for mode in ("stamp", "gate"):
                for state in ("cold", "warm"):
                    if (side, mode, state) not in got:
                        continue
                    ours, base = got[(side, mode, state)], got[("baseline", mode, state)]
                    say(f"# set-up {source} {side} {mode} {state}: {ours:.3f}s, baseline "
                        f"{base:.3f}s")
                    target = TARGET_COLD if state == "cold" else TARGET_WARM
                    results.ratio(f"set-up {side} {mode} {state} ({source})", ours, base, None,
                                  note=f"target {side} <= {target}s: "
                                       f"{'met' if ours <= target else 'MISSED'}")


if __name__ == "__main__":  # python -m bench.setup [reps] [index|wheelhouse]
    sys.path.insert(0, str(ROOT))
    args = sys.argv[1:]
    figures = run_setup_bench(Path(os.environ.get("BENCH_TMP", "/tmp")) / "gate-setup-bench",
                              int(args[0]) if args else 1, args[1] if len(args) > 1 else "index")
    for key, value in sorted(figures.items()):
        print(*key, f"{value:.3f}")
