"""Issue 22: whatever report the gate writes, it reads. At 10,000 properties ``gate classify
--report`` wrote 5.3 MB and ``gate summary``/``gate outputs`` refused it (the 4 MiB record cap);
the report cap is its own, checked on writing too. On the CLI route, at 10,000 and 50,000."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gate.commands import main as cli
from gate.errors import GateInputError
from gate.records import files, pairing, policy
from gate.records import load as records
from tests.golden_cases import NOW, _stamp


def _folder(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "stamps"
    folder.mkdir()
    for n in range(count):
        for cls, outcome in (("local-pinned", "pass"), ("free-server", "pass")):
            stamp = _stamp(f"test_p{n:05d}", 10, cls, outcome, f"{cls[0]}{n}")
            fd = os.open(folder / f"{stamp['run_id']}.json", os.O_WRONLY | os.O_CREAT, 0o644)
            os.write(fd, json.dumps(stamp).encode())
            os.close(fd)
    return folder


def _check_read_back(report: Path, tmp_path: Path, count: int,
                     capsys: pytest.CaptureFixture[str]) -> None:
    assert report.stat().st_size > files.DEFAULT_MAX_RECORD_BYTES  # over the old cap
    assert cli.main(["summary", "--report", str(report), "--out", str(tmp_path / "s.md")]) == 0
    assert cli.main(["outputs", "--report", str(report)]) == 0
    assert "decision=open" in capsys.readouterr().out
    assert len(records.load_report(report).pairs) == count


def test_classify_writes_a_report_summary_and_outputs_read_at_10000(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    assert cli.main(["classify", "--stamps", str(_folder(tmp_path, 10_000)), "--now", str(NOW),
                     "--report", str(report), "--json"]) == 0
    capsys.readouterr()
    _check_read_back(report, tmp_path, 10_000, capsys)


def test_a_report_of_50000_pairs_is_written_and_read_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The pairs decided by the same code as ``classify --stamps`` (from stamps in memory: a
    100,000-file folder would only time the file system), written by the one report writer,
    read by ``gate summary`` and ``gate outputs``."""
    loaded = [pairing.Loaded(_stamp(f"test_p{n:05d}", 10, cls, "pass", f"{cls[0]}{n}"),
                             f"{cls[0]}{n}.json")
              for n in range(50_000) for cls in ("local-pinned", "free-server")]
    pol = policy.load(None)
    report = tmp_path / "report.json"
    records.write_report(report, pairing.report_by_policy(
        pairing.decide_by_policy(loaded, pol, NOW), NOW, pol))
    _check_read_back(report, tmp_path, 50_000, capsys)


def test_a_report_over_the_cap_is_refused_when_written_and_when_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = tmp_path / "report.json"
    assert cli.main(["classify", "--stamps", str(_folder(tmp_path, 20)), "--now", str(NOW),
                     "--report", str(report)]) == 0
    size = report.stat().st_size
    monkeypatch.setenv("GATE_MAX_REPORT_BYTES", str(size - 1))
    with pytest.raises(GateInputError, match="GATE_MAX_REPORT_BYTES"):
        records.write_report(tmp_path / "again.json", json.loads(report.read_bytes()))
    assert not (tmp_path / "again.json").exists()
    with pytest.raises(GateInputError, match=r"larger than the \d+-byte limit \(raise it with "
                                             r"GATE_MAX_REPORT_BYTES\)"):
        records.load_report(report)
    monkeypatch.setenv("GATE_MAX_REPORT_BYTES", str(size))
    assert records.load_report(report).decision == "open"
