"""Issue 20.1's attack, end to end under act: the workspace's `gate/` on PYTHONPATH.

The README's workflow (examples/workflows/python.yml) on a project whose property fails in both
classes (a closed gate), with the action at its own path (``act --local-repository``, as a
user's ``uses:`` ref names the release) and the gate job as many workflows write it: job-level
``PYTHONPATH: ${{ github.workspace }}``. The pull request adds ``gate/__main__.py`` (and a
``gate/__init__.py`` and a ``sitecustomize.py``) that report the gate ``open`` and exit 0. With
``python -P`` that code ran as the gate step, with the job's ``checks: write`` token. The test
checks the action's own code decided: the step failed closed with ``property_miss``, the check
run the real code published says ``failure``, and no process of the action's ran the patch's
code (each hostile module leaves a marker naming the command line it ran in).
"""

from __future__ import annotations

import html
from pathlib import Path

from tests import test_readme_workflow as readme
from tests.act.harness import STANDINS_DIR, run_act
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.test_action_act import HEAD_SHA, SETUP_PYTHON, SharedAction
from tests.test_isolation import HOSTILE

wheelhouse = readme.wheelhouse  # the session fixture: the action's locked wheels
shared_action = readme.shared_action  # the session's one copy of the action and its venv

GATE_JOB = """    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - id: gate
"""
PATCHED_GATE_JOB = """    env:
      PYTHONPATH: ${{ github.workspace }}
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - name: The pull request's files, live on PYTHONPATH
        run: cp -r patch/. . && python3 -c pass
      - id: gate
"""


def test_a_gate_package_on_pythonpath_cannot_open_a_closed_gate(
        tmp_path: Path, wheelhouse: Path, shared_action: SharedAction) -> None:
    action = shared_action.mapped(tmp_path / "action")
    project = tmp_path / "project"
    readme._python_project(project)
    workflow = project / ".github" / "workflows" / "properties.yml"
    text = workflow.read_text(encoding="utf-8")
    gate_job = text.index("\n  gate:\n")
    assert text.count(GATE_JOB, gate_job) == 1
    workflow.write_text(text[:gate_job] + text[gate_job:].replace(GATE_JOB, PATCHED_GATE_JOB),
                        encoding="utf-8")
    patch = project / "patch"
    (patch / "gate").mkdir(parents=True)
    for name in ("gate/__init__.py", "gate/__main__.py", "sitecustomize.py"):
        (patch / name).write_text(HOSTILE, encoding="utf-8")
    markers = tmp_path / "markers"
    markers.mkdir()
    with GitHubDouble(accept_any_token=False) as double:
        result = run_act(
            project, workflow, event="pull_request",
            event_payload={"number": 7, "pull_request": {
                "number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}}},
            env={"GITHUB_API_URL": double.base_url, "PIP_FIND_LINKS": str(wheelhouse),
                 "PIP_NO_INDEX": "1", "AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri(),
                 "HYPO_SUITE_BUG": "rle", "HOSTILE_MARKERS": str(markers),
                 **shared_action.env},
            secrets={"GITHUB_TOKEN": WRITE_TOKEN}, artifacts_dir=tmp_path / "artifacts",
            timeout=900, repository="acme/python-project",
            extra_args=["--local-repository",
                        f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}",
                        "--local-repository", f"{readme._action_ref()}={action}"])
        checks = list(double.check_runs.values())
    gate = result.job("gate")
    ran = [p.read_text(encoding="utf-8") for p in markers.iterdir()]
    assert any(argv.endswith("-c pass") for argv in ran), ran  # the attack was live in the job
    assert [argv for argv in ran if "gate" in argv.split() or "installer.py" in argv] == []
    assert not gate.succeeded
    outputs = gate.outputs["gate"]
    assert (outputs["decision"], outputs["failure-class"]) == ("closed", "property_miss")
    assert outputs.get("artifact-name") != "forged"  # the forgery's line
    assert "failure_class=property_miss" in html.unescape(gate.summary)
    (check,) = checks
    assert check["conclusion"] == "failure"
