"""Isolation levels (issue 27): which level the facts make true (gate/decide/isolation.py), what
the machine shows (gate/testrun/isolation.py), and the ``namespace`` level attacked from inside
the sealed command.

The attacks run as issue 27 ran them: the gate and its command as an unprivileged user
(:mod:`tests.sealed_helpers`), the attacking code only in the command. The job's files the
attacker goes for (the action's folder, the gate's venv, the runner's file commands, the key
file, a container socket) are the unprivileged user's own, as on a hosted runner, so only the
seal stands between the attacker and them: on the code before the seal every attack succeeded.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gate.decide import isolation as levels
from gate.errors import GateInputError
from gate.testrun import isolation
from tests import sealed_helpers as sealed
from tests.sealed_helpers import shared_folder

__all__ = ["shared_folder"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"

BARE = levels.Facts(ptrace_scope=1, bwrap=False, unshare=False, root=False, sudo=False)


def facts(**changed: Any) -> levels.Facts:
    return levels.Facts(**{**{n: getattr(BARE, n) for n in BARE.__slots__}, **changed})


# --- the decision, from the facts ---------------------------------------------------------------


@pytest.mark.parametrize(("given", "level", "by"), [
    (facts(), "process", None),
    (facts(ptrace_scope=0), "none", None),
    (facts(ptrace_scope=None), "none", None),  # no Yama: the kernel's same-user rule, as 0
    (facts(sudo=True), "none", None),
    (facts(sockets=("/var/run/docker.sock",)), "none", None),  # a reachable socket caps
    (facts(bwrap=True), "namespace", "bwrap"),
    # the namespace hides the sockets and no_new_privs stops sudo; no process outside is seen
    (facts(bwrap=True, ptrace_scope=0, sudo=True, sockets=("/run/docker.sock",)),
     "namespace", "bwrap"),
    (facts(unshare=True, root=True), "namespace", "unshare"),
    (facts(unshare=True, sudo=True), "namespace", "sudo-unshare"),
    (facts(unshare=True), "process", None),  # unshare needs root or sudo
    (facts(unshare=True, sudo=True, other_user="tester"), "user", "sudo-unshare"),
    (facts(unshare=True, sudo=True, other_user="tester", other_user_problem="has sudo"),
     "namespace", "sudo-unshare"),
])
def test_auto_takes_the_highest_level_the_facts_make_true(given: levels.Facts, level: str,
                                                          by: str | None) -> None:
    assert levels.choose("auto", given) == levels.Level(level, by)


@pytest.mark.parametrize(("asked", "given", "words"), [
    ("process", facts(ptrace_scope=0), "kernel.yama.ptrace_scope is 0"),
    ("process", facts(ptrace_scope=None), "the kernel has no Yama"),
    ("process", facts(sockets=("/run/docker.sock",)), "/run/docker.sock is reachable"),
    ("process", facts(sudo=True), "passwordless sudo"),
    ("namespace", facts(), "apt-get install bubblewrap"),
    ("namespace", facts(unshare=True, userns_restricted=True),
     "kernel.apparmor_restrict_unprivileged_userns is 1"),
    ("user", facts(bwrap=True), "--isolation-user NAME"),
    ("user", facts(unshare=True, root=True, other_user="t",
                   other_user_problem="t has sudo (fix: x)"),
     "t has sudo"),
])
def test_a_level_asked_for_that_cannot_be_had_is_refused_with_why_and_the_fix(
        asked: str, given: levels.Facts, words: str) -> None:
    with pytest.raises(levels.Unavailable) as caught:
        levels.choose(asked, given)
    assert str(caught.value).startswith(f"isolation {asked} cannot be had: ")
    assert words in caught.value.reason and "fix: " in caught.value.reason


def test_none_can_always_be_had_and_levels_are_ordered() -> None:
    assert levels.choose("none", facts(ptrace_scope=0, sudo=True)).level == "none"
    assert levels.LEVELS == ("none", "process", "namespace", "user")
    assert [levels.below(None, r) for r in levels.LEVELS] == [False, True, True, True]
    assert not levels.below("user", "namespace") and levels.below("process", "namespace")
    assert set(levels.PROMISES) == set(levels.LEVELS)


def test_the_cli_refuses_an_unknown_or_unavailable_level_before_anything_runs(
        tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    base = [sys.executable, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server", "--junit",
            str(EXAMPLES / "junit" / "free-server.xml"), "--out", str(tmp_path / "out")]
    command = ["--", "touch", str(marker)]
    for extra, said in (
            (["--isolation", "namespac"], "gate stamp: --isolation: must be one of auto, none, "
                                          "process, namespace, user, not 'namespac'"),
            (["--isolation", "user"], "gate stamp: --isolation: isolation user cannot be had: "
                                      "no other user is named (fix: --isolation-user NAME"),
            (["--isolation", "namespace", "--isolation-user", "nobody"],
             "an isolation user runs only the user level, not namespace")):
        done = subprocess.run([*base, *extra, *command], capture_output=True, text=True,
                              timeout=60, check=False)
        assert done.returncode == 2 and said in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1
    assert not marker.exists() and not (tmp_path / "out").exists()
    done = subprocess.run([*base[:-2], "--exit-code", "1", "--isolation", "none",
                           "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--isolation: only with -- COMMAND" in done.stderr


# --- what the machine shows ---------------------------------------------------------------------


@pytest.fixture
def fake_socket(tmp_path: Path) -> Iterator[Path]:
    """A listening unix socket at a path (a container daemon's, as far as anyone can tell)."""
    path = Path("/tmp") / f"gate-docker-{os.getpid()}-{time.monotonic_ns()}.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(8)
    os.chmod(path, 0o666)
    try:
        yield path
    finally:
        server.close()
        with contextlib.suppress(OSError):
            path.unlink()


def test_a_socket_docker_host_names_is_a_candidate_and_reachable(fake_socket: Path) -> None:
    env = {"DOCKER_HOST": f"unix://{fake_socket}", "XDG_RUNTIME_DIR": "/run/user/1001"}
    candidates = isolation.socket_candidates(env)
    assert str(fake_socket) in candidates and "/var/run/docker.sock" not in candidates[7:]
    assert "/run/user/1001/docker.sock" in candidates
    assert str(fake_socket) in isolation.reachable_sockets(env)
    # by the modes, for another user: a group socket reaches its group's members only
    os.chmod(fake_socket, 0o660)
    os.chown(fake_socket, 0, 4321)
    assert isolation.reachable_sockets(env, 65534, [65534]) == ()
    assert isolation.reachable_sockets(env, 65534, [4321]) == (str(fake_socket),)


def test_observe_reads_yama_and_the_tools(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    yama = tmp_path / "ptrace_scope"
    yama.write_text("0\n")
    monkeypatch.setattr(isolation, "YAMA", yama)
    assert isolation.observe({}).ptrace_scope == 0
    yama.write_text("2\n")
    assert isolation.observe({}).ptrace_scope == 2
    monkeypatch.setattr(isolation, "YAMA", tmp_path / "absent")
    seen = isolation.observe({})
    assert seen.ptrace_scope is None
    assert seen.root == (os.geteuid() == 0)
    assert seen.bwrap == (shutil.which("bwrap") is not None and isolation._bwrap_starts())


def test_what_is_read_only_and_what_is_hidden(tmp_path: Path, fake_socket: Path) -> None:
    temp = tmp_path / "_temp"
    (temp / "agent-patch-gate").mkdir(parents=True)
    (temp / "_runner_file_commands").mkdir()
    (tmp_path / "_actions").mkdir()
    env_file = temp / "_runner_file_commands" / "set_env_1"
    env_file.write_text("")
    key = tmp_path / "key.pem"
    key.write_text("k")
    env = {"RUNNER_TEMP": str(temp), "GITHUB_ENV": str(env_file), "DOCKER_HOST":
           f"unix://{fake_socket}", "GATE_SIGNING_KEY_FILE": str(key),
           "RUNNER_TOOL_CACHE": str(tmp_path / "absent")}
    read_only = isolation.protected_paths(env)
    assert {str(temp / "agent-patch-gate"), str(temp / "_runner_file_commands"),
            str(tmp_path / "_actions"), str(env_file), sys.prefix,
            str(ROOT / "gate")} <= set(read_only)
    assert str(tmp_path / "absent") not in read_only
    assert isolation.hidden_paths(env) == [str(fake_socket), str(key)]
    env["GATE_SIGNING_KEY_FILE_PATH"] = str(key)  # the stamp step's copy of the path
    del env["GATE_SIGNING_KEY_FILE"]
    assert isolation.hidden_paths(env) == [str(fake_socket), str(key)]


def test_an_action_in_the_workspace_leaves_the_workspace_writable(tmp_path: Path) -> None:
    """``uses: ./``: the action's folder is the workspace (or inside it), and the venv imports
    the gate's package from it. Bound read-only, they made the checkout (this repository's
    example tests live in gate/examples) read-only to the test command: no JUnit report, no
    file the command writes; the seal reads those files as the pull request's own, and so
    does this."""
    workspace = tmp_path / "work"
    (workspace / "sub").mkdir(parents=True)
    elsewhere = tmp_path / "_actions" / "owner" / "gate"
    elsewhere.mkdir(parents=True)
    for action, bound in ((workspace, False), (workspace / "sub", False), (elsewhere, True)):
        env = {"GITHUB_WORKSPACE": str(workspace), "GITHUB_ACTION_PATH": str(action)}
        read_only = isolation.protected_paths(env)
        assert (str(action) in read_only) is bound, (action, read_only)
        assert str(workspace) not in read_only
    # no workspace named: the action's folder is bound, as before
    assert str(workspace) in isolation.protected_paths({"GITHUB_ACTION_PATH": str(workspace)})
    # the gate's package (here this checkout's gate/, which holds the example tests) likewise
    package = str(ROOT / "gate")
    assert package in isolation.protected_paths({"GITHUB_WORKSPACE": str(workspace)})
    for inside in (ROOT, ROOT / "gate"):
        assert package not in isolation.protected_paths({"GITHUB_WORKSPACE": str(inside)})


# --- the namespace level, attacked from inside ----------------------------------------------------

#: The attack, run by the sealed command: it writes what it could do to ATTACK_REPORT.
ATTACK = r'''
import ctypes, json, os, socket, sys, time
report = {}
token = os.environ["ATTACK_TOKEN"].encode()
me = os.getpid()
outside = []
for name in os.listdir("/proc"):
    if not name.isdigit() or int(name) == me:
        continue
    try:
        line = open(f"/proc/{name}/cmdline", "rb").read()
    except OSError:
        continue
    if token in line or b"gate\0stamp" in line:
        outside.append(int(name))
report["outside_seen"] = len(outside)
killable = readable = traced = 0
libc = ctypes.CDLL(None, use_errno=True)
for pid in outside:
    try:
        os.kill(pid, 0)
        killable += 1
    except OSError:
        pass
    try:
        readable += b"STEP_SECRET=" in open(f"/proc/{pid}/environ", "rb").read()
    except OSError:
        pass
    child = os.fork()
    if child == 0:  # PTRACE_SEIZE (no stop); the tracer's exit detaches
        os._exit(0 if libc.ptrace(0x4206, pid, None, None) == 0 else 1)
    traced += os.waitpid(child, 0)[1] == 0
report.update(killable=killable, environ_read=readable, traced=traced)
def attempt(label, action):
    try:
        action()
        report[label] = "done"
    except OSError as exc:
        report[label] = exc.strerror
def append(path, text):
    with open(path, "a") as f:
        f.write(text)
site = os.environ["ATTACK_SITE"]
attempt("pth", lambda: append(os.path.join(site, "zzz.pth"), "import os\n"))
attempt("action", lambda: append(os.environ["ATTACK_ACTION"] + "/action.yml", "# x\n"))
attempt("github_env", lambda: append(os.environ["ATTACK_GITHUB_ENV"], "BASH_ENV=/tmp/x\n"))
attempt("listed", lambda: append(os.path.join(os.environ["ATTACK_FILE_COMMANDS"], "new"), "x"))
def read_key():
    report["key_bytes"] = len(open(os.environ["ATTACK_KEY"], "rb").read())
attempt("key", read_key)
def connect():
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(2)
    s.connect(os.environ["DOCKER_HOST"].removeprefix("unix://"))
attempt("socket", connect)
status = open("/proc/self/status").read()
report["no_new_privs"] = [l.split()[1] for l in status.splitlines()
                          if l.startswith("NoNewPrivs:")][0]
sudo = os.spawnlp(os.P_WAIT, "sudo", "sudo", "-n", "true") if any(
    os.path.exists(os.path.join(d, "sudo")) for d in os.environ["PATH"].split(":")) else None
report["sudo"] = sudo
with open(os.environ["ATTACK_REPORT"], "w") as f:
    json.dump(report, f)
'''


@pytest.fixture
def token() -> Iterator[str]:
    word = f"seal-attack-{os.getpid()}-{time.monotonic_ns()}"
    yield word
    for _ in range(3):
        sealed.kill_all(sealed.processes_with(word))


def _job_files(folder: Path, owner: tuple[int, int]) -> dict[str, str]:
    """The job's own files the attack goes for, owned by the unprivileged (job's) user as on a
    runner, and the environment that names them to the gate (``ATTACK_*`` to the attacker)."""
    temp = folder / "_temp"
    site = temp / "agent-patch-gate" / "venv" / "lib" / "python3" / "site-packages"
    commands = temp / "_runner_file_commands"
    action = folder / "_actions" / "gate" / "v1"
    for made in (site, commands, action):
        made.mkdir(parents=True)
    (action / "action.yml").write_text("name: x\n")
    github_env = commands / "set_env_1"
    github_env.write_text("")
    key = folder / "key.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\n")
    for path in (folder, *folder.rglob("*")):
        os.lchown(path, *owner)
    return {"RUNNER_TEMP": str(temp), "GITHUB_ACTION_PATH": str(action),
            "GITHUB_ENV": str(github_env), "GATE_SIGNING_KEY_FILE_PATH": str(key),
            "ATTACK_SITE": str(site), "ATTACK_ACTION": str(action),
            "ATTACK_GITHUB_ENV": str(github_env), "ATTACK_FILE_COMMANDS": str(commands),
            "ATTACK_KEY": str(key), "ATTACK_REPORT": str(folder / "report.json"),
            "STEP_SECRET": "the step's shell holds this"}


def attack(folder: Path, token: str, isolation_level: str, socket_path: Path,
           env: dict[str, str] | None = None, as_user: list[str] | None = None,
           owner: tuple[int, int] = (sealed.UID, sealed.GID),
           ) -> tuple[subprocess.CompletedProcess[str], dict[str, Any], Path]:
    """``gate stamp --isolation LEVEL`` as the job's (unprivileged) user under a step's shell
    holding a secret; the command writes the free-server report and runs :data:`ATTACK`."""
    (folder / "attack.py").write_text(ATTACK)
    environment = {**sealed.user_env(sealed.home_in(folder)), **_job_files(folder, owner),
                   "ATTACK_TOKEN": token,
                   "DOCKER_HOST": f"unix://{socket_path}", **(env or {})}
    out = folder / "stamps"
    report = EXAMPLES / "junit" / "free-server.xml"
    gate = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest",
            str(EXAMPLES / "manifest.yml"), "--root", str(EXAMPLES), "--server-class",
            "free-server", "--isolation", isolation_level, "--junit",
            str(folder / "junit.xml"), "--out", str(out), "--", "bash", "-c",
            f"cp {report} {folder / 'junit.xml'}; {sealed.PYTHON} {folder / 'attack.py'}"]
    # the step's shell: stays the gate's parent (a command after it), holds a secret
    shell = ["bash", "-c", '"$@"; status=$?; : ' + token + '; exit $status', "step", *gate]
    done = subprocess.run([*as_user, *shell] if as_user else sealed.as_user(shell), cwd=folder,
                          env=environment, capture_output=True, text=True, timeout=180,
                          check=False)
    got = json.loads((folder / "report.json").read_text()) if (
        folder / "report.json").exists() else {}
    return done, got, out


needs_user = pytest.mark.skipif(sealed.can_drop() is not None, reason=str(sealed.can_drop()))
needs_bwrap = pytest.mark.skipif(
    not isolation._bwrap_starts(),
    reason="bubblewrap is not installed (.ci/run installs it: apt-get install bubblewrap) or "
           "its sandbox does not start (unprivileged user namespaces restricted: "
           "kernel.apparmor_restrict_unprivileged_userns)")


@needs_user
@needs_bwrap
def test_from_inside_the_namespace_nothing_of_the_job_is_reached(
        shared_folder: Path, token: str, fake_socket: Path) -> None:
    """Issue 27's doors from inside the sealed command, as the job's own user: the gate and the
    step's shell are not visible (no kill, no ptrace, no environ), the venv's site-packages
    (break 1's ``.pth``), the action's folder and the runner's file commands are read-only,
    the key file is empty, the container socket refuses, ``no_new_privs`` is set. On the code
    before every one of them was done."""
    done, got, out = attack(shared_folder, token, "namespace", fake_socket)
    assert done.returncode == 0, done.stderr
    assert got["outside_seen"] == 0, got  # the gate and the step's shell are not there
    assert (got["killable"], got["environ_read"], got["traced"]) == (0, 0, 0)
    assert got["pth"] == got["action"] == got["github_env"] == got["listed"] == (
        "Read-only file system"), got
    # /dev/null bound over it (on a user namespace's nodev mount it cannot even be opened)
    assert got.get("key_bytes", 0) == 0 and got["key"] in ("done", "Permission denied"), got
    assert got["socket"] == "Connection refused"
    assert got["no_new_privs"] == "1"
    stamps = [json.loads(p.read_text()) for p in out.glob("*.json")]
    assert len(stamps) == 3
    assert {json.dumps(s["isolation"], sort_keys=True) for s in stamps} == {
        json.dumps({"by": "bwrap", "level": "namespace",
                    "ptrace_scope": isolation.observe({}).ptrace_scope}, sort_keys=True)}


@needs_user
def test_at_none_the_same_attack_reaches_everything(shared_folder: Path, token: str,
                                                    fake_socket: Path) -> None:
    """The control: the very attack at ``none`` (the code before the seal) reaches every
    door the namespace closes (the gate refuses the changed file commands afterwards: the
    process level's check, after the fact)."""
    done, got, _ = attack(shared_folder, token, "none", fake_socket)
    assert got["outside_seen"] >= 2 and got["killable"] >= 2, got
    assert got["environ_read"] >= 1  # the step's shell (the gate hides its own environ)
    assert got["pth"] == got["action"] == got["github_env"] == got["listed"] == "done"
    assert got["key_bytes"] > 0 and got["socket"] == "done" and got["no_new_privs"] == "0"
    assert done.returncode == 2 and "set_env_1" in done.stderr, done.stderr


#: A double-forked setsid daemon; the command exits only once the daemon runs (a pipe), so a
#: reaper that looks when the command has ended finds it (no race with the second fork).
DAEMON = r'''
import os, sys, time
r, w = os.pipe()
if os.fork():
    os.close(w)
    os.read(r, 1)
    os._exit(0)
os.setsid()
if os.fork():
    os._exit(0)
os.write(w, b"x")
time.sleep(1.0)
open(sys.argv[1], "w").close()
'''


@needs_user
@needs_bwrap
def test_a_daemon_started_inside_dies_with_the_namespace(shared_folder: Path, token: str) -> None:
    """The namespace ends with its command, whoever the gate is: the wrapped command's
    ``setsid`` double-forked daemon is named and killed by the namespace's reaper (the kernel
    kills what it misses), with no reaper of the gate's (a plain subprocess); the same daemon
    unwrapped outlives its command."""
    (shared_folder / "daemon.py").write_text(DAEMON)
    seal = isolation.Seal(levels.Level("namespace", "bwrap"), 1, facts(bwrap=True))
    for wrapped, survives in ((True, False), (False, True)):
        marker = shared_folder / f"alive-{wrapped}"
        argv = [sealed.PYTHON, str(shared_folder / "daemon.py"), str(marker), token]
        if wrapped:
            argv = seal.wrap(argv, {}).argv
        done = subprocess.run(sealed.as_user(argv), env=sealed.user_env(shared_folder),
                              capture_output=True, text=True, timeout=60, check=True)
        deadline = time.monotonic() + (30 if survives else 4)
        while not marker.exists() and time.monotonic() < deadline:  # load-proof: a live
            time.sleep(0.1)  # daemon writes within 30 s; a killed one never, 3 s past its 1 s
        assert marker.exists() == survives, wrapped
        if wrapped:  # killed before the namespace ended, and named
            assert "agent-patch gate: killed pid" in done.stderr, done.stderr
            assert (f"in the command's namespace, left running by the command: {sealed.PYTHON}"
                    in done.stderr), done.stderr


#: A fork loop (issue 27's fork race): a chain in which each process logs its pid, forks the
#: next every 2 ms and sleeps; the command exits once the chain runs (a pipe), so the
#: namespace's reaper looks while it is still forking.
FORK_CHAIN = r"""
import os, sys, time
log = sys.argv[1]
r, w = os.pipe()
if os.fork():
    os.close(w)
    os.read(r, 1)
    os._exit(0)
os.setsid()
n = 0
while True:
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(fd, b"%d\n" % os.getpid())
    os.close(fd)
    n += 1
    if n == 20:
        os.write(w, b"x")
    if n > 3000:
        time.sleep(600)
    time.sleep(0.002)
    if os.fork():
        time.sleep(600)
        os._exit(0)
"""


@needs_user
@pytest.mark.parametrize("by", ["bwrap", "unshare"])
def test_a_fork_loop_inside_the_namespace_is_named_whole(shared_folder: Path, token: str,
                                                          by: str) -> None:
    """A process the command left forking when the namespace's reaper looks: every process
    that ever logged its pid is named (a pass that stops each one it finds repeats until it
    finds none new), and the log says how many were killed. On the code before, one pass
    over ``/proc`` named the first twenty and missed the forty-odd the chain forked while it
    read their names: the kernel killed those unnamed when the namespace ended. The attacking
    chain runs as ``nobody`` (bubblewrap as that user; ``unshare`` as root, dropping to it)."""
    if by == "bwrap" and not isolation._bwrap_starts():
        pytest.skip("bubblewrap's sandbox does not start here")
    if by == "unshare" and (os.geteuid() != 0 or not isolation.observe({}).unshare):
        pytest.skip("unshare's namespaces need root here")
    (shared_folder / "chain.py").write_text(FORK_CHAIN)
    log = shared_folder / "pids"
    argv = [sealed.PYTHON, str(shared_folder / "chain.py"), str(log), token]
    if by == "bwrap":
        seal = isolation.Seal(levels.Level("namespace", "bwrap"), 1, facts(bwrap=True))
        argv = sealed.as_user(seal.wrap(argv, {}).argv)
    else:
        seal = isolation.Seal(levels.Level("user", "unshare"), 1,
                              facts(unshare=True, root=True), other_user="nobody")
        argv = seal.wrap(argv, sealed.user_env(shared_folder)).argv
    done = subprocess.run(argv, env=sealed.user_env(shared_folder), capture_output=True,
                          text=True, timeout=120, check=True)
    named = re.findall(r"^agent-patch gate: killed pid (\d+) in the command's namespace, left "
                       r"running by the command: (.*)$", done.stderr, re.MULTILINE)
    logged = set(log.read_text().split())
    assert len(logged) >= 20 and logged <= {pid for pid, _ in named}, done.stderr
    assert all(token in line for _, line in named), done.stderr
    assert (f"agent-patch gate: killed {len(named)} process(es) in the command's namespace, "
            "every one left running by the command") in done.stderr
    assert not sealed.processes_with(token)


@needs_bwrap
def test_the_recorder_loads_inside_the_namespace(tmp_path: Path) -> None:
    """The recorder route at ``namespace``: pytest in its own PID namespace loads the recorder
    from its read-only private folder, reports over the inherited channel (the kernel names
    the writer by the gate's pid for it) and the stamps record the level."""
    from tests.property_suite.harness import read_stamps
    from tests.test_hypothesis_card import FINDS, workspace
    from tests.test_recorder import pytest_argv, select, stamp

    workspace(tmp_path, {"draws": 1, "fixed_band": FINDS})
    done = stamp(tmp_path, "out", *pytest_argv(*select("draws", "fixed_band")),
                 extra=("--isolation", "namespace"))
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(tmp_path / "out")
    assert (got["draws"]["outcome"], got["fixed_band"]["outcome"]) == ("pass", "assert_fail")
    assert {s["isolation"]["level"] for s in got.values()} == {"namespace"}


def test_a_signal_inside_is_read_back_as_the_signal() -> None:
    seal = isolation.Seal(levels.Level("namespace", "bwrap"), 1, facts(bwrap=True))
    from gate.decide.outcome import ProcessResult

    assert seal.result(ProcessResult(137, None, False, 0, 1.0)) == ProcessResult(
        None, 9, False, 0, 1.0)
    assert seal.result(ProcessResult(1, None, False, 0, 1.0)).exit_code == 1
    below = isolation.Seal(levels.Level("none", None), 0, facts())
    assert below.result(ProcessResult(137, None, False, 0, 1.0)).exit_code == 137
    assert below.wrap(["true"], {}).argv == ["true"]
    with pytest.raises(GateInputError, match="no such command"):
        seal.wrap(["no-such-command-gate-seal"], {"PATH": "/usr/bin"})


# --- the policy: a level per class, counted only inside a signed stamp set ------------------------


def _isolated_run(tmp_path: Path, local: str | None, free: str | None,
                  require_isolation: str) -> tuple[int, dict[str, Any]]:
    """Two signed stamp jobs whose stamps record ``local`` / ``free`` (None: no level) under a
    policy with ``require_isolation`` (YAML flow mapping), decided by the gate job."""
    from tests import test_signing as signed
    from tests.core_helpers import FREE, LOCAL, SHA_X, stamp, write_json

    path = signed._policy(tmp_path)
    path.write_text(path.read_text() + f"  require_isolation: {require_isolation}\n")
    for art, server_class, level in ((signed.LOCAL_ART, LOCAL, local),
                                     (signed.FREE_ART, FREE, free)):
        record = stamp(server_class, "pass", run_id=f"r-{server_class}", fixture_sha256=SHA_X)
        if level is not None:
            record["isolation"] = {"level": level, "by": None, "ptrace_scope": 1}
        write_json(tmp_path / "stamps" / art / f"r-{server_class}.json", record)
        assert signed.action.run(signed._stamp_env(tmp_path, server_class, art,
                                                   server_class)) == 0
    return signed._decide(tmp_path)


def test_a_signed_set_below_the_required_level_closes_naming_class_and_levels(
        tmp_path: Path) -> None:
    _, report = _isolated_run(tmp_path, "namespace", "none",
                                 "{local-pinned: namespace, free-server: process}")
    assert report["decision"] == "closed"
    (pair,) = [p for p in report["pairs"] if p["action"] == "reject_unsigned_stamp"]
    assert ("isolation: the free-server stamp's test command ran at none, the policy requires "
            "process (signing.require_isolation.free-server)") in pair["reason"]


def test_a_stamp_recording_no_level_is_below_any_required_one(tmp_path: Path) -> None:
    _, report = _isolated_run(tmp_path, None, "user", "{local-pinned: process}")
    assert report["decision"] == "closed"
    assert "ran at none (no level recorded), the policy requires process" in json.dumps(report)


def test_signed_sets_at_or_above_the_required_levels_open(tmp_path: Path) -> None:
    code, report = _isolated_run(tmp_path, "user", "namespace",
                                 "{local-pinned: namespace, free-server: namespace}")
    assert (code, report["decision"]) == (0, "open"), report


@pytest.mark.parametrize(("text", "field", "said"), [
    ("signing: {mode: ed25519, require: all, require_isolation: {local-pinned: namespce}}",
     "signing.require_isolation.local-pinned", "did you mean 'namespace'?"),
    ("signing: {mode: ed25519, require: all, require_isolation: {local-pined: namespace}}",
     "signing.require_isolation.local-pined", "did you mean 'local-pinned'?"),
    ("signing: {mode: ed25519, require: local-pinned, require_isolation: "
     "{free-server: process}}", "signing.require_isolation.free-server",
     "a level counts only inside a signed stamp set"),
])
def test_policy_check_names_a_wrong_required_level(tmp_path: Path, text: str, field: str,
                                                   said: str) -> None:
    from gate.records import policy
    from tests.test_signing import KEYS

    keys = ", ".join(f"{who}: [{{id: {who}-1, public_key: '{KEYS[who][1]}'}}]"
                     for who in ("local-pinned", "free-server"))
    path = tmp_path / "p.yml"
    path.write_text(text[:-1] + f", keys: {{{keys}}}}}\n")
    with pytest.raises(GateInputError) as caught:
        policy.load(path)
    assert caught.value.field.startswith(field) and said in caught.value.message, caught.value
    done = subprocess.run([sys.executable, "-m", "gate", "policy", "check", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and said in done.stderr


def test_policy_check_describes_the_required_levels(tmp_path: Path) -> None:
    from tests.test_signing import _policy

    path = _policy(tmp_path)
    path.write_text(path.read_text() + "  require_isolation: {free-server: namespace}\n")
    done = subprocess.run([sys.executable, "-m", "gate", "policy", "check", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "signing: free-server stamps must record isolation namespace or higher" in done.stdout


# --- the summaries ------------------------------------------------------------------------------


def test_the_gate_summary_line_gives_each_class_its_lowest_level_and_whether_it_counts() -> None:
    line = levels.summary_line({"local-pinned": ["namespace", "user"],
                                "free-server": ["process", None]},
                               {"local-pinned": True, "free-server": False})
    assert line == ("isolation: free-server ran at none (claimed, unsigned: counts only inside "
                    "a signed stamp set); local-pinned ran at namespace (signed) "
                    "(docs/threat-model.md#isolation-levels)")


def test_the_gate_job_notes_the_levels_its_stamps_record(tmp_path: Path) -> None:
    from gate.action.gate import isolation_note
    from gate.records import policy
    from tests.core_helpers import FREE, LOCAL, stamp, write_json

    pol = policy.load(None)
    assert isolation_note(tmp_path, pol) is None  # no stamp records a level: nothing said
    write_json(tmp_path / "a" / "l.json", {**stamp(LOCAL, "pass", run_id="l"), "isolation": {
        "level": "user", "by": "unshare", "ptrace_scope": None}})
    write_json(tmp_path / "b" / "f.json", stamp(FREE, "pass", run_id="f"))
    assert isolation_note(tmp_path, pol) == levels.summary_line(
        {"local-pinned": ["user"], "free-server": [None]}, {})


def test_the_note_from_the_pairings_stamps_is_the_note_read_from_the_files(
        tmp_path: Path) -> None:
    """Issue 31: the gate step hands isolation_note the stamps the pairing read (by path), so
    that it reads no stamp twice; the line is the one it gives reading every file itself,
    whatever else lies beside the stamps (an envelope, a stamp-failure record, junk, a
    duplicate the pairing merged, a file it did not read) and whatever it is handed."""
    from gate.action.gate import _remember, isolation_note
    from gate.decide.signing import DSSE_NAME
    from gate.records import pairing, policy, stamp_failure
    from tests.core_helpers import FREE, LOCAL, stamp, write_json

    pol = policy.load(None)
    root = tmp_path / "stamps"
    levels_seen = {"l1": "user", "l2": "namespace", "f1": "process", "f2": None}
    for run_id, level in levels_seen.items():
        record = stamp(LOCAL if run_id[0] == "l" else FREE, "pass", run_id=run_id,
                       test_id=f"t{run_id[1]}")
        if level is not None:
            record["isolation"] = {"level": level, "by": "unshare", "ptrace_scope": None}
        write_json(root / f"art-{run_id[0]}" / f"{run_id}.json", record)
    write_json(root / "art-l" / "copy" / "l1.json",  # the same stamp twice: merged
               json.loads((root / "art-l" / "l1.json").read_text()))
    write_json(root / "art-f" / DSSE_NAME, {"server_class": LOCAL, "isolation": {"level": "x"}})
    write_json(root / "art-f" / stamp_failure.NAME, {"server_class": FREE})
    loaded = pairing.collect(root)
    (root / "art-l" / "junk.json").write_text("{not json", encoding="utf-8")
    write_json(root / "art-f" / "late.json", {"server_class": FREE})  # after the pairing
    read: dict[str, Any] = {}
    _remember(read, root, loaded)
    assert len(read) == 4 and all(Path(path).is_file() for path in read)
    alone = isolation_note(root, pol)
    assert alone == levels.summary_line({LOCAL: ["user", "namespace"],
                                         FREE: ["process", None, None, None]}, {})
    assert isolation_note(root, pol, read) == alone
    assert isolation_note(root, pol, {}) == alone


# --- as on a hosted runner: the job's user has passwordless sudo and a container socket ----------

SUDOER = "gate-seal-sudoer"
SOCKET_GROUP = "gate-seal-docker"


def _hosted_user() -> tuple[int, int]:
    """A user like a hosted runner's: passwordless sudo, and in the group of a container
    socket (made once; left for the next run)."""
    import grp
    import pwd

    if not any(g.gr_name == SOCKET_GROUP for g in grp.getgrall()):
        subprocess.run(["groupadd", SOCKET_GROUP], check=True)
    try:
        pwd.getpwnam(SUDOER)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/bash", "-G",
                        SOCKET_GROUP, SUDOER], check=True)
    rule = Path(f"/etc/sudoers.d/{SUDOER}")
    if not rule.exists():
        rule.write_text(f"{SUDOER} ALL=(ALL) NOPASSWD: ALL\n")
        rule.chmod(0o440)
    entry = pwd.getpwnam(SUDOER)
    return entry.pw_uid, entry.pw_gid


def _no_bwrap_path(folder: Path) -> Path:
    """A PATH folder with the tools a hosted ubuntu-24.04 image has, and no bubblewrap."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "sh", "env", "setpriv", "unshare", "sudo", "mount", "cp", "true",
                 "test", "cat", "ls"):
        found = shutil.which(tool)
        assert found is not None, tool
        (bin_dir / tool).symlink_to(found)
    return bin_dir


hosted = pytest.mark.skipif(
    sealed.can_drop() is not None or shutil.which("sudo") is None
    or shutil.which("useradd") is None,
    reason=str(sealed.can_drop() or "needs sudo and useradd (root) to make a hosted-runner user"))


@hosted
@pytest.mark.parametrize("bwrap", [False, True], ids=["sudo-unshare", "bwrap"])
def test_as_a_hosted_runners_user_with_sudo_and_a_socket_the_namespace_holds(
        shared_folder: Path, token: str, fake_socket: Path, bwrap: bool) -> None:
    """The job's user has passwordless sudo and is in the container socket's group, as on a
    hosted runner. At ``none`` sudo and the socket are its (the control); ``auto`` takes the
    namespace (through sudo and unshare where bubblewrap is missing, as on ubuntu-24.04), and
    from inside sudo fails (no_new_privs), the socket refuses, the gate and the step's shell
    are not there and the job's files are read-only."""
    import grp

    uid, gid = _hosted_user()
    os.chown(fake_socket, 0, grp.getgrnam(SOCKET_GROUP).gr_gid)
    os.chmod(fake_socket, 0o660)
    as_sudoer = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--init-groups", "--"]
    extra = {} if bwrap else {"PATH": str(_no_bwrap_path(shared_folder))}
    os.lchown(shared_folder, uid, gid)
    for folder, level in ((shared_folder / "none", "none"), (shared_folder / "auto", "auto")):
        folder.mkdir()
        done, got, out = attack(folder, token, level, fake_socket, env=extra, as_user=as_sudoer,
                                owner=(uid, gid))
        if level == "none":
            assert got["sudo"] == 0 and got["socket"] == "done", got  # the job's user's powers
            continue
        assert done.returncode == 0, done.stderr
        assert got["sudo"] != 0 and got["no_new_privs"] == "1", got
        assert got["socket"] == "Connection refused" and got["outside_seen"] == 0, got
        assert got["pth"] == got["github_env"] == "Read-only file system", got
        records = {json.dumps(json.loads(p.read_text())["isolation"], sort_keys=True)
                   for p in out.glob("*.json")}
        (record,) = [json.loads(r) for r in records]
        assert (record["level"], record["by"]) == ("namespace",
                                                   "bwrap" if bwrap else "sudo-unshare")


@hosted
def test_the_user_level_runs_the_command_as_the_other_user(shared_folder: Path,
                                                             fake_socket: Path) -> None:
    """``--isolation user --isolation-user nobody``: the command runs as nobody, in the
    namespace, writing the workspace; a user with sudo, or in a container socket's group, is
    refused before anything runs, naming why and the fix."""
    import grp

    base = [sys.executable, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server", "--junit",
            str(shared_folder / "junit.xml")]
    report = EXAMPLES / "junit" / "free-server.xml"
    command = ["--", "bash", "-c", f"cp {report} junit.xml; id -u > uid; "
               "grep NoNewPrivs /proc/self/status > nnp"]
    env = {**os.environ, "DOCKER_HOST": f"unix://{fake_socket}"}
    os.chmod(fake_socket, 0o660)  # root's group's: out of nobody's reach
    done = subprocess.run([*base, "--out", str(shared_folder / "out"), "--isolation", "user",
                           "--isolation-user", "nobody", *command], cwd=shared_folder, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert (shared_folder / "uid").read_text().strip() == str(sealed.UID)
    assert (shared_folder / "nnp").read_text().split() == ["NoNewPrivs:", "1"]
    stamp = json.loads(next((shared_folder / "out").glob("*.json")).read_text())
    assert stamp["isolation"]["level"] == "user"
    _hosted_user()
    os.chown(fake_socket, 0, grp.getgrnam(SOCKET_GROUP).gr_gid)
    os.chmod(fake_socket, 0o660)
    for who, said in ((SUDOER, f"user '{SUDOER}' can reach the container socket {fake_socket}"),
                      ("nobody", None)):
        (shared_folder / "junit.xml").unlink(missing_ok=True)
        done = subprocess.run([*base, "--out", str(shared_folder / f"o-{who}"), "--isolation",
                               "user", "--isolation-user", who, *command], cwd=shared_folder,
                              env=env, capture_output=True, text=True, timeout=120,
                              check=False)
        if said is None:
            assert done.returncode == 0, done.stderr
            continue
        assert done.returncode == 2 and said in done.stderr and "(fix: " in done.stderr
        assert not (shared_folder / f"o-{who}").exists()
    os.chmod(fake_socket, 0o600)  # the socket out of reach: the sudoer is refused for sudo
    (shared_folder / "junit.xml").unlink(missing_ok=True)
    done = subprocess.run([*base, "--out", str(shared_folder / "o-sudo"), "--isolation", "user",
                           "--isolation-user", SUDOER, *command], cwd=shared_folder, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and f"user '{SUDOER}' has passwordless sudo" in done.stderr


def test_unshare_counts_only_when_its_namespaces_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A container without CAP_SYS_ADMIN (act's, docker's default) has util-linux and is
    root, yet refuses the namespaces: the probe fails and unshare does not count."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and util-linux unshare")
    assert isolation.observe({}).unshare
    monkeypatch.setattr(isolation, "UNSHARE_PROBE", ("false",))
    assert not isolation.observe({}).unshare


def test_classify_stamps_names_a_signed_stamp_below_the_required_level(tmp_path: Path) -> None:
    """The command line's offline check (gate classify --stamps DIR --policy P) refuses a
    covered stamp below ``signing.require_isolation`` as the gate job does."""
    from tests.core_helpers import NOW, assert_bad_input, run_cli

    _isolated_run(tmp_path, "namespace", "process", "{free-server: namespace}")
    result = run_cli("classify", "--stamps", tmp_path / "stamps", "--policy",
                     tmp_path / "policy.yml", "--now", NOW)
    assert_bad_input(result, "the free-server stamp's test command ran at process, the "
                             "policy requires namespace")


@hosted
def test_the_recorder_loads_at_the_user_level(shared_folder: Path) -> None:
    """At ``user`` the other user runs pytest: the recorder's private folder (the gate's
    user's, 0700) is opened to it for reading, still read-only inside, and the stamps come
    back over the channel."""
    from tests.property_suite.harness import env as suite_env
    from tests.property_suite.harness import read_stamps
    from tests.test_hypothesis_card import FINDS, workspace
    from tests.test_recorder import select, stamp

    workspace(shared_folder, {"draws": 1, "fixed_band": FINDS})
    subprocess.run(["chmod", "-R", "a+rwX", str(shared_folder)], check=True)
    environment = suite_env()
    if sealed.PYTHONPATH:
        environment["PYTHONPATH"] += os.pathsep + sealed.PYTHONPATH
    done = stamp(shared_folder, "out", sealed.PYTHON, "-m", "pytest", "-q", "-p",
                 "no:cacheprovider", *select("draws", "fixed_band"), "hypo_props.py",
                 environment=environment, extra=("--isolation", "user", "--isolation-user",
                                                 "nobody"))
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(shared_folder / "out")
    assert (got["draws"]["outcome"], got["fixed_band"]["outcome"]) == ("pass", "assert_fail")
    assert {s["isolation"]["level"] for s in got.values()} == {"user"}


def test_a_seal_says_whether_it_hides_a_file(tmp_path: Path) -> None:
    key = tmp_path / "key.pem"
    key.write_text("k")
    env = {"GATE_SIGNING_KEY_FILE_PATH": str(key)}
    hidden = tuple(isolation.hidden_paths(env))
    inside = isolation.Seal(levels.Level("namespace", "bwrap"), 1, facts(bwrap=True),
                            hidden=hidden)
    outside = isolation.Seal(levels.Level("process", None), 1, facts(), hidden=hidden)
    assert inside.hides(key) and not inside.hides(tmp_path / "other")
    assert not outside.hides(key)


@needs_bwrap
@pytest.mark.parametrize("by", ["bwrap", "unshare"])
def test_inside_the_namespace_the_command_has_no_capability(by: str) -> None:
    """As root (a self-hosted runner's root job, this machine) bubblewrap kept every
    capability: with CAP_SYS_ADMIN the command could unmount the read-only binds. Both routes
    leave it none (and no_new_privs keeps them from coming back)."""
    if os.geteuid() != 0:
        pytest.skip("the command has no capability to drop unless the gate is root")
    if by == "unshare" and not isolation.observe({}).unshare:
        pytest.skip("unshare's namespaces do not start here")
    seal = isolation.Seal(levels.Level("namespace", by), 1,
                          facts(bwrap=True, unshare=True, root=True),
                          read_only=(sys.prefix,))
    argv = seal.wrap(["sh", "-c", "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status; "
                      f"umount {sys.prefix} && echo unmounted"], dict(os.environ)).argv
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.split() == ["CapEff:", "0000000000000000", "NoNewPrivs:", "1"], done
