"""When no session of the recorder began (issue 27, the wrong message): the one-line error says
what happened, from the command's exit status and output, and names the fix: the command
exited before pytest started (``false``, a program not found, an install in the command that
failed), pytest stopped before the recorder's session (a conftest.py that does not parse), or
pytest ran without the environment the gate gave it. Each case run for real
(:func:`test_each_case_says_what_happened`), the words kept in a golden file
(``tests/golden/recorder-not-begun/messages.txt``), and the stamp job's failure record carries
them (:func:`test_the_failure_record_carries_what_happened`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gate.testrun import recorder_route
from tests.test_hypothesis_card import LOCAL, workspace
from tests.test_recorder import pytest_argv, select, stamp
from tests.test_review_golden import check_golden

PY = sys.executable
NOT_LOADED = "the gate's recorder never loaded into pytest"
ENV_FIX = "the command must run pytest with the environment it was given"


def _error_line(done: subprocess.CompletedProcess[str]) -> str:
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("gate: error:")]
    return line


CASES = [  # (name, files, command, the line's words)
    ("false", {}, ["bash", "-c", "false"],
     "the command exited 1 before pytest started (no line of pytest's in its output), writing "
     "nothing on stderr; the command must run pytest once (python -m pytest), exiting with "
     "pytest's status"),
    ("missing", {}, ["bash", "-c", "no-such-tool-xyz --run"],
     "the command exited 127 before pytest started (no line of pytest's in its output): it said "
     "«bash: line 1: no-such-tool-xyz: command not found»; a program it runs was not found: "
     "install it (list it in requirements-test.txt, which the install input installs) or fix "
     "its name in the command"),
    ("pip", {}, ["bash", "-c", f"{PY} -m pip install --no-index -q no-such-pkg-xyz && "
                              f"{PY} -m pytest -q hypo_props.py"],
     "the command exited 1 before pytest started (no line of pytest's in its output): it said "
     "«ERROR: No matching distribution found for no-such-pkg-xyz»; an install in the command "
     "failed: give the install to the install input"),
    ("syntax", {"conftest.py": "X = 1\ndef broken(:\n    pass\n"}, pytest_argv(),
     "the command exited 4 (pytest: usage error) before the gate's recorder began: pytest said "
     "«ImportError while loading conftest"),
    ("dropped", {"hypo_props.py": "def test_draws():\n    assert False\n"},
     ["env", "-u", "PYTEST_ADDOPTS", *pytest_argv()],
     "the command exited 1: pytest ran (it wrote «1 failed in "),
]


@pytest.mark.parametrize(("name", "files", "command", "said"), CASES, ids=[c[0] for c in CASES])
def test_each_case_says_what_happened(tmp_path: Path, name: str, files: dict[str, str],
                                      command: list[str], said: str) -> None:
    """On the code before, every one of these said "the gate's recorder never loaded into
    pytest" (or, for the conftest that does not parse, that requirements-test.txt must list
    what it imports)."""
    workspace(tmp_path, {"draws": 1})
    for file, text in files.items():
        (tmp_path / file).write_text(text)
    done = stamp(tmp_path, "out", *command)
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert line.startswith("gate: error: the test command: (pytest): "), line
    assert said in line, line
    assert not (tmp_path / "out").exists()
    if name == "syntax":
        assert ("conftest.py line 2 does not parse (SyntaxError: invalid syntax): pytest "
                "stopped importing it before any test ran") in line, line
        assert "requirements-test.txt" not in line
    if name == "dropped":  # pytest ran without the recorder: the environment's fix
        assert ENV_FIX in line and "tox: pass_env" in line and NOT_LOADED not in line
    else:
        assert NOT_LOADED not in line and "tox" not in line


def test_exit_0_without_pytest_keeps_the_recorders_fix(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    line = _error_line(stamp(tmp_path, "out", "true"))
    assert (f"the command exited 0 and wrote no line of pytest's: {NOT_LOADED}: {ENV_FIX}"
            in line)


#: The words for each case, from what the command wrote (stdout, stderr), kept golden.
GOLDEN_CASES = [
    ("false", 1, "", ""),
    ("not found", 127, "", "bash: line 1: nose: command not found\n"),
    ("not executable", 126, "", "bash: line 1: ./run.sh: Permission denied\n"),
    ("pip in the command", 1, "Collecting nope\n",
     "ERROR: Could not find a version that satisfies the requirement nope (from versions: "
     "none)\nERROR: No matching distribution found for nope\n"),
    ("a script's own error", 2, "", "make: *** [Makefile:3: test] Error 2\n"),
    ("pytest without the recorder", 1, "..F\n=== 1 failed, 2 passed in 0.12s ===\n", ""),
    ("pytest -qq without the recorder", 1,
     "_________ test_x _________\n\n    def test_x():\n>       assert False\nE       assert "
     "False\n", ""),
    ("true", 0, "", ""),
    ("usage error", 4, "", "ERROR: usage: pytest [options]\npytest: error: unrecognized "
                          "arguments: --benchmark-skip\n"),
    ("internal error", 3, "", "INTERNALERROR> RuntimeError: boom\n"),
    ("no tests collected", 5, "no tests ran in 0.01s\n", ""),
]


def test_golden_messages(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text("X = (\n")
    syntax = (f"ImportError while loading conftest '{tmp_path}/conftest.py'.\n"
              "/usr/lib/python3/ast.py:50: in parse\n    return compile(source)\n"
              f'E     File "{tmp_path}/conftest.py", line 1\nE       X = (\nE           ^\n'
              "E   SyntaxError: '(' was never closed\n")
    lines = [f"{name}: {recorder_route.not_begun(code, err, tmp_path, out)}"
             for name, code, out, err in GOLDEN_CASES]
    lines.append(f"conftest syntax error: {recorder_route.not_begun(4, syntax, tmp_path)}")
    text = "\n".join(lines).replace(str(tmp_path), "/w")  # the folder, whatever pytest made
    check_golden("recorder-not-begun/messages.txt", text + "\n")


@pytest.mark.parametrize(("text", "line"), [
    ("=========== 1 failed, 2 passed in 0.12s ===========\n",
     "=== 1 failed, 2 passed in 0.12s ==="),
    ("3 passed, 1 deselected in 1.05s\n", "3 passed, 1 deselected in 1.05s"),
    ("collected 3 items\n", "collected 3 items"),
    ("FAILED t.py::test_a - assert 0\n", "FAILED t.py::test_a - assert 0"),
    ("ERROR: No matching distribution found for x\n", None),
    ("Successfully installed x-1.0\nmake: *** Error 1\n", None),
    ("", None),
])
def test_a_line_only_pytest_writes_is_found(text: str, line: str | None) -> None:
    assert recorder_route.pytest_line(text) == line


def test_the_failure_record_carries_what_happened(tmp_path: Path) -> None:
    """The action's stamp mode with ``command: false``: the record the gate job reads (why no
    stamps came) carries the same words as the step's error, not "never loaded"."""
    workspace(tmp_path, {"draws": 1})
    runner = tmp_path / "runner"
    runner.mkdir()
    output = runner / "output"
    output.write_text("")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("GATE_", "GITHUB_"))},
           "GATE_MODE": "stamp", "GATE_SERVER_CLASS": LOCAL, "GATE_MANIFEST": "gate.yml",
           "GATE_ROOT": ".", "GATE_COMMAND": "false", "GATE_ISOLATION": "none",
           "GATE_TESTS": "gated", "RUNNER_TEMP": str(runner), "GITHUB_OUTPUT": str(output),
           "GITHUB_JOB": "stamp", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_WORKSPACE": str(tmp_path)}
    done = subprocess.run([PY, "-m", "gate", "action"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    (path,) = list((runner / "agent-patch-gate-stamp-failure").rglob("gate-stamp-failure.json"))
    record = json.loads(path.read_text())
    assert record["reason"].startswith("the test command: (pytest): the command exited 1 before "
                                       "pytest started"), record
    assert NOT_LOADED not in record["reason"]
    assert record["reason"] in done.stdout.replace("%0A", " ")  # the step's ::error says it too


def test_a_select_helper_still_runs_a_gated_test(tmp_path: Path) -> None:
    """Control: the same workspace and recorder stamp when the command runs pytest."""
    workspace(tmp_path, {"draws": 1})
    done = stamp(tmp_path, "out", *pytest_argv(*select("draws")))
    assert done.returncode == 0, done.stdout + done.stderr
