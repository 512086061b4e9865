"""Pair results as report records, and the four SPEC §4 lines printed exactly."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gate import __version__
from gate.decide import digest, stamps
from gate.decide import ungated as ungated_rules
from gate.decide.block import block_value_problem
from gate.records.report_data import Pair

NONE = "none"


def block_value(value: object) -> str:
    """A value as printed in the four-line block: verbatim when it is safe (always, for a
    record that was read through gate.records.load), else as a JSON string (one line)."""
    if value is None or value == "":
        return NONE
    if block_value_problem(value) is None:
        return str(value)
    return json.dumps(str(value), ensure_ascii=True)


def four_lines(pair: Mapping[str, Any] | Pair) -> list[str]:
    """The four required fields, verbatim (``none`` where there is no pinned file)."""
    if isinstance(pair, Pair):
        values = (pair.fixture_sha256, pair.failure_class, pair.freeze_allowed,
                  pair.fixture_path)
    else:
        values = (pair["fixture_sha256"], pair["failure_class"], pair["freeze_allowed"],
                  pair["fixture_path"])
    return [
        f"fixture_sha256={block_value(values[0])}",
        f"failure_class={block_value(values[1])}",
        f"freeze_allowed={'true' if values[2] is True else 'false'}",
        f"fixture_path={block_value(values[3])}",
    ]


def stamp_gate_line(pair: Mapping[str, Any] | Pair) -> str | None:
    """The stamp gate's decision on its own line (``stamp_gate=<action>``) for a cross-class
    pair, printed after the four lines; None for a same-class rerun (the digest gate decides
    alone). The four lines are always the digest gate's verdict: ``freeze_allowed=true``
    exactly when ``failure_class=harness_flake``; an allowlisted freeze is this line's
    ``freeze_inside_server_class``, never ``freeze_allowed``."""
    if isinstance(pair, Pair):
        return f"stamp_gate={block_value(pair.action)}" if pair.gate == "stamp" else None
    if pair.get("gate") != "stamp":
        return None
    return f"stamp_gate={block_value(pair.get('action'))}"


def pin_of(records: Sequence[Mapping[str, Any]],
           seen: Sequence[Mapping[str, Any]] | None = None) -> tuple[str | None, str | None]:
    """The first run's fixture digest (its pinned sampler file, else its Hypothesis generator
    digest, see :func:`gate.decide.stamps.as_run_record`) and the pinned file's path.
    ``seen``: each stamp's ``as_run_record``, when the caller has them already."""
    for index, stamp in enumerate(records):
        record = stamps.as_run_record(stamp) if seen is None else seen[index]
        sha = digest.clean_digest(record.get("fixture_sha256"))
        if sha is not None:
            path = stamp.get("fixture_path") if "fixture_sha256" in stamp else None
            return sha, path if isinstance(path, str) and path else None
    return None, None


def run_details(stamp: Mapping[str, Any]) -> dict[str, Any]:
    """What a reviewer needs from a stamp beyond its outcome: exit code, note, and (issue 11's
    card fields, when the stamp has them) the failure and the Hypothesis settings."""
    out: dict[str, Any] = {}
    _add_details(out, stamp)
    return out


def _add_details(out: dict[str, Any], stamp: Mapping[str, Any]) -> None:
    """:func:`run_details` of ``stamp`` added to ``out`` (one dict a run, not two)."""
    if "exit_code" in stamp:
        code = stamp["exit_code"]
        if code is None or (isinstance(code, int) and not isinstance(code, bool)):
            out["exit_code"] = code
    if "note" in stamp:
        note = stamp["note"]
        if isinstance(note, str) and note:
            out["note"] = note[:4096]
    if "failure" in stamp:
        value = stamp["failure"]
        if isinstance(value, dict) and value:
            out["failure"] = dict(value)
    if "hypothesis" in stamp:
        value = stamp["hypothesis"]
        if isinstance(value, dict) and value:
            out["hypothesis"] = dict(value)


def run_entry(stamp: Mapping[str, Any], source: str | None) -> dict[str, Any]:
    """One run in a report pair: ids and outcome, plus what :func:`run_details` carries."""
    get = stamp.get
    run: dict[str, Any] = {"run_id": str(get("run_id", "")),
                           "server_class": str(get("server_class", "")),
                           "outcome": str(get("outcome", ""))}
    if source:
        run["source"] = source
    _add_details(run, stamp)
    return run


_run = run_entry


def _short(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text[:12] + "…" if isinstance(value, str) and len(value) == 64 else text[:200]


def mismatch(local: Mapping[str, Any], free: Mapping[str, Any]) -> list[str]:
    """What differs between two stamps of a fixture-mismatch pair, in words (at most 64)."""
    out: list[str] = []
    for key in ("test_id", "fixture_hash", "harness_sha256", "fixture_sha256", "fixture_path"):
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


def whole(value: object) -> int | None:
    """``value`` if it is a JSON whole number (never a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def cross_class_pair(
    first: Mapping[str, Any], second: Mapping[str, Any], result: stamps.StampResult,
    sources: tuple[str | None, str | None] = (None, None),
) -> dict[str, Any]:
    """A cross-class pair: the stamp gate decides; the digest gate gives the label."""
    seen_1, seen_2 = stamps.as_run_record(first), stamps.as_run_record(second)
    label = digest.classify_runs(seen_1, seen_2)
    # local-pinned first; otherwise as given (what a stable sort on "is it local" gives)
    if second.get("server_class") == stamps.LOCAL and first.get("server_class") != stamps.LOCAL:
        a, b, source_a, source_b = second, first, sources[1], sources[0]
        seen_a, seen_b = seen_2, seen_1
    else:
        a, b, source_a, source_b = first, second, sources[0], sources[1]
        seen_a, seen_b = seen_1, seen_2
    sha, path = pin_of((a, b), (seen_a, seen_b))
    pair: dict[str, Any] = {
        "test_id": str(first.get("test_id")),
        "gate": "stamp",
        "action": result.action,
        "row": result.row,
        "status": "frozen" if result.frozen else "accepted" if result.door_open else "rejected",
        "reason": result.reason,
        "fixture_sha256": sha,
        "failure_class": label.failure_class.value,
        # the digest gate's verdict (SPEC §4), always; the stamp gate's freeze is ``status``
        "freeze_allowed": label.freeze_allowed,
        "fixture_path": path,
        "runs": [run_entry(a, source_a), run_entry(b, source_b)],
    }
    if result.action == "reject_fixture_mismatch":
        pair["mismatch"] = mismatch(a, b)
    if result.row == 6:  # a free-server red with a local-pinned green: the freeze family
        card = a.get("sample_card")
        expiry = card.get("freeze_expires_at") if isinstance(card, Mapping) else None
        pair["card_expires"] = whole(expiry)
    if "location" in a or "location" in b:
        loc = _location((a, b))
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


_STATUS_OF = {"accept_candidate": "accepted", "freeze_inside_server_class": "frozen"}


def _freeze_problem(pair: Mapping[str, Any], now: object) -> tuple[str, str] | None:
    """A frozen pair read back must show an expiry still ahead of the report's own clock: the
    card's ``freeze_expires_at`` (written before the run) and, when recorded, the allowlist
    entry's ``expires``."""
    at = whole(now)
    card_expires = whole(pair.get("card_expires"))
    if at is None:
        return "now", "a report with a frozen pair must carry its clock (now)"
    if card_expires is None or not at < card_expires:
        return "card_expires", (f"{pair.get('card_expires')!r}: a frozen pair needs the card's "
                                f"freeze_expires_at after now ({at})")
    freeze = pair.get("freeze")
    if isinstance(freeze, Mapping):
        expires = whole(freeze.get("expires"))
        if expires is None or not at < expires:
            return "freeze.expires", (f"{freeze.get('expires')!r}: the allowlist entry has "
                                      f"expired at now ({at})")
    return None


def _pair_problem(pair: Mapping[str, Any], now: object = None) -> tuple[str, str] | None:
    """(field, why) when a pair's decision does not follow from its own runs by the tables."""
    runs = pair.get("runs") or []
    ids = [r.get("run_id") for r in runs]
    gate, action = pair.get("gate"), pair.get("action")
    if gate in ("stamp", "digest") and len(set(ids)) != len(ids):
        return "runs", (f"two runs share the run id {ids[0]!r}: one attempt is never a pair "
                        "(a relabelled copy)")
    if gate == "stamp":
        if len(runs) != 2:
            return "runs", f"a stamp-gate pair has two runs, not {len(runs)}"
        local, free = runs
        actions = stamps.table_actions(local.get("outcome"), free.get("outcome"),
                                       (local.get("server_class"), free.get("server_class")))
        if action not in actions:
            return "action", (f"{action!r} does not follow from the runs ({local.get('outcome')}"
                              f" in {local.get('server_class')}, {free.get('outcome')} in "
                              f"{free.get('server_class')}); the table gives "
                              f"{', '.join(sorted(actions))}")
        if pair.get("row") != actions[action]:
            return "row", f"{pair.get('row')} where the table's row for {action} is " \
                          f"{actions[action]}"
        status = _STATUS_OF.get(str(action), "rejected")
        if status == "frozen":
            expired = _freeze_problem(pair, now)
            if expired is not None:
                return expired
    elif gate == "digest":
        if len(runs) != 2:
            return "runs", f"a digest-gate pair has two runs, not {len(runs)}"
        if action != pair.get("failure_class"):
            return "action", f"{action!r} is not the failure class {pair.get('failure_class')!r}"
        classes = stamps.rerun_table(runs[0], runs[1], pair.get("fixture_sha256"))
        if action not in classes:
            return "action", (f"{action!r} does not follow from the runs ("
                              f"{runs[0].get('outcome')} then {runs[1].get('outcome')}); the "
                              f"digest table gives {', '.join(sorted(classes))}")
        if pair.get("row") not in classes[str(action)]:
            return "row", (f"{pair.get('row')} is not a row that gives {action} for these "
                           f"runs (rows {', '.join(map(str, sorted(classes[str(action)])))})")
        status = "rejected"
    else:
        status = "rejected"
    if pair.get("status") != status:
        return "status", f"{pair.get('status')} where {gate} gate action {action!r} gives {status}"
    label = pair.get("failure_class")
    if pair.get("freeze_allowed") is not (label == digest.FailureClass.HARNESS_FLAKE):
        return "freeze_allowed", (f"{pair.get('freeze_allowed')} does not follow from "
                                  f"failure_class {label} (true exactly for harness_flake)")
    return None


def rederive(report: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The one re-derivation of a report read back: every decision in it (each pair and rerun,
    the receipt section, the halt-audit section) recomputed from its own inputs by the same
    pure tables. Returns (field, why) for each disagreement; a report with any never opens."""
    found: list[tuple[str, str]] = []
    for key in ("pairs", "reruns"):
        for index, pair in enumerate(report.get(key) or []):
            problem = _pair_problem(pair, report.get("now"))
            if problem is not None:
                found.append((f"{key}.{index}.{problem[0]}", problem[1]))
    receipt = report.get("receipt")
    if isinstance(receipt, Mapping):
        from gate.decide.receipts import ReceiptResult

        line = str(receipt.get("line", ""))
        mismatches = receipt.get("mismatches")
        if mismatches is None:
            mismatches = [] if line == "accept" else line.partition(": ")[2].split(",")
        derived = ReceiptResult(not mismatches, tuple(mismatches))
        if (receipt.get("decision"), line) != (derived.to_record()["decision"], derived.line):
            found.append(("receipt.decision",
                          f"{receipt.get('decision')!r} beside the line {line!r}: the section "
                          f"disagrees with itself (its mismatches give {derived.line!r})"))
    ungated = report.get("ungated")
    if isinstance(ungated, Mapping):
        table = ungated_rules.decision(int(ungated.get("count", 0)),
                                       str(ungated.get("policy")))
        if len(ungated.get("tests") or ()) > int(ungated.get("count", 0)):
            found.append(("ungated.count", f"{ungated.get('count')} beside "
                          f"{len(ungated.get('tests') or ())} tests named"))
        elif ungated.get("decision") != table:
            found.append(("ungated.decision", f"{ungated.get('decision')!r} beside policy "
                          f"{ungated.get('policy')!r} and {ungated.get('count')} tests: the "
                          f"ungated table gives {table!r}"))
    audit = report.get("halt_audit")
    if isinstance(audit, Mapping) and "problems" in audit:
        problems = list(audit["problems"])
        chain_ok = not any(str(p).startswith("chain:") for p in problems)
        if audit.get("chain_ok") is not chain_ok:
            found.append(("halt_audit.chain_ok", f"{audit.get('chain_ok')} beside its problems"))
        elif problems and audit.get("failed") == 0 and chain_ok:
            found.append(("halt_audit.failed", "0 beside problems that are failures"))
    return found


def closes(pairs: Sequence[Mapping[str, Any]], receipt: Mapping[str, Any] | None,
           halt_audit: Mapping[str, Any] | None,
           ungated: Mapping[str, Any] | None = None) -> bool:
    """Whether a report's parts close the gate: no pair, a rejected pair, a receipt that is
    not accepted, a halt audit with failures or a broken chain, or ungated tests under the
    policy ``ungated: fail``."""
    return (not pairs or any(p["status"] == "rejected" for p in pairs)
            or (receipt is not None and receipt["decision"] != "accept")
            or (halt_audit is not None and (halt_audit["failed"] > 0
                                            or not halt_audit["chain_ok"]))
            or (ungated is not None and ungated["decision"] != ungated_rules.NAMED))


def build(pairs: Sequence[dict[str, Any]], now: int, *,
          reruns: Sequence[dict[str, Any]] | None = None,
          receipt: dict[str, Any] | None = None,
          halt_audit: dict[str, Any] | None = None,
          max_freeze_days: int | None = None,
          ungated: dict[str, Any] | None = None) -> dict[str, Any]:
    counts = {"accepted": 0, "frozen": 0, "rejected": 0}
    for pair in pairs:
        counts[pair["status"]] += 1
    closed = closes(pairs, receipt, halt_audit, ungated)
    report = {
        "schema": "gate-report/v1",
        "gate_version": __version__,
        "now": now,
        "decision": "closed" if closed else "open",
        "counts": counts,
        "pairs": list(pairs),
    }
    extra = {"reruns": reruns, "receipt": receipt, "halt_audit": halt_audit,
             "max_freeze_days": max_freeze_days, "ungated": ungated}
    report.update({k: v for k, v in extra.items() if v is not None})
    return report
