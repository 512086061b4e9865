"""Issue 27: the recorder cannot be replaced, and what the test process does to pytest and
Hypothesis is caught where it can be. Every attack here acts only through the pull request's
files (a module, a conftest, pytest's configuration), on a real ``gate stamp --pytest`` run of
tests/hypo_suite; each test failed on the code before its fix.

``fixed_band`` with the card's seed ``FINDS`` is a red property (Hypothesis finds the planted
band bug): every attack tries to turn it into a ``pass`` stamp.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.property_suite.harness import env
from tests.test_hypothesis_card import FINDS, workspace
from tests.test_recorder import pytest_argv, select


def stamp(root: Path, out: str, *command: str, server_class: str = "local-pinned",
          environment: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``gate stamp --pytest`` as the action runs it: ``-P``, the workspace is not the gate's
    ``sys.path`` (its folder holds the patch's files)."""
    return subprocess.run(
        [sys.executable, "-P", "-m", "gate", "stamp", "--manifest", "gate.yml",
         "--server-class", server_class, "--out", out, "--pytest", "--", *command],
        cwd=root, env=environment or env(), capture_output=True, text=True, timeout=300,
        check=False)

#: A recorder the patch writes: it speaks the channel's protocol and says every gated test passed.
FAKE_RECORDER = '''
import json, os, socket
import pytest

SOCK = []


def send(record):
    SOCK[0].sendall(json.dumps(record).encode() + b"\\n")


def pytest_configure(config):
    fd = os.environ.pop("GATE_RECORDER_CHANNEL", "")
    if not fd:
        return
    import hypothesis
    SOCK.append(socket.socket(fileno=int(fd)))
    send({"record": "begin", "schema": "gate-recorder-results/v1", "pid": os.getpid(),
          "gate_version": "0", "pytest_version": pytest.__version__,
          "hypothesis_version": hypothesis.__version__})
    SOCK[0].recv(1)


def pytest_sessionfinish(session):
    if not SOCK:
        return
    plan = json.load(open(os.environ["GATE_RECORDER_PLAN"]))
    cases = [{"classname": p["junit"]["classname"], "name": p["junit"]["name"], "kinds": [],
              "crash": None, "hypothesis": None, "failure": None, "raised": []}
             for p in plan["properties"]]
    session.exitstatus = 0
    send({"record": "end", "exit_status": 0, "refused": [], "refused_tests": 0,
          "cases": cases, "collected": {"selected": None, "deselected": [], "ungated": [],
                                        "failed": []}})
'''


def _fake_gate(folder: Path) -> None:
    (folder / "gate" / "testrun").mkdir(parents=True)
    (folder / "gate" / "__init__.py").write_text("__version__ = '0'\n")
    (folder / "gate" / "testrun" / "__init__.py").write_text("")
    (folder / "gate" / "testrun" / "recorder.py").write_text(FAKE_RECORDER)
    (folder / "gate" / "testrun" / "pytest_plugin.py").write_text("")  # the entry point's


def _error_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("gate: error:")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_gate_package_at_the_workspace_root_is_refused(tmp_path: Path) -> None:
    """Break 5: ``python -m pytest`` puts the current folder first on ``sys.path``; a ``gate``
    package the patch adds there was what ``-p gate.testrun.recorder`` imported, and its fake
    recorder stamped the red property ``pass`` (before the fix: exit 0, a ``pass`` stamp).
    Now: exit 2 naming the file, no stamps."""
    workspace(tmp_path, {"fixed_band": FINDS})
    _fake_gate(tmp_path)
    done = stamp(tmp_path, "out", *pytest_argv(*select("fixed_band")))
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert f"{tmp_path.resolve()}/gate/__init__.py: (workspace): a module named gate" in line
    assert "python -m pytest puts the current folder first on sys.path" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["pytest", "_pytest", "hypothesis", "pluggy"])
def test_a_module_named_as_one_the_run_imports_is_refused(tmp_path: Path, name: str) -> None:
    workspace(tmp_path, {"fixed_band": FINDS})
    (tmp_path / f"{name}.py").write_text("raise SystemExit(0)\n")
    done = stamp(tmp_path, "out", *pytest_argv(*select("fixed_band")))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{name}.py: (workspace): a module named {name} where" in _error_line(done)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("planted", ["gate", "hypothesis"])
def test_a_trusted_module_from_a_workspace_folder_on_the_path_is_refused(
        tmp_path: Path, planted: str) -> None:
    """The same package in a sub-folder pytest's own ``pythonpath`` setting puts on
    ``sys.path`` (before any ``-p`` plugin loads), named by the configuration's ``addopts``:
    the gate cannot see it beforehand; the per-run loader refuses it in the test process."""
    workspace(tmp_path, {"fixed_band": FINDS})
    vendor = tmp_path / "vendor"
    if planted == "gate":
        _fake_gate(vendor)
        opts = " -p gate.testrun.recorder"
    else:
        (vendor / "hypothesis").mkdir(parents=True)
        (vendor / "hypothesis" / "__init__.py").write_text("__version__ = '0'\n")
        opts = ""
    ini = (tmp_path / "pytest.ini").read_text().rstrip("\n")
    (tmp_path / "pytest.ini").write_text(ini + f"{opts}\npythonpath = vendor\n")
    done = stamp(tmp_path, "out", *pytest_argv(*select("fixed_band")))
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert "the command exited 4 (pytest: usage error) before the gate's recorder began" in line
    assert f"vendor/{planted}/__init__.py" in line, line
    assert not (tmp_path / "out").exists()


def test_the_recorder_is_loaded_under_a_name_of_its_own(tmp_path: Path) -> None:
    """The loader's name is random per run and its folder holds only the loader."""
    from gate.testrun import recorder_route

    envs = [recorder_route.recorder_env(tmp_path, tmp_path / "p", 7, {"PYTEST_ADDOPTS": "-x"},
                                        [tmp_path]) for _ in range(2)]
    names = [e["PYTEST_ADDOPTS"].split()[1] for e in envs]
    assert all(n.startswith("_gate_recorder_") for n in names) and names[0] != names[1]
    assert all(e["PYTEST_ADDOPTS"].endswith(" -x") for e in envs)
    for environment, name in zip(envs, names, strict=True):
        folder = Path(environment["PYTHONPATH"].split(":")[0])
        assert sorted(p.name for p in folder.iterdir()) == [f"{name}.py"]


def test_a_workspace_gate_that_is_the_gates_own_package_is_not_refused(tmp_path: Path) -> None:
    """The gate's own checkout, stamped with the gate installed from it (editable)."""
    from gate.testrun import integrity

    package = Path(integrity.__file__).resolve().parent.parent
    assert integrity.shadowing_files([str(package.parent)], str(package)) == []
    assert integrity.shadowing_files([str(package.parent)]) == [str(package / "__init__.py")]


def test_a_pytest_on_the_users_own_pythonpath_is_not_the_workspaces(tmp_path: Path) -> None:
    from gate.testrun import recorder_route

    got = recorder_route.workspace_path([str(tmp_path)], os.pathsep.join(
        ["/opt/site", str(tmp_path / "src"), ""]))
    assert got == [str(tmp_path), str(tmp_path / "src")]
