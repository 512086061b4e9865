"""No Markdown surface made from a record mentions or cross-references anyone (issue 20.6).

A test id, a failure message, a reason, a file name or an allowlist owner can hold ``@name``,
``@org/team``, ``#123``, ``GH-123`` or ``owner/repo#123``. Rendered by GitHub, in the pull
request comment, the job summary or the check run, they would notify people and teams, or put a
"mentioned this" event on another issue, on every push. Each sink is rendered here with
markdown-it (CommonMark with tables and raw HTML), and every text node is read the way GitHub's
mention and reference filters read it: one text node at a time, skipping ``a``, ``code``,
``pre`` (html-pipeline's ``MentionFilter`` ``IGNORE_PARENTS``), where nothing is linked.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from gate.github import checks, comment, markdown, review, summary
from tests import golden_cases as g
from tests.typed_report import typed

markdown_it = pytest.importorskip("markdown_it")

PLANT = " @mallory @acme/core cc:#31337 GH-31337 gh-31337 acme/widgets#31337 (@mallory)"
#: What GitHub would link, read loosely (a strict superset of its own patterns): an ``@`` right
#: before a user or team name, a ``#`` or ``GH-`` right before the issue number.
LINKED = re.compile(r"@(?:mallory|acme)|#31337|gh-31337", re.IGNORECASE)
IGNORED_PARENTS = {"a", "code", "pre", "style", "script"}


class TextNodes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in {"br", "img", "hr", "input"}:
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop() == tag:
                break

    def handle_data(self, data: str) -> None:
        if not IGNORED_PARENTS & set(self._open):
            self.nodes.append(data)


def linked(md: str) -> list[str]:
    html = str(markdown_it.MarkdownIt("commonmark", {"html": True})
               .enable(["table", "strikethrough"]).render(md))
    parser = TextNodes()
    parser.feed(html)
    return [node for node in parser.nodes if LINKED.search(node)]


def planted_report() -> dict[str, Any]:
    """The golden report with mentions planted in the test ids, failure texts, reasons, run
    ids, paths and the allowlist's reason (the owner is the golden's own ``@parsers``)."""
    text = json.dumps(g.one_of_each())
    for word in ("test_locale_round_trip", "test_float_sum", "tr_TR", "the free runner lacks",
                 "both oracles", "l-loc", "fixtures/"):
        text = text.replace(word, word + PLANT.replace('"', ""))
    report = json.loads(text)
    assert text.count("@mallory") > 10
    return report


def _settings() -> checks.Settings:
    return checks.Settings(token="t", api_url="https://api.github.com", repository="octo/props",
                           head_sha=g.HEAD, view=g.VIEW)


@pytest.mark.parametrize("sink", ["job summary", "check run", "pull request comment"])
def test_a_record_never_mentions_or_references_anyone(sink: str) -> None:
    report = planted_report()
    if sink == "job summary":
        md = summary.render(typed(report), view=g.VIEW)
    elif sink == "check run":
        plan = checks.plan(typed(report), _settings())
        md = plan.summary + "\n\n" + plan.text
    else:
        md = comment.body(typed(report), "agent-patch gate", g.VIEW)
    assert "mallory" in md and "31337" in md  # shown, only not linked
    assert linked(md) == []


@pytest.mark.parametrize("sink", ["job summary", "check run"])
def test_an_error_naming_a_planted_file_mentions_no_one(sink: str) -> None:
    what = "gate-stamps-local-pinned-x/@mallory #31337.json: (file): not a stamp" + PLANT
    md = (summary.render_error(what, g.VIEW) if sink == "job summary"
          else checks.error_plan(what, _settings()).summary)
    assert "mallory" in md and linked(md) == []


def test_the_allowlist_owner_is_shown_not_pinged() -> None:
    """The owner comes from the policy file, which the pull request under test can change,
    and the comment and summary are rendered again on every push: it is shown, never a
    mention (see gate/github/markdown.py)."""
    md = summary.render(typed(g.one_of_each()), view=g.VIEW)
    assert "parsers" in md
    html = str(markdown_it.MarkdownIt("commonmark", {"html": True}).enable(["table"]).render(md))
    assert "@\u200bparsers" in html
    assert not re.search(r"@parsers", html)


@pytest.mark.parametrize(("text", "shown"), [
    ("@mallory", "@\u200bmallory"),
    ("x @acme/core y", "x @\u200bacme/core y"),
    ("#31337", "#\u200b31337"),
    ("acme/widgets#31337", "acme/widgets#\u200b31337"),
    ("GH-31337 and gh-1", "GH-\u200b31337 and gh-\u200b1"),
    ("BIGGH-1 sigh-1", "BIGGH-1 sigh-1"),  # not a reference: GitHub needs a word boundary
])
def test_inline_breaks_mentions_and_references(text: str, shown: str) -> None:
    import html

    assert html.unescape(markdown.inline(text)) == shown
    assert linked(markdown.inline(text)) == []


def test_code_spans_and_blocks_stay_verbatim() -> None:
    """GitHub links nothing inside code: the reproduce line keeps its exact ``@``."""
    assert markdown.code_span("@reproduce_failure('6.1', b'x') #1") == (
        "`@reproduce_failure('6.1', b'x') #1`")
    assert markdown.code_line("@mallory #31337") == "@mallory #31337"
    assert review is not None


def test_the_stamp_jobs_summaries_mention_no_one() -> None:
    from tests.core_helpers import FREE, stamp

    stamps = [stamp(FREE, outcome, run_id=f"r{i}", test_id=f"tests/t.py::t{i}{PLANT}")
              for i, outcome in enumerate(["pass", "assert_fail", "resource_exit"])]
    done = summary.render_stamp_done(stamps, server_class=FREE, artifact="gate-stamps-x",
                                     manifest=".github/gate.yml", recorder=True, view=g.VIEW)
    failed = summary.render_stamp_error("tests/@mallory.py: bad" + PLANT)
    for md in (done, failed):
        assert "mallory" in md and linked(md) == []
