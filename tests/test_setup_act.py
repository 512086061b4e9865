"""The action's set-up step under act, with the uv pinned in requirements/installer.lock.

The repository's example workflow (tests/test_action_act.py) runs with the pinned uv wheel
served from 127.0.0.1 (``AGENT_PATCH_GATE_UV_URL``; the sha256 stays the pinned one) and uv
installing the locked wheels from the offline wheelhouse (``UV_FIND_LINKS``). All jobs share one
venv root (``AGENT_PATCH_GATE_VENV_ROOT``), so what the step left behind can be read afterwards.
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import test_action_act as base
from tests.act.harness import WORKFLOWS_DIR, ActResult, run_act
from tests.github_double import GitHubDouble
from tests.test_installer import installer
from tests.wheel_server import WheelServer

double = base.double
wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
KEY = installer.platform_key(platform.system(), platform.machine())
PINS = installer.read_pins(installer.LOCK)
pytestmark = pytest.mark.skipif(KEY not in PINS, reason=f"no uv pinned for {KEY}")


@pytest.fixture(scope="session")
def uv_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This machine's pinned uv wheel: from GATE_WHEELHOUSE (CI's .ci/run puts it there)."""
    given = os.environ.get("GATE_WHEELHOUSE")
    if given and (Path(given) / PINS[KEY].wheel).is_file():
        return Path(given) / PINS[KEY].wheel
    folder = tmp_path_factory.mktemp("uv-wheel")
    subprocess.run([sys.executable, str(installer.LOCK.parent / "installer.py"), "--fetch",
                    str(folder)], check=True, capture_output=True)
    return folder / PINS[KEY].wheel


@pytest.fixture
def mirror(tmp_path: Path, uv_wheel: Path) -> Iterator[WheelServer]:
    served = tmp_path / "mirror"
    served.mkdir()
    (served / uv_wheel.name).symlink_to(uv_wheel)
    with WheelServer(served) as server:
        yield server


def _env(url: str, wheels: Path, root: Path) -> dict[str, str]:
    return {"AGENT_PATCH_GATE_UV_URL": url, "UV_FIND_LINKS": str(wheels), "UV_NO_INDEX": "1",
            "AGENT_PATCH_GATE_VENV_ROOT": str(root)}


def test_the_pinned_uv_installs_and_the_gate_runs(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path, mirror: WheelServer) -> None:
    """The example workflow: two stamp legs and the gate job, each making its environment."""
    root = tmp_path / "venvs"
    tmp_path.joinpath("run").mkdir()
    result = base._run_example(tmp_path / "run", double, wheelhouse,
                               env=_env(mirror.url, wheelhouse, root))
    assert result.returncode == 0, result.log_tail(120)
    assert base._gate_outputs(result)["decision"] == "open"
    assert double.count("create_check_run") == 1
    # three environments on one root (act gives each job its own action path, which is in the
    # key): the wheel is downloaded once, and uv installs all three
    assert mirror.requests == [f"/{PINS[KEY].wheel}"]
    uv_home = f"uv-{PINS[KEY].sha256[:16]}"
    made = [p.name for p in root.iterdir() if p.name != ".lock"]
    assert {name for name in made if name.startswith("uv-")} == {"uv-cache", uv_home}
    assert sorted(name.rsplit("-", 1)[0] for name in made if name.startswith("venv-")) == [
        "venv-action", "venv-stamp", "venv-stamp"]
    assert [p.name for p in (root / uv_home).iterdir()] == ["uv"]  # only the binary
    jobs = [("stamp", {"server-class": "local-pinned"}),
            ("stamp", {"server-class": "free-server"}), ("gate", None)]
    for name, matrix in jobs:
        assert _installer_lines(result, name, matrix) == [
            "agent-patch gate: installing with the uv pinned in requirements/installer.lock"]
    for venv in root.glob("venv-*"):
        assert (venv / ".complete").is_file()
        assert not list(venv.glob("lib/python3*/site-packages/pip"))  # no pip in the venv
    assert list(root.glob("venv-action-*/lib/python3*/site-packages/github"))  # PyGithub
    assert not list(root.glob("venv-stamp-*/lib/python3*/site-packages/github"))


def test_a_warm_set_up_installs_nothing(tmp_path: Path, wheelhouse: Path,
                                        mirror: WheelServer) -> None:
    root = tmp_path / "venvs"
    result = _run_setup(tmp_path, _env(mirror.url, wheelhouse, root))
    assert result.returncode == 0, result.log_tail(120)
    job = result.job("stamp")
    assert job.steps[("cold",)] == job.steps[("warm",)] == "success"
    assert job.outputs["cold"]["artifact-name"] != job.outputs["warm"]["artifact-name"]
    assert _installer_lines(result, "stamp") == [
        "agent-patch gate: installing with the uv pinned in requirements/installer.lock"]
    assert [path[0] for path, line in job.output_lines if "installing with" in line] == ["cold"]
    assert mirror.requests == [f"/{PINS[KEY].wheel}"]
    assert len(list(root.glob("venv-stamp-*/.complete"))) == 1


def test_a_tampered_uv_wheel_fails_the_set_up_step_with_exit_2(
        tmp_path: Path, wheelhouse: Path) -> None:
    pin = PINS[KEY]
    served = tmp_path / "mirror"
    served.mkdir()
    (served / pin.wheel).write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip, not the pin
    root = tmp_path / "venvs"
    with WheelServer(served) as server:
        result = _run_setup(tmp_path, _env(server.url, wheelhouse, root))
    assert result.returncode != 0
    job = result.job("stamp")
    assert job.result == "failure"
    assert ("warm",) not in job.steps or job.steps[("warm",)] != "success"
    refused = [line.strip() for _step, line in job.output_lines if pin.wheel in line]
    assert refused == [f"agent-patch gate: {pin.wheel} from {server.url}{pin.wheel}: sha256 "
                       f"{hashlib.sha256(served.joinpath(pin.wheel).read_bytes()).hexdigest()}"
                       f", expected {pin.sha256} (requirements/installer.lock); refusing to "
                       "run it"]
    assert re.search(r"exit (?:code|status) 2|exitcode '2'", result.log_tail(400)), \
        result.log_tail(60)
    assert not list(root.glob("uv-*"))  # nothing of it kept
    assert not list(root.glob("venv-*/.complete"))


def test_an_unreachable_uv_server_falls_back_to_pip(tmp_path: Path, wheelhouse: Path) -> None:
    with WheelServer(tmp_path) as server:
        dead = server.url  # nothing listens there once the block ends
    root = tmp_path / "venvs"
    result = _run_setup(tmp_path, _env(dead, wheelhouse, root))
    assert result.returncode == 0, result.log_tail(120)
    (line,) = _installer_lines(result, "stamp")
    assert line.startswith(f"agent-patch gate: installing with pip: downloading {dead}"
                           f"{PINS[KEY].wheel} failed (")
    assert not list(root.glob("uv-*"))
    assert len(list(root.glob("venv-stamp-*/.complete"))) == 1


def _installer_lines(result: ActResult, job: str,
                     matrix: dict[str, str] | None = None) -> list[str]:
    return [line.strip() for _step, line in result.job(job, matrix).output_lines
            if "agent-patch gate: installing with" in line]


def _run_setup(tmp_path: Path, env: dict[str, str]) -> ActResult:
    """tests/act/workflows/setup.yml on a copy of the action; pip's wheelhouse for fallbacks."""
    work = tmp_path / "repo"
    work.mkdir()
    base._project_copy(work)
    return run_act(work, WORKFLOWS_DIR / "setup.yml",
                   env={"PIP_FIND_LINKS": env["UV_FIND_LINKS"], "PIP_NO_INDEX": "1", **env},
                   artifacts_dir=tmp_path / "artifacts", timeout=600)
