"""The README's wiring of ``gate halt hook`` into each agent CLI routes every network tool that
CLI ships to the hook, read with that CLI's own matching rule, and the hook reads every payload
shape those tools send (issue 20.5).

Each CLI's tool names are listed below with the place in that CLI's source or documentation they
come from. A matcher that misses one lets its calls go ahead unchecked (the README's Gemini
matcher ``mcp__.*`` matched nothing: Gemini names MCP tools ``mcp_<server>_<tool>``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.agent import hook
from tests import manual
from tests.core_helpers import FIXTURE_HOST

GOOD = f"https://{FIXTURE_HOST}/v1/items"

#: Per CLI: the tools that can reach the network (each must be routed to the hook), and a few
#: that cannot (a matcher that catches everything would block them all: shown to be precise).
TOOLS: dict[str, dict[str, list[str]]] = {
    "claude-code": {
        # https://code.claude.com/docs/en/hooks ("PreToolUse" matchers: WebFetch, WebSearch;
        # MCP tools are named mcp__<server>__<tool>); https://code.claude.com/docs/en/settings
        # (tools available to Claude: WebFetch, WebSearch)
        "network": ["WebFetch", "WebSearch", "mcp__fetch__get", "mcp__github__create_issue"],
        "local": ["Bash", "Read", "Write", "Edit", "Glob", "Grep", "TodoWrite", "Task"],
    },
    "codex": {
        # openai/codex codex-rs/hooks/src/events/common.rs (matches_matcher) and
        # codex-rs/hooks/src/engine/dispatcher.rs (PreToolUse matches the tool name; Bash,
        # apply_patch); MCP tools in the PreToolUse input are mcp__<server>__<tool>. Codex's web
        # search is a hosted tool the model provider runs: no hook sees it (README: disable it).
        "network": ["mcp__fetch__get", "mcp__github__create_issue"],
        "local": ["Bash", "apply_patch"],
    },
    "cursor": {
        # cursor.com/docs/agent/hooks (a stored copy, undated: the one with model_id and
        # workspaceOpen; its failClosed and matcher text is quoted the same in a note dated
        # 2026-06-12), "Matcher Configuration": preToolUse "Values include Shell, Read, Write,
        # Grep, Delete, Task, and MCP tools using the MCP:<tool_name> format";
        # cursor.com/docs/agent/overview (stored copy, undated), "Tools":
        # Web ("perform web searches") and Browser, whose hook names are not documented: the
        # stand-ins below must be selected too (the hook sees every call).
        "network": ["MCP:fetch", "MCP:get_url", "MCP:github_create_issue", "WebSearch",
                    "Browser", "an-undocumented-tool"],
        "local": ["Shell", "Read", "Write", "Grep", "Delete", "Task"],
    },
    "copilot": {
        # docs.github.com: github/docs content/copilot/reference/hooks-reference.md at commit
        # 05da5bc1c401 (its date could not be read here; it supersedes cli-hooks-reference.md
        # at 927566b0b7df, which listed no matcher for preToolUse),
        # "Tool names for hook matching" and the runtime-to-Claude table (PascalCase PreToolUse
        # payloads name the Claude tool); report_intent, apply_patch, rg as Copilot CLI sends
        # them (dotnet/runtime#125889); MCP tools are <server-key>-<tool>
        # (github/copilot-sdk#869).
        "network": ["web_fetch", "web_search", "WebFetch", "WebSearch",
                    "github-mcp-server-get_issue", "fetch-get", "an-undocumented-tool"],
        "local": ["ask_user", "bash", "powershell", "view", "create", "edit",
                  "str_replace_editor", "apply_patch", "grep", "rg", "glob", "task",
                  "update_todo", "report_intent", "Bash", "Read", "Write", "Edit", "Grep",
                  "Glob", "AskUserQuestion", "TodoWrite", "Agent", "Task"],
    },
    "gemini": {
        # google-gemini/gemini-cli packages/core/src/tools/definitions/coreTools.ts
        # (WEB_FETCH_TOOL_NAME = 'web_fetch', WEB_SEARCH_TOOL_NAME = 'google_web_search'),
        # packages/core/src/tools/mcp-tool.ts (MCP_TOOL_PREFIX = 'mcp_',
        # MCP_QUALIFIED_NAME_SEPARATOR = '_'), packages/core/src/tools/tool-names.ts
        # (ALL_BUILTIN_TOOL_NAMES)
        "network": ["web_fetch", "google_web_search", "mcp_fetch_get",
                    "mcp_github_create_issue", "mcp_my-server_fetch_url"],
        "local": ["run_shell_command", "read_file", "write_file", "replace", "glob",
                  "grep_search", "list_directory", "read_many_files", "save_memory",
                  "write_todos", "ask_user"],
    },
}


def _exact_or_regex(matcher: str, name: str) -> bool:
    """Claude Code and Codex: "", "*" or no matcher match all; only letters, digits, ``_`` and
    ``|`` is an exact name or ``|``-list; anything else is a regex, unanchored (JavaScript in
    Claude Code; Rust ``regex::Regex::is_match`` in Codex's common.rs)."""
    if matcher in ("", "*"):
        return True
    if re.fullmatch(r"[A-Za-z0-9_|]+", matcher):
        return name in matcher.split("|")
    return re.search(matcher, name) is not None


def _gemini(matcher: str, name: str) -> bool:
    """gemini-cli packages/core/src/hooks/hookPlanner.ts matchesToolName: ``new
    RegExp(matcher).test(toolName)`` (unanchored), an invalid regex an exact name; "" or "*"
    match all."""
    matcher = matcher.strip()
    if matcher in ("", "*"):
        return True
    try:
        return re.search(matcher, name) is not None
    except re.error:
        return matcher == name


def _copilot(matcher: str | None, name: str) -> bool:
    """docs.github.com copilot/reference/hooks-reference, "Matcher filtering": preToolUse's
    optional ``matcher`` is "compiled as ^(?:PATTERN)$ and must match the full value"; no
    matcher fires for every tool; "Invalid regexes cause the hook entry to be skipped"."""
    if matcher is None:
        return True
    try:
        return re.fullmatch(f"(?:{matcher})", name) is not None
    except re.error:
        return False


def _cursor(matcher: str | None, name: str) -> bool:
    """cursor.com/docs/agent/hooks: no matcher runs the hook for every tool; the docs do not say
    whether a matcher is a regex or a list of names (its beforeShellExecution example
    ``curl|wget|nc`` runs "when the command contains" one: read here as an unanchored regex,
    the most generous reading)."""
    if matcher is None:
        return True
    try:
        return re.search(matcher, name) is not None
    except re.error:
        return False


RULES: dict[str, Any] = {"claude-code": _exact_or_regex, "codex": _exact_or_regex,
                         "gemini": _gemini, "cursor": _cursor, "copilot": _copilot}
#: Wired without a matcher: every call reaches the hook, which allows the local tools itself.
EVERY_CALL = ("cursor", "copilot")


def wiring() -> dict[str, dict[str, Any]]:
    """The README's blocks by --format: {fmt: {"event": ..., "matcher": ..., "entry": ...}}."""
    section = manual.section("Wiring the hook into an agent CLI")
    found: dict[str, dict[str, Any]] = {}
    for block in re.findall(r"```json\n(.*?)```", section, re.DOTALL):
        ((event, groups),) = json.loads(block)["hooks"].items()
        for group in groups:
            for entry in group.get("hooks", [group]):
                command = entry.get("command") or entry["bash"]
                fmt = re.search(r"--format (\S+)", command)
                assert fmt, command
                found[fmt.group(1)] = {"event": event, "matcher": group.get("matcher"),
                                       "entry": entry}
    return found


@pytest.mark.parametrize("fmt", sorted(set(TOOLS) - set(EVERY_CALL)))
def test_the_matcher_routes_every_network_tool_and_only_those(fmt: str) -> None:
    block = wiring()[fmt]
    matcher = block["matcher"]
    assert isinstance(matcher, str) and matcher not in ("", "*")
    rule = RULES[fmt]
    missed = [name for name in TOOLS[fmt]["network"] if not rule(matcher, name)]
    assert missed == [], f"{fmt}: {matcher!r} lets {missed} through unchecked"
    caught = [name for name in TOOLS[fmt]["local"] if rule(matcher, name)]
    assert caught == [], f"{fmt}: {matcher!r} would block {caught}"


@pytest.mark.parametrize("fmt", EVERY_CALL)
def test_every_call_reaches_the_hook_which_checks_each_network_tool(fmt: str) -> None:
    """Cursor and Copilot: their documented matcher rules cannot name every network tool they
    ship (Cursor's Web and Browser tools have no documented hook name; Copilot's MCP tools are
    named after each server's key), so the block has no matcher and, read with the CLI's own
    rule, selects every tool, known or not. The hook then allows the tools that reach no
    network and checks every other one as a network call."""
    block = wiring()[fmt]
    rule = RULES[fmt]
    selected = [n for n in TOOLS[fmt]["network"] + TOOLS[fmt]["local"] if rule(block["matcher"], n)]
    assert selected == TOOLS[fmt]["network"] + TOOLS[fmt]["local"], block["matcher"]
    for name in TOOLS[fmt]["local"]:
        assert _every_call(fmt, name, {"path": "src/x.py"}).unchecked, name
    for name in TOOLS[fmt]["network"]:
        call = _every_call(fmt, name, {"path": "src/x.py"})
        assert not call.unchecked and call.host is None and "no target host" in call.problem
        assert _every_call(fmt, name, {"url": GOOD}).host == FIXTURE_HOST


def _every_call(fmt: str, tool: str, tool_input: Any, **extra: Any) -> hook.Call:
    """The documented preToolUse input of Cursor (cursor.com/docs/agent/hooks, "preToolUse"
    and "Input (all hooks)") or Copilot's camelCase one (hooks-reference, "preToolUse")."""
    if fmt == "cursor":
        record: dict[str, Any] = {
            "conversation_id": "c-1", "generation_id": "g-1", "model": "default",
            "hook_event_name": "preToolUse", "cursor_version": "3.9.16",
            "workspace_roots": ["/project"], "user_email": None, "transcript_path": None,
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": "abc123",
            "cwd": "/project", "agent_message": "Fetching..."}
    else:
        record = {"sessionId": "s-1", "timestamp": 1704614600000, "cwd": "/project",
                  "toolName": tool, "toolArgs": tool_input}
    record.update(extra)
    return hook.read_call(json.dumps(record).encode(), hook.HookConfig(format=fmt))


def _call(fmt: str, tool: str, tool_input: Any) -> hook.Call:
    if fmt in EVERY_CALL:
        return _every_call(fmt, tool, tool_input)
    event = {"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}[fmt]
    record = {"session_id": "s", "hook_event_name": event, "tool_name": tool,
              "tool_input": tool_input, "tool_use_id": "t-1", "timestamp": "2026-12-01T00:00Z"}
    return hook.read_call(json.dumps(record).encode(), hook.HookConfig(format=fmt))


#: One payload per network tool, as that CLI sends it (the input schemas cited in TOOLS):
#: (fmt, tool, tool_input, the host read, or None and words of the reason it is blocked).
PAYLOADS = [
    ("claude-code", "WebFetch", {"url": GOOD, "prompt": "summarise"}, FIXTURE_HOST),
    ("claude-code", "WebSearch", {"query": "gate"}, "no target host"),
    ("claude-code", "mcp__fetch__get", {"url": GOOD}, FIXTURE_HOST),
    ("codex", "mcp__fetch__get", {"url": GOOD}, FIXTURE_HOST),
    # gemini-cli packages/core/src/tools/web-fetch.ts: WebFetchToolParams {prompt (URLs, up to
    # 20, and instructions), url (experimental direct mode)}; parsePrompt splits on white space
    # and takes every token holding "://"
    ("gemini", "web_fetch", {"prompt": f"Summarise {GOOD} please"}, FIXTURE_HOST),
    ("gemini", "web_fetch", {"prompt": f"Compare {GOOD}\nand {GOOD}/2,"}, FIXTURE_HOST),
    ("gemini", "web_fetch", {"url": GOOD}, FIXTURE_HOST),
    ("gemini", "google_web_search", {"query": "gate"}, "no target host"),
    ("gemini", "mcp_fetch_get", {"url": GOOD}, FIXTURE_HOST),
    # cursor.com/docs/agent/hooks: preToolUse tool_input is an object (its Shell example); MCP
    # tool inputs are "JSON params string" (beforeMCPExecution), so both are read
    ("cursor", "MCP:fetch", {"url": GOOD}, FIXTURE_HOST),
    ("cursor", "MCP:fetch", json.dumps({"url": GOOD}), FIXTURE_HOST),
    ("cursor", "MCP:fetch", json.dumps({"url": "https://api.github.com/"}), "api.github.com"),
    ("cursor", "MCP:search", json.dumps({"query": "gate"}), "no target host"),
    ("cursor", "MCP:fetch", '{"url": "a", "url": "b"}', "not valid JSON"),
    ("cursor", "MCP:fetch", json.dumps([GOOD]), "not an object"),
    # hooks-reference: camelCase toolArgs "unknown" (a JSON string or an object). The docs list
    # no tool arguments: web_fetch's page is in url as Copilot's session events name it
    # (tool.execution_start "arguments": {"url": ...}), web_search takes a query
    ("copilot", "web_fetch", json.dumps({"url": GOOD}), FIXTURE_HOST),
    ("copilot", "web_fetch", {"url": GOOD, "max_length": 5000}, FIXTURE_HOST),
    ("copilot", "web_search", json.dumps({"query": "gate"}), "no target host"),
    ("copilot", "github-mcp-server-get_issue", {"owner": "o", "repo": "r"}, "no target host"),
    ("copilot", "web_fetch", "not json", "not valid JSON"),
]


@pytest.mark.parametrize(("fmt", "tool", "tool_input", "want"), PAYLOADS)
def test_the_hook_reads_every_payload_shape(fmt: str, tool: str, tool_input: Any,
                                            want: str) -> None:
    try:
        call = _call(fmt, tool, tool_input)
    except hook.Blocked as exc:  # blocked before a decision (nothing to record)
        assert "." not in want and want in str(exc), exc
        return
    if "." in want:
        assert (call.host, call.problem, call.unchecked) == (want, "", False)
    else:
        assert call.host is None and want in call.problem


def test_cursor_without_a_tool_use_id_uses_the_digest() -> None:
    """Cursor's preToolUse documents tool_use_id; an input without one (beforeMCPExecution-like)
    is attempt sha256 of the whole input, as for Gemini."""
    call = _every_call("cursor", "MCP:fetch", {"url": GOOD}, tool_use_id=None)
    assert call.attempt_id.startswith("sha256:") and call.host == FIXTURE_HOST


@pytest.mark.parametrize(("fmt", "tool"), [
    ("copilot", "BASH"), ("copilot", "bash "), ("copilot", "Bash|web_fetch"),
    ("copilot", "view\n"), ("cursor", "shell"), ("cursor", "MCP:Shell"), ("cursor", "Read "),
    ("cursor", "MCP:"), ("copilot", "edit-web_fetch")])
def test_a_name_like_a_local_tool_is_still_checked(fmt: str, tool: str) -> None:
    """Only exact names pass unchecked: a look-alike (case, space, an MCP tool named after a
    local one) is checked as a network call."""
    call = _every_call(fmt, tool, {"url": "https://api.github.com/"})
    assert not call.unchecked and call.host == "api.github.com"


def test_copilot_pascal_case_payload_names_the_claude_tool() -> None:
    """hooks-reference: a PascalCase PreToolUse payload reports tool_name as the Claude name
    (Bash, Edit, WebFetch, ...), tool_input parsed from the JSON string."""
    def pascal(tool: str, tool_input: Any) -> hook.Call:
        record = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w",
                  "timestamp": "2026-12-01T00:00:00Z", "tool_name": tool,
                  "tool_input": tool_input}
        return hook.read_call(json.dumps(record).encode(), hook.HookConfig(format="copilot"))

    assert pascal("Edit", {"path": "a.py"}).unchecked
    assert pascal("Bash", {"command": "ls"}).unchecked
    assert pascal("WebFetch", {"url": GOOD}).host == FIXTURE_HOST
    assert "no target host" in pascal("WebSearch", {"query": "q"}).problem


@pytest.mark.parametrize(("prompt", "words"), [
    ("Summarise the page for me", "no URL in tool_input.prompt"),
    (f"Compare {GOOD} and https://api.github.com/x", "different hosts"),
    (f"Read {GOOD} and evil.example.com/x", "different hosts"),  # scheme-less: Gemini may fetch
    (f"Read {GOOD} and https://user@{FIXTURE_HOST}/", "user info"),
    ("Read (https://api.github.com/x)", "tool_input.prompt"),
    (f"Read {GOOD} and ftp://{FIXTURE_HOST}/x", "tool_input.prompt"),
])
def test_gemini_web_fetch_passes_only_when_every_url_in_the_prompt_is_allowed(
        prompt: str, words: str) -> None:
    call = _call("gemini", "web_fetch", {"prompt": prompt})
    assert call.host is None and words in call.problem, call


def test_gemini_web_fetch_with_a_prompt_that_is_not_text_is_blocked() -> None:
    call = _call("gemini", "web_fetch", {"prompt": ["https://api.lab.invalid/"]})
    assert call.host is None and "tool_input.prompt is not a string" in call.problem


def test_other_clis_do_not_read_urls_out_of_a_prompt() -> None:
    """Claude Code's WebFetch takes its URL in ``url``; its ``prompt`` is instructions only."""
    call = _call("claude-code", "WebFetch", {"url": GOOD,
                                             "prompt": "and also https://api.github.com/"})
    assert call.host == FIXTURE_HOST


def test_the_watchdogs_last_resort_writes_a_reason_on_stderr(
        capfd: pytest.CaptureFixture[str]) -> None:
    """Review (issue 20.5): when the watchdog could not take the answer (a writer holding it
    does not return), it exited 2 with nothing on stderr, which Codex and Gemini let through.
    The last resort writes its reason straight to file descriptor 2 first."""
    import io

    reply = hook._Reply("gemini", io.StringIO(), io.StringIO())
    reply.lock.acquire()  # the main thread, stuck inside its own answer
    assert hook._last_resort(reply, 0.3, wait=0.01) == hook.BLOCK_EXIT
    err = capfd.readouterr().err
    assert err.startswith("gate halt hook: blocked: time limit of 0.3s reached") and \
        err.endswith("\n") and err.count("\n") == 1, err
    reply.lock.release()


def test_the_last_resort_keeps_an_answer_already_sent(capfd: pytest.CaptureFixture[str]) -> None:
    import io

    reply = hook._Reply("gemini", io.StringIO(), io.StringIO())
    assert reply.send(True, "") == hook.ALLOW_EXIT
    assert hook._last_resort(reply, 0.3, wait=0.01) == hook.ALLOW_EXIT
    assert capfd.readouterr().err == ""


_NAME = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"),
                min_size=0, max_size=20)


@given(server=_NAME, tool=_NAME)
def test_no_mcp_tool_name_either_cli_makes_is_let_through(server: str, tool: str) -> None:
    """A hostile MCP server picks its own tool names: whatever it picks, the name the CLI gives
    the tool (Cursor ``MCP:<tool>``; Copilot ``<server-key>-<tool>``, ``mcp_<server>_<tool>``
    as some reports have it) is never one the hook lets through unchecked."""
    for fmt, name in (("cursor", f"MCP:{tool}"), ("copilot", f"{server}-{tool}"),
                      ("copilot", f"mcp_{server}_{tool}")):
        call = _every_call(fmt, name, {"url": "https://api.github.com/"})
        assert not call.unchecked and call.host == "api.github.com", (fmt, name)


def test_no_unchecked_name_has_the_shape_of_an_mcp_tool() -> None:
    """The structural reason the property above holds: no name the hook lets through has the
    shape either CLI gives an MCP tool."""
    assert not [n for n in hook.UNCHECKED_TOOLS["cursor"] if n.startswith("MCP:")]
    assert not [n for n in hook.UNCHECKED_TOOLS["copilot"] if "-" in n or n.startswith("mcp_")]
    assert set(hook.UNCHECKED_TOOLS) == set(EVERY_CALL)  # none for the matcher-wired CLIs
