"""The action's set-up: a hash-locked virtual environment, verified on every reuse.

Run by the set-up step of action.yml with the runner's Python, isolated from the job's
environment and the workspace (``-I``: no ``PYTHON*`` variable, user site or current folder),
standard library only, before any virtual environment exists::

    python3 -I requirements/installer.py --setup ROOT stamp|action

prints the path of the environment's interpreter on stdout. Under ``flock`` on ``ROOT/.lock``
it reuses ``ROOT/venv-<set>-<key>`` when every file it holds matches the manifest written when
it was built (``.gate-manifest``: every folder, file and link, each file by its inode, size
and modification and change times, which any write or replacement changes; nothing more,
nothing less; ``.gate-pycache`` among them, the bytecode of what the action's steps import,
which they read with ``-B -X pycache_prefix``: ``warm``), and otherwise rebuilds it (one
stderr line names the first file that differs). The root, and each folder and file under it
the set-up uses, must be the current user's, not writable by group or others, and no symbolic
link: anything else is exit 2 naming it, and nothing is run from it.

The installer is the uv binary pinned in requirements/installer.lock, or pip. The pinned wheel
is kept in ``ROOT/uv-<sha256 prefix>/`` and checked against the pin (sha256) on every use; the
binary is extracted from it into a fresh private folder for that build only and removed after.
pip installs instead when this platform has no pin, when the download fails (network), when the
binary cannot run here. pip's package-source variables (``PIP_INDEX_URL``,
``PIP_EXTRA_INDEX_URL``, ``PIP_FIND_LINKS``, ``PIP_NO_INDEX``) are handed to uv as its own when
no ``UV_`` source is set, and its TLS ones (``PIP_CERT``, ``PIP_CLIENT_CERT``,
``PIP_TRUSTED_HOST``) unless uv's are. A wheel whose sha256 differs from the pin is exit 2,
naming the file and both hashes: never a fallback, and nothing from it is run or written. Every
message is one stderr line (``say``), whatever an error's text holds.

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
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

# The warm path (a verified environment reused) imports no more than it needs: the network,
# zip and temporary-file modules are imported where the cold path uses them.

try:
    import fcntl
except ImportError:  # Windows: no flock
    fcntl = None  # type: ignore[assignment]

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
#: pip's variables for where packages come from, and uv's own for each (pip takes a list
#: white-space separated; so does ``UV_INDEX``, but ``UV_FIND_LINKS`` is comma-separated:
#: :data:`UV_COMMA_LISTS`); uv's source variables (one of them set: uv's own configuration is
#: in force, and none of pip's is passed on); pip's TLS settings and uv's (passed on unless set).
PIP_TO_UV = {"PIP_INDEX_URL": "UV_DEFAULT_INDEX", "PIP_EXTRA_INDEX_URL": "UV_INDEX",
             "PIP_FIND_LINKS": "UV_FIND_LINKS"}
UV_COMMA_LISTS = frozenset({"UV_FIND_LINKS"})
UV_SOURCE = ("UV_INDEX_URL", "UV_DEFAULT_INDEX", "UV_INDEX", "UV_EXTRA_INDEX_URL",
             "UV_FIND_LINKS")
PIP_TLS_TO_UV = {"PIP_CERT": "SSL_CERT_FILE", "PIP_CLIENT_CERT": "SSL_CLIENT_CERT",
                 "PIP_TRUSTED_HOST": "UV_INSECURE_HOST"}
#: The file in each environment recording every entry it holds (``manifest``).
MANIFEST = ".gate-manifest"
#: The folder in each environment holding the bytecode of what the action's steps import
#: (``warm``): they run with ``-B -X pycache_prefix=`` this folder, so they read no
#: ``__pycache__`` a test can write, and this one is in the manifest.
PYCACHE = ".gate-pycache"
#: What the steps import (``gate action`` in stamp, sign and gate mode).
WARM_IMPORTS = "gate.github.action, gate.action.main, gate.records.signing, gate.records.policy"
#: The layout of an environment: a new one changes every environment's name (a rebuild).
LAYOUT = "2 (.gate-pycache)"
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
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


def this_platform() -> str:
    """This machine's platform key (``os.uname``: the ``platform`` module is slow to import)."""
    if hasattr(os, "uname"):
        return platform_key(os.uname().sysname, os.uname().machine)
    import platform

    return platform_key(platform.system(), platform.machine())


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


def say(message: str) -> None:
    """The one way this script writes a message: one stderr line, whatever ``message`` holds
    (a line break or a control character in an error's text is written escaped, so no part of
    it can start a line of its own, a workflow command among them)."""
    line = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in message)
    print(f"{PREFIX} {line}", file=sys.stderr, flush=True)


def uv_source(env: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """uv's own package-source variables (and ``--no-index``: uv has no variable for it) for
    pip's, when the environment sets no ``UV_`` source: the runner's mirror, extra indexes,
    wheel folders and ``PIP_NO_INDEX`` stay in force whichever installer runs."""
    mapped = {uv: env[pip] for pip, uv in PIP_TLS_TO_UV.items()
              if env.get(pip) and not env.get(uv)}
    if any(env.get(name) for name in UV_SOURCE):
        return mapped, []
    mapped.update({uv: ",".join(env[pip].split()) if uv in UV_COMMA_LISTS else env[pip]
                   for pip, uv in PIP_TO_UV.items() if env.get(pip)})
    no_index = env.get("PIP_NO_INDEX", "").strip().lower() in ("1", "true", "yes", "on")
    return mapped, ["--no-index"] if no_index else []


def clean_env(env: Mapping[str, str]) -> dict[str, str]:
    """The environment of every process the set-up starts: no ``PYTHON*`` variable."""
    return {name: value for name, value in env.items() if not name.startswith("PYTHON")}


def download(url: str) -> bytes:
    import urllib.request
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:  # noqa: S310 (https or a set base)
        return bytes(response.read())


def extract_uv(wheel: bytes, target: Path) -> None:
    """Write only the uv binary of ``wheel`` (already hash-checked) to ``target``."""
    import io
    import zipfile
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        names = [n for n in archive.namelist()
                 if n.count("/") == 2 and n.split("/")[1] == "scripts"
                 and n.endswith(".data/scripts/uv" if os.name != "nt" else ".data/scripts/uv.exe")]
        if len(names) != 1:
            raise InstallerError(f"the pinned wheel holds no single uv binary: {names}")
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o700)
        with archive.open(names[0]) as source, os.fdopen(fd, "wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 20)


# -- what the set-up reuses: checked on every reuse --------------------------------------------

def _refuse(path: Path, st: os.stat_result, kind: str) -> None:
    """Exit 2 unless ``path`` (lstat ``st``) is a ``kind`` of the current user's that group and
    others cannot write: the one rule for the root and everything kept under it."""
    if stat.S_ISLNK(st.st_mode):
        raise InstallerError(f"{path}: a symbolic link; the set-up follows none under its root"
                             " (remove it)")
    wanted = stat.S_ISDIR if kind == "folder" else stat.S_ISREG
    if not wanted(st.st_mode):
        raise InstallerError(f"{path}: not a {kind} (remove it)")
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        raise InstallerError(f"{path}: owned by uid {st.st_uid}, not this user's {os.geteuid()};"
                             " use a root of your own (AGENT_PATCH_GATE_VENV_ROOT)")
    if st.st_mode & 0o022:
        raise InstallerError(f"{path}: writable by group or others (mode "
                             f"{stat.S_IMODE(st.st_mode):o}); chmod go-w it or use a root of "
                             "your own")


def safe_folder(path: Path, make: bool = False) -> bool:
    """Whether ``path`` is a folder of ours (made, mode 700, when ``make`` and missing); exit 2
    when it is anything else (a link, another user's, group- or world-writable)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not make:
            return False
        os.mkdir(path, 0o700)
        st = os.lstat(path)
    _refuse(path, st, "folder")
    return True


def read_kept(path: Path) -> bytes | None:
    """The bytes of a file kept under the root, or None when there is none; exit 2 when it is a
    link or a special file, another user's, or writable by group or others."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError:
        _refuse(path, os.lstat(path), "file")
        raise
    with os.fdopen(fd, "rb") as handle:
        _refuse(path, os.fstat(handle.fileno()), "file")
        return handle.read()


def manifest(venv: Path, caches: list[Path]) -> list[str]:
    """One line per entry under ``venv``, sorted by path: ``d STAT PATH`` a folder,
    ``l TARGET PATH`` a symbolic link (the interpreter's), ``f STAT PATH`` a file, where STAT is
    the entry's inode, mode and owner (and for a file its size, modification and change times
    in nanoseconds). Any write to a file, a rename over it or a replacement changes its change
    time (``st_ctime_ns``), which no unprivileged process can set back; so a file whose STAT
    matches is the file the build wrote, without reading it. Exit 2 on an entry that is not
    the current user's, that group or others can write, or a special file. Each
    ``__pycache__`` entry is not listed but added to ``caches``: bytecode Python wrote while
    the gate ran, which no check could tell from a planted one (``remove_caches``)."""
    lines: list[str] = []
    stack = [(venv, "")]
    while stack:
        folder, rel = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                name = f"{rel}{entry.name}"
                if name == MANIFEST:
                    continue
                if entry.name == "__pycache__":
                    caches.append(Path(entry.path))
                    continue
                if "\n" in name or "\r" in name:
                    raise InstallerError(f"{entry.path}: a line break in a file name")
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISLNK(st.st_mode):
                    lines.append(f"l {os.readlink(entry.path).replace(' ', '%20')} {name}")
                    continue
                kind = "folder" if stat.S_ISDIR(st.st_mode) else "file"
                _refuse(Path(entry.path), st, kind)
                ident = f"{st.st_ino}:{st.st_mode:o}:{st.st_uid}"
                if kind == "folder":
                    lines.append(f"d {ident} {name}")
                    stack.append((Path(entry.path), f"{name}/"))
                else:
                    lines.append(f"f {ident}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"
                                 f" {name}")
    lines.sort(key=lambda line: line.split(" ", 2)[2])
    return lines


def verify(venv: Path) -> str | None:
    """None when ``venv`` holds exactly what its manifest records, else the first difference."""
    recorded = read_kept(venv / MANIFEST)
    if recorded is None:
        return f"{venv / MANIFEST} is missing (not built to the end)"
    want = {line.split(" ", 2)[2]: line for line in recorded.decode("utf-8", "replace")
            .splitlines() if line.count(" ") >= 2}
    caches: list[Path] = []
    have = {line.split(" ", 2)[2]: line for line in manifest(venv, caches)}
    for name in sorted(want.keys() | have.keys()):
        if name not in have:
            return f"{venv / name} is missing"
        if name not in want:
            return f"{venv / name} is not in its manifest"
        if want[name] != have[name]:
            return f"{venv / name} differs from its manifest ({have[name].split(' ', 1)[0]})"
    remove_caches(caches)
    return None


def remove_caches(caches: list[Path]) -> None:
    """Remove each ``__pycache__`` (a folder, or whatever stands in its place): a reused
    environment never runs bytecode an earlier job left, whoever wrote it; Python compiles
    again from the verified sources what the gate imports."""
    for cache in caches:
        if os.path.isdir(cache) and not os.path.islink(cache):
            shutil.rmtree(cache)
        else:
            os.unlink(cache)


def seal(venv: Path) -> None:
    """Write the manifest of ``venv`` (atomically: it is also the mark of a finished build)."""
    caches: list[Path] = []
    text = "".join(f"{line}\n" for line in manifest(venv, caches))
    remove_caches(caches)
    staging = venv / f"{MANIFEST}.tmp"
    fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(staging, venv / MANIFEST)


# -- the installer ----------------------------------------------------------------------------

def find_uv(root: Path, env: Mapping[str, str], key: str, lock: Path = LOCK) -> str | None:
    """A uv binary extracted, in a fresh folder under ``root`` the caller removes, from the
    pinned wheel (kept under ``root`` and checked against the pin on every use, or downloaded);
    ``None`` to install with pip."""
    import http.client
    import tempfile
    pins = read_pins(lock)
    if key not in pins:
        return _pip(f"no uv is pinned for {key} in requirements/installer.lock")
    pin = pins[key]
    home = root / f"uv-{pin.sha256[:16]}"
    kept = home / pin.wheel
    wheel = read_kept(kept) if safe_folder(home) else None
    if wheel is not None and hashlib.sha256(wheel).hexdigest() != pin.sha256:
        say(f"{kept}: sha256 {hashlib.sha256(wheel).hexdigest()}, expected {pin.sha256} "
            "(requirements/installer.lock); removed, downloading it again")
        wheel = None
    if wheel is None:
        base = env.get("AGENT_PATCH_GATE_UV_URL", "")
        url = f"{base.rstrip('/')}/{pin.wheel}" if base else pin.url
        try:
            wheel = download(url)
        except (OSError, http.client.HTTPException, ValueError) as error:  # network, status, URL
            return _pip(f"downloading {url} failed ({error})")
        actual = hashlib.sha256(wheel).hexdigest()
        if actual != pin.sha256:
            raise InstallerError(f"{pin.wheel} from {url}: sha256 {actual}, expected "
                                 f"{pin.sha256} (requirements/installer.lock); refusing to "
                                 "run it")
        root.parent.mkdir(parents=True, exist_ok=True)
        safe_folder(root, make=True)
        _keep(home, kept, wheel)
    staging = Path(tempfile.mkdtemp(prefix=".uv-", dir=root))
    binary = staging / ("uv.exe" if os.name == "nt" else "uv")
    try:
        extract_uv(wheel, binary)
        subprocess.run([str(binary), "--version"], capture_output=True, check=True, timeout=60,
                       env=clean_env(env), cwd=root, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as error:
        shutil.rmtree(staging, ignore_errors=True)
        return _pip(f"the pinned uv does not run on this machine ({error})")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return str(binary)


def _keep(home: Path, kept: Path, wheel: bytes) -> None:
    """``home`` holding only the checked wheel (written to a temporary name, then renamed)."""
    import tempfile
    if os.path.lexists(home):
        shutil.rmtree(home)
    os.mkdir(home, 0o700)
    fd, name = tempfile.mkstemp(prefix=".wheel-", dir=home)
    with os.fdopen(fd, "wb") as handle:
        handle.write(wheel)
    os.replace(name, kept)


def _pip(reason: str) -> str | None:
    say(f"installing with pip: {reason}")
    return None


def venv_key(lock: bytes, version: str, action: str) -> str:
    """The environment's name: the lock, the interpreter, the action's folder and the layout."""
    return hashlib.sha256(lock + f"{version}\n{action}\n{LAYOUT}\n".encode()).hexdigest()[:16]


def setup(root: Path, set_name: str, action: Path, env: Mapping[str, str], key: str) -> Path:
    """The interpreter of a verified environment for ``set_name`` under ``root``."""
    os.umask(0o022)
    root = Path(os.path.abspath(root))
    root.parent.mkdir(parents=True, exist_ok=True)
    safe_folder(root, make=True)
    lock = action / "requirements" / f"{set_name}.lock"
    venv = root / f"venv-{set_name}-{venv_key(lock.read_bytes(), sys.version, str(action))}"
    fd = os.open(root / ".lock", os.O_RDWR | os.O_CREAT | os.O_APPEND | NOFOLLOW, 0o600)
    try:
        _refuse(root / ".lock", os.fstat(fd), "file")
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # jobs sharing the root take turns
        if safe_folder(venv):
            problem = verify(venv)
            if problem is None:
                return venv / "bin" / "python"
            say(f"rebuilding the environment: {problem}")
        build(root, venv, lock, action, env, key)
        return venv / "bin" / "python"
    finally:
        os.close(fd)


def build(root: Path, venv: Path, lock: Path, action: Path, env: Mapping[str, str],
          key: str) -> None:
    """Make ``venv`` anew (``install``), the action's own code in it through a .pth file naming
    its folder, then its manifest."""
    if os.path.lexists(venv):
        shutil.rmtree(venv)
    install(root, venv, lock, env, key)
    if os.path.lexists(venv / ".lock"):  # uv's own lock file (mode 666): nothing to keep
        os.unlink(venv / ".lock")
    (site,) = venv.glob("lib/python3*/site-packages")
    (site / "agent_patch_gate.pth").write_text(f"{action}\n", encoding="utf-8")
    warm(root, venv, action)
    seal(venv)


#: Run by the venv's interpreter under ``-X pycache_prefix``: import what the steps import
#: (their bytecode is written under the prefix), then write the action's own modules' again as
#: checked-hash bytecode (valid while the source's bytes are the same: a self-hosted runner
#: downloads the action anew for every job, with new modification times).
WARM = """\
import importlib.util, py_compile, sys
import {imports}
top = sys.argv[1].rstrip("/") + "/gate/"
for module in list(sys.modules.values()):
    source = getattr(module, "__file__", None) or ""
    if source.startswith(top) and source.endswith(".py"):
        py_compile.compile(source, cfile=importlib.util.cache_from_source(source), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
"""


def warm(root: Path, venv: Path, action: Path) -> None:
    """The bytecode of what the action's steps import, in ``venv``/``PYCACHE``."""
    target = str(venv / "bin" / "python")
    _run([target, "-I", "-X", f"pycache_prefix={venv / PYCACHE}", "-c",
          WARM.format(imports=WARM_IMPORTS), str(action)], clean_env(os.environ), root)


def install(root: Path, venv: Path, lock: Path, env: Mapping[str, str], key: str) -> None:
    """A venv with no pip and no build in it, the locked wheels by hash (wheels only, no
    resolver: the lock is complete), nothing compiled (the bytecode Python writes while the
    gate runs is removed at the next reuse: ``remove_caches``). Every process it starts runs
    isolated (``-I``, no ``PYTHON*`` variable) in the root, not the workspace."""
    plain = clean_env(env)
    python = sys.executable
    made = subprocess.Popen([python, "-I", "-m", "venv", "--without-pip", str(venv)],
                            env=plain, cwd=root, stdin=subprocess.DEVNULL)
    try:
        uv = find_uv(root, env, key)  # fetched while the venv is made
    finally:
        made_status = made.wait()
    flags = ["--require-hashes", "--only-binary", ":all:", "--no-deps", "-r", str(lock)]
    target = str(venv / "bin" / "python")
    try:
        if made_status:
            raise InstallerError(f"`{python} -m venv {venv}` exited {made_status}")
        if uv:
            say("installing with the uv pinned in requirements/installer.lock")
            sources, source_flags = uv_source(env)
            _run([uv, "pip", "install", "--no-config", "--quiet", "--no-progress", "--no-cache",
                  "--python", target, *source_flags, *flags],
                 {**plain, **sources, "UV_PYTHON_DOWNLOADS": "never"}, root)
        elif subprocess.run([python, "-I", "-m", "pip", "--python", target, "install",
                             "--quiet", "--disable-pip-version-check", "--no-input",
                             "--no-compile", *flags],
                            env=plain, cwd=root, stdin=subprocess.DEVNULL).returncode:
            # an interpreter without pip, or a pip older than 22.3 (no --python)
            _run([python, "-I", "-m", "venv", "--clear", str(venv)], plain, root)
            _run([target, "-I", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                  "--no-input", "--no-compile", *flags], plain, root)
    finally:
        if uv:
            shutil.rmtree(Path(uv).parent, ignore_errors=True)


def _run(argv: list[str], env: Mapping[str, str], cwd: Path) -> None:
    status = subprocess.run(argv, env=dict(env), cwd=cwd, stdin=subprocess.DEVNULL).returncode
    if status:
        raise InstallerError(f"`{Path(argv[0]).name} {' '.join(argv[1:3])}` exited {status}"
                             " (its own lines above say why)")


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


def pin_file(version: str, saved: str = "") -> str:
    """A new installer.lock for uv ``version``, from PyPI's JSON API (or a saved answer)."""
    import json
    import urllib.request
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
    if sys.version_info < (3, 11):  # noqa: UP036 (runs on whatever the python input names)
        say("needs Python 3.11 or newer")
        return 2
    try:
        if len(argv) in (2, 3) and argv[0] == "--pin":
            sys.stdout.write(pin_file(*argv[1:]))
            return 0
        key = this_platform()
        if len(argv) == 2 and argv[0] == "--fetch":
            print(fetch_wheel(Path(argv[1]), key))
            return 0
        if len(argv) != 3 or argv[0] != "--setup" or argv[2] not in ("stamp", "action"):
            say("usage: installer.py --setup ROOT stamp|action | --fetch FOLDER | --pin VERSION"
                " [SAVED-JSON]")
            return 2
        print(setup(Path(argv[1]), argv[2], HERE.parent, os.environ, key))
    except InstallerError as error:
        say(str(error))
        return 2
    except OSError as error:
        say(f"{error.filename or 'the venv root'}: {error.strerror or error}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
