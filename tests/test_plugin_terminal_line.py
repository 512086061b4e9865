"""The plugin's end-of-session line is a line of its own (newcomer trial: under ``pytest -q`` it
was glued onto the progress line, ``..  [100%]---- gate: 1 stamps written to …``).

A real pytest process with the plugin; the captured terminal output is checked line by line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.property_suite.harness import env, write_manifest

PROPERTY = """from hypothesis import given, strategies as st


@given(st.integers())
def test_x(n):
    assert n == n


def test_other():
    pass
"""


@pytest.mark.parametrize("verbosity", [["-q"], [], ["-v"]])
def test_the_stamps_written_line_is_its_own_line(tmp_path: Path, verbosity: list[str]) -> None:
    (tmp_path / "test_x.py").write_text(PROPERTY)
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "x.json").write_text(json.dumps({"property": "test_x", "cases": 5,
                                                           "seed": 1}))
    write_manifest(tmp_path / "gate.yml", [{"test_id": "test_x", "card": "cards/x.json",
                                            "fixtures": ["test_x.py"],
                                            "junit": {"classname": "test_x", "name": "test_x"}}])
    done = subprocess.run([sys.executable, "-m", "pytest", *verbosity, "-p", "no:cacheprovider",
                           "--gate-stamps", "st", "--gate-server-class", "local-pinned",
                           "--gate-manifest", "gate.yml", "test_x.py"],
                          cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    ours = [i for i, line in enumerate(lines) if "gate: 1 stamp written to st" in line]
    assert len(ours) == 1, done.stdout
    assert re.fullmatch(r"-+ gate: 1 stamp written to st -+", lines[ours[0]]), lines[ours[0]]
    assert "[100%]" in "\n".join(lines[:ours[0]])  # the progress came first, on its own line
