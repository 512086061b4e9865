"""docs/adopt.md quotes what ``gate init tests/`` prints (step 2); the quote is the command's
real output on a small project like the one it describes (two Hypothesis tests and one other
test in ``tests/``), paths made relative to the project, so it cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gate.commands.main import main
from tests import manual

PAGE = manual.ROOT / "docs" / "adopt.md"
QUOTED = re.compile(r"```sh\ngate init tests/\n```\n\n```\n(.*?)```\n", re.DOTALL)

TESTS = '''\
from hypothesis import given, strategies as st


@given(st.integers())
def test_add_zero(x):
    assert x + 0 == x


@given(st.lists(st.integers()))
def test_sorted_twice(xs):
    assert sorted(sorted(xs)) == sorted(xs)


def test_plain():
    assert 1 + 2 == 3
'''


def quoted() -> str:
    found = QUOTED.findall(PAGE.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{PAGE.name} quotes gate init tests/'s output {len(found)} times"
    return str(found[0])


def test_the_quoted_gate_init_output_is_what_gate_init_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    from hypothesis._settings import _CI_VARS

    for name in _CI_VARS:  # as on a laptop: no CI profile
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_props.py").write_text(TESTS, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["init", "tests/"]) == 0
    printed = capsys.readouterr().out.replace(f"{tmp_path}/", "").replace(str(tmp_path), ".")
    assert printed == quoted()


def test_the_quote_is_found() -> None:
    assert quoted().startswith("gate init: 2 Hypothesis tests of 3 collected")
