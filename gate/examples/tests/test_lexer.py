"""Property lexer_unicode: words survive a UTF-8 round trip and NFC normalisation, for the
fixture's words and for NFC text Hypothesis draws."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.property("lexer_unicode")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lexer_unicode"
WORDS = (FIXTURES / "words.txt").read_text(encoding="utf-8").split()


@given(word=st.sampled_from(WORDS) | st.text().map(lambda s: unicodedata.normalize("NFC", s)))
def test_unicode(word: str, forced_red: bool) -> None:
    assert word.encode("utf-8").decode("utf-8") == word
    assert unicodedata.normalize("NFC", word) == word
    assert not forced_red, "GATE_EXAMPLE_FAIL asked this property to fail"
