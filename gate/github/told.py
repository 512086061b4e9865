"""What a reviewer is told about a pair, decided once (issue 30; pure).

:func:`tell` reads one pair of the report and returns a :class:`Told`: what happened, in words;
the earlier attempts' reds it shows; and the next step as a typed value (:data:`Step`) holding
its parts (the allowlist entry, the card field, the reproduce line, the health check, each
class's cause). The renderers, one per sink (Markdown for the job summary, the check run and
the pull-request comment: :mod:`gate.github.review`; plain text for annotations and log lines:
:mod:`gate.github.plain`), turn a :class:`Told` into text and never look at the action string
again: a new case is a new step type here, which each renderer must then handle (mypy's
exhaustiveness check on the step union says where).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum

from gate.decide import outcome as outcomes
from gate.decide import when
from gate.records.report_data import ABSENT, Failure, Freeze, Pair, Remembered, Run

RETRY_OUTCOMES = ("resource_exit", "empty_body")
LOCAL, FREE = "local-pinned", "free-server"
DEFAULT_MAX_FREEZE_DAYS = 30

OUTCOME_WORDS = {"pass": "pass", "assert_fail": "assertion failed",
                 "resource_exit": "did not finish (resource exit)",
                 "empty_body": "printed nothing (empty body)"}

WORDS = {
    "reject_not_allowlisted": "a free-server red with a green local-pinned run; not allowlisted",
    "freeze_inside_server_class": "a free-server red with a green local-pinned run; frozen "
                                  "inside free-server by a reviewed allowlist entry "
                                  "(the stamp gate's freeze: the digest gate could not show "
                                  "the red is harness noise, so freeze_allowed=false)",
    "reject_freeze_expired": "a free-server red with a green local-pinned run; its freeze has "
                             "expired",
    "reject_run_retry_new_id": "a run did not finish, so there is no result to compare; the run "
                               "is discarded",
    "reject_cross_class_pass": "a local-pinned red with a green free-server run; a remote green "
                               "never closes a local red",
    "reject_stable_fail": "red in both server classes",
    "reject_fixture_mismatch": "the two stamps are for different fixtures or sample cards",
    "reject_bad_class": "a stamp names a server class that is neither local-pinned nor "
                        "free-server",
    "reject_unstamped_pair": "both stamps come from the same server class",
    "reject_unclassified": "no row of the stamp gate matched",
    "reject_missing_stamp": "only one server class ran this test",
    "reject_duplicate_stamps": "one server class has more than one conclusive stamp",
    "reject_unsigned_stamp": "a stamp is not covered by a valid signature of its own artifact, "
                             "which the policy requires for its class",
    "accept_candidate": "green in both server classes",
}


#: What happened, for a run that gave no result because of a cause that a re-run repeats
#: (see :func:`stuck_kind`), in place of ``WORDS["reject_run_retry_new_id"]``.
STUCK_WORDS = {
    "collection": "the test collection failed before the test could run; there is no result "
                  "to compare",
    "no_report": "the test command failed before writing a report; there is no result to "
                 "compare",
    "interrupted": "the test session stopped before the test ran; there is no result to "
                   "compare",
    "deadline": "a test case exceeded the card's deadline (Hypothesis's DeadlineExceeded, not "
                "an assertion result); there is no result to compare",
    "not_collected": "the test was not collected (renamed or removed after `gate init`?), so "
                     "there is no result to compare",
    "health_check": "both classes failed the same Hypothesis health check on the same card "
                    "(the same generator, the same check, the same text): it is deterministic, "
                    "so a re-run cannot pass",
}

#: What happened, for a pair that an earlier attempt's remembered red rejects (row 2m of
#: gate/records/pairing.py), in place of ``WORDS["reject_duplicate_stamps"]``.
REMEMBERED_WORDS = ("an earlier attempt of this workflow run was red, and this attempt's stamps "
                    "do not repeat that red")


def _failure_dict(run: Run) -> dict[str, object]:
    """The run's failure as the digest gate reads it (empty: none)."""
    return run.failure.to_dict() if run.failure is not None else {}


def exit_code_of(run: Run) -> int | None:
    """The exit code, None when the stamp has none or the run was killed by a signal."""
    return run.exit_code if isinstance(run.exit_code, int) else None


def cause(run: Run, outcome: bool = True) -> str:
    """Why a run gave no assertion result, in words, from the stamp."""
    parts = [OUTCOME_WORDS.get(str(run.outcome), str(run.outcome))][
        : 1 if outcome else 0]
    if run.exit_code is not ABSENT:
        code = run.exit_code
        parts.append("killed by a signal" if code is None else f"exit code {code}")
    note = run.note
    if isinstance(note, str) and note:
        parts.append(note)
    return "; ".join(parts)


class Stuck(StrEnum):
    """Why a run that gave no result would give none again on a re-run (:func:`stuck_kind`);
    ``health_check``: the pair's two classes failed the same health check."""

    COLLECTION = "collection"
    NO_REPORT = "no_report"
    INTERRUPTED = "interrupted"
    DEADLINE = "deadline"
    NOT_COLLECTED = "not_collected"
    HEALTH_CHECK = "health_check"


def _no_report(run: Run) -> bool:
    note = str(run.note or "").lower()
    return "no junit report" in note or ("not written" in note and "report" in note)


def stuck_kind(run: Run) -> Stuck | None:
    """Why a run that gave no result would give none again on a re-run, from its stamp:
    ``collection`` (the report holds a collection failure: a test file cannot be imported),
    ``no_report`` (the command failed before writing a report), ``interrupted`` (pytest's exit
    status 2 and the test not in the report: a collection error, or a cancelled run; the
    plugin route cannot tell which), or None (a timeout, a kill, a flaky run: re-run it)."""
    if run.outcome not in RETRY_OUTCOMES:
        return None
    note = str(run.note or "")
    if outcomes.COLLECTION_NOTE in note:
        return Stuck.COLLECTION
    if _no_report(run):
        return Stuck.NO_REPORT
    if note == outcomes.NOT_IN_REPORT and run.exit_code == 2:
        return Stuck.INTERRUPTED
    if note.startswith(DEADLINE_NOTE):
        return Stuck.DEADLINE
    if note.startswith(outcomes.NOT_COLLECTED_PREFIX):  # the pytest routes' missing test
        return Stuck.NOT_COLLECTED
    return None


#: How :func:`gate.decide.outcome.hypothesis_note` starts for a deadline miss.
DEADLINE_NOTE = "hypothesis.errors.DeadlineExceeded"

#: A run's cause as the common-cause paragraphs group it: (its class, the stamp's words, its
#: :class:`Stuck` kind); a health check repeated in both classes is ("both classes", its words,
#: ``Stuck.HEALTH_CHECK``).
CauseKey = tuple[str, str, Stuck | None]


def cause_key(run: Run) -> CauseKey:
    return (run.server_class, cause(run, False), stuck_kind(run))


@dataclass(frozen=True)
class HealthCheck:
    """A Hypothesis health check both classes failed identically (see
    :func:`repeated_health_check`): the check's name, Hypothesis's one-line explanation (the
    first line of its message), the whole message, and the checks the card suppresses already."""

    name: str
    summary: str
    message: str
    suppressed: tuple[str, ...]


_CHECK_NAME = re.compile(r"HealthCheck\.([A-Za-z_]+)")


def repeated_health_check(pair: Pair) -> HealthCheck | None:
    """The health check a pair's two classes both failed on the same card — the same generator
    (:func:`gate.decide.digest.generator_digest`), the same check and text
    (:func:`gate.decide.digest.health_check_digest`) — or None. Deterministic: the card's seed
    draws the same examples on every run, so a re-run fails the same way. A check on one
    class only (a ``too_slow`` on a slow runner) is not one: that stays the retry class."""
    from gate.decide import digest

    runs = {str(r.server_class): r for r in pair.runs}
    if set(runs) != {LOCAL, FREE} or len(pair.runs) != 2:
        return None
    checks: set[str | None] = set()
    generators: set[str] = set()
    for run in runs.values():
        if run.outcome not in RETRY_OUTCOMES or run.hypothesis is None:
            return None
        checks.add(digest.health_check_digest(_failure_dict(run)))
        generators.add(digest.generator_digest(run.hypothesis.to_dict()))
    if len(checks) != 1 or None in checks or len(generators) != 1:
        return None
    run = runs[LOCAL]
    message = run.failure.message if run.failure is not None else ""
    named = _CHECK_NAME.search(message)
    first = next((line.strip() for line in message.splitlines() if line.strip()), "")
    suppressed = run.hypothesis.suppress_health_check if run.hypothesis is not None else ()
    return HealthCheck(named.group(1) if named else "", first, message, suppressed)


def pair_stuck_kind(pair: Pair) -> Stuck | None:
    if repeated_health_check(pair) is not None:
        return Stuck.HEALTH_CHECK
    kinds = {stuck_kind(r) for r in pair.runs}
    return next((Stuck(k) for k in STUCK_WORDS if k in kinds), None)


def remembered(pair: Pair) -> list[Remembered]:
    """The earlier attempts' reds a pair shows (one per attempt and class)."""
    seen: set[tuple[int, str]] = set()
    out = []
    for memo in pair.remembered or ():
        if (memo.attempt, memo.server_class) not in seen:
            seen.add((memo.attempt, memo.server_class))
            out.append(memo)
    return out


def fix_words(server_class: str) -> str:
    """The fix an earlier attempt's red asks for, by its class."""
    return ("push a fix or freeze it via the allowlist" if server_class == FREE
            else "push a fix (a local-pinned red is never frozen)")


def ordered_reds(pairs: Sequence[Pair]) -> list[Pair]:
    """Rejected, then frozen, each in report (test id) order."""
    return ([p for p in pairs if p.status == "rejected"]
            + [p for p in pairs if p.status == "frozen"])


def greens(pairs: Sequence[Pair]) -> list[Pair]:
    return [p for p in pairs if p.status == "accepted"]


def suggested_expiry(now: int, max_days: int) -> int:
    """The last UTC midnight within ``max_days`` of ``now`` (never after the maximum)."""
    return (now + max_days * when.DAY) // when.DAY * when.DAY


def entry_expiry(pair: Pair, now: int, max_days: int) -> int:
    """The expiry an allowlist entry for ``pair`` may promise: :func:`suggested_expiry`, or the
    card's own when that is sooner (the card's expiry is the one that counts)."""
    expires = suggested_expiry(now, max_days)
    card = pair.card_expires
    return card if isinstance(card, int) and now < card < expires else expires


#: A state machine's falsifying example opens with its header and ``state = Machine()``.
_MACHINE = re.compile(r"\A(?:Failing|Falsifying) [^\n]*<state machine>\n"
                      r"state = ([A-Za-z_]\w*)\(\)$", re.M)
_UNCOLLECTED = re.compile(re.escape(outcomes.COLLECTION_NOTE) + r" \(([^()]*)\)(?=$|: )")


@dataclass(frozen=True)
class Reproduce:
    """Hypothesis's ``@reproduce_failure`` line, and the state machine class it goes on (a
    machine's ``TestCase.runTest`` is Hypothesis's own: the decorator goes on the class)."""

    line: str
    machine: str | None


def _reproduce(pair: Pair) -> Reproduce | None:
    line = next((r.failure.reproduce for r in pair.runs if r.failure is not None
                 and isinstance(r.failure.reproduce, str) and r.failure.reproduce.strip()),
                None)
    if line is None:
        return None
    machine = None
    for run in pair.runs:
        example = run.failure.example if run.failure is not None else None
        found = _MACHINE.match(example) if isinstance(example, str) else None
        if found:
            machine = found.group(1)
            break
    return Reproduce(line, machine)


# --- the next step: one type per case, with its parts ------------------------------------------


class CardExpiry(Enum):
    """Where the sample card's ``freeze_expires_at`` stands for an allowlist entry."""

    SET = "set"  # ahead of now: the expiry that counts
    PASSED = "passed"  # a new one is needed (a new card)
    MISSING = "missing"  # the card needs the field


@dataclass(frozen=True)
class AllowlistStep:
    """A free-server red with a green local-pinned run, not allowlisted: fix it, or freeze it
    with a reviewed allowlist entry (and the card's ``freeze_expires_at``)."""

    test_id: str
    now: int
    max_days: int
    expires: int  # what the suggested entry says (:func:`entry_expiry`)
    latest: int  # the furthest expiry the policy allows (:func:`suggested_expiry`)
    card: CardExpiry
    card_expires: int | None


@dataclass(frozen=True)
class FreezeOverStep:
    """The freeze has expired: which expiries passed."""

    max_days: int
    card_missing: bool
    card_ended: int | None  # the card's freeze_expires_at, when it has passed
    entry_ended: tuple[str, int] | None  # (owner, expires) of a passed allowlist entry


@dataclass(frozen=True)
class HealthCheckStep:
    """Both classes failed the same Hypothesis health check on the same card."""

    check: HealthCheck


@dataclass(frozen=True)
class ClassCause:
    """Why one class's run gave no result, and what that means for a re-run."""

    server_class: str
    kind: Stuck | None  # :func:`stuck_kind`: None is a cause a re-run may not repeat
    cause: str  # the outcome and the stamp's words (:func:`cause`)
    detail: str  # the stamp's words alone
    plain: str  # as the one-paragraph sinks say it
    files: str | None  # a collection failure: the files that failed to collect
    blame: str | None  # a collection failure: the repository module whose import broke it
    exit_code: int | None
    collected_by: str | None  # a collection failure: a class whose run collected the test
    both_not_collected: bool  # the test was not collected in any class
    other_passed: bool  # the other class's run passed (on the same card)
    #: a common-cause paragraph above the red blocks states this cause (:func:`above`): the
    #: sinks that show it point there instead of repeating it (issue 29: repetition)
    above: bool = False


@dataclass(frozen=True)
class RetryStep:
    """A run did not finish: each class's cause, and the pair's kind (the first stuck one)."""

    causes: tuple[ClassCause, ...]
    kind: Stuck | None
    #: a free-server allowlist entry for the test, which does not apply: a run with no result
    #: is never frozen (the stamp gate freezes only an assertion failure, row 6)
    unused_entry: Freeze | None = None


@dataclass(frozen=True)
class LocalRedStep:
    """A local-pinned red with a green free-server run: the failure is real."""

    reproduce: Reproduce | None


class StableKind(Enum):
    """How a red in both classes reads, by the digest gate's label."""

    PROPERTY_MISS = "property_miss"  # the same input: a real miss
    FIXTURE_DRIFT = "fixture_drift"  # the inputs differ
    OTHER_EXAMPLES = "other_examples"  # different falsifying examples
    UNCOMPARED = "uncompared"  # no examples to compare


@dataclass(frozen=True)
class StableStep:
    kind: StableKind
    reproduce: Reproduce | None


@dataclass(frozen=True)
class MismatchStep:
    """The two stamps are for different fixtures or cards: what differs."""

    diffs: tuple[str, ...]
    generator: bool  # the seed, case count or Hypothesis settings differ


@dataclass(frozen=True)
class MissingStep:
    missing: str  # the class that has no stamp


@dataclass(frozen=True)
class DuplicateStep:
    pass


@dataclass(frozen=True)
class UnsignedStep:
    pass


@dataclass(frozen=True)
class FrozenStep:
    """Frozen by a reviewed entry: its owner and when the freeze ends."""

    freeze: Freeze | None


@dataclass(frozen=True)
class ClassesStep:
    """Anything else the stamp gate says (a bad or missing server class): check the inputs."""


Step = (AllowlistStep | FreezeOverStep | HealthCheckStep | RetryStep | LocalRedStep
        | StableStep | MismatchStep | MissingStep | DuplicateStep | UnsignedStep | FrozenStep
        | ClassesStep)


@dataclass(frozen=True)
class RunSaid:
    """What one run gave, in words (plain text: each sink escapes it), and whether it passed."""

    server_class: str
    words: str
    green: bool
    #: the words when a common-cause paragraph above states the run's cause (:func:`above`),
    #: for the sinks that show it; None: the cause is not stated above
    brief: str | None = None


def run_said(run: Run, attempt: int | None = None,
             check: HealthCheck | None = None,
             stated: frozenset[CauseKey] = frozenset()) -> RunSaid:
    """One run's outcome in words: its class, what it gave and, where no assertion ran, why;
    ``attempt``: remembered from that earlier attempt's check run; ``check``: the same health
    check failed in both classes (said once, in the next step); ``stated``: the causes a
    common-cause paragraph states (:func:`above`), which the brief words point to."""
    outcome = str(run.outcome)
    cls = run.server_class
    if check is not None:
        code = exit_code_of(run)
        exited = f"; exit code {code}" if code is not None else ""
        return RunSaid(cls, f"{cls}: no result (health check {check.name or 'failed'})"
                            f"{exited}", False)
    text = f"{cls}: {OUTCOME_WORDS.get(outcome, outcome)}"
    if attempt is not None:
        text = f"{cls} (attempt {attempt}): {OUTCOME_WORDS.get(outcome, outcome)}"
    kind = stuck_kind(run)
    if kind is Stuck.NOT_COLLECTED:  # the next step says what the note says
        text = f"{cls}: no result (not collected)"
    elif outcome in RETRY_OUTCOMES and kind is not None:
        text = f"{cls}: no result ({outcome.replace('_', ' ')}); {cause(run, False)}"
    elif outcome in RETRY_OUTCOMES:
        text = f"{cls}: {cause(run)}"
    elif outcome == "assert_fail" and run.exit_code is not ABSENT:
        code = exit_code_of(run)
        text += f" (exit code {code})" if code is not None else ""
    who = cls if attempt is None else f"{cls} (attempt {attempt})"
    brief = (f"{who}: no result ({outcome.replace('_', ' ')}) — the common cause above"
             if outcome in RETRY_OUTCOMES and cause_key(run) in stated else None)
    return RunSaid(cls, text, outcome == "pass" and check is None, brief)


@dataclass(frozen=True)
class Told:
    """What a reviewer is told about one pair (rendered per sink, decided here once)."""

    pair: Pair
    now: int  # the report's clock
    max_days: int  # the policy's longest freeze
    happened: str  # what happened, in words (plain text)
    happened_fixed: bool  # one of this module's phrases (safe in Markdown as it is)
    reason: str | None  # the gate's reason, when it adds to ``happened``
    remembered: tuple[Remembered, ...]  # earlier attempts' reds (one per attempt and class)
    step: Step | None  # None: the remembered reds are the whole step
    check: HealthCheck | None  # the repeated health check, when there is one
    runs: tuple[RunSaid, ...]  # what each class's run gave (up to four runs), in words


def _blame(run: Run, kind: Stuck | None) -> str | None:
    """A collection failure's words naming the repository module whose import broke it."""
    note = str(run.note or "")
    start = note.find(outcomes.BREAKS_IMPORTING)
    return note[start:] if kind is Stuck.COLLECTION and start >= 0 else None


def _class_cause(run: Run, pair: Pair, stated: frozenset[CauseKey]) -> ClassCause:
    kind = stuck_kind(run)
    found = _UNCOLLECTED.search(run.note or "") if kind is Stuck.COLLECTION else None
    others = [r.server_class for r in pair.runs
              if r is not run and r.outcome in ("pass", "assert_fail")]
    plain = (f"{run.server_class}: "
             + ("the test command failed before writing a report: " + cause(run, False)
                if _no_report(run) else cause(run, kind is None)))
    return ClassCause(
        server_class=run.server_class, kind=kind, cause=cause(run), detail=cause(run, False),
        plain=plain, files=found.group(1) if found else None, blame=_blame(run, kind),
        exit_code=exit_code_of(run),
        collected_by=others[0] if others else None,
        both_not_collected=all(stuck_kind(r) is Stuck.NOT_COLLECTED for r in pair.runs),
        other_passed=any(r is not run and r.outcome == "pass" for r in pair.runs),
        above=cause_key(run) in stated)


#: A red in both classes, by :class:`StableKind` (every sink says the same words).
STABLE_WORDS = {
    StableKind.PROPERTY_MISS: "a real property miss (red on both runners, on the same input): "
                              "fix the code or the property.",
    StableKind.FIXTURE_DRIFT: "red on both runners, but their inputs differ (fixture_drift): "
                              "fix the code or the property, and check that both stamp jobs "
                              "pin the same fixture.",
    StableKind.OTHER_EXAMPLES: "red on both runners, on different falsifying examples "
                               "(failure_class=unclassified): fix the code or the property (it "
                               "may fail on more than one input).",
    StableKind.UNCOMPARED: "red on both runners: fix the code or the property. The gate cannot "
                           "tell whether both failed the same way (failure_class=unclassified: "
                           "the stamps carry no falsifying example to compare).",
}


def suppressed_card(check: HealthCheck) -> str:
    """The card's ``suppress_health_check`` with the repeated check added (JSON)."""
    import json

    return json.dumps(sorted({*check.suppressed, *([check.name] if check.name else [])}))


def _comparable(failure: Failure) -> dict[str, object]:
    """A failure's fields with object addresses replaced (:func:`digest.without_addresses`, as
    the failure digest reads them): another process prints other addresses for one object."""
    from gate.decide import digest

    return {k: digest.without_addresses(v) if isinstance(v, str) else v
            for k, v in failure.to_dict().items()}


def same_failure(first: Run, second: Run) -> bool:
    """Two runs' failure and Hypothesis settings are the same (what a red block would print
    for each), object addresses aside."""
    return (first.failure is not None and second.failure is not None
            and _comparable(first.failure) == _comparable(second.failure)
            and first.hypothesis == second.hypothesis)


def same_words(run: Run, same: Run, name: Callable[[str], str]) -> str:
    """"CLASS: the same failure on the same example as OTHER", each class name through
    ``name`` (the sink's escaper), and when only object addresses differ, that they do."""
    words = (f"{name(run.server_class)}: the same failure on the same example "
             f"as {name(same.server_class)}")
    if run.failure != same.failure:
        words += " (but for object addresses, which differ between processes)"
    return words


def _stable_kind(pair: Pair) -> StableKind:
    if pair.failure_class == "property_miss":
        return StableKind.PROPERTY_MISS
    if pair.failure_class == "fixture_drift":
        return StableKind.FIXTURE_DRIFT
    examples = [r.failure.example if r.failure is not None else None for r in pair.runs]
    if len(examples) >= 2 and all(isinstance(e, str) and e for e in examples):
        return StableKind.OTHER_EXAMPLES
    return StableKind.UNCOMPARED


_GENERATOR = ("sample card seed", "sample card cases", "Hypothesis setting")


def _step(pair: Pair, now: int, max_days: int, check: HealthCheck | None,
          stated: frozenset[CauseKey]) -> Step:
    """The next step for the pair's action (the one place that reads the action string)."""
    action = pair.action
    if action == "reject_not_allowlisted":
        card = pair.card_expires
        state = (CardExpiry.SET if isinstance(card, int) and card > now else
                 CardExpiry.PASSED if isinstance(card, int) else CardExpiry.MISSING)
        return AllowlistStep(pair.test_id, now, max_days, entry_expiry(pair, now, max_days),
                             suggested_expiry(now, max_days), state,
                             card if isinstance(card, int) else None)
    if action == "reject_freeze_expired":
        card, freeze = pair.card_expires, pair.freeze
        return FreezeOverStep(
            max_days, card_missing=not isinstance(card, int),
            card_ended=card if isinstance(card, int) and card <= now else None,
            entry_ended=((freeze.owner, freeze.expires)
                         if freeze is not None and freeze.expires <= now else None))
    if action == "reject_run_retry_new_id":
        if check is not None:
            return HealthCheckStep(check)
        return RetryStep(tuple(_class_cause(r, pair, stated) for r in pair.runs
                               if r.outcome in RETRY_OUTCOMES), pair_stuck_kind(pair),
                         pair.freeze)
    if action == "reject_cross_class_pass":
        return LocalRedStep(_reproduce(pair))
    if action == "reject_stable_fail":
        return StableStep(_stable_kind(pair), _reproduce(pair))
    if action == "reject_fixture_mismatch":
        diffs = pair.mismatch or ()
        return MismatchStep(diffs, any(d.startswith(_GENERATOR) for d in diffs))
    if action == "reject_missing_stamp":
        present = {r.server_class for r in pair.runs}
        return MissingStep(next((c for c in (LOCAL, FREE) if c not in present), "other"))
    if action == "reject_duplicate_stamps":
        return DuplicateStep()
    if action == "reject_unsigned_stamp":
        return UnsignedStep()
    if action == "freeze_inside_server_class":
        return FrozenStep(pair.freeze)
    return ClassesStep()


def happened(pair: Pair) -> tuple[str, bool]:
    """What happened, in words, and whether the words are one of this module's phrases (safe
    in Markdown as they are; anything else is the action's own name, escaped by the sink)."""
    action = pair.action
    if action == "reject_duplicate_stamps" and remembered(pair):
        return REMEMBERED_WORDS, True
    if action == "reject_run_retry_new_id":
        kind = pair_stuck_kind(pair)
        if kind is not None:
            return STUCK_WORDS[kind], True
    return WORDS.get(action, action.replace("_", " ")), action in WORDS


def tell(pair: Pair, now: int, max_days: int = DEFAULT_MAX_FREEZE_DAYS,
         stated: frozenset[CauseKey] = frozenset()) -> Told:
    """What a reviewer is told about ``pair`` at ``now`` (the report's clock), decided once;
    ``stated``: the causes a common-cause paragraph above the pair's block states
    (:func:`above`; only for a sink that shows those paragraphs: an annotation or a log line
    stands alone, and says the whole cause)."""
    action = pair.action
    earlier = tuple(remembered(pair))
    repeated = repeated_health_check(pair)
    check = repeated if action == "reject_run_retry_new_id" else None
    happened_, fixed = happened(pair)
    reason = (pair.reason if action != "reject_run_retry_new_id" and pair.reason
              and pair.reason not in happened_ else None)
    only_earlier = action == "reject_duplicate_stamps" and bool(earlier)
    attempts = {m.run_id: m.attempt for m in pair.remembered or ()}
    runs = tuple(run_said(r, attempts.get(str(r.run_id)), repeated, stated)
                 for r in pair.runs[:4])
    return Told(pair, now, max_days, happened_, fixed, reason, earlier,
                None if only_earlier else _step(pair, now, max_days, check, stated), repeated,
                runs)


# --- causes shared by several tests: said once, above the red blocks --------------------------

@dataclass(frozen=True)
class CommonCause:
    """A cause shared by two or more reds' runs, said once in its own paragraph."""

    server_class: str  # or "both classes" (a repeated health check)
    detail: str  # the stamp's words (:func:`cause` without the outcome)
    kind: Stuck | None
    count: int

    @property
    def key(self) -> CauseKey:
        return (self.server_class, self.detail, self.kind)


def common_causes(pairs: Sequence[Pair], now: int) -> list[CommonCause]:
    """The causes two or more runs that gave no result share (so nine identical reds read as
    one problem first), commonest first."""
    groups: dict[CauseKey, int] = {}
    for pair in pairs:
        step = tell(pair, now).step
        keys: list[CauseKey] = []
        if isinstance(step, HealthCheckStep):  # one cause for the pair, in both classes
            keys = [("both classes", f"Hypothesis health check {step.check.name} failed the "
                     "same way", Stuck.HEALTH_CHECK)]
        elif isinstance(step, RetryStep):
            keys = [(c.server_class, c.detail, c.kind) for c in step.causes]
        for key in keys:
            groups[key] = groups.get(key, 0) + 1
    ordered = sorted(groups.items(), key=lambda kv: -kv[1])
    return [CommonCause(*key, n) for key, n in ordered if n >= 2]


def above(pairs: Sequence[Pair], now: int) -> frozenset[CauseKey]:
    """The causes the common-cause paragraphs state (:func:`common_causes`): a red block
    below them refers to these briefly instead of repeating them (issue 29: a patch that
    breaks the package's import read four times per test)."""
    return frozenset(c.key for c in common_causes(pairs, now))
