"""Issue 31: the card's engine watch lets each Hypothesis runner go when the call ends.

A runner holds everything its engine drew (the data tree, a cache of up to 10,000 test cases).
The recorder's :class:`gate.testrun.hypothesis_card.Applied` kept every gated test's runners
until the test process ended: at 5,000 cases a test, ~500,000 objects more alive at the end
of the session than under plain pytest, freed at the exit (~3.5 s of CPU on the long bench
suite). The verdicts the recorder draws from a runner (did the engine find a failing example)
are kept as they were when the call ended.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.testrun.hypothesis_card import Applied, card_settings

CARD = {"cases": 50, "seed": 7}


def test_a_passing_call_keeps_its_verdicts_and_not_its_runner() -> None:
    @given(st.integers())
    def passes(x: int) -> None:
        assert isinstance(x, int)

    applied = Applied(passes, dict(CARD), card_settings(
        passes._hypothesis_internal_use_settings, CARD))  # type: ignore[attr-defined]
    applied.apply()
    try:
        with applied.observing():
            passes()
    finally:
        applied.restore()
    assert applied.examples_run == CARD["cases"]
    (run,) = applied.engines
    assert run.runner is None  # let go when the call ended
    assert run.seeded and not run.failed and applied.changed() == []
    assert applied.record()["max_examples"] == CARD["cases"]


def test_a_failing_call_keeps_that_the_engine_failed() -> None:
    @given(st.integers(min_value=0, max_value=1000))
    def fails(x: int) -> None:
        assert x < 10

    applied = Applied(fails, dict(CARD), card_settings(
        fails._hypothesis_internal_use_settings, CARD))  # type: ignore[attr-defined]
    applied.apply()
    try:
        with pytest.raises(AssertionError), applied.observing():
            fails()
    finally:
        applied.restore()
    assert applied.engines and all(run.runner is None for run in applied.engines)
    assert any(run.failed for run in applied.engines)  # what the recorder's judge reads
    assert applied.raised == "AssertionError"  # its name: the traceback holds the runner


@pytest.mark.parametrize("fails", [False, True])
def test_the_runner_is_freed_after_the_call(fails: bool) -> None:
    """No reference of the card's keeps a runner alive once the call ended (a failing call's
    exception included: the card keeps its type's name, not its traceback)."""
    from hypothesis.internal.conjecture import engine as engine_module

    engine: Any = engine_module  # its ConjectureRunner is replaced for the call
    refs: list[Any] = []
    original = engine.ConjectureRunner

    class Noted(original):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            refs.append(weakref.ref(self))

    @given(st.lists(st.integers()))
    def test(xs: list[int]) -> None:
        assert not fails or len(xs) < 3

    applied = Applied(test, dict(CARD), card_settings(
        test._hypothesis_internal_use_settings, CARD))  # type: ignore[attr-defined]
    applied.apply()
    engine.ConjectureRunner = Noted  # the class the card's watch builds runners from
    try:
        with applied.observing():
            test()
    except AssertionError:
        assert fails
    else:
        assert not fails
    finally:
        engine.ConjectureRunner = original
        applied.restore()
    assert applied.engines and len(refs) == len(applied.engines)
    assert any(run.failed for run in applied.engines) == fails
    gc.collect()
    assert all(ref() is None for ref in refs), "the card still holds a runner after the call"
