"""The sealed launch (issue 27, the ``process`` level): what the command starts does not outlive
it, and every route runs its command through the one launcher.

The attacks run as issue 27 ran them: the gate and its command as an unprivileged user
(:mod:`tests.sealed_helpers`), the attacking code only in the command.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gate.testrun import isolation, reaping, running, withheld
from tests import sealed_helpers as sealed
from tests.sealed_helpers import shared_folder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"

pytestmark = pytest.mark.skipif(sealed.can_drop() is not None,
                                reason=str(sealed.can_drop()))

__all__ = ["shared_folder"]

#: Issue 27 break 2: a double-forked ``setsid`` daemon waits for the stamps and rewrites them.
#: Its starter returns only once the daemon's own code runs: before, it returned as soon as it
#: forked, and a gate that reaped (or was stopped) in between found the daemon half started
#: (not yet in its own session, or not yet exec'd), which made the tests naming it race.
DAEMON = """\
import glob, json, os, sys, time
out, token = sys.argv[1], sys.argv[2]
ready, up = os.pipe()  # the starter returns once the daemon runs, never before its setsid
os.set_inheritable(up, True)
if os.fork():
    os.close(up)
    os.read(ready, 1)  # a byte from the daemon, or end of file if it died first
    os._exit(0)
os.close(ready)
os.setsid()
if os.fork():
    os._exit(0)
os.execv(sys.executable, [sys.executable, "-c", '''
import glob, json, os, sys, time
os.write(int(sys.argv[3]), b"up")
os.close(int(sys.argv[3]))
out = sys.argv[1]
deadline = time.time() + 60
while time.time() < deadline:
    stamps = sorted(glob.glob(os.path.join(out, "*.json")))
    if stamps:
        time.sleep(0.3)
        for path in stamps:
            with open(path) as f:
                stamp = json.load(f)
            stamp["outcome"] = "pass"
            with open(path + ".new", "w") as f:
                json.dump(stamp, f)
            os.replace(path + ".new", path)
        open(os.path.join(out, "..", "rewrote"), "w").close()
        break
    time.sleep(0.01)
''', out, token, str(up)])
"""

#: A fork loop: a process that forks and exits over and over, so its pid never holds still
#: (a scan of /proc misses it); each one adds a byte to the beat file; it ends by itself after
#: 30 s.
HOPPER = """\
import os, sys, time
beat, end = sys.argv[1], time.time() + 30
if os.fork():
    os._exit(0)
os.setsid()
while time.time() < end:
    with open(beat, "a") as f:
        f.write(".")
    if os.fork():
        os._exit(0)
"""


@pytest.fixture
def token() -> Iterator[str]:
    """A word in every attacking process's command line; they are all killed after."""
    word = f"attack-{os.getpid()}-{time.monotonic_ns()}"
    yield word
    for _ in range(3):
        sealed.kill_all(sealed.processes_with(word))


def _stamp_as_user(folder: Path, command: str, *extra: str,
                   env: dict[str, str] | None = None) -> tuple[int, str, Path]:
    """``gate stamp`` as the unprivileged user, through JUnit: ``command`` (bash) writes the
    example's free-server report (one red, two green), then does what it does. At isolation
    ``none``: the launch's own mechanisms alone, without the namespace (gate/testrun/isolation.py),
    which would stop most of these attacks before the launch sees them."""
    out = folder / "stamps"
    report = EXAMPLES / "junit" / "free-server.xml"
    argv = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server", "--isolation", "none",
            *extra,
            "--junit", str(folder / "junit.xml"), "--out", str(out),
            "--", "bash", "-c", f"cp {report} {folder / 'junit.xml'}; {command}; exit 1"]
    done = sealed.run_as_user(argv, folder, sealed.user_env(sealed.home_in(folder), **(env or {})))
    return done.returncode, done.stderr, out


def test_a_setsid_daemon_is_killed_before_any_stamp_and_named(shared_folder: Path,
                                                              token: str) -> None:
    """Issue 27 break 2: on the old code the daemon outlived the step and rewrote the red
    stamps ``pass``; now it is killed before any stamp is written, and the log names it."""
    (shared_folder / "daemon.py").write_text(DAEMON, encoding="utf-8")
    code, stderr, out = _stamp_as_user(
        shared_folder, f"{sealed.PYTHON} {shared_folder / 'daemon.py'} "
                       f"{shared_folder / 'stamps'} {token}")
    assert code == 0, stderr
    left = sealed.processes_with(token)
    assert left == [], f"the daemon outlived the gate: {left}"
    time.sleep(0.5)
    assert not (shared_folder / "rewrote").exists()
    outcomes = sorted(json.loads(p.read_text())["outcome"] for p in out.glob("*.json"))
    assert outcomes == ["assert_fail", "pass", "resource_exit"]  # as the report says
    killed = [line for line in stderr.splitlines() if line.startswith("agent-patch gate: killed")]
    assert len(killed) == 1 and "-c \\x0aimport\\x20glob" in killed[0], stderr


def test_a_fork_loop_does_not_win(shared_folder: Path, token: str) -> None:
    (shared_folder / "hop.py").write_text(HOPPER, encoding="utf-8")
    beat = shared_folder / "beat"
    code, stderr, _ = _stamp_as_user(
        shared_folder, f"{sealed.PYTHON} {shared_folder / 'hop.py'} {beat} {token}")
    assert code == 0, stderr
    assert beat.stat().st_size > 0  # it ran
    size = beat.stat().st_size
    time.sleep(0.5)
    assert beat.stat().st_size == size, "the fork loop outlived the gate"
    assert "agent-patch gate: killed pid" in stderr


def test_a_timeout_reaps_too(shared_folder: Path, token: str) -> None:
    """The timeout route: the command is killed, and its daemon with it."""
    (shared_folder / "daemon.py").write_text(DAEMON, encoding="utf-8")
    _, stderr, _ = _stamp_as_user(
        shared_folder, f"{sealed.PYTHON} {shared_folder / 'daemon.py'} /nowhere {token}; "
                       "sleep 60", "--timeout", "2")
    assert sealed.processes_with(token) == [], stderr
    assert "agent-patch gate: killed pid" in stderr


def test_the_command_line_is_shown_escaped() -> None:
    raw = b"python3\0-c\0print('::error::x')\n##[error]\\\x1b\0"
    shown = reaping.shown_command_line(raw)
    assert shown == ("python3 -c print('::error::x')\\x0a##\\x5berror]\\x5c\\x1b")
    assert shown.isascii() and shown.isprintable()
    assert reaping.Killed(7, shown).log_line().startswith("agent-patch gate: killed pid 7,")
    assert len(reaping.shown_command_line(b"x" * 5000)) == reaping.SHOWN_CHARS


def test_the_gates_own_children_are_spared(tmp_path: Path) -> None:
    """A child the gate had before the command (not the command's) is not the command's."""
    import subprocess

    mine = subprocess.Popen(["sleep", "30"])
    try:
        with (tmp_path / "o").open("wb") as stdout, (tmp_path / "e").open("wb") as stderr:
            result = running.run_command(["/bin/sh", "-c", "sleep 30 & exit 3"], 30,
                                         stdout, stderr)
        assert result.exit_code == 3
        assert mine.poll() is None
    finally:
        mine.kill()
        mine.wait()


# --- nothing goes around the launcher ---------------------------------------------------------

#: Every call in the package that starts a process, and why it may: (module, function).
STARTS = {
    ("gate.testrun.running", "_run"): "the sealed launch itself",
}
_STARTERS = {("subprocess", name) for name in ("Popen", "run", "call", "check_call",
                                               "check_output", "getoutput", "getstatusoutput")}
_STARTERS |= {("os", name) for name in ("system", "popen", "fork", "forkpty", "posix_spawn",
                                        "posix_spawnp", "execv", "execve", "execvp", "execvpe",
                                        "execl", "execle", "execlp", "execlpe", "spawnv",
                                        "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle")}


def _starts(path: Path, module: str) -> list[tuple[str, int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                    and isinstance(child.func.value, ast.Name)
                    and (child.func.value.id, child.func.attr) in _STARTERS):
                found.append((function, child.lineno, f"{child.func.value.id}."
                                                      f"{child.func.attr}"))
            visit(child, function)

    visit(tree, "<module>")
    return [(module, line, f"{function}: {call}") for function, line, call in found]


def test_nothing_starts_a_command_around_the_sealed_launch() -> None:
    """Every process the package starts for a command starts in ``running._run``; the gate's
    own helpers (forked workers that run the gate's code, never a command) are listed."""
    helpers = {("gate.records.forked", "start"): "a forked worker of the gate's own code",
               ("gate.testrun.collecting", "collect"): "gate init's local collection (no "
               "stamp is written from it)",
               ("gate.testrun.withheld", "restart_without_secrets"): "the gate itself again, "
               "without the secrets (not a command)",
               ("gate.testrun.isolation", "_runs"): "probes of what the machine allows "
               "(bwrap, sudo -n, setpriv as the other user), never the command"}
    allowed = {**STARTS, **helpers}
    seen: set[tuple[str, str]] = set()
    for path in sorted((ROOT / "gate").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for mod, line, where in _starts(path, module):
            function = where.split(":")[0]
            assert (mod, function) in allowed, f"{mod}:{line} starts a process ({where})"
            seen.add((mod, function))
    assert seen == set(allowed)


def test_every_route_runs_its_command_through_the_one_launcher() -> None:
    """The recorder route, and the JUnit and exit-code routes (through run_or_recorded), call
    :func:`running.run_command`; no module but these calls it."""
    callers = set()
    for path in sorted((ROOT / "gate").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "run_command(" in source:
            callers.add(path.relative_to(ROOT).as_posix())
    assert callers == {"gate/testrun/running.py", "gate/testrun/recorder_route.py"}
    for route in ("junit_route", "exit_route"):
        text = (ROOT / "gate" / "testrun" / f"{route}.py").read_text(encoding="utf-8")
        assert "run_or_recorded(" in text, route


def test_without_the_children_files_a_scan_of_proc_finds_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, token: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A kernel without ``/proc/PID/task/TID/children``: the whole process table is read."""
    monkeypatch.setattr(reaping, "_kids", lambda pid: None)
    script = f"(setsid bash -c 'sleep 30; : {token}' &) ; sleep 0.2; exit 0"
    with (tmp_path / "o").open("wb") as stdout, (tmp_path / "e").open("wb") as stderr:
        result = running.run_command(["/bin/sh", "-c", script], 30, stdout, stderr)
    assert result.exit_code == 0
    assert sealed.processes_with(token) == []
    assert token in capsys.readouterr().err  # named on the gate's stderr


# --- the withheld variables are in no environment the command can read (break 4) ------------

SECRETS = {"ACTIONS_ID_TOKEN_REQUEST_URL": "https://sekrit-oidc-url",
           "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "sekrit-oidc", "ACTIONS_RUNTIME_TOKEN": "sekrit-rt",
           "GATE_SIGNING_KEY": "sekrit-key", "GATE_SIGNING_KEY_FILE": "/sekrit/key.pem",
           "GITHUB_TOKEN": "sekrit-gh", "GH_TOKEN": "sekrit-gh2",
           "INPUT_SIGNING-KEY": "sekrit-act-input"}
#: The command reads its parent's (the gate's) environment and its own.
READ_PARENT = ("cat /proc/$PPID/environ > parent.txt 2> parent.err; "
               "tr '\\0' '\\n' < /proc/$$/environ > own.txt")


@pytest.mark.parametrize("route", ["gate stamp", "gate action"])
def test_the_gates_own_environ_holds_no_secret(shared_folder: Path, route: str) -> None:
    """Issue 27 break 4: ``/proc/<gate pid>/environ`` held the OIDC request and the key on the
    ``gate stamp`` route; the gate now re-executes itself without them before the command."""
    if route == "gate stamp":
        _stamp_as_user(shared_folder, READ_PARENT, env=SECRETS)
    else:
        runner = shared_folder / "runner"
        runner.mkdir()
        os.chown(runner, sealed.UID, sealed.GID)
        env = {**SECRETS, "GATE_MODE": "stamp", "GATE_ISOLATION": "none",
               "GATE_SERVER_CLASS": "free-server",
               "GATE_MANIFEST": str(EXAMPLES / "manifest.yml"), "GATE_ROOT": str(EXAMPLES),
               "GATE_JUNIT": str(shared_folder / "junit.xml"), "RUNNER_TEMP": str(runner),
               "GATE_COMMAND": f"cp {EXAMPLES / 'junit' / 'free-server.xml'} junit.xml; "
                               f"{READ_PARENT}; exit 1"}
        done = sealed.run_as_user([sealed.PYTHON, "-m", "gate", "action"], shared_folder,
                                  sealed.user_env(sealed.home_in(shared_folder), **env))
        assert done.returncode == 0, done.stderr
    own = (shared_folder / "own.txt").read_text(encoding="utf-8")
    assert "CI=true" in own  # it ran, with the job's other variables
    parent = (shared_folder / "parent.txt").read_bytes()
    for name, value in SECRETS.items():
        assert value not in own, name
        assert value.encode() not in parent, name


def test_the_gates_environ_is_clean_even_to_root(tmp_path: Path) -> None:
    """The mechanism, apart from the kernel's rule: root reads a process that is not dumpable
    too, and finds no secret in the gate's environment block (it re-executed itself)."""
    import subprocess

    report = EXAMPLES / "junit" / "free-server.xml"
    argv = [sys.executable, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server",
            "--junit", str(tmp_path / "junit.xml"), "--out", str(tmp_path / "stamps"),
            "--", "bash", "-c", f"cp {report} junit.xml; {READ_PARENT}; exit 1"]
    done = subprocess.run(argv, cwd=tmp_path, env={**os.environ, **SECRETS},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    parent = (tmp_path / "parent.txt").read_bytes()
    assert b"CI=true" in parent
    for name, value in SECRETS.items():
        assert value.encode() not in parent, name


def test_the_gate_is_not_readable_by_its_users_other_processes(shared_folder: Path) -> None:
    """While the command runs, the gate is not dumpable: the command, the same user, cannot
    open /proc/<gate>/environ, /mem or /fd/1 (the runner's output pipe)."""
    _stamp_as_user(shared_folder, READ_PARENT + "; ls /proc/$PPID/fd/ > fds.txt 2>&1; "
                   "{ echo '::error::forged' > /proc/$PPID/fd/1; } 2> fd1.err")
    assert "Permission denied" in (shared_folder / "parent.err").read_text(encoding="utf-8")
    assert "Permission denied" in (shared_folder / "fds.txt").read_text(encoding="utf-8")
    assert "Permission denied" in (shared_folder / "fd1.err").read_text(encoding="utf-8")


def test_one_rule_names_the_secrets() -> None:
    assert all(withheld.secret(name) for name in SECRETS)
    assert withheld.secret("ACTIONS_ID_TOKEN_REQUEST_ANYTHING")
    assert not any(withheld.secret(name) for name in ("PATH", "GITHUB_SHA", "CI", "HOME"))
    block = b"PATH=/bin\0GITHUB_TOKEN=x\0GATE_SIGNING_KEY=\0ACTIONS_RUNTIME_TOKEN=y\0"
    assert withheld.held(block) == ["GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN"]  # empty: nothing
    env = {"PATH": "/bin", "GITHUB_TOKEN": "x", "GITHUB_OUTPUT": "/o", "KEPT": "1"}
    assert withheld.command_env(env) == {"PATH": "/bin", "KEPT": "1"}
    assert running.command_env is withheld.command_env


# --- the runner's file commands are as they were (issue 27: the file commands) --------------

#: What the command does to the runner's files, found by listing $RUNNER_TEMP's folder (its
#: environment does not name them); and what the error must say.
FILE_ATTACKS = {
    "GITHUB_ENV: LD_PRELOAD appended": (
        "echo LD_PRELOAD=/tmp/evil.so >> $RUNNER_TEMP/_runner_file_commands/set_env_1",
        "set_env_1", "bytes were appended: «LD_PRELOAD=/tmp/evil.so\\x0a»"),
    "GITHUB_PATH: a folder put first": (
        "echo /tmp/evil >> $RUNNER_TEMP/_runner_file_commands/add_path_1",
        "add_path_1", "appended"),
    "GITHUB_OUTPUT rewritten": (
        "echo decision=open > $RUNNER_TEMP/_runner_file_commands/set_output_1",
        "set_output_1", "its bytes changed"),
    "GITHUB_STATE appended": (
        "echo x=1 >> $RUNNER_TEMP/_runner_file_commands/save_state_1", "save_state_1",
        "appended"),
    "GITHUB_STEP_SUMMARY appended": (
        "echo '# all green' >> $RUNNER_TEMP/_runner_file_commands/step_summary_1",
        "step_summary_1", "appended"),
    "a new file in the folder": (
        "echo BASH_ENV=/tmp/x > $RUNNER_TEMP/_runner_file_commands/set_env_2", "set_env_2",
        "appeared"),
    "a file replaced by a link": (
        "cd $RUNNER_TEMP/_runner_file_commands && cp set_env_1 t && rm set_env_1 && "
        "ln -s t set_env_1", "set_env_1", "replaced"),
}


def _runner_files(folder: Path) -> dict[str, str]:
    runner = folder / "runner"
    files = runner / "_runner_file_commands"
    files.mkdir(parents=True)
    names = {"GITHUB_ENV": "set_env_1", "GITHUB_PATH": "add_path_1",
             "GITHUB_OUTPUT": "set_output_1", "GITHUB_STATE": "save_state_1",
             "GITHUB_STEP_SUMMARY": "step_summary_1"}
    for name in names.values():
        (files / name).write_text({"set_env_1": "KEPT=1\n", "set_output_1": "earlier=1\n"}
                                  .get(name, ""), encoding="utf-8")
    for path in (runner, files, *files.iterdir()):
        os.chown(path, sealed.UID, sealed.GID)
    return {"RUNNER_TEMP": str(runner),
            **{variable: str(files / name) for variable, name in names.items()}}


@pytest.mark.parametrize("attack", list(FILE_ATTACKS))
def test_a_write_to_the_runners_file_commands_is_refused(shared_folder: Path,
                                                         attack: str) -> None:
    command, name, said = FILE_ATTACKS[attack]
    env = _runner_files(shared_folder)
    files = Path(env["RUNNER_TEMP"]) / "_runner_file_commands"
    before = {path.name: path.read_bytes() for path in files.iterdir()}
    code, stderr, out = _stamp_as_user(shared_folder, command, env=env)
    assert code == 2, stderr
    assert f"_runner_file_commands/{name}: (runner file command): changed while the command " \
           "ran: " in stderr
    assert said in stderr
    assert "(put back as it was)" in stderr
    assert not list(out.glob("*.json")) if out.exists() else True
    # the runner applies a failed step's file commands too: every file is as it was, each a
    # regular file, and nothing new is left in the folder
    assert {path.name: path.read_bytes() for path in files.iterdir()} == before
    assert not any(path.is_symlink() for path in files.iterdir())


def test_untouched_file_commands_pass_and_are_not_named_to_the_command(
        shared_folder: Path) -> None:
    env = _runner_files(shared_folder)
    code, stderr, out = _stamp_as_user(shared_folder, "env > env.txt", env=env)
    assert code == 0, stderr
    seen = (shared_folder / "env.txt").read_text(encoding="utf-8")
    assert "RUNNER_TEMP=" in seen
    for variable in withheld.FILE_COMMANDS:
        assert f"{variable}=" not in seen
    assert len(list(out.glob("*.json"))) == 3


def test_the_bench_prints_the_reapings_cost(tmp_path: Path) -> None:
    """``python -m bench --only reaping`` prints both ratio lines (no time is asserted)."""
    import subprocess

    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "reaping",
                           "--tmp", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for name in ("sealed launch of `true`", "sealed launch, one left behind"):
        assert re.search(rf"^RATIO {re.escape(name)} .* ratio=.* load=", done.stdout,
                         re.MULTILINE), done.stdout


@pytest.mark.parametrize("level", [
    "none",
    pytest.param("namespace", marks=pytest.mark.skipif(
        not isolation._bwrap_starts(),
        reason="bubblewrap is not installed (.ci/run installs it) or its sandbox does not "
               "start (kernel.apparmor_restrict_unprivileged_userns)")),
])
def test_an_interrupted_gate_reaps_too(shared_folder: Path, token: str, level: str) -> None:
    """SIGTERM to the gate while the command runs: the command and its daemon are killed, and
    no stamp is written. Below ``namespace`` the gate's reaper kills and names them; in the
    namespace the kernel kills them with it (its reaper, which names, never gets to run)."""
    import signal
    import subprocess

    (shared_folder / "daemon.py").write_text(DAEMON, encoding="utf-8")
    report = EXAMPLES / "junit" / "free-server.xml"
    argv = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server",
            "--junit", str(shared_folder / "junit.xml"), "--out", str(shared_folder / "stamps"),
            "--isolation", level,
            "--", "bash", "-c", f"cp {report} junit.xml; {sealed.PYTHON} "
            f"{shared_folder / 'daemon.py'} /nowhere {token}; touch started; sleep 300"]
    gate = subprocess.Popen(sealed.as_user(argv), cwd=shared_folder,
                            env=sealed.user_env(sealed.home_in(shared_folder)),
                            stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (shared_folder / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # (the token is in the gate's own command line too: wait for this)
    assert (shared_folder / "started").exists(), "the command never started"
    gate.send_signal(signal.SIGTERM)
    out, stderr = gate.communicate(timeout=60)
    assert sealed.processes_with(token) == [], stderr
    assert gate.returncode != 0, (gate.returncode, out, stderr)
    if level == "none":
        assert "agent-patch gate: killed pid" in stderr, (gate.returncode, out)
    assert not list((shared_folder / "stamps").glob("*.json")) \
        if (shared_folder / "stamps").exists() else True


def test_the_pytest_route_reaps_what_a_conftest_starts(shared_folder: Path, token: str) -> None:
    """The action's own route (``--pytest``, the recorder): a ``conftest.py`` the patch adds
    double-forks a ``setsid`` daemon at import; it is killed and named before the stamps."""
    import shutil
    import subprocess

    project = shared_folder / "project"
    shutil.copytree(EXAMPLES, project, ignore=shutil.ignore_patterns("__pycache__"))
    (shared_folder / "daemon.py").write_text(DAEMON, encoding="utf-8")
    conftest = project / "tests" / "conftest.py"
    conftest.write_text(conftest.read_text(encoding="utf-8") + textwrap.dedent(f"""
        import subprocess as _sp
        _sp.run([{sealed.PYTHON!r}, {str(shared_folder / 'daemon.py')!r},
                 {str(shared_folder / 'stamps')!r}, {token!r}], check=True)
        """), encoding="utf-8")
    subprocess.run(["chown", "-R", f"{sealed.UID}:{sealed.GID}", str(project)], check=True)
    argv = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", "manifest.yml",
            "--server-class", "free-server", "--pytest", "--out", str(shared_folder / "stamps"),
            "--isolation", "none",  # the reaper's naming (in a namespace the kernel kills it)
            "--", sealed.PYTHON, "-m", "pytest"]
    done = sealed.run_as_user(argv, project, sealed.user_env(
        sealed.home_in(shared_folder), PYTHONDONTWRITEBYTECODE="1"))
    assert done.returncode == 0, done.stderr
    assert sealed.processes_with(token) == []
    killed = [line for line in done.stderr.splitlines() if "killed pid" in line]
    assert len(killed) == 1 and "\\x0aimport\\x20glob" in killed[0], done.stderr
    time.sleep(0.5)
    assert not (shared_folder / "rewrote").exists()
    stamps = [json.loads(p.read_text()) for p in (shared_folder / "stamps").glob("*.json")]
    assert len(stamps) == 3 and {s["source"] for s in stamps} == {"pytest-recorder"}


def test_a_huge_file_command_is_compared_by_digest(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A file above the kept size is compared by size and sha256, never read whole into
    memory; a change to it is still named."""
    from gate.errors import GateInputError
    from gate.testrun import file_commands

    monkeypatch.setattr(file_commands, "KEPT", 16)
    target = tmp_path / "set_env_1"
    target.write_bytes(b"A=1\n" * 10)
    env = {"GITHUB_ENV": str(target)}
    before = file_commands.snapshot(env)
    assert before[str(target)].digest is not None
    file_commands.check(before, env)  # unchanged
    with target.open("r+b") as handle:
        handle.seek(4)
        handle.write(b"B")
    with pytest.raises(GateInputError) as caught:
        file_commands.check(before, env)
    assert "its bytes changed (40 -> 40 bytes)" in caught.value.message
