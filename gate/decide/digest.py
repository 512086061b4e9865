"""Digest gate (SPEC §4): is a red pair a property miss, a moved input, or harness noise?

Pure. A malformed value is treated as missing; it can never open the freeze door.

Rows in order (SPEC §4, with issue 11's Hypothesis digests in rows 0 and 3, and row 6 split):

==  ==================================================================  ===============
#   condition                                                           failure_class
==  ==================================================================  ===============
0   the Hypothesis generator digests (``generator_sha256``) differ      fixture_drift
    (one missing counts as differing when that run has an oracle
    result; a discarded run without one is left to the other rows)
1   either digest (``fixture_sha256``) missing                          unclassified
2   digests differ                                                      fixture_drift
3   both oracles false, and both runs carry a ``failure_sha256`` that   unclassified
    differ (they failed, but on different minimal examples)
3   both oracles false                                                  property_miss
4   one oracle false                                                    unclassified
5   a transport fault recorded, and both runs failed the same           unclassified
    Hypothesis health check on the same generator (equal
    ``health_check_sha256`` and ``generator_sha256``): deterministic,
    a re-run draws the same examples and fails the same way; not noise
5   a transport fault recorded                                          harness_flake
6   both oracles passed (nothing is red)                                none
6   anything else                                                       unclassified
==  ==================================================================  ===============

For a Hypothesis property (a stamp with a ``hypothesis`` object) the digests are computed by
:func:`generator_digest` (the generator: Hypothesis version and every setting in force; a pair
drawing the same examples has the same one) and :func:`failure_digest` (the minimal failing
example as Hypothesis printed it and the exception type); see
docs/formats.md#hypothesis-digests-gate-hypothesis-generatorv1-and-gate-hypothesis-failurev2.
:func:`health_check_digest` is a run's failed health check (Hypothesis's
``FailedHealthCheck`` and its text), so a check that repeats exactly is told from noise.
"""

from __future__ import annotations

import hashlib
import json
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
    NONE = "none"  # both runs green: nothing to classify


#: The settings in force that make up a Hypothesis generator (``examples_run`` is an outcome).
GENERATOR_FIELDS = ("version", "seed", "max_examples", "derandomize", "database",
                    "deadline_ms", "suppress_health_check")
GENERATOR_FORMAT = "gate-hypothesis-generator/v1"
FAILURE_FORMAT = "gate-hypothesis-failure/v2"
HEALTH_CHECK_FORMAT = "gate-hypothesis-health-check/v1"
#: The qualified type of Hypothesis's health-check failure (a stamp's ``failure.type``).
HEALTH_CHECK_TYPE = "hypothesis.errors.FailedHealthCheck"
#: A default ``repr`` of an object holds its memory address (``<tests.TestX object at
#: 0x7f23d2a74210>``, a test method's ``self`` in every falsifying example of a class-based
#: test), which differs between any two processes: it is replaced before hashing.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")
ADDRESS_MARK = " at 0x…>"


def without_addresses(text: str) -> str:
    """``text`` with every default ``repr``'s memory address replaced (:data:`ADDRESS_MARK`):
    what two processes print for the same objects."""
    return _ADDRESS.sub(ADDRESS_MARK, text)


def _sha256_of(value: object) -> str:
    data = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def generator_digest(hypothesis: Mapping[str, Any]) -> str:
    """SHA-256 of canonical JSON ``{"format": GENERATOR_FORMAT, <GENERATOR_FIELDS>}``."""
    body: dict[str, Any] = {"format": GENERATOR_FORMAT}
    body.update({k: hypothesis.get(k) for k in GENERATOR_FIELDS})
    return _sha256_of(body)


def failure_digest(failure: Mapping[str, Any]) -> str | None:
    """SHA-256 of canonical JSON ``{"example", "format": FAILURE_FORMAT, "type"}``, or ``None``
    when no minimal example was printed (nothing to compare). Object addresses in the example
    (``" at 0x7f…>"``) are replaced with ``" at 0x…>"`` first."""
    example, kind = failure.get("example"), failure.get("type")
    if not isinstance(example, str) or not isinstance(kind, str):
        return None
    return _sha256_of({"example": without_addresses(example),
                       "format": FAILURE_FORMAT, "type": kind})


def health_check_digest(failure: Mapping[str, Any]) -> str | None:
    """SHA-256 of canonical JSON ``{"format": HEALTH_CHECK_FORMAT, "message", "type"}`` for a
    failure raised by a Hypothesis health check (``type`` is :data:`HEALTH_CHECK_TYPE`), else
    ``None``. Object addresses are replaced as in :func:`failure_digest`. Two runs with the same
    digest and the same generator failed the same check with the same text: deterministic."""
    message, kind = failure.get("message"), failure.get("type")
    if kind != HEALTH_CHECK_TYPE or not isinstance(message, str) or not message:
        return None
    return _sha256_of({"format": HEALTH_CHECK_FORMAT, "type": kind,
                       "message": without_addresses(message)})


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
    """The rows of the module table (SPEC §4 and issue 11), in order; symmetric."""
    g1, g2 = clean_digest(left.get("generator_sha256")), clean_digest(right.get("generator_sha256"))
    # one generator unknown counts as differing, unless that run has no oracle result at all
    one_sided = (g1 is None and clean_bool(left.get("oracle_passed")) is not None) or (
        g2 is None and clean_bool(right.get("oracle_passed")) is not None)
    if (g1 is not None or g2 is not None) and g1 != g2 and (
            (g1 is not None and g2 is not None) or one_sided):
        return DigestResult(FailureClass.FIXTURE_DRIFT, 0,
                            "the Hypothesis generators differ (version or settings in force)")
    d1, d2 = clean_digest(left.get("fixture_sha256")), clean_digest(right.get("fixture_sha256"))
    if d1 is None or d2 is None:
        return DigestResult(FailureClass.UNCLASSIFIED, 1,
                            "a fixture digest is missing or malformed")
    if d1 != d2:
        return DigestResult(FailureClass.FIXTURE_DRIFT, 2, "the fixture digests differ")
    o1, o2 = clean_bool(left.get("oracle_passed")), clean_bool(right.get("oracle_passed"))
    f1, f2 = clean_digest(left.get("failure_sha256")), clean_digest(right.get("failure_sha256"))
    if o1 is False and o2 is False and f1 is not None and f2 is not None and f1 != f2:
        return DigestResult(FailureClass.UNCLASSIFIED, 3,
                            "both oracles failed, but on different minimal examples")
    if o1 is False and o2 is False:
        return DigestResult(FailureClass.PROPERTY_MISS, 3, "both oracles failed on the same bytes")
    if o1 is False or o2 is False:
        return DigestResult(FailureClass.UNCLASSIFIED, 4, "only one oracle failed")
    if any(_malformed(r, k) for r in (left, right)
           for k in ("oracle_passed", "transport_ok", "timed_out")):
        # Treated as missing for rows 3-4, but a malformed value never opens the freeze door.
        return DigestResult(FailureClass.UNCLASSIFIED, 6,
                            "an oracle or transport value is malformed; no freeze")
    h1 = clean_digest(left.get("health_check_sha256"))
    h2 = clean_digest(right.get("health_check_sha256"))
    if (transport_fault(left) or transport_fault(right)) and h1 is not None and h1 == h2 \
            and g1 is not None and g1 == g2:
        return DigestResult(FailureClass.UNCLASSIFIED, 5,
                            "both runs failed the same Hypothesis health check on the same "
                            "generator: deterministic, not harness noise; no freeze")
    if transport_fault(left) or transport_fault(right):
        return DigestResult(FailureClass.HARNESS_FLAKE, 5, "a transport fault was recorded")
    if o1 is True and o2 is True:
        return DigestResult(FailureClass.NONE, 6, "both oracles passed: nothing to classify")
    return DigestResult(FailureClass.UNCLASSIFIED, 6, "no row matched")
