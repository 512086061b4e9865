"""GitHub faults against the API double: the exit status is the gate's decision, whatever
GitHub did, and a check run is never created twice.

Each scenario injects faults into a fresh :class:`GitHubDouble` and runs ``gate publish
--report R`` (in-process through :func:`gate.commands.main.main` with the job's environment; two
scenarios also as a real subprocess) once with an open report and once with a closed one, then
once more with the same job identity (a re-run of the step: same ``external_id``, same
``RUNNER_TEMP`` marker). Figures: faults injected (responses the double answered with a
fault, or delayed past the client's timeout), runs, runs whose exit status differed from the
report's decision (must be 0), duplicate check runs (more than one run per name, head SHA
and ``external_id``; must be 0), requests the double found invalid (must be 0).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gate.commands import main as cli
from gate.decide import stamps
from gate.records import load as records
from gate.records import report as report_mod
from tests.github_double import NOT_ACCESSIBLE_MESSAGE, WRITE_TOKEN, Fault, GitHubDouble
from tests.hardening import figures, fuzzlib

SECTION = "github faults"
HEAD = "a" * 40
FLAGS = ["--backoff", "0.05", "--max-wait", "2", "--timeout", "1", "--max-retries", "3"]

# name -> list of GitHubDouble.inject keyword arguments (or ("secondary", kwargs))
SCENARIOS: dict[str, list[dict[str, Any]]] = {
    "500 burst on create": [{"operation": "create_check_run", "status": 500, "times": 2}],
    "502 burst on create": [{"operation": "create_check_run", "status": 502, "times": 3}],
    "503 on every request, twice": [{"status": 503, "times": 2}],
    "503 burst on the look-up": [{"operation": "list_check_runs_for_ref", "status": 503,
                                  "times": 3}],
    "500 forever on create": [{"operation": "create_check_run", "status": 500, "times": None}],
    "timeout on create (applied late)": [{"operation": "create_check_run", "delay": 1.6}],
    "timeout on the look-up": [{"operation": "list_check_runs_for_ref", "delay": 1.6,
                                "times": 2}],
    "secondary rate limit on create": [{"secondary": True, "operation": "create_check_run",
                                        "retry_after": 1}],
    "secondary rate limit, Retry-After too long": [{"secondary": True,
                                                    "operation": "create_check_run",
                                                    "retry_after": 600, "times": None}],
    "401 bad credentials": [{"status": 401, "times": None}],
    "403 not accessible by integration": [{"status": 403, "times": None,
                                           "body": {"message": NOT_ACCESSIBLE_MESSAGE}}],
    "404 repository not found": [{"status": 404, "times": None}],
    "dropped connection on create": [{"operation": "create_check_run", "drop": True}],
    "dropped connection on update": [{"operation": "update_check_run", "drop": True}],
    "dropped connection on the look-up": [{"operation": "list_check_runs_for_ref",
                                           "drop": True}],
    "mixed: drop, 502, rate limit": [
        {"operation": "create_check_run", "drop": True},
        {"status": 502, "times": 1},
        {"secondary": True, "operation": "create_check_run", "retry_after": 1}],
}


def _report(closed: bool, many: int = 60) -> dict[str, Any]:
    """An open report (one accepted pair), or a closed one with ``many`` rejected pairs
    (more than 50 annotations, so publishing needs a create and an update)."""
    pairs = []
    count = many if closed else 1
    for n in range(count):
        local = fuzzlib.stamp("local-pinned", "pass", f"l{n}")
        free = fuzzlib.stamp("free-server", "assert_fail" if closed else "pass", f"f{n}")
        local["test_id"] = free["test_id"] = f"tests/test_x.py::t{n}"
        result = stamps.classify_pair(local, free, (), fuzzlib.NOW)
        pairs.append(report_mod.cross_class_pair(local, free, result, ("a.json", "b.json")))
    return report_mod.build(pairs, fuzzlib.NOW)


def _env(double: GitHubDouble, runner_temp: Path) -> dict[str, str]:
    return {"GITHUB_TOKEN": WRITE_TOKEN, "GITHUB_API_URL": double.base_url,
            "GITHUB_REPOSITORY": "acme/gate", "GITHUB_SHA": HEAD, "GITHUB_RUN_ID": "42",
            "GITHUB_RUN_ATTEMPT": "1", "GITHUB_JOB": "gate", "RUNNER_TEMP": str(runner_temp)}


def _inject(double: GitHubDouble, faults: list[dict[str, Any]]) -> list[Fault]:
    made = []
    for spec in faults:
        spec = dict(spec)
        if spec.pop("secondary", False):
            made.append(double.inject_secondary_rate_limit(**spec))
        else:
            made.append(double.inject(**spec))
    return made


def _publish_inprocess(report_path: Path, env: dict[str, str],
                       monkeypatch: pytest.MonkeyPatch) -> int:
    with monkeypatch.context() as patch:
        for key in list(os.environ):
            if key.startswith("GITHUB_") or key == "RUNNER_TEMP":
                patch.delenv(key)
        for key, value in env.items():
            patch.setenv(key, value)
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            return cli.main(["publish", "--report", str(report_path), *FLAGS])


def _publish_subprocess(report_path: Path, env: dict[str, str]) -> int:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("GITHUB_") and k != "RUNNER_TEMP"}
    done = subprocess.run([sys.executable, "-m", "gate", "publish", "--report",
                           str(report_path), *FLAGS], env={**clean, **env},
                          capture_output=True, text=True, timeout=120, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


def _duplicates(double: GitHubDouble) -> int:
    keys = Counter((run.get("name"), run.get("head_sha"), run.get("external_id"))
                   for run in double.check_runs.values())
    return sum(n - 1 for n in keys.values() if n > 1)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_fault_never_changes_the_exit_status(scenario: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    subprocess_run = scenario in ("dropped connection on create", "500 burst on create")
    differed = duplicates = runs = fired = invalid = 0
    for closed in (False, True):
        report = _report(closed)
        path = tmp_path / f"report-{closed}.json"
        records.write_report(path, report)
        expected = 1 if closed else 0
        with GitHubDouble() as double:
            injected = _inject(double, SCENARIOS[scenario])
            runner_temp = tmp_path / f"rt-{closed}"
            runner_temp.mkdir()
            env = _env(double, runner_temp)
            for attempt in range(2):  # the step, then a re-run of it in the same job attempt
                if subprocess_run and attempt == 0:
                    code = _publish_subprocess(path, env)
                else:
                    code = _publish_inprocess(path, env, monkeypatch)
                runs += 1
                differed += int(code != expected)
            fired += sum(fault.hits for fault in injected)
            duplicates += _duplicates(double)
            invalid += len(double.invalid_requests())
    figures.add(SECTION, "scenarios")
    figures.add(SECTION, "runs", runs)
    figures.add(SECTION, "faults injected (fired)", fired)
    figures.add(SECTION, "runs whose exit status differed from the decision", differed)
    figures.add(SECTION, "duplicate check runs", duplicates)
    figures.add(SECTION, "requests the double found invalid", invalid)
    assert fired > 0, "the scenario injected nothing"
    assert differed == 0
    assert duplicates == 0
    assert invalid == 0
