"""``python -m bench --only suite`` on a two-test repository: its ratio lines and per-file sums.

Benchmarks print figures; nothing here asserts on time.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench import common, suite
from bench.common import Results


def _repo(path: Path) -> Path:
    (path / "tests").mkdir(parents=True)
    (path / "tests" / "__init__.py").write_text("")
    (path / "tests" / "test_one.py").write_text("def test_a():\n    pass\n\n\n"
                                                "def test_b():\n    pass\n")
    (path / "tests" / "test_two.py").write_text("class TestC:\n    def test_c(self):\n"
                                                "        pass\n")
    for argv in (["init", "--quiet"], ["add", "."],
                 ["-c", "user.name=b", "-c", "user.email=b@b.invalid", "commit", "--quiet",
                  "-m", "two tests"]):
        subprocess.run(["git", *argv], cwd=path, check=True)
    return path


def test_the_suite_part_prints_its_two_ratios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(common, "ROOT", _repo(tmp_path / "repo"))
    results = Results()
    (tmp_path / "work").mkdir()
    suite.bench(results, tmp_path / "work", False, 1, False)
    target, floor = results.lines
    assert target["name"] == "suite README test command vs 300 s"
    assert target["baseline"] == 300.0 and target["target"] == 1.0
    assert target["note"].startswith("3 tests at ")
    assert floor["name"] == "suite wall vs its tests' time / cores" and floor["target"] is None
    assert "slowest files: test_one " in floor["note"] and " test_two " in floor["note"]
    assert "# suite: " in capsys.readouterr().out


def test_quick_skips_the_suite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = Results()
    suite.bench(results, tmp_path, True, 1, False)
    assert results.lines == []
    assert capsys.readouterr().out == "# suite: skipped (--quick)\n"


def test_the_suite_runs_only_when_named() -> None:
    from bench import run

    assert "suite" in run.BENCHMARKS and run.EXPLICIT == ("suite",)
