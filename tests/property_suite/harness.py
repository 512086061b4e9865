"""Helpers for the stamping tests: real ``gate`` and ``pytest`` processes in a temp workspace.

Not a test module (the main run collects ``test_*.py`` only).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

SUITE = Path(__file__).resolve().parent
REPO = SUITE.parent.parent


def env(plan: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for gate and the suite: the repo importable, the plan set."""
    result = dict(os.environ)
    result["PYTHONPATH"] = str(REPO) + os.pathsep + result.get("PYTHONPATH", "")
    result["PYTHONDONTWRITEBYTECODE"] = "1"
    result["PROPERTY_SUITE_PLAN"] = json.dumps(plan or {})
    result.pop("PYTEST_ADDOPTS", None)
    return result


def gate(*args: str, cwd: Path, plan: dict[str, str] | None = None,
         timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gate", *args], cwd=cwd, env=env(plan),
                          capture_output=True, text=True, timeout=timeout, check=False)


def copy_suite(dest: Path) -> None:
    for name in ("prop_suite.py", "pytest.ini"):
        shutil.copy(SUITE / name, dest / name)


def pytest_command(junit: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            f"--junitxml={junit}", "prop_suite.py"]


def junit_name(prop: str) -> dict[str, str]:
    return {"classname": "prop_suite", "name": f"test_prop[{prop}]"}


def make_property(root: Path, name: str, *, seed: int, expires: int | None = None,
                  sample: bool = True) -> dict[str, Any]:
    """Card, fixture and sampler output for one property; returns its manifest entry."""
    card: dict[str, Any] = {"property": name, "cases": 10, "seed": seed}
    if expires is not None:
        card["freeze_expires_at"] = expires
    (root / "cards").mkdir(exist_ok=True)
    (root / "cards" / f"{name}.json").write_text(json.dumps(card))
    (root / "fixtures" / name).mkdir(parents=True, exist_ok=True)
    (root / "fixtures" / name / "data.txt").write_text(f"fixture of {name}\n")
    entry: dict[str, Any] = {"test_id": name, "card": f"cards/{name}.json",
                             "fixtures": [f"fixtures/{name}"], "junit": junit_name(name)}
    if sample:
        (root / "samples").mkdir(exist_ok=True)
        (root / "samples" / f"{name}.json").write_text(json.dumps({"sampled": [seed, name]}))
        entry["sample"] = f"samples/{name}.json"
    return entry


def write_manifest(path: Path, entries: list[dict[str, Any]]) -> Path:
    import yaml

    path.write_text(yaml.safe_dump({"version": 1, "properties": entries}, sort_keys=False))
    return path


def read_stamps(folder: Path) -> dict[str, dict[str, Any]]:
    """Every stamp under ``folder`` by test id (one per test expected)."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.rglob("*.json")):
        stamp = json.loads(path.read_text())
        assert path.name == f"{stamp['run_id']}.json"
        assert stamp["test_id"] not in found, f"two stamps for {stamp['test_id']} in {folder}"
        found[stamp["test_id"]] = stamp
    return found
