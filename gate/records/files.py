"""File edges: bounded, strict reading of JSON and YAML, atomic and write-once writing.

Everything read here is untrusted: sizes are capped before parsing, JSON objects with
duplicate keys are refused (which value would count is a guess), YAML anchors and aliases are
refused (no billion laughs), YAML scalars keep their JSON meaning (no implicit dates) and
no explicit tag but `!!str` is read.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import re
import stat
from pathlib import Path

from gate.errors import GateInputError
from gate.records.utf8 import refuse_lone_surrogates

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing (and tempfile, below) cost `gate halt hook` start-up
    from collections.abc import Generator, Iterable
    from typing import Any

#: Largest record file read, in bytes (override with GATE_MAX_RECORD_BYTES).
DEFAULT_MAX_RECORD_BYTES = 4 * 1024 * 1024

#: Largest report read or written, in bytes (override with GATE_MAX_REPORT_BYTES): the gate reads
#: every report it writes. A report's pairs are at most ``maxItems`` (100,000, the schema's) of
#: about 530 bytes each at their usual size (5.3 MB at 10,000 properties): 128 MiB leaves room
#: for the schema's largest count at more than twice that size. ``write_report`` refuses a
#: report over the cap, so no report the gate wrote can be refused when it reads it back.
DEFAULT_MAX_REPORT_BYTES = 128 * 1024 * 1024

#: Largest YAML file read, in bytes (override with GATE_MAX_YAML_BYTES). PyYAML's safe loader is
#: pure Python (about 7 s per MiB); policy and manifest files are small reviewed files.
DEFAULT_MAX_YAML_BYTES = 1024 * 1024

#: Deepest nesting of JSON arrays and objects accepted; deeper documents are refused before
#: ``json.loads`` (and before any recursive validation) runs.
MAX_JSON_DEPTH = 64

#: Opening a FIFO for reading blocks until a writer appears; with O_NONBLOCK the open returns
#: at once and the regular-file check that follows refuses it. Regular files ignore the flag.
NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _env_cap(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise GateInputError(name, "(env)", f"not an integer: {raw!r}") from None
    if value < 1:
        raise GateInputError(name, "(env)", "must be at least 1")
    return value


def max_record_bytes() -> int:
    return _env_cap("GATE_MAX_RECORD_BYTES", DEFAULT_MAX_RECORD_BYTES)


def max_report_bytes() -> int:
    return _env_cap("GATE_MAX_REPORT_BYTES", DEFAULT_MAX_REPORT_BYTES)


def max_yaml_bytes() -> int:
    return _env_cap("GATE_MAX_YAML_BYTES", DEFAULT_MAX_YAML_BYTES)


# --- the one way to open a file -----------------------------------------------------------------
#
# Every file the gate reads or writes (records, ledgers and their halt reports, stamps, reports,
# summaries, step outputs, state markers, pins, receipts) is opened by :func:`open_fd`. It walks
# the path one component at a time with ``openat``-style directory descriptors, each opened
# with ``O_NOFOLLOW | O_DIRECTORY``, so a symbolic link anywhere on the way, or as the final
# name, is refused rather than followed; the final file is opened with ``O_NOFOLLOW |
# O_NONBLOCK`` (a FIFO never blocks the open) and must be a regular file (``fstat``), so a FIFO,
# a device (``/dev/null``) or a socket is refused too. With ``base``, the path must stay inside
# that folder (no absolute path, no ``..``). Every refusal, and every error the operating
# system raises (a component that is a file, a name too long, an embedded NUL, bytes that are
# not text), is a :class:`GateInputError` naming the path: exit 2, never a traceback.
# tests/test_files_edge.py reads gate/'s source and fails on any other ``open``.

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _shown(path: Path | str | bytes) -> str:
    """A path as text for an error message (undecodable bytes kept visible, never raised)."""
    text = os.fsdecode(path) if isinstance(path, bytes) else str(path)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _refused(path: Path | str | bytes, message: str) -> GateInputError:
    return GateInputError(_shown(path), "(file)", message)


def _os_message(exc: OSError) -> str:
    import errno

    if exc.errno == errno.ELOOP:
        return "symbolic link refused"
    if exc.errno == errno.ENOTDIR:
        return "a component of the path is not a folder"
    if exc.errno == errno.ENXIO:
        return "not a regular file (a FIFO without a writer, a socket or a device)"
    return exc.strerror or str(exc)


def _components(path: Path | str, base: Path | str | None) -> tuple[str, list[str]]:
    """(where the walk starts, the names walked), checking the path as text first."""
    text = os.fspath(path)
    if not isinstance(text, str) or not text:
        raise _refused(path, "empty path")
    if "\x00" in text:
        raise _refused(path, "the path holds a NUL character")
    try:
        os.fsencode(text)
    except UnicodeError:
        raise _refused(path, "the path is not valid text for this file system") from None
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if base is not None:
        if text.startswith("/") or ".." in parts:
            raise _refused(path, f"escapes its folder {_shown(base)}")
        start, more = _components(base, None)
        return start, more + parts
    return ("/" if text.startswith("/") else "."), parts


def _parent_fd(path: Path | str, base: Path | str | None, make_parents: bool) -> tuple[int, str]:
    """A descriptor of the folder holding ``path`` (reached without following a link) and the
    final name. The caller closes the descriptor."""
    start, parts = _components(path, base)
    if not parts:
        raise _refused(path, "names a folder, not a file")
    try:
        fd = os.open(start, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    except OSError as exc:
        raise _refused(path, f"cannot open: {_os_message(exc)}") from None
    try:
        for name in parts[:-1]:
            try:
                nxt = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            except FileNotFoundError:
                if not make_parents:
                    raise _refused(path, "no such file") from None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o755, dir_fd=fd)
                nxt = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = nxt
    except GateInputError:
        os.close(fd)
        raise
    except OSError as exc:
        message = _os_message(exc)
        with contextlib.suppress(OSError, ValueError, UnboundLocalError):
            if stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                message = "symbolic link refused"
        os.close(fd)
        if message == "symbolic link refused":
            message = f"symbolic link on the way refused ({_shown(name)})"
        raise _refused(path, f"cannot open: {message}") from None
    except (ValueError, UnicodeError):
        os.close(fd)
        raise _refused(path, "the path is not valid for this file system") from None
    return fd, parts[-1]


def _regular_or_refuse(fd: int, path: Path | str) -> os.stat_result:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise _refused(path, "not a regular file (a FIFO, device, socket or folder)")
    return info


def open_fd(path: Path | str, flags: int = os.O_RDONLY, *, mode: int = 0o644,
            base: Path | str | None = None, make_parents: bool = False) -> int:
    """Open a regular file without following any link; the caller closes the descriptor.

    ``flags`` are ``os.open`` flags (``O_RDONLY``, ``O_WRONLY | O_CREAT | O_APPEND``, ...);
    ``O_NOFOLLOW`` and ``O_NONBLOCK`` are always added. ``make_parents`` creates missing
    folders on the way (never through a link)."""
    parent, name = _parent_fd(path, base, make_parents)
    try:
        try:
            existing = os.stat(name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            if not flags & os.O_CREAT:
                raise _refused(path, "no such file") from None
        else:
            if stat.S_ISLNK(existing.st_mode):
                raise _refused(path, "symbolic link refused")
            if not stat.S_ISREG(existing.st_mode):
                raise _refused(path, "not a regular file (a FIFO, device, socket or folder)")
        fd = os.open(name, flags | _NOFOLLOW | NONBLOCK | _CLOEXEC, mode, dir_fd=parent)
    except FileNotFoundError:
        raise _refused(path, "no such file") from None
    except OSError as exc:
        raise _refused(path, f"cannot open: {_os_message(exc)}") from None
    except (ValueError, UnicodeError):
        raise _refused(path, "the path is not valid for this file system") from None
    finally:
        os.close(parent)
    _regular_or_refuse(fd, path)
    return fd


def lexists(path: Path | str, base: Path | str | None = None) -> bool:
    """Whether anything (a file, a link, a FIFO) has this name; a path the operating system
    refuses is bad input."""
    try:
        parent, name = _parent_fd(path, base, False)
    except GateInputError as exc:
        if exc.message == "no such file":
            return False
        raise
    try:
        os.stat(name, dir_fd=parent, follow_symlinks=False)
        return True
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _refused(path, f"cannot look: {_os_message(exc)}") from None
    finally:
        os.close(parent)


def make_dir(path: Path | str) -> list[str]:
    """Create the folder ``path`` (and its parents) without following a link on the way;
    returns the names it already holds (sorted)."""
    fd, _ = _parent_fd(os.path.join(os.fspath(path), "_"), None, True)
    try:
        return sorted(os.listdir(fd))
    except OSError as exc:
        raise _refused(path, f"cannot list: {_os_message(exc)}") from None
    finally:
        os.close(fd)


def is_regular_file(path: Path | str) -> bool:
    """A regular file reached without a link (the default policy file, a ledger)."""
    try:
        os.close(open_fd(path))
        return True
    except GateInputError:
        return False


def file_size(path: Path | str) -> int:
    """Size of a regular file (0 when there is none); links and special files refused."""
    if not lexists(path):
        return 0
    fd = open_fd(path)
    try:
        return os.fstat(fd).st_size
    finally:
        os.close(fd)


def read_bytes_capped(path: Path | str, cap: int | None = None,
                      override: str | None = None) -> bytes:
    """Read a regular file of at most ``cap`` bytes (the record cap when None); anything else is
    bad input. ``override``: the variable that raises the cap, named when a file is over it."""
    limit = max_record_bytes() if cap is None else cap
    if cap is None:
        override = "GATE_MAX_RECORD_BYTES"
    fd = open_fd(path)
    try:
        info = os.fstat(fd)
        # At most limit + 1 bytes (one more shows the file is too large), read with os.read
        # sized from fstat (no buffered file object, no limit-sized buffer per small file).
        parts: list[bytes] = []
        total = 0
        want = min(limit + 1, info.st_size + 1)
        while total <= limit:
            chunk = os.read(fd, max(want - total, min(limit + 1 - total, 1 << 16)))
            if not chunk:
                break
            parts.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise _refused(path, f"cannot read: {_os_message(exc)}") from None
    finally:
        os.close(fd)
    data = parts[0] if len(parts) == 1 else b"".join(parts)
    if len(data) > limit:
        raise _refused(path, f"larger than the {limit}-byte limit"
                       + (f" (raise it with {override})" if override else ""))
    return data


def read_listed_capped(paths: Iterable[str]) -> Generator[bytes, None, None]:
    """:func:`read_bytes_capped` of each path (the record cap), in order, one as each is asked
    for (a caller that parses each file before taking the next still meets the first bad file
    first, whatever is wrong with it), for paths a folder walk has just listed as regular files
    (``os.scandir``, links and special files refused, as ``gate.records.pairing`` lists stamps:
    that listing stands in for the ``lstat`` :func:`open_fd` makes before it opens).

    Each folder is opened once: a run of paths in one folder is opened relative to that
    folder's descriptor (reached by :func:`_parent_fd`, no link followed on the way), each file
    with ``O_NOFOLLOW | O_NONBLOCK``, checked regular by ``fstat`` and read in one call sized
    from it: four system calls a file instead of two per path component. Whatever is not
    plainly a regular file within the cap read whole (a link, a FIFO, a missing or oversized
    file, a read that disagrees with ``fstat``, a name the system refuses) is read again by
    :func:`read_bytes_capped` itself, so every refusal is the one it gives."""
    flags = os.O_RDONLY | _NOFOLLOW | NONBLOCK | _CLOEXEC
    limit = -1
    folder: str | None = None
    parent = -1
    try:
        for path in paths:
            if limit < 0:
                limit = max_record_bytes()
            head, _, name = path.rpartition("/")
            if not head or name in ("", ".", ".."):
                yield read_bytes_capped(path)
                continue
            if head != folder:
                if parent >= 0:
                    os.close(parent)
                    parent, folder = -1, None
                parent, _ = _parent_fd(path, None, False)
                folder = head
            data: bytes | None = None
            try:
                fd = os.open(name, flags, dir_fd=parent)
            except (OSError, ValueError):
                fd = -1
            if fd >= 0:
                try:
                    info = os.fstat(fd)
                    if stat.S_ISREG(info.st_mode) and info.st_size <= limit:
                        chunk = os.read(fd, info.st_size + 1)
                        # fewer bytes than asked of a regular file: its end, where fstat says
                        if len(chunk) == info.st_size:
                            data = chunk
                except OSError:
                    pass
                finally:
                    os.close(fd)
            yield read_bytes_capped(path) if data is None else data
    finally:
        if parent >= 0:
            os.close(parent)


def read_all(path: Path | str) -> bytes:
    """Every byte of a regular file (a ledger, a file to pin), through :func:`open_fd`."""
    fd = open_fd(path)
    try:
        parts: list[bytes] = []
        while chunk := os.read(fd, 1 << 20):
            parts.append(chunk)
        return b"".join(parts)
    except OSError as exc:
        raise _refused(path, f"cannot read: {_os_message(exc)}") from None
    finally:
        os.close(fd)


def append_bytes(path: Path | str, data: bytes, *, make_parents: bool = True,
                 sync: bool = True) -> None:
    """Append ``data`` to a regular file (created if missing): halt reports, the job summary,
    step outputs. Links, special files and OS errors are bad input naming the file."""
    fd = open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, make_parents=make_parents)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            with contextlib.suppress(OSError):
                os.fsync(fd)
    except OSError as exc:
        raise _refused(path, f"cannot write: {_os_message(exc)}") from None
    finally:
        os.close(fd)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)  # C speed; a duplicate key shows as a shorter dict
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}")
            seen.add(key)
    return result


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# The closing quote is optional so that an unterminated string ends the scan (linear time).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (strings skipped), in C loops."""
    opened = text.count("[") + text.count("{")
    if opened <= MAX_JSON_DEPTH:
        return opened  # an upper bound, and within the limit
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


@functools.cache
def _strict_decoder() -> json.JSONDecoder:
    """What ``json.loads(text, object_pairs_hook=..., parse_constant=...)`` builds on every
    call (a decoder and its C scanner, ~3 µs: a sixth of parsing a stamp), built once."""
    return json.JSONDecoder(object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)


def parse_json(data: bytes | str, source: str) -> Any:
    """Strict JSON: UTF-8, no duplicate keys, no NaN/Infinity, bounded nesting."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        if json_depth(text) > MAX_JSON_DEPTH:
            raise GateInputError(source, "(json)",
                                 f"nesting deeper than {MAX_JSON_DEPTH} levels")
        value = _strict_decoder().decode(text)
        if _SURROGATE_ESCAPE.search(text):
            refuse_lone_surrogates(value)
        return value
    except UnicodeError:  # not UTF-8, or a \ud800-style escape that is not UTF-8 text
        raise GateInputError(source, "(json)", "not UTF-8 text") from None
    except RecursionError:
        raise GateInputError(source, "(json)", "nesting too deep") from None
    except ValueError as exc:
        raise GateInputError(source, "(json)", f"not valid JSON: {exc}") from None


def read_json(path: Path) -> Any:
    return parse_json(read_bytes_capped(path), str(path))


def parse_yaml(data: bytes, source: str) -> Any:
    """Strict YAML (gate.records.strict_yaml, imported when YAML is read)."""
    from gate.records import strict_yaml

    return strict_yaml.parse_yaml(data, source)


def read_yaml_bytes(path: Path) -> bytes:
    """A YAML file's bytes, capped at ``GATE_MAX_YAML_BYTES`` (and the record cap)."""
    return read_bytes_capped(path, min(max_yaml_bytes(), max_record_bytes()),
                             "GATE_MAX_YAML_BYTES")


def read_yaml(path: Path) -> Any:
    return parse_yaml(read_yaml_bytes(path), str(path))


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no insignificant white space, UTF-8: the bytes that get hashed."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def _temp_name(name: str) -> str:
    return f".{name}.{os.urandom(8).hex()}.tmp"  # secrets.token_hex(8), without its imports


def _write_via_temp(path: Path | str, data: bytes, place: str, durable: bool = True,
                    sync_folder: bool = True) -> None:
    """Write ``data`` to a temporary file beside ``path`` (flushed to disk unless not
    ``durable``), then put it in place with ``os.link`` (``place="once"``: fails if the name
    exists) or ``os.replace``; every step relative to the parent folder's descriptor (no link
    followed). The folder is flushed after, when ``durable`` and ``sync_folder`` (the caller
    flushes it otherwise: :func:`write_once_all`)."""
    parent, name = _parent_fd(path, None, True)
    tmp = _temp_name(name)
    try:
        try:
            existing = os.stat(name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            pass
        else:
            if place == "once":
                raise _refused(path, "already exists; never overwritten")
            if not stat.S_ISREG(existing.st_mode):
                raise _refused(path, "not a regular file (a link, FIFO, device or socket); "
                               "not replaced")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644,
                     dir_fd=parent)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                if durable:
                    os.fsync(fd)
            finally:
                os.close(fd)
            if place == "once":
                try:
                    os.link(tmp, name, src_dir_fd=parent, dst_dir_fd=parent,
                            follow_symlinks=False)
                except FileExistsError:
                    raise _refused(path, "already exists; never overwritten") from None
                os.unlink(tmp, dir_fd=parent)
            else:
                os.replace(tmp, name, src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=parent)
            raise
        if durable and sync_folder:
            with contextlib.suppress(OSError):
                os.fsync(parent)
    except OSError as exc:
        raise _refused(path, f"cannot write: {_os_message(exc)}") from None
    except (ValueError, UnicodeError):
        raise _refused(path, "the path is not valid for this file system") from None
    finally:
        os.close(parent)


def write_once(path: Path | str, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically; an existing file is never overwritten.

    The bytes go to a temporary file in the same folder, are flushed to disk, and are then
    linked into place with ``os.link``, which fails if the name exists. A crash at any point
    leaves either no file or the whole file (never a torn one under the final name).

    ``durable=False`` for scratch files in a private temporary folder that only outlive this
    process's use of them by accident (the recorder's loader and plan, ``gate init``'s
    collector): the same atomic, never-overwriting write, without the two ``fsync`` calls a
    crash-proof record needs (issue 31: ~7 ms each on the stamp leg's disk).
    """
    _write_via_temp(path, data, "once", durable)


def write_once_all(items: Iterable[tuple[Path, bytes]]) -> None:
    """:func:`write_once` for each ``(path, data)`` in order, with each folder flushed once
    after the last file linked into it instead of once per file (issue 31: a stamp leg's seven
    stamps made fourteen ``fsync`` calls, eight now). Each file's bytes are flushed before it
    is linked, as ``write_once`` does; when this returns (or raises, for the files written
    before the error), every file written is on disk under its name, as after that many
    ``write_once`` calls."""
    folders: dict[Path, Path] = {}  # a folder written into -> a file in it
    try:
        for path, data in items:
            _write_via_temp(path, data, "once", sync_folder=False)
            folders.setdefault(path.parent, path)
    finally:
        for path in folders.values():
            parent, _ = _parent_fd(path, None, False)
            try:
                with contextlib.suppress(OSError):
                    os.fsync(parent)
            finally:
                os.close(parent)


def write_replace(path: Path | str, data: bytes) -> None:
    """Atomically replace ``path`` (for reports and summaries, which are derived data)."""
    _write_via_temp(path, data, "replace")
