"""Running the gate and its command as an unprivileged user (issue 27's attack tests).

This machine runs the tests as root, which sees through every same-machine boundary; an
attack on the ``process`` level is only evidence when the gate and the code under test run as
a user without privilege, as on a runner. :func:`as_user` prefixes a command with
``setpriv`` (util-linux) to run it as ``nobody`` with no supplementary groups and no
capabilities; :func:`shared_folder` makes a folder that user can write (pytest's ``tmp_path``
is root's alone).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

UID = 65534  # nobody
GID = 65534  # nogroup
ROOT = Path(__file__).resolve().parent.parent


def _interpreter() -> tuple[str, str | None]:
    """An interpreter the unprivileged user can run, and the ``PYTHONPATH`` that gives it the
    gate and this test run's packages: this run's own when it can (a venv whose base
    interpreter lies under a folder only root may enter, as pyenv's under /root, cannot);
    else the system's of the same version, on this venv's site-packages."""
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    try:
        done = subprocess.run(as_user(["bash", "-c", '"$0" -c "import gate"', sys.executable]),
                              cwd="/",
                              capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        done = None
    if done is not None and done.returncode == 0:
        return sys.executable, None
    site = [p for p in sys.path if p.endswith("site-packages") and p.startswith(sys.prefix)]
    for candidate in (f"/usr/bin/{version}", f"/usr/local/bin/{version}"):
        if os.path.exists(candidate):
            return candidate, os.pathsep.join([str(ROOT), *site])
    return sys.executable, None




def can_drop() -> str | None:
    """Why the attack cannot run as another user here, or None when it can."""
    if not sys.platform.startswith("linux"):
        return "needs Linux (/proc, prctl)"
    if os.geteuid() != 0:
        return "the tests do not run as root: setpriv cannot change user"
    if shutil.which("setpriv") is None:
        return "util-linux setpriv is not installed"
    return None


def as_user(argv: Sequence[str]) -> list[str]:
    """``argv`` run as ``nobody``: no groups, no capabilities (``setpriv``)."""
    return ["setpriv", f"--reuid={UID}", f"--regid={GID}", "--clear-groups",
            "--inh-caps=-all", "--", *argv]


PYTHON, PYTHONPATH = _interpreter() if can_drop() is None else (sys.executable, None)


def user_env(home: Path, **extra: str) -> dict[str, str]:
    """A plain environment for the unprivileged user: PATH, HOME, CI (and the PYTHONPATH
    :data:`PYTHON` needs)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "CI": "true",
           "LANG": "C.UTF-8", **extra}
    if PYTHONPATH:
        env["PYTHONPATH"] = PYTHONPATH
    return env


def home_in(folder: Path) -> Path:
    """A home folder for the job's user inside ``folder`` (its owner's, as ``folder`` is): at
    ``namespace`` the home is read-only to the command, so it cannot be the folder the
    command runs in (the gate refuses that)."""
    home = folder / "home"
    home.mkdir(exist_ok=True)
    st = folder.stat()
    os.chown(home, st.st_uid, st.st_gid)
    return home


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A fresh folder the unprivileged user owns (removed after)."""
    folder = Path(tempfile.mkdtemp(prefix="gate-sealed-"))
    os.chmod(folder, 0o755)
    os.chown(folder, UID, GID)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_as_user(argv: Sequence[str], cwd: Path, env: dict[str, str],
                timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(as_user(argv), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def processes_with(token: str) -> list[int]:
    """Every live (not zombie) process whose command line holds ``token``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if token.encode() in cmdline and state != b"Z":
            found.append(int(name))
    return found


def kill_all(pids: Sequence[int]) -> None:
    import contextlib
    import signal

    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
