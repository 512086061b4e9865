"""File edges: bounded, strict reading of JSON and YAML, atomic and write-once writing.

Everything read here is untrusted: sizes are capped before parsing, JSON objects with
duplicate keys are refused (which value would count is a guess), YAML anchors and aliases are
refused (no billion laughs), and YAML scalars keep their JSON meaning (no implicit dates).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from gate.errors import GateInputError

#: Largest record file read, in bytes (override with GATE_MAX_RECORD_BYTES).
DEFAULT_MAX_RECORD_BYTES = 4 * 1024 * 1024

#: Opening a FIFO for reading blocks until a writer appears; with O_NONBLOCK the open returns
#: at once and the regular-file check that follows refuses it. Regular files ignore the flag.
NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def max_record_bytes() -> int:
    raw = os.environ.get("GATE_MAX_RECORD_BYTES", "")
    if not raw:
        return DEFAULT_MAX_RECORD_BYTES
    try:
        value = int(raw)
    except ValueError:
        raise GateInputError("GATE_MAX_RECORD_BYTES", "(env)", f"not an integer: {raw!r}") from None
    if value < 1:
        raise GateInputError("GATE_MAX_RECORD_BYTES", "(env)", "must be at least 1")
    return value


def read_bytes_capped(path: Path, cap: int | None = None) -> bytes:
    """Read a regular file of at most ``cap`` bytes; anything else is bad input."""
    limit = max_record_bytes() if cap is None else cap
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | NONBLOCK)
    except FileNotFoundError:
        raise GateInputError(str(path), "(file)", "no such file") from None
    except OSError as exc:
        raise GateInputError(str(path), "(file)", f"cannot open: {exc.strerror}") from None
    import stat

    if not stat.S_ISREG(os.fstat(fd).st_mode):  # before fdopen, which raises on a folder
        os.close(fd)
        raise GateInputError(str(path), "(file)", "not a regular file")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise GateInputError(str(path), "(file)", f"larger than the {limit}-byte limit")
    return data


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes | str, source: str) -> Any:
    """Strict JSON: UTF-8, no duplicate keys, no NaN/Infinity, bounded nesting."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except UnicodeDecodeError:
        raise GateInputError(source, "(json)", "not UTF-8") from None
    except RecursionError:
        raise GateInputError(source, "(json)", "nesting too deep") from None
    except ValueError as exc:
        raise GateInputError(source, "(json)", f"not valid JSON: {exc}") from None


def read_json(path: Path) -> Any:
    return parse_json(read_bytes_capped(path), str(path))


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader without aliases and without implicit timestamps."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.events.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, "anchors and aliases are not allowed", event.start_mark
            )
        return super().compose_node(parent, index)


_StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    result: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise yaml.constructor.ConstructorError(
                None, None, f"mapping keys must be strings, got {key!r}", key_node.start_mark
            )
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        result[key] = loader.construct_object(value_node, deep=True)
    return result


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_yaml(data: bytes, source: str) -> Any:
    try:
        return yaml.load(data, Loader=_StrictLoader)  # noqa: S506 - strict SafeLoader subclass
    except RecursionError:
        raise GateInputError(source, "(yaml)", "nesting too deep") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(yaml)"
        problem = getattr(exc, "problem", None) or str(exc)
        raise GateInputError(source, where, f"not valid YAML: {problem}") from None


def read_yaml(path: Path) -> Any:
    return parse_yaml(read_bytes_capped(path), str(path))


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no insignificant white space, UTF-8: the bytes that get hashed."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


@contextlib.contextmanager
def _temp_beside(path: Path) -> Iterator[tuple[int, str]]:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        yield fd, tmp
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


@contextlib.contextmanager
def _write_errors(path: Path) -> Iterator[None]:
    """An OS error while writing an output file is bad input naming that file."""
    try:
        yield
    except OSError as exc:
        raise GateInputError(str(path), "(file)", f"cannot write: {exc.strerror}") from None


def write_once(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically; an existing file is never overwritten.

    The bytes go to a temporary file in the same folder, are flushed to disk, and are then
    linked into place with ``os.link``, which fails if the name exists. A crash at any point
    leaves either no file or the whole file (never a torn one under the final name).
    """
    with _write_errors(path):
        _write_once(path, data)


def _write_once(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with _temp_beside(path) as (fd, tmp):
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise GateInputError(str(path), "(file)", "already exists; never overwritten") from None
        finally:
            os.unlink(tmp)
    _fsync_dir(path.parent)


def write_replace(path: Path, data: bytes) -> None:
    """Atomically replace ``path`` (for reports and summaries, which are derived data)."""
    with _write_errors(path):
        _write_replace(path, data)


def _write_replace(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with _temp_beside(path) as (fd, tmp):
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    _fsync_dir(path.parent)
