"""The action's installer: the uv binary pinned in requirements/installer.lock, or pip.

Run by the set-up step of action.yml with the runner's Python (standard library only, before
any virtual environment exists), inside the step's lock on the venv root::

    python3 -P requirements/installer.py ROOT

prints the path of a uv binary whose wheel matched its pinned sha256, or prints nothing (the
step then installs with pip), and says which on one stderr line. It falls back to pip when this
platform has no pin, when the download fails (network), when the binary cannot run here, or
when the environment configures pip's package source (``PIP_INDEX_URL`` and friends: uv does not
read them, pip does) and not uv's. A wheel whose sha256 differs from the pin is exit 2, naming
the file and both hashes: never a fallback, and nothing from it is run or written.

The binary is kept in ``ROOT/uv-<sha256 prefix>/`` (keyed by the wheel's pinned hash), so a
second environment on the same root does not download it again.

``AGENT_PATCH_GATE_UV_URL``: a base URL to download the pinned wheel file name from instead of
files.pythonhosted.org (a mirror; the tests' server on 127.0.0.1). Safe to allow because the
sha256 is pinned: a different file is refused whatever serves it.

``python3 requirements/installer.py --fetch FOLDER`` downloads this platform's pinned wheel
into FOLDER, hash-checked (CI's wheelhouse, which the act tests serve on 127.0.0.1).

``python3 requirements/installer.py --pin VERSION`` prints a new installer.lock for that uv
release, from PyPI's JSON API (see the comment at the top of installer.lock).
"""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
LOCK = HERE / "installer.lock"
PREFIX = "agent-patch gate:"
TIMEOUT = 20.0
FILES = "https://files.pythonhosted.org/packages/"
#: Platform key -> how the wheel's file name ends (one wheel per GitHub-hosted runner platform).
WHEEL_TAGS = {
    "linux-x86_64": "-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    # also tagged musllinux: a static binary, so it runs on any aarch64 Linux
    "linux-aarch64": "-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64"
                     ".musllinux_1_1_aarch64.whl",
    "macos-x86_64": "-py3-none-macosx_10_12_x86_64.whl",
    "macos-arm64": "-py3-none-macosx_11_0_arm64.whl",
    "windows-amd64": "-py3-none-win_amd64.whl",
}
#: pip's package-source settings uv ignores, and uv's own.
PIP_SOURCE = ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX")
UV_SOURCE = ("UV_INDEX_URL", "UV_DEFAULT_INDEX", "UV_INDEX", "UV_EXTRA_INDEX_URL",
             "UV_FIND_LINKS")
HEADER = """\
# The installer the action's set-up step runs: uv, pinned by the sha256 of its wheel on PyPI,
# one wheel per GitHub-hosted runner platform. requirements/installer.py downloads the wheel
# for this runner's platform, checks its sha256 before anything from it runs, and extracts
# only the uv binary (a mismatch is exit 2, never a fallback to pip). A platform not listed
# here, or a failed download, installs with pip instead (one log line says why).
# Not named uv.lock: that is the file name of uv's own project lock, which tools read.
#
# Regenerate (a new uv release; read its changelog first):
#   python3 requirements/installer.py --pin VERSION > requirements/installer.lock
# which reads https://pypi.org/pypi/uv/VERSION/json (the sha256 PyPI publishes).
#
# platform wheel sha256 url
"""


class InstallerError(Exception):
    """Exit 2: a hash mismatch or a broken pin file."""


class Pin(NamedTuple):
    wheel: str
    sha256: str
    url: str


def platform_key(system: str, machine: str) -> str:
    """``linux-x86_64``, ``linux-aarch64``, ``macos-arm64``, ``windows-amd64``, ..."""
    system = {"darwin": "macos"}.get(system.lower(), system.lower())
    machine = machine.lower()
    if system == "linux" and machine == "arm64":
        machine = "aarch64"
    if system == "macos" and machine == "aarch64":
        machine = "arm64"
    if system == "windows" and machine == "x86_64":
        machine = "amd64"
    return f"{system}-{machine}"


def read_pins(path: Path) -> dict[str, Pin]:
    pins: dict[str, Pin] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        digest = fields[2] if len(fields) == 4 else ""
        if (len(fields) != 4 or len(digest) != 64
                or digest.strip("0123456789abcdef") or not fields[3].startswith("https://")
                or not fields[1].endswith(".whl") or fields[0] in pins):
            raise InstallerError(f"{path}:{number}: expected `platform wheel sha256 https-url`"
                                 " (one line per platform, sha256 as 64 hex digits)")
        pins[fields[0]] = Pin(fields[1], digest, fields[3])
    return pins


def pip_source_reason(env: Mapping[str, str]) -> str | None:
    """Why pip must install: the environment points pip, not uv, at a package source."""
    pip = [name for name in PIP_SOURCE if env.get(name)]
    if pip and not any(env.get(name) for name in UV_SOURCE):
        return f"{pip[0]} is set and uv does not read it"
    return None


def download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:  # noqa: S310 (https or a set base)
        return bytes(response.read())


def extract_uv(wheel: bytes, target: Path) -> None:
    """Write only the uv binary of ``wheel`` (already hash-checked) to ``target``."""
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        names = [n for n in archive.namelist()
                 if n.count("/") == 2 and n.split("/")[1] == "scripts"
                 and n.endswith(".data/scripts/uv" if os.name != "nt" else ".data/scripts/uv.exe")]
        if len(names) != 1:
            raise InstallerError(f"the pinned wheel holds no single uv binary: {names}")
        with archive.open(names[0]) as source, open(target, "wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 20)
    target.chmod(0o755)


def find_uv(root: Path, env: Mapping[str, str], key: str, lock: Path = LOCK) -> str | None:
    """The path of the pinned uv binary under ``root``, or ``None`` to install with pip."""
    reason = pip_source_reason(env)
    if reason:
        return _pip(reason)
    pins = read_pins(lock)
    if key not in pins:
        return _pip(f"no uv is pinned for {key} in requirements/installer.lock")
    pin = pins[key]
    home = root / f"uv-{pin.sha256[:16]}"
    binary = home / ("uv.exe" if os.name == "nt" else "uv")
    if binary.is_file():  # extracted here from the checked wheel (the root is the step's own)
        return str(binary)
    base = env.get("AGENT_PATCH_GATE_UV_URL", "")
    url = f"{base.rstrip('/')}/{pin.wheel}" if base else pin.url
    try:
        wheel = download(url)
    except (OSError, http.client.HTTPException, ValueError) as error:  # network, status, URL
        return _pip(f"downloading {url} failed ({error})")
    actual = hashlib.sha256(wheel).hexdigest()
    if actual != pin.sha256:
        raise InstallerError(f"{pin.wheel} from {url}: sha256 {actual}, expected {pin.sha256}"
                             " (requirements/installer.lock); refusing to run it")
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{home.name}.", dir=root))
    try:
        extract_uv(wheel, staging / binary.name)
        try:
            subprocess.run([str(staging / binary.name), "--version"], capture_output=True,
                           check=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as error:
            return _pip(f"the pinned uv does not run on this machine ({error})")
        shutil.rmtree(home, ignore_errors=True)
        staging.rename(home)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return str(binary)


def fetch_wheel(folder: Path, key: str, lock: Path = LOCK) -> Path:
    """Download this platform's pinned wheel into ``folder``, hash-checked (a wheelhouse)."""
    pins = read_pins(lock)
    if key not in pins:
        raise InstallerError(f"no uv is pinned for {key} in requirements/installer.lock")
    pin = pins[key]
    target = folder / pin.wheel
    if not (target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == pin.sha256):
        wheel = download(pin.url)
        actual = hashlib.sha256(wheel).hexdigest()
        if actual != pin.sha256:
            raise InstallerError(f"{pin.wheel} from {pin.url}: sha256 {actual}, expected "
                                 f"{pin.sha256} (requirements/installer.lock)")
        folder.mkdir(parents=True, exist_ok=True)
        target.write_bytes(wheel)
    return target


def _pip(reason: str) -> str | None:
    print(f"{PREFIX} installing with pip: {reason}", file=sys.stderr)
    return None


def pin_file(version: str, saved: str = "") -> str:
    """A new installer.lock for uv ``version``, from PyPI's JSON API (or a saved answer)."""
    if saved:
        release = json.loads(Path(saved).read_text(encoding="utf-8"))
    else:
        with urllib.request.urlopen(f"https://pypi.org/pypi/uv/{version}/json",
                                    timeout=TIMEOUT) as response:
            release = json.load(response)
    if release["info"]["version"] != version:
        raise InstallerError(f"the JSON describes uv {release['info']['version']}, not {version}")
    files = release["urls"]
    lines = [HEADER]
    for key, tag in WHEEL_TAGS.items():
        (entry,) = [f for f in files if f["filename"] == f"uv-{version}{tag}"]
        # the file's address on files.pythonhosted.org (a mirror may answer with its own)
        url = FILES + entry["url"].rsplit("/packages/", 1)[-1]
        lines.append(f"{key} {entry['filename']} {entry['digests']['sha256']} {url}\n")
    return "".join(lines)


def main(argv: list[str]) -> int:
    try:
        if len(argv) in (2, 3) and argv[0] == "--pin":
            sys.stdout.write(pin_file(*argv[1:]))
            return 0
        key = platform_key(platform.system(), platform.machine())
        if len(argv) == 2 and argv[0] == "--fetch":
            print(fetch_wheel(Path(argv[1]), key))
            return 0
        if len(argv) != 1:
            print(f"{PREFIX} usage: installer.py ROOT | --fetch FOLDER | --pin VERSION "
                  "[SAVED-JSON]", file=sys.stderr)
            return 2
        uv = find_uv(Path(argv[0]), os.environ, key)
    except InstallerError as error:
        print(f"{PREFIX} {error}", file=sys.stderr)
        return 2
    if uv:
        print(f"{PREFIX} installing with the uv pinned in requirements/installer.lock",
              file=sys.stderr)
        print(uv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
