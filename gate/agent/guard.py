"""The halt gate where tool calls happen (SPEC §2): a guard an agent harness wraps around tools.

Usage::

    from gate.agent.guard import ToolGuard, ToolCallRefused

    guard = ToolGuard("halt-ledger.jsonl")            # policy / halt_report optional

    @guard.tool
    def fetch(url: str) -> bytes: ...

    # every call carries the binding the worker was issued, the generation it was issued
    # under, and an attempt id that is unique per attempted call:
    fetch("https://api.lab.invalid/x", binding=b, issued_generation=b.generation,
          attempt_id="a-17")
    # or, without the decorator:
    guard.call(fetch_impl, "https://api.lab.invalid/x", binding=b,
               issued_generation=b.generation, attempt_id="a-17")
    # or, around a block of code that is the call:
    with guard.attempt(b, b.generation, "a-17"):
        ...

Before every call the guard rechecks with :meth:`gate.records.ledger.Ledger.check`, which decides
by the
table of SPEC §2 against what the issuer minted and appends the decision to the ledger against
the attempt id. Only on ALLOW does the tool body run. Otherwise a :class:`ToolCallRefused`
is raised and the body never runs:

* HALT → :class:`ToolCallHalted` (live or unknown target, or a binding nobody minted);
* REJECT → :class:`ToolCallRejected` (stale generation, a swapped binding, or an attempt id
  already decided with other inputs);
* an ALLOW that the ledger *replays* → :class:`ToolCallReplayed`.

**One attempt id, at most one call.** A retried attempt id gets the recorded decision back
(the ledger replays it): after a HALT or REJECT the retry raises the same refusal. After an
ALLOW, the first check of that attempt id is the only one that may call: the tool was already
called (or is being called, or its process died between the check and the call). A second
call would be a replay of a tool call, and the recorded ALLOW may be stale by now (the run may
have been rebound since), so a replayed ALLOW raises :class:`ToolCallReplayed` and never
calls. There is no opt-in: a harness that wants to retry an idempotent tool mints a new
attempt id, which gets a fresh check against the issuer's current state. This is process-safe
because the record is the ledger itself: ``Ledger.check`` runs under an exclusive file lock,
so of all threads and processes checking one attempt id on one ledger, exactly one sees a
fresh (non-replayed) decision. A replayed check appends nothing to the ledger.

The guard holds one :class:`~gate.records.ledger.Ledger` per guard object; a guard (and its ledger
object) may be shared between threads (the ledger serialises its own operations with a lock
and ``flock``). Several processes may each open their own guard on the same ledger file.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from gate.decide import halt
from gate.records.ledger import CheckResult, Ledger

R = TypeVar("R")


class ToolCallRefused(Exception):
    """The guard refused a tool call; the tool body did not run."""

    def __init__(self, attempt_id: str, result: CheckResult) -> None:
        self.attempt_id = attempt_id
        self.result = result
        self.decision = result.decision
        self.row = result.row
        self.reason = result.reason
        self.replayed = result.replayed
        super().__init__(f"attempt {attempt_id!r}: {result.decision.value} "
                         f"(row {result.row}): {result.reason}")


class ToolCallHalted(ToolCallRefused):
    """HALT: the target is not a closed fixture, or no issuer minted the binding."""


class ToolCallRejected(ToolCallRefused):
    """REJECT: a stale generation, a swapped binding, or a conflicting attempt id."""


class ToolCallReplayed(ToolCallRefused):
    """The attempt id was already ALLOWed once; calling again would replay the tool call."""


class ToolGuard:
    """Rechecks every tool call against the issuer and the ledger, before the call."""

    def __init__(self, ledger: Ledger | Path | str, *, policy: halt.HaltPolicy | None = None,
                 halt_report: Path | None = None) -> None:
        if isinstance(ledger, Ledger):
            if policy is not None or halt_report is not None:
                raise TypeError("give policy and halt_report to the Ledger, not to the guard")
            self.ledger = ledger
        else:
            self.ledger = Ledger(Path(ledger), policy, halt_report)

    def check(self, binding: halt.Binding, issued_generation: int, attempt_id: str
              ) -> CheckResult:
        """Decide and record one attempt; return the ALLOW, raise on anything else."""
        result = self.ledger.check(binding, issued_generation, attempt_id)
        if result.decision is halt.Decision.ALLOW:
            if result.replayed:
                raise ToolCallReplayed(attempt_id, result)
            return result
        if result.decision is halt.Decision.HALT:
            raise ToolCallHalted(attempt_id, result)
        raise ToolCallRejected(attempt_id, result)

    @contextlib.contextmanager
    def attempt(self, binding: halt.Binding, issued_generation: int, attempt_id: str
                ) -> Iterator[CheckResult]:
        """``with guard.attempt(...)``: the block runs only after a fresh ALLOW."""
        yield self.check(binding, issued_generation, attempt_id)

    def call(self, tool: Callable[..., R], /, *args: Any, binding: halt.Binding,
             issued_generation: int, attempt_id: str, **kwargs: Any) -> R:
        """Check, then call ``tool(*args, **kwargs)`` only on a fresh ALLOW."""
        self.check(binding, issued_generation, attempt_id)
        return tool(*args, **kwargs)

    def tool(self, fn: Callable[..., R]) -> Callable[..., R]:
        """Decorator: the wrapped function takes three more keyword-only arguments,
        ``binding``, ``issued_generation`` and ``attempt_id``; they are not passed on."""

        @functools.wraps(fn)
        def guarded(*args: Any, binding: halt.Binding, issued_generation: int,
                    attempt_id: str, **kwargs: Any) -> R:
            self.check(binding, issued_generation, attempt_id)
            return fn(*args, **kwargs)

        return guarded
