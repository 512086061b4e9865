"""The halt gate's issuer and ledger (SPEC §2): bind, check, replay, conflicts, audit, tamper."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from gate.decide import halt
from gate.decide.halt import Binding, Decision
from gate.records import ledger, schemas
from gate.records.files import canonical_json
from tests.core_helpers import (
    FIXTURE_HOST,
    FIXTURE_SCOPE,
    MARKER,
    assert_bad_input,
    binding_record,
    run_cli,
    write_json,
)


def entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def bind_cli(path: Path, *extra: object, run_id: str = "run-1", host: str = FIXTURE_HOST,
             scope: str = FIXTURE_SCOPE) -> dict[str, Any]:
    result = run_cli("halt", "bind", "--ledger", path, "--run-id", run_id, "--scope", scope,
                     "--host", host, *extra)
    assert result.code == 0, result
    value: dict[str, Any] = json.loads(result.out)
    return value


def check_cli(path: Path, binding: dict[str, Any] | Path, gen: int, attempt: str,
              *extra: object) -> tuple[int, str]:
    bfile = binding if isinstance(binding, Path) else write_json(
        path.parent / f"binding-{attempt}.json", binding)
    result = run_cli("halt", "check", "--ledger", path, "--binding", bfile, "--issued-gen", gen,
                     "--attempt-id", attempt, *extra)
    assert result.err == "", result
    return result.code, result.out


def audit_cli(path: Path) -> tuple[int, list[str]]:
    result = run_cli("halt", "audit", path)
    return result.code, result.lines


# --- bind --------------------------------------------------------------------------------------


def test_bind_mints_generation_one(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    assert bind_cli(path) == binding_record()
    (entry,) = entries(path)
    assert (entry["kind"], entry["seq"], entry["prev"], entry["binding"]) == (
        "bind", 1, ledger.GENESIS, binding_record())
    assert entry["hash"] == ledger.entry_hash(entry)


def test_bind_options(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    assert bind_cli(path, "--no-marker", "--class", "unknown", run_id="r9")["marker"] is None
    live = bind_cli(path, "--class", "live", "--marker", "m", run_id="r8")
    assert (live["target_class"], live["marker"]) == ("live", "m")


def test_rebind_is_generation_plus_one_and_the_old_generation_rejects(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    assert check_cli(path, g1, 1, "a1") == (0, "allow\n")
    g2 = bind_cli(path, host="next.lab.invalid")
    assert g2 == binding_record(generation=2, host="next.lab.invalid")
    assert check_cli(path, g1, 1, "a2") == (1, "reject\n")
    assert check_cli(path, g2, 2, "a3") == (0, "allow\n")
    # the first binding line is untouched by the rebind
    assert entries(path)[0]["binding"] == g1
    assert audit_cli(path) == (0, ["failed=0 denominator=3"])


def test_expect_generation_compare_and_swap(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    assert bind_cli(path, "--expect-generation", 0)["generation"] == 1
    assert bind_cli(path, "--expect-generation", 1)["generation"] == 2
    before = path.read_bytes()
    result = run_cli("halt", "bind", "--ledger", path, "--run-id", "run-1", "--scope",
                     FIXTURE_SCOPE, "--host", FIXTURE_HOST, "--expect-generation", 1)
    assert_bad_input(result, str(path), "generation")
    assert path.read_bytes() == before


def test_generations_are_per_run(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    assert bind_cli(path, run_id="a")["generation"] == 1
    assert bind_cli(path, run_id="b")["generation"] == 1
    assert bind_cli(path, run_id="a")["generation"] == 2


def test_concurrent_binds_get_distinct_generations(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    got: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        b = ledger.Ledger(path).bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
        with lock:
            got.append(b.generation)

    threads = [threading.Thread(target=worker) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == list(range(1, 13))
    assert [e["seq"] for e in entries(path)] == list(range(1, 13))
    assert audit_cli(path) == (0, ["failed=0 denominator=0"])


def test_bad_binding_values_are_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    result = run_cli("halt", "bind", "--ledger", path, "--run-id", "", "--scope", FIXTURE_SCOPE,
                     "--host", FIXTURE_HOST)
    assert_bad_input(result, "run_id")
    result = run_cli("halt", "bind", "--ledger", path, "--run-id", "r", "--scope", FIXTURE_SCOPE,
                     "--host", FIXTURE_HOST, "--class", "fixtureish")
    assert_bad_input(result, "(usage)")


# --- check -------------------------------------------------------------------------------------


def test_check_rows_via_cli(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    assert check_cli(path, g1, 1, "ok") == (0, "allow\n")
    assert check_cli(path, g1, 2, "row1") == (1, "reject\n")
    live = bind_cli(path, run_id="live-run", host="api.example.com")
    assert check_cli(path, live, 1, "row2-live") == (1, "halt\n")
    unknown = bind_cli(path, "--no-marker", run_id="unknown-run")
    assert check_cli(path, unknown, 1, "row2-unknown") == (1, "halt\n")
    assert check_cli(path, binding_record(run_id="never-minted"), 1, "row3-halt") == (
        1, "halt\n")
    swapped = dict(g1, host="other.lab.invalid")
    assert check_cli(path, swapped, 1, "row3-swap") == (1, "reject\n")
    marker_swapped = dict(unknown, marker=MARKER)
    assert check_cli(path, marker_swapped, 1, "row3-marker") == (1, "reject\n")
    decided = {e["attempt_id"]: (e["decision"], e["row"]) for e in entries(path)
               if e["kind"] == "decision"}
    assert decided == {"ok": ("allow", 4), "row1": ("reject", 1), "row2-live": ("halt", 2),
                       "row2-unknown": ("halt", 2), "row3-halt": ("halt", 3),
                       "row3-swap": ("reject", 3), "row3-marker": ("reject", 3)}
    assert audit_cli(path) == (0, ["failed=0 denominator=7"])


def test_check_json(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    code, out = check_cli(path, g1, 1, "a1", "--json")
    assert code == 0
    assert json.loads(out) == {"decision": "allow", "row": 4, "target_class": "fixture",
                               "reason": "closed fixture, minted and current",
                               "replayed": False}


def test_repeated_identical_check_returns_the_recorded_decision(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    assert check_cli(path, g1, 1, "a1") == (0, "allow\n")
    # the binding is rebound meanwhile; a replay of a1 still returns what was recorded
    bind_cli(path, host="next.lab.invalid")
    lines_before = path.read_bytes()
    code, out = check_cli(path, g1, 1, "a1", "--json")
    assert code == 0
    assert json.loads(out)["replayed"] is True
    assert json.loads(out)["decision"] == "allow"
    assert path.read_bytes() == lines_before  # no new entry


def test_conflicting_check_is_rejected_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    live = dict(g1, host="api.example.com")
    assert check_cli(path, live, 1, "a1") == (1, "halt\n")
    # the same attempt id, now with the closed fixture: the earlier halt stands
    assert check_cli(path, g1, 1, "a1") == (1, "reject\n")
    last = entries(path)[-1]
    assert (last["kind"], last["attempt_id"], last["decision"], last["binding"]) == (
        "conflict", "a1", "reject", g1)
    # and a replay of the original check still says halt
    assert check_cli(path, live, 1, "a1") == (1, "halt\n")
    assert audit_cli(path) == (0, ["failed=0 denominator=1"])


def test_conflicting_issued_generation_is_a_conflict(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    assert check_cli(path, g1, 2, "a1") == (1, "reject\n")
    assert check_cli(path, g1, 1, "a1") == (1, "reject\n")
    assert entries(path)[-1]["kind"] == "conflict"


def test_halt_is_written_to_the_report(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    report = tmp_path / "people" / "halts.jsonl"
    g1 = bind_cli(path)
    check_cli(path, g1, 1, "ok", "--halt-report", report)
    assert not report.exists()
    check_cli(path, dict(g1, host="api.example.com"), 1, "bad", "--halt-report", report)
    (line,) = report.read_text(encoding="utf-8").splitlines()
    written = json.loads(line)
    assert (written["attempt_id"], written["host"], written["decision"], written["row"]) == (
        "bad", "api.example.com", "halt", 2)


def test_halt_report_default_path(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    check_cli(path, binding_record(host="db.prod.example.com"), 1, "x")
    report = tmp_path / "l.jsonl.halts.jsonl"
    assert json.loads(report.read_text(encoding="utf-8"))["host"] == "db.prod.example.com"


def test_check_against_a_missing_ledger_halts(tmp_path: Path) -> None:
    path = tmp_path / "fresh.jsonl"
    assert check_cli(path, binding_record(), 1, "a1") == (1, "halt\n")


def test_in_process_harness_call(tmp_path: Path) -> None:
    book = ledger.Ledger(tmp_path / "l.jsonl")
    b = book.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    assert book.check(b, 1, "t1").decision is Decision.ALLOW
    other = ledger.Ledger(tmp_path / "l.jsonl")  # a second process's view
    assert other.check(b, 1, "t1").replayed is True
    b2 = other.bind("run-1", FIXTURE_SCOPE, FIXTURE_HOST, MARKER)
    assert book.check(b, 1, "t2").decision is Decision.REJECT  # book sees the rebind
    assert book.check(b2, 2, "t3").decision is Decision.ALLOW


def test_every_entry_matches_its_schema(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    check_cli(path, g1, 1, "a1", "--expect", "allow")
    check_cli(path, dict(g1, host="x.example.com"), 1, "a1")
    for entry in entries(path):
        assert schemas.is_valid("ledger-entry", entry), entry


# --- audit -------------------------------------------------------------------------------------


def build_ledger(path: Path) -> None:
    """Five lines: bind, allow, halt, bind, reject."""
    g1 = bind_cli(path)
    check_cli(path, g1, 1, "a1")
    check_cli(path, dict(g1, host="api.example.com"), 1, "a2")
    bind_cli(path, host="next.lab.invalid")
    check_cli(path, g1, 1, "a3")
    assert [e["kind"] for e in entries(path)] == ["bind", "decision", "decision", "bind",
                                                  "decision"]


def test_clean_ledger_audits_open(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    assert audit_cli(path) == (0, ["failed=0 denominator=3"])


def test_audit_json(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    result = run_cli("halt", "audit", path, "--json")
    assert result.code == 0
    assert json.loads(result.out) == {"failed": 0, "denominator": 3, "chain_ok": True,
                                      "problems": []}


def test_empty_ledger_audits(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    path.write_bytes(b"")
    assert audit_cli(path) == (0, ["failed=0 denominator=0"])


def test_missing_ledger_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "absent.jsonl"
    assert_bad_input(run_cli("halt", "audit", path), str(path), "(file)")


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def _assert_broken_at(path: Path, number: int) -> None:
    code, out = audit_cli(path)
    assert code == 1
    assert out[0].startswith(f"chain: line {number}: "), out
    assert out[-1].startswith("failed=")
    # nothing is decided from a broken ledger
    result = run_cli("halt", "check", "--ledger", path, "--binding",
                     write_json(path.parent / "b.json", binding_record()), "--issued-gen", 1,
                     "--attempt-id", "later")
    assert_bad_input(result, str(path), f"line {number}")


def test_truncated_last_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 20])
    code, out = audit_cli(path)
    assert code == 1
    assert out == ["chain: line 5: torn last line (no newline)", "failed=0 denominator=2"]
    _assert_broken_at(path, 5)


def test_truncated_just_the_newline(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    path.write_bytes(path.read_bytes()[:-1])
    _assert_broken_at(path, 5)


@pytest.mark.parametrize(
    ("number", "key", "value"),
    [(3, "decision", "allow"), (2, "reason", "fine"), (1, "binding", binding_record(
        host="api.example.com")), (5, "issued_generation", 2), (4, "at", 0)],
)
def test_edited_line(tmp_path: Path, number: int, key: str, value: Any) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    lines = _lines(path)
    entry = json.loads(lines[number - 1])
    entry[key] = value
    lines[number - 1] = canonical_json(entry) + b"\n"
    path.write_bytes(b"".join(lines))
    _assert_broken_at(path, number)


def test_edited_line_with_recomputed_hash_breaks_the_next_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    lines = _lines(path)
    entry = json.loads(lines[2])
    entry["decision"] = "allow"
    entry["hash"] = ledger.entry_hash(entry)
    lines[2] = canonical_json(entry) + b"\n"
    path.write_bytes(b"".join(lines))
    _assert_broken_at(path, 4)


def test_reordered_lines(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    lines = _lines(path)
    lines[2], lines[3] = lines[3], lines[2]
    path.write_bytes(b"".join(lines))
    _assert_broken_at(path, 3)


def test_deleted_middle_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    lines = _lines(path)
    del lines[2]
    path.write_bytes(b"".join(lines))
    _assert_broken_at(path, 3)


def test_inserted_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    lines = _lines(path)
    lines.insert(2, lines[1])  # line 2 repeated as line 3
    path.write_bytes(b"".join(lines))
    _assert_broken_at(path, 3)


def test_garbage_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    lines = _lines(path)
    lines[1] = b"[1, 2]\n"
    path.write_bytes(b"".join(lines))
    _assert_broken_at(path, 2)


def _append_forged(path: Path, body: dict[str, Any]) -> None:
    tail = entries(path)[-1]
    entry = {"v": 1, "seq": tail["seq"] + 1, "prev": tail["hash"], "at": 1, **body}
    entry["hash"] = ledger.entry_hash(entry)
    assert schemas.is_valid("ledger-entry", entry)
    with path.open("ab") as handle:
        handle.write(canonical_json(entry) + b"\n")


def test_injected_wrong_allow_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    _append_forged(path, {
        "kind": "decision", "attempt_id": "forged", "issued_generation": 1,
        "binding": binding_record(run_id="run-1", generation=1, host="api.example.com"),
        "decision": "allow", "row": 4, "reason": "looks fine", "target_class": "fixture",
        "expected": None,
    })
    code, out = audit_cli(path)
    assert code == 1
    assert out == ["line 6: attempt 'forged': recorded allow, the table says halt",
                   "failed=1 denominator=4"]


def test_injected_allow_of_a_stale_generation_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)  # generation 2 is current
    _append_forged(path, {
        "kind": "decision", "attempt_id": "stale", "issued_generation": 1,
        "binding": binding_record(), "decision": "allow", "row": 4, "reason": "x",
        "target_class": "fixture", "expected": "allow",
    })
    code, out = audit_cli(path)
    assert (code, out[-1]) == (1, "failed=1 denominator=4")


def test_injected_wrong_conflict_decision_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    build_ledger(path)
    _append_forged(path, {
        "kind": "conflict", "attempt_id": "a2", "issued_generation": 2,
        "binding": binding_record(generation=2, host="next.lab.invalid"), "decision": "allow",
        "row": 0, "reason": "x", "target_class": "fixture",
    })
    code, out = audit_cli(path)
    assert (code, out[-1]) == (1, "failed=1 denominator=3")


def test_expect_mismatch_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    assert check_cli(path, g1, 1, "a1", "--expect", "allow") == (0, "allow\n")
    assert check_cli(path, dict(g1, host="api.example.com"), 1, "a2", "--expect", "allow") == (
        1, "halt\n")
    assert check_cli(path, g1, 2, "a3", "--expect", "reject") == (1, "reject\n")
    code, out = audit_cli(path)
    assert code == 1
    assert out == ["line 3: attempt 'a2': expected allow", "failed=1 denominator=3"]


def test_audit_policy_changes_the_table(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    g1 = bind_cli(path)
    check_cli(path, g1, 1, "a1")
    policy = tmp_path / "p.yml"
    policy.write_text("halt:\n  reserved_scopes: [fixture.local]\n", encoding="utf-8")
    result = run_cli("halt", "audit", path, "--policy", policy)
    # under that policy the recorded allow was wrong
    assert (result.code, result.lines[-1]) == (1, "failed=1 denominator=1")


def test_halt_policy_file_is_honoured_by_check(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    policy = tmp_path / "p.yml"
    policy.write_text("halt:\n  reserved_scopes: [sandbox.invalid]\n  expected_marker: m-2\n",
                      encoding="utf-8")
    result = run_cli("halt", "bind", "--ledger", path, "--run-id", "r", "--scope",
                     "sandbox.invalid", "--host", "a.sandbox.invalid", "--policy", policy)
    minted = json.loads(result.out)
    assert minted["marker"] == "m-2"
    assert check_cli(path, minted, 1, "a1", "--policy", policy) == (0, "allow\n")
    assert check_cli(path, minted, 1, "a2") == (1, "halt\n")  # default policy: not reserved


def test_entry_hash_covers_every_field() -> None:
    entry = {"v": 1, "seq": 1, "prev": ledger.GENESIS, "at": 5, "kind": "bind",
             "binding": binding_record()}
    base = ledger.entry_hash(entry)
    assert base == ledger.entry_hash(dict(entry, hash="f" * 64))  # hash itself excluded
    for key, value in [("seq", 2), ("at", 6), ("kind", "decision"), ("prev", "1" * 64),
                       ("binding", binding_record(host="b.lab.invalid"))]:
        assert ledger.entry_hash(dict(entry, **{key: value})) != base


def test_check_binding_file_errors(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    bad = write_json(tmp_path / "b.json", dict(binding_record(), generation="1"))
    result = run_cli("halt", "check", "--ledger", path, "--binding", bad, "--issued-gen", 1,
                     "--attempt-id", "a")
    assert_bad_input(result, str(bad), "generation")
    bad2 = write_json(tmp_path / "b2.json", dict(binding_record(), owner="planner"))
    result = run_cli("halt", "check", "--ledger", path, "--binding", bad2, "--issued-gen", 1,
                     "--attempt-id", "a")
    assert_bad_input(result, str(bad2), "owner")
    result = run_cli("halt", "check", "--ledger", path, "--binding", bad, "--issued-gen", "one",
                     "--attempt-id", "a")
    assert_bad_input(result, "(usage)")
    assert not path.exists() or path.read_bytes() == b""


def test_check_of_a_binding_presented_as_live_class_halts(tmp_path: Path) -> None:
    book = ledger.Ledger(tmp_path / "l.jsonl")
    b = book.bind("r", FIXTURE_SCOPE, FIXTURE_HOST, MARKER, "live")
    result = book.check(b, 1, "a")
    assert (result.decision, result.row, result.target_class) == (
        Decision.HALT, 2, halt.TargetClass.LIVE)
    fixture_claim = Binding("r", 1, FIXTURE_SCOPE, FIXTURE_HOST, MARKER, "fixture")
    assert book.check(fixture_claim, 1, "b").decision is Decision.REJECT


def test_bind_error_names_the_ledger(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    result = run_cli("halt", "bind", "--ledger", path, "--run-id", "x" * 129, "--scope",
                     FIXTURE_SCOPE, "--host", FIXTURE_HOST)
    assert_bad_input(result, str(path), "run_id")


@pytest.mark.parametrize(
    ("host", "expected"),
    [("api.lab.invalid", (0, "allow\n")), ("API.LAB.INVALID", (0, "allow\n")),
     ("api.lab.invalid.", (1, "halt\n")), ("api..invalid", (1, "halt\n")),
     ("127.0.0.1", (1, "halt\n")), ("api.lab.invalid:443", (1, "halt\n")),
     ("user@api.lab.invalid", (1, "halt\n")), ("äpi.lab.invalid", (1, "halt\n")),
     ("api_x.lab.invalid", (1, "halt\n")), ("a" * 64 + ".lab.invalid", (1, "halt\n")),
     ("api\n.lab.invalid", (1, "halt\n")), ("", (1, "halt\n"))],
)
def test_host_validity_through_the_cli(tmp_path: Path, host: str,
                                       expected: tuple[int, str]) -> None:
    path = tmp_path / "l.jsonl"
    minted = bind_cli(path, host=host)
    assert minted["host"] == host
    assert check_cli(path, minted, 1, "a1") == expected
    assert audit_cli(path) == (0, ["failed=0 denominator=1"])
