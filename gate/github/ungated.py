"""Ungated properties are named (issue 29; SPEC §6): the report's ``ungated`` section as people
read it.

The section (decided in gate/records/pairing.py, :func:`ungated_section`, from the stamps'
``ungated`` objects and the gate job's scan, :mod:`gate.github.ungated_scan`) is rendered for
the job summary and the check run (:func:`lines`), the log (:func:`log_lines`) and the
``ungated`` output (:func:`output`); every test id is escaped for its sink.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gate.decide import ungated as rules
from gate.github import markdown, workflow
from gate.records.report_data import Report

#: Tests named one per line in the summary and check run (the report keeps up to 1,000).
SHOWN = 30
TEST_CHARS = 300
KIND_WORDS = {"given": "`@given`", "stateful": "state machine"}


# --- as people read it -----------------------------------------------------------------------


def _tests(section: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [t for t in section.get("tests", []) if isinstance(t, Mapping)]


def lines(report: Report, shown: int = SHOWN, with_notes: bool = True) -> list[str]:
    """Markdown: the ungated tests, what they mean, what the policy made of them, the fix;
    and, ``with_notes``, what the job could not scan (the job summary shows that among its
    configuration notes instead: :func:`notes`)."""
    section = report.ungated
    if section is None:
        return []
    tests = section.tests
    count = section.count
    closed = section.decision == rules.CLOSED
    plural = count != 1
    shut = " — the gate is closed (policy `ungated: fail`)" if closed else ""
    head = (f"### {'❌' if closed else '⚠️'} {count} Hypothesis test{'s' if plural else ''} "
            f"no property gates{shut}")
    out = [head, "",
           f"No manifest property selects {'them' if plural else 'it'}, so "
           f"{'they run' if plural else 'it runs'} in no stamp job and nothing above says "
           f"anything about {'them' if plural else 'it'}: a property added or renamed "
           "without `gate init --add` passes by never running. "
           + ("The policy's `ungated: fail` closes the gate while any is named."
              if closed else "The policy's `ungated: warn` only names them; `ungated: fail` "
              "would close the gate (recommended for agent-drafted pull requests)."), "",
           f"**Fix:** run {markdown.code_span(rules.fix([t.test for t in tests]), 600)}"
           " and commit the new sample cards and manifest entries (a renamed test: also "
           "remove its old entry).", ""]
    for entry in tests[:shown]:
        where = ", ".join(entry.found_by)
        out.append(f"- {markdown.code_span(entry.test, TEST_CHARS)} — "
                   f"{KIND_WORDS.get(entry.kind, 'Hypothesis')} · found by "
                   f"{markdown.inline(where, 80)}")
    if count > min(len(tests), shown):
        out.append(f"- … and {count - min(len(tests), shown)} more (the JSON report names up "
                   "to 1,000)")
    out.append("")
    if with_notes:
        out += [line for n in notes(report) for line in (f"> **Note:** {markdown.inline(n, 400)}",
                                                          "")]
    return out


def notes(report: Report) -> list[str]:
    """What the job could not scan for ungated tests (plain text), e.g. no token to list the
    pull request's changed files."""
    return [str(n) for n in (report.ungated.notes or ())] if report.ungated is not None else []


def log_lines(report: Report) -> list[str]:
    """The gate job's log line naming them with the fix (escaped for the log), or none."""
    section = report.ungated
    if section is None:
        return []
    said = rules.log_line([(t.test, t.kind) for t in section.tests], section.count)
    if section.decision == rules.CLOSED:
        said += " (policy ungated: fail: the gate is closed)"
    return [workflow.log_line(said.replace("gate: ", "agent-patch gate: ", 1))]


def output(report: Report) -> str:
    """The ``ungated`` output: the node ids the report names, one per line (empty: none)."""
    section = report.ungated
    if section is None:
        return ""
    return "\n".join(markdown.one_line(t.test) for t in section.tests)


def stamp_lines(stamps: Sequence[Mapping[str, Any]], shown: int = SHOWN) -> list[str]:
    """The stamp job's summary: the ungated tests its stamps name, with the fix, or none."""
    found = next((s["ungated"] for s in stamps if isinstance(s.get("ungated"), Mapping)), None)
    if found is None:
        return []
    tests = _tests(found)
    count = int(found.get("count", len(tests)))
    out = [f"**Ungated:** {count} Hypothesis test{'s' if count != 1 else ''} no manifest "
           f"property selects ran in no stamp job; fix: "
           f"{markdown.code_span(rules.fix([str(t.get('test')) for t in tests]), 600)}", ""]
    out += [f"- {markdown.code_span(str(t.get('test', '')), TEST_CHARS)}" for t in tests[:shown]]
    if count > min(len(tests), shown):
        out.append(f"- … and {count - min(len(tests), shown)} more")
    return [*out, ""]
