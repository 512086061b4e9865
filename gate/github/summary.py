"""The job summary: Markdown for ``$GITHUB_STEP_SUMMARY`` from a gate report (pure).

Sections, in this order (and in this order of priority when the 1 MiB budget runs short):

1. a heading with the decision and counts, the check-run link when known, and any notes;
2. **required fields**: a fenced block holding, for every pair, a ``test_id=`` line and the four
   SPEC §4 lines verbatim (``grep -A4 '^test_id=<id>$'`` finds them). Lines are passed through
   :func:`gate.github.markdown.code_line` (control characters become visible escapes, so no value
   can
   add a line) and the fence is longer than any backtick run, so nothing can leave the block.
   If the block alone would not fit, whole pairs are left out and a marker line after the block
   says how many and that the JSON report has them all;
3. the receipt and halt-audit lines when the report has them;
4. a table a person reads at a glance (cut with a "… N more" row when short of room);
5. a Mermaid flowchart of which gate and row decided, with counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gate.github import markdown
from gate.records import report as report_lines

DEFAULT_MAX_BYTES = 1024 * 1024 - 4096  # under GitHub's 1 MiB per step, with room to spare
TEST_CHARS = 200
RUN_ID_CHARS = 64
NOTE_CHARS = 2000
LINE_CHARS = 4096
MAX_PROBLEMS = 20
MAX_MERMAID_ROWS = 30

STATUS_ICON = {"accepted": "✅", "frozen": "🧊", "rejected": "❌"}
DECISION_ICON = {"open": "✅", "closed": "❌"}


def counts_line(report: Mapping[str, Any]) -> str:
    counts = report.get("counts", {})
    return (f"{report.get('decision', 'closed')}: {counts.get('rejected', 0)} rejected, "
            f"{counts.get('frozen', 0)} frozen, {counts.get('accepted', 0)} accepted")


def pair_block_lines(pair: Mapping[str, Any]) -> list[str]:
    """``test_id=<id>`` and the four SPEC §4 lines, each safe for a code block."""
    return [markdown.code_line(line)
            for line in (f"test_id={pair.get('test_id', '')}", *report_lines.four_lines(pair))]


def _bytes(lines: Iterable[str]) -> int:
    return sum(markdown.utf8_len(line) + 1 for line in lines)


def _header(report: Mapping[str, Any], check_run_url: str | None,
            notes: Sequence[str]) -> list[str]:
    decision = str(report.get("decision", "closed"))
    lines = [f"## {DECISION_ICON.get(decision, '')} agent-patch gate: {markdown.inline(decision)}",
             "", f"**{markdown.inline(counts_line(report))}**"]
    if check_run_url:
        lines += ["", f"Check run: {markdown.link('details', check_run_url)}"]
    for note in notes:
        lines += ["", f"> **Note:** {markdown.inline(note, NOTE_CHARS)}"]
    return [*lines, ""]


def _required_block(pairs: Sequence[Mapping[str, Any]], room: int) -> list[str]:
    title = ["### Required fields", ""]
    groups = [pair_block_lines(pair) for pair in pairs]
    every = [line for group in groups for line in group]
    fence = markdown.fence_for(every)
    # marker: fixed text plus two numbers; reserve its size up front
    reserve = _bytes(title) + 2 * (len(fence) + 8) + 200
    kept: list[str] = []
    used = reserve
    shown = 0
    for group in groups:
        size = _bytes(group)
        if used + size > room:
            break
        kept.extend(group)
        used += size
        shown += 1
    lines = [*title, f"{fence}text", *kept, fence]
    if shown < len(groups):
        lines.append(f"**… {len(groups) - shown} more of {len(groups)} pairs not shown (the job "
                     "summary has a 1 MiB limit); the JSON report artifact has all of them.**")
    return [*lines, ""]


def _audit_lines(report: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    receipt = report.get("receipt")
    if isinstance(receipt, Mapping):
        decision = str(receipt.get("decision", ""))
        lines += ["### Receipt", "",
                  f"{'✅' if decision == 'accept' else '❌'} **{markdown.inline(decision)}**: "
                  f"{markdown.inline(str(receipt.get('line', '')), LINE_CHARS)}"]
        for item in list(receipt.get("mismatches", []))[:MAX_PROBLEMS]:
            lines.append(f"- {markdown.inline(str(item), LINE_CHARS)}")
        lines.append("")
    audit = report.get("halt_audit")
    if isinstance(audit, Mapping):
        ok = not audit.get("failed") and audit.get("chain_ok", True)
        lines += ["### Halt audit", "",
                  f"{'✅' if ok else '❌'} "
                  f"failed={int(audit.get('failed', 0))} "
                  f"denominator={int(audit.get('denominator', 0))} "
                  f"chain_ok={'true' if audit.get('chain_ok') else 'false'}"]
        problems = list(audit.get("problems", []))
        for item in problems[:MAX_PROBLEMS]:
            lines.append(f"- {markdown.inline(str(item), LINE_CHARS)}")
        if len(problems) > MAX_PROBLEMS:
            lines.append(f"- … {len(problems) - MAX_PROBLEMS} more")
        lines.append("")
    return lines


def _runs_cell(pair: Mapping[str, Any]) -> str:
    runs = pair.get("runs", [])
    ids = [markdown.inline(str(run.get("run_id", "")), RUN_ID_CHARS)
           for run in runs[:4] if isinstance(run, Mapping)]
    more = f" +{len(runs) - 4}" if len(runs) > 4 else ""
    return ", ".join(ids) + more


def table_row(pair: Mapping[str, Any]) -> list[str]:
    status = str(pair.get("status", ""))
    return [
        markdown.inline(str(pair.get("test_id", "")), TEST_CHARS),
        f"{STATUS_ICON.get(status, '')} {markdown.inline(status)}",
        markdown.inline(str(pair.get("action", ""))),
        markdown.inline(str(pair.get("failure_class", ""))),
        "yes" if pair.get("freeze_allowed") else "no",
        _runs_cell(pair),
    ]


TABLE_HEADER = ("Test", "Status", "Action", "Failure class", "Freeze allowed", "Runs")


def _table(pairs: Sequence[Mapping[str, Any]], room: int) -> list[str]:
    head = ["### Tests", "", *markdown.table(TABLE_HEADER, [])]
    used = _bytes(head) + 300
    rows: list[str] = []
    for index, pair in enumerate(pairs):
        row = markdown.table(TABLE_HEADER, [table_row(pair)])[2]
        if used + _bytes([row]) > room:
            rest = len(pairs) - index
            rows.append(markdown.table(TABLE_HEADER, [[
                f"… {rest} more", " ", " ", " ", " ", " "]])[2])
            break
        rows.append(row)
        used += _bytes([row])
    if used > room:  # not even the heading fits
        return []
    return [*head, *rows, ""]


def _mermaid(pairs: Sequence[Mapping[str, Any]]) -> list[str]:
    if not pairs:
        return []
    by_row: Counter[tuple[str, int]] = Counter()
    by_status: dict[tuple[str, int], Counter[str]] = {}
    for pair in pairs:
        key = (str(pair.get("gate", "")), int(pair.get("row", 0)))
        by_row[key] += 1
        by_status.setdefault(key, Counter())[str(pair.get("status", ""))] += 1
    lines = ["### Which row decided", "", "```mermaid", "flowchart LR",
             f'  all["{markdown.mermaid_label(f"{len(pairs)} pairs")}"]']
    gates = sorted({gate for gate, _ in by_row})
    for g_index, gate in enumerate(gates):
        lines.append(f'  all --> g{g_index}["{markdown.mermaid_label(f"{gate} gate")}"]')
    shown = sorted(by_row.items(), key=lambda item: (-item[1], item[0]))
    for r_index, ((gate, row), count) in enumerate(shown[:MAX_MERMAID_ROWS]):
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(by_status[(gate, row)].items()))
        label = markdown.mermaid_label(f"row {row}: {count} ({statuses})")
        lines.append(f'  g{gates.index(gate)} --> r{r_index}["{label}"]')
    if len(shown) > MAX_MERMAID_ROWS:
        rest = sum(count for _, count in shown[MAX_MERMAID_ROWS:])
        lines.append(f'  all --> more["{markdown.mermaid_label(f"{rest} more in other rows")}"]')
    return [*lines, "```", ""]


def render(
    report: Mapping[str, Any],
    check_run_url: str | None = None,
    notes: Sequence[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> str:
    """The job summary Markdown for ``report``, at most ``max_bytes`` UTF-8 bytes."""
    pairs = [p for p in report.get("pairs", []) if isinstance(p, Mapping)]
    out = _header(report, check_run_url, notes)
    audit = _audit_lines(report)
    mermaid = _mermaid(pairs)
    room = max_bytes - _bytes(out)
    block = _required_block(pairs, room - _bytes(audit))
    out += block
    room -= _bytes(block)
    if _bytes(audit) <= room:
        out += audit
        room -= _bytes(audit)
    reserve_mermaid = _bytes(mermaid) if _bytes(mermaid) <= room // 2 else 0
    table = _table(pairs, room - reserve_mermaid)
    out += table
    room -= _bytes(table)
    if mermaid and _bytes(mermaid) <= room:
        out += mermaid
    text = "\n".join(out).rstrip("\n") + "\n"
    if markdown.utf8_len(text) > max_bytes:  # only a tiny budget gets here
        return markdown.truncate(
            f"agent-patch gate: {counts_line(report)} (summary too large; see the JSON report)\n",
            max_bytes, unit="bytes")
    return text
