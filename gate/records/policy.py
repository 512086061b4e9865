"""The reviewed policy file: freeze allowlist, halt-gate scopes and marker, timeout codes.

Loading is strict: the schema (so a missing or blank ``owner`` or ``reason`` is malformed) and
no duplicate entry for one (``test_id``, ``server_class``) — which of two expiries would count
is a guess, so a duplicate is malformed too. A malformed file is bad input (exit 2) wherever it
is read (``classify``, ``stamp``, ``policy check``): it never widens anything and no freeze is
granted from it.

``check`` finds quarantine rot in a well-formed file (``gate policy check`` exits 1):

* an entry past its expiry (``now >= expires``);
* a window longer than the maximum (``max_freeze_days`` in the file, ``--max-days`` on the
  command line, default 30 days), measured from ``added`` or, without ``added``, from now;
* an ``added`` in the future;
* an entry that expires before it was added.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate.decide import halt, when
from gate.decide.stamps import AllowEntry
from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import read_yaml

DEFAULT_TIMEOUT_EXIT_CODES = (124, 137)
DEFAULT_MAX_FREEZE_DAYS = 30
DAY = 86_400


@dataclass(frozen=True, slots=True)
class Policy:
    allowlist: tuple[AllowEntry, ...] = ()
    halt: halt.HaltPolicy = field(default_factory=halt.HaltPolicy)
    timeout_exit_codes: tuple[int, ...] = DEFAULT_TIMEOUT_EXIT_CODES
    max_freeze_days: int = DEFAULT_MAX_FREEZE_DAYS
    added: tuple[int | None, ...] = ()  # per allowlist entry, same order
    issues: tuple[str | int | None, ...] = ()  # per allowlist entry, same order

    def issue_of(self) -> dict[tuple[str, str], str | int]:
        """(test_id, server_class) -> the entry's ``issue``, for the report."""
        return {(e.test_id, e.server_class): i
                for e, i in zip(self.allowlist, self.issues, strict=False) if i is not None}


def from_record(record: Any, source: str) -> Policy:
    if record is None:
        record = {}
    schemas.validate("policy", record, source)
    entries: list[AllowEntry] = []
    added: list[int | None] = []
    issues: list[str | int | None] = []
    seen: set[tuple[str, str]] = set()
    for index, raw in enumerate(record.get("allowlist", [])):
        key = (raw["test_id"], raw["server_class"])
        if key in seen:
            raise GateInputError(source, f"allowlist.{index}",
                                 f"duplicate entry for test {raw['test_id']!r} in "
                                 f"{raw['server_class']}")
        seen.add(key)
        entries.append(AllowEntry(raw["test_id"], raw["server_class"], raw["owner"],
                                  raw["reason"], raw["expires"]))
        added.append(raw.get("added"))
        issues.append(raw.get("issue"))
    halt_raw = record.get("halt", {})
    halt_policy = halt.HaltPolicy(
        reserved_scopes=tuple(halt_raw.get("reserved_scopes", halt.DEFAULT_RESERVED_SCOPES)),
        expected_marker=halt_raw.get("expected_marker", halt.DEFAULT_MARKER),
    )
    codes = tuple(record.get("timeouts", {}).get("exit_codes", DEFAULT_TIMEOUT_EXIT_CODES))
    return Policy(tuple(entries), halt_policy, codes,
                  record.get("max_freeze_days", DEFAULT_MAX_FREEZE_DAYS), tuple(added),
                  tuple(issues))


def load(path: Path | None) -> Policy:
    """The policy at ``path``, or the defaults (empty allowlist) when no path is given."""
    if path is None:
        return Policy()
    return from_record(read_yaml(path), str(path))


def check(policy: Policy, now: int, max_days: int | None = None) -> list[str]:
    """Findings that make ``gate policy check`` fail; empty when the file is healthy.

    ``max_days`` (the ``--max-days`` flag) overrides the file's ``max_freeze_days``.
    """
    findings: list[str] = []
    days = policy.max_freeze_days if max_days is None else max_days
    limit = days * DAY
    for index, (entry, added) in enumerate(zip(policy.allowlist, policy.added, strict=True)):
        where = f"allowlist.{index} ({entry.test_id!r} in {entry.server_class})"
        if now >= entry.expires:
            findings.append(f"{where}: expired at {entry.expires}")
        if added is not None and added > now:
            findings.append(f"{where}: added {added} is in the future")
        start = added if added is not None else now
        if entry.expires - start > limit:
            findings.append(f"{where}: window of {(entry.expires - start) / DAY:.1f} days is "
                            f"longer than the {days}-day maximum")
        if added is not None and entry.expires <= added:
            findings.append(f"{where}: expires before it was added")
    return findings


def describe(policy: Policy, now: int) -> list[str]:
    """One line per allowlist entry for people: test, class, owner, reason, issue, and the
    expiry as a UTC date with days left; entries expiring within 7 days are flagged."""
    lines: list[str] = []
    issues = policy.issues or (None,) * len(policy.allowlist)
    for index, (entry, issue) in enumerate(zip(policy.allowlist, issues, strict=False)):
        if now >= entry.expires:
            flag = "EXPIRED"
        elif when.soon(entry.expires, now):
            flag = f"EXPIRES WITHIN {when.SOON_DAYS} DAYS"
        else:
            flag = "ok"
        lines.append(
            f"allowlist.{index}: {flag}: {entry.test_id!r} frozen in {entry.server_class}; "
            f"owner {entry.owner}; reason: {entry.reason}; "
            f"issue: {issue if issue is not None else 'none'}; "
            f"expires {when.expiry(entry.expires, now)}")
    return lines


def allow_entries(policy: Policy) -> Sequence[AllowEntry]:
    return policy.allowlist
