"""Nothing the sealed command writes to the runner's file commands is trusted (issue 27).

What a step appends to ``GITHUB_ENV``, ``GITHUB_PATH``, ``GITHUB_OUTPUT``, ``GITHUB_STATE`` or
``GITHUB_STEP_SUMMARY`` sets the environment (``BASH_ENV``, ``LD_PRELOAD``), the ``PATH``, the
outputs and the summary of the steps after it: the signing step among them. The command's
environment does not name them (:data:`gate.testrun.withheld.FILE_COMMANDS`), but the runner
keeps them in one folder it can list (``$RUNNER_TEMP/_runner_file_commands/``), so the gate
takes a :func:`snapshot` of every file the environment names and every entry of that folder
before the command, and :func:`check` after it (once nothing it started is left): any
difference is bad input, exit 2, naming the file and what changed, and no stamp is written.
The runner applies a step's file commands even when the step fails (a later step run
``if: always()`` would get them: a job-wide variable such as the first use's seal,
``AGENT_PATCH_GATE_JOB_SEAL``, among them), so :func:`check` first puts every changed file back
as it was (:func:`restore`) and removes what appeared in the folder.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Mapping

from gate.decide.frozen import FrozenValue
from gate.errors import GateInputError
from gate.testrun.withheld import FILE_COMMANDS

#: The runner's folder of file-command files, under ``RUNNER_TEMP``.
FOLDER = "_runner_file_commands"
#: How much of added bytes a message quotes.
QUOTED = 80
#: A file larger than this is compared by size and sha256, not kept (the runner's own limit
#: for a step summary is 1 MiB; a test may write a huge file into the folder).
KEPT = 8 << 20


class Seen(FrozenValue):
    """One path as it was: what it is (``file``, ``link``, ``folder``, ``other``, ``absent``),
    its file identity, and a regular file's bytes (a link's target)."""

    __slots__ = ("kind", "identity", "data", "digest")  # noqa: RUF023 - field order
    kind: str
    identity: tuple[int, int] | None
    data: bytes
    #: Of a file larger than :data:`KEPT`: its size and sha256 (``data`` is then empty).
    digest: tuple[int, str] | None

    def __init__(self, kind: str, identity: tuple[int, int] | None = None, data: bytes = b"",
                 digest: tuple[int, str] | None = None) -> None:
        self._set(kind=kind, identity=identity, data=data, digest=digest)


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    return "other"


def _see(path: str) -> Seen:
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return Seen("absent")
    except OSError as exc:
        return Seen(f"unreadable ({exc.strerror})")
    kind = _kind(status.st_mode)
    identity = (status.st_dev, status.st_ino)
    if kind == "link":
        return Seen(kind, identity, os.fsencode(os.readlink(path)))
    if kind != "file":
        return Seen(kind, identity)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        return Seen(f"unreadable ({exc.strerror})", identity)
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(KEPT + 1)
        if len(data) <= KEPT:
            return Seen(kind, identity, data)
        import hashlib

        digest = hashlib.sha256(data)
        size = len(data)
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
        return Seen(kind, identity, data[:QUOTED], (size, digest.hexdigest()))


def paths(env: Mapping[str, str]) -> list[str]:
    """The files ``env`` names as file commands, and every entry of the runner's folder."""
    named = [env[name] for name in FILE_COMMANDS if env.get(name, "").strip()]
    folder = os.path.join(env.get("RUNNER_TEMP", "").strip(), FOLDER)
    listed: list[str] = []
    if env.get("RUNNER_TEMP", "").strip():
        listed.append(folder)
        with contextlib.suppress(OSError):  # no folder: nothing listed (it is watched too)
            listed += [os.path.join(folder, name) for name in sorted(os.listdir(folder))]
    return list(dict.fromkeys(named + listed))


def snapshot(env: Mapping[str, str]) -> dict[str, Seen]:
    """Every file-command path of ``env`` as it is now."""
    return {path: _see(path) for path in paths(env)}


def _quoted(raw: bytes) -> str:
    text = "".join(chr(b) if 0x20 <= b <= 0x7E and b != 0x5C else f"\\x{b:02x}"
                   for b in raw[:QUOTED])
    return f"«{text}{'…' if len(raw) > QUOTED else ''}»"


def what_changed(before: Seen, after: Seen) -> str | None:
    """What became of one path, in words; None when it is the same."""
    if before == after:
        return None
    if before.kind == "absent":
        return f"appeared ({after.kind}, {len(after.data)} bytes: {_quoted(after.data)})"
    if after.kind == "absent":
        return f"was removed (it was a {before.kind})"
    if before.kind != after.kind or before.identity != after.identity:
        return f"was replaced by another {after.kind}"
    if before.digest is not None or after.digest is not None:
        sizes = [seen.digest[0] if seen.digest else len(seen.data) for seen in (before, after)]
        return f"its bytes changed ({sizes[0]} -> {sizes[1]} bytes)"
    if after.data.startswith(before.data):
        added = after.data[len(before.data):]
        return f"{len(added)} bytes were appended: {_quoted(added)}"
    if before.kind == "folder":
        return "changed"
    return f"its bytes changed ({len(before.data)} -> {len(after.data)} bytes)"


def _writable(folder: str) -> None:
    """Give this process's user back the right to change ``folder`` (a folder of its own,
    never followed through a link): a test of the same user may have taken it away
    (``chmod 555``), and nothing the command started is left when the gate puts things back."""
    with contextlib.suppress(OSError):
        status = os.lstat(folder)
        if stat.S_ISDIR(status.st_mode) and status.st_uid == os.geteuid():
            os.chmod(folder, stat.S_IMODE(status.st_mode) | stat.S_IRWXU)


def _unlock(path: str) -> None:
    """:func:`_writable` for the folder ``path`` and every folder below it (links not
    followed), so that it can be removed whole."""
    _writable(path)
    for top, folders, _ in os.walk(path):
        for name in folders:
            _writable(os.path.join(top, name))


def _truncated(path: str, before: Seen) -> bool:
    """A regular file that only grew past ``before``'s bytes, cut back to them in place (no
    new space needed: a test may have filled the disk); False when it is not such a file."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "r+b") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        if handle.read(len(before.data)) != before.data:
            return False
        handle.truncate(len(before.data))
    return True


def restore(path: str, before: Seen) -> bool:
    """Put ``path`` back as ``before`` saw it when that can be done: a file that only grew is
    cut back in place, another file whose bytes were kept is written anew (a temporary file
    renamed over whatever stands there now), a path that was absent is removed; the rights a
    test of the same user took away (a folder made read-only) are given back first. False
    when it cannot (a folder, a link, a file larger than :data:`KEPT`, an error)."""
    import shutil
    import tempfile

    try:
        _writable(os.path.dirname(path) or ".")
        if os.path.isdir(path) and not os.path.islink(path) and before.kind != "folder":
            _unlock(path)
            shutil.rmtree(path)
        if before.kind == "absent":
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            return True
        if before.kind != "file" or before.digest is not None:
            return False
        if _truncated(path, before):
            return True
        fd, staged = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".restore-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(before.data)
        os.replace(staged, path)
        return True
    except OSError:
        return False


def check(before: Mapping[str, Seen], env: Mapping[str, str]) -> None:
    """Bad input (exit 2) when a file-command path of ``env`` is not as ``before`` saw it, or
    a new entry is in the runner's folder: the first difference, named with the fix; every
    changed path is put back first (:func:`restore`), so the runner applies none of it."""
    after = snapshot(env)
    changed = [(path, said) for path in dict.fromkeys([*before, *after])
               if (said := what_changed(before.get(path, Seen("absent")),
                                        after.get(path, Seen("absent")))) is not None]
    kept = {path: restore(path, before.get(path, Seen("absent")))
            for path, _ in changed if before.get(path, Seen("absent")).kind != "folder"}
    if changed:
        path, said = changed[0]
        put_back = ("put back as it was" if kept.get(path)
                    else "it could not be put back" if path in kept else "")
        if put_back:
            said = f"{said} ({put_back})"
        raise GateInputError(path, "(runner file command)",
                             f"changed while the command ran: {said}; no stamps written "
                             "(what a step writes there sets the environment, PATH and "
                             "outputs of the steps after it, the signing step's among "
                             "them); fix: the install and test commands must not write "
                             "the runner's file commands (set what the tests need in the "
                             "workflow's env:)")
