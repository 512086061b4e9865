"""Property parser_round_trip: printing a parsed expression gives back the same text, for the
fixture's inputs and for expressions Hypothesis builds from the grammar (fixtures/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.property("parser_round_trip")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "parser_round_trip"
INPUTS = (FIXTURES / "inputs.txt").read_text(encoding="utf-8").splitlines()


def parse(text: str) -> object:
    """expr := term ("+" term)* ; term := NUMBER | "(" expr ")" ; returns a nested tree."""
    pos = 0

    def expr() -> object:
        nonlocal pos
        terms = [term()]
        while pos < len(text) and text[pos] == "+":
            pos += 1
            terms.append(term())
        return ("+", terms) if len(terms) > 1 else terms[0]

    def term() -> object:
        nonlocal pos
        if text[pos] == "(":
            pos += 1
            inner = expr()
            assert text[pos] == ")"
            pos += 1
            return ("()", inner)
        start = pos
        while pos < len(text) and text[pos].isdigit():
            pos += 1
        assert pos > start, f"number expected at {start}"
        return int(text[start:pos])

    tree = expr()
    assert pos == len(text), f"trailing input at {pos}"
    return tree


def show(tree: object) -> str:
    if isinstance(tree, int):
        return str(tree)
    assert isinstance(tree, tuple)
    kind, inner = tree
    if kind == "()":
        return f"({show(inner)})"
    return "+".join(show(t) for t in inner)


#: Expressions of the grammar (fixtures/parser_round_trip/grammar.txt), as printed.
EXPRESSIONS = st.recursive(
    st.integers(min_value=0, max_value=10**6).map(str),
    lambda inner: st.one_of(inner.map(lambda e: f"({e})"),
                            st.lists(inner, min_size=2, max_size=4).map("+".join)),
    max_leaves=16)


@given(text=st.sampled_from(INPUTS) | EXPRESSIONS)
def test_round_trip(text: str, forced_red: bool) -> None:
    assert show(parse(text)) == text
    assert not forced_red, "GATE_EXAMPLE_FAIL asked this property to fail"
