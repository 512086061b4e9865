"""Shared by the example properties: where the fixtures are, and a switch for demonstrations.

``GATE_EXAMPLE_FAIL`` (comma-separated test ids) makes the named properties fail with an
assertion, so a workflow can show what a red on one server class does to the gate.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def forced_red(request: pytest.FixtureRequest) -> bool:
    wanted = {t.strip() for t in os.environ.get("GATE_EXAMPLE_FAIL", "").split(",") if t.strip()}
    return str(request.node.get_closest_marker("property").args[0]) in wanted
