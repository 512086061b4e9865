"""Trusted publishing for fork pull requests, run for real under act (examples/workflows/).

Run 1, ``properties.yml`` on a ``pull_request`` from a fork with a read-only token: it stamps the
free-server class and uploads the stamps; it publishes nothing. Run 2, ``properties-gate.yml``
on the ``workflow_run`` event of run 1: it stamps the local-pinned class itself, downloads run
1's artifacts (the download stand-in fakes the cross-run download from ``GATE_ACT_RUNS`` and
logs the inputs it was given, which are asserted), pairs, publishes the check run on the pull
request's head SHA taken from the event, and writes the job summary.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests import test_action_act as base
from tests.act.harness import STANDINS_DIR, ActResult, run_act
from tests.github_double import READ_ONLY_TOKEN, WRITE_TOKEN, GitHubDouble
from tests.test_action_act import FOUR, HEAD_SHA, ROOT, SETUP_PYTHON, _project_copy

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683"

RUN_1 = 4242
BASE = "acme/gate-example"
FORK = "mallory/gate-example"
WORKFLOWS = ROOT / "examples" / "workflows"


def _repo(tmp_path: Path, name: str) -> Path:
    work = tmp_path / name
    work.mkdir()
    _project_copy(work)
    for path in WORKFLOWS.glob("*.yml"):
        shutil.copy2(path, work / ".github" / "workflows" / path.name)
    return work


def _act(work: Path, workflow: str, event: str, payload: dict[str, Any], double: GitHubDouble,
         token: str, artifacts: Path, wheelhouse: Path, **env: str) -> ActResult:
    return run_act(
        work, work / ".github" / "workflows" / workflow, event=event, event_payload=payload,
        env={"GITHUB_API_URL": double.base_url, "PIP_FIND_LINKS": str(wheelhouse),
             "PIP_NO_INDEX": "1",
             "AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri(), **env},
        secrets={"GITHUB_TOKEN": token}, artifacts_dir=artifacts, timeout=900,
        repository=BASE,
        extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}",
                    "--local-repository", f"{CHECKOUT}={STANDINS_DIR / 'checkout'}"])


def fork_pull_request() -> dict[str, Any]:
    return {"number": 7, "pull_request": {
        "number": 7, "head": {"sha": HEAD_SHA, "ref": "patch", "repo": {"full_name": FORK}},
        "base": {"ref": "main", "repo": {"full_name": BASE}}}}


def workflow_run_event() -> dict[str, Any]:
    return {"action": "completed", "workflow_run": {
        "id": RUN_1, "name": "properties", "event": "pull_request", "status": "completed",
        "conclusion": "success", "head_sha": HEAD_SHA, "head_branch": "patch",
        "run_attempt": 1, "repository": {"full_name": BASE},
        "head_repository": {"full_name": FORK}, "pull_requests": []},
        "repository": {"full_name": BASE, "default_branch": "main"}}


def test_fork_pull_request_stamps_then_the_trusted_run_publishes(
        tmp_path: Path, wheelhouse: Path) -> None:
    runs = tmp_path / "runs"
    log = tmp_path / "downloads.jsonl"
    with GitHubDouble(accept_any_token=False) as double:
        first = _act(_repo(tmp_path, "pr"), "properties.yml", "pull_request",
                     fork_pull_request(), double, READ_ONLY_TOKEN, runs / str(RUN_1),
                     wheelhouse, GATE_ACT_DOWNLOAD_LOG=str(log))
        assert first.returncode == 0, first.log_tail(120)
        assert first.job("stamp").succeeded
        assert double.requests == []  # the fork's run publishes nothing
        (artifact,) = (runs / str(RUN_1)).iterdir()
        assert artifact.name.startswith("gate-stamps-free-server-stamp-1-")
        assert len(list(artifact.glob("*.json"))) == 3
        # the README's recorder route: the cards governed the fork's run (issue 22)
        for stamp in (json.loads(p.read_text()) for p in artifact.glob("*.json")):
            assert stamp["source"] == "pytest-recorder" and stamp["hypothesis"], stamp
        assert not log.exists()  # and downloads nothing

        # GitHub lists no pull request for a fork's run: the judge files are its head against
        # the default branch, asked of the compare API without checking the fork out
        double.set_comparison(BASE, "main", HEAD_SHA, ["README.md", "pytest.ini"])
        checkouts = tmp_path / "checkouts.jsonl"
        pr_tree = tmp_path / "pr"
        second = _act(_repo(tmp_path, "base"), "properties-gate.yml", "workflow_run",
                      workflow_run_event(), double, WRITE_TOKEN, runs / "current", wheelhouse,
                      GATE_ACT_RUNS=str(runs), GATE_ACT_DOWNLOAD_LOG=str(log),
                      GATE_ACT_CHECKOUT_FROM=str(pr_tree), GATE_ACT_CHECKOUT_LOG=str(checkouts))
        assert second.returncode == 0, second.log_tail(120)
        assert double.invalid_requests() == []
        (check,) = double.check_runs.values()
        assert double.count("compare_commits") == 1

    # The local-pinned leg checked out the pull request's head commit, named by the event.
    assert [json.loads(line) for line in checkouts.read_text().splitlines()] == [
        {"ref": HEAD_SHA, "repository": "", "persist-credentials": "false"}]
    downloads = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(downloads) == 2
    theirs, ours = downloads
    assert (theirs["run-id"], theirs["repository"], theirs["github-token"]) == (
        str(RUN_1), BASE, WRITE_TOKEN)
    assert theirs["pattern"] == ours["pattern"] == "gate-stamps-*"
    assert ours["github-token"] == ""  # this run's own (trusted) artifacts: no token, no run-id
    assert check["head_sha"] == HEAD_SHA  # from the workflow_run event
    assert check["conclusion"] == "success"
    assert check["name"] == "agent-patch gate (properties)"
    gate = second.job("gate")
    assert gate.outputs["gate"]["decision"] == "open"
    assert FOUR.findall(gate.summary) == []  # green pairs: no failure class shown
    assert "all 3 tests green in both classes" in gate.summary
    assert "This pull request changes 1 file the gated properties depend on" in gate.summary
    assert "- `pytest.ini` — **all 3** properties · test harness" in gate.summary
    assert "- `pytest.ini` — **all 3** properties" in check["output"]["summary"]
    assert f"run {RUN_1} of {BASE}" in gate.summary and FORK in gate.summary
    local = (tmp_path / "runs" / "current")
    # This run's own artifacts: its local-pinned stamps, and the gate's JSON report.
    assert sorted(p.name for p in local.iterdir() if "-report-" in p.name) == [
        "gate-stamps-report-gate-1"]
    assert [p.name.split("-")[2:4] for p in local.iterdir() if "-report-" not in p.name] == [
        ["local", "pinned"]]
