"""Stamping a test run (SPEC §3): what every route shares — the inputs read before the run,
the one decide-and-build step, and the write-once write.

A stamp is written once, by the runner. The decision (which outcome) is
:mod:`gate.decide.outcome`, pure; the routes do the I/O around it, one module each:

* :mod:`gate.testrun.exit_route` — a command's (or an earlier step's) exit status alone;
* :mod:`gate.testrun.junit_route` — a JUnit report any runner wrote;
* :mod:`gate.testrun.recorder_route` — the gate's recorder loaded into the user's pytest;
* :mod:`gate.testrun.pytest_plugin` — the plugin, in the test process itself.

:func:`gate.testrun.routes.stamp_run` picks the route for a :class:`Request`. Every route reads
its inputs *before* the run (:func:`prepare`: card, fixtures, sampler output), decides one
:class:`gate.decide.outcome.Outcome` per property, and hands a :class:`Decided` to
:func:`build_all`, which applies the one rule every route shares — the fixture hash is taken
before the command runs and again after it; if the fixtures (or the card, or the sampler output)
changed during the run, the stamp is ``resource_exit`` with a note: the run did not test the
bytes it names — and builds and validates every stamp; :func:`write_all` writes each atomically
and write-once as ``OUT/<run_id>.json``. All target files are checked before the run, so a
taken run id fails fast (exit 2).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from gate import __version__
from gate.decide import outcome
from gate.decide.frozen import FrozenValue
from gate.errors import GateInputError
from gate.records import hashing
from gate.records import load as records
from gate.records.files import canonical_json, write_once_all
from gate.records.fixture_watch import FixtureWatch
from gate.records.manifest import Property, card_of
from gate.records.redaction import Redactor
from gate.testrun.cases import bounded, bounded_failure
from gate.testrun.isolation import Seal

SOURCES = ("command", "recorded", "junit")
#: Which collected tests the recorder runs (``gate stamp --tests``, the action's ``tests``):
#: only those a manifest property selects (the default), or every one.
TESTS = ("gated", "all")


# --- what is stamped ----------------------------------------------------------------------------


class Prepared(FrozenValue):
    """One property's inputs, read before the run."""

    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "prop", "root", "card", "watch", "index", "pin", "pin_path", "location", "harness_sha256",
        "harness_watch", "harness_index",
    )
    prop: Property
    root: Path
    card: dict[str, Any]
    #: The run's fixture sets (hashed while the command runs) and this property's among them.
    watch: FixtureWatch
    index: int
    pin: hashing.Pin | None
    pin_path: str | None
    #: The manifest's ``location`` with its path made relative to the repository root.
    location: dict[str, Any] | None
    #: The test harness the manifest lists apart (``harness``): its ``gate-harness-v1``
    #: digest read before the run (checked against the entry's ``harness_sha256``), and its
    #: index in ``harness_watch``; None for an entry without one.
    harness_sha256: str | None
    harness_watch: FixtureWatch | None
    harness_index: int

    def __init__(self, prop: Property, root: Path, card: dict[str, Any], watch: FixtureWatch,
                 index: int, pin: hashing.Pin | None, pin_path: str | None,
                 location: dict[str, Any] | None = None, harness_sha256: str | None = None,
                 harness_watch: FixtureWatch | None = None, harness_index: int = -1) -> None:
        self._set(prop=prop, root=root, card=card, watch=watch, index=index, pin=pin,
                  pin_path=pin_path, location=location, harness_sha256=harness_sha256,
                  harness_watch=harness_watch, harness_index=harness_index)

    @property
    def fixture_hash(self) -> str:
        """The ``gate-fixture-v1`` hash of the fixtures and card read before the run (waits for
        the hashing thread; a file it could not read is bad input now)."""
        return self.watch.digest(self.index, self.card)

    def still_same(self) -> bool:
        """Do the card, fixtures and sampler output still hold the bytes read before the run?
        (:meth:`gate.records.fixture_watch.FixtureWatch.changed`: only files whose status moved
        are hashed again.)"""
        try:
            card = card_of(self.prop)
            same = card == self.card and not self.watch.changed(self.index)
            if same and self.harness_watch is not None:
                same = not self.harness_watch.changed(self.harness_index)
            if same and self.pin is not None and self.prop.sample is not None:
                same = hashing.pin(self.prop.sample).fixture_sha256 == self.pin.fixture_sha256
        except GateInputError:
            return False
        return same


def relative_posix(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def repository_root(start: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The repository ``start`` is in: the nearest folder at or above it holding ``.git`` (a
    folder, or a file in a worktree or submodule); else ``$GITHUB_WORKSPACE`` when ``start``
    is inside it; else None."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    workspace = (os.environ if env is None else env).get("GITHUB_WORKSPACE", "").strip()
    if workspace:
        base = Path(workspace).resolve()
        if here == base or base in here.parents:
            return base
    return None


def repository_path(prop: Property, root: Path,
                    env: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The manifest's ``location`` as GitHub needs it: its path relative to the repository
    root (annotations and links name repository paths), whatever the stamping root is. Outside
    any repository the path stays relative to the stamping root, as written."""
    if prop.location is None:
        return None
    location = dict(prop.location)
    if prop.location_file is None:
        return location
    repo = repository_root(root, env)
    if repo is not None:
        try:
            location["path"] = prop.location_file.resolve().relative_to(repo).as_posix()
        except ValueError:
            raise GateInputError(str(prop.location_file), "location.path",
                                 f"test {prop.test_id!r}: the file is outside the repository "
                                 f"{repo}") from None
    return location


def prepare(prop: Property, root: Path, store: Path | None,
            watch: FixtureWatch | None = None,
            harness_watch: FixtureWatch | None = None) -> Prepared:
    """One property's inputs, read now: its card, its fixture set listed into ``watch`` (a new
    one, hashed at once, when None), its sampler output pinned, and its harness (when the
    entry lists one) listed into ``harness_watch`` and hashed now: a digest other than the
    entry's ``harness_sha256`` is bad input before anything runs
    (:func:`gate.records.manifest.harness_refusal`)."""
    from gate.records.manifest import harness_refusal

    card = card_of(prop)
    harness_sha256: str | None = None
    harness_index = -1
    if prop.harness_sha256 is not None:
        harness_watch = harness_watch if harness_watch is not None else FixtureWatch(root)
        harness_index = harness_watch.add(list(prop.harness))
        harness_sha256 = harness_watch.harness_digest(harness_index)
        refused = harness_refusal(prop, harness_sha256, root)
        if refused is not None:
            raise refused
    else:
        harness_watch = None
    if watch is None:
        watch = FixtureWatch(root)
        index = watch.add(list(prop.fixtures))
        watch.finish()
    else:
        index = watch.add(list(prop.fixtures))
    pin: hashing.Pin | None = None
    pin_path: str | None = None
    if prop.sample is not None:
        pin = hashing.pin(prop.sample, store)
        pin_path = (pin.fixture_path if pin.fixture_path is not None
                    else relative_posix(prop.sample, root))
    return Prepared(prop, root, card, watch, index, pin, pin_path, repository_path(prop, root),
                    harness_sha256, harness_watch, harness_index)


def prepare_all(props: Sequence[Property], root: Path, store: Path | None, *,
                background: bool) -> list[Prepared]:
    """Every property's inputs (:func:`prepare`), their fixture files listed now and each
    distinct file hashed once: by a thread while the command runs (``background``; the files
    changed just before are hashed now), or now."""
    watch, harness_watch = FixtureWatch(root), FixtureWatch(root)
    prepared = [prepare(p, root, store, watch, harness_watch) for p in props]
    watch.start(background)
    return prepared


def new_run_id() -> str:
    return os.urandom(8).hex()  # secrets.token_hex(8), without importing secrets: start-up


def build_stamp(
    prepared: Prepared,
    *,
    server_class: str,
    run_id: str,
    decided: outcome.Outcome,
    proc: outcome.ProcessResult,
    source: str,
    written_at: int,
    ran: bool,
    hypothesis: dict[str, Any] | None = None,
    failure: dict[str, Any] | None = None,
    redactor: Redactor | None = None,
    ungated: dict[str, Any] | None = None,
    harness_files: Sequence[str] = (),
    isolation: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The stamp for one property, validated against its schema (and its own card). Text that
    came from the test run (``failure``, ``note``) is masked by ``redactor`` (default: the
    secret values of this process's environment, :mod:`gate.records.redaction`) before it is
    bounded: no stamp, and so no later sink, carries a secret value the job knew."""
    if redactor is None:
        redactor = Redactor.from_env(os.environ)
    card = prepared.card
    stamp: dict[str, Any] = {
        "run_id": run_id,
        "test_id": prepared.prop.test_id,
        "server_class": server_class,
        "fixture_hash": prepared.fixture_hash,
        **({"harness_sha256": prepared.harness_sha256}
           if prepared.harness_sha256 is not None else {}),
        "sample_card": card,
        "outcome": decided.outcome,
        "freeze_expires_at": card.get("freeze_expires_at"),
        "source": source,
        "written_at": written_at,
        "gate_version": __version__,
    }
    if prepared.pin is not None:
        stamp["fixture_sha256"] = prepared.pin.fixture_sha256
        if prepared.pin_path:
            stamp["fixture_path"] = prepared.pin_path
    if ran or proc.exit_code is not None:
        stamp["exit_code"] = proc.exit_code
    if proc.signal is not None:
        stamp["signal"] = proc.signal
    if proc.body_bytes is not None:
        stamp["body_bytes"] = proc.body_bytes
    if proc.wall_seconds is not None:
        stamp["wall_seconds"] = proc.wall_seconds
    if ran or proc.timed_out:
        stamp["timed_out"] = proc.timed_out
    if decided.note:
        stamp["note"] = redactor.text(decided.note)
    if prepared.location is not None:
        stamp["location"] = dict(prepared.location)
    if isolation is not None:  # the level the command ran at (Seal.record); no command: none
        stamp["isolation"] = dict(isolation)
    if hypothesis is not None:
        stamp["hypothesis"] = dict(hypothesis)
    if ungated is not None:
        stamp["ungated"] = ungated
    if harness_files:
        stamp["harness_files"] = list(harness_files)
    if failure is not None:
        stamp["failure"] = bounded_failure(
            {key: redactor.text(value) if isinstance(value, str) else value
             for key, value in failure.items()})
    return records.check_stamp(stamp, f"stamp {run_id} for {prepared.prop.test_id!r}")


def typo_is_bad_input(place: tuple[str, str],
                      decide: Callable[[], outcome.Outcome]) -> outcome.Outcome:
    """``decide()``, with a selector typo (:class:`gate.decide.outcome.SelectorTypo`) made bad
    input (exit 2) naming ``place``: the manifest file and entry, or the flags. The one place
    every route turns a typo into an error."""
    try:
        return decide()
    except outcome.SelectorTypo as typo:
        raise GateInputError(place[0], place[1], typo.message) from None


def decide_cases(
    prepared: Sequence[Prepared],
    cases: Sequence[Any] | None,
    *,
    proc: outcome.ProcessResult,
    timeout_codes: Collection[int],
    collected: Any = None,
    manifest: str | None = None,
) -> list[outcome.Outcome]:
    """The outcome of every property of one pytest session from its testcases
    (:class:`gate.testrun.cases.Case`): the one decide path of both pytest routes (the plugin
    in-process, the recorder through ``gate stamp --pytest``). ``cases`` None: the session
    wrote none. ``collected`` (:class:`gate.testrun.cases.Collected`) tells a deselected or
    unreached test from a selector typo, which is bad input naming the ``manifest`` entry
    (exit 2): every property is decided before any stamp is built, so a typo writes none.
    A card or fixture changed during the run is :func:`build_all`'s rule, as on every route."""
    from gate.testrun import cases as folded

    def one(prop: Property) -> Callable[[], outcome.Outcome]:
        return lambda: folded.decide(cases, prop.junit_classname, prop.junit_name, proc,
                                     tuple(timeout_codes), collected)

    return [typo_is_bad_input(place_of(manifest, index, item.prop), one(item.prop))
            for index, item in enumerate(prepared)]


class Decided(FrozenValue):
    """What a route decided for one run: the process, one outcome per property, the stamps'
    ``source``, whether the gate ran the command itself (``ran``), and the pytest testcases
    (:class:`gate.testrun.cases.Case`) whose generator and failure reach the stamps."""

    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "proc", "decisions", "source", "ran", "cases", "ungated", "harness_files",
    )
    proc: outcome.ProcessResult
    decisions: Sequence[outcome.Outcome]
    source: str
    ran: bool
    cases: Sequence[Any] | None
    #: The Hypothesis tests the session collected that no property selects (:func:`ungated_of`)
    ungated: Sequence[tuple[str, str]]
    #: The repository's files the session loaded as plugin modules (:func:`harness_of`)
    harness_files: Sequence[str]

    def __init__(self, proc: outcome.ProcessResult, decisions: Sequence[outcome.Outcome],
                 source: str, ran: bool, cases: Sequence[Any] | None = None,
                 ungated: Sequence[tuple[str, str]] = (),
                 harness_files: Sequence[str] = ()) -> None:
        self._set(proc=proc, decisions=decisions, source=source, ran=ran, cases=cases,
                  ungated=ungated, harness_files=harness_files)


#: How many loaded harness files each stamp names.
HARNESS_NAMED = 200


def harness_of(prepared: Sequence[Prepared], collected: Any) -> list[str]:
    """The files of the repository among the plugin modules the session reported loading
    (conftests, ``-p``, ``pytest_plugins``, entry points: ``collected.plugins``), relative
    to the repository root, sorted, at most :data:`HARNESS_NAMED` (issue 27: what the process
    really loaded is shown when a pull request changes it). Files outside the repository
    (installed packages, the gate's own) are left out."""
    if collected is None or not prepared:
        return []
    repo = repository_root(prepared[0].root)
    if repo is None:
        return []
    found: set[str] = set()
    for name in collected.plugins:
        path = Path(name)
        if path.is_absolute() and repo in path.parents:
            found.add(path.relative_to(repo).as_posix())
    return sorted(found)[:HARNESS_NAMED]


#: How many ungated tests each stamp names (the rest are counted).
UNGATED_NAMED = 50
#: The longest node id a stamp's ``ungated`` keeps (cut with a marker past it).
TEST_BOUND = 4096


def ungated_of(prepared: Sequence[Prepared], collected: Any) -> list[tuple[str, str]]:
    """``(node id, kind)`` of every Hypothesis test ``collected``
    (:class:`gate.testrun.cases.Collected`) saw that no property's selector matches, sorted:
    a property added without ``gate init --add`` (or renamed), which runs nowhere (issue 29).
    Decided here, in the gate's process, from what the session reported collecting."""
    from gate.testrun import cases as folded

    if collected is None:
        return []
    out: list[tuple[str, str]] = []
    for nodeid, kind in sorted(collected.hypothesis.items()):
        key = [folded.Case(collected.key_of(nodeid))]
        if not any(folded.lookup(key, p.prop.junit_classname, p.prop.junit_name)
                   for p in prepared):
            out.append((nodeid, kind if kind in (folded.GIVEN, folded.STATEFUL)
                        else folded.GIVEN))
    return out


def ungated_record(ungated: Sequence[tuple[str, str]]) -> dict[str, Any] | None:
    """The stamps' ``ungated`` object (``schemas/stamp.schema.json``), None when none."""
    if not ungated:
        return None
    return {"count": len(ungated),
            "tests": [{"test": bounded(n, TEST_BOUND), "kind": k}
                      for n, k in ungated[:UNGATED_NAMED]]}


def ungated_line(stamps: Sequence[Mapping[str, Any]]) -> str | None:
    """The stamp step's one line naming the ungated tests its stamps carry, with the fix."""
    found = next((s["ungated"] for s in stamps if s.get("ungated")), None)
    if found is None:
        return None
    from gate.decide import ungated

    return ungated.log_line([(t["test"], t["kind"]) for t in found["tests"]], found["count"])


CHANGED_DURING_RUN = ("the card, fixtures, test harness (harness_sha256) or sampler output "
                      "changed during the run")


def build_all(prepared: Sequence[Prepared], run_ids: Sequence[str], decided: Decided, *,
              server_class: str, written_at: int,
              isolation: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The one decide-and-build step of every route: each property's outcome (made
    ``resource_exit`` when its inputs changed during a run the gate watched), its testcase's
    ``hypothesis`` and ``failure`` objects on the pytest routes, and the validated stamp."""
    from gate.testrun import cases as folded

    built = []
    redactor = Redactor.from_env(os.environ)
    ungated = ungated_record(decided.ungated)
    for item, run_id, outcome_of in zip(prepared, run_ids, decided.decisions, strict=True):
        if decided.ran and not item.still_same():
            outcome_of = outcome.Outcome(outcome.RESOURCE_EXIT, 0, CHANGED_DURING_RUN)
        one = None
        if decided.cases is not None:
            matches = folded.lookup(decided.cases, item.prop.junit_classname,
                                    item.prop.junit_name)
            one = matches[0] if len(matches) == 1 else None
        built.append(build_stamp(
            item, server_class=server_class, run_id=run_id, decided=outcome_of,
            proc=decided.proc, source=decided.source, written_at=written_at, ran=decided.ran,
            hypothesis=one.hypothesis if one else None, failure=one.failure if one else None,
            redactor=redactor, ungated=ungated, harness_files=decided.harness_files,
            isolation=isolation))
    return built


# --- one run in, stamps out ---------------------------------------------------------------------


class Request(FrozenValue):
    """Everything ``gate stamp`` was asked to do, in either mode."""

    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "properties", "server_class", "out", "root", "run_ids", "timeout_codes", "junit_path",
        "store", "command", "timeout", "recorded", "assertion_failed", "manifest",
        "pytest_recorder", "tests", "install", "fence", "isolation", "isolation_user",
        "isolation_place", "seal",
    )
    properties: Sequence[Property]
    server_class: str
    out: Path
    root: Path
    run_ids: Sequence[str]
    timeout_codes: Collection[int]
    junit_path: Path | None
    store: Path | None
    command: Sequence[str] | None
    timeout: float | None
    recorded: outcome.ProcessResult | None
    assertion_failed: bool
    #: The manifest the properties came from (named when a junit selector is a typo).
    manifest: str | None
    #: The command runs pytest: load the gate's recorder into it (no JUnit report).
    pytest_recorder: bool
    #: With ``pytest_recorder``: which collected tests run (one of :data:`TESTS`).
    tests: str
    #: A shell command (bash) run before ``command``, sealed the same way (the action's
    #: ``install``): it exits 0 or no stamp is written.
    install: str | None
    #: On a GitHub runner: the commands' output fenced from the runner's workflow-command
    #: parser (:func:`gate.testrun.running.run_command`'s ``fence``).
    fence: bool
    #: The isolation level asked for (:data:`gate.decide.isolation.CHOICES`), the other user
    #: of the ``user`` level, and where they were given (file, field) for a refusal.
    isolation: str
    isolation_user: str | None
    isolation_place: tuple[str, str]
    #: The seal the command runs in (:func:`gate.testrun.routes.stamp_run` sets it).
    seal: Seal | None

    def __init__(self, properties: Sequence[Property], server_class: str, out: Path,
                 root: Path, run_ids: Sequence[str], timeout_codes: Collection[int],
                 junit_path: Path | None = None, store: Path | None = None,
                 command: Sequence[str] | None = None, timeout: float | None = None,
                 recorded: outcome.ProcessResult | None = None, assertion_failed: bool = False,
                 manifest: str | None = None, pytest_recorder: bool = False,
                 tests: str = "gated", install: str | None = None, fence: bool = False,
                 isolation: str = "auto", isolation_user: str | None = None,
                 isolation_place: tuple[str, str] = ("gate stamp", "--isolation"),
                 seal: Seal | None = None) -> None:
        self._set(properties=properties, server_class=server_class, out=out, root=root,
                  run_ids=run_ids, timeout_codes=timeout_codes, junit_path=junit_path, store=store,
                  command=command, timeout=timeout, recorded=recorded,
                  assertion_failed=assertion_failed, manifest=manifest,
                  pytest_recorder=pytest_recorder, tests=tests, install=install, fence=fence,
                  isolation=isolation, isolation_user=isolation_user,
                  isolation_place=isolation_place, seal=seal)

    def replace(self, **changes: Any) -> Request:
        new: Request = super().replace(**changes)
        return new


def selector_place(request: Request, index: int) -> tuple[str, str]:
    """Where property ``index``'s JUnit selector was written: (file, field) for an error."""
    return place_of(request.manifest, index, request.properties[index])


def place_of(manifest: str | None, index: int, prop: Property) -> tuple[str, str]:
    """(file, field) of property ``index``'s selector: the manifest entry, or the flags."""
    if manifest is not None:
        return manifest, f"properties.{index}.junit (test {prop.test_id!r})"
    flags = "--junit-name" if prop.junit_name != prop.test_id else "--test-id/--junit-name"
    return "gate stamp", ("--junit-classname/" if prop.junit_classname else "") + flags


def write_all(targets: Sequence[Path], built: Sequence[dict[str, Any]]
              ) -> list[tuple[Path, dict[str, Any]]]:
    """Write each stamp once (never over an existing file), in order; on disk when this
    returns (:func:`gate.records.files.write_once_all`)."""
    written = list(zip(targets, built, strict=True))
    write_once_all((target, canonical_json(stamp) + b"\n") for target, stamp in written)
    return written


def manifest_run_ids(count: int, prefix: str | None) -> list[str]:
    """Per-stamp run ids for a manifest run: random, or ``PREFIX.N`` (N = 1-based position)."""
    if prefix is None:
        return [new_run_id() for _ in range(count)]
    return [f"{prefix}.{n}" for n in range(1, count + 1)]
