"""GitHub REST API double (check runs) for tests; see ``server.py``.

Use the fixture from a test module (or conftest) with::

    pytest_plugins = ["tests.github_double"]

    def test_x(github_double: GitHubDouble) -> None:
        gh = github_double.client()            # real PyGithub, base_url -> the double
        ...

(PYTEST_DONT_REWRITE: the test modules import this package before pytest loads it as a plugin.)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.github_double.server import (
    GHES_PREFIX,
    NOT_ACCESSIBLE_MESSAGE,
    OPERATIONS,
    PRIMARY_RATE_LIMIT_MESSAGE,
    READ_ONLY_TOKEN,
    SECONDARY_RATE_LIMIT_MESSAGE,
    SUBSET_PATH,
    WRITE_TOKEN,
    Fault,
    GitHubDouble,
    OpenApiSubset,
    RequestRecord,
    default_error_body,
    main,
)

__all__ = [
    "GHES_PREFIX",
    "NOT_ACCESSIBLE_MESSAGE",
    "OPERATIONS",
    "PRIMARY_RATE_LIMIT_MESSAGE",
    "READ_ONLY_TOKEN",
    "SECONDARY_RATE_LIMIT_MESSAGE",
    "SUBSET_PATH",
    "WRITE_TOKEN",
    "Fault",
    "GitHubDouble",
    "OpenApiSubset",
    "RequestRecord",
    "default_error_body",
    "github_double",
    "main",
]


@pytest.fixture
def github_double() -> Iterator[GitHubDouble]:
    """A started :class:`GitHubDouble` (function-scoped); stopped after the test."""
    double = GitHubDouble()
    double.start()
    try:
        yield double
    finally:
        double.stop()
