"""``gate halt hook``: the pre-tool-use hook, driven the way an agent command-line tool drives it.

The 1,000 generated tool-call descriptions run through :func:`gate.agent.hook.run`, the function the
``gate halt hook`` command calls, with arguments parsed by the command's own parser and the
input given as the bytes of standard input (so the JSON parsing is the same code path). A child
process costs about 0.3 s here, so 160 further generated descriptions (other attempt ids, same
generator) run as real ``gate halt hook`` child processes fed JSON on stdin, four at a time.
Every description is labelled allow/block by the generator, by construction, never by the code
under test: exactly the well-formed calls to the run's minted closed-fixture host, each with a
new attempt id, are allowed (a port on that host is allowed; user info in a URL is not).
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from gate.agent import hook
from gate.records import ledger
from tests.core_helpers import FIXTURE_HOST, FIXTURE_SCOPE, MARKER, run_cli

Case = tuple[bytes, bool, str]  # stdin bytes, allow expected, what kind of case

ALLOWED_URLS = [
    "https://api.lab.invalid/v1/items?q=1", "http://api.lab.invalid", "https://API.Lab.Invalid/x",
    "https://api.lab.invalid:8443/x", "//api.lab.invalid/path", "https://api.lab.invalid#frag",
]
LIVE = ["https://example.com/", "https://api.github.com/repos", "http://evil.com", "evil.com",
        "https://invalid/", "https://lab.invalid.com/"]
BYPASS = [
    "https://api.lab.invalid.evil.com/", "api.lab.invalid.evil.com", "https://lab.invalid@evil.com/",
    "lab.invalid@evil.com", "https://api.lab.invalid@evil.com/x", "https://evil.com#.invalid",
    "https://evil.com#@api.lab.invalid", "https://evil.com/?h=api.lab.invalid",
    "evil.com#.invalid", "https://api.lab.invalid./", "api.lab.invalid.",
    "https://api.lab.\u0131nvalid/", "https://api.lab.\u0456nvalid/", "\uff41pi.lab.invalid",
    "https://api\uff0elab\uff0einvalid/", "https://evil.com\\@api.lab.invalid/",
    "https://evil.com\\.api.lab.invalid", "http://127.0.0.1/", "http://[::1]/", "127.0.0.1",
    "http://2130706433/", "https://api.lab.invalid:99999/", "https://api.lab.invalid:abc/",
    "https://user:pw@api.lab.invalid/", "https://api.lab.invalid /", "https://api.lab.invalid\n.x",
    "https://api.lab.invalid%2eevil.com/", "https://other.lab.invalid/", "lab.invalid",
    "https://fixture.local/", "api.lab.invalid:8443", "", "https:///path", "file:///etc/passwd",
    "https://api.lab.invalid\t/", "https://\u200bapi.lab.invalid/", "api.lab.invalid\x00",
]


def _call(rng: random.Random, attempt: str, target_input: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = {"tool_name": rng.choice(["WebFetch", "mcp__http__get", "fetch"]),
                              "tool_input": target_input, "tool_use_id": attempt}
    if rng.random() < 0.5:
        record.update(session_id="s-1", hook_event_name="PreToolUse", cwd="/w")
    return record


def _target(rng: random.Random, value: str) -> dict[str, Any]:
    if "://" in value or value.startswith("//"):
        field = rng.choice(["url", "uri"])
    else:
        field = rng.choice(["host", "hostname"])
    extra = {"prompt": "summarise", "method": "GET"} if rng.random() < 0.5 else {}
    return {field: value, **extra}


def generate(count: int, seed: int, prefix: str) -> list[Case]:
    """``count`` labelled hook inputs; attempt ids are ``prefix-N``."""
    rng = random.Random(seed)
    cases: list[Case] = []
    allowed_ids: list[str] = []

    def dump(record: Any) -> bytes:
        return json.dumps(record).encode()

    for n in range(count):
        attempt = f"{prefix}-{n}"
        roll = rng.random()
        if roll < 0.30:  # a valid closed-fixture call
            value = rng.choice([*ALLOWED_URLS, FIXTURE_HOST, "API.LAB.INVALID"])
            target = _target(rng, value)
            if rng.random() < 0.2:  # url and host both given, agreeing
                target = {"url": "https://api.lab.invalid/x", "host": FIXTURE_HOST}
            cases.append((dump(_call(rng, attempt, target)), True, "fixture"))
            allowed_ids.append(attempt)
        elif roll < 0.42:
            cases.append((dump(_call(rng, attempt, _target(rng, rng.choice(LIVE)))), False,
                          "live"))
        elif roll < 0.70:
            value = rng.choice(BYPASS)
            cases.append((dump(_call(rng, attempt, _target(rng, value))), False,
                          f"bypass {value!r}"))
        elif roll < 0.76 and allowed_ids:  # the same attempt id again: a replay
            again = _call(rng, rng.choice(allowed_ids), {"url": "https://api.lab.invalid/x"})
            cases.append((dump(again), False, "replayed attempt id"))
        elif roll < 0.88:  # malformed input
            good = dump(_call(rng, attempt, {"url": "https://api.lab.invalid/x"}))
            bad = rng.choice([
                good[: rng.randrange(1, len(good))], b"", b"[]", b"null", b"\xff\xfe" + good,
                good.replace(b"{", b"{'", 1), b'{"tool_name": NaN}',
                (b'{"tool_name": "f", "tool_use_id": "%s", "tool_input": {"url": '
                 b'"https://evil.com", "url": "https://api.lab.invalid/"}}' % attempt.encode()),
                b"x" * (hook.MAX_INPUT_BYTES + 10),
            ])
            cases.append((bad, False, "malformed"))
        else:  # a missing or mistyped field
            record = _call(rng, attempt, {"url": "https://api.lab.invalid/x"})
            change = rng.randrange(9)
            if change == 0:
                del record["tool_name"]
            elif change == 1:
                del record["tool_use_id"]
            elif change == 2:
                del record["tool_input"]
            elif change == 3:
                record["tool_input"] = "https://api.lab.invalid/x"
            elif change == 4:
                record["tool_input"] = {"path": "/x"}
            elif change == 5:
                record["tool_use_id"] = rng.choice(["", 7, None, "x" * 300])
            elif change == 6:
                record["tool_input"] = {"url": ["https://api.lab.invalid/x"]}
            elif change == 7:  # two fields, two hosts
                record["tool_input"] = {"url": "https://api.lab.invalid/x", "host": "evil.com"}
            else:
                record["tool_name"] = ""
            cases.append((dump(record), False, f"missing field ({change})"))
    return cases


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "l.jsonl"
    ledger.Ledger(path).bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    return path


def in_process(*argv: str) -> Callable[[bytes], tuple[int, str]]:
    args = hook.parse_argv(list(argv))  # what `gate halt hook ARGV` runs with

    def run(data: bytes) -> tuple[int, str]:
        err = io.StringIO()
        code = hook.run(args, io.BytesIO(data), err)
        return code, err.getvalue()

    return run


def child(data: bytes, *argv: str, timeout: float = 60) -> tuple[int, str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-m", "gate", "halt", "hook", *argv], input=data,
                          capture_output=True, timeout=timeout, env=env, check=False)
    assert done.stdout == b""
    return done.returncode, done.stderr.decode()


def judge(results: list[tuple[Case, tuple[int, str]]]) -> dict[str, int]:
    wrongly_allowed = [kind for (_, want, kind), (code, _) in results if code == 0 and not want]
    wrongly_blocked = [kind for (_, want, kind), (code, _) in results if code != 0 and want]
    assert wrongly_allowed == []
    assert wrongly_blocked == []
    for (_, _, kind), (code, err) in results:
        assert code in (0, 2), kind
        if code == 0:
            assert err == "", kind
        else:
            assert err.startswith("gate halt hook: ") and err.endswith("\n"), kind
            assert err.count("\n") == 1, (kind, err)
    return {"tried": len(results), "allowed": sum(code == 0 for _, (code, _) in results),
            "wrongly_allowed": len(wrongly_allowed), "wrongly_blocked": len(wrongly_blocked)}


def test_a_thousand_generated_calls_in_process(book: Path) -> None:
    cases = generate(1000, seed=1, prefix="i")
    run = in_process("--ledger", str(book))
    started = time.monotonic()
    figures = judge([(case, run(case[0])) for case in cases])
    kinds = {kind.split(" ")[0] for _, _, kind in cases}
    assert {"fixture", "live", "bypass", "malformed", "missing", "replayed"} <= kinds
    assert figures["allowed"] > 200
    assert audit_lines(book)[-1].startswith("failed=0 ")
    print(f"hook in-process: {figures} in {time.monotonic() - started:.1f}s")


def test_generated_calls_as_child_processes(book: Path) -> None:
    cases = generate(160, seed=2, prefix="c")
    started = time.monotonic()
    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(lambda case: child(case[0], "--ledger", str(book)), cases))
    figures = judge(list(zip(cases, outcomes, strict=True)))
    assert figures["allowed"] > 30
    assert audit_lines(book)[-1].startswith("failed=0 ")
    print(f"hook child processes: {figures} in {time.monotonic() - started:.1f}s")


def audit_lines(path: Path) -> list[str]:
    return run_cli("halt", "audit", path).lines


def call(url: str, attempt: str = "t1", **extra: Any) -> bytes:
    return json.dumps({"tool_name": "WebFetch", "tool_input": {"url": url},
                       "tool_use_id": attempt, **extra}).encode()


# --- what is recorded and against which binding ------------------------------------------------


def test_decisions_are_recorded_against_the_attempt_id(book: Path, tmp_path: Path) -> None:
    run = in_process("--ledger", str(book))
    assert run(call("https://api.lab.invalid/x", "a1")) == (0, "")
    code, err = run(call("https://evil.com/", "a2"))
    assert code == 2 and "halt (row 2)" in err and "host evil.com" in err and "a2" in err
    code, err = run(call("https://other.lab.invalid/", "a3"))
    assert code == 2 and "reject (row 3)" in err
    code, err = run(call("https://lab.invalid@evil.com/", "a4"))
    assert code == 2 and "user info" in err
    lines = [json.loads(x) for x in book.read_text().splitlines()]
    decided = {e["attempt_id"]: (e["decision"], e["binding"]["host"]) for e in lines[1:]}
    assert decided == {"a1": ("allow", FIXTURE_HOST), "a2": ("halt", "evil.com"),
                       "a3": ("reject", "other.lab.invalid"), "a4": ("halt", "")}
    halts = [json.loads(x)["attempt_id"] for x in
             (tmp_path / "l.jsonl.halts.jsonl").read_text().splitlines()]
    assert halts == ["a2", "a4"]
    assert audit_lines(book)[-1] == "failed=0 denominator=4"


def test_after_a_rebind_the_new_host_is_the_fixture(book: Path, tmp_path: Path) -> None:
    issued = tmp_path / "issued.json"
    issued.write_text(json.dumps(ledger.Ledger(book).current_bindings()["run-1"].to_record()))
    ledger.Ledger(book).bind("run-1", FIXTURE_SCOPE, "b.lab.invalid", MARKER, expect_generation=1)
    run = in_process("--ledger", str(book))
    assert run(call("https://b.lab.invalid/", "a1")) == (0, "")
    assert run(call("https://api.lab.invalid/", "a2"))[0] == 2
    stale = in_process("--ledger", str(book), "--binding", str(issued))
    code, err = stale(call("https://api.lab.invalid/", "a3"))
    assert code == 2 and "no longer the run's current one" in err


def test_several_runs_need_a_run_id(book: Path) -> None:
    ledger.Ledger(book).bind("run-2", FIXTURE_SCOPE, "two.lab.invalid", MARKER)
    code, err = in_process("--ledger", str(book))(call("https://api.lab.invalid/", "a1"))
    assert code == 2 and "holds 2 runs" in err
    two = in_process("--ledger", str(book), "--run-id", "run-2")
    assert two(call("https://two.lab.invalid/", "a2")) == (0, "")
    assert two(call("https://api.lab.invalid/", "a3"))[0] == 2
    code, err = in_process("--ledger", str(book), "--run-id", "run-9")(call("https://x/", "a4"))
    assert code == 2 and "'run-9' has no binding" in err


def test_field_names_are_configurable(book: Path) -> None:
    run = in_process("--ledger", str(book), "--host-fields", "request.endpoint",
                     "--attempt-id-fields", "call_id,id", "--tool-name-field", "name",
                     "--input-field", "args")
    good = {"name": "get", "id": "a1", "args": {"request": {"endpoint": "https://api.lab.invalid"},
                                                "url": "https://evil.com"}}
    assert run(json.dumps(good).encode()) == (0, "")
    default_names = json.loads(call("https://api.lab.invalid/", "a2"))
    code, err = run(json.dumps(default_names).encode())
    assert code == 2 and "'name' missing" in err


# --- failing closed ------------------------------------------------------------------------------


def test_a_missing_ledger_blocks_and_is_not_created(tmp_path: Path) -> None:
    code, err = in_process("--ledger", str(tmp_path / "none.jsonl"))(call("https://a.lab.invalid"))
    assert code == 2 and "no ledger" in err
    assert not (tmp_path / "none.jsonl").exists()


def test_an_internal_error_blocks(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(ledger.Ledger, "check", broken)
    code, err = in_process("--ledger", str(book))(call("https://api.lab.invalid/"))
    assert (code, err) == (2, "gate halt hook: blocked: internal error: RuntimeError: disk on "
                              "fire\n")


def test_a_bad_policy_or_binding_file_blocks(book: Path, tmp_path: Path) -> None:
    (tmp_path / "p.yml").write_text("halt: [1\n")
    code, err = in_process("--ledger", str(book), "--policy", str(tmp_path / "p.yml"))(
        call("https://api.lab.invalid/"))
    assert code == 2 and "p.yml" in err
    code, err = in_process("--ledger", str(book), "--binding", str(tmp_path))(
        call("https://api.lab.invalid/"))
    assert code == 2 and "not a regular file" in err


@pytest.mark.parametrize("where", ["in-process", "child"])
def test_its_own_time_limit_blocks(book: Path, where: str) -> None:
    with open(book, "rb") as held:  # another writer holds the ledger lock for good
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        started = time.monotonic()
        if where == "child":
            code, err = child(call("https://api.lab.invalid/"), "--ledger", str(book),
                              "--timeout", "0.5")
        else:
            code, err = in_process("--ledger", str(book), "--timeout", "0.5")(
                call("https://api.lab.invalid/"))
        took = time.monotonic() - started
    assert (code, err) == (2, "gate halt hook: blocked: time limit of 0.5s reached\n")
    assert took < 10
    assert len(book.read_text().splitlines()) == 1  # nothing was recorded


@pytest.mark.parametrize("argv", [[], ["--ledger"], ["--ledger", "L", "--timeout", "0"],
                                  ["--ledger", "L", "--timeout", "nan"],
                                  ["--ledger", "L", "--host-fields", "url,,host"]])
def test_bad_usage_blocks(tmp_path: Path, argv: list[str]) -> None:
    (tmp_path / "L").write_text("")
    done = subprocess.run([sys.executable, "-m", "gate", "halt", "hook", *argv],
                          input=call("https://api.lab.invalid/"), capture_output=True,
                          cwd=tmp_path, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.count(b"\n") == 1
