"""The shipped install at the ``namespace`` level (issue 27): inside the namespace the tool cache
is read-only, setup-python's interpreter with it, so ``python -m pip install -r
requirements-test.txt`` into that interpreter failed (exit 2, no stamps). The gate now makes a
venv for the tests (:func:`gate.testrun.running.with_tests_venv`) first on the command's
``PATH``: the install goes there and the tests run from it, while the interpreter stays
read-only, so a ``sitecustomize.py`` or ``.pth`` the install or a test writes into it never
reaches a later step that runs it (the gate's signing step runs a venv built from it).

The tool cache here is made as on a hosted runner: an interpreter under ``RUNNER_TOOL_CACHE``
owned by the job's (unprivileged) user, so only the seal stands between the attacker and it:
its binary a copy of the system's, its standard library linked, its ``site-packages`` its own
with pip in it. The gate and its command run as that user (:mod:`tests.sealed_helpers`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from gate.testrun import isolation
from tests import sealed_helpers as sealed
from tests.sealed_helpers import shared_folder

__all__ = ["shared_folder"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"
VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"
SYSTEM_PYTHON = Path(f"/usr/bin/python{VERSION}")
#: The shipped install command, as the workflows and the reusable workflow paste it.
SHIPPED_INSTALL = "python -m pip install -r requirements-test.txt"

#: What the attacker writes where it can: a sitecustomize.py and a .pth whose code, when any
#: Python runs it, leaves a marker. Reports what each write did.
PLANT = r'''
import json, os, sys, sysconfig
marker, report, base_site, base_lib = sys.argv[1:5]
code = f"open({marker!r}, 'a').write('ran ' + __import__('sys').executable + chr(10))\n"
done = {}
targets = {"base_site_sitecustomize": os.path.join(base_site, "sitecustomize.py"),
           "base_site_pth": os.path.join(base_site, "zzz_gate.pth"),
           "base_stdlib_sitecustomize": os.path.join(base_lib, "sitecustomize.py"),
           "own_site_pth": os.path.join(sysconfig.get_paths()["purelib"], "zzz_gate.pth")}
for name, path in targets.items():
    try:
        with open(path, "w") as handle:
            handle.write(code if name.endswith("sitecustomize") else "import os; " + code)
        done[name] = "done"
    except OSError as exc:
        done[name] = exc.strerror
done["prefix"] = sys.prefix
with open(report, "a") as handle:
    handle.write(json.dumps(done) + "\n")
'''


def _wheel(folder: Path) -> Path:
    """A wheel of ``gate_probe_pkg`` 1.0 with a console script ``gate-probe`` (no build step,
    no index: pip installs it from ``folder``)."""
    files = {
        "gate_probe_pkg/__init__.py": "def main():\n    print('gate-probe ran')\n",
        "gate_probe_pkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: gate-probe-pkg\n"
                                                 "Version: 1.0\n",
        "gate_probe_pkg-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\n"
                                              "Root-Is-Purelib: true\nTag: py3-none-any\n",
        "gate_probe_pkg-1.0.dist-info/entry_points.txt": "[console_scripts]\n"
                                                         "gate-probe = gate_probe_pkg:main\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{name},sha256={digest.decode()},{len(text.encode())}")
    record.append("gate_probe_pkg-1.0.dist-info/RECORD,,")
    files["gate_probe_pkg-1.0.dist-info/RECORD"] = "\n".join(record) + "\n"
    path = folder / "gate_probe_pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def _tool_cache(folder: Path) -> tuple[Path, Path, Path]:
    """An interpreter in ``folder/toolcache`` as setup-python leaves one: the prefix, its
    ``site-packages`` (pip in it) and its standard library's folder."""
    import pip

    prefix = folder / "toolcache" / "Python" / VERSION / "x64"
    (prefix / "bin").mkdir(parents=True)
    shutil.copy2(SYSTEM_PYTHON, prefix / "bin" / f"python{VERSION}")
    for name in ("python3", "python"):
        (prefix / "bin" / name).symlink_to(f"python{VERSION}")
    stdlib = Path(subprocess.run([str(SYSTEM_PYTHON), "-I", "-c", "import sysconfig; print("
                                  "sysconfig.get_paths()['stdlib'])"], capture_output=True,
                                 text=True, check=True).stdout.strip())
    lib = prefix / "lib" / f"python{VERSION}"
    lib.mkdir(parents=True)
    for entry in stdlib.iterdir():
        if entry.name not in ("site-packages", "dist-packages", "EXTERNALLY-MANAGED",
                              "sitecustomize.py"):
            (lib / entry.name).symlink_to(entry)
    site = Path(subprocess.run([str(prefix / "bin" / "python"), "-I", "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"], capture_output=True,
                               text=True, check=True).stdout.strip())
    site.mkdir(parents=True, exist_ok=True)
    (site / "pip").symlink_to(Path(pip.__file__).parent)
    return prefix, site, lib


needs = pytest.mark.skipif(
    sealed.can_drop() is not None or not isolation._bwrap_starts()
    or not SYSTEM_PYTHON.exists(),
    reason=str(sealed.can_drop() or f"needs bubblewrap, {SYSTEM_PYTHON} (the tool cache's "
                                     "interpreter is a copy of it) and the unprivileged user"))


def _run(folder: Path, level: str, install: str, plant_in: str) -> tuple[
        subprocess.CompletedProcess[str], dict[str, Path]]:
    prefix, site, lib = _tool_cache(folder)
    wheels = folder / "wheels"
    wheels.mkdir()
    _wheel(wheels)
    (folder / "requirements-test.txt").write_text("gate-probe-pkg\n")
    (folder / "plant.py").write_text(PLANT)
    (folder / "_temp").mkdir()
    paths = {"prefix": prefix, "site": site, "lib": lib, "marker": folder / "planted-ran",
             "report": folder / "plant.json", "probe": folder / "probe.out"}
    plant = (f"python {folder / 'plant.py'} {paths['marker']} {paths['report']} {site} {lib}")
    report = EXAMPLES / "junit" / "free-server.xml"
    command = (f"{plant if plant_in == 'command' else 'true'} && gate-probe > {paths['probe']} "
               f"&& cp {report} {folder / 'junit.xml'}")
    if plant_in == "install":
        install = f"{install} && {plant}"
    for path in (folder, *folder.rglob("*")):
        os.lchown(path, sealed.UID, sealed.GID)
    env = sealed.user_env(sealed.home_in(folder), RUNNER_TOOL_CACHE=str(folder / "toolcache"),
                          RUNNER_TEMP=str(folder / "_temp"), PIP_NO_INDEX="1",
                          PIP_FIND_LINKS=str(wheels), PIP_DISABLE_PIP_VERSION_CHECK="1",
                          PIP_NO_CACHE_DIR="1")
    env["PATH"] = f"{prefix / 'bin'}{os.pathsep}{env['PATH']}"
    gate = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server", "--isolation", level,
            "--junit", str(folder / "junit.xml"), "--out", str(folder / "stamps"),
            "--install", install, "--", "bash", "-c", command]
    done = sealed.run_as_user(gate, folder, env, timeout=300)
    return done, paths


def _planted(paths: dict[str, Path]) -> list[dict[str, str]]:
    return [json.loads(line) for line in paths["report"].read_text().splitlines()]


def _signing_step_runs_planted_code(folder: Path, paths: dict[str, Path]) -> bool:
    """A venv built from the tool cache's interpreter as requirements/installer.py builds the
    gate's (``python -I -m venv --without-pip``, no system site-packages), run as the signing
    step runs it (``-I``), and the interpreter itself: does any planted code run?"""
    paths["marker"].unlink(missing_ok=True)  # the tests' own venv ran its .pth in the run
    venv = folder / "gate-venv"
    subprocess.run([str(paths["prefix"] / "bin" / "python"), "-I", "-m", "venv", "--without-pip",
                    str(venv)], check=True, timeout=120)
    for python in (venv / "bin" / "python", paths["prefix"] / "bin" / "python"):
        subprocess.run([str(python), "-I", "-c", "pass"], check=True, timeout=60)
    return paths["marker"].exists()


@needs
@pytest.mark.parametrize("plant_in", ["command", "install"])
def test_the_shipped_install_works_at_namespace_and_plants_nothing_in_the_interpreter(
        shared_folder: Path, plant_in: str) -> None:
    """At ``namespace`` the shipped install, as pasted, installs the requirements (a console
    script too) and the tests run with them; the attacker, in the install or in the test
    command, can write its own venv but neither the interpreter's ``site-packages`` nor its
    standard library, so nothing it planted runs in the signing step. On the code before, the
    install failed: the interpreter's site-packages was read-only (exit 2, no stamps)."""
    done, paths = _run(shared_folder, "namespace", SHIPPED_INSTALL, plant_in)
    assert done.returncode == 0, done.stdout + done.stderr
    assert paths["probe"].exists(), done.stdout + done.stderr
    assert paths["probe"].read_text() == "gate-probe ran\n"
    assert len(list((shared_folder / "stamps").glob("*.json"))) == 3
    (planted,) = _planted(paths)
    assert planted["base_site_sitecustomize"] == planted["base_site_pth"] == (
        "Read-only file system"), planted
    assert planted["base_stdlib_sitecustomize"] == "Read-only file system", planted
    assert planted["own_site_pth"] == "done"  # the tests' own venv is theirs
    assert planted["prefix"] != str(paths["prefix"])  # the tests ran from their venv
    assert not list(paths["site"].glob("gate_probe_pkg*"))  # nothing installed in the cache
    assert not _signing_step_runs_planted_code(shared_folder, paths)
    assert not list((shared_folder / "_temp").glob("gate-tests-venv-*"))  # removed after


@needs
def test_at_none_the_interpreter_is_the_job_users_to_write(shared_folder: Path) -> None:
    """The control: without the namespace the same install goes into the interpreter, and
    the same attack writes its ``site-packages`` and standard library (the job's user owns
    the tool cache, as on a hosted runner); the one in the standard library runs in any
    venv built from it (below ``namespace`` the set-up step's seal, requirements/seal.sh,
    refuses the changed library instead)."""
    done, paths = _run(shared_folder, "none", SHIPPED_INSTALL, "command")
    assert done.returncode == 0, done.stdout + done.stderr
    (planted,) = _planted(paths)
    assert {planted[k] for k in ("base_site_sitecustomize", "base_site_pth",
                                 "base_stdlib_sitecustomize")} == {"done"}, planted
    assert list(paths["site"].glob("gate_probe_pkg*"))
    assert _signing_step_runs_planted_code(shared_folder, paths)


@pytest.mark.skipif(not SYSTEM_PYTHON.exists() or shutil.which("sha256sum") is None,
                    reason=f"needs {SYSTEM_PYTHON} and coreutils")
def test_the_seal_leaves_the_interpreters_site_packages_out_and_keeps_its_library(
        tmp_path: Path) -> None:
    """Below ``namespace`` a test may install into the interpreter's ``site-packages`` (the
    job's user's), and nothing there runs in the gate's venv (no system site-packages): the
    set-up step's seal (requirements/seal.sh) leaves it out, so such an install does not stop
    the signing step; a ``sitecustomize.py`` in its standard library, which every venv built
    from it runs, does."""
    prefix, site, lib = _tool_cache(tmp_path)
    venv = tmp_path / "gate-venv"
    subprocess.run([str(prefix / "bin" / "python"), "-I", "-m", "venv", "--without-pip",
                    str(venv)], check=True, timeout=120)  # as requirements/installer.py does
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()
    action = tmp_path / "action"
    action.mkdir()
    (action / "action.yml").write_text("name: x\n")
    seal = tmp_path / "seal"
    seal.mkdir()
    script = str(ROOT / "requirements" / "seal.sh")
    subprocess.run(["bash", script, "record", str(seal), str(venv / "bin" / "python"),
                    str(action), str(action), "stamp", "", "", ""], check=True,
                   capture_output=True, timeout=120)  # SEAL PYTHON ACTION ORIGIN SET WS M P

    def verify() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", str(seal / "seal.sh"), "verify", str(seal)],
                              capture_output=True, text=True, timeout=120, check=False)

    (site / "installed_by_a_test.py").write_text("X = 1\n")
    (site / "zzz_gate.pth").write_text("import os\n")
    assert verify().returncode == 0, verify().stderr
    (lib / "sitecustomize.py").write_text("import os\n")
    done = verify()
    assert done.returncode == 2 and "sitecustomize.py" in done.stderr, done.stderr


def _request(tmp_path: Path, seal: isolation.Seal | None, install: str | None) -> Any:
    from gate.testrun.stamping import Request

    return Request(properties=[], server_class="free-server", out=tmp_path / "out",
                   root=tmp_path, run_ids=[], timeout_codes=(), command=["true"],
                   install=install, seal=seal)


def _seal(level: str, read_only: tuple[str, ...] = ("/usr",), **facts: Any) -> isolation.Seal:
    from gate.decide import isolation as levels

    base = {"ptrace_scope": 1, "bwrap": False, "unshare": False, "root": False, "sudo": False}
    by = "bwrap" if facts.get("bwrap") else "unshare" if level != "process" else None
    return isolation.Seal(levels.Level(level, by), 1, levels.Facts(**{**base, **facts}),
                          read_only=read_only,
                          other_user="nobody" if level == "user" else None)


def test_the_tests_venv_only_at_namespace_with_an_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.testrun import running

    # the last case takes this run's venv for the workspace's: its Python must be the one on
    # PATH (a venv not activated leaves another python3 first, e.g. a pyenv shim)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    for request in (_request(tmp_path, _seal("process", ("/",)), "pip install x"),
                    _request(tmp_path, _seal("namespace", bwrap=True), None),
                    _request(tmp_path, None, "pip install x"),
                    # its Python in a folder it may write (a venv of the workspace: this
                    # run's venv taken for one, a writable island)
                    _request(tmp_path, _seal("namespace", (str(tmp_path / "ro"),),
                                             bwrap=True).replace(islands=(sys.prefix,)),
                             "pip install x")):
        assert running.with_tests_venv(request) is request


@pytest.mark.skipif(not isolation._bwrap_starts(), reason="bubblewrap's sandbox does not start")
def test_a_tests_venv_that_cannot_be_made_is_bad_input_naming_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python on PATH whose venv module fails (Debian without python3-venv): exit 2 naming
    it, its last words and the fix; the folder removed, no install run."""
    from gate.errors import GateInputError
    from gate.testrun import running

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"
    fake.write_text("#!/bin/sh\necho 'ensurepip is not available' >&2\nexit 1\n")
    fake.chmod(0o755)
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("RUNNER_TEMP", str(temp))
    with pytest.raises(GateInputError) as caught:
        running.with_tests_venv(_request(tmp_path, _seal("namespace", (str(bin_dir),),
                                                         bwrap=True), "true"))
    assert (caught.value.source, caught.value.field) == (str(fake), "(tests' venv)")
    assert caught.value.message.startswith(f"{fake} -m venv exited 1 (ensurepip is not "
                                           "available): the tests' venv"), caught.value
    assert "apt-get install python3-venv" in caught.value.message
    assert list(temp.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0 or not isolation.observe({}).unshare,
                    reason="the user level's unshare needs root here")
def test_at_the_user_level_the_tests_venv_is_the_other_users(
        shared_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``user``: the other user installs into the venv, so it is theirs; removed after (as
    root: their files are in it)."""
    from gate.testrun import running

    temp = shared_folder / "temp"
    temp.mkdir()
    monkeypatch.setenv("RUNNER_TEMP", str(temp))
    monkeypatch.setenv("PATH", f"{SYSTEM_PYTHON.parent}{os.pathsep}{os.environ['PATH']}")
    request = running.with_tests_venv(_request(shared_folder, _seal("user", unshare=True,
                                                               root=True), "true"))
    assert request.seal is not None and request.seal.tests_venv is not None
    venv = Path(request.seal.tests_venv)
    assert venv.parent.stat().st_uid == sealed.UID and (venv / "bin" / "python").exists()
    wrapped = request.seal.wrap(["sh", "-c", "echo $VIRTUAL_ENV; touch $VIRTUAL_ENV/mine; "
                                 "command -v python"], {"PATH": os.environ["PATH"]})
    done = subprocess.run(wrapped.argv, env=wrapped.env, capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == [str(venv), str(venv / "bin" / "python")], done
    running.without_tests_venv(request)
    assert list(temp.iterdir()) == []


@needs
def test_the_recorder_route_runs_from_the_tests_venv(shared_folder: Path) -> None:
    """The shipped pair at ``namespace``: the install as pasted, then ``python -m pytest``
    with the recorder, both from the tests' venv (pytest and Hypothesis the tool cache's,
    installed by an earlier step: seen through the venv's system site-packages and trusted as
    installed by the recorder's check); the stamps record the level."""
    import importlib
    import shlex

    from tests.property_suite.harness import read_stamps
    from tests.test_hypothesis_card import workspace
    from tests.test_recorder import select

    prefix, site, _ = _tool_cache(shared_folder)
    for name in ("pytest", "_pytest", "pluggy", "hypothesis", "iniconfig", "packaging",
                 "sortedcontainers", "attr", "attrs"):
        with contextlib.suppress(ImportError):  # what this pytest and Hypothesis import
            source = Path(importlib.import_module(name).__file__ or "")
            source = source.parent if source.name == "__init__.py" else source
            (site / source.name).symlink_to(source)
    work = shared_folder / "ws"
    workspace(work, {"draws": 1, "fixed_band": 7})
    wheels = shared_folder / "wheels"
    wheels.mkdir()
    _wheel(wheels)
    (work / "requirements-test.txt").write_text("gate-probe-pkg\n")
    (shared_folder / "_temp").mkdir()
    for path in (shared_folder, *shared_folder.rglob("*")):
        os.lchown(path, sealed.UID, sealed.GID)
    env = sealed.user_env(sealed.home_in(shared_folder),
                          RUNNER_TOOL_CACHE=str(shared_folder / "toolcache"),
                          RUNNER_TEMP=str(shared_folder / "_temp"), PIP_NO_INDEX="1",
                          PIP_FIND_LINKS=str(wheels), PIP_DISABLE_PIP_VERSION_CHECK="1",
                          PIP_NO_CACHE_DIR="1")
    env["PATH"] = f"{prefix / 'bin'}{os.pathsep}{env['PATH']}"
    command = "gate-probe && python -m pytest -q -p no:cacheprovider " + shlex.join(
        [*select("draws", "fixed_band"), "hypo_props.py"])
    gate = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", "gate.yml", "--server-class",
            "free-server", "--out", "out", "--isolation", "namespace", "--install",
            SHIPPED_INSTALL, "--pytest", "--", "bash", "-c", command]
    done = sealed.run_as_user(gate, work, env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "gate-probe ran" in done.stdout
    got = read_stamps(work / "out")
    assert {s["source"] for s in got.values()} == {"pytest-recorder"}
    assert {s["outcome"] for s in got.values()} <= {"pass", "assert_fail"}
    assert {s["isolation"]["level"] for s in got.values()} == {"namespace"}
