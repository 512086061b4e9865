"""Stamp gate (SPEC §3): the nine rows, both freeze sub-checks, argument order, and the CLI."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from gate.decide import stamps
from gate.decide.stamps import AllowEntry
from gate.errors import GateInputError
from gate.records import load as records
from tests.core_helpers import (
    FREE,
    FUTURE,
    HASH_B,
    LOCAL,
    NOW,
    PAST,
    SHA_X,
    TEST_ID,
    allow_entry,
    assert_bad_input,
    card,
    four_lines,
    policy_yaml,
    run_cli,
    stamp,
    write_json,
)

ENTRY = AllowEntry(TEST_ID, FREE, "@parsers", "free runner lacks the locale", FUTURE)
ALLOW = (ENTRY,)


def both_orders(a: dict[str, Any], b: dict[str, Any], allowlist: tuple[AllowEntry, ...] = ALLOW,
                now: int = NOW) -> stamps.StampResult:
    """Classify in both argument orders; the results must be identical."""
    first = stamps.classify_pair(a, b, allowlist, now)
    second = stamps.classify_pair(b, a, allowlist, now)
    assert first == second
    return first


def check(result: stamps.StampResult, action: str, row: int, door: bool) -> None:
    assert (result.action, result.row, result.door_open) == (action, row, door)


# --- row 1 -------------------------------------------------------------------------------------


def test_row1_fixture_hashes_differ() -> None:
    r = both_orders(stamp(LOCAL, "pass"), stamp(FREE, "pass", fixture_hash=HASH_B))
    check(r, "reject_fixture_mismatch", 1, False)


def test_row1_wins_over_a_bad_class() -> None:
    r = both_orders(stamp("ci-server", "pass"), stamp(FREE, "pass", fixture_hash=HASH_B))
    check(r, "reject_fixture_mismatch", 1, False)


def test_row1_other_sample_card_or_test_is_a_mismatch() -> None:
    other_card = stamp(FREE, "pass", sample_card=card(FUTURE, seed=8))
    check(both_orders(stamp(LOCAL, "pass"), other_card), "reject_fixture_mismatch", 1, False)
    other_test = dict(stamp(FREE, "pass"), test_id="other_test")
    check(both_orders(stamp(LOCAL, "pass"), other_test), "reject_fixture_mismatch", 1, False)


def test_row1_missing_fixture_hash_on_one_side() -> None:
    missing = stamp(FREE, "pass")
    del missing["fixture_hash"]
    check(both_orders(stamp(LOCAL, "pass"), missing), "reject_fixture_mismatch", 1, False)


# --- row 2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["ci-server", "Local-Pinned", "", None, "free_server"])
def test_row2_bad_class(bad: Any) -> None:
    check(both_orders(stamp(LOCAL, "pass"), stamp(bad, "pass")), "reject_bad_class", 2, False)
    check(both_orders(stamp(bad, "pass"), stamp(bad, "pass")), "reject_bad_class", 2, False)


def test_row2_missing_class() -> None:
    missing = stamp(FREE, "pass")
    del missing["server_class"]
    check(both_orders(stamp(LOCAL, "pass"), missing), "reject_bad_class", 2, False)


# --- row 3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [LOCAL, FREE])
@pytest.mark.parametrize("outcomes", [("pass", "pass"), ("pass", "assert_fail"),
                                      ("resource_exit", "pass")])
def test_row3_same_class(cls: str, outcomes: tuple[str, str]) -> None:
    r = both_orders(stamp(cls, outcomes[0]), stamp(cls, outcomes[1], run_id="r2"))
    check(r, "reject_unstamped_pair", 3, False)


# --- row 4 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("retry", ["resource_exit", "empty_body"])
@pytest.mark.parametrize("other", ["pass", "assert_fail", "resource_exit", "empty_body"])
@pytest.mark.parametrize("retry_side", [LOCAL, FREE])
def test_row4_retry_outcome(retry: str, other: str, retry_side: str) -> None:
    other_side = FREE if retry_side == LOCAL else LOCAL
    r = both_orders(stamp(retry_side, retry), stamp(other_side, other, run_id="r2"))
    check(r, "reject_run_retry_new_id", 4, False)


# --- row 5 -------------------------------------------------------------------------------------


def test_row5_local_red_remote_green() -> None:
    r = both_orders(stamp(LOCAL, "assert_fail"), stamp(FREE, "pass"))
    check(r, "reject_cross_class_pass", 5, False)


# --- row 6 -------------------------------------------------------------------------------------


def test_row6_freeze_inside_server_class() -> None:
    r = both_orders(stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"))
    check(r, "freeze_inside_server_class", 6, True)
    assert r.frozen is True


def test_row6_not_allowlisted_empty_allowlist() -> None:
    r = both_orders(stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"), allowlist=())
    check(r, "reject_not_allowlisted", 6, False)


@pytest.mark.parametrize(
    "entry",
    [
        AllowEntry("other_test", FREE, "@o", "r", FUTURE),  # another test
        AllowEntry(TEST_ID, LOCAL, "@o", "r", FUTURE),  # the freeze is for the other class
    ],
)
def test_row6_not_allowlisted(entry: AllowEntry) -> None:
    r = both_orders(stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"), allowlist=(entry,))
    check(r, "reject_not_allowlisted", 6, False)


def test_row6_not_allowlisted_checked_before_expiry() -> None:
    r = both_orders(stamp(LOCAL, "pass", expires=None),
                    stamp(FREE, "assert_fail", expires=None), allowlist=())
    check(r, "reject_not_allowlisted", 6, False)


def test_row6_card_expiry_missing_counts_as_expired() -> None:
    r = both_orders(stamp(LOCAL, "pass", expires=None), stamp(FREE, "assert_fail", expires=None))
    check(r, "reject_freeze_expired", 6, False)


@pytest.mark.parametrize("expiry", [PAST, NOW, NOW - 1])
def test_row6_card_expiry_passed(expiry: int) -> None:
    r = both_orders(stamp(LOCAL, "pass", expires=expiry), stamp(FREE, "assert_fail",
                                                                  expires=expiry))
    check(r, "reject_freeze_expired", 6, False)


def test_row6_card_expiry_one_second_ahead_freezes() -> None:
    r = both_orders(stamp(LOCAL, "pass", expires=NOW + 1),
                    stamp(FREE, "assert_fail", expires=NOW + 1))
    check(r, "freeze_inside_server_class", 6, True)


@pytest.mark.parametrize("bad_expiry", ["1791590400", 1.79e9, True, None])
def test_row6_card_expiry_not_an_integer_counts_as_expired(bad_expiry: Any) -> None:
    c = card(None)
    c["freeze_expires_at"] = bad_expiry
    r = both_orders(stamp(LOCAL, "pass", sample_card=c), stamp(FREE, "assert_fail",
                                                                 sample_card=c))
    check(r, "reject_freeze_expired", 6, False)


@pytest.mark.parametrize("entry_expiry", [PAST, NOW])
def test_row6_allowlist_entry_expired(entry_expiry: int) -> None:
    entry = dataclasses.replace(ENTRY, expires=entry_expiry)
    r = both_orders(stamp(LOCAL, "pass"), stamp(FREE, "assert_fail"), allowlist=(entry,))
    check(r, "reject_freeze_expired", 6, False)


def test_row6_green_run_never_extends_card_expiry() -> None:
    # The allowlist entry runs longer than the card: the card's expiry is the one that counts.
    entry = dataclasses.replace(ENTRY, expires=FUTURE * 2)
    r = both_orders(stamp(LOCAL, "pass", expires=PAST), stamp(FREE, "assert_fail",
                                                                expires=PAST),
                    allowlist=(entry,))
    check(r, "reject_freeze_expired", 6, False)


def test_row6_non_mapping_card_fails_closed() -> None:
    a, b = stamp(LOCAL, "pass"), stamp(FREE, "assert_fail")
    a["sample_card"] = b["sample_card"] = None
    check(both_orders(a, b), "reject_freeze_expired", 6, False)


# --- rows 7, 8, 9 ------------------------------------------------------------------------------


def test_row7_both_pass() -> None:
    r = both_orders(stamp(LOCAL, "pass"), stamp(FREE, "pass"))
    check(r, "accept_candidate", 7, True)
    assert r.frozen is False


def test_row7_does_not_need_an_allowlist_or_expiry() -> None:
    r = both_orders(stamp(LOCAL, "pass", expires=None), stamp(FREE, "pass", expires=None),
                    allowlist=())
    check(r, "accept_candidate", 7, True)


def test_row8_both_assert_fail() -> None:
    r = both_orders(stamp(LOCAL, "assert_fail"), stamp(FREE, "assert_fail"))
    check(r, "reject_stable_fail", 8, False)


@pytest.mark.parametrize(("lo", "fo"), [("pass", "bogus"), ("bogus", "pass"), (None, "pass"),
                                        ("PASS", "PASS"), ("assert_fail", None)])
def test_row9_unclassified(lo: Any, fo: Any) -> None:
    r = both_orders(stamp(LOCAL, lo), stamp(FREE, fo))
    check(r, "reject_unclassified", 9, False)


# --- stamps as run records ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "oracle", "transport"),
    [("pass", True, True), ("assert_fail", False, True), ("resource_exit", None, False),
     ("empty_body", None, False)],
)
def test_as_run_record(outcome: str, oracle: Any, transport: Any) -> None:
    s = stamp(FREE, outcome, fixture_sha256=SHA_X, fixture_path="fx/a.json")
    assert stamps.as_run_record(s) == {"run_id": "r1", "oracle_passed": oracle,
                                       "transport_ok": transport, "fixture_sha256": SHA_X,
                                       "fixture_path": "fx/a.json"}


def test_stamp_disagreeing_with_its_card_is_invalid() -> None:
    s = stamp(FREE, "pass")
    s["freeze_expires_at"] = FUTURE + 1
    with pytest.raises(GateInputError) as info:
        records.check_stamp(s, "s.json")
    assert (info.value.source, info.value.field) == ("s.json", "freeze_expires_at")


# --- CLI ---------------------------------------------------------------------------------------

ROW_CASES = [
    # (local kwargs, free kwargs, policy entries, action, exit)
    ({"outcome": "pass"}, {"outcome": "pass", "fixture_hash": HASH_B}, [allow_entry()],
     "reject_fixture_mismatch", 1),
    ({"outcome": "pass"}, {"outcome": "pass", "server_class": LOCAL}, [allow_entry()],
     "reject_unstamped_pair", 1),
    ({"outcome": "pass"}, {"outcome": "resource_exit"}, [allow_entry()],
     "reject_run_retry_new_id", 1),
    ({"outcome": "empty_body"}, {"outcome": "pass"}, [allow_entry()],
     "reject_run_retry_new_id", 1),
    ({"outcome": "assert_fail"}, {"outcome": "pass"}, [allow_entry()],
     "reject_cross_class_pass", 1),
    ({"outcome": "pass"}, {"outcome": "assert_fail"}, [], "reject_not_allowlisted", 1),
    ({"outcome": "pass", "expires": None}, {"outcome": "assert_fail", "expires": None},
     [allow_entry()], "reject_freeze_expired", 1),
    ({"outcome": "pass", "expires": PAST}, {"outcome": "assert_fail", "expires": PAST},
     [allow_entry()], "reject_freeze_expired", 1),
    ({"outcome": "pass"}, {"outcome": "assert_fail"}, [allow_entry(expires=PAST)],
     "reject_freeze_expired", 1),
    ({"outcome": "pass"}, {"outcome": "assert_fail"}, [allow_entry()],
     "freeze_inside_server_class", 0),
    ({"outcome": "pass"}, {"outcome": "pass"}, [], "accept_candidate", 0),
    ({"outcome": "assert_fail"}, {"outcome": "assert_fail"}, [allow_entry()],
     "reject_stable_fail", 1),
]


def _write_pair(tmp_path: Path, local_kw: dict[str, Any], free_kw: dict[str, Any]
                ) -> tuple[Path, Path]:
    lk, fk = dict(local_kw), dict(free_kw)
    lo, fo = lk.pop("outcome"), fk.pop("outcome")
    local_cls = lk.pop("server_class", LOCAL)
    free_cls = fk.pop("server_class", FREE)
    a = write_json(tmp_path / "local.json", stamp(local_cls, lo, run_id="L1", **lk))
    b = write_json(tmp_path / "remote.json", stamp(free_cls, fo, run_id="F1", **fk))
    return a, b


@pytest.mark.parametrize(("local_kw", "free_kw", "entries", "action", "code"), ROW_CASES,
                         ids=[f"{c[3]}-{i}" for i, c in enumerate(ROW_CASES)])
@pytest.mark.parametrize("swap", [False, True], ids=["local-first", "remote-first"])
def test_cli_classify_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           local_kw: dict[str, Any], free_kw: dict[str, Any],
                           entries: list[dict[str, Any]], action: str, code: int,
                           swap: bool) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, local_kw, free_kw)
    policy = tmp_path / "policy.yml"
    policy.write_text(policy_yaml(entries), encoding="utf-8")
    pair = (b, a) if swap else (a, b)
    result = run_cli("classify", *pair, "--policy", policy, "--now", NOW)
    assert result.code == code, result
    assert result.err == ""
    assert result.lines[0] == f"action={action}"
    assert len(result.lines) == 5
    assert result.lines[2].startswith("failure_class=")
    # issue 22: the four lines are the digest gate's verdict; the stamp gate's freeze is the
    # action= line (a frozen split-oracle red is unclassified, freeze_allowed=false)
    flake = result.lines[2] == "failure_class=harness_flake"
    assert result.lines[3] == f"freeze_allowed={'true' if flake else 'false'}"
    if action.startswith("freeze"):
        assert result.lines[2:4] == ["failure_class=unclassified", "freeze_allowed=false"]


@pytest.mark.parametrize("swap", [False, True])
def test_cli_classify_prints_the_four_lines_verbatim(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     swap: bool) -> None:
    monkeypatch.chdir(tmp_path)
    a = write_json(tmp_path / "l.json", stamp(LOCAL, "pass", run_id="L1", fixture_sha256=SHA_X,
                                              fixture_path="fixtures/x.json"))
    b = write_json(tmp_path / "f.json", stamp(FREE, "assert_fail", run_id="F1",
                                              fixture_sha256=SHA_X))
    policy = tmp_path / "p.yml"
    policy.write_text(policy_yaml([allow_entry()]), encoding="utf-8")
    result = run_cli("classify", *((b, a) if swap else (a, b)), "--policy", policy, "--now", NOW)
    assert result.code == 0
    # the stamp gate decides the freeze door (its own action= line); the four lines are the
    # digest gate's verdict on the split oracle (issue 22: no freeze_allowed=true beside it)
    assert result.lines == ["action=freeze_inside_server_class",
                            *four_lines(SHA_X, "unclassified", False, "fixtures/x.json")]


def test_cli_classify_labels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cases = [("assert_fail", "assert_fail", "reject_stable_fail", "property_miss"),
             ("pass", "resource_exit", "reject_run_retry_new_id", "harness_flake"),
             ("pass", "pass", "accept_candidate", "none")]
    for lo, fo, action, label in cases:
        a = write_json(tmp_path / f"{lo}-{fo}-l.json",
                       stamp(LOCAL, lo, run_id="L1", fixture_sha256=SHA_X))
        b = write_json(tmp_path / f"{lo}-{fo}-f.json",
                       stamp(FREE, fo, run_id="F1", fixture_sha256=SHA_X))
        result = run_cli("classify", a, b, "--now", NOW)
        assert result.lines == [f"action={action}", *four_lines(SHA_X, label,
                                                                label == "harness_flake", None)]
        assert result.code == (0 if action == "accept_candidate" else 1)


def test_cli_classify_without_pins_prints_none(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, {"outcome": "pass"}, {"outcome": "pass"})
    result = run_cli("classify", a, b, "--now", NOW)
    assert result.lines == ["action=accept_candidate",
                            *four_lines(None, "unclassified", False, None)]
    assert result.code == 0


def test_cli_classify_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, {"outcome": "assert_fail"}, {"outcome": "pass"})
    result = run_cli("classify", a, b, "--now", NOW, "--json")
    assert result.code == 1
    pair = json.loads(result.out)
    assert (pair["action"], pair["row"], pair["status"], pair["freeze_allowed"]) == (
        "reject_cross_class_pass", 5, "rejected", False)
    assert [r["server_class"] for r in pair["runs"]] == [LOCAL, FREE]


def test_cli_classify_default_clock_expired_card(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # no --now: the current time is read; a card that expired in 2001 cannot freeze
    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, {"outcome": "pass", "expires": 1_000_000_000},
                       {"outcome": "assert_fail", "expires": 1_000_000_000})
    policy = tmp_path / "p.yml"
    policy.write_text(policy_yaml([allow_entry(expires=4_000_000_000)]), encoding="utf-8")
    result = run_cli("classify", a, b, "--policy", policy)
    assert (result.code, result.lines[0]) == (1, "action=reject_freeze_expired")


def test_cli_classify_bad_class_is_bad_input(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # a class outside the two never reaches row 2 from the CLI: the schema refuses it
    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, {"outcome": "pass"}, {"outcome": "pass",
                                                        "server_class": "ci-server"})
    assert_bad_input(run_cli("classify", a, b, "--now", NOW), str(b), "server_class")


def test_cli_classify_stamp_disagreeing_with_card(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, {"outcome": "pass"}, {"outcome": "assert_fail"})
    bad = stamp(FREE, "assert_fail", run_id="F1")
    bad["freeze_expires_at"] = FUTURE + 99  # a stamp that extends its card's expiry
    write_json(b, bad)
    assert_bad_input(run_cli("classify", a, b, "--now", NOW), str(b), "freeze_expires_at")


def test_cli_classify_missing_stamp_is_bad_input(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a, _ = _write_pair(tmp_path, {"outcome": "pass"}, {"outcome": "pass"})
    missing = tmp_path / "absent.json"
    assert_bad_input(run_cli("classify", a, missing, "--now", NOW), str(missing), "(file)")


def test_cli_classify_one_stamp_is_usage_error(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a, _ = _write_pair(tmp_path, {"outcome": "pass"}, {"outcome": "pass"})
    assert_bad_input(run_cli("classify", a, "--now", NOW), "(usage)")


@pytest.mark.parametrize(
    ("policy_text", "field"),
    [
        (policy_yaml([{**allow_entry(), "expires": "soon"}]), "allowlist.0.expires"),
        (policy_yaml([{**allow_entry(), "server_class": "ci"}]), "allowlist.0.server_class"),
        (policy_yaml([allow_entry(), allow_entry()]), "allowlist.1"),
        (policy_yaml([], extra_key=1), "extra_key"),
        ("allowlist: [\n", "line"),
    ],
)
def test_cli_classify_bad_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 policy_text: str, field: str) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, {"outcome": "pass"}, {"outcome": "assert_fail"})
    policy = tmp_path / "p.yml"
    policy.write_text(policy_text, encoding="utf-8")
    assert_bad_input(run_cli("classify", a, b, "--policy", policy, "--now", NOW), str(policy),
                     field)


def test_cli_classify_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    monkeypatch.chdir(tmp_path)
    a, b = _write_pair(tmp_path, {"outcome": "pass"}, {"outcome": "pass"})
    out = tmp_path / "out" / "report.json"
    result = run_cli("classify", a, b, "--now", NOW, "--report", out)
    assert result.code == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["decision"], report["counts"], report["now"]) == (
        "open", {"accepted": 1, "frozen": 0, "rejected": 0}, NOW)
