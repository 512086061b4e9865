"""Issue 29 item 4: why a stamp job wrote no stamps reaches the gate job, per class
(gate/records/stamp_failure.py; the act run is tests/test_action_act.py's mistyped manifest)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.action.failures import _report_stamp_failure, bad_input_words
from gate.errors import GateInputError
from gate.records import pairing, stamp_failure


def _record(**extra: object) -> dict[str, object]:
    fields: dict[str, object] = {"server_class": "free-server", "job": "stamp", "attempt": 2,
                                 "step": "stamp", "reason": "the patch breaks importing x.py",
                                 "written_at": 1800000000}
    fields.update(extra)
    return stamp_failure.build(**fields)  # type: ignore[arg-type]


def test_a_record_round_trips_and_reads_in_class_order(tmp_path: Path) -> None:
    stamp_failure.write(tmp_path / "a", _record())
    stamp_failure.write(tmp_path / "b" / "deeper", _record(server_class="local-pinned"))
    found = stamp_failure.read_all(tmp_path)
    assert [r["server_class"] for r in found] == ["free-server", "local-pinned"]
    assert stamp_failure.words(found)[0] == (
        "the free-server stamp job (stamp, attempt 2) wrote no stamps: its stamp step stopped: "
        "the patch breaks importing x.py")


def test_the_reason_is_one_bounded_line() -> None:
    record = _record(reason="a\nb\r\n  c" + "x" * 2000)
    assert "\n" not in str(record["reason"]) and len(str(record["reason"])) == 1000
    assert str(record["reason"]).startswith("a b c")


@pytest.mark.parametrize(("change", "field"), [
    ({"server_class": "gpu"}, "server_class"), ({"step": "gate"}, "step"),
    ({"extra": 1}, "extra"), ({"attempt": 0}, "attempt")])
def test_a_bad_record_is_bad_input_naming_it(tmp_path: Path, change: dict[str, object],
                                             field: str) -> None:
    record = {**_record(), **change}
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / stamp_failure.NAME).write_text(json.dumps(record))
    with pytest.raises(GateInputError) as raised:
        stamp_failure.read_all(tmp_path)
    assert raised.value.source.endswith(stamp_failure.NAME) and field in str(raised.value)


def test_a_record_is_never_read_as_a_stamp(tmp_path: Path) -> None:
    stamp_failure.write(tmp_path / "gate-stamps-free-server-stamp-1-failed-0a1b", _record())
    with pytest.raises(GateInputError, match="no stamps"):
        pairing.collect_some(tmp_path, "gate-stamps")


def test_no_stamps_names_each_stopped_class_not_the_prefix(tmp_path: Path) -> None:
    stamp_failure.write(tmp_path / "f", _record())
    exc = GateInputError(str(tmp_path), "--stamps", "no stamps (no *.json files) found")
    words = bad_input_words(exc, {"GATE_STAMPS_DIR": str(tmp_path)})
    assert words == ("no stamps found: the free-server stamp job (stamp, attempt 2) wrote no "
                     "stamps: its stamp step stopped: the patch breaks importing x.py")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "artifact-prefix" in bad_input_words(exc, {"GATE_STAMPS_DIR": str(empty)})


def test_a_stopped_stamp_step_leaves_its_record_and_outputs(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    output = tmp_path / "output"
    output.write_text("")
    env = {"GATE_MODE": "stamp", "GATE_SERVER_CLASS": "local-pinned", "RUNNER_TEMP": str(tmp_path),
           "GITHUB_OUTPUT": str(output), "GITHUB_JOB": "stamp", "GITHUB_RUN_ATTEMPT": "1",
           "GATE_ARTIFACT_PREFIX": "gate-stamps", "MY_API_TOKEN": "s3cr3t-token-value"}
    _report_stamp_failure(GateInputError("the test command", "(pytest)",
                                         "said s3cr3t-token-value"), env)
    lines = output.read_text().splitlines()  # NAME<<DELIMITER, value, DELIMITER
    outputs = {lines[i].split("<<")[0]: lines[i + 1] for i in range(0, len(lines), 3)}
    assert outputs["failure-artifact"].startswith("gate-stamps-local-pinned-stamp-1-failed-")
    (record,) = stamp_failure.read_all(Path(outputs["failure-dir"]))
    assert record["reason"] == "the test command: (pytest): said ***"
    assert "s3cr3t" not in capsys.readouterr().out
