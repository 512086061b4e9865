"""``gate action`` in-process: settings from the environment, both modes, every closing door.

The act tests (tests/test_action_act.py) run the same code inside a real job; these cover the
branches one workflow run cannot: bad inputs, receipts, halt ledgers, no token, read-only
tokens, ``fail-on-closed: false``.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from gate.commands import main as cli
from gate.errors import GateInputError
from gate.github import action
from gate.records import ledger, receipts
from tests.core_helpers import FREE, LOCAL, NOW, SHA_X, run_cli, stamp, write_json
from tests.github_double import READ_ONLY_TOKEN, WRITE_TOKEN, GitHubDouble

EXAMPLES = Path(__file__).resolve().parent.parent / "gate" / "examples"


def _outputs(path: Path) -> dict[str, str]:
    """Parse a GITHUB_OUTPUT file (name<<DELIM ... DELIM blocks)."""
    text = path.read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for match in re.finditer(r"^([A-Za-z0-9_-]+)<<(\S+)\n(.*?)\n\2$", text, re.M | re.S):
        found[match.group(1)] = match.group(3)
    return found


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    (tmp_path / "runner").mkdir(exist_ok=True)
    env = {
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_JOB": "gate",
        "GITHUB_RUN_ATTEMPT": "1",
        "GITHUB_RUN_ID": "42",
        "GATE_MODE": "gate",
        "GATE_STAMPS_DIR": str(tmp_path / "stamps"),
        "GATE_NOW": str(NOW),
    }
    env.update(extra)
    return env


def _stamps(tmp_path: Path, local: str, free: str, **extra: Any) -> None:
    write_json(tmp_path / "stamps" / "gate-stamps-local-pinned-stamp-1-0a1b2c3d" / "l.json",
               stamp(LOCAL, local, run_id="l1", fixture_sha256=SHA_X, **extra))
    write_json(tmp_path / "stamps" / "gate-stamps-free-server-stamp-1-4e5f6a7b" / "f.json",
               stamp(FREE, free, run_id="f1", fixture_sha256=SHA_X, **extra))


@pytest.mark.parametrize(("name", "value", "field"), [
    ("GATE_MODE", "gates", "mode"),
    ("GATE_FAIL_ON_CLOSED", "yes", "GATE_FAIL_ON_CLOSED"),
    ("GATE_ARTIFACT_PREFIX", "a/b", "artifact-prefix"),
    ("GATE_NOW", "soon", "GATE_NOW"),
    ("GATE_EXIT_CODE", "1.5", "GATE_EXIT_CODE"),
    ("RUNNER_TEMP", "", "RUNNER_TEMP"),
])
def test_bad_settings_name_the_input(tmp_path: Path, name: str, value: str, field: str) -> None:
    env = _env(tmp_path, **{name: value})
    with pytest.raises(GateInputError) as caught:
        action.Settings.from_env(env)
    assert caught.value.source == field


def test_closed_without_token_fails_and_says_why(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _stamps(tmp_path, "assert_fail", "assert_fail")
    assert action.run(_env(tmp_path)) == 1
    outputs = _outputs(tmp_path / "output.txt")
    assert outputs["decision"] == "closed"
    assert outputs["failure-class"] == "property_miss"
    assert outputs["freeze-allowed"] == "false"
    assert outputs["fixture-sha256"] == SHA_X
    assert outputs["check-run-url"] == ""
    report = json.loads(Path(outputs["report"]).read_text(encoding="utf-8"))
    assert report["pairs"][0]["action"] == "reject_stable_fail"
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "check run not published" in summary
    assert f"fixture_sha256={SHA_X}\nfailure_class=property_miss\nfreeze_allowed=false\n" in summary
    printed = capsys.readouterr().out
    assert "::error " in printed  # degraded to workflow-command annotations


def test_fail_on_closed_false_passes_the_step_but_reports_closed(tmp_path: Path) -> None:
    _stamps(tmp_path, "assert_fail", "pass")
    assert action.run(_env(tmp_path, GATE_FAIL_ON_CLOSED="false")) == 0
    assert _outputs(tmp_path / "output.txt")["decision"] == "closed"


def test_open_gate_publishes_a_check_run(tmp_path: Path, github_double: GitHubDouble) -> None:
    _stamps(tmp_path, "pass", "pass")
    env = _env(tmp_path, GATE_GITHUB_TOKEN=WRITE_TOKEN, GITHUB_API_URL=github_double.base_url,
               GITHUB_REPOSITORY="acme/widgets", GITHUB_SHA="b" * 40)
    assert action.run(env) == 0
    outputs = _outputs(tmp_path / "output.txt")
    assert outputs["decision"] == "open"
    assert outputs["check-run-url"].startswith("http")
    (run,) = github_double.check_runs.values()
    assert run["conclusion"] == "success" and run["head_sha"] == "b" * 40
    assert github_double.invalid_requests() == []


def test_read_only_token_degrades_and_the_decision_stands(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    _stamps(tmp_path, "assert_fail", "assert_fail")
    env = _env(tmp_path, GATE_GITHUB_TOKEN=READ_ONLY_TOKEN,
               GITHUB_API_URL=github_double.base_url, GITHUB_REPOSITORY="acme/widgets",
               GITHUB_SHA="b" * 40)
    assert action.run(env) == 1
    assert github_double.check_runs == {}
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "checks: write" in summary


def test_pull_request_head_sha_wins(tmp_path: Path, github_double: GitHubDouble) -> None:
    _stamps(tmp_path, "pass", "pass")
    event = write_json(tmp_path / "event.json",
                       {"pull_request": {"number": 3, "head": {"sha": "c" * 40}}})
    env = _env(tmp_path, GATE_GITHUB_TOKEN=WRITE_TOKEN, GITHUB_API_URL=github_double.base_url,
               GITHUB_REPOSITORY="acme/widgets", GITHUB_SHA="b" * 40,
               GITHUB_EVENT_PATH=str(event))
    assert action.run(env) == 0
    (run,) = github_double.check_runs.values()
    assert run["head_sha"] == "c" * 40


def _receipt_env(tmp_path: Path, model: str) -> dict[str, str]:
    diff = tmp_path / "patch.diff"
    prompt = tmp_path / "prompt.txt"
    diff.write_bytes(b"--- a\n+++ b\n")
    prompt.write_bytes(b"review it")
    body = receipts.build(diff_sha256=hashlib.sha256(diff.read_bytes()).hexdigest(),
                          prompt_sha256=hashlib.sha256(prompt.read_bytes()).hexdigest(),
                          model_id="m1", workspace_generation="5", verdict="pass",
                          reasons=["ok"])
    write_json(tmp_path / "receipt.json", body)
    return {"GATE_RECEIPT": str(tmp_path / "receipt.json"), "GATE_DIFF": str(diff),
            "GATE_PROMPT": str(prompt), "GATE_MODEL_ID": model,
            "GATE_WORKSPACE_GENERATION": "5"}


def test_receipt_for_another_model_closes_an_open_gate(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    assert action.run(_env(tmp_path, **_receipt_env(tmp_path, "m1"))) == 0
    shutil.rmtree(tmp_path / "runner")
    (tmp_path / "output.txt").unlink()
    assert action.run(_env(tmp_path, **_receipt_env(tmp_path, "m2"))) == 1
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert report["receipt"] == {"decision": "reject", "line": "reject: model_id",
                                 "mismatches": ["model_id"]}


def test_receipt_without_its_companions_is_bad_input(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, GATE_RECEIPT=str(tmp_path / "r.json")))
    assert caught.value.source == "receipt"
    assert "diff" in caught.value.message


def test_halt_ledger_with_a_wrong_allow_closes_the_gate(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    book = ledger.Ledger(tmp_path / "halt.ledger")
    good = book.bind("run-1", "lab.invalid", "api.lab.invalid", "synthetic-fixture-v1")
    assert book.check(good, 1, "a1").decision.value == "allow"
    assert action.run(_env(tmp_path, GATE_HALT_LEDGER=str(tmp_path / "halt.ledger"))) == 0
    # An expected decision the ledger contradicts is a failed attempt.
    book.check(good, 1, "a2", expected="halt")
    shutil.rmtree(tmp_path / "runner")
    (tmp_path / "output.txt").unlink()
    assert action.run(_env(tmp_path, GATE_HALT_LEDGER=str(tmp_path / "halt.ledger"))) == 1
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert report["halt_audit"]["failed"] == 1


def test_an_empty_receipt_input_with_its_companions_rejects(tmp_path: Path) -> None:
    """receipt: ${{ steps.review.outputs.path }} that came out empty is a missing receipt."""
    _stamps(tmp_path, "pass", "pass")
    env = _env(tmp_path, **_receipt_env(tmp_path, "m1"))
    env["GATE_RECEIPT"] = ""
    assert action.run(env) == 1
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert report["receipt"]["line"] == "reject: missing_receipt"


@pytest.mark.parametrize("folder", [
    "gate-stamps-nightly-local-pinned-stamp-1-0a1b2c3d",  # another prefix, also gate-stamps-*
    "gate-stamps-free-server-stamp-1-0a1b2c3d",  # a local-pinned stamp in a free-server artifact
    "",  # loose in the download folder
])
def test_a_stamp_outside_this_gates_artifacts_is_bad_input(tmp_path: Path, folder: str) -> None:
    _stamps(tmp_path, "pass", "pass")
    stray = tmp_path / "stamps" / (f"{folder}/stray.json" if folder else "x.json")
    write_json(stray, stamp(LOCAL, "pass", run_id="l2", fixture_sha256=SHA_X))
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path))
    assert caught.value.field == "server_class"
    assert "not this gate's stamps" in caught.value.message


def test_no_stamps_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "stamps").mkdir()
    with pytest.raises(GateInputError):
        action.run(_env(tmp_path))


def test_stamp_mode_records_a_run_and_names_the_artifact(tmp_path: Path) -> None:
    env = _env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS=FREE,
               GATE_MANIFEST=str(EXAMPLES / "manifest.yml"), GATE_ROOT=str(EXAMPLES),
               GATE_JUNIT=str(EXAMPLES / "junit" / "free-server.xml"), GATE_EXIT_CODE="1",
               GATE_ARTIFACT_PREFIX="props")
    assert action.run(env, gate_main=cli.main) == 0
    outputs = _outputs(tmp_path / "output.txt")
    assert re.fullmatch(r"props-free-server-gate-1-[0-9a-f]{8}", outputs["artifact-name"])
    written = sorted(Path(outputs["stamps-dir"]).glob("*.json"))
    assert len(written) == 3
    assert {json.loads(p.read_text())["server_class"] for p in written} == {FREE}
    # root is gate/examples; the stamp's location is relative to the repository (this checkout).
    parser = next(json.loads(p.read_text()) for p in written
                  if json.loads(p.read_text())["test_id"] == "parser_round_trip")
    assert parser["location"] == {"path": "gate/examples/tests/test_parser.py", "line": 52}


@pytest.mark.parametrize(("extra", "source"), [
    ({"GATE_SERVER_CLASS": "gpu"}, "server-class"),
    ({"GATE_SERVER_CLASS": FREE}, "command"),
    ({"GATE_SERVER_CLASS": FREE, "GATE_COMMAND": "true", "GATE_EXIT_CODE": "0"}, "exit-code"),
])
def test_stamp_mode_bad_inputs(tmp_path: Path, extra: dict[str, str], source: str) -> None:
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, GATE_MODE="stamp", **extra))
    assert caught.value.source == source


def test_cli_action_reports_bad_input_in_one_line(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in _env(tmp_path, GATE_MODE="nope").items():
        monkeypatch.setenv(key, value)
    result = run_cli("action")
    assert result.code == 2
    assert result.err_lines == ["gate: error: mode: (input): must be gate or stamp, not 'nope'"]
