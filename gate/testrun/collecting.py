"""Collect a project's tests through its own pytest, in a child process (for ``gate init``).

The child is ``PYTHON -m pytest --collect-only -q -p no:cacheprovider -p <collector> TESTS...``
run in the current folder with the user's environment, so the test environment that runs the
properties in CI is the one that is asked which tests exist. The collector
(:mod:`gate.testrun.init_collector`) is copied into a temporary folder put first on
``PYTHONPATH`` under a name of its own, so the child needs neither the gate installed nor
anything of it importable. No bytecode is written (``PYTHONDONTWRITEBYTECODE``).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate.errors import GateInputError
from gate.records.files import is_regular_file, read_bytes_capped, write_once

COLLECTOR = "_gate_init_collector"
_PYTEST_EXIT = {1: "tests failed", 2: "interrupted (an error during collection)",
                3: "internal error", 4: "usage error", 5: "no tests collected"}


@dataclass(frozen=True, slots=True)
class Item:
    nodeid: str
    hypothesis: bool
    stateful: bool  # a RuleBasedStateMachine.TestCase
    max_examples: int | None
    path: Path
    line: int | None
    classname: str
    name: str
    #: ``deadline_ms``/``suppress_health_check`` the test's own settings set (card fields)
    card_settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Collected:
    rootdir: Path
    sys_path: tuple[Path, ...]
    items: tuple[Item, ...]
    hypothesis_version: str | None
    #: the configuration file pytest read (pytest.ini, pyproject.toml, tox.ini, setup.cfg)
    inipath: Path | None = None
    #: the file of every plugin module pytest loaded (-p, pytest_plugins, entry points, conftests)
    plugin_files: tuple[Path, ...] = ()
    #: each installed distribution whose pytest plugin was loaded: (name, what of the
    #: configuration needs it: addopts options, ini keys, ``-p NAME``)
    plugin_dists: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: the configuration's ``addopts``, split
    addopts: tuple[str, ...] = ()
    #: the interpreter's ``major.minor``
    python_version: str | None = None


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("ERROR", "E "))]
    return (errors or lines or ["(no output)"])[-1]


def _parse(document: Any, source: str) -> Collected:
    try:
        items = tuple(Item(
            nodeid=str(raw["nodeid"]), hypothesis=bool(raw["hypothesis"]),
            stateful=bool(raw.get("stateful")),
            max_examples=raw["max_examples"] if isinstance(raw["max_examples"], int) else None,
            path=Path(raw["path"]), line=raw["line"] if isinstance(raw["line"], int) else None,
            classname=str(raw["classname"]), name=str(raw["name"]),
            card_settings=dict(raw.get("card_settings") or {}),
        ) for raw in document["items"])
        inipath = document.get("inipath")
        return Collected(Path(document["rootdir"]),
                         tuple(Path(p) for p in document["sys_path"]), items,
                         document.get("hypothesis_version"),
                         Path(inipath) if isinstance(inipath, str) else None,
                         tuple(Path(p) for p in document.get("plugin_files") or ()),
                         tuple((str(d["name"]), tuple(str(n) for n in d["needed_by"]))
                               for d in document.get("plugin_dists") or ()),
                         tuple(str(w) for w in document.get("addopts") or ()),
                         document.get("python_version"))
    except (KeyError, TypeError) as exc:
        raise GateInputError(source, "(collector)", f"unexpected collector output: {exc}") from None


def collect(tests: Sequence[str], python: str, *, timeout: float = 600.0,
            environment: dict[str, str | None] | None = None) -> Collected:
    """The items ``python -m pytest --collect-only TESTS`` collects in the current folder;
    ``environment`` sets (a string) or unsets (None) variables for the child (``gate init``
    collects as CI will too)."""
    here = Path(__file__).with_name("init_collector.py")
    with tempfile.TemporaryDirectory(prefix="gate-init-") as tmp:
        write_once(Path(tmp) / f"{COLLECTOR}.py", read_bytes_capped(here), durable=False)
        out = Path(tmp) / "collected.json"
        env = dict(os.environ)
        for name, value in (environment or {}).items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        env["PYTHONPATH"] = os.pathsep.join(
            [tmp, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["GATE_INIT_OUT"] = str(out)
        argv = [python, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                "-p", COLLECTOR, *tests]
        shown = " ".join([Path(python).name, "-m", "pytest", "--collect-only", *tests])
        try:
            done = subprocess.run(argv, env=env, capture_output=True, text=True,
                                  timeout=timeout, check=False, stdin=subprocess.DEVNULL)
        except FileNotFoundError:
            raise GateInputError(python, "--python", "no such interpreter") from None
        except subprocess.TimeoutExpired:
            raise GateInputError(shown, "(collect)",
                                 f"collection took longer than {timeout:g} s") from None
        if done.returncode == 5:
            raise GateInputError(shown, "TESTS", "pytest collected no tests; name the test "
                                 "files or folders (gate init tests/)")
        if done.returncode != 0:
            why = _PYTEST_EXIT.get(done.returncode, f"exit status {done.returncode}")
            if "No module named pytest" in done.stderr:
                raise GateInputError(python, "--python", "pytest is not installed for this "
                                     "interpreter; install the project's test dependencies "
                                     "or give --python")
            raise GateInputError(shown, "(collect)", f"pytest {why}: "
                                 f"{_last_line(done.stdout + done.stderr)} (run it yourself "
                                 "to see the whole output)")
        if not is_regular_file(out):
            raise GateInputError(shown, "(collect)", "the collecting plugin wrote nothing "
                                 "(is -p disabled by the project's pytest options?)")
        try:
            document = json.loads(read_bytes_capped(out).decode("utf-8"))
        except (OSError, ValueError) as exc:
            raise GateInputError(str(out), "(collector)", f"unreadable: {exc}") from None
    return _parse(document, shown)
