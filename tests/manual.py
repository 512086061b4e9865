"""The manual: the README (the front page) and the docs site's pages (``docs/**/*.md``).

Tests that check a block of the manual find it by its heading, in whichever page holds it
(issue 28 moved most of the README into docs/): a heading is matched by its text at any level,
must be in exactly one page, and its section runs to the next heading of the same or a higher
level. Lines inside fenced code blocks are never headings.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^\s*(```+|~~~+)")
HEADING = re.compile(r"^(#{1,6}) (.*)$")


def pages() -> list[Path]:
    """The README, then every docs page in a stable order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]


def text() -> str:
    """Every page of the manual, one after the other."""
    return "\n".join(page.read_text(encoding="utf-8") for page in pages())


def headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, title) of each heading outside fenced code blocks."""
    found, fence = [], ""
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and line.strip() == m.group(1):
                fence = ""
        elif m:
            fence = m.group(1)
        elif heading := HEADING.match(line):
            found.append((i, len(heading.group(1)), heading.group(2).strip()))
    return found


def section(title: str) -> str:
    """The text under the one heading titled ``title``, to the next heading at its level or up."""
    hits = []
    for page in pages():
        lines = page.read_text(encoding="utf-8").split("\n")
        marks = headings(lines)
        for n, (start, level, found) in enumerate(marks):
            if found == title:
                end = next((i for i, lvl, _ in marks[n + 1:] if lvl <= level), len(lines))
                hits.append((page, "\n".join(lines[start + 1:end]) + "\n"))
    assert len(hits) == 1, f"the manual has {len(hits)} headings {title!r}: {[p for p, _ in hits]}"
    return hits[0][1]


def page_holding(needle: str) -> Path:
    """The one page of the manual whose text holds ``needle``."""
    found = [page for page in pages() if needle in page.read_text(encoding="utf-8")]
    assert len(found) == 1, f"{needle!r} is in {len(found)} pages of the manual: {found}"
    return found[0]
