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


def pin_of(records: Sequence[Mapping[str, Any]]) -> tuple[str | None, str | None]:
    """The first run's fixture digest (its pinned sampler file, else its Hypothesis generator
    digest, see :func:`gate.decide.stamps.as_run_record`) and the pinned file's path."""
    for stamp in records:
        record = stamps.as_run_record(stamp)
        sha = digest.clean_digest(record.get("fixture_sha256"))
        if sha is not None:
            path = stamp.get("fixture_path") if "fixture_sha256" in stamp else None
            return sha, path if isinstance(path, str) and path else None
    return None, None


#: Stamp fields a report's run entry carries as they are (already bounded by the stamp schema).
RUN_DETAILS = ("note", "hypothesis", "failure")


def run_entry(stamp: Mapping[str, Any], source: str | None) -> dict[str, Any]:
    """One run in a report pair: ids and outcome, plus the stamp's note, Hypothesis generator
    and failure (falsifying example, reproduce line) when it has them."""
    run: dict[str, Any] = {"run_id": str(stamp.get("run_id", "")), "server_class": str(
        stamp.get("server_class", "")), "outcome": str(stamp.get("outcome", ""))}
    if source:
        run["source"] = source
    for key in RUN_DETAILS:
        value = stamp.get(key)
        if value is not None:
            run[key] = dict(value) if isinstance(value, Mapping) else value
    return run


_run = run_entry


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
    sha, path = pin_of([s for s, _ in ordered])
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
    loc = _location([s for s, _ in ordered])
    if loc:
        pair["location"] = loc
    return pair


def same_class_pair(
    test_id: str, left: Mapping[str, Any], right: Mapping[str, Any], result: digest.DigestResult,
    runs: Sequence[dict[str, Any]], location: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A same-class pair of runs (a rerun): the digest gate decides alone."""
    sha, path = pin_of([left, right])
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
          halt_audit: dict[str, Any] | None = None) -> dict[str, Any]:
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
    extra = {"reruns": reruns, "receipt": receipt, "halt_audit": halt_audit}
    report.update({k: v for k, v in extra.items() if v is not None})
    return report
