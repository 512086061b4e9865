"""Root conftest: registers the GitHub API double fixture for every test module, and caches
pytest's rewritten plugin modules once so the nested pytest runs do not rewrite them again."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest_plugins = ["tests.github_double",
                  "tests.hardening.figures"]


def pytest_configure(config: pytest.Config) -> None:
    """With ``PYTHONDONTWRITEBYTECODE`` set, pytest never caches the assertion-rewritten code
    of the plugins it loads (all of Hypothesis): every nested ``python -m pytest`` a test
    starts then spends seconds rewriting them. One short run without it, before any test,
    writes that cache (the ordinary ``__pycache__`` files); only on the controller."""
    if not sys.dont_write_bytecode or hasattr(config, "workerinput"):
        return
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTEST_ADDOPTS")}
    with tempfile.TemporaryDirectory(prefix="gate-rewrite-cache-") as folder:
        (Path(folder) / "test_warm.py").write_text("def test_warm():\n    pass\n")
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "test_warm.py"], cwd=folder, env=env, capture_output=True,
                       check=False, timeout=300)
