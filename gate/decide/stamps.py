"""Stamp gate (SPEC §3): local-pinned versus free-server, and the freeze door.

Pure: the clock and the allowlist are values passed in. Pairs are classified by server class,
never by argument order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gate.decide import digest, when

LOCAL = "local-pinned"
FREE = "free-server"
CLASSES = (LOCAL, FREE)
RETRY_OUTCOMES = ("resource_exit", "empty_body")

#: Actions that open the door.
OPEN_ACTIONS = frozenset({"accept_candidate", "freeze_inside_server_class"})


@dataclass(frozen=True, slots=True)
class AllowEntry:
    test_id: str
    server_class: str
    owner: str
    reason: str
    expires: int
    #: Why ``gate policy check`` flags this entry (None: healthy). A flagged entry grants
    #: nothing: the freeze it would give is rejected with this as the reason.
    finding: str | None = None


@dataclass(frozen=True, slots=True)
class StampResult:
    action: str
    row: int
    reason: str

    @property
    def door_open(self) -> bool:
        return self.action in OPEN_ACTIONS

    @property
    def frozen(self) -> bool:
        return self.action == "freeze_inside_server_class"


def _freeze_check(
    test_id: str, card_expiry: object, allowlist: Sequence[AllowEntry], now: int
) -> StampResult:
    entries = [e for e in allowlist if e.test_id == test_id and e.server_class == FREE]
    if not entries:
        return StampResult("reject_not_allowlisted", 6,
                           f"{FREE} red, {LOCAL} green, but the test is not allowlisted "
                           f"for a freeze in {FREE}")
    if isinstance(card_expiry, bool) or not isinstance(card_expiry, int) or now >= card_expiry:
        return StampResult("reject_freeze_expired", 6,
                           "the sample card's freeze_expires_at is missing or has passed")
    flagged = [e for e in entries if e.finding is not None]
    if flagged and len(flagged) == len(entries):
        return StampResult("reject_not_allowlisted", 6,
                           f"the allowlist entry grants nothing: {flagged[0].finding}")
    entries = [e for e in entries if e.finding is None]
    if all(now >= e.expires for e in entries):
        return StampResult("reject_freeze_expired", 6, "the allowlist entry has expired")
    return StampResult("freeze_inside_server_class", 6,
                       f"frozen inside {FREE} until {when.utc_date(card_expiry)} (the card's "
                       "freeze_expires_at); local-pinned is green")


def generator_difference(first: Mapping[str, Any], second: Mapping[str, Any]) -> str | None:
    """Why two stamps' Hypothesis generators differ (version or a setting in force), or
    ``None`` when both record the same generator or neither records one."""
    h1, h2 = first.get("hypothesis"), second.get("hypothesis")
    if h1 is None and h2 is None:
        return None
    c1, c2 = first.get("server_class"), second.get("server_class")
    if not isinstance(h1, Mapping) or not isinstance(h2, Mapping):
        only, lacking = (c1, second) if isinstance(h1, Mapping) else (c2, first)
        if lacking.get("outcome") in RETRY_OUTCOMES:
            return None  # that class's run is discarded anyway (row 4)
        return (f"only the {only} stamp records its Hypothesis generator: the two runs are "
                "not provably the same experiment")
    diffs = [f"{key} {h1.get(key)!r} ({c1}) vs {h2.get(key)!r} ({c2})"
             for key in digest.GENERATOR_FIELDS if h1.get(key) != h2.get(key)]
    if not diffs:
        return None
    return "the Hypothesis generators differ: " + "; ".join(diffs)


def harness_difference(first: Mapping[str, Any], second: Mapping[str, Any]) -> str | None:
    """Why two stamps' test harnesses differ (their ``harness_sha256``: one recorded and the
    other not, or two values), or ``None`` when both record the same one or neither records
    one (a manifest entry without ``harness``: its harness is inside ``fixture_hash``)."""
    h1, h2 = first.get("harness_sha256"), second.get("harness_sha256")
    if h1 == h2:
        return None
    c1, c2 = first.get("server_class"), second.get("server_class")
    return (f"the two stamps ran under different test harnesses: harness_sha256 "
            f"{str(h1)[:12] if h1 is not None else 'absent'} ({c1}) vs "
            f"{str(h2)[:12] if h2 is not None else 'absent'} ({c2}); the fixtures and cards "
            "are the same (a harness file changed between the runs? gate init --refresh "
            "records the new harness; re-run both stamp jobs)")


def classify_pair(
    first: Mapping[str, Any],
    second: Mapping[str, Any],
    allowlist: Sequence[AllowEntry],
    now: int,
) -> StampResult:
    """The nine rows of SPEC §3, in order. ``first``/``second`` may come in either order.

    Row 1 also rejects a pair whose test harnesses differ (:func:`harness_difference`, their
    ``harness_sha256``) and a pair whose Hypothesis generators differ (issue 11): the version or
    a setting in force (:func:`generator_difference`); the reason names what differed.
    """
    if (
        first.get("fixture_hash") != second.get("fixture_hash")
        or first.get("sample_card") != second.get("sample_card")
        or first.get("test_id") != second.get("test_id")
    ):
        return StampResult("reject_fixture_mismatch", 1,
                           "the two stamps are for different tests, fixtures or sample cards")
    harness = harness_difference(first, second)
    if harness is not None:
        return StampResult("reject_fixture_mismatch", 1, harness)
    drift = generator_difference(first, second)
    if drift is not None:
        return StampResult("reject_fixture_mismatch", 1, drift)
    classes = (first.get("server_class"), second.get("server_class"))
    if any(c not in CLASSES for c in classes):
        return StampResult("reject_bad_class", 2, "a server class is not one of the two")
    if classes[0] == classes[1]:
        return StampResult("reject_unstamped_pair", 3,
                           f"both stamps are {classes[0]}; the other class did not run")
    local, free = (first, second) if classes[0] == LOCAL else (second, first)
    lo, fo = local.get("outcome"), free.get("outcome")
    if lo in RETRY_OUTCOMES or fo in RETRY_OUTCOMES:
        return StampResult("reject_run_retry_new_id", 4,
                           f"a run ended in {lo if lo in RETRY_OUTCOMES else fo}: discard it and "
                           "rerun with a new run id and the same card")
    if lo == "assert_fail" and fo == "pass":
        return StampResult("reject_cross_class_pass", 5,
                           "a free-server green never closes a local-pinned red")
    if lo == "pass" and fo == "assert_fail":
        test_id = str(local.get("test_id"))
        card = local.get("sample_card")
        expiry = card.get("freeze_expires_at") if isinstance(card, Mapping) else None
        return _freeze_check(test_id, expiry, allowlist, now)
    if lo == "pass" and fo == "pass":
        return StampResult("accept_candidate", 7, "green in both server classes")
    if lo == "assert_fail" and fo == "assert_fail":
        return StampResult("reject_stable_fail", 8, "red in both server classes")
    return StampResult("reject_unclassified", 9, "no row matched")


#: Outcomes for which the transport delivered a result (an oracle verdict was seen).
DELIVERED = ("pass", "assert_fail")


def optional_field_conflicts(stamp: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, why) for every optional field that contradicts the stamp's outcome.

    A stamp is seen by the digest gate through :func:`as_run_record`; an optional field that
    says the opposite of the outcome (a ``pass`` that also claims a timeout) would reach it as a
    transport fault and ask for a freeze. ``pass``/``assert_fail`` mean the transport
    delivered: no ``timed_out: true``, no ``transport_ok: false``; ``resource_exit`` and
    ``empty_body`` mean it did not: no ``transport_ok: true``."""
    outcome = stamp.get("outcome")
    found: list[tuple[str, str]] = []
    if outcome in DELIVERED:
        if stamp.get("timed_out") is True:
            found.append(("timed_out", f"true, but the outcome {outcome} means the run "
                                       "finished in time"))
        if stamp.get("transport_ok") is False:
            found.append(("transport_ok", f"false, but the outcome {outcome} means the "
                                          "transport delivered"))
    elif outcome in RETRY_OUTCOMES and stamp.get("transport_ok") is True:
        found.append(("transport_ok", f"true, but the outcome {outcome} means no result was "
                                      "delivered"))
    return found


def table_actions(local_outcome: object, free_outcome: object,
                  classes: tuple[object, object] = (LOCAL, FREE)) -> dict[str, int]:
    """Every action (with its row) the nine rows can give for two runs of these classes and
    outcomes, over all the inputs a report does not keep (fixture hashes, cards, allowlist,
    clock): row 1 (a fixture mismatch) always, and for row 6 each of its three ends. Decided
    by :func:`classify_pair` itself, so a report is checked by the table that made it."""
    card = {"freeze_expires_at": 2**62}
    first = {"test_id": "t", "fixture_hash": "h", "sample_card": card,
             "server_class": classes[0], "outcome": local_outcome}
    second = {**first, "server_class": classes[1], "outcome": free_outcome}
    entry = AllowEntry("t", FREE, "-", "-", 2**62)
    result = classify_pair(first, second, (entry,), 0)
    actions = {"reject_fixture_mismatch": 1, result.action: result.row}
    if result.frozen:
        actions.update({"reject_not_allowlisted": 6, "reject_freeze_expired": 6})
    return actions


def rerun_table(first: Mapping[str, Any], second: Mapping[str, Any],
                pin: object) -> dict[str, set[int]]:
    """Every failure class (with its rows) the digest gate can give for two same-class runs as
    a report keeps them (each run's outcome and, issue 11, its ``hypothesis`` and ``failure``),
    over the input a report does not keep: each run's fixture digest (absent, the pair's
    recorded ``fixture_sha256``, or another), limited to those whose first digest is the one
    the pair records (``gate.records.report.pin_of``). Decided by
    :func:`gate.decide.digest.classify_runs` on :func:`as_run_record` itself, so a rerun pair
    is checked by the table that made it."""
    recorded = digest.clean_digest(pin)
    other = "0" * 64 if recorded != "0" * 64 else "1" * 64
    choices = (None, other) if recorded is None else (None, recorded, other)

    # each run as the digest gate sees it with no pinned file (its generator digest, if any)
    bases = [as_run_record({key: kept[key] for key in ("run_id", "outcome", "hypothesis",
                                                       "failure") if key in kept})
             for kept in (first, second)]

    def run(base: dict[str, Any], sha: str | None) -> dict[str, Any]:
        return base if sha is None else {**base, "fixture_sha256": sha}

    found: dict[str, set[int]] = {}
    for sha_1, sha_2 in ((a, b) for a in choices for b in choices):
        left, right = run(bases[0], sha_1), run(bases[1], sha_2)
        seen = [digest.clean_digest(r.get("fixture_sha256")) for r in (left, right)]
        if next((d for d in seen if d is not None), None) != recorded:
            continue
        result = digest.classify_runs(left, right)
        found.setdefault(result.failure_class.value, set()).add(result.row)
    return found


def as_run_record(stamp: Mapping[str, Any]) -> dict[str, Any]:
    """How the two pair gates meet (SPEC §4): a stamp seen as a run record."""
    outcome = stamp.get("outcome")
    oracle: bool | None
    if outcome == "pass":
        oracle, transport = True, True
    elif outcome == "assert_fail":
        oracle, transport = False, True
    else:
        oracle, transport = None, False
    record: dict[str, Any] = {
        "run_id": stamp.get("run_id"),
        "oracle_passed": oracle,
        "transport_ok": transport,
    }
    for key in ("fixture_sha256", "fixture_path", "status_code", "timed_out", "retry_count"):
        if key in stamp:
            record[key] = stamp[key]
    hypothesis = stamp.get("hypothesis")
    if isinstance(hypothesis, Mapping):
        # A Hypothesis property's input is its generator: with no sampler file pinned, the
        # generator digest is the fixture digest (docs/formats.md, its Hypothesis digests).
        generator = digest.generator_digest(hypothesis)
        record["generator_sha256"] = generator
        record.setdefault("fixture_sha256", generator)
        failure = stamp.get("failure")
        if isinstance(failure, Mapping):
            failed = digest.failure_digest(failure)
            if failed is not None:
                record["failure_sha256"] = failed
            checked = digest.health_check_digest(failure)
            if checked is not None:
                record["health_check_sha256"] = checked
    return record
