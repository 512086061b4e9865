"""The reviewer's words follow the report, not the action alone.

A red in both classes is "a real property miss" only when the digest gate says so
(``property_miss``): the action's JUnit route has no digests, so its label is ``unclassified``
and the words must not claim more than the gate knows (newcomer trial, iso8601)."""

from __future__ import annotations

from typing import Any

import pytest

from gate.github import review, summary
from tests import golden_cases as g
from tests.typed_report import typed, typed_pair

NOW = g.NOW


def stable(label: str) -> dict[str, Any]:
    runs = [{"run_id": "l", "server_class": "local-pinned", "outcome": "assert_fail"},
            {"run_id": "f", "server_class": "free-server", "outcome": "assert_fail"}]
    return {"test_id": "t", "action": "reject_stable_fail", "status": "rejected", "row": 8,
            "runs": runs, "fixture_sha256": None, "failure_class": label,
            "freeze_allowed": False, "fixture_path": None}


@pytest.mark.parametrize("label", ["property_miss", "unclassified", "fixture_drift"])
def test_a_stable_fail_is_a_property_miss_only_when_labelled_so(label: str) -> None:
    pair = stable(label)
    texts = ["\n".join(review.red_block(typed_pair(pair), NOW, 30, review.View())),
             review.plain_next_step(typed_pair(pair), NOW, 30),
             review.annotation_message(typed_pair(pair), NOW, 30)]
    for text in texts:
        assert ("real property miss" in text) is (label == "property_miss"), (label, text)
        assert "fix the code or the property" in text
    if label == "unclassified":
        assert "cannot tell whether both failed the same way" in texts[0]
    if label == "fixture_drift":
        assert "inputs differ" in texts[1]


def test_unclassified_with_two_examples_says_they_differ_not_that_there_are_none() -> None:
    """attrs trial: "the stamps carry no falsifying example" stood right under two examples."""
    pair = stable("unclassified")
    for run, x in zip(pair["runs"], ("0", "1"), strict=True):
        run["failure"] = {"type": "AssertionError", "message": "m",
                          "example": f"Failing test case: t(x={x})", "reproduce": None}
    text = review.plain_next_step(typed_pair(pair), NOW, 30)
    assert "on different falsifying examples" in text and "carry no" not in text
    pair["runs"][1]["failure"]["example"] = None  # one of them printed none: nothing to compare
    assert "carry no falsifying example" in review.plain_next_step(typed_pair(pair), NOW, 30)


def test_two_classes_to_re_run_are_two_paragraphs() -> None:
    """attrs trial: "Next step (local-pinned): … Next step (free-server): …" rendered as one
    paragraph (two consecutive Markdown lines)."""
    runs = [{"run_id": r, "server_class": c, "outcome": "resource_exit", "note": "timeout"}
            for r, c in (("l", "local-pinned"), ("f", "free-server"))]
    pair = {"test_id": "t", "action": "reject_run_retry_new_id", "status": "rejected", "row": 4,
            "runs": runs, "fixture_sha256": None, "failure_class": "harness_flake",
            "freeze_allowed": False, "fixture_path": None}
    block = "\n".join(review.red_block(typed_pair(pair), NOW, 30, review.View()))
    assert "\n\n**Next step (free-server):**" in block, block
    assert block.count("**Next step (") == 2


def test_a_deadline_miss_says_so_and_what_to_change_not_only_re_run() -> None:
    """attrs re-trial: a test slower than the card's deadline in both classes read "did not
    finish (resource exit) ... re-run the stamp job", which fails the same way again."""
    note = ("hypothesis.errors.DeadlineExceeded: a test case exceeded the deadline; not an "
            "assertion result")
    runs = [{"run_id": r, "server_class": c, "outcome": "resource_exit", "note": note}
            for r, c in (("l", "local-pinned"), ("f", "free-server"))]
    pair = {"test_id": "t", "action": "reject_run_retry_new_id", "status": "rejected", "row": 4,
            "runs": runs, "fixture_sha256": None, "failure_class": "harness_flake",
            "freeze_allowed": False, "fixture_path": None}
    block = "\n".join(review.red_block(typed_pair(pair), NOW, 30, review.View()))
    assert "exceeded the card's deadline" in block and "did not finish" not in block, block
    assert "raise `deadline_ms` in the card" in block
    plain = review.plain_next_step(typed_pair(pair), NOW, 30)
    assert "raise deadline_ms in its card" in plain and "after fixing the cause" not in plain
    report = {"pairs": [pair, {**pair, "test_id": "u"}]}
    (line, _) = review.common_causes(typed(report))[:2]
    assert "test cases ran longer than the cards' deadline" in line


def test_the_junit_route_summary_never_claims_a_property_miss() -> None:
    report = g.junit_route()
    (both,) = [p for p in report["pairs"] if p["action"] == "reject_stable_fail"]
    assert both["failure_class"] == "unclassified"  # no digests on the JUnit route
    md = summary.render(typed(report), view=g.VIEW)
    assert "property miss" not in md and "failure_class=unclassified" in md


def test_the_log_a_reviewer_is_sent_to_is_linked() -> None:
    """Rendered and looked at (notes/render-*.png): "the stamp job's log" was named, never
    linked; it now points at the workflow run's page (its jobs and logs) when that is known."""
    (red,) = [p for p in g.junit_route()["pairs"] if p["action"] == "reject_not_allowlisted"]
    linked = "\n".join(review.red_block(typed_pair(red), NOW, 30, g.VIEW))
    assert f"[the stamp job&#39;s log]({g.VIEW.run_url}) has the assertion" in linked
    plain = "\n".join(review.red_block(typed_pair(red), NOW, 30, review.View()))
    assert "the stamp job's log has the assertion" in plain  # no run page known: no link


def test_a_collection_error_names_the_file_and_the_likely_cause() -> None:
    pair = g.collection_error()["pairs"][0]
    text = "\n".join(review.next_step(typed_pair(pair), NOW, 30, g.VIEW))
    assert "tests.test&#95;helpers failed to collect there (exit code 2)" in text
    assert "The local-pinned run collected it" in text and "lacks a dependency" in text
    assert f"]({g.VIEW.run_url}) has the error" in text


def test_a_frozen_test_tells_the_reviewer_nothing_is_needed_and_the_owner_when() -> None:
    (frozen,) = [p for p in g.one_of_each()["pairs"] if p["status"] == "frozen"]
    text = "\n".join(review.next_step(typed_pair(frozen), NOW, 30, g.VIEW))
    assert text.startswith("**Next step:** nothing for this change")
    assert ("The owner (&#64;&#8203;parsers) fixes the free-server failure before the freeze "
            "ends, 2026-09-26 14:13 UTC, in 5 days") in text


@pytest.mark.parametrize("repro", ["@reproduce_failure('6.170.17', b'AEFk')",
                                   "x` <script>alert(1)</script>\n# `` [l](http://e)"])
def test_the_reproduce_line_renders_verbatim_and_inert(repro: str) -> None:
    """Newcomer trial: entities showed raw inside the code span (``&#64;reproduce&#95;...``)."""
    import html
    import re

    markdown_it = pytest.importorskip("markdown_it")
    pair = stable("property_miss")
    pair["runs"][0]["failure"] = {"reproduce": repro}
    (line,) = review.next_step(typed_pair(pair), NOW, 30, review.View())
    out = str(markdown_it.MarkdownIt("commonmark", {"html": True}).render(line))
    assert out.count("<p>") == 1 and "<script>" not in out and "<a " not in out, out
    (code,) = re.findall("<code>(.*?)</code>", out, re.S)
    assert html.unescape(code) == repro.replace("\n", " ")


def test_a_state_machines_reproduce_line_says_it_goes_on_the_machine_class() -> None:
    """pyrsistent trial: Hypothesis says "as a decorator on your test function", but a
    machine's test is ``TestCase.runTest`` (Hypothesis's code); the class carries it."""
    pair = stable("property_miss")
    for run in pair["runs"]:
        run["failure"] = {"reproduce": "@reproduce_failure('6.170.17', b'AA==')",
                          "example": "Failing test case: <state machine>\n"
                                     "state = PVectorBuilder()\nstate.teardown()"}
    (line,) = review.next_step(typed_pair(pair), NOW, 30, review.View())
    assert line.endswith("Reproduce locally: `@reproduce_failure('6.170.17', b'AA==')` on the "
                         "state machine class `PVectorBuilder` (not its `TestCase`)"), line
    pair["runs"][0]["failure"]["example"] = pair["runs"][1]["failure"]["example"] = (
        "Failing test case: t(\n    x=1,\n)")
    (line,) = review.next_step(typed_pair(pair), NOW, 30, review.View())
    assert line.endswith("b'AA==')`"), line  # a plain test: the line alone, as before


def test_the_allowlist_suggestion_says_where_it_goes() -> None:
    """Pasted below gate init's ``allowlist: []``, a snippet starting ``allowlist:`` is a
    duplicate key: the lead-in says to replace that line or add the item under it."""
    pair = next(p for p in g.one_of_each()["pairs"] if p["action"] == "reject_not_allowlisted")
    lead = review.next_step(typed_pair(pair), NOW, 30, review.View())[0]
    assert "replace its `allowlist: []` line" in lead
    assert "under its existing `allowlist:`" in lead
