"""The re-run memory: a full re-run ("Re-run all jobs") never hides a red.

The earlier attempts' stamp artifacts are not listed after a full re-run; their reds come back
from the gate's own check runs (gate/records/memory.py, gate/github/rerun.py, row 2m of
gate/records/pairing.py). GitHub is the HTTP double; the record round-trips any test id.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import re
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.errors import GateInputError
from gate.github import action, checks, review, summary
from gate.records import memory, pairing
from gate.records.files import canonical_json
from tests.core_helpers import FREE, LOCAL, SHA_X, stamp, write_json
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.test_action import _env, _outputs
from tests.typed_report import typed

HEAD = "b" * 40
URL_1 = "https://github.com/acme/widgets/runs/1"
COMMENT = re.compile(r"<!-- agent-patch-gate-memory:v1 [A-Za-z0-9+/=]* -->")


# --- the record ----------------------------------------------------------------------------------


def _record(reds: list[dict[str, str]], **extra: Any) -> dict[str, Any]:
    return {**memory.build("42", 1, HEAD, reds), **extra}


def _red(test_id: str = "t", server_class: str = LOCAL, run_id: str = "l1",
         result: str = "0" * 32) -> dict[str, str]:
    return {"test_id": test_id, "server_class": server_class, "run_id": run_id,
            "result": result}


HOSTILE = st.one_of(
    st.sampled_from(["-->", "--!>", "<!-- x -->", "a\n\n-->\n# heading", "`x`|y|", "\u202e",
                     "*[x](javascript:alert(1))*", "\r\n", "</details>", "&#45;&#45;>"]),
    st.text(min_size=1, max_size=80),
).filter(lambda s: 1 <= len(s) <= 512)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(test_ids=st.lists(HOSTILE, min_size=0, max_size=6))
def test_the_record_round_trips_any_test_id_and_never_leaves_its_comment(
        test_ids: list[str]) -> None:
    reds = [_red(t, run_id=f"r{i}") for i, t in enumerate(test_ids)]
    record = _record(reds)
    comment = memory.encode(record)
    assert COMMENT.fullmatch(comment)  # one line, base64 only: nothing can close it early
    assert comment.count("-->") == 1 and "\n" not in comment
    text = checks.with_memory("### ✅ 1 accepted\n\n- x", comment)
    assert text.endswith("\n\n" + comment)
    assert memory.decode(text) == record
    assert memory.decode(text)["reds"] == sorted(reds, key=lambda r: (r["test_id"],
                                                                     r["server_class"],
                                                                     r["run_id"],
                                                                     r["result"]))


def test_too_many_reds_are_cut_and_marked_truncated() -> None:
    reds = [_red(f"tests/test_{i}.py::test_{i}_" + "x" * 200, run_id=f"r{i:05d}",
                 result=f"{i:032x}") for i in range(3000)]
    comment = memory.encode(_record(reds))
    assert len(comment) <= memory.MAX_COMMENT_BYTES
    back = memory.decode(comment)
    assert back["truncated"] is True and 0 < len(back["reds"]) < 3000


def _comment_of(payload: bytes) -> str:
    return f"<!-- {memory.MARK} {base64.b64encode(payload).decode()} -->"


@pytest.mark.parametrize(("text", "why"), [
    (None, "no gate record"),
    ("", "no gate record"),
    ("### ✅ accepted", "no gate record"),
    (f"<!-- {memory.MARK} !!!! -->", "garbled"),
    (f"<!-- {memory.MARK} QUJD -->", "not base64 of zlib"),
    (_comment_of(zlib.compress(b"{")), "invalid"),
    (_comment_of(zlib.compress(b'{"schema": "gate-rerun-memory/v1"}')), "invalid"),
    (_comment_of(zlib.compress(b" " * (2 << 20))), "oversized"),  # a compression bomb
    (_comment_of(zlib.compress(canonical_json(_record([_red()])))[:-3]), "cut"),
    (memory.encode(_record([_red()])) + "\ntrailing text", "garbled"),
])
def test_a_record_that_cannot_be_read_says_why(text: str | None, why: str) -> None:
    with pytest.raises(memory.RecordProblem) as caught:
        memory.decode(text)
    assert why in caught.value.why


# --- the pairing (row 2m) -----------------------------------------------------------------------


def _loaded(*stamps_: dict[str, Any]) -> list[pairing.Loaded]:
    return [pairing.Loaded(s, f"gate-stamps-{s['server_class']}-x/{s['run_id']}.json")
            for s in stamps_]


def _memo(item: pairing.Loaded, attempt: int = 1) -> memory.Remembered:
    s = item.stamp
    return memory.Remembered(s["test_id"], s["server_class"], s["run_id"],
                             pairing.result_digest(item), attempt, URL_1)


GREEN_2 = [stamp(LOCAL, "pass", run_id="l2", fixture_sha256=SHA_X),
           stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)]
RED_1 = _loaded(stamp(LOCAL, "assert_fail", run_id="l1", fixture_sha256=SHA_X))[0]
FREE_RED_1 = _loaded(stamp(FREE, "assert_fail", run_id="f1", fixture_sha256=SHA_X))[0]


def _decide(now_stamps: list[dict[str, Any]], memos: list[memory.Remembered]
            ) -> pairing.TestDecision:
    (decision,) = pairing.decide_all(_loaded(*now_stamps), [], 0, None, memos)
    return decision


@pytest.mark.parametrize(("now", "action"), [
    # a green now, where attempt 1 was red: the full re-run would have hidden it
    ([stamp(LOCAL, "pass", run_id="l2", fixture_sha256=SHA_X),
      stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)], "reject_duplicate_stamps"),
    # only a discarded run now: the red stands
    ([stamp(LOCAL, "resource_exit", run_id="l2", fixture_sha256=SHA_X),
      stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)], "reject_duplicate_stamps"),
    # another red (another fixture digest: not the same result)
    ([stamp(LOCAL, "assert_fail", run_id="l2", fixture_sha256="d" * 64),
      stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)], "reject_duplicate_stamps"),
    # the same red again: one result seen again, the stamps decide as before
    ([stamp(LOCAL, "assert_fail", run_id="l2", fixture_sha256=SHA_X),
      stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)], "reject_cross_class_pass"),
    # the class is missing now: row 1 still comes first
    ([stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)], "reject_missing_stamp"),
])
def test_a_remembered_red_joins_its_class(now: list[dict[str, Any]], action: str) -> None:
    decision = _decide(now, [_memo(RED_1)])
    entry = decision.entry
    assert entry["action"] == action and entry["status"] == "rejected"
    if action == "reject_duplicate_stamps":
        assert entry["row"] == 2 and entry["gate"] == "pairing"
        assert entry["reason"].startswith(f"attempt 1 was red on local-pinned (check run {URL_1}")
        assert "a full re-run does not hide a red: push a fix" in entry["reason"]
        assert entry["remembered"] == [{"attempt": 1, "server_class": LOCAL, "run_id": "l1",
                                        "check_run_url": URL_1}]
        assert {"run_id": "l1", "server_class": LOCAL, "outcome": "assert_fail",
                "source": f"attempt 1's gate check run {URL_1}"} in entry["runs"]
    # this attempt's record carries the remembered red on (a third attempt still sees it)
    assert RED_1.stamp["run_id"] in {r["run_id"] for r in decision.reds}


def test_a_remembered_red_whose_stamp_is_still_listed_counts_once() -> None:
    """A partial re-run: attempt 1's stamps are listed; its record names the same stamps."""
    now = [RED_1.stamp, stamp(FREE, "pass", run_id="f1", fixture_sha256=SHA_X),
           stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)]
    decision = _decide(now, [_memo(RED_1)])
    assert decision.entry["action"] == "reject_cross_class_pass"
    assert "remembered" not in decision.entry
    assert [r["run_id"] for r in decision.reds] == ["l1"]


def test_a_stamp_of_another_class_reusing_the_run_id_does_not_stand_in_for_the_red() -> None:
    """Review: listed stamps were matched by run id and result alone; a free-server stamp
    saying the same, under the remembered local run id, dropped the local-pinned red."""
    forged = stamp(FREE, "assert_fail", run_id="l1", fixture_sha256=SHA_X)
    assert pairing.result_digest(_loaded(forged)[0]) == pairing.result_digest(RED_1)
    now = [stamp(LOCAL, "pass", run_id="l2", fixture_sha256=SHA_X), forged]
    decision = _decide(now, [_memo(RED_1)])
    assert decision.entry["action"] == "reject_duplicate_stamps"
    assert decision.entry["remembered"][0]["run_id"] == "l1"


def test_a_remembered_free_server_red_allows_a_freeze_words() -> None:
    now = [stamp(LOCAL, "pass", run_id="l2", fixture_sha256=SHA_X),
           stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)]
    entry = _decide(now, [_memo(FREE_RED_1, attempt=2)]).entry
    assert entry["action"] == "reject_duplicate_stamps"
    assert "attempt 2 was red on free-server" in entry["reason"]
    assert "push a fix or freeze it via the allowlist" in entry["reason"]


def test_a_test_only_memory_names_is_decided_and_closed() -> None:
    other = {**RED_1.stamp, "test_id": "gone"}
    (gone, here) = pairing.decide_all(
        _loaded(stamp(LOCAL, "pass", run_id="l2", fixture_sha256=SHA_X),
                stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)),
        [], 0, None, [_memo(_loaded(other)[0])])
    assert gone.test_id == "gone" and gone.entry["action"] == "reject_missing_stamp"
    assert gone.entry["remembered"][0]["run_id"] == "l1"
    assert here.entry["action"] == "accept_candidate"


def test_two_remembered_reds_that_disagree_reject() -> None:
    """Attempt 1 and attempt 2 were red in different ways (full re-runs both): as two
    disagreeing conclusive stamps would, even when this attempt repeats one of them."""
    other = _loaded(stamp(LOCAL, "assert_fail", run_id="l2", fixture_sha256="d" * 64))[0]
    now = [stamp(LOCAL, "assert_fail", run_id="l3", fixture_sha256=SHA_X),
           stamp(FREE, "pass", run_id="f3", fixture_sha256=SHA_X)]
    entry = _decide(now, [_memo(RED_1), _memo(other, attempt=2)]).entry
    assert entry["action"] == "reject_duplicate_stamps"
    assert [m["attempt"] for m in entry["remembered"]] == [1, 2]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(test_id=HOSTILE)
def test_a_hostile_remembered_test_id_gives_a_valid_report_and_is_carried_on(
        test_id: str) -> None:
    from gate.records import load

    memo = memory.Remembered(test_id, LOCAL, "l1", "0" * 32, 1, URL_1)
    decisions = pairing.decide_all(_loaded(*GREEN_2), [], 0, None, [memo])
    report = pairing.build_report(decisions, 0)
    load.check_report(report, "(report)")
    carried = memory.build("42", 2, HEAD, pairing.memory_reds(decisions))
    assert memory.decode(memory.encode(carried))["reds"] == [memo.red()]
    assert report["decision"] == "closed"


_OUTCOMES = st.sampled_from(["pass", "assert_fail", "resource_exit"])
_RANK = {"rejected": 0, "frozen": 1, "accepted": 2}


@settings(max_examples=200, deadline=None)
@given(local=st.lists(_OUTCOMES, max_size=2), free=st.lists(_OUTCOMES, max_size=2),
       memos=st.sets(st.sampled_from(["local", "free"])),
       other_fixture=st.booleans())
def test_memory_never_opens_a_door(local: list[str], free: list[str], memos: set[str],
                                   other_fixture: bool) -> None:
    """Memory only adds reds: whatever the stamps listed now, a decision with remembered reds
    is never more open than the same decision without them (review: the test before could
    not fail, both classes being red already)."""
    fixture = "d" * 64 if other_fixture else SHA_X
    now = ([stamp(LOCAL, o, run_id=f"l{n}", fixture_sha256=fixture)
            for n, o in enumerate(local, start=2)]
           + [stamp(FREE, o, run_id=f"f{n}", fixture_sha256=fixture)
              for n, o in enumerate(free, start=2)])
    if not now:
        return
    remembered = [_memo({"local": RED_1, "free": FREE_RED_1}[m]) for m in sorted(memos)]
    without = _decide(now, []).entry["status"]
    with_memory = _decide(now, remembered).entry["status"]
    assert _RANK[with_memory] <= _RANK[without], (without, with_memory)


def test_the_words_say_which_attempt_was_red_and_link_its_check_run() -> None:
    entry = _decide([stamp(LOCAL, "pass", run_id="l2", fixture_sha256=SHA_X),
                     stamp(FREE, "pass", run_id="f2", fixture_sha256=SHA_X)],
                    [_memo(RED_1)]).entry
    report = pairing.build_report([pairing.TestDecision("t", entry)], 0)
    text = summary.render(typed(report))
    assert (f"attempt 1 was red on local-pinned ([its check run]({URL_1})); a full re-run "
            "does not hide a red: push a fix (a local-pinned red is never frozen).") in text
    assert review.REMEMBERED_WORDS in text
    (note,) = checks.check_annotations(typed(report))
    assert f"Attempt 1 was red on local-pinned (check run {URL_1})" in note["message"]
    (line,) = review.log_lines(typed(report))
    assert "a full re-run does not hide a red" in line


# --- through the action and the HTTP double ----------------------------------------------------


def test_more_reds_than_the_schema_holds_are_cut_not_an_error() -> None:
    """Review: 5,001 reds failed the schema before the record was cut, which made a decided
    gate exit 2 with a record that remembered nothing."""
    reds = [_red(f"t{i}", run_id=f"r{i:05d}", result=f"{i:032x}")
            for i in range(memory.MAX_REDS + 1)]
    back = memory.decode(memory.encode(_record(reds)))
    assert back["truncated"] is True and 0 < len(back["reds"]) <= memory.MAX_REDS


def test_bad_input_after_pairing_still_remembers_the_reds(tmp_path: Path,
                                                          github_double: GitHubDouble) -> None:
    """Review: a receipt error met after the stamps were paired published a record of an
    attempt that "saw no reds"; a full re-run then forgot attempt 1's red."""
    code, _, _ = _attempt(tmp_path, github_double, 1,
                          [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")],
                          GATE_RECEIPT=str(tmp_path / "receipt.json"))
    assert code == 2
    (first,) = github_double.check_runs.values()
    assert first["conclusion"] == "failure"
    record = memory.decode(first["output"]["text"])
    assert record["decided"] is True and [r["run_id"] for r in record["reds"]] == ["l1"]
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert report is not None and report["decision"] == "closed"
    assert report["pairs"][0]["action"] == "reject_duplicate_stamps"


def _attempt(tmp_path: Path, double: GitHubDouble, n: int, stamps_: list[dict[str, Any]],
             **extra: str) -> tuple[int, dict[str, Any] | None, str]:
    """Gate job attempt ``n`` of run 42 with only ``stamps_`` listed (a full re-run lists only
    its own). Returns the exit status (2: GateInputError), the report, the job summary."""
    folder = tmp_path / f"attempt-{n}"
    for s in stamps_:
        write_json(folder / f"gate-stamps-{s['server_class']}-stamp-{n}-0a1b2c3d"
                   / f"{s['run_id']}.json", s)
    (tmp_path / "summary.md").write_text("", encoding="utf-8")
    (tmp_path / "output.txt").write_text("", encoding="utf-8")
    env = _env(tmp_path, **{"GATE_GITHUB_TOKEN": WRITE_TOKEN, "GITHUB_API_URL": double.base_url,
                            "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_SHA": HEAD,
                            "GATE_STAMPS_DIR": str(folder), "GITHUB_RUN_ATTEMPT": str(n),
                            "GATE_FAIL_ON_CLOSED": "false", **extra})
    try:
        code = action.run(env)
    except GateInputError:
        code = 2
    outputs = _outputs(tmp_path / "output.txt")
    report = (json.loads(Path(outputs["report"]).read_text(encoding="utf-8"))
              if outputs.get("report") else None)
    return code, report, (tmp_path / "summary.md").read_text(encoding="utf-8")


def _s(server_class: str, outcome: str, run_id: str) -> dict[str, Any]:
    return stamp(server_class, outcome, run_id=run_id, fixture_sha256=SHA_X)




def _lists(double: GitHubDouble) -> int:
    return double.count("list_check_runs_for_ref")


def test_a_full_re_run_does_not_hide_a_local_pinned_red(tmp_path: Path,
                                                         github_double: GitHubDouble) -> None:
    code, report, _ = _attempt(tmp_path, github_double, 1,
                               [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")])
    assert code == 0 and report is not None and report["decision"] == "closed"
    assert _lists(github_double) == 0  # attempt 1 asks nothing (and finds no marker)
    (first,) = github_double.check_runs.values()
    assert first["conclusion"] == "failure" and first["external_id"] == "42-1-gate"
    record = memory.decode(first["output"]["text"])
    assert [(r["test_id"], r["server_class"], r["run_id"]) for r in record["reds"]] == [
        ("parser_round_trip", LOCAL, "l1")]
    url = f"{github_double.base_url}/acme/widgets/runs/{first['id']}"

    code, report, text = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert report is not None and report["decision"] == "closed"
    (pair,) = report["pairs"]
    assert pair["action"] == "reject_duplicate_stamps"
    assert pair["remembered"] == [{"attempt": 1, "server_class": LOCAL, "run_id": "l1",
                                   "check_run_url": url}]
    assert f"attempt 1 was red on local-pinned ([its check run]({url}))" in text
    assert "1 read, 1 conclusive red remembered" in text
    assert _lists(github_double) == 1
    assert github_double.invalid_requests() == []
    second = next(r for r in github_double.check_runs.values() if r["external_id"] == "42-2-gate")
    assert second["conclusion"] == "failure"
    # attempt 2's record carries attempt 1's red on: a third full re-run still sees it
    assert [r["run_id"] for r in memory.decode(second["output"]["text"])["reds"]] == ["l1"]
    code, report, text = _attempt(tmp_path, github_double, 3,
                                  [_s(LOCAL, "pass", "l3"), _s(FREE, "pass", "f3")])
    assert report is not None and report["decision"] == "closed"
    assert "2 read, 2 conclusive reds remembered" in text
    # the same red in two records is one red (the earliest attempt named)
    assert [m["attempt"] for m in report["pairs"][0]["remembered"]] == [1]


def test_an_inconclusive_red_is_retried_by_a_full_re_run(tmp_path: Path,
                                                          github_double: GitHubDouble) -> None:
    code, report, _ = _attempt(tmp_path, github_double, 1,
                               [_s(LOCAL, "resource_exit", "l1"), _s(FREE, "pass", "f1")])
    assert report is not None and report["decision"] == "closed"
    (first,) = github_double.check_runs.values()
    assert memory.decode(first["output"]["text"])["reds"] == []
    code, report, text = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 0 and report is not None and report["decision"] == "open"
    assert "1 read, 0 conclusive reds remembered" in text


def test_a_partial_re_run_counts_the_listed_red_once(tmp_path: Path,
                                                     github_double: GitHubDouble) -> None:
    first_stamps = [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")]
    _attempt(tmp_path, github_double, 1, first_stamps)
    # Re-run of the free-server leg: attempt 1's artifacts are still listed beside the new one.
    _, report, _ = _attempt(tmp_path, github_double, 2, [*first_stamps, _s(FREE, "pass", "f2")])
    assert report is not None
    (pair,) = report["pairs"]
    assert pair["action"] == "reject_cross_class_pass"  # as without memory: no double count
    assert "remembered" not in pair


def _plant(double: GitHubDouble, external_id: str, conclusion: str, text: str | None) -> str:
    """A check run as an earlier attempt (or anyone with checks: write) left it."""
    with double.client() as gh:
        output: dict[str, Any] = {"title": "t", "summary": "s"}
        if text is not None:
            output["text"] = text
        run = gh.get_repo("acme/widgets").create_check_run(
            name="agent-patch gate", head_sha=HEAD, status="completed", conclusion=conclusion,
            external_id=external_id, output=output)
        return str(run.html_url)


@pytest.mark.parametrize(("text", "why"), [
    (None, "holds no gate record"),
    ("### ✅ 2 accepted\n\n<!-- agent-patch-gate-memory:v1 AAAA -->", "garbled"),
    (memory.encode({**_record([_red()]), "truncated": True}), "marked truncated"),
    (memory.encode(memory.build("41", 1, HEAD, [])), "names run 41 attempt 1"),
    (memory.encode(memory.build("42", 1, "c" * 40, [])), "names the commit cccccccccccc"),
])
def test_an_earlier_failure_without_a_readable_record_closes(
        tmp_path: Path, github_double: GitHubDouble, text: str | None, why: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = _plant(github_double, "42-1-gate", "failure", text)
    code, report, summary_text = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 2 and report is None
    said = capsys.readouterr().out
    assert url in said and why in said and "push a new commit" in said
    assert url in summary_text
    mine = next(r for r in github_double.check_runs.values() if r["external_id"] == "42-2-gate")
    assert mine["conclusion"] == "failure"
    assert memory.decode(mine["output"]["text"])["decided"] is False


def test_other_runs_and_later_attempts_are_ignored(tmp_path: Path,
                                                   github_double: GitHubDouble) -> None:
    garbled = "<!-- agent-patch-gate-memory:v1 AAAA -->"
    red = memory.encode(memory.build("42", 3, HEAD, [_red("parser_round_trip")]))
    _plant(github_double, "43-1-gate", "failure", garbled)  # another workflow run
    _plant(github_double, "42-3-gate", "failure", red)  # a later attempt (not before 2)
    _plant(github_double, "42-1-other-job", "failure", garbled)  # another job
    _plant(github_double, "", "failure", garbled)  # not the gate's
    code, report, text = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 0 and report is not None and report["decision"] == "open"
    assert "0 read, 0 conclusive reds remembered" in text


def test_a_success_without_a_record_saw_no_red(tmp_path: Path,
                                               github_double: GitHubDouble) -> None:
    _plant(github_double, "42-1-gate", "success", "### ✅ 2 accepted")
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 0 and report is not None and report["decision"] == "open"


def test_an_earlier_attempt_that_could_not_decide_remembers_nothing(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    code, _, _ = _attempt(tmp_path, github_double, 1, [])  # no stamps: bad input
    assert code == 2
    (first,) = github_double.check_runs.values()
    assert memory.decode(first["output"]["text"])["decided"] is False
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 0 and report is not None and report["decision"] == "open"


def test_a_token_without_checks_access_says_so_and_the_stamps_decide(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str]) -> None:
    github_double.inject("GET", r"/check-runs$", 403, times=1, body={
        "message": "Resource not accessible by integration", "documentation_url": "x"})
    code, report, text = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 0 and report is not None and report["decision"] == "open"
    assert "not read: the token has no checks access" in text
    assert "not read: the token has no checks access" in capsys.readouterr().out


def test_no_token_on_a_re_run_says_so(tmp_path: Path, github_double: GitHubDouble) -> None:
    code, report, text = _attempt(tmp_path, github_double, 2, GREEN_2, GATE_GITHUB_TOKEN="")
    assert code == 0 and report is not None and report["decision"] == "open"
    assert ("earlier attempts' gate check runs not read (GITHUB_TOKEN not set)"
            in html.unescape(text))
    assert _lists(github_double) == 0


def test_a_listing_that_fails_otherwise_closes(tmp_path: Path, github_double: GitHubDouble,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    github_double.inject("GET", r"/check-runs$", 404, times=1)
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 2 and report is None
    assert "cannot list the earlier attempts' gate check runs" in capsys.readouterr().out


def test_a_listing_longer_than_its_pages_is_an_error(github_double: GitHubDouble) -> None:
    for k in range(3):
        _plant(github_double, f"42-{k + 1}-gate", "success", None)
    settings_ = checks.Settings(token=WRITE_TOKEN, api_url=github_double.base_url,
                                repository="acme/widgets", head_sha=HEAD)
    assert len(checks.list_check_runs(settings_, 1).runs) == 3
    listing = checks.list_check_runs(dataclasses.replace(settings_, name="agent-patch gate"), 1)
    assert listing.error == "" and {r.external_id for r in listing.runs} == {
        "42-1-gate", "42-2-gate", "42-3-gate"}
    for k in range(3, 101):
        _plant(github_double, f"42-{k + 1}-gate", "success", None)
    listing = checks.list_check_runs(settings_, 1)
    assert listing.error == "more than 100 check runs named 'agent-patch gate' on the commit"
    assert github_double.invalid_requests() == []


# --- bad input before the pairing still records the reds that validated (issue 20.4) ----------


def _junk(tmp_path: Path, n: int) -> None:
    """What a test can drop into its own stamp folder: any ``*.json`` is read as a stamp."""
    junk = (tmp_path / f"attempt-{n}" / f"gate-stamps-{LOCAL}-stamp-{n}-0a1b2c3d" / "junk.json")
    junk.parent.mkdir(parents=True, exist_ok=True)
    junk.write_text('{"not": "a stamp"}', encoding="utf-8")


def test_a_junk_file_beside_a_red_does_not_let_a_full_re_run_forget_it(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    """Review (issue 20.4): one malformed file made attempt 1 exit 2 with a record of no reds,
    although it had read a valid local-pinned assert_fail; the full re-run then opened."""
    _junk(tmp_path, 1)
    code, report, _ = _attempt(tmp_path, github_double, 1,
                               [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")])
    assert code == 2 and report is None
    (first,) = github_double.check_runs.values()
    assert first["conclusion"] == "failure"
    record = memory.decode(first["output"]["text"])
    assert record["decided"] is False
    assert [(r["server_class"], r["run_id"]) for r in record["reds"]] == [(LOCAL, "l1")]
    code, report, text = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert report is not None and report["decision"] == "closed"
    (pair,) = report["pairs"]
    assert pair["action"] == "reject_duplicate_stamps"
    assert [m["attempt"] for m in pair["remembered"]] == [1]
    assert "1 read, 1 conclusive red remembered" in text
    # attempt 2's record carries it on: a third full re-run still sees it
    second = next(r for r in github_double.check_runs.values() if r["external_id"] == "42-2-gate")
    assert [r["run_id"] for r in memory.decode(second["output"]["text"])["reds"]] == ["l1"]
    assert github_double.invalid_requests() == []


def test_a_forks_local_pinned_stamp_does_not_erase_the_trusted_red(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    """Review (issue 20.4): a fork's free-server artifact holding a local-pinned stamp is bad
    input; the trusted run's own local-pinned red, read before it, must still be recorded."""
    from tests.test_action import _workflow_run

    fork = _workflow_run(tmp_path)
    trusted = tmp_path / "trusted"
    write_json(trusted / f"gate-stamps-{LOCAL}-stamp-local-1-0a1b2c3d" / "l1.json",
               _s(LOCAL, "assert_fail", "l1"))
    code, report, _ = _attempt(tmp_path, github_double, 1,
                               [_s(FREE, "pass", "f1"), _s(LOCAL, "pass", "forged")], **fork)
    assert code == 2 and report is None
    (first,) = github_double.check_runs.values()
    assert first["head_sha"] == "d" * 40  # the pull request's head, from the event
    record = memory.decode(first["output"]["text"])
    assert record["decided"] is False
    assert [(r["server_class"], r["run_id"]) for r in record["reds"]] == [(LOCAL, "l1")]
    trusted_2 = tmp_path / "trusted-2"
    write_json(trusted_2 / f"gate-stamps-{LOCAL}-stamp-local-2-0a1b2c3d" / "l2.json",
               _s(LOCAL, "pass", "l2"))
    code, report, _ = _attempt(tmp_path, github_double, 2, [_s(FREE, "pass", "f2")],
                               **{**fork, "GATE_TRUSTED_STAMPS_DIR": str(trusted_2)})
    assert report is not None and report["decision"] == "closed"
    assert report["pairs"][0]["action"] == "reject_duplicate_stamps"
    assert github_double.invalid_requests() == []


def test_an_undecided_record_holding_a_red_keeps_later_attempts_closed(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    """The reader's half: a record with ``decided: false`` and a readable red (from any writer)
    is remembered like a decided one (it only ever adds reds)."""
    red = pairing.result_digest(_loaded(_s(LOCAL, "assert_fail", "l1"))[0])
    record = memory.build("42", 1, HEAD, [_red("parser_round_trip", run_id="l1", result=red)],
                          decided=False)
    _plant(github_double, "42-1-gate", "failure", "### could not decide\n\n"
           + memory.encode(record))
    code, report, text = _attempt(tmp_path, github_double, 2, GREEN_2)
    assert code == 0 and report is not None and report["decision"] == "closed"
    assert report["pairs"][0]["action"] == "reject_duplicate_stamps"
    assert "1 read, 1 conclusive red remembered" in text


def test_a_settings_error_still_records_the_reds_in_the_stamp_folders(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    """Bad input met before anything was read (here an action input) records the reds too."""
    code, _, _ = _attempt(tmp_path, github_double, 1,
                          [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")],
                          GATE_NOW="soon")
    assert code == 2
    (first,) = github_double.check_runs.values()
    record = memory.decode(first["output"]["text"])
    assert record["decided"] is False and [r["run_id"] for r in record["reds"]] == ["l1"]


def test_salvage_keeps_every_red_that_validates_and_skips_the_rest(tmp_path: Path) -> None:
    """pairing.salvage_reds never raises: junk, a link, a non-UTF-8 name, a stamp that fails
    its schema, an unreadable folder and a missing folder are passed over; every valid
    assert_fail stamp is kept (two run ids with different content both), nothing else."""
    import os

    base = tmp_path / "stamps"
    art = base / f"gate-stamps-{LOCAL}-x"
    write_json(art / "a.json", _s(LOCAL, "assert_fail", "l1"))
    write_json(art / "b.json", _s(LOCAL, "pass", "l2"))
    write_json(art / "c.json", {**_s(LOCAL, "assert_fail", "l3"), "outcome": "nope"})
    write_json(art / "d.json", _s(FREE, "resource_exit", "f1"))
    write_json(base / "elsewhere" / "deep" / "e.json", _s(FREE, "assert_fail", "f2"))
    write_json(base / "dup" / "e2.json", {**_s(FREE, "assert_fail", "f2"),
                                          "fixture_sha256": "d" * 64})
    (art / "junk.json").write_bytes(b"\xff{")
    (art / "link.json").symlink_to(art / "a.json")
    (base / "linked").symlink_to(art)
    os.mkdir(os.fsencode(art) + b"/\xff")
    write_json(Path(os.fsdecode(os.fsencode(art) + b"/\xff")) / "x.json",
               _s(LOCAL, "assert_fail", "hidden"))
    (art / "notes.txt").write_text("x", encoding="utf-8")
    got = pairing.salvage_reds([base, tmp_path / "missing", base / "linked"])
    assert sorted((r["server_class"], r["run_id"]) for r in got) == [
        (FREE, "f2"), (FREE, "f2"), (LOCAL, "l1")]
    assert len({r["result"] for r in got if r["run_id"] == "f2"}) == 2
    assert memory.decode(memory.encode(_record(got)))["reds"]  # record entries, schema-valid
