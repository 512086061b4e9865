"""The four pair outputs describe the first red pair; with none, they say so (``none``/``false``).

The newcomer trial saw ``failure-class=unclassified`` and ``fixture-sha256=none`` for a run
whose every pair was green (the JUnit route labels a green pair without digests
``unclassified``): a workflow branching on ``failure-class`` would have taken it for a failure.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from gate.github import summary, workflow
from gate.records import pairing
from tests import golden_cases as g
from tests.typed_report import typed

ROOT = Path(__file__).resolve().parent.parent
NOTHING = {"failure-class": "none", "freeze-allowed": "false", "fixture-sha256": "none",
           "fixture-path": "none"}


def junit_green() -> dict[str, Any]:
    s = [g._junit("test_a", 1, g.LOCAL, "pass", "l-a"), g._junit("test_a", 1, g.FREE, "pass",
                                                              "f-a")]
    return g._report(g._loaded(*s), [])


def no_pairs() -> dict[str, Any]:
    return pairing.build_report([], g.NOW)


@pytest.mark.parametrize("make", [g.all_green, junit_green, no_pairs])
def test_no_red_pair_gives_none(make: Any) -> None:
    report = make()
    assert not [p for p in report["pairs"] if p["status"] != "accepted"]
    out = workflow.report_outputs(typed(report), "r.json")
    assert {k: out[k] for k in NOTHING} == NOTHING
    assert out["decision"] == ("closed" if not report["pairs"] else "open")


def test_the_junit_green_pair_is_unclassified_in_the_report_but_not_in_the_outputs() -> None:
    report = junit_green()
    assert report["pairs"][0]["failure_class"] == "unclassified"  # the digest gate's row 1
    assert workflow.report_outputs(typed(report), "r.json")["failure-class"] == "none"


FOUR = re.compile(r"^test_id=(.*)\nfixture_sha256=(.*)\nfailure_class=(.*)\n"
                  r"freeze_allowed=(.*)\nfixture_path=(.*)$", re.M)


@pytest.mark.parametrize("make", [g.one_of_each, g.junit_route, g.collection_error,
                                  g.broken_stamp_run])
def test_a_red_run_outputs_the_four_lines_of_its_first_red_block(make: Any) -> None:
    report = make()
    md = summary.render(typed(report), view=g.VIEW)
    first = FOUR.search(md)
    assert first is not None
    out = workflow.report_outputs(typed(report), "r.json")
    assert (out["fixture-sha256"], out["failure-class"], out["freeze-allowed"],
            out["fixture-path"]) == first.groups()[1:]


def test_only_a_frozen_pair_outputs_the_frozen_one() -> None:
    s = [g._stamp("test_w", 5, g.LOCAL, "pass", "l-w"),
         g._stamp("test_w", 5, g.FREE, "assert_fail", "f-w"), *g._green("test_ok", 9)]
    report = g._report(g._loaded(*s), [g._allow("test_w", g.NOW + 6 * g.DAY)])
    assert report["counts"] == {"accepted": 1, "frozen": 1, "rejected": 0}
    out = workflow.report_outputs(typed(report), "r.json")
    # issue 22: freeze-allowed is the digest gate's verdict (a split oracle: unclassified),
    # the allowlisted freeze is the open decision
    assert (out["decision"], out["failure-class"], out["freeze-allowed"]) == (
        "open", "unclassified", "false")
    assert out["fixture-path"] == "fixtures/test_w.json"


def test_action_yml_says_what_no_red_pair_gives() -> None:
    outputs = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["outputs"]
    assert "`none` when no pair is red" in outputs["failure-class"]["description"]
    assert "`false` when no pair is red" in outputs["freeze-allowed"]["description"]
    for name in ("fixture-sha256", "fixture-path"):
        assert "no pair is red" in outputs[name]["description"]


def test_freeze_allowed_output_is_the_digest_gates_verdict() -> None:
    """Issue 22: one meaning: ``freeze-allowed`` is true exactly when ``failure-class`` is
    ``harness_flake`` (a run that did not finish), whatever the stamp gate decided."""
    s = [g._stamp("test_w", 5, g.LOCAL, "pass", "l-w"),
         g._stamp("test_w", 5, g.FREE, "resource_exit", "f-w", note="killed by signal 9")]
    out = workflow.report_outputs(typed(g._report(g._loaded(*s), [])), "r.json")
    assert (out["decision"], out["failure-class"], out["freeze-allowed"]) == (
        "closed", "harness_flake", "true")
