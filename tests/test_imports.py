"""Commands import only what they use: nothing that talks to GitHub outside ``gate publish``,
and no schema or YAML library for ``gate --version`` and ``gate hash`` (start-up time)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported(*argv: str, cwd: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gate", *argv],
                          capture_output=True, text=True, cwd=cwd, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    names: set[str] = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                names.add(name.split(".")[0])
    return names


@pytest.fixture
def fixture_dir(tmp_path: Path) -> Path:
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "one.txt").write_bytes(b"one small fixture file\n")
    return tmp_path


def test_version_imports_nothing_heavy(fixture_dir: Path) -> None:
    names = imported("--version", cwd=fixture_dir)
    assert "gate" in names
    for heavy in ("github", "requests", "urllib3", "jsonschema", "fastjsonschema", "yaml"):
        assert heavy not in names, heavy


def test_hash_imports_no_github_and_no_schema_library(fixture_dir: Path) -> None:
    names = imported("hash", "fx", "--root", ".", cwd=fixture_dir)
    assert "gate" in names
    for heavy in ("github", "requests", "urllib3", "jsonschema", "fastjsonschema", "yaml"):
        assert heavy not in names, heavy


def test_classify_imports_no_github(fixture_dir: Path) -> None:
    # a malformed stamp folder still gets as far as reading: exit 2, never GitHub
    (fixture_dir / "stamps").mkdir()
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gate", "classify",
                           "--stamps", "stamps"], capture_output=True, text=True,
                          cwd=fixture_dir, timeout=60, check=False)
    assert done.returncode == 2
    assert not {"github", "requests"} & {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in done.stderr.splitlines() if line.startswith("import time:")}
