"""The pytest plugin (``--gate-stamps``) against ``gate stamp --manifest --junit`` on one run.

One real pytest process of tests/plugin_suite runs under ``gate stamp -- ...`` with both
``--junitxml`` and the plugin's options, so both routes stamp the very same run. The expected
outcomes are written down here, independently of gate.decide.outcome.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.property_suite.harness import env, make_property, read_stamps, write_manifest

SUITE = Path(__file__).resolve().parent / "plugin_suite"
LOCAL = "local-pinned"
# Fields allowed to differ between the two routes for the same run (see gate.testrun.pytest_plugin).
# (``ungated``, ``harness_files``: what the session collected and loaded, which a JUnit report
# does not say; ``isolation``: the level the gate ran the test command at, recorded by the JUnit
# route, which ran it; the plugin writes from inside the test process, which ran no command, so
# its stamps leave it out, as schemas/stamp.schema.json says.)
ROUTE_FIELDS = {"source", "written_at", "wall_seconds", "body_bytes", "hypothesis", "failure",
                "ungated", "harness_files", "isolation"}

PLAN = {"c02": "fail", "c03": "group", "c04": "setup_error", "c05": "teardown_error",
        "c06": "fail_teardown_error", "c07": "skip", "c08": "xfail", "c09": "xpass_strict",
        "c10": "crash", "c11": "pytest_fail", "k02": "fail"}
# test id -> (outcome, note) for both routes, where they agree
AGREED = {
    "c01": ("pass", None),
    "c02": ("assert_fail", "JUnit <failure>"),
    "c03": ("assert_fail", "JUnit <failure>"),  # a group made only of AssertionErrors
    "c04": ("resource_exit", "JUnit <error> is not an assertion"),
    "c05": ("resource_exit", "JUnit <error> is not an assertion"),
    "c06": ("resource_exit", "ambiguous: matches 2 testcases in the JUnit report"),
    "c07": ("resource_exit", "skipped"),
    "c08": ("resource_exit", "skipped"),
    # a RuntimeError and a pytest.fail() on the example Hypothesis tried: it printed the
    # falsifying example, so both are property failures on both routes
    "c10": ("assert_fail", "JUnit <failure>"),
    "c11": ("assert_fail", "JUnit <failure>"),
    "c13": ("pass", None),
    "k01": ("pass", None),
    "k02": ("assert_fail", "JUnit <failure>"),
    "k01_by_name": ("pass", None),  # matched by name alone
}
# Gated tests that do not run (issue 14 class 8) are added by the tests that need them: c12
# deselected with -k (the plugin saw it collected), ghost a typo (no such test).
# Where the plugin sees more than JUnit can say: the call failed, but not with an assertion.
DIVERGENT = {"c09": "no exception (a strict xfail passed)"}


def workspace(root: Path, *extra: str) -> Path:
    for name in ("plug_suite.py", "pytest.ini"):
        (root / name).write_bytes((SUITE / name).read_bytes())
    entries: list[dict[str, Any]] = []
    for n, test_id in enumerate([*AGREED, *DIVERGENT, *extra], start=1):
        entry = make_property(root, test_id, seed=n, expires=1_900_000_000 if n % 2 else None,
                              sample=n % 3 != 0)
        case = test_id.removesuffix("_by_name")
        if case.startswith("k"):
            entry["junit"] = {"classname": "plug_suite.TestInClass", "name": f"test_method[{case}]"}
        else:
            entry["junit"] = {"classname": "plug_suite", "name": f"test_case[{case}]"}
        if test_id.endswith("_by_name"):
            del entry["junit"]["classname"]
        entries.append(entry)
    entries[1]["location"] = {"path": "plug_suite.py", "line": 60}
    for entry in entries:  # the sample card governs every gated test (a Hypothesis test)
        card_path = root / entry["card"]
        card = json.loads(card_path.read_text())
        card["suppress_health_check"] = ["function_scoped_fixture"]
        if entry["test_id"] == "k01_by_name":  # one test, two selectors: one card
            card["seed"] = json.loads((root / "cards" / "k01.json").read_text())["seed"]
        card_path.write_text(json.dumps(card))
    return write_manifest(root / "gate.yml", entries)


def run_both(root: Path, plan: dict[str, str], *pytest_args: str,
             prefix: str = "R") -> subprocess.CompletedProcess[str]:
    environment = env()
    environment["PLUGIN_SUITE_PLAN"] = json.dumps(plan)
    command = [sys.executable, "-m", "gate", "stamp", "--manifest", "gate.yml",
               "--server-class", LOCAL, "--junit", "r.xml", "--out", "junit",
               "--run-id-prefix", prefix, "--",
               sys.executable, "-m", "pytest", "-q", "--junitxml=r.xml",
               "--gate-stamps", "plugin", "--gate-server-class", LOCAL,
               "--gate-manifest", "gate.yml", "--gate-run-id-prefix", prefix,
               *pytest_args, "plug_suite.py"]
    return subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True,
                          timeout=120, check=False)


def without_route_fields(stamp: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stamp.items() if k not in ROUTE_FIELDS}


def test_both_routes_give_the_same_stamps_for_one_mixed_run(tmp_path: Path) -> None:
    workspace(tmp_path)
    done = run_both(tmp_path, PLAN, "-k", "not c12")
    assert done.returncode == 0, done.stderr
    assert " written to plugin" in done.stdout
    by_junit, by_plugin = read_stamps(tmp_path / "junit"), read_stamps(tmp_path / "plugin")
    assert set(by_junit) == set(by_plugin) == {*AGREED, *DIVERGENT}
    for test_id, expected in AGREED.items():
        junit, plugin = by_junit[test_id], by_plugin[test_id]
        assert (plugin["outcome"], plugin.get("note")) == expected, test_id
        assert without_route_fields(plugin) == without_route_fields(junit), test_id
    for test_id, crash in DIVERGENT.items():
        junit, plugin = by_junit[test_id], by_plugin[test_id]
        assert (junit["outcome"], junit["note"]) == ("assert_fail", "JUnit <failure>")
        assert plugin["outcome"] == "resource_exit", test_id
        assert plugin["note"] == (f"the test call failed with {crash}, not an AssertionError: "
                                  "not an assertion result")
        same = {k: v for k, v in without_route_fields(plugin).items() if k not in ("outcome",
                                                                                   "note")}
        assert same == {k: v for k, v in without_route_fields(junit).items()
                        if k not in ("outcome", "note")}
    for stamp in by_plugin.values():
        assert stamp["source"] == "pytest-plugin" and stamp["exit_code"] == 1
        assert stamp["timed_out"] is False and "body_bytes" not in stamp
        assert stamp["run_id"] == by_junit[stamp["test_id"]]["run_id"]
        assert "isolation" not in stamp  # the plugin ran no command
        assert set(by_junit[stamp["test_id"]]["isolation"]) == {"level", "by", "ptrace_scope"}
    # the fields the brief names, spelled out once more
    for test_id in AGREED:
        for key in ("outcome", "fixture_hash", "sample_card", "fixture_sha256", "test_id",
                    "server_class", "freeze_expires_at"):
            assert by_plugin[test_id].get(key) == by_junit[test_id].get(key), (test_id, key)
    assert sum("fixture_sha256" in s for s in by_plugin.values()) == 10


def test_an_interrupted_session_gives_no_green(tmp_path: Path) -> None:
    workspace(tmp_path)
    done = run_both(tmp_path, {"c03": "fail", "c05": "interrupt"})
    # JUnit cannot tell c06.. (never reached) from a typo: the JUnit route fails closed
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "gate.yml: properties.4.junit (test 'c05')" in line and "an interrupt" in line, line
    assert not (tmp_path / "junit").exists() or not list((tmp_path / "junit").iterdir())
    by_plugin = read_stamps(tmp_path / "plugin")  # the plugin saw them collected
    for test_id, plugin in by_plugin.items():
        assert plugin["exit_code"] == 2, test_id  # pytest: interrupted
    outcomes = {t: s["outcome"] for t, s in by_plugin.items()}
    assert outcomes["c03"] == "assert_fail"  # it did fail before the interrupt
    assert outcomes["c01"] == outcomes["c02"] == "resource_exit"  # passed, run not finished
    assert by_plugin["c01"]["note"] == "passed in JUnit, but exit status 2 does not agree"
    assert by_plugin["c13"]["note"] == ("did not run: collected, but the session "
                                        "stopped before its result (exit status 2: -x, "
                                        "--maxfail or an interrupt)")  # never ran
    assert "pass" not in outcomes.values()


def plugin_only(root: Path, plan: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    environment = env()
    environment["PLUGIN_SUITE_PLAN"] = json.dumps(plan)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "--gate-stamps", "plugin",
                           "--gate-server-class", LOCAL, "--gate-manifest", "gate.yml", *args,
                           "plug_suite.py"], cwd=root, env=environment, capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_deselected_gated_test_is_resource_exit_saying_so(tmp_path: Path) -> None:
    workspace(tmp_path, "c12")
    done = run_both(tmp_path, PLAN, "-k", "not c12")
    by_plugin = read_stamps(tmp_path / "plugin")
    assert by_plugin["c12"]["outcome"] == "resource_exit"
    assert by_plugin["c12"]["note"] == ("did not run: collected, then deselected (-k, "
                                        "-m, --deselect, --lf)")
    assert by_plugin["c01"]["outcome"] == "pass"
    # the same run through JUnit: a deselected test looks like a typo, so it fails closed
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "properties.15.junit (test 'c12')" in line and "-k/-m" in line, line


@pytest.mark.parametrize("stop", [["-x"], ["--maxfail", "1"]])
def test_a_session_stopped_early_leaves_the_rest_not_reached(tmp_path: Path,
                                                            stop: list[str]) -> None:
    workspace(tmp_path)
    done = plugin_only(tmp_path, {"c02": "fail"}, *stop)
    assert done.returncode == 1, done.stdout + done.stderr
    stamps = read_stamps(tmp_path / "plugin")
    assert stamps["c02"]["outcome"] == "assert_fail"
    for test_id in ("c03", "c13", "k01"):
        assert stamps[test_id]["outcome"] == "resource_exit", test_id
        assert stamps[test_id]["note"].startswith("did not run: collected, but the "
                                                  "session stopped before its result "
                                                  "(exit status 1"), test_id


def test_a_collection_error_on_the_plugin_route_is_not_a_typo(tmp_path: Path) -> None:
    workspace(tmp_path, "ghost")  # even the typo waits for the collection to be fixed
    (tmp_path / "plug_broken.py").write_text("import no_such_module_for_the_gate\n")
    done = plugin_only(tmp_path, {}, "plug_broken.py")
    assert done.returncode == 2, done.stdout + done.stderr  # pytest: interrupted
    assert "gate: error" not in done.stdout
    stamps = read_stamps(tmp_path / "plugin")
    assert {s["note"] for s in stamps.values()} == {
        "did not run: the test collection failed (plug_broken)"}


@pytest.mark.parametrize("plan", [{}, PLAN])  # a green run, and the newcomer's red run
def test_a_test_renamed_after_init_on_the_plugin_route_is_its_resource_exit_only(
        tmp_path: Path, plan: dict[str, str]) -> None:
    """Issue 22: a property whose test is not collected (renamed or removed after ``gate
    init``) is stamped ``resource_exit`` saying what to do, every other property is stamped,
    and the session says so at collection, before the tests run."""
    workspace(tmp_path, "ghost")
    done = plugin_only(tmp_path, plan)
    assert done.returncode == (1 if plan else 0), done.stdout + done.stderr
    assert "gate: error" not in done.stdout + done.stderr
    stamps = read_stamps(tmp_path / "plugin")
    assert (stamps["ghost"]["outcome"], stamps["ghost"]["note"]) == (
        "resource_exit", "not collected: renamed or removed? `gate init --add` names the new "
        "test; remove the old entry")
    assert len(stamps) == 16 and stamps["c01"]["outcome"] == "pass"
    said = done.stdout.index("gate: not collected: renamed or removed? `gate init --add` "
                             "names the new test; remove the old entry: test 'ghost' (its "
                             "stamp will be resource_exit; every other property runs and is "
                             "stamped)")
    assert said == 0 and done.stdout.splitlines()[1].startswith(".")  # before the tests ran
    assert "JUnit" not in done.stdout and "selector" not in done.stdout


def plain_pytest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", *args, "plug_suite.py"],
                          cwd=root, env=env(), capture_output=True, text=True, timeout=120,
                          check=False)


def test_inactive_without_its_options(tmp_path: Path) -> None:
    workspace(tmp_path)
    done = plain_pytest(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "gate:" not in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [
        "cards", "fixtures", "gate.yml", "plug_suite.py", "pytest.ini", "samples"]


@pytest.mark.parametrize(("args", "message"), [
    (["--gate-server-class", LOCAL], "--gate-server-class needs --gate-stamps DIR"),
    (["--gate-stamps", "out", "--gate-manifest", "gate.yml"],
     "--gate-stamps needs --gate-server-class"),
    (["--gate-stamps", "out", "--gate-server-class", LOCAL],  # the default manifest
     ".github/gate.yml: (file): no such file"),
    (["--gate-stamps", "out", "--gate-server-class", LOCAL, "--gate-manifest", "nope.yml"],
     "nope.yml: (file): no such file"),
    (["--gate-stamps", "taken", "--gate-server-class", LOCAL, "--gate-manifest", "gate.yml",
      "--gate-run-id-prefix", "R"], "taken: --gate-stamps: is not empty: one session's stamps "
     "go to a fresh folder (a second set beside them would pair as duplicates and close the "
     "gate); give a new folder or remove this one"),
    # issue 29 item 7: a folder holding another session's stamps (other run ids) is refused too
    (["--gate-stamps", "earlier", "--gate-server-class", LOCAL, "--gate-manifest", "gate.yml"],
     "earlier: --gate-stamps: is not empty"),
])
def test_bad_options_are_usage_errors_and_no_test_runs(tmp_path: Path, args: list[str],
                                                       message: str) -> None:
    workspace(tmp_path)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "R.2.json").write_text("{}")
    (tmp_path / "earlier").mkdir()
    (tmp_path / "earlier" / "0123abcd.json").write_text("{}")
    done = plain_pytest(tmp_path, *args)
    assert done.returncode == 2, done.stdout + done.stderr  # the gate's bad input, not 4
    assert message in done.stderr
    (line,) = done.stderr.splitlines()  # one clean line (pytest prefixes its Exit: )
    assert line.startswith("Exit: gate: error: ") and message in line, line
    assert "passed" not in done.stdout
    assert not (tmp_path / "out").exists()
    assert (tmp_path / "taken" / "R.2.json").read_text() == "{}"


def test_gate_tests_gated_runs_only_the_gated_tests(tmp_path: Path) -> None:
    """Issue 29 item 7: README step 4 ran the whole suite twice; --gate-tests gated deselects
    what no property selects (the action's tests: gated), and stamps as before."""
    workspace(tmp_path)
    gated = plugin_only(tmp_path, {}, "--gate-tests", "gated")
    assert gated.returncode == 0, gated.stdout + gated.stderr
    assert "4 deselected" in gated.stdout, gated.stdout  # c12, c14, c15, c16
    stamps = read_stamps(tmp_path / "plugin")
    assert set(stamps) == {*AGREED, *DIVERGENT}
    assert {s["outcome"] for s in stamps.values()} == {"pass"}
    (tmp_path / "all").mkdir()
    workspace(tmp_path / "all")
    every = plugin_only(tmp_path / "all", {})  # the default: every collected test runs
    assert every.returncode == 0, every.stdout + every.stderr
    assert "deselected" not in every.stdout and "passed" in every.stdout, every.stdout
    ran = int(every.stdout.split(" passed")[0].split()[-1])
    assert ran == int(gated.stdout.split(" passed")[0].split()[-1]) + 4


def test_gate_tests_needs_gate_stamps(tmp_path: Path) -> None:
    workspace(tmp_path)
    done = plain_pytest(tmp_path, "--gate-tests", "gated")
    assert done.returncode == 2
    assert "--gate-tests needs --gate-stamps DIR" in done.stderr
