"""The tool guard (gate.agent.guard): the halt gate rechecked before every call, in threads and
processes.

The acceptance loop: a small agent (plain Python, no model) calls a tool through the guard while
a second thread (or process) rebinds the run and swaps hosts. The tool body keeps its own call
log; every logged call must have a fresh ALLOW in the ledger for its attempt id and host, no
attempt id may be called twice, and ``gate halt audit`` must say ``failed=0``.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gate.agent import guard
from gate.decide.halt import Binding, Decision
from gate.records import ledger
from tests.core_helpers import FIXTURE_HOST, FIXTURE_SCOPE, MARKER, run_cli

OTHER_FIXTURE = "other.lab.invalid"
HOSTS = [FIXTURE_HOST, OTHER_FIXTURE, "api.example.com", "api.lab.invalid.evil.com"]


def entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def audit_line(path: Path) -> str:
    result = run_cli("halt", "audit", path)
    return result.lines[-1]


def to(host: str) -> Any:
    """A declared target: the call reaches ``host``."""
    return lambda _args, _kwargs: host


@pytest.fixture
def book(tmp_path: Path) -> ledger.Ledger:
    return ledger.Ledger(tmp_path / "l.jsonl", halt_report=tmp_path / "halts.jsonl")


# --- one call at a time ------------------------------------------------------------------------


def test_allow_calls_the_tool_once_and_a_retry_is_refused(book: ledger.Ledger) -> None:
    g = guard.ToolGuard(book)
    b = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    calls: list[tuple[Any, ...]] = []

    @g.tool(target="url")
    def fetch(url: str, *, size: int = 1) -> str:
        calls.append((url, size))
        return f"{url}:{size}"

    url = f"https://{FIXTURE_HOST}/x"
    assert fetch(url, size=2, binding=b, issued_generation=1, attempt_id="a1") == f"{url}:2"
    with pytest.raises(guard.ToolCallReplayed) as caught:
        fetch(url, size=2, binding=b, issued_generation=1, attempt_id="a1")
    assert caught.value.decision is Decision.ALLOW and caught.value.replayed
    assert caught.value.attempt_id == "a1"
    assert calls == [(url, 2)]
    assert fetch.__name__ == "fetch"
    assert [e["kind"] for e in entries(book.path)] == ["bind", "decision"]  # replay: no line


@pytest.mark.parametrize(("change", "issued", "error", "decision", "row"), [
    ({"host": "api.example.com"}, 1, guard.ToolCallHalted, Decision.HALT, 2),
    ({"marker": None}, 1, guard.ToolCallHalted, Decision.HALT, 2),
    ({"host": OTHER_FIXTURE}, 1, guard.ToolCallRejected, Decision.REJECT, 3),  # swapped host
    ({}, 2, guard.ToolCallRejected, Decision.REJECT, 1),  # issued under another generation
    ({"run_id": "never-minted"}, 1, guard.ToolCallHalted, Decision.HALT, 3),
])
def test_refusals_never_run_the_body_and_retries_replay_them(
        book: ledger.Ledger, change: dict[str, Any], issued: int, error: type[Exception],
        decision: Decision, row: int) -> None:
    g = guard.ToolGuard(book)
    b = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER).replace(**change)
    calls: list[str] = []
    for attempt in range(3):  # the first decides, the retries get the recorded decision
        with pytest.raises(error) as caught:
            g.call(calls.append, "body ran", target=to(b.host), binding=b,
                   issued_generation=issued, attempt_id="a1")
        assert isinstance(caught.value, guard.ToolCallRefused)
        assert (caught.value.decision, caught.value.row) == (decision, row)
        assert caught.value.replayed is (attempt > 0)
        assert caught.value.reason and "a1" in str(caught.value)
    assert calls == []
    assert audit_line(book.path) == "failed=0 denominator=1"


def test_stale_generation_after_a_rebind_is_rejected(book: ledger.Ledger) -> None:
    g = guard.ToolGuard(book)
    first = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    book.bind("run-1", FIXTURE_SCOPE, OTHER_FIXTURE, MARKER, expect_generation=1)
    with pytest.raises(guard.ToolCallRejected) as caught, g.attempt(
            first, 1, "a1", target=f"https://{FIXTURE_HOST}/"):
        pytest.fail("the block ran")
    assert "no longer the run's current one" in caught.value.reason


def test_conflicting_retry_is_rejected_and_the_allow_stands(book: ledger.Ledger) -> None:
    g = guard.ToolGuard(book)
    b = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    assert g.call(len, "abc", target=to(FIXTURE_HOST), binding=b, issued_generation=1,
                  attempt_id="a1") == 3
    with pytest.raises(guard.ToolCallRejected) as caught:
        g.call(len, "abc", target=to("api.example.com"), binding=b, issued_generation=1,
               attempt_id="a1")
    assert caught.value.row == 0
    with pytest.raises(guard.ToolCallReplayed):
        g.call(len, "abc", target=to(FIXTURE_HOST), binding=b, issued_generation=1,
               attempt_id="a1")


def test_guard_opens_its_own_ledger_and_writes_halts(tmp_path: Path) -> None:
    book = ledger.Ledger(tmp_path / "l.jsonl")
    book.bind("run-1", FIXTURE_SCOPE, "api.example.com", MARKER, "live")
    g = guard.ToolGuard(tmp_path / "l.jsonl", halt_report=tmp_path / "h.jsonl")
    b = Binding("run-1", 1, FIXTURE_SCOPE, "api.example.com", MARKER, "live")
    with pytest.raises(guard.ToolCallHalted):
        g.call(print, target=to(b.host), binding=b, issued_generation=1, attempt_id="a1")
    (report,) = entries(tmp_path / "h.jsonl")
    assert report["attempt_id"] == "a1" and report["host"] == "api.example.com"
    with pytest.raises(TypeError):
        guard.ToolGuard(book, halt_report=tmp_path / "h.jsonl")


# --- the host the call reaches --------------------------------------------------------------------


@pytest.mark.parametrize(("url", "error", "decision", "row", "recorded"), [
    ("https://api.github.com/repos", guard.ToolCallHalted, Decision.HALT, 2, "api.github.com"),
    ("https://api.lab.invalid.evil.com/", guard.ToolCallHalted, Decision.HALT, 2,
     "api.lab.invalid.evil.com"),
    (f"https://{OTHER_FIXTURE}/x", guard.ToolCallRejected, Decision.REJECT, 3, OTHER_FIXTURE),
    (f"https://{FIXTURE_HOST}@evil.com/", guard.ToolCallHalted, Decision.HALT, 2, ""),
    ("https://evil.com\\@api.lab.invalid/", guard.ToolCallHalted, Decision.HALT, 2, ""),
    (7, guard.ToolCallHalted, Decision.HALT, 2, ""),
])
def test_a_good_binding_with_a_live_url_never_runs_the_body(
        book: ledger.Ledger, url: Any, error: type[Exception], decision: Decision, row: int,
        recorded: str) -> None:
    g = guard.ToolGuard(book)
    good = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    calls: list[Any] = []

    @g.tool(target="url")
    def fetch(url: Any) -> None:
        calls.append(url)

    @g.tool(target=lambda args, kwargs: kwargs["request"]["url"])
    def send(*, request: dict[str, Any]) -> None:
        calls.append(request)

    with pytest.raises(error) as caught:
        fetch(url, binding=good, issued_generation=1, attempt_id="a1")
    assert (caught.value.decision, caught.value.row) == (decision, row)  # type: ignore[attr-defined]
    with pytest.raises(error):
        send(request={"url": url}, binding=good, issued_generation=1, attempt_id="a2")
    assert calls == []
    decided = [e for e in entries(book.path) if e["kind"] == "decision"]
    assert [(e["attempt_id"], e["binding"]["host"]) for e in decided] == [
        ("a1", recorded), ("a2", recorded)]
    assert audit_line(book.path) == "failed=0 denominator=2"


def test_the_guard_and_the_hook_read_a_target_with_one_function(book: ledger.Ledger) -> None:
    from gate.agent import hook, target

    assert guard.target_host is hook.target_host is target.target_host
    g = guard.ToolGuard(book)
    good = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    fetched: list[str] = []
    fetch = g.tool(target="url")(lambda url: fetched.append(url))
    fetch(url="HTTPS://API.Lab.Invalid:8443/x", binding=good, issued_generation=1,
          attempt_id="a1")
    assert fetched == ["HTTPS://API.Lab.Invalid:8443/x"]
    (decision,) = [e for e in entries(book.path) if e["kind"] == "decision"]
    assert decision["binding"]["host"] == FIXTURE_HOST and decision["decision"] == "allow"


def test_a_tool_without_a_declared_target_cannot_be_decorated(book: ledger.Ledger) -> None:
    g = guard.ToolGuard(book)

    def fetch(url: str) -> None:
        pytest.fail("the body ran")

    with pytest.raises(TypeError, match="needs target="):
        g.tool(fetch)  # the bare @g.tool
    with pytest.raises(TypeError, match="needs target="):
        g.tool()
    with pytest.raises(TypeError, match="not a parameter"):
        g.tool(target="uri")(fetch)
    with pytest.raises(TypeError, match="argument name or a function"):
        g.tool(target=3)(fetch)  # type: ignore[arg-type]
    b = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    with pytest.raises(TypeError):
        g.call(fetch, "https://api.lab.invalid/", binding=b,  # type: ignore[call-arg]
               issued_generation=1, attempt_id="a1")
    assert [e["kind"] for e in entries(book.path)] == ["bind"]


# --- the agent loop ------------------------------------------------------------------------------


def agent(g: guard.ToolGuard, path: Path, name: str, calls: int, seed: int,
          log: list[tuple[str, str]]) -> Counter[str]:
    """Tool calls with whatever binding the planner last saw, sometimes bent or retried."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    reader = ledger.Ledger(path)  # the planner's view: the issuer's record, maybe stale by now

    def tool(host: str, attempt: str) -> None:  # the tool body keeps its own log
        log.append((attempt, host))

    previous: list[tuple[str, Binding, int]] = []
    for n in range(calls):
        current = reader.current_bindings()["run-1"]
        b, issued, attempt = current, current.generation, f"{name}-{n}"
        move = rng.random()
        if move < 0.15:
            b = b.replace(host=rng.choice(HOSTS))  # a host the planner swapped in
        elif move < 0.25:
            issued = b.generation - 1  # a call issued under an older generation
        elif move < 0.35 and previous:
            attempt, b, issued = rng.choice(previous)  # a retry of an earlier attempt id
        try:
            g.call(tool, b.host, attempt, target="host", binding=b, issued_generation=issued,
                   attempt_id=attempt)
            seen["called"] += 1
        except guard.ToolCallReplayed:
            seen["replayed"] += 1
        except guard.ToolCallHalted:
            seen["halt"] += 1
        except guard.ToolCallRejected:
            seen["reject"] += 1
        previous.append((attempt, b, issued))
    return seen


def rebinder(path: Path, stop: threading.Event | Any, seed: int) -> int:
    """Rebind the run over and over: fixture hosts, live hosts, a missing marker."""
    rng = random.Random(seed)
    book = ledger.Ledger(path)
    count = 0
    while not stop.is_set():
        host = rng.choice([FIXTURE_HOST, FIXTURE_HOST, OTHER_FIXTURE, "api.example.com"])
        marker = MARKER if rng.random() < 0.85 else None
        book.bind("run-1", FIXTURE_SCOPE, host, marker)
        count += 1
        time.sleep(rng.uniform(0.005, 0.02))
    return count


def check_log(path: Path, log: list[tuple[str, str]]) -> dict[str, int]:
    """Every logged call has a fresh ALLOW for its attempt id and host; nothing called twice."""
    decided = {e["attempt_id"]: e for e in entries(path) if e["kind"] == "decision"}
    allowed = {a: e for a, e in decided.items() if e["decision"] == "allow"}
    attempts = [attempt for attempt, _ in log]
    assert len(attempts) == len(set(attempts)), "an attempt id was called twice"
    without_allow = [(a, h) for a, h in log
                     if a not in allowed or allowed[a]["binding"]["host"] != h]
    assert without_allow == []
    assert set(attempts) == set(allowed)  # and every ALLOW was called (nobody died mid-call)
    assert all(h in (FIXTURE_HOST, OTHER_FIXTURE) for _, h in log)
    return {"calls": len(log), "allows": len(allowed), "without_allow": len(without_allow),
            "attempts": len(decided)}


def test_agent_threads_with_a_rebinding_thread(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    book = ledger.Ledger(path)
    book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    g = guard.ToolGuard(book)  # one guard and one ledger object shared by every agent thread
    log: list[tuple[str, str]] = []
    stop = threading.Event()
    results: list[Counter[str]] = []
    rebinds: list[int] = []
    bind_thread = threading.Thread(target=lambda: rebinds.append(rebinder(path, stop, 7)))
    agents = [threading.Thread(target=lambda i=i: results.append(
        agent(g, path, f"t{i}", 250, i, log))) for i in range(3)]
    bind_thread.start()
    for t in agents:
        t.start()
    for t in agents:
        t.join()
    stop.set()
    bind_thread.join()
    seen = sum(results, Counter())
    figures = check_log(path, log)
    assert figures["calls"] == seen["called"] > 30
    assert seen["halt"] > 10 and seen["reject"] > 10 and seen["replayed"] > 0
    assert rebinds[0] > 20
    assert audit_line(path) == f"failed=0 denominator={figures['attempts']}"
    print(f"guard threads: {dict(seen)} rebinds={rebinds[0]} {figures}")


def _process_agent(path: str, name: str, log_path: str, seed: int,
                   out: Any) -> None:
    log: list[tuple[str, str]] = []
    try:
        seen = agent(guard.ToolGuard(Path(path)), Path(path), name, 120, seed, log)
    finally:
        Path(log_path).write_text(json.dumps(log))
    out.put(dict(seen))


def _process_rebinder(path: str, stop: Any, out: Any) -> None:
    out.put(rebinder(Path(path), stop, 11))


def test_agent_processes_with_a_rebinding_process(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    ledger.Ledger(path).bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    ctx = multiprocessing.get_context("spawn")
    stop, out, rebind_out = ctx.Event(), ctx.Queue(), ctx.Queue()
    binder = ctx.Process(target=_process_rebinder, args=(str(path), stop, rebind_out))
    workers = [ctx.Process(target=_process_agent,
                           args=(str(path), f"p{i}", str(tmp_path / f"log{i}.json"), i, out))
               for i in range(3)]
    binder.start()
    for w in workers:
        w.start()
    seen: Counter[str] = Counter()
    for _ in workers:
        seen.update(out.get(timeout=120))
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    stop.set()
    rebinds = rebind_out.get(timeout=60)
    binder.join(timeout=60)
    log = [tuple(x) for i in range(3)
           for x in json.loads((tmp_path / f"log{i}.json").read_text())]
    figures = check_log(path, log)
    assert figures["calls"] == seen["called"] > 15
    assert seen["halt"] > 5 and seen["reject"] > 5
    assert rebinds > 10
    assert audit_line(path) == f"failed=0 denominator={figures['attempts']}"
    print(f"guard processes: {dict(seen)} rebinds={rebinds} {figures}")


def test_one_attempt_id_raced_by_threads_and_processes_is_called_once(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    b = ledger.Ledger(path).bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    g = guard.ToolGuard(path)
    log: list[str] = []
    barrier = threading.Barrier(8)

    def race() -> None:
        barrier.wait()
        try:
            g.call(log.append, "called", target=to(FIXTURE_HOST), binding=b,
                   issued_generation=1, attempt_id="same")
        except guard.ToolCallReplayed:
            log.append("replayed")

    threads = [threading.Thread(target=race) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(log) == ["called"] + ["replayed"] * 7
