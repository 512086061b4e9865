"""The action's set-up step under act, with the uv pinned in requirements/installer.lock.

The repository's example workflow (tests/test_action_act.py) runs with the pinned uv wheel
served from 127.0.0.1 (``AGENT_PATCH_GATE_UV_URL``; the sha256 stays the pinned one) and uv
installing the locked wheels from a PEP 503 index of the offline wheelhouse on the same server
(``UV_DEFAULT_INDEX``). All jobs share one
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
from tests.wheel_server import WheelServer, simple_index

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


@pytest.fixture(scope="session")
def mirror_tree(tmp_path_factory: pytest.TempPathFactory, uv_wheel: Path,
                wheelhouse: Path) -> Path:
    """The pinned uv wheel at the top, and a PEP 503 index of the wheelhouse under simple/."""
    tree = tmp_path_factory.mktemp("mirror")
    (tree / uv_wheel.name).symlink_to(uv_wheel)
    simple_index(tree, sorted(wheelhouse.glob("*.whl")))
    return tree


@pytest.fixture
def mirror(mirror_tree: Path) -> Iterator[WheelServer]:
    with WheelServer(mirror_tree) as server:
        yield server


def _env(url: str, root: Path) -> dict[str, str]:
    """The uv wheel and the index both from 127.0.0.1 (uv has no offline switch in env)."""
    return {"AGENT_PATCH_GATE_UV_URL": url, "UV_DEFAULT_INDEX": f"{url}simple/",
            "AGENT_PATCH_GATE_VENV_ROOT": str(root)}


def _uv_downloads(server: WheelServer) -> list[str]:
    return [path for path in server.requests if path == f"/{PINS[KEY].wheel}"]


def test_the_pinned_uv_installs_and_the_gate_runs(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path, mirror: WheelServer) -> None:
    """The example workflow: two stamp legs and the gate job, each making its environment."""
    root = tmp_path / "venvs"
    tmp_path.joinpath("run").mkdir()
    result = base._run_example(tmp_path / "run", double, wheelhouse,
                               env=_env(mirror.url, root))
    assert result.returncode == 0, result.log_tail(120)
    assert base._gate_outputs(result)["decision"] == "open"
    assert double.count("create_check_run") == 1
    # three environments on one root (act gives each job its own action path, which is in the
    # key): the wheel is downloaded once, and uv installs all three
    assert _uv_downloads(mirror) == [f"/{PINS[KEY].wheel}"]
    assert any(path.startswith("/files/pygithub-") for path in mirror.requests)  # from here
    uv_home = f"uv-{PINS[KEY].sha256[:16]}"
    made = [p.name for p in root.iterdir() if p.name != ".lock"]
    assert {name for name in made if name.startswith(("uv-", ".uv-"))} == {uv_home}
    assert sorted(name.rsplit("-", 1)[0] for name in made if name.startswith("venv-")) == [
        "venv-action", "venv-stamp", "venv-stamp"]
    # only the checked wheel is kept: the binary is extracted from it for each build
    assert [p.name for p in (root / uv_home).iterdir()] == [PINS[KEY].wheel]
    jobs = [("stamp", {"server-class": "local-pinned"}),
            ("stamp", {"server-class": "free-server"}), ("gate", None)]
    for name, matrix in jobs:
        assert _installer_lines(result, name, matrix) == [
            "agent-patch gate: installing with the uv pinned in requirements/installer.lock"]
    for venv in root.glob("venv-*"):
        assert (venv / installer.MANIFEST).is_file()
        assert installer.verify(venv) is None  # what later jobs will check
        assert not list(venv.glob("lib/python3*/site-packages/pip"))  # no pip in the venv
    assert list(root.glob("venv-action-*/lib/python3*/site-packages/github"))  # PyGithub
    assert not list(root.glob("venv-stamp-*/lib/python3*/site-packages/github"))


def test_a_warm_set_up_installs_nothing(tmp_path: Path, wheelhouse: Path,
                                        mirror: WheelServer) -> None:
    root = tmp_path / "venvs"
    result = _run_setup(tmp_path, wheelhouse, _env(mirror.url, root))
    assert result.returncode == 0, result.log_tail(120)
    job = result.job("stamp")
    assert job.steps[("cold",)] == job.steps[("warm",)] == "success"
    assert job.outputs["cold"]["artifact-name"] != job.outputs["warm"]["artifact-name"]
    assert _installer_lines(result, "stamp") == [
        "agent-patch gate: installing with the uv pinned in requirements/installer.lock"]
    assert [path[0] for path, line in job.output_lines if "installing with" in line] == ["cold"]
    assert _uv_downloads(mirror) == [f"/{PINS[KEY].wheel}"]
    assert len(list(root.glob("venv-stamp-*/.gate-manifest"))) == 1


def test_a_tampered_uv_wheel_fails_the_set_up_step_with_exit_2(
        tmp_path: Path, wheelhouse: Path) -> None:
    pin = PINS[KEY]
    served = tmp_path / "mirror"
    served.mkdir()
    (served / pin.wheel).write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip, not the pin
    root = tmp_path / "venvs"
    with WheelServer(served) as server:
        result = _run_setup(tmp_path, wheelhouse, _env(server.url, root))
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
    assert not list(root.glob("venv-*/.gate-manifest"))


def test_an_unreachable_uv_server_falls_back_to_pip(tmp_path: Path, wheelhouse: Path) -> None:
    with WheelServer(tmp_path) as server:
        dead = server.url  # nothing listens there once the block ends
    root = tmp_path / "venvs"
    result = _run_setup(tmp_path, wheelhouse, _env(dead, root))
    assert result.returncode == 0, result.log_tail(120)
    (line,) = _installer_lines(result, "stamp")
    assert line.startswith(f"agent-patch gate: installing with pip: downloading {dead}"
                           f"{PINS[KEY].wheel} failed (")
    assert not list(root.glob("uv-*"))
    assert len(list(root.glob("venv-stamp-*/.gate-manifest"))) == 1


def _installer_lines(result: ActResult, job: str,
                     matrix: dict[str, str] | None = None) -> list[str]:
    return [line.strip() for _step, line in result.job(job, matrix).output_lines
            if "agent-patch gate: installing with" in line]


def _run_setup(tmp_path: Path, wheelhouse: Path, env: dict[str, str]) -> ActResult:
    """tests/act/workflows/setup.yml on a copy of the action; pip's wheelhouse for fallbacks."""
    work = tmp_path / "repo"
    work.mkdir()
    base._project_copy(work)
    return run_act(work, WORKFLOWS_DIR / "setup.yml",
                   env={"PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1", **env},
                   artifacts_dir=tmp_path / "artifacts", timeout=600)


def test_the_pinned_uv_refuses_a_wrong_hash_whatever_the_environment_says(
        tmp_path: Path, mirror: WheelServer) -> None:
    """The flags of the set-up step: --require-hashes wins over UV_NO_VERIFY_HASHES."""
    uv = installer.find_uv(tmp_path / "root", {"AGENT_PATCH_GATE_UV_URL": mirror.url}, KEY)
    assert uv
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")],
                   check=True)
    lock = tmp_path / "bad.lock"
    lock.write_text(f"attrs==26.1.0 --hash=sha256:{'0' * 64}\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "UV_DEFAULT_INDEX": f"{mirror.url}simple/",
           "UV_NO_VERIFY_HASHES": "1", "UV_CACHE_DIR": str(tmp_path / "cache"),
           "UV_PYTHON_DOWNLOADS": "never"}
    done = subprocess.run([uv, "pip", "install", "--no-config", "--quiet", "--no-progress",
                           "--python", str(tmp_path / "venv" / "bin" / "python"),
                           "--require-hashes", "--only-binary", ":all:", "--no-deps", "-r",
                           str(lock)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "Hash mismatch for `attrs==26.1.0`" in done.stderr, done.stderr
    assert any(path.startswith("/files/attrs-") for path in mirror.requests)
    assert not list((tmp_path / "venv").glob("lib/python3*/site-packages/attrs"))
