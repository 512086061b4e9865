"""The composite action run for real under act: the repository's own example workflow.

A matrix job stamps the example properties once per server class (``mode: stamp``) and uploads
the stamps; the gate job downloads them, classifies every pair, publishes a check run to the
GitHub API double on 127.0.0.1, writes the job summary and sets outputs. The two artifact
actions are replaced by the local stand-ins in tests/act/standins/ (they copy files through a
folder); everything else -- action.yml, its Python set-up with the hash-locked requirements,
``gate action`` -- is what a user's runner executes.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.act.harness import STANDINS_DIR, ActResult, run_act
from tests.github_double import WRITE_TOKEN, GitHubDouble

ROOT = Path(__file__).resolve().parent.parent
HEAD_SHA = "a" * 40
SETUP_PYTHON = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065"
FOUR = re.compile(
    r"^fixture_sha256=(?:[0-9a-f]{64}|none)\nfailure_class=(?:property_miss|fixture_drift|"
    r"harness_flake|unclassified)\nfreeze_allowed=(?:true|false)\nfixture_path=.+$",
    re.MULTILINE,
)


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The action's locked wheels, so its pip runs offline (CI prepares it in .ci/run)."""
    given = os.environ.get("GATE_WHEELHOUSE")
    if given and Path(given).is_dir():
        return Path(given)
    target = tmp_path_factory.mktemp("wheelhouse")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--require-hashes",
         "--only-binary", ":all:", "-r", str(ROOT / "requirements" / "action.lock"),
         "-d", str(target)],
        check=True,
    )
    return target


def _project_copy(dest: Path) -> Path:
    """The files a user's checkout of this action has, plus the example workflow."""
    for name in ("action.yml", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "junit.xml")
    for folder in ("gate", "schemas", "requirements"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=ignore)
    (dest / ".github" / "workflows").mkdir(parents=True)
    shutil.copy2(ROOT / ".github" / "workflows" / "example.yml",
                 dest / ".github" / "workflows" / "example.yml")
    return dest / ".github" / "workflows" / "example.yml"


@pytest.fixture
def double() -> Iterator[GitHubDouble]:
    with GitHubDouble(accept_any_token=False) as server:
        yield server


def _run_example(tmp_path: Path, double: GitHubDouble, wheelhouse: Path,
                 fail: str = "") -> ActResult:
    work = tmp_path / "repo"
    work.mkdir()
    workflow = _project_copy(work)
    payload: dict[str, Any] = {
        "number": 7,
        "pull_request": {"number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}},
    }
    return run_act(
        work, workflow, event="pull_request", event_payload=payload,
        env={
            "GITHUB_API_URL": double.base_url,
            "PIP_FIND_LINKS": str(wheelhouse),
            "PIP_NO_INDEX": "1",
            "GATE_EXAMPLE_FAIL": fail,
        },
        secrets={"GITHUB_TOKEN": WRITE_TOKEN},
        artifacts_dir=tmp_path / "artifacts",
        timeout=900,
        repository="acme/gate-example",
        extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}"],
    )


def _gate_outputs(result: ActResult) -> dict[str, str]:
    gate = result.job("gate")
    return gate.outputs.get("gate", {})


def test_open_gate_under_act(tmp_path: Path, double: GitHubDouble, wheelhouse: Path) -> None:
    result = _run_example(tmp_path, double, wheelhouse)
    assert result.returncode == 0, result.log_tail(120)
    for server_class in ("local-pinned", "free-server"):
        stamp = result.job("stamp", {"server-class": server_class})
        assert stamp.succeeded, stamp.result
    # Two artifacts, one per class, three stamps each.
    artifacts = sorted(p.name for p in (tmp_path / "artifacts").iterdir())
    assert len(artifacts) == 2 and all(a.startswith("gate-stamps-") for a in artifacts)
    for folder in (tmp_path / "artifacts").iterdir():
        assert len(list(folder.rglob("*.json"))) == 3

    gate = result.job("gate")
    assert gate.succeeded
    blocks = FOUR.findall(gate.summary)
    assert len(blocks) == 3, gate.summary
    for test_id in ("parser_round_trip", "tokenizer_total", "lexer_unicode"):
        assert f"test_id={test_id}" in gate.summary
    outputs = _gate_outputs(result)
    assert outputs["decision"] == "open"
    assert outputs["failure-class"] == "unclassified"
    assert outputs["check-run-url"].startswith("http")

    assert double.invalid_requests() == []
    assert double.count("create_check_run") == 1
    assert double.count("update_check_run") == 0
    (run,) = double.check_runs.values()
    assert run["head_sha"] == HEAD_SHA
    assert run["conclusion"] == "success"
    assert run["name"] == "agent-patch gate (example)"


def test_closed_gate_fails_the_step(tmp_path: Path, double: GitHubDouble,
                                     wheelhouse: Path) -> None:
    result = _run_example(tmp_path, double, wheelhouse, fail="parser_round_trip")
    assert result.returncode != 0
    gate = result.job("gate")
    assert not gate.succeeded
    assert len(FOUR.findall(gate.summary)) == 3
    outputs = _gate_outputs(result)
    assert outputs["decision"] == "closed"
    assert outputs["failure-class"] == "property_miss"
    assert outputs["freeze-allowed"] == "false"
    assert double.invalid_requests() == []
    assert double.count("create_check_run") == 1
    (run,) = double.check_runs.values()
    assert run["conclusion"] == "failure"
    assert len(run["annotations"]) == 1
    assert run["annotations"][0]["annotation_level"] == "failure"
    # root: gate/examples, yet the annotation names the file in the repository, at the test.
    assert run["annotations"][0]["path"] == "gate/examples/tests/test_parser.py"
    assert run["annotations"][0]["start_line"] == 52
    assert "def test_round_trip(" in (
        ROOT / "gate/examples/tests/test_parser.py").read_text().splitlines()[51]
    assert "`property_miss`" in run["output"]["summary"]
    assert "action: reject_stable_fail" in html.unescape(run["output"]["text"])
