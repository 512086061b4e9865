"""requirements/installer.py: the set-up step's choice of installer, with no network.

A stand-in uv wheel (a zip holding ``uv-0.0.0.data/scripts/uv``, a shell script) is pinned in
a temporary installer.lock and served from 127.0.0.1; the real pins are checked for shape.
The set-up step itself, with the real pinned uv, runs under act in tests/test_setup_act.py.
"""

from __future__ import annotations

import ast
import hashlib
import http.client
import importlib.util
import io
import os
import platform
import re
import stat
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
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


def test_the_pinned_wheel_is_downloaded_checked_kept_and_the_binary_extracted_per_build(
        tmp_path: Path, served: WheelServer, capsys: pytest.CaptureFixture[str]) -> None:
    wheel = _wheel()
    (served.folder / WHEEL).write_bytes(wheel)
    lock = _lock(tmp_path, wheel)
    env = {"AGENT_PATCH_GATE_UV_URL": served.url}
    root = tmp_path / "root"
    root.mkdir(mode=0o700)
    uv = installer.find_uv(root, env, KEY, lock)
    digest = hashlib.sha256(wheel).hexdigest()
    assert uv is not None and Path(uv).name == "uv" and Path(uv).parent.parent == root
    assert Path(uv).parent.name.startswith(".uv-")  # a fresh folder for this build
    assert subprocess.run([uv], capture_output=True, text=True).stdout == "uv 0.0.0\n"
    home = root / f"uv-{digest[:16]}"
    assert [p.name for p in home.iterdir()] == [WHEEL]  # only the checked wheel is kept
    assert served.requests == [f"/{WHEEL}"]
    # a second environment on the same root: no download, the kept wheel checked again
    again = installer.find_uv(root, env, KEY, lock)
    assert again is not None and again != uv
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
    done = subprocess.run([sys.executable, "-I", str(SCRIPT), "--setup", str(tmp_path / "root"),
                           "stamp"],
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
    # the wheel matched its pin and is kept; nothing extracted from it is
    assert [p.name for p in (tmp_path / "root").iterdir()] == [
        f"uv-{hashlib.sha256(wheel).hexdigest()[:16]}"]


@pytest.mark.parametrize(("env", "uv", "flags"), [
    ({}, {}, []),
    ({"PIP_FIND_LINKS": ""}, {}, []),
    ({"PIP_INDEX_URL": "https://mirror.example/simple"},
     {"UV_DEFAULT_INDEX": "https://mirror.example/simple"}, []),
    ({"PIP_EXTRA_INDEX_URL": "https://a.example/simple https://b.example/simple"},
     {"UV_INDEX": "https://a.example/simple https://b.example/simple"}, []),
    ({"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "/wheels"},
     {"UV_FIND_LINKS": "/wheels"}, ["--no-index"]),
    ({"PIP_NO_INDEX": "off", "PIP_FIND_LINKS": "/wheels"}, {"UV_FIND_LINKS": "/wheels"}, []),
    # pip splits its list on white space; uv's UV_FIND_LINKS is comma-separated (a trial's
    # two wheel folders reached uv as one folder named "/a /b": "Failed to read --find-links")
    ({"PIP_FIND_LINKS": "/wheels  /more-wheels\n", "PIP_NO_INDEX": "1"},
     {"UV_FIND_LINKS": "/wheels,/more-wheels"}, ["--no-index"]),
    # uv's own source settings win: none of pip's is passed on
    ({"PIP_INDEX_URL": "https://pip.example/simple",
      "UV_INDEX_URL": "https://uv.example/simple"}, {}, []),
    ({"PIP_FIND_LINKS": "/wheels", "PIP_NO_INDEX": "1", "UV_FIND_LINKS": "/uv-wheels"}, {}, []),
    # pip's TLS settings, unless uv's are set
    ({"PIP_CERT": "/ca.pem", "PIP_CLIENT_CERT": "/me.pem", "PIP_TRUSTED_HOST": "m.example"},
     {"SSL_CERT_FILE": "/ca.pem", "SSL_CLIENT_CERT": "/me.pem",
      "UV_INSECURE_HOST": "m.example"}, []),
    ({"PIP_CERT": "/ca.pem", "SSL_CERT_FILE": "/system.pem"}, {}, []),
])
def test_pip_package_sources_are_passed_to_uv_as_its_own(
        env: dict[str, str], uv: dict[str, str], flags: list[str]) -> None:
    assert installer.uv_source(env) == (uv, flags)


def test_pip_index_settings_no_longer_mean_pip(
        tmp_path: Path, served: WheelServer, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: a runner that points pip at its mirror still installs with the pinned uv."""
    wheel = _wheel()
    (served.folder / WHEEL).write_bytes(wheel)
    lock = _lock(tmp_path, wheel)
    env = {"AGENT_PATCH_GATE_UV_URL": served.url, "PIP_INDEX_URL": "https://m.example/simple",
           "PIP_FIND_LINKS": "/wheels", "PIP_NO_INDEX": "1"}
    (tmp_path / "root").mkdir(mode=0o700)
    assert installer.find_uv(tmp_path / "root", env, KEY, lock) is not None
    assert capsys.readouterr().err == ""


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


# -- what the set-up reuses is verified on every reuse (issue 20.2) ---------------------------

def _fake_install(calls: list[Path]) -> object:
    """``installer.install`` without an installer: a venv-shaped tree (the interpreter link,
    one module); the removal before, the .pth, the manifest after are the real ones."""
    def install(root: Path, venv: Path, lock: Path, env: object, key: str) -> None:
        calls.append(venv)
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to(sys.executable)
        site = venv / "lib" / "python3.11" / "site-packages"
        (site / "yaml").mkdir(parents=True)
        (site / "yaml" / "__init__.py").write_text("SAFE = True\n", encoding="utf-8")
        (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    return install


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    calls: list[Path] = []
    monkeypatch.setattr(installer, "install", _fake_install(calls))
    # no gate to import in the fake venv: the bytecode folder is made empty
    monkeypatch.setattr(installer, "warm",
                        lambda root, venv, action: (venv / installer.PYCACHE).mkdir())
    return calls


def _setup(root: Path) -> Path:
    return Path(installer.setup(root, "stamp", ROOT, {}, KEY))


def _site(python: Path) -> Path:
    return python.parent.parent / "lib" / "python3.11" / "site-packages"


def test_a_clean_reuse_reuses(tmp_path: Path, builds: list[Path],
                              capsys: pytest.CaptureFixture[str]) -> None:
    python = _setup(tmp_path / "root")
    assert len(builds) == 1
    venv = python.parent.parent
    assert (venv / installer.MANIFEST).is_file()
    assert (_site(python) / "agent_patch_gate.pth").read_text() == f"{ROOT}\n"
    assert _setup(tmp_path / "root") == python
    assert len(builds) == 1  # verified and reused
    assert capsys.readouterr().err == ""
    assert stat.S_IMODE((tmp_path / "root").stat().st_mode) == 0o700


def _replace_module(site: Path) -> None:
    (site / "yaml" / "__init__.py").write_text("import os; os.system('touch pwned')\n")


def _replace_pth(site: Path) -> None:
    (site / "agent_patch_gate.pth").write_text("/tmp/elsewhere\n")


def _add_sitecustomize(site: Path) -> None:
    (site / "sitecustomize.py").write_text("import os; os.system('touch pwned')\n")


def _add_pth(site: Path) -> None:
    (site / "zz.pth").write_text("import os; os.system('touch pwned')\n")


def _plant_bytecode(site: Path) -> None:
    (site / "yaml" / "__pycache__").mkdir()
    (site / "yaml" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0" * 16)


def _plant_sealed_bytecode(site: Path) -> None:
    """Bytecode planted where the action's steps read theirs (-X pycache_prefix)."""
    cache = site.parent.parent.parent / installer.PYCACHE / "gate"
    cache.mkdir(parents=True)
    (cache / "errors.cpython-311.pyc").write_bytes(b"\0" * 16)


def _retarget_interpreter(site: Path) -> None:
    python = site.parent.parent.parent / "bin" / "python"
    python.unlink()
    python.symlink_to("/tmp/hostile-python")


def _delete_module(site: Path) -> None:
    (site / "yaml" / "__init__.py").unlink()


def _same_size_same_mtime(site: Path) -> None:
    """A rewrite that keeps the size and puts the modification time back (``os.utime``): the
    change time still moves, and no unprivileged process can set it back."""
    module = site / "yaml" / "__init__.py"
    before = module.stat()
    module.write_text("SAFE = 0xBA\n")
    assert module.stat().st_size == before.st_size
    os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))


def _replaced_by_rename(site: Path) -> None:
    """The same bytes under a new inode (written elsewhere, renamed over the module)."""
    module = site / "yaml" / "__init__.py"
    before = module.stat()
    (site / "new").write_bytes(module.read_bytes())
    os.utime(site / "new", ns=(before.st_atime_ns, before.st_mtime_ns))
    (site / "new").replace(module)


@pytest.mark.parametrize(("tamper", "says"), [
    (_replace_module, "yaml/__init__.py differs from its manifest (f)"),
    (_replace_pth, "agent_patch_gate.pth differs from its manifest (f)"),
    (_add_sitecustomize, "sitecustomize.py is not in its manifest"),
    (_add_pth, "zz.pth is not in its manifest"),
    (_retarget_interpreter, "bin/python differs from its manifest (l)"),
    (_plant_sealed_bytecode, ".gate-pycache/gate is not in its manifest"),
    (_delete_module, "yaml/__init__.py is missing"),
    (_same_size_same_mtime, "yaml/__init__.py differs from its manifest (f)"),
    (_replaced_by_rename, "yaml/__init__.py differs from its manifest (f)"),
])
def test_a_changed_environment_is_rebuilt_before_anything_runs_from_it(
        tmp_path: Path, builds: list[Path], capsys: pytest.CaptureFixture[str],
        tamper: Callable[[Path], None], says: str) -> None:
    python = _setup(tmp_path / "root")
    tamper(_site(python))
    capsys.readouterr()
    assert _setup(tmp_path / "root") == python
    assert len(builds) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("agent-patch gate: rebuilding the environment: ")
    assert line.endswith(says), line
    site = _site(python)
    assert (site / "yaml" / "__init__.py").read_text() == "SAFE = True\n"
    assert (site / "agent_patch_gate.pth").read_text() == f"{ROOT}\n"
    assert not (site / "sitecustomize.py").exists() and not (site / "zz.pth").exists()
    assert os.readlink(python) == sys.executable


@pytest.mark.parametrize("link", [False, True])
def test_bytecode_left_in_a_venv_is_removed_before_reuse(
        tmp_path: Path, builds: list[Path], capsys: pytest.CaptureFixture[str],
        link: bool) -> None:
    """Bytecode Python wrote while an earlier job ran (or a planted `.pyc`) is never run: every
    `__pycache__` goes before the environment is handed out; the sources are verified."""
    python = _setup(tmp_path / "root")
    cache = _site(python) / "yaml" / "__pycache__"
    if link:
        (tmp_path / "elsewhere").mkdir()
        cache.symlink_to(tmp_path / "elsewhere")
    else:
        _plant_bytecode(_site(python))
    capsys.readouterr()
    assert _setup(tmp_path / "root") == python
    assert len(builds) == 1 and capsys.readouterr().err == ""
    assert not os.path.lexists(cache)
    assert not link or (tmp_path / "elsewhere").is_dir()  # a link is removed, not followed


def test_reading_and_importing_are_not_a_change(tmp_path: Path, builds: list[Path]) -> None:
    python = _setup(tmp_path / "root")
    (_site(python) / "yaml" / "__init__.py").read_bytes()
    assert _setup(tmp_path / "root") == python
    assert len(builds) == 1


def test_an_unfinished_build_is_rebuilt(tmp_path: Path, builds: list[Path],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    python = _setup(tmp_path / "root")
    (python.parent.parent / installer.MANIFEST).unlink()  # the old `.complete` world
    capsys.readouterr()
    _setup(tmp_path / "root")
    assert len(builds) == 2
    assert "is missing (not built to the end)" in capsys.readouterr().err


def _main(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = installer.main(["--setup", str(root), "stamp"])
    out, err = capsys.readouterr()
    assert out == "" if status else out.endswith("/bin/python\n")
    return status, err


def test_a_symlinked_root_is_refused(tmp_path: Path, builds: list[Path],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "real").mkdir(mode=0o700)
    (tmp_path / "root").symlink_to(tmp_path / "real")
    status, err = _main(tmp_path / "root", capsys)
    assert status == 2
    assert err == (f"agent-patch gate: {tmp_path / 'root'}: a symbolic link; the set-up follows"
                   " none under its root (remove it)\n")
    assert builds == [] and list((tmp_path / "real").iterdir()) == []


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_root_writable_by_group_or_others_is_refused(
        tmp_path: Path, builds: list[Path], capsys: pytest.CaptureFixture[str],
        mode: int) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "root").chmod(mode)
    status, err = _main(tmp_path / "root", capsys)
    assert status == 2
    assert err == (f"agent-patch gate: {tmp_path / 'root'}: writable by group or others (mode "
                   f"{mode:o}); chmod go-w it or use a root of your own\n")
    assert builds == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_root_or_a_venv_owned_by_another_user_is_refused(
        tmp_path: Path, builds: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "root").mkdir(mode=0o700)
    os.chown(tmp_path / "root", 4321, -1)
    status, err = _main(tmp_path / "root", capsys)
    assert (status, err) == (2, f"agent-patch gate: {tmp_path / 'root'}: owned by uid 4321, "
                                "not this user's 0; use a root of your own "
                                "(AGENT_PATCH_GATE_VENV_ROOT)\n")
    os.chown(tmp_path / "root", 0, -1)
    python = _setup(tmp_path / "root")
    os.chown(_site(python) / "yaml" / "__init__.py", 4321, -1)
    status, err = _main(tmp_path / "root", capsys)
    assert status == 2 and "yaml/__init__.py: owned by uid 4321" in err
    assert len(builds) == 1


@pytest.mark.parametrize("what", ["venv", "lock", "file"])
def test_a_link_under_the_root_is_refused(tmp_path: Path, builds: list[Path],
                                          capsys: pytest.CaptureFixture[str],
                                          what: str) -> None:
    python = _setup(tmp_path / "root")
    venv = python.parent.parent
    if what == "venv":  # a venv swapped for a link to one made elsewhere
        venv.rename(tmp_path / "elsewhere")
        venv.symlink_to(tmp_path / "elsewhere")
    elif what == "lock":
        (tmp_path / "root" / ".lock").unlink()
        (tmp_path / "root" / ".lock").symlink_to(tmp_path / "target")
    else:
        (tmp_path / "manifest").write_bytes((venv / installer.MANIFEST).read_bytes())
        (venv / installer.MANIFEST).unlink()
        (venv / installer.MANIFEST).symlink_to(tmp_path / "manifest")
    status, err = _main(tmp_path / "root", capsys)
    assert status == 2, err
    assert len(err.splitlines()) == 1 and err.startswith("agent-patch gate: ")
    assert ("symbolic link" in err) if what != "lock" else (".lock" in err)
    assert len(builds) == 1
    assert not (tmp_path / "target").exists()


def test_a_group_writable_file_in_the_venv_is_refused(
        tmp_path: Path, builds: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    python = _setup(tmp_path / "root")
    (_site(python) / "yaml" / "__init__.py").chmod(0o664)
    status, err = _main(tmp_path / "root", capsys)
    assert status == 2 and "yaml/__init__.py: writable by group or others (mode 664)" in err


def test_a_planted_uv_is_never_run(tmp_path: Path, served: WheelServer,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's attack: a `uv` left where the installer used to keep the binary."""
    wheel = _wheel()
    (served.folder / WHEEL).write_bytes(wheel)
    lock = _lock(tmp_path, wheel)
    root = tmp_path / "root"
    home = root / f"uv-{hashlib.sha256(wheel).hexdigest()[:16]}"
    home.mkdir(parents=True, mode=0o700)
    root.chmod(0o700)
    planted = home / "uv"
    planted.write_text(f"#!/bin/sh\ntouch {tmp_path / 'pwned'}\necho 'uv 0.0.0'\n")
    planted.chmod(0o755)
    uv = installer.find_uv(root, {"AGENT_PATCH_GATE_UV_URL": served.url}, KEY, lock)
    assert uv is not None and uv != str(planted)
    assert subprocess.run([uv], capture_output=True, text=True).stdout == "uv 0.0.0\n"
    assert not (tmp_path / "pwned").exists()
    assert [p.name for p in home.iterdir()] == [WHEEL]
    assert capsys.readouterr().err == ""


def test_a_replaced_kept_wheel_is_downloaded_again(
        tmp_path: Path, served: WheelServer, capsys: pytest.CaptureFixture[str]) -> None:
    wheel = _wheel()
    (served.folder / WHEEL).write_bytes(wheel)
    lock = _lock(tmp_path, wheel)
    root = tmp_path / "root"
    root.mkdir(mode=0o700)
    env = {"AGENT_PATCH_GATE_UV_URL": served.url}
    assert installer.find_uv(root, env, KEY, lock)
    (kept,) = root.glob(f"uv-*/{WHEEL}")
    kept.write_bytes(_wheel(f"#!/bin/sh\ntouch {tmp_path / 'pwned'}\n"))
    uv = installer.find_uv(root, env, KEY, lock)
    assert uv and subprocess.run([uv], capture_output=True, text=True).stdout == "uv 0.0.0\n"
    assert not (tmp_path / "pwned").exists()
    assert served.requests == [f"/{WHEEL}"] * 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"agent-patch gate: {kept}: sha256 ")
    assert line.endswith("removed, downloading it again")
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == hashlib.sha256(wheel).hexdigest()


def test_a_kept_wheel_that_is_a_link_is_refused(tmp_path: Path, served: WheelServer) -> None:
    wheel = _wheel()
    (served.folder / WHEEL).write_bytes(wheel)
    lock = _lock(tmp_path, wheel)
    root = tmp_path / "root"
    home = root / f"uv-{hashlib.sha256(wheel).hexdigest()[:16]}"
    home.mkdir(parents=True, mode=0o700)
    (tmp_path / "w.whl").write_bytes(wheel)
    (home / WHEEL).symlink_to(tmp_path / "w.whl")
    with pytest.raises(installer.InstallerError, match="a symbolic link"):
        installer.find_uv(root, {"AGENT_PATCH_GATE_UV_URL": served.url}, KEY, lock)


# -- every installer message is one line (issue 20.6) -----------------------------------------

@pytest.mark.parametrize("text", [
    "line one\nline two", "a\r\n::error::forged", "x\n::set-output name=decision::open",
    "tab\there", "nul\0byte", "\u2028separator", "%0A::warning::y",
])
def test_every_message_is_one_line(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    installer.say(f"downloading failed ({text})")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\r" not in err and "\0" not in err
    assert err.startswith("agent-patch gate: downloading failed (")
    for line in err.splitlines():
        assert not line.lstrip().startswith("::")


def test_an_error_text_with_line_breaks_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def hostile(url: str) -> bytes:
        raise OSError("refused\n::error::the gate is open\r\n")

    monkeypatch.setattr(installer, "download", hostile)
    (tmp_path / "root").mkdir(mode=0o700)
    assert installer.find_uv(tmp_path / "root", {}, KEY, _lock(tmp_path, _wheel())) is None
    (line,) = capsys.readouterr().err.splitlines(keepends=True)
    assert line.startswith("agent-patch gate: installing with pip: downloading ")
    assert "refused\\n::error::the gate is open\\r\\n" in line


def test_every_message_goes_through_say() -> None:
    """No other print reaches stderr; stdout carries only a path."""
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for call in ast.walk(function):
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "print":
                to_stderr = any(k.arg == "file" for k in call.keywords)
                assert function.name == "say" if to_stderr else function.name == "main", (
                    function.name, call.lineno)
            if isinstance(call, ast.Attribute) and call.attr == "stderr":
                assert function.name == "say", (function.name, call.lineno)


def test_this_platform_is_what_the_platform_module_says() -> None:
    assert installer.this_platform() == installer.platform_key(platform.system(),
                                                               platform.machine())
