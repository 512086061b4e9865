"""File edges: bounded, strict reading of JSON and YAML, atomic and write-once writing.

Everything read here is untrusted: sizes are capped before parsing, JSON objects with
duplicate keys are refused (which value would count is a guess), YAML anchors and aliases are
refused (no billion laughs), and YAML scalars keep their JSON meaning (no implicit dates).
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

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing (and tempfile, below) cost `gate halt hook` start-up
    from collections.abc import Iterator
    from typing import Any

#: Largest record file read, in bytes (override with GATE_MAX_RECORD_BYTES).
DEFAULT_MAX_RECORD_BYTES = 4 * 1024 * 1024

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


def max_yaml_bytes() -> int:
    return _env_cap("GATE_MAX_YAML_BYTES", DEFAULT_MAX_YAML_BYTES)


def read_bytes_capped(path: Path | str, cap: int | None = None) -> bytes:
    """Read a regular file of at most ``cap`` bytes; anything else is bad input."""
    limit = max_record_bytes() if cap is None else cap
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | NONBLOCK)
    except FileNotFoundError:
        raise GateInputError(str(path), "(file)", "no such file") from None
    except OSError as exc:
        raise GateInputError(str(path), "(file)", f"cannot open: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GateInputError(str(path), "(file)", "not a regular file")
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
    finally:
        os.close(fd)
    data = parts[0] if len(parts) == 1 else b"".join(parts)
    if len(data) > limit:
        raise GateInputError(str(path), "(file)", f"larger than the {limit}-byte limit")
    return data


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
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return text.count("[") + text.count("{")  # an upper bound, and within the limit
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(value: Any) -> None:
    """A lone ``\\udXXX`` escape decodes to text that cannot be written back as UTF-8 (so
    it could not be hashed or reported); raise UnicodeEncodeError for it."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            node.encode("utf-8")
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def parse_json(data: bytes | str, source: str) -> Any:
    """Strict JSON: UTF-8, no duplicate keys, no NaN/Infinity, bounded nesting."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        if json_depth(text) > MAX_JSON_DEPTH:
            raise GateInputError(source, "(json)",
                                 f"nesting deeper than {MAX_JSON_DEPTH} levels")
        value = json.loads(text, object_pairs_hook=_no_duplicate_keys,
                           parse_constant=_no_constants)
        if _SURROGATE_ESCAPE.search(text):
            _refuse_lone_surrogates(value)
        return value
    except UnicodeError:  # not UTF-8, or a \ud800-style escape that is not UTF-8 text
        raise GateInputError(source, "(json)", "not UTF-8 text") from None
    except RecursionError:
        raise GateInputError(source, "(json)", "nesting too deep") from None
    except ValueError as exc:
        raise GateInputError(source, "(json)", f"not valid JSON: {exc}") from None


def read_json(path: Path) -> Any:
    return parse_json(read_bytes_capped(path), str(path))


@functools.cache
def _strict_loader() -> Any:
    """SafeLoader without aliases and without implicit timestamps (PyYAML loaded on first use:
    commands that read no YAML do not pay for importing it)."""
    import yaml

    class _StrictLoader(yaml.SafeLoader):
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

    _StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                  _construct_mapping)
    return _StrictLoader


def parse_yaml(data: bytes, source: str) -> Any:
    import yaml

    loader = _strict_loader()
    try:
        value = yaml.load(data, Loader=loader)  # noqa: S506 - strict SafeLoader subclass
        _refuse_lone_surrogates(value)  # "\ud800" in a double-quoted scalar
        return value
    except UnicodeError:
        raise GateInputError(source, "(yaml)", "not UTF-8 text") from None
    except RecursionError:
        raise GateInputError(source, "(yaml)", "nesting too deep") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(yaml)"
        problem = getattr(exc, "problem", None) or str(exc)
        raise GateInputError(source, where, f"not valid YAML: {problem}") from None


def read_yaml(path: Path) -> Any:
    return parse_yaml(read_bytes_capped(path, min(max_yaml_bytes(), max_record_bytes())),
                      str(path))


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no insignificant white space, UTF-8: the bytes that get hashed."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


@contextlib.contextmanager
def _temp_written(path: Path, data: bytes) -> Iterator[str]:
    """A temporary file beside ``path`` holding ``data``, flushed to disk; removed on error."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        yield tmp
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
    with _temp_written(path, data) as tmp:
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
    with _temp_written(path, data) as tmp:
        os.replace(tmp, path)
    _fsync_dir(path.parent)
