"""Isolation levels of the sealed test command (issue 27): their order, what each promises, and
which one the observed facts make true. Pure: the facts are observed by
:mod:`gate.testrun.isolation`, which also builds the wrapped command for the level chosen here.

``none`` < ``process`` < ``namespace`` < ``user``. A level is had only when every fact it
rests on holds; ``auto`` takes the highest such level, and a level asked for by name that the
facts do not make true is refused (bad input, exit 2), never quietly lowered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gate.decide.frozen import FrozenValue

NONE = "none"
PROCESS = "process"
NAMESPACE = "namespace"
USER = "user"
#: The levels, lowest first.
LEVELS = (NONE, PROCESS, NAMESPACE, USER)
AUTO = "auto"
#: What the ``isolation`` input and ``--isolation`` accept.
CHOICES = (AUTO, *LEVELS)

#: What each level promises, one sentence each (the levels table of
#: docs/threat-model.md#isolation-levels says the same).
PROMISES = {
    NONE: ("nothing beyond the stamp's own checks: the test command runs as the job's user, "
           "and a same-user process can read or change the gate (Yama ptrace_scope 0 or no "
           "Yama, passwordless sudo, or a reachable container socket)"),
    PROCESS: ("every descendant of the test command is killed before a stamp is written, "
              "its output is fenced from the runner's workflow commands and the runner's "
              "file commands are the same after it, with Yama ptrace_scope at least 1 and no "
              "sudo or container socket; not a claim that the command cannot read or write "
              "what the job's user can"),
    NAMESPACE: ("what process promises, and the command runs in its own PID, IPC and "
                "mount namespace with no_new_privs: it sees no process outside it (the gate, "
                "the step's shell, the runner), dies whole with it, and finds the action's "
                "folder, its venv, the tool cache and the stamps folder read-only and the "
                "runner's file commands, the signing key file and container sockets "
                "read-only or absent; the job's home, every folder of its user on PATH and "
                "the workspace's .git are read-only (HOME is a private folder of its own, "
                "removed after), so nothing it writes there runs in a later step"),
    USER: ("what namespace promises, and the command runs as another user who has no sudo "
           "and no container socket, so nothing of the job's user is writable to it but the "
           "workspace"),
}

#: How the namespace is made (recorded in the stamp beside the level).
BWRAP = "bwrap"
UNSHARE = "unshare"
SUDO_UNSHARE = "sudo-unshare"


class Facts(FrozenValue):
    """What :func:`gate.testrun.isolation.observe` saw on this machine, for the command's
    user (the job's user)."""

    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "ptrace_scope", "bwrap", "unshare", "root", "sudo", "sockets", "userns_restricted",
        "other_user", "other_user_problem",
    )
    #: ``kernel.yama.ptrace_scope``; None without Yama (the kernel's own rule: a same-user
    #: process may attach, as with 0).
    ptrace_scope: int | None
    #: bubblewrap is installed and a sandbox with its own PID namespace started.
    bwrap: bool
    #: util-linux ``unshare`` and ``setpriv`` are installed (and, where the gate is root or
    #: has passwordless sudo, a PID and mount namespace started through them).
    unshare: bool
    #: The gate runs as root (may make namespaces itself).
    root: bool
    #: ``sudo -n true`` succeeded: the job's user has passwordless sudo.
    sudo: bool
    #: Container sockets (docker, containerd, podman) the job's user can connect to.
    sockets: tuple[str, ...]
    #: ``kernel.apparmor_restrict_unprivileged_userns`` (None where the kernel has none).
    userns_restricted: bool | None
    #: The other user the ``user`` level runs as (``--isolation-user``), or None.
    other_user: str | None
    #: Why that user cannot be used (sudo, a socket, the workspace), or None when it can.
    other_user_problem: str | None

    def __init__(self, ptrace_scope: int | None, bwrap: bool, unshare: bool, root: bool,
                 sudo: bool, sockets: tuple[str, ...] = (), userns_restricted: bool | None = None,
                 other_user: str | None = None, other_user_problem: str | None = None) -> None:
        self._set(ptrace_scope=ptrace_scope, bwrap=bwrap, unshare=unshare, root=root, sudo=sudo,
                  sockets=sockets, userns_restricted=userns_restricted, other_user=other_user,
                  other_user_problem=other_user_problem)


class Level(FrozenValue):
    """A level the facts make true, and how (``by``: :data:`BWRAP`, :data:`UNSHARE`,
    :data:`SUDO_UNSHARE`, or None below ``namespace``)."""

    __slots__ = ("level", "by")  # noqa: RUF023 - field order
    level: str
    by: str | None

    def __init__(self, level: str, by: str | None) -> None:
        self._set(level=level, by=by)


def rank(level: str) -> int:
    return LEVELS.index(level)


def namespace_by(facts: Facts) -> str | None:
    """How a namespace can be made here: bubblewrap when its sandbox starts, else util-linux
    ``unshare`` as root, or through passwordless sudo; None when none can."""
    if facts.bwrap:
        return BWRAP
    if facts.unshare and facts.root:
        return UNSHARE
    if facts.unshare and facts.sudo:
        return SUDO_UNSHARE
    return None


def why_not(level: str, facts: Facts) -> str | None:
    """Why ``level`` cannot be had on these facts (with the fix), or None when it can."""
    if level == NONE:
        return None
    if level == PROCESS:
        if facts.ptrace_scope is None or facts.ptrace_scope < 1:
            scope = ("the kernel has no Yama" if facts.ptrace_scope is None
                     else "kernel.yama.ptrace_scope is 0")
            return (f"{scope}, so a same-user process can attach to the gate and the runner "
                    "(fix: sysctl kernel.yama.ptrace_scope=1, or a namespace level)")
        if facts.sudo:
            return ("the job's user has passwordless sudo, which the command can use "
                    "(fix: a namespace level, whose no_new_privs stops sudo)")
        if facts.sockets:
            return (f"the container socket {facts.sockets[0]} is reachable: a container the "
                    "command starts through it is no descendant (fix: a namespace level, "
                    "which hides it)")
        return None
    if namespace_by(facts) is None:
        if facts.unshare and not facts.sudo:
            how = "util-linux unshare needs root or passwordless sudo, which the job lacks"
        else:
            how = "neither bubblewrap nor util-linux unshare and setpriv is installed"
        restricted = (" (unprivileged user namespaces are restricted: "
                      "kernel.apparmor_restrict_unprivileged_userns is 1)"
                      if facts.userns_restricted else "")
        return (f"no namespace can be made: {how}{restricted} (fix: apt-get install "
                "bubblewrap, or run the job with passwordless sudo as hosted runners do)")
    if level == NAMESPACE:
        return None
    if facts.other_user is None:
        return ("no other user is named (fix: --isolation-user NAME, the action's "
                "isolation-user input: a user without sudo or container sockets)")
    return facts.other_user_problem


def choose(asked: str, facts: Facts) -> Level:
    """The level in force: ``auto`` takes the highest level :func:`why_not` allows; a level
    asked for by name is that level, or :class:`Unavailable` naming why not and the fix."""
    if asked == AUTO:
        level = next(lvl for lvl in reversed(LEVELS) if why_not(lvl, facts) is None)
    else:
        reason = why_not(asked, facts)
        if reason is not None:
            raise Unavailable(asked, reason)
        level = asked
    return Level(level, namespace_by(facts) if rank(level) >= rank(NAMESPACE) else None)


class Unavailable(Exception):
    """A level asked for by name that the facts do not make true."""

    def __init__(self, level: str, reason: str) -> None:
        self.level = level
        self.reason = reason
        super().__init__(f"isolation {level} cannot be had: {reason}")


def below(found: str | None, required: str) -> bool:
    """Is a stamp set at level ``found`` (None: it records none, an older gate's) below the
    level ``required``?"""
    return rank(found or NONE) < rank(required)


def lowest(found: Iterable[str | None]) -> str:
    """The lowest level of a class's stamps (a stamp recording none counts as ``none``)."""
    return min((level or NONE for level in found), key=rank, default=NONE)


def summary_line(by_class: Mapping[str, Iterable[str | None]],
                 signed: Mapping[str, bool]) -> str:
    """The job summary's line on the levels the stamp jobs ran at, per class: the lowest level
    of its stamps, and whether it counts (a class required signed: its verified stamp set
    vouches for it) or is only claimed (unsigned: what the job that wrote it says)."""
    parts = []
    for server_class, levels in sorted(by_class.items()):
        level = lowest(levels)
        how = ("signed" if signed.get(server_class)
               else "claimed, unsigned: counts only inside a signed stamp set")
        parts.append(f"{server_class} ran at {level} ({how})")
    return "isolation: " + "; ".join(parts) + " (docs/threat-model.md#isolation-levels)"
