"""Escaping untrusted strings for Markdown, HTML and Mermaid, and length-safe truncation.

Test ids, reasons, paths and run ids come from stamps and test output: they are untrusted. Every
such string that reaches a job summary or a check run goes through one of these functions.

* :func:`inline` makes text safe as one line of Markdown *and* HTML: a table cell, a list item,
  a paragraph. Markdown and HTML metacharacters become numeric character references (GitHub
  decodes them back to the same characters when rendering, and a reference is never markup
  and never a table column separator), CR/LF/TAB become spaces, other control, bidi and
  line-separator characters become visible ``\\uXXXX`` text, and a first character that is not
  a letter is encoded too so the text can never start a block (heading, list, quote, fence,
  indented code, setext underline). It also never mentions or cross-references anyone: a
  ZERO WIDTH SPACE (``&#8203;``) follows every ``@`` and ``#`` and the ``-`` of ``GH-`` before
  a digit (see :func:`inline` for why that one).
* :func:`code_line` makes text safe as one line *inside* a fenced code block, where nothing is
  decoded: only control, bidi and line-separator characters are replaced by visible escapes, so
  ordinary values stay verbatim. :func:`code_block` picks a fence longer than any backtick run.
* :func:`code_span` makes text one inline code span (`` `...` ``) *inside* a line of Markdown,
  where, as in a code block, nothing is decoded (an entity would show as ``&#64;``): the text
  is flattened to one line, unsafe characters become visible escapes, and the span's backtick
  string is longer than any backtick run in it, so it cannot be closed early. Not for table
  cells (a ``|`` still splits a GitHub table row there) nor for the start of a line.
* :func:`mermaid_label` keeps letters, digits and a few safe punctuation marks and writes every
  other character as a Mermaid entity code (``#35;``), for use inside ``["..."]`` labels.

Lengths: GitHub documents the check-run ``summary``/``text`` limit as 65535 *characters*, but
it enforces it as a UTF-8 *bytesize* ("summary exceeds a maximum bytesize of 65535"), and the
job-summary limit (1 MiB) is a file size. UTF-8 length is never smaller than the code-point or
UTF-16 length, so :func:`safe_len` counts UTF-8 bytes and is safe under any of the three
readings. Truncation never splits a code point (lone surrogates are counted as 3 bytes, the way
``surrogatepass`` encodes them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

ELLIPSIS = "…"

Measure = Literal["chars", "utf16", "bytes"]

# Characters shown as a visible escape wherever they appear: C0 and C1 controls, DEL, line and
# paragraph separators, bidi embeddings/overrides/isolates and marks (Trojan Source), BOM,
# and lone surrogates (which cannot be encoded as UTF-8 at all).
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]"
)

# Markdown and HTML metacharacters, written as numeric character references in inline text.
_INLINE_SPECIAL = frozenset("&<>\"'`|\\*_[](){}#!~$")


def _visible(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_controls(text: str, keep: str = "") -> str:
    """Replace every unsafe character (see module doc) but those in ``keep`` with a visible
    ``\\xNN``/``\\uNNNN``."""
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else _visible(m.group()), text)


def one_line(text: str) -> str:
    """CR, LF and TAB as spaces, every other unsafe character as a visible escape."""
    flat = text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return visible_controls(flat)


# --- lengths and truncation --------------------------------------------------------------------


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def measure(text: str, unit: Measure = "bytes") -> int:
    if unit == "chars":
        return len(text)
    if unit == "utf16":
        return utf16_len(text)
    return utf8_len(text)


def safe_len(text: str) -> int:
    """The length compared with GitHub's limits: UTF-8 bytes (>= code points, >= UTF-16 units)."""
    return utf8_len(text)


def _prefix(text: str, budget: int, unit: Measure) -> str:
    """The longest prefix of ``text`` measuring at most ``budget``, on a code-point boundary."""
    if budget <= 0:
        return ""
    if unit == "chars":
        return text[:budget]
    if unit == "utf16":
        data = text.encode("utf-16-le", "surrogatepass")[: 2 * budget]
        if len(data) >= 2 and 0xD8 <= data[-1] <= 0xDB:  # a high surrogate cut from its pair
            data = data[:-2]
        return data.decode("utf-16-le", "surrogatepass")
    raw = text.encode("utf-8", "surrogatepass")[:budget]
    end = len(raw)
    # back off to the start of the last (possibly cut) sequence, then keep it only if whole
    start = end
    while start > 0 and raw[start - 1] & 0xC0 == 0x80:
        start -= 1
    if start > 0:
        lead = raw[start - 1]
        size = 1 if lead < 0x80 else 2 if lead >> 5 == 0b110 else 3 if lead >> 4 == 0b1110 else 4
        if end - (start - 1) < size:
            end = start - 1
    return raw[:end].decode("utf-8", "surrogatepass")


def truncate(text: str, limit: int, *, unit: Measure = "chars", marker: str = ELLIPSIS) -> str:
    """``text`` if it measures at most ``limit``, else a prefix plus ``marker`` within ``limit``."""
    if limit < 0:
        raise ValueError("limit must not be negative")
    if measure(text, unit) <= limit:
        return text
    room = limit - measure(marker, unit)
    if room < 0:
        return _prefix(marker, limit, unit)
    return _prefix(text, room, unit) + marker


# --- Markdown / HTML ---------------------------------------------------------------------------


def _ref(ch: str) -> str:
    return f"&#{ord(ch)};"


#: Written after ``@``, ``#`` and a ``GH-`` reference's ``-`` (see :func:`inline`).
NO_LINK = "&#8203;"
_GH_REFERENCE = re.compile(r"(?<![0-9A-Za-z_])gh-(?=[0-9])", re.IGNORECASE)


def inline(text: str, max_chars: int | None = None) -> str:
    """One line of Markdown/HTML-safe text (see module doc); ``max_chars`` cuts the raw text.

    No mention, no reference: GitHub links ``@user``, ``@org/team``, ``#123``,
    ``owner/repo#123`` and ``GH-123`` in the text of a rendered comment, job summary or check
    run (after Markdown, so a numeric reference such as ``&#64;`` or ``&#35;``, which is decoded
    back to the same character first, does not stop it), except inside code and links. A ZERO
    WIDTH SPACE right after the ``@``, ``#`` or ``GH-`` does: the name or number no longer
    follows it. That is what Renovate (renovatebot/renovate ``lib/util/markdown.ts``,
    ``sanitizeMarkdown``) writes into every pull request body it opens on GitHub, for this very
    reason; ``@<!-- -->name`` relies on GitHub keeping the comment's text nodes apart, and a
    code span would show ``&#..;`` escapes verbatim. The character is invisible when shown (and
    appears in a copy of the text). Commit SHAs (``a5c3785``) and ``owner/repo@sha`` are
    autolinked too, but a link to a commit notifies no one and adds nothing to an issue's
    timeline; the ``@`` of the second form gets the space anyway."""
    raw = text if max_chars is None else truncate(text, max_chars)
    flat = one_line(raw)
    out = [_ref(ch) if ch in _INLINE_SPECIAL else ch for ch in flat]
    if out and not ("a" <= flat[0].lower() <= "z"):
        out[0] = _ref(flat[0])
    for index, ch in enumerate(flat):
        if ch in "@#":
            out[index] += NO_LINK
    for match in _GH_REFERENCE.finditer(flat):
        out[match.end() - 1] += NO_LINK
    return "".join(out)


def code_line(text: str) -> str:
    """One line for inside a fenced code block: verbatim except for unsafe characters."""
    return visible_controls(text)


def code_span(text: str, max_chars: int | None = None) -> str:
    """``text`` as one inline code span, shown verbatim (see module doc); ``max_chars`` cuts
    the raw text. Empty text is no span at all (``""``)."""
    raw = text if max_chars is None else truncate(text, max_chars)
    flat = one_line(raw)
    if not flat:
        return ""
    ticks = "`" * (longest_backtick_run([flat]) + 1)
    # CommonMark strips one space from each end when both ends are spaces; pad so a leading or
    # trailing backtick does not join the delimiter and the text's own spaces survive.
    # (Text of spaces only is never stripped.)
    edges = flat[:1] + flat[-1:]
    pad = " " if flat.strip(" ") and ("`" in edges or " " in edges) else ""
    return f"{ticks}{pad}{flat}{pad}{ticks}"


def longest_backtick_run(lines: Iterable[str]) -> int:
    longest = 0
    for line in lines:
        for match in re.finditer("`+", line):
            longest = max(longest, len(match.group()))
    return longest


def fence_for(lines: Sequence[str]) -> str:
    """A backtick fence longer than any backtick run in ``lines`` (at least three)."""
    return "`" * max(3, longest_backtick_run(lines) + 1)


def code_block(lines: Sequence[str], info: str = "text") -> list[str]:
    """A fenced code block holding ``lines`` (each already passed through :func:`code_line`)."""
    safe = [code_line(line) for line in lines]
    fence = fence_for(safe)
    return [f"{fence}{info}", *safe, fence]


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A GitHub table; every cell must already be :func:`inline`-escaped (or trusted)."""
    width = len(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    for row in rows:
        if len(row) != width:
            raise ValueError(f"row has {len(row)} cells, the header {width}")
        lines.append("| " + " | ".join(cell or " " for cell in row) + " |")
    return lines


_URL_SAFE = re.compile(r"[A-Za-z0-9._~:/?#@!$&*+,;=%-]")


def url(text: str) -> str | None:
    """An http(s) URL fit for ``[label](url)``: unsafe characters percent-encoded; else None."""
    if not re.match(r"https?://[^/\s]", text):
        return None
    out = []
    for ch in text:
        if _URL_SAFE.fullmatch(ch):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
    return "".join(out)


def link(label: str, target: str | None) -> str:
    """``[label](target)`` with an escaped label, or just the escaped label without a safe URL."""
    safe = url(target) if target else None
    return f"[{inline(label)}]({safe})" if safe else inline(label)


# --- Mermaid ------------------------------------------------------------------------------------

_MERMAID_SAFE = re.compile(r"[A-Za-z0-9 _.,:/=+-]")


def mermaid_label(text: str, max_chars: int = 80) -> str:
    """Text for inside a Mermaid ``["..."]`` label: anything but a safe set as ``#NNN;``."""
    flat = one_line(truncate(text, max_chars))
    return "".join(ch if _MERMAID_SAFE.fullmatch(ch) else f"#{ord(ch)};" for ch in flat)
