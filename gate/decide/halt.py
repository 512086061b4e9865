"""Halt gate (SPEC §2): may this agent tool call leave the worker?

Pure decision logic: no files, no clock. The issuer's record is passed in as a read-only view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

DEFAULT_RESERVED_SCOPES = ("lab.invalid", "fixture.local")
DEFAULT_MARKER = "synthetic-fixture-v1"


class TargetClass(StrEnum):
    FIXTURE = "fixture"
    LIVE = "live"
    UNKNOWN = "unknown"


class Decision(StrEnum):
    ALLOW = "allow"
    HALT = "halt"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class Binding:
    run_id: str
    generation: int
    scope: str
    host: str
    marker: str | None
    target_class: str

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Binding:
        return cls(
            run_id=record["run_id"],
            generation=record["generation"],
            scope=record["scope"],
            host=record["host"],
            marker=record.get("marker"),
            target_class=record["target_class"],
        )

    def to_record(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "generation": self.generation,
            "scope": self.scope,
            "host": self.host,
            "marker": self.marker,
            "target_class": self.target_class,
        }


@dataclass(frozen=True, slots=True)
class HaltPolicy:
    reserved_scopes: tuple[str, ...] = DEFAULT_RESERVED_SCOPES
    expected_marker: str = DEFAULT_MARKER


# fullmatch, not ``$``: ``$`` also matches before a trailing newline ("api\n.lab.invalid").
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


def host_key(host: str) -> str:
    """A host name as DNS compares it: ASCII letters case-insensitive (RFC 4343), nothing
    else folded. The one way the halt gate compares hosts and scopes (halt check, the hook and
    the guard all decide through :func:`decide`)."""
    return host.translate(_ASCII_LOWER)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def same_host(a: str, b: str) -> bool:
    return host_key(a) == host_key(b)


def same_binding(a: Binding, b: Binding) -> bool:
    """Equal bindings, the host compared as DNS does (:func:`same_host`). The scope is a
    reviewed policy name and stays exact (a scope in another case is not reserved: it halts)."""
    return (same_host(a.host, b.host)
            and (a.run_id, a.generation, a.scope, a.marker, a.target_class)
            == (b.run_id, b.generation, b.scope, b.marker, b.target_class))


def is_valid_dns_host(host: object) -> bool:
    """A syntactically valid DNS host name (RFC 1123 labels), ASCII, lower or upper case.

    No trailing dot, no empty label, no IP literal, no port, no user info, no white space.
    """
    if not isinstance(host, str) or not host or len(host) > 253 or not host.isascii():
        return False
    labels = host_key(host).split(".")
    return len(labels) >= 2 and all(_LABEL.fullmatch(label) for label in labels)


def is_closed_fixture_host(host: object) -> bool:
    """A valid host name whose last label is ``invalid`` (RFC 2606)."""
    return is_valid_dns_host(host) and host_key(str(host)).rsplit(".", 1)[-1] == "invalid"


def classify(binding: Binding, policy: HaltPolicy) -> TargetClass:
    """fixture / live / unknown, exactly as SPEC §2."""
    if binding.target_class == TargetClass.LIVE:
        return TargetClass.LIVE
    if binding.scope not in policy.reserved_scopes or not is_closed_fixture_host(binding.host):
        return TargetClass.LIVE
    if binding.marker == policy.expected_marker and binding.target_class == TargetClass.FIXTURE:
        return TargetClass.FIXTURE
    return TargetClass.UNKNOWN


class IssuerView(Protocol):
    """What the issuer minted, as the decision sees it."""

    def minted(self, run_id: str, generation: int) -> Binding | None: ...

    def current_generation(self, run_id: str) -> int | None: ...


@dataclass(frozen=True, slots=True)
class HaltResult:
    decision: Decision
    row: int
    reason: str
    target_class: TargetClass = field(default=TargetClass.UNKNOWN)


def decide(
    binding: Binding, issued_generation: int, issuer: IssuerView, policy: HaltPolicy
) -> HaltResult:
    """The four rows of SPEC §2, in order; the first that matches decides."""
    target = classify(binding, policy)
    if issued_generation != binding.generation:
        return HaltResult(
            Decision.REJECT, 1,
            f"issued generation {issued_generation} differs from the binding's "
            f"generation {binding.generation}; discarded, never replayed", target,
        )
    if target is not TargetClass.FIXTURE:
        return HaltResult(Decision.HALT, 2, f"target class is {target.value}, not fixture", target)
    minted = issuer.minted(binding.run_id, binding.generation)
    if minted is None:
        return HaltResult(
            Decision.HALT, 3, "no issuer minted this binding (run and generation unknown)", target
        )
    if not same_binding(minted, binding):
        return HaltResult(
            Decision.REJECT, 3,
            "binding differs from the one the issuer minted for this generation", target,
        )
    if issuer.current_generation(binding.run_id) != binding.generation:
        return HaltResult(
            Decision.REJECT, 3, "generation is no longer the run's current one", target
        )
    return HaltResult(Decision.ALLOW, 4, "closed fixture, minted and current", target)


@dataclass
class MemoryIssuer:
    """An in-memory issuer view (tests, the demo, and replay during audit)."""

    bindings: dict[tuple[str, int], Binding] = field(default_factory=dict)
    current: dict[str, int] = field(default_factory=dict)

    def record(self, binding: Binding) -> None:
        self.bindings[(binding.run_id, binding.generation)] = binding
        self.current[binding.run_id] = max(self.current.get(binding.run_id, 0), binding.generation)

    def minted(self, run_id: str, generation: int) -> Binding | None:
        return self.bindings.get((run_id, generation))

    def current_generation(self, run_id: str) -> int | None:
        return self.current.get(run_id)
