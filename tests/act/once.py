"""One act run shared by the tests of a module, made once per pytest session.

A module fixture runs once per pytest-xdist worker that takes one of the module's tests, and
``--dist worksteal`` may hand the tests of one module to both workers: the shared act run
would then run twice. :func:`once_per_session` makes the value once for the whole session (the
folder above a worker's base temporary folder is the session's; a ``flock`` makes the other
workers wait for the first), keeps it as a pickle, and every later caller reads that.

:class:`DoubleState` is what the tests read of a :class:`~tests.github_double.GitHubDouble`
after the run (the server itself stays in the worker that ran it).
"""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.github_double import GitHubDouble, RequestRecord

T = TypeVar("T")


def once_per_session(tmp_path_factory: pytest.TempPathFactory, name: str,
                     make: Callable[[Path], T]) -> T:
    """``make(folder)``, called once per pytest session with an empty folder of its own; the
    value (picklable) is kept in that folder, and every other call returns a copy of it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / name
    kept = base / f"{name}.pickle"
    with (base / f"{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if kept.is_file():
            value: T = pickle.loads(kept.read_bytes())  # written by this session, below
            return value
        if folder.exists():  # a caller before this one failed half way
            shutil.rmtree(folder)
        folder.mkdir(mode=0o700)
        value = make(folder)
        part = kept.with_suffix(".part")
        part.write_bytes(pickle.dumps(value))
        part.replace(kept)
        return value


@dataclass(frozen=True)
class DoubleState:
    """The GitHub API double as a finished act run left it: its requests and check runs."""

    requests: tuple[RequestRecord, ...]
    check_runs: dict[int, dict[str, Any]]

    @classmethod
    def of(cls, double: GitHubDouble) -> DoubleState:
        return cls(tuple(double.requests), double.check_runs)

    def invalid_requests(self) -> list[RequestRecord]:
        return [r for r in self.requests if not r.valid]

    def count(self, operation: str, *, status: int | None = None) -> int:
        """Requests that reached ``operation`` (friendly name or operationId), as
        :meth:`GitHubDouble.count` counts them."""
        return sum(1 for r in self.requests
                   if operation in {r.operation, r.operation_id}
                   and (status is None or r.status == status))

    def count_named(self, operation: str, name: str) -> int:
        """Requests that reached ``operation`` with ``name`` in their body (a check run's
        name: one job's ``check-name``)."""
        return sum(1 for r in self.requests
                   if operation in {r.operation, r.operation_id}
                   and isinstance(r.body, dict) and r.body.get("name") == name)

    def runs_named(self, name: str) -> list[dict[str, Any]]:
        """The check runs published under ``name`` (one job's ``check-name``)."""
        return [run for run in self.check_runs.values() if run["name"] == name]
