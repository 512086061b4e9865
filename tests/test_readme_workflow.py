"""The README's workflow is a file of this repository, and it runs as pasted.

``examples/workflows/python.yml`` is the first YAML block of "Use it in a workflow"
(docs/workflow.md: the two-job form), byte for byte. Under act it
runs unchanged on a Python project made of tests/hypo_suite's Hypothesis properties laid out as
a user's repository would be (``.github/gate.yml``, ``.github/gate-policy.yml``,
``requirements-test.txt``, tests at the root); only the ``uses:`` ref of the action is mapped
to this checkout (``act --local-repository``), as a user's ref names the release. Its stamp
step gives ``command`` and no ``junit``: the recorder route, the cards applied in both
classes.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path
from typing import Any

from gate.decide import digest
from tests import manual
from tests import test_action_act as base
from tests.act.harness import STANDINS_DIR, ActResult, run_act
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.test_action_act import FOUR, HEAD_SHA, ROOT, SETUP_PYTHON, SharedAction
from tests.test_hypothesis_card import MISSES, workspace

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
shared_action = base.shared_action  # the session's one copy of the action and its venv
WORKFLOW = ROOT / "examples" / "workflows" / "python.yml"


def readme_block(heading: str, start: str = "") -> str:
    """The first yaml block starting with ``start`` in the manual's section titled ``heading``
    (the README or the docs page that holds it)."""
    section = manual.section(heading)
    match = re.search(rf"```yaml\n({re.escape(start)}.*?)```\n", section, re.DOTALL)
    assert match, f"{heading}: no yaml block"
    return match.group(1)


#: This action's own ``uses:`` ref in a pasted workflow: the placeholder, or a release's commit
#: (scripts/release.py pins it).
ACTION_REF = re.compile(r"uses: ((?:your-org/agent-patch-gate|agent-patch-gate/gate)@[0-9a-f]{40})")


def action_ref(text: str) -> str:
    refs = set(ACTION_REF.findall(text))
    assert len(refs) == 1, refs
    return refs.pop()


def _readme_block() -> str:
    return readme_block("Use it in a workflow")


def test_the_readme_workflow_is_the_repository_file() -> None:
    assert _readme_block() == WORKFLOW.read_text(encoding="utf-8")


def _action_ref() -> str:
    return action_ref(_readme_block())


def _python_project(dest: Path) -> None:
    """A user's Python project with Hypothesis properties (tests/hypo_suite: ledgerlib and
    its properties at the root), its cards and manifest in .github as `gate init` lays them
    out, and its test dependencies in requirements-test.txt."""
    workspace(dest, {"round_trip": 5, "fixed_band": MISSES, "draws": 1}, deadline_ms=None)
    (dest / ".github" / "workflows").mkdir(parents=True)
    shutil.move(dest / "gate.yml", dest / ".github" / "gate.yml")
    (dest / ".github" / "gate-policy.yml").write_text("allowlist: []\n", encoding="utf-8")
    (dest / "requirements-test.txt").write_text("pytest>=8\nhypothesis\n", encoding="utf-8")
    shutil.copy2(WORKFLOW, dest / ".github" / "workflows" / "properties.yml")


def _run(tmp_path: Path, double: GitHubDouble, wheelhouse: Path, shared: SharedAction,
         extra_env: dict[str, str] | None = None) -> ActResult:
    action = shared.mapped(tmp_path / "action")
    project = tmp_path / "project"
    _python_project(project)
    return run_act(
        project, project / ".github" / "workflows" / "properties.yml",
        event="pull_request",
        event_payload={"number": 7, "pull_request": {
            "number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}}},
        env={"GITHUB_API_URL": double.base_url, "PIP_FIND_LINKS": str(wheelhouse),
             "PIP_NO_INDEX": "1",
             "AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri(), **shared.env,
             **(extra_env or {})},
        secrets={"GITHUB_TOKEN": WRITE_TOKEN}, artifacts_dir=tmp_path / "artifacts",
        timeout=900, repository="acme/python-project",
        extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}",
                    "--local-repository", f"{_action_ref()}={action}"])


def _stamps(artifacts: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """server class -> test id -> stamp, from the uploaded stamp artifacts."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for path in artifacts.glob("gate-stamps-*-*/**/*.json"):
        if "gate-stamps-report-" in str(path):
            continue
        stamp = json.loads(path.read_text(encoding="utf-8"))
        found.setdefault(stamp["server_class"], {})[stamp["test_id"]] = stamp
    return found


def _generators_agree(tmp_path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    stamps = _stamps(tmp_path / "artifacts")
    local, free = stamps["local-pinned"], stamps["free-server"]
    assert sorted(local) == sorted(free) == ["draws", "fixed_band", "round_trip"]
    seeds = {"round_trip": 5, "fixed_band": MISSES, "draws": 1}
    for test_id, seed in seeds.items():
        for stamp in (local[test_id], free[test_id]):
            assert stamp["source"] == "pytest-recorder"
            assert (stamp["hypothesis"]["seed"], stamp["hypothesis"]["max_examples"]) == (
                seed, 20)
        assert local[test_id]["hypothesis"] == free[test_id]["hypothesis"]
        assert (digest.generator_digest(local[test_id]["hypothesis"])
                == digest.generator_digest(free[test_id]["hypothesis"]))
    return stamps


def test_the_readme_workflow_runs_as_pasted_under_act(tmp_path: Path, wheelhouse: Path,
                                                      shared_action: SharedAction) -> None:
    with GitHubDouble(accept_any_token=False) as double:
        result = _run(tmp_path, double, wheelhouse, shared_action)
        assert result.returncode == 0, result.log_tail(120)
        assert double.invalid_requests() == []
        (check,) = double.check_runs.values()
    for server_class in ("local-pinned", "free-server"):
        leg = result.job("stamp", {"server-class": server_class})
        assert leg.succeeded
        assert "setup-python stand-in" in leg.stdout  # set-up and test dependencies ran
        assert "::notice" not in leg.stdout  # the recorder route: the cards are applied
    _generators_agree(tmp_path)
    gate = result.job("gate")
    assert gate.outputs["gate"]["decision"] == "open"
    assert FOUR.findall(gate.summary) == []  # green pairs: no failure class shown
    assert "all 3 tests green in both classes" in gate.summary
    assert check["head_sha"] == HEAD_SHA and check["conclusion"] == "success"


def test_a_bug_in_both_classes_closes_with_property_miss_under_act(
        tmp_path: Path, wheelhouse: Path, shared_action: SharedAction) -> None:
    with GitHubDouble(accept_any_token=False) as double:
        result = _run(tmp_path, double, wheelhouse, shared_action, {"HYPO_SUITE_BUG": "rle"})
        (check,) = double.check_runs.values()
    stamps = _generators_agree(tmp_path)
    for server_class in ("local-pinned", "free-server"):
        red = stamps[server_class]["round_trip"]
        assert red["outcome"] == "assert_fail"
        # Hypothesis 6.155 says "Falsifying example:", 6.170 "Failing test case:"; the job
        # installs whichever the index (or PIP_FIND_LINKS) offers
        assert red["failure"]["example"] in (
            f"{lead}: test_round_trip(\n    values=[0, 1],\n)"
            for lead in ("Failing test case", "Falsifying example"))
    assert (digest.failure_digest(stamps["local-pinned"]["round_trip"]["failure"])
            == digest.failure_digest(stamps["free-server"]["round_trip"]["failure"]))
    gate = result.job("gate")
    assert not gate.succeeded
    assert gate.outputs["gate"]["decision"] == "closed"
    assert gate.outputs["gate"]["failure-class"] == "property_miss"
    summary = html.unescape(gate.summary)
    assert "failure_class=property_miss" in summary
    assert "values=[0, 1]" in summary  # the falsifying example reaches the job summary
    assert check["conclusion"] == "failure"
