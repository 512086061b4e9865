"""Issue 14 classes 3, 4 and 5: bytes that are not UTF-8, paths the OS refuses, surfaces that
cannot be written. The mechanism is the edge in gate.commands.main.main (every argument is
checked as text; OSError/UnicodeError below become one line) plus gate.records.files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gate.records import report
from tests.core_helpers import (
    FREE,
    LOCAL,
    NOW,
    assert_bad_input,
    run_cli,
    stamp,
    write_json,
)

BAD = "\udcff\udcfe"  # how Python decodes the argv bytes b"\xff\xfe"


def _tree(tmp_path: Path) -> dict[str, Path]:
    a = write_json(tmp_path / "a.json", stamp(LOCAL, "pass", run_id="A"))
    b = write_json(tmp_path / "b.json", stamp(FREE, "pass", run_id="B"))
    ledger = tmp_path / "l.jsonl"
    assert run_cli("halt", "bind", "--ledger", ledger, "--run-id", "r", "--scope",
                   "lab.invalid", "--host", "api.lab.invalid").code == 0
    return {"a": a, "b": b, "ledger": ledger}


ARGV_CASES = {
    "--host": lambda t: ["halt", "bind", "--ledger", t["ledger"], "--run-id", "r2", "--scope",
                         "lab.invalid", "--host", f"api{BAD}.lab.invalid"],
    "--run-id": lambda t: ["halt", "bind", "--ledger", t["ledger"], "--run-id", BAD, "--scope",
                           "lab.invalid", "--host", "api.lab.invalid"],
    "--attempt-id": lambda t: ["halt", "check", "--ledger", t["ledger"], "--binding", t["a"],
                               "--issued-gen", "1", "--attempt-id", BAD],
    "--test-id": lambda t: ["stamp", "--server-class", LOCAL, "--out", t["a"].parent / "o",
                            "--card", t["a"], "--test-id", BAD, "--fixtures", t["a"],
                            "--exit-code", "0"],
    "--model": lambda t: ["receipt", "verify", "--diff", t["a"], "--prompt", t["a"],
                          "--model", BAD, "--workspace-gen", "1", "--receipt", t["a"],
                          "--attempt-id", "a1", "--dir", t["a"].parent],
    "--pair": lambda t: ["classify", str(t["a"]) + BAD, t["b"]],
    "--ledger": lambda t: ["halt", "audit", str(t["ledger"]) + BAD],
}


@pytest.mark.parametrize("flag", list(ARGV_CASES))
def test_non_utf8_arguments_are_a_clean_exit_2_naming_them(tmp_path: Path, flag: str) -> None:
    argv = ARGV_CASES[flag](_tree(tmp_path))
    assert_bad_input(run_cli(*argv), flag, "not UTF-8")


def test_non_utf8_argv_bytes_in_a_real_process(tmp_path: Path) -> None:
    t = _tree(tmp_path)
    argv = [os.fsencode(sys.executable), b"-m", b"gate", b"halt", b"bind", b"--ledger",
            os.fsencode(t["ledger"]), b"--run-id", b"\xff", b"--scope", b"lab.invalid",
            b"--host", b"api.lab.invalid"]
    proc = subprocess.run(argv, capture_output=True, timeout=120, check=False)
    assert proc.returncode == 2, proc
    assert proc.stderr.count(b"\n") == 1 and b"--run-id" in proc.stderr, proc.stderr


def test_non_utf8_file_name_inside_an_artifact(tmp_path: Path) -> None:
    folder = tmp_path / "stamps"
    write_json(folder / "ok.json", stamp(LOCAL, "pass", run_id="A"))
    write_json(Path(os.fsdecode(os.fsencode(str(folder)) + b"/\xff.json")),
               stamp(FREE, "pass", run_id="B"))
    assert_bad_input(run_cli("classify", "--stamps", folder, "--now", NOW), "not UTF-8")


@pytest.mark.parametrize("shape", ["component is a file", "name too long", "embedded NUL"])
def test_paths_the_os_refuses(tmp_path: Path, shape: str) -> None:
    t = _tree(tmp_path)
    path = {"component is a file": f"{t['a']}/x.json",
            "name too long": str(tmp_path / ("n" * 400)),
            "embedded NUL": f"{t['a']}\x00.json"}[shape]
    for argv in (["classify", path, t["b"]], ["halt", "audit", path],
                 ["halt", "bind", "--ledger", path, "--run-id", "r", "--scope", "lab.invalid",
                  "--host", "api.lab.invalid"],
                 ["classify", t["a"], t["b"], "--now", NOW, "--report", path],
                 ["hash", path], ["pin", path]):
        assert_bad_input(run_cli(*argv))


def test_nul_in_a_manifest_path_names_the_property(tmp_path: Path) -> None:
    manifest = tmp_path / "gate.yml"
    manifest.write_text('version: 1\nproperties:\n  - test_id: t\n    card: "c\\0.json"\n'
                        "    fixtures: [f]\n    junit: {name: t}\n", encoding="utf-8")
    result = run_cli("stamp", "--server-class", LOCAL, "--out", tmp_path / "o", "--manifest",
                     manifest, "--root", tmp_path, "--junit", tmp_path / "j.xml",
                     "--exit-code", "0")
    assert_bad_input(result, "properties.0.card", "NUL")


def _report(tmp_path: Path, open_: bool) -> Path:
    a = stamp(LOCAL, "pass", run_id="A")
    b = stamp(FREE, "pass" if open_ else "assert_fail", run_id="B")
    from gate.decide import stamps

    pair = report.cross_class_pair(a, b, stamps.classify_pair(a, b, (), NOW))
    return write_json(tmp_path / "report.json", report.build([pair], NOW))


@pytest.mark.parametrize("open_", [True, False])
@pytest.mark.parametrize("shape", ["a folder", "component is a file", "a link", "a fifo"])
def test_unwritable_surfaces_are_one_line_and_the_status_is_the_decisions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_: bool, shape: str) -> None:
    rep = _report(tmp_path, open_)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "file")
    os.mkfifo(tmp_path / "fifo")
    target = {"a folder": tmp_path / "dir", "component is a file": tmp_path / "file" / "s",
              "a link": tmp_path / "link", "a fifo": tmp_path / "fifo"}[shape]
    want = 0 if open_ else 1
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    monkeypatch.setenv("GITHUB_OUTPUT", str(target))
    for command in ("summary", "outputs"):
        result = run_cli(command, "--report", rep)
        assert result.code == want, (command, result)
        assert len(result.err_lines) == 1 and "not written" in result.err, result.err
    assert (tmp_path / "file").read_text(encoding="utf-8") == "x"


def test_the_edge_names_the_file_of_an_os_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.commands import classify

    def boom(_args: object) -> int:
        raise PermissionError(13, "Permission denied", "/some/file")

    monkeypatch.setattr(classify, "cmd_triage", boom)
    result = run_cli("triage", "x", "y")
    assert_bad_input(result, "/some/file", "Permission denied")
    assert json.dumps(result.err)  # printable
