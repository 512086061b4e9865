"""The recorder route runs only the gated tests (``tests: gated``, the default), or every one.

``gate stamp --pytest`` (what the action's stamp mode runs with ``command`` and no ``junit``)
tells the recorder, through its plan, to deselect every collected test that no manifest property
selects; ``--tests all`` (the action's ``tests: all``) keeps the old behaviour. Every run here is
a real ``gate`` process running a real ``pytest`` on a copy of tests/hypo_suite, as in
tests/test_recorder.py. Also here: the card file in a recorder-route card conflict, and the one
card-versus-test-id check of ``gate stamp --card F --test-id T``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from gate.commands import main as cli
from gate.errors import GateInputError
from gate.github import action
from tests.property_suite.harness import read_stamps, write_manifest
from tests.test_hypothesis_card import FINDS, LOCAL, conflict_workspace, workspace
from tests.test_recorder import pytest_argv, stamp

#: hypo_props.py's tests: seven, of which a workspace gates the ones it gives cards.
SUITE = 7
ALL = ("--tests", "all")


def _summary(done: str) -> str:
    """pytest's last line, e.g. ``1 passed, 6 deselected in 0.50s``, without the time."""
    (line,) = [ln for ln in done.splitlines() if re.search(r"\bin [0-9.]+s\b", ln)]
    return re.sub(r"\s+in [0-9.]+s.*$", "", line.strip("= "))


# --- gated (the default) against all --------------------------------------------------------


def test_only_the_gated_tests_run_by_default_and_all_runs_every_one(tmp_path: Path) -> None:
    for name in ("gated", "all"):
        workspace(tmp_path / name, {"draws": 1, "fixed_band": FINDS})
    gated = stamp(tmp_path / "gated", "out", *pytest_argv())
    every = stamp(tmp_path / "all", "out", *pytest_argv(), extra=ALL)
    assert gated.returncode == 0 and every.returncode == 0, gated.stderr + every.stderr
    # pytest's own count: the five ungated tests are deselected, the two gated ones run
    assert _summary(gated.stdout) == "1 failed, 1 passed, 5 deselected"
    assert _summary(every.stdout) == f"1 failed, {SUITE - 1} passed"
    assert "deselected" not in every.stdout
    by_gated, by_all = read_stamps(tmp_path / "gated" / "out"), read_stamps(
        tmp_path / "all" / "out")
    assert {t: s["outcome"] for t, s in by_gated.items()} == {
        "draws": "pass", "fixed_band": "assert_fail"} == {
        t: s["outcome"] for t, s in by_all.items()}
    for test_id in by_gated:  # the same experiment whichever tests ran beside it
        assert by_gated[test_id]["hypothesis"] == by_all[test_id]["hypothesis"]


def test_the_users_k_narrows_the_gated_tests_further(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1, "fixed_band": FINDS})
    done = stamp(tmp_path, "out", *pytest_argv("-k", "test_draws or test_slow"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert _summary(done.stdout) == "1 passed, 6 deselected"  # -k's five and test_slow
    got = read_stamps(tmp_path / "out")
    assert got["draws"]["outcome"] == "pass"
    assert (got["fixed_band"]["outcome"], got["fixed_band"]["note"]) == (
        "resource_exit", "did not run: collected, then deselected (-k, -m, --deselect, --lf)")


PARAMS = '''\
import pytest
from hypothesis import given, strategies as st

DIGITS = {2: "b", 8: "o", 16: "x"}


@pytest.mark.parametrize("base", [2, 8, 16])
@given(st.integers(0, 10**6))
def test_radix(base, n):
    assert int(format(n, DIGITS[base]), base) == n


@pytest.mark.parametrize("k", [1, 2])
@given(st.integers())
def test_shift(k, n):
    assert (n << k) >> k == n


def test_plain():
    assert True
'''


def test_a_gated_parametrized_test_keeps_every_gated_parameter_set(tmp_path: Path) -> None:
    """Each parameter set is its own property (``gate init`` writes one per set): every set the
    manifest names runs under its card, and a set it does not name is deselected like any
    other ungated test."""
    workspace(tmp_path, {})
    (tmp_path / "hypo_params.py").write_text(PARAMS, encoding="utf-8")
    names = ["test_radix[2]", "test_radix[8]", "test_radix[16]", "test_shift[1]"]
    entries = []
    for number, name in enumerate(names):
        test_id = f"hypo_params.py::{name}"
        (tmp_path / "cards" / f"{number}.json").write_text(json.dumps(
            {"property": test_id, "cases": 5 + number, "seed": number}))
        entries.append({"test_id": test_id, "card": f"cards/{number}.json",
                        "fixtures": ["hypo_params.py"],
                        "junit": {"classname": "hypo_params", "name": name}})
    write_manifest(tmp_path / "gate.yml", entries)
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-v", "hypo_params.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _summary(done.stdout) == "4 passed, 2 deselected"  # test_shift[2], test_plain
    ran = set(re.findall(r"hypo_params\.py::(\S+) PASSED", done.stdout))
    assert ran == set(names)
    got = read_stamps(tmp_path / "out")
    assert {t: (s["outcome"], s["hypothesis"]["max_examples"]) for t, s in got.items()} == {
        f"hypo_params.py::{name}": ("pass", 5 + number) for number, name in enumerate(names)}


# --- a property whose test is not collected: decided as when every test runs ---------------


def _error(done_stderr: str) -> str:
    (line,) = [ln for ln in done_stderr.splitlines() if ln.startswith("gate: error:")]
    return line


GONE = ("not collected: renamed or removed? `gate init --add` names the new test; remove the "
        "old entry")
#: What the run prints at collection, before any test runs.
SAID = f"gate: {GONE}: test 'gone' (its stamp will be resource_exit; every other property runs"


@pytest.mark.parametrize("seeds", [{"draws": 1, "gone": 1}, {"gone": 1}],
                         ids=["beside-a-gated-test", "alone"])
def test_a_property_whose_test_is_not_collected_is_stamped_and_the_others_too(
        tmp_path: Path, seeds: dict[str, int]) -> None:
    """Issue 22: ``test_gone`` was renamed after ``gate init``: every property is stamped, the
    gone one ``resource_exit`` saying what to do, and the run says so at collection, before
    the tests run; gated or all, the same stamps."""
    for name in ("gated", "all"):
        workspace(tmp_path / name, seeds)
    gated = stamp(tmp_path / "gated", "out", *pytest_argv())
    every = stamp(tmp_path / "all", "out", *pytest_argv(), extra=ALL)
    for done, where in ((gated, "gated"), (every, "all")):
        assert done.returncode == 0, done.stdout + done.stderr
        got = read_stamps(tmp_path / where / "out")
        assert set(got) == set(seeds)
        assert (got["gone"]["outcome"], got["gone"]["note"]) == ("resource_exit", GONE)
        if "draws" in seeds:
            assert got["draws"]["outcome"] == "pass"
        said = done.stdout.index(SAID)
        assert "JUnit" not in done.stdout + done.stderr
        assert "selector" not in done.stdout + done.stderr
        ran = re.search(r"^hypo_props\.py ", done.stdout, re.M)
        if ran:  # before the first test's progress
            assert said < ran.start()


def test_a_collection_with_no_test_at_all_is_not_collected(tmp_path: Path) -> None:
    """Nothing collected (an empty module): the property's test is not collected."""
    workspace(tmp_path, {"gone": 1})
    (tmp_path / "hypo_empty.py").write_text("", encoding="utf-8")
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_empty.py")
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["outcome"] == "resource_exit"
    assert got["note"].startswith("not collected: no test of 'hypo_props' was collected")


# --- pytest-xdist: every worker deselects, the controller hears what it left out -----------


def test_xdist_workers_run_only_the_gated_tests(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    for name in ("gated", "all"):
        workspace(tmp_path / name, {"draws": 1, "fixed_band": FINDS})
    command = (sys.executable, "-m", "pytest", "-n", "2", "hypo_props.py")  # not -q: the count
    gated = stamp(tmp_path / "gated", "out", *command)
    every = stamp(tmp_path / "all", "out", *command, extra=ALL)
    assert gated.returncode == 0 and every.returncode == 0, gated.stderr + every.stderr
    assert "2 workers [2 items]" in gated.stdout  # what the workers kept after deselecting
    assert f"2 workers [{SUITE} items]" in every.stdout
    assert _summary(gated.stdout) == "1 failed, 1 passed"
    by_gated = read_stamps(tmp_path / "gated" / "out")
    assert {t: s["outcome"] for t, s in by_gated.items()} == {
        "draws": "pass", "fixed_band": "assert_fail"}
    assert by_gated["draws"]["hypothesis"] == read_stamps(
        tmp_path / "all" / "out")["draws"]["hypothesis"]


def test_xdist_a_property_whose_test_is_not_collected_is_stamped_too(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    for name in ("gated", "all"):
        workspace(tmp_path / name, {"draws": 1, "gone": 1})
    gated = stamp(tmp_path / "gated", "out", *pytest_argv("-n", "2"))
    every = stamp(tmp_path / "all", "out", *pytest_argv("-n", "2"), extra=ALL)
    for done, where in ((gated, "gated"), (every, "all")):
        assert done.returncode == 0, done.stdout + done.stderr
        got = read_stamps(tmp_path / where / "out")  # the workers said what they collected
        assert (got["gone"]["outcome"], got["gone"]["note"]) == ("resource_exit", GONE)
        assert got["draws"]["outcome"] == "pass"


# --- the plan, the flag, the action input ----------------------------------------------------


def test_the_plan_says_which_tests_run(tmp_path: Path) -> None:
    from gate.records import manifest, schemas
    from gate.testrun import recorder_route, stamping

    workspace(tmp_path, {"draws": 1})
    prepared = [stamping.prepare(p, tmp_path, None)
                for p in manifest.load(tmp_path / "gate.yml", tmp_path)]
    assert recorder_route.recorder_plan(prepared)["tests"] == "gated"
    plan = recorder_route.recorder_plan(prepared, "all")
    assert plan["tests"] == "all"
    with pytest.raises(GateInputError, match="tests"):
        schemas.validate("recorder-plan", {**plan, "tests": "some"}, "plan")


@pytest.mark.parametrize(("extra", "words"), [
    (["--tests", "some", "--pytest", "--", "true"], "--tests: must be gated or all, not 'some'"),
    (["--tests", "all", "--junit", "r.xml", "--", "true"], "--tests: only with --pytest"),
])
def test_tests_flag_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          extra: list[str], words: str) -> None:
    workspace(tmp_path, {"draws": 1})
    code = cli.main(["stamp", "--manifest", str(tmp_path / "gate.yml"), "--root", str(tmp_path),
                     "--server-class", LOCAL, "--out", str(tmp_path / "o"), *extra])
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"gate: error: gate stamp: {words}"), line
    assert not (tmp_path / "o").exists()


def _stamp_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    (tmp_path / "runner").mkdir(exist_ok=True)
    return {"RUNNER_TEMP": str(tmp_path / "runner"), "GITHUB_JOB": "stamp",
            "GATE_MODE": "stamp", "GATE_SERVER_CLASS": LOCAL, **extra}


@pytest.mark.parametrize("value", ["some", "gated,all", "none"])
def test_a_bad_tests_input_is_exit_2_naming_it_and_the_values(tmp_path: Path,
                                                                value: str) -> None:
    with pytest.raises(GateInputError) as caught:
        action.Settings.from_env(_stamp_env(tmp_path, GATE_TESTS=value))
    assert (caught.value.source, caught.value.field) == ("tests", "(input)")
    assert caught.value.message == f"must be gated or all, not {value!r}"


@pytest.mark.parametrize(("given", "junit", "passed"), [
    ("", "", ["--pytest", "--tests", "gated"]),  # the input's default
    ("all", "", ["--pytest", "--tests", "all"]),
    (" All ", "", ["--pytest", "--tests", "all"]),
    ("all", "report.xml", ["--junit", "report.xml"]),  # the JUnit route runs what it names
])
def test_the_tests_input_reaches_gate_stamp(tmp_path: Path, given: str, junit: str,
                                            passed: list[str]) -> None:
    seen: list[list[str]] = []

    def gate_main(argv: list[str]) -> int:
        seen.append(argv)
        return 0

    settings = action.Settings.from_env(_stamp_env(
        tmp_path, GATE_TESTS=given, GATE_JUNIT=junit, GATE_COMMAND="python -m pytest"))
    assert action._stamp(settings, gate_main) == 0
    (argv,) = seen
    flags = argv[:argv.index("--")]
    start = flags.index(passed[0])
    assert flags[start:start + len(passed)] == passed
    assert ("--tests" in flags) == (not junit)


# --- the card file in a card conflict (recorder route) ----------------------------------------


def test_a_recorder_card_conflict_names_the_card_file_in_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    root = repo / "proj"
    (repo / ".git").mkdir(parents=True)
    conflict_workspace(root, ["own_settings"])
    done = stamp(root, "out", sys.executable, "-m", "pytest", "-q", "hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    line = _error(done.stderr)
    assert ("@settings sets max_examples=500, the card proj/cards/own_settings.json has 20: "
            'set "cases": 500 in the card') in line
    assert not (root / "out").exists()


def test_the_card_file_outside_a_repository_is_relative_to_the_root(tmp_path: Path) -> None:
    from gate.records import manifest
    from gate.testrun import recorder_route, stamping

    conflict_workspace(tmp_path, ["own_settings"])
    (prop,) = manifest.load(tmp_path / "gate.yml", tmp_path)
    prepared = stamping.prepare(prop, tmp_path, None)
    assert recorder_route.card_file(prepared) == "cards/own_settings.json"
    (item,) = recorder_route.recorder_plan([prepared])["properties"]
    assert item["card_path"] == "cards/own_settings.json"


# --- gate stamp --card F --test-id T: the card's property must be T --------------------------


def test_a_card_for_another_test_id_is_refused_without_a_manifest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"property": "tests/test_a.py::test_one", "cases": 1,
                                "seed": 1}), encoding="utf-8")
    (tmp_path / "fx.txt").write_text("x", encoding="utf-8")
    argv = ["stamp", "--server-class", LOCAL, "--out", str(tmp_path / "out"), "--card",
            str(card), "--fixtures", str(tmp_path / "fx.txt"), "--root", str(tmp_path),
            "--exit-code", "0"]
    code = cli.main([*argv, "--test-id", "tests/test_a.py::test_two"])
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (f"gate: error: {card}: property: 'tests/test_a.py::test_two' differs from "
                    "the card's property 'tests/test_a.py::test_one' "
                    f"({card}); make --test-id and the card's property the same test id (fix "
                    "the typo in one of them)")
    assert not (tmp_path / "out").exists()
    assert cli.main([*argv, "--test-id", "tests/test_a.py::test_one"]) == 0
    assert len(list((tmp_path / "out").glob("*.json"))) == 1


def test_the_manifest_check_is_the_same_function(tmp_path: Path) -> None:
    """One check for both: a manifest entry's mismatch still names its test_id field."""
    from gate.records import manifest

    with pytest.raises(GateInputError) as caught:
        manifest.check_card("a", {"property": "b"}, "gate.yml", "properties.0.test_id",
                            "cards/a.json")
    assert (caught.value.source, caught.value.field) == ("gate.yml", "properties.0.test_id")
    assert caught.value.message == ("'a' differs from the card's property 'b' (cards/a.json); "
                                    "make test_id and the card's property the same test id "
                                    "(fix the typo in one of them)")
