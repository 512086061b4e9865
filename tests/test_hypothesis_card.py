"""Issue 11: the sample card governs the run, on real Hypothesis runs of tests/hypo_suite.

Every run here is a real ``pytest`` process with the gate's plugin (``--gate-stamps``) on a
copy of tests/hypo_suite (a small library, ledgerlib, and its properties) in a temporary
folder, one process per server class; the "free server" differs from the local runner by its
environment (``PYTHONHASHSEED``, ``CI=1`` which loads Hypothesis's ``ci`` profile, a
``--hypothesis-seed``, and the suite's own switches). Expected labels are written down here,
independently of gate.decide.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.decide import digest, stamps
from gate.errors import GateInputError
from gate.records import load as records
from gate.records import report as report_rules
from gate.testrun import stamping
from gate.testrun.hypothesis_card import failure_of
from tests.property_suite.harness import env, read_stamps, write_manifest

SUITE = Path(__file__).resolve().parent / "hypo_suite"
LOCAL, FREE = "local-pinned", "free-server"
NOW = "1800000000"
# ledgerlib's planted band bug (500_000 <= cents < 560_000), 20 examples: seed 1 finds it,
# seed 0 does not (notes: hypothesis.md item 6).
FINDS, MISSES = 1, 0
FREE_ENV = {"PYTHONHASHSEED": "123", "CI": "1"}
FREE_ARGS = ("--hypothesis-seed=99",)


def workspace(root: Path, seeds: dict[str, int], **card_extra: Any) -> Path:
    """The suite, one card per property (test name -> seed) and the manifest."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("ledgerlib.py", "hypo_props.py", "hypo_conflicts.py", "hypo_stateful.py",
                 "pytest.ini"):
        shutil.copy(SUITE / name, root / name)
    (root / "cards").mkdir(exist_ok=True)
    entries = []
    for test, seed in seeds.items():
        card = {"property": test, "cases": 20, "seed": seed, "deadline_ms": 30, **card_extra}
        (root / "cards" / f"{test}.json").write_text(json.dumps(card))
        entries.append({"test_id": test, "card": f"cards/{test}.json",
                        "fixtures": ["ledgerlib.py", "hypo_props.py"],
                        "junit": {"classname": "hypo_props", "name": f"test_{test}"},
                        "location": {"path": "hypo_props.py", "line": 1}})
    return write_manifest(root / "gate.yml", entries)


def run_class(root: Path, server_class: str, out: str, suite_env: dict[str, str] | None = None,
              *args: str, pythonpath: str | None = None,
              module: str = "hypo_props.py") -> subprocess.CompletedProcess[str]:
    environment = env()
    environment.pop("CI", None)
    environment.update(suite_env or {})
    if pythonpath:
        environment["PYTHONPATH"] = pythonpath + os.pathsep + environment["PYTHONPATH"]
    gated = sorted({f"test_{p.stem.split('@')[0]}" for p in (root / "cards").glob("*.json")})
    select = ["-k", " or ".join(gated)] if gated and "-k" not in args else []
    command = [sys.executable, "-m", "pytest", "-q", "--gate-stamps", out,
               "--gate-server-class", server_class, "--gate-manifest", "gate.yml", *select,
               *args, module]
    return subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True,
                          timeout=180, check=False)


def both_classes(root: Path, local_env: dict[str, str] | None = None,
                 free_env: dict[str, str] | None = None) -> None:
    local = run_class(root, LOCAL, "stamps/local", {"HYPO_SUITE_DRAWS": "draws-local.txt",
                                                    **(local_env or {})})
    free = run_class(root, FREE, "stamps/free", {"HYPO_SUITE_DRAWS": "draws-free.txt",
                                                 **FREE_ENV, **(free_env or {})}, *FREE_ARGS)
    for done in (local, free):
        assert " written to stamps/" in done.stdout, done.stdout + done.stderr


def classify(root: Path) -> tuple[int, dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "gate", "classify", "--stamps", "stamps",
                           "--now", NOW, "--report", "report.json"], cwd=root, env=env(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads((root / "report.json").read_text())


def pairs(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["test_id"]: p for p in report["pairs"]}


# --- the card is the experiment: same examples in both classes ---------------------------------


@pytest.mark.parametrize("seed", [FINDS, MISSES])
def test_both_classes_draw_the_same_examples_and_agree_on_the_seed_bug(
        tmp_path: Path, seed: int) -> None:
    workspace(tmp_path, {"round_trip": seed, "fixed_band": seed, "draws": seed})
    both_classes(tmp_path)
    local = (tmp_path / "draws-local.txt").read_text()
    free = (tmp_path / "draws-free.txt").read_text()
    assert local == free  # identical examples, despite CI=1, hash seed, --hypothesis-seed
    assert local.count("draws: ") == 20 and local.count("round_trip: ") == 20
    by_local = read_stamps(tmp_path / "stamps/local")
    by_free = read_stamps(tmp_path / "stamps/free")
    for test_id in ("round_trip", "fixed_band", "draws"):
        lo, fr = by_local[test_id]["hypothesis"], by_free[test_id]["hypothesis"]
        assert lo == fr
        assert lo["seed"] == seed and lo["max_examples"] == 20 and lo["database"] is None
        assert lo["derandomize"] is False and lo["deadline_ms"] == 30
    found = {by_local["fixed_band"]["outcome"], by_free["fixed_band"]["outcome"]}
    assert found == ({"assert_fail"} if seed == FINDS else {"pass"})  # both or neither
    code, report = classify(tmp_path)
    got = pairs(report)
    if seed == MISSES:  # every pair green: the door opens, nothing is labelled a problem
        assert (code, report["decision"]) == (0, "open")
        assert {p["failure_class"] for p in got.values()} == {"none"}
    else:
        assert (code, report["decision"]) == (1, "closed")
        band = got["fixed_band"]
        assert (band["action"], band["failure_class"]) == ("reject_stable_fail", "property_miss")
        for run in band["runs"]:
            assert run["failure"]["example"] == (
                "Failing test case: test_fixed_band(\n    cents=500000,\n)")
            assert run["failure"]["type"] == "AssertionError"
            assert run["failure"]["reproduce"].startswith("@reproduce_failure(")
            assert run["hypothesis"]["examples_run"] == 12  # the 12th example found it


def test_another_seed_draws_other_examples(tmp_path: Path) -> None:
    for seed in (1, 2):
        root = tmp_path / str(seed)
        workspace(root, {"draws": seed})
        done = run_class(root, LOCAL, "stamps", {"HYPO_SUITE_DRAWS": "draws.txt"})
        assert done.returncode == 0, done.stdout
    assert (tmp_path / "1/draws.txt").read_text() != (tmp_path / "2/draws.txt").read_text()


def test_a_bug_injected_in_both_classes_closes_with_property_miss(tmp_path: Path) -> None:
    workspace(tmp_path, {"round_trip": 5, "draws": 5})
    both_classes(tmp_path, {"HYPO_SUITE_BUG": "rle"}, {"HYPO_SUITE_BUG": "rle"})
    code, report = classify(tmp_path)
    assert (code, report["decision"]) == (1, "closed")
    rt = pairs(report)["round_trip"]
    assert (rt["action"], rt["failure_class"], rt["freeze_allowed"]) == (
        "reject_stable_fail", "property_miss", False)
    examples = {run["failure"]["example"] for run in rt["runs"]}
    assert examples == {"Failing test case: test_round_trip(\n    values=[0, 1],\n)"}
    # the digest is the generator's: equal in both classes, and printed as fixture_sha256
    gen = digest.generator_digest(rt["runs"][0]["hypothesis"])
    assert rt["fixture_sha256"] == gen and rt["fixture_path"] is None
    assert pairs(report)["draws"]["failure_class"] == "none"


# --- the label table, one test per row, on one pair of real runs --------------------------------


@pytest.fixture(scope="module")
def label_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root = tmp_path_factory.mktemp("labels")
    workspace(root, {"fixed_band": FINDS, "slow": 3, "split": 4, "round_trip": 5})
    # Only `slow` is about the deadline (30 ms against its 60 ms sleep): the other rows' cards
    # have none, so a loaded machine's stall on one example is never a DeadlineExceeded there
    # (fixed_band once came out harness_flake that way under a parallel run at load 6.6).
    for name in ("fixed_band", "split", "round_trip"):
        card = root / "cards" / f"{name}.json"
        card.write_text(json.dumps({**json.loads(card.read_text()), "deadline_ms": None}))
    both_classes(root, {}, {"HYPO_SUITE_SLOW": "1", "HYPO_SUITE_SPLIT": "1"})
    code, report = classify(root)
    assert (code, report["decision"]) == (1, "closed")
    return pairs(report)


def test_label_same_minimal_example_in_both_is_property_miss(
        label_runs: dict[str, dict[str, Any]]) -> None:
    band = label_runs["fixed_band"]
    assert (band["action"], band["failure_class"]) == ("reject_stable_fail", "property_miss")


def test_label_deadline_on_one_class_is_harness_flake(
        label_runs: dict[str, dict[str, Any]]) -> None:
    slow = label_runs["slow"]
    assert (slow["action"], slow["failure_class"]) == ("reject_run_retry_new_id",
                                                       "harness_flake")
    free = next(r for r in slow["runs"] if r["server_class"] == FREE)
    assert free["outcome"] == "resource_exit"
    assert free["note"].startswith("hypothesis.errors.DeadlineExceeded: ")
    assert free["failure"]["type"] == "hypothesis.errors.DeadlineExceeded"


def test_label_local_pass_free_assertion_is_unclassified(
        label_runs: dict[str, dict[str, Any]]) -> None:
    split = label_runs["split"]
    assert (split["action"], split["failure_class"]) == ("reject_not_allowlisted",
                                                         "unclassified")


def test_label_both_green_is_none(label_runs: dict[str, dict[str, Any]]) -> None:
    green = label_runs["round_trip"]
    assert (green["action"], green["status"], green["failure_class"]) == (
        "accept_candidate", "accepted", "none")


def _other_hypothesis(tmp_path: Path) -> Path | None:
    """A folder that shadows this venv's Hypothesis with the base interpreter's, if that one
    is another version (this machine: 6.155.2 under 6.170.17)."""
    import hypothesis

    base = Path(sys.base_prefix) / "bin" / "python3"
    if not base.exists():
        return None
    probe = subprocess.run([str(base), "-c", "import hypothesis, os; print(hypothesis.__version__"
                            "); print(os.path.dirname(os.path.dirname(hypothesis.__file__)))"],
                           capture_output=True, text=True, check=False, timeout=60)
    if probe.returncode != 0:
        return None
    version, site = probe.stdout.split()
    if version == hypothesis.__version__:
        return None
    shadow = tmp_path / "other-hypothesis"
    shadow.mkdir()
    for name in ("hypothesis", "_hypothesis_pytestplugin.py", "_hypothesis_globals.py",
                 "_hypothesis_ftz_detector.py"):
        if (Path(site) / name).exists():
            (shadow / name).symlink_to(Path(site) / name)
    return shadow


def test_label_another_hypothesis_version_is_fixture_drift(tmp_path: Path) -> None:
    shadow = _other_hypothesis(tmp_path)
    if shadow is None:
        pytest.skip("no other Hypothesis version on this machine")
    root = tmp_path / "w"
    workspace(root, {"draws": 1})
    assert run_class(root, LOCAL, "stamps/local").returncode == 0
    assert run_class(root, FREE, "stamps/free", pythonpath=str(shadow)).returncode == 0
    code, report = classify(root)
    pair = pairs(report)["draws"]
    assert (code, pair["action"], pair["failure_class"]) == (1, "reject_fixture_mismatch",
                                                             "fixture_drift")
    assert pair["reason"].startswith("the Hypothesis generators differ: version ")


def test_label_other_settings_in_force_is_fixture_drift(tmp_path: Path) -> None:
    """The same real runs, with the free-server stamp saying its generator ran another
    max_examples (as a gate plugin of another version might put in force)."""
    workspace(tmp_path, {"draws": 1})
    both_classes(tmp_path)
    (path,) = (tmp_path / "stamps/free").glob("*.json")
    stamp = json.loads(path.read_text())
    stamp["hypothesis"]["max_examples"] = 21
    path.write_text(json.dumps(stamp))
    code, report = classify(tmp_path)
    pair = pairs(report)["draws"]
    assert (code, pair["action"], pair["failure_class"]) == (1, "reject_fixture_mismatch",
                                                             "fixture_drift")
    assert pair["reason"] == ("the Hypothesis generators differ: max_examples 20 (local-pinned) "
                              "vs 21 (free-server)")


# --- both routes agree on Hypothesis's own errors (one real run) --------------------------------


def test_junit_and_plugin_agree_on_hypothesis_errors(tmp_path: Path) -> None:
    workspace(tmp_path, {"slow": 1, "flaky": 1, "filtered": 1, "fixed_band": FINDS, "draws": 1})
    environment = env()
    environment.update({"HYPO_SUITE_SLOW": "1", "HYPO_SUITE_FLAKY": "1",
                        "HYPO_SUITE_FILTER": "1"})
    command = [sys.executable, "-m", "gate", "stamp", "--manifest", "gate.yml",
               "--server-class", LOCAL, "--junit", "r.xml", "--out", "junit",
               "--run-id-prefix", "R", "--",
               sys.executable, "-m", "pytest", "-q", "--junitxml=r.xml",
               "--gate-stamps", "plugin", "--gate-server-class", LOCAL,
               "--gate-manifest", "gate.yml", "--gate-run-id-prefix", "R", "hypo_props.py"]
    done = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True,
                          text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    by_junit, by_plugin = read_stamps(tmp_path / "junit"), read_stamps(tmp_path / "plugin")
    expected = {
        "slow": ("resource_exit", "hypothesis.errors.DeadlineExceeded: a test case exceeded "
                 "the deadline"),
        "flaky": ("resource_exit", "hypothesis.errors.FlakyFailure: Hypothesis saw unreliable "
                  "results (flaky)"),
        "filtered": ("resource_exit", "hypothesis.errors.FailedHealthCheck: a Hypothesis "
                     "health check failed"),
        "fixed_band": ("assert_fail", "JUnit <failure>"),
        "draws": ("pass", None),
    }
    tail = "; not an assertion result"
    for test_id, (outcome, note) in expected.items():
        want = (outcome, note + tail if outcome == "resource_exit" else note)
        assert (by_junit[test_id]["outcome"], by_junit[test_id].get("note")) == want, test_id
        assert (by_plugin[test_id]["outcome"], by_plugin[test_id].get("note")) == want, test_id
    assert by_plugin["filtered"]["hypothesis"]["examples_run"] is None  # no statistics
    assert by_plugin["flaky"]["failure"]["type"] == "hypothesis.errors.FlakyFailure"


# --- what the card cannot govern: exit 2 before any test runs -----------------------------------


def conflict_workspace(root: Path, tests: list[str], cards: dict[str, int] | None = None) -> None:
    workspace(root, {})
    entries = []
    for test in tests:
        seed = (cards or {}).get(test, 1)
        (root / "cards" / f"{test}.json").write_text(json.dumps(
            {"property": test, "cases": 20, "seed": seed}))
        name = test.split("@")[0]
        entries.append({"test_id": test, "card": f"cards/{test}.json",
                        "fixtures": ["ledgerlib.py"],
                        "junit": {"classname": "hypo_conflicts", "name": f"test_{name}"}})
    write_manifest(root / "gate.yml", entries)


@pytest.mark.parametrize(("test", "conflict"), [
    ("plain", "not a Hypothesis test (@given)"),
    ("seeded", "an explicit @seed(123) overrides the card's seed"),
    ("reproduce", "@reproduce_failure replays one example instead of the card's"),
    ("own_settings", "@settings sets max_examples, deadline to other values than the card"),
])
def test_a_test_the_card_cannot_govern_stops_the_session(tmp_path: Path, test: str,
                                                         conflict: str) -> None:
    conflict_workspace(tmp_path, [test, "harmless_settings"])
    done = run_class(tmp_path, LOCAL, "out", module="hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    shown = done.stdout + done.stderr
    assert f"hypo_conflicts.py::test_{test}: property {test!r}: {conflict}" in shown
    assert "harmless_settings" not in shown.split("gate: error:")[1]
    assert "passed" not in shown and "no test ran" in shown
    assert not (tmp_path / "out").exists()


def test_settings_equal_to_the_card_are_no_conflict(tmp_path: Path) -> None:
    conflict_workspace(tmp_path, ["harmless_settings"])
    done = run_class(tmp_path, LOCAL, "out", module="hypo_conflicts.py")
    assert done.returncode == 0, done.stdout + done.stderr
    (stamp,) = read_stamps(tmp_path / "out").values()
    assert stamp["outcome"] == "pass" and stamp["hypothesis"]["examples_run"] == 20


def test_a_profile_that_overrides_the_card_stops_the_session(tmp_path: Path) -> None:
    conflict_workspace(tmp_path, ["harmless_settings"])
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\nsettings.register_profile('fast', max_examples=7)\n")
    done = run_class(tmp_path, LOCAL, "out", None, "--hypothesis-profile=fast",
                     module="hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    assert ("settings profile 'fast' sets max_examples=7, other values than the card puts in "
            'force: set "cases": 7 in the cards (gate init writes them for new cards), or drop '
            "max_examples from the profile (1 gated test: hypo_conflicts.py::"
            "test_harmless_settings)") in done.stdout + done.stderr


CRASHING = """\
from hypothesis import given, strategies as st


class Parser:
    def parse(self, n):
        if n > 10:
            raise TypeError(f"cannot parse {n}")
        return n


class TestParser:
    @given(st.integers())
    def test_parses(self, n):
        assert Parser().parse(n) == n
"""


def test_a_crash_on_a_falsifying_example_in_both_classes_is_a_property_miss(
        tmp_path: Path) -> None:
    """attrs trial: a TypeError Hypothesis found on the same input in both classes was
    ``resource_exit``, labelled ``harness_flake`` with "re-run" as the next step. A test method
    (``self=<... object at 0x...>`` in the example, another address in each process) too."""
    workspace(tmp_path, {})
    (tmp_path / "hypo_crash.py").write_text(CRASHING)
    test = "hypo_crash.py::TestParser::test_parses"
    (tmp_path / "cards" / "parses.json").write_text(json.dumps(
        {"property": test, "cases": 50, "seed": 3}))
    write_manifest(tmp_path / "gate.yml", [{
        "test_id": test, "card": "cards/parses.json", "fixtures": ["hypo_crash.py"],
        "junit": {"classname": "hypo_crash.TestParser", "name": "test_parses"}}])
    for server_class, out, extra in ((LOCAL, "stamps/local", {}), (FREE, "stamps/free", FREE_ENV)):
        done = run_class(tmp_path, server_class, out, extra, module="hypo_crash.py")
        assert " written to stamps/" in done.stdout, done.stdout + done.stderr
    for out in ("stamps/local", "stamps/free"):
        (stamp,) = read_stamps(tmp_path / out).values()
        assert stamp["outcome"] == "assert_fail", stamp
        assert (stamp["note"], stamp["failure"]["type"]) == ("JUnit <failure>", "TypeError")
        assert " object at 0x" in stamp["failure"]["example"]
    code, report = classify(tmp_path)
    (pair,) = report["pairs"]
    assert (code, pair["action"], pair["failure_class"]) == (
        1, "reject_stable_fail", "property_miss")


def test_on_ci_a_tests_settings_are_read_as_made_from_the_default_profile(
        tmp_path: Path) -> None:
    """``CI`` set: Hypothesis's ``ci`` profile is loaded before the test module builds its
    ``@settings`` from it. The harmless settings stay no conflict (their health checks are the
    ci profile's), and max_examples=500 is still one; deadline=None equals the ci profile's
    and cannot be told from it there (off CI it is named too: the test above)."""
    conflict_workspace(tmp_path, ["own_settings", "harmless_settings"])
    done = run_class(tmp_path, LOCAL, "out", {"CI": "true"}, module="hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    shown = done.stdout + done.stderr
    assert ("hypo_conflicts.py::test_own_settings: property 'own_settings': @settings sets "
            "max_examples to other values than the card") in shown
    assert "harmless_settings" not in shown.split("gate: error:")[1]
    conflict_workspace(tmp_path, ["harmless_settings"])
    done = run_class(tmp_path, LOCAL, "out", {"CI": "true"}, module="hypo_conflicts.py")
    assert done.returncode == 0, done.stdout + done.stderr
    (stamp,) = read_stamps(tmp_path / "out").values()
    assert stamp["hypothesis"]["deadline_ms"] == 200  # the card's (none: the default's)


def test_a_ci_profile_registered_again_is_checked_like_any_other(tmp_path: Path) -> None:
    conflict_workspace(tmp_path, ["harmless_settings"])
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\n"
        "settings.register_profile('ci', max_examples=7)\nsettings.load_profile('ci')\n")
    done = run_class(tmp_path, LOCAL, "out", module="hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    assert ("settings profile 'ci' sets max_examples=7, other values than the card puts in "
            "force") in done.stdout + done.stderr


def test_two_cards_for_one_test_stop_the_session(tmp_path: Path) -> None:
    conflict_workspace(tmp_path, ["harmless_settings", "harmless_settings@2"],
                       {"harmless_settings@2": 2})
    done = run_class(tmp_path, LOCAL, "out", module="hypo_conflicts.py")
    assert done.returncode == 2
    assert ("properties 'harmless_settings' and 'harmless_settings@2' select this test with "
            "different cards") in done.stdout + done.stderr


# --- records: schemas, bounds, digests (pure) ----------------------------------------------------


GEN = {"version": "6.170.17", "seed": 1, "max_examples": 20, "derandomize": False,
       "database": None, "deadline_ms": 30, "suppress_health_check": [], "examples_run": 20}


def test_card_schema_takes_deadline_and_health_checks() -> None:
    card = {"property": "p", "cases": 3, "seed": 1, "deadline_ms": None,
            "suppress_health_check": ["too_slow", "function_scoped_fixture"]}
    from gate.records import schemas

    schemas.validate("sample-card", card, "card")
    for bad in ({"deadline_ms": 0}, {"deadline_ms": 1.5}, {"suppress_health_check": ["slow"]},
                {"suppress_health_check": "too_slow"}):
        with pytest.raises(GateInputError):
            schemas.validate("sample-card", {**card, **bad}, "card")


def test_failure_strings_are_bounded_with_a_marker() -> None:
    failure = stamping.bounded_failure({"type": "T" * 500, "message": "m" * 10_000,
                                        "example": "e" * 4000, "reproduce": None})
    assert len(failure["type"]) == 200 and failure["type"].endswith(" chars]")
    assert len(failure["message"]) <= 2000 and "…[cut " in failure["message"]
    assert failure["example"] == "e" * 4000 and failure["reproduce"] is None


def test_failure_of_an_exception_group_collects_every_note() -> None:
    one, two = ValueError("a"), TypeError("b")
    one.add_note("Failing test case: t(\n    x=1,\n)")
    two.add_note("Failing test case: t(\n    x=2,\n)")
    two.add_note("You can reproduce this test case by temporarily adding "
                 "@reproduce_failure('6.170.17', b'AA==') as a decorator")
    got = failure_of(ExceptionGroup("Hypothesis found 2 distinct failures.", [one, two]))
    assert got == {"type": "ExceptionGroup", "message": "Hypothesis found 2 distinct failures.",
                   "example": "Failing test case: t(\n    x=1,\n)\n\nFailing test case: t(\n"
                              "    x=2,\n)",
                   "reproduce": "@reproduce_failure('6.170.17', b'AA==')"}


def _machine_failure(bad: int) -> BaseException:
    """What a real state machine that fails on a value ``>= bad`` raises (Hypothesis's notes)."""
    from hypothesis import settings
    from hypothesis import strategies as st
    from hypothesis.stateful import Bundle, RuleBasedStateMachine, rule

    class Machine(RuleBasedStateMachine):
        values = Bundle("values")

        @rule(target=values, x=st.integers(0, 10))
        def make(self, x: int) -> int:
            return x

        @rule(v=values)
        def check(self, v: int) -> None:
            assert v < bad

    case = Machine.TestCase
    case.settings = settings(max_examples=200, database=None, derandomize=True,
                             print_blob=True)
    with pytest.raises(AssertionError) as caught:
        case().runTest()
    return caught.value


def test_a_state_machines_falsifying_example_is_its_steps() -> None:
    """A newcomer trial (pyrsistent): a stateful red's example was only the header note
    "Failing test case: <state machine>", the same for every machine and every failure, so two
    different stateful failures had one failure digest (a property_miss) and the job summary
    showed no step."""
    got = failure_of(_machine_failure(3))
    assert got["example"] == ("Failing test case: <state machine>\nstate = Machine()\n"
                              "values_0 = state.make(x=3)\nstate.check(v=values_0)\n"
                              "state.teardown()")
    assert got["reproduce"] and got["reproduce"].startswith("@reproduce_failure(")
    other = failure_of(_machine_failure(5))
    assert "state.make(x=5)" in other["example"]
    assert digest.failure_digest(got) != digest.failure_digest(other)
    assert digest.failure_digest(got) == digest.failure_digest(failure_of(_machine_failure(3)))


def _stamp(server_class: str, outcome: str, hypothesis: dict[str, Any] | None = None,
           failure: dict[str, Any] | None = None) -> dict[str, Any]:
    stamp: dict[str, Any] = {
        "run_id": f"{server_class}-{outcome}", "test_id": "t", "server_class": server_class,
        "fixture_hash": "0" * 64, "sample_card": {"property": "t", "cases": 20, "seed": 1},
        "outcome": outcome, "freeze_expires_at": None}
    if hypothesis is not None:
        stamp["hypothesis"] = hypothesis
    if failure is not None:
        stamp["failure"] = failure
    return records.check_stamp(stamp, "stamp")


def test_stamp_schema_refuses_extra_fields_inside_the_objects() -> None:
    with pytest.raises(GateInputError, match="hypothesis"):
        _stamp(LOCAL, "pass", {**GEN, "phases": []})
    with pytest.raises(GateInputError, match="failure"):
        _stamp(LOCAL, "assert_fail", GEN, {"type": "x", "message": "", "example": None,
                                           "reproduce": None, "extra": 1})


@pytest.mark.parametrize(("free", "reason"), [
    ({**GEN, "version": "6.155.2"},
     "the Hypothesis generators differ: version '6.170.17' (local-pinned) vs '6.155.2' "
     "(free-server)"),
    ({**GEN, "deadline_ms": None, "suppress_health_check": ["too_slow"]},
     "the Hypothesis generators differ: deadline_ms 30 (local-pinned) vs None (free-server); "
     "suppress_health_check [] (local-pinned) vs ['too_slow'] (free-server)"),
    (None, "only the local-pinned stamp records its Hypothesis generator: the two runs are not "
           "provably the same experiment"),
])
def test_stamp_gate_rejects_differing_generators(free: dict[str, Any] | None,
                                                 reason: str) -> None:
    local = _stamp(LOCAL, "pass", GEN)
    other = _stamp(FREE, "pass", free)
    for a, b in ((local, other), (other, local)):
        result = stamps.classify_pair(a, b, [], 0)
        assert (result.action, result.row) == ("reject_fixture_mismatch", 1)
    assert stamps.classify_pair(local, other, [], 0).reason == reason
    label = report_rules.cross_class_pair(local, other, stamps.classify_pair(local, other, [], 0))
    assert label["failure_class"] == "fixture_drift"


def test_examples_run_is_not_part_of_the_generator() -> None:
    local, free = _stamp(LOCAL, "pass", GEN), _stamp(FREE, "pass", {**GEN, "examples_run": 3})
    assert stamps.classify_pair(local, free, [], 0).action == "accept_candidate"


def test_a_discarded_run_without_a_generator_is_a_retry_not_drift() -> None:
    local, free = _stamp(LOCAL, "pass", GEN), _stamp(FREE, "resource_exit")
    result = stamps.classify_pair(local, free, [], 0)
    assert result.action == "reject_run_retry_new_id"
    pair = report_rules.cross_class_pair(local, free, result)
    assert pair["failure_class"] == "unclassified"  # SPEC §4 row 1: the other has no digest


def test_both_red_on_different_minimal_examples_is_not_a_property_miss() -> None:
    def red(server_class: str, x: int) -> dict[str, Any]:
        return _stamp(server_class, "assert_fail", GEN, {
            "type": "AssertionError", "message": "", "reproduce": None,
            "example": f"Failing test case: t(\n    x={x},\n)"})

    same = digest.classify_runs(stamps.as_run_record(red(LOCAL, 1)),
                                stamps.as_run_record(red(FREE, 1)))
    assert (same.failure_class, same.row) == (digest.FailureClass.PROPERTY_MISS, 3)
    other = digest.classify_runs(stamps.as_run_record(red(LOCAL, 1)),
                                 stamps.as_run_record(red(FREE, 2)))
    assert (other.failure_class, other.row, other.reason) == (
        digest.FailureClass.UNCLASSIFIED, 3,
        "both oracles failed, but on different minimal examples")


def test_digest_formats_are_stable() -> None:
    """The README's recipe: SHA-256 of canonical JSON (sorted keys, no spaces)."""
    import hashlib

    body = ('{"database":null,"deadline_ms":30,"derandomize":false,'
            '"format":"gate-hypothesis-generator/v1","max_examples":20,"seed":1,'
            '"suppress_health_check":[],"version":"6.170.17"}')
    assert digest.generator_digest(GEN) == hashlib.sha256(body.encode()).hexdigest()
    fail = '{"example":"Failing test case: t()","format":"gate-hypothesis-failure/v2","type":"E"}'
    assert digest.failure_digest({"type": "E", "example": "Failing test case: t()"}) == (
        hashlib.sha256(fail.encode()).hexdigest())
    assert digest.failure_digest({"type": "E", "example": None}) is None


def test_a_failure_digest_does_not_depend_on_object_addresses() -> None:
    """attrs trial: every falsifying example of a test method holds ``self=<... object at
    0x7f...>``, another address in each process, so no class-based test was ever a
    property_miss."""
    import hashlib

    def example(address: str) -> str:
        return (f"Failing test case: TestAsDict.test_roundtrip(\n    self=<tests.test_funcs."
                f"TestAsDict object at {address}>,\n    x=0,\n)")

    one = digest.failure_digest({"type": "E", "example": example("0x7f23d2a74210")})
    two = digest.failure_digest({"type": "E", "example": example("0x7F314833EED0")})
    assert one == two
    body = json.dumps({"example": example("0x…"), "format": "gate-hypothesis-failure/v2",
                       "type": "E"}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert one == hashlib.sha256(body.encode()).hexdigest()
    # only an address in a repr is replaced: other hex text still tells two examples apart
    assert (digest.failure_digest({"type": "E", "example": "Failing test case: t(x=0x10)"})
            != digest.failure_digest({"type": "E", "example": "Failing test case: t(x=0x11)"}))


def test_a_same_class_repeat_under_another_generator_disagrees(tmp_path: Path) -> None:
    """Found in the review of the merge: two green local-pinned runs of one test, one under
    another Hypothesis version, "agreed" and the newer was paired alone. Now they disagree:
    reject_duplicate_stamps (a repeat of an experiment is the same experiment)."""
    from gate.records import pairing

    for name, stamp in (("local-a", {**_stamp(LOCAL, "pass", GEN), "run_id": "la"}),
                        ("local-b", {**_stamp(LOCAL, "pass", {**GEN, "version": "6.1.0"}),
                                     "run_id": "lb"}),
                        ("free", {**_stamp(FREE, "pass", GEN), "run_id": "f"})):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "s.json").write_text(json.dumps(stamp), encoding="utf-8")
    (decision,) = pairing.decide_folder(tmp_path, (), 1)
    assert decision.entry["action"] == "reject_duplicate_stamps"
    # the same two runs with one generator agree (one result, paired as usual)
    (tmp_path / "local-b" / "s.json").write_text(json.dumps(
        {**_stamp(LOCAL, "pass", GEN), "run_id": "lb"}), encoding="utf-8")
    (decision,) = pairing.decide_folder(tmp_path, (), 1)
    assert decision.entry["action"] == "accept_candidate"


def test_a_settings_conflict_names_the_card_file_and_the_fix(tmp_path: Path) -> None:
    conflict_workspace(tmp_path, ["own_settings"])
    done = run_class(tmp_path, LOCAL, "out", module="hypo_conflicts.py")
    assert done.returncode == 2, done.stdout + done.stderr
    shown = done.stdout + done.stderr
    assert ('(@settings sets max_examples=500, the card cards/own_settings.json has 20: set '
            '"cases": 500 in the card, or drop max_examples from @settings; @settings sets '
            'deadline=None, the card cards/own_settings.json has none: set "deadline_ms": '
            'null in the card, or drop deadline from @settings)') in shown


def test_a_hypothesis_without_a_ci_profile_of_its_own_is_read_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Review: Hypothesis before 6.117 (pyproject allows 6.100) registers no ``ci`` profile;
    ``get_profile("ci")`` raised InvalidArgument, an INTERNALERROR in every gated session and
    in gate init's collector."""
    from hypothesis import settings

    from gate.testrun import hypothesis_card, init_collector

    monkeypatch.delitem(settings._profiles, "ci")
    own = settings(deadline=None)
    assert hypothesis_card._ci_profile_values(own) == {}
    assert hypothesis_card._changed(own, settings.get_profile("default"),
                                    settings(deadline=None)) == []
    assert init_collector._card_settings(own, stateful=False) == {"deadline_ms": None}
