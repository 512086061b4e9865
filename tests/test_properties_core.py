"""Property-based evidence (hypothesis): nothing malformed and no non-opening pair opens a door.

Deterministic: derandomize=True and no example database; fixed budgets per property.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.decide import digest, halt, stamps
from gate.decide.halt import Binding, Decision, HaltPolicy, MemoryIssuer
from gate.decide.stamps import AllowEntry
from gate.records import ledger, receipts, schemas
from tests.core_helpers import (
    FREE,
    FUTURE,
    HASH_A,
    HASH_B,
    LOCAL,
    MARKER,
    NOW,
    PAST,
    SHA_X,
    SHA_Y,
    TEST_ID,
    binding_record,
    bootstrapped,
    card,
    run_cli,
    run_record,
    sha256_hex,
    stamp,
    write_json,
)

FAST = settings(max_examples=1500, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
CLI = settings(max_examples=120, derandomize=True, database=None, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# --- (a) no record that fails its schema ever yields exit 0 ------------------------------------

DIFF, PROMPT = b"+1\n", b"review it"
BOUND = {"diff_sha256": sha256_hex(DIFF), "prompt_sha256": sha256_hex(PROMPT),
         "model_id": "m-1", "workspace_generation": "4"}
GOOD_RECEIPT = receipts.build(**BOUND, verdict="pass", reasons=["covers it"])

BASES: dict[str, Any] = {
    # each one opens its door when left alone (see test_unmutated_bases_open)
    "stamp": stamp(FREE, "pass", run_id="F1", fixture_sha256=SHA_X, fixture_path="p.json"),
    "run-record": run_record(None, False, timed_out=False, retry_count=1, status_code=502,
                             fixture_path="p.json", test_id=TEST_ID),
    "receipt": GOOD_RECEIPT,
    "receipt-in-toto": receipts.to_in_toto(GOOD_RECEIPT),
    "binding": binding_record(),
    "sample-card": card(FUTURE),
}

WRONG_TYPES = st.sampled_from([None, True, 1, -1, 1.5, "x", "", [], ["x"], {}, {"k": 1}]).map(
    copy.deepcopy)  # a fresh object each draw: never the same list or dict twice
BAD_HEX = st.sampled_from([SHA_X.upper(), SHA_X[:63], SHA_X + "0", SHA_X[:63] + "g",
                           SHA_X + "\n", "0x" + SHA_X[2:], ""])


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside nested dicts and lists."""
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((*prefix, k))
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((*prefix, i))
            out += _paths(v, (*prefix, i))
    return out


def _value_at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def mutated(draw: st.DrawFn, kind: str) -> Any:
    """A valid record with one or two mutations: drop a field, wrong type, extra field, bad hex."""
    doc = copy.deepcopy(BASES[kind])
    for _ in range(draw(st.integers(min_value=1, max_value=2))):
        paths = _paths(doc)
        op = draw(st.sampled_from(["drop", "wrong_type", "extra", "bad_hex"]))
        if op == "extra" or not paths:
            objects = [()] + [p for p in paths if isinstance(_value_at(doc, p), dict)]
            target = _value_at(doc, draw(st.sampled_from(objects)))
            key = draw(st.sampled_from(["extra", "note_", "Run_id", "_type2"]))
            target[key] = draw(WRONG_TYPES)
            continue
        path = draw(st.sampled_from(paths))
        parent = _value_at(doc, path[:-1])
        if op == "drop":
            del parent[path[-1]]
        elif op == "wrong_type":
            parent[path[-1]] = draw(WRONG_TYPES)
        else:
            parent[path[-1]] = draw(BAD_HEX)
    return doc


SCHEMA_OF = {"stamp": "stamp", "run-record": "run-record", "receipt": "receipt",
             "receipt-in-toto": "receipt-in-toto", "binding": "binding",
             "sample-card": "sample-card"}


def _run_kind(kind: str, document: Any, tmp: Path) -> int:
    bad = write_json(tmp / "bad.json", document)
    if kind == "stamp":
        other = write_json(tmp / "local.json", stamp(LOCAL, "pass", run_id="L1",
                                                     fixture_sha256=SHA_X))
        policy = tmp / "p.yml"  # explicit: never the working directory's default policy
        policy.write_text("allowlist: []\n", encoding="utf-8")
        codes = {run_cli("classify", bad, other, "--now", NOW, "--policy", policy).code,
                 run_cli("classify", other, bad, "--now", NOW, "--policy", policy).code,
                 run_cli("triage", bad, other).code}
        return 0 if 0 in codes else max(codes)
    if kind == "run-record":
        other = write_json(tmp / "other.json", run_record(None, False, run_id="other-run"))
        codes = {run_cli("triage", bad, other).code, run_cli("triage", other, bad).code}
        return 0 if 0 in codes else max(codes)
    if kind in ("receipt", "receipt-in-toto"):
        (tmp / "d.diff").write_bytes(DIFF)
        (tmp / "p.txt").write_bytes(PROMPT)
        return run_cli("receipt", "verify", "--diff", tmp / "d.diff", "--prompt", tmp / "p.txt",
                       "--model", "m-1", "--workspace-gen", "4", "--receipt", bad,
                       *bootstrapped(bad.parent, "4")).code
    if kind == "binding":
        book = ledger.Ledger(tmp / "l.jsonl")
        book.bind("run-1", "lab.invalid", "api.lab.invalid", MARKER)
        return run_cli("halt", "check", "--ledger", tmp / "l.jsonl", "--binding", bad,
                       "--issued-gen", 1, "--attempt-id", "a1").code
    assert kind == "sample-card"
    (tmp / "fx").mkdir()
    (tmp / "fx" / "f.txt").write_bytes(b"x")
    return run_cli("hash", tmp / "fx", "--root", tmp, "--card", bad).code


def test_unmutated_bases_open() -> None:
    for kind in BASES:
        with tempfile.TemporaryDirectory() as name:
            assert schemas.is_valid(SCHEMA_OF[kind], BASES[kind]), kind
            assert _run_kind(kind, BASES[kind], Path(name)) == 0, kind


def _schema_failing(kind: str) -> Any:
    return mutated(kind).filter(lambda d: not schemas.is_valid(SCHEMA_OF[kind], d))


def _expect_closed(kind: str, document: Any) -> None:
    with tempfile.TemporaryDirectory() as name:
        code = _run_kind(kind, document, Path(name))
    # bad input everywhere, except a receipt, which the binder rejects (exit 1)
    assert code == (1 if kind.startswith("receipt") else 2), (code, document)


@CLI
@given(_schema_failing("stamp"))
def test_schema_failing_stamp_never_exits_0(document: Any) -> None:
    _expect_closed("stamp", document)


@CLI
@given(_schema_failing("run-record"))
def test_schema_failing_run_record_never_exits_0(document: Any) -> None:
    _expect_closed("run-record", document)


@CLI
@given(_schema_failing("receipt"))
def test_schema_failing_receipt_never_exits_0(document: Any) -> None:
    _expect_closed("receipt", document)


@CLI
@given(_schema_failing("receipt-in-toto"))
def test_schema_failing_in_toto_receipt_never_exits_0(document: Any) -> None:
    _expect_closed("receipt-in-toto", document)


@CLI
@given(_schema_failing("binding"))
def test_schema_failing_binding_never_exits_0(document: Any) -> None:
    _expect_closed("binding", document)


@CLI
@given(_schema_failing("sample-card"))
def test_schema_failing_card_never_exits_0(document: Any) -> None:
    _expect_closed("sample-card", document)


# --- (b) no pair outside the opening rows ever yields exit 0 -----------------------------------

CLASSES = st.sampled_from([LOCAL, FREE, "ci-server", None])
OUTCOMES = st.sampled_from(["pass", "assert_fail", "resource_exit", "empty_body", "bogus"])
EXPIRIES = st.sampled_from([None, PAST, NOW, NOW + 1, FUTURE, "soon"])
ENTRIES = st.lists(
    st.builds(AllowEntry, st.sampled_from([TEST_ID, "other_test"]), st.sampled_from([LOCAL, FREE]),
              st.just("@o"), st.just("r"), st.sampled_from([PAST, NOW, NOW + 1, FUTURE])),
    max_size=3,
)


@st.composite
def stamp_pair(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    expiry = draw(EXPIRIES)
    shared = card(None)
    if expiry is not None:
        shared["freeze_expires_at"] = expiry
    a = stamp(draw(CLASSES), draw(OUTCOMES), sample_card=shared)
    b_card = shared if draw(st.integers(0, 5)) else card(FUTURE, seed=99)
    b = stamp(draw(CLASSES), draw(OUTCOMES), run_id="r2", sample_card=b_card,
              fixture_hash=draw(st.sampled_from([HASH_A, HASH_A, HASH_A, HASH_B])))
    return a, b


def expected_open(a: dict[str, Any], b: dict[str, Any], entries: list[AllowEntry],
                  now: int) -> str | None:
    """An independent statement of the only two opening rows (6-freeze and 7)."""
    if (a["fixture_hash"], a["sample_card"], a["test_id"]) != (
            b["fixture_hash"], b["sample_card"], b["test_id"]):
        return None
    if {a["server_class"], b["server_class"]} != {LOCAL, FREE}:
        return None
    local, free = (a, b) if a["server_class"] == LOCAL else (b, a)
    if (local["outcome"], free["outcome"]) == ("pass", "pass"):
        return "accept_candidate"
    if (local["outcome"], free["outcome"]) != ("pass", "assert_fail"):
        return None
    expiry = local["sample_card"].get("freeze_expires_at")
    if type(expiry) is not int or now >= expiry:
        return None
    live = [e for e in entries if e.test_id == TEST_ID and e.server_class == FREE
            and now < e.expires]
    return "freeze_inside_server_class" if live else None


@FAST
@given(stamp_pair(), ENTRIES)
def test_stamp_door_opens_only_in_rows_6_and_7(pair: tuple[dict[str, Any], dict[str, Any]],
                                               entries: list[AllowEntry]) -> None:
    a, b = pair
    forward = stamps.classify_pair(a, b, entries, NOW)
    assert forward == stamps.classify_pair(b, a, entries, NOW)  # symmetric
    want = expected_open(a, b, entries, NOW)
    assert forward.door_open is (want is not None)
    if want is not None:
        assert (forward.action, forward.row) == (want, 6 if want.startswith("freeze") else 7)
    else:
        assert forward.action.startswith("reject_")


def _schema_valid_pair(pair: tuple[dict[str, Any], dict[str, Any]]) -> bool:
    return all(schemas.is_valid("stamp", s) for s in pair)


@CLI
@given(stamp_pair().filter(_schema_valid_pair),
       st.lists(st.sampled_from([PAST, NOW, FUTURE]), max_size=1))
def test_classify_cli_exit_0_only_in_rows_6_and_7(pair: tuple[dict[str, Any], dict[str, Any]],
                                                  expiries: list[int]) -> None:
    a, b = pair
    entries = [AllowEntry(TEST_ID, FREE, "@o", "r", e) for e in expiries]
    want = expected_open(a, b, entries, NOW)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        policy = tmp / "p.yml"
        policy.write_text(json.dumps({"allowlist": [
            {"test_id": e.test_id, "server_class": e.server_class, "owner": e.owner,
             "reason": e.reason, "expires": e.expires} for e in entries]}), encoding="utf-8")
        fa, fb = write_json(tmp / "a.json", a), write_json(tmp / "b.json", b)
        forward = run_cli("classify", fa, fb, "--policy", policy, "--now", NOW)
        backward = run_cli("classify", fb, fa, "--policy", policy, "--now", NOW)
    assert forward.out == backward.out
    assert forward.code == backward.code == (0 if want is not None else 1)
    if want is not None:
        assert forward.lines[0] == f"action={want}"


# --- (c) the digest gate allows a freeze only for harness_flake, symmetrically -----------------

DIGESTS = st.sampled_from([SHA_X, SHA_X, SHA_Y, SHA_X.upper(), SHA_X[:63], 7, None, "MISSING"])
TRIPLE = st.sampled_from([True, False, None, "false", "true", 0, 1, "MISSING"])


@st.composite
def record(draw: st.DrawFn) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for key, strategy in (("fixture_sha256", DIGESTS), ("oracle_passed", TRIPLE),
                          ("transport_ok", TRIPLE),
                          ("timed_out", st.sampled_from([True, False, None, "MISSING"]))):
        drawn = draw(strategy)
        if drawn != "MISSING":
            value[key] = drawn
    return value


def _malformed(r: dict[str, Any]) -> bool:
    return any(k in r and r[k] is not None and not isinstance(r[k], bool)
               for k in ("oracle_passed", "transport_ok", "timed_out"))


@FAST
@given(record(), record())
def test_digest_freeze_only_for_harness_flake(left: dict[str, Any],
                                              right: dict[str, Any]) -> None:
    forward = digest.classify_runs(left, right)
    assert forward == digest.classify_runs(right, left)
    assert forward.freeze_allowed is (forward.failure_class is digest.FailureClass.HARNESS_FLAKE)
    if forward.freeze_allowed:
        # only on clean, equal digests, no false oracle, no malformed value, a recorded fault
        assert left["fixture_sha256"] == right["fixture_sha256"] == SHA_X or (
            left["fixture_sha256"] == right["fixture_sha256"] == SHA_Y)
        assert left.get("oracle_passed") is not False
        assert right.get("oracle_passed") is not False
        assert not _malformed(left) and not _malformed(right)
        assert any(r.get("transport_ok") is False or r.get("timed_out") is True
                   for r in (left, right))


@CLI
@given(record().filter(lambda r: schemas.is_valid("run-record", r)),
       record().filter(lambda r: schemas.is_valid("run-record", r)))
def test_triage_cli_exit_0_only_for_harness_flake(left: dict[str, Any],
                                                  right: dict[str, Any]) -> None:
    want = digest.classify_runs(left, right)
    with tempfile.TemporaryDirectory() as name:
        fa = write_json(Path(name) / "a.json", left)
        fb = write_json(Path(name) / "b.json", right)
        forward, backward = run_cli("triage", fa, fb), run_cli("triage", fb, fa)
    if left.get("run_id") == right.get("run_id") and (
            "run_id" in left or left == right):  # one attempt twice: never a pair (issue 14)
        assert forward.code == backward.code == 2
        return
    assert forward.code == backward.code == (0 if want.freeze_allowed else 1)
    assert forward.lines[1:3] == backward.lines[1:3] == [
        f"failure_class={want.failure_class.value}",
        f"freeze_allowed={'true' if want.freeze_allowed else 'false'}"]


# --- (d) the halt gate allows only a current, issuer-minted, closed fixture --------------------

HOSTS_CLOSED = ["api.lab.invalid", "b.invalid", "API.LAB.INVALID"]
HOSTS_OTHER = ["api.example.com", "api.lab.invalid.", "api..invalid", "127.0.0.1",
               "api.lab.invalid:443", "u@api.lab.invalid", "a_b.lab.invalid", "",
               "api\n.lab.invalid", "äpi.lab.invalid"]
SCOPES = ["lab.invalid", "fixture.local", "example.com", ""]
MARKERS = [MARKER, "other-marker", None]
TCLASSES = ["fixture", "live", "unknown"]

bindings = st.builds(
    Binding, st.sampled_from(["run-1", "run-2"]), st.integers(1, 3),
    st.sampled_from(SCOPES), st.sampled_from(HOSTS_CLOSED + HOSTS_OTHER),
    st.sampled_from(MARKERS), st.sampled_from(TCLASSES),
)


@FAST
@given(st.lists(bindings, max_size=5), bindings, st.integers(0, 4), st.booleans())
def test_halt_allows_only_current_minted_closed_fixtures(minted: list[Binding],
                                                         presented: Binding, issued: int,
                                                         replay_minted: bool) -> None:
    issuer = MemoryIssuer()
    for b in minted:
        issuer.record(b)
    if replay_minted and minted:
        presented = minted[-1]  # often present exactly what was minted
    result = halt.decide(presented, issued, issuer, HaltPolicy())
    closed = (presented.scope in ("lab.invalid", "fixture.local")
              and presented.host in HOSTS_CLOSED and presented.marker == MARKER
              and presented.target_class == "fixture")
    should_allow = (closed and issued == presented.generation
                    and issuer.minted(presented.run_id, presented.generation) == presented
                    and issuer.current_generation(presented.run_id) == presented.generation)
    assert (result.decision is Decision.ALLOW) is should_allow
    if not closed and issued == presented.generation:
        assert result.decision is Decision.HALT  # live and unknown halt, never allow
    if issued != presented.generation:
        assert (result.decision, result.row) == (Decision.REJECT, 1)
