"""Property lexer_unicode: words survive a UTF-8 round trip and NFC normalisation."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest


@pytest.mark.property("lexer_unicode")
def test_unicode(fixtures: Path, forced_red: bool) -> None:
    text = (fixtures / "lexer_unicode" / "words.txt").read_text(encoding="utf-8")
    for word in text.split():
        assert word.encode("utf-8").decode("utf-8") == word
        assert unicodedata.normalize("NFC", word) == word
    assert not forced_red, "GATE_EXAMPLE_FAIL asked this property to fail"
