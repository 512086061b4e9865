"""The action: GitHub API requests per annotation count (on the API double), and the wall time
of the example workflow's gate job under act, from a cold and from a reused environment."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.common import ROOT, Results, say

COUNTS_QUICK = (0, 1, 51, 120)
COUNTS_FULL = (0, 1, 50, 51, 100, 101, 120, 500, 1000)


def expected(n: int) -> int:
    """1 create + ceil((N - 50) / 50) updates (computed here, not taken from gate.github.checks)."""
    return 1 + max(0, math.ceil((n - 50) / 50))


def requests_for(n: int, state_dir: Path | None) -> dict[str, int]:
    from gate.github import checks
    from tests.github_double import WRITE_TOKEN, GitHubDouble
    from tests.test_summary import make_report
    from tests.typed_report import typed

    with GitHubDouble() as double:
        settings = checks.Settings(
            token=WRITE_TOKEN, api_url=double.base_url, repository="o/r",
            head_sha="c0ffee" + "0" * 34, external_id="123-1-gate", backoff=0.0,
            max_wait=5.0, timeout=5, state_dir=state_dir)
        result = checks.publish(typed(make_report(rejected=n, accepted=3)), settings)
        assert result.published, result.reason
        assert double.invalid_requests() == []
        return {"create": double.count("create_check_run"),
                "update": double.count("update_check_run"),
                "read": len(double.requests) - double.count("create_check_run")
                - double.count("update_check_run"),
                "total": len(double.requests)}


def bench_requests(results: Results, work: Path, quick: bool) -> None:
    worst = 0.0
    for n in COUNTS_QUICK if quick else COUNTS_FULL:
        with tempfile.TemporaryDirectory(dir=work) as state:
            marked = requests_for(n, Path(state))
        unmarked = requests_for(n, None)
        writes = marked["create"] + marked["update"]
        say(f"# publish N={n:<5} expected writes {expected(n):<3} | with a state dir: "
            f"create={marked['create']} update={marked['update']} read={marked['read']} | "
            f"without: create={unmarked['create']} update={unmarked['update']} "
            f"read={unmarked['read']}")
        ok = (marked["create"] == 1 and writes == expected(n) and marked["read"] == 0
              and unmarked["create"] + unmarked["update"] == expected(n)
              and unmarked["read"] <= 1)
        worst = max(worst, (unmarked["total"]) / (expected(n) + 1), writes / expected(n))
        if not ok:
            worst = math.inf
    results.ratio("action API requests vs 1+ceil((N-50)/50)", worst, 1.0, 1.0, unit="x",
                  note="worst over N of writes/expected and (writes+reads)/(expected+1)")


def _job_seconds(records: list[dict[str, Any]], job: str) -> float | None:
    stamps = []
    for rec in records:
        if rec.get("jobID") == job and isinstance(rec.get("time"), str):
            try:
                stamps.append(datetime.fromisoformat(rec["time"].replace("Z", "+00:00")))
            except ValueError:
                continue
    if len(stamps) < 2:
        return None
    return (max(stamps) - min(stamps)).total_seconds()


def _wheelhouse(work: Path) -> Path:
    given = os.environ.get("GATE_WHEELHOUSE")
    if given and Path(given).is_dir():
        return Path(given)
    target = work / "wheelhouse"
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--require-hashes",
                    "--only-binary", ":all:", "-r", str(ROOT / "requirements" / "action.lock"),
                    "-d", str(target)], check=True)
    return target


def _act(work: Path, wheelhouse: Path, venv_root: Path | None) -> tuple[float, float | None]:
    from tests.act.harness import STANDINS_DIR, run_act
    from tests.github_double import WRITE_TOKEN, GitHubDouble
    from tests.test_action_act import HEAD_SHA, SETUP_PYTHON, _project_copy

    repo = work / "repo"
    repo.mkdir(parents=True)
    workflow = _project_copy(repo)
    env = {"PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1", "GATE_EXAMPLE_FAIL": "",
           "AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri()}
    if venv_root is not None:
        env["AGENT_PATCH_GATE_VENV_ROOT"] = str(venv_root)
    with GitHubDouble(accept_any_token=False) as double:
        env["GITHUB_API_URL"] = double.base_url
        result = run_act(
            repo, workflow, event="pull_request",
            event_payload={"number": 7, "pull_request": {
                "number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}}},
            env=env, secrets={"GITHUB_TOKEN": WRITE_TOKEN}, artifacts_dir=work / "artifacts",
            timeout=900, repository="acme/gate-example",
            extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}"])
        if result.returncode != 0:
            raise RuntimeError("act run failed:\n" + result.log_tail(60))
        say(f"#   act: create={double.count('create_check_run')} "
            f"update={double.count('update_check_run')} requests={len(double.requests)}")
    return result.seconds, _job_seconds(result.records, "gate")


def bench_act(results: Results, work: Path) -> None:
    wheelhouse = _wheelhouse(work)
    cold_total, cold_gate = _act(work / "cold", wheelhouse, None)
    say(f"# act, cold environment (each job builds its venv): workflow {cold_total:.1f}s, "
        f"gate job {cold_gate}s")
    root = work / "venvs"
    warm_total, warm_gate = _act(work / "warm", wheelhouse, root)  # stamp jobs build, gate reuses
    say(f"# act, AGENT_PATCH_GATE_VENV_ROOT (gate job reuses the stamp jobs' venv): workflow "
        f"{warm_total:.1f}s, gate job {warm_gate}s")
    again_total, again_gate = _act(work / "again", wheelhouse, root)  # every job reuses
    say(f"# act, reused environment (every job): workflow {again_total:.1f}s, "
        f"gate job {again_gate}s")
    if cold_gate and again_gate:
        results.ratio("action gate job reused vs cold", again_gate, cold_gate, None,
                      note=f"whole workflow {again_total:.1f}s vs {cold_total:.1f}s")
    else:
        results.ratio("action workflow reused vs cold", again_total, cold_total, None)


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool,
          act: bool = True) -> None:
    bench_requests(results, work, quick)
    if act and not quick:
        bench_act(results, work)
    else:
        say("# act runs skipped (--quick or --no-act)")
