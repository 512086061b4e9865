"""The README's workflow is a file of this repository, and it runs as pasted.

``examples/workflows/python.yml`` is the README's first YAML block, byte for byte. Under act it
runs unchanged on a Python project made of the example properties laid out as a user's
repository would be (``.github/gate.yml``, ``.github/gate-policy.yml``,
``requirements-test.txt``, tests at the root); only the ``uses:`` ref of the action is mapped
to this checkout (``act --local-repository``), as a user's ref names the release.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests import test_action_act as base
from tests.act.harness import STANDINS_DIR, run_act
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.test_action_act import FOUR, HEAD_SHA, ROOT, SETUP_PYTHON, _project_copy

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
WORKFLOW = ROOT / "examples" / "workflows" / "python.yml"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _readme_block() -> str:
    section = README.split("## Use it in a workflow\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```yaml\n(.*?)```\n", section, re.DOTALL)
    assert match, "the section has no yaml block"
    return match.group(1)


def test_the_readme_workflow_is_the_repository_file() -> None:
    assert _readme_block() == WORKFLOW.read_text(encoding="utf-8")


def _action_ref() -> str:
    refs = set(re.findall(r"uses: (your-org/agent-patch-gate@[0-9a-f]{40})", _readme_block()))
    assert len(refs) == 1, refs
    return refs.pop()


def _python_project(dest: Path) -> None:
    """The example properties as a user's repository holds them."""
    examples = ROOT / "gate" / "examples"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "junit.xml", "junit")
    shutil.copytree(examples, dest, ignore=ignore)
    (dest / ".github" / "workflows").mkdir(parents=True)
    shutil.move(dest / "manifest.yml", dest / ".github" / "gate.yml")
    shutil.move(dest / "policy.yml", dest / ".github" / "gate-policy.yml")
    (dest / "requirements-test.txt").write_text("pytest>=8\n", encoding="utf-8")
    shutil.copy2(WORKFLOW, dest / ".github" / "workflows" / "properties.yml")


def test_the_readme_workflow_runs_as_pasted_under_act(tmp_path: Path, wheelhouse: Path) -> None:
    action = tmp_path / "action"
    action.mkdir()
    _project_copy(action)
    project = tmp_path / "project"
    _python_project(project)
    with GitHubDouble(accept_any_token=False) as double:
        result = run_act(
            project, project / ".github" / "workflows" / "properties.yml",
            event="pull_request",
            event_payload={"number": 7, "pull_request": {
                "number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}}},
            env={"GITHUB_API_URL": double.base_url, "PIP_FIND_LINKS": str(wheelhouse),
                 "PIP_NO_INDEX": "1"},
            secrets={"GITHUB_TOKEN": WRITE_TOKEN}, artifacts_dir=tmp_path / "artifacts",
            timeout=900, repository="acme/python-project",
            extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}",
                        "--local-repository", f"{_action_ref()}={action}"])
        assert result.returncode == 0, result.log_tail(120)
        assert double.invalid_requests() == []
        (check,) = double.check_runs.values()
    for server_class in ("local-pinned", "free-server"):
        leg = result.job("stamp", {"server-class": server_class})
        assert leg.succeeded
        assert "setup-python stand-in" in leg.stdout  # set-up and test dependencies ran
    gate = result.job("gate")
    assert gate.outputs["gate"]["decision"] == "open"
    assert FOUR.findall(gate.summary) == []  # green pairs: no failure class shown
    assert "all 3 tests green in both classes" in gate.summary
    assert check["head_sha"] == HEAD_SHA and check["conclusion"] == "success"
