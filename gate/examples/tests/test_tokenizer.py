"""Property tokenizer_total: every line splits into tokens that join back to the line."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.property("tokenizer_total")
def test_total(fixtures: Path, forced_red: bool) -> None:
    for line in (fixtures / "tokenizer_total" / "tokens.txt").read_text().splitlines():
        tokens = line.split(" ")
        assert all(tokens), f"empty token in {line!r}"
        assert " ".join(tokens) == line
    assert not forced_red, "GATE_EXAMPLE_FAIL asked this property to fail"
