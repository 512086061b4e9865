"""Shared by the example properties: a switch for demonstrations.

``GATE_EXAMPLE_FAIL`` (comma-separated test ids) makes the named properties fail with an
assertion, so a workflow can show what a red on one server class does to the gate. Each test
module names its property once (``pytestmark``); the switch is module-scoped, as a Hypothesis
test's fixtures must be (a function-scoped one would not be reset between its examples).
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def forced_red(request: pytest.FixtureRequest) -> bool:
    wanted = {t.strip() for t in os.environ.get("GATE_EXAMPLE_FAIL", "").split(",") if t.strip()}
    marker = request.node.get_closest_marker("property")
    return marker is not None and str(marker.args[0]) in wanted
