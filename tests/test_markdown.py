"""Escaping untrusted text for Markdown/HTML/Mermaid, and length-safe truncation."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.github import markdown

anything = st.text(max_size=300) | st.sampled_from([
    "a|b", "`x`", "<script>", "&amp;", "\r\n", "# h", "1. x", "---", "\ud83d", "😀", "\u202e",
    "$x$", "\\", "-->", '"]', "#35;",
])


@given(anything)
def test_inline_decodes_back_to_the_one_line_text(text: str) -> None:
    out = markdown.inline(text)
    # (a ZERO WIDTH SPACE after each @, # and GH-: never a mention or reference, test_mentions)
    assert html.unescape(out).replace("\u200b", "") == markdown.one_line(text)


@given(anything)
def test_inline_has_no_markup_and_no_newline(text: str) -> None:
    out = markdown.inline(text)
    assert not set("\r\n|<>`*_[]()#!~$\\\"'") & set(out.replace("&#", "").replace(";", ""))
    assert not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\ud800-\udfff]", out)
    out.encode("utf-8")  # no lone surrogate left
    if out:
        assert out[0].isalpha() or out.startswith("&#")


def test_inline_examples() -> None:
    assert markdown.inline("a|b") == "a&#124;b"
    assert markdown.inline("<b>") == "&#60;b&#62;"
    assert markdown.inline("- x") == "&#45; x"
    assert markdown.inline("1. x") == "&#49;. x"
    assert markdown.inline("=====") == "&#61;===="
    assert markdown.inline("x\r\ny") == "x y"
    assert markdown.inline("\u202eevil") == "&#92;u202eevil"
    assert markdown.inline("abc" * 10, max_chars=5) == "abca…"


@given(anything)
def test_code_line_keeps_ordinary_text_verbatim(text: str) -> None:
    out = markdown.code_line(text)
    assert "\n" not in out and "\r" not in out
    if not re.search("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                     "\ufeff\ud800-\udfff]", text):
        assert out == text


@given(st.lists(anything, max_size=5))
def test_fence_is_longer_than_any_backtick_run(lines: list[str]) -> None:
    block = markdown.code_block(lines)
    fence = block[-1]
    assert block[0] == fence + "text"
    body = block[1:-1]
    assert len(body) == len(lines)
    assert all(len(run) < len(fence) for line in body for run in re.findall("`+", line))


@given(anything)
def test_mermaid_label_is_inert(text: str) -> None:
    out = markdown.mermaid_label(text)
    assert re.fullmatch(r"([A-Za-z0-9 _.,:/=+-]|#\d+;)*", out), out


@given(anything, st.integers(0, 400), st.sampled_from(["chars", "utf16", "bytes"]))
def test_truncate_fits_and_is_a_prefix(text: str, limit: int, unit: markdown.Measure) -> None:
    out = markdown.truncate(text, limit, unit=unit)
    assert markdown.measure(out, unit) <= limit
    if out == text:
        return
    body = out[: -len(markdown.ELLIPSIS)] if out.endswith(markdown.ELLIPSIS) else out
    assert text.startswith(body)


def test_truncate_never_splits_a_character() -> None:
    text = "a😀" * 10
    units: tuple[markdown.Measure, ...] = ("utf16", "bytes")
    for limit in range(0, 40):
        for unit in units:
            out = markdown.truncate(text, limit, unit=unit)
            out.encode("utf-8")
            assert markdown.measure(out, unit) <= limit
    assert markdown.truncate("😀😀😀", 9, unit="bytes") == "😀…"
    assert markdown.truncate("😀😀😀", 4, unit="utf16") == "😀…"
    assert markdown.truncate("😀😀😀", 2, unit="chars") == "😀…"


def test_lengths() -> None:
    assert markdown.utf8_len("é😀") == 6
    assert markdown.utf16_len("é😀") == 3
    assert markdown.safe_len("é😀") >= max(len("é😀"), markdown.utf16_len("é😀"))
    with pytest.raises(ValueError):
        markdown.truncate("x", -1)


def test_table_keeps_columns() -> None:
    rows = markdown.table(["a", "b"], [[markdown.inline("x|y"), markdown.inline("|")]])
    assert all(row.count("|") == 3 for row in rows)
    with pytest.raises(ValueError):
        markdown.table(["a", "b"], [["only one"]])


@pytest.mark.parametrize(("target", "expected"), [
    ("https://github.com/o/r/runs/1", "https://github.com/o/r/runs/1"),
    ("https://x/a b)(<>", "https://x/a%20b%29%28%3C%3E"),
    ("javascript:alert(1)", None), ("//evil", None), ("", None),
])
def test_url(target: str, expected: str | None) -> None:
    assert markdown.url(target) == expected


def _one_code_span(md: str) -> str:
    """The text of the only ``<code>`` in ``md`` rendered as one paragraph (markdown-it-py)."""
    markdown_it = pytest.importorskip("markdown_it")
    out = str(markdown_it.MarkdownIt("commonmark", {"html": True}).render("See " + md + " now"))
    spans = re.findall("<code>(.*?)</code>", out, re.S)
    assert len(spans) == 1, out
    assert out.startswith("<p>See <code>") and out.endswith("</code> now</p>\n"), out
    return html.unescape(spans[0])


def test_code_span_shows_the_reproduce_line_verbatim() -> None:
    line = "@reproduce_failure('6.170.17', b'AEFk')"
    span = markdown.code_span(line)
    assert span == f"`{line}`"
    assert _one_code_span(span) == line


@pytest.mark.parametrize("text", ["`", "a`b", "``x``", " lead", "trail ", "x\ny\r\nz",
                                  "<script>alert(1)</script>", "a` <b>*x*</b> `c", "```\n# h",
                                  "&#64;", "\u202eevil"])
def test_code_span_is_inert(text: str) -> None:
    assert _one_code_span(markdown.code_span(text)) == markdown.one_line(text)


@given(anything)
def test_code_span_never_breaks_out(text: str) -> None:
    if not text:
        assert markdown.code_span(text) == ""
        return
    assert _one_code_span(markdown.code_span(text)) == markdown.one_line(text)
