"""The job summary: the four SPEC §4 lines per pair in a grep-able block, a table, a diagram."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gate.github import markdown, summary
from gate.records import report, schemas

SHA = "ab" * 32

HOSTILE_IDS = [
    "tests/test_a.py::test_pipe[a|b]",
    "```\nfixture_sha256=" + "0" * 64 + "\n```",
    "~~~\n::error::pwned\n~~~",
    "::stop-commands::tok",
    "x%0A::error::y",
    "id\r\nfailure_class=harness_flake\rfreeze_allowed=true",
    "<script>alert(1)</script><img src=x onerror=alert(2)>",
    '"]-->B["pwn"] %% graph TD; click A call x()',
    "# heading", "- item", "1. list", "=====", "---", "> quote", "    indented",
    "**bold** _it_ [link](javascript:alert(1)) ![img](x) ~~s~~ `code` $x$ &amp; \\",
    "astral 😀𝔘𝔫𝔦 and bidi \u202eevil\u202c and \u2028sep and lone \ud800",
    "a" * 512,
]


def make_pair(i: int, status: str = "rejected", **extra: Any) -> dict[str, Any]:
    pair: dict[str, Any] = {
        "test_id": f"tests/test_props.py::test_{i}",
        "gate": "stamp",
        "action": {"rejected": "reject_stable_fail", "frozen": "freeze_inside_server_class",
                   "accepted": "accept_candidate"}[status],
        "row": {"rejected": 8, "frozen": 6, "accepted": 7}[status],
        "status": status,
        "reason": f"reason {i}: both oracles false",
        "fixture_sha256": SHA,
        "failure_class": "harness_flake" if status == "frozen" else "property_miss",
        "freeze_allowed": status == "frozen",
        "fixture_path": f"fixtures/{SHA}.json",
        # runs the table agrees with (a report read back is re-derived: issue 14 class 6)
        "runs": [{"run_id": f"r{i}a", "server_class": "local-pinned",
                  "outcome": "assert_fail" if status == "rejected" else "pass"},
                 {"run_id": f"r{i}b", "server_class": "free-server",
                  "outcome": "pass" if status == "accepted" else "assert_fail"}],
    }
    pair.update(extra)
    return pair


def make_report(rejected: int = 0, frozen: int = 0, accepted: int = 0,
                pairs: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    all_pairs = list(pairs or [])
    n = len(all_pairs)
    all_pairs += [make_pair(n + i, "rejected") for i in range(rejected)]
    all_pairs += [make_pair(n + rejected + i, "frozen") for i in range(frozen)]
    all_pairs += [make_pair(n + rejected + frozen + i, "accepted") for i in range(accepted)]
    return report.build(all_pairs, 1_700_000_000, **extra)


def hostile_report() -> dict[str, Any]:
    pairs = []
    for i, text in enumerate(HOSTILE_IDS):
        status = ("rejected", "frozen", "accepted")[i % 3]
        pairs.append(make_pair(i, status, test_id=text, reason=f"reason {text}",
                               fixture_path=f"../../{text}"[:4096],
                               runs=[{"run_id": text[:128], "server_class": "local|x",
                                      "outcome": "pass"}],
                               location={"path": f"../{text}"[:4096], "line": 7}))
    return make_report(pairs=pairs)


def required_block(md: str) -> list[str]:
    """The lines inside the fenced block under 'Required fields'."""
    lines = md.split("\n")
    start = lines.index("### Required fields") + 2
    fence = re.fullmatch(r"(`{3,})text", lines[start])
    assert fence, lines[start]
    end = lines.index(fence.group(1), start + 1)
    return lines[start + 1:end]


def table_rows(md: str, header: str = "| Test |") -> list[str]:
    lines = md.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def expected_group(pair: dict[str, Any]) -> list[str]:
    return [markdown.code_line(x) for x in (f"test_id={pair['test_id']}",
                                            *report.four_lines(pair))]


def test_hostile_report_is_schema_valid_except_lone_surrogates() -> None:
    rep = hostile_report()
    schemas.validate("report", rep, "hostile")


def test_four_lines_verbatim_for_every_pair() -> None:
    rep = make_report(rejected=2, frozen=1, accepted=3)
    md = summary.render(rep)
    block = required_block(md)
    assert len(block) == 5 * 6
    for index, pair in enumerate(rep["pairs"]):
        group = block[5 * index:5 * index + 5]
        assert group == [f"test_id={pair['test_id']}", *report.four_lines(pair)]
    # a script can grep the four lines after the test id line
    first = rep["pairs"][0]
    at = block.index(f"test_id={first['test_id']}")
    assert block[at + 1] == f"fixture_sha256={SHA}"
    assert block[at + 2] == "failure_class=property_miss"
    assert block[at + 3] == "freeze_allowed=false"
    assert block[at + 4] == f"fixture_path=fixtures/{SHA}.json"


def test_none_for_missing_pin() -> None:
    rep = make_report(pairs=[make_pair(0, fixture_sha256=None, fixture_path=None,
                                       failure_class="unclassified")])
    block = required_block(summary.render(rep))
    assert block[1:] == ["fixture_sha256=none", "failure_class=unclassified",
                         "freeze_allowed=false", "fixture_path=none"]


def test_hostile_strings_stay_inside_their_cells_and_block() -> None:
    rep = hostile_report()
    md = summary.render(rep, check_run_url="https://github.com/o/r/runs/1",
                        notes=["check run not published: token lacks checks: write\n# x|y"])
    block = required_block(md)
    assert len(block) == 5 * len(rep["pairs"])
    keys = ("test_id=", "fixture_sha256=", "failure_class=", "freeze_allowed=", "fixture_path=")
    for index, pair in enumerate(rep["pairs"]):
        group = block[5 * index:5 * index + 5]
        assert group == expected_group(pair)
        assert all(line.startswith(key) for line, key in zip(group, keys, strict=True))
    rows = table_rows(md)
    assert len(rows) == len(rep["pairs"])
    for row in rows:
        assert row.count("|") == len(summary.TABLE_HEADER) + 1, row
    # nothing raw that HTML or Markdown would act on, outside the fenced block
    outside = md.replace("\n".join(block), "")
    for bad in ("<script", "<img", "\r", "\u202e", "\u2028", "\ud800", "[link]", "![img]"):
        assert bad not in outside
    assert not any(line.startswith(("::", "#  ", "- item", "1. list", "=====", "> quote"))
                   for line in md.split("\n"))
    md.encode("utf-8")  # no lone surrogate survives


def test_mermaid_labels_are_escaped() -> None:
    rep = hostile_report()
    md = summary.render(rep)
    lines = md.split("\n")
    start = lines.index("```mermaid")
    end = lines.index("```", start)
    diagram = lines[start + 1:end]
    assert diagram[0] == "flowchart LR"
    for line in diagram[1:]:
        assert re.fullmatch(r'  (all|all --> g\d+|g\d+ --> r\d+|all --> more)\["[^"\]`\n]*"\]',
                            line), line
    assert any("row 8" in line for line in diagram)


def test_hostile_mermaid_gate_and_row_values() -> None:
    rep = make_report(pairs=[make_pair(0, gate='x"]-->y["', row=7)])
    md = summary.render(rep)
    assert 'x"]' not in md
    assert "#34;#93;" in md


def test_link_notes_receipt_and_halt_audit() -> None:
    rep = make_report(rejected=1, receipt={"decision": "reject", "line": "reject: diff_sha256 <b>",
                                           "mismatches": ["diff_sha256"]},
                      halt_audit={"failed": 1, "denominator": 4, "chain_ok": True,
                                  "problems": ["line 3: halted call ran"]})
    md = summary.render(rep, check_run_url="https://github.com/o/r/runs/5?x=(1)",
                        notes=["check run not published: the token lacks checks: write"])
    assert "[details](https://github.com/o/r/runs/5?x=%281%29)" in md
    assert "> **Note:** check run not published: the token lacks checks: write" in md
    assert "### Receipt" in md and "diff&#95;sha256 &#60;b&#62;" in md
    assert "failed=1 denominator=4 chain_ok=true" in md
    assert "line 3: halted call ran" in md


def test_unsafe_url_is_not_linked() -> None:
    md = summary.render(make_report(rejected=1), check_run_url="javascript:alert(1)")
    assert "](javascript" not in md


def test_empty_report() -> None:
    md = summary.render(report.build([], 1))
    assert "closed: 0 rejected, 0 frozen, 0 accepted" in md
    assert required_block(md) == []


@pytest.mark.parametrize("pairs", [600])
def test_within_one_mib_with_table_cut(pairs: int) -> None:
    long_id = "tests/" + "😀" * 200  # 4 bytes each: ids are long in bytes, short in characters
    rep = make_report(pairs=[make_pair(i, test_id=f"{long_id}{i}",
                                       fixture_path="p/" + "é" * 100) for i in range(pairs)])
    md = summary.render(rep)
    assert markdown.utf8_len(md) <= summary.DEFAULT_MAX_BYTES < 1024 * 1024
    block = required_block(md)
    assert len(block) == 5 * pairs  # the block comes first: all pairs are there
    rows = table_rows(md)
    assert rows[-1].startswith("| … ") and "more" in rows[-1]
    assert len(rows) < pairs


def test_block_itself_cut_with_a_marker_when_it_cannot_fit() -> None:
    rep = make_report(rejected=400)
    md = summary.render(rep, max_bytes=20_000)
    assert markdown.utf8_len(md) <= 20_000
    block = required_block(md)
    assert block and len(block) % 5 == 0  # whole pairs only
    shown = len(block) // 5
    assert f"… {400 - shown} more of 400 pairs not shown" in md
    assert "the JSON report artifact has all of them" in md
    for index in range(shown):
        assert block[5 * index:5 * index + 5] == expected_group(rep["pairs"][index])


def test_tiny_budget_still_bounded() -> None:
    md = summary.render(make_report(rejected=3), max_bytes=60)
    assert markdown.utf8_len(md) <= 60
