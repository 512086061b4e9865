"""``gate classify --stamps DIR``: pair every stamp in a folder by test id, and decide each test.

Reading (I/O, :func:`collect`): DIR is walked recursively (downloaded artifacts arrive in
subfolders); any symbolic link is refused; every regular ``*.json`` file must be a valid stamp
(schema and card agreement) or the command exits 2 naming the file; other files are ignored.
A run id seen twice with identical content counts once (the same artifact downloaded twice);
with different content it is exit 2 (a stamp is never overwritten). Each file is read once.

Deciding (pure, :func:`decide_test`), per test id, rows in order:

==  ================================================================  ========================
#   condition                                                          action (gate)
==  ================================================================  ========================
0   a stamp of a class the policy requires signed is not covered by    reject_unsigned_stamp
    exactly one subject of a valid envelope of its own artifact        (pairing)
    (gate/records/signing.py, :func:`refuse`)
1   a server class has no stamp for the test (that class did not run)  reject_missing_stamp
                                                                       (pairing)
2   after discarding the runs that ended in ``resource_exit`` or        reject_duplicate_stamps
    ``empty_body`` (SPEC §3 row 4: discard, rerun with a new id), a     (pairing)
    class still holds conclusive (``pass`` or ``assert_fail``) stamps
    that disagree (outcome, fixture hash, sampler pin or card): never
    pick one, so a rerun never hides a red
2m  an earlier attempt of this workflow run recorded a conclusive red   reject_duplicate_stamps
    of the class in its check run (gate/records/memory.py: a full        (pairing)
    re-run no longer lists that attempt's stamps) and the class now
    holds no conclusive stamp that agrees with it (a green, another red,
    or only discarded runs); a red remembered from a stamp that is still
    listed (a partial re-run) is that stamp, counted once
3   otherwise each class contributes one stamp — its latest conclusive  the stamp gate's action,
    one (agreeing repeats are one result seen again: a re-run job),     SPEC §3 rows 1-9 (stamp)
    or, when every run in it was discarded, its latest run (so the
    stamp gate rejects it with ``reject_run_retry_new_id``)
==  ================================================================  ========================

Reruns: within one class, the runs are ordered by (``written_at``, ``run_id``) and every run is
paired with the one before it; each such same-class pair goes through the digest gate alone
(SPEC §4) and is reported for its ``failure_class`` label. Reruns never decide a test's door.

The report (``schemas/report.schema.json``): ``pairs`` holds exactly one entry per test — the
one that decides its door (gate ``stamp`` or ``pairing``), in test id order — so ``counts``
counts tests and ``decision`` is ``open`` only if every test's door is open. ``reruns`` holds
the same-class pairs (gate ``digest``, status always ``rejected``: a rerun never opens a door
by itself), in test id order. Every entry carries the four SPEC §4 fields.
"""

from __future__ import annotations

import contextlib
import itertools
import marshal
import os
import stat
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate.decide import digest, stamps
from gate.decide.signing import ENVELOPE_NAMES, REFUSED
from gate.errors import GateInputError
from gate.records import forked, report, stamp_failure
from gate.records import load as records
from gate.records.files import canonical_json
from gate.records.memory import Remembered
from gate.records.policy import Policy

CONCLUSIVE = ("pass", "assert_fail")


@dataclass(frozen=True, slots=True)
class Loaded:
    stamp: dict[str, Any]
    source: str  # the file, relative to the stamps folder
    #: Why the signature check refused this stamp (row 0), or None (gate/records/signing.py).
    refused: str | None = None


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """The cyclic garbage collector off while many stamps are read and decided (``gate classify
    --stamps``, the gate step): reading 100,000 stamps allocates millions of containers and no
    cycles, which the collector would only rescan, again and again. Reference counting still
    frees them. Back on after, if it was on."""
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def refuse(loaded: Sequence[Loaded], why: Mapping[str, str]) -> list[Loaded]:
    """``loaded`` with each stamp whose source ``why`` names marked refused (row 0)."""
    return [Loaded(i.stamp, i.source, why[i.source]) if i.source in why else i for i in loaded]


@dataclass(frozen=True, slots=True)
class TestDecision:
    test_id: str
    entry: dict[str, Any]
    reruns: list[dict[str, Any]] = field(default_factory=list)
    #: The conclusive reds behind this decision (this attempt's and the remembered ones), as
    #: schemas/rerun-memory.schema.json entries: what this attempt's check run records.
    reds: list[dict[str, str]] = field(default_factory=list)

    @property
    def door_open(self) -> bool:
        return self.entry["status"] in ("accepted", "frozen")


# --- reading ------------------------------------------------------------------------------------


def _files(directory: Path) -> list[str]:
    """Every regular ``*.json`` file under ``directory``, sorted; links are refused."""
    try:
        info = os.lstat(directory)
    except FileNotFoundError:
        raise GateInputError(str(directory), "--stamps", "no such folder") from None
    if stat.S_ISLNK(info.st_mode):
        raise GateInputError(str(directory), "--stamps", "symbolic link refused")
    if not stat.S_ISDIR(info.st_mode):
        raise GateInputError(str(directory), "--stamps", "not a folder")
    found: list[str] = []
    pending = [str(directory)]
    while pending:
        current = pending.pop()
        try:
            entries = list(os.scandir(current))
        except OSError as exc:
            raise GateInputError(current, "(folder)", f"cannot list: {exc.strerror}") from None
        for entry in entries:
            try:
                entry.name.encode("utf-8")
            except UnicodeEncodeError:
                shown = entry.path.encode("utf-8", "backslashreplace").decode("utf-8")
                raise GateInputError(shown, "(file)", "file name is not UTF-8 text") from None
            if entry.is_symlink():
                raise GateInputError(entry.path, "(file)", "symbolic link refused")
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            elif (entry.name.endswith(".json") and entry.name not in ENVELOPE_NAMES
                  and entry.name != stamp_failure.NAME):
                if not entry.is_file(follow_symlinks=False):
                    raise GateInputError(entry.path, "(file)", "not a regular file")
                found.append(entry.path)
    found.sort()
    return found


def _load(paths: Sequence[str]) -> list[dict[str, Any]]:
    """records.load_stamp of each path (without a Path object per file), in order; the paths
    are :func:`_files`'s, so each folder is opened once (files.read_listed_capped)."""
    from gate.records.files import parse_json, read_listed_capped

    check = records.check_stamp
    with contextlib.closing(read_listed_capped(paths)) as blobs:
        # paths first: zip stops at their end without asking for another file
        return [check(parse_json(data, p), p) for p, data in zip(paths, blobs, strict=False)]


#: From this many files on, a forked child reads, parses and checks a share of them.
_FORK_MIN_FILES = 2000

#: Chunks per worker of the shared work (files to load, tests to decide): fine enough that a
#: process slowed by other jobs leaves the rest to the other, coarse enough to cost nothing.
_CHUNKS = 32


def _chunks(count: int) -> list[range]:
    size = max(1, -(-count // (2 * _CHUNKS)))
    return [range(i, min(i + size, count)) for i in range(0, count, size)]


def _load_all(paths: list[str]) -> list[dict[str, Any]]:
    """:func:`_load` on two cores: this process and a forked child take chunks of the paths
    from a pipe (:func:`gate.records.forked.share`), the child sending its stamps back with
    ``marshal`` (plain JSON values round-trip exactly). On bad input the set is loaded again
    in one process, so the error is the first bad file in path order."""
    if len(paths) < _FORK_MIN_FILES or not forked.can_fork():
        return _load(paths)
    parts = _chunks(len(paths))
    mine: dict[int, list[dict[str, Any]]] = {}

    def load(index: int) -> list[dict[str, Any]]:
        return _load(paths[parts[index].start:parts[index].stop])

    try:
        theirs = forked.share(len(parts), lambda i: mine.__setitem__(i, load(i)),
                              lambda i: marshal.dumps(load(i)))
    except GateInputError:
        return _load(paths)  # raises the error one process raises
    out: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        got = mine.get(index)
        if got is None and index in theirs:
            with contextlib.suppress(ValueError, EOFError, TypeError):
                got = marshal.loads(theirs[index])  # noqa: S302 - written by our own child
        if not isinstance(got, list) or len(got) != len(part):
            got = load(index)  # the child failed for its own reasons: do its part
        out += got
    return out


def collect(directory: Path, artifact_prefix: str | None = None) -> list[Loaded]:
    """Every stamp under ``directory``, each file read once; duplicates by run id merged.

    With ``artifact_prefix`` (the action's downloaded artifacts), every stamp must sit in an
    artifact folder named ``<prefix>-<its own server class>-…``: a stamp from another prefix
    (``gate-stamps-nightly-…`` also matches the download pattern ``gate-stamps-*``) or in a
    folder of the other class is bad input, never silently paired.
    """
    by_run: dict[str, Loaded] = {}
    base = str(directory)
    prefix = base if base.endswith(os.sep) else base + os.sep
    paths = _files(directory)
    if artifact_prefix is not None:  # the gate's own JSON report artifact of an earlier attempt
        skip = prefix + f"{artifact_prefix}-report-"
        paths = [p for p in paths if not p.startswith(skip)]
    for path, stamp in zip(paths, _load_all(paths), strict=True):
        if path.startswith(prefix):  # _files joins names onto str(directory)
            source = path[len(prefix):].replace(os.sep, "/")
        else:  # pragma: no cover
            source = os.path.relpath(path, directory).replace(os.sep, "/")
        if artifact_prefix is not None:
            _check_artifact(source, stamp, artifact_prefix, path)
        seen = by_run.get(stamp["run_id"])
        if seen is None:
            by_run[stamp["run_id"]] = Loaded(stamp, source)
        elif seen.stamp != stamp:
            raise GateInputError(path, "run_id",
                                 f"run id {stamp['run_id']!r} is also in {seen.source} with "
                                 "different content; a stamp is never overwritten")
    return list(by_run.values())


def salvage_reds(directories: Sequence[Path | str]) -> list[dict[str, str]]:
    """The conclusive reds among the stamps under ``directories`` that validate, as re-run
    memory entries; for bad input met before the pairing (a junk ``*.json`` beside the stamps,
    a fork's local-pinned stamp, a bad action input), so that the failure check run still
    records every red this attempt could read (issue 20.4). Never raises: whatever does not
    validate (and every link, non-UTF-8 name or folder that cannot be listed) is passed over,
    as it is only ever red evidence that is kept: a later attempt can only stay closed on it.
    Each file is checked by the same :func:`gate.records.load.check_stamp` as the pairing."""
    from gate.records.files import parse_json, read_bytes_capped

    reds: list[dict[str, str]] = []
    pending = [str(d) for d in directories if str(d)]
    while pending:
        current = pending.pop()
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                continue
            entries = sorted(os.scandir(current), key=lambda e: e.name)
        except (OSError, ValueError):
            continue
        for entry in entries:
            try:
                entry.name.encode("utf-8")
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                if not entry.name.endswith(".json") or not entry.is_file(follow_symlinks=False):
                    continue
                stamp = records.check_stamp(parse_json(read_bytes_capped(entry.path),
                                                       entry.path), entry.path)
            except (GateInputError, OSError, ValueError, RecursionError):
                continue
            if stamp["outcome"] == "assert_fail":
                reds.append(red_entry(Loaded(stamp, entry.path)))
    return reds


# --- deciding (pure) ------------------------------------------------------------------------------


def _order(item: Loaded) -> tuple[int, str]:
    written = item.stamp.get("written_at")
    return (written if isinstance(written, int) else -1, str(item.stamp["run_id"]))


def _run(item: Loaded) -> dict[str, Any]:
    return report.run_entry(item.stamp, item.source)


def _freeze_entry(test_id: str, allowlist: Sequence[stamps.AllowEntry],
                  card: object, extra: Mapping[tuple[str, str], Any] | None = None,
                  ) -> dict[str, Any] | None:
    """The free-server allowlist entry for ``test_id`` (latest expiry), for the report."""
    entries = [e for e in allowlist if e.test_id == test_id and e.server_class == stamps.FREE]
    if not entries:
        return None
    entry = max(entries, key=lambda e: e.expires)
    out: dict[str, Any] = {"owner": entry.owner, "reason": entry.reason,
                           "expires": entry.expires}
    issue = (extra or {}).get((entry.test_id, entry.server_class))
    if isinstance(issue, (str, int)) and not isinstance(issue, bool):
        out["issue"] = issue
    expiry = card.get("freeze_expires_at") if isinstance(card, Mapping) else None
    out["card_expires"] = report.whole(expiry)
    return out


def _location(items: Sequence[Loaded]) -> dict[str, Any] | None:
    for item in items:
        loc = item.stamp.get("location")
        if isinstance(loc, dict):
            return dict(loc)
    return None


def _result(item: Loaded) -> str:
    """What a conclusive stamp says: two stamps of one class agree when this is equal (the
    generator included: a repeat under another Hypothesis version or setting disagrees)."""
    s = item.stamp
    hypothesis = s.get("hypothesis")
    generator = digest.generator_digest(hypothesis) if isinstance(hypothesis, dict) else None
    kept = [s["outcome"], s["fixture_hash"], s.get("fixture_sha256"), s["sample_card"],
            generator]
    if "harness_sha256" in s:  # only then: a stamp without one keeps its old digest
        kept.append(s["harness_sha256"])
    return canonical_json(kept).decode("utf-8")


def result_digest(item: Loaded) -> str:
    """:func:`_result` hashed (32 hex digits): what the re-run memory keeps of a red."""
    import hashlib

    return hashlib.sha256(_result(item).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def red_entry(item: Loaded) -> dict[str, str]:
    """A conclusive red stamp as a re-run memory entry (schemas/rerun-memory.schema.json)."""
    s = item.stamp
    return {"test_id": s["test_id"], "server_class": s["server_class"], "run_id": s["run_id"],
            "result": result_digest(item)}


def _remembered_run(memo: Remembered) -> dict[str, Any]:
    return {"run_id": memo.run_id, "server_class": memo.server_class, "outcome": "assert_fail",
            "source": f"attempt {memo.attempt}'s gate check run {memo.check_run_url}"[:4096]}


def _memory_entry(test_id: str, server_class: str, conclusive: Sequence[Loaded],
                  memo: Sequence[Remembered], ordered: Sequence[Loaded]) -> dict[str, Any]:
    """Row 2m: an earlier attempt's red that this attempt's stamps of the class do not repeat."""
    first = min(memo, key=lambda m: (m.attempt, m.run_id))
    now = (", ".join(f"{r.stamp['run_id']} {r.stamp['outcome']}" for r in conclusive)
           or "no conclusive stamp")
    fix = "push a fix" + (" or freeze it via the allowlist" if server_class == stamps.FREE
                          else " (a local-pinned red is never frozen)")
    entry = _pairing_entry(
        test_id, "reject_duplicate_stamps", 2,
        f"attempt {first.attempt} was red on {server_class} (check run {first.check_run_url}, "
        f"run {first.run_id}); this attempt has {now} there: a full re-run does not hide a "
        f"red: {fix}"[:4096], ordered)
    return _with_memory(entry, memo)


def _with_memory(entry: dict[str, Any], memo: Sequence[Remembered]) -> dict[str, Any]:
    """The remembered reds shown in a pair: as runs, and (with their check runs) in
    ``remembered``, which the summary and the check run turn into words and links."""
    memo = sorted(memo, key=lambda m: (m.attempt, m.server_class, m.run_id))
    entry["runs"] = [*(_remembered_run(m) for m in memo), *entry["runs"]]
    entry["remembered"] = [{"attempt": m.attempt, "server_class": m.server_class,
                            "run_id": m.run_id, "check_run_url": m.check_run_url[:2048]}
                           for m in memo]
    return entry


def _pairing_entry(test_id: str, action: str, row: int, reason: str,
                   items: Sequence[Loaded]) -> dict[str, Any]:
    sha, path = report.pin_of([item.stamp for item in items])
    entry: dict[str, Any] = {
        "test_id": test_id, "gate": "pairing", "action": action, "row": row,
        "status": "rejected", "reason": reason, "fixture_sha256": sha,
        "failure_class": digest.FailureClass.UNCLASSIFIED.value, "freeze_allowed": False,
        "fixture_path": path, "runs": [_run(i) for i in items],
    }
    loc = _location(items)
    if loc:
        entry["location"] = loc
    return entry


def _reruns(test_id: str, runs: Sequence[Loaded]) -> list[dict[str, Any]]:
    pairs: list[dict[str, Any]] = []
    if len(runs) < 2:
        return pairs
    for before, after in itertools.pairwise(runs):
        result = digest.classify_runs(stamps.as_run_record(before.stamp),
                                      stamps.as_run_record(after.stamp))
        pairs.append(report.same_class_pair(test_id, before.stamp, after.stamp, result,
                                            [_run(before), _run(after)],
                                            _location([before, after])))
    return pairs


def decide_test(
    test_id: str,
    items: Sequence[Loaded],
    allowlist: Sequence[stamps.AllowEntry],
    now: int,
    issues: Mapping[tuple[str, str], Any] | None = None,
    remembered: Sequence[Remembered] = (),
) -> TestDecision:
    """Rows 1-3 of the module table for one test's stamps (all with this ``test_id``) and the
    reds earlier attempts remembered for it that are not among ``items`` (row 2m)."""
    entry, reruns = _decide_test(test_id, items, allowlist, now, issues, remembered)
    reds = [red_entry(i) for i in items if i.stamp["outcome"] == "assert_fail"]
    if remembered:
        reds += [m.red() for m in remembered]
    return TestDecision(test_id, entry, reruns, reds)


def _decide_test(
    test_id: str,
    items: Sequence[Loaded],
    allowlist: Sequence[stamps.AllowEntry],
    now: int,
    issues: Mapping[tuple[str, str], Any] | None,
    remembered: Sequence[Remembered],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the deciding entry, the rerun pairs) of :func:`decide_test`."""
    pair = _one_per_class(items, remembered)
    if pair is not None:  # the shape of nearly every test: no lists, sorts or reruns to make
        return _paired(test_id, pair[0], pair[1], allowlist, now, issues, 0, 0), []
    by_class: dict[str, list[Loaded]] = {c: [] for c in stamps.CLASSES}
    for item in items:
        by_class[item.stamp["server_class"]].append(item)
    for runs in by_class.values():
        if len(runs) > 1:
            runs.sort(key=_order)
    ordered = by_class[stamps.LOCAL] + by_class[stamps.FREE]
    reruns = _reruns(test_id, by_class[stamps.LOCAL]) + _reruns(test_id, by_class[stamps.FREE])
    refused = [i for i in ordered if i.refused is not None]
    if refused:  # row 0: before every pairing row
        first = refused[0]
        entry = _pairing_entry(
            test_id, REFUSED, 0,
            f"{first.stamp['server_class']} stamp {first.source} unsigned or wrongly signed: "
            f"{first.refused}"[:4096],
            ordered)
        if remembered:
            entry = _with_memory(entry, remembered)
        return entry, reruns
    missing = [c for c in stamps.CLASSES if not by_class[c]]
    if missing:
        entry = _pairing_entry(test_id, "reject_missing_stamp", 1,
                               f"no {missing[0]} stamp: that class did not run", ordered)
        if remembered:
            entry = _with_memory(entry, remembered)
        return entry, reruns
    chosen: list[Loaded] = []
    discarded = 0
    repeated = 0
    for server_class in stamps.CLASSES:
        runs = by_class[server_class]
        conclusive = [r for r in runs if r.stamp["outcome"] in CONCLUSIVE]
        if len(conclusive) > 1 and len({_result(r) for r in conclusive}) > 1:
            entry = _pairing_entry(
                test_id, "reject_duplicate_stamps", 2,
                f"{len(conclusive)} conclusive {server_class} stamps that disagree "
                f"({', '.join(r.stamp['run_id'] + ' ' + r.stamp['outcome'] for r in conclusive)}"
                "); never pick one",
                ordered)
            return entry, reruns
        memo = [m for m in remembered if m.server_class == server_class]
        if memo and (not conclusive or len({m.result for m in memo}
                                           | {result_digest(r) for r in conclusive}) > 1):
            entry = _memory_entry(test_id, server_class, conclusive, memo, ordered)
            return entry, reruns
        chosen.append(conclusive[-1] if conclusive else runs[-1])
        repeated += max(0, len(conclusive) - 1)
        discarded += len(runs) - max(1, len(conclusive))
    local, free = chosen
    return _paired(test_id, local, free, allowlist, now, issues, discarded, repeated), reruns


def _one_per_class(items: Sequence[Loaded], remembered: Sequence[Remembered],
                   ) -> tuple[Loaded, Loaded] | None:
    """(local-pinned, free-server) when ``items`` is one stamp of each class, neither refused,
    each with an outcome, and nothing is remembered: then rows 0-2 cannot apply, there are no
    reruns, and the general path of :func:`_decide_test` chooses exactly these two with nothing
    discarded or repeated (tests/test_pairing.py compares both paths). Else None."""
    if len(items) != 2 or remembered:
        return None
    first, second = items
    if (first.refused is not None or second.refused is not None
            or "outcome" not in first.stamp or "outcome" not in second.stamp):
        return None
    one, other = first.stamp["server_class"], second.stamp["server_class"]
    if one == stamps.LOCAL and other == stamps.FREE:
        return first, second
    if one == stamps.FREE and other == stamps.LOCAL:
        return second, first
    return None


def _paired(test_id: str, local: Loaded, free: Loaded, allowlist: Sequence[stamps.AllowEntry],
            now: int, issues: Mapping[tuple[str, str], Any] | None, discarded: int,
            repeated: int) -> dict[str, Any]:
    """Rows 3-9: the stamp gate's entry for the chosen stamp of each class."""
    result = stamps.classify_pair(local.stamp, free.stamp, allowlist, now)
    entry = report.cross_class_pair(local.stamp, free.stamp, result,
                                    (local.source, free.source))
    # a free-server run with no result beside a green local-pinned one (the slow free runner's
    # DeadlineExceeded) is never frozen: its allowlist entry is reported, to say it does not apply
    unused = (result.action == "reject_run_retry_new_id" and local.stamp["outcome"] == "pass"
              and free.stamp["outcome"] in stamps.RETRY_OUTCOMES)
    if result.action in ("freeze_inside_server_class", "reject_freeze_expired") or unused:
        freeze = _freeze_entry(test_id, allowlist, local.stamp.get("sample_card"), issues)
        if freeze is not None:
            entry["freeze"] = freeze
    if discarded:
        entry["reason"] += (f" ({discarded} other same-class run{'s' if discarded > 1 else ''}"
                            " ended in resource_exit/empty_body and were discarded)")
    if repeated:
        entry["reason"] += (f" ({repeated} agreeing same-class repeat"
                            f"{'s' if repeated > 1 else ''} of the paired stamp"
                            f"{'s' if repeated > 1 else ''}, e.g. a re-run job)")
    return entry


def not_listed(loaded: Sequence[Loaded], remembered: Sequence[Remembered]
               ) -> list[Remembered]:
    """The remembered reds that are not stamps listed now (after a partial re-run an earlier
    attempt's stamps are still listed: its red is that stamp, counted once), without repeats.
    A remembered run id whose listed stamp says something else is kept (it disagrees)."""
    if not remembered:  # nothing to look up: no digest of every listed stamp
        return []
    # the whole key: a stamp of another test or class reusing a remembered run id must not
    # stand in for that red (review)
    listed = {(i.stamp["test_id"], i.stamp["server_class"], i.stamp["run_id"],
               result_digest(i)) for i in loaded}
    seen: set[tuple[str, str, str, str]] = set()
    out: list[Remembered] = []
    for memo in sorted(remembered, key=lambda m: (m.attempt, m.check_run_url, m.run_id)):
        key = (memo.test_id, memo.server_class, memo.run_id, memo.result)
        if key in listed or key in seen:
            continue
        seen.add(key)
        out.append(memo)
    return out


def decide_all(
    loaded: Sequence[Loaded], allowlist: Sequence[stamps.AllowEntry], now: int,
    issues: Mapping[tuple[str, str], Any] | None = None,
    remembered: Sequence[Remembered] = (),
) -> list[TestDecision]:
    """Every test decided; ``remembered``: the reds earlier attempts' check runs recorded (a
    test only they name is decided too: its stamps are missing now)."""
    groups: dict[str, list[Loaded]] = defaultdict(list)
    for item in loaded:
        groups[item.stamp["test_id"]].append(item)
    memos: dict[str, list[Remembered]] = defaultdict(list)
    for memo in not_listed(loaded, remembered):
        memos[memo.test_id].append(memo)
        groups.setdefault(memo.test_id, [])
    def one(test_id: str) -> TestDecision:
        return decide_test(test_id, groups[test_id], allowlist, now, issues,
                           memos.get(test_id, ()))

    return _decide_each(sorted(groups), one)


#: From this many tests on, a forked child decides a share of them.
_FORK_MIN_TESTS = 1000


def _decide_each(names: list[str], one: Callable[[str], TestDecision]) -> list[TestDecision]:
    """``[one(t) for t in names]`` on two cores when one is idle (forked.spare_core: the
    child's copy-on-write pages cost more than it saves on a busy machine, unlike loading,
    whose child copies little): this process and a forked child take chunks
    of the tests from a pipe (:func:`gate.records.forked.share`), the child sending its
    decisions back with ``marshal`` (entries are plain JSON values, which round-trip exactly,
    key order included). Deciding is pure: a chunk the child did not send back is decided
    here, so the decisions never depend on the child, only the time."""
    if len(names) < _FORK_MIN_TESTS or not forked.can_fork() or not forked.spare_core():
        return [one(t) for t in names]
    parts = _chunks(len(names))
    mine: dict[int, list[TestDecision]] = {}

    def decide(index: int) -> list[TestDecision]:
        return [one(t) for t in names[parts[index].start:parts[index].stop]]

    theirs = forked.share(len(parts), lambda i: mine.__setitem__(i, decide(i)),
                          lambda i: marshal.dumps([(d.test_id, d.entry, d.reruns, d.reds)
                                                   for d in decide(i)]))
    out: list[TestDecision] = []
    for index, part in enumerate(parts):
        got = mine.get(index)
        if got is None and index in theirs:
            with contextlib.suppress(ValueError, EOFError, TypeError):
                fields = marshal.loads(theirs[index])  # noqa: S302 - written by our own child
                if isinstance(fields, list) and len(fields) == len(part):
                    got = [TestDecision(*f) for f in fields]
        out += decide(index) if got is None else got
    return out


def decide_by_policy(loaded: Sequence[Loaded], pol: Policy, now: int,
                     remembered: Sequence[Remembered] = ()) -> list[TestDecision]:
    """Every test decided under the reviewed policy: the allowlist as it grants
    (:meth:`gate.records.policy.Policy.granting`) and each entry's ``issue`` for the report.
    The one way every route (``gate classify --stamps``, the action) decides a stamp folder."""
    return decide_all(loaded, pol.granting(now), now, pol.issue_of(), remembered)


def report_by_policy(decisions: Sequence[TestDecision], now: int, pol: Policy, *,
                     receipt: dict[str, Any] | None = None,
                     halt_audit: dict[str, Any] | None = None,
                     ungated: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report of :func:`decide_by_policy`'s decisions, with the policy's freeze window
    (every route's report: what ``gate summary`` and ``gate publish`` read back) and the
    ungated section (:func:`ungated_section`)."""
    return build_report(decisions, now, receipt=receipt, halt_audit=halt_audit,
                        max_freeze_days=pol.max_freeze_days, ungated=ungated)


def memory_reds(decisions: Sequence[TestDecision]) -> list[dict[str, str]]:
    """Every conclusive red behind ``decisions``: what this attempt's check run records."""
    return [red for d in decisions for red in d.reds]


def build_report(decisions: Sequence[TestDecision], now: int, *,
                 receipt: dict[str, Any] | None = None,
                 halt_audit: dict[str, Any] | None = None,
                 max_freeze_days: int | None = None,
                 ungated: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report: one deciding entry per test in ``pairs``, rerun pairs in ``reruns``."""
    reruns = [pair for d in decisions for pair in d.reruns]
    return report.build([d.entry for d in decisions], now, reruns=reruns, receipt=receipt,
                        halt_audit=halt_audit, max_freeze_days=max_freeze_days,
                        ungated=ungated)


#: Ungated tests kept in the report (the rest are counted).
UNGATED_KEPT = 1000


@dataclass(slots=True)
class Reported:
    """What the stamp jobs' sessions reported beside their outcomes, from the stamps the
    signature check did not refuse: the ungated tests (``(source, test, kind)``, the gate
    job's scan adds its own; ``at_least``: the largest count one stamp gave, a stamp names its
    first 50), and the repository's files they loaded as plugin modules (``harness_files``)."""

    named: list[tuple[str, str, str]] = field(default_factory=list)
    at_least: int = 0
    harness_files: set[str] = field(default_factory=set)


def reported_in(loaded: Sequence[Loaded], into: Reported | None = None) -> Reported:
    """Every ungated test and loaded harness file the stamps name (their ``ungated`` and
    ``harness_files``), by server class; a stamp the signature check refused speaks for
    nothing."""
    out = into if into is not None else Reported()
    seen = set(out.named)
    for item in loaded:
        if item.refused is not None:
            continue
        files = item.stamp.get("harness_files")
        if files:  # most stamps name none: no generator made for them
            out.harness_files.update(str(f) for f in files)
        named = item.stamp.get("ungated")
        if isinstance(named, Mapping):
            out.at_least = max(out.at_least, int(named["count"]))
            for entry in named["tests"]:
                key = (str(item.stamp["server_class"]), str(entry["test"]), str(entry["kind"]))
                if key not in seen:
                    seen.add(key)
                    out.named.append(key)
    return out


def ungated_section(found: Reported, pol: Policy,
                    notes: Sequence[str] = ()) -> dict[str, Any] | None:
    """The report's ``ungated`` section from what the stamps and the scan named, decided by
    the policy's ``ungated`` (gate/decide/ungated.py); None when none is named."""
    from gate.decide import ungated as rules

    tests = rules.union(found.named)
    count = max(len(tests), found.at_least)
    decision = rules.decision(count, pol.ungated)
    if decision == rules.NONE:
        return None
    section: dict[str, Any] = {
        "policy": pol.ungated, "decision": decision, "count": count,
        "tests": [{"test": t.test, "kind": t.kind, "found_by": list(t.found_by)}
                  for t in tests[:UNGATED_KEPT]]}
    if notes:
        section["notes"] = [str(n)[:400] for n in notes[:10]]
    return section


def _check_artifact(source: str, stamp: Mapping[str, Any], prefix: str, path: str) -> None:
    folder = source.split("/", 1)[0] if "/" in source else ""
    wanted = f"{prefix}-{stamp['server_class']}-"
    if not folder.startswith(wanted):
        raise GateInputError(path, "server_class",
                             f"a {stamp['server_class']} stamp in artifact {folder or '(none)'!r}"
                             f", which is not named {wanted}…: not this gate's stamps")


def collect_some(directory: Path, artifact_prefix: str | None = None) -> list[Loaded]:
    """Every stamp under ``directory``; an empty folder is bad input."""
    loaded = collect(directory, artifact_prefix)
    if not loaded:
        raise GateInputError(str(directory), "--stamps", "no stamps (no *.json files) found")
    return loaded


def decide_folder(directory: Path, allowlist: Sequence[stamps.AllowEntry], now: int,
                  artifact_prefix: str | None = None,
                  issues: Mapping[tuple[str, str], Any] | None = None,
                  remembered: Sequence[Remembered] = ()) -> list[TestDecision]:
    """Every test under ``directory`` decided; an empty folder is bad input."""
    return decide_all(collect_some(directory, artifact_prefix), allowlist, now, issues,
                      remembered)
