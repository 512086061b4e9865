"""The job summary and the check run's Markdown, rendered the way a browser shows them
(markdown-it-py, CommonMark with GitHub's tables and raw HTML such as ``<details>``).

Checks what a reviewer sees: the first red test's block comes before any green row; every link
to a test points at ``path#Lline`` under the repository's blob URL for the head SHA; and no
escape sequence (``&#95;``, ``&amp;``, a backslash escape) is visible as text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from gate.github import checks, summary
from tests import golden_cases as g
from tests.test_summary import hostile_report
from tests.typed_report import typed

markdown_it = pytest.importorskip("markdown_it")

BLOB = f"https://github.com/octo/props/blob/{g.HEAD}/"
VISIBLE_ESCAPE = re.compile(r"&#?[0-9A-Za-z]+;|\\[!-/:-@\[-`{-~]")


def render(md: str) -> str:
    return str(markdown_it.MarkdownIt("commonmark", {"html": True})
               .enable(["table", "strikethrough"]).render(md))


class Page(HTMLParser):
    """Text (outside ``<pre>``), links, and where the first red heading and green item are."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.links: list[str] = []
        self.events: list[tuple[str, str]] = []
        self._pre = 0
        self._tag: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag.append(tag)
        if tag == "pre":
            self._pre += 1
        if tag == "a":
            self.links.append(dict(attrs).get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._pre -= 1
        if self._tag:
            self._tag.pop()

    def handle_data(self, data: str) -> None:
        where = self._tag[-1] if self._tag else ""
        if data.strip():
            self.events.append((where, data))
        if not self._pre:
            self.text.append(data)


def page(md: str) -> Page:
    parsed = Page()
    parsed.feed(render(md))
    return parsed


def _first(events: list[tuple[str, str]], match: Any) -> int:
    return next(i for i, event in enumerate(events) if match(event))


def _markdown(report: dict[str, Any], which: str) -> str:
    """What GitHub renders for ``report``: the job summary, or the check run's summary and text."""
    if which == "summary":
        return summary.render(typed(report), view=g.VIEW)
    settings = checks.Settings(token="t", api_url="https://api.github.com",
                               repository="octo/props", head_sha=g.HEAD, view=g.VIEW)
    plan = checks.plan(typed(report), settings)
    return plan.summary + "\n\n" + plan.text


@pytest.mark.parametrize("which", ["summary", "check-run"])
def test_red_first_links_to_blob_lines_no_visible_escapes(which: str) -> None:
    report = g.one_of_each()
    md = _markdown(report, which)
    parsed = page(md)
    # the first red block (a heading with ❌) comes before any green row (an accepted list item)
    first_red = _first(parsed.events, lambda e: e[0] == "h4" and "❌" in e[1])
    greens = [i for i, (tag, text) in enumerate(parsed.events)
              if text.startswith("tests/test_props.py::test_sort_stable") and tag == "a"]
    assert greens and first_red < min(greens)
    assert parsed.events[first_red + 1][1] == "tests/test_props.py::test_big_input"
    # every link to a test: path#Lline under the blob URL of the head SHA
    test_links = [href for href in parsed.links if "/blob/" in href]
    assert len(test_links) == len(report["pairs"])
    for href in test_links:
        assert href.startswith(BLOB), href
        assert re.fullmatch(re.escape(BLOB) + r"tests/test_props\.py#L[1-9][0-9]*", href), href
    # no escape sequence is visible as text (outside code blocks, where values are verbatim)
    text = "".join(parsed.text)
    assert not VISIBLE_ESCAPE.findall(text), VISIBLE_ESCAPE.findall(text)[:5]
    assert "tests/test_props.py::test_locale_round_trip" in text
    assert "in 5 days" in text and "expires within 7 days" in text


def test_hostile_strings_render_as_text() -> None:
    md = summary.render(typed(hostile_report()), view=g.VIEW)
    html = render(md)
    parsed = page(md)
    assert "<script" not in html and "<img" not in html  # only as escaped text
    text = "".join(parsed.text)
    assert "<script>alert(1)</script>" in text  # shown, not run
    assert "**bold** _it_ [link](javascript:alert(1))" in text  # the id, verbatim as text
    for href in parsed.links:
        assert href.startswith("https://github.com/"), href


def test_error_summary_renders() -> None:
    parsed = page(summary.render_error(g.NO_STAMPS, g.VIEW))
    text = "".join(parsed.text)
    assert "no artifact matched the pattern gate-stamps-*" in text
    assert not VISIBLE_ESCAPE.findall(text)


@pytest.mark.parametrize("which", ["summary", "check-run"])
def test_the_judge_files_read_as_text_above_the_greens(which: str) -> None:
    report = g.judge_files()
    md = _markdown(report, which)
    parsed = page(md)
    html = render(md)
    assert "<img" not in html  # a hostile file name is text in its code span
    heading = _first(parsed.events, lambda e: "files the gated properties depend on" in e[1])
    greens = [i for i, (tag, text) in enumerate(parsed.events)
              if tag == "a" and text.startswith("tests/test_props.py::")]
    assert greens and heading < min(greens)
    codes = [text for tag, text in parsed.events if tag == "code" and "report" not in text]
    assert codes[:5] == ["pytest.ini", "tests/test_props.py", "src/props/merge2.py",
                         "src/props/merge.py", "tests/`<img src=x>`@team #1/conftest.py"]
    text = "".join(parsed.text)
    assert "— all 3 properties · test harness" in text
    assert "— 2 properties · fixture: tests/test_props.py::test_json_round_trip, " in text
    assert not VISIBLE_ESCAPE.findall(text), VISIBLE_ESCAPE.findall(text)[:5]
    assert not [href for href in parsed.links if "conftest" in href or "img" in href]


def test_an_unlisted_compare_is_one_readable_line() -> None:
    parsed = page(summary.render(typed(g.judge_files_unlisted()), view=g.VIEW))
    text = "".join(parsed.text)
    # a configuration note in the collapsed section below the reds (894d265), one readable line
    line = ("Note: what judges this patch is not shown: could not list the changed files: "
            "repository or commit not found (or not visible to the token): HTTP 404 Not Found "
            "(the gate decided as it always does; only this list is missing)")
    assert line in text.splitlines()
    assert text.index("Configuration notes (1)") < text.index(line)
