"""A report as plain text, for the sinks that take one paragraph per test: annotations (the
workflow commands; the check run's are gate.github.checks) and the gate job's log lines (pure).

What each red pair is told is decided once (:func:`gate.github.told.tell`); this module only
says it, one renderer per step type (:func:`step_text`), escaped for its sink by the caller's
:func:`gate.github.markdown.one_line` / :func:`gate.github.workflow.log_line`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gate.decide import when
from gate.github import markdown, workflow
from gate.github import told as t
from gate.records import report as report_lines
from gate.records.report_data import Pair, Report, Run

#: The steps whose plain text is one fixed sentence (every other step has parts).
FREEZE_OVER = ("the freeze is over: fix the free-server failure, or (reviewed) set a new expiry "
               "on the card and the allowlist entry.")
LOCAL_RED = ("the runner you control is red, so the failure is real: fix the code or the "
             "property.")
MISMATCH = ("both stamp jobs must run the same commit, card and fixtures; re-run both (the job "
            "summary says what differs).")
DUPLICATE = "re-run the stamp jobs so each class has one conclusive run."
UNSIGNED = ("the stamp job of that class must sign its stamps (its signing-key, docs/signing.md); "
            "re-run it. A changed, added or moved stamp is never accepted.")
CLASSES = "check the stamp jobs' server-class inputs and re-run them."


def remembered_plain(told: t.Told) -> str:
    """The earlier attempts' reds as plain text (annotations), with the check runs' URLs."""
    return " ".join(f"Attempt {m.attempt} was red on {m.server_class} (check run "
                    f"{m.check_run_url}); a full re-run does not hide a red: "
                    f"{t.fix_words(m.server_class)}." for m in told.remembered)


def health_check_plain(check: t.HealthCheck) -> str:
    """A repeated health check's two ways out, as one plain-text paragraph."""
    name = check.name or "NAME"
    return (f"Cause: Hypothesis health check {name} failed in both classes with the same text "
            f"on the same card ({check.summary}). Deterministic: a re-run cannot pass. Next "
            f"step: fix the strategy, or (reviewed) add "
            f"@settings(suppress_health_check=[HealthCheck.{name}]) to the test and "
            f"\"suppress_health_check\": {t.suppressed_card(check)} to its card (a new card).")


def _unused_text(step: t.RetryStep) -> str:
    """An allowlist entry that does not freeze a run that gave no result, and why."""
    if step.unused_entry is None:
        return ""
    return (f" The allowlist entry for this test (owner {step.unused_entry.owner}) does not "
            "apply: a run that gave no result is never frozen, only a free-server assertion "
            "failure beside a green local-pinned run is.")


def _retry_text(step: t.RetryStep) -> str:
    causes = "; ".join(c.plain for c in step.causes)
    if step.kind is t.Stuck.COLLECTION:
        return (f"Cause: {causes}. Next step: fix the test collection (see the stamp job's "
                "log); a re-run fails the same way.")
    if step.kind is t.Stuck.NOT_COLLECTED:
        return (f"Cause: {causes}. Next step: gate init --add names the new test; remove the "
                "old entry and its card; a re-run fails the same way.")
    if step.kind is t.Stuck.INTERRUPTED:
        return (f"Cause: {causes}. Next step: read the stamp job's log; fix a collection error "
                "(a re-run fails the same way), re-run only a cancelled job.")
    if step.kind is t.Stuck.DEADLINE and any(c.other_passed for c in step.causes):
        return (f"Cause: {causes}. Next step: the other class passed on the same card, so this "
                "runner is the slower one: raise deadline_ms in the card (reviewed, a new card) "
                "or make the test faster; a re-run helps only a one-off."
                + _unused_text(step))
    if step.kind is t.Stuck.DEADLINE:
        return (f"Cause: {causes}. Next step: make the test faster or raise deadline_ms in its "
                "card (a new card); a re-run helps only a one-off slow runner."
                + _unused_text(step))
    classes = sorted({c.server_class for c in step.causes})
    return (f"Cause: {causes}. Next step: re-run the {' and '.join(classes)} stamp job"
            + ("s" if len(classes) > 1 else "") + " after fixing the cause." + _unused_text(step))


def step_text(step: t.Step, now: int) -> str:
    """One step as one plain-text paragraph."""
    match step:
        case t.AllowlistStep():
            return (f"Next step: fix it, or add an allowlist entry for this test in free-server "
                    f"(owner, reason, issue, expires at most {step.max_days} days ahead, e.g. "
                    f"{when.utc_date(step.expires)}, written as expires: {step.expires}) and the "
                    "card field freeze_expires_at; see the job summary.")
        case t.HealthCheckStep():
            return health_check_plain(step.check)
        case t.RetryStep():
            return _retry_text(step)
        case t.FrozenStep() if step.freeze is not None:
            return (f"Frozen: owner {step.freeze.owner}; ends "
                    f"{when.expiry(step.freeze.ends, now)}.")
        case t.StableStep():
            return "Next step: " + t.STABLE_WORDS[step.kind] + repro_text(step.reproduce)
        case t.FreezeOverStep():
            return "Next step: " + FREEZE_OVER
        case t.LocalRedStep():
            return "Next step: " + LOCAL_RED + repro_text(step.reproduce)
        case t.MismatchStep():
            return "Next step: " + MISMATCH
        case t.MissingStep():
            return f"Next step: run the {step.missing} stamp job for this commit."
        case t.DuplicateStep():
            return "Next step: " + DUPLICATE
        case t.UnsignedStep():
            return "Next step: " + UNSIGNED
        case t.FrozenStep() | t.ClassesStep():
            return "Next step: " + CLASSES


def repro_text(repro: t.Reproduce | None) -> str:
    """The ``@reproduce_failure`` line (on the state machine class, for a machine)."""
    if repro is None:
        return ""
    where = f" on the state machine class {repro.machine}" if repro.machine else ""
    return f" Reproduce locally: {repro.line}{where}"


def runs_text(told: t.Told) -> str:
    """What each class's run gave, as one plain-text sentence (as the red block's runs line)."""
    return "Runs: " + (" · ".join(r.words for r in told.runs) or "none") + "."


def told_text(told: t.Told) -> str:
    """The next step of a told pair as one paragraph (an earlier attempt's red first)."""
    earlier = remembered_plain(told)
    if told.step is None:
        return "Next step: " + earlier
    text = step_text(told.step, told.now)
    return f"{earlier} {text}" if earlier else text


def plain_next_step(pair: Pair, now: int, max_days: int) -> str:
    """A one-paragraph plain-text next step (for annotations)."""
    return told_text(t.tell(pair, now, max_days))


#: Bounds of the failure text an annotation carries (the check run's block has the rest).
ANNOTATION_FAILURE_CHARS = {"message": 600, "example": 1000}


def annotation_failures(pair: Pair) -> list[str]:
    """Each red run's assertion message and falsifying example, bounded, as plain lines; a run
    whose failure is byte for byte another's is named, not repeated."""
    out: list[str] = []
    shown: list[Run] = []
    for run in pair.runs[:4]:
        failure = run.failure
        if failure is None:
            continue
        cls = run.server_class
        same = next((r for r in shown if t.same_failure(r, run)), None)
        if same is not None:
            out.append(markdown.one_line(t.same_words(run, same, str)))
            continue
        shown.append(run)
        message, kind = failure.message, failure.type
        if message.strip():
            head = f"{kind}: " if kind else ""
            out.append(markdown.one_line(
                f"Failure ({cls}): "
                + markdown.truncate(head + message, ANNOTATION_FAILURE_CHARS["message"])))
        example = failure.example
        if isinstance(example, str) and example.strip():
            out.append(markdown.one_line(
                f"Falsifying example ({cls}): "
                + markdown.truncate(" ".join(example.split()),
                                    ANNOTATION_FAILURE_CHARS["example"])))
    return out


def told_message(told: t.Told) -> str:
    """An annotation's message (plain text): what happened (and the gate's reason when it
    adds to it), the cause and next step, the assertion message and falsifying example
    (bounded), and the four SPEC §4 lines."""
    pair = told.pair
    said = told.happened + (f": {told.reason}" if told.reason else "")
    stamp_gate = report_lines.stamp_gate_line(pair)
    return "\n".join([markdown.one_line(said), markdown.one_line(runs_text(told)),
                      markdown.one_line(told_text(told)),
                      # a repeated health check: its name and one-line explanation are in the
                      # next step already, not Hypothesis's whole text (once per class)
                      *(annotation_failures(pair) if told.check is None else ()),
                      *(markdown.code_line(x) for x in (*report_lines.four_lines(pair),
                                                        *([stamp_gate] if stamp_gate else [])))])


def annotation_message(pair: Pair, now: int, max_days: int) -> str:
    return told_message(t.tell(pair, now, max_days))


def pair_annotations(
    pairs: Sequence[Pair], workspace: str | None = None,
    fallback: str = workflow.FALLBACK_PATH, *, now: int = 0, max_days: int | None = None,
) -> list[workflow.Annotation]:
    """One annotation per red pair (rejected first): ``error`` for rejected, ``warning`` for
    frozen; the message says what happened, the cause and the next step, and the four lines."""
    notes: list[workflow.Annotation] = []
    for pair in t.ordered_reds(pairs):
        status = pair.status
        path, line = workflow.pair_location(pair, workspace, fallback)
        body = annotation_message(pair, now, max_days or t.DEFAULT_MAX_FREEZE_DAYS)
        notes.append(workflow.Annotation(
            level="error" if status == "rejected" else "warning",
            message=body, file=path, line=line,
            title=f"gate {status}: {pair.test_id}",
        ))
    return notes


def annotation_commands(
    report: Report, workspace: str | None = None, fallback: str = workflow.FALLBACK_PATH,
    where: str = "the job summary",
) -> list[str]:
    """The lines to print for a report's red pairs: at most 10 ``::error`` (rejected) and 10
    ``::warning`` (frozen) commands, then a plain line saying how many were left out."""
    notes = pair_annotations(report.pairs, workspace, fallback, now=report.now,
                             max_days=report.max_freeze_days)
    lines, left_out = workflow.commands_for(notes)
    extra = workflow.left_out_line(left_out, where)
    return [*lines, workflow.log_line(extra)] if extra else lines


def log_lines(report: Report) -> list[str]:
    """One plain log line per rejected and frozen test, escaped for the log: what happened
    (and the gate's reason where it adds to it), what each class's run gave, and the next step
    (an earlier attempt's red first): what the annotation says, on one line."""
    out = []
    max_days = report.max_freeze_days or t.DEFAULT_MAX_FREEZE_DAYS
    for pair in t.ordered_reds(report.pairs):
        told = t.tell(pair, report.now, max_days)
        said = told.happened + (f": {told.reason}" if told.reason else "")
        out.append(workflow.log_line(
            f"gate: {pair.status}: {pair.test_id}: {pair.action} ({said}) {runs_text(told)} "
            f"{told_text(told)}"))
    return out


def audit_log_lines(report: Report) -> list[str]:
    """The receipt and halt-audit verdicts as plain log lines (escaped for the log), so that a
    gate they close says why in the job log too, not only in the summary and the check run."""
    out = []
    receipt = report.receipt
    if receipt is not None:
        out.append(workflow.log_line(f"gate: receipt: {receipt.line}"))
    audit = report.halt_audit
    if audit is not None:
        ok = not audit.failed and audit.chain_ok
        out.append(workflow.log_line(
            f"gate: halt audit: {'ok' if ok else 'failed'}: failed={audit.failed} "
            f"denominator={audit.denominator} "
            f"chain_ok={'true' if audit.chain_ok else 'false'}"))
    return out
