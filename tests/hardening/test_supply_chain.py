"""Supply chain: pinned actions, minimal permissions, no expressions in scripts, no persisted
credentials, hash-locked Python dependencies, and the action linters with zero findings."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.hardening import figures

ROOT = Path(__file__).resolve().parents[2]
SECTION = "supply chain"
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
WORKFLOWS = sorted([*(ROOT / ".github" / "workflows").glob("*.y*ml"),
                    *(ROOT / "examples" / "workflows").glob("*.y*ml")])
ACTIONS = [ROOT / "action.yml"]
LOCAL_USES = ("./", "docker://")


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _steps(document: dict[str, Any]) -> list[dict[str, Any]]:
    if "runs" in document:
        return list(document["runs"].get("steps", []))
    return [step for job in document.get("jobs", {}).values() for step in job.get("steps", [])]


def _uses_lines(path: Path) -> list[str]:
    return [line.split("uses:", 1)[1].strip() for line in path.read_text().splitlines()
            if re.match(r"^\s*(-\s+)?uses:", line)]


@pytest.mark.parametrize("path", WORKFLOWS + ACTIONS, ids=lambda p: p.name)
def test_remote_actions_are_pinned_by_sha_with_a_version_comment(path: Path) -> None:
    checked = 0
    for raw in _uses_lines(path):
        target, _, comment = raw.partition("#")
        target = target.strip().strip("'\"")
        if target.startswith(LOCAL_USES):
            continue
        assert PINNED.match(target), f"{path.name}: {target} is not pinned by a 40-hex SHA"
        assert re.search(r"v\d+(\.\d+)*", comment), f"{path.name}: {target} lacks # vX.Y.Z"
        checked += 1
    figures.add(SECTION, "remote `uses:` pinned by SHA with a version comment", checked)


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_permissions_are_minimal(path: Path) -> None:
    document = _load(path)
    assert document.get("permissions") == {}, f"{path.name}: top-level permissions not {{}}"
    # actions: read lets the gate download the stamps of earlier attempts (re-runs) and of
    # another run (workflow_run).
    allowed = {"contents": "read", "checks": "write", "actions": "read"}
    for name, job in document["jobs"].items():
        granted = job.get("permissions", {})
        assert isinstance(granted, dict), f"{path.name}:{name}: permissions must be a mapping"
        for scope, level in granted.items():
            assert allowed.get(scope) == level, f"{path.name}:{name}: {scope}: {level}"
    figures.add(SECTION, "workflows with permissions: {} and minimal job grants")


@pytest.mark.parametrize("path", WORKFLOWS + ACTIONS, ids=lambda p: p.name)
def test_no_expression_inside_run_and_checkout_without_credentials(path: Path) -> None:
    for step in _steps(_load(path)):
        run = step.get("run")
        if isinstance(run, str):
            assert "${{" not in run, f"{path.name}: step {step.get('name')!r} expands ${{{{ }}}}"
        uses = str(step.get("uses", ""))
        if uses.startswith("actions/checkout@"):
            assert step.get("with", {}).get("persist-credentials") is False, (
                f"{path.name}: checkout without persist-credentials: false")
            figures.add(SECTION, "checkouts with persist-credentials: false")


@pytest.mark.parametrize("name", ["action.lock", "stamp.lock"])
def test_action_dependencies_are_locked_by_hash(name: str) -> None:
    lock = (ROOT / "requirements" / name).read_text(encoding="utf-8")
    packages = 0
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock)
    for block in blocks:
        head = block.splitlines()[0] if block.strip() else ""
        if not head or head.startswith(("#", "--")):
            continue
        assert re.match(r"^[A-Za-z0-9._-]+==[^\s\\]+ \\$", head), f"not pinned: {head!r}"
        assert "--hash=sha256:" in block, f"no hash for {head!r}"
        packages += 1
    # The set-up step hands the install to requirements/installer.py --setup (issue 20.2),
    # which installs the lock by hash, wheels only, whichever installer runs.
    action = (ROOT / "action.yml").read_text(encoding="utf-8")
    assert re.search(r'-I "[^"\n]*/requirements/installer\.py"(?: \\\n\s*| )--setup ', action)
    installer = (ROOT / "requirements" / "installer.py").read_text(encoding="utf-8")
    assert '"--require-hashes", "--only-binary", ":all:", "--no-deps", "-r"' in installer
    figures.put(SECTION, f"{name} packages pinned with --hash", packages)  # one row a lock
    assert packages >= 5


def test_lint_actions_has_zero_findings() -> None:
    tools = ("zizmor", "actionlint", "check-jsonschema", "shellcheck")
    missing = [tool for tool in tools if shutil.which(tool) is None]
    assert not missing, f"install the test extras: {missing} missing"
    done = subprocess.run(["bash", str(ROOT / ".ci" / "lint-actions")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    figures.put(SECTION, "lint-actions (zizmor pedantic, actionlint) exit status",
                done.returncode)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
