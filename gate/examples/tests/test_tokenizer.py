"""Property tokenizer_total: every line splits into tokens that join back to the line, for the
fixture's lines and for lines Hypothesis joins from its tokens and from new ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.property("tokenizer_total")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tokenizer_total"
LINES = (FIXTURES / "tokens.txt").read_text(encoding="utf-8").splitlines()
TOKENS = st.sampled_from(sorted({t for line in LINES for t in line.split(" ")})) | st.text(
    st.characters(exclude_characters=" "), min_size=1, max_size=8)


@given(line=st.sampled_from(LINES) | st.lists(TOKENS, min_size=1, max_size=12).map(" ".join))
def test_total(line: str, forced_red: bool) -> None:
    tokens = line.split(" ")
    assert all(tokens), f"empty token in {line!r}"
    assert " ".join(tokens) == line
    assert not forced_red, "GATE_EXAMPLE_FAIL asked this property to fail"
