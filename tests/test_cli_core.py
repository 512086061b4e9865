"""The `gate` command: exit status 0/1/2 for every subcommand, one stderr line, output formats."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gate
from tests.core_helpers import (
    FREE,
    LOCAL,
    NOW,
    PAST,
    SHA_X,
    allow_entry,
    assert_bad_input,
    binding_record,
    bootstrapped,
    four_lines,
    policy_yaml,
    run_cli,
    run_record,
    sha256_hex,
    stamp,
    write_json,
)

# --- usage -------------------------------------------------------------------------------------


def test_version() -> None:
    result = run_cli("--version")
    assert (result.code, result.out, result.err) == (0, f"gate {gate.__version__}\n", "")


def test_version_as_a_module_and_console_script() -> None:
    module = subprocess.run([sys.executable, "-m", "gate", "--version"], capture_output=True,
                            text=True, check=False, timeout=60)
    assert (module.returncode, module.stdout) == (0, f"gate {gate.__version__}\n")


def test_bad_input_in_a_real_process(tmp_path: Path) -> None:
    bad = write_json(tmp_path / "bad.json", {"oracle_passed": None})
    proc = subprocess.run([sys.executable, "-m", "gate", "triage", str(bad), str(bad)],
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert str(bad) in proc.stderr and "transport_ok" in proc.stderr


@pytest.mark.parametrize(
    "argv",
    [[], ["frobnicate"], ["halt"], ["receipt"], ["policy"], ["halt", "bind"],
     ["triage", "only-one.json"], ["classify", "--now", "soon"], ["hash", "--bogus", "x"]],
)
def test_usage_errors_exit_2(argv: list[str]) -> None:
    assert_bad_input(run_cli(*argv), "(usage)")


# --- one stderr line ---------------------------------------------------------------------------


def test_error_is_one_line_even_for_a_multi_line_name(tmp_path: Path) -> None:
    bad = tmp_path / "two\nlines.json"
    bad.write_text("{\n\n  oops\n", encoding="utf-8")
    result = run_cli("triage", bad, bad)
    assert result.code == 2
    assert len(result.err_lines) == 1
    assert "two\\nlines.json" in result.err and "(json)" in result.err


@pytest.mark.parametrize("kind", ["dir", "fifo", "symlink"])
def test_record_that_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    good = write_json(tmp_path / "good.json", run_record(None, False))
    target = tmp_path / "odd.json"
    if kind == "dir":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(good)
    assert_bad_input(run_cli("triage", target, good), str(target), "(file)")
    good_stamp = write_json(tmp_path / "stamp.json", stamp(LOCAL, "pass"))
    assert_bad_input(run_cli("classify", good_stamp, target, "--now", NOW), str(target),
                     "(file)")


def test_record_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_json(tmp_path / "r.json", run_record(None, False))
    monkeypatch.setenv("GATE_MAX_RECORD_BYTES", "10")
    assert_bad_input(run_cli("triage", path, path), str(path), "(file)")
    monkeypatch.setenv("GATE_MAX_RECORD_BYTES", "ten")
    assert_bad_input(run_cli("triage", path, path), "GATE_MAX_RECORD_BYTES")


# --- every subcommand, every exit code ---------------------------------------------------------


def test_hash_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "a.txt").write_bytes(b"a")
    ok = run_cli("hash", tmp_path / "fx", "--root", tmp_path)
    assert (ok.code, len(ok.out), ok.err) == (0, 65, "")
    assert_bad_input(run_cli("hash", tmp_path / "nope", "--root", tmp_path), "nope", "(path)")


def test_hash_relative_to_the_working_directory(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "a.txt").write_bytes(b"a")
    monkeypatch.chdir(tmp_path)
    assert run_cli("hash", "fx").out == run_cli("hash", tmp_path / "fx", "--root",
                                                tmp_path).out


def test_pin_exit_codes(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_bytes(b"{}")
    ok = run_cli("pin", f)
    assert (ok.code, ok.lines) == (0, [f"fixture_sha256={sha256_hex(b'{}')}"])
    assert_bad_input(run_cli("pin", tmp_path / "nope.json"), "nope.json", "(file)")


def _stamps(tmp_path: Path, lo: str, fo: str) -> tuple[Path, Path]:
    a = write_json(tmp_path / f"l-{lo}.json", stamp(LOCAL, lo, run_id="L", fixture_sha256=SHA_X))
    b = write_json(tmp_path / f"f-{fo}.json", stamp(FREE, fo, run_id="F", fixture_sha256=SHA_X))
    return a, b


def test_classify_exit_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = _stamps(tmp_path, "pass", "pass")
    ok = run_cli("classify", a, b, "--now", NOW)
    assert (ok.code, ok.err) == (0, "")
    assert ok.lines == ["action=accept_candidate", *four_lines(SHA_X, "none", False, None)]
    a, b = _stamps(tmp_path, "assert_fail", "assert_fail")
    closed = run_cli("classify", a, b, "--now", NOW)
    assert (closed.code, closed.lines) == (1, ["action=reject_stable_fail",
                                               *four_lines(SHA_X, "property_miss", False, None)])
    bad = write_json(tmp_path / "bad.json", dict(stamp(FREE, "pass"), outcome=None))
    assert_bad_input(run_cli("classify", a, bad, "--now", NOW), str(bad), "outcome")


def test_classify_uses_the_default_policy_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = _stamps(tmp_path, "pass", "assert_fail")
    assert run_cli("classify", a, b, "--now", NOW).lines[0] == "action=reject_not_allowlisted"
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "gate-policy.yml").write_text(policy_yaml([allow_entry()]),
                                                           encoding="utf-8")
    frozen = run_cli("classify", a, b, "--now", NOW)
    assert (frozen.code, frozen.lines) == (0, ["action=freeze_inside_server_class",
                                               *four_lines(SHA_X, "unclassified", False, None)])


def test_triage_exit_codes(tmp_path: Path) -> None:
    flake = write_json(tmp_path / "flake.json", run_record(None, False))
    flake2 = write_json(tmp_path / "flake2.json", run_record(None, False, run_id="r2"))
    red = write_json(tmp_path / "red.json", run_record(False, True))
    red2 = write_json(tmp_path / "red2.json", run_record(False, True, run_id="r2"))
    ok = run_cli("triage", flake, flake2)
    assert (ok.code, ok.lines, ok.err) == (0, four_lines(SHA_X, "harness_flake", True, None), "")
    closed = run_cli("triage", red, red2)
    assert (closed.code, closed.lines) == (1, four_lines(SHA_X, "property_miss", False, None))
    # issue 14 class 11: one record twice is one attempt, never a pair
    assert_bad_input(run_cli("triage", flake, flake), "run_id", "one attempt")
    bad = write_json(tmp_path / "bad.json", run_record(None, False, status_code=1.5))
    assert_bad_input(run_cli("triage", bad, flake), str(bad), "status_code")


def test_receipt_exit_codes(tmp_path: Path) -> None:
    diff = tmp_path / "d.diff"
    diff.write_bytes(b"+x\n")
    prompt = tmp_path / "p.txt"
    prompt.write_bytes(b"review")
    reasons = write_json(tmp_path / "reasons.json", ["ok"])
    out = tmp_path / "attempt-7" / "receipt.json"
    common = ["--diff", diff, "--prompt", prompt, "--model", "m", "--workspace-gen", "5"]
    wrote = run_cli("receipt", "write", *common, "--verdict", "pass", "--reasons-file",
                    reasons, "--out", out)
    assert (wrote.code, wrote.lines) == (0, [str(out)])
    place = bootstrapped(out.parent, "5")
    accepted = run_cli("receipt", "verify", *common, "--receipt", out, *place)
    assert (accepted.code, accepted.out) == (0, "accept\n")
    stale = run_cli("receipt", "verify", *common[:-1], "6", "--receipt", out, *place)
    assert (stale.code, stale.out) == (1, "reject: workspace_generation\n")
    assert_bad_input(run_cli("receipt", "write", *common, "--verdict", "pass", "--reasons-file",
                             write_json(tmp_path / "r2.json", []), "--out", tmp_path / "x.json"),
                     "r2.json", "reasons")
    assert_bad_input(run_cli("receipt", "verify", "--diff", tmp_path / "nope", "--prompt",
                             prompt, "--model", "m", "--workspace-gen", "5", "--receipt", out,
                             *place), "nope", "(file)")
    selftest = run_cli("receipt", "selftest")
    assert (selftest.code, selftest.lines[-1]) == (
        0, "receipt selftest: 18 of 18 cases as expected")


def test_halt_exit_codes(tmp_path: Path) -> None:
    ledger_path = tmp_path / "l.jsonl"
    bound = run_cli("halt", "bind", "--ledger", ledger_path, "--run-id", "run-1", "--scope",
                    "lab.invalid", "--host", "api.lab.invalid")
    assert bound.code == 0
    assert json.loads(bound.out) == binding_record()
    binding = write_json(tmp_path / "b.json", json.loads(bound.out))
    live = write_json(tmp_path / "live.json", binding_record(host="api.example.com"))

    def check(b: Path, attempt: str) -> tuple[int, str]:
        r = run_cli("halt", "check", "--ledger", ledger_path, "--binding", b, "--issued-gen", 1,
                    "--attempt-id", attempt)
        return r.code, r.out

    assert check(binding, "a1") == (0, "allow\n")
    assert check(live, "a2") == (1, "halt\n")
    assert check(write_json(tmp_path / "swap.json", binding_record(host="b.lab.invalid")),
                 "a3") == (1, "reject\n")
    audit = run_cli("halt", "audit", ledger_path)
    assert (audit.code, audit.lines) == (0, ["failed=0 denominator=3"])
    assert_bad_input(run_cli("halt", "check", "--ledger", ledger_path, "--binding",
                             tmp_path / "absent.json", "--issued-gen", 1, "--attempt-id", "a4"),
                     "absent.json", "(file)")
    assert_bad_input(run_cli("halt", "bind", "--ledger", ledger_path, "--run-id", "run-1",
                             "--scope", "lab.invalid", "--host", "x.lab.invalid",
                             "--expect-generation", 5), str(ledger_path), "generation")
    assert_bad_input(run_cli("halt", "audit", tmp_path / "none.jsonl"), "none.jsonl", "(file)")
    with ledger_path.open("ab") as handle:
        handle.write(b'{"v": 1')
    audit = run_cli("halt", "audit", ledger_path)
    assert (audit.code, audit.lines) == (1, ["chain: line 5: torn last line (no newline)",
                                             "failed=0 denominator=3"])


def test_policy_check_exit_codes(tmp_path: Path) -> None:
    healthy = tmp_path / "ok.yml"
    healthy.write_text(policy_yaml([allow_entry()]), encoding="utf-8")
    ok = run_cli("policy", "check", healthy, "--now", NOW)
    assert (ok.code, ok.lines[-1]) == (0, "policy: 1 entries, 0 findings")
    assert "EXPIRES WITHIN 7 DAYS" in ok.lines[0] and ok.lines[0].endswith(" UTC, in 1 day")
    expired = tmp_path / "old.yml"
    expired.write_text(policy_yaml([allow_entry(expires=PAST)]), encoding="utf-8")
    rot = run_cli("policy", "check", expired, "--now", NOW)
    assert rot.code == 1
    assert rot.lines[-1] == "policy: 1 entries, 1 findings"
    assert rot.lines[0].startswith(f"{expired}: allowlist.0: EXPIRED: ")
    assert rot.lines[1].startswith(f"{expired}: allowlist.0 ")
    broken = tmp_path / "broken.yml"
    broken.write_text("allowlist:\n  - test_id: x\n", encoding="utf-8")
    assert_bad_input(run_cli("policy", "check", broken, "--now", NOW), str(broken),
                     "allowlist.0")
    assert_bad_input(run_cli("policy", "check", tmp_path / "absent.yml"), "absent.yml")


def test_demo() -> None:
    result = run_cli("demo")
    assert result.code == 0
    assert result.err == ""
    # the demo grows as gates are added: every decision it shows must be as expected
    summary = re.fullmatch(r"demo: (\d+) of (\d+) decisions as expected", result.lines[-1])
    assert summary is not None and summary[1] == summary[2] and int(summary[1]) >= 19
    assert not any(line.lstrip().startswith("FAIL") for line in result.lines)
    assert any(line.startswith("  ok   audit of that ledger") and
               line.endswith("failed=0 denominator=5") for line in result.lines)


# --- output paths that cannot be written are bad input, not a traceback ------------------------


def test_unwritable_outputs_are_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = _stamps(tmp_path, "pass", "pass")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert_bad_input(run_cli("classify", a, b, "--now", NOW, "--report", folder), str(folder),
                     "(file)")
    blocker = tmp_path / "plain-file"
    blocker.write_bytes(b"")
    out = blocker / "report.json"
    assert_bad_input(run_cli("classify", a, b, "--now", NOW, "--report", out), str(out),
                     "(file)")
    sample = tmp_path / "s.json"
    sample.write_bytes(b"[]")
    assert_bad_input(run_cli("pin", sample, "--store", blocker), "plain-file", "(file)")


def test_ledger_that_is_a_folder_is_bad_input(tmp_path: Path) -> None:
    folder = tmp_path / "ledger"
    folder.mkdir()
    binding = write_json(tmp_path / "b.json", binding_record())
    assert_bad_input(run_cli("halt", "check", "--ledger", folder, "--binding", binding,
                             "--issued-gen", 1, "--attempt-id", "a"), str(folder), "(file)")
    assert_bad_input(run_cli("halt", "bind", "--ledger", folder, "--run-id", "r", "--scope",
                             "lab.invalid", "--host", "a.lab.invalid"), str(folder), "(file)")
    assert_bad_input(run_cli("halt", "audit", folder), str(folder), "(file)")


def test_halt_report_that_cannot_be_written(tmp_path: Path) -> None:
    ledger_path = tmp_path / "l.jsonl"
    folder = tmp_path / "report-folder"
    folder.mkdir()
    live = write_json(tmp_path / "b.json", binding_record(host="api.example.com"))
    result = run_cli("halt", "check", "--ledger", ledger_path, "--binding", live,
                     "--issued-gen", 1, "--attempt-id", "a", "--halt-report", folder)
    assert_bad_input(result, str(folder), "(file)")
    # the halt itself was recorded before the report failed, and stands
    audit = run_cli("halt", "audit", ledger_path)
    assert (audit.code, audit.lines) == (0, ["failed=0 denominator=1"])


def test_policy_check_flags_the_suggested_entrys_placeholders(tmp_path: Path) -> None:
    """Newcomer trial: the suggested entry pasted unedited passed ``gate policy check``."""
    pasted = tmp_path / "pasted.yml"
    pasted.write_text(policy_yaml([dict(allow_entry(), owner="@OWNER", reason="REASON",
                                        issue="ISSUE-URL")]), encoding="utf-8")
    result = run_cli("policy", "check", pasted, "--now", NOW)
    assert result.code == 1 and result.lines[-1] == "policy: 1 entries, 3 findings"
    found = [line for line in result.lines if "placeholder" in line]
    assert len(found) == 3
    for line, field, mark in zip(found, ("owner", "reason", "issue"),
                                 ("'@OWNER'", "'REASON'", "'ISSUE-URL'"), strict=True):
        assert line.startswith(f"{pasted}: allowlist.0 (")
        assert f": {field} is the placeholder {mark}" in line and "fix: replace it" in line
