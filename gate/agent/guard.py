"""The halt gate where tool calls happen (SPEC §2): a guard an agent harness wraps around tools.

Usage::

    from gate.agent.guard import ToolGuard, ToolCallRefused

    guard = ToolGuard("halt-ledger.jsonl")            # policy / halt_report optional

    @guard.tool(target="url")                         # the argument holding the URL or host
    def fetch(url: str) -> bytes: ...

    @guard.tool(target=lambda args, kwargs: kwargs["request"].url)   # or a function
    def send(*, request: Request) -> bytes: ...

    # every call carries the binding the worker was issued, the generation it was issued
    # under, and an attempt id that is unique per attempted call:
    fetch("https://api.lab.invalid/x", binding=b, issued_generation=b.generation,
          attempt_id="a-17")
    # or, without the decorator (``target`` as for the decorator):
    guard.call(fetch_impl, "https://api.lab.invalid/x", target="url", binding=b,
               issued_generation=b.generation, attempt_id="a-17")
    # or, around a block of code that is the call to ``target`` (a URL or host):
    with guard.attempt(b, b.generation, "a-17", target="https://api.lab.invalid/x"):
        ...

**The host the call will reach is what is checked.** A tool must declare how its target is
read: the name of an argument holding a URL or host, or a function of the call's
``(args, kwargs)`` returning one; a tool without a declared target cannot be decorated
(``TypeError`` at decoration time), and a name that is not one of its parameters neither. At
call time the value is read with :func:`gate.agent.target.target_host`, the very function
``gate halt hook`` uses, and the attempted binding is the ``binding=`` handed in with its host
replaced by that host, exactly as the hook replaces it with the host of the call's input. So a
caller holding a good binding who calls the tool with a live URL gets a HALT (the live host
is not a closed fixture), another ``.invalid`` host gets a REJECT (not the minted binding), and
a target that cannot be read (not a string, user info, white space, ...) is recorded with an
empty host, which halts. The body never runs.

Before every call the guard rechecks with :meth:`gate.records.ledger.Ledger.check`, which decides
by the table of SPEC §2 against what the issuer minted and appends the decision to the ledger
against the attempt id. Only on ALLOW does the tool body run. Otherwise a
:class:`ToolCallRefused` is raised and the body never runs:

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
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from gate.agent.target import TargetRefused, attempted, target_host
from gate.decide import halt
from gate.records.ledger import CheckResult, Ledger

R = TypeVar("R")
#: How a tool's target is read: the name of an argument holding a URL or host, or a function
#: of the call's positional and keyword arguments returning one.
Target = str | Callable[[tuple[Any, ...], dict[str, Any]], object]


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
        """Decide and record one attempt of ``binding`` as given; return the ALLOW, raise on
        anything else. (The tool paths below first put the call's own host into it.)"""
        result = self.ledger.check(binding, issued_generation, attempt_id)
        if result.decision is halt.Decision.ALLOW:
            if result.replayed:
                raise ToolCallReplayed(attempt_id, result)
            return result
        if result.decision is halt.Decision.HALT:
            raise ToolCallHalted(attempt_id, result)
        raise ToolCallRejected(attempt_id, result)

    def check_target(self, binding: halt.Binding, issued_generation: int, attempt_id: str,
                     value: object) -> CheckResult:
        """Check the call to ``value`` (a URL or host): ``binding`` with its host replaced by
        the host ``value`` names, as ``gate halt hook`` does; a value naming no trustworthy
        host is recorded with an empty host (which halts)."""
        try:
            host = target_host(value)
        except TargetRefused:
            host = ""
        return self.check(attempted(binding, host), issued_generation, attempt_id)

    @contextlib.contextmanager
    def attempt(self, binding: halt.Binding, issued_generation: int, attempt_id: str, *,
                target: str) -> Iterator[CheckResult]:
        """``with guard.attempt(..., target=URL)``: the block runs only after a fresh ALLOW of
        the call to ``target``."""
        yield self.check_target(binding, issued_generation, attempt_id, target)

    def call(self, tool: Callable[..., R], /, *args: Any, target: Target,
             binding: halt.Binding, issued_generation: int, attempt_id: str,
             **kwargs: Any) -> R:
        """Check the call's target (read from ``args``/``kwargs`` as ``target`` declares), then
        call ``tool(*args, **kwargs)`` only on a fresh ALLOW."""
        self.check_target(binding, issued_generation, attempt_id,
                          _read(_reader(tool, target), args, kwargs))
        return tool(*args, **kwargs)

    def tool(self, fn: Callable[..., R] | None = None, /, *, target: Target | None = None
             ) -> Callable[[Callable[..., R]], Callable[..., R]]:
        """Decorator factory: ``@guard.tool(target="url")`` or ``@guard.tool(target=func)``.

        The wrapped function takes three more keyword-only arguments, ``binding``,
        ``issued_generation`` and ``attempt_id``; they are not passed on. ``@guard.tool``
        without a target is a ``TypeError`` here, at decoration time."""
        if fn is not None or target is None:
            raise TypeError("@guard.tool needs target=: the name of the argument holding the "
                            "URL or host the tool reaches, or a function (args, kwargs) -> str; "
                            "the guard checks that host, not only the binding")

        def decorate(fn: Callable[..., R]) -> Callable[..., R]:
            read = _reader(fn, target)

            @functools.wraps(fn)
            def guarded(*args: Any, binding: halt.Binding, issued_generation: int,
                        attempt_id: str, **kwargs: Any) -> R:
                self.check_target(binding, issued_generation, attempt_id,
                                  _read(read, args, kwargs))
                return fn(*args, **kwargs)

            return guarded

        return decorate


_MISSING = object()


def _read(read: Callable[[tuple[Any, ...], dict[str, Any]], object], args: tuple[Any, ...],
          kwargs: dict[str, Any]) -> object:
    """The call's target; a reader that fails gives no target (recorded as a halt)."""
    try:
        return read(args, kwargs)
    except Exception:
        return _MISSING


def _reader(fn: Callable[..., Any], target: Target
            ) -> Callable[[tuple[Any, ...], dict[str, Any]], object]:
    """How the target of a call of ``fn`` is read; ``TypeError`` when ``target`` is neither a
    parameter of ``fn`` nor a function."""
    if callable(target):
        return target
    if not isinstance(target, str) or not target:
        raise TypeError(f"target must be an argument name or a function, not {target!r}")
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        raise TypeError(f"target={target!r}: the signature of {fn!r} cannot be read; "
                        "give a function (args, kwargs) -> str") from None
    if target not in signature.parameters:
        raise TypeError(f"target={target!r} is not a parameter of {fn.__qualname__}")

    def read(args: tuple[Any, ...], kwargs: dict[str, Any]) -> object:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return _MISSING  # a call that would fail anyway: no target, recorded as a halt
        bound.apply_defaults()
        return bound.arguments.get(target, _MISSING)

    return read
