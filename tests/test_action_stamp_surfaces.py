"""Stamp mode on the job's surfaces: a summary when the stamps are written, and an ``::error``
plus the failure summary on every exit 2, file-system errors included (they name the file, the
field and the fix).

Runs ``gate action``'s entry point (:func:`gate.github.action.run`) in-process with an
environment, as tests/test_action.py does, and reads stdout and ``$GITHUB_STEP_SUMMARY``.
The stamp job's summary has golden files (tests/golden/stamp-written/); regenerate them after
a deliberate change with ``GATE_UPDATE_GOLDEN=1 pytest tests/test_action_stamp_surfaces.py``
and read the diff.
"""

from __future__ import annotations

import errno
import html
import json
import os
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gate.commands import main as cli
from gate.errors import GateInputError
from gate.github import action, review, summary, workflow
from tests.core_helpers import FREE, LOCAL, run_cli
from tests.test_action import EXAMPLES, _env, _outputs
from tests.test_review_golden import check_golden

SUMMARY_HEAD = "## ❌ agent-patch gate: stamp failed\n"


def _junit_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """Stamp mode on the example properties through JUnit (the recorded free-server run)."""
    given = {"GATE_MODE": "stamp", "GATE_SERVER_CLASS": FREE, "GITHUB_JOB": "stamp",
             "GATE_MANIFEST": str(EXAMPLES / "manifest.yml"), "GATE_ROOT": str(EXAMPLES),
             "GATE_JUNIT": str(EXAMPLES / "junit" / "free-server.xml"), "GATE_EXIT_CODE": "1"}
    return _env(tmp_path, **{**given, **extra})


def _errors(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("::error")]


def _summary(tmp_path: Path) -> str:
    return (tmp_path / "summary.md").read_text(encoding="utf-8")


def _one_error_and_summary(tmp_path: Path, out: str, raised: GateInputError,
                           env: dict[str, str]) -> str:
    """Exactly one ``::error`` (escaped for workflow commands) saying what the exit-2 line says,
    and the failure summary saying it too. Returns the words."""
    errors = _errors(out)
    assert len(errors) == 1, out
    head, _, data = errors[0][len("::error "):].partition("::")
    props = dict(part.split("=", 1) for part in head.split(","))
    assert workflow.unescape_property(props["title"]) == action.STAMP_FAILED
    words = action.bad_input_words(raised, env)
    assert workflow.unescape_data(data) == words
    text = _summary(tmp_path)
    assert text.startswith(SUMMARY_HEAD) and text.count(SUMMARY_HEAD) == 1
    assert words in html.unescape(text)  # escaped by gate.github.markdown, decoded on GitHub
    assert str(tmp_path) not in words  # the runner's temp folder is $RUNNER_TEMP
    return words


# -- the summary of a stamp job that wrote its stamps -------------------------------------------


def test_a_green_stamp_job_summarises_what_it_stamped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = _junit_env(tmp_path, GITHUB_SERVER_URL="https://github.com",
                     GITHUB_REPOSITORY="acme/widgets", GITHUB_RUN_ID="42")
    assert action.run(env, gate_main=cli.run_raising) == 0
    assert _errors(capsys.readouterr().out) == []
    outputs = _outputs(tmp_path / "output.txt")
    stamps = [json.loads(p.read_text()) for p in Path(outputs["stamps-dir"]).glob("*.json")]
    outcomes = sorted(s["outcome"] for s in stamps)
    text = _summary(tmp_path)
    assert text.startswith("## 📦 agent-patch gate: 3 free-server stamps written\n")
    assert f"in the artifact `{outputs['artifact-name']}`" in text
    assert f"| pass | {outcomes.count('pass')} |" in text
    assert f"| red (`assert_fail`) | {outcomes.count('assert_fail')} |" in text
    inconclusive = outcomes.count("resource_exit") + outcomes.count("empty_body")
    assert f"| inconclusive (`resource_exit`, `empty_body`) | {inconclusive} |" in text
    # the recorded run: one red, one with no result, shown by name
    assert (outcomes.count("assert_fail"), inconclusive) == (1, 1)
    assert "- ❌ **parser&#95;round&#95;trip**: red (assert&#95;fail)" in text
    assert "- ⚠️ **lexer&#95;unicode**: inconclusive (resource&#95;exit)" in text
    # the JUnit route: the cards were only hashed, and the summary says how to have them govern
    assert "were hashed into the stamps, **not applied**" in text
    assert f"3 sample cards of the manifest `{EXAMPLES / 'manifest.yml'}`" in text
    assert "[this workflow run](https://github.com/acme/widgets/actions/runs/42)" in text
    assert "The gate job (`mode: gate`)" in text and "decides" in text


def test_the_recorder_route_says_the_cards_govern(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_hypothesis_card import workspace

    root = tmp_path / "w"
    workspace(root, {"draws": 1})
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    command = (f"cd {shlex.quote(str(root))} && {shlex.quote(sys.executable)} -m pytest -q "
               "-k test_draws hypo_props.py")
    env = _env(tmp_path, GATE_MODE="stamp", GATE_SERVER_CLASS=LOCAL, GITHUB_JOB="stamp",
               GATE_MANIFEST=str(root / "gate.yml"), GATE_ROOT=str(root), GATE_COMMAND=command)
    assert action.run(env, gate_main=cli.run_raising) == 0
    text = _summary(tmp_path)
    assert text.startswith("## 📦 agent-patch gate: 1 local-pinned stamp written\n")
    assert "| pass | 1 |" in text and "Not green here" not in text
    assert "the gate's recorder applied the 1 sample card of the manifest" in text
    assert "the cards govern, so both server classes draw the same examples" in text
    assert "not applied" not in text


def test_a_summary_that_cannot_be_written_leaves_the_stamps_to_upload(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "summary.md").mkdir()
    assert action.run(_junit_env(tmp_path), gate_main=cli.run_raising) == 0
    err = capsys.readouterr().err
    assert "gate: job summary not written ($GITHUB_STEP_SUMMARY)" in err
    assert len(list(Path(_outputs(tmp_path / "output.txt")["stamps-dir"]).glob("*.json"))) == 3


def _golden_stamps() -> list[dict[str, Any]]:
    where = {"path": "tests/test_props.py"}
    return [
        {"test_id": "tests/test_props.py::test_sort_stable", "outcome": "pass",
         "location": {**where, "line": 10}},
        {"test_id": "tests/test_props.py::test_locale_round_trip", "outcome": "assert_fail",
         "location": {**where, "line": 31},
         "failure": {"type": "AssertionError",
                     "message": "assert parse(render(doc)) == doc\n  where doc = Doc()"}},
        {"test_id": "tests/test_props.py::test_big_input", "outcome": "resource_exit",
         "location": {**where, "line": 52}, "note": "the test command was killed: timeout"},
        {"test_id": "**bold** <script>alert(1)</script> | [x](javascript:alert(1))",
         "outcome": "empty_body", "note": "`tick` <b>&"},
    ]


def _golden_view() -> review.View:
    from tests import golden_cases as g

    return review.View(server_url="https://github.com", repository="octo/props",
                       head_sha=g.HEAD, run_url="https://github.com/octo/props/actions/runs/42")


def _golden_text(recorder: bool) -> str:
    stamps = _golden_stamps()
    if recorder:  # the level the sealed command ran at (gate/testrun/isolation.py)
        stamps = [{**s, "isolation": {"level": "namespace", "by": "bwrap", "ptrace_scope": 1}}
                  for s in stamps]
    return summary.render_stamp_done(
        stamps, server_class=FREE,
        artifact="gate-stamps-free-server-stamp-1-0a1b2c3d", manifest=".github/gate.yml",
        recorder=recorder, view=_golden_view())


@pytest.mark.parametrize("route", ["recorder", "junit"])
def test_golden_stamp_written(route: str) -> None:
    check_golden(f"stamp-written/{route}-summary.md", _golden_text(route == "recorder"))


def test_the_stamp_summary_lists_at_most_so_many() -> None:
    stamps = [{"test_id": f"t{i}", "outcome": "assert_fail"} for i in range(25)]
    text = summary.render_stamp_done(stamps, server_class=LOCAL, artifact="a",
                                     manifest="m.yml", recorder=True, max_listed=20)
    assert text.count("\n- ❌ ") == 20
    assert "- … and 5 more (the stamps in the artifact say which)" in text


def test_the_stamp_summary_renders_as_text() -> None:
    from tests.test_review_render import VISIBLE_ESCAPE, page, render

    md = _golden_text(True)
    parsed = page(md)
    text = "".join(parsed.text)
    assert not VISIBLE_ESCAPE.findall(text), VISIBLE_ESCAPE.findall(text)[:5]
    assert "<script" not in render(md) and "<b>" not in render(md)
    assert "**bold** <script>alert(1)</script> | [x](javascript:alert(1))" in text
    assert "`tick` <b>&" in text
    assert "AssertionError: assert parse(render(doc)) == doc" in text
    assert parsed.links == [
        f"https://github.com/octo/props/blob/{_golden_view().head_sha}/tests/test_props.py#L31",
        f"https://github.com/octo/props/blob/{_golden_view().head_sha}/tests/test_props.py#L52",
        "https://github.com/octo/props/actions/runs/42"]
    assert "| pass | 1 |" not in text  # a table, rendered: cells, not pipes
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td>(.*?)</td>", render(md), re.S)
    assert [count for _, count in rows] == ["1", "1", "2"]


# -- every exit 2 of stamp mode reaches the surfaces --------------------------------------------


def test_a_file_where_the_stamps_folder_goes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = _junit_env(tmp_path)
    (tmp_path / "runner" / "agent-patch-gate").write_text("not a folder\n")
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=cli.run_raising)
    words = _one_error_and_summary(tmp_path, capsys.readouterr().out, caught.value, env)
    assert caught.value.field == "(folder)"
    assert words.startswith("$RUNNER_TEMP/agent-patch-gate/stamps-out/gate-stamps-free-server-")
    assert ("cannot make the stamps' folder: cannot open: a component of the path is not a "
            "folder; a file stands where the stamps' folder must be") in words
    assert "remove that file from the runner's temp folder and re-run the job" in words
    # no stamps to upload; only the record of why, for the gate job (issue 29 item 4)
    assert set(_outputs(tmp_path / "output.txt")) == {"failure-dir", "failure-artifact"}


def test_a_stamps_folder_that_is_not_writable(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As root, a mode bit refuses nothing: the refusal comes from the operating system call."""
    real = os.mkdir

    def refuse(path: Any, *args: Any, **kwargs: Any) -> None:
        if "stamps-out" in os.fspath(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        real(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", refuse)
    env = _junit_env(tmp_path)
    ran: list[list[str]] = []
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=lambda argv: ran.append(argv) or 0)
    words = _one_error_and_summary(tmp_path, capsys.readouterr().out, caught.value, env)
    assert ran == []  # refused before the tests run, not after
    assert "cannot make the stamps' folder: cannot open: Permission denied" in words
    assert "the runner's user must be able to write $RUNNER_TEMP" in words


def _fixed_name(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    import secrets

    monkeypatch.setattr(secrets, "token_hex", lambda n: "0a1b2c3d")
    return (tmp_path / "runner" / "agent-patch-gate" / "stamps-out" /
            "gate-stamps-free-server-stamp-1-0a1b2c3d")


def test_a_stamps_folder_that_exists_already(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = _fixed_name(monkeypatch, tmp_path)
    out.mkdir(parents=True)
    env = _junit_env(tmp_path)
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=cli.run_raising)
    words = _one_error_and_summary(tmp_path, capsys.readouterr().out, caught.value, env)
    assert "cannot make the stamps' folder: already exists; stamps are write-once" in words
    assert "a self-hosted runner keeps $RUNNER_TEMP between jobs: clean it" in words


def test_a_stamp_that_exists_already(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``gate stamp``'s own write-once refusal, on a stamp that appeared in the fresh folder."""
    out = _fixed_name(monkeypatch, tmp_path)

    def racing(argv: list[str]) -> int:
        prefix = argv[argv.index("--run-id-prefix") + 1]
        (out / f"{prefix}.2.json").write_text("{}\n")
        return cli.run_raising(argv)

    env = _junit_env(tmp_path)
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=racing)
    words = _one_error_and_summary(tmp_path, capsys.readouterr().out, caught.value, env)
    assert caught.value.field == "(file)"
    assert words.startswith(
        "$RUNNER_TEMP/agent-patch-gate/stamps-out/gate-stamps-free-server-stamp-1-0a1b2c3d/"
        "0a1b2c3d-stamp-1.2.json: (file): already exists; never overwritten; stamps are "
        "write-once")


def test_an_operating_system_error_inside_gate_stamp(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorder's private folder cannot be made (``gate stamp`` leaves the OSError to the
    command line's edge): it is still one ::error and the summary, with the fix."""
    import tempfile

    def full(*args: Any, **kwargs: Any) -> str:
        raise OSError(errno.ENOSPC, "No space left on device", "/tmp/gate-recorder-x")

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    env = _junit_env(tmp_path, GATE_JUNIT="", GATE_EXIT_CODE="", GATE_COMMAND="true")
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=cli.run_raising)
    words = _one_error_and_summary(tmp_path, capsys.readouterr().out, caught.value, env)
    assert words == ("/tmp/gate-recorder-x: (file): No space left on device; free space on the "
                     "file system that holds it, then re-run the job")


def _raise(exc: BaseException) -> Callable[[list[str]], int]:
    def gate_main(argv: list[str]) -> int:
        raise exc
    return gate_main


@pytest.mark.parametrize(("exc", "field", "said"), [
    (KeyboardInterrupt("signal 15"), "(interrupted)", "the job was cancelled or reached its "
     "timeout-minutes"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "(text)",
     "not UTF-8 text (UnicodeDecodeError)"),
    (ValueError("embedded null byte"), "(path)", "a path holds a NUL character"),
    (PermissionError(errno.EACCES, "Permission denied", "/srv/cards/a.json"), "(file)",
     "/srv/cards/a.json: (file): Permission denied; the runner's user must be able to read and "
     "write it"),
    (OSError(errno.EIO, "Input/output error", "/srv/cards/a.json"), "(file)",
     "Input/output error; the operating system refused the file it names"),
])
def test_every_exit_2_reaches_the_surfaces(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        exc: BaseException, field: str, said: str) -> None:
    env = _junit_env(tmp_path)
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=_raise(exc))
    assert caught.value.field == field
    assert said in _one_error_and_summary(tmp_path, capsys.readouterr().out, caught.value, env)


def test_an_operating_system_error_on_a_stamp_names_the_runners_temp_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = _junit_env(tmp_path)
    stamp = tmp_path / "runner" / "agent-patch-gate" / "stamps-out" / "x" / "1.json"
    with pytest.raises(GateInputError):
        action.run(env, gate_main=_raise(OSError(errno.ENOSPC, "No space left on device",
                                                 str(stamp))))
    (error,) = _errors(capsys.readouterr().out)
    assert workflow.unescape_data(error.split("::", 2)[2]) == (
        "$RUNNER_TEMP/agent-patch-gate/stamps-out/x/1.json: (file): No space left on device; "
        "free space in the runner's temp folder ($RUNNER_TEMP), then re-run the job")


@pytest.mark.parametrize("exc", [BrokenPipeError(errno.EPIPE, "Broken pipe"),
                                 ValueError("another bug")])
def test_what_is_not_bad_input_goes_on_unreported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], exc: BaseException) -> None:
    with pytest.raises(type(exc)):
        action.run(_junit_env(tmp_path), gate_main=_raise(exc))
    assert _errors(capsys.readouterr().out) == []
    assert not (tmp_path / "summary.md").exists()


def test_a_failure_summary_that_cannot_be_written_keeps_the_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = _junit_env(tmp_path)
    (tmp_path / "summary.md").mkdir()
    (tmp_path / "runner" / "agent-patch-gate").write_text("")
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=cli.run_raising)
    assert caught.value.field == "(folder)"  # the stamp's error, not the summary's
    captured = capsys.readouterr()
    assert len(_errors(captured.out)) == 1
    assert "gate: job summary not written ($GITHUB_STEP_SUMMARY)" in captured.err


def test_gate_action_reports_a_file_system_error_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the command line (what action.yml runs): exit 2, one stderr line with the fix,
    and one ::error on stdout."""
    for key, value in _junit_env(tmp_path).items():
        monkeypatch.setenv(key, value)
    (tmp_path / "runner" / "agent-patch-gate").write_text("")
    result = run_cli("action")
    assert result.code == 2
    assert len(result.err_lines) == 1, result.err
    assert result.err_lines[0].startswith("gate: error: ")
    assert "remove that file from the runner's temp folder" in result.err_lines[0]
    assert len(_errors(result.out)) == 1
    assert _summary(tmp_path).startswith(SUMMARY_HEAD)
