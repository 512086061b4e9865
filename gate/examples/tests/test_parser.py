"""Property parser_round_trip: printing a parsed expression gives back the same text."""

from __future__ import annotations

from pathlib import Path

import pytest


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


@pytest.mark.property("parser_round_trip")
def test_round_trip(fixtures: Path, forced_red: bool) -> None:
    for line in (fixtures / "parser_round_trip" / "inputs.txt").read_text().splitlines():
        assert show(parse(line)) == line
    assert not forced_red, "GATE_EXAMPLE_FAIL asked this property to fail"
