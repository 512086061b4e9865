"""``gate action`` in-process: settings from the environment, both modes, every closing door.

The act tests (tests/test_action_act.py) run the same code inside a real job; these cover the
branches one workflow run cannot: bad inputs, receipts, halt ledgers, no token, read-only
tokens, ``fail-on-closed: false``.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from gate.commands import main as cli
from gate.errors import GateInputError
from gate.github import action, workflow
from gate.records import ledger, receipts
from tests.core_helpers import (
    FREE,
    LOCAL,
    NOW,
    SHA_X,
    bootstrapped,
    run_cli,
    stamp,
    write_json,
)
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


def _receipt_env(tmp_path: Path, model: str, gen: str = "5", attempt: str = "a1",
                 placed_in: str = "a1") -> dict[str, str]:
    """A receipt naming generation ``gen``, in ``receipts/<placed_in>``; ``receipts/<attempt>``
    is bootstrapped (``gate receipt bootstrap``) with generation 5."""
    diff = tmp_path / "patch.diff"
    prompt = tmp_path / "prompt.txt"
    diff.write_bytes(b"--- a\n+++ b\n")
    prompt.write_bytes(b"review it")
    body = receipts.build(diff_sha256=hashlib.sha256(diff.read_bytes()).hexdigest(),
                          prompt_sha256=hashlib.sha256(prompt.read_bytes()).hexdigest(),
                          model_id="m1", workspace_generation=gen, verdict="pass",
                          reasons=["ok"])
    folder = tmp_path / "receipts"
    bootstrapped(folder / attempt, "5")
    path = folder / placed_in / "receipt.json"
    if path.exists():
        path.unlink()
    write_json(path, body)
    return {"GATE_RECEIPT": str(path), "GATE_DIFF": str(diff),
            "GATE_PROMPT": str(prompt), "GATE_MODEL_ID": model,
            "GATE_WORKSPACE_GENERATION": "5", "GATE_RECEIPT_DIR": str(folder),
            "GATE_ATTEMPT_ID": attempt}


def _receipt_line(tmp_path: Path, env: dict[str, str]) -> tuple[int, str]:
    for leftover in (tmp_path / "runner", tmp_path / "output.txt"):
        if leftover.is_dir():
            shutil.rmtree(leftover)
        elif leftover.exists():
            leftover.unlink()
    code = action.run(_env(tmp_path, **env))
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    return code, report["receipt"]["line"]


def test_a_receipt_in_its_bootstrapped_attempt_folder_opens(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    env = _receipt_env(tmp_path, "m1")
    assert _receipt_line(tmp_path, env) == (0, "accept")
    env["GATE_WORKSPACE_GENERATION"] = ""  # the minted one, read from the attempt folder
    assert _receipt_line(tmp_path, env) == (0, "accept")


@pytest.mark.parametrize(("change", "line"), [
    # not inside the directory of the attempt it claims
    ({"placed_in": "a2"}, "reject: receipt_location"),
    # in the folder it claims, but nobody bootstrapped it
    ({"attempt": "a3", "placed_in": "a3"}, "reject: receipt_location"),
    # left by a previous generation (the folder was bootstrapped again: generation 5)
    ({"gen": "4"}, "reject: workspace_generation"),
])
@pytest.mark.parametrize("typed", ["5", ""])  # the bootstrap's generation given, or read
def test_the_action_refuses_a_receipt_out_of_its_attempt(tmp_path: Path, change: dict[str, str],
                                                         line: str, typed: str) -> None:
    _stamps(tmp_path, "pass", "pass")
    env = _receipt_env(tmp_path, "m1", **change)
    if change.get("attempt") == "a3":
        (tmp_path / "receipts" / "a3" / "workspace-generation.json").unlink()
    if change.get("placed_in") == "a2":
        bootstrapped(tmp_path / "receipts" / "a2", "5")  # even a bootstrapped one
    env["GATE_WORKSPACE_GENERATION"] = typed
    code, got = _receipt_line(tmp_path, env)
    assert code == 1 and got.split(",")[0] == line, got


def test_the_action_refuses_a_generation_other_than_the_minted_one(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    env = _receipt_env(tmp_path, "m1", gen="6")  # the receipt and the input agree on 6 ...
    env["GATE_WORKSPACE_GENERATION"] = "6"  # ... but 5 was minted for a1
    assert _receipt_line(tmp_path, env) == (1, "reject: workspace_generation")


@pytest.mark.parametrize("drop", ["GATE_RECEIPT_DIR", "GATE_ATTEMPT_ID"])
def test_the_action_needs_the_attempt_and_its_folder(tmp_path: Path, drop: str) -> None:
    _stamps(tmp_path, "pass", "pass")
    env = _receipt_env(tmp_path, "m1")
    env[drop] = ""
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, **env))
    assert caught.value.source == "receipt"
    assert ("receipt-dir" if drop == "GATE_RECEIPT_DIR" else "attempt-id") in caught.value.message


@pytest.mark.parametrize("bad", ["../a1", "a1/..", ".", "-a"])
def test_the_action_refuses_an_attempt_id_that_is_not_a_folder_name(tmp_path: Path,
                                                                    bad: str) -> None:
    _stamps(tmp_path, "pass", "pass")
    env = _receipt_env(tmp_path, "m1")
    env["GATE_ATTEMPT_ID"] = bad
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, **env))
    assert (caught.value.source, caught.value.field) == ("attempt-id", "(input)")


def test_an_attempt_without_a_receipt_rejects(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    bootstrapped(tmp_path / "receipts" / "a1", "5")
    env = {"GATE_RECEIPT_DIR": str(tmp_path / "receipts"), "GATE_ATTEMPT_ID": "a1"}
    assert _receipt_line(tmp_path, env) == (1, "reject: missing_receipt")


def test_receipt_for_another_model_closes_an_open_gate(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    assert action.run(_env(tmp_path, **_receipt_env(tmp_path, "m1"))) == 0
    shutil.rmtree(tmp_path / "runner")
    (tmp_path / "output.txt").unlink()
    assert action.run(_env(tmp_path, **_receipt_env(tmp_path, "m2"))) == 1
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert report["receipt"] == {"decision": "reject", "line": "reject: model_id",
                                 "mismatches": ["model_id"]}


def test_the_job_log_says_what_the_receipt_and_the_halt_audit_decided(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A gate closed by the receipt (every test green) says why in the job log, not only in the
    summary and the check run; an accepted receipt and a clean halt audit say so too."""
    _stamps(tmp_path, "pass", "pass")
    book = ledger.Ledger(tmp_path / "halt.ledger")
    good = book.bind("run-1", "lab.invalid", "api.lab.invalid", "synthetic-fixture-v1")
    book.check(good, 1, "a1")
    halt = {"GATE_HALT_LEDGER": str(tmp_path / "halt.ledger")}
    assert action.run(_env(tmp_path, **_receipt_env(tmp_path, "m1"), **halt)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "gate: receipt: accept" in lines
    assert "gate: halt audit: ok: failed=0 denominator=1 chain_ok=true" in lines
    shutil.rmtree(tmp_path / "runner")
    (tmp_path / "output.txt").unlink()
    assert action.run(_env(tmp_path, **_receipt_env(tmp_path, "m2"))) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "gate: receipt: reject: model_id" in lines
    assert not any(line.startswith("gate: halt audit") for line in lines)  # none asked for
    assert lines[-1].startswith("agent-patch gate: closed (0 rejected, 0 frozen, 1 accepted)")


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


def test_stamp_mode_records_a_run_and_names_the_artifact(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = _env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS=FREE,
               GATE_MANIFEST=str(EXAMPLES / "manifest.yml"), GATE_ROOT=str(EXAMPLES),
               GATE_JUNIT=str(EXAMPLES / "junit" / "free-server.xml"), GATE_EXIT_CODE="1",
               GATE_ARTIFACT_PREFIX="props")
    assert action.run(env, gate_main=cli.main) == 0
    notices = [line for line in capsys.readouterr().out.splitlines() if "::notice" in line]
    assert notices == [f"::notice title=agent-patch gate::{action.NOT_APPLIED}"]
    outputs = _outputs(tmp_path / "output.txt")
    assert re.fullmatch(r"props-free-server-gate-1-[0-9a-f]{8}", outputs["artifact-name"])
    written = sorted(Path(outputs["stamps-dir"]).glob("*.json"))
    assert len(written) == 3
    assert {json.loads(p.read_text())["server_class"] for p in written} == {FREE}
    # root is gate/examples; the stamp's location is relative to the repository (this checkout).
    parser = next(json.loads(p.read_text()) for p in written
                  if json.loads(p.read_text())["test_id"] == "parser_round_trip")
    assert parser["location"] == {"path": "gate/examples/tests/test_parser.py", "line": 67}


def test_stamp_mode_reads_the_policy_input_as_the_gate_job_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """attrs trial: the stamp jobs read the default policy file while the input said "gate
    mode"; a policy at another path was read by the gate job only. Both read the input's."""
    policy = tmp_path / "ci" / "policy.yml"
    policy.parent.mkdir()
    policy.write_text("allowlist: []\nmax_freeze_day: 7\n")
    env = _env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS=FREE,
               GATE_MANIFEST=str(EXAMPLES / "manifest.yml"), GATE_ROOT=str(EXAMPLES),
               GATE_JUNIT=str(EXAMPLES / "junit" / "free-server.xml"), GATE_EXIT_CODE="1",
               GATE_POLICY=str(policy))
    assert action.run(env, gate_main=cli.main) == 2
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert str(policy) in shown and "max_freeze_day" in shown, shown


def test_stamp_mode_with_a_command_and_no_junit_applies_the_cards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The default a README user gets: the recorder route (gate stamp --pytest)."""
    import shlex
    import sys

    from tests.test_hypothesis_card import workspace

    root = tmp_path / "w"
    workspace(root, {"draws": 1})
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    command = (f"cd {shlex.quote(str(root))} && {shlex.quote(sys.executable)} -m pytest -q "
               "-k test_draws hypo_props.py")
    env = _env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS=FREE,
               GATE_MANIFEST=str(root / "gate.yml"), GATE_ROOT=str(root), GATE_COMMAND=command)
    assert action.run(env, gate_main=cli.main) == 0
    assert "::notice" not in capsys.readouterr().out
    (written,) = Path(_outputs(tmp_path / "output.txt")["stamps-dir"]).glob("*.json")
    got = json.loads(written.read_text())
    assert (got["outcome"], got["source"]) == ("pass", "pytest-recorder")
    assert (got["hypothesis"]["seed"], got["hypothesis"]["max_examples"]) == (1, 20)


@pytest.mark.parametrize(("extra", "source"), [
    ({"GATE_SERVER_CLASS": "gpu"}, "server-class"),
    ({"GATE_SERVER_CLASS": FREE}, "command"),
    ({"GATE_SERVER_CLASS": FREE, "GATE_COMMAND": "true", "GATE_EXIT_CODE": "0"}, "exit-code"),
])
def test_stamp_mode_bad_inputs(tmp_path: Path, extra: dict[str, str], source: str) -> None:
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, GATE_MODE="stamp", **extra))
    assert caught.value.source == source


def _typo_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The newcomer trial's stamp job: a manifest typo in the checkout's .github/gate.yml."""
    root = tmp_path / "checkout"
    shutil.copytree(EXAMPLES, root)
    manifest = (EXAMPLES / "manifest.yml").read_text(encoding="utf-8")
    (root / ".github").mkdir()
    (root / ".github" / "gate.yml").write_text(
        manifest.replace("    card: card.json\n", "    crad: card.json\n"), encoding="utf-8")
    monkeypatch.chdir(root)
    return _env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS=FREE, GITHUB_WORKSPACE=str(root),
                GATE_MANIFEST=".github/gate.yml", GATE_ROOT=".", GATE_EXIT_CODE="1",
                GATE_JUNIT=str(root / "junit" / "free-server.xml"))


def test_a_stamp_job_stopped_by_bad_input_annotates_and_summarises(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue (newcomer trial): the real cause was only a plain log line, and the gate job then
    blamed the artifact prefix. Now one ::error on the file, and a summary saying why the gate
    job will find no stamps."""
    env = _typo_workspace(tmp_path, monkeypatch)
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=cli.run_raising)
    assert caught.value.source == ".github/gate.yml"
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    assert len(errors) == 1, errors
    head, _, data = errors[0][len("::error "):].partition("::")
    props = dict(part.split("=", 1) for part in head.split(","))
    assert workflow.unescape_property(props["file"]) == ".github/gate.yml"
    assert workflow.unescape_property(props["title"]) == "agent-patch gate: stamp failed"
    assert workflow.unescape_data(data) == action.bad_input_words(caught.value, env)
    assert "properties.0.crad" in data and "did you mean" in data
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## ❌ agent-patch gate: stamp failed\n")
    assert "properties.0.crad" in summary and "**The fix:**" in summary
    assert "No stamps were uploaded, so the gate job will find none" in summary
    # no stamps' artifact name: only the record of why, for the gate job (issue 29 item 4)
    outputs = (tmp_path / "output.txt").read_text()
    assert "artifact-name" not in outputs and "failure-artifact<<" in outputs


def test_gate_action_in_stamp_mode_reports_the_typo_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the command line (what action.yml runs): one stderr line, exit 2, and the
    ::error on stdout."""
    for key, value in _typo_workspace(tmp_path, monkeypatch).items():
        monkeypatch.setenv(key, value)
    result = run_cli("action")
    assert result.code == 2
    assert len(result.err_lines) == 1 and result.err_lines[0].startswith(
        "gate: error: .github/gate.yml: ")
    assert [line.split("::")[1] for line in result.out.splitlines()
            if line.startswith("::error")] == [
        "error file=.github/gate.yml,title=agent-patch gate%3A stamp failed"]


def test_a_stamp_error_outside_the_checkout_names_no_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An input error (no file) is still annotated and summarised, with no file= property."""
    with pytest.raises(GateInputError):
        action.run(_env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS="gpu"))
    (error,) = [line for line in capsys.readouterr().out.splitlines()
                if line.startswith("::error")]
    assert error.startswith("::error title=agent-patch gate%3A stamp failed::server-class: ")
    assert "stamp failed" in (tmp_path / "summary.md").read_text(encoding="utf-8")


def test_no_stamps_names_a_failed_stamp_job_first(tmp_path: Path) -> None:
    (tmp_path / "stamps").mkdir()
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path))
    words = action.bad_input_words(caught.value, _env(tmp_path))
    assert words.index("a stamp job failed before uploading (read its log / summary)") < (
        words.index("artifact-prefix"))


def test_cli_action_reports_bad_input_in_one_line(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in _env(tmp_path, GATE_MODE="nope").items():
        monkeypatch.setenv(key, value)
    result = run_cli("action")
    assert result.code == 2
    assert result.err_lines == ["gate: error: mode: (input): must be gate or stamp, not 'nope'"]


def test_cli_action_refuses_a_receipt_out_of_its_attempt(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``gate action`` (what action.yml runs): a receipt outside its attempt folder closes the
    gate, one without the attempt inputs is one line of bad input."""
    _stamps(tmp_path, "pass", "pass")
    env = _env(tmp_path, **_receipt_env(tmp_path, "m1", placed_in="a2"))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = run_cli("action")
    assert result.code == 1, result
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert report["receipt"]["line"].startswith("reject: receipt_location")
    monkeypatch.setenv("GATE_ATTEMPT_ID", "")
    result = run_cli("action")
    assert result.code == 2
    assert result.err_lines[-1].startswith("gate: error: receipt: (input): verifying a receipt "
                                           "also needs attempt-id"), result.err


# -- bad input in gate mode still reports (issue 12) ------------------------------------------


def _double_env(tmp_path: Path, double: GitHubDouble, **extra: str) -> dict[str, str]:
    return _env(tmp_path, GATE_GITHUB_TOKEN=WRITE_TOKEN, GITHUB_API_URL=double.base_url,
                GITHUB_REPOSITORY="acme/widgets", GITHUB_SHA="b" * 40, **extra)


@pytest.mark.parametrize("case", ["no-stamps", "no-folder", "invalid-stamp", "broken-policy",
                                  "bad-setting"])
def test_bad_input_publishes_a_failure_check_run_and_a_summary(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str],
        case: str) -> None:
    env = _double_env(tmp_path, github_double, GATE_ARTIFACT_PREFIX="gate-stmps")
    wanted = {"no-stamps": "no artifact matched the pattern gate-stmps-*",
              "no-folder": "no artifact matched the pattern gate-stmps-*",
              "invalid-stamp": "outcome",
              "broken-policy": "policy.yml",
              "bad-setting": "GATE_FAIL_ON_CLOSED"}[case]
    if case != "no-folder":
        (tmp_path / "stamps").mkdir()
    if case == "invalid-stamp":
        write_json(tmp_path / "stamps" / "gate-stmps-free-server-stamp-1-0a1b2c3d" / "f.json",
                   {**stamp(FREE, "pass", run_id="f1"), "outcome": "maybe"})
    if case == "broken-policy":
        (tmp_path / "policy.yml").write_text("allowlist: [{test_id: t}]\n", encoding="utf-8")
        env["GATE_POLICY"] = str(tmp_path / "policy.yml")
        env["GITHUB_WORKSPACE"] = str(tmp_path)
    if case == "bad-setting":
        env["GATE_FAIL_ON_CLOSED"] = "perhaps"
    with pytest.raises(GateInputError):
        action.run(env)
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1 and wanted in errors[0]
    assert str(tmp_path / "stamps") not in errors[0]  # no temp paths
    (run,) = github_double.check_runs.values()
    assert run["conclusion"] == "failure" and run["status"] == "completed"
    assert run["output"]["title"].startswith("could not decide: ")
    assert wanted.replace("`", "") in run["output"]["title"].replace("`", "")
    assert str(tmp_path / "stamps") not in run["output"]["summary"]
    assert github_double.invalid_requests() == []
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## ❌ agent-patch gate: could not decide")
    assert "**What went wrong:**" in summary and str(tmp_path / "stamps") not in summary
    assert _outputs(tmp_path / "output.txt")["decision"] == "closed"
    if case == "broken-policy":  # the annotation sits on the file, as the stamp job's does
        assert errors[0].startswith("::error file=policy.yml,"), errors[0]


def test_bad_input_without_a_token_still_writes_the_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "stamps").mkdir()
    with pytest.raises(GateInputError):
        action.run(_env(tmp_path))
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "no artifact matched the pattern gate-stamps-&#42;" in summary
    assert "check run not published: GITHUB&#95;TOKEN" in summary
    assert "::error title=agent-patch gate could not decide::no stamps found" in (
        capsys.readouterr().out)


def test_the_log_names_every_rejected_and_frozen_test(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _stamps(tmp_path, "pass", "assert_fail")
    assert action.run(_env(tmp_path)) == 1
    lines = capsys.readouterr().out.splitlines()
    named = [line for line in lines if line.startswith("gate: rejected: ")]
    # one line per red test: the decision, the reason, what each class's run gave and the next
    # step (a81a123: the log line says what the summary says)
    assert named == [
        "gate: rejected: parser_round_trip: reject_not_allowlisted (a free-server red with a "
        "green local-pinned run; not allowlisted: free-server red, local-pinned green, but the "
        "test is not allowlisted for a freeze in free-server) Runs: local-pinned: pass · "
        "free-server: assertion failed. Next step: fix it, or add an allowlist entry for this "
        "test in free-server (owner, reason, issue, expires at most 30 days ahead, e.g. "
        "2026-09-22 14:13 UTC, written as expires: 1790086400) and the card field "
        "freeze_expires_at; see the job summary."]
    assert lines[-1].endswith("JSON report: artifact gate-stamps-report-gate-1")


def test_an_earlier_attempts_report_artifact_is_not_a_stamp(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    write_json(tmp_path / "stamps" / "gate-stamps-report-gate-1" / "report-gate-1.json",
               {"schema": "gate-report/v1"})
    assert action.run(_env(tmp_path, GITHUB_RUN_ATTEMPT="2")) == 0


def test_the_gate_step_passes_the_inputs_gate_mode_reads() -> None:
    """In-process tests set the environment themselves; this checks action.yml does too (the
    artifact prefix was once missing, so a custom prefix refused every stamp)."""
    import yaml

    steps = yaml.safe_load((EXAMPLES.parent.parent / "action.yml").read_text())["runs"]["steps"]
    (gate,) = [s for s in steps if s.get("id") == "gate"]
    for name in ("GATE_ARTIFACT_PREFIX", "GATE_COMMENT", "GATE_POLICY", "GATE_CHECK_NAME",
                 "GATE_GITHUB_TOKEN", "GATE_NOW", "GATE_FAIL_ON_CLOSED", "GATE_STAMPS_DIR"):
        assert name in gate["env"], name
    assert gate["env"]["GATE_ARTIFACT_PREFIX"] == "${{ inputs.artifact-prefix }}"


# --- gate mode on another run's artifacts (workflow_run) ----------------------------------------

RUN_1 = "4242"


def _workflow_run(tmp_path: Path, head_repo: str | None = "mallory/widgets",
                  run_id: int = 4242, base: str = "acme/widgets") -> dict[str, str]:
    run: dict[str, Any] = {"id": run_id, "head_sha": "d" * 40, "event": "pull_request",
                           "repository": {"full_name": base},
                           "pull_requests": [{"number": 9}]}
    if head_repo is not None:
        run["head_repository"] = {"full_name": head_repo}
    event = write_json(tmp_path / "event.json", {"action": "completed", "workflow_run": run})
    return {"GATE_RUN_ID": RUN_1, "GITHUB_EVENT_NAME": "workflow_run",
            "GITHUB_EVENT_PATH": str(event), "GITHUB_REPOSITORY": "acme/widgets",
            "GATE_TRUSTED_STAMPS_DIR": str(tmp_path / "trusted")}


def _split_stamps(tmp_path: Path, local_in: str) -> None:
    """A free-server stamp from the other run; the local-pinned one from ``local_in``."""
    write_json(tmp_path / "stamps" / "gate-stamps-free-server-stamp-1-4e5f6a7b" / "f.json",
               stamp(FREE, "pass", run_id="f1", fixture_sha256=SHA_X))
    write_json(tmp_path / local_in / "gate-stamps-local-pinned-stamp-local-1-0a1b2c3d" /
               "l.json", stamp(LOCAL, "pass", run_id="l1", fixture_sha256=SHA_X))


def test_a_forks_local_pinned_stamps_are_refused(tmp_path: Path) -> None:
    _split_stamps(tmp_path, "stamps")
    (tmp_path / "trusted").mkdir()
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, **_workflow_run(tmp_path)))
    assert caught.value.field == "server_class"
    assert caught.value.source.startswith("gate-stamps-local-pinned-")
    assert "run 4242, which ran for the fork mallory/widgets" in caught.value.message
    assert "cannot speak for the local-pinned class" in caught.value.message


def test_an_event_without_a_head_repository_counts_as_a_fork(tmp_path: Path) -> None:
    _split_stamps(tmp_path, "stamps")
    (tmp_path / "trusted").mkdir()
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, **_workflow_run(tmp_path, head_repo=None)))
    assert "the fork (unknown)" in caught.value.message


def test_a_same_repository_run_may_carry_both_classes(tmp_path: Path) -> None:
    _split_stamps(tmp_path, "stamps")
    (tmp_path / "trusted").mkdir()
    assert action.run(_env(tmp_path, **_workflow_run(tmp_path, head_repo="acme/widgets"))) == 0


def test_local_pinned_from_the_trusted_run_pairs_with_the_forks_free_server(
        tmp_path: Path, github_double: GitHubDouble) -> None:
    _split_stamps(tmp_path, "trusted")
    env = _env(tmp_path, GATE_GITHUB_TOKEN=WRITE_TOKEN, GITHUB_API_URL=github_double.base_url,
               GITHUB_SHA="b" * 40, **_workflow_run(tmp_path))
    assert action.run(env) == 0
    (run,) = github_double.check_runs.values()
    assert run["head_sha"] == "d" * 40  # the event's head_sha, not GITHUB_SHA
    summary = html.unescape((tmp_path / "summary.md").read_text(encoding="utf-8"))
    assert "decided on the stamps of run 4242 of acme/widgets at dddddddddddd" in summary
    # the pull request's number is shown, never a cross-reference (issue 20.6)
    assert "pull requests: #\u200b9" in summary and "a fork (mallory/widgets)" in summary
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert report["pairs"][0]["action"] == "accept_candidate"


def test_the_fork_alone_leaves_the_local_pinned_class_missing(tmp_path: Path) -> None:
    write_json(tmp_path / "stamps" / "gate-stamps-free-server-stamp-1-4e5f6a7b" / "f.json",
               stamp(FREE, "pass", run_id="f1", fixture_sha256=SHA_X))
    (tmp_path / "trusted").mkdir()
    assert action.run(_env(tmp_path, **_workflow_run(tmp_path))) == 1
    report = json.loads(Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    assert report["pairs"][0]["action"] == "reject_missing_stamp"


@pytest.mark.parametrize(("change", "source", "words"), [
    ({"GITHUB_EVENT_NAME": "pull_request"}, "run-id", "needs a workflow_run event"),
    ({"GATE_RUN_ID": "4243"}, "run-id", "not the event's run"),
    ({"GATE_RUN_ID": "12ab"}, "run-id", "must be a run id"),
    ({"GATE_REPOSITORY": "other/widgets"}, "repository", "not the repository of the event"),
])
def test_run_id_must_match_its_workflow_run_event(tmp_path: Path, change: dict[str, str],
                                                  source: str, words: str) -> None:
    _split_stamps(tmp_path, "trusted")
    env = _env(tmp_path, **_workflow_run(tmp_path))
    env.update(change)
    with pytest.raises(GateInputError) as caught:
        action.run(env)
    assert caught.value.source == source
    assert words in caught.value.message


def test_repository_without_run_id_is_bad_input(tmp_path: Path) -> None:
    _stamps(tmp_path, "pass", "pass")
    with pytest.raises(GateInputError) as caught:
        action.run(_env(tmp_path, GATE_REPOSITORY="acme/widgets"))
    assert caught.value.source == "repository"


def test_gate_publish_takes_the_workflow_run_head_sha(tmp_path: Path) -> None:
    from gate.github import publish

    env = _workflow_run(tmp_path)
    assert publish.head_sha({**env, "GITHUB_SHA": "b" * 40}) == "d" * 40


def test_a_merge_queue_publishes_on_the_groups_head_commit(tmp_path: Path) -> None:
    """Issue 22: a ``merge_group`` run publishes on the commit the queue tests."""
    from gate.github import publish

    event = tmp_path / "merge_group.json"
    event.write_text(json.dumps({"action": "checks_requested", "merge_group": {
        "head_sha": "E" * 40, "head_ref": "refs/heads/gh-readonly-queue/main/pr-7-" + "a" * 40,
        "base_sha": "f" * 40, "base_ref": "refs/heads/main"}}))
    env = {"GITHUB_EVENT_PATH": str(event), "GITHUB_SHA": "b" * 40}
    assert publish.head_sha(env) == "e" * 40
    event.write_text(json.dumps({"merge_group": {"head_sha": "not a sha"}}))
    assert publish.head_sha(env) == "b" * 40


def test_the_workflows_run_in_the_merge_queue_too() -> None:
    """The README's workflow and the example run on ``merge_group`` as on ``pull_request``."""
    import yaml

    root = Path(__file__).resolve().parent.parent
    for path in (root / "examples" / "workflows" / "python.yml",
                 root / ".github" / "workflows" / "example.yml"):
        on = yaml.safe_load(path.read_text())[True]  # YAML 1.1 reads `on` as True
        assert "merge_group" in on and "pull_request" in on, path


# --- re-runs: a stamp leg run again as attempt 2 ------------------------------------------------


def _leg(tmp_path: Path, server_class: str, attempt: str, junit: str, exit_code: str) -> str:
    """One stamp leg (job `stamp`) of attempt ``attempt``, as action.yml runs it; the artifact
    lands in the runner's stamps-out folder, which the gate below reads like a download."""
    env = _env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS=server_class,
               GATE_MANIFEST=str(EXAMPLES / "manifest.yml"), GATE_ROOT=str(EXAMPLES),
               GATE_JUNIT=str(EXAMPLES / "junit" / junit), GATE_EXIT_CODE=exit_code,
               GITHUB_JOB="stamp", GITHUB_RUN_ATTEMPT=attempt)
    assert action.run(env, gate_main=cli.main) == 0
    return _outputs(tmp_path / "output.txt")["artifact-name"]


def _gate_attempt_2(tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "runner" / "agent-patch-gate" / "stamps-out"
    code = action.run(_env(tmp_path, GATE_STAMPS_DIR=str(out), GITHUB_RUN_ATTEMPT="2",
                           GATE_FAIL_ON_CLOSED="false"))
    assert code == 0
    report: dict[str, Any] = json.loads(
        Path(_outputs(tmp_path / "output.txt")["report"]).read_text())
    return report


def test_rerunning_one_leg_that_agrees_gives_the_same_decision(tmp_path: Path) -> None:
    """Re-run of the local-pinned leg (attempt 2) that says what attempt 1 said: one result seen
    twice, paired once; the same-class pair is reported as a rerun."""
    first = _leg(tmp_path, LOCAL, "1", "local-pinned.xml", "0")
    _leg(tmp_path, FREE, "1", "local-pinned.xml", "0")
    again = _leg(tmp_path, LOCAL, "2", "local-pinned.xml", "0")
    assert re.fullmatch(r"gate-stamps-local-pinned-stamp-1-[0-9a-f]{8}", first)
    assert re.fullmatch(r"gate-stamps-local-pinned-stamp-2-[0-9a-f]{8}", again)
    report = _gate_attempt_2(tmp_path)
    assert report["decision"] == "open"
    for pair in report["pairs"]:
        assert pair["action"] == "accept_candidate"
        assert "1 agreeing same-class repeat" in pair["reason"]
    # Both attempts' local-pinned stamps were read; they pair as a rerun (which one is "latest"
    # follows written_at, equal within this test's second, then run id).
    assert len(report["reruns"]) == 3
    for rerun in report["reruns"]:
        assert {r["source"].split("/")[0] for r in rerun["runs"]} == {first, again}


def test_rerunning_one_leg_never_hides_a_red(tmp_path: Path) -> None:
    """Attempt 1's free-server leg was red for parser_round_trip; a re-run that comes back green
    disagrees with it: reject_duplicate_stamps, whichever attempt is newer."""
    _leg(tmp_path, LOCAL, "1", "local-pinned.xml", "0")
    _leg(tmp_path, FREE, "1", "free-server.xml", "1")
    _leg(tmp_path, FREE, "2", "local-pinned.xml", "0")
    report = _gate_attempt_2(tmp_path)
    assert report["decision"] == "closed"
    by_test = {p["test_id"]: p for p in report["pairs"]}
    assert by_test["parser_round_trip"]["action"] == "reject_duplicate_stamps"
    assert "disagree" in by_test["parser_round_trip"]["reason"]
    # attempt 1 skipped lexer_unicode (resource_exit, discarded): attempt 2's pass pairs.
    assert by_test["lexer_unicode"]["action"] == "accept_candidate"
    assert "discarded" in by_test["lexer_unicode"]["reason"]
    assert by_test["tokenizer_total"]["action"] == "accept_candidate"
