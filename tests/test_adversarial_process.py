"""Issue 27's adversarial suite at the ``process`` level: what that level writes down ("nothing
the install or test command starts outlives it") attacked from the test command, which runs as
an unprivileged user (:mod:`tests.sealed_helpers`) as on a runner.

The ``process`` level's reaping (:mod:`gate.testrun.reaping`) runs at every level; this
machine has no Yama (``process`` cannot be had here), so the attack runs at ``none``, where the
same mechanism is all that stands (at ``namespace`` the command finds no gate to kill:
tests/test_isolation_levels.py).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import sealed_helpers as sealed
from tests.sealed_helpers import shared_folder

__all__ = ["shared_folder"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"

needs_user = pytest.mark.skipif(sealed.can_drop() is not None, reason=str(sealed.can_drop()))

#: The test command: start a double-forked setsid daemon (it waits 2.5 s, past the command's
#: end, then leaves a marker naming its parent), then SIGKILL the gate (the ancestor running
#: ``gate stamp``: the same user, so the signal is allowed), so that no reaper is left.
KILLER = r'''
import os, signal, sys, time
gate = None
pid = os.getppid()
while pid > 1:
    try:
        words = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    except OSError:
        break
    if b"gate" in words and b"stamp" in words:
        gate = pid
        break
    pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork():
        os._exit(0)
    os.write(w, b"x")
    time.sleep(2.5)
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getppid()))
    os._exit(0)
os.read(r, 1)
with open(sys.argv[2], "w") as f:
    f.write(str(gate))
if gate is not None:
    os.kill(gate, signal.SIGKILL)
time.sleep(0.5)
'''


@pytest.fixture
def token() -> Iterator[str]:
    word = f"adv-proc-{os.getpid()}-{time.monotonic_ns()}"
    yield word
    for _ in range(3):
        sealed.kill_all(sealed.processes_with(word))


def _killer_run(folder: Path, token: str, level: str) -> tuple[int, str, bool]:
    """(the gate's exit status, the gate pid the command found, whether the daemon lived)."""
    (folder / "killer.py").write_text(KILLER, encoding="utf-8")
    marker, found = folder / "daemon-lived", folder / "gate-pid"
    gate = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server", "--isolation", level,
            "--junit", str(folder / "junit.xml"), "--out", str(folder / "stamps"), "--",
            sealed.PYTHON, str(folder / "killer.py"), str(marker), str(found), token]
    done = sealed.run_as_user(gate, folder, sealed.user_env(sealed.home_in(folder)))
    deadline = time.monotonic() + 6
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    return done.returncode, found.read_text(encoding="utf-8"), marker.exists()


@needs_user
@pytest.mark.xfail(strict=True, reason=(
    "BREAK (process level, 'nothing the install or test command starts outlives it'): the "
    "test command runs as the gate's own user, so it may SIGKILL the gate (found as the "
    "ancestor running `gate stamp`); the gate's subreaper and reaper die with it, and a "
    "double-forked setsid daemon the command started outlives the step (re-parented to the "
    "system's init). No stamps are written (the step fails), but the daemon lives on through "
    "the job's later steps (other actions' post steps, `if: always()` steps), whose "
    "/proc/PID/environ Yama does not guard (it restricts ptrace attach, not reads): "
    "INPUT_TOKEN, ACTIONS_RUNTIME_TOKEN and, with id-token: write, the OIDC request. The "
    "namespace level holds it (no process outside the command is there to kill)"))
def test_a_test_that_kills_the_gate_leaves_no_daemon_behind(
        shared_folder: Path, token: str) -> None:
    code, found, lived = _killer_run(shared_folder, token, "none")
    assert found != "None" and code == -9  # the attack did what it meant to
    assert not lived, "the daemon outlived the gate it killed"


def test_a_forged_annotation_written_to_a_file_command_is_quoted_inert(tmp_path: Path) -> None:
    """A test appends ``##[error]…`` (the runner's legacy command form, found anywhere in a
    line) and ``::error::…`` to the step's ``GITHUB_ENV`` (listed in the runner's folder): the
    gate refuses the change (exit 2) and quotes the bytes it found, after the output's fence
    has ended, in a line no runner reads as a workflow command."""
    import re
    import subprocess
    import sys

    commands = tmp_path / "_temp" / "_runner_file_commands"
    commands.mkdir(parents=True)
    env_file = commands / "set_env_1"
    env_file.write_text("")
    forged = "##[error title=gate]the gate is open\\n::error::all green"
    junit = tmp_path / "junit.xml"
    command = (f"cp {EXAMPLES / 'junit' / 'free-server.xml'} {junit}; "
               f'printf "{forged}\\n" >> "$(ls "$RUNNER_TEMP"/_runner_file_commands/*)"')
    done = subprocess.run(
        [sys.executable, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
         "--root", str(EXAMPLES), "--server-class", "free-server", "--isolation", "none",
         "--junit", str(junit), "--out", str(tmp_path / "out"), "--fence", "--", "bash", "-c",
         command],
        env={**os.environ, "RUNNER_TEMP": str(tmp_path / "_temp"), "GITHUB_ENV": str(env_file)},
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert "set_env_1" in done.stderr and "appended" in done.stderr, done.stderr
    assert "the gate is open" in done.stderr  # quoted, so the reviewer sees it
    fence = re.compile(r"::(stop-commands::)?[0-9a-f]{32}(::)?")
    for line in (done.stdout + done.stderr).splitlines():
        if not fence.fullmatch(line):
            assert "##[" not in line and not line.lstrip().startswith("::"), line
    assert not (tmp_path / "out").exists()


@needs_user
@pytest.mark.parametrize("how", ["folder made read-only", "file replaced by a locked folder"])
def test_a_file_command_the_test_locks_is_still_put_back(shared_folder: Path, how: str) -> None:
    """The runner applies a step's ``GITHUB_ENV`` after it whatever its result: the gate's
    refusal (no stamps) only helps when the gate puts the file back. A test appended
    ``NODE_OPTIONS=--require …`` and then made the put-back fail (its user may: ``chmod`` the
    runner's folder read-only, or put a folder with a read-only folder inside where the file
    was): the gate said "it could not be put back", and the job's later steps (the action's
    own "Upload why no stamps came", another action's post step: node, with the runtime token
    and, with ``id-token: write``, the OIDC request) ran the test's code (on the code before).
    Nothing the command started is left when the gate puts it back, so it restores the modes
    its user may restore."""
    temp = shared_folder / "_temp"
    commands = temp / "_runner_file_commands"
    commands.mkdir(parents=True)
    env_file = commands / "set_env_1"
    env_file.write_text("KEEP=1\n")
    for path in (temp, commands, env_file):
        os.chown(path, sealed.UID, sealed.GID)
    if how == "folder made read-only":
        attack = ('f=$(ls -d "$RUNNER_TEMP"/_runner_file_commands/set_env_*); '
                  'echo "NODE_OPTIONS=--require=/tmp/x.js" >> "$f"; '
                  'chmod 555 "$RUNNER_TEMP"/_runner_file_commands')
    else:
        attack = ('f=$(ls -d "$RUNNER_TEMP"/_runner_file_commands/set_env_*); '
                  'rm "$f"; mkdir -p "$f/locked/in"; echo x > "$f/locked/in/x"; '
                  'chmod 555 "$f/locked/in" "$f/locked"')
    junit = shared_folder / "junit.xml"
    gate = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server", "--isolation", "none",
            "--junit", str(junit), "--out", str(shared_folder / "stamps"), "--", "bash", "-c",
            f"cp {EXAMPLES / 'junit' / 'free-server.xml'} {junit}; {attack}"]
    done = sealed.run_as_user(gate, shared_folder, sealed.user_env(
        sealed.home_in(shared_folder), RUNNER_TEMP=str(temp), GITHUB_ENV=str(env_file)))
    assert done.returncode == 2, done.stderr
    assert "(put back as it was)" in done.stderr, done.stderr
    assert env_file.read_text() == "KEEP=1\n"  # what the runner applies after the step
    assert not (shared_folder / "stamps").exists() or not any(
        (shared_folder / "stamps").iterdir())
