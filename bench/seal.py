"""The seal's cost (issue 27): the set-up step with and without it, and the check alone.

Run directly (not under act), each script taken verbatim from an ``action.yml``: this tree's
set-up step (the installer, then ``requirements/seal.sh record``) against the same step
without the seal (this tree's script with the seal's lines taken out: the installer's own
cost is the same on both sides), interleaved, **cold** (a fresh venv root: uv fetched and the
venv built) and **warm** (the same root again: the venv verified and reused), in stamp mode.
The package sources are this machine's (``PIP_FIND_LINKS``, its index), so absolute times are
not a runner's. The installer's own bytecode warm-up (``warm``: what the steps import, written
into the venv when it is built) is on both sides: it is the seal's, but part of the build.
CPU seconds (user + system of the process tree) are printed beside the wall times, which a
loaded machine stretches. Then the check a later step runs before the gate's Python (the sign step's
``run:`` up to its ``exec``: two ``sha256sum --check`` and ``seal.sh verify``) against the
start-up it guards (the venv's ``python -I -m gate --version``). Medians of ``reps``; the load
average is printed beside each figure.

Then the two later defences, warm, interleaved: **a later use in the job** (its set-up checks
the first use's seal from ``GITHUB_ENV`` with ``seal.sh later``, reuses that venv and seals
anew within the first use's roots) against what a later use did before (the warm set-up: the
installer's check, then a fresh seal); and **``uses: ./``** (the set-up with the action in the
workspace: ``seal.sh place`` copies it out, the seal hashes the copy and ``action.yml``)
against the same set-up with the action outside it.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import statistics
import subprocess
import time
from pathlib import Path

import yaml

from bench.common import ROOT, Results, say

TARGET_COLD = 3.0
TARGET_WARM = 0.3
#: What the stamp and sign steps import (seal.sh's warm-up imports the same).
IMPORTS = "import gate.github.action, gate.records.signing, gate.records.policy"


def _action_copy(folder: Path) -> Path:
    """The action's files (what the runner fetches: action.yml, the package, schemas,
    requirements) copied into the new ``folder``, without bytecode."""
    folder.mkdir()
    for name in ("action.yml", "pyproject.toml"):
        shutil.copy2(ROOT / name, folder / name)
    for sub in ("gate", "schemas", "requirements"):
        shutil.copytree(ROOT / sub, folder / sub,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return folder


def _steps() -> dict[str, str]:
    steps = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]
    return {str(s["id"]): str(s["run"]) for s in steps if s.get("id") and s.get("run")}


def without_seal(script: str) -> str:
    """The set-up script with the seal's lines (and their comment) taken out."""
    start = script.index("        # The seal (") if "        # The seal (" in script else \
        script.index("# The seal (")
    end = script.index('echo "seal-sha256=$seal_sha256" >> "$GITHUB_OUTPUT"\n') + len(
        'echo "seal-sha256=$seal_sha256" >> "$GITHUB_OUTPUT"\n')
    return script[:start] + script[end:]


def check_part(script: str) -> str:
    """The sign step's run: up to (not including) the ``exec`` of the gate's Python."""
    return script[:script.index("exec ")]


CPU: list[float] = []  # the CPU seconds (user + system) of the last _timed's process tree


def _timed(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"{argv[:3]} exited {done.returncode}: {done.stderr[-2000:]}")
    return seconds


def _outputs(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^([\w-]+)=(.*)$", path.read_text(encoding="utf-8"), re.M))


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    if quick:
        say("# seal: skipped in --quick (it builds venvs: a full run takes a minute or two)")
        return
    steps = _steps()
    action = _action_copy(work / "action")
    ws = work / "ws"
    (ws / ".github").mkdir(parents=True)
    shutil.copy2(ROOT / "gate" / "examples" / "manifest.yml", ws / ".github" / "gate.yml")
    scripts = {"ours": steps["setup"], "baseline": without_seal(steps["setup"])}
    env = {**os.environ, "GITHUB_ACTION_PATH": str(action), "GITHUB_WORKSPACE": str(ws),
           "GATE_PYTHON": "python3", "GATE_MODE": "stamp", "GATE_MANIFEST": ".github/gate.yml",
           "GATE_POLICY": ".github/gate-policy.yml"}
    samples: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], list[float]] = {}
    loads: list[float] = []
    check = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
             check_part(steps["sign"])]
    for rep in range(reps):
        for side in ("baseline", "ours"):
            root = work / f"venvs-{side}-{rep}"
            temp = work / f"runner-{side}-{rep}"
            temp.mkdir()
            for state in ("cold", "warm"):
                out = work / f"out-{side}-{rep}-{state}"
                out.write_text("", encoding="utf-8")
                loads.append(os.getloadavg()[0])
                step_env = {**env, "AGENT_PATCH_GATE_VENV_ROOT": str(root),
                            "RUNNER_TEMP": str(temp), "GITHUB_OUTPUT": str(out)}
                seconds = _timed(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                  scripts[side]], step_env, ws)
                samples.setdefault((side, state), []).append(seconds)
                cpu.setdefault((side, state), []).append(CPU[-1])
                # the first later step's check and imports (today's steps compile and write
                # the bytecode the set-up's seal now writes)
                made = _outputs(out)
                first = {**step_env, "GATE_SEAL": made.get("seal", ""),
                         "GATE_SEAL_SHA256": made.get("seal-sha256", ""),
                         "GATE_VENV_PYTHON": made["python"]}
                flags = ["-B", "-X", f"pycache_prefix={made.get('seal')}/pycache"] \
                    if side == "ours" else []
                used = CPU[-1]
                if side == "ours":
                    seconds += _timed(check, first, ws)
                    used += CPU[-1]
                seconds += _timed([made["python"], "-I", *flags, "-c", IMPORTS], first, ws)
                samples.setdefault((side, f"{state}+first"), []).append(seconds)
                cpu.setdefault((side, f"{state}+first"), []).append(used + CPU[-1])
            if side == "ours":
                sealed = made
    say(f"# seal: set-up step in stamp mode, this machine's package sources, median of {reps}, "
        f"load {min(loads):.2f}-{max(loads):.2f}")
    for state in ("cold", "warm"):
        ours = statistics.median(samples[("ours", state)])
        base = statistics.median(samples[("baseline", state)])
        target = TARGET_COLD if state == "cold" else TARGET_WARM
        results.ratio(f"seal set-up {state}", ours, base, None,
                      note=f"target ours <= {target}s: {'met' if ours <= target else 'MISSED'}"
                           f"; seal alone {ours - base:+.3f}s; CPU median ours "
                           f"{statistics.median(cpu[('ours', state)]):.3f}s, baseline "
                           f"{statistics.median(cpu[('baseline', state)]):.3f}s")
        results.ratio(f"seal set-up {state} + first step", statistics.median(
            samples[("ours", f"{state}+first")]), statistics.median(
            samples[("baseline", f"{state}+first")]), None,
            note="the first later step's check and imports added on both sides; CPU median "
                 f"ours {statistics.median(cpu[('ours', f'{state}+first')]):.3f}s, baseline "
                 f"{statistics.median(cpu[('baseline', f'{state}+first')]):.3f}s")
    check_env = {**env, "GATE_SEAL": sealed["seal"], "GATE_SEAL_SHA256": sealed["seal-sha256"],
                 "GATE_VENV_PYTHON": sealed["python"]}
    start = [sealed["python"], "-I", "-B", "-X", f"pycache_prefix={sealed['seal']}/pycache",
             "-c", IMPORTS]
    checks: list[float] = []
    check_cpu: list[float] = []
    starts: list[float] = []
    for _ in range(max(reps, 5)):
        checks.append(_timed(check, check_env, ws))
        check_cpu.append(CPU[-1])
        starts.append(_timed(start, check_env, ws))
    results.ratio("seal check before a step", statistics.median(checks),
                  statistics.median(starts), None,
                  note="baseline: the imports it guards (the sign step's, bytecode sealed); "
                       f"check CPU median {statistics.median(check_cpu):.3f}s")
    later_and_copy(results, work, max(reps, 5), steps["setup"], env, root=work / "venvs-ours-0")


def _env_lines(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^([A-Za-z_]\w*)=(.*)$", path.read_text(encoding="utf-8"), re.M))


def later_and_copy(results: Results, work: Path, reps: int, setup: str, env: dict[str, str],
                   root: Path) -> None:
    """A later use's set-up vs a warm first use's; ``uses: ./`` vs an action elsewhere."""
    bash = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", setup]
    inside = _action_copy(work / "ws-inside")
    shutil.copytree(work / "ws" / ".github", inside / ".github")
    count = 0

    def run(extra: dict[str, str]) -> tuple[float, float, dict[str, str]]:
        nonlocal count
        count += 1
        # one runner folder for the uses: ./ runs (the copy's path, in the venv's name, is the
        # same job after job, as RUNNER_TEMP is on a runner): else each run builds anew
        inside_run = extra.get("GITHUB_ACTION_PATH") == str(inside)
        temp = work / ("later-runner-inside" if inside_run else f"later-runner-{count}")
        temp.mkdir(exist_ok=True)
        out, env_file = work / f"later-out-{count}", work / f"later-env-{count}"
        out.write_text("", encoding="utf-8")
        env_file.write_text("", encoding="utf-8")
        step = {**env, "AGENT_PATCH_GATE_VENV_ROOT": str(root), "RUNNER_TEMP": str(temp),
                "GITHUB_OUTPUT": str(out), "GITHUB_ENV": str(env_file), **extra}
        seconds = _timed(bash, step, Path(step["GITHUB_WORKSPACE"]))
        return seconds, CPU[-1], {**_env_lines(env_file), "RUNNER_TEMP": str(temp)}

    _, _, first = run({})  # a first use: its seal is what the later uses check
    run({"GITHUB_ACTION_PATH": str(inside), "GITHUB_WORKSPACE": str(inside)})  # build, cold
    samples: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    loads: list[float] = []
    for _ in range(reps):
        loads.append(os.getloadavg()[0])
        for name, extra in (("warm first use", {}), ("later use", first),
                            ("uses: ./", {"GITHUB_ACTION_PATH": str(inside),
                                          "GITHUB_WORKSPACE": str(inside)})):
            seconds, used, _ = run(extra)
            samples.setdefault(name, []).append(seconds)
            cpu.setdefault(name, []).append(used)
    say(f"# seal, later defences: set-up step warm, median of {reps}, "
        f"load {min(loads):.2f}-{max(loads):.2f}")
    median = statistics.median
    results.ratio("seal later use set-up", median(samples["later use"]),
                  median(samples["warm first use"]), None,
                  note="the first use's seal checked (seal.sh later), its venv reused, sealed "
                       "within its roots; baseline: the warm set-up a later use ran before; CPU "
                       f"median {median(cpu['later use']):.3f}s vs "
                       f"{median(cpu['warm first use']):.3f}s")
    results.ratio("seal uses: ./ set-up (copy)", median(samples["uses: ./"]),
                  median(samples["warm first use"]), None,
                  note="the action copied out of the workspace and the copy and action.yml "
                       "hashed; baseline: the same set-up with the action outside the workspace; "
                       f"CPU median {median(cpu['uses: ./']):.3f}s vs "
                       f"{median(cpu['warm first use']):.3f}s")
