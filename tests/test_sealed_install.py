"""The commands' output is fenced from the runner's workflow commands, and the install runs
inside the seal (issue 27, the ``process`` level).

The runner reads a step's stdout and stderr for workflow commands (``::error::``,
``::add-mask::``, ``::stop-commands::``); :func:`runner_commands` reads a step's output the way
actions/runner's ``ActionCommandManager`` does (a trimmed line starting ``::`` is a command;
after ``::stop-commands::TOKEN`` none is, until the line ``::TOKEN::``). The install command
(``gate stamp --install``, the action's ``install`` input) runs through the same launcher as
the tests: reaped, fenced, the file commands checked, the same environment rules.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate.errors import GateInputError
from gate.testrun import isolation, running
from tests import sealed_helpers as sealed
from tests.sealed_helpers import shared_folder

__all__ = ["shared_folder"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"
#: What a test prints to forge the runner's workflow commands (stdout, then stderr, the last
#: line left unfinished).
FORGER = ("echo '::error::forged'; echo '  ::add-mask::gate'; echo '::stop-commands::mine'; "
          "echo '::mine::'; echo '::set-output name=decision::open' >&2; "
          "printf '::warning::unfinished' >&2")


def runner_commands(text: str) -> list[str]:
    """The workflow commands the runner acts on in ``text``: each one's name and data."""
    stopped: str | None = None
    found: list[str] = []
    for line in re.split(r"\r\n|\r|\n", text):
        trimmed = line.strip()
        if stopped is not None:
            if trimmed.lower() == f"::{stopped}::".lower():
                stopped = None
            continue
        match = re.match(r"^::([A-Za-z-]+)(?: [^:]*)?::(.*)$", trimmed)
        if match is None:
            continue
        found.append(f"{match.group(1)}:{match.group(2)}")
        if match.group(1) == "stop-commands":
            stopped = match.group(2)
    assert stopped is None, "the output left the runner's commands stopped"
    return found


def test_the_fence_holds_every_line_of_the_command() -> None:
    out = io.BytesIO()
    result = running.run_command(["bash", "-c", FORGER + "; env"], 30, out, out, fence=True)
    assert result.exit_code == 0
    text = out.getvalue().decode()
    commands = [c for c in runner_commands(text) if not c.startswith("add-mask:")]
    assert len(commands) == 1 and commands[0].startswith("stop-commands:")
    token = commands[0].split(":", 1)[1]
    assert re.fullmatch(r"[0-9a-f]{32}", token)
    assert "::error::forged" in text and "::warning::unfinished" in text  # shown, inert
    assert text.count(token) == 2  # ours only: the command's environment never held it
    second = io.BytesIO()
    running.run_command(["true"], 30, second, second, fence=True)
    assert token not in second.getvalue().decode()  # fresh per run


def test_the_secret_values_the_command_can_print_are_masked_before_the_fence() -> None:
    """Issue 29: a test that prints ``os.environ`` (a failing assertion on it) puts the job's
    secret-named variables in the log; the runner masks them once the gate registered them
    (``::add-mask::``, before the fence: inside it no command is read)."""
    key = ("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIBtuslyZjluF5gqT7QoLIpOfMsd9uT\n"
           "-----END PRIVATE KEY-----\n")
    env = {**os.environ, "MY_SERVICE_TOKEN": "tok-7f3a9c1e2b", "DEPLOY_PASSWORD": "pw%91c2e7aa",
           "DEPLOY_KEY": key, "SHORT_TOKEN": "true", "PLAIN": "not-a-secret-value"}
    out = io.BytesIO()
    running.run_command(["bash", "-c", "env; echo '::add-mask::gate'"], 30, out, out,
                        env=env, fence=True)
    commands = runner_commands(out.getvalue().decode())
    masked = {unescape(c.split(":", 1)[1]) for c in commands if c.startswith("add-mask:")}
    assert {"tok-7f3a9c1e2b", "pw%91c2e7aa", "MC4CAQAwBQYDK2VwBCIEIBtuslyZjluF5gqT7QoLIpOfMsd9uT",
            "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"} <= masked
    assert not {"true", "not-a-secret-value", "gate"} & masked  # short, not secret, the command's
    assert all("\n" not in m for m in masked)
    assert commands.index(next(c for c in commands if c.startswith("stop-commands:"))) == len(
        commands) - 1  # every mask before the fence


def unescape(data: str) -> str:
    """The runner's ``UnescapeData``."""
    return data.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def test_without_the_fence_the_lines_are_commands() -> None:
    """What the fence is for: unfenced, the runner would act on the command's lines."""
    out = io.BytesIO()
    running.run_command(["bash", "-c", FORGER], 30, out, out)
    assert "error:forged" in runner_commands(out.getvalue().decode())


def _action_env(folder: Path, command: str, **extra: str) -> dict[str, str]:
    runner = folder / "runner"
    runner.mkdir(exist_ok=True)
    os.chown(runner, sealed.UID, sealed.GID)
    report = EXAMPLES / "junit" / "free-server.xml"
    return sealed.user_env(sealed.home_in(folder), GATE_MODE="stamp",
                           GATE_SERVER_CLASS="free-server",
                           GATE_MANIFEST=str(EXAMPLES / "manifest.yml"),
                           GATE_ROOT=str(EXAMPLES), GATE_JUNIT=str(folder / "junit.xml"),
                           RUNNER_TEMP=str(runner), GITHUB_JOB="stamp",
                           GATE_COMMAND=f"cp {report} junit.xml; {command}; exit 1", **extra)


@pytest.mark.skipif(sealed.can_drop() is not None, reason=str(sealed.can_drop()))
def test_the_stamp_steps_output_forges_no_workflow_command(shared_folder: Path) -> None:
    """``gate action`` in stamp mode, as the unprivileged user: a test printing
    ``::error::forged``, ``::add-mask::`` and its own ``::stop-commands::`` (stdout and
    stderr) makes no workflow command; the gate's own notice still is one."""
    env = _action_env(shared_folder, FORGER, GATE_INSTALL=f"{FORGER}; echo installed")
    done = sealed.run_as_user([sealed.PYTHON, "-m", "gate", "action"], shared_folder, env)
    assert done.returncode == 0, done.stderr
    commands = runner_commands(done.stdout) + runner_commands(done.stderr)
    assert [c.split(":")[0] for c in commands] == ["notice", "stop-commands", "stop-commands"]
    assert done.stdout.count("::error::forged") == 2  # shown, install and tests, inert
    assert "installed" in done.stdout
    assert "forged" not in done.stderr  # the command's stderr is on the fenced stream


# --- the install -------------------------------------------------------------------------


def _gate(folder: Path, *flags: str, command: str = "exit 1",
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    report = EXAMPLES / "junit" / "free-server.xml"
    argv = [sealed.PYTHON, "-m", "gate", "stamp", "--manifest", str(EXAMPLES / "manifest.yml"),
            "--root", str(EXAMPLES), "--server-class", "free-server",
            "--junit", str(folder / "junit.xml"), "--out", str(folder / "stamps"), *flags,
            "--", "bash", "-c", f"cp {report} junit.xml; {command}"]
    return sealed.run_as_user(argv, folder, sealed.user_env(sealed.home_in(folder), **(env or {})))


@pytest.mark.skipif(sealed.can_drop() is not None, reason=str(sealed.can_drop()))
def test_the_install_runs_first_sealed_as_the_tests(shared_folder: Path) -> None:
    """The install's daemon is killed and named before the tests start; its environment has
    no secret; its output is fenced; the tests run after it."""
    token = f"install-daemon-{os.getpid()}"
    install = (f"echo installing; env > install-env.txt; "
               f"(setsid bash -c 'sleep 30; : {token}' &); echo done > installed.txt")
    done = _gate(shared_folder, "--install", install, "--fence",
                 "--isolation", "none",  # the reaper's naming (in a namespace the kernel kills)
                 command="test -e installed.txt && exit 1",
                 env={"GITHUB_TOKEN": "sekrit", "GATE_SIGNING_KEY": "sekrit"})
    try:
        assert done.returncode == 0, done.stderr
        assert sealed.processes_with(token) == []
        killed = [line for line in done.stderr.splitlines() if "killed pid" in line]
        assert len(killed) == 2 and token in killed[0] and killed[1].endswith("sleep 30")
        assert "sekrit" not in (shared_folder / "install-env.txt").read_text(encoding="utf-8")
        assert runner_commands(done.stdout)[0].startswith("stop-commands:")
        assert len(runner_commands(done.stdout)) == 2  # one fence per command
        stamps = [json.loads(p.read_text()) for p in (shared_folder / "stamps").glob("*.json")]
        assert sorted(s["outcome"] for s in stamps) == ["assert_fail", "pass", "resource_exit"]
    finally:
        sealed.kill_all(sealed.processes_with(token))


@pytest.mark.skipif(sealed.can_drop() is not None, reason=str(sealed.can_drop()))
def test_an_install_that_fails_writes_no_stamps(shared_folder: Path) -> None:
    done = _gate(shared_folder, "--install", "echo no such requirement >&2; exit 3")
    assert done.returncode == 2
    assert ("gate: error: install: (input): the install command exited 3 (its output is "
            "above); no stamps written") in done.stderr
    assert not (shared_folder / "stamps").exists() or not any(
        (shared_folder / "stamps").iterdir())


@pytest.mark.skipif(sealed.can_drop() is not None, reason=str(sealed.can_drop()))
@pytest.mark.parametrize("level", [
    "none",
    pytest.param("namespace", marks=pytest.mark.skipif(
        not isolation._bwrap_starts(),
        reason="bubblewrap is not installed (.ci/run installs it) or its sandbox does not "
               "start (kernel.apparmor_restrict_unprivileged_userns)")),
])
def test_an_install_that_writes_the_file_commands_is_refused(shared_folder: Path,
                                                             level: str) -> None:
    """Below ``namespace`` the write lands and the gate refuses it after the fact (the
    process level's check); in the namespace the file commands are read-only to the install
    too, so the write fails and the failed install is refused. No stamps either way."""
    files = shared_folder / "runner" / "_runner_file_commands"
    files.mkdir(parents=True)
    (files / "set_env_1").write_text("", encoding="utf-8")
    for path in (files.parent, files, files / "set_env_1"):
        os.chown(path, sealed.UID, sealed.GID)
    done = _gate(shared_folder, "--install",
                 "echo BASH_ENV=/tmp/x >> $RUNNER_TEMP/_runner_file_commands/set_env_1",
                 "--isolation", level,
                 env={"RUNNER_TEMP": str(files.parent), "GITHUB_ENV": str(files / "set_env_1")})
    assert done.returncode == 2
    if level == "none":
        assert "set_env_1: (runner file command): changed while the command ran" in done.stderr
    else:
        assert "set_env_1: Read-only file system" in done.stdout + done.stderr
        assert ("gate: error: install: (input): the install command exited 1 (its output is "
                "above); no stamps written") in done.stderr
        assert (files / "set_env_1").read_text(encoding="utf-8") == ""
    assert not (shared_folder / "stamps").exists() or not any(
        (shared_folder / "stamps").iterdir())


@pytest.mark.parametrize(("flags", "said"), [
    (["--install", "pip install x", "--exit-code", "1"], "--install: only with -- COMMAND"),
    (["--fence", "--exit-code", "1"], "--fence: only with -- COMMAND"),
])
def test_install_and_fence_need_a_command(tmp_path: Path, flags: list[str], said: str) -> None:
    argv = [sys.executable, "-m", "gate", "stamp", "--manifest",
            str(EXAMPLES / "manifest.yml"), "--root", str(EXAMPLES), "--server-class",
            "free-server", "--junit", str(EXAMPLES / "junit" / "free-server.xml"),
            "--out", str(tmp_path / "s"), *flags]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_the_actions_install_needs_its_command(tmp_path: Path) -> None:
    from gate.action import main as action_main

    env = {"GATE_MODE": "stamp", "GATE_SERVER_CLASS": "free-server", "GATE_EXIT_CODE": "1",
           "GATE_INSTALL": "pip install -r requirements-test.txt",
           "RUNNER_TEMP": str(tmp_path), "GATE_JUNIT": str(EXAMPLES / "junit" / "x.xml")}
    with pytest.raises(GateInputError) as caught:
        action_main.run(env, gate_main=lambda argv: 0)
    assert caught.value.source == "install"


# --- the steps after the tests: no start-up hook from the environment, no shell above -------

#: What the sign and gate steps set empty: what a step's GITHUB_ENV line would otherwise run
#: beside the key (bash's start-up file, a preloaded library, Python's start-up hooks).
BLANKED = ("BASH_ENV", "ENV", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "PYTHONSTARTUP",
           "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONINSPECT")


def _steps() -> dict[str, dict[str, object]]:
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return {str(step["id"]): step for step in action["runs"]["steps"] if "id" in step}


@pytest.mark.parametrize("step_id", ["sign", "gate"])
def test_the_key_steps_blank_the_start_up_hooks_and_exec(step_id: str) -> None:
    step = _steps()[step_id]
    env = step["env"]
    assert isinstance(env, dict)
    for name in BLANKED:
        assert env.get(name) == "", (step_id, name)
    lines = [line.strip() for line in str(step["run"]).splitlines() if line.strip()]
    assert lines[-1].startswith('exec "$GATE_VENV_PYTHON" -I ')


@pytest.mark.parametrize("step_id", ["sign", "gate"])
def test_a_bash_env_from_github_env_does_not_run_beside_the_key(tmp_path: Path,
                                                                step_id: str) -> None:
    """An earlier step appended ``BASH_ENV=hostile.sh`` to GITHUB_ENV (the job's environment
    now holds it); the step's own env: wins (the runner's rule), so bash never sources it."""
    step = _steps()[step_id]
    hostile = tmp_path / "hostile.sh"
    marker = tmp_path / "ran"
    hostile.write_text(f"touch {marker}\n", encoding="utf-8")
    script = tmp_path / "step.sh"
    script.write_text(str(step["run"]), encoding="utf-8")
    env = {"PATH": os.environ["PATH"], "BASH_ENV": str(hostile), "ENV": str(hostile)}
    env.update({k: str(v) for k, v in dict(step["env"]).items()  # type: ignore[call-overload]
                if "${{" not in str(v)})
    subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], env=env,
                   cwd=tmp_path, capture_output=True, timeout=60, check=False)
    assert not marker.exists()
