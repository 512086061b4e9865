"""Golden files for what a reviewer reads: the job summary, the check run's output (title,
summary, text), the annotations and the gate job's log lines, for: all green; one of each red
action; a stamp run whose command could not start; no stamps; 10,000 properties.

Regenerate after a deliberate change with
``GATE_UPDATE_GOLDEN=1 pytest tests/test_review_golden.py`` and read the diff: these files
are what users see.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from gate.github import checks, markdown, review, summary, workflow
from tests import golden_cases as g
from tests.typed_report import typed, typed_pair, typed_pairs

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GATE_UPDATE_GOLDEN") == "1"
SETTINGS = checks.Settings(token="t", api_url="https://api.github.com", repository="octo/props",
                           head_sha=g.HEAD, view=g.VIEW)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{name} differs from its golden file"


def surfaces(report: dict[str, Any]) -> dict[str, str]:
    plan = checks.plan(typed(report), SETTINGS)
    log = [*review.log_lines(typed(report)), *review.judge_log_lines(typed(report)),
           *review.annotation_commands(typed(report), None)]
    return {
        "summary.md": summary.render(typed(report), view=g.VIEW),
        "check-title.txt": plan.title + "\n",
        "check-summary.md": plan.summary + "\n",
        "check-text.md": plan.text + "\n",
        "annotations.json": json.dumps(list(plan.annotations), indent=1,
                                       ensure_ascii=False) + "\n",
        "log.txt": "\n".join(log) + "\n",
    }


CASES = {"all-green": g.all_green, "one-of-each": g.one_of_each,
         "broken-stamp-run": g.broken_stamp_run, "collection-error": g.collection_error,
         "junit-route": g.junit_route, "frozen-open": g.frozen_open,
         "health-check": g.health_check, "renamed-test": g.renamed_test,
         "judge-files": g.judge_files, "judge-files-unlisted": g.judge_files_unlisted,
         "deadline-allowlisted": g.deadline_allowlisted, "import-broken": g.import_broken}


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(case: str) -> None:
    for name, text in surfaces(CASES[case]()).items():
        check_golden(f"{case}/{name}", text)


def test_golden_no_stamps() -> None:
    plan = checks.error_plan(g.NO_STAMPS, SETTINGS)
    assert plan.conclusion == "failure" and plan.annotations == ()
    check_golden("no-stamps/summary.md", summary.render_error(g.NO_STAMPS, g.VIEW))
    check_golden("no-stamps/check-title.txt", plan.title + "\n")
    check_golden("no-stamps/check-summary.md", plan.summary + "\n")
    check_golden("no-stamps/log.txt", workflow.command(workflow.Annotation(
        "error", g.NO_STAMPS, title="agent-patch gate could not decide")) + "\n")


def test_frozen_open_headline_matches_the_neutral_check_run() -> None:
    report = g.frozen_open()
    assert report["decision"] == "open" and checks.conclusion(typed(report)) == "neutral"
    text = summary.render(typed(report))
    assert text.startswith("## 🧊 agent-patch gate: open — 1 frozen test (reviewed freeze, "
                           "ends "), text.splitlines()[0]
    assert "✅ agent-patch gate" not in text and "need attention" not in text.splitlines()[0]


def test_golden_stamp_failed() -> None:
    what = ".github/gate.yml: properties.0.card: 'card' is a required property"
    check_golden("stamp-failed/summary.md", summary.render_stamp_error(what))


def test_golden_ten_thousand_properties_within_limits() -> None:
    report = g.many(10_000)
    reds = report["counts"]["rejected"]
    assert reds == 20 and report["counts"]["accepted"] == 9_980
    out = surfaces(report)
    md = out["summary.md"]
    # well under the 1 MiB step limit; check-run summary and text under 65,535 bytes
    assert markdown.utf8_len(md) <= 1024 * 1024 - 4096
    assert markdown.utf8_len(out["check-summary.md"]) <= checks.OUTPUT_MAX_BYTES
    assert markdown.utf8_len(out["check-text.md"]) <= checks.OUTPUT_MAX_BYTES
    # the reds come first and all of them are in the job summary and the check-run summary
    first_green = md.index("### ✅")
    assert md.count("#### ❌") == reds and md.rindex("#### ❌") < first_green
    assert out["check-summary.md"].count("#### ❌") == reds
    # a sentence says how many greens are not listed
    listed = md.count("\n- [tests/test&#95;props.py::")
    assert f"{9_980 - listed} more accepted tests are not listed here" in md
    text_listed = out["check-text.md"].count("\n- [tests/")
    assert f"{9_980 - text_listed} more accepted tests are not listed here" in out[
        "check-text.md"]
    assert len(out["log.txt"].splitlines()) == reds + 10 + 1  # named, 10 annotations, a count
    check_golden("ten-thousand/sizes.json", json.dumps(
        {name: markdown.utf8_len(text) for name, text in out.items()}, indent=1) + "\n")
    check_golden("ten-thousand/summary-head.md", "\n".join(md.split("\n")[:60]) + "\n")
    check_golden("ten-thousand/check-summary.md", out["check-summary.md"])
    check_golden("ten-thousand/log.txt", out["log.txt"])


def test_no_green_pair_shows_a_failure_class() -> None:
    for report in (g.all_green(), g.one_of_each()):
        for text in surfaces(report).values():
            for pair in report["pairs"]:
                if pair["status"] == "accepted":
                    at = [line for line in text.split("\n")
                          if f"test_id={pair['test_id']}" in line]
                    assert at == [], "a green pair's four lines are shown"


def test_four_lines_once_per_red_pair_next_to_it() -> None:
    report = g.one_of_each()
    md = summary.render(typed(report), view=g.VIEW)
    blocks = [b for b in md.split("\n#### ")[1:] if not b.startswith("✅")]  # reds only
    reds = review.ordered_reds(typed_pairs(report["pairs"]))
    assert len(blocks) == len(reds)
    for block, pair in zip(blocks, reds, strict=True):
        lines = block.split("\n")
        at = lines.index(f"test_id={pair.test_id}")
        assert lines[at + 1:at + 5] == [
            f"fixture_sha256={pair.fixture_sha256 or 'none'}",
            f"failure_class={pair.failure_class}",
            f"freeze_allowed={'true' if pair.freeze_allowed else 'false'}",
            f"fixture_path={pair.fixture_path or 'none'}"]
        assert md.count(f"test_id={pair.test_id}\n") == 1


def test_broken_stamp_run_names_the_real_cause_everywhere() -> None:
    report = g.broken_stamp_run()
    out = surfaces(report)
    cause = "the test command failed before writing a report: exit code 1; no JUnit report"
    # once up front as the common cause; the nine blocks point to it (issue 29: repetition)
    assert out["summary.md"].count(cause) == 1
    assert out["check-summary.md"].count(cause) == 1
    assert "**Common cause — 9 tests:** in free-server, " + cause in out["summary.md"]
    assert out["summary.md"].index("Common cause") < out["summary.md"].index("#### ")
    pointer = "free-server: no result &#40;resource exit&#41; — the common cause above"
    assert out["summary.md"].count(pointer) == 9
    assert out["summary.md"].count("**Next step:** see the common cause above") == 9
    notes = json.loads(out["annotations.json"])
    assert len(notes) == 9 and all(cause in n["message"] for n in notes)
    assert "rerun with a new run id" not in json.dumps(notes)
    # one log line per pair, and each annotation's stamp_gate= line (issue 22)
    assert out["log.txt"].count("reject_run_retry_new_id") == 9 + 9
    assert out["log.txt"].count("stamp_gate=reject_run_retry_new_id") == 9


def test_a_broken_import_reads_once_per_class_where_common_causes_are_shown() -> None:
    """Issue 29 (repetition): a patch that breaks the package's import stated its long cause
    four times per test (the common cause, each run, each next step). The Markdown sinks that
    show the common-cause paragraphs (job summary, check run output, pull-request comment) say
    it once per class there and point to it from each block; an annotation and a log line
    stand alone and keep the whole cause."""
    from gate.github import comment

    report = g.import_broken()
    out = surfaces(report)
    blame = "the patch breaks importing src/props/core.py"
    pages = {"summary.md": out["summary.md"], "check-summary.md": out["check-summary.md"],
             "comment": comment.body(typed(report), "agent-patch gate", g.VIEW)}
    for name, page in pages.items():
        assert page.count(blame) == 2, name  # one common cause per class
        assert page.count("**Common cause — 3 tests:**") == 2, name
        assert page.count("— the common cause above") == 3 * 2, name
        assert page.count("**Next step:** see the common causes above for local-pinned and "
                          "free-server") == 3, name
        assert "**Next step (" not in page, name
    notes = json.loads(out["annotations.json"])
    assert len(notes) == 3 and all(n["message"].count(blame) >= 2 for n in notes)
    assert all("common cause above" not in n["message"] for n in notes)
    assert out["log.txt"].count(blame) >= 3 * 2
    assert "common cause above" not in out["log.txt"]


def test_allowlist_entry_is_valid_policy_within_the_maximum() -> None:
    import yaml

    from gate.records import policy

    report = g.one_of_each()
    pair = next(p for p in report["pairs"] if p["action"] == "reject_not_allowlisted")
    def filled(record: Any) -> Any:
        """The suggestion as a reviewer completes it (owner, reason, issue filled in)."""
        record["allowlist"][0].update(owner="@parsers", reason="no locale on the free runner",
                                      issue=12)
        return record

    entry = yaml.safe_load("\n".join(review.allowlist_entry(typed_pair(pair), g.NOW, 30)))
    pol = policy.from_record(entry, "suggested")
    assert pol.allowlist[0].test_id == pair["test_id"]
    # pasted unedited, its three placeholders are findings and it grants nothing
    found = policy.check(pol, g.NOW)
    assert [f.split(": ", 1)[1].split(" ")[0] for f in found] == ["owner", "reason", "issue"]
    assert pol.granting(g.NOW)[0].finding
    pol = policy.from_record(filled(entry), "suggested")
    assert policy.check(pol, g.NOW) == []  # no finding: within the 30-day maximum
    assert not pol.granting(g.NOW)[0].finding
    # without a card expiry the suggestion is the last midnight within the maximum
    bare = {**pair, "card_expires": None}
    entry = yaml.safe_load("\n".join(review.allowlist_entry(typed_pair(bare), g.NOW, 30)))
    expires = entry["allowlist"][0]["expires"]
    assert g.NOW < expires <= g.NOW + 30 * g.DAY and expires % g.DAY == 0
    assert policy.check(policy.from_record(filled(entry), "s"), g.NOW) == []


def test_golden_rerun_memory_is_hidden_at_the_end_of_the_text() -> None:
    """The re-run record ends the check run's text as its own HTML block (a comment: GitHub
    renders nothing of it); without it the text is what it always was; the summary names the
    earlier attempt and links its check run."""
    import dataclasses
    import re

    from gate.records import memory

    report, record = g.rerun_memory()
    plan = checks.plan(typed(report), dataclasses.replace(SETTINGS, memory=record))
    before, _, tail = plan.text.rpartition("\n\n")
    assert tail == record and re.fullmatch(
        r"<!-- agent-patch-gate-memory:v1 [A-Za-z0-9+/=]+ -->", tail)
    assert before == checks.plan(typed(report), SETTINGS).text  # no other trace of it
    assert before.count("```") % 2 == 0 and "<!--" not in before
    assert "agent-patch-gate-memory" not in plan.summary + plan.title
    assert memory.decode(plan.text)["reds"][0]["run_id"] == "l-loc-1"
    assert (f"attempt 1 was red on local-pinned ([its check run]({g.CHECK_RUN_1}))"
            in plan.summary)
    check_golden("rerun-memory/check-summary.md", plan.summary + "\n")
    check_golden("rerun-memory/check-text.md", plan.text + "\n")
    check_golden("rerun-memory/summary.md", summary.render(typed(report), view=g.VIEW))
    check_golden("rerun-memory/annotations.json", json.dumps(
        list(plan.annotations), indent=1, ensure_ascii=False) + "\n")
