"""The recorder route (``gate stamp --manifest M --pytest -- COMMAND``), on real pytest runs.

The gate reads manifest, cards and fixtures in its own environment, writes the plan, and runs
the command with ``PYTEST_ADDOPTS=-p gate.testrun.recorder`` and ``PYTHONPATH`` naming a private
folder with the gate's package; the recorder governs the gated tests in the user's pytest and
writes results; the gate stamps them with the plugin's own decide/build code. Every run here
is a real ``gate`` process running a real ``pytest`` on a copy of tests/hypo_suite.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.decide import digest
from tests.property_suite.harness import env, read_stamps, write_manifest
from tests.test_hypothesis_card import FINDS, FREE, LOCAL, run_class, workspace

GATED = ("draws", "fixed_band", "round_trip")
#: The fields that may differ between the two routes for one run (see pytest_plugin's doc;
#: ``isolation``: the plugin runs in the test process, the recorder route in the seal).
PER_RUN = ("run_id", "written_at", "wall_seconds", "source", "body_bytes", "isolation")


def stamp(root: Path, out: str, *command: str, server_class: str = LOCAL,
          environment: dict[str, str] | None = None,
          extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """``gate stamp --pytest`` (in this, the gate's, environment) around ``command``."""
    return subprocess.run(
        [sys.executable, "-m", "gate", "stamp", "--manifest", "gate.yml", "--server-class",
         server_class, "--out", out, *extra, "--pytest", "--", *command],
        cwd=root, env=environment or env(), capture_output=True, text=True, timeout=300,
        check=False)


def pytest_argv(*args: str, python: str = sys.executable) -> list[str]:
    return [python, "-m", "pytest", "-q", *args, "hypo_props.py"]


def select(*tests: str) -> tuple[str, ...]:
    return ("-k", " or ".join(f"test_{t}" for t in tests))


# --- an interpreter with nothing but pytest and Hypothesis --------------------------------------


def _requirements(name: str, seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    for req in importlib.metadata.requires(name) or []:
        if "extra ==" in req:
            continue
        if ";" in req:
            from packaging.markers import Marker  # pytest's own dependency

            if not Marker(req.split(";", 1)[1]).evaluate():
                continue
        base = req.split(";")[0].split("[")[0]
        for sep in "<>=!~ (":
            base = base.split(sep)[0]
        _requirements(base.strip().lower().replace("_", "-"), seen)


@pytest.fixture(scope="module")
def bare_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of links to pytest, Hypothesis and what they need (nothing else): with
    ``python -S`` and this as PYTHONPATH, the interpreter has no PyYAML, jsonschema,
    junitparser or gate."""
    folder = tmp_path_factory.mktemp("bare-site")
    names: set[str] = set()
    for top in ("pytest", "hypothesis"):
        _requirements(top, names)
    for name in names:
        dist = importlib.metadata.distribution(name)
        for first in {file.parts[0] for file in dist.files or []} - {"..", "__pycache__"}:
            source, target = Path(str(dist.locate_file(first))), folder / first
            if source.exists() and not target.exists():
                target.symlink_to(source)
    return folder


def bare_env(bare: Path) -> dict[str, str]:
    environment = env()
    environment["PYTHONPATH"] = str(bare)  # no repository, no gate: only the recorder's link
    return environment


def test_the_bare_interpreter_lacks_the_gates_dependencies(bare_path: Path) -> None:
    for module in ("yaml", "jsonschema", "junitparser", "fastjsonschema", "gate"):
        done = subprocess.run([sys.executable, "-S", "-c", f"import {module}"],
                              env=bare_env(bare_path), capture_output=True, check=False,
                              cwd=bare_path)
        assert done.returncode == 1, module
    done = subprocess.run([sys.executable, "-S", "-c", "import pytest, hypothesis"],
                          env=bare_env(bare_path), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def _comparable(stamps: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The stamps without their per-run fields (and object addresses in failure messages)."""
    import re

    text = json.dumps({t: {k: v for k, v in s.items() if k not in PER_RUN}
                       for t, s in stamps.items()}, sort_keys=True)
    return dict(json.loads(re.sub(r"0x[0-9a-f]+", "0x?", text)))


@pytest.fixture
def bare_python(tmp_path: Path) -> str:
    """``python -S``: this interpreter without its site-packages, as one command word."""
    script = tmp_path / "bare-python"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n')
    script.chmod(0o755)
    return str(script)


def test_recorder_in_a_bare_environment_gives_the_plugins_stamps(
        tmp_path: Path, bare_path: Path, bare_python: str) -> None:
    """The plugin (the gate installed in the test environment) and the recorder (a test
    environment with only pytest and Hypothesis) on the same tests: the same stamps."""
    root = tmp_path / "w"
    workspace(root, {"round_trip": 5, "fixed_band": FINDS, "draws": 1})
    plugin = run_class(root, LOCAL, "plugin", {"HYPO_SUITE_DRAWS": "draws-plugin.txt"})
    assert " written to plugin" in plugin.stdout, plugin.stdout + plugin.stderr
    environment = {**bare_env(bare_path), "HYPO_SUITE_DRAWS": "draws-recorder.txt"}
    done = stamp(root, "recorder", *pytest_argv(*select(*GATED), python=bare_python),
                 environment=environment)
    assert done.returncode == 0, done.stdout + done.stderr
    by_plugin, by_recorder = read_stamps(root / "plugin"), read_stamps(root / "recorder")
    assert _comparable(by_plugin) == _comparable(by_recorder)
    assert {s["source"] for s in by_recorder.values()} == {"pytest-recorder"}
    assert by_recorder["fixed_band"]["outcome"] == "assert_fail"
    assert by_recorder["fixed_band"]["failure"]["example"] == (
        "Failing test case: test_fixed_band(\n    cents=500000,\n)")
    assert by_recorder["fixed_band"]["failure"]["reproduce"].startswith("@reproduce_failure(")
    assert by_recorder["draws"]["hypothesis"]["seed"] == 1
    assert by_recorder["draws"]["hypothesis"]["examples_run"] == 20
    assert ((root / "draws-plugin.txt").read_text()
            == (root / "draws-recorder.txt").read_text())


# --- the two classes draw the same examples through the recorder --------------------------------


def test_both_classes_draw_the_same_examples_through_the_recorder(tmp_path: Path) -> None:
    workspace(tmp_path, {"round_trip": 5, "fixed_band": FINDS, "draws": 1})
    local = stamp(tmp_path, "stamps/local", *pytest_argv(*select(*GATED)),
                  environment={**env(), "HYPO_SUITE_DRAWS": "local.txt"})
    free_env = {**env(), "HYPO_SUITE_DRAWS": "free.txt", "PYTHONHASHSEED": "123", "CI": "1"}
    free = stamp(tmp_path, "stamps/free", *pytest_argv("--hypothesis-seed=99", *select(*GATED)),
                 server_class=FREE, environment=free_env)
    assert local.returncode == 0 and free.returncode == 0, local.stderr + free.stderr
    assert (tmp_path / "local.txt").read_text() == (tmp_path / "free.txt").read_text()
    lo, fr = read_stamps(tmp_path / "stamps/local"), read_stamps(tmp_path / "stamps/free")
    for test_id in GATED:
        assert lo[test_id]["hypothesis"] == fr[test_id]["hypothesis"]
        assert (digest.generator_digest(lo[test_id]["hypothesis"])
                == digest.generator_digest(fr[test_id]["hypothesis"]))
    assert digest.failure_digest(lo["fixed_band"]["failure"]) == digest.failure_digest(
        fr["fixed_band"]["failure"]) is not None


# --- PYTEST_ADDOPTS is appended to, and deselection follows the plugin's rules --------------------


def test_the_users_pytest_addopts_is_kept(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1, "fixed_band": FINDS})
    done = stamp(tmp_path, "out", *pytest_argv(),
                 environment={**env(), "PYTEST_ADDOPTS": "-k test_draws"})
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(tmp_path / "out")
    assert got["draws"]["outcome"] == "pass"
    # deselected by the user's -k: not run, and the recorder saw it collected (not a typo)
    assert (got["fixed_band"]["outcome"], got["fixed_band"]["note"]) == (
        "resource_exit", "did not run: collected, then deselected (-k, -m, --deselect, --lf)")


@pytest.mark.parametrize("addopts", ["-p gate.agent.recorder", "-pgate.testrun.recorder",
                                     "-p gate.testrun.recorder -q"])
def test_the_recorder_named_by_the_user_loads_once(tmp_path: Path, addopts: str) -> None:
    """``-p gate.agent.recorder`` (the old name, the very same module) or the new one already in
    the user's PYTEST_ADDOPTS: the gate adds no second ``-p`` (pytest refuses one module
    registered under two names) and the recorder governs the run."""
    workspace(tmp_path, {"draws": 1, "fixed_band": FINDS})
    done = stamp(tmp_path, "out", *pytest_argv(), environment={**env(), "PYTEST_ADDOPTS": addopts})
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(tmp_path / "out")
    assert got["fixed_band"]["outcome"] == "assert_fail"
    assert {s["source"] for s in got.values()} == {"pytest-recorder"}


def test_the_recorder_env_loads_the_recorder_first_and_keeps_the_users_addopts(
        tmp_path: Path) -> None:
    from gate.testrun import recorder_route

    def addopts(value: str | None) -> list[str]:
        environ = {} if value is None else {"PYTEST_ADDOPTS": value}
        words = recorder_route.recorder_env(tmp_path, tmp_path / "p", 3, environ)[
            "PYTEST_ADDOPTS"].split(" ", 2)
        assert words[:2] == ["-p", words[1]] and words[1].startswith("_gate_recorder_")
        return words[2:]

    assert addopts(None) == []
    assert addopts("-x -k 'a or b'") == ["-x -k 'a or b'"]
    assert addopts("-p gate.agent.recorder") == ["-p gate.agent.recorder"]
    assert addopts("-k 'unbalanced") == ["-k 'unbalanced"]


# --- fail closed ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "said"), [
    (["true"], "the command exited 0 and wrote no line of pytest's: the gate's recorder never "
               "loaded into pytest"),  # not pytest at all
    (["env", "-u", "PYTEST_ADDOPTS", sys.executable, "-m", "pytest", "-q", "hypo_props.py"],
     "the command exited 1: pytest ran (it wrote «1 failed, 6 passed in "),  # no environment
])
def test_a_recorder_that_never_loaded_is_refused(tmp_path: Path, command: list[str],
                                                 said: str) -> None:
    workspace(tmp_path, {"draws": 1})
    done = stamp(tmp_path, "out", *command)
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("gate: error:")]
    assert said in line, line
    assert "PYTEST_ADDOPTS" in line and "PYTHONPATH" in line and "tox: pass_env" in line
    assert "nox" in line
    assert not (tmp_path / "out").exists()


def _error_line(done: subprocess.CompletedProcess[str]) -> str:
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("gate: error:")]
    return line


@pytest.mark.parametrize(("files", "args", "said", "fix"), [
    ({"pytest.ini": "[pytest]\naddopts = --benchmark-skip\n"}, (),  # a plugin not installed
     "error: unrecognized arguments: --benchmark-skip",
     "requirements-test.txt must list the plugins the configuration's addopts needs"),
    ({}, ("--benchmark-skip",), "error: unrecognized arguments: --benchmark-skip",
     "requirements-test.txt must list the plugins the configuration's addopts needs"),
    ({"conftest.py": "pytest_plugins = ['no_such_plugin_xyz']\n"}, (),
     'ERROR: Error importing plugin "no_such_plugin_xyz"',
     "requirements-test.txt must list the plugins pytest is told to load"),
    ({"conftest.py": "import no_such_module_xyz\n"}, (),
     "ModuleNotFoundError: No module named 'no_such_module_xyz'",
     "requirements-test.txt must list what the conftest.py imports"),
    # issue 29 item 4: a module of the repository that raises is the patch's, not the
    # configuration's (attrs: raise ImportError in src/attr/_funcs.py)
    ({"conftest.py": "import sys\nsys.path.insert(0, 'src')\nimport mylib\n",
      "src/mylib/__init__.py": "from mylib import _funcs\n",
      "src/mylib/_funcs.py": "X = 1\nraise ImportError\n"}, (),
     "ImportError while loading conftest",
     "the patch breaks importing src/mylib/_funcs.py (line 2: ImportError), which the tests' "
     "conftest.py imports"),
    ({"conftest.py": "import sys\nsys.path.insert(0, 'src')\nfrom mylib import gone\n",
      "src/mylib/__init__.py": "\n"}, (), "ImportError: cannot import name 'gone'",
     "the patch breaks importing conftest.py (line 3: ImportError: cannot import name 'gone'"),
    ({"conftest.py": "import sys\nsys.path.insert(0, 'src')\nimport mylib.removed\n",
      "src/mylib/__init__.py": "\n"}, (), "No module named 'mylib.removed'",
     "the patch breaks importing conftest.py (line 3: ModuleNotFoundError"),
    ({"conftest.py": "from hypothesis import no_such_name_xyz\n"}, (),
     "cannot import name 'no_such_name_xyz' from 'hypothesis'",
     "requirements-test.txt must list what the conftest.py imports"),
    ({"pytest.ini": "[pytest\naddopts = -q\n"}, (), "unexpected value continuation",
     "fix what pytest names"),
])
def test_a_pytest_usage_error_is_named_with_its_fix(
        tmp_path: Path, files: dict[str, str], args: tuple[str, ...], said: str,
        fix: str) -> None:
    """pytest exit 4 stops it before the recorder's session begins: the error names the exit
    status, pytest's own words and the fix, not "the recorder never loaded" (bad input, no
    stamps, as before)."""
    workspace(tmp_path, {"draws": 1})
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    done = stamp(tmp_path, "out", *pytest_argv(*args))
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert "the command exited 4 (pytest: usage error) before the gate's recorder began" in line
    assert said in line and fix in line and "never loaded" not in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("broken", "said"), [
    ("ledgerlib.py", "did not run: the test collection failed (hypo_props): the patch breaks "
     "importing ledgerlib.py (line {line}: ImportError: broken by the patch), which "
     "hypo_props.py imports: fix that file (the code under test fails to import, not the "
     "job's configuration)"),
    ("hypo_props.py", "did not run: the test collection failed (hypo_props): the patch breaks "
     "importing hypo_props.py (line {line}: ImportError: broken by the patch): fix that file"),
])
def test_a_repository_module_that_breaks_a_test_files_import_is_named_as_the_patchs(
        tmp_path: Path, broken: str, said: str) -> None:
    """Issue 29 item 4, as a newcomer hit it on priority 2.0.0 under act: ``raise ImportError``
    in a package module the test file imports (no conftest.py) was "the test collection failed
    (test.test_priority)" in every stamp, with no word that the patch broke that module."""
    workspace(tmp_path, {"draws": 1})
    target = tmp_path / broken
    text = target.read_text() + "raise ImportError('broken by the patch')\n"
    target.write_text(text)
    done = stamp(tmp_path, "out", *pytest_argv())
    assert done.returncode == 0, done.stdout + done.stderr
    (one,) = read_stamps(tmp_path / "out").values()
    said = said.format(line=text.count("\n"))
    assert one["outcome"] == "resource_exit" and one["note"].startswith(said), one["note"]


def test_a_test_file_that_imports_a_missing_package_is_not_blamed_on_the_patch(
        tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    target = tmp_path / "hypo_props.py"
    target.write_text("import no_such_package_xyz\n" + target.read_text())
    done = stamp(tmp_path, "out", *pytest_argv())
    assert done.returncode == 0, done.stdout + done.stderr
    (one,) = read_stamps(tmp_path / "out").values()
    assert one["note"] == "did not run: the test collection failed (hypo_props)"


def test_a_pytest_internal_error_before_the_session_is_named(tmp_path: Path) -> None:
    """Exit 3: a conftest.py's pytest_configure raises before the recorder's runs."""
    workspace(tmp_path, {"draws": 1})
    (tmp_path / "conftest.py").write_text(
        "def pytest_configure(config):\n    raise RuntimeError('boom at configure')\n")
    done = stamp(tmp_path, "out", *pytest_argv())
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert ("the command exited 3 (pytest: internal error) before the gate's recorder began: "
            "pytest said «RuntimeError: boom at configure»; a plugin or a conftest.py hook "
            "raised") in line
    assert "never loaded" not in line and not (tmp_path / "out").exists()


def test_no_tests_collected_without_the_recorder_names_both(tmp_path: Path) -> None:
    """Exit 5 with no session of the recorder: pytest ran a session the recorder was not loaded
    into (its environment was dropped): the exit status, and the recorder's fix."""
    workspace(tmp_path, {"draws": 1})
    done = stamp(tmp_path, "out", "env", "-u", "PYTEST_ADDOPTS",
                 *pytest_argv("-k", "nothing_matches_this"))
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert line.startswith("gate: error: the test command: (pytest): the command exited 5 "
                           "(pytest: no tests collected), and the gate's recorder never loaded "
                           "into pytest: the command must run pytest with the environment")
    assert "tox: pass_env" in line and not (tmp_path / "out").exists()


def test_what_pytest_said_is_bounded_and_stays_one_line(tmp_path: Path) -> None:
    """The hostile case: an error that carries terminal escapes, a workflow command after a
    carriage return, and 20,000 characters."""
    workspace(tmp_path, {"draws": 1})
    (tmp_path / "conftest.py").write_text(
        "def pytest_configure(config):\n"
        "    raise RuntimeError('\\x1b[31mred\\r::error::forged ' + 'y' * 20000)\n")
    done = stamp(tmp_path, "out", *pytest_argv())
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error_line(done)
    assert "the command exited 3 (pytest: internal error)" in line
    assert len(line) < 700 and "\x1b" not in line and "\r" not in line  # the gate's line
    assert "red\\r::error::forged yyy" in line  # the carriage return shown, not obeyed


@pytest.mark.parametrize(("text", "said"), [
    ("ERROR: usage: pytest [options] [file_or_dir]\npytest: error: unrecognized arguments: --x"
     "\n  inifile: /w/pytest.ini\n  rootdir: /w\n", "pytest: error: unrecognized arguments: --x"),
    ("ImportError while loading conftest '/w/conftest.py'.\nconftest.py:1: in <module>\n"
     "    import nope\nE   ModuleNotFoundError: No module named 'nope'\n",
     "ImportError while loading conftest '/w/conftest.py'; ModuleNotFoundError: No module "
     "named 'nope'"),
    ("INTERNALERROR> Traceback (most recent call last):\nINTERNALERROR>   File \"x\", line 1\n"
     "INTERNALERROR> ValueError: v\nINTERNALERROR>\n", "ValueError: v"),
    ("ERROR: gate: error: GATE_RECORDER_PLAN: not a plan\n",
     "ERROR: gate: error: GATE_RECORDER_PLAN: not a plan"),
    ("some tool's own last words\n\n", "some tool's own last words"),
    ("", ""),
    ("ERROR: " + "z" * 5000, "ERROR: " + "z" * 192 + "…"),
])
def test_pytests_own_words_are_found_in_its_stderr(text: str, said: str) -> None:
    from gate.testrun import recorder_route

    assert recorder_route.pytest_said(text) == said


def test_other_exit_statuses_say_the_command_stopped_before_pytest() -> None:
    """Without a line of pytest's in the output, any other status is the command's own
    (tests/test_recorder_not_begun.py has each case); exit 0 keeps the recorder's fix."""
    from gate.testrun import recorder_route

    for code in (1, 2, 127):
        assert recorder_route.not_begun(code, "ERROR: x\n").startswith(
            f"the command exited {code} before pytest started (no line of pytest's in its "
            "output): it said «ERROR: x»; ")
    assert recorder_route.not_begun(0, "ERROR: x\n").endswith(recorder_route.RECORDER_FIX)
    assert recorder_route.not_begun(4, "") == (
        "the command exited 4 (pytest: usage error) before the gate's recorder began; fix what "
        "pytest names (it is in the log above)")


def test_a_session_killed_before_its_end_is_a_resource_exit(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    (tmp_path / "conftest.py").write_text(
        "import os\n\ndef pytest_sessionfinish(session):\n    os._exit(3)\n")
    done = stamp(tmp_path, "out", *pytest_argv(*select("draws")))
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert (got["outcome"], got["exit_code"]) == ("resource_exit", 3)
    assert got["note"] == "the pytest session wrote no results (killed or stopped before its end)"


def test_a_timeout_before_pytest_started_is_a_resource_exit(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    done = stamp(tmp_path, "out", "sleep", "30", extra=("--timeout", "1"))
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert (got["outcome"], got["timed_out"]) == ("resource_exit", True)


def test_a_second_pytest_session_in_one_command_is_refused(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    twice = " ".join(pytest_argv(*select("draws")))
    done = stamp(tmp_path, "out", "bash", "-c", f"{twice}; {twice}")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "a second pytest session in one stamp command" in done.stdout + done.stderr
    assert "it ran 2 pytest sessions with the recorder" in done.stderr
    assert not (tmp_path / "out").exists()


def _conflicts(root: Path) -> None:
    workspace(root, {})
    (root / "cards" / "seeded.json").write_text(json.dumps(
        {"property": "seeded", "cases": 20, "seed": 1}))
    write_manifest(root / "gate.yml", [{
        "test_id": "seeded", "card": "cards/seeded.json", "fixtures": ["ledgerlib.py"],
        "junit": {"classname": "hypo_conflicts", "name": "test_seeded"}}])


def test_a_card_conflict_is_exit_2_naming_the_test_and_no_stamps(tmp_path: Path) -> None:
    _conflicts(tmp_path)
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("gate: error:")]
    assert line.startswith("gate: error: gate.yml: properties (sample cards): the sample card "
                           "cannot govern 1 gated test, no stamps written: "), line
    assert ("hypo_conflicts.py::test_seeded: property 'seeded': an explicit @seed(123) "
            "overrides the card's seed") in line
    assert not (tmp_path / "out").exists()


# --- pytest-xdist: the workers govern, the controller records ------------------------------------


xdist = pytest.importorskip  # (called inside the tests: the rest of the module runs without it)


def test_xdist_workers_apply_the_card_on_both_routes(tmp_path: Path) -> None:
    xdist("xdist")
    # no deadline: a 30 ms one exceeded on a loaded machine replays the example (other draws)
    workspace(tmp_path, {"round_trip": 5, "fixed_band": FINDS, "draws": 1}, deadline_ms=None)
    serial = stamp(tmp_path, "serial", *pytest_argv(*select(*GATED)),
                   environment={**env(), "HYPO_SUITE_DRAWS": "serial.txt"})
    spread = stamp(tmp_path, "spread", *pytest_argv("-n", "2", *select(*GATED)),
                   environment={**env(), "HYPO_SUITE_DRAWS": "spread.txt"})
    plugin = run_class(tmp_path, LOCAL, "plugin", {"HYPO_SUITE_DRAWS": "plugin.txt"}, "-n", "2")
    assert serial.returncode == 0 and spread.returncode == 0, serial.stderr + spread.stderr
    assert " written to plugin" in plugin.stdout, plugin.stdout + plugin.stderr

    def lines(name: str) -> list[str]:
        return sorted((tmp_path / name).read_text().splitlines())

    assert lines("serial.txt") == lines("spread.txt") == lines("plugin.txt")
    assert lines("serial.txt")
    serial_stamps = _comparable(read_stamps(tmp_path / "serial"))
    assert serial_stamps == _comparable(read_stamps(tmp_path / "spread"))
    assert serial_stamps == _comparable(read_stamps(tmp_path / "plugin"))
    assert all("hypothesis" in s for s in serial_stamps.values())


def test_xdist_card_conflicts_stop_both_routes(tmp_path: Path) -> None:
    xdist("xdist")
    _conflicts(tmp_path)
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "-n", "2",
                 "hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "overrides the card's seed" in done.stderr
    assert not (tmp_path / "out").exists()
    plugin = run_class(tmp_path, LOCAL, "plugin", None, "-n", "2", module="hypo_conflicts.py")
    assert plugin.returncode == 2, plugin.stdout + plugin.stderr
    assert "overrides the card's seed" in plugin.stdout + plugin.stderr
    assert not (tmp_path / "plugin").exists()
    # The gate's lines, byte for byte as before xdist was told to replace no refusing worker
    # (recorder._replace_no_worker): before, it replaced each up to four times (ten workers
    # for -n 2, each collecting and refusing alike); now the two workers alone.
    seeded = ("hypo_conflicts.py::test_seeded: property 'seeded': an explicit @seed(123) "
              "overrides the card's seed")
    assert done.stderr == ("gate: error: gate.yml: properties (sample cards): the sample card "
                           f"cannot govern 1 gated test, no stamps written: {seeded}\n")
    said = [ln[ln.index("gate: error:"):] for ln in (plugin.stdout + plugin.stderr).splitlines()
            if "gate: error:" in ln]  # (after pytest's progress letters, if any)
    assert said == [
        f"gate: error: the sample card cannot govern 1 gated test(s), no stamps written: {seeded}"]
    assert done.stdout.count("node down") <= 2 and plugin.stdout.count("node down") <= 2


# --- stateful tests: RuleBasedStateMachine.TestCase (gate init writes cards for them) -------------


def _stateful(root: Path, seed: int) -> None:
    workspace(root, {})
    (root / "cards" / "ledger.json").write_text(json.dumps(
        {"property": "hypo_stateful.py::TestLedger::runTest", "cases": 10, "seed": seed}))
    write_manifest(root / "gate.yml", [{
        "test_id": "hypo_stateful.py::TestLedger::runTest", "card": "cards/ledger.json",
        "fixtures": ["ledgerlib.py", "hypo_stateful.py"],
        "junit": {"classname": "hypo_stateful.TestLedger", "name": "runTest"}}])


def test_a_state_machine_is_governed_by_its_card_on_both_routes(tmp_path: Path) -> None:
    for seed in (1, 2):
        _stateful(tmp_path / str(seed), seed)
    one, two = tmp_path / "1", tmp_path / "2"
    plugin = run_class(one, LOCAL, "plugin", {"HYPO_SUITE_DRAWS": "plugin.txt"},
                       "-k", "TestLedger", module="hypo_stateful.py")
    assert " written to plugin" in plugin.stdout, plugin.stdout + plugin.stderr
    free_env = {**env(), "HYPO_SUITE_DRAWS": "recorder.txt", "CI": "1"}
    done = stamp(one, "recorder", sys.executable, "-m", "pytest", "-q", "--hypothesis-seed=99",
                 "hypo_stateful.py", server_class=FREE, environment=free_env)
    assert done.returncode == 0, done.stdout + done.stderr
    other = stamp(two, "out", sys.executable, "-m", "pytest", "-q", "hypo_stateful.py",
                  environment={**env(), "HYPO_SUITE_DRAWS": "other.txt"})
    assert other.returncode == 0, other.stdout + other.stderr
    drawn = (one / "plugin.txt").read_text()
    assert drawn == (one / "recorder.txt").read_text()  # the card's seed, whatever the runner
    assert drawn != (two / "other.txt").read_text()  # another seed: other examples
    (by_plugin,) = read_stamps(one / "plugin").values()
    (by_recorder,) = read_stamps(one / "recorder").values()
    assert by_plugin["hypothesis"] == by_recorder["hypothesis"]
    assert by_plugin["hypothesis"]["seed"] == 1 and by_plugin["hypothesis"]["max_examples"] == 10
    # the card leaves these out: Hypothesis's stateful defaults stay (no deadline, checks off)
    assert by_plugin["hypothesis"]["deadline_ms"] is None
    assert "too_slow" in by_plugin["hypothesis"]["suppress_health_check"]
    assert by_plugin["outcome"] == by_recorder["outcome"]


def test_a_seeded_state_machine_is_a_card_conflict(tmp_path: Path) -> None:
    _stateful(tmp_path, 1)
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_stateful.py",
                 environment={**env(), "HYPO_SUITE_SEEDED": "1"})
    assert done.returncode == 2, done.stdout + done.stderr
    assert ("hypo_stateful.py::TestLedger::runTest: property "
            "'hypo_stateful.py::TestLedger::runTest': an explicit @seed(7) on the state machine "
            "overrides the card's seed") in done.stderr


# --- usage -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("extra", "words"), [
    (["--junit", "r.xml", "--", "true"], "--pytest: not with --junit"),
    (["--exit-code", "0"], "--pytest: needs -- COMMAND"),
])
def test_pytest_flag_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           extra: list[str], words: str) -> None:
    from gate.commands.main import main

    workspace(tmp_path, {"draws": 1})
    code = main(["stamp", "--manifest", str(tmp_path / "gate.yml"), "--root", str(tmp_path),
                 "--server-class", LOCAL, "--out", str(tmp_path / "o"), "--pytest", *extra])
    assert code == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_pytest_flag_needs_a_manifest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gate.commands.main import main

    workspace(tmp_path, {"draws": 1})
    code = main(["stamp", "--card", str(tmp_path / "cards" / "draws.json"), "--test-id", "d",
                 "--fixtures", str(tmp_path / "ledgerlib.py"), "--server-class", LOCAL,
                 "--out", str(tmp_path / "o"), "--pytest", "--", "true"])
    assert code == 2 and "--pytest: only with --manifest" in capsys.readouterr().err


def test_the_plan_is_schema_checked_and_names_every_property(tmp_path: Path) -> None:
    from gate.records import manifest, schemas
    from gate.testrun import recorder_route, stamping

    workspace(tmp_path, {"draws": 1, "fixed_band": FINDS})
    props = manifest.load(tmp_path / "gate.yml", tmp_path)
    plan = recorder_route.recorder_plan([stamping.prepare(p, tmp_path, None) for p in props])
    assert [(p["test_id"], p["junit"]["name"], p["card"]["seed"]) for p in plan["properties"]] == [
        ("draws", "test_draws", 1), ("fixed_band", "test_fixed_band", FINDS)]
    bad = {**plan, "properties": [{**plan["properties"][0], "card": {"cases": 1}}]}
    with pytest.raises(Exception, match="property"):
        schemas.validate("recorder-plan", bad, "plan")


def test_a_test_missing_on_the_recorder_route_is_its_resource_exit_alone(
        tmp_path: Path) -> None:
    """Issue 22: a manifest entry whose test pytest does not collect (renamed after ``gate
    init``, or an entry edited by hand) is that property's ``resource_exit``, said at
    collection; the other property is stamped as usual (before: exit 2, no stamps at all)."""
    workspace(tmp_path, {"draws": 1, "fixed_band": FINDS})
    text = (tmp_path / "gate.yml").read_text(encoding="utf-8")
    assert "test_fixed_band" in text
    (tmp_path / "gate.yml").write_text(text.replace("test_fixed_band", "test_fixed_bnd"),
                                       encoding="utf-8")
    done = stamp(tmp_path, "out", *pytest_argv(), environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("gate: not collected: renamed or removed? `gate init --add` names the new test; "
            "remove the old entry: test 'fixed_band'") in done.stdout
    got = read_stamps(tmp_path / "out")
    assert got["draws"]["outcome"] == "pass"
    assert got["fixed_band"]["outcome"] == "resource_exit"
    assert got["fixed_band"]["note"].startswith("not collected: renamed or removed?")


def test_a_profile_a_state_machine_inherits_is_named_as_the_profile(tmp_path: Path) -> None:
    """Review: a profile's values reach a state machine through ``TestCase.settings``; the
    conflict said "TestCase.settings sets ..., drop it from TestCase.settings", which the user
    never wrote. It is the profile's shared clause, as for a plain test."""
    _stateful(tmp_path, 1)  # the card: 10 cases
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\nsettings.register_profile('fast', max_examples=7)\n")
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q",
                 "--hypothesis-profile=fast", "hypo_stateful.py")
    assert done.returncode == 2, done.stdout + done.stderr
    assert ("settings profile 'fast' sets max_examples=7, other values than the card puts in "
            'force: set "cases": 7 in the cards') in done.stderr, done.stderr
    assert "TestCase.settings sets" not in done.stderr
