"""The reusable workflow (issue 28): ``.github/workflows/gate.yml`` (``on: workflow_call``) runs
both stamp legs and the gate job; a user adopts it with the ~15-line caller
``examples/workflows/reusable-caller.yml``, the README's first workflow.

Under act (0.2.89) the caller's remote ``uses: agent-patch-gate/gate/.github/workflows/gate.yml@…``
is mapped to a copy of this checkout with ``--local-repository`` (act reads the workflow file
from that folder), and so is the reusable workflow's own ``uses:`` of the action, which names the
same commit. The project is tests/hypo_suite laid out as a user's repository
(tests/test_readme_workflow.py's project), its ``requirements-test.txt`` installed by the
action's sealed ``install`` step.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import yaml

from tests import test_action_act as base
from tests.act.harness import STANDINS_DIR, ActResult, run_act
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.test_action_act import HEAD_SHA, ROOT, SETUP_PYTHON, SharedAction
from tests.test_readme_workflow import _python_project

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
shared_action = base.shared_action  # the session's one copy of the action and its venv
REUSABLE = ROOT / ".github" / "workflows" / "gate.yml"
CALLER = ROOT / "examples" / "workflows" / "reusable-caller.yml"
USES = re.compile(r"uses: (agent-patch-gate/gate(?:/\.github/workflows/gate\.yml)?)@([0-9a-f]{40})")


def _refs(path: Path) -> set[tuple[str, str]]:
    return set(USES.findall(path.read_text(encoding="utf-8")))


def test_the_reusable_workflow_pins_the_action_at_the_callers_commit() -> None:
    """The caller pins the workflow and the workflow pins the action: one commit for both, so
    pinning the workflow pins the code that runs (scripts/release.py rewrites both)."""
    (workflow,) = {sha for name, sha in _refs(CALLER) if name.endswith("gate.yml")}
    assert {sha for name, sha in _refs(REUSABLE)} == {workflow}
    assert {name for name, _ in _refs(REUSABLE)} == {"agent-patch-gate/gate"}


def test_the_caller_is_short_and_runs_no_pull_request_code() -> None:
    lines = [line for line in CALLER.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert len(lines) <= 16, lines
    jobs = yaml.safe_load(REUSABLE.read_text(encoding="utf-8"))["jobs"]
    for job in jobs.values():  # only actions: no run: step sees the pull request's files
        assert all("run" not in step for step in job["steps"]), job["steps"]


def test_the_ungated_tests_reach_the_caller() -> None:
    """Issue 29 asks for an ``ungated`` output; a caller of the reusable workflow sees only the
    workflow's own outputs, so it passes the gate step's on (the trial on priority 2.0.0 found
    only decision, failure-class and check-run-url there)."""
    workflow = yaml.safe_load(REUSABLE.read_text(encoding="utf-8"))
    outputs = workflow[True]["workflow_call"]["outputs"]  # PyYAML reads `on` as True
    assert outputs["ungated"]["value"] == "${{ jobs.gate.outputs.ungated }}"
    assert workflow["jobs"]["gate"]["outputs"]["ungated"] == "${{ steps.gate.outputs.ungated }}"
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert "ungated" in action["outputs"]


def _run(tmp_path: Path, double: GitHubDouble, wheelhouse: Path, shared: SharedAction,
         extra_env: dict[str, str] | None = None) -> ActResult:
    action = shared.mapped(tmp_path / "action")
    shutil.copy2(REUSABLE, action / ".github" / "workflows" / "gate.yml")
    project = tmp_path / "project"
    _python_project(project)
    caller = project / ".github" / "workflows" / "properties.yml"
    shutil.copy2(CALLER, caller)
    (sha,) = {sha for _, sha in _refs(CALLER)}
    return run_act(
        project, caller, event="pull_request",
        event_payload={"number": 7, "pull_request": {
            "number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}}},
        env={"GITHUB_API_URL": double.base_url, "PIP_FIND_LINKS": str(wheelhouse),
             "PIP_NO_INDEX": "1", "AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri(),
             **shared.env, **(extra_env or {})},
        secrets={"GITHUB_TOKEN": WRITE_TOKEN}, artifacts_dir=tmp_path / "artifacts",
        timeout=900, repository="acme/python-project",
        extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}",
                    "--local-repository", f"agent-patch-gate/gate@{sha}={action}"])


def test_the_reusable_workflow_opens_a_green_suite_under_act(
        tmp_path: Path, wheelhouse: Path, shared_action: SharedAction) -> None:
    with GitHubDouble(accept_any_token=False) as double:
        result = _run(tmp_path, double, wheelhouse, shared_action)
        assert result.returncode == 0, result.log_tail(120)
        assert double.invalid_requests() == []
        (check,) = double.check_runs.values()
    assert check["head_sha"] == HEAD_SHA and check["conclusion"] == "success"
    assert "**3 accepted**: green in both server classes" in html.unescape(
        check["output"]["summary"])


def test_the_reusable_workflow_closes_on_a_bug_under_act(
        tmp_path: Path, wheelhouse: Path, shared_action: SharedAction) -> None:
    with GitHubDouble(accept_any_token=False) as double:
        result = _run(tmp_path, double, wheelhouse, shared_action, {"HYPO_SUITE_BUG": "rle"})
        assert result.returncode != 0
        (check,) = double.check_runs.values()
    assert check["conclusion"] == "failure"
    assert "failure_class=property_miss" in html.unescape(check["output"]["summary"])
