"""A collection error is deterministic: the stamp says so, and the reviewer is told to fix the
test collection, never to re-run (the newcomer trial on iso8601 was advised "re-run").

A real pytest run: a test file that imports a module that does not exist makes pytest stop
after collection (exit status 2) with a JUnit report holding only
``<error message="collection failure">``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gate.decide import outcome
from gate.github import review
from gate.records import junit, pairing
from tests.property_suite.harness import (
    copy_suite,
    gate,
    make_property,
    pytest_command,
    read_stamps,
    write_manifest,
)
from tests.typed_report import typed, typed_pair, typed_run

NOW = 1_790_000_000


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    copy_suite(tmp_path)
    write_manifest(tmp_path / "gate.yml", [make_property(tmp_path, f"p{n:02d}", seed=n)
                                           for n in (1, 2)])
    return tmp_path


def stamp(ws: Path, server_class: str, out: str, *extra: str) -> dict[str, dict[str, Any]]:
    done = gate("stamp", "--manifest", "gate.yml", "--server-class", server_class, "--junit",
                f"{out}.xml", "--out", out, "--", *pytest_command(f"{out}.xml"), *extra,
                cwd=ws)
    assert done.returncode == 0, done.stderr
    return read_stamps(ws / out)


def test_a_collection_error_is_stamped_as_such_and_advised_fix_not_rerun(ws: Path) -> None:
    (ws / "prop_broken.py").write_text("import no_such_module_for_the_gate\n\n\n"
                                       "def test_never():\n    pass\n")
    local = stamp(ws, "local-pinned", "local")
    free = stamp(ws, "free-server", "free", "prop_broken.py")
    # the stamp: no result, pytest's exit status 2, and the note names the file that failed
    for test_id, value in free.items():
        assert (value["outcome"], value["exit_code"]) == ("resource_exit", 2), test_id
        assert value["note"] == ("not in JUnit report: the test collection failed "
                                 "(prop_broken)"), test_id
    assert junit.load(ws / "free.xml").collection_errors == ("prop_broken",)  # type: ignore

    loaded = [pairing.Loaded(s, f"{cls}/{s['run_id']}.json")
              for cls, stamps_ in (("local", local), ("free", free)) for s in stamps_.values()]
    report = pairing.build_report(pairing.decide_all(loaded, [], NOW), NOW)
    assert report["decision"] == "closed"
    view = review.View()
    head = "\n".join(review.headline(typed(report), view))
    assert "the test collection failed before the test could run" in head
    assert "**Common cause — 2 tests:** in free-server, no test ran" in head
    assert "Fix the test collection" in head and "re-run the" not in head
    for pair in report["pairs"]:
        assert pair["action"] == "reject_run_retry_new_id"
        block = "\n".join(review.red_block(typed_pair(pair), NOW, 30, view))
        assert "**Next step (free-server):** fix the test collection" in block
        assert "A re-run fails the same way" in block
        assert "Re-run the" not in block and "re-run the free-server" not in block
        plain = review.plain_next_step(typed_pair(pair), NOW, 30)
        assert "fix the test collection" in plain and "re-run the" not in plain
        assert "did not finish" not in review.annotation_message(typed_pair(pair), NOW, 30)


def test_an_interrupted_run_without_collection_failure_keeps_its_old_note(ws: Path) -> None:
    # no collection failure in the report: a property that did not run is "not in JUnit
    # report" as before (exit status 5: no test matched the path)
    stamps_ = stamp(ws, "free-server", "free", "-k", "no_such_test")
    assert {s["note"] for s in stamps_.values()} == {"not in JUnit report"}


def _pair(note: str, exit_code: int | None) -> dict[str, Any]:
    runs = [{"run_id": "l", "server_class": "local-pinned", "outcome": "pass"},
            {"run_id": "f", "server_class": "free-server", "outcome": "resource_exit",
             "exit_code": exit_code, "note": note}]
    return {"test_id": "t", "action": "reject_run_retry_new_id", "status": "rejected",
            "runs": runs, "fixture_sha256": None, "failure_class": "harness_flake",
            "freeze_allowed": False, "fixture_path": None}


@pytest.mark.parametrize(("note", "code", "kind", "advice"), [
    (outcome.collection_note(["tests.test_x"]), 2, "collection", "fix the test collection"),
    ("no JUnit report was written", 4, "no_report", "failed before writing a report"),
    # the plugin route sees no collection failure testcase: exit 2 and never ran
    ("not in JUnit report", 2, "interrupted", "a collection error"),
    ("not in JUnit report", 1, None, "Re-run the free-server stamp job"),
    ("wall-clock limit reached; the process group was killed", None, None,
     "Re-run the free-server stamp job"),
])
def test_the_advice_follows_the_cause(note: str, code: int | None, kind: str | None,
                                      advice: str) -> None:
    pair = _pair(note, code)
    assert review.stuck_kind(typed_run(pair["runs"][1])) == kind
    text = "\n".join(review.next_step(typed_pair(pair), NOW, 30, review.View()))
    assert advice in text
    if kind == "collection":
        assert "Re-run" not in text


def test_junit_parse_finds_collection_failures_only() -> None:
    xml = (b'<testsuites><testsuite name="pytest">'
           b'<testcase classname="" name="tests.test_bad"><error message="collection failure">'
           b'ImportError</error></testcase>'
           b'<testcase classname="t" name="test_a"><error message="failed on setup">x</error>'
           b'</testcase></testsuite></testsuites>')
    assert junit.parse(xml, "r.xml").collection_errors == ("tests.test_bad",)


def test_collection_note_is_bounded() -> None:
    note = outcome.collection_note([f"tests.test_{i}" for i in range(10)])
    assert note.endswith("tests.test_2 and 7 more)")
    assert outcome.from_junit(outcome.ProcessResult(2), (124,), report_found=True, matches=[],
                              report_has_red=True, classname=None, name="test_a",
                              names=[("t", "test_b")], seen=outcome.SEEN_UNKNOWN,
                              collection_errors=["m"]).row == 6
