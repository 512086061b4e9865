"""Receipts at the edge: the receipt binder's pure rules (:mod:`gate.decide.receipts`) plus the
receipt schemas. Every receipt written or verified goes through here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gate.decide import receipts as rules
from gate.decide.receipts import (
    FIELDS,
    IN_TOTO_TYPE,
    PREDICATE_TYPE,
    ReceiptResult,
    ReceiptWriteError,
    to_in_toto,
)
from gate.records import schemas

__all__ = ["FIELDS", "IN_TOTO_TYPE", "PREDICATE_TYPE", "ReceiptResult", "ReceiptWriteError",
           "build", "to_in_toto", "verify"]


def build(**fields: Any) -> dict[str, Any]:
    """A plain receipt (see :func:`gate.decide.receipts.build`), valid against its schema."""
    receipt = rules.build(**fields)
    found = schemas.errors("receipt", receipt)
    if found:
        raise ReceiptWriteError(schemas.field_of(found[0]), found[0].message)
    return receipt


def verify(document: object, expected: Mapping[str, str]) -> ReceiptResult:
    """The binder's decision, with the document's own schema errors counted as mismatches."""
    if not isinstance(document, dict):
        return rules.verify(document, expected)
    paths = [schemas.path_of(e) for e in schemas.errors(rules.schema_name(document), document)]
    return rules.verify(document, expected, paths)
