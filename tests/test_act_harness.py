"""Smoke test for the act harness: two jobs, an artifact crossing them, summary and outputs."""

from __future__ import annotations

from pathlib import Path

from tests.act.harness import WORKFLOWS_DIR, run_act

SMOKE = WORKFLOWS_DIR / "smoke.yml"
EXPECTED_PAYLOAD = "token=tok-42 event=push pr= secret-length=6"


def test_artifact_crosses_jobs_and_summary_and_outputs_are_readable(tmp_path: Path) -> None:
    artifacts = tmp_path / "artifacts"
    result = run_act(
        tmp_path / "repo",
        SMOKE,
        env={"SMOKE_TOKEN": "tok-42"},
        secrets={"SMOKE_SECRET": "s3cr3t"},
        artifacts_dir=artifacts,
        timeout=120,
    )
    assert result.returncode == 0, result.log_tail()

    # The upload stand-in stored the artifact, relative to the search path's folder.
    stored = artifacts / "smoke-payload" / "sub" / "hello.txt"
    assert stored.read_text() == EXPECTED_PAYLOAD + "\n"

    produce = result.job("produce")
    assert produce.succeeded
    assert produce.step_output("write", "token") == "tok-42"

    for merge in ("false", "true"):
        consume = result.job("consume", {"merge": merge})
        assert consume.succeeded, result.log_tail()
        assert consume.steps[("download",)] == "success"
        assert consume.step_output("read", "payload") == EXPECTED_PAYLOAD
        assert consume.summary == (
            f"## act smoke ({merge})\n\npayload: {EXPECTED_PAYLOAD}\njob-output-token: tok-42\n"
        )
        notices = [a for a in consume.annotations if a.level == "notice"]
        assert [(a.message, dict(a.properties)) for a in notices] == [
            (f"merge={merge}", {"title": "smoke"})
        ]
    # The secret never shows in the log.
    assert "s3cr3t" not in result.log


def test_pull_request_payload_and_failing_upload_are_reported(tmp_path: Path) -> None:
    artifacts = tmp_path / "artifacts"
    # An artifact of the same name already exists: v4 refuses a second upload.
    (artifacts / "smoke-payload").mkdir(parents=True)
    result = run_act(
        tmp_path / "repo",
        SMOKE,
        event="pull_request",
        event_payload={"number": 7, "pull_request": {"number": 7}},
        env={"SMOKE_TOKEN": "t"},
        artifacts_dir=artifacts,
        timeout=120,
    )
    assert result.returncode != 0
    produce = result.job("produce")
    assert produce.result == "failure"
    assert produce.steps[("write",)] == "success"
    assert produce.steps[("1",)] == "failure"
    assert produce.step_stdout("write") == "token=t event=pull_request pr=7 secret-length=0\n"
    errors = [a.message for a in produce.annotations if a.level == "error"]
    assert any("409" in e and "smoke-payload" in e for e in errors), errors
    # `consume` needs `produce`, so it never ran.
    assert result.runs_of("consume") == []


STANDIN_WORKFLOW = """\
name: standins
on: push
permissions: {}
jobs:
  up:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - run: |
          mkdir -p out/a out/b
          echo 1 > out/a/x.json; echo 2 > out/b/y.json
          echo 3 > out/b/skip.log; echo 4 > out/.hidden
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        with:
          name: stamps
          path: |
            out/a
            out/b
            !out/**/*.log
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        with:
          name: nothing
          path: missing/*.json
  down:
    needs: up
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        with:
          name: stamps
          path: got
      - id: list
        run: find got -type f | sort
"""


def test_standins_follow_v4_path_rules(tmp_path: Path) -> None:
    workflow = tmp_path / "standins.yml"
    workflow.write_text(STANDIN_WORKFLOW)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README").write_text("fixture\n")
    result = run_act(repo, workflow, artifacts_dir=tmp_path / "artifacts", timeout=120)
    assert result.returncode == 0, result.log_tail()
    stored = sorted(
        p.relative_to(tmp_path / "artifacts").as_posix()
        for p in (tmp_path / "artifacts").rglob("*")
        if p.is_file()
    )
    # Root is the common ancestor `out`; the .log is excluded, the hidden file is left out,
    # and the upload that found no file (if-no-files-found: warn) created no artifact.
    assert stored == ["stamps/a/x.json", "stamps/b/y.json"]
    up = result.job("up")
    assert any(
        a.level == "warning" and a.message.startswith("No files were found") for a in up.annotations
    )
    # Downloading by name extracts straight into `path`.
    assert result.job("down").step_stdout("list") == "got/a/x.json\ngot/b/y.json\n"
