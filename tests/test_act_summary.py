"""``gate act-summary LOG`` (issue 28): each job's summary once, from an act ``--json`` log.

tests/act/logs/composite-red.jsonl is act 0.2.89's own output (``act push --json``, runner
labels mapped to the host) for tests/act/logs/composite-red.yml: job ``a`` writes a summary
line, runs a composite action whose two steps write one each, then writes one more and fails;
job ``b`` is a matrix of two legs. act logs the composite's last line twice (for its inner
step and again for the outer one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gate.commands.main import main
from gate.records import act_log

LOG = Path(__file__).resolve().parent / "act" / "logs" / "composite-red.jsonl"


def test_each_summary_is_printed_once(capsys: pytest.CaptureFixture[str]) -> None:
    raw = LOG.read_text()
    assert raw.count('"content":"C2 line\\n"') == 2  # act logs the composite's line twice
    assert main(["act-summary", str(LOG)]) == 0
    assert capsys.readouterr().out == (
        "=== w/b-1 [leg=x]: success ===\nB x\n\n"
        "=== w/b-2 [leg=y]: success ===\nB y\n\n"
        "=== w/a: failure ===\nA1 line\nC1 line\nC2 line\nA3 line\n")


def test_the_act_harness_reads_summaries_by_the_same_rule() -> None:
    from tests.act import harness

    runs = harness._parse(act_log.records(LOG.read_text().splitlines()))
    assert {r.job_id + str(r.matrix): r.summary for r in runs} == {
        s.job_id + str(s.matrix): s.text
        for s in act_log.summaries(act_log.records(LOG.read_text().splitlines()))}


def test_a_summary_line_never_starts_a_workflow_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "act.log"
    log.write_text('not json\n{"jobID": "g", "job": "gate", "stepID": ["0"], '
                   '"command": "summary", "content": "::error::forged\\nfine\\n"}\n'
                   '{"jobID": "g", "job": "gate", "jobResult": "success"}\n')
    assert main(["act-summary", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "=== gate: success ===" and out[2] == "fine"
    assert not out[1].startswith("::")


def test_a_log_without_jobs_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "act.log"
    log.write_text("Error: Job 'a' failed\n")
    assert main(["act-summary", str(log)]) == 2
    assert f"{log}: (log): no job of an act --json log in it" in capsys.readouterr().err
    assert main(["act-summary", str(tmp_path / "none.log")]) == 2
