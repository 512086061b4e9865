"""The action's own Python never runs code from the workspace or the job's environment (20.1).

The set-up step and the stamp step run here as a runner runs them: each ``run:`` script taken
verbatim from action.yml, by bash, in the job's environment, in a workspace the patch wrote.
Each test plants one vector (``PYTHONPATH`` naming the workspace or ``.``, ``PYTHONHOME``,
``PYTHONSTARTUP``, ``PYTHONUSERBASE`` with a ``usercustomize`` and a ``.pth``, a
``sitecustomize.py``, a ``gate/`` package with ``__main__.py`` in the workspace and in the
current folder) whose code writes a marker and forges the step's outputs, and checks both that
no marker was written and that the action's own code ran: the set-up printed the path of the
verified environment, and ``gate action`` wrote three schema-valid stamps and named them in
its outputs, which the hostile code never does. The gate job's step, end to end with a closed
gate, runs under act in tests/test_isolation_act.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from gate.records import schemas
from tests import test_action_act as base

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"
STEPS = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]
#: The interpreter the ``python`` input names on a runner: not a venv's (whose user site is off).
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)
#: What the patch's code does when it runs: leaves a marker, and forges an open gate.
HOSTILE = """\
import os, sys
markers = os.environ.get("HOSTILE_MARKERS")
if markers:
    with open(os.path.join(markers, "ran-%d" % os.getpid()), "w") as f:
        f.write(" ".join(sys.orig_argv))
if "gate" in sys.orig_argv:
    with open(os.environ["GITHUB_OUTPUT"], "a") as f:
        f.write("decision=open\\nartifact-name=forged\\n")
    os._exit(0)
"""


def _script(step_id: str) -> str:
    (step,) = [s for s in STEPS if s.get("id") == step_id]
    return str(step["run"])


def _commands(script: str) -> list[str]:
    """The script's commands, one per logical line (continuations joined, comments dropped)."""
    joined = re.sub(r"\\\n\s*", " ", script)
    return [line.strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_every_python_the_action_starts_is_isolated() -> None:
    """Each interpreter a ``run:`` starts gets ``-I`` first: no PYTHON* variable, no user site,
    no current or script folder on sys.path."""
    started = 0
    for step in STEPS:
        for command in _commands(str(step.get("run", ""))):
            for match in re.finditer(r'(?:^|(\S*?)(?:\s+|\())"\$\{?(\w*PYTHON\w*)\}?"(\s+\S+)?',
                                     command):
                if match.group(1) == "-v":  # `command -v "$GATE_PYTHON"`: only looked up
                    continue
                started += 1
                assert (match.group(3) or "").strip() == "-I", (step.get("name"), command)
            if not command.startswith("echo "):  # no interpreter found on PATH by name
                assert not re.search(r"(?:^|[\s;&|(])python3?(?:\s|$)", command), (
                    step.get("name"), command)
    assert started >= 3  # the set-up, the stamp step, the gate step


def test_every_python_the_installer_starts_is_isolated() -> None:
    """requirements/installer.py starts interpreters (venv, pip) with ``-I`` too, in the root,
    with no PYTHON* variable in their environment."""
    source = (ROOT / "requirements" / "installer.py").read_text(encoding="utf-8")
    starts = re.findall(r"\[(python|target), ([^\]]*)", source)
    assert len(starts) >= 4
    for interpreter, rest in starts:
        assert rest.startswith('"-I", '), (interpreter, rest)
    assert source.count("env=plain") + source.count("plain, root") >= 4


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _gate_package(folder: Path) -> None:
    _write(folder / "gate" / "__init__.py", HOSTILE)
    _write(folder / "gate" / "__main__.py", HOSTILE)


def _user_site(workspace: Path) -> Path:
    return workspace / "ub" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / \
        "site-packages"


def _pythonpath_workspace(ws: Path) -> dict[str, str]:
    _gate_package(ws)
    return {"PYTHONPATH": str(ws)}


def _pythonpath_dot(ws: Path) -> dict[str, str]:
    _gate_package(ws)
    return {"PYTHONPATH": "."}


def _gate_in_current_folder(ws: Path) -> dict[str, str]:
    _gate_package(ws)
    return {}


def _sitecustomize(ws: Path) -> dict[str, str]:
    _write(ws / "sitecustomize.py", HOSTILE)
    return {"PYTHONPATH": str(ws)}


def _usercustomize(ws: Path) -> dict[str, str]:
    _write(_user_site(ws) / "usercustomize.py", HOSTILE)
    return {"PYTHONUSERBASE": str(ws / "ub")}


def _pth(ws: Path) -> dict[str, str]:
    _write(_user_site(ws) / "hostile.pth", "import hostile_pth\n")
    _write(_user_site(ws) / "hostile_pth.py", HOSTILE)
    return {"PYTHONUSERBASE": str(ws / "ub")}


def _pythonhome(ws: Path) -> dict[str, str]:
    """A PYTHONHOME whose standard library is the patch's: its `encodings` runs first."""
    lib = ws / "home" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    _write(lib / "encodings" / "__init__.py", HOSTILE + "os._exit(0)\n")
    _write(lib / "os.py", "")
    return {"PYTHONHOME": str(ws / "home")}


def _pythonstartup(ws: Path) -> dict[str, str]:
    _write(ws / "startup.py", HOSTILE)
    return {"PYTHONSTARTUP": str(ws / "startup.py"), "PYTHONINSPECT": "1"}


wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels

VECTORS: dict[str, Callable[[Path], dict[str, str]]] = {
    "PYTHONPATH=workspace + gate/__main__.py": _pythonpath_workspace,
    "PYTHONPATH=. + gate/__main__.py": _pythonpath_dot,
    "gate/ in the current folder": _gate_in_current_folder,
    "sitecustomize.py on PYTHONPATH": _sitecustomize,
    "PYTHONUSERBASE + usercustomize": _usercustomize,
    "PYTHONUSERBASE + .pth": _pth,
    "PYTHONHOME": _pythonhome,
    "PYTHONSTARTUP + PYTHONINSPECT": _pythonstartup,
}


def _runner_env(tmp: Path, wheelhouse: Path | None) -> dict[str, str]:
    (tmp / "runner").mkdir(exist_ok=True)
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp), "RUNNER_TEMP": str(tmp / "runner"),
           "GITHUB_ACTION_PATH": str(ROOT), "AGENT_PATCH_GATE_VENV_ROOT": str(tmp / "venvs"),
           "GATE_PYTHON": BASE_PYTHON, "GATE_MODE": "stamp"}
    if wheelhouse:
        env.update({"AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri(),
                    "PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1"})
    return env


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A runner whose venv root holds the stamp environment, built once by the set-up step
    from the offline wheelhouse (the pinned uv from it too, when it holds the wheel)."""
    tmp = tmp_path_factory.mktemp("runner")
    env = {**_runner_env(tmp, wheelhouse), "GITHUB_OUTPUT": str(tmp / "setup-out.txt")}
    done = subprocess.run(["bash", "-c", _script("setup")], env=env, cwd=tmp,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return tmp


def _outputs(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    found = dict(re.findall(r"^([\w-]+)=(.*)$", text, re.MULTILINE))
    found.update({m.group(2): m.group(3)
                  for m in re.finditer(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", text, re.S | re.M)})
    for m in re.finditer(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", text, re.S | re.M):
        found[m.group(1)] = m.group(3)
    return found


@pytest.mark.parametrize("vector", list(VECTORS))
def test_the_workspace_cannot_stand_in_for_the_action(
        runner: Path, tmp_path: Path, vector: str) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    markers = tmp_path / "markers"
    markers.mkdir()
    hostile = VECTORS[vector](workspace)
    base = {**_runner_env(runner, None), "HOSTILE_MARKERS": str(markers), **hostile,
            "GITHUB_WORKSPACE": str(workspace)}
    # the set-up step (warm: the environment verified and reused)
    setup_out = tmp_path / "setup-out.txt"
    done = subprocess.run(["bash", "-c", _script("setup")],
                          env={**base, "GITHUB_OUTPUT": str(setup_out)}, cwd=workspace,
                          capture_output=True, text=True, timeout=300, check=False)
    assert sorted(p.read_text() for p in markers.iterdir()) == [], vector
    assert done.returncode == 0, done.stderr
    python = _outputs(setup_out)["python"]
    assert Path(python).parent.parent.parent == runner / "venvs"  # the verified venv
    # the stamp step: `gate action` on the example JUnit report
    stamp_out = tmp_path / "stamp-out.txt"
    env = {**base, "GITHUB_OUTPUT": str(stamp_out), "GATE_VENV_PYTHON": python,
           "GATE_SEAL": _outputs(setup_out)["seal"],
           "GATE_SEAL_SHA256": _outputs(setup_out)["seal-sha256"],
           "GATE_SERVER_CLASS": "free-server", "GATE_MANIFEST": str(EXAMPLES / "manifest.yml"),
           "GATE_ROOT": str(EXAMPLES), "GATE_JUNIT": str(EXAMPLES / "junit" / "free-server.xml"),
           "GATE_EXIT_CODE": "1", "GATE_ARTIFACT_PREFIX": "gate-stamps",
           "GITHUB_JOB": "stamp", "GITHUB_RUN_ATTEMPT": "1"}
    done = subprocess.run(["bash", "-c", _script("stamp")], env=env, cwd=workspace,
                          capture_output=True, text=True, timeout=300, check=False)
    assert sorted(p.read_text() for p in markers.iterdir()) == [], vector
    assert done.returncode == 0, done.stderr
    outputs = _outputs(stamp_out)
    assert "decision" not in outputs  # stamp mode decides nothing: only the forgery says open
    assert outputs["artifact-name"].startswith("gate-stamps-free-server-stamp-1-")
    stamps = sorted(Path(outputs["stamps-dir"]).glob("*.json"))
    assert len(stamps) == 3
    for path in stamps:
        schemas.validate("stamp", json.loads(path.read_text(encoding="utf-8")), str(path))


def test_the_test_command_keeps_the_users_environment(runner: Path, tmp_path: Path) -> None:
    """Only the recorder's own additions are put in front of the user's PYTHONPATH and
    PYTEST_ADDOPTS; every other variable, PYTHON* ones included, reaches the command as set."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    python = _outputs(runner / "setup-out.txt")["python"]
    user = {"PYTHONPATH": "/user/src", "PYTHONHASHSEED": "7", "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONUSERBASE": "/user/base", "PYTEST_ADDOPTS": "-q", "MY_SETTING": "x y"}
    dump = tmp_path / "env.json"
    _write(tmp_path / "dump.py",
           f"import json, os\njson.dump(dict(os.environ), open({str(dump)!r}, 'w'))\n")
    env = {**_runner_env(runner, None), **user, "GITHUB_OUTPUT": str(tmp_path / "out.txt"),
           "GATE_VENV_PYTHON": python, "GATE_SERVER_CLASS": "free-server",
           "GATE_SEAL": _outputs(runner / "setup-out.txt")["seal"],
           "GATE_SEAL_SHA256": _outputs(runner / "setup-out.txt")["seal-sha256"],
           "GATE_MANIFEST": str(EXAMPLES / "manifest.yml"), "GATE_ROOT": str(EXAMPLES),
           "GATE_COMMAND": f"{BASE_PYTHON} -I {tmp_path / 'dump.py'}",
           "GITHUB_JOB": "stamp", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_WORKSPACE": str(workspace)}
    done = subprocess.run(["bash", "-c", _script("stamp")], env=env, cwd=workspace,
                          capture_output=True, text=True, timeout=300, check=False)
    assert dump.exists(), done.stderr
    seen = json.loads(dump.read_text(encoding="utf-8"))
    for name, value in user.items():
        if name == "PYTHONPATH":
            private, _, rest = seen[name].partition(os.pathsep)
            assert rest == value and private != value  # the recorder's folder, then the user's
        elif name == "PYTEST_ADDOPTS":
            # the recorder's per-run -p first (issue 27: before any user option can load a
            # plugin of the patch's), then the user's options as set
            assert re.fullmatch(rf"-p _gate_recorder_[0-9a-f]+ {re.escape(value)}",
                                seen[name]), seen[name]
        else:
            assert seen[name] == value, name
