"""The job summary: reds first, each with the four SPEC §4 lines verbatim; hostile strings stay
inert; size limits."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gate.github import markdown, summary
from gate.records import report, schemas
from tests.typed_report import typed

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
    if status == "frozen":  # a frozen pair shows the card's expiry, ahead of the report's now
        pair["card_expires"] = 1_700_000_000 + 30 * 86_400
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
    """The test_id= and four-field lines inside every red block's fenced ``text`` block."""
    lines = md.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        fence = re.fullmatch(r"(`{3,})text", lines[index])
        if fence:
            end = lines.index(fence.group(1), index + 1)
            # the runs, and the stamp gate's own line (issue 22), follow the four lines
            out += [x for x in lines[index + 1:end] if not x.startswith(("run ", "stamp_gate="))]
            index = end
        index += 1
    return out


def outside_fences(md: str) -> str:
    """The summary without its fenced blocks (where nothing is decoded or acted on)."""
    lines = md.split("\n")
    kept: list[str] = []
    index = 0
    while index < len(lines):
        fence = re.fullmatch(r"(`{3,})[a-z]*", lines[index])
        if fence:
            index = lines.index(fence.group(1), index + 1) + 1
            continue
        kept.append(lines[index])
        index += 1
    return "\n".join(kept)


def green_items(md: str) -> list[str]:
    lines = md.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("#### ✅"))
    return [line for line in lines[start:] if line.startswith("- ")]


def expected_group(pair: dict[str, Any]) -> list[str]:
    return [markdown.code_line(x) for x in (f"test_id={pair['test_id']}",
                                            *report.four_lines(pair))]


def test_hostile_report_is_schema_valid_except_lone_surrogates() -> None:
    rep = hostile_report()
    schemas.validate("report", rep, "hostile")


def test_four_lines_verbatim_for_every_red_pair() -> None:
    rep = make_report(rejected=2, frozen=1, accepted=3)
    md = summary.render(typed(rep))
    block = required_block(md)
    reds = [p for p in rep["pairs"] if p["status"] != "accepted"]
    assert len(block) == 5 * len(reds)
    for index, pair in enumerate(reds):
        group = block[5 * index:5 * index + 5]
        assert group == [f"test_id={pair['test_id']}", *report.four_lines(pair)]
    # a script can grep the four lines after the test id line
    first = rep["pairs"][0]
    at = block.index(f"test_id={first['test_id']}")
    assert block[at + 1] == f"fixture_sha256={SHA}"
    assert block[at + 2] == "failure_class=property_miss"
    assert block[at + 3] == "freeze_allowed=false"
    assert block[at + 4] == f"fixture_path=fixtures/{SHA}.json"
    # the stamp gate's decision on its own line, right after the four (issue 22)
    lines = md.split("\n")
    at = lines.index(f"fixture_path=fixtures/{SHA}.json")
    assert lines[at + 1] == f"stamp_gate={first['action']}"
    # greens are listed by name only, never with a failure class
    assert len(green_items(md)) == 3
    assert not any("failure_class" in line or "property_miss" in line
                   for line in green_items(md))


def test_none_for_missing_pin() -> None:
    rep = make_report(pairs=[make_pair(0, fixture_sha256=None, fixture_path=None,
                                       failure_class="unclassified")])
    block = required_block(summary.render(typed(rep)))
    assert block[1:] == ["fixture_sha256=none", "failure_class=unclassified",
                         "freeze_allowed=false", "fixture_path=none"]


def test_hostile_strings_stay_inside_their_blocks() -> None:
    rep = hostile_report()
    md = summary.render(typed(rep), check_run_url="https://github.com/o/r/runs/1",
                        notes=["check run not published: token lacks checks: write\n# x|y"])
    block = required_block(md)
    reds = [p for p in rep["pairs"] if p["status"] != "accepted"]
    assert len(block) == 5 * len(reds)
    keys = ("test_id=", "fixture_sha256=", "failure_class=", "freeze_allowed=", "fixture_path=")
    for index, pair in enumerate(sorted(reds, key=lambda p: p["status"] != "rejected")):
        group = block[5 * index:5 * index + 5]
        assert group == expected_group(pair)
        assert all(line.startswith(key) for line, key in zip(group, keys, strict=True))
    assert len(green_items(md)) == len(rep["pairs"]) - len(reds)
    # nothing raw that HTML or Markdown would act on, outside the fenced blocks
    outside = outside_fences(md)
    for bad in ("<script", "<img", "\r", "\u202e", "\u2028", "\ud800", "[link]", "![img]"):
        assert bad not in outside
    assert not any(line.startswith(("::", "#  ", "- item", "1. list", "=====", "> quote"))
                   for line in md.split("\n"))
    md.encode("utf-8")  # no lone surrogate survives


def test_no_mermaid_diagram_but_what_happened_in_words() -> None:
    rep = make_report(rejected=1, frozen=1, accepted=2)
    md = summary.render(typed(rep))
    assert "mermaid" not in md
    assert "- ❌ **1 rejected**: red in both server classes" in md
    assert "- 🧊 **1 frozen**: a free-server red with a green local-pinned run; frozen" in md
    assert "- ✅ **2 accepted**: green in both server classes" in md


def test_link_notes_receipt_and_halt_audit() -> None:
    rep = make_report(rejected=1, receipt={"decision": "reject", "line": "reject: diff_sha256 <b>",
                                           "mismatches": ["diff_sha256"]},
                      halt_audit={"failed": 1, "denominator": 4, "chain_ok": True,
                                  "problems": ["line 3: halted call ran"]})
    md = summary.render(typed(rep), check_run_url="https://github.com/o/r/runs/5?x=(1)",
                        notes=["check run not published: the token lacks checks: write"])
    assert "[details](https://github.com/o/r/runs/5?x=%281%29)" in md
    assert "> **Note:** check run not published: the token lacks checks: write" in md
    assert "### Receipt" in md and "diff&#95;sha256 &#60;b&#62;" in md
    assert "failed=1 denominator=4 chain_ok=true" in md
    assert "line 3: halted call ran" in md


def test_unsafe_url_is_not_linked() -> None:
    md = summary.render(typed(make_report(rejected=1)), check_run_url="javascript:alert(1)")
    assert "](javascript" not in md


def test_empty_report() -> None:
    md = summary.render(typed(report.build([], 1)))
    assert "**0 rejected · 0 frozen · 0 accepted**" in md and "No tests were classified." in md
    assert required_block(md) == []


@pytest.mark.parametrize("pairs", [600])
def test_within_one_mib_with_reds_cut_whole(pairs: int) -> None:
    long_id = "tests/" + "😀" * 200  # 4 bytes each: ids are long in bytes, short in characters
    rep = make_report(pairs=[make_pair(i, test_id=f"{long_id}{i}",
                                       fixture_path="p/" + "é" * 100) for i in range(pairs)])
    md = summary.render(typed(rep))
    assert markdown.utf8_len(md) <= summary.DEFAULT_MAX_BYTES < 1024 * 1024
    block = required_block(md)
    shown = len(block) // 5
    assert len(block) % 5 == 0 and 0 < shown <= pairs
    if shown < pairs:
        assert f"{pairs - shown} more red tests are not shown here" in md


def test_blocks_cut_with_a_sentence_when_they_cannot_fit() -> None:
    rep = make_report(rejected=400)
    md = summary.render(typed(rep), max_bytes=20_000)
    assert markdown.utf8_len(md) <= 20_000
    block = required_block(md)
    assert block and len(block) % 5 == 0  # whole pairs only
    shown = len(block) // 5
    assert f"**{400 - shown} more red tests are not shown here (size limit)" in md
    assert "the JSON report and the annotations have all of them" in md
    for index in range(shown):
        assert block[5 * index:5 * index + 5] == expected_group(rep["pairs"][index])


def test_many_greens_collapsed_and_counted() -> None:
    rep = make_report(rejected=1, accepted=1500)
    md = summary.render(typed(rep))
    assert "<details><summary>1500 accepted tests</summary>" in md
    assert len(green_items(md)) == summary.MAX_GREEN_LINES
    assert f"{1500 - summary.MAX_GREEN_LINES} more accepted tests are not listed here" in md
    few = summary.render(typed(make_report(accepted=5)))
    assert "<details>" not in few and len(green_items(few)) == 5


def test_tiny_budget_still_bounded() -> None:
    md = summary.render(typed(make_report(rejected=3)), max_bytes=60)
    assert markdown.utf8_len(md) <= 60
