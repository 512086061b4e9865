"""The optional pull-request comment (input ``comment: off|on-red|always``), pure.

One comment per check name, found again by a hidden marker on its first line
(``<!-- agent-patch-gate:<check name> -->``) and updated in place on later runs. It holds the
headline and the red blocks of :mod:`gate.github.review`; the accepted tests are only counted.
Publishing goes through :func:`gate.github.checks.upsert_comment` (the only PyGithub importer).

``on-red`` comments when the gate is closed or a test is frozen; on a later green run it only
updates a comment that is already there (so the thread never shows a stale red), and creates
none.
"""

from __future__ import annotations

import re

from gate.github import markdown, review
from gate.records.report_data import Report

MODES = ("off", "on-red", "always")
MAX_BYTES = 65_000  # GitHub: a comment body holds at most 65,536 characters
_MARKER_SAFE = re.compile(r"[^A-Za-z0-9 ._()/:+@-]")


def marker(check_name: str) -> str:
    """The hidden first line; the name is reduced to characters that cannot end the comment."""
    name = _MARKER_SAFE.sub("_", markdown.one_line(check_name))[:100]
    while "--" in name:
        name = name.replace("--", "-_")
    return f"<!-- agent-patch-gate:{name.strip('-')} -->"


def is_red(report: Report) -> bool:
    counts = report.counts
    return report.decision != "open" or counts.rejected > 0 or counts.frozen > 0


def action(mode: str, report: Report) -> str:
    """``create`` (create or update), ``update`` (only an existing comment), or ``none``."""
    if mode == "always" or (mode == "on-red" and is_red(report)):
        return "create"
    if mode == "on-red":
        return "update"
    return "none"


def body(report: Report, check_name: str, view: review.View | None = None,
         max_bytes: int = MAX_BYTES) -> str:
    view = view or review.View()
    from gate.github import ungated

    head = [marker(check_name), *review.headline(report, view, level="###"),
            *ungated.lines(report, shown=10)]
    greens = len(review.greens(report.pairs))
    tail = ([f"{greens} accepted test{'s' if greens != 1 else ''} (green in both server "
             f"classes) {'are' if greens != 1 else 'is'} listed in the job summary and the "
             "check run."] if greens else [])
    room = max_bytes - markdown.utf8_len("\n".join([*head, *tail])) - 200
    reds, _ = review.red_blocks(report, view, room)
    text = "\n".join([*head, *reds, *tail]).rstrip("\n") + "\n"
    return markdown.truncate(text, max_bytes, unit="bytes")
