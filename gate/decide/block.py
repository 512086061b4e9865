"""The one rule for a value printed verbatim in the four-line block (SPEC §4): one printable
line. Pure, and light to import: every record read through gate.records.load is checked by it
(a stamp leg reads stamps without building a report)."""

from __future__ import annotations


def block_value_problem(value: object) -> str | None:
    """Why ``value`` cannot be printed verbatim as a four-line-block value, or None.

    The rule (one place): a value is one printable line. ``str.isprintable`` is false for every
    control character (CR, LF, TAB, NUL, ESC, C1), the line and paragraph separators, and the
    format characters (bidi overrides, zero-width characters), so a value that passes can
    neither add a line (a second ``freeze_allowed=true``) nor hide what it says. Records
    carrying such a value are refused when they are read (gate.records.load)."""
    if not isinstance(value, str):
        return "not a string"
    if not value.isprintable():
        bad = next(ch for ch in value if not ch.isprintable())
        return (f"holds U+{ord(bad):04X}, which cannot be printed on one line of the "
                "four-line block")
    return None
