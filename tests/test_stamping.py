"""``gate stamp`` driving real processes: a real pytest run of tests/property_suite, signals,
timeouts, silent processes, recorded runs, write-once and atomicity. No mocks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.property_suite.harness import (
    REPO,
    copy_suite,
    env,
    gate,
    make_property,
    pytest_command,
    read_stamps,
    write_manifest,
)

LOCAL = "local-pinned"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace: the property suite, and card/fixtures/sample for p01..p06."""
    copy_suite(tmp_path)
    entries = [make_property(tmp_path, f"p{n:02d}", seed=n) for n in range(1, 7)]
    write_manifest(tmp_path / "gate.yml", entries)
    return tmp_path


def single(ws: Path, *extra: str, run_id: str = "r1", out: str = "out") -> list[str]:
    return ["stamp", "--server-class", LOCAL, "--card", "cards/p01.json", "--test-id", "p01",
            "--fixtures", "fixtures/p01", "--out", out, "--run-id", run_id, *extra]


def stamp_of(ws: Path, run_id: str = "r1", out: str = "out") -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((ws / out / f"{run_id}.json").read_text())
    return loaded


# --- a real pytest run of the property suite ------------------------------------------------------


def test_real_pytest_run_gives_the_right_outcome_in_every_stamp(ws: Path) -> None:
    plan = {"p01": "pass", "p02": "fail", "p03": "error", "p04": "skip", "p05": "xfail",
            "p06": "pass"}
    done = gate("stamp", "--manifest", "gate.yml", "--server-class", LOCAL, "--junit",
                "report.xml", "--out", "stamps", "--", *pytest_command("report.xml"),
                cwd=ws, plan=plan)
    assert done.returncode == 0, done.stderr
    assert "1 failed" in done.stdout and "1 error" in done.stdout  # streamed through
    stamps = read_stamps(ws / "stamps")
    # property -> (outcome, note), written down independently of gate.decide.outcome
    expected = {
        "p01": ("pass", None),
        "p02": ("assert_fail", "JUnit <failure>"),
        "p03": ("resource_exit", "JUnit <error> is not an assertion"),
        "p04": ("resource_exit", "skipped"),
        "p05": ("resource_exit", "skipped"),
        "p06": ("pass", None),
    }
    assert {t: (s["outcome"], s.get("note")) for t, s in stamps.items()} == expected
    for stamp in stamps.values():
        assert stamp["exit_code"] == 1 and stamp["timed_out"] is False
        assert stamp["source"] == "junit" and stamp["server_class"] == LOCAL
        assert stamp["body_bytes"] > 0 and stamp["wall_seconds"] > 0
        assert "signal" not in stamp
    assert len({s["run_id"] for s in stamps.values()}) == 6


def test_a_selector_matching_no_test_case_is_an_error_naming_the_nearest(ws: Path) -> None:
    # issue 14 class 8: a typo in a manifest selector used to stamp resource_exit silently
    manifest = json.loads(json.dumps(__import__("yaml").safe_load((ws / "gate.yml").read_text())))
    manifest["properties"][5]["junit"]["name"] = "test_prop[p6]"
    write_manifest(ws / "gate.yml", manifest["properties"])
    done = gate("stamp", "--manifest", "gate.yml", "--server-class", LOCAL, "--junit",
                "report.xml", "--out", "stamps", "--", *pytest_command("report.xml"), cwd=ws)
    assert done.returncode == 2
    line = done.stderr.strip().splitlines()[-1]
    assert "properties.5.junit" in line and "'test_prop[p6]'" in line, line
    assert "nearest: " in line and "'prop_suite.test_prop[p06]'" in line, line
    assert not (ws / "stamps").exists() or not list((ws / "stamps").iterdir())


def test_newcomer_red_run_and_a_typo_is_exit_2_not_a_rerun(ws: Path) -> None:
    # issue 14 class 8, as a newcomer hit it: the run is red (p02 fails: exit 1) and the
    # manifest names test_prop[p6] for test_prop[p06]. It used to stamp resource_exit ("rerun").
    manifest = json.loads(json.dumps(__import__("yaml").safe_load((ws / "gate.yml").read_text())))
    manifest["properties"][5]["junit"]["name"] = "test_prop[p6]"
    write_manifest(ws / "gate.yml", manifest["properties"])
    done = gate("stamp", "--manifest", "gate.yml", "--server-class", LOCAL, "--junit",
                "report.xml", "--out", "stamps", "--", *pytest_command("report.xml"), cwd=ws,
                plan={"p02": "fail"})
    assert "1 failed" in done.stdout  # the run really was red
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("gate: error: gate.yml: properties.5.junit (test 'p06'): "), line
    assert "'test_prop[p6]'" in line and "nearest: " in line, line
    assert "'prop_suite.test_prop[p06]'" in line.split("nearest: ")[1], line
    assert "a typo? fix it" in line and "--gate-stamps" in line, line  # both causes answered
    assert not (ws / "stamps").exists() or not list((ws / "stamps").iterdir())


REPORT = ('<testsuite><testcase classname="prop_suite" name="test_prop[p01]"/>'
          '<testcase classname="prop_suite" name="test_prop[p02]"><failure/></testcase>'
          '</testsuite>')


@pytest.mark.parametrize("exit_code", ["0", "1", "2", "5"])
@pytest.mark.parametrize(("selector", "flag"), [
    (["--junit-classname", "prop_suite", "--junit-name", "test_prop[p1]"],
     "--junit-classname/--junit-name"),
    (["--junit-name", "test_prop[p1]"], "--junit-name"),
    ([], "--test-id/--junit-name"),  # the name defaults to the test id, p01: a typo too
])
def test_a_bare_selector_typo_is_exit_2_whatever_the_exit_status(
        ws: Path, exit_code: str, selector: list[str], flag: str) -> None:
    (ws / "r.xml").write_text(REPORT)
    done = gate(*single(ws, "--junit", "r.xml", *selector, "--exit-code", exit_code), cwd=ws)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.startswith(f"gate: error: gate stamp: {flag}: "), line
    assert "matches no test case in the report; nearest: " in line
    assert "'test_prop[p01]'" in line or "'prop_suite.test_prop[p01]'" in line, line
    assert not (ws / "out").exists()


@pytest.mark.parametrize("exit_code", ["124", "137"])
def test_a_run_that_hit_the_timeout_did_not_reach_the_test(ws: Path, exit_code: str) -> None:
    (ws / "r.xml").write_text(REPORT)
    done = gate(*single(ws, "--junit", "r.xml", "--junit-name", "test_prop[p1]",
                        "--exit-code", exit_code), cwd=ws)
    assert done.returncode == 0, done.stderr
    assert stamp_of(ws)["outcome"] == "resource_exit"
    assert "timeout code" in stamp_of(ws)["note"]


def test_a_report_without_test_cases_is_not_a_typo(ws: Path) -> None:
    (ws / "r.xml").write_text("<testsuite/>")
    done = gate(*single(ws, "--junit", "r.xml", "--exit-code", "2"), cwd=ws)
    assert done.returncode == 0, done.stderr
    assert (stamp_of(ws)["outcome"], stamp_of(ws)["note"]) == ("resource_exit",
                                                               "not in JUnit report")


def test_a_stop_early_run_fails_closed_on_the_junit_route(ws: Path) -> None:
    # pytest -x stops at p02's failure: p03..p06 never ran, and JUnit cannot tell that from a
    # typo. Fail closed, and the error says what to do for each cause.
    done = gate("stamp", "--manifest", "gate.yml", "--server-class", LOCAL, "--junit",
                "report.xml", "--out", "stamps", "--", *pytest_command("report.xml"), "-x",
                cwd=ws, plan={"p02": "fail"})
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "properties.2.junit (test 'p03')" in line, line
    assert "Left out of the run (-k/-m, -x/--maxfail" in line and "--gate-stamps" in line


def test_a_collection_error_is_not_a_typo(ws: Path) -> None:
    # a test file that cannot be imported: pytest stops after collection (exit 2), the report
    # holds only <error message="collection failure">; the gate can tell nothing ran
    (ws / "prop_broken.py").write_text("import no_such_module_for_the_gate\n")
    done = gate("stamp", "--manifest", "gate.yml", "--server-class", LOCAL, "--junit",
                "report.xml", "--out", "stamps", "--", *pytest_command("report.xml"),
                "prop_broken.py", cwd=ws)
    assert done.returncode == 0, done.stderr
    for stamp in read_stamps(ws / "stamps").values():
        assert (stamp["outcome"], stamp["exit_code"]) == ("resource_exit", 2)
        assert stamp["note"] == "not in JUnit report: the test collection failed (prop_broken)"


def test_all_green_run_exits_0_and_stamps_pass(ws: Path) -> None:
    write_manifest(ws / "two.yml", [make_property(ws, "p01", seed=1),
                                    make_property(ws, "p02", seed=2)])
    done = gate("stamp", "--manifest", "two.yml", "--server-class", "free-server", "--junit",
                "r.xml", "--out", "stamps", "--run-id-prefix", "ci-42",
                "--", *pytest_command("r.xml"), cwd=ws)
    assert done.returncode == 0, done.stderr
    stamps = read_stamps(ws / "stamps")
    assert {t: (s["outcome"], s["exit_code"], s["run_id"]) for t, s in stamps.items()} == {
        "p01": ("pass", 0, "ci-42.1"), "p02": ("pass", 0, "ci-42.2")}


def test_timed_out_pytest_run_is_resource_exit_for_every_property(ws: Path) -> None:
    done = gate("stamp", "--manifest", "gate.yml", "--server-class", LOCAL, "--junit",
                "report.xml", "--out", "stamps", "--timeout", "4",
                "--", *pytest_command("report.xml"), cwd=ws, plan={"p03": "sleep"})
    assert done.returncode == 0, done.stderr
    stamps = read_stamps(ws / "stamps")
    assert len(stamps) == 6
    for stamp in stamps.values():
        assert stamp["outcome"] == "resource_exit"
        assert stamp["timed_out"] is True and stamp["signal"] == 9
        assert stamp["exit_code"] is None
        assert 4 <= stamp["wall_seconds"] < 30
        assert "wall-clock" in stamp["note"]


# --- processes that are never assertion failures --------------------------------------------------


@pytest.mark.parametrize("junit", [False, True])
def test_killed_by_a_signal_is_not_an_assertion_failure(ws: Path, junit: bool) -> None:
    extra = ["--junit", "r.xml"] if junit else []
    done = gate(*single(ws, *extra), "--", sys.executable, "-c",
                "import os, signal; print('dying', flush=True); os.kill(os.getpid(), "
                "signal.SIGKILL)", cwd=ws)
    assert done.returncode == 0, done.stderr
    stamp = stamp_of(ws)
    assert stamp["outcome"] == "resource_exit"
    assert (stamp["signal"], stamp["exit_code"], stamp["timed_out"]) == (9, None, False)
    assert stamp["body_bytes"] == len("dying\n")


@pytest.mark.parametrize(("code", "outcome"), [("pass", "empty_body"),
                                               ("raise SystemExit(1)", "resource_exit"),
                                               ("raise SystemExit(124)", "resource_exit")])
def test_a_process_that_prints_nothing(ws: Path, code: str, outcome: str) -> None:
    done = gate(*single(ws), "--", sys.executable, "-c", code, cwd=ws)
    assert done.returncode == 0, done.stderr
    stamp = stamp_of(ws)
    assert (stamp["outcome"], stamp["body_bytes"]) == (outcome, 0)
    assert stamp["source"] == "command"


def test_a_process_with_no_junit_report_gets_no_green(ws: Path) -> None:
    done = gate(*single(ws, "--junit", "never.xml"), "--", sys.executable, "-c", "print(1)",
                cwd=ws)
    assert done.returncode == 0, done.stderr
    stamp = stamp_of(ws)
    assert (stamp["outcome"], stamp["note"]) == ("resource_exit", "no JUnit report was written")


def test_output_is_streamed_through_and_counted(ws: Path) -> None:
    code = "import sys; sys.stdout.write('hello'); sys.stdout.flush(); sys.stderr.write('err')"
    done = gate(*single(ws), "--", sys.executable, "-c", code, cwd=ws)
    assert done.returncode == 0
    assert done.stdout.startswith("hello")
    assert done.stderr == "err"
    assert stamp_of(ws)["body_bytes"] == 8
    assert stamp_of(ws)["outcome"] == "pass"


def test_a_command_that_does_not_exist_is_bad_input(ws: Path) -> None:
    done = gate(*single(ws), "--", "no-such-command-gate-test", cwd=ws)
    assert done.returncode == 2
    assert "no such command" in done.stderr
    assert not (ws / "out").exists()


# --- recorded runs --------------------------------------------------------------------------------


@pytest.mark.parametrize(("flags", "outcome"), [
    (["--exit-code", "0"], "pass"),
    (["--exit-code", "0", "--body-bytes", "0"], "empty_body"),
    (["--exit-code", "0", "--body-bytes", "10"], "pass"),
    (["--exit-code", "1"], "resource_exit"),
    (["--exit-code", "1", "--assertion-failed"], "assert_fail"),
    (["--exit-code", "124", "--assertion-failed"], "resource_exit"),
    (["--exit-code", "137"], "resource_exit"),
    (["--exit-code", "0", "--body-bytes", "0", "--assertion-failed"], "empty_body"),
])
def test_recorded_runs(ws: Path, flags: list[str], outcome: str) -> None:
    done = gate(*single(ws, *flags), cwd=ws)
    assert done.returncode == 0, done.stderr
    stamp = stamp_of(ws)
    assert stamp["outcome"] == outcome
    assert stamp["source"] == "recorded" and "timed_out" not in stamp


def test_timeout_codes_come_from_the_policy(ws: Path) -> None:
    (ws / "policy.yml").write_text("timeouts:\n  exit_codes: [99]\n")
    done = gate(*single(ws, "--policy", "policy.yml", "--exit-code", "99",
                        "--assertion-failed"), cwd=ws)
    assert done.returncode == 0
    assert stamp_of(ws)["outcome"] == "resource_exit"
    done = gate(*single(ws, "--policy", "policy.yml", "--exit-code", "124",
                        "--assertion-failed", run_id="r2"), cwd=ws)
    assert stamp_of(ws, "r2")["outcome"] == "assert_fail"
    (ws / "bad.yml").write_text("timeouts:\n  exit_codes: [nine]\n")
    assert gate(*single(ws, "--policy", "bad.yml", "--exit-code", "0", run_id="r3"),
                cwd=ws).returncode == 2


def test_recorded_run_with_a_junit_report(ws: Path) -> None:
    (ws / "r.xml").write_text(
        '<testsuite><testcase classname="prop_suite" name="test_prop[p01]"/>'
        '<testcase classname="x" name="other"><failure/></testcase></testsuite>')
    base = ["--junit", "r.xml", "--junit-classname", "prop_suite",
            "--junit-name", "test_prop[p01]"]
    assert gate(*single(ws, *base, "--exit-code", "1"), cwd=ws).returncode == 0
    assert stamp_of(ws)["outcome"] == "pass"  # exit 1 explained by the other red testcase
    assert gate(*single(ws, *base, "--exit-code", "3", run_id="r2"), cwd=ws).returncode == 0
    assert stamp_of(ws, "r2")["outcome"] == "resource_exit"  # pytest internal error


# --- what a stamp holds ---------------------------------------------------------------------------


def test_stamp_content(ws: Path) -> None:
    card = {"property": "p01", "cases": 10, "seed": 1, "freeze_expires_at": 1_900_000_000,
            "description": "copied as read"}
    (ws / "cards" / "p01.json").write_text(json.dumps(card, indent=4))
    done = gate(*single(ws, "--sample", "samples/p01.json", "--store", "pins",
                        "--exit-code", "0"), cwd=ws)
    assert done.returncode == 0, done.stderr
    stamp = stamp_of(ws)
    assert stamp["sample_card"] == card
    assert stamp["freeze_expires_at"] == 1_900_000_000
    hashed = gate("hash", "fixtures/p01", "--card", "cards/p01.json", cwd=ws)
    assert stamp["fixture_hash"] == hashed.stdout.strip()
    pinned = gate("pin", "samples/p01.json", cwd=ws).stdout.strip()
    assert pinned == f"fixture_sha256={stamp['fixture_sha256']}"
    assert stamp["fixture_path"] == f"pins/{stamp['fixture_sha256']}.json"
    assert (ws / stamp["fixture_path"]).read_bytes() == (ws / "samples/p01.json").read_bytes()
    assert stamp["test_id"] == "p01" and stamp["run_id"] == "r1"
    # Without --store the sample is named by its path relative to the root.
    gate(*single(ws, "--sample", "samples/p01.json", "--exit-code", "0", run_id="r2"), cwd=ws)
    assert stamp_of(ws, "r2")["fixture_path"] == "samples/p01.json"


def test_default_run_id_is_fresh_and_random(ws: Path) -> None:
    args = ["stamp", "--server-class", LOCAL, "--card", "cards/p01.json", "--test-id", "p01",
            "--fixtures", "fixtures/p01", "--out", "out", "--exit-code", "0"]
    gate(*args, cwd=ws)
    gate(*args, cwd=ws)
    names = sorted(p.name for p in (ws / "out").iterdir())
    assert len(names) == 2 and names[0] != names[1]
    assert all(len(n) == len("0123456789abcdef.json") for n in names)


def test_fixtures_changed_during_the_run(ws: Path) -> None:
    code = "open('fixtures/p01/data.txt', 'a').write('moved'); print('ok')"
    done = gate(*single(ws), "--", sys.executable, "-c", code, cwd=ws)
    assert done.returncode == 0
    stamp = stamp_of(ws)
    assert stamp["outcome"] == "resource_exit"
    assert "changed during the run" in stamp["note"]


def test_a_stale_junit_report_is_refused(ws: Path) -> None:
    (ws / "r.xml").write_text('<testsuite><testcase name="p01"/></testsuite>')
    done = gate(*single(ws, "--junit", "r.xml"), "--", sys.executable, "-c",
                "open('ran', 'w')", cwd=ws)
    assert done.returncode == 2 and "stale" in done.stderr
    assert not (ws / "ran").exists() and not (ws / "out").exists()


def test_a_junit_report_with_a_doctype_is_refused(ws: Path) -> None:
    (ws / "r.xml").write_text('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]>'
                              '<testsuite><testcase name="p01"/></testsuite>')
    done = gate(*single(ws, "--junit", "r.xml", "--exit-code", "0"), cwd=ws)
    assert done.returncode == 2 and "DOCTYPE" in done.stderr
    assert not (ws / "out").exists()


@pytest.mark.parametrize("args", [
    ["--exit-code", "0", "--", "true"],
    [],
    ["--exit-code", "0", "--timeout", "3"],
    ["--body-bytes", "3", "--", "true"],
    ["--assertion-failed", "--", "true"],
    ["--exit-code", "0", "--body-bytes", "-1"],
    ["--exit-code", "1", "--assertion-failed", "--junit", "r.xml"],
    ["--timeout", "0", "--", "true"],
    ["--run-id-prefix", "x", "--exit-code", "0"],
    ["--"],
])
def test_usage_errors_exit_2(ws: Path, args: list[str]) -> None:
    done = gate(*single(ws), *args, cwd=ws)
    assert done.returncode == 2, done.stdout
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("gate: error:")
    assert not (ws / "out").exists()


@pytest.mark.parametrize("args", [
    ["--server-class", "cloud"], ["--run-id", "../escape"], ["--card", "missing.json"],
    ["--fixtures", "/etc"], ["--sample", "missing.json"],
])
def test_bad_values_exit_2(ws: Path, args: list[str]) -> None:
    done = gate(*single(ws), *args, "--exit-code", "0", cwd=ws)
    assert done.returncode == 2
    assert not list(ws.glob("out/*.json")) and not list(ws.glob("escape*"))


# --- write-once and atomicity ---------------------------------------------------------------------


def test_a_second_stamp_with_the_same_run_id_is_refused(ws: Path) -> None:
    assert gate(*single(ws, "--exit-code", "0"), cwd=ws).returncode == 0
    before = (ws / "out" / "r1.json").read_bytes()
    done = gate(*single(ws), "--", sys.executable, "-c", "open('ran', 'w'); print(1)", cwd=ws)
    assert done.returncode == 2 and "never overwritten" in done.stderr
    assert not (ws / "ran").exists()  # refused before the command ran
    done = gate(*single(ws, "--exit-code", "1", "--assertion-failed"), cwd=ws)
    assert done.returncode == 2
    assert (ws / "out" / "r1.json").read_bytes() == before


KILL_IN_FSYNC = """
import os, signal, sys
import gate.records.files
from gate.commands.main import main
def die(fd):
    os.kill(os.getpid(), signal.SIGKILL)
os.fsync = die
sys.exit(main(sys.argv[1:]))
"""


def test_an_interrupted_write_leaves_no_half_file(ws: Path) -> None:
    done = subprocess.run([sys.executable, "-c", KILL_IN_FSYNC, *single(ws, "--exit-code", "0")],
                          cwd=ws, env=env(), capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == -9
    assert not (ws / "out" / "r1.json").exists()
    assert not list((ws / "out").glob("*.json"))  # nothing under any stamp name
    # The only leftover is the hidden temporary file, which no reader takes for a stamp.
    assert all(p.name.startswith(".r1.json.") and p.name.endswith(".tmp")
               for p in (ws / "out").iterdir())
    classify = gate("classify", "--stamps", "out", cwd=ws)
    assert classify.returncode == 2 and "no stamps" in classify.stderr
    # The run id is still free: the retry writes the whole stamp.
    assert gate(*single(ws, "--exit-code", "0"), cwd=ws).returncode == 0
    assert stamp_of(ws)["outcome"] == "pass"


def test_the_suite_is_not_collected_by_the_main_run() -> None:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "tests"],
                          cwd=REPO, env=env(), capture_output=True, text=True, timeout=60,
                          check=False)
    assert "test_stamping.py::test_the_suite_is_not_collected_by_the_main_run" in done.stdout
    assert "prop_suite" not in done.stdout
