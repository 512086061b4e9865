"""``gate halt hook --format``: each agent CLI's documented hook input, fed to the hook as a child
process, answered in that CLI's own allow and block forms (/work/notes/hooks.md, README "Wiring
the hook into an agent CLI").

For every CLI: a call to the run's minted fixture host is allowed, a call to a live host is
blocked, and so are the hook's own time limit and an internal error, each in the form that CLI
treats as an explicit block (JSON deny on exit 0 where it reads one, exit 2 with a reason on
stderr otherwise). An allow prints nothing but for Cursor (``{"permission":"allow"}``, which its
``failClosed`` hooks need).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.agent import hook
from gate.records import ledger
from tests.core_helpers import FIXTURE_HOST, FIXTURE_SCOPE, MARKER

GOOD = f"https://{FIXTURE_HOST}/v1/items"
LIVE = "https://api.github.com/repos"


def claude_code(url: str, n: int) -> dict[str, Any]:  # hooks.md §1, the doc's own example
    return {"session_id": "abc123", "prompt_id": "550e8400-e29b-41d4-a716-446655440000",
            "transcript_path": "/home/user/.claude/projects/x/transcript.jsonl",
            "cwd": "/home/user/my-project", "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "WebFetch",
            "tool_input": {"url": url, "prompt": "summarise"}, "tool_use_id": f"toolu_{n:04d}"}


def codex(url: str, n: int) -> dict[str, Any]:  # hooks.md §2, fields of command_input_json
    return {"session_id": "thr_123", "turn_id": "t-1", "transcript_path": None, "cwd": "/repo",
            "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
            "tool_name": "mcp__fetch__get", "tool_use_id": f"call-{n}",
            "tool_input": {"url": url}}


def gemini(url: str, n: int) -> dict[str, Any]:  # hooks.md §3 (no per-call id)
    return {"session_id": "abc123", "transcript_path": "/path/to/transcript.jsonl",
            "cwd": "/path/to/project", "hook_event_name": "BeforeTool",
            "timestamp": f"2025-12-01T10:30:{n:02d}Z", "tool_name": "mcp_http_fetch",
            "tool_input": {"url": url},
            "mcp_context": {"server_name": "http", "tool_name": "fetch"}}


def cursor(url: str, n: int) -> dict[str, Any]:  # hooks.md §4, preToolUse
    return {"conversation_id": "74676b03", "generation_id": f"f7746f6e-{n}", "model": "default",
            "hook_event_name": "preToolUse", "cursor_version": "3.9.16",
            "workspace_roots": ["/repo"], "user_email": "dev@example.com",
            "transcript_path": "/t/x.jsonl", "tool_name": "MCP:fetch",
            "tool_input": {"url": url}, "tool_use_id": f"09dca0a5-{n}", "cwd": ""}


def copilot(url: str, n: int) -> dict[str, Any]:  # hooks.md §5, camelCase preToolUse
    return {"sessionId": "s-1", "timestamp": 1704614600000 + n, "cwd": "/path/to/project",
            "toolName": "web_fetch", "toolArgs": json.dumps({"url": url})}


def copilot_pascal(url: str, n: int) -> dict[str, Any]:  # hooks.md §5, PascalCase PreToolUse
    return {"hook_event_name": "PreToolUse", "session_id": "s-2",
            "timestamp": f"2026-01-01T00:00:{n:02d}Z", "cwd": "/w", "tool_name": "WebFetch",
            "tool_input": {"url": url}}


def generic(url: str, n: int) -> dict[str, Any]:
    return {"tool_name": "fetch", "tool_input": {"url": url}, "tool_use_id": f"g-{n}"}


def deny_body(fmt: str, reason: str) -> Any:
    return {
        "claude-code": {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                               "permissionDecision": "deny",
                                               "permissionDecisionReason": reason}},
        "gemini": {"decision": "deny", "reason": reason},
        "cursor": {"permission": "deny", "user_message": reason, "agent_message": reason},
        "copilot": {"permissionDecision": "deny", "permissionDecisionReason": reason},
    }[fmt]


CASES = [("claude-code", claude_code), ("codex", codex), ("gemini", gemini),
         ("cursor", cursor), ("copilot", copilot), ("copilot", copilot_pascal),
         ("generic", generic)]
IDS = ["claude-code", "codex", "gemini", "cursor", "copilot", "copilot-pascal", "generic"]


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "l.jsonl"
    ledger.Ledger(path).bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    return path


def child(fmt: str, record: Any, *argv: str, patch: str = "") -> tuple[int, str, str]:
    """``gate halt hook --format fmt ARGV`` in a child process, ``record`` on its stdin.
    ``patch``: Python run in the child before the hook (to break the ledger from inside)."""
    code = ("import sys\n" + patch + "\nfrom gate.commands.main import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    data = record if isinstance(record, bytes) else json.dumps(record).encode()
    done = subprocess.run([sys.executable, "-c", code, "halt", "hook", "--format", fmt, *argv],
                          input=data, capture_output=True, timeout=60, check=False,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def assert_allowed(fmt: str, answer: tuple[int, str, str]) -> None:
    code, out, err = answer
    assert (code, err) == (0, ""), answer
    assert out == ('{"permission":"allow"}\n' if fmt == "cursor" else ""), answer


def assert_blocked(fmt: str, answer: tuple[int, str, str], needle: str) -> None:
    """Blocked in ``fmt``'s own terms, the reason (containing ``needle``) on stderr too."""
    code, out, err = answer
    assert err.startswith("gate halt hook: ") and err.count("\n") == 1 and needle in err, answer
    reason = err.removeprefix("gate halt hook: ").rstrip("\n")
    if fmt in ("codex", "generic"):  # exit 2 with a non-empty reason on stderr (Codex needs it)
        assert (code, out) == (2, ""), answer
    else:  # the CLI's JSON deny on exit 0, one object and nothing else on stdout
        assert code == 0, answer
        assert out.endswith("\n") and out.count("\n") == 1, answer
        assert json.loads(out) == deny_body(fmt, reason), answer


@pytest.mark.parametrize(("fmt", "shape"), CASES, ids=IDS)
def test_allow_and_block_in_the_clis_own_form(book: Path, fmt: str, shape: Any) -> None:
    assert_allowed(fmt, child(fmt, shape(GOOD, 1), "--ledger", str(book)))
    assert_blocked(fmt, child(fmt, shape(LIVE, 2), "--ledger", str(book)),
                   "halt (row 2): target class is live")
    decided = [json.loads(x) for x in book.read_text().splitlines()][1:]
    assert [(e["decision"], e["binding"]["host"]) for e in decided] == [
        ("allow", FIXTURE_HOST), ("halt", "api.github.com")]


@pytest.mark.parametrize(("fmt", "shape"), CASES, ids=IDS)
def test_its_own_time_limit_blocks_in_the_clis_own_form(book: Path, fmt: str,
                                                         shape: Any) -> None:
    with open(book, "rb") as held:  # another writer holds the ledger lock for good
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        answer = child(fmt, shape(GOOD, 3), "--ledger", str(book), "--timeout", "0.5")
    assert_blocked(fmt, answer, "blocked: time limit of 0.5s reached")
    assert len(book.read_text().splitlines()) == 1  # nothing was recorded


BROKEN = ("import gate.records.ledger as _l\n"
          "def _boom(*a, **k):\n    raise RuntimeError('disk on fire')\n"
          "_l.Ledger.check = _boom\n")


@pytest.mark.parametrize(("fmt", "shape"), CASES, ids=IDS)
def test_an_internal_error_blocks_in_the_clis_own_form(book: Path, fmt: str,
                                                       shape: Any) -> None:
    answer = child(fmt, shape(GOOD, 4), "--ledger", str(book), patch=BROKEN)
    assert_blocked(fmt, answer, "internal error: RuntimeError: disk on fire")


@pytest.mark.parametrize(("fmt", "shape"), CASES, ids=IDS)
def test_unparsable_input_blocks_in_the_clis_own_form(book: Path, fmt: str,
                                                      shape: Any) -> None:
    good = json.dumps(shape(GOOD, 5)).encode()
    assert_blocked(fmt, child(fmt, good[:-3], "--ledger", str(book)), "not valid JSON")


@pytest.mark.parametrize("fmt", ["claude-code", "codex", "gemini", "cursor"])
def test_another_clis_input_or_event_blocks(book: Path, fmt: str) -> None:
    other = gemini(GOOD, 6) if fmt != "gemini" else claude_code(GOOD, 6)
    assert_blocked(fmt, child(fmt, other, "--ledger", str(book)), "hook_event_name is")


def test_a_digest_attempt_id_is_one_call(book: Path) -> None:
    # Gemini sends no per-call id: the same input twice is one attempt, the second a replay.
    assert_allowed("gemini", child("gemini", gemini(GOOD, 7), "--ledger", str(book)))
    assert_blocked("gemini", child("gemini", gemini(GOOD, 7), "--ledger", str(book)),
                   "attempt already allowed once")
    assert_allowed("gemini", child("gemini", gemini(GOOD, 8), "--ledger", str(book)))


@pytest.mark.parametrize("argv", [["--format", "claude"], ["--format"],
                                  ["--format", "codex", "--tool-name-field", "x"],
                                  ["--format", "gemini", "--format", "gemini"]])
def test_bad_usage_blocks_everywhere(book: Path, argv: list[str]) -> None:
    # exit 2 and a reason on stderr is a block in every supported CLI
    done = subprocess.run([sys.executable, "-m", "gate", "halt", "hook", "--ledger", str(book),
                           *argv], input=json.dumps(claude_code(GOOD, 9)).encode(),
                          capture_output=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.startswith(b"gate halt hook: blocked: ") and done.stderr.count(b"\n") == 1


def test_render_is_one_json_object_or_nothing() -> None:
    for fmt in hook.FORMATS:
        code, out = hook.render(fmt, False, "no\nnewline \x1b[31m here")
        assert code in (0, 2)
        if out:
            assert "\n" not in out[:-1] and json.loads(out)
            assert "\\n" not in out and "\\u001b" not in out
        assert hook.render(fmt, True) == (0, '{"permission":"allow"}\n' if fmt == "cursor"
                                          else "")


def test_help_lists_every_format() -> None:
    done = subprocess.run([sys.executable, "-m", "gate", "halt", "hook", "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    for fmt in hook.FORMATS:
        assert fmt in done.stdout


def _wiring() -> list[dict[str, Any]]:
    import re

    from tests import manual

    section = manual.section("Wiring the hook into an agent CLI")
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.DOTALL)]


def test_the_readme_wiring_answers_before_the_cli_gives_up() -> None:
    """Each wiring block is valid JSON, names its CLI's --format, wraps the hook so that a
    failure to start is exit 2 with stderr, and keeps --timeout + 1 s (the watchdog) below the
    CLI's own hook timeout."""
    import re

    blocks = _wiring()
    seen = []
    for block in blocks:
        ((event, groups),) = block["hooks"].items()
        for group in groups:
            for entry in group.get("hooks", [group]):
                command = entry.get("command") or entry["bash"]
                fmt = re.search(r"--format (\S+)", command)
                timeout = re.search(r"--timeout (\S+)", command)
                assert fmt and timeout, command
                assert command.endswith('|| { echo "gate halt hook failed ($?)" >&2; exit 2; }')
                limit = float(timeout.group(1)) + 1.0
                cli = (entry.get("timeoutSec") or entry["timeout"]) / (
                    1000 if fmt.group(1) == "gemini" else 1)
                assert limit < cli, command
                assert event == {"claude-code": "PreToolUse", "codex": "PreToolUse",
                                 "gemini": "BeforeTool", "cursor": "preToolUse",
                                 "copilot": "preToolUse"}[fmt.group(1)]
                if fmt.group(1) == "cursor":
                    assert entry["failClosed"] is True
                seen.append(fmt.group(1))
    assert seen == ["claude-code", "codex", "gemini", "cursor", "copilot"]


NO_TIMER = "import _signal\n_signal.setitimer = lambda *a, **k: (0.0, 0.0)\n"


@pytest.mark.parametrize(("fmt", "shape"), [("claude-code", claude_code), ("codex", codex),
                                            ("cursor", cursor)], ids=["claude-code", "codex",
                                                                      "cursor"])
def test_the_watchdog_blocks_when_the_timer_cannot(book: Path, fmt: str, shape: Any) -> None:
    """The main thread stuck where no timer reaches it: one second after the time limit the
    watchdog answers the block and ends the process with exit 2 (a block in every CLI)."""
    with open(book, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        code, out, err = child(fmt, shape(GOOD, 10), "--ledger", str(book), "--timeout", "0.3",
                               patch=NO_TIMER)
    assert code == 2
    assert err == "gate halt hook: blocked: time limit of 0.3s reached\n"
    if fmt == "codex":
        assert out == ""
    else:
        assert json.loads(out) == deny_body(fmt, "blocked: time limit of 0.3s reached")
    assert len(book.read_text().splitlines()) == 1


@pytest.mark.parametrize(("fmt", "record"), [
    ("cursor", {**cursor(GOOD, 11), "tool_name": "Write",
                "tool_input": {"file_path": "/repo/src/x.py", "content": "x = 1\n"}}),
    ("cursor", {**cursor(GOOD, 12), "tool_name": "Shell", "tool_input": {"command": "ls"}}),
    ("copilot", {**copilot(GOOD, 13), "toolName": "edit",
                 "toolArgs": json.dumps({"path": "src/x.py", "old_str": "a", "new_str": "b"})}),
    ("copilot", {**copilot(GOOD, 14), "toolName": "bash", "toolArgs": {"command": "pytest"}}),
    ("copilot", {**copilot_pascal(GOOD, 15), "tool_name": "Edit",
                 "tool_input": {"path": "src/x.py"}}),
], ids=["cursor-Write", "cursor-Shell", "copilot-edit", "copilot-bash", "copilot-pascal-Edit"])
def test_local_tools_pass_with_no_ledger_check(book: Path, fmt: str, record: Any) -> None:
    """Cursor and Copilot send every call (README: wired without a matcher). An edit, a read or
    the shell is allowed in the CLI's own allow form and nothing is recorded: the agent is not
    blocked from editing files. (Before: blocked, "no target host".)"""
    before = book.read_bytes()
    assert_allowed(fmt, child(fmt, record, "--ledger", str(book)))
    assert book.read_bytes() == before


def test_an_unknown_tool_is_checked_as_a_network_call(book: Path) -> None:
    """A tool name neither list knows (an MCP tool, a new web tool) is decided by the ledger."""
    record = {**copilot(GOOD, 16), "toolName": "fetch-get",
              "toolArgs": json.dumps({"url": LIVE})}
    assert_blocked("copilot", child("copilot", record, "--ledger", str(book)),
                   "halt (row 2): target class is live")
    record = {**cursor(GOOD, 17), "tool_name": "WebSearch", "tool_input": {"query": "x"}}
    assert_blocked("cursor", child("cursor", record, "--ledger", str(book)), "no target host")


# --- the local-tool prefilter (issue 31: answered before the ledger is built) -------------------


def full_path_allows(data: bytes, fmt: str) -> bool:
    """What :func:`hook.read_call` (and so :func:`hook.decide`) makes of ``data``: an unchecked
    call, allowed with no ledger check."""
    try:
        return hook.read_call(data, hook.HookConfig(format=fmt)).unchecked
    except hook.Blocked:
        return False


def local_inputs() -> list[tuple[str, bytes, bool]]:
    """(format, input, is a local-tool call the prefilter must take): every documented local
    tool of both CLIs, and each way an input naming one can still be refused or checked."""
    out: list[tuple[str, bytes, bool]] = []
    for fmt, names in hook.UNCHECKED_TOOLS.items():
        for name in sorted(names):
            if fmt == "cursor":
                record: dict[str, Any] = {**cursor(GOOD, 1), "tool_name": name,
                                          "tool_input": {"file_path": "/repo/ä.py"}}
            else:
                record = {**copilot(GOOD, 1), "toolName": name, "toolArgs": "{not json"}
            out.append((fmt, json.dumps(record).encode(), True))
            out.append((fmt, json.dumps(record, ensure_ascii=False, indent=1).encode(), True))
    read = json.dumps({**cursor(GOOD, 2), "tool_name": "Read", "tool_input": {}})
    view = json.dumps({**copilot(GOOD, 2), "toolName": "view"})
    pascal = json.dumps({**copilot_pascal(GOOD, 2), "tool_name": "Read"})
    out += [("copilot", pascal.encode(), True)]
    refused = [  # each names a local tool, and the whole path must see it
        read.replace('"tool_name": "Read"', '"tool_name": "WebFetch", "tool_name": "Read"'),
        view.replace('"toolName": "view"', '"toolName": "web_fetch", "toolName": "view"'),
        read.replace('"cwd": ""', '"cwd": NaN'), read.replace('"cwd": ""', '"cwd": Infinity'),
        read.replace('"cwd": ""', '"cwd": "\\ud800"'),
        read.replace('"cwd": ""', '"cwd": "\\uDFFF"'),
        read.replace('"cwd": ""', '"cwd": ' + "[" * 70 + "]" * 70),
        "\ufeff" + read, read + " x", read + "{}", read[:-1], read.replace('"', "'"),
        read.replace("preToolUse", "PreToolUse"), read.replace('"Read"', '"read"'),
        read.replace('"Read"', '"Read "'), read.replace('"Read"', '["Read"]'),
        view.replace('"view"', "null"), read.replace('"cwd": ""', '"cwd": "' + "x" * 2**20 + '"'),
        "[" + read + "]", '"Read"', "", "   ",
    ]
    out += [("copilot" if text.startswith(view[:12]) or "conversation_id" not in text
             else "cursor", text.encode(), False) for text in refused]
    out.append(("cursor", read.encode("utf-16"), False))
    out.append(("cursor", read.encode()[:-3] + b"\xff\"}", False))
    out += [(fmt, read.encode(), False) for fmt in ("claude-code", "codex", "gemini", "generic")]
    out.append(("copilot", read.encode(), False))  # Cursor's event is not Copilot's
    out.append(("cursor", pascal.encode(), False))
    return out


@pytest.mark.parametrize(("fmt", "data", "local"), local_inputs())
def test_the_local_tool_prefilter_answers_only_what_the_whole_path_allows(
        fmt: str, data: bytes, local: bool) -> None:
    """:func:`hook.local_tool` answers a documented local tool at start-up; it never says yes
    where :func:`hook.read_call` would not read an unchecked call (duplicate keys, NaN, a lone
    surrogate, deep nesting, a BOM, trailing data, a near-miss name or event, > 1 MiB)."""
    assert hook.local_tool(data, fmt) is local
    assert full_path_allows(data, fmt) is local


@pytest.mark.parametrize(("extra", "needle"), [
    (("--policy", "missing-policy.yml"), "missing-policy.yml"),
    (("--ledger", "/"), "internal error"),
])
def test_a_local_tool_with_a_broken_configuration_still_blocks(
        tmp_path: Path, extra: tuple[str, str], needle: str) -> None:
    """The prefilter leaves bad flags to the whole path, which blocks as before (a policy
    that cannot be read; a ledger path with no name for its halt report)."""
    record = {**cursor(GOOD, 3), "tool_name": "Read", "tool_input": {"file_path": "x"}}
    argv = ["--ledger", str(tmp_path / "l.jsonl"), *extra]
    if extra[0] == "--ledger":
        argv = list(extra)
    assert_blocked("cursor", child("cursor", record, *argv), needle)
