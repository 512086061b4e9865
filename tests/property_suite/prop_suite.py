"""A small property suite run by gate's tests through real ``pytest`` processes.

Not collected by the main test run (``test_*.py`` does not match this file). What each test
does is planned by the caller through the environment variable ``PROPERTY_SUITE_PLAN``, a JSON
object mapping a property name to a behaviour:

* ``pass`` (default): passes;
* ``fail``: an assertion fails (JUnit ``<failure>``);
* ``error``: an exception in a fixture (JUnit ``<error>``, not an assertion);
* ``skip``: skipped;
* ``xfail``: an expected failure (JUnit ``<skipped>``);
* ``sleep``: sleeps for a minute (to be killed by ``gate stamp --timeout``).
"""

from __future__ import annotations

import json
import os
import time

import pytest

PLAN: dict[str, str] = json.loads(os.environ.get("PROPERTY_SUITE_PLAN", "{}"))
NAMES = [f"p{n:02d}" for n in range(1, 25)]


@pytest.fixture
def behaviour(request: pytest.FixtureRequest) -> str:
    name = request.node.callspec.params["name"]
    planned = PLAN.get(name, "pass")
    if planned == "error":
        raise RuntimeError(f"{name}: the fixture broke (planned)")
    if planned == "skip":
        pytest.skip(f"{name}: skipped (planned)")
    return planned


@pytest.mark.parametrize("name", NAMES)
def test_prop(name: str, behaviour: str) -> None:
    if behaviour == "xfail":
        pytest.xfail(f"{name}: expected failure (planned)")
    if behaviour == "sleep":
        time.sleep(60)
    values = sorted([3, 1, 2])
    if behaviour == "fail":
        values.reverse()
    assert values == [1, 2, 3], f"{name}: property does not hold (planned)"


def test_plain_pass() -> None:
    assert sum([1, 2, 3]) == 6
