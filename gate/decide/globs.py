"""The manifest's fixture globs (``{glob: PATTERN}``): their syntax and what a path matches. Pure.

A pattern is a path relative to the stamping root, ``/``-separated, cut into segments at
each ``/``:

* ``**`` as a whole segment matches zero or more folders;
* in any other segment ``*`` matches any run of characters (a leading ``.`` too: hidden files
  are not special) and ``?`` one character, neither ever a ``/``;
* every other character is itself (no character classes, no braces, no escapes).

A pattern names files only: a folder matched by the last segment adds nothing (name the folder
itself, as a plain path, to hash all of it). Expanding a pattern against a tree (in
:mod:`gate.records.manifest`) lists the regular files whose root-relative path it matches,
ordered by the UTF-8 bytes of that path: the order the fixture hash orders files in (SPEC §1),
so a glob gives exactly the hash of the same files listed one by one.
"""

from __future__ import annotations

import functools
import re

#: Characters a pattern segment treats as wildcards.
WILDCARDS = frozenset("*?")


def is_wild(segment: str) -> bool:
    """Does ``segment`` match anything but its own text?"""
    return segment == "**" or any(c in WILDCARDS for c in segment)


def segments(pattern: str) -> tuple[str, ...]:
    """The pattern's segments (empty ones, from ``a//b`` or a trailing ``/``, dropped)."""
    return tuple(part for part in pattern.split("/") if part and part != ".")


@functools.cache
def segment_regex(segment: str) -> re.Pattern[str]:
    """One segment (not ``**``) as a regular expression over one file or folder name."""
    out = []
    for char in segment:
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(char))
    return re.compile("".join(out), re.DOTALL)


@functools.cache
def path_regex(pattern: str) -> re.Pattern[str]:
    """The whole pattern as a regular expression over a root-relative ``/`` path."""
    parts: list[str] = []
    for segment in segments(pattern):
        if segment == "**":
            parts.append("(?:[^/]+/)*")
        else:
            parts.append(segment_regex(segment).pattern + "/")
    body = "".join(parts)
    if body.endswith("/"):
        body = body[:-1]
    elif body.endswith("(?:[^/]+/)*"):  # a trailing ** matches every file below
        body += "[^/]+"
    return re.compile(body, re.DOTALL)


def matches(pattern: str, path: str) -> bool:
    """Does the root-relative ``path`` (``/``-separated) match ``pattern``?"""
    return path_regex(pattern).fullmatch("/".join(segments(path))) is not None
