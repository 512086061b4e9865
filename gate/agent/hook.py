"""``gate halt hook``: the halt gate as an agent command-line tool's pre-tool-use hook.

The agent CLI runs ``gate halt hook --format F --ledger L ...`` before a tool call and writes
one JSON object describing the call on its standard input. ``--format`` names the CLI whose
input shape is read and whose explicit block is answered
(docs/hooks.md#wiring-the-hook-into-an-agent-cli: the facts per CLI are in its table):

* ``generic`` (the default, and the only behaviour before ``--format``): fields
  ``tool_name``, ``tool_input`` and the attempt id (the first present of ``tool_use_id``,
  ``attempt_id``), all configurable; exit 0 allows, exit 2 blocks.
* ``claude-code`` and ``codex``: the ``PreToolUse`` input (``hook_event_name``, ``tool_name``,
  ``tool_input``, ``tool_use_id`` as the attempt id).
* ``gemini``: the ``BeforeTool`` input (no per-call id: the attempt id is the SHA-256 of the
  whole input, which carries the session and a timestamp; an identical second input is a
  replay and is blocked).
* ``cursor``: the ``preToolUse`` input (``tool_input`` an object or a JSON string;
  ``tool_use_id``, else the digest as for gemini).
* ``copilot``: a camelCase ``preToolUse`` entry (``toolName``, ``toolArgs`` as a JSON string or
  object) or a PascalCase ``PreToolUse`` entry (``tool_name``, ``tool_input``); the digest is
  the attempt id.

Cursor and Copilot are wired without a matcher (docs/hooks.md#wiring-the-hook-into-an-agent-cli:
their documented matcher rules cannot name every network tool they ship), so the hook sees every
tool call. A call of a tool in
:data:`UNCHECKED_TOOLS` (the CLI's documented tools that reach no network, and its shell, which
no hook can police) is allowed without a ledger check; every other tool name, MCP tools and
names the hook does not know included, is checked as a network call.

The answer (:func:`render`): a block is the CLI's explicit deny, a JSON decision on exit 0
where the CLI reads one (Claude Code ``hookSpecificOutput.permissionDecision: "deny"``, Gemini
``{"decision":"deny"}``, Cursor ``{"permission":"deny", ...}``, Copilot
``{"permissionDecision":"deny"}``), exit 2 otherwise (generic, Codex); the reason is also one
line on standard error. An allow prints nothing and exits 0 (the CLI's own permission flow
still applies: the gate only ever adds a block), except for Cursor, whose ``failClosed`` hooks
need ``{"permission":"allow"}``.

**The target**: the fields ``url``, ``uri``, ``host``, ``hostname`` of the tool input
(``--host-fields``; a dotted name such as ``request.url`` reads a nested object). Every one
present must be a string, and all present must name the same host; each is read by
:func:`gate.agent.target.target_host`, the function :class:`gate.agent.guard.ToolGuard` uses
too. Other fields of the input are ignored, but for a tool whose URLs are inside free text
(:data:`TEXT_URL_FIELDS`: Gemini CLI's ``web_fetch`` ``prompt``), where every URL found
(:func:`urls_in_text`) counts as a host field and none found blocks.

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
input of another CLI's shape or event, a missing or mistyped field, a missing ledger, any error
while deciding, bad usage, and the hook's own time limit (``--timeout``, default 10 s: a timer
interrupts the main thread, and a watchdog thread answers the block and ends the process, with
exit 2, one second later if that did not work) are all answered as the CLI's block.

**Start-up.** An agent pays this process for every tool call, so the module imports only what
deciding needs: no ``argparse`` (the flags are read by :func:`parse_argv`), no dataclasses, no
``typing`` at run time. A call of a tool in :data:`UNCHECKED_TOOLS` (every Read or Edit of
Cursor and Copilot) is answered by :func:`local_tool` before anything else is imported or
built: no ledger, no target reading, not even ``json``, ``re`` or ``enum`` (the time limit
uses ``_signal``); any input it is not sure of goes the whole way.

The input is read by :mod:`gate.agent.hook_input` (each CLI's shape, the target, the
local-tool prefilter: the one other module of the gate this one imports at start-up); this
module is the process: its flags, the time limit, deciding against the ledger and the answer.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal without enum: start-up
import _thread
import os
import sys

from gate.agent.hook_input import (
    DEFAULT_ATTEMPT_ID_FIELDS,
    DEFAULT_HOST_FIELDS,
    DEFAULT_INPUT_FIELD,
    DEFAULT_TOOL_NAME_FIELD,
    EVENTS,
    FORMATS,
    MAX_INPUT_BYTES,
    TEXT_INPUT_FORMATS,
    TEXT_URL_FIELDS,
    UNCHECKED_TOOLS,
    Blocked,
    Call,
    HookConfig,
    local_tool,
    read_call,
    urls_in_text,
)
from gate.errors import GateInputError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing, pathlib and the ledger cost start-up time
    from pathlib import Path
    from types import FrameType
    from typing import IO, Any

    from gate.agent.target import target_host as target_host
    from gate.decide import halt

__all__ = [  # the names from gate.agent.hook_input are named here as before they moved there
    "DEFAULT_ATTEMPT_ID_FIELDS", "DEFAULT_HOST_FIELDS", "DEFAULT_INPUT_FIELD",
    "DEFAULT_TOOL_NAME_FIELD", "EVENTS", "FORMATS", "MAX_INPUT_BYTES", "TEXT_INPUT_FORMATS",
    "TEXT_URL_FIELDS", "UNCHECKED_TOOLS", "Blocked", "Call", "HookArgs", "HookConfig", "Verdict",
    "decide", "local_tool", "main", "parse_argv", "read_call", "render", "run", "target_host",
    "urls_in_text",
]


def __getattr__(name: str) -> Any:
    """``hook.target_host`` is :func:`gate.agent.target.target_host`, imported on first use."""
    if name == "target_host":
        from gate.agent.target import target_host

        return target_host
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

ALLOW_EXIT, BLOCK_EXIT = 0, 2
DEFAULT_TIMEOUT = 10.0


class _TimeLimit(BaseException):
    """Raised in the main thread when the hook's own time limit passes."""


def _ledger_is_inert(args: Any) -> bool:
    """Would :func:`_ledger` build the ledger without reading a file or failing? (No
    ``--policy`` to load, and a ledger path ``pathlib`` can name a halt report beside.)"""
    if args.policy:
        return False
    if args.halt_report:
        return True
    name = os.path.basename(args.ledger)
    return name not in ("", ".", "..")


# --- deciding (ledger I/O) ----------------------------------------------------------------------


class Verdict:
    """The hook's answer: allowed or not, and the reason (one line; empty on allow)."""

    __slots__ = ("code", "message")

    def __init__(self, code: int, message: str) -> None:
        self.code = code  # ALLOW_EXIT or BLOCK_EXIT: the decision, not the process exit status
        self.message = message

    @property
    def allowed(self) -> bool:
        return self.code == ALLOW_EXIT


def _run_binding(book: Any, binding_path: Path | None, run_id: str | None) -> halt.Binding:
    from gate.decide import halt

    if binding_path is not None:
        from gate.records import load as records

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
    from gate.agent.target import attempted
    from gate.records.files import is_regular_file
    from gate.records.ledger import Ledger

    assert isinstance(book, Ledger)
    call = read_call(data, config)
    if call.unchecked:  # reaches no network the hook can police: no attempt to record
        return Verdict(ALLOW_EXIT, "")
    where = f"tool {call.tool_name}, attempt {call.attempt_id}"
    if not is_regular_file(book.path):
        raise Blocked(f"no ledger at {book.path}")
    bound = _run_binding(book, binding_path, run_id)
    result = book.check(attempted(bound, call.host if call.host is not None else ""),
                        bound.generation, call.attempt_id)
    if call.host is None:
        return Verdict(BLOCK_EXIT, f"blocked: {call.problem} ({where})")
    if result.decision.value != "allow":
        return Verdict(BLOCK_EXIT, f"{result.decision.value} (row {result.row}): "
                                   f"{result.reason} ({where}, host {call.host})")
    if result.replayed:
        return Verdict(BLOCK_EXIT, f"blocked: attempt already allowed once; a second call "
                                   f"would replay it ({where}, host {call.host})")
    return Verdict(ALLOW_EXIT, "")


# --- answering in the CLI's own terms -----------------------------------------------------------


def _one_line(text: str) -> str:
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return flat[:997] + "..." if len(flat) > 1000 else flat


def render(fmt: str, allowed: bool, reason: str = "") -> tuple[int, str]:
    """(exit status, standard output) of the answer, in the form ``fmt``'s CLI reads.

    A block is the CLI's explicit deny: a JSON decision on exit 0 where the CLI reads one
    (Claude Code, Gemini CLI, Cursor, Copilot), exit 2 otherwise (generic, Codex: with the
    reason on standard error, which Codex requires). An allow makes no decision of its own
    (empty output, exit 0: the CLI's own permission flow still applies), except for Cursor,
    whose ``failClosed`` hooks must print ``{"permission":"allow"}``.
    """
    if allowed:
        return ALLOW_EXIT, ('{"permission":"allow"}\n' if fmt == "cursor" else "")
    import json  # a block only: an allow imports no json

    why = _one_line(reason) or "blocked"
    body: dict[str, Any]
    if fmt == "claude-code":
        body = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecision": "deny",
                                       "permissionDecisionReason": why}}
    elif fmt == "gemini":
        body = {"decision": "deny", "reason": why}
    elif fmt == "cursor":
        body = {"permission": "deny", "user_message": why, "agent_message": why}
    elif fmt == "copilot":
        body = {"permissionDecision": "deny", "permissionDecisionReason": why}
    else:  # generic, codex: the exit status is the answer
        return BLOCK_EXIT, ""
    return ALLOW_EXIT, json.dumps(body, ensure_ascii=True, separators=(",", ":")) + "\n"


class _Suppress:
    """``contextlib.suppress`` without importing ``contextlib`` (start-up)."""

    def __init__(self, what: type[BaseException]) -> None:
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *_rest: object) -> bool:
        return kind is not None and issubclass(kind, self.what)


class _Reply:
    """Writes the one answer, once: the main thread and the watchdog race for it."""

    def __init__(self, fmt: str, stdout: IO[str], stderr: IO[str]) -> None:
        self.fmt = fmt if fmt in FORMATS else "generic"
        self.stdout, self.stderr = stdout, stderr
        self.lock = _thread.allocate_lock()
        self.sent: int | None = None  # the exit status, once answered

    def send(self, allowed: bool, reason: str, wait: float = -1) -> int:
        """Answer unless answered; the exit status. ``wait``: longest wait for the other
        writer (-1: for ever); when it passes, exit 2 (a block everywhere) and nothing
        written."""
        if not self.lock.acquire(timeout=wait):
            return BLOCK_EXIT
        try:
            if self.sent is not None:
                return self.sent
            code, text = render(self.fmt, allowed, reason)
            if not allowed:
                with _Suppress(Exception):  # the block stands without its line
                    self.stderr.write(f"gate halt hook: {_one_line(reason) or 'blocked'}\n")
                    self.stderr.flush()
            if text:
                try:
                    self.stdout.write(text)
                    self.stdout.flush()
                except Exception:  # an answer not delivered: exit 2 blocks in every CLI
                    code = BLOCK_EXIT
            self.sent = code
            return code
        finally:
            self.lock.release()


def _last_resort(reply: _Reply, seconds: float, wait: float = 0.5) -> int:
    """The watchdog's exit status: the answer already sent, else a block. When the answer
    cannot be taken within ``wait`` (a writer holding it does not return), the reason goes
    straight to file descriptor 2 first: Codex and Gemini CLI let an exit 2 with nothing on
    stderr through. That write is bounded too (a thread, ``wait`` at most)."""
    sent = reply.sent
    reason = f"blocked: time limit of {seconds:g}s reached"
    reply.send(False, reason, wait=wait)
    if reply.sent is None:
        done = _thread.allocate_lock()
        done.acquire()
        line = f"gate halt hook: {reason}; the answer could not be written\n".encode()

        def _write() -> None:
            with _Suppress(BaseException):
                os.write(2, line)
            done.release()

        _thread.start_new_thread(_write, ())
        done.acquire(timeout=wait)
        return BLOCK_EXIT
    return sent if sent is not None else BLOCK_EXIT  # exit 2: a block everywhere


class _TimeLimitArmed:
    """``with _TimeLimitArmed(seconds, hard_exit, reply)``: interrupt the main thread after
    ``seconds``; end the process a second later (a class, not ``contextlib``: start-up)."""

    def __init__(self, seconds: float, hard_exit: bool, reply: _Reply) -> None:
        self.seconds, self.hard_exit, self.reply = seconds, hard_exit, reply
        # The watchdog is a bare ``_thread`` waiting on a lock the main thread releases when
        # it is done (``threading.Timer`` would make the main thread wait for the new thread
        # to start).
        self.stop = _thread.allocate_lock()
        self.armed = False
        self.previous: Any = None

    def _watchdog(self) -> None:
        if self.stop.acquire(timeout=self.seconds + 1.0):
            return  # the main thread finished in time
        code = BLOCK_EXIT
        with _Suppress(BaseException):
            code = _last_resort(self.reply, self.seconds)
        os._exit(code)

    def __enter__(self) -> None:
        self.stop.acquire()
        try:  # only the main thread may set a signal handler (tests call this from threads)
            self.previous = _signal.signal(_signal.SIGALRM, _expire)
            self.armed = True
        except ValueError:
            self.armed = False
        if self.armed:
            _signal.setitimer(_signal.ITIMER_REAL, self.seconds)
        if self.hard_exit:
            _thread.start_new_thread(self._watchdog, ())

    def __exit__(self, *_exc: object) -> None:
        if self.armed:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            _signal.signal(_signal.SIGALRM, self.previous)
        self.stop.release()


def _expire(_signum: int, _frame: FrameType | None) -> None:
    raise _TimeLimit()


_time_limit = _TimeLimitArmed


def run(args: Any, stdin: IO[bytes], stderr: IO[str], stdout: IO[str] | None = None, *,
        hard_exit: bool = False) -> int:
    """``gate halt hook``: answer one call; returns the exit status. Never fails open.

    ``args`` is what :func:`parse_argv` returns. The command line calls this with
    ``hard_exit=True`` (the watchdog may end the process); tests call it in-process with the
    same arguments and byte streams. Whatever goes wrong (bad input, an internal error, the
    time limit, an interrupt) is answered as that CLI's block.
    """
    reply = _Reply(getattr(args, "format", "generic"), sys.stdout if stdout is None else stdout,
                   stderr)
    allowed, message = False, "blocked: internal error"
    try:
        with _time_limit(float(args.timeout), hard_exit, reply):
            try:
                if reply.fmt != getattr(args, "format", "generic"):
                    raise Blocked(f"unknown --format {args.format!r}")
                config = HookConfig(
                    tool_name_field=args.tool_name_field, input_field=args.input_field,
                    attempt_id_fields=_names(args.attempt_id_fields, "--attempt-id-fields"),
                    host_fields=_names(args.host_fields, "--host-fields"), format=reply.fmt)
                data = stdin.read(MAX_INPUT_BYTES + 1)
                if _ledger_is_inert(args) and local_tool(data, reply.fmt):
                    allowed, message = True, ""  # what decide() answers, without its imports
                else:
                    book = _ledger(args)
                    from pathlib import Path

                    verdict = decide(data, book, config,
                                     Path(args.binding) if args.binding else None, args.run_id)
                    allowed, message = verdict.allowed, verdict.message
            except Blocked as exc:
                message = f"blocked: {exc}"
            except GateInputError as exc:
                message = f"blocked: {exc}"
            except _TimeLimit:
                raise
            except Exception as exc:  # fail closed on anything at all
                message = f"blocked: internal error: {type(exc).__name__}: {exc}"
    except _TimeLimit:
        allowed, message = False, f"blocked: time limit of {float(args.timeout):g}s reached"
    except BaseException as exc:  # KeyboardInterrupt, SystemExit, ...: block
        allowed, message = False, f"blocked: interrupted: {type(exc).__name__}"
    return reply.send(allowed, message)


def _names(raw: str, flag: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in raw.split(","))
    if not names or not all(names):
        raise GateInputError("gate halt hook", flag, "a comma-separated list of field names")
    return names


def _ledger(args: Any) -> Any:
    from pathlib import Path

    from gate.records import ledger

    if args.policy:
        from gate.records import policy

        halt_policy = policy.load(Path(args.policy)).halt
    else:  # the defaults, as ``policy.load(None)`` gives them, without importing the loader
        from gate.decide import halt

        halt_policy = halt.HaltPolicy()
    path = Path(args.ledger)
    halts = Path(args.halt_report) if args.halt_report else path.with_name(
        path.name + ".halts.jsonl")
    return ledger.Ledger(path, halt_policy, halts)


# --- the command line (read by hand: argparse costs more than the whole decision) -------------


class HookArgs:
    """The parsed command line of ``gate halt hook``."""

    __slots__ = (
        "attempt_id_fields",
        "binding",
        "format",
        "halt_report",
        "host_fields",
        "input_field",
        "ledger",
        "policy",
        "run_id",
        "timeout",
        "tool_name_field",
    )

    def __init__(self) -> None:
        self.ledger: str = ""
        self.policy: str | None = None
        self.binding: str | None = None
        self.run_id: str | None = None
        self.host_fields = ",".join(DEFAULT_HOST_FIELDS)
        self.attempt_id_fields = ",".join(DEFAULT_ATTEMPT_ID_FIELDS)
        self.tool_name_field = DEFAULT_TOOL_NAME_FIELD
        self.input_field = DEFAULT_INPUT_FIELD
        self.halt_report: str | None = None
        self.timeout = DEFAULT_TIMEOUT
        self.format = "generic"


#: flag -> (attribute, help); every flag takes one value.
OPTIONS = {
    "--format": ("format", "the agent CLI: " + "|".join(FORMATS) + " (default: generic); its "
                 "input shape is read and its explicit block answered"),
    "--ledger": ("ledger", "the halt ledger (required; must exist)"),
    "--policy": ("policy", "reserved scopes and marker"),
    "--binding": ("binding", "the binding the worker was issued (default: the issuer's current "
                             "binding of --run-id, or of the only run in the ledger)"),
    "--run-id": ("run_id", "the run, when the ledger holds several"),
    "--host-fields": ("host_fields", "fields of the tool input holding a URL or host (dotted "
                                     "for nested; default: " + ",".join(DEFAULT_HOST_FIELDS)
                      + ")"),
    "--attempt-id-fields": ("attempt_id_fields", "generic: first present is the attempt id "
                            "(default: " + ",".join(DEFAULT_ATTEMPT_ID_FIELDS) + ")"),
    "--tool-name-field": ("tool_name_field", f"generic (default: {DEFAULT_TOOL_NAME_FIELD})"),
    "--input-field": ("input_field", f"generic (default: {DEFAULT_INPUT_FIELD})"),
    "--halt-report": ("halt_report", "where halts are written for people "
                                     "(default: L.halts.jsonl)"),
    "--timeout": ("timeout", "own time limit in seconds; when it passes the call is blocked "
                             f"(default: {DEFAULT_TIMEOUT:g})"),
}
GENERIC_ONLY = ("--attempt-id-fields", "--tool-name-field", "--input-field")
USAGE = ("usage: gate halt hook --ledger L [--format F] [--policy FILE] [--binding B.json] "
         "[--run-id R] [--host-fields F,...] [--halt-report FILE] [--timeout SECONDS] "
         "[--attempt-id-fields F,...] [--tool-name-field F] [--input-field F]")


def help_text() -> str:
    lines = [USAGE, "", "pre-tool-use hook: one JSON tool call on stdin; answered as the CLI of "
             "--format reads an allow or a block (generic: exit 0 allows, 2 blocks)", ""]
    lines += [f"  {flag} {attr.upper()}\n      {text}" for flag, (attr, text) in OPTIONS.items()]
    return "\n".join(lines) + "\n"


def parse_argv(argv: list[str]) -> HookArgs:
    """The flags of ``gate halt hook``; :class:`GateInputError` on bad usage."""
    args = HookArgs()
    seen: set[str] = set()
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        flag, eq, value = word.partition("=")
        if flag not in OPTIONS:
            raise GateInputError("gate halt hook", "(usage)", f"unknown argument {word!r}")
        if flag in seen:
            raise GateInputError("gate halt hook", flag, "given twice")
        seen.add(flag)
        if not eq:
            if not rest or (rest[0].startswith("--") and rest[0] != "--"):
                raise GateInputError("gate halt hook", flag, "needs a value")
            value = rest.pop(0)
        setattr(args, OPTIONS[flag][0], value)
    if "--ledger" not in seen or not args.ledger:
        raise GateInputError("gate halt hook", "--ledger", "required")
    if args.format not in FORMATS:
        raise GateInputError("gate halt hook", "--format", f"one of {', '.join(FORMATS)}")
    if args.format != "generic" and seen & set(GENERIC_ONLY):
        raise GateInputError("gate halt hook", sorted(seen & set(GENERIC_ONLY))[0],
                             "applies to --format generic only")
    try:
        timeout = float(args.timeout)
    except ValueError:
        timeout = float("nan")
    if not 0 < timeout < 86400:  # also refuses nan and inf
        raise GateInputError("gate halt hook", "--timeout", "a positive number of seconds "
                             "below one day")
    args.timeout = timeout
    return args


def main(argv: list[str], *, exit_now: bool = False) -> int:
    """``gate halt hook ARGV``: bad usage blocks too (exit 2, one line on stderr: a block in
    every supported CLI, whatever the format).

    ``exit_now`` (the ``gate`` program, not a caller in the same process): once the answer is
    written and flushed, end the process at once; the interpreter's clean-up of some eighty
    modules would add to every tool call and has nothing left to do (the ledger is closed and
    synced)."""
    code = _main(argv)
    if exit_now:
        for stream in (sys.stdout, sys.stderr):
            with _Suppress(Exception):
                stream.flush()
        os._exit(code)
    return code


def _main(argv: list[str]) -> int:
    if argv in (["--help"], ["-h"]):
        sys.stdout.write(help_text())
        return 0
    try:
        args = parse_argv(argv)
    except GateInputError as exc:
        sys.stderr.write(f"gate halt hook: blocked: {exc} (see gate halt hook --help)\n")
        return BLOCK_EXIT
    return run(args, sys.stdin.buffer, sys.stderr, sys.stdout, hard_exit=True)
