"""The one error type for bad input: it names the file and the field."""

from __future__ import annotations


def _one_line(text: str, limit: int = 300) -> str:
    """Collapse ``text`` to one printable line of at most ``limit`` characters."""
    flat = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class GateInputError(Exception):
    """Bad input or usage: exit status 2, one line on stderr naming the file and the field."""

    def __init__(self, source: str, field: str, message: str) -> None:
        self.source = _one_line(source, 500)
        self.field = _one_line(field or "(root)", 200)
        self.message = _one_line(message, 600)  # room for a fix naming nearby names
        super().__init__(f"{self.source}: {self.field}: {self.message}")
