"""Issue 27's adversarial suite at the ``namespace`` level: doors the existing attack
(tests/test_isolation_levels.py) does not try, each acting only through the test command, which
runs as an unprivileged user (:mod:`tests.sealed_helpers`) as on a runner.

A same-user service outside the namespace that starts processes on request (the user's systemd
manager, ``systemd-run --user``, listening in ``$XDG_RUNTIME_DIR``, ``/run/user/1001`` on a
hosted runner): a process it starts is no descendant of the gate, in no namespace of the
command's, and sees the job's files writable. Here a stand-in manager listens where systemd's
does (``$XDG_RUNTIME_DIR/systemd/private``) and runs each line it is sent, as ``systemd-run``
would have the manager run it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gate.errors import GateInputError
from gate.testrun import isolation, mounts
from tests import sealed_helpers as sealed
from tests.sealed_helpers import shared_folder

__all__ = ["shared_folder"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"

needs_user = pytest.mark.skipif(sealed.can_drop() is not None, reason=str(sealed.can_drop()))
needs_bwrap = pytest.mark.skipif(
    not isolation._bwrap_starts(),
    reason="bubblewrap is not installed or its sandbox does not start here")

#: The stand-in for the user's service manager, run as the job's user outside any namespace:
#: listens at argv[1], runs each line it is sent in a new session, for 60 s at most.
MANAGER = r'''
import os, socket, subprocess, sys
path = sys.argv[1]
os.makedirs(os.path.dirname(path), exist_ok=True)
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(4)
server.settimeout(60)
open(sys.argv[2], "w").close()
while True:
    try:
        conn, _ = server.accept()
    except OSError:
        break
    line = conn.makefile().readline()
    subprocess.Popen(["sh", "-c", line], start_new_session=True)
    conn.close()
'''

#: The test command's attack: ask the manager to wait for the stamps and forge one beside them.
ATTACK = r'''
import os, socket
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
try:
    s.connect(os.path.join(os.environ["XDG_RUNTIME_DIR"], "systemd", "private"))
    s.sendall((os.environ["ORDER"] + "\n").encode())
    said = "started"
except OSError as exc:
    said = exc.strerror or repr(exc)
with open(os.environ["ATTACK_REPORT"], "w") as f:
    f.write(said)
'''


def _stamp_at_namespace(junit: Path, out: Path, script: Path, *options: str) -> list[str]:
    """``gate stamp`` of the examples as the free-server job at the namespace level, on the
    JUnit route: the sealed command copies the example report to ``junit`` and runs the attack
    ``script`` (``options``: more of gate stamp's, before ``--``)."""
    report = EXAMPLES / "junit" / "free-server.xml"
    return [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server", "--isolation",
            "namespace", "--junit", str(junit), "--out", str(out), *options, "--", "bash", "-c",
            f"cp {report} {junit}; {sealed.PYTHON} {script}"]


@pytest.fixture
def token() -> Iterator[str]:
    word = f"adv-ns-{os.getpid()}-{time.monotonic_ns()}"
    yield word
    for _ in range(3):
        sealed.kill_all(sealed.processes_with(word))


@pytest.fixture
def runtime_dir() -> Iterator[Path]:
    """The job's user's runtime folder where systemd puts it (``/run/user/UID``, 0700)."""
    path = Path(f"/run/user/{sealed.UID}")
    if path.exists():
        pytest.skip(f"{path} exists on this machine: not ours to use")
    path.mkdir(parents=True)
    os.chown(path, sealed.UID, sealed.GID)
    path.chmod(0o700)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@needs_user
@needs_bwrap
def test_the_users_service_manager_starts_nothing_for_the_namespaced_command(
        shared_folder: Path, token: str, runtime_dir: Path) -> None:
    """From inside the namespace the command asks the user's service manager (outside it) to
    start a process that waits for the stamps and writes a forged one beside them: that
    process outlives the command and the namespace, and the stamps folder is writable to it.
    On the code before, the manager was reached (``$XDG_RUNTIME_DIR`` was the job's own) and
    the forged stamp landed in the folder the signing step signs; the namespace hides the
    runtime folder now (an empty read-only folder), so nothing is reached."""
    out = shared_folder / "stamps"
    out.mkdir()
    os.chown(out, sealed.UID, sealed.GID)  # the stamp step makes it before the tests
    ready = shared_folder / "manager-ready"
    (shared_folder / "manager.py").write_text(MANAGER, encoding="utf-8")
    (shared_folder / "attack.py").write_text(ATTACK, encoding="utf-8")
    env = sealed.user_env(sealed.home_in(shared_folder), XDG_RUNTIME_DIR=str(runtime_dir))
    manager = subprocess.Popen(sealed.as_user([sealed.PYTHON, str(shared_folder / "manager.py"),
                                               str(runtime_dir / "systemd" / "private"),
                                               str(ready), token]), env=env)
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists()
        forged = out / "zz-forged.json"
        order = (f"while ! ls {out}/*.json >/dev/null 2>&1; do sleep 0.1; done; "
                 f"echo forged > {forged} # {token}")
        gate = _stamp_at_namespace(shared_folder / "junit.xml", out, shared_folder / "attack.py")
        done = sealed.run_as_user(gate, shared_folder, {
            **env, "ORDER": order, "ATTACK_REPORT": str(shared_folder / "said")})
        assert done.returncode == 0, done.stderr
        said = (shared_folder / "said").read_text(encoding="utf-8")
        deadline = time.monotonic() + (20 if said == "started" else 2)
        while not forged.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert said != "started" and not forged.exists(), (said, forged.exists())
        assert len(list(out.glob("*.json"))) == 3
    finally:
        manager.kill()
        manager.wait()


def test_the_session_bus_is_hidden_and_nothing_inside_a_hidden_folder_twice(
        tmp_path: Path) -> None:
    """The D-Bus session socket ``DBUS_SESSION_BUS_ADDRESS`` names is hidden; a path inside a
    hidden folder is not bound again (the folder's empty mount hides it; binding over a path
    inside a read-only empty folder would fail)."""
    folder = tmp_path / "rt"
    folder.mkdir()
    (folder / "bus").write_text("")
    key = folder / "key.pem"
    key.write_text("k")
    env = {"DBUS_SESSION_BUS_ADDRESS": f"unix:path={folder / 'bus'},guid=1;tcp:host=x",
           "GATE_SIGNING_KEY_FILE_PATH": str(key)}
    assert isolation.hidden_paths(env) == [str(folder / "bus"), str(key)]
    assert isolation.hidden_paths(env, [folder]) == [str(folder)]


#: The test command's attack on the runner's own folder: plant a ``node`` (the one every later
#: JavaScript step runs: "Upload the stamps", with the job's runtime token and, with
#: ``id-token: write``, its OIDC request) and read the runner's credentials.
RUNNER_ATTACK = r'''
import json, os, sys
root = os.environ["ATTACK_RUNNER"]
said = {}
try:
    with open(os.path.join(root, "externals", "node20", "bin", "node"), "a") as f:
        f.write("# planted\n")
    said["node"] = "done"
except OSError as exc:
    said["node"] = exc.strerror
try:
    with open(os.path.join(root, ".credentials_rsaparams"), "rb") as f:
        said["credentials"] = len(f.read())
except OSError as exc:
    said["credentials"] = exc.strerror
for name in ("run.sh", ".path"):  # what the runner runs, and its PATH, when it starts again
    try:
        with open(os.path.join(root, name), "a") as f:
            f.write("# planted\n")
        said[name] = "done"
    except OSError as exc:
        said[name] = exc.strerror
try:
    with open(os.path.join(root, ".env"), "rb") as f:  # a self-hosted runner's settings
        said[".env"] = len(f.read())
except OSError as exc:
    said[".env"] = exc.strerror
try:
    with open(os.path.join(root, "_work", "_temp", "ok"), "w") as f:
        f.write("x")
    said["work"] = "done"
except OSError as exc:
    said["work"] = exc.strerror
with open(os.environ["ATTACK_REPORT"], "w") as f:
    json.dump(said, f)
'''


@needs_user
@needs_bwrap
def test_the_runners_own_folder_is_read_only_and_its_credentials_hidden(
        shared_folder: Path) -> None:
    """The runner's folder (``bin/Runner.Worker``, ``externals/node20/bin/node``,
    ``.credentials_rsaparams``) is the job's user's: from inside the namespace a test planted
    code in the ``node`` the next JavaScript step runs with the job's tokens, and read the
    runner's private key (on the code before: both). The gate finds the folder from its
    ancestor ``Runner.Worker`` and binds its programs read-only and its credentials empty."""
    import json

    runner_root = shared_folder / "runner"
    (runner_root / "bin").mkdir(parents=True)
    (runner_root / "externals" / "node20" / "bin").mkdir(parents=True)
    worker = runner_root / "bin" / "Runner.Worker"
    shutil.copy2("/bin/bash", worker)  # its /proc/PID/exe names the runner's folder
    (runner_root / "externals" / "node20" / "bin" / "node").write_text("#!/bin/sh\n")
    (runner_root / ".credentials_rsaparams").write_text('{"d": "the runner\'s private key"}')
    (runner_root / "run.sh").write_text("#!/bin/bash\n")
    (runner_root / ".path").write_text("/usr/bin:/bin\n")
    (runner_root / ".env").write_text("https_proxy=http://user:secret@proxy:3128\n")
    (runner_root / "_work" / "_temp").mkdir(parents=True)  # its work folder stays writable
    for path in (runner_root, *runner_root.rglob("*")):
        os.lchown(path, sealed.UID, sealed.GID)
    (shared_folder / "attack.py").write_text(RUNNER_ATTACK, encoding="utf-8")
    gate = _stamp_at_namespace(shared_folder / "junit.xml", shared_folder / "stamps",
                               shared_folder / "attack.py")
    # the runner's worker starts the step's shell, which runs the gate (a child, as on a
    # runner the worker is the step process's parent)
    done = sealed.run_as_user([str(worker), "-c", '"$@"; exit $?', "step", *gate],
                              shared_folder, sealed.user_env(
                                  sealed.home_in(shared_folder), ATTACK_RUNNER=str(runner_root),
                                  RUNNER_TEMP=str(runner_root / "_work" / "_temp"),
                                  ATTACK_REPORT=str(shared_folder / "said.json")))
    assert done.returncode == 0, done.stderr
    said = json.loads((shared_folder / "said.json").read_text(encoding="utf-8"))
    assert said["node"] == said["run.sh"] == said[".path"] == "Read-only file system", said
    assert said["credentials"] in (0, "Permission denied"), said
    assert said[".env"] in (0, "Permission denied"), said
    assert said["work"] == "done", said


#: The test command's attack on the job's later steps: a ``git`` in the first folder of PATH,
#: in the job's user's home (``~/.local/bin`` on a hosted runner), where another action's post
#: step (actions/checkout's cleanup runs ``git``, looked up on PATH) would run it with that
#: step's environment: ``INPUT_TOKEN``, ``ACTIONS_RUNTIME_TOKEN`` and, with ``id-token: write``,
#: the OIDC request.
PATH_ATTACK = r'''
import os
folder = os.path.join(os.environ["HOME"], ".local", "bin")
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "git"), "w") as f:
    f.write("#!/bin/sh\nenv > \"$HOME/stolen\"\nexec /usr/bin/git \"$@\"\n")
os.chmod(os.path.join(folder, "git"), 0o755)
'''


@needs_user
@needs_bwrap
def test_a_tool_planted_first_on_the_jobs_path_is_not_found_by_a_later_step(
        shared_folder: Path) -> None:
    home = shared_folder / "home"
    home.mkdir()
    os.chown(home, sealed.UID, sealed.GID)
    (shared_folder / "attack.py").write_text(PATH_ATTACK, encoding="utf-8")
    gate = _stamp_at_namespace(shared_folder / "junit.xml", shared_folder / "stamps",
                               shared_folder / "attack.py")
    job_path = f"{home / '.local' / 'bin'}{os.pathsep}{os.environ.get('PATH', '/usr/bin')}"
    env = {**sealed.user_env(home), "PATH": job_path}
    done = sealed.run_as_user(gate, shared_folder, env)
    assert done.returncode == 0, done.stderr
    # the next step (a post step) looks git up on the job's PATH, as actions/checkout does
    assert shutil.which("git", path=job_path) == "/usr/bin/git"


@needs_user
@needs_bwrap
def test_a_nested_user_namespace_does_not_lift_the_read_only_binds(
        shared_folder: Path) -> None:
    """Inside the namespace a test makes its own user and mount namespace (``unshare -Urm``:
    it is root there, with CAP_SYS_ADMIN over its mounts) and unmounts or remounts a
    read-only bind to write under it: the kernel locks mounts inherited by a less privileged
    namespace (holds)."""
    from gate.decide import isolation as levels

    if shutil.which("unshare") is None:
        pytest.skip("util-linux unshare is not installed")
    guarded = shared_folder / "guarded"
    guarded.mkdir()
    os.chown(guarded, sealed.UID, sealed.GID)
    seal = isolation.Seal(levels.Level("namespace", "bwrap"), 1,
                          levels.Facts(ptrace_scope=1, bwrap=True, unshare=False, root=False,
                                       sudo=False), read_only=(str(guarded),))
    script = (f"unshare -Urm sh -c 'umount {guarded}; mount -o remount,bind,rw {guarded}; "
              f"echo x > {guarded}/planted'")
    argv = seal.wrap(["sh", "-c", script], {"PATH": "/usr/bin:/bin"}).argv
    done = sealed.run_as_user(argv, shared_folder, {"PATH": "/usr/bin:/bin"})
    assert not (guarded / "planted").exists(), done.stderr
    assert "Read-only file system" in done.stderr or "Operation not permitted" in done.stderr


#: The test command's attack on a venv root kept between jobs: the gate job's venv (another
#: set than the stamp step's own) gets a ``.pth`` and a manifest rewritten to match it.
ROOT_ATTACK = r'''
import json, os
venv = os.path.join(os.environ["ATTACK_VENV_ROOT"], "action-venv")
said = {}
for name in ("zzz.pth", ".gate-manifest"):
    try:
        with open(os.path.join(venv, name), "a") as f:
            f.write("import os\n")
        said[name] = "done"
    except OSError as exc:
        said[name] = exc.strerror
with open(os.environ["ATTACK_REPORT"], "w") as f:
    json.dump(said, f)
'''


@needs_user
@needs_bwrap
def test_a_venv_root_kept_between_jobs_is_read_only_inside(shared_folder: Path) -> None:
    """``AGENT_PATCH_GATE_VENV_ROOT`` (a self-hosted runner's root kept between jobs) holds the
    gate job's venv beside the stamp step's: a test planted a ``.pth`` in it and rewrote its
    manifest to match (the set-up of the next gate job on this runner then reuses it and runs
    the ``.pth`` beside the gate's key and token; on the code before, both writes were done:
    only the stamp step's own venv was bound). The whole root is read-only inside now."""
    import json

    root = shared_folder / "venvs"
    (root / "action-venv").mkdir(parents=True)
    (root / "action-venv" / ".gate-manifest").write_text("{}\n")
    for path in (root, *root.rglob("*")):
        os.lchown(path, sealed.UID, sealed.GID)
    (shared_folder / "attack.py").write_text(ROOT_ATTACK, encoding="utf-8")
    gate = _stamp_at_namespace(shared_folder / "junit.xml", shared_folder / "stamps",
                               shared_folder / "attack.py")
    done = sealed.run_as_user(gate, shared_folder, sealed.user_env(
        sealed.home_in(shared_folder), AGENT_PATCH_GATE_VENV_ROOT=str(root),
        ATTACK_VENV_ROOT=str(root),
        ATTACK_REPORT=str(shared_folder / "said.json")))
    assert done.returncode == 0, done.stderr
    said = json.loads((shared_folder / "said.json").read_text(encoding="utf-8"))
    assert said == {"zzz.pth": "Read-only file system",
                    ".gate-manifest": "Read-only file system"}, said


#: A ``bwrap`` the install command plants first on the job's PATH: runs the command it is given
#: with no namespace at all (drops every option before ``--``).
FAKE_BWRAP = """#!/bin/sh
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do shift; done
shift
exec "$@"
"""

#: The test command: where it runs (no_new_privs, whether the gate is in sight).
WHERE = r'''
import json, os
status = open("/proc/self/status").read()
nnp = [l.split()[1] for l in status.splitlines() if l.startswith("NoNewPrivs:")][0]
seen = 0
for name in os.listdir("/proc"):
    if name.isdigit():
        try:
            seen += b"gate\0stamp" in open(f"/proc/{name}/cmdline", "rb").read()
        except OSError:
            pass
with open(os.environ["ATTACK_REPORT"], "w") as f:
    json.dump({"no_new_privs": nnp, "gate_seen": seen}, f)
'''


@needs_user
@needs_bwrap
def test_a_wrapper_the_install_plants_on_path_never_wraps_the_tests(
        shared_folder: Path) -> None:
    """The install command (the pull request's code, sealed like the tests) writes ``bwrap``
    into a folder of the job's user first on PATH (``~/.local/bin``); the gate looked its
    wrappers up on PATH when it wrapped the test command, after the install: the planted one
    ran the tests with no namespace, and their stamps still said ``namespace`` (on the code
    before; on the sudo route ``setpriv`` and ``mount`` were looked up so too, by a root
    shell). The gate finds its wrappers' paths when it chooses the level, before any
    pull-request code runs, and the root shell runs no program by name."""
    import json

    home = shared_folder / "home"
    home.mkdir()
    os.chown(home, sealed.UID, sealed.GID)
    (shared_folder / "fake-bwrap").write_text(FAKE_BWRAP, encoding="utf-8")
    (shared_folder / "where.py").write_text(WHERE, encoding="utf-8")
    # (the job's home is read-only inside now: a folder of the workspace on PATH, which the
    # install can still write, plants it)
    planted = shared_folder / "bin"
    gate = _stamp_at_namespace(
        shared_folder / "junit.xml", shared_folder / "stamps", shared_folder / "where.py",
        "--install", f"mkdir -p {planted} && install -m 755 {shared_folder / 'fake-bwrap'} "
        f"{planted / 'bwrap'}")
    env = {**sealed.user_env(home, ATTACK_REPORT=str(shared_folder / "where.json")),
           "PATH": f"{planted}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
    done = sealed.run_as_user(gate, shared_folder, env)
    assert (planted / "bwrap").exists()  # the install did plant it
    where = json.loads((shared_folder / "where.json").read_text(encoding="utf-8"))
    # (on the code before, the tests ran beside the gate, and the namespace's reaper, run
    # outside any namespace, killed every process of the user's it found: the gate too)
    assert where == {"no_new_privs": "1", "gate_seen": 0}, where
    assert done.returncode == 0, done.stderr


#: The test command's writes to the job's home and its own: what a later step reads or runs
#: (``~/.gitconfig``: ``core.fsmonitor`` runs a program at a later step's ``git status``;
#: ``~/.bashrc``; ``~/.local/bin``), the workspace's ``.git`` (its config and hooks, which the
#: checkout's post step's ``git`` reads and runs), and what the tests must still write.
HOME_ATTACK = r'''
import json, os, shutil, subprocess
real = os.environ["ATTACK_HOME"]
work = os.environ["ATTACK_WORKSPACE"]
said = {"home": os.environ["HOME"]}
def attempt(label, path, text="x\n"):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a") as f:
            f.write(text)
        said[label] = "done"
    except OSError as exc:
        said[label] = exc.strerror
attempt("gitconfig", os.path.join(real, ".gitconfig"), "[core]\n\tfsmonitor = /tmp/x\n")
attempt("bashrc", os.path.join(real, ".bashrc"))
attempt("local_bin", os.path.join(real, ".local", "bin", "git"))
attempt("git_config", os.path.join(work, ".git", "config"), "[core]\n\thooksPath = /tmp\n")
attempt("git_hook", os.path.join(work, ".git", "hooks", "post-checkout"))
attempt("pip_cache", os.path.join(os.environ["HOME"], ".cache", "pip", "http", "x"))
attempt("workspace", os.path.join(work, ".hypothesis", "examples", "x"))
attempt("temp", os.path.join(os.environ["RUNNER_TEMP"], "scratch", "x"))
git = shutil.which("git")
said["git_global"] = subprocess.run([git, "config", "--global", "user.name", "t"]).returncode \
    if git else 0
with open(os.path.join(work, "said.json"), "w") as f:
    json.dump(said, f)
'''


def _home_attack(folder: Path, as_user: list[str], path: str | None = None
                 ) -> tuple[subprocess.CompletedProcess[str], dict[str, object], Path, Path]:
    """``gate stamp --isolation namespace`` run as the job's user (``as_user``, who owns
    ``folder``) with a hosted runner's layout: the workspace and ``RUNNER_TEMP`` under the
    home (``/home/runner/work``), the command running :data:`HOME_ATTACK`."""
    home = folder / "home"
    work = home / "work" / "repo" / "repo"
    temp = home / "work" / "_temp"
    (work / ".git" / "hooks").mkdir(parents=True)
    (work / ".git" / "config").write_text("[core]\n")
    temp.mkdir(parents=True)
    st = folder.stat()
    for made in (home, *home.rglob("*")):
        os.lchown(made, st.st_uid, st.st_gid)
    (folder / "attack.py").write_text(HOME_ATTACK, encoding="utf-8")
    os.chmod(folder / "attack.py", 0o644)
    gate = _stamp_at_namespace(work / "junit.xml", temp / "stamps", folder / "attack.py")
    env = sealed.user_env(home, GITHUB_WORKSPACE=str(work), RUNNER_TEMP=str(temp),
                          ATTACK_HOME=str(home), ATTACK_WORKSPACE=str(work))
    if path is not None:
        env["PATH"] = path
    done = subprocess.run([*as_user, *gate], cwd=work, env=env, capture_output=True,
                          text=True, timeout=180, check=False)
    said = json.loads((work / "said.json").read_text()) if (work / "said.json").exists() else {}
    return done, said, home, temp


def _assert_home_held(done: subprocess.CompletedProcess[str], said: dict[str, object],
                      home: Path, temp: Path) -> None:
    assert done.returncode == 0, done.stderr
    assert said["gitconfig"] == said["bashrc"] == said["local_bin"] == "Read-only file system"
    assert said["git_config"] == said["git_hook"] == "Read-only file system", said
    # the command's own HOME: a private folder under RUNNER_TEMP, writable, gone after
    assert said["home"] != str(home) and str(said["home"]).startswith(str(temp)), said
    assert said["pip_cache"] == said["workspace"] == said["temp"] == "done", said
    assert said["git_global"] == 0, said
    assert not os.path.exists(str(said["home"]))
    assert sorted(p.name for p in home.iterdir()) == ["work"]  # nothing persisted in it
    assert (home / "work" / "repo" / "repo" / ".git" / "config").read_text() == "[core]\n"
    assert len(list((temp / "stamps").glob("*.json"))) == 3


@needs_user
@needs_bwrap
def test_the_jobs_home_and_the_workspaces_git_are_read_only_and_home_is_the_commands_own(
        shared_folder: Path) -> None:
    """Inside the namespace a test writes ``~/.gitconfig`` (a ``core.fsmonitor`` a later
    step's ``git`` runs), ``~/.bashrc``, ``~/.local/bin/git`` and the workspace's
    ``.git/config`` and hooks (actions/checkout's post step runs ``git`` in the workspace):
    each write fails (``EROFS``), while ``HOME`` is a private folder it may write (pip's cache,
    ``git config --global``), removed after, and the workspace and ``RUNNER_TEMP``, both under
    the home as on a hosted runner, stay writable."""
    _assert_home_held(*_home_attack(shared_folder, sealed.as_user([]))[:4])


@needs_user
def test_the_home_held_on_the_sudo_unshare_route_too(shared_folder: Path) -> None:
    """The same attack as a hosted runner's user (passwordless sudo) with no bubblewrap on
    PATH, so the namespace is made through ``sudo unshare`` (as on ubuntu-24.04)."""
    from tests.test_isolation_levels import _hosted_user, _no_bwrap_path

    if shutil.which("sudo") is None or shutil.which("useradd") is None:
        pytest.skip("needs sudo and useradd (root) to make a hosted-runner user")
    if not isolation.observe({}).unshare:
        pytest.skip("unshare's namespaces do not start here")
    uid, gid = _hosted_user()
    os.lchown(shared_folder, uid, gid)
    tools = _no_bwrap_path(shared_folder)
    as_sudoer = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--init-groups", "--"]
    done, said, home, temp = _home_attack(shared_folder, as_sudoer, path=str(tools))
    _assert_home_held(done, said, home, temp)
    stamp = json.loads(next((temp / "stamps").glob("*.json")).read_text())
    assert stamp["isolation"]["by"] == "sudo-unshare", stamp["isolation"]


def test_a_missing_path_folder_the_command_could_make_is_bound_read_only_or_refused(
        tmp_path: Path) -> None:
    """A folder on the job's PATH that does not exist yet (``~/.local/bin`` before anything
    was installed there) could be made and filled by the command: the nearest folder above it
    that the user may write is bound read-only; one that is ``/`` or holds the temporary
    folder (the tests write there) cannot be, and the level is refused naming the entry."""
    import tempfile

    home = tmp_path / "home"
    work = home / "work"
    work.mkdir(parents=True)
    missing = home / ".local" / "bin"
    plan = mounts.mount_plan([], [str(work)], [], [], [f"{missing}:/usr/bin"])
    assert ("ro", str(home)) in plan and ("rw", str(work)) in plan
    assert plan.index(("ro", str(home))) < plan.index(("rw", str(work)))  # deeper after
    # inside the workspace (an island): left to the workspace's rules
    assert mounts.mount_plan([], [str(work)], [], [], [f"{work}/.venv/bin"]) == []
    in_temp = os.path.join(tempfile.gettempdir(), f"gate-no-such-{os.getpid()}", "bin")
    with pytest.raises(GateInputError) as raised:
        mounts.mount_plan([], [str(work)], [], [], [in_temp])
    assert in_temp in str(raised.value) and "fix: create the folder" in str(raised.value)


def test_a_home_that_is_the_workspace_is_refused_at_namespace(tmp_path: Path) -> None:
    """The job's home cannot be both read-only and the folder the tests write: the level is
    refused before anything runs, naming the home and the fix."""
    from gate.decide import isolation as levels

    facts = levels.Facts(ptrace_scope=1, bwrap=True, unshare=False, root=False, sudo=False)
    with pytest.raises(GateInputError) as raised:
        isolation.seal_for("namespace", source="gate stamp", field_name="--isolation",
                           env={"HOME": str(tmp_path), "GITHUB_WORKSPACE": str(tmp_path)},
                           facts=facts)
    assert f"the job's home {tmp_path} is the workspace" in str(raised.value)
    seal = isolation.seal_for("process", source="gate stamp", field_name="--isolation",
                              env={"HOME": str(tmp_path), "GITHUB_WORKSPACE": str(tmp_path)},
                              facts=facts)
    assert seal.homes == ()


def test_a_python_in_the_jobs_home_gets_the_tests_venv(tmp_path: Path) -> None:
    """A Python first on PATH in the job's home (pyenv's ``~/.pyenv``) is read-only inside
    like the tool cache's, so the install goes into a venv of the tests
    (:func:`gate.testrun.running.with_tests_venv` asks :meth:`Seal.reads_only`); one in the
    workspace (a writable island inside the home) is the workspace's."""
    from gate.decide import isolation as levels

    home = tmp_path / "home"
    (home / ".pyenv" / "bin").mkdir(parents=True)
    (home / "work" / ".venv" / "bin").mkdir(parents=True)
    facts = levels.Facts(ptrace_scope=1, bwrap=True, unshare=False, root=False, sudo=False)
    seal = isolation.Seal(levels.Level("namespace", "bwrap"), 1, facts,
                          homes=(str(home),), islands=(str(home / "work"),))
    assert seal.reads_only(home / ".pyenv" / "bin")
    assert not seal.reads_only(home / "work" / ".venv" / "bin")
    assert not isolation.Seal(levels.Level("process", None), 1, facts,
                              homes=(str(home),)).reads_only(home / ".pyenv" / "bin")


def test_a_worktrees_git_folders_are_all_read_only(tmp_path: Path) -> None:
    """A workspace whose ``.git`` is a file (``git worktree add``, a submodule): the folder its
    ``gitdir:`` names and that folder's ``commondir`` (the main repository's ``.git``, whose
    config and hooks the worktree's ``git`` uses) are read-only with it."""
    from gate.decide import isolation as levels

    main = tmp_path / "main"
    gitdir = main / ".git" / "worktrees" / "ws"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    work = tmp_path / "home" / "ws"
    work.mkdir(parents=True)
    (work / ".git").write_text(f"gitdir: {gitdir}\n")
    assert [os.path.realpath(p) for p in mounts.git_folders([str(work)])] == [
        str(work / ".git"), str(gitdir), str(main / ".git")]
    facts = levels.Facts(ptrace_scope=1, bwrap=True, unshare=False, root=False, sudo=False)
    seal = isolation.seal_for("namespace", source="gate stamp", field_name="--isolation",
                              env={"HOME": str(tmp_path / "home"), "GITHUB_WORKSPACE": str(work)},
                              facts=facts)
    assert {str(work / ".git"), str(gitdir), str(main / ".git")} <= set(seal.read_only)
