"""Receipt binder (SPEC §5): does this review receipt name *this* diff, prompt, model and
workspace generation?

Pure: hashes are computed at the edge and passed in, and so are the receipt schema's findings
(:mod:`gate.records.receipts` validates and calls in here). Two formats: a plain JSON object, and an
in-toto Statement v1 whose subject is the diff and whose predicate carries the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

IN_TOTO_TYPE = "https://in-toto.io/Statement/v1"
#: This project's predicate type: a URI under a name the project can own (the GitHub
#: organisation ``agent-patch-gate``), versioned. Receipts are written with it.
PREDICATE_TYPE = "https://github.com/agent-patch-gate/gate/review-receipt/v1"
#: The first predicate type (an ``.invalid`` host nobody can own); still accepted on verify.
LEGACY_PREDICATE_TYPES = ("https://agent-patch-gate.invalid/review-receipt/v1",)
PREDICATE_TYPES = (PREDICATE_TYPE, *LEGACY_PREDICATE_TYPES)
FIELDS = ("diff_sha256", "prompt_sha256", "model_id", "workspace_generation", "verdict", "reasons")
VERDICTS = ("pass", "fail")


class ReceiptWriteError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


def build(
    *,
    diff_sha256: str,
    prompt_sha256: str,
    model_id: str,
    workspace_generation: str,
    verdict: str,
    reasons: object,
) -> dict[str, Any]:
    """A plain receipt; refuses any verdict but pass/fail and empty or non-list reasons. The
    edge validates the result against the receipt schema."""
    if verdict not in VERDICTS:
        raise ReceiptWriteError("verdict", f"must be pass or fail, not {verdict!r}")
    if not isinstance(reasons, list) or not reasons:
        raise ReceiptWriteError("reasons", "must be a non-empty list of strings")
    if not all(isinstance(r, str) and r for r in reasons):
        raise ReceiptWriteError("reasons", "every reason must be a non-empty string")
    receipt = {
        "diff_sha256": diff_sha256,
        "prompt_sha256": prompt_sha256,
        "model_id": model_id,
        "workspace_generation": workspace_generation,
        "verdict": verdict,
        "reasons": list(reasons),
    }
    return receipt


def to_in_toto(receipt: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "_type": IN_TOTO_TYPE,
        "subject": [{"name": "diff", "digest": {"sha256": receipt["diff_sha256"]}}],
        "predicateType": PREDICATE_TYPE,
        "predicate": {k: receipt[k] for k in FIELDS if k != "diff_sha256"},
    }


@dataclass(frozen=True, slots=True)
class ReceiptResult:
    accepted: bool
    mismatches: tuple[str, ...]

    @property
    def line(self) -> str:
        return "accept" if self.accepted else "reject: " + ",".join(self.mismatches)

    def to_record(self) -> dict[str, Any]:
        """The report's ``receipt`` section (and ``receipt verify --json``)."""
        return {"decision": "accept" if self.accepted else "reject", "line": self.line,
                "mismatches": list(self.mismatches)}


def _logical_field(path: Sequence[str], in_toto: bool) -> str:
    """The SPEC §5 field name a schema error is about (``unknown_fields`` for extra ones)."""
    head = path[0] if path else ""
    if not in_toto:
        return head if head in FIELDS else "unknown_fields"
    if head == "subject":
        return "diff_sha256"
    if head == "predicate":
        if len(path) == 1:
            return "predicate"
        return path[1] if path[1] in FIELDS else "unknown_fields"
    if head in ("_type", "predicateType"):
        return "statement_type"
    return "unknown_fields"


def schema_name(document: Mapping[str, Any]) -> str:
    """Which schema a receipt document is checked against."""
    return "receipt-in-toto" if "_type" in document else "receipt"


def _bound_fields(document: Mapping[str, Any], schema_paths: Iterable[Sequence[str]]
                  ) -> tuple[dict[str, Any], set[str]]:
    """The bound fields as found, and the names of fields the schema rejects."""
    in_toto = "_type" in document
    bad = {_logical_field(path, in_toto) for path in schema_paths}
    if in_toto:
        subject = document.get("subject")
        predicate = document.get("predicate")
        found: dict[str, Any] = {}
        if isinstance(subject, list) and len(subject) == 1 and isinstance(subject[0], dict):
            digest = subject[0].get("digest")
            if isinstance(digest, dict) and "sha256" in digest:
                found["diff_sha256"] = digest["sha256"]
        if isinstance(predicate, dict):
            found.update({k: predicate[k] for k in FIELDS[1:] if k in predicate})
        return found, bad
    return {k: document[k] for k in FIELDS if k in document}, bad


def verify(document: object, expected: Mapping[str, str],
           schema_paths: Iterable[Sequence[str]] = ()) -> ReceiptResult:
    """Compare every bound field; a fail verdict or empty reasons are mismatches, and so is every
    field at one of ``schema_paths`` (where the document's schema found an error)."""
    if not isinstance(document, dict):
        return ReceiptResult(False, ("receipt_type",))
    found, bad = _bound_fields(document, schema_paths)
    for key in ("diff_sha256", "prompt_sha256", "model_id", "workspace_generation"):
        if found.get(key) != expected[key]:
            bad.add(key)
    if found.get("verdict") != "pass":
        bad.add("verdict")
    reasons = found.get("reasons")
    if not isinstance(reasons, list) or not reasons:
        bad.add("reasons")
    order = [*FIELDS, "statement_type", "predicate", "unknown_fields"]
    ranked = sorted(bad, key=lambda f: (order.index(f) if f in order else len(order), f))
    return ReceiptResult(not ranked, tuple(ranked))
