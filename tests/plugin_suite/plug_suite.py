"""A mixed suite for the pytest plugin tests: every way a test can end, planned per case.

Not collected by the main test run (``test_*.py`` does not match this file). The caller plans
each case through the environment variable ``PLUGIN_SUITE_PLAN`` (a JSON object mapping a case
name to a behaviour; default ``pass``):

* ``pass``; ``fail`` (a rewritten ``assert`` fails); ``group`` (an exception group of assertion
  errors, as hypothesis raises for several distinct failures);
* ``setup_error`` / ``teardown_error`` (an exception in the fixture before / after the test);
  ``fail_teardown_error`` (the assertion fails and then the teardown breaks);
* ``skip``; ``xfail``; ``xpass_strict`` (a strict xfail that passes);
* ``crash`` (``RuntimeError`` in the test body); ``pytest_fail`` (``pytest.fail()``);
* ``interrupt`` (``KeyboardInterrupt`` in the body: the session stops).

Every test is a Hypothesis test (``@given`` over one example), because the plugin refuses a
gated test the sample card cannot govern. The ``behaviour`` fixture would trip the
``function_scoped_fixture`` health check, so the tests suppress it, and so do the cards (a
``@settings`` value equal to the card's is no conflict).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PLAN: dict[str, str] = json.loads(os.environ.get("PLUGIN_SUITE_PLAN", "{}"))
NAMES = [f"c{n:02d}" for n in range(1, 17)]


@pytest.fixture
def behaviour(request: pytest.FixtureRequest) -> Iterator[str]:
    name = request.node.callspec.params["name"]
    planned = PLAN.get(name, "pass")
    if planned == "setup_error":
        raise RuntimeError(f"{name}: set-up broke (planned)")
    if planned == "skip":
        pytest.skip(f"{name}: skipped (planned)")
    if planned == "xpass_strict":
        request.node.add_marker(pytest.mark.xfail(strict=True, reason="planned"))
    yield planned
    if planned in ("teardown_error", "fail_teardown_error"):
        raise RuntimeError(f"{name}: teardown broke (planned)")


def _check(name: str, behaviour: str) -> None:
    if behaviour == "xfail":
        pytest.xfail(f"{name}: expected failure (planned)")
    if behaviour == "crash":
        raise RuntimeError(f"{name}: crashed (planned)")
    if behaviour == "pytest_fail":
        pytest.fail(f"{name}: pytest.fail (planned)")
    if behaviour == "interrupt":
        raise KeyboardInterrupt
    if behaviour == "group":
        raise ExceptionGroup("two failures", [AssertionError("one"), AssertionError("two")])
    values = sorted([3, 1, 2])
    if behaviour in ("fail", "fail_teardown_error"):
        values.reverse()
    assert values == [1, 2, 3], f"{name}: property does not hold (planned)"


@pytest.mark.parametrize("name", NAMES)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(example=st.just(0))
def test_case(name: str, behaviour: str, example: int) -> None:
    _check(name, behaviour)


class TestInClass:
    @pytest.mark.parametrize("name", ["k01", "k02"])
    @settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(example=st.just(0))
    def test_method(self, name: str, behaviour: str, example: int) -> None:
        _check(name, behaviour)
