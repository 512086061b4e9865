"""The optional pull-request comment, through the GitHub HTTP double (issue-comment endpoints
validated against the vendored OpenAPI subset): one comment per check name, updated in place,
degrading to a log line without ``pull-requests: write``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.github import action, comment, publish
from gate.github import checks as checks_mod
from tests import golden_cases as g
from tests.core_helpers import FREE, LOCAL, NOW, SHA_X, stamp, write_json
from tests.github_double import READ_ONLY_TOKEN, WRITE_TOKEN, GitHubDouble
from tests.test_review_golden import check_golden
from tests.typed_report import typed


def _env(tmp_path: Path, double: GitHubDouble, token: str = WRITE_TOKEN,
         **extra: str) -> dict[str, str]:
    (tmp_path / "runner").mkdir(exist_ok=True)
    event = write_json(tmp_path / "event.json",
                       {"pull_request": {"number": 7, "head": {"sha": "c" * 40}}})
    env = {"RUNNER_TEMP": str(tmp_path / "runner"), "GITHUB_OUTPUT": str(tmp_path / "out.txt"),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "GITHUB_JOB": "gate",
           "GITHUB_RUN_ATTEMPT": "1", "GITHUB_RUN_ID": "42", "GATE_MODE": "gate",
           "GATE_STAMPS_DIR": str(tmp_path / "stamps"), "GATE_NOW": str(NOW),
           "GATE_GITHUB_TOKEN": token, "GITHUB_API_URL": double.base_url,
           "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_SHA": "b" * 40,
           "GITHUB_EVENT_PATH": str(event)}
    env.update(extra)
    return env


def _stamps(tmp_path: Path, local: str, free: str) -> None:
    for name in ("l.json", "f.json"):
        (tmp_path / "stamps").mkdir(exist_ok=True)
        for old in (tmp_path / "stamps").rglob(name):
            old.unlink()
    write_json(tmp_path / "stamps" / "gate-stamps-local-pinned-stamp-1-0a1b2c3d" / "l.json",
               stamp(LOCAL, local, run_id="l1", fixture_sha256=SHA_X))
    write_json(tmp_path / "stamps" / "gate-stamps-free-server-stamp-1-4e5f6a7b" / "f.json",
               stamp(FREE, free, run_id="f1", fixture_sha256=SHA_X))


def test_one_comment_per_check_name_updated_in_place(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str]) -> None:
    _stamps(tmp_path, "pass", "assert_fail")
    env = _env(tmp_path, github_double, GATE_COMMENT="on-red")
    assert action.run(env) == 1
    (first,) = github_double.comments.values()
    assert first["issue_number"] == 7
    assert first["body"].startswith("<!-- agent-patch-gate:agent-patch gate -->\n")
    assert "parser&#95;round&#95;trip" in first["body"] and "**Next step:**" in first["body"]
    assert "gate: pull-request comment created: http" in capsys.readouterr().out
    # a second run (now green) updates the same comment; a second check name gets its own
    _stamps(tmp_path, "pass", "pass")
    assert action.run(env) == 0
    (again,) = github_double.comments.values()
    assert again["id"] == first["id"] and "all 1 tests green" in again["body"]
    assert "gate: pull-request comment updated: " in capsys.readouterr().out
    assert action.run({**env, "GATE_CHECK_NAME": "other gate", "GATE_COMMENT": "always"}) == 0
    assert len(github_double.comments) == 2
    assert github_double.invalid_requests() == []
    assert github_double.count("create_issue_comment") == 2
    assert github_double.count("update_issue_comment") == 1


def test_on_red_with_a_green_gate_creates_nothing(tmp_path: Path,
                                                  github_double: GitHubDouble) -> None:
    _stamps(tmp_path, "pass", "pass")
    assert action.run(_env(tmp_path, github_double, GATE_COMMENT="on-red")) == 0
    assert github_double.comments == {}
    assert github_double.count("create_issue_comment") == 0
    assert github_double.invalid_requests() == []


def test_off_by_default_makes_no_request(tmp_path: Path, github_double: GitHubDouble) -> None:
    _stamps(tmp_path, "pass", "assert_fail")
    assert action.run(_env(tmp_path, github_double)) == 1
    assert github_double.count("list_issue_comments") == 0
    assert github_double.comments == {}


def test_without_pull_requests_write_one_log_line(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str]) -> None:
    _stamps(tmp_path, "pass", "assert_fail")
    env = _env(tmp_path, github_double, token=READ_ONLY_TOKEN, GATE_COMMENT="always")
    assert action.run(env) == 1  # the decision stands
    assert github_double.comments == {}
    said = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("gate: pull-request comment not posted")]
    assert len(said) == 1 and "pull-requests: write" in said[0]
    assert github_double.invalid_requests() == []


def test_not_a_pull_request(tmp_path: Path, github_double: GitHubDouble) -> None:
    env = _env(tmp_path, github_double)
    del env["GITHUB_EVENT_PATH"]
    said = publish.post_comment(typed(g.one_of_each()), env, name="x", mode="always")
    assert said == "gate: no pull-request comment: this run is not for a pull request"
    assert github_double.requests == []


def test_bad_comment_input_is_bad_input(tmp_path: Path, github_double: GitHubDouble) -> None:
    with pytest.raises(action.GateInputError) as caught:
        action.run(_env(tmp_path, github_double, GATE_COMMENT="sometimes"))
    assert caught.value.field == "(input)" and caught.value.source == "comment"


def test_marker_cannot_close_the_html_comment() -> None:
    assert comment.marker("agent-patch gate (example)") == (
        "<!-- agent-patch-gate:agent-patch gate (example) -->")
    hostile = comment.marker("x --> <script> -- y\n")
    assert hostile.count("-->") == 1 and hostile.endswith(" -->") and "<script" not in hostile
    assert "--" not in hostile[4:-3]


def test_action_modes() -> None:
    red, green = g.one_of_each(), g.all_green()
    assert [comment.action(m, typed(red)) for m in comment.MODES] == ["none", "create", "create"]
    assert [comment.action(m, typed(green)) for m in comment.MODES] == ["none", "update", "create"]


@pytest.mark.parametrize("case", ["all-green", "one-of-each", "broken-stamp-run",
                                  "collection-error", "junit-route"])
def test_golden_comment(case: str) -> None:
    report = {"all-green": g.all_green, "one-of-each": g.one_of_each,
              "broken-stamp-run": g.broken_stamp_run, "collection-error": g.collection_error,
              "junit-route": g.junit_route}[case]()
    text = comment.body(typed(report), "agent-patch gate", g.VIEW)
    check_golden(f"{case}/pr-comment.md", text)
    assert len(text) <= 65_536


def test_comment_at_ten_thousand_properties_is_bounded() -> None:
    text = comment.body(typed(g.many(10_000)), "agent-patch gate", g.VIEW)
    assert len(text.encode()) <= comment.MAX_BYTES
    assert text.count("#### ❌") == 20 and "9980 accepted tests" in text


def test_upsert_ignores_a_comment_that_only_quotes_the_marker(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    settings = checks_mod.Settings(token=WRITE_TOKEN, api_url=github_double.base_url,
                                   repository="acme/widgets", head_sha="b" * 40)
    mark = comment.marker("agent-patch gate")
    quoted = checks_mod.upsert_comment(settings, 7, "> " + mark, "> " + mark + "\nhi")
    assert quoted.posted and quoted.created
    mine = checks_mod.upsert_comment(settings, 7, mark, mark + "\nbody")
    assert mine.created  # the quoting comment was not taken for ours
    again = checks_mod.upsert_comment(settings, 7, mark, mark + "\nbody 2")
    assert again.posted and not again.created
    bodies = {c["body"] for c in github_double.comments.values()}
    assert bodies == {"> " + mark + "\nhi", mark + "\nbody 2"}
    assert json.dumps(github_double.invalid_requests()) == "[]"


@pytest.mark.parametrize(("event", "number"), [
    ({"pull_request": {"number": 7}}, 7),
    ({"workflow_run": {"pull_requests": [{"number": 9}]}}, 9),
    ({"workflow_run": {"pull_requests": []}}, None),  # a fork's pull request: none listed
    ({"workflow_run": {"pull_requests": [{"number": 9}, {"number": 10}]}}, None),
    ({"workflow_run": {"pull_requests": [{"number": True}]}}, None),
])
def test_the_pull_request_comes_from_the_event(tmp_path: Path, event: dict[str, Any],
                                               number: int | None) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    assert publish.pr_number({"GITHUB_EVENT_PATH": str(path)}) == number
