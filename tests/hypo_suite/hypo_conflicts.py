"""Gated tests the sample card cannot govern (each one an exit-2 conflict). Not collected by
the main test run."""

from __future__ import annotations

from hypothesis import HealthCheck, given, reproduce_failure, seed, settings
from hypothesis import strategies as st


def test_plain() -> None:
    assert True


@seed(123)
@given(st.integers())
def test_seeded(n: int) -> None:
    assert True


@reproduce_failure("6.170.17", b"AEMHoSA=")
@given(st.integers())
def test_reproduce(n: int) -> None:
    assert True


@settings(max_examples=500, deadline=None)
@given(st.integers())
def test_own_settings(n: int) -> None:
    assert True


@settings(verbosity=settings.default.verbosity,
          suppress_health_check=settings.default.suppress_health_check)
@given(st.integers())
def test_harmless_settings(n: int) -> None:
    assert HealthCheck.too_slow is not None
