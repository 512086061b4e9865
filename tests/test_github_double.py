"""The GitHub double answers real PyGithub, validates against GitHub's OpenAPI, injects faults."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from github import Auth, Github, GithubException, GithubRetry
from github.GithubException import (
    BadCredentialsException,
    RateLimitExceededExceedsMaxWait,
    UnknownObjectException,
)

from tests.github_double import (
    NOT_ACCESSIBLE_MESSAGE,
    READ_ONLY_TOKEN,
    SUBSET_PATH,
    WRITE_TOKEN,
    GitHubDouble,
)
from tests.github_double.regen import OPERATIONS, render

pytest_plugins = ["tests.github_double"]

SHA = "0123456789abcdef0123456789abcdef01234567"
REPO_ROOT = Path(__file__).resolve().parents[1]


def note(i: int, level: str = "failure", **extra: Any) -> dict[str, Any]:
    return {
        "path": f"tests/test_{i}.py",
        "start_line": i + 1,
        "end_line": i + 1,
        "annotation_level": level,
        "message": f"test {i} is red",
        **extra,
    }


def output(n: int, start: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "title": "gate",
        "summary": "summary",
        "annotations": [note(i) for i in range(start, start + n)],
        **extra,
    }


def fast_retry(**kwargs: Any) -> GithubRetry:
    """Bounded retries, no back-off waits: what the publisher configures, minus the sleeping."""
    kwargs.setdefault("total", 3)
    kwargs.setdefault("backoff_factor", 0)
    return GithubRetry(**kwargs)


@pytest.fixture
def gh(github_double: GitHubDouble) -> Iterator[Github]:
    client = github_double.client(retry=fast_retry())
    yield client
    client.close()


def assert_all_valid(double: GitHubDouble) -> None:
    assert double.invalid_requests() == []
    assert [r.response_errors for r in double.requests if r.response_errors] == []


# -- happy path with real PyGithub ------------------------------------------------------------


def test_round_trip_create_update_list_read(github_double: GitHubDouble, gh: Github) -> None:
    repo = gh.get_repo("octo/widgets")
    run = repo.create_check_run(
        name="agent-patch gate",
        head_sha=SHA,
        status="in_progress",
        external_id="ext-1",
        output=output(2, text="details"),
    )
    assert run.id == 1
    assert run.status == "in_progress"
    assert run.external_id == "ext-1"
    assert run.output.annotations_count == 2
    assert run.html_url.endswith("/octo/widgets/runs/1")
    assert run.url == f"{github_double.base_url}/repos/octo/widgets/check-runs/1"

    run.edit(
        conclusion="failure",
        output={"title": "1 rejected", "summary": "table", "annotations": [note(7)] * 3},
    )
    assert run.status == "completed"
    assert run.conclusion == "failure"
    assert run.completed_at is not None
    assert run.output.annotations_count == 5  # appended, not replaced
    assert run.output.text == "details"  # untouched fields persist

    listed = list(repo.get_commit(SHA).get_check_runs(check_name="agent-patch gate"))
    assert [r.id for r in listed] == [1]
    assert list(repo.get_commit(SHA).get_check_runs(check_name="other")) == []

    again = repo.get_check_run(run.id)
    assert again.name == "agent-patch gate"
    assert again.output.title == "1 rejected"
    assert again.app.slug == "github-actions"
    annotations = list(again.get_annotations())
    assert [a.path for a in annotations] == [
        "tests/test_0.py",
        "tests/test_1.py",
        *["tests/test_7.py"] * 3,
    ]

    state = github_double.check_runs[1]
    assert state["repo"] == "octo/widgets"
    assert len(state["annotations"]) == 5
    assert github_double.count("create_check_run") == 1
    assert github_double.count("checks/update") == 1
    assert github_double.count("get_repo") == 1
    assert_all_valid(github_double)
    create = github_double.requests[1]
    assert create.operation == "create_check_run"
    assert create.headers["authorization"] == f"token {WRITE_TOKEN}"
    assert create.body["output"]["annotations"][0]["annotation_level"] == "failure"
    assert create.status == 201


def test_ghes_prefix_api_v3_is_served(github_double: GitHubDouble) -> None:
    gh = github_double.client(ghes=True)
    run = gh.get_repo("o/r").create_check_run(name="n", head_sha=SHA)
    assert run.url.startswith(f"{github_double.base_url}/api/v3/repos/o/r/check-runs/")
    run.edit(status="in_progress")  # PATCH goes to the URL the double handed out
    assert {r.prefix for r in github_double.requests} == {"/api/v3"}
    assert {r.route_path for r in github_double.requests} == {
        "/repos/o/r",
        "/repos/o/r/check-runs",
        f"/repos/o/r/check-runs/{run.id}",
    }
    assert_all_valid(github_double)


def test_list_filter_latest_all_and_pagination(github_double: GitHubDouble) -> None:
    gh = github_double.client(per_page=10)
    repo = gh.get_repo("o/r")
    for i in range(23):
        repo.create_check_run(name=f"check-{i}", head_sha=SHA)
    repo.create_check_run(name="check-0", head_sha=SHA)  # a re-run of check-0
    repo.create_check_run(name="check-0", head_sha="f" * 40)  # another commit
    commit = repo.get_commit(SHA)
    latest = list(commit.get_check_runs())
    assert len(latest) == 23  # followed Link: rel="next" over 3 pages
    assert github_double.count("list_check_runs_for_ref") == 3
    assert [r.id for r in commit.get_check_runs(check_name="check-0")] == [24]
    assert sorted(r.id for r in commit.get_check_runs(check_name="check-0", filter="all")) == [
        1,
        24,
    ]
    assert_all_valid(github_double)


# -- validation against the OpenAPI description -------------------------------------------


def create_expecting_422(gh: Github, **kwargs: Any) -> GithubException:
    with pytest.raises(GithubException) as info:
        gh.get_repo("o/r").create_check_run(name="gate", head_sha=SHA, **kwargs)
    assert info.value.status == 422
    return info.value


def test_rejects_bad_annotation_level(github_double: GitHubDouble, gh: Github) -> None:
    exc = create_expecting_422(gh, output=output(1) | {"annotations": [note(0, level="error")]})
    assert "body.output.annotations[0].annotation_level" in exc.data["message"]
    assert "'error' is not one of ['notice', 'warning', 'failure']" in exc.data["message"]
    (bad,) = github_double.invalid_requests()
    assert bad.status == 422
    assert bad.operation == "create_check_run"
    assert bad.errors == [
        "body.output.annotations[0].annotation_level: "
        "'error' is not one of ['notice', 'warning', 'failure']"
    ]
    assert github_double.check_runs == {}
    assert github_double.count("create_check_run", status=422) == 1  # 422 is never retried


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"output": {"title": "t"}}, "body.output: 'summary' is a required property"),
        ({"output": {"summary": "s"}}, "body.output: 'title' is a required property"),
        (
            {
                "output": output(0)
                | {"annotations": [{k: v for k, v in note(0).items() if k != "message"}]}
            },
            "body.output.annotations[0]: 'message' is a required property",
        ),
        ({"status": "done"}, "body.status: 'done' is not one of"),
    ],
)
def test_rejects_schema_violations(
    github_double: GitHubDouble, gh: Github, kwargs: dict[str, Any], expected: str
) -> None:
    exc = create_expecting_422(gh, **kwargs)
    assert expected in exc.data["message"]
    assert any(expected in e for e in github_double.invalid_requests()[0].errors)


def test_schema_violations_pygithub_would_not_send(github_double: GitHubDouble) -> None:
    status, body = raw(github_double, "POST", "/repos/o/r/check-runs", {"name": "x"})
    assert status == 422
    assert body["errors"] == ["body: 'head_sha' is a required property"]
    bad_time = {"name": "x", "head_sha": SHA, "started_at": "yesterday"}
    status, body = raw(github_double, "POST", "/repos/o/r/check-runs", bad_time)
    assert status == 422
    assert body["errors"] == ["body.started_at: 'yesterday' is not a 'date-time'"]
    assert [r.valid for r in github_double.requests] == [False, False]


def test_fifty_annotations_per_request_is_the_limit(
    github_double: GitHubDouble, gh: Github
) -> None:
    run = gh.get_repo("o/r").create_check_run(name="gate", head_sha=SHA, output=output(50))
    assert run.output.annotations_count == 50
    with pytest.raises(GithubException) as info:
        run.edit(output=output(51, start=50))
    assert info.value.status == 422
    assert (
        "body.output.annotations: has 51 items, more than the maximum of 50"
        in info.value.data["message"]
    )
    run.edit(output=output(50, start=50))
    assert github_double.check_runs[run.id]["annotations"][-1]["path"] == "tests/test_99.py"
    assert len(github_double.invalid_requests()) == 1
    create_expecting_422(gh, output=output(51))


@pytest.mark.parametrize("key", ["summary", "text"])
def test_summary_and_text_limit_65535(github_double: GitHubDouble, gh: Github, key: str) -> None:
    ok = gh.get_repo("o/r").create_check_run(
        name="gate", head_sha=SHA, output=output(0) | {key: "x" * 65535}
    )
    assert ok.id == 1
    exc = create_expecting_422(gh, output=output(0) | {key: "é" * 65536})  # characters, not bytes
    assert (
        f"body.output.{key}: is 65536 characters long, more than the maximum of 65535"
        in exc.data["message"]
    )
    assert len(github_double.invalid_requests()) == 1


def test_github_prose_rules(github_double: GitHubDouble, gh: Github) -> None:
    exc = create_expecting_422(gh, status="completed")
    assert "body.conclusion: is required when status is 'completed'" in exc.data["message"]
    exc = create_expecting_422(gh, conclusion="stale")
    assert "'stale' can only be set by GitHub" in exc.data["message"]
    exc = create_expecting_422(gh, output=output(0) | {"annotations": [note(0, title="t" * 256)]})
    assert "title: is 256 characters long, more than the maximum of 255" in exc.data["message"]
    columns = note(0, start_column=1, end_column=2) | {"end_line": 5}
    exc = create_expecting_422(gh, output=output(0) | {"annotations": [columns]})
    assert "only allowed when start_line == end_line" in exc.data["message"]
    run = gh.get_repo("o/r").create_check_run(name="gate", head_sha=SHA)
    with pytest.raises(GithubException) as info:  # the update schema's anyOf
        run.edit(status="completed")
    assert info.value.status == 422
    assert "conclusion is required" in info.value.data["message"]
    assert len(github_double.invalid_requests()) == 5


def raw(
    double: GitHubDouble,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = WRITE_TOKEN,
    data: bytes | None = None,
    timeout: float = 5,
) -> tuple[int, Any]:
    payload = (
        data if data is not None else (json.dumps(body).encode() if body is not None else None)
    )
    request = urllib.request.Request(f"{double.base_url}{path}", data=payload, method=method)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_path_and_query_parameters_are_validated(github_double: GitHubDouble) -> None:
    status, body = raw(github_double, "GET", "/repos/o/r/check-runs/abc")
    assert status == 422
    assert body["errors"] == ["path.check_run_id: 'abc' is not of type 'integer'"]
    status, body = raw(github_double, "GET", f"/repos/o/r/commits/{SHA}/check-runs?status=bogus")
    assert status == 422
    assert body["errors"][0].startswith("query.status: 'bogus' is not one of")
    status, _ = raw(github_double, "GET", f"/repos/o/r/commits/{SHA}/check-runs?filter=all")
    assert status == 200
    status, body = raw(github_double, "POST", "/repos/o/r/check-runs", data=b"{nope")
    assert (status, body["message"]) == (400, "Problems parsing JSON")
    status, _ = raw(github_double, "GET", "/repos/o/r/check-runs/999")
    assert status == 404  # valid request, unknown id
    status, _ = raw(github_double, "GET", "/repos/o/r/pulls")
    assert status == 404
    assert [r.valid for r in github_double.requests] == [False, False, True, False, True, False]
    assert github_double.requests[-1].errors == [
        "no operation in the subset for GET /repos/o/r/pulls"
    ]


def test_response_validation_is_not_vacuous(github_double: GitHubDouble) -> None:
    route, _, _ = github_double.api.match("GET", "/repos/o/r/check-runs/1")
    assert route is not None
    assert route.response_validators[200].is_valid({}) is False


# -- auth ------------------------------------------------------------------------------------


def test_auth_missing_bad_and_read_only_tokens(github_double: GitHubDouble) -> None:
    assert raw(github_double, "GET", "/repos/o/r", token=None)[0] == 401
    with pytest.raises(BadCredentialsException):
        github_double.client("wrong").get_repo("o/r")
    read_only = github_double.client(READ_ONLY_TOKEN, retry=fast_retry())
    repo = read_only.get_repo("o/r")  # reads are allowed
    with pytest.raises(GithubException) as info:
        repo.create_check_run(name="gate", head_sha=SHA)
    assert info.value.status == 403
    assert info.value.data["message"] == NOT_ACCESSIBLE_MESSAGE
    assert github_double.count("create_check_run") == 1  # 403 without Retry-After: no retry
    assert github_double.check_runs == {}
    assert [r.status for r in github_double.requests] == [401, 401, 200, 403]
    assert github_double.invalid_requests() == []  # refusals of well-formed requests


def test_any_token_mode() -> None:
    with GitHubDouble(accept_any_token=True) as double:
        run = double.client("whatever").get_repo("o/r").create_check_run(name="n", head_sha=SHA)
        assert run.id == 1
        with pytest.raises(GithubException) as info:
            double.client(READ_ONLY_TOKEN).get_repo("o/r").create_check_run(name="n", head_sha=SHA)
        assert info.value.status == 403


# -- faults and PyGithub's retry behaviour -----------------------------------------------------


def test_5xx_on_post_is_retried_by_githubretry(github_double: GitHubDouble, gh: Github) -> None:
    repo = gh.get_repo("o/r")
    fault = github_double.inject("POST", r"/check-runs$", 502)
    run = repo.create_check_run(name="gate", head_sha=SHA)
    assert fault.hits == 1
    assert github_double.faults == []
    assert [r.status for r in github_double.requests if r.operation == "create_check_run"] == [
        502,
        201,
    ]
    assert github_double.requests[1].fault is not None
    assert run.id == 1


def test_5xx_burst_exhausts_bounded_retries(github_double: GitHubDouble) -> None:
    gh = github_double.client(retry=fast_retry(total=2))
    repo = gh.get_repo("o/r")
    github_double.inject(operation="create_check_run", status=503, times=None)
    with pytest.raises(requests.exceptions.RetryError):  # not a GithubException!
        repo.create_check_run(name="gate", head_sha=SHA)
    assert github_double.count("create_check_run") == 3  # first try + 2 retries
    github_double.clear_faults()
    github_double.inject(operation="create_check_run", status=500, times=2)
    assert repo.create_check_run(name="gate", head_sha=SHA).id == 1


def test_patch_is_not_retried_by_default_githubretry(github_double: GitHubDouble) -> None:
    gh = github_double.client(retry=fast_retry())
    run = gh.get_repo("o/r").create_check_run(name="gate", head_sha=SHA)
    github_double.inject("PATCH", status=502)
    with pytest.raises(GithubException) as info:
        run.edit(status="in_progress")
    assert info.value.status == 502
    assert github_double.count("update_check_run") == 1

    methods = GithubRetry.DEFAULT_ALLOWED_METHODS | {"GET", "POST", "PATCH"}
    gh2 = github_double.client(retry=fast_retry(allowed_methods=methods))
    run2 = gh2.get_repo("o/r").get_check_run(run.id)
    github_double.inject("PATCH", status=502)
    run2.edit(status="in_progress")
    assert github_double.count("update_check_run") == 3


def test_secondary_rate_limit_honours_retry_after(github_double: GitHubDouble, gh: Github) -> None:
    repo = gh.get_repo("o/r")
    github_double.inject_secondary_rate_limit("POST", r"/check-runs$", retry_after=1)
    started = time.monotonic()
    repo.create_check_run(name="gate", head_sha=SHA)
    assert time.monotonic() - started >= 1.0
    statuses = [r.status for r in github_double.requests if r.operation == "create_check_run"]
    assert statuses == [403, 201]
    fault = github_double.requests[1].fault
    assert fault is not None and fault["headers"] == {"Retry-After": "1"}


def test_secondary_rate_limit_without_retry_after_uses_secondary_rate_wait(
    github_double: GitHubDouble,
) -> None:
    gh = github_double.client(retry=fast_retry(secondary_rate_wait=0))
    github_double.inject_secondary_rate_limit(operation="create_check_run", retry_after=None)
    gh.get_repo("o/r").create_check_run(name="gate", head_sha=SHA)
    assert github_double.count("create_check_run") == 2


def test_primary_rate_limit_beyond_max_wait_raises(github_double: GitHubDouble) -> None:
    gh = github_double.client(retry=fast_retry(max_rate_limit_wait=5))
    repo = gh.get_repo("o/r")
    github_double.inject_primary_rate_limit("POST", reset_in=3600)
    with pytest.raises(RateLimitExceededExceedsMaxWait) as info:
        repo.create_check_run(name="gate", head_sha=SHA)
    assert info.value.wait is not None and info.value.wait > 3600
    assert github_double.count("create_check_run") == 1


def test_429_retried_only_with_retry_after(github_double: GitHubDouble, gh: Github) -> None:
    repo = gh.get_repo("o/r")
    github_double.inject_secondary_rate_limit("POST", status=429, retry_after=0)
    repo.create_check_run(name="gate", head_sha=SHA)
    assert github_double.count("create_check_run") == 2
    github_double.inject("POST", status=429)
    with pytest.raises(GithubException) as info:
        repo.create_check_run(name="gate", head_sha=SHA)
    assert info.value.status == 429
    assert github_double.count("create_check_run") == 3


@pytest.mark.parametrize(
    ("status", "exc_type"),
    [(401, BadCredentialsException), (404, UnknownObjectException), (422, GithubException)],
)
def test_other_4xx_are_not_retried(
    github_double: GitHubDouble, gh: Github, status: int, exc_type: type[Exception]
) -> None:
    repo = gh.get_repo("o/r")
    github_double.inject("POST", status=status, times=None)
    with pytest.raises(exc_type):
        repo.create_check_run(name="gate", head_sha=SHA)
    assert github_double.count("create_check_run") == 1


def test_dropped_connection(github_double: GitHubDouble, gh: Github) -> None:
    repo = gh.get_repo("o/r")
    github_double.inject("POST", drop=True)
    assert repo.create_check_run(name="gate", head_sha=SHA).id == 1  # POST read error: retried
    assert [r.status for r in github_double.requests[1:]] == [None, 201]
    github_double.inject("PATCH", drop=True)
    run = repo.get_check_run(1)
    with pytest.raises(requests.exceptions.ConnectionError):  # PATCH: not retried
        run.edit(status="in_progress")


def test_delay_makes_client_time_out_but_request_still_applies(
    github_double: GitHubDouble,
) -> None:
    github_double.inject("POST", delay=0.5)
    with pytest.raises((TimeoutError, urllib.error.URLError)):
        raw(
            github_double,
            "POST",
            "/repos/o/r/check-runs",
            {"name": "n", "head_sha": SHA},
            timeout=0.1,
        )
    deadline = time.monotonic() + 5
    while not github_double.requests and time.monotonic() < deadline:
        time.sleep(0.02)
    assert github_double.requests[0].status == 201  # like GitHub: the write happened anyway
    assert list(github_double.check_runs) == [1]
    github_double.inject("GET", delay=0.05, status=504)
    assert raw(github_double, "GET", "/repos/o/r")[0] == 504


def test_inject_requires_an_effect(github_double: GitHubDouble) -> None:
    with pytest.raises(ValueError, match="needs a status"):
        github_double.inject("GET")


# -- recording and the separate-process mode ---------------------------------------------------


def test_record_file_in_process(tmp_path: Path) -> None:
    record = tmp_path / "requests.jsonl"
    with GitHubDouble(record_path=record) as double:
        gh = double.client()
        gh.get_repo("o/r").create_check_run(name="gate", head_sha=SHA)
        create_expecting_422(gh, output={"title": "t"})
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(x["method"], x["status"], x["valid"]) for x in lines] == [
        ("GET", 200, True),
        ("POST", 201, True),
        ("GET", 200, True),
        ("POST", 422, False),
    ]
    assert set(lines[0]) >= {
        "method",
        "path",
        "query",
        "headers",
        "body",
        "valid",
        "errors",
        "status",
    }


def wait_for(path: Path, proc: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if path.exists():
            return path.read_text().strip()
        if proc.poll() is not None:
            raise AssertionError(
                f"double exited early: {proc.stderr.read() if proc.stderr else ''!r}"
            )
        time.sleep(0.05)
    raise AssertionError("double did not become ready")


def test_separate_process_mode(tmp_path: Path) -> None:
    ready, record, faults = tmp_path / "port", tmp_path / "req.jsonl", tmp_path / "faults.json"
    faults.write_text(json.dumps([{"method": "POST", "path_regex": "/check-runs$", "status": 502}]))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.github_double",
            "--port",
            "0",
            "--ready-file",
            str(ready),
            "--record",
            str(record),
            "--faults",
            str(faults),
            "--token",
            "ghs_act",
        ],
        cwd=REPO_ROOT,
        stderr=subprocess.PIPE,
    )
    try:
        port = int(wait_for(ready, proc))
        gh = Github(
            base_url=f"http://127.0.0.1:{port}/api/v3",
            auth=Auth.Token("ghs_act"),
            retry=fast_retry(),
            seconds_between_requests=None,
            seconds_between_writes=None,
        )
        run = gh.get_repo("o/r").create_check_run(name="gate", head_sha=SHA)
        assert run.id == 1
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == 0
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(x["operation"], x["status"], x["valid"]) for x in lines] == [
        ("get_repo", 200, True),
        ("create_check_run", 502, True),
        ("create_check_run", 201, True),
    ]
    assert lines[1]["fault"]["status"] == 502
    assert lines[2]["path"] == "/api/v3/repos/o/r/check-runs"


def test_contents_of_a_nested_path_at_a_ref(github_double: GitHubDouble, gh: Github) -> None:
    """GET .../contents/{path}?ref=: the path keeps its slashes (one route, not a 404), a file
    comes base64 as GitHub sends it, a folder as a list, a symbolic link with its target; every
    answer validates against the description's response schema; another ref or path is 404."""
    github_double.set_content("o/r", SHA, ".github/gate.yml", "version: 1\n" * 40)
    github_double.set_content("o/r", SHA, "a/b", "x", kind="dir")
    github_double.set_content("o/r", SHA, "link", "elsewhere/file", kind="symlink")
    repo = gh.get_repo("o/r")
    found = repo.get_contents(".github/gate.yml", ref=SHA)
    assert not isinstance(found, list) and found.decoded_content == b"version: 1\n" * 40
    assert found.path == ".github/gate.yml" and found.type == "file"
    listed = repo.get_contents("a/b", ref=SHA)
    assert isinstance(listed, list) and [c.path for c in listed] == ["a/b/file"]
    link = repo.get_contents("link", ref=SHA)
    assert not isinstance(link, list) and link.type == "symlink"
    for path, ref in ((".github/gate.yml", "f" * 40), (".github/other.yml", SHA)):
        with pytest.raises(UnknownObjectException):
            repo.get_contents(path, ref=ref)
    served = [r for r in github_double.requests if r.operation == "get_content"]
    assert [r.route_path for r in served][:1] == ["/repos/o/r/contents/.github/gate.yml"]
    assert len(served) == 5
    assert_all_valid(github_double)


def test_port_zero_gives_a_real_port(github_double: GitHubDouble) -> None:
    with socket.create_connection(("127.0.0.1", github_double.port), timeout=2):
        pass


# -- the vendored subset ------------------------------------------------------------------------


def test_vendored_subset_is_canonical_and_complete() -> None:
    text = SUBSET_PATH.read_text(encoding="utf-8")
    document = json.loads(text)
    assert render(document) == text  # sorted keys, as regen.py writes it
    source = document["x-subset-source"]
    assert source["package"] == "@octokit/openapi"
    assert document["info"]["version"] == source["version"]
    served = {
        (method, path)
        for path, item in document["paths"].items()
        for method in item
        if method != "parameters"
    }
    assert served == set(OPERATIONS)
    create = document["paths"]["/repos/{owner}/{repo}/check-runs"]["post"]
    props = create["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert props["output"]["properties"]["annotations"]["maxItems"] == 50
    assert props["output"]["properties"]["summary"]["maxLength"] == 65535
    assert props["output"]["properties"]["text"]["maxLength"] == 65535
    assert "maxLength" not in props["output"]["properties"]["title"]
