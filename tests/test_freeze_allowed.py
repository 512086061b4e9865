"""``freeze_allowed`` has one meaning, over every decision row (issue 22).

A trial saw a frozen pair print ``freeze_allowed=true`` beside ``failure_class=unclassified``,
and the un-frozen red the next step said to freeze print ``freeze_allowed=false``: a reviewer
could not tell what it meant. Now the four lines are the digest gate's verdict, always:
``freeze_allowed=true`` exactly when ``failure_class=harness_flake`` (SPEC §4: "only the narrow
harness_flake row may set the freeze flag"). The stamp gate's decision (an allowlisted freeze
inside the failing class) stands on its own line (``stamp_gate=``) and in the block's words.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from gate.github import review
from gate.records import report as report_lines
from tests import golden_cases as g
from tests import manual
from tests.typed_report import typed_pair

ROOT = Path(__file__).resolve().parent.parent
OUTCOMES = ("pass", "assert_fail", "resource_exit", "empty_body")
ALLOW = {
    "not allowlisted": ([], g.NOW + 20 * g.DAY),
    "allowlisted, card unexpired": (["entry"], g.NOW + 20 * g.DAY),
    "allowlisted, card expired": (["entry"], g.NOW - g.DAY),
    "allowlisted, entry expired": (["expired entry"], g.NOW + 20 * g.DAY),
}


def _stamp(cls: str, outcome: str, run_id: str, card_expires: int, pinned: bool,
           **extra: Any) -> dict[str, Any]:
    card = g._card("test_x", card_expires)
    make = g._stamp if pinned else g._junit
    return make("test_x", 3, cls, outcome, run_id, card, **extra)


def _allow(kinds: list[str]) -> list[Any]:
    return [g._allow("test_x", g.NOW - g.DAY if k == "expired entry" else g.NOW + 10 * g.DAY)
            for k in kinds]


CROSS = [(lo, fo, allow, pinned) for lo, fo in itertools.product(OUTCOMES, OUTCOMES)
         for allow in ALLOW for pinned in (True, False)]


@pytest.mark.parametrize(("local", "free", "allow", "pinned"), CROSS)
def test_cross_class_freeze_allowed_is_the_digest_gates_verdict(local: str, free: str,
                                                                allow: str, pinned: bool) -> None:
    kinds, card_expires = ALLOW[allow]
    stamps_ = [_stamp(g.LOCAL, local, "l1", card_expires, pinned),
               _stamp(g.FREE, free, "f1", card_expires, pinned)]
    (pair,) = g._report(g._loaded(*stamps_), _allow(kinds))["pairs"]
    assert pair["freeze_allowed"] is (pair["failure_class"] == "harness_flake")
    assert report_lines.stamp_gate_line(pair) == f"stamp_gate={pair['action']}"
    if (local, free, allow) == ("pass", "assert_fail", "allowlisted, card unexpired"):
        # the case the trial saw: frozen by the allowlist (the stamp gate), while the digest
        # gate could not show it is harness noise
        assert pair["status"] == "frozen"
        assert (pair["freeze_allowed"], pair["failure_class"]) == (False, "unclassified")
        block = "\n".join(review.red_block(typed_pair(pair), g.NOW, 30, g.VIEW))
        assert "freeze_allowed=false" in block and "stamp_gate=freeze_inside_server_class" in block
        assert "frozen inside free-server by a reviewed allowlist entry" in block
        assert "the digest gate could not show the red is harness noise" in block
        assert "- Owner: " in block and "- Reason: the free runner lacks" in block
        assert "- Freeze ends:" in block


RERUN = list(itertools.product(OUTCOMES, OUTCOMES, (True, False), (False, True)))


@pytest.mark.parametrize(("first", "second", "pinned", "timed_out"), RERUN)
def test_same_class_freeze_allowed_is_the_digest_gates_request(first: str, second: str,
                                                               pinned: bool,
                                                               timed_out: bool) -> None:
    extra = {"timed_out": True} if timed_out and second in ("resource_exit", "empty_body") else {}
    stamps_ = [_stamp(g.FREE, first, "f1", g.NOW + 20 * g.DAY, pinned),
               _stamp(g.FREE, second, "f2", g.NOW + 20 * g.DAY, pinned, **extra),
               _stamp(g.LOCAL, "pass", "l1", g.NOW + 20 * g.DAY, pinned)]
    report = g._report(g._loaded(*stamps_), [])
    (rerun,) = report["reruns"]
    assert rerun["gate"] == "digest" and rerun["status"] == "rejected"
    assert rerun["freeze_allowed"] is (rerun["failure_class"] == "harness_flake")


def test_every_row_of_both_tables_is_reached() -> None:
    """The parametrizations above reach a frozen pair and a harness_flake rerun (else the
    agreement would be vacuous)."""
    frozen = [g._stamp("test_x", 3, g.LOCAL, "pass", "l"),
              g._stamp("test_x", 3, g.FREE, "assert_fail", "f")]
    assert g._report(g._loaded(*frozen), _allow(["entry"]))["pairs"][0]["status"] == "frozen"
    flake = [_stamp(g.FREE, "pass", "f1", g.NOW + g.DAY, True),
             _stamp(g.FREE, "resource_exit", "f2", g.NOW + g.DAY, True)]
    (rerun,) = g._report(g._loaded(*flake), [])["reruns"]
    assert (rerun["failure_class"], rerun["freeze_allowed"]) == ("harness_flake", True)


def readme_table() -> dict[str, str]:
    text = manual.text()
    start = text.index("<!-- freeze_allowed: tests/test_freeze_allowed.py")
    rows = re.findall(r"^\| ([^|]+) \| (.+) \|$", text[start:start + 3000], re.M)
    return {k.strip(): v for k, v in rows[1:3]}


def test_the_readme_says_what_the_code_does() -> None:
    table = readme_table()
    assert list(table) == ["cross-class (local-pinned and free-server)",
                           "same-class rerun (digest gate alone)"]
    cross, rerun = table.values()
    assert cross.startswith("`failure_class` is `harness_flake`")
    assert "`stamp_gate=freeze_inside_server_class`" in cross
    assert rerun.startswith("`failure_class` is `harness_flake`") and "stays rejected" in rerun
    text = manual.text()
    assert "whatever `failure_class` says" not in text
