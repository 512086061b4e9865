"""Collect the hardening figures and print them as a plain table at the end of a pytest run.

Registered as a pytest plugin from the root ``conftest.py``. A hardening test calls
:func:`add` (a counter) or :func:`put` (a value) with a section and a name; the terminal
summary prints every figure that was reported, and, when ``GATE_FIGURES_JSON`` names a file,
the same figures are written there as JSON (``{section: {name: value}}``).

Figures whose name says it must be zero (``crashes``, ``doors opened``, ``lost``, ``believed``,
``leaks``, ``differed``, ``duplicate``) are asserted zero by the tests themselves; the table
only shows them.

Under pytest-xdist every worker collects its own figures; each hands them to the controller
when it ends (``workeroutput``), which adds the counters up and takes the values, so the
table and the JSON cover the whole run however many processes ran it.
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
_COUNTERS: set[tuple[str, str]] = set()  # (section, name) of the figures made by add()
_WORKER_KEY = "gate_hardening_figures"


def add(section: str, name: str, amount: int = 1) -> None:
    """Add ``amount`` to a counter (created at 0)."""
    with _LOCK:
        row = FIGURES.setdefault(section, {})
        row[name] = int(row.get(name, 0)) + amount
        _COUNTERS.add((section, name))


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


def _merge(sent: str) -> None:
    """Fold one xdist worker's figures into this process's: counters add up, values are set."""
    data = json.loads(sent)
    counters = {(section, name) for section, name in data["counters"]}
    for section, row in data["figures"].items():
        for name, value in row.items():
            if (section, name) in counters:
                add(section, name, int(value))
            else:
                put(section, name, value)


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: called on the controller
def pytest_testnodedown(node: Any, error: Any) -> None:
    sent = getattr(node, "workeroutput", {}).get(_WORKER_KEY)
    if sent:
        _merge(sent)


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller reports
        with _LOCK:
            workeroutput[_WORKER_KEY] = json.dumps(
                {"figures": FIGURES, "counters": sorted(_COUNTERS)}, default=str)
        return
    target = os.environ.get("GATE_FIGURES_JSON")
    if not target:
        return
    with _LOCK:
        data = json.dumps(FIGURES, indent=2, sort_keys=True, default=str)
    Path(target).write_text(data + "\n", encoding="utf-8")
