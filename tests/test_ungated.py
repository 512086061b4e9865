"""Ungated properties are named, by mechanism (issue 29 item 1; SPEC §6).

A Hypothesis test that no manifest property selects runs in no stamp job: the gate said
"open — all N tests green" with nothing naming it. Here: both pytest routes (the recorder, the
plugin) report every collected Hypothesis test (``@given``, a state machine's ``TestCase``),
deselected or not, and the gate's process keeps those no property selects in every stamp's
``ungated`` object; the stamp step's log names them with the fix.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gate.decide import ungated
from tests.property_suite.harness import env, read_stamps
from tests.test_hypothesis_card import LOCAL, run_class, workspace
from tests.test_recorder import stamp

UNGATED_PROPS = ["hypo_props.py::test_filtered", "hypo_props.py::test_fixed_band",
                 "hypo_props.py::test_flaky", "hypo_props.py::test_round_trip",
                 "hypo_props.py::test_slow", "hypo_props.py::test_split"]
MACHINE = "hypo_stateful.py::TestLedger::runTest"


def _named(stamped: dict[str, object]) -> dict[str, str]:
    found = stamped["ungated"]
    assert isinstance(found, dict)
    return {t["test"]: t["kind"] for t in found["tests"]}


@pytest.mark.parametrize("select", [(), ("-k", "test_draws or TestLedger")])
def test_the_recorder_names_every_hypothesis_test_no_property_selects(
        tmp_path: Path, select: tuple[str, ...]) -> None:
    """One property gated (test_draws); the file's six other ``@given`` tests and a state
    machine are named ungated, also when ``-k`` deselects them (on the code before: no stamp
    named any, and the log said nothing)."""
    workspace(tmp_path, {"draws": 1})
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", *select,
                 "hypo_props.py", "hypo_stateful.py", environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["outcome"] == "pass"
    assert _named(got) == {**dict.fromkeys(UNGATED_PROPS, "given"), MACHINE: "stateful"}
    assert got["ungated"]["count"] == 7
    (line,) = [x for x in done.stdout.splitlines() if "no manifest property selects" in x]
    assert line.startswith("gate: 7 Hypothesis tests no manifest property selects (ungated")
    assert line.endswith("fix: gate init --add hypo_props.py hypo_stateful.py")


def test_the_plugin_names_them_too(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    done = run_class(tmp_path, LOCAL, "plugin")  # -k test_draws: the others are deselected
    assert " written to plugin" in done.stdout, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "plugin").values()
    assert _named(got) == dict.fromkeys(UNGATED_PROPS, "given")
    assert "gate: 6 Hypothesis tests no manifest property selects" in done.stdout


def test_a_fully_gated_session_names_nothing(tmp_path: Path) -> None:
    every = ["draws", *(t.split("::test_")[1] for t in UNGATED_PROPS)]
    workspace(tmp_path, dict.fromkeys(every, 1))
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_props.py",
                 environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(tmp_path / "out")
    assert len(got) == 7 and all("ungated" not in s for s in got.values())
    assert "no manifest property selects" not in done.stdout


# --- the pure rules (gate/decide/ungated.py) -------------------------------------------------


def test_the_union_keeps_one_entry_per_test_with_its_sources_in_order() -> None:
    got = ungated.union([("scan", "t.py::b", "given"), ("free-server", "t.py::a", "stateful"),
                         ("local-pinned", "t.py::a", "stateful"), ("local-pinned", "t.py::b",
                                                                     "given")])
    assert got == [ungated.Ungated("t.py::a", "stateful", ("local-pinned", "free-server")),
                   ungated.Ungated("t.py::b", "given", ("local-pinned", "scan"))]


@pytest.mark.parametrize(("count", "policy", "decision"), [
    (0, "warn", "none"), (0, "fail", "none"), (2, "warn", "named"), (2, "fail", "closed"),
    (1, "bogus", "closed"),  # never reached (the schema refuses it): fails closed
])
def test_the_ungated_decision_table(count: int, policy: str, decision: str) -> None:
    assert ungated.decision(count, policy) == decision


def test_the_fix_names_each_file_once() -> None:
    tests = [f"t{i}.py::x" for i in range(7)] + ["t0.py::y"]
    assert ungated.fix(tests) == "gate init --add t0.py t1.py t2.py t3.py t4.py ..."
    assert ungated.log_line([("a.py::t", "given")], 1) == (
        "gate: 1 Hypothesis test no manifest property selects (ungated: it runs in no stamp "
        "job and is never decided): a.py::t; fix: gate init --add a.py")


def test_the_log_line_counts_what_it_does_not_show() -> None:
    """Five names at most, then how many more (of the count, which the report may cap)."""
    seven = [(f"t{i}.py::x", "given") for i in range(7)]
    assert ungated.log_line(seven, 9) == (
        "gate: 9 Hypothesis tests no manifest property selects (ungated: they run in no stamp "
        "job and are never decided): t0.py::x, t1.py::x, t2.py::x, t3.py::x, t4.py::x and 4 "
        "more; fix: gate init --add t0.py t1.py t2.py t3.py t4.py ...")
    five = seven[:5]
    assert ungated.log_line(five, 5) == (
        "gate: 5 Hypothesis tests no manifest property selects (ungated: they run in no stamp "
        "job and are never decided): t0.py::x, t1.py::x, t2.py::x, t3.py::x, t4.py::x; fix: "
        "gate init --add t0.py t1.py t2.py t3.py t4.py")
    assert ungated.fix([t for t, _ in five]) == "gate init --add t0.py t1.py t2.py t3.py t4.py"


def test_the_output_is_every_node_id_space_separated() -> None:
    assert ungated.output_value([{"test": "a.py::t", "kind": "given"},
                                 {"test": "b.py::T::runTest", "kind": "stateful"}]) == (
        "a.py::t b.py::T::runTest")
    assert ungated.output_value([]) == ""


def test_a_test_whose_parameter_id_holds_the_separator_is_selected_by_its_property() -> None:
    # the manifest's JUnit selector for t.py::test_y[a::b], as the stamp jobs match it
    assert ungated.selected("t.py::test_y[a::b]", [("p1", "t", "test_y[a::b]")])
    assert not ungated.selected("t.py::test_y[a::b]", [("p1", "t.test_y[a", "b]")])


def test_a_kind_the_gate_does_not_know_is_shown_as_given() -> None:
    assert ungated.union([("scan", "t.py::a", "other")]) == [
        ungated.Ungated("t.py::a", "given", ("scan",))]


def test_junit_key_is_pytests_own() -> None:
    from _pytest.junitxml import mangle_test_address

    for nodeid in ["tests/a/test_x.py::TestC::test_y[1-a]", "test_x.py::test_y",
                   "t/test_m.py::TestLedger::runTest", "t/sub/x_test.py::T::U::test_v",
                   "tests/cases.yaml::case_one", "tests/test_x.py",
                   # a parameter id holding "::" or ".py" (was split there: a property named
                   # ungated, which closes the gate under ungated: fail)
                   "t.py::test_y[a::b]", "tests/t.py::C::test_z[x::y::z]",
                   "t.py::test_y[a.py]", "t/test_m.py::test_y[a/b.py::c]"]:
        names = mangle_test_address(nodeid)
        assert ungated.junit_key(nodeid) == (".".join(names[:-1]), names[-1])


HIDDEN = '''
import unittest

import hypothesis
from hypothesis import given, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule


@given(st.integers())
def test_hidden(n):
    assert n == n


@hypothesis.given(st.integers())
async def test_async(n):
    pass


def test_plain():
    pass


def helper_with_given_but_no_test_name():
    pass


class TestBox:
    @given(st.text())
    def test_box(self, s):
        pass

    def test_not_hypothesis(self):
        pass


class Checks(unittest.TestCase):
    @given(st.text())
    def test_in_a_unittest_case(self, s):
        pass


class Shared(object):
    @given(st.text())
    def test_not_collected(self, s):
        pass


class TestLabelled:
    label = "a class attribute, not a test"


class Machine(RuleBasedStateMachine):
    @rule()
    def step(self):
        pass


class Deeper(Machine):
    pass


TestMachine = Machine.TestCase


class TestDeeper(Deeper.TestCase):
    pass
'''


def test_the_scan_names_what_pytest_would_collect_without_importing_it() -> None:
    assert ungated.scan_source("tests/test_new.py", HIDDEN) == [
        ("tests/test_new.py::test_hidden", "given"),
        ("tests/test_new.py::test_async", "given"),
        ("tests/test_new.py::TestBox::test_box", "given"),
        ("tests/test_new.py::Checks::test_in_a_unittest_case", "given"),
        ("tests/test_new.py::TestMachine::runTest", "stateful"),
        ("tests/test_new.py::TestDeeper::runTest", "stateful")]
    assert ungated.scan_source("x.py", "def broken(:\n") == []  # pytest's own error says it


def test_a_test_the_manifest_selects_is_not_ungated() -> None:
    selectors = [("tests/test_new.py::test_hidden", None, "test_hidden"),
                 ("x", "tests.test_new.TestBox", "test_box")]
    assert ungated.selected("tests/test_new.py::test_hidden", selectors)
    assert ungated.selected("tests/test_new.py::TestBox::test_box", selectors)
    assert not ungated.selected("tests/test_new.py::TestMachine::runTest", selectors)
    assert ungated.selected("other.py::test_hidden", selectors)  # a None classname: any file


# --- the gate job: report, policy, scan, every surface -----------------------------------------

from typing import Any  # noqa: E402

from gate.github import action as gh_action  # noqa: E402
from gate.records import load as records_load  # noqa: E402
from gate.records import schemas  # noqa: E402
from gate.records.files import write_once  # noqa: E402
from tests.core_helpers import FREE, SHA_X, write_json  # noqa: E402
from tests.core_helpers import stamp as a_stamp  # noqa: E402
from tests.github_double import WRITE_TOKEN, GitHubDouble  # noqa: E402
from tests.test_action import _env, _outputs  # noqa: E402
from tests.typed_report import typed  # noqa: E402

BASE, HEAD = "a" * 40, "b" * 40
PR = {"pull_request": {"number": 7, "base": {"sha": BASE}, "head": {"sha": HEAD}}}
NEW = "tests/test_codec.py::test_added"
NAMED = {"count": 1, "tests": [{"test": NEW, "kind": "given"}]}


def _gate(tmp_path: Path, *, named: dict[str, Any] | None, policy: str | None = None,
          event: Any = None, double: GitHubDouble | None = None
          ) -> tuple[int, dict[str, Any], str, dict[str, str]]:
    import json

    for cls, run in ((LOCAL, "l1"), (FREE, "f1")):
        extra = {"ungated": named} if named else {}
        write_json(tmp_path / "stamps" / f"gate-stamps-{cls}-stamp-1-0a1b2c3d" / f"{run}.json",
                   a_stamp(cls, "pass", run_id=run, fixture_sha256=SHA_X, **extra))
    (tmp_path / "summary.md").write_text("", encoding="utf-8")
    (tmp_path / "output.txt").write_text("", encoding="utf-8")
    extra_env: dict[str, str] = {"GATE_FAIL_ON_CLOSED": "true"}
    if policy is not None:
        write_once(tmp_path / "policy.yml", policy.encode())
        extra_env["GATE_POLICY"] = str(tmp_path / "policy.yml")
    if event is not None and double is not None:
        (tmp_path / "event.json").write_text(json.dumps(event), encoding="utf-8")
        extra_env.update({"GITHUB_EVENT_PATH": str(tmp_path / "event.json"),
                          "GATE_GITHUB_TOKEN": WRITE_TOKEN, "GITHUB_API_URL": double.base_url,
                          "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_SHA": HEAD})
    code = gh_action.run(_env(tmp_path, **extra_env))
    outputs = _outputs(tmp_path / "output.txt")
    report = json.loads(Path(outputs["report"]).read_text(encoding="utf-8"))
    records_load.check_report(report, "report")
    return code, report, (tmp_path / "summary.md").read_text(encoding="utf-8"), outputs


def test_an_added_property_is_named_ungated_in_every_surface(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29 item 1: both classes green, one @given test no property selects. On the code
    before, the gate said "open — all 1 tests green" and nothing named the new test."""
    code, report, text, outputs = _gate(tmp_path, named=NAMED)
    assert code == 0 and report["decision"] == "open"
    assert report["ungated"] == {"policy": "warn", "decision": "named", "count": 1, "tests": [
        {"test": NEW, "kind": "given", "found_by": ["local-pinned", "free-server"]}]}
    assert "open — all 1 tests green in both classes · 1 Hypothesis test ungated" in text
    assert "### ⚠️ 1 Hypothesis test no property gates" in text
    assert "**Fix:** run `gate init --add tests/test_codec.py`" in text
    assert outputs["ungated"] == NEW
    log = capsys.readouterr().out
    assert ("agent-patch gate: 1 Hypothesis test no manifest property selects (ungated: it runs"
            " in no stamp job and is never decided): tests/test_codec.py::test_added; fix: "
            "gate init --add tests/test_codec.py") in log


def test_nothing_ungated_adds_nothing(tmp_path: Path) -> None:
    code, report, text, outputs = _gate(tmp_path, named=None)
    assert code == 0 and "ungated" not in report and outputs["ungated"] == ""
    assert "ungated" not in text


def test_ungated_fail_closes_the_gate(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, report, text, _ = _gate(tmp_path, named=NAMED, policy="ungated: fail\n")
    assert code == 1 and report["decision"] == "closed"
    assert report["counts"] == {"accepted": 1, "frozen": 0, "rejected": 0}
    assert report["ungated"]["decision"] == "closed"
    assert "## ❌ agent-patch gate: closed — all 1 tests green in both classes · 1" in text
    assert "the gate is closed (policy `ungated: fail`)" in text
    assert "(policy ungated: fail: the gate is closed)" in capsys.readouterr().out


def test_a_refused_stamp_names_nothing(tmp_path: Path) -> None:
    from gate.records import pairing

    loaded = [pairing.Loaded(a_stamp(LOCAL, "pass", ungated=NAMED), "x/l.json", "unsigned")]
    assert pairing.reported_in(loaded).named == []


def test_a_hand_edited_ungated_decision_is_refused() -> None:
    from gate.errors import GateInputError
    from gate.records import report as report_rules

    built = report_rules.build([], 1, ungated={"policy": "fail", "decision": "closed",
                                               "count": 1, "tests": [
                                                   {"test": NEW, "kind": "given",
                                                    "found_by": ["scan"]}]})
    built["ungated"]["decision"] = "named"
    with pytest.raises(GateInputError, match=r"ungated\.decision"):
        records_load.check_report(built, "r.json")
    schemas.validate("report", built, "r.json")  # the schema alone cannot say it


@pytest.mark.parametrize(("text", "said"), [
    ("ungated: fial\n", "did you mean 'fail'"), ("ungatd: fail\n", "did you mean 'ungated'")])
def test_policy_check_validates_ungated(tmp_path: Path, text: str, said: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from gate.commands.main import main

    write_once(tmp_path / "p.yml", text.encode())
    assert main(["policy", "check", str(tmp_path / "p.yml")]) == 2
    assert said in capsys.readouterr().err


def test_policy_check_says_what_ungated_does(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from gate.commands.main import main

    write_once(tmp_path / "p.yml", b"ungated: fail\n")
    assert main(["policy", "check", str(tmp_path / "p.yml")]) == 0
    assert "ungated: fail (a Hypothesis test no manifest property selects closes" in (
        capsys.readouterr().out)


HIDING_CONFTEST = '''
def pytest_collection_modifyitems(items):
    items[:] = [i for i in items if "hidden" not in i.name]  # dropped, never "deselected"
'''


def test_the_scan_finds_a_test_a_conftest_hides_from_the_collection(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    """A conftest drops the new test at collection without telling pytest it deselected it: no
    stamp names it, but the file the pull request changes does, and the scan reads it (with
    ``ungated: fail``: closed)."""
    monkeypatch.chdir(tmp_path)
    github_double.set_comparison("acme/widgets", BASE, HEAD, [
        "tests/conftest.py", "tests/test_hidden.py", "README.md", "tests/gone.py"])
    github_double.set_content("acme/widgets", HEAD, "tests/conftest.py", HIDING_CONFTEST)
    github_double.set_content("acme/widgets", HEAD, "tests/test_hidden.py", HIDDEN)
    code, report, text, outputs = _gate(tmp_path, named=None, policy="ungated: fail\n",
                                        event=PR, double=github_double)
    assert code == 1 and report["decision"] == "closed"
    tests = {t["test"]: t for t in report["ungated"]["tests"]}
    assert tests["tests/test_hidden.py::test_hidden"]["found_by"] == ["scan"]
    assert set(tests) == {t for t, _ in ungated.scan_source("tests/test_hidden.py", HIDDEN)}
    assert "tests/test_hidden.py::TestMachine::runTest" in outputs["ungated"].splitlines()
    assert "found by scan" in text
    assert not github_double.invalid_requests()


def test_the_scan_counts_what_the_manifest_gates_and_unions_with_the_stamps(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.records import adopt

    monkeypatch.chdir(tmp_path)
    write_once(tmp_path / ".github" / "gate.yml", adopt.render_manifest([adopt.entry_for(
        test_id="tests/test_hidden.py::test_hidden", card=".github/gate-cards/h.json",
        fixtures=["tests/test_hidden.py"], classname="tests.test_hidden", name="test_hidden",
        location="tests/test_hidden.py", line=7)]).encode())
    write_once(tmp_path / "tests" / "test_hidden.py", b"# the checkout's copy\n")
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["tests/test_hidden.py"])
    github_double.set_content("acme/widgets", HEAD, "tests/test_hidden.py",
                              "from hypothesis import given\n@given()\ndef test_hidden():\n"
                              "    pass\n@given()\ndef test_added():\n    pass\n")
    named = {"count": 1, "tests": [{"test": "tests/test_hidden.py::test_added",
                                    "kind": "given"}]}
    code, report, _, _ = _gate(tmp_path, named=named, event=PR, double=github_double)
    assert code == 0 and report["decision"] == "open"
    assert report["ungated"]["tests"] == [{"test": "tests/test_hidden.py::test_added",
                                           "kind": "given",
                                           "found_by": ["local-pinned", "free-server", "scan"]}]


def test_a_scan_that_cannot_list_is_a_note_and_the_stamps_still_count(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no comparison set: HTTP 404
    code, report, text, _ = _gate(tmp_path, named=NAMED, event=PR, double=github_double)
    assert code == 0 and report["ungated"]["count"] == 1
    (note,) = report["ungated"]["notes"]
    assert note.startswith("the changed files were not scanned for ungated tests: ")
    # what the job could not check is a configuration note, collapsed below the reds; on the
    # priority 2.0.0 trial it ran into the next paragraph ("… no token **What judges …")
    notes_at = text.index("<summary>Configuration notes")
    for said in ("> **Note:** the changed files were not scanned for ungated tests: ",
                 "> **Note:** what judges this patch is not shown: could not list the changed"):
        assert text.index(said) > notes_at
    assert "**What judges this patch:**" not in text
    from gate.github import checks, comment, ungated

    typed_report = typed(report)
    for shown in (text, checks.check_summary(typed_report),
                  comment.body(typed_report, "agent-patch gate"),
                  "\n".join(ungated.lines(typed_report))):
        lines = shown.splitlines()
        for at, line in enumerate(lines[:-1]):
            if line.startswith("> **Note:**"):
                assert lines[at + 1] == "", (line, lines[at + 1])


def test_a_renamed_property_is_its_resource_exit_and_a_named_ungated_test(
        tmp_path: Path) -> None:
    """The manifest still names test_fixed_bnd (the old name): that property is
    ``resource_exit`` as before, and the test under its new name is named ungated."""
    workspace(tmp_path, {"draws": 1, "fixed_band": 2})
    text = (tmp_path / "gate.yml").read_text(encoding="utf-8")
    (tmp_path / "gate.yml").write_text(text.replace("test_fixed_band", "test_fixed_bnd"),
                                       encoding="utf-8")
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_props.py",
                 environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    got = read_stamps(tmp_path / "out")
    assert got["fixed_band"]["outcome"] == "resource_exit"
    assert "hypo_props.py::test_fixed_band" in _named(got["draws"])
    assert "hypo_props.py::test_fixed_band" in done.stdout.split("no manifest property")[1]


# --- what the process really loaded (issue 27: every harness file is shown) -------------------


def test_the_stamps_carry_the_repositorys_plugin_files_the_session_loaded(
        tmp_path: Path) -> None:
    """A plugin module ``-p forge`` loads and a conftest: both are files of the repository the
    session really loaded, so every stamp names them (``harness_files``); installed plugins
    and the gate's own recorder are not files of the repository."""
    workspace(tmp_path, {"draws": 1})
    (tmp_path / ".git").mkdir()
    (tmp_path / "forge.py").write_text("# a plugin of the patch's own\n", encoding="utf-8")
    (tmp_path / "helpers").mkdir()
    (tmp_path / "helpers" / "conftest.py").write_text("", encoding="utf-8")
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "-p", "forge",
                 "hypo_props.py", "helpers", environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["harness_files"] == ["forge.py", "helpers/conftest.py"]


def test_a_changed_file_the_process_loaded_is_shown_for_every_property() -> None:
    from gate.decide import judges

    props = [judges.PropertyFiles("tests/test_a.py::test_a", "tests/test_a.py")]
    changed = [("plugins/forge_impl.py", None)]
    assert judges.judged(changed, props) == []  # no name rule says it runs in the process
    (found,) = judges.judged(changed, props, loaded=frozenset({"plugins/forge_impl.py"}))
    assert found.all_ and found.kinds == ("harness",)


def test_the_gate_job_shows_a_loaded_plugin_the_pull_request_changes(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the code before, ``plugins/forge_impl.py`` (no name rule, in no manifest) was named
    for no property though the stamp jobs' pytest loaded it."""
    import json

    from gate.records import pairing

    monkeypatch.chdir(tmp_path)
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["plugins/forge_impl.py"])
    for cls, run in ((LOCAL, "l1"), (FREE, "f1")):
        write_json(tmp_path / "stamps" / f"gate-stamps-{cls}-stamp-1-0a1b2c3d" / f"{run}.json",
                   a_stamp(cls, "pass", run_id=run, fixture_sha256=SHA_X,
                           harness_files=["plugins/forge_impl.py"]))
    (tmp_path / "event.json").write_text(json.dumps(PR), encoding="utf-8")
    (tmp_path / "output.txt").write_text("", encoding="utf-8")
    code = gh_action.run(_env(tmp_path, **{
        "GITHUB_EVENT_PATH": str(tmp_path / "event.json"), "GATE_GITHUB_TOKEN": WRITE_TOKEN,
        "GITHUB_API_URL": github_double.base_url, "GITHUB_REPOSITORY": "acme/widgets",
        "GITHUB_SHA": HEAD}))
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert code == 0 and report["judge_files"]["files"] == [
        {"path": "plugins/forge_impl.py", "kinds": ["harness"], "all": True}]
    refused = [pairing.Loaded(a_stamp(LOCAL, "pass", harness_files=["x.py"]), "l.json", "no")]
    assert pairing.reported_in(refused).harness_files == set()


def test_classify_stamps_decides_ungated_as_the_action_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``gate classify --stamps`` reads the stamps' ``ungated`` too: with ``ungated: fail`` it is
    closed (exit 1) as the action is, never open beside an action that closes."""
    from gate.commands.main import main

    for cls, run in ((LOCAL, "l1"), (FREE, "f1")):
        write_json(tmp_path / "stamps" / f"{run}.json",
                   a_stamp(cls, "pass", run_id=run, fixture_sha256=SHA_X, ungated=NAMED))
    write_once(tmp_path / "fail.yml", b"ungated: fail\n")
    assert main(["classify", "--stamps", str(tmp_path / "stamps")]) == 0
    warned = capsys.readouterr().out.splitlines()
    assert warned[-2].startswith("gate: 1 Hypothesis test no manifest property selects")
    assert warned[-1].startswith("decision=open")
    assert main(["classify", "--stamps", str(tmp_path / "stamps"), "--policy",
                 str(tmp_path / "fail.yml")]) == 1
    closed = capsys.readouterr().out.splitlines()
    assert closed[-2].endswith("(policy ungated: fail: the gate is closed)")
    assert closed[-1].startswith("decision=closed")


def test_the_stamp_jobs_summary_names_them() -> None:
    from gate.github import summary

    text = summary.render_stamp_done([a_stamp(LOCAL, "pass", ungated=NAMED)],
                                     server_class=LOCAL, artifact="a", manifest="m.yml",
                                     recorder=True)
    assert ("**Ungated:** 1 Hypothesis test no manifest property selects ran in no stamp job; "
            "fix: `gate init --add tests/test_codec.py`") in text
    assert f"- `{NEW}`" in text


def test_xdist_workers_report_what_they_collected(tmp_path: Path) -> None:
    """The controller collects nothing: the workers send the Hypothesis tests they collected
    and the plugin modules they loaded (a sub-folder's conftest only a worker loads)."""
    pytest.importorskip("xdist")
    workspace(tmp_path, {"draws": 1}, deadline_ms=None)
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub" / "deeper").mkdir(parents=True)  # loaded at collection, not at start
    (tmp_path / "sub" / "deeper" / "conftest.py").write_text("", encoding="utf-8")
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "-p", "xdist", "-n",
                 "2", "hypo_props.py", "hypo_stateful.py", "sub", environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert _named(got) == {**dict.fromkeys(UNGATED_PROPS, "given"), MACHINE: "stateful"}
    assert "sub/deeper/conftest.py" in got["harness_files"]


def test_the_pull_request_comment_names_them() -> None:
    from gate.github import comment
    from gate.records import report as report_rules

    built = report_rules.build([], 1, ungated={"policy": "fail", "decision": "closed",
                                               "count": 1, "tests": [
                                                   {"test": NEW, "kind": "given",
                                                    "found_by": ["scan"]}]})
    text = comment.body(typed(built), "agent-patch gate")
    assert "1 Hypothesis test ungated" in text and f"`{NEW}`" in text
    assert comment.action("on-red", typed(built)) == "create"


def test_a_conftest_hides_a_test_from_the_collection_not_from_the_scan(tmp_path: Path) -> None:
    """A real run: the patch's conftest drops test_fixed_band from the items without telling
    pytest it deselected it, so no stamp names it; the gate job's scan of the same file does
    (it is not among the manifest's selectors)."""
    workspace(tmp_path, {"draws": 1})
    (tmp_path / "conftest.py").write_text(
        "def pytest_collection_modifyitems(items):\n"
        "    items[:] = [i for i in items if i.name != 'test_fixed_band']\n", encoding="utf-8")
    done = stamp(tmp_path, "out", sys.executable, "-m", "pytest", "-q", "hypo_props.py",
                 environment=env())
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert "hypo_props.py::test_fixed_band" not in _named(got)  # hidden from the collection
    selectors = [("hypo_props.py::test_draws", "hypo_props", "test_draws")]
    scanned = [t for t, _ in ungated.scan_source(
        "hypo_props.py", (tmp_path / "hypo_props.py").read_text(encoding="utf-8"))
        if not ungated.selected(t, selectors)]
    assert "hypo_props.py::test_fixed_band" in scanned
