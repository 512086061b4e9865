"""What judges the patch, as people read it: the report's ``judge_files`` section (built in
gate/github/judges.py) for the job summary and the check run (:func:`judge_lines`) and the
gate job's log (:func:`judge_log_lines`); every file name and test id escaped for its sink.
Shown only: the gate's decision never depends on it."""

from __future__ import annotations

from gate.github import markdown, workflow
from gate.records.report_data import JudgeFile, Report

TEST_CHARS = 300

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


def judge_error(report: Report) -> str | None:
    """Why the changed files could not be listed (plain text), or None."""
    shown = report.judge_files
    if shown is None or not shown.error:
        return None
    return (f"what judges this patch is not shown: could not list the changed files: "
            f"{shown.error} (the gate decided as it always does; only this list is missing)")


def judge_lines(report: Report, max_files: int = JUDGE_FILES_SHOWN,
                with_error: bool = True) -> list[str]:
    """Markdown, above the green list: the files the pull request changes that the gated
    properties depend on (fixtures, cards, the test harness), one line each with how many
    properties, or (``with_error``) one line saying they could not be listed: the job summary
    shows that among its configuration notes instead (:func:`judge_error`). Shown only: the
    gate's decision never depends on it. Every file name and test id is escaped."""
    shown = report.judge_files
    if shown is None:
        return []
    notes = [f"> **Note:** {markdown.inline(str(n), 400)}" for n in shown.notes or ()]
    if shown.error:
        if not with_error:
            return [line for note in notes for line in (note, "")]
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
