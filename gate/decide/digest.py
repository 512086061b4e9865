"""Digest gate (SPEC §4): is a red pair a property miss, a moved input, or harness noise?

Pure. A malformed value is treated as missing; it can never open the freeze door.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

_HEX64 = re.compile(r"[0-9a-f]{64}")


class FailureClass(StrEnum):
    PROPERTY_MISS = "property_miss"
    FIXTURE_DRIFT = "fixture_drift"
    HARNESS_FLAKE = "harness_flake"
    UNCLASSIFIED = "unclassified"


@dataclass(frozen=True, slots=True)
class DigestResult:
    failure_class: FailureClass
    row: int
    reason: str

    @property
    def freeze_allowed(self) -> bool:
        return self.failure_class is FailureClass.HARNESS_FLAKE


def clean_digest(value: object) -> str | None:
    return value if isinstance(value, str) and _HEX64.fullmatch(value) else None


def clean_bool(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _malformed(record: Mapping[str, Any], key: str) -> bool:
    """Present, not null, and not a boolean."""
    value = record.get(key)
    return value is not None and not isinstance(value, bool)


def transport_fault(record: Mapping[str, Any]) -> bool:
    """A transport fault recorded by the client: transport not ok, or a timeout."""
    return clean_bool(record.get("transport_ok")) is False or clean_bool(
        record.get("timed_out")
    ) is True


def classify_runs(left: Mapping[str, Any], right: Mapping[str, Any]) -> DigestResult:
    """The six rows of SPEC §4, in order; symmetric in its two arguments."""
    d1, d2 = clean_digest(left.get("fixture_sha256")), clean_digest(right.get("fixture_sha256"))
    if d1 is None or d2 is None:
        return DigestResult(FailureClass.UNCLASSIFIED, 1,
                            "a fixture digest is missing or malformed")
    if d1 != d2:
        return DigestResult(FailureClass.FIXTURE_DRIFT, 2, "the fixture digests differ")
    o1, o2 = clean_bool(left.get("oracle_passed")), clean_bool(right.get("oracle_passed"))
    if o1 is False and o2 is False:
        return DigestResult(FailureClass.PROPERTY_MISS, 3, "both oracles failed on the same bytes")
    if o1 is False or o2 is False:
        return DigestResult(FailureClass.UNCLASSIFIED, 4, "only one oracle failed")
    if any(_malformed(r, k) for r in (left, right)
           for k in ("oracle_passed", "transport_ok", "timed_out")):
        # Treated as missing for rows 3-4, but a malformed value never opens the freeze door.
        return DigestResult(FailureClass.UNCLASSIFIED, 6,
                            "an oracle or transport value is malformed; no freeze")
    if transport_fault(left) or transport_fault(right):
        return DigestResult(FailureClass.HARNESS_FLAKE, 5, "a transport fault was recorded")
    return DigestResult(FailureClass.UNCLASSIFIED, 6, "no row matched")
