"""What the sealed command never gets, and where it could otherwise read it (issue 27).

One rule (:func:`secret`) names the variables that carry a credential: GitHub's OIDC request
(with it, code under test could mint a token and sign as the job), the runner's cache and
artifact token, a GitHub token, and the signing key inputs (as the gate's own variables, and
as act's ``INPUT_*`` copies of the composite action's inputs). They are dropped from the
command's environment (:func:`command_env`), and the gate process itself must not hold them
while the command runs: a process's first environment stays readable in
``/proc/PID/environ`` whatever ``os.environ`` says later, so the ``gate`` command re-executes
itself without them before it starts one (:func:`restart_without_secrets`). The runner's file
commands (:data:`FILE_COMMANDS`) are dropped from the command's environment too: the gate
checks they are unchanged after it (:mod:`gate.testrun.file_commands`).

Imported by the ``gate`` command before its parser: standard library only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

#: Variables withheld by name.
SECRETS = frozenset({
    "ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
    "ACTIONS_RUNTIME_TOKEN", "ACTIONS_RUNTIME_URL", "ACTIONS_RESULTS_URL", "ACTIONS_CACHE_URL",
    "GATE_SIGNING_KEY", "GATE_SIGNING_KEY_FILE", "GATE_GITHUB_TOKEN",
    "GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
    # act hands a composite action's inputs to its steps as INPUT_<NAME> (GitHub does not)
    "INPUT_SIGNING-KEY", "INPUT_SIGNING-KEY-FILE", "INPUT_GITHUB-TOKEN",
    "INPUT_SIGNING_KEY", "INPUT_SIGNING_KEY_FILE", "INPUT_GITHUB_TOKEN",
})
#: Variables withheld by how their name begins.
SECRET_PREFIXES = ("ACTIONS_ID_TOKEN_REQUEST_",)

#: The runner's file commands: what a step writes there sets the environment, PATH, outputs,
#: state and summary of the steps after it.
FILE_COMMANDS = ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE",
                 "GITHUB_STEP_SUMMARY")


def secret(name: str) -> bool:
    """Does the variable ``name`` carry a credential the sealed command must never see? The
    one rule: the command's environment, and the gate's own before it starts one."""
    return name.upper() in SECRETS or name.upper().startswith(SECRET_PREFIXES)


def command_env(env: Mapping[str, str] | None) -> dict[str, str]:
    """The sealed command's environment: ``env`` (or this process's) without any
    :func:`secret` variable and without the runner's file commands."""
    return {name: value for name, value in (os.environ if env is None else env).items()
            if not secret(name) and name not in FILE_COMMANDS}


def held(block: bytes | None = None) -> list[str]:
    """The :func:`secret` variables with a value in this process's first environment
    (``/proc/self/environ``, what another process can read), or in ``block``; [] where there is
    no ``/proc``."""
    if block is None:
        try:
            with open("/proc/self/environ", "rb") as handle:
                block = handle.read()
        except OSError:
            return []
    names = []
    for entry in block.split(b"\0"):
        name, equals, value = entry.partition(b"=")
        if equals and value and secret(name.decode("utf-8", "replace")):
            names.append(name.decode("utf-8", "replace"))
    return names


def restart_without_secrets(argv: Sequence[str] | None = None) -> None:
    """When this process's first environment holds a :func:`secret` variable, run the same
    command again in this process without them (``execve``: the same process id, a new
    environment block); else return. For the ``gate`` command only (a caller's process is not
    the gate's to replace)."""
    if not held():
        return
    clean = {name: value for name, value in os.environ.items() if not secret(name)}
    words = list(sys.orig_argv if argv is None else argv)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *words[1:]], clean)  # noqa: S606 (the gate)
