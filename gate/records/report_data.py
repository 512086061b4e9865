"""The report as frozen dataclasses (``schemas/report.schema.json``): what every surface reads.

A report is checked once (:func:`gate.records.load.check_report`: the schema, then the rules a
schema cannot say) and turned into a :class:`Report` at the one loader
(:func:`gate.records.load.typed_report`); past it nothing re-derives a field's meaning from a
``dict``. Each class has ``from_dict`` (of a checked record: the schema has already said every
field's type) and ``to_dict`` (the same record back, key for key: ``to_dict(from_dict(r)) ==
r``). A field the schema lets be absent *or* null where the two read differently keeps the
difference as :data:`ABSENT`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum


class Absent(Enum):
    """A field the record does not have (where null means something else)."""

    ABSENT = "absent"


ABSENT = Absent.ABSENT

#: What ``from_dict`` reads: a JSON object the schema has checked.
Record = Mapping[str, object]


def _bad(key: str) -> TypeError:
    """A checked record has every field's type; anything else is a caller's error."""
    return TypeError(f"report field {key!r}: not what schemas/report.schema.json says (read "
                     "reports through gate.records.load)")


def _str(record: Record, key: str) -> str:
    value = record[key]
    if not isinstance(value, str):
        raise _bad(key)
    return value


def _opt_str(record: Record, key: str) -> str | None:
    value = record.get(key)
    if value is not None and not isinstance(value, str):
        raise _bad(key)
    return value


def _opt_int(record: Record, key: str) -> int | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(key)
    return value


def _int(record: Record, key: str) -> int:
    value = _opt_int(record, key)
    if value is None:
        raise _bad(key)
    return value


def _nullable_int(record: Record, key: str) -> int | Absent | None:
    return _opt_int(record, key) if key in record else ABSENT


def _bool(record: Record, key: str) -> bool:
    value = record[key]
    if not isinstance(value, bool):
        raise _bad(key)
    return value


def _strs(record: Record, key: str) -> tuple[str, ...] | None:
    """An optional list of strings (None: absent)."""
    if key not in record:
        return None
    value = record[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(key)
    return tuple(value)


def _objects(record: Record, key: str) -> list[Record]:
    value = record.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise _bad(key)
    return value


def _object(record: Record, key: str) -> Record | None:
    value = record.get(key)
    if value is not None and not isinstance(value, Mapping):
        raise _bad(key)
    return value


def _put(out: dict[str, object], key: str, value: object) -> None:
    """Put ``value`` unless it is absent (None for a field that is never null, or ABSENT)."""
    if value is not None and value is not ABSENT:
        out[key] = value


@dataclass(frozen=True, slots=True)
class Counts:
    accepted: int
    frozen: int
    rejected: int

    @classmethod
    def from_dict(cls, record: Record) -> Counts:
        return cls(_int(record, "accepted"), _int(record, "frozen"), _int(record, "rejected"))

    def to_dict(self) -> dict[str, object]:
        return {"accepted": self.accepted, "frozen": self.frozen, "rejected": self.rejected}


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """The Hypothesis settings a run had in force (stamp.schema.json ``$defs/hypothesis``)."""

    version: str
    seed: int
    max_examples: int
    derandomize: bool
    database: None
    deadline_ms: int | None
    suppress_health_check: tuple[str, ...]
    examples_run: int | None

    @classmethod
    def from_dict(cls, record: Record) -> Hypothesis:
        if record["database"] is not None:
            raise _bad("database")
        return cls(_str(record, "version"), _int(record, "seed"), _int(record, "max_examples"),
                   _bool(record, "derandomize"), None, _opt_int(record, "deadline_ms"),
                   _strs(record, "suppress_health_check") or (), _opt_int(record, "examples_run"))

    def to_dict(self) -> dict[str, object]:
        return {"version": self.version, "seed": self.seed, "max_examples": self.max_examples,
                "derandomize": self.derandomize, "database": self.database,
                "deadline_ms": self.deadline_ms,
                "suppress_health_check": list(self.suppress_health_check),
                "examples_run": self.examples_run}


@dataclass(frozen=True, slots=True)
class Failure:
    """A red run as the test runner saw it (stamp.schema.json ``$defs/failure``)."""

    type: str
    message: str
    example: str | None
    reproduce: str | None

    @classmethod
    def from_dict(cls, record: Record) -> Failure:
        return cls(_str(record, "type"), _str(record, "message"), _opt_str(record, "example"),
                   _opt_str(record, "reproduce"))

    def to_dict(self) -> dict[str, object]:
        return {"type": self.type, "message": self.message, "example": self.example,
                "reproduce": self.reproduce}


@dataclass(frozen=True, slots=True)
class Run:
    """One run of a pair: its ids and outcome, and what its stamp said beyond that."""

    run_id: str
    server_class: str
    outcome: str
    source: str | None = None
    exit_code: int | Absent | None = ABSENT  # None: killed by a signal
    note: str | None = None
    hypothesis: Hypothesis | None = None
    failure: Failure | None = None

    @classmethod
    def from_dict(cls, record: Record) -> Run:
        hypothesis = _object(record, "hypothesis")
        failure = _object(record, "failure")
        return cls(_str(record, "run_id"), _str(record, "server_class"), _str(record, "outcome"),
                   _opt_str(record, "source"), _nullable_int(record, "exit_code"),
                   _opt_str(record, "note"),
                   Hypothesis.from_dict(hypothesis) if hypothesis is not None else None,
                   Failure.from_dict(failure) if failure is not None else None)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"run_id": self.run_id, "server_class": self.server_class,
                                  "outcome": self.outcome}
        _put(out, "source", self.source)
        if self.exit_code is not ABSENT:
            out["exit_code"] = self.exit_code
        _put(out, "note", self.note)
        _put(out, "hypothesis", self.hypothesis.to_dict() if self.hypothesis else None)
        _put(out, "failure", self.failure.to_dict() if self.failure else None)
        return out


@dataclass(frozen=True, slots=True)
class Freeze:
    """The free-server allowlist entry a pair has."""

    owner: str
    reason: str
    expires: int
    issue: str | int | None = None
    card_expires: int | Absent | None = ABSENT

    @property
    def ends(self) -> int:
        """When the freeze ends: the earlier of the entry's and the card's expiry."""
        card = self.card_expires
        return min(self.expires, card) if isinstance(card, int) else self.expires

    @classmethod
    def from_dict(cls, record: Record) -> Freeze:
        issue = record.get("issue")
        if issue is not None and not isinstance(issue, str | int):
            raise _bad("issue")
        return cls(_str(record, "owner"), _str(record, "reason"), _int(record, "expires"),
                   issue, _nullable_int(record, "card_expires"))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"owner": self.owner, "reason": self.reason}
        _put(out, "issue", self.issue)
        out["expires"] = self.expires
        if self.card_expires is not ABSENT:
            out["card_expires"] = self.card_expires
        return out


@dataclass(frozen=True, slots=True)
class Remembered:
    """A red an earlier attempt of the workflow run recorded."""

    attempt: int
    server_class: str
    run_id: str
    check_run_url: str

    @classmethod
    def from_dict(cls, record: Record) -> Remembered:
        return cls(_int(record, "attempt"), _str(record, "server_class"),
                   _str(record, "run_id"), _str(record, "check_run_url"))

    def to_dict(self) -> dict[str, object]:
        return {"attempt": self.attempt, "server_class": self.server_class,
                "run_id": self.run_id, "check_run_url": self.check_run_url}


@dataclass(frozen=True, slots=True)
class Location:
    path: str
    line: int | None = None

    @classmethod
    def from_dict(cls, record: Record) -> Location:
        return cls(_str(record, "path"), _opt_int(record, "line"))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.path}
        _put(out, "line", self.line)
        return out


@dataclass(frozen=True, slots=True)
class Pair:
    """One pair of runs and what its gate decided (``$defs/pair``)."""

    test_id: str
    gate: str
    action: str
    row: int
    status: str
    reason: str
    fixture_sha256: str | None
    failure_class: str
    freeze_allowed: bool
    fixture_path: str | None
    runs: tuple[Run, ...]
    freeze: Freeze | None = None
    card_expires: int | Absent | None = ABSENT
    mismatch: tuple[str, ...] | None = None
    remembered: tuple[Remembered, ...] | None = None
    location: Location | None = None

    def run_of(self, server_class: str) -> Run | None:
        """The last run of ``server_class``, if any."""
        found = [r for r in self.runs if r.server_class == server_class]
        return found[-1] if found else None

    @classmethod
    def from_dict(cls, record: Record) -> Pair:
        freeze = _object(record, "freeze")
        location = _object(record, "location")
        remembered = ([Remembered.from_dict(m) for m in _objects(record, "remembered")]
                      if "remembered" in record else None)
        return cls(
            test_id=_str(record, "test_id"), gate=_str(record, "gate"),
            action=_str(record, "action"), row=_int(record, "row"),
            status=_str(record, "status"), reason=_str(record, "reason"),
            fixture_sha256=_opt_str(record, "fixture_sha256"),
            failure_class=_str(record, "failure_class"),
            freeze_allowed=_bool(record, "freeze_allowed"),
            fixture_path=_opt_str(record, "fixture_path"),
            runs=tuple(Run.from_dict(r) for r in _objects(record, "runs")),
            freeze=Freeze.from_dict(freeze) if freeze is not None else None,
            card_expires=_nullable_int(record, "card_expires"),
            mismatch=_strs(record, "mismatch"),
            remembered=tuple(remembered) if remembered is not None else None,
            location=Location.from_dict(location) if location is not None else None)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "test_id": self.test_id, "gate": self.gate, "action": self.action, "row": self.row,
            "status": self.status, "reason": self.reason,
            "fixture_sha256": self.fixture_sha256, "failure_class": self.failure_class,
            "freeze_allowed": self.freeze_allowed, "fixture_path": self.fixture_path,
            "runs": [r.to_dict() for r in self.runs]}
        _put(out, "freeze", self.freeze.to_dict() if self.freeze else None)
        if self.card_expires is not ABSENT:
            out["card_expires"] = self.card_expires
        _put(out, "mismatch", list(self.mismatch) if self.mismatch is not None else None)
        _put(out, "remembered", [m.to_dict() for m in self.remembered]
             if self.remembered is not None else None)
        _put(out, "location", self.location.to_dict() if self.location else None)
        return out


@dataclass(frozen=True, slots=True)
class Receipt:
    decision: str
    line: str
    mismatches: tuple[str, ...] | None = None

    @classmethod
    def from_dict(cls, record: Record) -> Receipt:
        return cls(_str(record, "decision"), _str(record, "line"), _strs(record, "mismatches"))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"decision": self.decision, "line": self.line}
        _put(out, "mismatches", list(self.mismatches) if self.mismatches is not None else None)
        return out


@dataclass(frozen=True, slots=True)
class HaltAudit:
    failed: int
    denominator: int
    chain_ok: bool
    problems: tuple[str, ...] | None = None

    @classmethod
    def from_dict(cls, record: Record) -> HaltAudit:
        return cls(_int(record, "failed"), _int(record, "denominator"),
                   _bool(record, "chain_ok"), _strs(record, "problems"))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"failed": self.failed, "denominator": self.denominator,
                                  "chain_ok": self.chain_ok}
        _put(out, "problems", list(self.problems) if self.problems is not None else None)
        return out


@dataclass(frozen=True, slots=True)
class JudgeFile:
    """A changed file gated properties depend on: every one (``all``) or ``count`` of them."""

    path: str
    kinds: tuple[str, ...]
    previous: str | None = None
    all: bool = False
    count: int | None = None
    test_ids: tuple[str, ...] | None = None

    @classmethod
    def from_dict(cls, record: Record) -> JudgeFile:
        return cls(_str(record, "path"), _strs(record, "kinds") or (),
                   _opt_str(record, "previous"), record.get("all") is True,
                   _opt_int(record, "count"), _strs(record, "test_ids"))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.path}
        _put(out, "previous", self.previous)
        out["kinds"] = list(self.kinds)
        if self.all:
            out["all"] = True
        _put(out, "count", self.count)
        _put(out, "test_ids", list(self.test_ids) if self.test_ids is not None else None)
        return out


@dataclass(frozen=True, slots=True)
class JudgeFiles:
    """What judges the patch (SPEC 7): shown only, never deciding."""

    base: str
    head: str
    properties: int
    files: tuple[JudgeFile, ...]
    changed: int | None = None
    complete: bool | None = None  # False: GitHub listed its maximum
    error: str | None = None
    notes: tuple[str, ...] | None = None
    more_files: int | None = None

    @classmethod
    def from_dict(cls, record: Record) -> JudgeFiles:
        complete = record.get("complete")
        if complete is not None and not isinstance(complete, bool):
            raise _bad("complete")
        return cls(_str(record, "base"), _str(record, "head"), _int(record, "properties"),
                   tuple(JudgeFile.from_dict(f) for f in _objects(record, "files")),
                   _opt_int(record, "changed"), complete, _opt_str(record, "error"),
                   _strs(record, "notes"), _opt_int(record, "more_files"))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"base": self.base, "head": self.head,
                                  "properties": self.properties}
        _put(out, "changed", self.changed)
        _put(out, "complete", self.complete)
        _put(out, "error", self.error)
        _put(out, "notes", list(self.notes) if self.notes is not None else None)
        _put(out, "more_files", self.more_files)
        out["files"] = [f.to_dict() for f in self.files]
        return out


@dataclass(frozen=True, slots=True)
class UngatedTest:
    """A Hypothesis test no manifest property selects, and who found it."""

    test: str
    kind: str
    found_by: tuple[str, ...]

    @classmethod
    def from_dict(cls, record: Record) -> UngatedTest:
        return cls(_str(record, "test"), _str(record, "kind"), _strs(record, "found_by") or ())

    def to_dict(self) -> dict[str, object]:
        return {"test": self.test, "kind": self.kind, "found_by": list(self.found_by)}


@dataclass(frozen=True, slots=True)
class Ungated:
    """The ungated tests (issue 29) and what the policy made of them."""

    policy: str
    decision: str
    count: int
    tests: tuple[UngatedTest, ...]
    notes: tuple[str, ...] | None = None

    @classmethod
    def from_dict(cls, record: Record) -> Ungated:
        return cls(_str(record, "policy"), _str(record, "decision"), _int(record, "count"),
                   tuple(UngatedTest.from_dict(t) for t in _objects(record, "tests")),
                   _strs(record, "notes"))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"policy": self.policy, "decision": self.decision,
                                  "count": self.count,
                                  "tests": [t.to_dict() for t in self.tests]}
        _put(out, "notes", list(self.notes) if self.notes is not None else None)
        return out


@dataclass(frozen=True, slots=True)
class Report:
    """A checked report (``schemas/report.schema.json``)."""

    schema: str
    gate_version: str
    now: int
    decision: str
    counts: Counts
    pairs: tuple[Pair, ...]
    max_freeze_days: int | None = None
    reruns: tuple[Pair, ...] | None = None
    receipt: Receipt | None = None
    halt_audit: HaltAudit | None = None
    ungated: Ungated | None = None
    judge_files: JudgeFiles | None = None

    @classmethod
    def from_dict(cls, record: Record) -> Report:
        counts = _object(record, "counts")
        receipt = _object(record, "receipt")
        audit = _object(record, "halt_audit")
        judge = _object(record, "judge_files")
        ungated = _object(record, "ungated")
        if counts is None:
            raise _bad("counts")
        return cls(
            schema=_str(record, "schema"), gate_version=_str(record, "gate_version"),
            now=_int(record, "now"), decision=_str(record, "decision"),
            counts=Counts.from_dict(counts),
            pairs=tuple(Pair.from_dict(p) for p in _objects(record, "pairs")),
            max_freeze_days=_opt_int(record, "max_freeze_days"),
            reruns=(tuple(Pair.from_dict(p) for p in _objects(record, "reruns"))
                    if "reruns" in record else None),
            receipt=Receipt.from_dict(receipt) if receipt is not None else None,
            halt_audit=HaltAudit.from_dict(audit) if audit is not None else None,
            ungated=Ungated.from_dict(ungated) if ungated is not None else None,
            judge_files=JudgeFiles.from_dict(judge) if judge is not None else None)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "schema": self.schema, "gate_version": self.gate_version, "now": self.now,
            "decision": self.decision, "counts": self.counts.to_dict(),
            "pairs": [p.to_dict() for p in self.pairs]}
        _put(out, "max_freeze_days", self.max_freeze_days)
        _put(out, "reruns", [p.to_dict() for p in self.reruns]
             if self.reruns is not None else None)
        _put(out, "receipt", self.receipt.to_dict() if self.receipt else None)
        _put(out, "halt_audit", self.halt_audit.to_dict() if self.halt_audit else None)
        _put(out, "ungated", self.ungated.to_dict() if self.ungated else None)
        _put(out, "judge_files", self.judge_files.to_dict() if self.judge_files else None)
        return out


def pairs_of(records: Sequence[Record]) -> tuple[Pair, ...]:
    """Checked pair records as :class:`Pair` (a report's ``pairs`` or ``reruns``)."""
    return tuple(Pair.from_dict(p) for p in records)
