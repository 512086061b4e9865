"""Collect the hardening figures and print them as a plain table at the end of a pytest run.

Registered as a pytest plugin from the root ``conftest.py``. A hardening test calls
:func:`add` (a counter) or :func:`put` (a value) with a section and a name; the terminal
summary prints every figure that was reported, and, when ``GATE_FIGURES_JSON`` names a file,
the same figures are written there as JSON (``{section: {name: value}}``).

Figures whose name says it must be zero (``crashes``, ``doors opened``, ``lost``, ``believed``,
``leaks``, ``differed``, ``duplicate``) are asserted zero by the tests themselves; the table
only shows them.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

_LOCK = threading.Lock()
FIGURES: dict[str, dict[str, Any]] = {}


def add(section: str, name: str, amount: int = 1) -> None:
    """Add ``amount`` to a counter (created at 0)."""
    with _LOCK:
        row = FIGURES.setdefault(section, {})
        row[name] = int(row.get(name, 0)) + amount


def put(section: str, name: str, value: Any) -> None:
    """Set a figure (a number, a bool or a short string)."""
    with _LOCK:
        FIGURES.setdefault(section, {})[name] = value


def get(section: str, name: str, default: Any = 0) -> Any:
    with _LOCK:
        return FIGURES.get(section, {}).get(name, default)


def table() -> list[str]:
    """The figures as plain text lines: ``section  figure  value``."""
    with _LOCK:
        rows = [(s, n, v) for s in sorted(FIGURES) for n, v in FIGURES[s].items()]
    if not rows:
        return []
    width_s = max(len("section"), *(len(s) for s, _, _ in rows))
    width_n = max(len("figure"), *(len(n) for _, n, _ in rows))
    lines = [f"{'section':<{width_s}}  {'figure':<{width_n}}  value",
             f"{'-' * width_s}  {'-' * width_n}  -----"]
    lines += [f"{s:<{width_s}}  {n:<{width_n}}  {v}" for s, n, v in rows]
    return lines


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = table()
    if not lines:
        return
    terminalreporter.write_sep("=", "hardening figures (issue 5)")
    for line in lines:
        terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = os.environ.get("GATE_FIGURES_JSON")
    if not target:
        return
    with _LOCK:
        data = json.dumps(FIGURES, indent=2, sort_keys=True, default=str)
    Path(target).write_text(data + "\n", encoding="utf-8")
