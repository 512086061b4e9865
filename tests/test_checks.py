"""Publishing the check run with real PyGithub against the GitHub API double (no mocks)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gate.github import checks, markdown
from gate.github.checks import Settings
from gate.records import schemas
from tests.github_double import READ_ONLY_TOKEN, WRITE_TOKEN, GitHubDouble, RequestRecord
from tests.test_summary import hostile_report, make_pair, make_report
from tests.typed_report import typed

HEAD = "c0ffee" + "0" * 34
EXTERNAL_ID = "123-1-gate"


class TimedDouble(GitHubDouble):
    """The double, also recording a monotonic time for every request it answers."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.times: list[float] = []

    def _record(self, record: RequestRecord) -> None:
        self.times.append(time.monotonic())
        super()._record(record)


@pytest.fixture
def timed_double() -> Iterator[TimedDouble]:
    double = TimedDouble()
    double.start()
    try:
        yield double
    finally:
        double.stop()


def settings(double: GitHubDouble, tmp_path: Path | None = None, **kw: Any) -> Settings:
    base: dict[str, Any] = {
        "token": WRITE_TOKEN, "api_url": double.base_url, "repository": "o/r",
        "head_sha": HEAD, "external_id": EXTERNAL_ID, "backoff": 0.0, "max_wait": 5.0,
        "timeout": 5, "state_dir": tmp_path,
    }
    base.update(kw)
    return Settings(**base)


def ops(double: GitHubDouble) -> list[tuple[str | None, int | None]]:
    return [(r.operation, r.status) for r in double.requests]


def updates_for(n: int) -> int:
    return max(0, math.ceil((n - 50) / 50))


# -- request counts ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 50, 51, 500])
def test_annotation_batches_exact_request_counts(
    github_double: GitHubDouble, tmp_path: Path, n: int
) -> None:
    rep = make_report(rejected=n, accepted=3)
    schemas.validate("report", rep, "test")
    result = checks.publish(typed(rep), settings(github_double, tmp_path))
    assert result.published, result.reason
    assert result.created and result.annotations_sent == n == result.annotations_total
    assert github_double.count("create_check_run") == 1
    assert github_double.count("update_check_run") == updates_for(n)
    assert len(github_double.requests) == 1 + updates_for(n) == checks.expected_requests(n)
    assert github_double.invalid_requests() == []
    (run,) = github_double.check_runs.values()
    assert len(run["annotations"]) == n
    assert run["external_id"] == EXTERNAL_ID and run["head_sha"] == HEAD
    assert run["name"] == "agent-patch gate"
    assert run["conclusion"] == ("failure" if n else "success")
    assert run["output"]["title"] == f"{'closed' if n else 'open'}: {n} rejected, 0 frozen, " \
                                     "3 accepted"
    assert [a["annotation_level"] for a in run["annotations"]] == ["failure"] * n
    assert result.url == f"{github_double.base_url}/o/r/runs/{result.check_run_id}"
    for request in github_double.requests[1:]:  # later batches keep the output intact
        assert len(request.body["output"]["annotations"]) == 50 or request is \
            github_double.requests[-1]


def test_without_state_dir_one_read_before_create(github_double: GitHubDouble) -> None:
    result = checks.publish(typed(make_report(rejected=120)), settings(github_double, None))
    assert result.published
    assert ops(github_double) == [("list_check_runs_for_ref", 200), ("create_check_run", 201),
                                  ("update_check_run", 200), ("update_check_run", 200)]
    query = github_double.requests[0].query
    assert query["check_name"] == ["agent-patch gate"] and query["filter"] == ["all"]
    assert github_double.invalid_requests() == []


@pytest.mark.parametrize(("counts", "conclusion"), [
    ({"accepted": 2}, "success"), ({"accepted": 1, "frozen": 1}, "neutral"),
    ({"rejected": 1, "frozen": 1}, "failure"), ({}, "failure"),
])
def test_conclusion(github_double: GitHubDouble, tmp_path: Path, counts: dict[str, int],
                    conclusion: str) -> None:
    rep = make_report(rejected=counts.get("rejected", 0), frozen=counts.get("frozen", 0),
                      accepted=counts.get("accepted", 0))
    assert checks.publish(typed(rep), settings(github_double, tmp_path)).published
    (run,) = github_double.check_runs.values()
    assert run["conclusion"] == conclusion
    levels = sorted(a["annotation_level"] for a in run["annotations"])
    assert levels == sorted(["failure"] * counts.get("rejected", 0)
                            + ["warning"] * counts.get("frozen", 0))


def test_annotation_placement(tmp_path: Path) -> None:
    pairs = [make_pair(0, location={"path": "/ws/tests/test_a.py", "line": 12}),
             make_pair(1, test_id="tests/test_b.py::test_x"),
             make_pair(2, test_id="free text id", status="frozen"),
             make_pair(3, location={"path": "../../etc/passwd", "line": 3},
                       test_id="also::weird")]
    notes = checks.check_annotations(typed(make_report(pairs=pairs)), workspace="/ws")
    where = [(n["path"], n["start_line"], n["annotation_level"]) for n in notes]
    assert where == [("tests/test_a.py", 12, "failure"), ("tests/test_b.py", 1, "failure"),
                     (".github/gate-policy.yml", 1, "failure"),
                     (".github/gate-policy.yml", 1, "warning")]  # rejected first, then frozen


# -- limits ---------------------------------------------------------------------------------------


def test_summary_and_text_past_the_limit_are_cut(github_double: GitHubDouble,
                                                 tmp_path: Path) -> None:
    pairs = [make_pair(i, test_id=f"tests/{'😀' * 400}{i}", reason="é" * 4000,
                       fixture_path="f/" + "ü" * 4000) for i in range(400)]
    rep = make_report(pairs=pairs)
    schemas.validate("report", rep, "big")
    p = checks.plan(typed(rep), settings(github_double, tmp_path))
    assert markdown.utf8_len(p.summary) <= 65535 and markdown.utf8_len(p.text) <= 65535
    assert "more red tests are not shown here (size limit)" in p.summary
    # two red blocks, each with its next step and the required lines in words (issue 29)
    assert markdown.utf8_len(checks.check_summary(typed(make_report(rejected=2)))) < 3000
    result = checks.publish(typed(rep), settings(github_double, tmp_path))
    assert result.published and result.annotations_sent == 400
    assert github_double.invalid_requests() == []
    (run,) = github_double.check_runs.values()
    assert len(run["annotations"]) == 400
    for note in run["annotations"]:
        assert len(note["title"]) <= 255
        assert len(note["message"].encode()) <= 64 * 1024


def test_hundred_kb_hostile_strings_accepted_by_the_api(github_double: GitHubDouble,
                                                        tmp_path: Path) -> None:
    big = "::error::x\n%0A|<script>`" * 4000  # ~100 KB, past every API limit
    rep = make_report(pairs=[make_pair(0, test_id=big, reason=big, fixture_path=big,
                                       location={"path": big, "line": 1}),
                             make_pair(1, status="frozen", test_id="😀" * 300)])
    result = checks.publish(typed(rep), settings(github_double, tmp_path))
    assert result.published, result.reason
    assert github_double.invalid_requests() == []
    (run,) = github_double.check_runs.values()
    assert len(run["output"]["summary"].encode()) <= 65535
    assert [n["path"] for n in run["annotations"]] == [".github/gate-policy.yml"] * 2


def test_hostile_report_published(github_double: GitHubDouble, tmp_path: Path) -> None:
    rep = hostile_report()
    result = checks.publish(typed(rep), settings(github_double, tmp_path))
    assert result.published, result.reason
    assert github_double.invalid_requests() == []
    (run,) = github_double.check_runs.values()
    output = run["output"]["summary"] + run["output"].get("text", "")
    prose = "\n".join(output.split("```")[::2])  # outside the fenced blocks
    for bad in ("<script", "<img", "\u202e", "\u2028", "[link]", "![img]"):
        assert bad not in prose
    heads = [line for line in run["output"]["summary"].split("\n") if line.startswith("#### ")]
    assert len(heads) == sum(p["status"] != "accepted" for p in rep["pairs"])
    for note in run["annotations"]:
        assert ".." not in note["path"].split("/")


# -- errors and retries ---------------------------------------------------------------------------


def test_read_only_token_degrades_in_one_line(github_double: GitHubDouble,
                                              tmp_path: Path) -> None:
    rep = make_report(rejected=2)
    result = checks.publish(typed(rep), settings(github_double, tmp_path, token=READ_ONLY_TOKEN))
    assert not result.published
    assert "checks: write" in result.reason and "\n" not in result.reason
    assert github_double.count("create_check_run") == 1  # a plain 403 is never retried
    assert github_double.check_runs == {}
    assert github_double.invalid_requests() == []
    assert rep["decision"] == "closed"  # untouched


@pytest.mark.parametrize(("status", "words"), [(401, "refused"), (404, "not found"),
                                               (422, "HTTP 422")])
def test_other_4xx_give_up_without_retry(github_double: GitHubDouble, tmp_path: Path,
                                         status: int, words: str) -> None:
    github_double.inject(operation="create_check_run", status=status)
    result = checks.publish(typed(make_report(rejected=1)), settings(github_double, tmp_path))
    assert not result.published and words in result.reason
    assert github_double.count("create_check_run") == 1
    assert len(github_double.requests) == 1


def test_bad_token_is_401(github_double: GitHubDouble, tmp_path: Path) -> None:
    result = checks.publish(typed(make_report(rejected=1)), settings(github_double, tmp_path,
                                                              token="ghs_wrong"))
    assert not result.published and "401" in result.reason
    assert len(github_double.requests) == 1


def test_502_then_success(github_double: GitHubDouble, tmp_path: Path) -> None:
    github_double.inject("POST", r"/check-runs$", 502)
    result = checks.publish(typed(make_report(rejected=60)), settings(github_double, tmp_path))
    assert result.published and result.attempts == 2
    # the failed create may have been applied: look (one read), then create
    assert ops(github_double) == [("create_check_run", 502), ("list_check_runs_for_ref", 200),
                                  ("create_check_run", 201), ("update_check_run", 200)]
    assert len(github_double.check_runs) == 1
    (run,) = github_double.check_runs.values()
    assert len(run["annotations"]) == 60
    assert github_double.invalid_requests() == []


def test_502_on_an_update_resumes_without_duplicate_annotations(
    github_double: GitHubDouble, tmp_path: Path
) -> None:
    github_double.inject("PATCH", status=502)
    result = checks.publish(typed(make_report(rejected=130)), settings(github_double, tmp_path))
    assert result.published
    (run,) = github_double.check_runs.values()
    assert len(run["annotations"]) == 130
    messages = [a["message"] for a in run["annotations"]]
    assert len(set(messages)) == 130
    assert github_double.count("list_check_runs_for_ref") == 1
    assert github_double.invalid_requests() == []


def test_secondary_rate_limit_retry_after_is_honoured(timed_double: TimedDouble,
                                                      tmp_path: Path) -> None:
    timed_double.inject_secondary_rate_limit("POST", r"/check-runs$", retry_after=1)
    result = checks.publish(typed(make_report(rejected=1)), settings(timed_double, tmp_path))
    assert result.published
    assert ops(timed_double) == [("create_check_run", 403), ("create_check_run", 201)]
    assert timed_double.times[1] - timed_double.times[0] >= 1.0
    assert len(timed_double.check_runs) == 1
    assert timed_double.invalid_requests() == []


def test_429_on_update_with_retry_after_is_honoured(timed_double: TimedDouble,
                                                    tmp_path: Path) -> None:
    timed_double.inject_secondary_rate_limit("PATCH", retry_after=1, status=429)
    result = checks.publish(typed(make_report(rejected=70)), settings(timed_double, tmp_path))
    assert result.published
    assert ops(timed_double) == [("create_check_run", 201), ("update_check_run", 429),
                                 ("update_check_run", 200)]
    assert timed_double.times[2] - timed_double.times[1] >= 1.0
    (run,) = timed_double.check_runs.values()
    assert len(run["annotations"]) == 70


def test_retry_after_longer_than_allowed_gives_up(github_double: GitHubDouble,
                                                  tmp_path: Path) -> None:
    github_double.inject_secondary_rate_limit("POST", r"/check-runs$", retry_after=3600)
    result = checks.publish(typed(make_report(rejected=1)), settings(github_double, tmp_path,
                                                              max_wait=2.0))
    assert not result.published and "3600" in result.reason
    assert github_double.count("create_check_run") == 1


def test_5xx_burst_beyond_the_budget_gives_up(github_double: GitHubDouble,
                                              tmp_path: Path) -> None:
    github_double.inject(operation="create_check_run", status=500, times=None)
    waits: list[float] = []
    result = checks.publish(typed(make_report(rejected=1)),
                            settings(github_double, tmp_path, max_retries=2, backoff=0.5),
                            sleep=waits.append)
    assert not result.published
    assert "gave up after 3 attempts" in result.reason and "500" in result.reason
    assert github_double.count("create_check_run") == 3
    assert github_double.count("list_check_runs_for_ref") == 2
    assert waits == [0.5, 1.0]  # exponential back-off between attempts
    assert github_double.check_runs == {}
    assert github_double.invalid_requests() == []


def test_5xx_on_reads_is_bounded(github_double: GitHubDouble) -> None:
    github_double.inject("GET", status=503, times=None)
    result = checks.publish(typed(make_report(rejected=1)), settings(github_double, None,
                                                              max_retries=2))
    assert not result.published
    assert github_double.count("list_check_runs_for_ref") == 3 * 3  # urllib3 x our loop
    assert github_double.count("create_check_run") == 0


def test_unreachable_api_degrades(tmp_path: Path) -> None:
    with GitHubDouble() as double:
        url = double.base_url
    s = Settings(token=WRITE_TOKEN, api_url=url, repository="o/r", head_sha=HEAD,
                 external_id=EXTERNAL_ID, backoff=0.0, max_retries=1, timeout=2,
                 state_dir=tmp_path)
    result = checks.publish(typed(make_report(rejected=1)), s)
    assert not result.published and "connection" in result.reason


# -- idempotency ----------------------------------------------------------------------------------


def test_dropped_create_then_retried_publish_creates_once(github_double: GitHubDouble,
                                                          tmp_path: Path) -> None:
    github_double.inject("POST", r"/check-runs$", drop=True)
    rep = make_report(rejected=3)
    first = checks.publish(typed(rep), settings(github_double, tmp_path, max_retries=0))
    assert not first.published and "connection" in first.reason
    second = checks.publish(typed(rep), settings(github_double, tmp_path, max_retries=0))
    assert second.published and second.created
    assert ops(github_double) == [("create_check_run", None), ("list_check_runs_for_ref", 200),
                                  ("create_check_run", 201)]
    assert len(github_double.check_runs) == 1
    assert github_double.invalid_requests() == []


def _wait_for_runs(double: GitHubDouble, n: int) -> None:
    deadline = time.monotonic() + 5
    while len(double.check_runs) < n and time.monotonic() < deadline:
        time.sleep(0.02)


def test_applied_create_with_lost_response_is_updated_not_duplicated(
    github_double: GitHubDouble, tmp_path: Path
) -> None:
    # the double applies the create after the client has timed out: GitHub holds a run we
    # never heard about
    github_double.inject("POST", r"/check-runs$", delay=1.3)
    rep = make_report(rejected=80)
    first = checks.publish(typed(rep), settings(github_double, tmp_path, max_retries=0, timeout=1))
    assert not first.published
    _wait_for_runs(github_double, 1)
    second = checks.publish(typed(rep), settings(github_double, tmp_path, max_retries=0))
    assert second.published and not second.created
    assert len(github_double.check_runs) == 1
    (run,) = github_double.check_runs.values()
    assert len(run["annotations"]) == 80  # 50 from the lost create + 30, no duplicates
    assert run["conclusion"] == "failure"
    assert [op for op, _ in ops(github_double)] == [
        "create_check_run", "list_check_runs_for_ref", "update_check_run"]
    assert github_double.invalid_requests() == []


def test_timeout_within_one_publish_resumes(github_double: GitHubDouble, tmp_path: Path) -> None:
    github_double.inject("POST", r"/check-runs$", delay=1.3)
    result = checks.publish(typed(make_report(rejected=10)),
                            settings(github_double, tmp_path, timeout=1, backoff=1.0))
    assert result.published and not result.created
    assert len(github_double.check_runs) == 1
    (run,) = github_double.check_runs.values()
    assert len(run["annotations"]) == 10


def test_republish_same_attempt_updates(github_double: GitHubDouble, tmp_path: Path) -> None:
    rep = make_report(rejected=2)
    assert checks.publish(typed(rep), settings(github_double, tmp_path)).created
    again = checks.publish(typed(rep), settings(github_double, tmp_path))
    assert again.published and not again.created
    (run,) = github_double.check_runs.values()
    assert len(run["annotations"]) == 2
    other = checks.publish(typed(rep), settings(github_double, tmp_path, external_id="123-2-gate"))
    assert other.created and len(github_double.check_runs) == 2


def test_ghes_base_url(github_double: GitHubDouble, tmp_path: Path) -> None:
    result = checks.publish(typed(make_report(rejected=55)),
                            settings(github_double, tmp_path, api_url=github_double.ghes_base_url))
    assert result.published
    assert [r.prefix for r in github_double.requests] == ["/api/v3", "/api/v3"]
    assert github_double.invalid_requests() == []


# -- the CLI and imports -----------------------------------------------------------------------


def _run_cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = ("import sys\n"
            "from gate.commands import main as cli\n"
            "sys.exit(cli.main(sys.argv[1:]))\n")
    full = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(Path.cwd()), **env}
    return subprocess.run([sys.executable, "-c", code, *args], env=full, text=True,
                          capture_output=True, timeout=60, check=False)


def test_gate_publish_command(github_double: GitHubDouble, tmp_path: Path) -> None:
    rep_path = tmp_path / "report.json"
    rep_path.write_text(json.dumps(make_report(rejected=1, accepted=1)))
    event = tmp_path / "event.json"
    pr_head = "d" * 40
    event.write_text(json.dumps({"pull_request": {"head": {"sha": pr_head}}}))
    out, summ = tmp_path / "out.txt", tmp_path / "summary.md"
    env = {"GITHUB_TOKEN": WRITE_TOKEN, "GITHUB_API_URL": github_double.base_url,
           "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": "e" * 40, "GITHUB_EVENT_PATH": str(event),
           "GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_JOB": "gate",
           "RUNNER_TEMP": str(tmp_path), "GITHUB_OUTPUT": str(out),
           "GITHUB_STEP_SUMMARY": str(summ), "GITHUB_SERVER_URL": "https://github.com"}
    proc = _run_cli(["publish", "--report", str(rep_path), "--summary"], env)
    assert proc.returncode == 1, proc.stderr  # closed
    (run,) = github_double.check_runs.values()
    assert run["head_sha"] == pr_head and run["external_id"] == "77-2-gate"
    assert run["details_url"] == "https://github.com/o/r/actions/runs/77"
    assert proc.stdout.strip() == f"{github_double.base_url}/o/r/runs/1"
    assert "check-run-url<<ghadelimiter_" in out.read_text()
    assert "[details](" in summ.read_text()


def test_gate_publish_read_only_degrades(github_double: GitHubDouble, tmp_path: Path) -> None:
    rep_path = tmp_path / "report.json"
    rep_path.write_text(json.dumps(make_report(rejected=12, frozen=1)))
    summ = tmp_path / "summary.md"
    env = {"GITHUB_TOKEN": READ_ONLY_TOKEN, "GITHUB_API_URL": github_double.base_url,
           "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": HEAD, "GITHUB_STEP_SUMMARY": str(summ)}
    proc = _run_cli(["publish", "--report", str(rep_path), "--summary"], env)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("check run not published: the token lacks checks: write")
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert sum(line.startswith("::warning ") for line in lines) == 2  # the note + 1 frozen
    assert any("2 errors not shown" in line for line in lines)
    assert "> **Note:** check run not published: the token lacks checks: write" in \
        summ.read_text()


def test_gate_publish_open_and_bad_input(github_double: GitHubDouble, tmp_path: Path) -> None:
    rep_path = tmp_path / "report.json"
    rep_path.write_text(json.dumps(make_report(accepted=2)))
    env = {"GITHUB_TOKEN": WRITE_TOKEN, "GITHUB_API_URL": github_double.base_url,
           "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": HEAD}
    assert _run_cli(["publish", "--report", str(rep_path)], env).returncode == 0
    assert _run_cli(["publish", "--report", str(tmp_path / "nope.json")], env).returncode == 2
    # no token: not published, the decision still decides
    proc = _run_cli(["publish", "--report", str(rep_path)], {"GITHUB_SHA": HEAD})
    assert proc.returncode == 0 and "GITHUB_TOKEN" in proc.stdout


def test_gate_summary_command(tmp_path: Path) -> None:
    rep_path = tmp_path / "report.json"
    rep_path.write_text(json.dumps(make_report(rejected=1)))
    out = tmp_path / "s.md"
    proc = _run_cli(["summary", "--report", str(rep_path), "--out", str(out),
                     "--check-run-url", "https://github.com/o/r/runs/1", "--note", "hello"], {})
    assert proc.returncode == 1
    assert "Required fields and runs" in out.read_text()
    summ = tmp_path / "step.md"
    summ.write_bytes(b"x" * (1024 * 1024 - 10))
    proc = _run_cli(["summary", "--report", str(rep_path)], {"GITHUB_STEP_SUMMARY": str(summ)})
    assert proc.returncode == 1 and "limit is used up" in proc.stderr
    assert summ.stat().st_size == 1024 * 1024 - 10


def test_no_pygithub_import_outside_publishing() -> None:
    code = ("import sys\n"
            "from gate.commands import main as cli\n"
            "from gate.github import publish, summary, workflow, markdown, checks\n"
            "try:\n    cli.main(['--version'])\nexcept SystemExit:\n    pass\n"
            "assert 'github' not in sys.modules, 'github imported'\n"
            "assert 'requests' not in sys.modules, 'requests imported'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
