"""The offline wheelhouse the act tests install from, prepared by the tests themselves.

The act runs of the composite action install its hash-locked requirements
(``requirements/action.lock``) from a local folder with ``PIP_NO_INDEX``, the set-up step's
tests serve the uv wheel pinned in ``requirements/installer.lock`` from it, and the workflows
that install the gate itself (``pip install .``, tests/test_receipt_act.py) need the build
back-end that ``pyproject.toml`` names (``[build-system] requires``). :func:`prepare` downloads
all three into one folder with pip, hash-checked where a lock pins hashes, once: a marker file
named after the digest of what was asked for says the folder is complete, and an ``flock`` on
the folder makes parallel test processes (pytest-xdist workers) wait for the first one instead
of downloading side by side.

The folder is ``$GATE_WHEELHOUSE`` when that is set (``.ci/run`` sets it; only added to, never
emptied), else a cache folder of this user's (``$XDG_CACHE_HOME`` or ``~/.cache``). CI and the
README's test command thus prepare it the same way::

    python -m tests.wheelhouse FOLDER     # what .ci/run runs; the fixture does the same
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACTION_LOCK = ROOT / "requirements" / "action.lock"
INSTALLER = ROOT / "requirements" / "installer.py"
INSTALLER_LOCK = ROOT / "requirements" / "installer.lock"


def build_requires() -> list[str]:
    """The build back-end ``pyproject.toml`` names, e.g. ``["hatchling>=1.25"]``."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        requires: list[str] = tomllib.load(handle)["build-system"]["requires"]
    return requires


def default_folder() -> Path:
    """``$GATE_WHEELHOUSE``, else ``<cache>/agent-patch-gate/wheelhouse``."""
    given = os.environ.get("GATE_WHEELHOUSE")
    if given:
        return Path(given)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "agent-patch-gate" / "wheelhouse"


def _digest() -> str:
    """What a complete folder holds: both locks, the build requirements, the interpreter."""
    parts = [ACTION_LOCK.read_bytes(), INSTALLER_LOCK.read_bytes(),
             "\n".join(build_requires()).encode(),
             f"{sys.version_info[:2]} {sys.platform}".encode()]
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"preparing the wheelhouse: {' '.join(command)} exited "
                           f"{done.returncode}:\n{done.stdout}{done.stderr}")


def prepare(folder: Path | None = None) -> Path:
    """Fill ``folder`` (default :func:`default_folder`) with every wheel the act tests install,
    unless a previous call already did; returns the folder."""
    folder = folder or default_folder()
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / f".prepared-{_digest()}"
    if marker.is_file():
        return folder
    with (folder / ".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if marker.is_file():  # another process finished it while this one waited
            return folder
        pip = [sys.executable, "-m", "pip", "download", "--quiet",
               "--disable-pip-version-check", "--only-binary", ":all:", "-d", str(folder)]
        _run([*pip, "--require-hashes", "-r", str(ACTION_LOCK)])
        _run([sys.executable, str(INSTALLER), "--fetch", str(folder)])
        _run([*pip, *build_requires()])
        marker.touch()
    return folder


if __name__ == "__main__":
    print(prepare(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
