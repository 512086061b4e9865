"""The hook's input: one tool call as each agent CLI sends it (``--format``), read strictly.

:func:`read_call` reads the CLI's pre-tool-use shape and the call's target host (the host fields
and, for :data:`TEXT_URL_FIELDS`, every URL in free text); :func:`local_tool` is the start-up
prefilter that answers a call of a tool in :data:`UNCHECKED_TOOLS` before anything else is
imported. What is read and why is in :mod:`gate.agent.hook`, which runs the hook and names
every public name of this module too. It imports nothing of the gate but :mod:`gate.errors` at
start-up: the JSON reader, the digest and the target reading only when a call needs them.
"""

from __future__ import annotations

from gate.errors import GateInputError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from collections.abc import Mapping
    from typing import Any

__all__ = [
    "DEFAULT_ATTEMPT_ID_FIELDS", "DEFAULT_HOST_FIELDS", "DEFAULT_INPUT_FIELD",
    "DEFAULT_TOOL_NAME_FIELD", "EVENTS", "FORMATS", "MAX_INPUT_BYTES", "TEXT_INPUT_FORMATS",
    "TEXT_URL_FIELDS", "UNCHECKED_TOOLS", "Blocked", "Call", "HookConfig", "local_tool",
    "read_call", "urls_in_text",
]
MAX_INPUT_BYTES = 1024 * 1024

DEFAULT_TOOL_NAME_FIELD = "tool_name"
DEFAULT_INPUT_FIELD = "tool_input"
DEFAULT_ATTEMPT_ID_FIELDS = ("tool_use_id", "attempt_id")
DEFAULT_HOST_FIELDS = ("url", "uri", "host", "hostname")

#: ``--format``: the agent CLI whose hook input is read and whose block is answered.
FORMATS = ("generic", "claude-code", "codex", "gemini", "cursor", "copilot")
#: The event each CLI names in ``hook_event_name`` for a pre-tool-use hook (None: not checked).
EVENTS = {"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool",
          "cursor": "preToolUse"}


class HookConfig:
    """Which fields of the hook input are read (the names apply to ``--format generic``)."""

    __slots__ = ("attempt_id_fields", "format", "host_fields", "input_field", "tool_name_field")

    def __init__(self, tool_name_field: str = DEFAULT_TOOL_NAME_FIELD,
                 input_field: str = DEFAULT_INPUT_FIELD,
                 attempt_id_fields: tuple[str, ...] = DEFAULT_ATTEMPT_ID_FIELDS,
                 host_fields: tuple[str, ...] = DEFAULT_HOST_FIELDS,
                 format: str = "generic") -> None:
        self.format = format
        self.tool_name_field = tool_name_field
        self.input_field = input_field
        self.attempt_id_fields = attempt_id_fields
        self.host_fields = host_fields


class Call:
    """One tool call as read from the hook input."""

    __slots__ = ("attempt_id", "host", "problem", "tool_name", "unchecked")

    def __init__(self, tool_name: str, attempt_id: str, host: str | None,
                 problem: str = "", unchecked: bool = False) -> None:
        self.tool_name = tool_name
        self.attempt_id = attempt_id
        self.host = host  # None: no readable target (then ``problem`` says why)
        self.problem = problem
        self.unchecked = unchecked  # a tool of UNCHECKED_TOOLS: allowed, no ledger check

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Call) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Call({self.tool_name!r}, {self.attempt_id!r}, {self.host!r}, "
                f"{self.problem!r}, unchecked={self.unchecked!r})")


class Blocked(Exception):
    """The call is blocked before (or without) a decision; the message is the reason."""


# --- reading the input (pure) -------------------------------------------------------------------


def _field(record: Mapping[str, Any], dotted: str) -> tuple[bool, Any]:
    value: Any = record
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


def _parse(data: bytes | str, what: str) -> Any:
    from gate.records.files import parse_json

    try:
        return parse_json(data, what)
    except GateInputError as exc:
        raise Blocked(f"{what} is not valid JSON: {exc.message}") from None


def _derived_attempt_id(data: bytes) -> str:
    """For CLIs that send no per-call id: the digest of the whole input, which carries the
    session and a timestamp. Two identical inputs are one attempt: the second is a replay and
    is blocked (fail closed); a retry at a later timestamp is a new attempt."""
    from gate.records.sha256 import sha256

    return "sha256:" + sha256(data).hexdigest()


def _shape(record: dict[str, Any], data: bytes, config: HookConfig
           ) -> tuple[Any, Any, Any, str]:
    """(tool name, attempt id, tool input, the input's name) as the CLI of ``--format`` sends
    them; :class:`Blocked` when the input is not that CLI's pre-tool-use shape."""
    fmt = config.format
    if fmt == "generic":
        tool_name = record.get(config.tool_name_field)
        if not isinstance(tool_name, str) or not tool_name:
            raise Blocked(f"field {config.tool_name_field!r} missing or not a non-empty string")
        attempt: Any = None
        for name in config.attempt_id_fields:
            if name in record:
                attempt = record[name]
                break
        if not isinstance(attempt, str) or not attempt or len(attempt) > 256:
            raise Blocked(f"no attempt id: none of {', '.join(config.attempt_id_fields)} is a "
                          "non-empty string of at most 256 characters")
        return tool_name, attempt, record.get(config.input_field), config.input_field
    if fmt == "copilot" and "toolName" in record:  # a camelCase ``preToolUse`` entry
        return (record.get("toolName"), _derived_attempt_id(data), record.get("toolArgs"),
                "toolArgs")
    event = EVENTS.get(fmt, "PreToolUse")  # copilot's PascalCase entry says PreToolUse too
    if record.get("hook_event_name") != event:
        raise Blocked(f"hook_event_name is {record.get('hook_event_name')!r}, not {event!r} "
                      f"(wire the hook to {fmt}'s {event} event)")
    attempt = record.get("tool_use_id")
    if fmt in ("claude-code", "codex"):
        if not isinstance(attempt, str) or not attempt or len(attempt) > 256:
            raise Blocked("no attempt id: tool_use_id is not a non-empty string of at most "
                          "256 characters")
    elif not isinstance(attempt, str) or not attempt or len(attempt) > 256:
        attempt = _derived_attempt_id(data)  # gemini and copilot send none; cursor may not
    return record.get("tool_name"), attempt, record.get("tool_input"), "tool_input"


#: The CLIs whose tool arguments may arrive as JSON text rather than an object: Copilot's
#: ``toolArgs`` (docs.github.com copilot/reference/hooks-reference: ``toolArgs: unknown``, sent
#: as a JSON string) and Cursor's MCP ``tool_input`` ("JSON params string":
#: cursor.com/docs/agent/hooks, beforeMCPExecution; its preToolUse example shows an object).
TEXT_INPUT_FORMATS = ("copilot", "cursor")

#: Per ``--format`` wired without a matcher (the hook sees every call): the tools allowed with
#: no ledger check, because they reach no network (or are the shell, which no hook can police:
#: docs/hooks.md#wiring-the-hook-into-an-agent-cli, its shell tools). Exact, case-sensitive
#: names; any other name is checked as a network call, so a tool the lists do not know is
#: blocked unless it names the minted host.
UNCHECKED_TOOLS = {
    # cursor.com/docs/agent/hooks, "Matcher Configuration": preToolUse "Values include Shell,
    # Read, Write, Grep, Delete, Task, and MCP tools using the MCP:<tool_name> format" (its
    # Web search and Browser tools' hook names are not documented: they are checked).
    "cursor": frozenset({"Shell", "Read", "Write", "Grep", "Delete", "Task"}),
    # docs.github.com copilot/reference/hooks-reference, "Tool names for hook matching" and the
    # runtime-to-Claude tool name table (a PascalCase PreToolUse payload names the Claude tool);
    # report_intent as Copilot CLI sends it (dotnet/runtime#125889). Network: web_fetch,
    # web_search (WebFetch, WebSearch) and MCP tools, named <server>-<tool>: all checked.
    "copilot": frozenset({
        "ask_user", "bash", "powershell", "view", "create", "edit", "str_replace_editor",
        "apply_patch", "grep", "rg", "glob", "task", "update_todo", "report_intent",
        "Bash", "Read", "Write", "Edit", "Grep", "Glob", "AskUserQuestion", "TodoWrite",
        "Agent", "Task"}),
}


#: Tools whose URLs travel inside free text, per ``--format``: (tool name) -> the text fields.
#: Gemini CLI's ``web_fetch`` takes "the prompt containing URL(s) (up to 20) and instructions"
#: in ``prompt`` (gemini-cli packages/core/src/tools/web-fetch.ts, ``WebFetchToolParams``); its
#: experimental direct mode names one ``url`` (read as a host field).
TEXT_URL_FIELDS = {"gemini": {"web_fetch": ("prompt",)}}
#: A scheme-less host name in text (``evil.example.com/x``): its last label letters only.
_BARE_HOST = r"[^A-Za-z0-9]*((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,63})(?:[:/?#]\S*)?[^A-Za-z0-9]*"


def _bare_host(token: str) -> str | None:
    import re  # only here: the hook's start-up path imports no ``re`` (tests/test_imports.py)

    match = re.fullmatch(_BARE_HOST, token)
    return match.group(1) if match else None


def _http_scheme(token: str) -> bool:
    """Does the URL ``token`` start with ``http://`` or ``https://``, in any case? (A scheme, not
    a host: hosts are compared by :func:`gate.decide.halt.host_key` alone.)"""
    return token.lower().startswith(("http://", "https://"))


def urls_in_text(text: str, where: str) -> set[str]:
    """The hosts of every URL in ``text`` (:class:`Blocked` naming ``where`` when one cannot be
    read). Every white-space-separated token holding ``://`` is a URL, as gemini-cli's
    ``parsePrompt`` reads them, and must be an http(s) URL :func:`target_host` accepts; a
    token that is a bare host name (``evil.example.com/x``) counts too, since the fetch is
    made by the model's URL tool, which may read one. No URL at all is :class:`Blocked`."""
    from gate.agent.target import TargetRefused, target_host

    hosts: set[str] = set()
    for token in text.split():
        if "://" in token:
            if not _http_scheme(token):
                raise Blocked(f"{where} holds {token[:80]!r}: only http(s) URLs are read")
            try:
                hosts.add(target_host(token))
            except TargetRefused as exc:
                raise Blocked(f"{where}: {exc}") from None
        else:
            bare = _bare_host(token)
            if bare is not None:
                hosts.add(target_host(bare))
    if not hosts:
        raise Blocked(f"no URL in {where}")
    return hosts


def read_call(data: bytes, config: HookConfig) -> Call:
    """Parse the hook input; :class:`Blocked` when a required field is missing or malformed."""
    if len(data) > MAX_INPUT_BYTES:
        raise Blocked(f"input larger than {MAX_INPUT_BYTES} bytes")
    record = _parse(data, "input")
    if not isinstance(record, dict):
        raise Blocked("input is not a JSON object")
    tool_name, attempt_id, tool_input, input_name = _shape(record, data, config)
    if not isinstance(tool_name, str) or not tool_name:
        name = config.tool_name_field if config.format == "generic" else "tool name"
        raise Blocked(f"field {name!r} missing or not a non-empty string")
    if tool_name in UNCHECKED_TOOLS.get(config.format, ()):
        return Call(tool_name, attempt_id, None, unchecked=True)
    from gate.agent.target import TargetRefused, target_host

    if isinstance(tool_input, str) and config.format in TEXT_INPUT_FORMATS:
        tool_input = _parse(tool_input, input_name)  # as strictly as stdin itself
    if not isinstance(tool_input, dict):
        return Call(tool_name, attempt_id, None,
                    f"field {input_name!r} missing or not an object")
    hosts: set[str] = set()
    try:
        for name in config.host_fields:
            found, value = _field(tool_input, name)
            if not found:
                continue
            if not isinstance(value, str):
                raise Blocked(f"{input_name}.{name} is not a string")
            hosts.add(target_host(value))
        for name in TEXT_URL_FIELDS.get(config.format, {}).get(tool_name, ()):
            if name not in tool_input and hosts:
                continue  # the direct ``url`` form
            text = tool_input.get(name)
            if not isinstance(text, str):
                raise Blocked(f"{input_name}.{name} is not a string")
            hosts |= urls_in_text(text, f"{input_name}.{name}")
    except (Blocked, TargetRefused) as exc:
        return Call(tool_name, attempt_id, None, str(exc))
    if not hosts:
        return Call(tool_name, attempt_id, None,
                    f"no target host: none of {', '.join(config.host_fields)} in "
                    f"{input_name}")
    if len(hosts) > 1:
        return Call(tool_name, attempt_id, None,
                    f"fields name different hosts: {', '.join(sorted(hosts))}")
    return Call(tool_name, attempt_id, hosts.pop())


#: Nesting :func:`local_tool` reads at most, counted as every ``[`` and ``{`` of the input
#: (at most :data:`gate.records.files.MAX_JSON_DEPTH`, which the full path refuses beyond).
QUICK_MAX_BRACKETS = 64
_JSON_SPACE = " \t\n\r"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record = dict(pairs)
    if len(record) != len(pairs):
        raise ValueError("duplicate key")
    return record


def _no_constant(name: str) -> Any:
    raise ValueError(name)


class _StrictScan:
    """What ``json.JSONDecoder(object_pairs_hook=..., parse_constant=...)`` hands its C scanner
    (``_json.make_scanner`` reads these attributes), without importing ``json`` (and ``re``)."""

    strict = True
    object_hook = None
    object_pairs_hook = staticmethod(_no_duplicates)
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_no_constant)


def _quick_json(text: str) -> tuple[bool, Any]:
    """(True, value) when ``text`` is strict JSON (:func:`gate.records.files.parse_json`'s
    rules: no duplicate keys, no NaN/Infinity); (False, None) for anything else, including
    whatever this cannot be sure of."""
    try:
        from _json import make_scanner
    except ImportError:  # an interpreter without the C scanner: the whole way
        return False, None
    try:
        start = len(text) - len(text.lstrip(_JSON_SPACE))
        value, end = make_scanner(_StrictScan())(text, start)  # type: ignore[arg-type]
    except Exception:  # StopIteration, a JSON error, a duplicate key, a constant
        return False, None
    if text[end:].strip(_JSON_SPACE):
        return False, None
    return True, value


def local_tool(data: bytes, fmt: str) -> bool:
    """Is ``data`` certainly a call of a tool of :data:`UNCHECKED_TOOLS` for ``fmt``, one that
    :func:`read_call` reads as ``unchecked`` (and :func:`gate.agent.hook.decide` allows with no
    ledger check)?

    A prefilter for start-up time: it only ever says yes when the whole path would allow; any
    input it is not sure of (over 1 MiB, not UTF-8, more brackets than it counts, a
    ``\\ud...`` escape that may be a lone surrogate, not strict JSON, another shape) is False
    and goes the whole way, which decides it as before.
    """
    names = UNCHECKED_TOOLS.get(fmt)
    if not names or len(data) > MAX_INPUT_BYTES:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        return False
    if (text.count("[") + text.count("{") > QUICK_MAX_BRACKETS or "\\ud" in text
            or "\\uD" in text):
        return False
    ok, record = _quick_json(text)
    if not ok or not isinstance(record, dict):
        return False
    if fmt == "copilot" and "toolName" in record:  # as _shape reads the camelCase entry
        name = record["toolName"]
    elif record.get("hook_event_name") == EVENTS.get(fmt, "PreToolUse"):
        name = record.get("tool_name")
    else:
        return False
    return isinstance(name, str) and name in names
