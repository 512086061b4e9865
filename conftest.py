"""Root conftest: registers the GitHub API double fixture for every test module, and caches
the bytecode the nested runs read (pytest's rewritten plugin modules, the repository's
``gate`` package) once so they do not compile it again."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest_plugins = ["tests.github_double",
                  "tests.hardening.figures"]

REPO = Path(__file__).resolve().parent

#: Imports every module of the repository's ``gate`` package but its examples (a project's
#: tests, copied by tests) under pytest's assertion rewriter: the gate's distribution is a
#: plugin, so each nested pytest (which finds this ``gate`` first on PYTHONPATH) rewrites
#: every ``gate`` module it imports, unless the rewritten bytecode is cached beside it.
_WARM_TEST = '''
import importlib
import pkgutil

import gate


def test_warm():
    for found in pkgutil.walk_packages(gate.__path__, "gate.", onerror=lambda name: None):
        if found.name.startswith("gate.examples") or found.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(found.name)
        except Exception:  # a module that needs what this run lacks: compiled on use
            pass
'''


def pytest_configure(config: pytest.Config) -> None:
    """With ``PYTHONDONTWRITEBYTECODE`` set, Python never caches the bytecode of what it
    imports, and pytest never caches the assertion-rewritten code of the plugins it loads
    (all of Hypothesis, and the gate's own package): every nested ``python -m gate`` and
    ``python -m pytest`` a test starts (hundreds) then compiles the ``gate`` modules it
    imports from source, and every nested pytest rewrites Hypothesis and ``gate`` again.
    One short run without it, before any test, writes those caches (the ordinary
    ``__pycache__`` files, checked against each source's size and time as ever): the plain
    bytecode of this repository's ``gate`` (its examples, a project copied by tests, left
    alone) and the rewritten code of the plugins, ``gate`` imported from this repository as
    the nested runs import it. Only on the controller."""
    if not sys.dont_write_bytecode or hasattr(config, "workerinput"):
        return
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"]
                                     if env.get("PYTHONPATH") else "")
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-x", r"[/\\]examples[/\\]",
                    str(REPO / "gate")], env=env, capture_output=True, check=False,
                   timeout=300)
    with tempfile.TemporaryDirectory(prefix="gate-rewrite-cache-") as folder:
        (Path(folder) / "test_warm.py").write_text(_WARM_TEST)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "test_warm.py"], cwd=folder, env=env, capture_output=True,
                       check=False, timeout=300)
