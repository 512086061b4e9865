"""Issue 29 items 2, 3 and 5: every red block says in words what the gates decided, an
allowlist entry that does not apply says why, and configuration notes sit below the reds."""

from __future__ import annotations

from gate.github import plain, summary
from tests import golden_cases as g
from tests.typed_report import typed


def test_a_deadline_red_with_an_allowlist_entry_says_the_entry_does_not_apply() -> None:
    """The slow free runner's DeadlineExceeded on an allowlisted test stays rejected (a resource
    exit is never frozen); every sink says the entry does not apply, and names deadline_ms
    instead of asking whether the other class missed it too (it passed)."""
    report = typed(g.deadline_allowlisted())
    md = summary.render(report, view=g.VIEW)
    assert "The allowlist entry for this test does not apply:" in md
    assert "never frozen" in md and "`deadline_ms`" in md
    assert "If the other class missed it too" not in md
    assert "the local-pinned run passed on the same card" in md
    assert "Freeze ends" not in md  # the entry is not a freeze
    for line in [*plain.log_lines(report), *plain.annotation_commands(report)]:
        if "test_render_all" in line:
            assert "does not apply" in line and "deadline_ms" in line


def test_every_red_block_glosses_the_required_lines() -> None:
    for make in (g.one_of_each, g.health_check, g.deadline_allowlisted):
        md = summary.render(typed(make()), view=g.VIEW)
        blocks = [b for b in md.split("\n#### ")[1:] if not b.startswith("✅")]
        assert blocks
        for block in blocks:
            assert "**The required lines below, in words:**" in block, block[:200]
            assert "`freeze_allowed` is the digest gate's verdict on harness noise" in block
            assert "decided the door" in block
            assert block.index("in words:**") < block.rindex("<details>")
    md = summary.render(typed(g.deadline_allowlisted()), view=g.VIEW)
    assert "`fixture_sha256` is the Hypothesis generator's digest" in md  # no sampler file


def test_configuration_notes_are_collapsed_below_the_reds() -> None:
    notes = ["stamps are unsigned (policy signing.mode is off)",
             "check run not published: GITHUB_TOKEN not set"]
    md = summary.render(typed(g.one_of_each()), notes=notes, view=g.VIEW)
    last_red = max(md.rindex("\n#### ❌"), md.rindex("\n#### 🧊"))
    opened = md.index("<details><summary>Configuration notes (2)")
    assert md.count("stamps are unsigned") == 1 and opened > last_red
    assert md.index("check run not published") > opened
    assert md.index("> **Note:**") > opened


def test_red_headings_are_at_least_as_prominent_as_green_ones() -> None:
    md = summary.render(typed(g.one_of_each()), view=g.VIEW)
    green = next(line for line in md.splitlines() if "accepted (green in both" in line)
    red = next(line for line in md.splitlines() if line.lstrip("#").startswith(" ❌"))
    assert len(red) - len(red.lstrip("#")) <= len(green) - len(green.lstrip("#"))
