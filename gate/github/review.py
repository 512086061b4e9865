"""The reviewer's view of a report in Markdown (pure): what is red, why, and the next step.

Shared by the job summary (:mod:`gate.github.summary`), the check run
(:mod:`gate.github.checks`) and the pull-request comment. What each pair is told is decided
once (:func:`gate.github.told.tell`); this module renders it as Markdown, as
:mod:`gate.github.plain` renders it for annotations and log lines. Everything from a record is
escaped here (:mod:`gate.github.markdown`). The clock is the report's ``now``.

A red block, one per rejected or frozen test (rejected first, then frozen):

* the test id linked to its file and line on the head commit
  (``{server}/{repo}/blob/{sha}/{path}#L{line}``) when the location is known;
* the action in words (``a free-server red with a green local-pinned run; not allowlisted``);
* each run's outcome; for a run where no assertion ran, its exit code and the stamp's note; the
  failure message and falsifying example when the stamp carries them;
* **the next step** for that action, concretely (for ``reject_not_allowlisted`` a ready-to-paste
  allowlist entry with an expiry within the policy's maximum, and the card field it needs);
* in a ``<details>`` block: the ``test_id=`` line and the four SPEC §4 lines, verbatim.

Green pairs are never shown with a failure class.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gate.decide import outcome as outcomes
from gate.decide import when
from gate.github import markdown, workflow
from gate.github import told as t
from gate.github.judge_view import JUDGE_LOG_CHARS as JUDGE_LOG_CHARS
from gate.github.judge_view import judge_headline as judge_headline
from gate.github.judge_view import judge_lines as judge_lines
from gate.github.judge_view import judge_log_lines as judge_log_lines
from gate.github.plain import UNSIGNED
from gate.github.plain import annotation_commands as annotation_commands
from gate.github.plain import annotation_message as annotation_message
from gate.github.plain import audit_log_lines as audit_log_lines
from gate.github.plain import log_lines as log_lines
from gate.github.plain import pair_annotations as pair_annotations
from gate.github.plain import plain_next_step as plain_next_step
from gate.github.told import DEFAULT_MAX_FREEZE_DAYS as DEFAULT_MAX_FREEZE_DAYS
from gate.github.told import REMEMBERED_WORDS as REMEMBERED_WORDS
from gate.github.told import HealthCheck, Told
from gate.github.told import greens as greens
from gate.github.told import ordered_reds as ordered_reds
from gate.github.told import repeated_health_check as repeated_health_check
from gate.github.told import stuck_kind as stuck_kind
from gate.github.told import suggested_expiry as suggested_expiry
from gate.github.told import tell as tell
from gate.records import report as report_lines
from gate.records.report_data import Location, Pair, Report, Run

TEST_CHARS = 300
TEXT_CHARS = 2000
EXAMPLE_LINES = 40
ICON = {"accepted": "✅", "frozen": "🧊", "rejected": "❌"}


@dataclass(frozen=True)
class View:
    """Where links point; all optional (no link without them)."""

    server_url: str | None = None  # https://github.com
    repository: str | None = None  # owner/repo
    head_sha: str | None = None
    workspace: str | None = None
    policy_path: str | None = None  # the policy file, as given to the action
    artifact_prefix: str | None = None
    report_artifact: str | None = None  # the uploaded JSON report's artifact name
    run_url: str | None = None  # the workflow run page (artifacts are listed there)
    check_run_url: str | None = None

    @property
    def blob_base(self) -> str | None:
        if not (self.server_url and self.repository and self.head_sha):
            return None
        return f"{self.server_url.rstrip('/')}/{self.repository}/blob/{self.head_sha}"


_SPAN_SAFE = re.compile(r"[A-Za-z0-9._/@+-][A-Za-z0-9._/@+ …-]{0,300}")


def span(text: str) -> str:
    """A code span for a plain value (shown verbatim), else escaped inline text: inside
    backticks nothing is decoded, so an escaped value must never go there."""
    return f"`{text}`" if _SPAN_SAFE.fullmatch(text) else markdown.inline(text, 300)


def remembered_lines(told: Told) -> list[str]:
    """Markdown: "attempt N was red on <class> (its check run); a full re-run does not hide a
    red", one line per earlier attempt and class."""
    return [f"**Next step:** attempt {m.attempt} was red on "
            f"{markdown.inline(m.server_class)} "
            f"({markdown.link('its check run', m.check_run_url)}); a full "
            f"re-run does not hide a red: {t.fix_words(m.server_class)}."
            for m in told.remembered]


def words_md(pair: Pair) -> str:
    """What happened, for Markdown: the fixed phrases are plain text; anything else escaped."""
    said, fixed = t.happened(pair)
    return said if fixed else markdown.inline(said)


def test_link(pair: Pair, view: View) -> str:
    return link_test(pair.test_id, pair.location, view)


def link_test(test_id: str, location: Location | None, view: View) -> str:
    """The test id in bold, linked to its file and line on the head commit when known."""
    label = markdown.inline(test_id, TEST_CHARS)
    path, line = workflow.test_location(test_id, location, view.workspace, fallback="")
    where = (path, line) if path else None
    base = view.blob_base
    if where is None or base is None:
        return f"**{label}**"
    target = markdown.url(f"{base}/{where[0]}#L{where[1]}")
    return f"**[{label}]({target})**" if target else f"**{label}**"


def _run_line(said: t.RunSaid) -> str:
    words = said.brief or said.words  # the brief words point to a common cause above
    return f"{'✅' if said.green else '❌'} {markdown.inline(words, TEXT_CHARS)}"


def _code(lines: Sequence[str], info: str = "text") -> list[str]:
    cut = list(lines[:EXAMPLE_LINES])
    if len(lines) > EXAMPLE_LINES:
        cut.append(f"… {len(lines) - EXAMPLE_LINES} more lines")
    return markdown.code_block([markdown.truncate(line, 500) for line in cut], info)


def _failure_lines(run: Run) -> list[str]:
    failure = run.failure
    if failure is None:
        return []
    cls = markdown.inline(str(run.server_class))
    out: list[str] = []
    message = failure.message
    kind = failure.type
    if message.strip():
        head = f"{kind}: " if kind else ""
        out += [f"Failure ({cls}):", "",
                *_code(markdown.truncate(head + message, TEXT_CHARS).splitlines()), ""]
    example = failure.example
    if isinstance(example, str) and example.strip():
        out += [f"Falsifying example ({cls}):", "",
                *_code(markdown.truncate(example, 4000).splitlines(), "python"), ""]
    return out


def _health_check_lines(check: HealthCheck, run: Run) -> list[str]:
    """The repeated health check, once: its name, Hypothesis's one-line explanation, the
    settings (the same in both classes), and Hypothesis's whole text folded away."""
    name = f"`{check.name}`" if check.name else "(unnamed)"
    out = [f"Health check {name} (both classes, the same text): "
           f"{markdown.inline(check.summary, 500)}", ""]
    settings = _hypothesis_line(run)
    if settings:
        out += [settings[0].replace(
            f"({markdown.inline(str(run.server_class))})", "(both classes)", 1), ""]
    body = [markdown.truncate(line, 500) for line in check.message.splitlines()]
    fence = markdown.fence_for(body)
    return [*out, "<details><summary>Hypothesis's whole message</summary>", "",
            f"{fence}text", *body[:EXAMPLE_LINES], fence, "", "</details>", ""]


HYPOTHESIS_KEYS = ("seed", "max_examples", "derandomize", "database", "deadline_ms",
                   "examples_run")


def _hypothesis_line(run: Run) -> list[str]:
    settings = run.hypothesis
    if settings is None:
        return []
    parts = [f"{key}={getattr(settings, key)}" for key in HYPOTHESIS_KEYS]
    return [f"Hypothesis ({markdown.inline(str(run.server_class))}): "
            f"{markdown.inline(', '.join(parts), 500)}", ""]


def allowlist_lines(test_id: str, now: int, expires: int, max_days: int) -> list[str]:
    """A ready-to-paste allowlist entry (YAML lines; values JSON-quoted, a YAML subset)."""
    return [
        "allowlist:",
        f"  - test_id: {json.dumps(test_id)}",
        "    server_class: free-server",
        '    owner: "@OWNER"        # who will fix it',
        '    reason: "REASON"       # why the free server fails it while local-pinned passes',
        '    issue: "ISSUE-URL"     # where the fix is tracked',
        f"    added: {now}          # {when.utc_date(now)}",
        f"    expires: {expires}        # {when.utc_date(expires)}, within the "
        f"{max_days}-day maximum",
    ]


def allowlist_entry(pair: Pair, now: int, max_days: int) -> list[str]:
    """The allowlist entry a free-server red is told to add (:func:`allowlist_lines`)."""
    return allowlist_lines(pair.test_id, now, t.entry_expiry(pair, now, max_days), max_days)


def _issue_link(issue: object, view: View) -> str:
    if isinstance(issue, int) and not isinstance(issue, bool) and view.server_url \
            and view.repository:
        return markdown.link(f"#{issue}", f"{view.server_url.rstrip('/')}/{view.repository}"
                                          f"/issues/{issue}")
    if isinstance(issue, str) and issue:
        target = markdown.url(issue)
        return markdown.link(issue, target) if target else markdown.inline(issue, 300)
    return "none recorded (add `issue:` to the allowlist entry)"


def _freeze_lines(pair: Pair, now: int, view: View) -> list[str]:
    freeze = pair.freeze
    if freeze is None:
        return []
    expires = freeze.expires
    card = freeze.card_expires
    ends = freeze.ends
    flag = " ⚠️ **expires within 7 days**" if when.soon(ends, now) else ""
    out = [f"- Owner: {markdown.inline(freeze.owner, 256)}",
           f"- Reason: {markdown.inline(freeze.reason, TEXT_CHARS)}",
           f"- Issue: {_issue_link(freeze.issue, view)}",
           f"- Freeze ends: {when.expiry(ends, now)}{flag}"]
    if isinstance(card, int) and card != expires:
        out.append(f"  (sample card {when.expiry(card, now)}; allowlist "
                   f"entry {when.expiry(expires, now)})")
    return out


def next_step(pair: Pair, now: int, max_days: int, view: View) -> list[str]:
    """The next step for a red pair, as Markdown lines (:func:`told_lines`)."""
    return told_lines(tell(pair, now, max_days), view)


def told_lines(told: Told, view: View) -> list[str]:
    """The next step of a told pair as Markdown lines (an earlier attempt's red first)."""
    earlier = remembered_lines(told)
    if told.step is None:
        return earlier
    lines = step_lines(told.step, told.now, view)
    return [*earlier, "", *lines] if earlier else lines


def _card_words(step: t.AllowlistStep, now: int) -> str:
    card = step.card_expires
    match step.card:
        case t.CardExpiry.SET:
            return (f"The sample card already has `freeze_expires_at: {card}` "
                    f"({when.expiry(card or 0, now)}): that is the expiry that counts.")
        case t.CardExpiry.PASSED:
            return (f"The sample card's `freeze_expires_at` ({card}) has passed: set a new one "
                    "(a new card, so a new fixture_hash: re-run both stamp jobs).")
        case t.CardExpiry.MISSING:
            return ("The sample card also needs the field `freeze_expires_at` (Unix seconds, "
                    "no later than `expires`); a changed card is a new card with a new "
                    "fixture_hash, so re-run both stamp jobs afterwards.")


def _freeze_over(step: t.FreezeOverStep, now: int) -> str:
    why = []
    if step.card_missing:
        why.append("the sample card has no `freeze_expires_at`")
    elif step.card_ended is not None:
        why.append(f"the sample card's `freeze_expires_at` {when.expiry(step.card_ended, now)}")
    if step.entry_ended is not None:
        owner, at = step.entry_ended
        why.append(f"the allowlist entry (owner {markdown.inline(owner, 256)}) "
                   f"{when.expiry(at, now)}")
    return "; ".join(why) or "expired"


def _class_step(c: t.ClassCause, first: bool, view: View) -> str | None:
    """A run that did not finish: what to do in its class (None: said already)."""
    cls = markdown.inline(c.server_class)
    if c.above:  # the common cause above says it, and what to do: point there, once
        return (f"**Next step ({cls}):** see the common cause above for {cls}: it says what to "
                "fix and whether a re-run helps." + _own_words(c))
    match c.kind:
        case t.Stuck.COLLECTION if c.blame:
            where = log_link(view, f"the {c.server_class} stamp job's log")
            return (f"**Next step ({cls}):** {markdown.inline(c.blame, TEXT_CHARS)}; {where} "
                    "has pytest's traceback. A re-run fails the same way: push the fix, and "
                    "both stamp jobs run again on the new commit.")
        case t.Stuck.COLLECTION:
            files = markdown.inline(c.files if c.files is not None else "a test file",
                                    TEXT_CHARS)
            env = (f" The {markdown.inline(c.collected_by)} run collected it, so the {cls} "
                   "environment probably lacks a dependency or a file: add it to that "
                   "stamp job's set-up, or fix the import." if c.collected_by else "")
            where = log_link(view, f"the {c.server_class} stamp job's log")
            exited = f" (exit code {c.exit_code})" if c.exit_code is not None else ""
            return (f"**Next step ({cls}):** fix the test collection: {files} failed to "
                    f"collect there{exited}, so no test ran; {where} has the error.{env} A "
                    "re-run fails the same way: push the fix, and both stamp jobs run again on "
                    "the new commit.")
        case t.Stuck.NOT_COLLECTED:
            both = c.both_not_collected
            if both and not first:
                return None  # said once for both classes
            return (f"**Next step{'' if both else f' ({cls})'}:** pytest did not collect "
                    f"this test{' in either class' if both else ' there'}: renamed or removed "
                    "after `gate init`? A re-run fails the same way: run `gate init --add` "
                    "with your test folders (it writes a card and a manifest entry for the new "
                    "name), remove this test's entry and card from the manifest, and commit "
                    "both.")
        case t.Stuck.INTERRUPTED:
            return (f"**Next step ({cls}):** the test session stopped before this test ran "
                    f"({markdown.inline(c.detail, TEXT_CHARS)}: pytest's \"interrupted\"). "
                    "Read the stamp job's log: a collection error (a test file that cannot be "
                    "imported) must be fixed, a re-run fails the same way; only a cancelled run "
                    f"is fixed by re-running the {cls} stamp job.")
        case t.Stuck.DEADLINE if c.other_passed and c.collected_by:
            return (f"**Next step ({cls}):** a test case ran longer than the card's deadline "
                    f"there, and the {markdown.inline(c.collected_by)} run passed on the same "
                    "card, so this runner is the slower one: raise `deadline_ms` in the card "
                    "(reviewed: a new card, so both stamp jobs run again; `null` for none), or "
                    "make the test faster. A re-run helps only if this was a one-off.")
        case t.Stuck.DEADLINE:
            return (f"**Next step ({cls}):** a test case ran longer than the card's deadline "
                    "there. If the other class missed it too, on the same example, a re-run "
                    "fails the same way: make the test faster, or raise `deadline_ms` in the "
                    f"card (a new card; `null` for none). A one-off on a slow runner: re-run "
                    f"the {cls} stamp job.")
        case t.Stuck.NO_REPORT:
            return (f"**Next step ({cls}):** the test command failed before writing a report: "
                    f"{markdown.inline(c.detail, TEXT_CHARS)}. Fix the command (a re-run fails "
                    f"the same way), then re-run the {cls} stamp job.")
        case _:
            return (f"**Next step ({cls}):** cause: {markdown.inline(c.cause, TEXT_CHARS)}. "
                    f"Re-run the {cls} stamp job (it gets a new run id; the card stays the "
                    "same).")


def _unused_entry(step: t.RetryStep, now: int, policy: str) -> str | None:
    """Why the test's allowlist entry does not freeze a run that gave no result."""
    entry = step.unused_entry
    if entry is None:
        return None
    deadline = any(c.kind is t.Stuck.DEADLINE for c in step.causes)
    helps = ("the card's `deadline_ms`, reviewed" if deadline
             else "fixing the cause above")
    return (f"**The allowlist entry for this test does not apply:** {policy} has one (owner "
            f"{markdown.inline(entry.owner, 256)}, expires {when.expiry(entry.ends, now)}), but "
            "a run that gave no result is never frozen: "
            + ("Hypothesis's DeadlineExceeded is its own error, not an assertion result, and "
               if deadline else "")
            + "the stamp gate freezes only a free-server assertion failure beside a green "
            f"local-pinned run. What helps is {helps}.")


def _own_words(c: t.ClassCause) -> str:
    """What a class's step says of this test that its common cause (said of many) does not:
    the other class collected it, or passed on the same card."""
    other = markdown.inline(c.collected_by or "")
    cls = markdown.inline(c.server_class)
    if c.kind is t.Stuck.COLLECTION and not c.blame and c.collected_by:
        return (f" For this test, the {other} run collected it, so the {cls} environment "
                "probably lacks a dependency or a file: add it to that stamp job's set-up, or "
                "fix the import.")
    if c.kind is t.Stuck.DEADLINE and c.other_passed and c.collected_by:
        return (f" For this test, the {other} run passed on the same card, so this runner is "
                "the slower one: raise `deadline_ms` in the card (reviewed: a new card, so "
                "both stamp jobs run again; `null` for none), or make the test faster.")
    return ""


def _retry_lines(step: t.RetryStep, now: int, view: View, policy: str) -> list[str]:
    out: list[str] = []
    if step.causes and all(c.above and not _own_words(c) for c in step.causes):  # one pointer
        classes = " and ".join(dict.fromkeys(markdown.inline(c.server_class)
                                             for c in step.causes))
        many = len({c.server_class for c in step.causes}) > 1
        out.append(f"**Next step:** see the common cause{'s' if many else ''} above for "
                   f"{classes}: {'they say' if many else 'it says'} what to fix and whether a "
                   "re-run helps.")
    for c in step.causes if not out else ():
        said = _class_step(c, not out, view)
        if said is not None:
            out.append(said)
    unused = _unused_entry(step, now, policy)
    if unused is not None and out:
        out.append(unused)
    # one paragraph per class: consecutive lines would render as one (attrs trial)
    return [line for n, said in enumerate(out) for line in ([""] if n else []) + [said]] or [
        "**Next step:** re-run the stamp job of the class that did not finish."]


def step_lines(step: t.Step, now: int, view: View) -> list[str]:
    """One step as Markdown lines."""
    policy = (f"the policy file {span(view.policy_path)}" if view.policy_path
              else "the policy file")
    match step:
        case t.AllowlistStep():
            entry = allowlist_lines(step.test_id, now, step.expires, step.max_days)
            return [f"**Next step:** fix the test or the code so the free server passes it, or "
                    f"— if the free server cannot run this property — freeze it there with a "
                    f"reviewed entry in {policy} (fill in owner, reason and issue; replace its "
                    f"`allowlist: []` line with this, or add the `- test_id:` item under its "
                    f"existing `allowlist:`):", "",
                    *markdown.code_block(entry, "yaml"), "", _card_words(step, now)]
        case t.FreezeOverStep():
            return [f"**Next step:** the freeze is over ({_freeze_over(step, now)}). Fix the "
                    f"free-server failure; only with a review, set a new expiry within the "
                    f"{step.max_days}-day maximum on both the card (a new fixture_hash: re-run "
                    f"both stamp jobs) and the entry in {policy}."]
        case t.HealthCheckStep():
            return health_check_step(step.check)
        case t.RetryStep():
            return _retry_lines(step, now, view, policy)
        case t.LocalRedStep():
            return ["**Next step:** the runner you control is red, so the failure is real: fix "
                    "the code or the property; a free-server green never closes it."
                    + repro_words(step.reproduce)]
        case t.StableStep():
            return ["**Next step:** " + t.STABLE_WORDS[step.kind] + repro_words(step.reproduce)]
        case t.MismatchStep():
            diffs = [f"- {markdown.inline(d, TEXT_CHARS)}" for d in step.diffs]
            extra = (" The generator settings (seed, case count or Hypothesis settings) "
                     "differ." if step.generator else "")
            return ["**Next step:** both stamp jobs must check out the same commit and run the "
                    f"same card and fixtures; re-run both.{extra} What differs:", "",
                    *(diffs or ["- (the report does not say; compare the two stamps)"])]
        case t.MissingStep():
            pattern = f"{view.artifact_prefix or '<prefix>'}-{step.missing}-…"
            return [f"**Next step:** run the {markdown.inline(step.missing)} stamp job for this "
                    f"commit (its artifact {span(pattern)} was not found), or check that its "
                    "manifest names this test."]
        case t.DuplicateStep():
            return ["**Next step:** each stamp job attempt must upload its stamps once; re-run "
                    "the stamp jobs so each class has one conclusive run."]
        case t.UnsignedStep():
            return ["**Next step:** " + UNSIGNED + " The reason above names the artifact and "
                    "the field that failed."]
        case t.FrozenStep():
            freeze = step.freeze
            owner, ends = "the owner", ""
            if freeze is not None:
                owner = f"the owner ({markdown.inline(freeze.owner, 256)})"
                ends = f", {when.expiry(freeze.ends, now)}"
            return ["**Next step:** nothing for this change: the test is frozen by a reviewed "
                    "allowlist entry and its local-pinned run is green. "
                    f"{owner[0].upper()}{owner[1:]} fixes the free-server failure before the "
                    f"freeze ends{ends}; after that this test closes the gate again unless it "
                    "is green."]
        case t.ClassesStep():
            return ["**Next step:** check the stamp jobs' `server-class` inputs and re-run "
                    "them."]


def health_check_step(check: HealthCheck) -> list[str]:
    """The two real ways out of a health check that repeats exactly (never a re-run)."""
    name = check.name or "NAME"
    return ["**Next step:** a re-run draws the same examples from the same card and fails "
            "the same way, so do one of these:", "",
            f"1. **Fix the strategy** so the `{name}` check passes (Hypothesis's words "
            "above say what it saw); the card stays the same.",
            f"2. **Or, reviewed, suppress the check for this test**: add "
            f"`@settings(suppress_health_check=[HealthCheck.{name}])` to the test and "
            f"`\"suppress_health_check\": {t.suppressed_card(check)}` to its card. A changed "
            f"card is a new card (a new fixture_hash): both stamp jobs run again."]


def repro_words(repro: t.Reproduce | None) -> str:
    """The ``@reproduce_failure`` line; for a state machine, where it goes: Hypothesis says
    "on your test function", but a machine's ``TestCase.runTest`` is Hypothesis's own, and
    it reads the decorator from the machine class (pyrsistent trial)."""
    if repro is None:
        return ""
    where = (f" on the state machine class {markdown.code_span(repro.machine, 200)} (not its "
             "`TestCase`)" if repro.machine else "")
    return f" Reproduce locally: {markdown.code_span(repro.line, 500)}{where}"


def log_link(view: View, words_: str) -> str:
    """``words_`` (plain text naming a job's log) linked to the workflow run's page, where the
    jobs and their logs are, when the view knows it."""
    return markdown.link(words_, view.run_url) if view.run_url else words_


def required_lines(pair: Pair) -> list[str]:
    """``test_id=`` and the four SPEC §4 lines, verbatim (safe inside a code block)."""
    return [markdown.code_line(line)
            for line in (f"test_id={pair.test_id}", *report_lines.four_lines(pair),
                         *_stamp_gate(pair))]


def _stamp_gate(pair: Pair) -> list[str]:
    line = report_lines.stamp_gate_line(pair)
    return [line] if line else []


def _details(pair: Pair) -> list[str]:
    lines = required_lines(pair)
    runs = [markdown.code_line(markdown.one_line(
        f"run {r.run_id}: {r.server_class} {r.outcome}"
        + (f" ({r.source})" if r.source else ""))) for r in pair.runs[:8]]
    body = [*lines, *runs]
    fence = markdown.fence_for(body)
    return ["<details><summary>Required fields and runs</summary>", "", f"{fence}text",
            *lines, *runs, fence, "", "</details>"]


def gloss_lines(pair: Pair) -> list[str]:
    """The four required lines in words (issue 29): what ``fixture_sha256`` hashes here, that
    ``failure_class`` and ``freeze_allowed`` are the digest gate's, and which gate decided the
    door."""
    if pair.fixture_path:
        pin = f"the sha256 of the pinned sampler file {markdown.inline(pair.fixture_path, 200)}"
    elif pair.fixture_sha256:
        pin = ("the Hypothesis generator's digest (the card's seed and settings: no sampler "
               "file is pinned, so it changes only with those, not with the test's code)")
    else:
        pin = "none: neither run carried a digest"
    if pair.gate == "stamp":
        door = (f"the stamp gate decided the door (`stamp_gate` line, row {pair.row}: "
                f"{'open' if pair.status != 'rejected' else 'closed'})")
    else:
        door = (f"the {markdown.inline(pair.gate)} step decided the door before the gates "
                "compared any results (closed)")
    return [f"**The required lines below, in words:** `fixture_sha256` is {pin}; "
            "`failure_class` is the digest gate's label of the two runs; `freeze_allowed` is "
            "the digest gate's verdict on harness noise (true only for `harness_flake`), not "
            f"the door: {door}.", ""]


def red_block(pair: Pair, now: int, max_days: int, view: View,
              stated: frozenset[t.CauseKey] = frozenset()) -> list[str]:
    """One red test's block; ``stated``: the causes the common-cause paragraphs above it state
    (:func:`gate.github.told.above`), which the block points to instead of repeating."""
    told = tell(pair, now, max_days, stated)
    status = pair.status
    earlier = {m.run_id: m.attempt for m in pair.remembered or ()}
    check = told.check
    said = told.happened if told.happened_fixed else markdown.inline(told.happened)
    if told.reason:  # the gate's own reason, where it adds to the words (as every sink says)
        said += ": " + markdown.inline(told.reason, TEXT_CHARS)
    out = [f"#### {ICON.get(status, '')} {test_link(pair, view)} — {markdown.inline(status)}",
           "", f"**What happened:** {said}.", "",
           "Runs: " + (' · '.join(_run_line(r) for r in told.runs) or 'none'), ""]
    if not isinstance(told.step, t.RetryStep):  # an entry that does not apply: said below
        out += _freeze_lines(pair, now, view)
    if out[-1] != "":
        out.append("")
    if check is not None:  # one check, one text: said once, not once per class
        out += _health_check_lines(check, pair.runs[0])
    shown: list[Run] = []
    for run in pair.runs[:4] if check is None else ():
        same = next((r for r in shown if t.same_failure(r, run)), None)
        if same is not None:  # byte for byte what another class printed: say so, once
            out += [f"{t.same_words(run, same, markdown.inline)} (and the same Hypothesis "
                    "settings).", ""]
            continue
        out += _failure_lines(run)
        if run.failure is not None:
            out += _hypothesis_line(run)
            shown.append(run)
    silent = [str(r.server_class) for r in pair.runs[:4]
              if r.outcome == "assert_fail" and r.failure is None
              and str(r.run_id) not in earlier]
    if silent:
        who = markdown.inline(" and ".join(silent))
        one = len(silent) == 1
        logs = log_link(view, "the stamp job's log" if one else "the stamp jobs' logs")
        out += [f"The {who} stamp{'' if one else 's'} carr{'ies' if one else 'y'} no failure "
                f"message: {logs} ha{'s' if one else 've'} the assertion.", ""]
    out += [*told_lines(told, view), "", *gloss_lines(pair), *_details(pair), ""]
    return out


def counts_lines(report: Report) -> list[str]:
    """What happened in words, one line per (status, action) with its count, reds first (this
    replaces the old Mermaid diagram)."""
    pairs = list(report.pairs)
    if not pairs:
        return ["No tests were classified."]
    by: Counter[tuple[str, str]] = Counter((str(p.status), words_md(p)) for p in pairs)
    order = {"rejected": 0, "frozen": 1, "accepted": 2}
    return [f"- {ICON.get(status, '')} **{n} {markdown.inline(status)}**: {text}" for
            (status, text), n in
            sorted(by.items(), key=lambda kv: (order.get(kv[0][0], 3), -kv[1], kv[0][1]))]


def counts_sentence(report: Report) -> str:
    return "\n".join(counts_lines(report))


def common_causes(report: Report) -> list[str]:
    """One line per cause shared by two or more runs that did not finish (so nine identical
    reds read as one problem first)."""
    out = []
    for common in t.common_causes(report.pairs, report.now):
        cls, cause, kind, n = common.server_class, common.detail, common.kind, common.count
        what, then = COMMON_CAUSE.get(kind, COMMON_CAUSE[None])
        if kind == t.Stuck.COLLECTION and outcomes.BREAKS_IMPORTING in cause:
            then = BROKEN_IMPORT_THEN  # the cause names the file to fix already
        out.append(f"**Common cause — {n} tests:** in {markdown.inline(cls)}, {what}: "
                   f"{markdown.inline(cause, TEXT_CHARS)}. "
                   + then.format(cls=markdown.inline(cls)))
    return [line for item in out for line in (item, "")]


#: After a common cause that names the repository module whose import broke the collection.
BROKEN_IMPORT_THEN = ("The {cls} stamp job's log has pytest's traceback; a re-run fails the "
                      "same way: push the fix.")
#: Per :func:`stuck_kind`: what the common cause is, and what to do about it.
COMMON_CAUSE: dict[str | None, tuple[str, str]] = {
    "collection": ("no test ran", "Fix the test collection (see the {cls} "
                   "stamp job's log); a re-run fails the same way."),
    "no_report": ("the test command failed before writing a report",
                  "Fix that, then re-run the {cls} stamp job."),
    "interrupted": ("the test session stopped before these tests ran",
                    "Read the {cls} stamp job's log: fix a collection error (a re-run fails "
                    "the same way); re-run only a cancelled job."),
    "deadline": ("test cases ran longer than the cards' deadline",
                 "Make them faster or raise `deadline_ms` in their cards; re-run the {cls} "
                 "stamp job only for a one-off slow runner."),
    "not_collected": ("the tests were not collected (renamed or removed after `gate init`?)",
                      "Run `gate init --add` for the new names and remove the old entries; a "
                      "re-run fails the same way."),
    "health_check": ("the same Hypothesis health check failed on the same cards",
                     "Deterministic, a re-run cannot pass: fix the strategies, or (reviewed) "
                     "suppress the check in the tests' `@settings` and their cards."),
    None: ("the run did not finish", "Fix that, then re-run the {cls} stamp job."),
}


def _frozen_tail(report: Report, frozen: int) -> str:
    """An open gate with frozen tests (check run ``neutral``): how many, and when the first
    reviewed freeze ends (the gate closes then unless the test is fixed)."""
    ends = [p.freeze.ends for p in report.pairs
            if p.status == "frozen" and p.freeze is not None]
    words = f"{frozen} frozen test{'s' if frozen != 1 else ''}"
    if not ends:
        return f"{words} (reviewed freeze{'s' if frozen != 1 else ''})"
    first = when.expiry(min(ends), report.now)
    if frozen == 1:
        return f"{words} (reviewed freeze, ends {first})"
    return f"{words} (reviewed freezes, the first ends {first})"


def _ungated_tail(report: Report) -> str:
    """`` · 2 Hypothesis tests ungated`` for the headline (gate/github/ungated.py), or empty."""
    section = report.ungated
    if section is None:
        return ""
    count = section.count
    return f" · {count} Hypothesis test{'s' if count != 1 else ''} ungated"


def headline(report: Report, view: View, level: str = "##") -> list[str]:
    decision = report.decision
    counts = report.counts
    red = counts.rejected + counts.frozen
    total = red + counts.accepted
    frozen = counts.frozen
    icon = "❌" if decision != "open" else "🧊" if frozen else "✅"
    if decision == "open" and frozen:  # the check run is neutral: say why it is open anyway
        tail = _frozen_tail(report, frozen)
    else:
        tail = (f"{red} of {total} tests need attention" if red
                else f"all {total} tests green in both classes" if total else "no tests")
    tail += _ungated_tail(report)
    out = [f"{level} {icon} agent-patch gate: {markdown.inline(decision)} — {tail}", "",
           f"**{counts.rejected} rejected · {counts.frozen} "
           f"frozen · {counts.accepted} accepted** · decided "
           f"{when.utc_date(report.now)}", "", *counts_lines(report), "",
           *common_causes(report)]
    links = []
    if view.check_run_url:
        links.append(f"Check run: {markdown.link('details', view.check_run_url)}")
    if view.report_artifact:
        where = markdown.link("the run's artifacts", view.run_url) if view.run_url \
            else "this run's artifacts"
        links.append(f"JSON report: artifact {span(view.report_artifact)} in {where}")
    if links:
        out += [" · ".join(links), ""]
    return out


def green_lines(pairs: Sequence[Pair], view: View, room: int,
                collapse_over: int = 5, max_lines: int | None = None) -> list[str]:
    """The accepted tests, one compact line each, within ``room`` bytes, collapsed when there
    are more than ``collapse_over``; a sentence says how many are not listed."""
    if not pairs:
        return []
    # an h4, as each red test's heading: a red never reads smaller than the greens (issue 29)
    head = [f"#### ✅ {len(pairs)} accepted (green in both server classes)", ""]
    collapsed = len(pairs) > collapse_over
    if collapsed:
        head += [f"<details><summary>{len(pairs)} accepted tests</summary>", ""]
    tail = ["", "</details>", ""] if collapsed else [""]
    used = _bytes(head) + _bytes(tail) + 300
    items: list[str] = []
    for index, pair in enumerate(pairs):
        line = f"- {test_link(pair, view).strip('*')}"
        if used + _bytes([line]) > room or (max_lines is not None and index >= max_lines):
            left = len(pairs) - index
            items += ["", f"{left} more accepted test{'s are' if left != 1 else ' is'} not "
                      "listed here (size limit); the JSON report has every test."]
            break
        items.append(line)
        used += _bytes([line])
    if used > room:
        return [f"{len(pairs)} accepted tests are not listed here (size limit); the JSON report "
                "has every test.", ""]
    return [*head, *items, *tail]


def _bytes(lines: Sequence[str]) -> int:
    return sum(markdown.utf8_len(line) + 1 for line in lines)


def red_blocks(report: Report, view: View, room: int) -> tuple[list[str], int]:
    """Red blocks within ``room`` bytes (whole blocks only), and how many were left out."""
    now = report.now
    max_days = int(report.max_freeze_days or DEFAULT_MAX_FREEZE_DAYS)
    reds = ordered_reds(list(report.pairs))
    stated = t.above(report.pairs, now)  # every sink that shows red blocks shows these above
    out: list[str] = []
    used = 400
    for index, pair in enumerate(reds):
        block = red_block(pair, now, max_days, view, stated)
        if used + _bytes(block) > room:
            left = len(reds) - index
            out += [f"**{left} more red test{'s are' if left != 1 else ' is'} not shown here "
                    "(size limit); the JSON report and the annotations have all of them.**", ""]
            return out, left
        out += block
        used += _bytes(block)
    return out, 0
