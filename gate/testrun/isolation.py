"""The seal around the test command (issue 27): observe what this machine allows
(:func:`observe`), take the level asked for (:func:`gate.decide.isolation.choose`, pure) and
wrap the command's argv for it (:meth:`Seal.wrap`).

``namespace``: the command gets its own PID, IPC and mount namespace and ``no_new_privs``,
made by bubblewrap (``--unshare-pid --unshare-ipc --die-with-parent --new-session``), else by
util-linux ``unshare --pid --fork --kill-child --mount --mount-proc --ipc`` as root or through
passwordless sudo, whose shell binds the protected paths read-only and hides the secret ones
before ``setpriv --no-new-privs`` drops back to the job's user. Inside, the action's folder,
the gate's venv and base interpreter, the tool cache, the stamps folders, the recorder's
private folder, the runner's file-command files and its own programs are read-only (the
action's folder and the gate's package not when they are in the workspace: ``uses: ./``); the
signing key file, the runner's credentials and every container socket are replaced by an empty
``/dev/null`` bind (a connect is refused), the user's runtime folder by an empty one. The
job's home, every folder of its user on ``PATH`` and the workspace's ``.git`` are read-only
too, the workspace, the current folder and ``RUNNER_TEMP`` writable again inside the home
(:func:`gate.testrun.mounts.mount_plan`), and ``HOME`` is the command's own private folder:
nothing it writes is a program or configuration a later step of the job finds. The workspace
and the rest of the file system stay as they are. The command runs below the namespace's
reaper (:data:`REAPER_SCRIPT`), which stops, names and kills every process the command left
there; when the namespace's first process (the unshare route's shell, or
bubblewrap's init) ends, the kernel kills anything left.

``user``: the same namespace through ``unshare``, and ``setpriv`` switches to another user
(``--isolation-user``) that has no sudo and reaches no container socket.
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from gate.decide import isolation as levels
from gate.decide import outcome
from gate.decide.frozen import FrozenValue
from gate.errors import GateInputError
from gate.testrun.mounts import (
    XDG_FOLDERS,
    git_folders,
    home_folders,
    mount_plan,
    writable_islands,
)
from gate.testrun.mounts import existing as _existing
from gate.testrun.mounts import inside as _inside
from gate.testrun.withheld import command_env

YAMA = Path("/proc/sys/kernel/yama/ptrace_scope")
APPARMOR_USERNS = Path("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
#: Where docker, containerd and podman listen by default (``$XDG_RUNTIME_DIR`` ones added).
SOCKETS = ("/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock",
           "/run/podman/podman.sock", "/var/run/podman/podman.sock",
           "/run/buildkit/buildkitd.sock", "/run/user/docker.sock")
RUNTIME_SOCKETS = ("docker.sock", "podman/podman.sock", "containerd/containerd.sock",
                   "docker/containerd/containerd.sock")
#: The runner's file commands (the step's files) and the folder they are listed in.
FILE_COMMANDS = ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE",
                 "GITHUB_STEP_SUMMARY")
#: Where the signing key file's path is (not a secret: the workflow names it; its bytes are):
#: the signing input, and the stamp step's copy of the path, which the gate's restart without
#: secrets keeps (gate.action.stamp.KEY_FILE_PATH).
KEY_FILES = ("GATE_SIGNING_KEY_FILE", "GATE_SIGNING_KEY_FILE_PATH")
#: The namespaces the unshare route makes, tried once (as root, or through sudo).
UNSHARE_PROBE = ("unshare", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc",
                 "--ipc", "--propagation", "private", "--", "true")
#: How long a probe (``bwrap``, ``sudo -n``) may take.
PROBE_SECONDS = 10.0


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def _runs(argv: Sequence[str]) -> bool:
    """Does ``argv`` run and exit 0 (no input, no output, :data:`PROBE_SECONDS` at most)?"""
    try:
        done = subprocess.run(list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=PROBE_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def socket_candidates(env: Mapping[str, str]) -> list[str]:
    """Every path a container socket may be at: the defaults, the ``$XDG_RUNTIME_DIR`` ones,
    and the ``unix://`` paths ``DOCKER_HOST``, ``CONTAINER_HOST`` and
    ``CONTAINERD_ADDRESS`` name. Real paths, each once."""
    paths = list(SOCKETS)
    runtime = env.get("XDG_RUNTIME_DIR", "").strip()
    if runtime:
        paths += [os.path.join(runtime, name) for name in RUNTIME_SOCKETS]
    for name in ("DOCKER_HOST", "CONTAINER_HOST", "CONTAINERD_ADDRESS"):
        value = env.get(name, "").strip()
        if value.startswith("unix://"):
            paths.append(value.removeprefix("unix://"))
        elif value.startswith("/"):
            paths.append(value)
    return list(dict.fromkeys(os.path.realpath(p) for p in paths))


def _is_socket(path: str) -> bool:
    try:
        return stat.S_ISSOCK(os.stat(path).st_mode)
    except OSError:
        return False


def reachable_sockets(env: Mapping[str, str], uid: int | None = None,
                      gids: Iterable[int] = ()) -> tuple[str, ...]:
    """The container sockets a user may connect to: this process's user (``uid`` None:
    ``os.access``), or ``uid`` with the groups ``gids`` (read from the modes)."""
    found = []
    for path in socket_candidates(env):
        if not _is_socket(path):
            continue
        if uid is None:
            if os.access(path, os.W_OK):
                found.append(path)
        elif _may_write(path, uid, set(gids)):
            found.append(path)
    return tuple(found)


def _may_write(path: str, uid: int, gids: set[int]) -> bool:
    if uid == 0:
        return True
    st = os.stat(path)
    if st.st_uid == uid:
        return bool(st.st_mode & stat.S_IWUSR)
    if st.st_gid in gids:
        return bool(st.st_mode & stat.S_IWGRP)
    return bool(st.st_mode & stat.S_IWOTH)


def _bwrap_starts() -> bool:
    """Does a bubblewrap sandbox with its own PID namespace start here (unprivileged user
    namespaces allowed, or root)?"""
    bwrap = shutil.which("bwrap")
    return bwrap is not None and _runs([bwrap, "--dev-bind", "/", "/", "--unshare-pid",
                                        "--die-with-parent", "--", "true"])


def observe(env: Mapping[str, str] | None = None, *, other_user: str | None = None,
            workspace: Path | None = None) -> levels.Facts:
    """What this machine allows the command's user (this process's): Yama, bubblewrap,
    util-linux, root or passwordless sudo, reachable container sockets, and whether
    ``other_user`` can run the ``user`` level (``workspace`` must be writable to it)."""
    env = os.environ if env is None else env
    restricted = _read_int(APPARMOR_USERNS)
    root = os.geteuid() == 0
    sudo = not root and shutil.which("sudo") is not None and _runs(["sudo", "-n", "true"])
    unshare = shutil.which("unshare") is not None and shutil.which("setpriv") is not None
    if unshare and (root or sudo):  # installed is not enough: a container without
        # CAP_SYS_ADMIN (act's, docker's default) refuses the namespaces
        unshare = _runs([*([] if root else ["sudo", "-n", "--"]), *UNSHARE_PROBE])
    facts = levels.Facts(
        ptrace_scope=_read_int(YAMA), bwrap=_bwrap_starts(), unshare=unshare, root=root,
        sudo=sudo, sockets=reachable_sockets(env),
        userns_restricted=None if restricted is None else restricted != 0)
    if other_user is None:
        return facts
    problem = user_problem(other_user, facts, workspace or Path.cwd(), env)
    return levels.Facts(**{**_fields(facts), "other_user": other_user,
                           "other_user_problem": problem})


def _fields(facts: levels.Facts) -> dict[str, Any]:
    return {name: getattr(facts, name) for name in facts.__slots__}


def _as_root(facts: levels.Facts) -> list[str] | None:
    """The prefix that runs a command as root here: none as root, ``sudo -n`` with
    passwordless sudo; None when neither."""
    if facts.root:
        return []
    if facts.sudo:
        return ["sudo", "-n", "--"]
    return None


def user_problem(name: str, facts: levels.Facts, workspace: Path,
                 env: Mapping[str, str]) -> str | None:
    """Why user ``name`` cannot run the sealed command (the ``user`` level), with the fix;
    None when it can: it exists, is neither root nor the job's user, has no sudo, reaches no
    container socket, and can write the workspace."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return f"there is no user {name!r} (fix: useradd --no-create-home {name})"
    if entry.pw_uid == 0 or entry.pw_uid == os.geteuid():
        return f"user {name!r} is root or the job's own user (fix: name another user)"
    prefix = _as_root(facts)
    if prefix is None or not facts.unshare:
        return ("switching to another user needs util-linux setpriv and root or passwordless "
                "sudo (fix: run the job with passwordless sudo, as hosted runners do)")
    gids = set(os.getgrouplist(name, entry.pw_gid))
    sockets = reachable_sockets(env, entry.pw_uid, gids)
    if sockets:
        return (f"user {name!r} can reach the container socket {sockets[0]} (fix: take it "
                "out of the socket's group, or the socket's mode lets everyone write it)")
    as_user = [*prefix, "setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
               "--init-groups", "--"]
    if _runs([*as_user, "sudo", "-n", "true"]):
        return f"user {name!r} has passwordless sudo (fix: name a user without sudo)"
    if not _runs([*as_user, "test", "-w", str(workspace)]):
        return (f"user {name!r} cannot write the workspace {workspace} (fix: setfacl -R -m "
                f"u:{name}:rwX {workspace}, or chown it)")
    key = env.get("GATE_SIGNING_KEY_FILE_PATH", "").strip()
    if key and _runs([*as_user, "test", "-r", key]):  # the one thing the user level must not
        return (f"user {name!r} can read the signing key file {key} (fix: chmod go-r it and "
                "keep it out of that user's groups, or give the key as a secret through "
                "signing-key)")
    return None


#: The runner's processes, by the name of their executable: the step's ancestors on a runner.
RUNNER_PROGRAMS = ("Runner.Worker", "Runner.Listener")
#: The runner's credentials in its folder (its registration and private key; ``.env``, a
#: self-hosted runner's settings, may hold a proxy's password).
RUNNER_CREDENTIALS = (".credentials", ".credentials_rsaparams", ".runner", ".env")


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    rest = raw[raw.rfind(b")") + 2:].split()
    return int(rest[1]) if len(rest) > 1 else None


def runner_folder() -> str | None:
    """The runner's own folder (``bin/Runner.Worker``, ``externals/node*``, its credentials),
    from this process's ancestors: the worker runs each step, the gate below it. None when no
    ancestor is the runner's (act, a terminal). The folder is the job's user's: a test could
    plant code in the ``node`` every later JavaScript step of the job runs with the job's
    tokens, or read the runner's private key."""
    pid: int | None = os.getppid()
    for _ in range(16):
        if pid is None or pid <= 1:
            return None
        try:
            exe = os.path.realpath(os.readlink(f"/proc/{pid}/exe"))
        except OSError:
            exe = ""
        if os.path.basename(exe) in RUNNER_PROGRAMS:
            return os.path.dirname(os.path.dirname(exe))
        pid = _parent(pid)
    return None


#: What the runner runs or reads when it starts again, in its folder (besides ``bin*`` and
#: ``externals*``): a test that wrote one would run in every later job of a kept runner.
RUNNER_FILES = ("run.sh", "runsvc.sh", "svc.sh", "config.sh", "env.sh", "run-helper.sh",
                "run-helper.sh.template", "safe_sleep.sh", ".path", ".env", ".service", "_diag")


def _runner_programs(root: str | None, env: Mapping[str, str]) -> list[str]:
    """The runner's own files in its folder ``root``: its programs (``bin``, ``externals``,
    the versioned ``bin.X`` an update leaves) and :data:`RUNNER_FILES`; never a folder that
    holds ``RUNNER_TEMP`` or the workspace."""
    if root is None:
        return []
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    work = [env.get(name, "").strip() for name in ("RUNNER_TEMP", "GITHUB_WORKSPACE")]
    return [os.path.join(root, n) for n in names
            if (n.split(".")[0] in ("bin", "externals") or n in RUNNER_FILES)
            and not any(_inside(w, os.path.join(root, n)) for w in work if w)]


def protected_paths(env: Mapping[str, str], extra: Iterable[Path] = ()) -> list[str]:
    """What the sealed command finds read-only: the gate's package and the action's folder
    (``GITHUB_ACTION_PATH``, every action under ``_actions``), the gate's venv and the base
    interpreter it was built from (and every venv of a root kept between jobs,
    ``AGENT_PATCH_GATE_VENV_ROOT``), the tool cache, the gate's folder under ``RUNNER_TEMP``
    (its stamps), the runner's file commands and their folder, the runner's own programs and
    start-up files (:func:`runner_folder`: ``bin``, ``externals``, ``run.sh``, ``.path``), and
    ``extra`` (the stamps folder, the recorder's private folder). Those that exist, real
    paths, each once.

    The action's folder and the gate's package, when they are the workspace or inside it,
    are not bound: the workspace stays writable to the command (a JUnit report, a test's own
    files, this repository's example tests inside the package). In the action that is only
    ``GITHUB_ACTION_PATH`` with ``uses: ./``: the gate's package is then the copy the set-up
    step made under ``$RUNNER_TEMP/agent-patch-gate`` and sealed (requirements/seal.sh
    place), which is bound; a package in the workspace is the ``gate stamp`` command run from
    a checkout."""
    workspace = env.get("GITHUB_WORKSPACE", "").strip()
    own = [str(Path(__file__).resolve().parent.parent), env.get("GITHUB_ACTION_PATH", "").strip()]
    paths = [path for path in own if path and not _inside(path, workspace)]
    paths += [sys.prefix, sys.base_prefix]
    # the venv root a self-hosted runner keeps between jobs: every venv in it (the gate job's
    # too) and their manifests, which the next job's set-up trusts
    for name in ("RUNNER_TOOL_CACHE", "AGENT_TOOLSDIRECTORY", "AGENT_PATCH_GATE_VENV_ROOT"):
        value = env.get(name, "").strip()
        if value:
            paths.append(value)
    temp = env.get("RUNNER_TEMP", "").strip()
    if temp:
        paths += [os.path.join(temp, "agent-patch-gate"),
                  os.path.join(temp, "_runner_file_commands"),
                  os.path.join(os.path.dirname(temp.rstrip("/")), "_actions")]
    paths += [env[name] for name in FILE_COMMANDS if env.get(name, "").strip()]
    paths += _runner_programs(runner_folder(), env)
    paths += [str(p) for p in extra]
    return _existing(paths)


def runtime_folders(env: Mapping[str, str]) -> list[str]:
    """The job's user's runtime folder where systemd makes it (``/run/user/UID``, and
    ``$XDG_RUNTIME_DIR`` when it lies there) and the D-Bus session bus's socket: through them
    the user's service manager (``systemd-run --user``) or bus starts a process outside the
    command's namespaces, no descendant of the gate, that sees the job's files writable."""
    paths = [f"/run/user/{os.getuid()}"]
    runtime = env.get("XDG_RUNTIME_DIR", "").strip()
    if runtime and os.path.realpath(runtime).startswith("/run/user/"):
        paths.append(runtime)
    for part in env.get("DBUS_SESSION_BUS_ADDRESS", "").split(";"):
        for option in part.partition(":")[2].split(","):
            if option.startswith("path="):
                paths.append(option.removeprefix("path="))
    return paths


def hidden_paths(env: Mapping[str, str], extra: Iterable[Path] = ()) -> list[str]:
    """What the sealed command finds empty: every container socket that exists (reachable or
    not: a mode can change), the user's runtime folder and session bus
    (:func:`runtime_folders`), the runner's credentials (:data:`RUNNER_CREDENTIALS`), the
    signing key file (:data:`KEY_FILES`), ``extra``. A path
    inside a hidden folder is left out (the folder's empty mount already hides it)."""
    paths = [p for p in socket_candidates(env) if os.path.lexists(p)]
    paths += runtime_folders(env)
    runner = runner_folder()
    if runner is not None:
        paths += [os.path.join(runner, name) for name in RUNNER_CREDENTIALS]
    for name in KEY_FILES:
        key = env.get(name, "").strip()
        if key:
            paths.append(key)
    paths += [str(p) for p in extra]
    found = _existing(paths)
    folders = [p for p in found if os.path.isdir(p)]
    return [p for p in found if not any(p != f and _inside(p, f) for f in folders)]


#: Where the wrappers are looked for first (then on PATH): the system's folders, which no test
#: can write; the folders of the job's user that come first on a runner's PATH can.
SYSTEM_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
#: The programs the namespace routes run by path (found when the seal is made).
WRAPPERS = ("bwrap", "unshare", "setpriv", "sudo", "env", "mount", "chown", "rm")


def wrapper_paths() -> tuple[tuple[str, str], ...]:
    """Each of :data:`WRAPPERS` found here and now (system folders first, then PATH), as
    (name, path). Taken when the seal is made, before the install command (the pull request's
    code, which may write a folder of the job's user on PATH) runs: the test command's
    wrappers, and the programs the root shell runs, are never looked up after it."""
    found = ((name, shutil.which(name, path=SYSTEM_PATH) or shutil.which(name))
             for name in WRAPPERS)
    return tuple((name, path) for name, path in found if path)


#: The shell ``unshare`` runs as root inside the new namespaces: each ``ro:PATH`` is bound
#: read-only on itself, each ``rw:PATH`` (a writable island in a read-only home) writable on
#: itself, in the order given (:func:`mount_plan`: a deeper path after), each ``hide:PATH``
#: gets ``/dev/null`` (a file) or an empty read-only tmpfs (a folder) bound over it, then the
#: recorder's channel (given as standard input: sudo closes every other descriptor) goes back
#: to descriptor 3 and ``setpriv`` drops to the user with no_new_privs, no capabilities and no
#: way back. The shell stays the namespace's first
#: process (the command is not: a PID 1 ignores its own SIGKILL) and exits with the command's
#: status, 128+N for a signal N, as bubblewrap does (:meth:`Seal.result`).
UNSHARE_SCRIPT = r"""set -eu
uid=$1 gid=$2 channel=$3 mount=$4 setpriv=$5
shift 5
while [ "$1" != -- ]; do
  case $1 in
    ro:*) p=${1#ro:}; "$mount" --bind "$p" "$p"; "$mount" -o remount,bind,ro "$p" ;;
    rw:*) p=${1#rw:}; "$mount" --bind "$p" "$p"; "$mount" -o remount,bind,rw "$p" ;;
    hide:*) p=${1#hide:}
      if [ -d "$p" ]; then "$mount" -t tmpfs -o ro,size=4k,mode=0555 gate-hidden "$p"
      else "$mount" --bind /dev/null "$p"; fi ;;
  esac
  shift
done
shift
if [ "$channel" = yes ]; then exec 3>&0 0</dev/null; fi
"$setpriv" --reuid="$uid" --regid="$gid" --init-groups --no-new-privs \
  --inh-caps=-all --bounding-set=-all -- "$@"
"""
#: The namespace's reaper, run as the user inside it (both routes): runs the command, then
#: stops every process the command left in the namespace (SIGSTOP, pass after pass over
#: ``/proc`` until a pass finds none it has not stopped: a stopped process forks no more, so a
#: fork loop cannot keep one step ahead of it; no pass forks), names each on stderr and kills
#: it, then kills and names any still there until none is left (at most ~5 s: the kernel kills
#: what remains when the namespace ends), says how many it killed, and exits with the
#: command's status. Left alone: the namespace's first process (1), the reaper itself and its
#: own helpers (its children), zombies (already ended). The names are escaped: at most 200
#: printable characters. The shell's own stderr is /dev/null (its "Killed" notice is not the
#: command's output).
REAPER_SCRIPT = r"""
exec 9>&2 2>/dev/null
(exec "$@" 9>&-) 2>&9
status=$?
me=$$
live() {  # is /proc/$1 a live process of the command's (not 1, not this shell or its own)?
  case $1 in 1|$me) return 1 ;; esac
  read -r stat < "/proc/$1/stat" || return 1
  set -- ${stat##*)}
  [ "$1" != Z ] && [ "$1" != X ] && [ "$2" != "$me" ]
}
stopped=' '
passes=0
while [ $passes -lt 100000 ]; do
  passes=$((passes + 1))
  new=
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    case $stopped in *" $pid "*) continue ;; esac
    live "$pid" || continue
    kill -STOP "$pid" && stopped="$stopped$pid " && new=1
  done
  [ -n "$new" ] || break
done
killed=0
named=' '
end() {  # name and kill one process (once)
  case $named in *" $1 "*) kill -9 "$1"; return ;; esac
  line=$(tr '\0' ' ' < "/proc/$1/cmdline" | LC_ALL=C tr -c '[:print:]' '?' | cut -c1-200)
  if kill -9 "$1"; then
    named="$named$1 "
    killed=$((killed + 1))
    echo "agent-patch gate: killed pid $1 in the command's namespace, left running by" \
      "the command: $line" >&9
  fi
}
for pid in $stopped; do
  live "$pid" && end "$pid"
done
rounds=0
while [ $rounds -lt 500 ]; do
  left=
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    live "$pid" && left="$left $pid"
  done
  [ -n "$left" ] || break
  for pid in $left; do end "$pid"; done
  rounds=$((rounds + 1))
  sleep 0.01
done
if [ $killed -gt 0 ]; then
  echo "agent-patch gate: killed $killed process(es) in the command's namespace, every one" \
    "left running by the command" >&9
fi
exit $status
"""
#: The descriptor the recorder's channel has inside the ``unshare`` route.
UNSHARE_CHANNEL_FD = 3


class Wrapped(FrozenValue):
    """The command as it is started: argv, environment, and the descriptor given as its
    standard input (the recorder's channel on the ``unshare`` routes), or None."""

    __slots__ = ("argv", "env", "stdin")
    argv: list[str]
    env: dict[str, str]
    stdin: int | None

    def __init__(self, argv: list[str], env: dict[str, str], stdin: int | None = None) -> None:
        self._set(argv=argv, env=env, stdin=stdin)


class Seal(FrozenValue):
    """The level in force and what it binds: :meth:`wrap` builds the command for it,
    :meth:`record` is what each stamp records."""

    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "level", "ptrace_scope", "facts", "read_only", "hidden", "other_user", "tools",
        "tests_venv", "homes", "islands", "home",
    )
    level: levels.Level
    ptrace_scope: int | None
    facts: levels.Facts
    read_only: tuple[str, ...]
    hidden: tuple[str, ...]
    other_user: str | None
    #: The wrappers' paths (:func:`wrapper_paths`), found when the seal is made.
    tools: tuple[tuple[str, str], ...]
    #: The tests' venv (:func:`gate.testrun.running.with_tests_venv`): first on the command's
    #: ``PATH`` and its ``VIRTUAL_ENV``, or None.
    tests_venv: str | None
    #: The job's user's home folders (:func:`gate.testrun.mounts.home_folders`): read-only
    #: inside the namespace.
    homes: tuple[str, ...]
    #: What stays writable in them (:func:`gate.testrun.mounts.writable_islands`: the
    #: workspace, ``RUNNER_TEMP``, the current folder), bound again after them.
    islands: tuple[str, ...]
    #: The command's own ``HOME`` (:func:`gate.testrun.running.with_home`): a fresh private
    #: folder, writable, removed after the run; or None (``HOME`` unchanged).
    home: str | None

    def __init__(self, level: levels.Level, ptrace_scope: int | None, facts: levels.Facts,
                 read_only: tuple[str, ...] = (), hidden: tuple[str, ...] = (),
                 other_user: str | None = None, tools: tuple[tuple[str, str], ...] | None = None,
                 tests_venv: str | None = None, homes: tuple[str, ...] = (),
                 islands: tuple[str, ...] = (), home: str | None = None) -> None:
        self._set(level=level, ptrace_scope=ptrace_scope, facts=facts, read_only=read_only,
                  hidden=hidden, other_user=other_user,
                  tools=wrapper_paths() if tools is None else tools,  # found when made
                  tests_venv=tests_venv, homes=homes, islands=islands, home=home)

    def replace(self, **changes: Any) -> Seal:
        new: Seal = super().replace(**changes)
        return new

    @property
    def namespaced(self) -> bool:
        """Does the command get its own PID namespace (``namespace`` or ``user``)?"""
        return levels.rank(self.level.level) >= levels.rank(levels.NAMESPACE)

    def record(self) -> dict[str, Any]:
        """The stamp's ``isolation`` object: the level, how it was made, and Yama."""
        return {"level": self.level.level, "by": self.level.by,
                "ptrace_scope": self.ptrace_scope}

    def hides(self, path: str | os.PathLike[str]) -> bool:
        """Is the file at ``path`` out of the command's reach at this level: bound over by
        ``/dev/null`` inside the namespace (the key file, a socket)? For the stamp step's
        refusal of a key file (``signing-key-file``)."""
        return self.namespaced and os.path.realpath(path) in self.hidden

    def share(self, folder: Path) -> None:
        """At the ``user`` level, make ``folder`` (the recorder's private folder: its loader
        and plan, nothing secret) readable to the other user, which runs the command; it
        stays read-only to it (bound so inside). Nothing below ``user``."""
        if self.other_user is None:
            return
        for path in (folder, *folder.rglob("*")):
            if path.is_symlink():
                continue
            os.chmod(path, 0o755 if path.is_dir() else 0o644)

    def reads_only(self, path: str | os.PathLike[str]) -> bool:
        """Is ``path`` (its folder's real path, a link's own place) read-only to the command at
        this level: is the deepest of the namespace's mounts it lies in (the job's home, a
        folder on ``PATH``, a protected path; :func:`gate.testrun.mounts.mount_plan`) a
        read-only one?"""
        real = os.path.realpath(path)
        if not self.namespaced:
            return False
        plan = mount_plan(self.homes, self.islands, self.read_only, self.hidden,
                          [os.environ.get("PATH", os.defpath)])
        covering = [kind for kind, top in plan if _inside(real, top)]
        return bool(covering) and covering[-1] != "rw"

    def give(self, folder: Path) -> None:
        """At the ``user`` level, make the fresh, empty ``folder`` (the tests' venv's) the
        other user's, which installs into it; nothing below ``user``."""
        if self.other_user is None:
            return
        entry = pwd.getpwnam(self.other_user)
        if not _runs([*self._root(), self._tool("chown"), "-h",
                      f"{entry.pw_uid}:{entry.pw_gid}", "--", str(folder)]):
            raise GateInputError(str(folder), "(folder)", f"cannot give it to user "
                                 f"{self.other_user!r} (chown as root failed)")

    def discard(self, folder: Path) -> None:
        """Remove ``folder`` (the tests' venv's), as root at the ``user`` level, where the
        other user's files are in it; what cannot be removed stays (the runner's temporary
        folder is emptied after the job)."""
        if self.other_user is not None:
            _runs([*self._root(), self._tool("rm"), "-rf", "--", str(folder)])
        shutil.rmtree(folder, ignore_errors=True)

    def result(self, proc: outcome.ProcessResult) -> outcome.ProcessResult:
        """The command's own result from the wrapper's: inside a namespace the wrapper exits
        128+N when the command was killed by signal N (bubblewrap's rule, and the shell's),
        so such a status is read as that signal, never as an exit status (a command that
        exits 129-192 by itself is read as killed: a resource exit, never a pass)."""
        code = proc.exit_code
        if not self.namespaced or code is None or not 128 < code <= 128 + 64:
            return proc
        return replace(proc, exit_code=None, signal=code - 128)

    def wrap(self, argv: Sequence[str], env: Mapping[str, str], *,
             channel_fd: int | None = None, channel_env: str | None = None,
             extra_read_only: Iterable[Path] = ()) -> Wrapped:
        """``argv`` as it runs at this level (unchanged below ``namespace``), in ``env`` (given
        to :func:`gate.testrun.running.run_command`, which withholds secrets).
        ``channel_fd``: a descriptor the command inherits, named in its environment by
        ``channel_env``; ``extra_read_only``: more paths it finds read-only (the recorder's
        private folder)."""
        env = dict(env)
        if not self.namespaced:
            return Wrapped(list(argv), env)
        job_path = env.get("PATH", os.defpath)  # what a later step of the job looks in
        if self.tests_venv is not None:  # the tests install into it and run from it
            env["PATH"] = os.pathsep.join([os.path.join(self.tests_venv, "bin"),
                                           env.get("PATH", os.defpath)])
            env["VIRTUAL_ENV"] = self.tests_venv
            env.pop("PYTHONHOME", None)
        if self.home is not None:  # the job's home is read-only inside: the command's own
            env["HOME"] = self.home
            for name in XDG_FOLDERS:  # one in the job's home would be read-only too
                value = env.get(name, "").strip()
                if value and any(_inside(value, h) for h in self.homes):
                    env.pop(name)
        if not argv or shutil.which(argv[0], path=env.get("PATH", os.defpath)) is None:
            raise GateInputError(argv[0] if argv else "(command)", "(command)",
                                 "no such command")
        read_only = [*self.read_only, *_existing(str(p) for p in extra_read_only)]
        islands = [*self.islands, *_existing(p for p in (
            self.home, self.tests_venv and os.path.dirname(self.tests_venv)) if p)]
        mounts = mount_plan(self.homes, islands, read_only, self.hidden,
                            [env.get("PATH", os.defpath), job_path])
        if self.level.by == levels.BWRAP:
            return Wrapped(self._bwrap(argv, mounts), env)
        return self._unshare(argv, env, mounts, channel_fd, channel_env)

    def _root(self) -> list[str]:
        """The prefix that runs a program as root (:func:`_as_root`), sudo by the path found
        when the seal was made (the install may since have written a ``sudo`` on PATH)."""
        prefix = _as_root(self.facts)
        if prefix is None:
            raise GateInputError("isolation", self.level.level,
                                 "the user level needs root or passwordless sudo")
        return [self._tool("sudo"), *prefix[1:]] if prefix else []

    def _tool(self, name: str) -> str:
        """The path of wrapper ``name`` found when the seal was made."""
        path = dict(self.tools).get(name)
        if path is None:
            raise GateInputError("isolation", self.level.level,
                                 f"{name} was not found (in {SYSTEM_PATH} or on PATH) when "
                                 "the level was chosen")
        return path

    def _bwrap(self, argv: Sequence[str], mounts: Sequence[tuple[str, str]]) -> list[str]:
        bwrap = self._tool("bwrap")
        # --cap-drop ALL: as root bubblewrap keeps the capabilities (CAP_SYS_ADMIN would
        # unmount the read-only binds); no_new_privs keeps them from coming back
        wrapped = [bwrap, "--dev-bind", "/", "/", "--unshare-pid", "--unshare-ipc",
                   "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--proc", "/proc"]
        if os.path.isdir("/dev/shm"):
            wrapped += ["--tmpfs", "/dev/shm"]
        for kind, path in mounts:  # bubblewrap mounts in this order: a deeper path after
            if kind == "ro":
                wrapped += ["--ro-bind", path, path]
            elif kind == "rw":
                wrapped += ["--bind", path, path]
            elif os.path.isdir(path):
                wrapped += ["--tmpfs", path, "--remount-ro", path]
            else:
                wrapped += ["--ro-bind", "/dev/null", path]
        return [*wrapped, "--", *reaped(argv)]

    def _unshare(self, argv: Sequence[str], env: dict[str, str],
                 mounts: Sequence[tuple[str, str]], channel_fd: int | None,
                 channel_env: str | None) -> Wrapped:
        prefix = _as_root(self.facts)
        if prefix is None:
            raise GateInputError("isolation", self.level.level,
                                 "the unshare route needs root or passwordless sudo")
        if self.other_user is not None:
            entry = pwd.getpwnam(self.other_user)
            uid, gid = entry.pw_uid, entry.pw_gid
        else:
            uid, gid = os.getuid(), os.getgid()
        if channel_fd is not None and channel_env is not None:
            env[channel_env] = str(UNSHARE_CHANNEL_FD)
        # setpriv --pdeathsig: unshare (root, which the job's user cannot signal) dies with
        # sudo; --kill-child: the namespace's first process dies with unshare
        inner = [self._tool("setpriv"), "--pdeathsig", "KILL", "--", self._tool("unshare"),
                 "--pid", "--fork", "--kill-child", "--mount", "--mount-proc", "--ipc",
                 "--propagation", "private", "--", "/bin/sh", "-c", UNSHARE_SCRIPT,
                 "gate-seal", str(uid), str(gid), "yes" if channel_fd is not None else "no",
                 self._tool("mount"), self._tool("setpriv"),
                 *(f"{kind}:{p}" for kind, p in mounts), "--", *reaped(argv)]
        if prefix:  # sudo resets the environment: the command's goes through env -i, with
            # nothing withheld in it (gate.testrun.withheld.command_env, as run_command's)
            inner = [self._tool("env"), "-i",
                     *(f"{k}={v}" for k, v in sorted(command_env(env).items())), *inner]
            prefix = [self._tool("sudo"), *prefix[1:]]
        return Wrapped([*prefix, *inner], env, channel_fd)


def reaped(argv: Sequence[str]) -> list[str]:
    """``argv`` under the namespace's reaper (:data:`REAPER_SCRIPT`)."""
    return ["/bin/sh", "-c", REAPER_SCRIPT, "gate-reaper", *argv]


def seal_for(asked: str, *, source: str, field_name: str, env: Mapping[str, str] | None = None,
             other_user: str | None = None, workspace: Path | None = None,
             read_only: Iterable[Path] = (), hidden: Iterable[Path] = (),
             facts: levels.Facts | None = None) -> Seal:
    """The seal for level ``asked`` (one of :data:`gate.decide.isolation.CHOICES`) on this
    machine; a level that cannot be had is bad input named by ``source`` and ``field_name``
    (the flag or the action input), with why and the fix."""
    env = os.environ if env is None else env
    if asked not in levels.CHOICES:
        raise GateInputError(source, field_name,
                             f"must be one of {', '.join(levels.CHOICES)}, not {asked!r}")
    if other_user is not None and asked not in (levels.AUTO, levels.USER):
        raise GateInputError(source, field_name,
                             f"an isolation user runs only the user level, not {asked}")
    if facts is None:
        facts = observe(env, other_user=other_user, workspace=workspace)
    try:
        level = levels.choose(asked, facts)
    except levels.Unavailable as exc:
        raise GateInputError(source, field_name, str(exc)) from None
    if level.level == levels.USER:  # the other user needs root to switch to
        level = levels.Level(level.level, levels.UNSHARE if facts.root
                             else levels.SUDO_UNSHARE)
    homes: tuple[str, ...] = ()
    islands: tuple[str, ...] = ()
    if levels.rank(level.level) >= levels.rank(levels.NAMESPACE):
        homes, islands = tuple(home_folders(env)), tuple(writable_islands(env, workspace))
        for home in homes:
            if home in islands:
                raise GateInputError(source, field_name, (
                    f"the job's home {home} is the workspace, the current folder or "
                    f"RUNNER_TEMP: at {level.level} the home is read-only to the command, so "
                    "that nothing it writes there (~/.local/bin, ~/.gitconfig) is run or read "
                    "by a later step (fix: run the gate from a folder below the home)"))
    temp = env.get("RUNNER_TEMP", "").strip()
    gits = git_folders([i for i in islands if not temp or i != os.path.realpath(temp)])
    return Seal(level, facts.ptrace_scope, facts,
                read_only=tuple(protected_paths(env, [*read_only, *map(Path, gits)])),
                hidden=tuple(hidden_paths(env, hidden)),
                other_user=other_user if level.level == levels.USER else None,
                homes=homes, islands=islands)
