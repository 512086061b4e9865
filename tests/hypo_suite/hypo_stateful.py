"""A Hypothesis state machine over ledgerlib, run by gate's tests with the sample card applied
(its node is ``hypo_stateful.py::TestLedger::runTest``). ``HYPO_SUITE_DRAWS=FILE`` appends
every drawn amount; ``HYPO_SUITE_SEEDED=1`` puts an explicit ``@seed`` on the machine (the
card cannot govern it then)."""

from __future__ import annotations

import os

import ledgerlib
from hypothesis import seed
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule


class Ledger(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.total = 0

    @rule(cents=st.integers(0, 10**6))
    def add(self, cents: int) -> None:
        path = os.environ.get("HYPO_SUITE_DRAWS")
        if path:
            with open(path, "a", encoding="utf-8") as out:
                out.write(f"ledger: {cents!r}\n")
        self.total += cents

    @invariant()
    def round_trips(self) -> None:
        assert ledgerlib.from_fixed(ledgerlib.to_fixed(self.total)) == self.total


if os.environ.get("HYPO_SUITE_SEEDED") == "1":
    Ledger = seed(7)(Ledger)

TestLedger = Ledger.TestCase
