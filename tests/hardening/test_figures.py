"""The hardening figures cover the whole run when pytest-xdist spreads it over workers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

SUITE = """\
import pytest
from tests.hardening import figures

@pytest.mark.parametrize("n", range(6))
def test_counts(n):
    figures.add("demo", "cases")
    figures.add("demo", "weight", n)
    figures.put("demo", "limit", 64)
"""


@pytest.mark.parametrize("workers", ["0", "2"])
def test_every_workers_figures_reach_the_table_and_the_json(tmp_path: Path, workers: str) -> None:
    pytest.importorskip("xdist")
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.hardening.figures"]\n')
    (tmp_path / "test_demo.py").write_text(SUITE)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GATE_FIGURES_JSON": str(tmp_path / "f.json")}
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", workers, "-q",
         "test_demo.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads((tmp_path / "f.json").read_text()) == {
        "demo": {"cases": 6, "limit": 64, "weight": 15}}
    assert "hardening figures" in done.stdout
    assert [line.split() for line in done.stdout.splitlines() if line.startswith("demo ")] == [
        ["demo", "cases", "6"], ["demo", "weight", "15"], ["demo", "limit", "64"]]
