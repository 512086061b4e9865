"""The namespace's mounts beyond the protected paths (issue 27): the job's home read-only,
the folders the command writes bound writable again inside it, every folder of the job's user
on ``PATH`` read-only, all in the order that makes the deepest win (:func:`mount_plan`, used
by both routes of :mod:`gate.testrun.isolation`)."""

from __future__ import annotations

import contextlib
import os
import pwd
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from gate.errors import GateInputError


def inside(path: str, folder: str) -> bool:
    """Is ``path`` the folder ``folder`` or inside it (real paths; no folder: no)?"""
    if not folder:
        return False
    real, top = os.path.realpath(path), os.path.realpath(folder).rstrip("/")
    return real == top or real.startswith(top + "/")


def existing(paths: Iterable[str]) -> list[str]:
    real = [os.path.realpath(p) for p in paths if p and os.path.exists(p)]
    return list(dict.fromkeys(p for p in real if p != "/"))


#: The XDG folders a tool writes its cache, configuration, data or state in: left out of the
#: command's environment when they name a place in the job's home (read-only inside), so the
#: tool writes below the command's own ``HOME``.
XDG_FOLDERS = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")


def home_folders(env: Mapping[str, str]) -> list[str]:
    """The job's user's home: ``HOME`` and the password database's (existing real paths, each
    once). A later step of the job looks programs up in it (``~/.local/bin``, ``~/.cargo/bin``
    first on a hosted runner's ``PATH``) and reads its configuration (``~/.gitconfig``,
    ``~/.bashrc``, ``~/.ssh``): read-only to the command inside the namespace."""
    paths = [env.get("HOME", "").strip()]
    with contextlib.suppress(KeyError):
        paths.append(pwd.getpwuid(os.getuid()).pw_dir)
    return existing(paths)


def writable_islands(env: Mapping[str, str], workspace: Path | None = None) -> list[str]:
    """What the command writes that may lie in the job's home (on a hosted runner the workspace
    and ``RUNNER_TEMP`` are under ``/home/runner/work``): the workspace, the current folder and
    ``RUNNER_TEMP`` (existing real paths, each once). Bound writable again after the home;
    the read-only paths inside them after that (:func:`mount_plan`)."""
    return existing([env.get("GITHUB_WORKSPACE", "").strip(),
                      str(workspace) if workspace is not None else "", os.getcwd(),
                      env.get("RUNNER_TEMP", "").strip()])


def _depth(path: str) -> int:
    return len(Path(path).parts)


def _nearest(path: str) -> str:
    """The nearest existing folder at or above ``path`` (a real path)."""
    while not os.path.exists(path):
        path = os.path.dirname(path)
    return os.path.realpath(path)


def _plantable(folder: str) -> bool:
    """May this process's user write in ``folder``, or make it writable (its owner may)?"""
    try:
        return os.access(folder, os.W_OK) or os.stat(folder).st_uid == os.geteuid()
    except OSError:
        return False


def mount_plan(homes: Sequence[str], islands: Sequence[str], read_only: Sequence[str],
               hidden: Sequence[str], path_lists: Iterable[str]) -> list[tuple[str, str]]:
    """The namespace's mounts, in the order they are made (by path depth, so a deeper one
    wins): ``("ro", PATH)``, ``("rw", PATH)`` or ``("hide", PATH)``.

    Read-only: the job's ``homes``, ``read_only``, and every folder on the command's and the
    job's ``PATH`` (``path_lists``) outside the writable islands, so that nothing the command
    writes is a program a later step of the job finds first (those its user may write or
    owns: not the system's); a ``PATH`` folder that does not
    exist gets its nearest existing folder bound read-only when its user may write there (it
    could be made and filled), unless that is ``/`` or holds the temporary folder: then the
    level is refused (exit 2 naming the entry and the fix). Writable again: each island inside
    a read-only one and inside no protected path (never a way back into the stamps folder or
    the action's). Hidden: ``hidden``."""
    guarded = [*read_only, *hidden]
    tops = [h for h in homes if not any(inside(h, g) for g in guarded)]
    for entry in dict.fromkeys(e for listed in path_lists for e in listed.split(os.pathsep)):
        if not entry or not os.path.isabs(entry):
            continue  # a relative entry is looked up from a step's folder: the workspace
        real = os.path.realpath(entry)
        if any(inside(real, i) for i in islands):
            continue  # the workspace's own (a venv of it): the workspace is the patch's
        if not os.path.exists(real):
            real = _nearest(real)
            if any(inside(real, i) for i in islands) or not _plantable(real):
                continue
            if real == "/" or inside(tempfile.gettempdir(), real):
                raise GateInputError(entry, "PATH", (
                    f"this folder on PATH does not exist and the command could make it in "
                    f"{real}: a program it put there would run in a later step of the job "
                    "(fix: create the folder before the gate's step, or take it off PATH)"))
        elif not _plantable(real):
            continue  # not the user's to write (a system folder)
        if real != "/" and not any(inside(real, g) for g in [*guarded, *homes]):
            tops.append(real)  # (one in a home is read-only with it)
    tops = list(dict.fromkeys(tops))
    rewritable = [i for i in islands if any(inside(i, t) and i != t for t in tops)
                  and not any(inside(i, g) for g in guarded)]
    plan = [*(("ro", t) for t in tops), *(("rw", i) for i in dict.fromkeys(rewritable)),
            *(("ro", p) for p in read_only), *(("hide", p) for p in hidden)]
    return sorted(plan, key=lambda op: _depth(op[1]))  # stable: equal depth keeps the order


def git_folders(folders: Iterable[str]) -> list[str]:
    """The git folders of ``folders`` (the workspace, the current folder), read-only inside the
    namespace: a later step's ``git`` there (actions/checkout's post step) reads their config
    (``core.fsmonitor``, ``core.hooksPath`` run programs) and runs their hooks. Each
    ``.git``; when it is a file (a worktree, a submodule), the folder its ``gitdir:`` line names
    and that folder's ``commondir`` (the main repository's, whose config and hooks a worktree
    uses) too. Paths that may not exist (the caller keeps those that do)."""
    found: list[str] = []
    for folder in folders:
        dot_git = os.path.join(folder, ".git")
        found.append(dot_git)
        if not os.path.isfile(dot_git):
            continue
        line = _first_line(dot_git)
        if line is None or not line.startswith("gitdir:"):
            continue
        gitdir = os.path.join(folder, line.removeprefix("gitdir:").strip())
        found.append(gitdir)
        common = _first_line(os.path.join(gitdir, "commondir"))
        if common is not None:
            found.append(os.path.join(gitdir, common.strip()))
    return found


def _first_line(path: str) -> str | None:
    """The first line of a small git pointer file (``.git``, ``commondir``), through the
    gate's one reader (no link followed, at most 4 KiB: the workspace's files are the
    patch's); None when it cannot be read as such."""
    from gate.records.files import read_bytes_capped

    try:
        text = read_bytes_capped(path, cap=4096).decode("utf-8")
    except (GateInputError, UnicodeDecodeError):
        return None
    return text.splitlines()[0].strip() if text.strip() else ""
