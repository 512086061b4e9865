"""The seal across the job (issue 27's remainders): a later use of the action, and ``uses: ./``.

1. **A later use of the action in the same job.** The first use's set-up step seals what the
   gate's Python runs from before its tests run; a later use's set-up used to seal again
   whatever it found then, after those tests. Here the set-up steps run as a runner runs them
   (tests/test_seal.py's private runner: each ``run:`` script verbatim from action.yml, by
   bash, and the runner's part played by :class:`Job`: each step gets a fresh ``GITHUB_ENV``
   file and what it wrote there reaches every later step, as GitHub's runner and act do), and
   between the two uses a test plants what the later use would run: a venv for the other set
   (the gate mode's), made to pass the installer's reuse check; a ``.pth`` in the first use's
   venv with its manifest rewritten; a line in the action's installer; a ``sitecustomize.py``
   in the base interpreter. Each planted line writes a marker when it runs. The later use now
   checks the first use's seal (its digest in the job's environment) before any Python runs:
   exit 2 naming the file, no marker; the other set's venv is built anew in a fresh root.
2. **``uses: ./``.** The action's folder is the workspace, which the tests write; the set-up
   step now copies what the gate's Python runs from out of it before anything runs, and every
   later step runs the copy (sealed like any action folder), so a test that edits the
   workspace's ``gate/`` changes nothing the signing step runs, and one that edits the
   workspace's ``action.yml`` (which the runner reads again for a later use) stops it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests import test_action_act as base
from tests import test_seal as sealed
from tests.test_installer import installer
from tests.test_isolation import _outputs, _script

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
MARKER = sealed.MARKER


class Job:
    """One job on a private runner: the steps' environment, and what their ``GITHUB_ENV``
    files set for the steps after them (the runner applies a step's file commands after it,
    whatever its result)."""

    def __init__(self, tmp: Path, **env: str) -> None:
        self.tmp = tmp
        self.env = {**sealed._env(tmp), **env}
        self.steps = 0

    def run(self, step: str, **env: str) -> subprocess.CompletedProcess[str]:
        self.steps += 1
        files = self.tmp / "runner" / "_runner_file_commands"
        files.mkdir(parents=True, exist_ok=True)
        env_file = files / f"set_env_{self.steps}"
        env_file.write_text("", encoding="utf-8")
        self.output = self.tmp / f"out-{self.steps}.txt"
        self.output.write_text("", encoding="utf-8")
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                               _script(step)],
                              env={**self.env, **env, "GITHUB_OUTPUT": str(self.output),
                                   "GITHUB_ENV": str(env_file)},
                              cwd=self.tmp / "ws", capture_output=True, text=True,
                              timeout=900, check=False)
        self.env.update(re.findall(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$",
                                   env_file.read_text(encoding="utf-8"), re.M))
        return done

    def outputs(self) -> dict[str, str]:
        return _outputs(self.output)

    def sign(self, setup: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
        """The sign step after ``setup``'s outputs (policy without signing: signs nothing)."""
        return self.run("sign", GATE_VENV_PYTHON=setup["python"], GATE_SEAL=setup["seal"],
                        GATE_SEAL_SHA256=setup["seal-sha256"], GATE_MODE="sign",
                        GATE_SERVER_CLASS="local-pinned", GATE_ARTIFACT_PREFIX="gate-stamps",
                        GITHUB_JOB="stamp", GITHUB_RUN_ATTEMPT="1")


def _markers(tmp: Path) -> list[str]:
    return sorted(p.name for p in (tmp / "markers").iterdir())


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A private runner (tests/test_seal.py's): interpreter, action copy, workspace; the
    stamp set's venv built once in its root."""
    tmp = tmp_path_factory.mktemp("job")
    sealed._private_interpreter(tmp / "py")
    (tmp / "action").mkdir()
    base._project_copy(tmp / "action")
    workspace = tmp / "ws"
    (workspace / ".github").mkdir(parents=True)
    shutil.copy2(sealed.EXAMPLES / "manifest.yml", workspace / ".github" / "gate.yml")
    (workspace / ".github" / "gate-policy.yml").write_text("max_freeze_days: 7\n",
                                                           encoding="utf-8")
    (tmp / "runner").mkdir()
    (tmp / "markers").mkdir()
    done = Job(tmp).run("setup")
    assert done.returncode == 0, done.stderr
    return tmp


@pytest.fixture
def job(runner: Path) -> Job:
    """A new job on the runner: its own temp folder, no file commands yet; the markers
    folder empty and the action's files as built."""
    for marker in (runner / "markers").iterdir():
        marker.unlink()
    shutil.rmtree(runner / "runner")
    (runner / "runner").mkdir()
    for venv in (runner / "venvs").glob("venv-action-*"):
        shutil.rmtree(venv)  # a venv of the other set: only a test's plant makes one here
    return Job(runner)


def _first_use(job: Job) -> dict[str, str]:
    done = job.run("setup")
    assert done.returncode == 0, done.stderr
    return job.outputs()


def _base_python(tmp: Path) -> Path:
    return next((tmp / "py" / "bin").iterdir())


def _plant_other_set(tmp: Path, first: Mapping[str, str]) -> Path:
    """What a test can do as the job's user: the gate mode's venv (set `action`) made from the
    stamp set's, with a .pth, and its manifest written to match (the installer's reuse check
    reads it from the venv), under the name the installer will look for."""
    version = subprocess.run([str(_base_python(tmp)), "-I", "-c", "import sys; print(sys.version)"],
                             capture_output=True, text=True, check=True).stdout[:-1]
    action = os.path.realpath(tmp / "action")
    lock = (tmp / "action" / "requirements" / "action.lock").read_bytes()
    target = tmp / "venvs" / f"venv-action-{installer.venv_key(lock, version, action)}"
    shutil.copytree(Path(first["python"]).parent.parent, target, symlinks=True)
    site = next(target.glob("lib/python3*/site-packages"))
    (site / "zzz.pth").write_text("; ".join(MARKER.splitlines()) + "\n", encoding="utf-8")
    (target / installer.MANIFEST).unlink()
    installer.seal(target)
    assert installer.verify(target) is None  # the installer would reuse it
    return site / "zzz.pth"


def test_a_later_use_for_the_other_set_never_runs_a_venv_a_test_made(job: Job) -> None:
    """The first use stamps (the stamp set's venv); its test makes the gate mode's venv,
    planted; the later use (gate mode) builds its venv anew in a fresh root instead of reusing
    what it finds."""
    first = _first_use(job)
    planted = _plant_other_set(job.tmp, first)
    done = job.run("setup", GATE_MODE="gate")
    assert _markers(job.tmp) == [], done.stderr  # the planted .pth never ran
    assert done.returncode == 0, done.stderr
    later = job.outputs()
    assert not Path(later["python"]).is_relative_to(planted.parent.parent.parent.parent.parent)
    assert Path(later["python"]).is_relative_to(job.tmp / "runner" / "agent-patch-gate")
    assert re.search(r"/root\.[^/]+/venv-action-", later["python"]), later["python"]
    assert job.sign(later).returncode == 0


def _shim(tmp: Path) -> Path:
    """A folder holding ``python3`` as a version manager installs it (pyenv's and asdf's shims
    are scripts that exec the chosen interpreter): its real path is not the interpreter's."""
    shims = tmp / "shims"
    shims.mkdir(exist_ok=True)
    shim = shims / "python3"
    shim.write_text(f'#!/bin/sh\nexec {_base_python(tmp)} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return shims


@pytest.mark.parametrize("mode", ["stamp", "gate"])
def test_a_later_use_accepts_the_same_shim_and_never_runs_it(job: Job, mode: str) -> None:
    """``python: python3`` on a runner where ``python3`` is a pyenv shim: the first use records
    the shim's real path beside the base interpreter, and a later use naming the same input is
    taken, though the shim's real path is not the base. The shim is a file of the job's user
    that no seal covers, so a test may have rewritten it: the later use only compares its path
    and runs the sealed base (the same set: the first use's venv; the other set: a fresh venv
    built with the base)."""
    shims = _shim(job.tmp)
    job.env.update(PATH=f"{shims}:{job.env['PATH']}", GATE_PYTHON="python3")
    first = _first_use(job)
    assert job.sign(first).returncode == 0
    shim = shims / "python3"
    shim.write_text(f"#!/bin/sh\ntouch \"$HOSTILE_MARKERS/ran-shim\"\n"
                    f"exec {_base_python(job.tmp)} \"$@\"\n", encoding="utf-8")
    done = job.run("setup", GATE_MODE=mode)
    assert _markers(job.tmp) == [], done.stderr  # the rewritten shim never ran
    assert done.returncode == 0, done.stderr
    later = job.outputs()
    if mode == "stamp":
        assert later["python"] == first["python"]
    else:
        assert re.search(r"/root\.[^/]+/venv-action-", later["python"]), later["python"]
    done = job.sign(later)
    assert done.returncode == 0, done.stderr
    assert _markers(job.tmp) == [], done.stderr


def test_a_later_use_refuses_another_shim(job: Job) -> None:
    """A shim elsewhere, exec'ing the same interpreter, is another input: refused as before."""
    shims = _shim(job.tmp)
    job.env.update(PATH=f"{shims}:{job.env['PATH']}", GATE_PYTHON="python3")
    _first_use(job)
    other = job.tmp / "shims2"
    other.mkdir(exist_ok=True)
    shutil.copy2(shims / "python3", other / "python3")
    done = job.run("setup", PATH=f"{other}:{job.env['PATH']}")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(
        f"agent-patch gate: the python input ({other / 'python3'}) is not the interpreter "
        "the first use of the action in this job sealed ("), done.stderr


def _plant_pth_and_manifest(tmp: Path, first: Mapping[str, str]) -> Path:
    venv = Path(first["python"]).parent.parent
    pth = next(venv.glob("lib/python3*/site-packages")) / "zzz.pth"
    pth.write_text("; ".join(MARKER.splitlines()) + "\n", encoding="utf-8")
    (venv / installer.MANIFEST).unlink()
    installer.seal(venv)  # the installer's own check passes
    return pth


def _plant_installer_line(tmp: Path, first: Mapping[str, str]) -> Path:
    target = tmp / "action" / "requirements" / "installer.py"  # restored by the caller
    text = target.read_text(encoding="utf-8")
    head = "from __future__ import annotations\n"
    target.write_text(text.replace(head, head + MARKER, 1), encoding="utf-8")
    return target


def _plant_sitecustomize(tmp: Path, first: Mapping[str, str]) -> Path:
    planted = tmp / "py" / "lib" / f"python{sealed.VERSION}" / "sitecustomize.py"
    planted.write_text(MARKER, encoding="utf-8")
    return planted


PLANTS = {
    "zzz.pth in the first use's venv, its manifest rewritten": _plant_pth_and_manifest,
    "a line in the action's installer": _plant_installer_line,
    "sitecustomize.py in the base interpreter's library folder": _plant_sitecustomize,
}


@pytest.mark.parametrize("vector", list(PLANTS))
def test_a_later_use_refuses_what_the_first_uses_tests_changed(job: Job, vector: str) -> None:
    """The later use runs after the first use's sign step refused (``if: always()``), or its
    test changed what that sign step does not read: its set-up checks the first use's seal
    before any Python starts, exit 2 naming the file."""
    first = _first_use(job)
    venv = Path(first["python"]).parent.parent
    before = {p: p.read_bytes() for p in (venv / installer.MANIFEST,
                                          job.tmp / "action" / "requirements" / "installer.py")}
    planted = PLANTS[vector](job.tmp, first)
    try:
        done = job.run("setup")
    finally:
        if planted not in before:
            planted.unlink()
        for path, data in before.items():
            path.write_bytes(data)
    assert _markers(job.tmp) == [], done.stderr  # nothing planted ran
    assert done.returncode == 2, (done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    named = [planted, venv / installer.MANIFEST]  # the first that differs, by path
    assert any(line.startswith(f"agent-patch gate: {path} was ") for path in named), line
    assert line.endswith(" after the first use of the action in this job sealed it: a test "
                         "step changed the action's environment (the action's folder, its "
                         "venv, the interpreter it was built from, the manifest or the "
                         "policy); refusing to run the gate's Python"), line


def test_an_unchanged_later_use_reuses_the_first_uses_venv(job: Job) -> None:
    first = _first_use(job)
    assert job.env["AGENT_PATCH_GATE_JOB_SEAL"] == first["seal"]  # in the job's environment
    assert job.env["AGENT_PATCH_GATE_JOB_SEAL_SHA256"] == first["seal-sha256"]
    assert job.sign(first).returncode == 0
    done = job.run("setup")
    assert done.returncode == 0, done.stderr
    later = job.outputs()
    assert later["python"] == first["python"]  # no installer ran: the first use's venv
    assert later["seal"] != first["seal"]
    assert job.env["AGENT_PATCH_GATE_JOB_SEAL"] == first["seal"]  # still the first use's
    done = job.sign(later)
    assert done.returncode == 0, done.stderr


def test_a_later_use_of_another_version_of_the_action_is_refused(job: Job) -> None:
    """Its folder (downloaded with the job's other actions) was not sealed before the first
    use's tests ran; its installer, edited by a test, never runs."""
    _first_use(job)
    other = job.tmp / "action-v2"
    if not other.exists():
        shutil.copytree(job.tmp / "action", other, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    target = other / "requirements" / "installer.py"
    head = "from __future__ import annotations\n"
    text = target.read_text(encoding="utf-8")
    if MARKER not in text:
        target.write_text(text.replace(head, head + MARKER, 1), encoding="utf-8")
    done = job.run("setup", GITHUB_ACTION_PATH=str(other))
    assert _markers(job.tmp) == [], done.stderr
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line == (f"agent-patch gate: {other}: another version of the action than the one "
                    f"used first in this job ({os.path.realpath(job.tmp / 'action')}): its "
                    "folder was not sealed before that use's tests ran, which could have "
                    "written it; fix: use one version of the action in a job, or use it in "
                    "separate jobs")


def test_a_later_use_with_another_python_or_policy_is_refused(job: Job) -> None:
    _first_use(job)
    done = job.run("setup", GATE_PYTHON=sys.executable)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(
        f"agent-patch gate: the python input ({sys.executable}) is not the interpreter the "
        "first use of the action in this job sealed ("), done.stderr
    other = job.tmp / "ws" / ".github" / "other-policy.yml"
    other.write_text("max_freeze_days: 7\n", encoding="utf-8")
    try:
        done = job.run("setup", GATE_POLICY=".github/other-policy.yml")
    finally:
        other.unlink()
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"agent-patch gate: {other} was not sealed by the first use of the "
                           "action in this job ("), line
    assert line.endswith("fix: give every use of the action in a job the same python, "
                         "manifest and policy, or use it once per job (stamp and decide in "
                         "separate jobs)"), line


def test_a_later_use_runs_no_tool_a_test_planted_on_path(job: Job) -> None:
    """A folder of the job's user first on PATH (``~/.local/bin`` on a hosted runner), where
    the first use's test put ``sha256sum``, ``sed`` and ``mktemp``: the later use's set-up
    takes its tools from the system's folders (Linux) and the interpreter it looked up must be
    the first use's."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the system's folders first is the Linux rule")
    _first_use(job)
    userbin = job.tmp / "userbin"
    userbin.mkdir(exist_ok=True)
    for tool in ("sha256sum", "sed", "mktemp", "find", "sort"):
        script = userbin / tool
        script.write_text(f"#!/bin/sh\ntouch \"$HOSTILE_MARKERS/ran-{tool}\"\n"
                          f"exec /usr/bin/{tool} \"$@\"\n", encoding="utf-8")
        script.chmod(0o755)
    done = job.run("setup", PATH=f"{userbin}:{job.env['PATH']}")
    assert _markers(job.tmp) == [], done.stderr
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("part", ["seal.sh", "listing", "use"])
def test_a_changed_first_seal_stops_the_later_use(job: Job, part: str) -> None:
    first = _first_use(job)
    path = Path(first["seal"]) / part
    path.write_bytes(b"exit 0\n" if part == "seal.sh" else path.read_bytes() + b"\n")
    done = job.run("setup")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"agent-patch gate: {first['seal']}: the seal the first use of the "
                           "action in this job made was changed after it: a test step changed "
                           "the action's environment; refusing to run the gate's Python\n")


# --- uses: ./ -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def inside(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A private runner whose action is the workspace (``uses: ./``): the project copied into
    the workspace, its manifest and policy there."""
    tmp = tmp_path_factory.mktemp("inside")
    sealed._private_interpreter(tmp / "py")
    workspace = tmp / "ws"
    workspace.mkdir()
    base._project_copy(workspace)
    (workspace / ".github").mkdir(exist_ok=True)
    shutil.copy2(sealed.EXAMPLES / "manifest.yml", workspace / ".github" / "gate.yml")
    (workspace / ".github" / "gate-policy.yml").write_text("max_freeze_days: 7\n",
                                                           encoding="utf-8")
    (tmp / "runner").mkdir()
    (tmp / "markers").mkdir()
    return tmp


def _inside_job(tmp: Path) -> Job:
    for marker in (tmp / "markers").iterdir():
        marker.unlink()
    return Job(tmp, GITHUB_ACTION_PATH=str(tmp / "ws"))


def test_with_uses_dot_the_sign_step_never_runs_what_a_test_wrote_in_the_workspace(
        inside: Path) -> None:
    job = _inside_job(inside)
    done = job.run("setup")
    assert done.returncode == 0, done.stderr
    setup = job.outputs()
    target = inside / "ws" / "gate" / "records" / "signing.py"  # the sign step imports it
    original = target.read_bytes()
    target.write_bytes(original + b"\n" + MARKER.encode())
    try:
        done = job.sign(setup)
    finally:
        target.write_bytes(original)
    assert _markers(inside) == [], done.stderr  # the workspace's gate/ is not what runs
    assert done.returncode == 0, done.stderr
    roots = (Path(setup["seal"]) / "roots").read_text(encoding="utf-8").splitlines()
    copy = os.path.realpath(inside / "runner" / "agent-patch-gate" / "action")
    assert f"hash {copy}" in roots  # the copy is sealed
    assert f"hash {os.path.realpath(inside / 'ws')}/action.yml" in roots
    assert not any(r.split(" ", 1)[1] == os.path.realpath(inside / "ws") for r in roots)


def test_with_uses_dot_a_test_that_edits_the_copy_or_action_yml_stops_the_sign_step(
        inside: Path) -> None:
    for target in (inside / "runner" / "agent-patch-gate" / "action" / "gate" / "records"
                   / "signing.py", inside / "ws" / "action.yml"):
        job = _inside_job(inside)
        done = job.run("setup")
        assert done.returncode == 0, done.stderr
        setup = job.outputs()
        original = target.read_bytes()
        target.write_bytes(original + b"\n# " + MARKER.encode().replace(b"\n", b"\n# "))
        try:
            done = job.sign(setup)
        finally:
            target.write_bytes(original)
        assert _markers(inside) == []
        assert done.returncode == 2, done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith(f"agent-patch gate: {os.path.realpath(target)}"), line


def test_with_uses_dot_a_symbolic_link_in_the_action_is_refused(inside: Path) -> None:
    link = inside / "ws" / "gate" / "linked.py"
    link.symlink_to(inside / "ws" / "gate" / "__init__.py")
    try:
        done = _inside_job(inside).run("setup")
    finally:
        link.unlink()
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"agent-patch gate: {os.path.realpath(inside / 'ws')}/gate/linked.py"
                           ": a symbolic link in the action's folder, which is in the workspace "
                           "(uses: ./): the copy the action runs from holds regular files only;"
                           " replace the link by the file\n")
