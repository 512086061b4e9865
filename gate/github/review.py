"""The reviewer's view of a report (pure): what is red, why, and the next step.

Shared by the job summary (:mod:`gate.github.summary`), the check run
(:mod:`gate.github.checks`), the pull-request comment and the gate job's log. Everything from a
record is escaped for its sink here (:mod:`gate.github.markdown` for Markdown,
:func:`gate.github.workflow.log_line` for log lines). The clock is the report's ``now``.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gate.decide import digest, when
from gate.decide import outcome as outcomes
from gate.github import markdown, workflow
from gate.records import report as report_lines
from gate.records.report_data import (
    ABSENT,
    Failure,
    JudgeFile,
    Location,
    Pair,
    Remembered,
    Report,
    Run,
)

RETRY_OUTCOMES = ("resource_exit", "empty_body")
DEFAULT_MAX_FREEZE_DAYS = 30
TEST_CHARS = 300
TEXT_CHARS = 2000
EXAMPLE_LINES = 40
LOCAL, FREE = "local-pinned", "free-server"
ICON = {"accepted": "✅", "frozen": "🧊", "rejected": "❌"}
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


def remembered(pair: Pair) -> list[Remembered]:
    """The earlier attempts' reds a pair shows (one per attempt and class)."""
    seen: set[tuple[int, str]] = set()
    out = []
    for memo in pair.remembered or ():
        if (memo.attempt, memo.server_class) not in seen:
            seen.add((memo.attempt, memo.server_class))
            out.append(memo)
    return out


def _fix_words(server_class: object) -> str:
    return ("push a fix or freeze it via the allowlist" if server_class == FREE
            else "push a fix (a local-pinned red is never frozen)")


def remembered_lines(pair: Pair) -> list[str]:
    """Markdown: "attempt N was red on <class> (its check run); a full re-run does not hide a
    red", one line per earlier attempt and class."""
    return [f"**Next step:** attempt {m.attempt} was red on "
            f"{markdown.inline(str(m.server_class))} "
            f"({markdown.link('its check run', m.check_run_url)}); a full "
            f"re-run does not hide a red: {_fix_words(m.server_class)}."
            for m in remembered(pair)]


def remembered_plain(pair: Pair) -> str:
    """:func:`remembered_lines` as plain text (annotations), with the check runs' URLs."""
    return " ".join(f"Attempt {m.attempt} was red on {m.server_class} (check run "
                    f"{m.check_run_url}); a full re-run does not hide a red: "
                    f"{_fix_words(m.server_class)}." for m in remembered(pair))


def words(pair: Pair) -> str:
    action = str(pair.action)
    if action == "reject_duplicate_stamps" and remembered(pair):
        return REMEMBERED_WORDS
    if action == "reject_run_retry_new_id":
        kind = pair_stuck_kind(pair)
        if kind is not None:
            return STUCK_WORDS[kind]
    return WORDS.get(action, action.replace("_", " "))


def words_md(pair: Pair) -> str:
    """:func:`words` for Markdown: the fixed phrases are plain text; anything else escaped."""
    action = str(pair.action)
    return words(pair) if action in WORDS or words(pair) == REMEMBERED_WORDS \
        else markdown.inline(words(pair))


def ordered_reds(pairs: Sequence[Pair]) -> list[Pair]:
    """Rejected, then frozen, each in report (test id) order."""
    return ([p for p in pairs if p.status == "rejected"]
            + [p for p in pairs if p.status == "frozen"])


def greens(pairs: Sequence[Pair]) -> list[Pair]:
    return [p for p in pairs if p.status == "accepted"]


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


def _failure_dict(run: Run) -> dict[str, object]:
    """The run's failure as the digest gate reads it (empty: none)."""
    return run.failure.to_dict() if run.failure is not None else {}


def _exit_code(run: Run) -> int | None:
    """The exit code, None when the stamp has none or the run was killed by a signal."""
    return run.exit_code if isinstance(run.exit_code, int) else None


def _cause(run: Run, outcome: bool = True) -> str:
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


def _no_report(run: Run) -> bool:
    note = str(run.note or "").lower()
    return "no junit report" in note or ("not written" in note and "report" in note)


def stuck_kind(run: Run) -> str | None:
    """Why a run that gave no result would give none again on a re-run, from its stamp:
    ``collection`` (the report holds a collection failure: a test file cannot be imported),
    ``no_report`` (the command failed before writing a report), ``interrupted`` (pytest's exit
    status 2 and the test not in the report: a collection error, or a cancelled run; the
    plugin route cannot tell which), or None (a timeout, a kill, a flaky run: re-run it)."""
    if run.outcome not in RETRY_OUTCOMES:
        return None
    note = str(run.note or "")
    if outcomes.COLLECTION_NOTE in note:
        return "collection"
    if _no_report(run):
        return "no_report"
    if note == outcomes.NOT_IN_REPORT and run.exit_code == 2:
        return "interrupted"
    if note.startswith(DEADLINE_NOTE):
        return "deadline"
    if note.startswith(outcomes.NOT_COLLECTED_PREFIX):  # the pytest routes' missing test
        return "not_collected"
    return None


#: How :func:`gate.decide.outcome.hypothesis_note` starts for a deadline miss.
DEADLINE_NOTE = "hypothesis.errors.DeadlineExceeded"


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


def pair_stuck_kind(pair: Pair) -> str | None:
    if repeated_health_check(pair) is not None:
        return "health_check"
    kinds = {stuck_kind(r) for r in pair.runs}
    return next((k for k in STUCK_WORDS if k in kinds), None)


def _run_line(run: Run, attempt: int | None = None,
              check: HealthCheck | None = None) -> str:
    outcome = str(run.outcome)
    if check is not None:  # the same health check in both classes: said once, below
        code = _exit_code(run)
        exited = f"; exit code {code}" if code is not None else ""
        return "❌ " + markdown.inline(
            f"{run.server_class}: no result (health check "
            f"{check.name or 'failed'}){exited}", TEXT_CHARS)
    icon = "✅" if outcome == "pass" else "❌"
    text = f"{run.server_class}: {OUTCOME_WORDS.get(outcome, outcome)}"
    if attempt is not None:  # remembered from an earlier attempt's check run
        text = f"{run.server_class} (attempt {attempt}): " \
               f"{OUTCOME_WORDS.get(outcome, outcome)}"
    if stuck_kind(run) == "not_collected":  # the next step says what the note says
        text = f"{run.server_class}: no result (not collected)"
    elif outcome in RETRY_OUTCOMES and stuck_kind(run) is not None:
        text = f"{run.server_class}: no result ({outcome.replace('_', ' ')}); " \
               f"{_cause(run, False)}"
    elif outcome in RETRY_OUTCOMES:
        text = f"{run.server_class}: {_cause(run)}"
    elif outcome == "assert_fail" and run.exit_code is not ABSENT:
        code = _exit_code(run)
        text += f" (exit code {code})" if code is not None else ""
    return f"{icon} {markdown.inline(text, TEXT_CHARS)}"


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


def _comparable(failure: Failure) -> dict[str, object]:
    """A failure's fields with object addresses replaced (:func:`digest.without_addresses`, as
    the failure digest reads them): another process prints other addresses for one object."""
    return {k: digest.without_addresses(v) if isinstance(v, str) else v
            for k, v in failure.to_dict().items()}


def _same_failure(first: Run, second: Run) -> bool:
    """Two runs' failure and Hypothesis settings are the same (what a red block would print
    for each), object addresses aside."""
    return (first.failure is not None and second.failure is not None
            and _comparable(first.failure) == _comparable(second.failure)
            and first.hypothesis == second.hypothesis)


def _same_words(run: Run, same: Run,
                name: Callable[[str], str]) -> str:
    """"CLASS: the same failure on the same example as OTHER", each class name through
    ``name`` (the sink's escaper), and when only object addresses differ, that they do."""
    words = (f"{name(str(run.server_class))}: the same failure on the same example "
             f"as {name(str(same.server_class))}")
    if run.failure != same.failure:
        words += " (but for object addresses, which differ between processes)"
    return words


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


def _reproduce(pair: Pair) -> str | None:
    for run in pair.runs:
        value = run.failure.reproduce if run.failure is not None else None
        if isinstance(value, str) and value.strip():
            return value
    return None


def suggested_expiry(now: int, max_days: int) -> int:
    """The last UTC midnight within ``max_days`` of ``now`` (never after the maximum)."""
    return (now + max_days * when.DAY) // when.DAY * when.DAY


def allowlist_entry(pair: Pair, now: int, max_days: int) -> list[str]:
    """A ready-to-paste allowlist entry (YAML lines; values JSON-quoted, a YAML subset)."""
    expires = suggested_expiry(now, max_days)
    card = pair.card_expires
    if isinstance(card, int) and now < card < expires:
        expires = card  # the card's expiry is the one that counts; never promise longer
    return [
        "allowlist:",
        f"  - test_id: {json.dumps(str(pair.test_id))}",
        "    server_class: free-server",
        '    owner: "@OWNER"        # who will fix it',
        '    reason: "REASON"       # why the free server fails it while local-pinned passes',
        '    issue: "ISSUE-URL"     # where the fix is tracked',
        f"    added: {now}          # {when.utc_date(now)}",
        f"    expires: {expires}        # {when.utc_date(expires)}, within the "
        f"{max_days}-day maximum",
    ]


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
    """The next step for a red pair, as Markdown lines (an earlier attempt's red first)."""
    if remembered(pair):
        if pair.action == "reject_duplicate_stamps":
            return remembered_lines(pair)
        return [*remembered_lines(pair), "", *_next_step(pair, now, max_days, view)]
    return _next_step(pair, now, max_days, view)


def _next_step(pair: Pair, now: int, max_days: int, view: View) -> list[str]:
    action = str(pair.action)
    policy = (f"the policy file {span(view.policy_path)}" if view.policy_path
              else "the policy file")
    if action == "reject_not_allowlisted":
        card = pair.card_expires
        entry = allowlist_entry(pair, now, max_days)
        if isinstance(card, int) and card > now:
            card_words = (f"The sample card already has `freeze_expires_at: {card}` "
                          f"({when.expiry(card, now)}): that is the expiry "
                          "that counts.")
        elif isinstance(card, int):
            card_words = (f"The sample card's `freeze_expires_at` ({card}) has passed: set a "
                          "new one (a new card, so a new fixture_hash: re-run both stamp jobs).")
        else:
            card_words = ("The sample card also needs the field `freeze_expires_at` (Unix "
                          "seconds, no later than `expires`); a changed card is a new card with "
                          "a new fixture_hash, so re-run both stamp jobs afterwards.")
        return [f"**Next step:** fix the test or the code so the free server passes it, or — "
                f"if the free server cannot run this property — freeze it there with a "
                f"reviewed entry in {policy} (fill in owner, reason and issue; replace its "
                f"`allowlist: []` line with this, or add the `- test_id:` item under its "
                f"existing `allowlist:`):", "",
                *markdown.code_block(entry, "yaml"), "", card_words]
    if action == "reject_freeze_expired":
        freeze = pair.freeze
        card = pair.card_expires
        why = []
        if not isinstance(card, int):
            why.append("the sample card has no `freeze_expires_at`")
        elif card <= now:
            why.append(f"the sample card's `freeze_expires_at` "
                       f"{when.expiry(card, now)}")
        if freeze is not None and freeze.expires <= now:
            why.append(f"the allowlist entry (owner "
                       f"{markdown.inline(freeze.owner, 256)}) "
                       f"{when.expiry(freeze.expires, now)}")
        return [f"**Next step:** the freeze is over ({'; '.join(why) or 'expired'}). Fix the "
                f"free-server failure; only with a review, set a new expiry within the "
                f"{max_days}-day maximum on both the card (a new fixture_hash: re-run both "
                f"stamp jobs) and the entry in {policy}."]
    check = repeated_health_check(pair) if action == "reject_run_retry_new_id" else None
    if check is not None:
        return health_check_step(check)
    if action == "reject_run_retry_new_id":
        out: list[str] = []
        for run in pair.runs:
            if run.outcome not in RETRY_OUTCOMES:
                continue
            cls = markdown.inline(str(run.server_class))
            kind = stuck_kind(run)
            if kind == "collection":
                found = _UNCOLLECTED.search(str(run.note or ""))
                files = markdown.inline(found.group(1) if found else "a test file", TEXT_CHARS)
                code = _exit_code(run)
                others = [str(r.server_class) for r in pair.runs
                          if r is not run and r.outcome in ("pass", "assert_fail")]
                env = (f" The {markdown.inline(others[0])} run collected it, so the {cls} "
                       "environment probably lacks a dependency or a file: add it to that "
                       "stamp job's set-up, or fix the import." if others else "")
                where = log_link(view, f"the {run.server_class} stamp job's log")
                exited = f" (exit code {code})" if code is not None else ""
                out.append(f"**Next step ({cls}):** fix the test collection: {files} failed to "
                           f"collect there{exited}, so no test ran; {where} has the error."
                           f"{env} A re-run fails the same way: push the fix, and both stamp "
                           "jobs run again on the new commit.")
            elif kind == "not_collected":
                both = all(stuck_kind(r) == "not_collected" for r in pair.runs)
                if both and out:
                    continue  # said once for both classes
                out.append(f"**Next step{'' if both else f' ({cls})'}:** pytest did not collect "
                           f"this test{' in either class' if both else ' there'}: renamed or "
                           "removed after `gate init`? A re-run fails the same way: run "
                           "`gate init --add` with your test folders (it writes a card and a "
                           "manifest entry for the new name), remove this test's entry and "
                           "card from the manifest, and commit both.")
            elif kind == "interrupted":
                out.append(f"**Next step ({cls}):** the test session stopped before this test "
                           f"ran ({markdown.inline(_cause(run, False), TEXT_CHARS)}: pytest's "
                           "\"interrupted\"). Read the stamp job's log: a collection error "
                           "(a test file that cannot be imported) must be fixed, a re-run fails "
                           f"the same way; only a cancelled run is fixed by re-running the {cls} "
                           "stamp job.")
            elif kind == "deadline":
                out.append(f"**Next step ({cls}):** a test case ran longer than the card's "
                           "deadline there. If the other class missed it too, on the same "
                           "example, a re-run fails the same way: make the test faster, or "
                           "raise `deadline_ms` in the card (a new card; `null` for none). A "
                           f"one-off on a slow runner: re-run the {cls} stamp job.")
            elif kind == "no_report":
                out.append(f"**Next step ({cls}):** the test command failed before writing a "
                           f"report: {markdown.inline(_cause(run, False), TEXT_CHARS)}. Fix the "
                           f"command (a re-run fails the same way), then re-run the {cls} "
                           "stamp job.")
            else:
                out.append(f"**Next step ({cls}):** cause: "
                           f"{markdown.inline(_cause(run), TEXT_CHARS)}. Re-run the {cls} "
                           "stamp job (it gets a new run id; the card stays the same).")
        # one paragraph per class: consecutive lines would render as one (attrs trial)
        return [line for n, step in enumerate(out) for line in ([""] if n else []) + [step]] or [
            "**Next step:** re-run the stamp job of the class that did not finish."]
    if action == "reject_cross_class_pass":
        return ["**Next step:** the runner you control is red, so the failure is real: fix "
                "the code or the property; a free-server green never closes it."
                + _repro_words(pair)]
    if action == "reject_stable_fail":
        return ["**Next step:** " + stable_step(pair) + _repro_words(pair)]
    if action == "reject_fixture_mismatch":
        diffs = [f"- {markdown.inline(str(d), TEXT_CHARS)}" for d in (pair.mismatch or ())]
        generator = any(str(d).startswith(("sample card seed", "sample card cases",
                                           "Hypothesis setting"))
                        for d in (pair.mismatch or ()))
        extra = (" The generator settings (seed, case count or Hypothesis settings) differ."
                 if generator else "")
        return ["**Next step:** both stamp jobs must check out the same commit and run the same "
                f"card and fixtures; re-run both.{extra} What differs:", "",
                *(diffs or ["- (the report does not say; compare the two stamps)"])]
    if action == "reject_missing_stamp":
        present = {str(r.server_class) for r in pair.runs}
        missing = [c for c in (LOCAL, FREE) if c not in present] or ["other"]
        pattern = f"{view.artifact_prefix or '<prefix>'}-{missing[0]}-…"
        return [f"**Next step:** run the {markdown.inline(missing[0])} stamp job for this "
                f"commit (its artifact {span(pattern)} was not found), or check "
                "that its manifest names this test."]
    if action == "reject_duplicate_stamps":
        return ["**Next step:** each stamp job attempt must upload its stamps once; re-run the "
                "stamp jobs so each class has one conclusive run."]
    if action == "reject_unsigned_stamp":
        return ["**Next step:** " + PLAIN_STEPS[action] + " The reason above names the "
                "artifact and the field that failed."]
    if action == "freeze_inside_server_class":
        freeze = pair.freeze
        owner, ends = "the owner", ""
        if freeze is not None:
            owner = f"the owner ({markdown.inline(freeze.owner, 256)})"
            ends = f", {when.expiry(freeze.ends, now)}"
        return ["**Next step:** nothing for this change: the test is frozen by a reviewed "
                "allowlist entry and its local-pinned run is green. "
                f"{owner[0].upper()}{owner[1:]} fixes the free-server failure before the freeze "
                f"ends{ends}; after that this test closes the gate again unless it is green."]
    return ["**Next step:** check the stamp jobs' `server-class` inputs and re-run them."]


def _suppressed_card(check: HealthCheck) -> str:
    names = sorted({*check.suppressed, *([check.name] if check.name else [])})
    return json.dumps(names)


def health_check_step(check: HealthCheck) -> list[str]:
    """The two real ways out of a health check that repeats exactly (never a re-run)."""
    name = check.name or "NAME"
    return ["**Next step:** a re-run draws the same examples from the same card and fails "
            "the same way, so do one of these:", "",
            f"1. **Fix the strategy** so the `{name}` check passes (Hypothesis's words "
            "above say what it saw); the card stays the same.",
            f"2. **Or, reviewed, suppress the check for this test**: add "
            f"`@settings(suppress_health_check=[HealthCheck.{name}])` to the test and "
            f"`\"suppress_health_check\": {_suppressed_card(check)}` to its card. A changed "
            f"card is a new card (a new fixture_hash): both stamp jobs run again."]


def health_check_plain(check: HealthCheck) -> str:
    """:func:`health_check_step` as one plain-text paragraph (annotations, log lines)."""
    name = check.name or "NAME"
    return (f"Cause: Hypothesis health check {name} failed in both classes with the same text "
            f"on the same card ({check.summary}). Deterministic: a re-run cannot pass. Next "
            f"step: fix the strategy, or (reviewed) add "
            f"@settings(suppress_health_check=[HealthCheck.{name}]) to the test and "
            f"\"suppress_health_check\": {_suppressed_card(check)} to its card (a new card).")


_UNCOLLECTED = re.compile(re.escape(outcomes.COLLECTION_NOTE) + r" \((.*)\)$")


def log_link(view: View, words_: str) -> str:
    """``words_`` (plain text naming a job's log) linked to the workflow run's page, where the
    jobs and their logs are, when the view knows it."""
    return markdown.link(words_, view.run_url) if view.run_url else words_


def stable_step(pair: Pair) -> str:
    """The next step for a red in both classes, worded by the digest gate's label: only
    ``property_miss`` says both runners failed the same way."""
    label = str(pair.failure_class)
    if label == "property_miss":
        return ("a real property miss (red on both runners, on the same input): fix the code "
                "or the property.")
    if label == "fixture_drift":
        return ("red on both runners, but their inputs differ (fixture_drift): fix the code "
                "or the property, and check that both stamp jobs pin the same fixture.")
    examples = [r.failure.example if r.failure is not None else None for r in pair.runs]
    if len(examples) >= 2 and all(isinstance(e, str) and e for e in examples):
        return ("red on both runners, on different falsifying examples "
                "(failure_class=unclassified): fix the code or the property (it may fail on "
                "more than one input).")
    return ("red on both runners: fix the code or the property. The gate cannot tell whether "
            "both failed the same way (failure_class=unclassified: the stamps carry no "
            "falsifying example to compare).")


#: A state machine's falsifying example opens with its header and ``state = Machine()``.
_MACHINE = re.compile(r"\A(?:Failing|Falsifying) [^\n]*<state machine>\n"
                      r"state = ([A-Za-z_]\w*)\(\)$", re.M)


def _machine(pair: Pair) -> str | None:
    """The state machine class a stateful red's example names, if it is one."""
    for run in pair.runs:
        example = run.failure.example if run.failure is not None else None
        found = _MACHINE.match(example) if isinstance(example, str) else None
        if found:
            return found.group(1)
    return None


def _repro_words(pair: Pair) -> str:
    """The ``@reproduce_failure`` line; for a state machine, where it goes: Hypothesis says
    "on your test function", but a machine's ``TestCase.runTest`` is Hypothesis's own, and
    it reads the decorator from the machine class (pyrsistent trial)."""
    repro = _reproduce(pair)
    if not repro:
        return ""
    machine = _machine(pair)
    where = (f" on the state machine class {markdown.code_span(machine, 200)} (not its "
             "`TestCase`)" if machine else "")
    return f" Reproduce locally: {markdown.code_span(repro, 500)}{where}"


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


def red_block(pair: Pair, now: int, max_days: int, view: View) -> list[str]:
    status = str(pair.status)
    earlier = {m.run_id: m.attempt for m in pair.remembered or ()}
    check = repeated_health_check(pair)
    out = [f"#### {ICON.get(status, '')} {test_link(pair, view)} — {markdown.inline(status)}",
           "", f"**What happened:** {words_md(pair)}.", "",
           "Runs: " + (' · '.join(_run_line(r, earlier.get(str(r.run_id)), check)
                                  for r in pair.runs[:4]) or 'none'), ""]
    out += _freeze_lines(pair, now, view)
    if out[-1] != "":
        out.append("")
    if check is not None:  # one check, one text: said once, not once per class
        out += _health_check_lines(check, pair.runs[0])
    shown: list[Run] = []
    for run in pair.runs[:4] if check is None else ():
        same = next((r for r in shown if _same_failure(r, run)), None)
        if same is not None:  # byte for byte what another class printed: say so, once
            out += [f"{_same_words(run, same, markdown.inline)} (and the same Hypothesis "
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
    out += [*next_step(pair, now, max_days, view), "", *_details(pair), ""]
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
    groups: Counter[tuple[str, str, str | None]] = Counter()
    for pair in report.pairs:
        if pair.action != "reject_run_retry_new_id":
            continue
        check = repeated_health_check(pair)
        if check is not None:  # one cause for the pair, in both classes
            groups[("both classes", f"Hypothesis health check {check.name} failed the same "
                    "way", "health_check")] += 1
            continue
        for run in pair.runs:
            if run.outcome in RETRY_OUTCOMES:
                groups[(str(run.server_class), _cause(run, False),
                        stuck_kind(run))] += 1
    out = []
    for (cls, cause, kind), n in sorted(groups.items(), key=lambda kv: -kv[1]):
        if n < 2:
            continue
        what, then = COMMON_CAUSE.get(kind, COMMON_CAUSE[None])
        out.append(f"**Common cause — {n} tests:** in {markdown.inline(cls)}, {what}: "
                   f"{markdown.inline(cause, TEXT_CHARS)}. "
                   + then.format(cls=markdown.inline(cls)))
    return [line for item in out for line in (item, "")]


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
    head = [f"### ✅ {len(pairs)} accepted (green in both server classes)", ""]
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
    out: list[str] = []
    used = 400
    for index, pair in enumerate(reds):
        block = red_block(pair, now, max_days, view)
        if used + _bytes(block) > room:
            left = len(reds) - index
            out += [f"**{left} more red test{'s are' if left != 1 else ' is'} not shown here "
                    "(size limit); the JSON report and the annotations have all of them.**", ""]
            return out, left
        out += block
        used += _bytes(block)
    return out, 0


def log_lines(report: Report) -> list[str]:
    """One plain log line per rejected and frozen test, escaped for the log."""
    out = []
    for pair in ordered_reds(list(report.pairs)):
        cause = ""
        if pair.action == "reject_run_retry_new_id":
            cause = " " + plain_next_step(pair, report.now, 0)
        elif remembered(pair):
            cause = " " + remembered_plain(pair)
        out.append(workflow.log_line(
            f"gate: {pair.status}: {pair.test_id}: {pair.action}"
            f" ({words(pair)}){cause}"))
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


def plain_next_step(pair: Pair, now: int, max_days: int) -> str:
    """A one-paragraph plain-text next step (for annotations)."""
    if remembered(pair):
        if pair.action == "reject_duplicate_stamps":
            return "Next step: " + remembered_plain(pair)
        return f"{remembered_plain(pair)} {_plain_next_step(pair, now, max_days)}"
    return _plain_next_step(pair, now, max_days)


def _plain_next_step(pair: Pair, now: int, max_days: int) -> str:
    action = str(pair.action)
    if action == "reject_not_allowlisted":
        until = suggested_expiry(now, max_days)
        return (f"Next step: fix it, or add an allowlist entry for this test in free-server "
                f"(owner, reason, issue, expires at most {max_days} days ahead, e.g. "
                f"{when.utc_date(until)}, written as expires: {until}) and the card field "
                "freeze_expires_at; "
                "see the job summary.")
    if action == "reject_run_retry_new_id":
        causes = [f"{r.server_class}: "
                  + ("the test command failed before writing a report: "
                     + _cause(r, False) if _no_report(r)
                     else _cause(r, stuck_kind(r) is None))
                  for r in pair.runs if r.outcome in RETRY_OUTCOMES]
        kind = pair_stuck_kind(pair)
        check = repeated_health_check(pair)
        if check is not None:
            return health_check_plain(check)
        if kind == "collection":
            return (f"Cause: {'; '.join(causes)}. Next step: fix the test collection (see the "
                    "stamp job's log); a re-run fails the same way.")
        if kind == "not_collected":
            return (f"Cause: {'; '.join(causes)}. Next step: gate init --add names the new "
                    "test; remove the old entry and its card; a re-run fails the same way.")
        if kind == "interrupted":
            return (f"Cause: {'; '.join(causes)}. Next step: read the stamp job's log; fix a "
                    "collection error (a re-run fails the same way), re-run only a cancelled "
                    "job.")
        if kind == "deadline":
            return (f"Cause: {'; '.join(causes)}. Next step: make the test faster or raise "
                    "deadline_ms in its card (a new card); a re-run helps only a one-off slow "
                    "runner.")
        classes = sorted({str(r.server_class) for r in pair.runs
                          if r.outcome in RETRY_OUTCOMES})
        return (f"Cause: {'; '.join(causes)}. Next step: re-run the {' and '.join(classes)} "
                "stamp job" + ("s" if len(classes) > 1 else "") + " after fixing the cause.")
    if action == "freeze_inside_server_class":
        freeze = pair.freeze
        if freeze is not None:
            return (f"Frozen: owner {freeze.owner}; ends "
                    f"{when.expiry(freeze.expires, now)}.")
    if action == "reject_stable_fail":
        return "Next step: " + stable_step(pair)
    return "Next step: " + PLAIN_STEPS.get(action, "check the stamp jobs' server-class inputs "
                                                    "and re-run them.")


PLAIN_STEPS = {
    "reject_freeze_expired": "the freeze is over: fix the free-server failure, or (reviewed) set "
                             "a new expiry on the card and the allowlist entry.",
    "reject_cross_class_pass": "the runner you control is red, so the failure is real: fix the "
                               "code or the property.",
    "reject_fixture_mismatch": "both stamp jobs must run the same commit, card and fixtures; "
                               "re-run both (the job summary says what differs).",
    "reject_missing_stamp": "run the missing class's stamp job for this commit.",
    "reject_duplicate_stamps": "re-run the stamp jobs so each class has one conclusive run.",
    "reject_unsigned_stamp": "the stamp job of that class must sign its stamps (its "
                             "signing-key, README Signed stamps); re-run it. A changed, added or "
                             "moved stamp is never accepted.",
}


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
        cls = str(run.server_class)
        same = next((r for r in shown if _same_failure(r, run)), None)
        if same is not None:
            out.append(markdown.one_line(_same_words(run, same, str)))
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


def annotation_message(pair: Pair, now: int, max_days: int) -> str:
    """An annotation's message (plain text): what happened, the cause and next step, the
    assertion message and falsifying example (bounded), and the four SPEC §4 lines."""
    said = words(pair)
    reason = pair.reason
    if pair.action != "reject_run_retry_new_id" and reason and reason not in said:
        said += f": {reason}"  # (the retry reason's advice is replaced by the real cause)
    return "\n".join([markdown.one_line(said),
                      markdown.one_line(plain_next_step(pair, now, max_days)),
                      # a repeated health check: its name and one-line explanation are in the
                      # next step already, not Hypothesis's whole text (once per class)
                      *(annotation_failures(pair) if repeated_health_check(pair) is None
                        else ()),
                      *(markdown.code_line(x) for x in (*report_lines.four_lines(pair),
                                                        *_stamp_gate(pair)))])


# --- annotations (workflow commands; the check run's are gate.github.checks) ---------------


def pair_annotations(
    pairs: Sequence[Pair], workspace: str | None = None,
    fallback: str = workflow.FALLBACK_PATH, *, now: int = 0, max_days: int | None = None,
) -> list[workflow.Annotation]:
    """One annotation per red pair (rejected first): ``error`` for rejected, ``warning`` for
    frozen; the message says what happened, the cause and the next step, and the four lines."""
    notes: list[workflow.Annotation] = []
    for pair in ordered_reds(pairs):
        status = pair.status
        path, line = workflow.pair_location(pair, workspace, fallback)
        body = annotation_message(pair, now, max_days or DEFAULT_MAX_FREEZE_DAYS)
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
    notes = pair_annotations(report.pairs, workspace, fallback,
                             now=report.now,
                             max_days=report.max_freeze_days)
    lines, left_out = workflow.commands_for(notes)
    extra = workflow.left_out_line(left_out, where)
    return [*lines, workflow.log_line(extra)] if extra else lines


# --- what judges the patch (the report's judge_files; gate/github/judges.py) -----------------

#: How each kind of judge file reads (gate/decide/judges.py KINDS).
JUDGE_KIND_WORDS = {"manifest": "the gate's manifest", "policy": "the freeze policy",
                    "workflow": "a workflow", "harness": "test harness", "fixture": "fixture",
                    "card": "sample card"}
JUDGE_FILES_SHOWN = 50  # files listed by name; the JSON report has up to 1,000
JUDGE_IDS_SHOWN = 3  # test ids named per file
JUDGE_PATH_CHARS = 200
JUDGE_LOG_CHARS = 2000  # the log line


def _judge_count(entry: JudgeFile, total: int) -> str:
    if entry.all:
        return f"all {total}"
    return str(entry.count if entry.count is not None else len(entry.test_ids or ()))


def judge_headline(report: Report) -> str | None:
    """Plain text: "this pull request changes 2 files the gated properties depend on:
    pytest.ini (all 14), tests/test_codec.py (2)", or the reason they could not be listed;
    None when the report has no ``judge_files`` (not a pull request)."""
    shown = report.judge_files
    if shown is None:
        return None
    if shown.error:
        return f"could not list the changed files: {shown.error}"
    files = shown.files
    total = shown.properties
    n = len(files) + (shown.more_files or 0)
    if not n:
        return ("this pull request changes none of the files the gated properties depend on"
                f" ({shown.changed or 0} changed files checked)")
    listed = ", ".join(f"{f.path} ({_judge_count(f, total)})"
                       for f in files[:JUDGE_FILES_SHOWN])
    more = f", and {n - min(len(files), JUDGE_FILES_SHOWN)} more" \
        if n > min(len(files), JUDGE_FILES_SHOWN) else ""
    return markdown.truncate(f"this pull request changes {n} file{'s' if n != 1 else ''} the "
                             f"gated properties depend on: {listed}{more}", JUDGE_LOG_CHARS)


def judge_log_lines(report: Report) -> list[str]:
    """:func:`judge_headline` as the gate job's log line (escaped for the log), or none."""
    said = judge_headline(report)
    return [workflow.log_line(f"agent-patch gate: {said}")] if said else []


def _judge_line(entry: JudgeFile, total: int) -> str:
    path = markdown.code_span(entry.path, JUDGE_PATH_CHARS)
    if entry.previous:
        path += (f" (renamed from "
                 f"{markdown.code_span(entry.previous, JUDGE_PATH_CHARS)})")
    kinds = ", ".join(JUDGE_KIND_WORDS.get(str(k), markdown.inline(str(k), 40))
                      for k in entry.kinds)
    if entry.all:
        return f"- {path} — **all {total}** properties · {kinds}"
    ids = list(entry.test_ids or ())
    count = entry.count if entry.count is not None else len(ids)
    named = ", ".join(markdown.inline(t, TEST_CHARS) for t in ids[:JUDGE_IDS_SHOWN])
    rest = count - min(len(ids), JUDGE_IDS_SHOWN)
    tail = f" and {rest} more" if rest > 0 else ""
    return (f"- {path} — **{count}** propert{'ies' if count != 1 else 'y'} · {kinds}: "
            f"{named}{tail}")


def judge_lines(report: Report, max_files: int = JUDGE_FILES_SHOWN) -> list[str]:
    """Markdown, above the green list: the files the pull request changes that the gated
    properties depend on (fixtures, cards, the test harness), one line each with how many
    properties, or one line saying they could not be listed. Shown only: the gate's decision
    never depends on it. Every file name and test id is escaped."""
    shown = report.judge_files
    if shown is None:
        return []
    notes = [f"> **Note:** {markdown.inline(str(n), 400)}" for n in shown.notes or ()]
    if shown.error:
        return [f"**What judges this patch:** could not list the changed files: "
                f"{markdown.inline(shown.error, 400)} (the gate decided as it "
                "always does; only this list is missing).", "", *notes, *([""] if notes else [])]
    files = shown.files
    total = shown.properties
    n = len(files) + (shown.more_files or 0)
    partial = ([f"GitHub lists at most {shown.changed or 0} changed files of a "
                "comparison, and listed that many: files after them were not checked."]
               if shown.complete is False else [])
    if not n:
        return [f"**What judges this patch:** this pull request changes none of the files "
                f"the gated properties depend on (their fixtures, cards, pytest configuration, "
                f"`conftest.py` files, plugins; {shown.changed or 0} changed files "
                "checked).", "", *[f"> **Note:** {p}" for p in partial], *notes,
                *([""] if partial or notes else [])]
    out = [f"### ⚠️ This pull request changes {n} file{'s' if n != 1 else ''} the gated "
           "properties depend on", "",
           "They decide what the tests check and how they run (fixtures, sample cards, the "
           "test harness): read these changes before you trust a green. This list never "
           "opens or closes the gate.", ""]
    out += [_judge_line(f, total) for f in files[:max_files]]
    if n > min(len(files), max_files):
        out.append(f"- … and {n - min(len(files), max_files)} more (the JSON report lists "
                   "up to 1,000)")
    out.append("")
    for line in [*[f"> **Note:** {p}" for p in partial], *notes]:
        out += [line, ""]
    return out
