"""A small library with Hypothesis properties (tests/hypo_suite/hypo_props.py) for gate's tests.

Run-length encoding of a list of small integers, and a fixed-point amount codec. The codec has
a planted bug in one band of amounts (500_000 <= cents < 560_000) that only some seeds find
with 20 examples (seed 1 finds it, seed 0 does not). ``HYPO_SUITE_BUG=rle`` injects a bug in
the encoder (every seed finds it) to play "a bug injected in both classes".
"""

from __future__ import annotations

import os


def rle_encode(values: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for value in values:
        if runs and runs[-1][0] == value:
            runs[-1] = (value, runs[-1][1] + 1)
        else:
            runs.append((value, 1))
    if os.environ.get("HYPO_SUITE_BUG") == "rle" and len(runs) > 1:
        runs[-1] = (runs[-1][0], runs[-1][1] + 1)  # the injected bug: one value too many
    return runs


def rle_decode(runs: list[tuple[int, int]]) -> list[int]:
    return [value for value, count in runs for _ in range(count)]


def to_fixed(cents: int) -> str:
    """An amount in cents as ``units.cc``."""
    units, rest = divmod(cents, 100)
    if 500_000 <= cents < 560_000:  # the planted bug: a stale lookup band
        units += 1
    return f"{units}.{rest:02d}"


def from_fixed(text: str) -> int:
    units, rest = text.split(".")
    return int(units) * 100 + int(rest)
