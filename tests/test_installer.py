"""requirements/installer.py: the set-up step's choice of installer, with no network.

A stand-in uv wheel (a zip holding ``uv-0.0.0.data/scripts/uv``, a shell script) is pinned in
a temporary installer.lock and served from 127.0.0.1; the real pins are checked for shape.
The set-up step itself, with the real pinned uv, runs under act in tests/test_setup_act.py.
"""

from __future__ import annotations

import hashlib
import http.client
import importlib.util
import io
import platform
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.wheel_server import WheelServer

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "requirements" / "installer.py"
KEY = "linux-x86_64"
WHEEL = "uv-0.0.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gate_installer", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["gate_installer"] = module
    spec.loader.exec_module(module)
    return module


installer = _load()


def _wheel(script: str = "#!/bin/sh\necho 'uv 0.0.0'\n") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("uv/__init__.py", "")
        archive.writestr("uv-0.0.0.data/scripts/uvx", "#!/bin/sh\nexit 9\n")
        archive.writestr("uv-0.0.0.data/scripts/uv", script)
    return buffer.getvalue()


def _lock(tmp_path: Path, wheel: bytes, key: str = KEY) -> Path:
    lock = tmp_path / "installer.lock"
    digest = hashlib.sha256(wheel).hexdigest()
    lock.write_text(f"# test pin\n{key} {WHEEL} {digest} https://files.pythonhosted.org/"
                    f"packages/00/00/x/{WHEEL}\n", encoding="utf-8")
    return lock


@pytest.fixture
def served(tmp_path: Path) -> Iterator[WheelServer]:
    (tmp_path / "served").mkdir()
    with WheelServer(tmp_path / "served") as server:
        yield server


def test_the_real_pins_cover_every_github_hosted_platform() -> None:
    pins = installer.read_pins(installer.LOCK)
    assert set(pins) == {"linux-x86_64", "linux-aarch64", "macos-x86_64", "macos-arm64",
                         "windows-amd64"}
    versions = set()
    for key, pin in pins.items():
        assert pin.wheel.endswith(installer.WHEEL_TAGS[key])
        assert re.fullmatch(r"https://files\.pythonhosted\.org/packages/[0-9a-f]{2}/[0-9a-f]{2}"
                            r"/[0-9a-f]{60}/" + re.escape(pin.wheel), pin.url), pin.url
        versions.add(pin.wheel.split("-")[1])
    assert len(versions) == 1  # one uv release on every platform


@pytest.mark.parametrize(("system", "machine", "key"), [
    ("Linux", "x86_64", "linux-x86_64"), ("Linux", "aarch64", "linux-aarch64"),
    ("Linux", "arm64", "linux-aarch64"), ("Darwin", "arm64", "macos-arm64"),
    ("Darwin", "x86_64", "macos-x86_64"), ("Windows", "AMD64", "windows-amd64"),
    ("Linux", "riscv64", "linux-riscv64"),
])
def test_platform_keys(system: str, machine: str, key: str) -> None:
    assert installer.platform_key(system, machine) == key


@pytest.mark.parametrize("line", [
    "linux-x86_64 uv.whl abc https://x/uv.whl",             # short hash
    f"linux-x86_64 uv.whl {'A' * 64} https://x/uv.whl",     # not lower-case hex
    f"linux-x86_64 uv.whl {'a' * 64} http://x/uv.whl",      # not https
    f"linux-x86_64 uv.tar.gz {'a' * 64} https://x/uv.tar.gz",
    f"linux-x86_64 uv.whl {'a' * 64}",
])
def test_a_broken_pin_line_is_refused(tmp_path: Path, line: str) -> None:
    lock = tmp_path / "installer.lock"
    lock.write_text(f"# pins\n{line}\n", encoding="utf-8")
    with pytest.raises(installer.InstallerError, match=r"installer\.lock:2: expected"):
        installer.read_pins(lock)


def test_the_pinned_wheel_is_downloaded_checked_extracted_and_kept(
        tmp_path: Path, served: WheelServer, capsys: pytest.CaptureFixture[str]) -> None:
    wheel = _wheel()
    (served.folder / WHEEL).write_bytes(wheel)
    lock = _lock(tmp_path, wheel)
    env = {"AGENT_PATCH_GATE_UV_URL": served.url}
    uv = installer.find_uv(tmp_path / "root", env, KEY, lock)
    digest = hashlib.sha256(wheel).hexdigest()
    assert uv == str(tmp_path / "root" / f"uv-{digest[:16]}" / "uv")
    assert subprocess.run([uv], capture_output=True, text=True).stdout == "uv 0.0.0\n"
    assert sorted(p.name for p in (tmp_path / "root").iterdir()) == [f"uv-{digest[:16]}"]
    assert [p.name for p in Path(uv).parent.iterdir()] == ["uv"]  # only the binary
    assert served.requests == [f"/{WHEEL}"]
    # a second environment on the same root: no download
    assert installer.find_uv(tmp_path / "root", env, KEY, lock) == uv
    assert served.requests == [f"/{WHEEL}"]
    assert capsys.readouterr().err == ""


def test_a_tampered_wheel_is_refused_and_nothing_of_it_is_kept(
        tmp_path: Path, served: WheelServer) -> None:
    lock = _lock(tmp_path, _wheel())
    tampered = _wheel("#!/bin/sh\ntouch pwned\n")
    (served.folder / WHEEL).write_bytes(tampered)
    with pytest.raises(installer.InstallerError) as raised:
        installer.find_uv(tmp_path / "root", {"AGENT_PATCH_GATE_UV_URL": served.url}, KEY, lock)
    message = str(raised.value)
    assert message.startswith(f"{WHEEL} from {served.url}{WHEEL}: sha256 "
                              f"{hashlib.sha256(tampered).hexdigest()}, expected ")
    assert "\n" not in message
    assert not (tmp_path / "root").exists()


def test_the_command_line_exits_2_on_a_mismatch(tmp_path: Path, served: WheelServer) -> None:
    """The real pin for this machine, served a wrong file: exit 2 and one line."""
    key = installer.platform_key(platform.system(), platform.machine())
    pins = installer.read_pins(installer.LOCK)
    if key not in pins:
        pytest.skip(f"no uv pinned for {key}")
    (served.folder / pins[key].wheel).write_bytes(b"not the wheel")
    done = subprocess.run([sys.executable, "-P", str(SCRIPT), str(tmp_path / "root")],
                          env={"PATH": "/usr/bin:/bin", "AGENT_PATCH_GATE_UV_URL": served.url},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"agent-patch gate: {pins[key].wheel} from {served.url}")
    assert f"expected {pins[key].sha256}" in line


def test_an_unpinned_platform_installs_with_pip(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lock = _lock(tmp_path, _wheel())
    assert installer.find_uv(tmp_path / "root", {}, "linux-riscv64", lock) is None
    assert capsys.readouterr().err == ("agent-patch gate: installing with pip: no uv is pinned "
                                       "for linux-riscv64 in requirements/installer.lock\n")


def test_an_unreachable_server_installs_with_pip(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lock = _lock(tmp_path, _wheel())
    with WheelServer(tmp_path) as server:
        dead = server.url  # closed once the block ends: nothing listens there
    assert installer.find_uv(tmp_path / "root", {"AGENT_PATCH_GATE_UV_URL": dead}, KEY,
                             lock) is None
    err = capsys.readouterr().err
    assert err.startswith(f"agent-patch gate: installing with pip: downloading {dead}{WHEEL} "
                          "failed (")
    assert err.count("\n") == 1


def test_a_missing_file_installs_with_pip(
        tmp_path: Path, served: WheelServer, capsys: pytest.CaptureFixture[str]) -> None:
    lock = _lock(tmp_path, _wheel())
    assert installer.find_uv(tmp_path / "root", {"AGENT_PATCH_GATE_UV_URL": served.url}, KEY,
                             lock) is None
    assert "HTTP Error 404" in capsys.readouterr().err


def test_a_uv_that_cannot_run_here_installs_with_pip(
        tmp_path: Path, served: WheelServer, capsys: pytest.CaptureFixture[str]) -> None:
    wheel = _wheel("\x7fELF not for this machine")
    (served.folder / WHEEL).write_bytes(wheel)
    lock = _lock(tmp_path, wheel)
    assert installer.find_uv(tmp_path / "root", {"AGENT_PATCH_GATE_UV_URL": served.url}, KEY,
                             lock) is None
    assert "the pinned uv does not run on this machine" in capsys.readouterr().err
    assert list((tmp_path / "root").iterdir()) == []  # not kept


@pytest.mark.parametrize(("env", "pip"), [
    ({}, False),
    ({"PIP_FIND_LINKS": ""}, False),
    ({"PIP_INDEX_URL": "https://mirror.example/simple"}, True),
    ({"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "/wheels"}, True),
    ({"PIP_INDEX_URL": "https://mirror.example/simple",
      "UV_INDEX_URL": "https://mirror.example/simple"}, False),
    ({"PIP_FIND_LINKS": "/wheels", "UV_FIND_LINKS": "/wheels"}, False),
])
def test_pip_index_settings_uv_would_ignore_mean_pip(
        tmp_path: Path, env: dict[str, str], pip: bool) -> None:
    reason = installer.pip_source_reason(env)
    assert (reason is not None) == pip
    if pip:
        lock = _lock(tmp_path, _wheel())
        assert installer.find_uv(tmp_path / "root", env, KEY, lock) is None  # no download


def test_fetch_fills_a_wheelhouse_hash_checked(tmp_path: Path, served: WheelServer,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    wheel = _wheel()
    (served.folder / WHEEL).write_bytes(wheel)
    lock = tmp_path / "installer.lock"
    lock.write_text(f"{KEY} {WHEEL} {hashlib.sha256(wheel).hexdigest()} "
                    f"https://files.pythonhosted.org/packages/x/{WHEEL}\n", encoding="utf-8")
    monkeypatch.setattr(installer, "download",
                        lambda url: (served.folder / url.rsplit("/", 1)[1]).read_bytes())
    assert installer.fetch_wheel(tmp_path / "house", KEY, lock).read_bytes() == wheel
    (served.folder / WHEEL).write_bytes(b"tampered")
    (tmp_path / "house" / WHEEL).write_bytes(b"tampered")
    with pytest.raises(installer.InstallerError, match="sha256 "):
        installer.fetch_wheel(tmp_path / "house", KEY, lock)
    with pytest.raises(installer.InstallerError, match="no uv is pinned for linux-riscv64"):
        installer.fetch_wheel(tmp_path / "house", "linux-riscv64", lock)


def test_a_cut_download_installs_with_pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A connection closed before Content-Length (http.client.IncompleteRead) is a network
    failure, not a mismatch."""
    def cut(url: str) -> bytes:
        raise http.client.IncompleteRead(b"PK", 17_000_000)

    monkeypatch.setattr(installer, "download", cut)
    lock = _lock(tmp_path, _wheel())
    assert installer.find_uv(tmp_path / "root", {}, KEY, lock) is None
    assert "installing with pip: downloading https://files.pythonhosted.org/" in \
        capsys.readouterr().err
