"""``gate halt hook``: the halt gate as an agent command-line tool's pre-tool-use hook.

The agent tool runs ``gate halt hook --ledger L ...`` before a tool call and writes one JSON
object describing the call on its standard input. Exit 0 lets the call go; exit 2 blocks it,
with the reason as one line on standard error (the common hook convention: the agent sees
the reason). Nothing is printed on standard output.

**Fields read** (all names configurable, see ``gate halt hook --help``):

* ``tool_name`` (``--tool-name-field``): a non-empty string; used in the reason only.
* ``tool_input`` (``--input-field``): a JSON object, the tool's arguments.
* the attempt id: the first present of ``tool_use_id``, ``attempt_id`` (``--attempt-id-fields``);
  a non-empty string of at most 256 characters, unique per attempted call. ``session_id`` is
  deliberately not a default: it is the same for every call of a session.
* the target: the fields ``url``, ``uri``, ``host``, ``hostname`` of ``tool_input``
  (``--host-fields``; a dotted name such as ``request.url`` reads a nested object). Every one
  present must be a string, and all present must name the same host. A value containing
  ``://`` (or starting with ``//``) is a URL: the host is ``urllib.parse``'s ``hostname``
  (lower case; a port is ignored, but a port that is not a number blocks). Any other value is
  a bare host name (lower-cased). Refused outright, before any decision: user info (``@``) in
  a URL's authority, a backslash, white space, control or non-ASCII characters anywhere in the
  value (parsers disagree about those; the call would not go where it seems to).
  Other fields of the input (``session_id``, ``cwd``, ``hook_event_name``, ...) are ignored.

**What is decided.** The run's binding comes from ``--binding B.json`` (the binding the worker
was issued; its generation is the issued generation) or, without it, from the issuer's record
in the ledger: the current binding of ``--run-id R``, or of the only run in the ledger. The
attempted binding is that binding with its host replaced by the call's target host; it is
checked with :meth:`gate.records.ledger.Ledger.check` (SPEC §2), which appends the decision to the
ledger against the attempt id. So a call to the minted fixture host of the current generation
is ALLOWed; another host halts when it is not a closed fixture (live, look-alikes, IP literals)
and is rejected when it is a fixture host other than the minted one (a swapped host); a stale
``--binding`` is rejected. A call whose target cannot be read is recorded with an empty host
(which the table halts) when the attempt id and binding are known; without an attempt id or a
binding nothing can be recorded and the call is just blocked. A replayed ALLOW (the same attempt
id checked before) is blocked too: one attempt id, at most one call (see :mod:`gate.agent.guard`).

**Fails closed.** Unparsable input (not UTF-8, not JSON, duplicate keys, larger than 1 MiB),
a missing or mistyped field, a missing ledger, any error while deciding, and the hook's own
time limit (``--timeout``, default 10 s: a timer interrupts the main thread, and a watchdog
thread ends the process one second later if that did not work) all exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import signal
import sys
import threading
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO, Any

from gate.decide import halt
from gate.errors import GateInputError

ALLOW_EXIT, BLOCK_EXIT = 0, 2
MAX_INPUT_BYTES = 1024 * 1024
DEFAULT_TIMEOUT = 10.0
DEFAULT_TOOL_NAME_FIELD = "tool_name"
DEFAULT_INPUT_FIELD = "tool_input"
DEFAULT_ATTEMPT_ID_FIELDS = ("tool_use_id", "attempt_id")
DEFAULT_HOST_FIELDS = ("url", "uri", "host", "hostname")
_REFUSED_CHARS = frozenset("\\")


@dataclass(frozen=True, slots=True)
class HookConfig:
    """Which fields of the hook input are read."""

    tool_name_field: str = DEFAULT_TOOL_NAME_FIELD
    input_field: str = DEFAULT_INPUT_FIELD
    attempt_id_fields: tuple[str, ...] = DEFAULT_ATTEMPT_ID_FIELDS
    host_fields: tuple[str, ...] = DEFAULT_HOST_FIELDS


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call as read from the hook input."""

    tool_name: str
    attempt_id: str
    host: str | None  # None: no readable target (then ``problem`` says why)
    problem: str = ""


class Blocked(Exception):
    """The call is blocked before (or without) a decision; the message is the reason."""


class _TimeLimit(BaseException):
    """Raised in the main thread when the hook's own time limit passes."""


# --- reading the input (pure) -------------------------------------------------------------------


def _field(record: Mapping[str, Any], dotted: str) -> tuple[bool, Any]:
    value: Any = record
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return False, None
        value = value[part]
    return True, value


def target_host(value: str) -> str:
    """The host a URL or bare host value names; :class:`Blocked` when it cannot be trusted."""
    if not value:
        raise Blocked("empty target")
    if not value.isascii() or any(not ch.isprintable() or ch.isspace() for ch in value):
        raise Blocked("target holds white space, control or non-ASCII characters")
    if _REFUSED_CHARS & set(value):
        raise Blocked("target holds a backslash")
    if "://" not in value and not value.startswith("//"):
        return halt.host_key(value)
    try:
        parts = urllib.parse.urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError as exc:
        raise Blocked(f"unparsable URL: {exc}") from None
    if "@" in parts.netloc:
        raise Blocked("URL carries user info (@) in its authority")
    if not parts.hostname:
        raise Blocked("URL has no host")
    return halt.host_key(parts.hostname)


def read_call(data: bytes, config: HookConfig) -> Call:
    """Parse the hook input; :class:`Blocked` when a required field is missing or malformed."""
    from gate.records.files import parse_json

    if len(data) > MAX_INPUT_BYTES:
        raise Blocked(f"input larger than {MAX_INPUT_BYTES} bytes")
    try:
        record = parse_json(data, "stdin")
    except GateInputError as exc:
        raise Blocked(f"input is not valid JSON: {exc.message}") from None
    if not isinstance(record, dict):
        raise Blocked("input is not a JSON object")
    tool_name = record.get(config.tool_name_field)
    if not isinstance(tool_name, str) or not tool_name:
        raise Blocked(f"field {config.tool_name_field!r} missing or not a non-empty string")
    attempt_id: Any = None
    for name in config.attempt_id_fields:
        if name in record:
            attempt_id = record[name]
            break
    if not isinstance(attempt_id, str) or not attempt_id or len(attempt_id) > 256:
        raise Blocked(f"no attempt id: none of {', '.join(config.attempt_id_fields)} is a "
                      "non-empty string of at most 256 characters")
    tool_input = record.get(config.input_field)
    if not isinstance(tool_input, dict):
        return Call(tool_name, attempt_id, None,
                    f"field {config.input_field!r} missing or not an object")
    hosts: set[str] = set()
    try:
        for name in config.host_fields:
            found, value = _field(tool_input, name)
            if not found:
                continue
            if not isinstance(value, str):
                raise Blocked(f"{config.input_field}.{name} is not a string")
            hosts.add(target_host(value))
    except Blocked as exc:
        return Call(tool_name, attempt_id, None, str(exc))
    if not hosts:
        return Call(tool_name, attempt_id, None,
                    f"no target host: none of {', '.join(config.host_fields)} in "
                    f"{config.input_field}")
    if len(hosts) > 1:
        return Call(tool_name, attempt_id, None,
                    f"fields name different hosts: {', '.join(sorted(hosts))}")
    return Call(tool_name, attempt_id, hosts.pop())


# --- deciding (ledger I/O) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    code: int
    message: str  # one line for stderr; empty on allow


def _run_binding(book: Any, binding_path: Path | None, run_id: str | None) -> halt.Binding:
    from gate.records import load as records

    if binding_path is not None:
        return halt.Binding.from_record(records.load_binding(binding_path))
    current: dict[str, halt.Binding] = book.current_bindings()
    if run_id is not None:
        if run_id not in current:
            raise Blocked(f"run {run_id!r} has no binding in the ledger")
        return current[run_id]
    if len(current) != 1:
        raise Blocked(f"the ledger holds {len(current)} runs; give --run-id or --binding")
    return next(iter(current.values()))


def decide(data: bytes, book: Any, config: HookConfig, binding_path: Path | None = None,
           run_id: str | None = None) -> Verdict:
    """Read the call, decide it against the run's binding, record it: the whole hook."""
    from gate.records.files import is_regular_file
    from gate.records.ledger import Ledger

    assert isinstance(book, Ledger)
    call = read_call(data, config)
    where = f"tool {call.tool_name}, attempt {call.attempt_id}"
    if not is_regular_file(book.path):
        raise Blocked(f"no ledger at {book.path}")
    bound = _run_binding(book, binding_path, run_id)
    attempted = dataclasses.replace(bound, host=call.host if call.host is not None else "")
    result = book.check(attempted, bound.generation, call.attempt_id)
    if call.host is None:
        return Verdict(BLOCK_EXIT, f"blocked: {call.problem} ({where})")
    if result.decision is not halt.Decision.ALLOW:
        return Verdict(BLOCK_EXIT, f"{result.decision.value} (row {result.row}): "
                                   f"{result.reason} ({where}, host {call.host})")
    if result.replayed:
        return Verdict(BLOCK_EXIT, f"blocked: attempt already allowed once; a second call "
                                   f"would replay it ({where}, host {call.host})")
    return Verdict(ALLOW_EXIT, "")


# --- the entry point ----------------------------------------------------------------------------


def _one_line(text: str) -> str:
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return flat[:997] + "..." if len(flat) > 1000 else flat


@contextlib.contextmanager
def _time_limit(seconds: float, hard_exit: bool, stderr: IO[str]) -> Iterator[None]:
    """Interrupt the main thread after ``seconds``; end the process a second later."""
    def _expire(_signum: int, _frame: FrameType | None) -> None:
        raise _TimeLimit()

    def _watchdog() -> None:
        with contextlib.suppress(Exception):
            stderr.write(f"gate halt hook: blocked: time limit of {seconds:g}s reached\n")
            stderr.flush()
        os._exit(BLOCK_EXIT)

    armed = threading.current_thread() is threading.main_thread()
    previous: Any = None
    if armed:
        previous = signal.signal(signal.SIGALRM, _expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    dog = threading.Timer(seconds + 1.0, _watchdog) if hard_exit else None
    if dog is not None:
        dog.daemon = True
        dog.start()
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if dog is not None:
            dog.cancel()


def run(args: argparse.Namespace, stdin: IO[bytes], stderr: IO[str], *,
        hard_exit: bool = False) -> int:
    """``gate halt hook``: 0 allows, 2 blocks. Catches everything: it never fails open.

    The command line calls this with ``hard_exit=True`` (the watchdog may end the process);
    tests call it in-process with the same arguments and byte streams.
    """
    code = BLOCK_EXIT
    message = "blocked: internal error"
    try:
        with _time_limit(float(args.timeout), hard_exit, stderr):
            try:
                config = HookConfig(
                    tool_name_field=args.tool_name_field, input_field=args.input_field,
                    attempt_id_fields=_names(args.attempt_id_fields, "--attempt-id-fields"),
                    host_fields=_names(args.host_fields, "--host-fields"))
                data = stdin.read(MAX_INPUT_BYTES + 1)
                book = _ledger(args)
                verdict = decide(data, book, config,
                                 Path(args.binding) if args.binding else None, args.run_id)
                code, message = verdict.code, verdict.message
            except Blocked as exc:
                message = f"blocked: {exc}"
            except GateInputError as exc:
                message = f"blocked: {exc}"
            except _TimeLimit:
                raise
            except Exception as exc:  # fail closed on anything at all
                message = f"blocked: internal error: {type(exc).__name__}: {exc}"
    except _TimeLimit:
        code, message = BLOCK_EXIT, f"blocked: time limit of {float(args.timeout):g}s reached"
    except BaseException as exc:  # KeyboardInterrupt, SystemExit, ...: block
        code, message = BLOCK_EXIT, f"blocked: interrupted: {type(exc).__name__}"
    if code != ALLOW_EXIT:
        code = BLOCK_EXIT
        with contextlib.suppress(Exception):
            stderr.write(f"gate halt hook: {_one_line(message)}\n")
            stderr.flush()
    return code


def _names(raw: str, flag: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in raw.split(","))
    if not names or not all(names):
        raise GateInputError("gate halt hook", flag, "a comma-separated list of field names")
    return names


def _ledger(args: argparse.Namespace) -> Any:
    from gate.records import ledger, policy

    pol = policy.load(Path(args.policy) if args.policy else None)
    path = Path(args.ledger)
    halts = Path(args.halt_report) if args.halt_report else path.with_name(
        path.name + ".halts.jsonl")
    return ledger.Ledger(path, pol.halt, halts)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ledger", required=True, metavar="L")
    parser.add_argument("--policy", metavar="FILE", help="reserved scopes and marker")
    parser.add_argument("--binding", metavar="B.json",
                        help="the binding the worker was issued (default: the issuer's current "
                             "binding of --run-id, or of the only run in the ledger)")
    parser.add_argument("--run-id", metavar="R", help="the run, when the ledger holds several")
    parser.add_argument("--host-fields", default=",".join(DEFAULT_HOST_FIELDS), metavar="F,...",
                        help="fields of the tool input holding a URL or host (dotted for "
                             "nested; default: %(default)s)")
    parser.add_argument("--attempt-id-fields", default=",".join(DEFAULT_ATTEMPT_ID_FIELDS),
                        metavar="F,...", help="first present is the attempt id "
                                              "(default: %(default)s)")
    parser.add_argument("--tool-name-field", default=DEFAULT_TOOL_NAME_FIELD, metavar="F")
    parser.add_argument("--input-field", default=DEFAULT_INPUT_FIELD, metavar="F")
    parser.add_argument("--halt-report", metavar="FILE",
                        help="where halts are written for people (default: L.halts.jsonl)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help="own time limit; when it passes the call is blocked "
                             "(default: %(default)s)")


def main(args: argparse.Namespace) -> int:
    if not args.timeout > 0:
        sys.stderr.write("gate halt hook: blocked: --timeout must be a positive number\n")
        return BLOCK_EXIT
    return run(args, sys.stdin.buffer, sys.stderr, hard_exit=True)

