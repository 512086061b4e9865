"""Halt gate (SPEC §2): may this agent tool call leave the worker?

Pure decision logic: no files, no clock. The issuer's record is passed in as a read-only view.

The values here are frozen classes written out by hand rather than frozen dataclasses: every
``gate halt hook`` process (one per agent tool call) imports this module, and ``dataclasses``
(with ``inspect``) plus the code it generates per class cost more start-up than the decision.
"""

from __future__ import annotations

import re
from enum import StrEnum

from gate.decide.frozen import FrozenValue as FrozenValue

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing is not imported at run time
    from collections.abc import Mapping
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


class Binding(FrozenValue):
    __slots__ = ("generation", "host", "marker", "run_id", "scope", "target_class")
    run_id: str
    generation: int
    scope: str
    host: str
    marker: str | None
    target_class: str

    def __init__(self, run_id: str, generation: int, scope: str, host: str,
                 marker: str | None, target_class: str) -> None:
        self._set(run_id=run_id, generation=generation, scope=scope, host=host, marker=marker,
                  target_class=target_class)

    def replace(self, **changes: Any) -> Binding:
        new: Binding = super().replace(**changes)
        return new

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


class HaltPolicy(FrozenValue):
    __slots__ = ("expected_marker", "reserved_scopes")
    reserved_scopes: tuple[str, ...]
    expected_marker: str

    def __init__(self, reserved_scopes: tuple[str, ...] = DEFAULT_RESERVED_SCOPES,
                 expected_marker: str = DEFAULT_MARKER) -> None:
        self._set(reserved_scopes=reserved_scopes, expected_marker=expected_marker)


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


if TYPE_CHECKING:
    class IssuerView(Protocol):
        """What the issuer minted, as the decision sees it."""

        def minted(self, run_id: str, generation: int) -> Binding | None: ...

        def current_generation(self, run_id: str) -> int | None: ...


class HaltResult(FrozenValue):
    __slots__ = ("decision", "reason", "row", "target_class")
    decision: Decision
    row: int
    reason: str
    target_class: TargetClass

    def __init__(self, decision: Decision, row: int, reason: str,
                 target_class: TargetClass = TargetClass.UNKNOWN) -> None:
        self._set(decision=decision, row=row, reason=reason, target_class=target_class)


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


class MemoryIssuer:
    """An in-memory issuer view (tests, the demo, and replay during audit)."""

    def __init__(self, bindings: dict[tuple[str, int], Binding] | None = None,
                 current: dict[str, int] | None = None) -> None:
        self.bindings: dict[tuple[str, int], Binding] = {} if bindings is None else bindings
        self.current: dict[str, int] = {} if current is None else current

    def __repr__(self) -> str:
        return f"MemoryIssuer(bindings={self.bindings!r}, current={self.current!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not MemoryIssuer:
            return NotImplemented
        assert isinstance(other, MemoryIssuer)
        return (self.bindings, self.current) == (other.bindings, other.current)

    __hash__ = None  # type: ignore[assignment]

    def record(self, binding: Binding) -> None:
        self.bindings[(binding.run_id, binding.generation)] = binding
        self.current[binding.run_id] = max(self.current.get(binding.run_id, 0), binding.generation)

    def minted(self, run_id: str, generation: int) -> Binding | None:
        return self.bindings.get((run_id, generation))

    def current_generation(self, run_id: str) -> int | None:
        return self.current.get(run_id)
