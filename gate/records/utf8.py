"""Text a record may hold: what can be written back as UTF-8 (hashed, reported, stored)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def refuse_lone_surrogates(value: Any) -> None:
    """A lone ``\\udXXX`` escape decodes to text that cannot be written back as UTF-8 (so
    it could not be hashed or reported); raise UnicodeEncodeError for it."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            node.encode("utf-8")
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
