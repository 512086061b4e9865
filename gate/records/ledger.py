"""The halt gate's issuer and ledger: one append-only JSON Lines file, chained by SHA-256.

``bind`` entries record what the issuer minted; a rebind is generation + 1, appended by
compare-and-swap under an exclusive file lock (the append happens only if the chain tail is
still the one the new generation was computed from). Every check appends one ``decision``
entry keyed by attempt id; a repeated identical check returns the recorded decision, a
conflicting one is rejected and recorded as a ``conflict`` entry. Each entry's ``hash`` is
``sha256(prev_hash_bytes + canonical_json(entry without hash))``, so an edited, reordered,
inserted or deleted line breaks the chain at a line number ``audit`` reports.
"""

from __future__ import annotations

import _thread
import contextlib
import fcntl
import os
import time
from pathlib import Path

from gate.decide import halt
from gate.decide.frozen import FrozenValue
from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import (
    append_bytes,
    canonical_json,
    lexists,
    open_fd,
    parse_json,
    read_all,
)
from gate.records.sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; no dataclasses either: `gate halt hook` start-up
    from collections.abc import Iterator
    from typing import Any

GENESIS = "0" * 64


class LedgerError(GateInputError):
    """The ledger cannot be trusted (torn, edited, reordered): nothing is decided from it."""


def entry_hash(entry: dict[str, Any]) -> str:
    body = {k: v for k, v in entry.items() if k != "hash"}
    return sha256(bytes.fromhex(entry["prev"]) + canonical_json(body)).hexdigest()


class CheckResult(FrozenValue):
    __slots__ = ("decision", "reason", "replayed", "row", "target_class")
    decision: halt.Decision
    row: int
    reason: str
    target_class: halt.TargetClass
    replayed: bool  # True when an identical earlier check's decision was returned

    def __init__(self, decision: halt.Decision, row: int, reason: str,
                 target_class: halt.TargetClass, replayed: bool = False) -> None:
        self._set(decision=decision, row=row, reason=reason, target_class=target_class,
                  replayed=replayed)


class _State:
    def __init__(self) -> None:
        self.offset = 0
        self.seq = 0
        self.tail = GENESIS
        self.issuer = halt.MemoryIssuer()
        self.decided: dict[str, dict[str, Any]] = {}


#: Longest ledger line read (an entry is a few KiB at most); longer is refused before parsing.
MAX_LINE_BYTES = 64 * 1024


def _parse_line(raw: bytes, number: int, source: str) -> dict[str, Any]:
    if len(raw) > MAX_LINE_BYTES:
        raise LedgerError(source, f"line {number}", f"longer than {MAX_LINE_BYTES} bytes")
    try:  # strict: UTF-8, no duplicate keys (which value counts is a guess), no NaN
        entry = parse_json(raw, source)
    except GateInputError:
        raise LedgerError(source, f"line {number}", "not valid JSON (torn or edited)") from None
    if not isinstance(entry, dict):
        raise LedgerError(source, f"line {number}", "not a JSON object")
    found = schemas.errors("ledger-entry", entry)
    if found:
        raise LedgerError(source, f"line {number}", f"not a ledger entry: {found[0].message}")
    return entry


def _apply(state: _State, entry: dict[str, Any], number: int, source: str) -> None:
    """Check one entry's place in the chain and fold it into the state."""
    if entry["seq"] != state.seq + 1:
        raise LedgerError(source, f"line {number}",
                          f"sequence {entry['seq']} where {state.seq + 1} was due "
                          "(a line was deleted, inserted or reordered)")
    if entry["prev"] != state.tail:
        raise LedgerError(source, f"line {number}",
                          "chain broken: prev does not match the line before "
                          "(a line was edited, deleted or reordered)")
    if entry_hash(entry) != entry["hash"]:
        raise LedgerError(source, f"line {number}", "hash mismatch: this line was edited")
    if entry["kind"] == "bind":
        binding = halt.Binding.from_record(entry["binding"])
        due = (state.issuer.current_generation(binding.run_id) or 0) + 1
        if binding.generation != due:
            raise LedgerError(source, f"line {number}",
                              f"bind of generation {binding.generation} where {due} was due")
        state.issuer.record(binding)
    elif entry["kind"] == "decision":
        if entry["attempt_id"] in state.decided:
            raise LedgerError(source, f"line {number}",
                              f"attempt {entry['attempt_id']!r} decided twice")
        state.decided[entry["attempt_id"]] = entry
    state.seq = entry["seq"]
    state.tail = entry["hash"]


def _read_new(handle: Any, state: _State, source: str) -> None:
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    if size < state.offset:
        raise LedgerError(source, "(file)", "ledger shrank since it was last read")
    handle.seek(state.offset)
    data = handle.read(size - state.offset)
    if data and not data.endswith(b"\n"):
        torn_line = state.seq + data.count(b"\n") + 1
        raise LedgerError(source, f"line {torn_line}",
                          "torn last line (a write was interrupted); run `gate halt audit`")
    for raw in data.splitlines():
        number = state.seq + 1
        _apply(state, _parse_line(raw, number, source), number, source)
    state.offset = size


class Ledger:
    """Issuer and decision ledger on one file; safe across threads and processes."""

    def __init__(self, path: Path, policy: halt.HaltPolicy | None = None,
                 halt_report: Path | None = None) -> None:
        self.path = Path(path)
        self.policy = policy or halt.HaltPolicy()
        self.halt_report = halt_report
        self._state = _State()
        # flock excludes other open files, even in this process, but the in-memory state is
        # shared by every thread using this object: guard it without relying on flock details.
        self._thread_lock = _thread.allocate_lock()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[Any]:
        with self._thread_lock, self._flocked() as handle:
            yield handle

    @contextlib.contextmanager
    def _flocked(self) -> Iterator[Any]:
        fd = open_fd(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, make_parents=True)
        with os.fdopen(fd, "r+b", buffering=0) as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                _read_new(handle, self._state, str(self.path))
                yield handle
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _append(self, handle: Any, body: dict[str, Any]) -> dict[str, Any]:
        """Append under the lock, chained to the tail just read (the compare-and-swap)."""
        state = self._state
        entry = {"v": 1, "seq": state.seq + 1, "prev": state.tail, "at": int(time.time()), **body}
        entry["hash"] = entry_hash(entry)
        schemas.validate("ledger-entry", entry, str(self.path))
        line = canonical_json(entry) + b"\n"
        os.write(handle.fileno(), line)
        os.fsync(handle.fileno())
        _apply(state, entry, entry["seq"], str(self.path))
        state.offset += len(line)
        return entry

    def bind(self, run_id: str, scope: str, host: str, marker: str | None,
             target_class: str = "fixture", *, expect_generation: int | None = None
             ) -> halt.Binding:
        """Mint generation 1, or rebind as current + 1; never edits an earlier binding."""
        with self._locked() as handle:
            current = self._state.issuer.current_generation(run_id) or 0
            if expect_generation is not None and expect_generation != current:
                raise GateInputError(str(self.path), "generation",
                                     f"compare-and-swap failed: current generation is "
                                     f"{current}, not {expect_generation}")
            binding = halt.Binding(run_id, current + 1, scope, host, marker, target_class)
            schemas.validate("binding", binding.to_record(), f"{self.path} (binding)")
            self._append(handle, {"kind": "bind", "binding": binding.to_record()})
            return binding

    def current_bindings(self) -> dict[str, halt.Binding]:
        """The issuer's current binding of every run in the ledger, read under the lock."""
        with self._locked():
            issuer = self._state.issuer
            return {run: binding for (run, gen), binding in issuer.bindings.items()
                    if issuer.current.get(run) == gen}

    def check(self, binding: halt.Binding, issued_generation: int, attempt_id: str,
              expected: str | None = None) -> CheckResult:
        """Decide one attempted tool call, before the call, and record it."""
        with self._locked() as handle:
            prior = self._state.decided.get(attempt_id)
            if prior is not None:
                same = (halt.same_binding(halt.Binding.from_record(prior["binding"]), binding)
                        and prior["issued_generation"] == issued_generation)
                if same:
                    return CheckResult(halt.Decision(prior["decision"]), prior["row"],
                                       prior["reason"], halt.TargetClass(prior["target_class"]),
                                       replayed=True)
                entry = self._append(handle, {
                    "kind": "conflict", "attempt_id": attempt_id,
                    "binding": binding.to_record(), "issued_generation": issued_generation,
                    "decision": "reject", "row": 0, "target_class": prior["target_class"],
                    "reason": "attempt id already decided with other inputs; the earlier "
                              "decision stands", "expected": expected,
                })
                return CheckResult(halt.Decision.REJECT, 0, entry["reason"],
                                   halt.TargetClass(prior["target_class"]))
            result = halt.decide(binding, issued_generation, self._state.issuer, self.policy)
            self._append(handle, {
                "kind": "decision", "attempt_id": attempt_id, "binding": binding.to_record(),
                "issued_generation": issued_generation, "decision": result.decision.value,
                "row": result.row, "reason": result.reason,
                "target_class": result.target_class.value, "expected": expected,
            })
        if result.decision is halt.Decision.HALT and self.halt_report is not None:
            self._report_halt(binding, attempt_id, result)
        return CheckResult(result.decision, result.row, result.reason, result.target_class)

    def _report_halt(self, binding: halt.Binding, attempt_id: str,
                     result: halt.HaltResult) -> None:
        assert self.halt_report is not None
        line = canonical_json({
            "attempt_id": attempt_id, "run_id": binding.run_id, "host": binding.host,
            "scope": binding.scope, "decision": result.decision.value, "row": result.row,
            "reason": result.reason, "at": int(time.time()),
        }) + b"\n"
        # The halt stands (it is in the ledger); a report name that is a link, a FIFO or a
        # device is bad input, and nothing is written through it.
        append_bytes(self.halt_report, line)


class AuditResult(FrozenValue):
    __slots__ = ("denominator", "failed", "problems")
    failed: int
    denominator: int
    problems: tuple[str, ...]

    def __init__(self, failed: int, denominator: int, problems: tuple[str, ...]) -> None:
        self._set(failed=failed, denominator=denominator, problems=problems)

    @property
    def chain_ok(self) -> bool:
        return not any(p.startswith("chain:") for p in self.problems)

    @property
    def passed(self) -> bool:
        return self.failed == 0 and not self.problems

    def to_record(self) -> dict[str, Any]:
        """The report's ``halt_audit`` section (and ``halt audit --json``)."""
        return {"failed": self.failed, "denominator": self.denominator,
                "chain_ok": self.chain_ok, "problems": list(self.problems)}


def audit(path: Path, policy: halt.HaltPolicy | None = None) -> AuditResult:
    """Replay the ledger: the chain must hold, and every decision must be the table's."""
    pol = policy or halt.HaltPolicy()
    state = _State()
    problems: list[str] = []
    failed = 0
    attempts: set[str] = set()
    data = read_all(path)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        problems.append(f"chain: line {len(lines)}: torn last line (no newline)")
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        try:
            entry = _parse_line(raw, number, str(path))
            if entry["kind"] != "bind":
                # Recompute against the issuer state *before* this entry.
                binding = halt.Binding.from_record(entry["binding"])
                replay = halt.decide(binding, entry["issued_generation"], state.issuer, pol)
            _apply(state, entry, number, str(path))
        except LedgerError as exc:
            problems.insert(0, f"chain: {exc.field}: {exc.message}")
            break
        if entry["kind"] == "bind":
            continue
        attempts.add(entry["attempt_id"])
        wrong: list[str] = []
        due = "reject" if entry["kind"] == "conflict" else replay.decision.value
        if entry["decision"] != due:
            wrong.append(f"recorded {entry['decision']}, the table says {due}")
        if entry.get("expected") is not None and entry["decision"] != entry["expected"]:
            wrong.append(f"expected {entry['expected']}")
        if wrong:
            failed += 1
            problems.append(f"line {number}: attempt {entry['attempt_id']!r}: " + "; ".join(wrong))
    return AuditResult(failed, len(attempts), tuple(problems))


def repair_tail(path: Path) -> tuple[int, Path | None]:
    """Move a torn last line aside, only if every complete line before it verifies.

    A write interrupted mid-line (a crash, a power cut) leaves bytes after the last newline;
    ``Ledger`` then refuses to append and ``audit`` reports the torn line. This is the
    documented way out: under the ledger's lock, every complete line is checked (JSON, schema,
    sequence, chain, hash, bind generations); if any fails, :class:`LedgerError` is raised and
    nothing is changed (an edit in the middle is never hidden by a repair). Otherwise the torn
    bytes are written, write-once, to ``<ledger>.torn-<unix time>`` and the ledger is truncated
    to its last complete line. Returns (the torn line's number, where its bytes went), or
    (0, None) when the ledger has no torn tail.
    """
    from gate.records.files import write_once

    source = str(path)
    fd = open_fd(path, os.O_RDWR)
    with os.fdopen(fd, "r+b", buffering=0) as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            data = handle.read()
            if not data or data.endswith(b"\n"):
                return 0, None
            cut = data.rfind(b"\n") + 1
            state = _State()
            for number, raw in enumerate(data[:cut].splitlines(), start=1):
                _apply(state, _parse_line(raw, number, source), number, source)
            torn_line = state.seq + 1
            kept = path.with_name(f"{path.name}.torn-{int(time.time())}")
            suffix = 0
            while lexists(kept):
                suffix += 1
                kept = path.with_name(f"{path.name}.torn-{int(time.time())}.{suffix}")
            write_once(kept, data[cut:])
            os.ftruncate(handle.fileno(), cut)
            os.fsync(handle.fileno())
            return torn_line, kept
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
