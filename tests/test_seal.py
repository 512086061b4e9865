"""Nothing the sealed command writes is run or trusted later (issue 27, break 1).

The set-up step seals what the gate's Python runs from (requirements/seal.sh): the action's
folder, its venv, the interpreter the venv was built from (binary, libpython, standard library,
lib-dynload, an absent ``python3XY.zip``), the bytecode the steps read, and the manifest and the
policy. Every later step checks the seal with bash and coreutils before the gate's Python
starts. Here the set-up and sign steps run as a runner runs them, each ``run:`` script taken
verbatim from action.yml, by bash, on a **private** runner: its own copy of the base interpreter
(the binary copied, the standard library's folder a real folder of links to this machine's
entries, so a planted ``sitecustomize.py`` lands in the copy only), its own venv built by the
set-up step from the offline wheelhouse, and a copy of the action outside the workspace (as a
``uses: owner/repo@sha`` step has it). Each vector is planted between the set-up and the sign
step as a test would plant it, and its code writes a marker when it runs. The venv's own
interpreter runs the planted code under ``-I`` (the old sign step's command, shown for the .pth
and the sitecustomize), and the sign step as action.yml has it refuses (exit 2, one line naming
the file and that a test step changed the action's environment) with no marker written.
"""

from __future__ import annotations

import os
import py_compile
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import test_action_act as base
from tests.test_isolation import _outputs, _script
from tests.wheelhouse import prepare as prepare_wheelhouse

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"
VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"
MARKER = """\
import os
open(os.path.join(os.environ["HOSTILE_MARKERS"], "ran-%d" % os.getpid()), "w").close()
"""

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels


def _private_interpreter(target: Path) -> Path:
    """This machine's base interpreter, copied so that planting in it harms nothing shared:
    the binary copied (the interpreter finds its standard library from its own location), the
    standard library a real folder whose entries link to this machine's (site-packages left
    out: the venv's interpreter does not search it)."""
    base_exe = Path(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    (target / "bin").mkdir(parents=True)
    exe = target / "bin" / base_exe.name
    shutil.copy2(base_exe, exe)
    lib = target / "lib" / f"python{VERSION}"
    lib.mkdir(parents=True)
    for entry in stdlib.iterdir():
        if entry.name not in ("site-packages", "dist-packages", "__pycache__"):
            (lib / entry.name).symlink_to(entry)
    probe = subprocess.run([str(exe), "-I", "-c", "import sys; print(sys.prefix)"],
                           capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == str(target), probe.stdout  # the copy's own library
    return exe


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A private runner: interpreter, action copy, workspace, venv root (built once)."""
    tmp = tmp_path_factory.mktemp("sealed")
    _private_interpreter(tmp / "py")
    action = tmp / "action"
    action.mkdir()
    base._project_copy(action)
    workspace = tmp / "ws"
    (workspace / ".github").mkdir(parents=True)
    shutil.copy2(EXAMPLES / "manifest.yml", workspace / ".github" / "gate.yml")
    (workspace / ".github" / "gate-policy.yml").write_text("max_freeze_days: 7\n", encoding="utf-8")
    (tmp / "runner").mkdir()
    (tmp / "markers").mkdir()
    done = _setup(tmp)
    assert done.returncode == 0, done.stderr
    return tmp


def _env(tmp: Path) -> dict[str, str]:
    wheels = prepare_wheelhouse()
    (tmp / "home").mkdir(exist_ok=True)  # not the folder the command writes: at namespace the
    # home is read-only to it
    return {"PATH": os.environ["PATH"], "HOME": str(tmp / "home"),
            "RUNNER_TEMP": str(tmp / "runner"),
            "GITHUB_ACTION_PATH": str(tmp / "action"), "GITHUB_WORKSPACE": str(tmp / "ws"),
            "AGENT_PATCH_GATE_VENV_ROOT": str(tmp / "venvs"),
            "GATE_PYTHON": str(next((tmp / "py" / "bin").iterdir())), "GATE_MODE": "stamp",
            "GATE_MANIFEST": ".github/gate.yml", "GATE_POLICY": ".github/gate-policy.yml",
            "AGENT_PATCH_GATE_UV_URL": wheels.as_uri(), "PIP_FIND_LINKS": str(wheels),
            "PIP_NO_INDEX": "1", "HOSTILE_MARKERS": str(tmp / "markers")}


def _setup(tmp: Path) -> subprocess.CompletedProcess[str]:
    out = tmp / "setup-out.txt"
    out.write_text("", encoding="utf-8")
    return subprocess.run(["bash", "-c", _script("setup")],
                          env={**_env(tmp), "GITHUB_OUTPUT": str(out)}, cwd=tmp / "ws",
                          capture_output=True, text=True, timeout=600, check=False)


def _sign(tmp: Path) -> subprocess.CompletedProcess[str]:
    """The sign step as action.yml has it (policy without signing: it signs nothing)."""
    outputs = _outputs(tmp / "setup-out.txt")
    env = {**_env(tmp), "GITHUB_OUTPUT": str(tmp / "sign-out.txt"),
           "GATE_VENV_PYTHON": outputs["python"], "GATE_SEAL": outputs.get("seal", ""),
           "GATE_SEAL_SHA256": outputs.get("seal-sha256", ""), "GATE_MODE": "sign",
           "GATE_SERVER_CLASS": "local-pinned", "GATE_ARTIFACT_PREFIX": "gate-stamps",
           "GITHUB_JOB": "stamp", "GITHUB_RUN_ATTEMPT": "1"}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           _script("sign")], env=env, cwd=tmp / "ws",
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture
def sealed(runner: Path) -> Iterator[Path]:
    """The set-up step run again (the venv verified and reused, a fresh seal), and the
    markers folder emptied after."""
    done = _setup(runner)
    assert done.returncode == 0, done.stderr
    yield runner
    for marker in (runner / "markers").iterdir():
        marker.unlink()


def _venv(tmp: Path) -> Path:
    return Path(_outputs(tmp / "setup-out.txt")["python"]).parent.parent


def _markers(tmp: Path) -> list[str]:
    return sorted(p.name for p in (tmp / "markers").iterdir())


def test_a_clean_environment_passes_and_the_sign_step_runs(sealed: Path) -> None:
    done = _sign(sealed)
    assert done.returncode == 0, done.stderr
    assert "the stamps are not signed (policy signing.mode is off)" in done.stdout
    assert done.stderr == ""


def test_the_seal_is_anchored_in_the_set_up_steps_output(sealed: Path) -> None:
    outputs = _outputs(sealed / "setup-out.txt")
    seal = Path(outputs["seal"])
    assert not seal.is_relative_to(sealed / "ws")  # outside the workspace
    roots = (seal / "roots").read_text(encoding="utf-8").splitlines()
    assert f"hash {sealed / 'action'}" in roots
    assert f"list {_venv(sealed)}" in roots
    assert f"list {sealed / 'py' / 'lib' / f'python{VERSION}'}" in roots
    assert any(r.startswith("list ") and r.endswith(f"python{VERSION.replace('.', '')}.zip")
               for r in roots)  # absent, and recorded so
    assert f"hash {sealed / 'ws' / '.github' / 'gate-policy.yml'}" in roots
    assert len(outputs["seal-sha256"]) == 64


def _plant_pth(tmp: Path) -> tuple[Path, Callable[[], None]]:
    site = next((_venv(tmp) / "lib").glob("python3*/site-packages"))
    pth = site / "zzz.pth"  # a .pth line that starts with `import` is run by site.py
    pth.write_text("; ".join(MARKER.splitlines()) + "\n", encoding="utf-8")
    return pth, pth.unlink


def _plant_sitecustomize(tmp: Path) -> tuple[Path, Callable[[], None]]:
    planted = tmp / "py" / "lib" / f"python{VERSION}" / "sitecustomize.py"
    planted.write_text(MARKER, encoding="utf-8")
    return planted, planted.unlink


def _plant_stdlib_zip(tmp: Path) -> tuple[Path, Callable[[], None]]:
    import zipfile
    planted = tmp / "py" / "lib" / f"python{VERSION.replace('.', '')}.zip"
    with zipfile.ZipFile(planted, "w") as archive:
        archive.writestr("sitecustomize.py", MARKER)
    return planted, planted.unlink


def _change(path: Path) -> Callable[[], None]:
    before = path.read_bytes()

    def undo() -> None:
        path.write_bytes(before)
    return undo


def _plant_action_file(tmp: Path) -> tuple[Path, Callable[[], None]]:
    target = tmp / "action" / "gate" / "records" / "signing.py"
    undo = _change(target)
    target.write_bytes(target.read_bytes() + b"\n" + MARKER.encode())
    return target, undo


def _plant_policy(tmp: Path) -> tuple[Path, Callable[[], None]]:
    target = tmp / "ws" / ".github" / "gate-policy.yml"
    undo = _change(target)
    target.write_text("max_freeze_days: 30\n", encoding="utf-8")
    return target, undo


def _plant_manifest(tmp: Path) -> tuple[Path, Callable[[], None]]:
    target = tmp / "ws" / ".github" / "gate.yml"
    undo = _change(target)
    target.write_bytes(target.read_bytes() + b"\n")
    return target, undo


def _plant_sealed_bytecode(tmp: Path) -> tuple[Path, Callable[[], None]]:
    """The sign step's own bytecode (gate/decide/signing.py's, in the venv's bytecode folder
    the steps read) replaced by a test's."""
    source = tmp / "action" / "gate" / "decide" / "signing.py"
    cache = Path(_outputs(tmp / "setup-out.txt")["seal"]) / "pycache"
    target = Path(str(cache.resolve()) + str(source)).parent / \
        f"signing.{sys.implementation.cache_tag}.pyc"
    assert target.is_file(), target  # written when the venv was built
    undo = _change(target)
    hostile = tmp / "hostile_bytecode.py"
    hostile.write_text(MARKER, encoding="utf-8")
    py_compile.compile(str(hostile), cfile=str(target), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    return target, undo


PLANTS = {
    "zzz.pth in the venv's site-packages": _plant_pth,
    "sitecustomize.py in the base interpreter's library folder": _plant_sitecustomize,
    "python3XY.zip (first on sys.path) with a sitecustomize": _plant_stdlib_zip,
    "a changed file in the action's folder": _plant_action_file,
    "a changed policy": _plant_policy,
    "a changed manifest": _plant_manifest,
    "the sign step's bytecode replaced in the sealed bytecode folder": _plant_sealed_bytecode,
}


@pytest.mark.parametrize("vector", list(PLANTS))
def test_a_test_steps_change_stops_the_sign_step_before_python_runs(
        sealed: Path, vector: str) -> None:
    planted, undo = PLANTS[vector](sealed)
    try:
        done = _sign(sealed)
    finally:
        undo()
    assert _markers(sealed) == []  # nothing planted ran
    assert done.returncode == 2, (done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"agent-patch gate: {planted} was "), line
    assert "a test step changed the action's environment" in line
    assert done.stdout == ""


@pytest.mark.parametrize("vector", ["zzz.pth in the venv's site-packages",
                                    "sitecustomize.py in the base interpreter's library folder",
                                    "python3XY.zip (first on sys.path) with a sitecustomize"])
def test_the_planted_code_runs_in_the_venvs_python_under_dash_i(
        sealed: Path, vector: str) -> None:
    """The vector is live: the old sign step's command (`"$GATE_VENV_PYTHON" -I -m gate
    action`, no check before it) runs the planted code with the key in its environment."""
    _, undo = PLANTS[vector](sealed)
    try:
        subprocess.run([str(_venv(sealed) / "bin" / "python"), "-I", "-c", "pass"],
                       env=_env(sealed), check=True, timeout=60)
    finally:
        undo()
    assert len(_markers(sealed)) == 1


def test_an_install_into_the_base_interpreters_site_packages_neither_stops_nor_runs(
        sealed: Path) -> None:
    """Below ``namespace`` a test may install into the interpreter the venv was built from
    (its ``site-packages``: the job's user's on a hosted runner): the seal leaves that folder
    out, so the sign step still runs, and the venv (no system site-packages) never imports
    from it, so a ``sitecustomize.py`` or ``.pth`` planted there does not run in the sign
    step (issue 27: the tests' own install may go there; nothing of it may run beside the
    key)."""
    exe = next((sealed / "py" / "bin").iterdir())
    site = Path(subprocess.run([str(exe), "-I", "-c", "import sysconfig; print(sysconfig."
                                "get_paths()['purelib'])"], capture_output=True, text=True,
                               check=True).stdout.strip())
    assert site.is_relative_to(sealed / "py")
    made = not site.exists()
    site.mkdir(parents=True, exist_ok=True)
    planted = [site / "sitecustomize.py", site / "zzz_gate.pth", site / "installed_pkg.py"]
    planted[0].write_text(MARKER, encoding="utf-8")
    planted[1].write_text("import os; exec(" + repr(MARKER) + ")\n", encoding="utf-8")
    planted[2].write_text("X = 1\n", encoding="utf-8")
    try:
        done = _sign(sealed)
        after_sign = _markers(sealed)
        venv = (_venv(sealed) / "pyvenv.cfg").read_text()
        # the control: the interpreter itself runs them (any step running it would)
        subprocess.run([str(exe), "-I", "-c", "pass"], env=_env(sealed), check=True, timeout=60)
    finally:
        for path in planted:
            path.unlink()
        if made:
            shutil.rmtree(site)
    assert "include-system-site-packages = false" in venv
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert after_sign == [] and len(_markers(sealed)) == 1  # the control's run, not the sign


def test_bytecode_planted_in_the_actions_pycache_is_never_read(sealed: Path) -> None:
    """A ``.pyc`` a test compiles from its own source, stamped with the real source's size and
    modification time, is what a plain ``-I`` interpreter imports; the steps run with
    ``-X pycache_prefix`` (the sealed bytecode folder), so they read no ``__pycache__``."""
    source = sealed / "action" / "gate" / "decide" / "signing.py"  # the sign step imports it
    hostile = sealed / "hostile_src.py"
    original = source.read_bytes()
    hostile.write_text(MARKER + "#" * max(0, len(original) - len(MARKER) - 1) + "\n",
                       encoding="utf-8")
    assert hostile.stat().st_size == len(original)
    st = source.stat()
    os.utime(hostile, ns=(st.st_atime_ns, st.st_mtime_ns))
    cache = source.parent / "__pycache__" / f"signing.{sys.implementation.cache_tag}.pyc"
    py_compile.compile(str(hostile), cfile=str(cache), doraise=True)
    python = str(_venv(sealed) / "bin" / "python")
    try:
        subprocess.run([python, "-I", "-c", "import gate.decide.signing"], env=_env(sealed),
                       check=True, timeout=60)
        assert len(_markers(sealed)) == 1  # the plain interpreter ran the planted bytecode
        (sealed / "markers" / _markers(sealed)[0]).unlink()
        done = _sign(sealed)
        assert done.returncode == 0, done.stderr
        assert _markers(sealed) == []
    finally:
        cache.unlink()


@pytest.mark.parametrize("part", ["seal.sh", "listing", "sums", "roots", "use", "seal.sha256"])
def test_a_changed_seal_is_refused(sealed: Path, part: str) -> None:
    """The seal's own files lie outside the workspace but a test can write them: each is
    checked against the set-up step's output first, before the checked checker runs."""
    seal = Path(_outputs(sealed / "setup-out.txt")["seal"])
    path = seal / part
    undo = _change(path)
    if part == "seal.sh":  # a checker that passes everything
        path.write_text("exit 0\n", encoding="utf-8")
    else:
        path.write_bytes(path.read_bytes() + b"\n")
    try:
        done = _sign(sealed)
    finally:
        undo()
    assert done.returncode == 2, done.stderr
    assert "the set-up step's seal of the action's environment was changed after it" in \
        done.stderr
    assert done.stdout == ""


def _stamp(tmp: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """The stamp step as action.yml has it, on a JUnit report the command writes (``junit.xml``
    beside the workspace), with the inputs in ``extra``."""
    outputs = _outputs(tmp / "setup-out.txt")
    env = {**_env(tmp), "GITHUB_OUTPUT": str(tmp / "stamp-out.txt"),
           "GATE_VENV_PYTHON": outputs["python"], "GATE_SEAL": outputs.get("seal", ""),
           "GATE_SEAL_SHA256": outputs.get("seal-sha256", ""),
           "GATE_SERVER_CLASS": "local-pinned", "GATE_MANIFEST": str(EXAMPLES / "manifest.yml"),
           "GATE_ROOT": str(EXAMPLES), "GATE_JUNIT": str(tmp / "junit.xml"),
           "GATE_ARTIFACT_PREFIX": "gate-stamps", "GITHUB_JOB": "stamp",
           "GITHUB_RUN_ATTEMPT": "1", **extra}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           _script("stamp")], env=env, cwd=tmp / "ws",
                          capture_output=True, text=True, timeout=300, check=False)


def test_a_key_file_given_to_a_stamp_job_stops_it_before_the_tests(sealed: Path) -> None:
    """Issue 27 break 3: the tests run as the runner's user, who can read `signing-key-file`;
    a test read its path from the workflow file and copied the key. The stamp step is given
    the path (never the bytes) and refuses before the command runs."""
    key = sealed / "keys" / "pinned.pem"
    key.parent.mkdir(exist_ok=True)
    key.write_text("-----BEGIN PRIVATE KEY-----\nnot-a-real-key\n-----END PRIVATE KEY-----\n",
                   encoding="utf-8")
    stolen = sealed / "stolen.pem"
    command = f"cp {key} {stolen}; cp {EXAMPLES / 'junit' / 'free-server.xml'} junit.xml"
    done = _stamp(sealed, GATE_SIGNING_KEY_FILE_PATH=str(key), GATE_COMMAND=f"cd .. && {command}")
    assert not stolen.exists()  # the command never ran
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("gate: error: signing-key-file: (input): "), line
    assert "a test can copy the key" in line and "signing-key" in line
    assert "not-a-real-key" not in done.stdout + done.stderr
    # without the key file the same step runs the command (which copies whatever it can read)
    done = _stamp(sealed, GATE_COMMAND=f"cd .. && {command}")
    assert done.returncode == 0, done.stderr
    assert stolen.exists()
    stolen.unlink()
    (sealed / "junit.xml").unlink()
    step = next(s for s in base_steps() if s.get("id") == "stamp")
    assert step["env"]["GATE_SIGNING_KEY_FILE_PATH"] == "${{ inputs.signing-key-file }}"
    assert "GATE_SIGNING_KEY_FILE" not in step["env"]  # the path only: the step reads no key


def base_steps() -> list[dict[str, Any]]:
    import yaml
    loaded = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return list(loaded["runs"]["steps"])


def test_without_gnu_find_and_sha256sum_the_set_up_stops_saying_so(tmp_path: Path) -> None:
    """The seal is made and checked with GNU find and coreutils only; where they are missing
    (a macOS runner without Homebrew's), the set-up step's seal stops, exit 2, with the fix."""
    import shutil as sh
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "find").symlink_to(sh.which("find") or "/usr/bin/find")  # no sha256sum
    seal = tmp_path / "seal"
    seal.mkdir()
    done = subprocess.run(["/bin/bash", str(ROOT / "requirements" / "seal.sh"), "record",
                           str(seal), sys.executable, str(ROOT), str(ROOT), "stamp", "", "",
                           ""],
                          env={"PATH": str(bin_dir)}, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "agent-patch gate: the seal of the action's environment needs GNU find (-printf) and "
        "coreutils' sha256sum; on macOS: brew install findutils coreutils and put their gnubin "
        "folders first on PATH"]
    assert list(seal.iterdir()) == []


@pytest.mark.parametrize(("isolation", "refused"), [
    ("auto", True), ("none", True), ("process", True), ("namespace", True), ("user", False)])
def test_a_key_file_is_refused_below_the_user_level(isolation: str, refused: bool) -> None:
    """Below `user` the tests run as the runner's user, who can read the key file; `auto` may
    end below `user`, so only `user` asked by name lets the step go on (and `gate stamp` then
    refuses an isolation user who can read the file: the next test)."""
    from gate.action.stamp import refuse_key_file
    from gate.errors import GateInputError

    env = {"GATE_SIGNING_KEY_FILE_PATH": "/keys/pinned.pem"}
    if refused:
        with pytest.raises(GateInputError) as caught:
            refuse_key_file(env, isolation)
        assert caught.value.source == "signing-key-file"
        assert "set isolation: user with an isolation-user who cannot read" in \
            caught.value.message
    else:
        refuse_key_file(env, isolation)
    refuse_key_file({}, isolation)  # no key file: nothing to refuse


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="switching to user nobody needs root and util-linux setpriv")
def test_an_isolation_user_who_can_read_the_key_file_is_refused() -> None:
    import tempfile

    from gate.testrun import isolation

    tmp_path = Path(tempfile.mkdtemp(dir="/tmp"))  # pytest's own root is root's only
    os.chmod(tmp_path, 0o755)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    os.chmod(workspace, 0o777)
    key = tmp_path / "pinned.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\n", encoding="utf-8")
    facts = isolation.observe({})
    env = {"GATE_SIGNING_KEY_FILE_PATH": str(key)}
    os.chmod(key, 0o644)
    problem = isolation.user_problem("nobody", facts, workspace, env)
    assert problem == (f"user 'nobody' can read the signing key file {key} (fix: chmod go-r it "
                       "and keep it out of that user's groups, or give the key as a secret "
                       "through signing-key)")
    os.chmod(key, 0o600)
    try:
        assert isolation.user_problem("nobody", facts, workspace, env) is None
    finally:
        shutil.rmtree(tmp_path)


# --- a command planted first on PATH (issue 27's adversarial suite) ------------------------------

#: Where a runner looks up a ``run:`` step's shell: ``shell: bash`` is ``bash --noprofile --norc
#: -eo pipefail {0}`` with ``bash`` looked up on PATH; any other value is ``COMMAND [ARGS] {0}``,
#: COMMAND looked up on PATH unless it is a path (actions/runner docs/adrs/0277).
DEFAULT_BASH = "bash --noprofile --norc -eo pipefail {0}"


def _as_the_runner_starts(step: dict[str, Any], script: Path, path: str) -> list[str]:
    words = (DEFAULT_BASH if step["shell"] == "bash" else str(step["shell"])).split()
    found = words[0] if words[0].startswith("/") else shutil.which(words[0], path=path)
    assert found is not None, words[0]
    return [found, *(str(script) if w == "{0}" else w for w in words[1:])]


#: A tool planted by a test: writes a marker (the signing step's environment holds the key) and
#: runs the real one, so that nothing looks amiss.
PLANTED_TOOL = """#!/bin/sh
: > "$HOSTILE_MARKERS/ran-$(basename "$0")-${GATE_SIGNING_KEY:-nokey}"
exec /usr/bin/$(basename "$0") "$@"
"""


@pytest.mark.parametrize("tool", ["bash", "sha256sum", "find", "sort"])
def test_a_tool_planted_in_a_path_folder_of_the_users_never_runs_in_the_sign_step(
        sealed: Path, tool: str) -> None:
    """A hosted runner's PATH begins with folders of the job's user (``~/.local/bin``,
    ``~/.cargo/bin``, ``~/.dotnet/tools``, before ``/usr/bin``): a test writes ``bash``,
    ``sha256sum`` or ``find`` there, which the runner's ``shell: bash`` lookup or the seal's
    own check would run in the signing step, beside the key, before any check (on the code
    before: each ran). The action's later steps name their shell by path and look up the
    seal's tools in the system's folders first."""
    planted = sealed / "home" / ".local" / "bin"
    planted.mkdir(parents=True, exist_ok=True)
    (planted / tool).write_text(PLANTED_TOOL, encoding="utf-8")
    (planted / tool).chmod(0o755)
    path = f"{planted}{os.pathsep}{os.environ['PATH']}"
    step = next(s for s in base_steps() if s.get("id") == "sign")
    script = sealed / "sign-step.sh"
    script.write_text(_script("sign"), encoding="utf-8")
    outputs = _outputs(sealed / "setup-out.txt")
    env = {**_env(sealed), "PATH": path, "GITHUB_OUTPUT": str(sealed / "sign-out.txt"),
           "GATE_VENV_PYTHON": outputs["python"], "GATE_SEAL": outputs["seal"],
           "GATE_SEAL_SHA256": outputs["seal-sha256"], "GATE_MODE": "sign",
           "GATE_SERVER_CLASS": "local-pinned", "GATE_ARTIFACT_PREFIX": "gate-stamps",
           "GITHUB_JOB": "stamp", "GITHUB_RUN_ATTEMPT": "1", "GATE_SIGNING_KEY": ""}
    try:
        done = subprocess.run(_as_the_runner_starts(step, script, path), env=env,
                              cwd=sealed / "ws", capture_output=True, text=True, timeout=300,
                              check=False)
    finally:
        shutil.rmtree(sealed / "home")
    assert _markers(sealed) == [], tool
    assert done.returncode == 0, done.stderr


def test_every_later_step_of_the_action_names_its_shell_by_path() -> None:
    """The runner looks ``shell: bash`` up on PATH, which a test can write (the test above):
    every ``run:`` step of the action names bash by its path."""
    for step in base_steps():
        if "run" in step:
            assert step["shell"].split()[0] == "/bin/bash", step["name"]


def test_a_policy_that_is_a_link_is_sealed_by_what_it_points_to(runner: Path) -> None:
    """The pull request's policy (or manifest) may be a symbolic link into the workspace (git
    keeps links); the seal listed the link alone, so a test that rewrote the file it points
    to (``signing.mode: off``, another key list) reached the signing step unseen (on the code
    before: the sign step ran on the rewritten policy). The seal follows each link on the way
    and hashes the file at its end."""
    policy = runner / "ws" / ".github" / "gate-policy.yml"
    target = runner / "ws" / "policy-target.yml"
    before = policy.read_bytes()
    target.write_bytes(before)
    policy.unlink()
    policy.symlink_to(target)
    try:
        done = _setup(runner)
        assert done.returncode == 0, done.stderr
        target.write_text("max_freeze_days: 30\n", encoding="utf-8")  # the test's rewrite
        done = _sign(runner)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert f"{target}" in done.stderr and "changed after the set-up step" in done.stderr
    finally:
        policy.unlink()
        policy.write_bytes(before)
        target.unlink()
        assert _setup(runner).returncode == 0
