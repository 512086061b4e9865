"""Issue 27: the recorder cannot be replaced, and what the test process does to pytest and
Hypothesis is caught where it can be. Every attack here acts only through the pull request's
files (a module, a conftest, pytest's configuration), on a real ``gate stamp --pytest`` run of
tests/hypo_suite; each test failed on the code before its fix.

``fixed_band`` with the card's seed ``FINDS`` is a red property (Hypothesis finds the planted
band bug): every attack tries to turn it into a ``pass`` stamp.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.property_suite.harness import env, read_stamps
from tests.test_hypothesis_card import FINDS, workspace
from tests.test_recorder import pytest_argv, select


def stamp(root: Path, out: str, *command: str, server_class: str = "local-pinned",
          environment: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``gate stamp --pytest`` as the action runs it: ``-P``, the workspace is not the gate's
    ``sys.path`` (its folder holds the patch's files)."""
    return subprocess.run(
        [sys.executable, "-P", "-m", "gate", "stamp", "--manifest", "gate.yml",
         "--server-class", server_class, "--out", out, "--pytest", "--", *command],
        cwd=root, env=environment or env(), capture_output=True, text=True, timeout=300,
        check=False)

#: A recorder the patch writes: it speaks the channel's protocol and says every gated test passed.
FAKE_RECORDER = '''
import json, os, socket
import pytest

SOCK = []


def send(record):
    SOCK[0].sendall(json.dumps(record).encode() + b"\\n")


def pytest_configure(config):
    fd = os.environ.pop("GATE_RECORDER_CHANNEL", "")
    if not fd:
        return
    import hypothesis
    SOCK.append(socket.socket(fileno=int(fd)))
    send({"record": "begin", "schema": "gate-recorder-results/v1", "pid": os.getpid(),
          "gate_version": "0", "pytest_version": pytest.__version__,
          "hypothesis_version": hypothesis.__version__})
    SOCK[0].recv(1)


def pytest_sessionfinish(session):
    if not SOCK:
        return
    plan = json.load(open(os.environ["GATE_RECORDER_PLAN"]))
    cases = [{"classname": p["junit"]["classname"], "name": p["junit"]["name"], "kinds": [],
              "crash": None, "hypothesis": None, "failure": None, "raised": []}
             for p in plan["properties"]]
    session.exitstatus = 0
    send({"record": "end", "exit_status": 0, "refused": [], "refused_tests": 0,
          "cases": cases, "collected": {"selected": None, "deselected": [], "ungated": [],
                                        "failed": []}})
'''


def _fake_gate(folder: Path) -> None:
    (folder / "gate" / "testrun").mkdir(parents=True)
    (folder / "gate" / "__init__.py").write_text("__version__ = '0'\n")
    (folder / "gate" / "testrun" / "__init__.py").write_text("")
    (folder / "gate" / "testrun" / "recorder.py").write_text(FAKE_RECORDER)
    (folder / "gate" / "testrun" / "pytest_plugin.py").write_text("")  # the entry point's


def _error_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("gate: error:")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_gate_package_at_the_workspace_root_is_refused(tmp_path: Path) -> None:
    """Break 5: ``python -m pytest`` puts the current folder first on ``sys.path``; a ``gate``
    package the patch adds there was what ``-p gate.testrun.recorder`` imported, and its fake
    recorder stamped the red property ``pass`` (before the fix: exit 0, a ``pass`` stamp).
    Now: exit 2 naming the file, no stamps."""
    workspace(tmp_path, {"fixed_band": FINDS})
    _fake_gate(tmp_path)
    done = stamp(tmp_path, "out", *pytest_argv(*select("fixed_band")))
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert f"{tmp_path.resolve()}/gate/__init__.py: (workspace): a module named gate" in line
    assert "python -m pytest puts the current folder first on sys.path" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["pytest", "_pytest", "hypothesis", "pluggy"])
def test_a_module_named_as_one_the_run_imports_is_refused(tmp_path: Path, name: str) -> None:
    workspace(tmp_path, {"fixed_band": FINDS})
    (tmp_path / f"{name}.py").write_text("raise SystemExit(0)\n")
    done = stamp(tmp_path, "out", *pytest_argv(*select("fixed_band")))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{name}.py: (workspace): a module named {name} where" in _error_line(done)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("planted", ["gate", "hypothesis"])
def test_a_trusted_module_from_a_workspace_folder_on_the_path_is_refused(
        tmp_path: Path, planted: str) -> None:
    """The same package in a sub-folder pytest's own ``pythonpath`` setting puts on
    ``sys.path`` (before any ``-p`` plugin loads), named by the configuration's ``addopts``:
    the gate cannot see it beforehand; the per-run loader refuses it in the test process."""
    workspace(tmp_path, {"fixed_band": FINDS})
    vendor = tmp_path / "vendor"
    if planted == "gate":
        _fake_gate(vendor)
        opts = " -p gate.testrun.recorder"
    else:
        (vendor / "hypothesis").mkdir(parents=True)
        (vendor / "hypothesis" / "__init__.py").write_text("__version__ = '0'\n")
        opts = ""
    ini = (tmp_path / "pytest.ini").read_text().rstrip("\n")
    (tmp_path / "pytest.ini").write_text(ini + f"{opts}\npythonpath = vendor\n")
    done = stamp(tmp_path, "out", *pytest_argv(*select("fixed_band")))
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert "the command exited 4 (pytest: usage error) before the gate's recorder began" in line
    assert f"vendor/{planted}/__init__.py" in line, line
    assert not (tmp_path / "out").exists()


def test_the_recorder_is_loaded_under_a_name_of_its_own(tmp_path: Path) -> None:
    """The loader's name is random per run and its folder holds only the loader."""
    from gate.testrun import recorder_route

    envs = [recorder_route.recorder_env(tmp_path, tmp_path / "p", 7, {"PYTEST_ADDOPTS": "-x"},
                                        [tmp_path]) for _ in range(2)]
    names = [e["PYTEST_ADDOPTS"].split()[1] for e in envs]
    assert all(n.startswith("_gate_recorder_") for n in names) and names[0] != names[1]
    assert all(e["PYTEST_ADDOPTS"].endswith(" -x") for e in envs)
    for environment, name in zip(envs, names, strict=True):
        folder = Path(environment["PYTHONPATH"].split(":")[0])
        assert sorted(p.name for p in folder.iterdir()) == [f"{name}.py"]


def test_a_workspace_gate_that_is_the_gates_own_package_is_not_refused(tmp_path: Path) -> None:
    """The gate's own checkout, stamped with the gate installed from it (editable)."""
    from gate.testrun import integrity

    package = Path(integrity.__file__).resolve().parent.parent
    assert integrity.shadowing_files([str(package.parent)], str(package)) == []
    assert integrity.shadowing_files([str(package.parent)]) == [str(package / "__init__.py")]


def test_with_uses_dot_the_workspaces_gate_the_action_was_copied_from_is_not_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``uses: ./``: the action runs from a copy (requirements/seal.sh place); the workspace's
    ``gate/`` at the action's origin (GITHUB_ACTION_PATH) is where it came from, not a
    stand-in; any other ``gate/`` (or one when the action is elsewhere) is still refused."""
    from gate.errors import GateInputError
    from gate.testrun import recorder_route

    (tmp_path / "gate").mkdir()
    (tmp_path / "gate" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.setenv("GITHUB_ACTION_PATH", str(tmp_path))
    recorder_route.shadowing_refused([tmp_path])
    monkeypatch.setenv("GITHUB_ACTION_PATH", str(tmp_path / "elsewhere"))
    with pytest.raises(GateInputError) as caught:
        recorder_route.shadowing_refused([tmp_path])
    assert caught.value.source == str(tmp_path / "gate" / "__init__.py")
    monkeypatch.delenv("GITHUB_ACTION_PATH")
    with pytest.raises(GateInputError):
        recorder_route.shadowing_refused([tmp_path])


def test_a_pytest_on_the_users_own_pythonpath_is_not_the_workspaces(tmp_path: Path) -> None:
    from gate.testrun import recorder_route

    got = recorder_route.workspace_path([str(tmp_path)], os.pathsep.join(
        ["/opt/site", str(tmp_path / "src"), ""]))
    assert got == [str(tmp_path), str(tmp_path / "src")]


# --- in-process tampering: caught at every report and at the session's end ----------------------

FORGE_REPORTS = '''
from _pytest.reports import TestReport

_made = TestReport.from_item_and_call.__func__


def _forged(cls, item, call):
    report = _made(cls, item, call)
    if report.when == "call" and report.failed:
        report.outcome, report.longrepr = "passed", None
    return report


TestReport.from_item_and_call = classmethod(_forged)
'''

#: The same forgery, its code compiled under pytest's own file name and given the original's
#: qualified name and module: ``co_filename`` and ``__qualname__`` say pytest's.
FORGE_FILENAME = '''
import _pytest.reports as reports

SOURCE = """
def from_item_and_call(cls, item, call):
    report = _gate_made(cls, item, call)
    if report.when == "call" and report.failed:
        report.outcome, report.longrepr = "passed", None
    return report
"""
reports._gate_made = reports.TestReport.from_item_and_call.__func__
exec(compile(SOURCE, reports.__file__, "exec"), vars(reports))
forged = vars(reports).pop("from_item_and_call")
forged.__qualname__ = "TestReport.from_item_and_call"
reports.TestReport.from_item_and_call = classmethod(forged)
'''

REWRITE_OUTCOME = '''
import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        report.outcome, report.longrepr = "passed", None
    return report
'''


def _attack(root: Path, how: str) -> list[str]:
    """Plant one forgery; the pytest command's arguments."""
    if how == "conftest":
        (root / "conftest.py").write_text(FORGE_REPORTS)
    elif how.startswith("addopts plugin"):  # pytest 9 reads pytest.toml before pytest.ini
        (root / "forge.py").write_text(FORGE_FILENAME if "co_filename" in how else FORGE_REPORTS)
        (root / "pytest.toml").write_text(
            '[pytest]\naddopts = ["-p", "forge", "-p", "no:cacheprovider"]\n'
            'python_files = ["hypo_*.py"]\n')
    elif how == "test module":  # collected, so imported, whatever -k deselects
        (root / "hypo_zz_helpers.py").write_text(FORGE_REPORTS)
        return [sys.executable, "-m", "pytest", "-q", *select("fixed_band"), "hypo_props.py",
                "hypo_zz_helpers.py"]
    else:
        (root / "conftest.py").write_text(REWRITE_OUTCOME)
    return pytest_argv(*select("fixed_band"))


@pytest.mark.parametrize(("how", "note"), [
    ("conftest", "_pytest.reports.TestReport.from_item_and_call was replaced during the run"),
    ("addopts plugin", "_pytest.reports.TestReport.from_item_and_call is not the installed "
                       "_pytest.reports's own"),
    ("addopts plugin, forged co_filename", "_pytest.reports.TestReport.from_item_and_call is "
                                           "not the installed _pytest.reports's own"),
    ("test module", "_pytest.reports.TestReport.from_item_and_call was replaced during the run"),
    ("makereport wrapper", "the report says passed, but Hypothesis's engine found a failing "
                           "example in the call"),
])
def test_a_forged_pass_is_a_resource_exit(tmp_path: Path, how: str, note: str) -> None:
    """Breaks 6 and 7: the red property's failing call reported as passed, by replacing
    pytest's report constructor (from a conftest, from a plugin the configuration's addopts
    loads before the recorder, from a collected test module) or by a conftest's makereport
    wrapper. Before the fix: a ``pass`` stamp. Now: ``resource_exit`` naming what and where."""
    workspace(tmp_path, {"fixed_band": FINDS})
    done = stamp(tmp_path, "out", *_attack(tmp_path, how))
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["outcome"] == "resource_exit", got
    assert got["note"].startswith("the recorder found the test process tampered with: ")
    assert note in got["note"], got["note"]


RESEED = '''
import os

import pytest
from hypothesis import settings
from hypothesis.database import InMemoryExampleDatabase

MODE = {mode!r}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if os.environ.get("GATE_SERVER_CLASS") == "free-server":
        fn = getattr(item.obj, "__func__", item.obj)
        if MODE == "seed":
            fn._hypothesis_internal_use_seed = 12345
        elif MODE == "derandomize":
            fn._hypothesis_internal_use_settings = settings(
                fn._hypothesis_internal_use_settings, derandomize=True)
        else:
            fn._hypothesis_internal_use_settings = settings(
                fn._hypothesis_internal_use_settings, database=InMemoryExampleDatabase())
    return (yield)
'''


@pytest.mark.parametrize(("mode", "field"), [("seed", "seed"), ("derandomize", "derandomize"),
                                             ("database", "database")])
def test_a_card_changed_on_one_class_only_is_seen(tmp_path: Path, mode: str, field: str) -> None:
    """Break 7: a conftest wrapper re-seeds (or derandomizes, or gives an example database)
    only on the free-server leg, after the recorder applied the card. Before the fix both
    stamps carried the card's ``hypothesis`` object, so the pairing took them for one
    experiment. Now the stamp carries what the engine ran with and the free-server one is
    ``resource_exit``: the card was changed during the run."""
    workspace(tmp_path, {"draws": 1})
    (tmp_path / "conftest.py").write_text(RESEED.format(mode=mode))
    stamps = {}
    for server_class in ("local-pinned", "free-server"):
        environment = {**env(), "GATE_SERVER_CLASS": server_class}
        done = stamp(tmp_path, server_class, *pytest_argv(*select("draws")),
                     server_class=server_class, environment=environment)
        assert done.returncode == 0, done.stdout + done.stderr
        (stamps[server_class],) = read_stamps(tmp_path / server_class).values()
    local, free = stamps["local-pinned"], stamps["free-server"]
    assert local["outcome"] == "pass" and local["hypothesis"]["seed"] == 1
    assert local["hypothesis"] != free["hypothesis"]
    assert free["outcome"] == "resource_exit", free
    assert (f"the card was changed during the run: the engine ran with another {field} than "
            "the card's") in free["note"]
    expected = {"seed": None, "derandomize": True, "database": "InMemoryExampleDatabase"}
    assert free["hypothesis"][field] == expected[field]


def test_the_references_match_the_installed_files_of_this_process() -> None:
    """Every watched object of the pytest, pluggy and Hypothesis installed here is found and
    its code is the installed file's (Hypothesis's compiled through pytest's assertion
    rewriter, as it was loaded): a version that moves one is seen here first."""
    from gate.testrun import integrity

    watch = integrity.Integrity()
    watch.take()
    assert watch.found == []
    assert {m for m, _ in watch.refs} == {m for m, _, _ in integrity.WATCHED if m in sys.modules}
    assert ("_pytest.reports", "TestReport.from_item_and_call") in watch.refs
    assert watch.check() == []


def test_a_replaced_reference_is_named_with_where_it_now_comes_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from _pytest import unittest  # its hook is already registered: this run is not touched

    from gate.testrun import integrity

    watch = integrity.Integrity()
    watch.take()

    def pytest_runtest_makereport(*args: object) -> None:
        return None

    monkeypatch.setattr(unittest, "pytest_runtest_makereport", pytest_runtest_makereport)
    (line,) = watch.check()
    assert line.startswith("_pytest.unittest.pytest_runtest_makereport was replaced during the "
                           f"run (now {__file__}:")


KEEPS_REPORTS = '''
import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, "rep_" + report.when, report)  # the common pattern: keep it, change nothing
    return report
'''


def test_a_conftest_that_only_keeps_its_reports_changes_no_stamp(tmp_path: Path) -> None:
    """No false alarm: pytest's and Hypothesis's own hooks (the parametrized tests' health
    check suppression included) and a conftest's makereport wrapper that leaves the outcome
    alone give the stamps they gave before."""
    workspace(tmp_path, {"draws": 1, "fixed_band": FINDS})
    (tmp_path / "conftest.py").write_text(KEEPS_REPORTS)
    done = stamp(tmp_path, "out", *pytest_argv(*select("draws", "fixed_band")))
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(tmp_path / "out")
    assert {t: s["outcome"] for t, s in got.items()} == {"draws": "pass",
                                                          "fixed_band": "assert_fail"}
    assert got["draws"]["hypothesis"]["seed"] == 1


def test_under_xdist_the_workers_verdict_reaches_the_stamp(tmp_path: Path) -> None:
    """The workers run, observe and judge the calls; the verdict travels with the report."""
    pytest.importorskip("xdist")
    workspace(tmp_path, {"fixed_band": FINDS}, deadline_ms=None)
    (tmp_path / "conftest.py").write_text(REWRITE_OUTCOME)
    done = stamp(tmp_path, "out", *pytest_argv("-n", "2", *select("fixed_band")))
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["outcome"] == "resource_exit", got
    assert "the report says passed, but Hypothesis's engine found a failing example" in got[
        "note"]
