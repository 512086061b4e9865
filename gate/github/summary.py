"""The job summary: Markdown for ``$GITHUB_STEP_SUMMARY`` from a gate report (pure).

It leads with what is red (:mod:`gate.github.review`). Sections, in this order (and in this order
of priority when the 1 MiB budget runs short):

1. a headline with the decision and counts, a sentence saying what happened by action, the
   check-run and JSON-report links when known, and any notes; then, on a pull request, the
   files it changes that the gated properties depend on (:func:`review.judge_lines`; when
   they could not be listed, or the changed test files not scanned for ungated tests, that
   is a configuration note below the reds, not a line above them);
2. one block per red or frozen test, rejected first: the test linked to its file and line, the
   action in words, the runs, the failure, **the next step**, and (in ``<details>``) the
   ``test_id=`` line and the four SPEC §4 lines verbatim (``grep -A4 '^test_id=<id>$'`` finds
   them). Blocks that do not fit are counted in a sentence;
3. the receipt and halt-audit lines when the report has them;
4. the accepted tests, compact (collapsed in ``<details>`` when more than a handful), never with
   a failure class; a sentence says how many are not listed when room runs out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gate.github import judge_view, markdown, review, ungated
from gate.records import report as report_lines
from gate.records.report_data import Location, Pair, Report

DEFAULT_MAX_BYTES = 1024 * 1024 - 4096  # under GitHub's 1 MiB per step, with room to spare
TEST_CHARS = 200
RUN_ID_CHARS = 64
NOTE_CHARS = 2000
LINE_CHARS = 4096
MAX_PROBLEMS = 20
MAX_GREEN_LINES = 1000  # accepted tests listed by name; the JSON report has every test
MAX_MERMAID_ROWS = 30

STATUS_ICON = {"accepted": "✅", "frozen": "🧊", "rejected": "❌"}
DECISION_ICON = {"open": "✅", "closed": "❌"}


def counts_line(report: Report) -> str:
    counts = report.counts
    return (f"{report.decision}: {counts.rejected} rejected, "
            f"{counts.frozen} frozen, {counts.accepted} accepted")


def pair_block_lines(pair: Pair) -> list[str]:
    """``test_id=<id>`` and the four SPEC §4 lines, each safe for a code block."""
    stamp_gate = report_lines.stamp_gate_line(pair)
    return [markdown.code_line(line)
            for line in (f"test_id={pair.test_id}", *report_lines.four_lines(pair),
                         *([stamp_gate] if stamp_gate else []))]


def _bytes(lines: Iterable[str]) -> int:
    return sum(markdown.utf8_len(line) + 1 for line in lines)


def notes_lines(notes: Sequence[str]) -> list[str]:
    """The configuration notes (unsigned stamps, no token, the run decided on, ...), once, in
    a collapsed section below the reds: they say how the job is set up, not what is red."""
    if not notes:
        return []
    return [f"<details><summary>Configuration notes ({len(notes)}): what this job could "
            "not do or check</summary>", "",
            *(line for note in notes
              for line in (f"> **Note:** {markdown.inline(note, NOTE_CHARS)}", "")),
            "</details>", ""]


def _audit_lines(report: Report) -> list[str]:
    lines: list[str] = []
    receipt = report.receipt
    if receipt is not None:
        decision = receipt.decision
        lines += ["### Receipt", "",
                  f"{'✅' if decision == 'accept' else '❌'} **{markdown.inline(decision)}**: "
                  f"{markdown.inline(receipt.line, LINE_CHARS)}"]
        for item in list(receipt.mismatches or ())[:MAX_PROBLEMS]:
            lines.append(f"- {markdown.inline(str(item), LINE_CHARS)}")
        lines.append("")
    audit = report.halt_audit
    if audit is not None:
        ok = not audit.failed and audit.chain_ok
        lines += ["### Halt audit", "",
                  f"{'✅' if ok else '❌'} "
                  f"failed={audit.failed} "
                  f"denominator={audit.denominator} "
                  f"chain_ok={'true' if audit.chain_ok else 'false'}"]
        problems = list(audit.problems or ())
        for item in problems[:MAX_PROBLEMS]:
            lines.append(f"- {markdown.inline(str(item), LINE_CHARS)}")
        if len(problems) > MAX_PROBLEMS:
            lines.append(f"- … {len(problems) - MAX_PROBLEMS} more")
        lines.append("")
    return lines



def render(
    report: Report,
    check_run_url: str | None = None,
    notes: Sequence[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    view: review.View | None = None,
) -> str:
    """The job summary Markdown for ``report``, at most ``max_bytes`` UTF-8 bytes."""
    view = dataclasses.replace(view or review.View(), check_run_url=check_run_url
                               or (view.check_run_url if view else None))
    pairs = report.pairs
    out = [*review.headline(report, view), *ungated.lines(report, with_notes=False),
           *review.judge_lines(report, with_error=False)]
    audit = _audit_lines(report)
    could_not = [*ungated.notes(report), *filter(None, [judge_view.judge_error(report)])]
    noted = notes_lines([*notes, *could_not])
    room = max_bytes - _bytes(out) - _bytes(audit) - _bytes(noted) - 600
    reds, _ = review.red_blocks(report, view, room)
    out += [*reds, *noted]
    room = max_bytes - _bytes(out) - 200
    if _bytes(audit) <= room:
        out += audit
        room -= _bytes(audit)
    out += review.green_lines(review.greens(pairs), view, room, max_lines=MAX_GREEN_LINES)
    text = "\n".join(out).rstrip("\n") + "\n"
    if markdown.utf8_len(text) > max_bytes:  # only a tiny budget gets here
        return markdown.truncate(
            f"agent-patch gate: {counts_line(report)} (summary too large; see the JSON report)\n",
            max_bytes, unit="bytes")
    return text


def render_error(what: str, view: review.View | None = None,
                 notes: Sequence[str] = ()) -> str:
    """The job summary when the gate could not decide (bad input, exit 2): what went wrong."""
    view = view or review.View()
    lines = ["## ❌ agent-patch gate: could not decide", "",
             f"**What went wrong:** {markdown.inline(what, LINE_CHARS)}", "",
             "The gate is closed: no test was classified. Fix the input above and re-run the "
             "job; nothing was frozen or accepted.", ""]
    if view.check_run_url:
        lines += [f"Check run: {markdown.link('details', view.check_run_url)}", ""]
    for note in notes:
        lines += [f"> **Note:** {markdown.inline(note, NOTE_CHARS)}", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_stamp_error(what: str) -> str:
    """The stamp job's summary when ``gate stamp`` stopped on bad input (exit 2): what failed,
    the error line, the fix, and what the gate job will say because of it."""
    lines = ["## ❌ agent-patch gate: stamp failed", "",
             "**What failed:** `gate stamp` stopped on bad input (exit 2) and wrote no "
             "stamps.", "",
             f"**The error:** {markdown.inline(what, LINE_CHARS)}", "",
             "**The fix:** correct the file and field the error names (the end of the "
             "error says how when it can), then re-run the workflow.", "",
             "No stamps were uploaded, so the gate job will find none: its "
             "\"no stamps found\" comes from this error.", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


#: The stamp job's outcome groups: (label, the stamp outcomes it holds). ``resource_exit`` and
#: ``empty_body`` gave no result (gate.decide.stamps.RETRY_OUTCOMES): the gate discards them.
STAMP_GROUPS = (("pass", ("pass",)), ("red", ("assert_fail",)),
                ("inconclusive", ("resource_exit", "empty_body")))
MAX_STAMPS_LISTED = 20


def _stamp_group(stamp: Mapping[str, Any]) -> str:
    outcome = stamp.get("outcome")
    for label, outcomes in STAMP_GROUPS:
        if outcome in outcomes:
            return label
    return "inconclusive"  # not a stamp outcome: no result the gate could use


def _isolation_lines(stamps: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the stamp job's summary says of the isolation level its test command ran at (the
    lowest its stamps record), and that it is this job's claim until a signed set vouches."""
    from gate.decide import isolation

    recorded = [s["isolation"] for s in stamps if isinstance(s.get("isolation"), Mapping)]
    if not recorded:
        return []
    level = isolation.lowest(str(r.get("level")) for r in recorded)
    if level not in isolation.PROMISES:
        return []
    first = next(r for r in recorded if r.get("level") == level)
    how = [f"by {markdown.inline(str(first['by']), 20)}"] if first.get("by") else []
    scope = first.get("ptrace_scope")
    how.append(f"Yama ptrace_scope {scope}" if isinstance(scope, int) else "no Yama")
    return [f"**Isolation:** the test command ran at `{level}` ({', '.join(how)}): "
            f"{isolation.PROMISES[level]}. This job claims it; it counts only inside a signed "
            "stamp set (docs/threat-model.md#isolation-levels).", ""]


def _stamp_line(stamp: Mapping[str, Any], view: review.View) -> str:
    group = _stamp_group(stamp)
    outcome = markdown.inline(str(stamp.get("outcome", "")), 40)
    icon = "❌" if group == "red" else "⚠️"
    loc = stamp.get("location")
    location = Location.from_dict(loc) if isinstance(loc, Mapping) else None
    line = f"- {icon} {review.link_test(str(stamp.get('test_id', '')), location, view)}: " \
           f"{group} ({outcome})"
    failure = stamp.get("failure")
    if group == "red" and isinstance(failure, Mapping):
        said = f"{failure.get('type', '')}: {str(failure.get('message', '')).split(chr(10))[0]}"
        line += f": {markdown.inline(said.strip(': '), 300)}"
    elif stamp.get("note"):
        line += f": {markdown.inline(str(stamp['note']), 300)}"
    return line


def render_stamp_done(stamps: Sequence[Mapping[str, Any]], *, server_class: str, artifact: str,
                      manifest: str, recorder: bool, view: review.View | None = None,
                      max_listed: int = MAX_STAMPS_LISTED) -> str:
    """The stamp job's summary when ``gate stamp`` wrote its stamps (exit 0): the class, how
    many stamps and in which artifact, the count per outcome, whether the sample cards
    governed the run (the recorder route) or were only hashed (the JUnit route), the tests that
    were not green here, and that the gate job decides. Every value from a record is escaped."""
    view = view or review.View()
    groups = {label: [s for s in stamps if _stamp_group(s) == label] for label, _ in STAMP_GROUPS}
    n = len(stamps)
    plural = "" if n == 1 else "s"
    cls = markdown.inline(server_class, 40)
    lines = [f"## 📦 agent-patch gate: {n} {cls} stamp{plural} written", "",
             f"**Stamps:** {n} stamp{plural} of the {cls} class, one per manifest property, in "
             f"the artifact {review.span(artifact)} (uploaded by the next step of this job).",
             "", *markdown.table(["Outcome", "Stamps"], [
                 ["pass", str(len(groups["pass"]))],
                 ["red (`assert_fail`)", str(len(groups["red"]))],
                 ["inconclusive (`resource_exit`, `empty_body`)",
                  str(len(groups["inconclusive"]))]]), ""]
    cards = f"{n} sample card{plural} of the manifest {review.span(manifest)}"
    if recorder:
        lines += [f"**Cards:** the gate's recorder applied the {cards} to the Hypothesis tests "
                  "they name (their seed and `max_examples`, no example database): the "
                  "cards govern, so both server classes draw the same examples.", ""]
    else:
        lines += [f"**Cards:** the {cards} were hashed into the stamps, **not applied** (the "
                  "JUnit route, the `junit` input): each class drew its own Hypothesis examples. "
                  "Give only `command`, running pytest, to have the gate's recorder apply them.",
                  ""]
    lines += _isolation_lines(stamps)
    shown = [*groups["red"], *groups["inconclusive"]]
    if shown:
        lines += ["**Not green here:**", ""]
        lines += [_stamp_line(stamp, view) for stamp in shown[:max_listed]]
        if len(shown) > max_listed:
            lines.append(f"- … and {len(shown) - max_listed} more (the stamps in the artifact "
                         "say which)")
        lines.append("")
    lines += ungated.stamp_lines(stamps)
    run = markdown.link("this workflow run", view.run_url)
    lines += ["**The decision is the gate job's:** this job succeeds whatever the tests said "
              f"(a red is recorded in its stamp). The gate job (`mode: gate`) of {run} pairs "
              "these stamps with the other server class's and decides; its check run and job "
              "summary say what is red and why.", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
