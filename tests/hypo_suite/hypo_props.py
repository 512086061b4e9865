"""Hypothesis properties of ledgerlib, run by gate's tests in real pytest processes (with the
gate's pytest plugin applying the sample cards). Not collected by the main test run.

Environment switches, so one class can behave differently from the other:
``HYPO_SUITE_DRAWS=FILE`` appends every drawn example (``test name: repr``) to FILE;
``HYPO_SUITE_SLOW=1`` makes test_slow sleep 60 ms per example (the card's deadline is less);
``HYPO_SUITE_FLAKY=1`` makes test_flaky fail on its first call only (Hypothesis: Flaky);
``HYPO_SUITE_FILTER=1`` makes test_filtered's strategy reject everything (a health check);
``HYPO_SUITE_SPLIT=1`` makes test_split fail (an assertion, on this runner only);
``HYPO_SUITE_BUG=rle`` injects a bug in ledgerlib.rle_encode.
"""

from __future__ import annotations

import os
import time

import ledgerlib
from hypothesis import given
from hypothesis import strategies as st

CALLS = {"flaky": 0}


def record(name: str, value: object) -> None:
    path = os.environ.get("HYPO_SUITE_DRAWS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{name}: {value!r}\n")


@given(st.lists(st.integers(0, 3), max_size=8))
def test_round_trip(values: list[int]) -> None:
    record("round_trip", values)
    assert ledgerlib.rle_decode(ledgerlib.rle_encode(values)) == values


@given(st.integers(0, 10**6))
def test_fixed_band(cents: int) -> None:
    record("fixed_band", cents)
    assert ledgerlib.from_fixed(ledgerlib.to_fixed(cents)) == cents


@given(st.text(max_size=5), st.integers(-50, 50))
def test_draws(text: str, number: int) -> None:
    record("draws", (text, number))
    assert len(text) <= 5


@given(st.integers(0, 10))
def test_slow(n: int) -> None:
    if os.environ.get("HYPO_SUITE_SLOW") == "1":
        time.sleep(0.06)
    assert n >= 0


@given(st.integers(0, 10))
def test_flaky(n: int) -> None:
    CALLS["flaky"] += 1
    if os.environ.get("HYPO_SUITE_FLAKY") == "1":
        assert CALLS["flaky"] > 1, "fails on the first call only"


@given(st.integers().filter(lambda n: os.environ.get("HYPO_SUITE_FILTER") != "1"))
def test_filtered(n: int) -> None:
    assert isinstance(n, int)


@given(st.integers(0, 10))
def test_split(n: int) -> None:
    assert os.environ.get("HYPO_SUITE_SPLIT") != "1", "fails on this runner only"
