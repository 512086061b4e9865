"""Pair results as report records, and the four SPEC §4 lines printed exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gate import __version__
from gate.decide import digest, stamps

NONE = "none"


def four_lines(pair: Mapping[str, Any]) -> list[str]:
    """The four required fields, verbatim (``none`` where there is no pinned file)."""
    return [
        f"fixture_sha256={pair['fixture_sha256'] or NONE}",
        f"failure_class={pair['failure_class']}",
        f"freeze_allowed={'true' if pair['freeze_allowed'] else 'false'}",
        f"fixture_path={pair['fixture_path'] or NONE}",
    ]


def _pin_of(records: Sequence[Mapping[str, Any]]) -> tuple[str | None, str | None]:
    for record in records:
        sha = digest.clean_digest(record.get("fixture_sha256"))
        if sha is not None:
            path = record.get("fixture_path")
            return sha, path if isinstance(path, str) and path else None
    return None, None


def run_details(stamp: Mapping[str, Any]) -> dict[str, Any]:
    """What a reviewer needs from a stamp beyond its outcome: exit code, note, and (issue 11's
    card fields, when the stamp has them) the failure and the Hypothesis settings."""
    out: dict[str, Any] = {}
    code = stamp.get("exit_code")
    if (code is None and "exit_code" in stamp) or (isinstance(code, int) and not isinstance(
            code, bool)):
        out["exit_code"] = code
    note = stamp.get("note")
    if isinstance(note, str) and note:
        out["note"] = note[:4096]
    for key in ("failure", "hypothesis"):
        value = stamp.get(key)
        if isinstance(value, dict) and value:
            out[key] = dict(value)
    return out


def _run(stamp: Mapping[str, Any], source: str | None) -> dict[str, Any]:
    run = {"run_id": str(stamp.get("run_id", "")), "server_class": str(
        stamp.get("server_class", "")), "outcome": str(stamp.get("outcome", ""))}
    if source:
        run["source"] = source
    run.update(run_details(stamp))
    return run


def _short(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text[:12] + "…" if isinstance(value, str) and len(value) == 64 else text[:200]


def mismatch(local: Mapping[str, Any], free: Mapping[str, Any]) -> list[str]:
    """What differs between two stamps of a fixture-mismatch pair, in words (at most 64)."""
    out: list[str] = []
    for key in ("test_id", "fixture_hash", "fixture_sha256", "fixture_path"):
        a, b = local.get(key), free.get(key)
        if a != b:
            out.append(f"{key}: {stamps.LOCAL} {_short(a)} vs {stamps.FREE} {_short(b)}")
    ca, cb = local.get("sample_card"), free.get("sample_card")
    ca = ca if isinstance(ca, Mapping) else {}
    cb = cb if isinstance(cb, Mapping) else {}
    for key in sorted(set(ca) | set(cb)):
        if ca.get(key) != cb.get(key):
            out.append(f"sample card {key}: {stamps.LOCAL} {_short(ca.get(key))} vs "
                       f"{stamps.FREE} {_short(cb.get(key))}")
    ha, hb = local.get("hypothesis"), free.get("hypothesis")
    ha = ha if isinstance(ha, Mapping) else {}
    hb = hb if isinstance(hb, Mapping) else {}
    for key in sorted((set(ha) | set(hb)) - {"examples_run"}):
        if ha and hb and ha.get(key) != hb.get(key):
            out.append(f"Hypothesis setting {key}: {stamps.LOCAL} {_short(ha.get(key))} vs "
                       f"{stamps.FREE} {_short(hb.get(key))}")
    return out[:64]


def _location(stamps_: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    for stamp in stamps_:
        loc = stamp.get("location")
        if isinstance(loc, dict):
            return dict(loc)
    return None


def cross_class_pair(
    first: Mapping[str, Any], second: Mapping[str, Any], result: stamps.StampResult,
    sources: tuple[str | None, str | None] = (None, None),
) -> dict[str, Any]:
    """A cross-class pair: the stamp gate decides; the digest gate gives the label."""
    ordered = [(first, sources[0]), (second, sources[1])]
    ordered.sort(key=lambda s: 0 if s[0].get("server_class") == stamps.LOCAL else 1)
    label = digest.classify_runs(stamps.as_run_record(first), stamps.as_run_record(second))
    sha, path = _pin_of([s for s, _ in ordered])
    pair: dict[str, Any] = {
        "test_id": str(first.get("test_id")),
        "gate": "stamp",
        "action": result.action,
        "row": result.row,
        "status": "frozen" if result.frozen else "accepted" if result.door_open else "rejected",
        "reason": result.reason,
        "fixture_sha256": sha,
        "failure_class": label.failure_class.value,
        "freeze_allowed": result.frozen,
        "fixture_path": path,
        "runs": [_run(s, src) for s, src in ordered],
    }
    if result.action == "reject_fixture_mismatch":
        pair["mismatch"] = mismatch(ordered[0][0], ordered[1][0])
    loc = _location([s for s, _ in ordered])
    if loc:
        pair["location"] = loc
    return pair


def same_class_pair(
    test_id: str, left: Mapping[str, Any], right: Mapping[str, Any], result: digest.DigestResult,
    runs: Sequence[dict[str, Any]], location: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A same-class pair of runs (a rerun): the digest gate decides alone."""
    sha, path = _pin_of([left, right])
    pair: dict[str, Any] = {
        "test_id": test_id,
        "gate": "digest",
        "action": result.failure_class.value,
        "row": result.row,
        # A digest-gate freeze is only a request (SPEC §4): expiry, owner and merge rights stay
        # in reviewed configuration, so a rerun pair never opens the door on its own.
        "status": "rejected",
        "reason": result.reason,
        "fixture_sha256": sha,
        "failure_class": result.failure_class.value,
        "freeze_allowed": result.freeze_allowed,
        "fixture_path": path,
        "runs": list(runs),
    }
    if location:
        pair["location"] = dict(location)
    return pair


def closes(pairs: Sequence[Mapping[str, Any]], receipt: Mapping[str, Any] | None,
           halt_audit: Mapping[str, Any] | None) -> bool:
    """Whether a report's parts close the gate: no pair, a rejected pair, a receipt that is
    not accepted, or a halt audit with failures or a broken chain."""
    return (not pairs or any(p["status"] == "rejected" for p in pairs)
            or (receipt is not None and receipt["decision"] != "accept")
            or (halt_audit is not None and (halt_audit["failed"] > 0
                                            or not halt_audit["chain_ok"])))


def build(pairs: Sequence[dict[str, Any]], now: int, *,
          reruns: Sequence[dict[str, Any]] | None = None,
          receipt: dict[str, Any] | None = None,
          halt_audit: dict[str, Any] | None = None,
          max_freeze_days: int | None = None) -> dict[str, Any]:
    counts = {"accepted": 0, "frozen": 0, "rejected": 0}
    for pair in pairs:
        counts[pair["status"]] += 1
    closed = closes(pairs, receipt, halt_audit)
    report = {
        "schema": "gate-report/v1",
        "gate_version": __version__,
        "now": now,
        "decision": "closed" if closed else "open",
        "counts": counts,
        "pairs": list(pairs),
    }
    extra = {"reruns": reruns, "receipt": receipt, "halt_audit": halt_audit,
             "max_freeze_days": max_freeze_days}
    report.update({k: v for k, v in extra.items() if v is not None})
    return report
