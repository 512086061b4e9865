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
from pathlib import Path
from typing import Any

import pytest

from gate.agent import hook
from tests.core_helpers import FIXTURE_HOST

README = Path(__file__).resolve().parent.parent / "README.md"
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


RULES = {"claude-code": _exact_or_regex, "codex": _exact_or_regex, "gemini": _gemini}


def wiring() -> dict[str, dict[str, Any]]:
    """The README's blocks by --format: {fmt: {"event": ..., "matcher": ..., "entry": ...}}."""
    text = README.read_text(encoding="utf-8")
    section = text.split("#### Wiring the hook into an agent CLI", 1)[1].split("\n### ", 1)[0]
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


@pytest.mark.parametrize("fmt", sorted(TOOLS))
def test_the_matcher_routes_every_network_tool_and_only_those(fmt: str) -> None:
    block = wiring()[fmt]
    matcher = block["matcher"]
    assert isinstance(matcher, str) and matcher not in ("", "*")
    rule = RULES[fmt]
    missed = [name for name in TOOLS[fmt]["network"] if not rule(matcher, name)]
    assert missed == [], f"{fmt}: {matcher!r} lets {missed} through unchecked"
    caught = [name for name in TOOLS[fmt]["local"] if rule(matcher, name)]
    assert caught == [], f"{fmt}: {matcher!r} would block {caught}"


def _call(fmt: str, tool: str, tool_input: dict[str, Any]) -> hook.Call:
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
]


@pytest.mark.parametrize(("fmt", "tool", "tool_input", "want"), PAYLOADS)
def test_the_hook_reads_every_payload_shape(fmt: str, tool: str, tool_input: dict[str, Any],
                                            want: str) -> None:
    call = _call(fmt, tool, tool_input)
    if "." in want:
        assert (call.host, call.problem) == (want, "")
    else:
        assert call.host is None and want in call.problem


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
