"""Reading records from files: bounded, strict, and validated against schemas/.

Every record the gate decides from passes through here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.decide.block import block_value_problem
from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import (
    canonical_json,
    max_report_bytes,
    parse_json,
    read_bytes_capped,
    read_json,
    write_replace,
)

if TYPE_CHECKING:
    from gate.decide.receipts import ReceiptResult
    from gate.records.report_data import Report


def load(path: Path, schema_name: str) -> dict[str, Any]:
    record = read_json(path)
    schemas.validate(schema_name, record, str(path))
    return dict(record)


def load_card(path: Path) -> dict[str, Any]:
    return load(path, "sample-card")


def check_block_values(record: Mapping[str, Any], source: str, where: str = "") -> None:
    """A value printed in the four-line block must be one printable line (the rule is
    gate.decide.block.block_value_problem); otherwise the record is bad input."""
    value = record.get("fixture_path")
    if value is not None:
        problem = block_value_problem(value)
        if problem is not None:
            raise GateInputError(source, f"{where}fixture_path", problem)


def check_stamp(stamp: dict[str, Any], source: str) -> dict[str, Any]:
    """Schema, then the rules a schema cannot say: a stamp agrees with its own card, and its
    four-line-block values print on one line."""
    schemas.validate("stamp", stamp, source)
    if stamp.get("fixture_path") is not None:  # check_block_values's one field
        check_block_values(stamp, source)
    for field_name, why in _conflicts()(stamp):
        raise GateInputError(source, field_name, why)
    card_expiry = stamp["sample_card"].get("freeze_expires_at")
    if stamp["freeze_expires_at"] != card_expiry:
        raise GateInputError(source, "freeze_expires_at",
                             f"{stamp['freeze_expires_at']!r} disagrees with the sample card's "
                             f"{card_expiry!r}; a stamp copies its expiry from its card")
    return stamp


@functools.cache
def _conflicts() -> Callable[[Mapping[str, Any]], list[tuple[str, str]]]:
    """gate.decide.stamps.optional_field_conflicts, imported on first use (``gate stamp`` does
    not import the stamp gate) and once: an import statement in :func:`check_stamp` cost
    every stamp of a classify run the import machinery's look-up."""
    from gate.decide.stamps import optional_field_conflicts

    return optional_field_conflicts


def load_stamp(path: Path) -> dict[str, Any]:
    return check_stamp(read_json(path), str(path))


def load_run_or_stamp(path: Path) -> dict[str, Any]:
    """A run record, or a stamp seen as one (SPEC §4, how the two pair gates meet)."""
    from gate.decide import stamps

    record = read_json(path)
    if isinstance(record, dict) and "outcome" in record:
        stamp = check_stamp(record, str(path))
        seen = stamps.as_run_record(stamp)
        seen["test_id"] = stamp["test_id"]
        seen["server_class"] = stamp["server_class"]
        seen["outcome"] = stamp["outcome"]
        return seen
    schemas.validate("run-record", record, str(path))
    check_block_values(record, str(path))
    return dict(record)


def load_binding(path: Path) -> dict[str, Any]:
    return load(path, "binding")


def load_receipt_document(path: Path) -> Any:
    """The parsed receipt, or the SPEC §5 reject word for a missing or unreadable one."""
    try:
        data = read_bytes_capped(path)
    except GateInputError as exc:
        return "missing_receipt" if exc.message == "no such file" else "receipt_json"
    try:
        document = parse_json(data, str(path))
    except GateInputError:
        return "receipt_json"
    return document if isinstance(document, dict) else "receipt_type"


def verify_receipt_files(receipt: Path, diff: str, prompt: str, model_id: str,
                         workspace_generation: str | None, attempt_id: str,
                         directory: Path) -> ReceiptResult:
    """SPEC §5 verify: recompute both hashes from the files, then compare every bound field;
    the receipt must also sit in ``directory/attempt_id``, bootstrapped, and name the generation
    minted there (gate.records.attempts). ``workspace_generation`` None: the minted one.

    A missing diff or prompt is bad input; a missing or unreadable receipt rejects."""
    from gate.records import attempts, hashing, receipts

    place, minted = attempts.place_problem(receipt, attempt_id, directory, workspace_generation)
    expected = {
        "diff_sha256": hashing.file_digest(diff)[1].hex(),
        "prompt_sha256": hashing.file_digest(prompt)[1].hex(),
        "model_id": model_id,
        "workspace_generation": minted if minted is not None else (workspace_generation or ""),
    }
    document = load_receipt_document(receipt)
    if isinstance(document, str):
        return receipts.ReceiptResult(False, (document,))
    result = receipts.verify(document, expected)
    if place is None:
        return result
    return receipts.ReceiptResult(False, tuple(dict.fromkeys([place, *result.mismatches])))


def write_report(path: Path, report: dict[str, Any]) -> Report:
    """Check and write a report; one larger than the gate reads back is refused (exit 2).
    Returns it as every surface reads it (:func:`typed_report`)."""
    typed = typed_report(report, f"{path} (report being written)")
    data = canonical_json(report) + b"\n"
    if len(data) > max_report_bytes():
        raise GateInputError(str(path), "(report being written)",
                             f"{len(data)} bytes, over the {max_report_bytes()} bytes a report "
                             "may hold (raise GATE_MAX_REPORT_BYTES for every step that reads "
                             "it)")
    write_replace(path, data)
    return typed


#: The only (gate, action) that may carry each opening status; everything else is rejected.
_OPENING = {"accepted": ("stamp", "accept_candidate"),
            "frozen": ("stamp", "freeze_inside_server_class")}


def _check_status(pair: Mapping[str, Any], where: str, source: str) -> None:
    """An opening status must be the one its gate and action give (SPEC §3 rows 6 and 7)."""
    wanted = _OPENING.get(pair["status"])
    if wanted is None:
        return
    if (pair["gate"], pair["action"]) != wanted:
        raise GateInputError(source, f"{where}.status",
                             f"{pair['status']} does not follow from gate {pair['gate']!r}, "
                             f"action {pair['action']!r}")


def check_report(report: dict[str, Any], source: str) -> dict[str, Any]:
    """Schema, then the rules a schema cannot say: the counts tally the pairs, and ``open``
    needs a pair and nothing that closes the gate (a rejected pair, a rejected receipt, a
    failed halt audit). A report that disagrees with itself is bad input: it never opens."""
    schemas.validate("report", report, source)
    pairs = report["pairs"]
    tally = {"accepted": 0, "frozen": 0, "rejected": 0}
    for index, pair in enumerate(pairs):
        tally[pair["status"]] += 1
        _check_status(pair, f"pairs.{index}", source)
        check_block_values(pair, source, f"pairs.{index}.")
    for index, pair in enumerate(report.get("reruns", [])):
        check_block_values(pair, source, f"reruns.{index}.")
        if pair["status"] != "rejected":
            raise GateInputError(source, f"reruns.{index}.status",
                                 "a rerun pair is a label only; its status is always rejected")
    if report["counts"] != tally:
        raise GateInputError(source, "counts", f"{report['counts']} does not tally the pairs "
                             f"{tally}")
    from gate.records import report as report_rules

    for field_name, why in report_rules.rederive(report):
        raise GateInputError(source, field_name, f"{why}; a report that disagrees with its own "
                             "inputs never opens")
    closed = report_rules.closes(pairs, report.get("receipt"), report.get("halt_audit"),
                                 report.get("ungated"))
    if closed and report["decision"] == "open":
        raise GateInputError(source, "decision", "open, but the report's own pairs or "
                             "sections close the gate")
    return report


def check_distinct_attempts(records: list[tuple[str, Mapping[str, Any]]]) -> None:
    """Two records of one attempt (one run id) never make a pair, in any command: a stamp
    cloned and relabelled (SPEC §3) or one file given twice is bad input naming both."""
    seen: dict[object, str] = {}
    for source, record in records:
        run_id = record.get("run_id")
        # Without a run id, the same content twice is the same attempt.
        key = run_id if isinstance(run_id, str) else canonical_json(dict(record))
        if key in seen:
            raise GateInputError(source, "run_id",
                                 f"{run_id!r} is also the run id of {seen[key]}: two records "
                                 "of one attempt never make a pair (rerun with a new run id)")
        seen[key] = source


def typed_report(report: dict[str, Any], source: str) -> Report:
    """The one loader of a report: checked (:func:`check_report`), then frozen dataclasses
    (gate.records.report_data), which every surface reads."""
    from gate.records.report_data import Report

    return Report.from_dict(check_report(report, source))


def load_report(path: Path) -> Report:
    """A report, read with the report cap (:func:`gate.records.files.max_report_bytes`)."""
    data = read_bytes_capped(path, max_report_bytes(), "GATE_MAX_REPORT_BYTES")
    return typed_report(parse_json(data, str(path)), str(path))
