"""The command line fails closed under a signing policy (issue 27 break 8).

``gate classify --stamps DIR --policy P`` opened on unsigned stamps when ``P`` required
signatures: it never ran the signature check, and the report it wrote made ``gate summary``
say open too. Now ``gate classify`` (both forms) and ``gate triage`` check what they can
without the run (each required stamp's folder envelope against the policy's keys, and its
subjects), then exit 2 naming what only the run's context can check; ``gate summary``,
``gate publish`` and ``gate outputs`` refuse a report that says open under such a policy (a
report carries no signatures). With no ``signing.require`` nothing changes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from gate.errors import GateInputError
from tests.core_helpers import FREE, LOCAL, NOW, SHA_X, assert_bad_input, run_cli, stamp, write_json
from tests.test_signing import FREE_ART, LOCAL_ART, _policy, _signed_run

RUN_CONTEXT = "needs that run's context"


def _unsigned(tmp_path: Path) -> Path:
    """Two green stamps of one test, no envelope (the break: these opened)."""
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json",
               stamp(LOCAL, "pass", run_id="l1", fixture_sha256=SHA_X))
    write_json(tmp_path / "stamps" / FREE_ART / "f1.json",
               stamp(FREE, "pass", run_id="f1", fixture_sha256=SHA_X))
    return tmp_path / "stamps"


def test_classify_stamps_opens_unsigned_stamps_without_a_signing_policy(tmp_path: Path) -> None:
    stamps = _unsigned(tmp_path)
    (tmp_path / "plain.yml").write_text("allowlist: []\n", encoding="utf-8")
    result = run_cli("classify", "--stamps", stamps, "--policy", tmp_path / "plain.yml",
                     "--now", NOW)
    assert result.code == 0, result.err
    assert "decision=open" in result.out


def test_without_a_signing_policy_the_stamps_are_not_even_listed_for_it(tmp_path: Path) -> None:
    """``gate classify --stamps`` hands the check a generator of (path, stamp): read only under
    a policy requiring signatures (100,000 paths joined for nothing cost 0.1 s), and wholly,
    up to the first stamp it refuses, under one."""
    from gate.commands import signed
    from gate.records import policy

    (tmp_path / "plain.yml").write_text("allowlist: []\n", encoding="utf-8")
    pulled: list[int] = []

    def given() -> Iterator[tuple[str, dict[str, object]]]:
        for n, server_class in enumerate((LOCAL, FREE)):
            pulled.append(n)
            yield (str(tmp_path / f"s{n}.json"), {"server_class": server_class})

    signed.refuse_unverified(policy.load(tmp_path / "plain.yml"), given(), "gate classify")
    assert pulled == []
    with pytest.raises(GateInputError, match="signature"):
        signed.refuse_unverified(policy.load(_policy(tmp_path, require="all")), given(),
                                 "gate classify")
    assert pulled == [0, 1]


@pytest.mark.parametrize("require", ["local-pinned", "all"])
def test_classify_stamps_refuses_unsigned_stamps_under_a_signing_policy(
        tmp_path: Path, require: str) -> None:
    stamps = _unsigned(tmp_path)
    policy = _policy(tmp_path, require=require)
    report = tmp_path / "report.json"
    result = run_cli("classify", "--stamps", stamps, "--policy", policy, "--now", NOW,
                     "--report", report)
    named = f"{LOCAL_ART}/l1.json" if require == "local-pinned" else f"{FREE_ART}/f1.json"
    assert_bad_input(result, named, "signature",
                     f"the policy requires {require} stamps signed",
                     "missing: the folder holds no signed stamp set")
    assert "decision=open" not in result.out
    assert not report.exists()  # no report to show as open later


def test_classify_stamps_verifies_the_signatures_then_names_the_run_context(
        tmp_path: Path) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    result = run_cli("classify", "--stamps", tmp_path / "stamps", "--policy",
                     tmp_path / "policy.yml", "--now", NOW)
    assert_bad_input(result, "gate classify --stamps", "signing.require",
                     "the signatures of the 4 such stamps verify against its keys",
                     RUN_CONTEXT, "mode: gate")
    assert result.out == ""


@pytest.mark.parametrize("tamper", ["byte", "added", "other key"])
def test_classify_stamps_names_a_stamp_its_envelope_does_not_cover(
        tmp_path: Path, tamper: str) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    folder = tmp_path / "stamps" / LOCAL_ART
    if tamper == "byte":
        with (folder / "l1.json").open("a", encoding="utf-8") as handle:
            handle.write(" ")  # the same stamp, other bytes
        needles = ["l1.json", "has other bytes than were signed"]
    elif tamper == "added":
        write_json(folder / "l9.json", stamp(LOCAL, "pass", run_id="l9", test_id="late",
                                             fixture_sha256=SHA_X))
        needles = ["l9.json", "a stamp added after signing"]
    else:  # the policy lists another key for the class
        _policy(tmp_path, classes=("free-server",))
        (tmp_path / "policy.yml").write_text(
            (tmp_path / "policy.yml").read_text(encoding="utf-8").replace(
                "    free-server:", "    local-pinned:\n      - {id: other-1, public_key: '"
                + __import__("tests.test_signing", fromlist=["KEYS"]).KEYS["other"][1]
                + "'}\n    free-server:"), encoding="utf-8")
        needles = ["l1.json", "is not a key the policy lists for this class"]
    result = run_cli("classify", "--stamps", tmp_path / "stamps", "--policy",
                     tmp_path / "policy.yml", "--now", NOW)
    assert_bad_input(result, "signature", *needles)


def test_classify_a_pair_under_a_signing_policy(tmp_path: Path) -> None:
    _policy(tmp_path, require="local-pinned")
    stamps = _unsigned(tmp_path)
    pair = (stamps / LOCAL_ART / "l1.json", stamps / FREE_ART / "f1.json")
    result = run_cli("classify", *pair, "--policy", tmp_path / "policy.yml", "--now", NOW)
    assert_bad_input(result, "l1.json", "signature", "no signed stamp set")
    assert "door_open" not in result.out and "accept" not in result.out
    # signed: the signatures verify, the run binding cannot be checked here
    signed_tmp = tmp_path / "signed"
    signed_tmp.mkdir()
    _policy(signed_tmp)
    _signed_run(signed_tmp)
    pair = (signed_tmp / "stamps" / LOCAL_ART / "l1.json",
            signed_tmp / "stamps" / FREE_ART / "f1.json")
    result = run_cli("classify", *pair, "--policy", signed_tmp / "policy.yml", "--now", NOW)
    assert_bad_input(result, "gate classify", "signing.require", "the 2 such stamps",
                     RUN_CONTEXT)


def test_triage_under_a_signing_policy(tmp_path: Path) -> None:
    """Two local-pinned runs of one test (the digest gate): required class, no envelope."""
    _policy(tmp_path, require="local-pinned")
    left = write_json(tmp_path / "stamps" / LOCAL_ART / "a.json",
                      stamp(LOCAL, "assert_fail", run_id="a", fixture_sha256=SHA_X))
    right = write_json(tmp_path / "stamps" / LOCAL_ART / "b.json",
                       stamp(LOCAL, "pass", run_id="b", fixture_sha256=SHA_X))
    before = run_cli("triage", left, right)  # no policy: decided as before
    assert before.code in (0, 1), before.err
    result = run_cli("triage", left, right, "--policy", tmp_path / "policy.yml")
    assert_bad_input(result, "a.json", "signature", "no signed stamp set")
    # free-server runs are not required by this policy: decided as before
    free_left = write_json(tmp_path / "free" / FREE_ART / "a.json",
                           stamp(FREE, "assert_fail", run_id="fa", fixture_sha256=SHA_X))
    free_right = write_json(tmp_path / "free" / FREE_ART / "b.json",
                            stamp(FREE, "pass", run_id="fb", fixture_sha256=SHA_X))
    result = run_cli("triage", free_left, free_right, "--policy", tmp_path / "policy.yml")
    assert result.code in (0, 1), result.err


def _open_report(tmp_path: Path) -> Path:
    stamps = _unsigned(tmp_path)
    report = tmp_path / "report.json"
    (tmp_path / "plain.yml").write_text("allowlist: []\n", encoding="utf-8")
    done = run_cli("classify", "--stamps", stamps, "--policy", tmp_path / "plain.yml",
                   "--now", NOW, "--report", report)
    assert done.code == 0, done.err
    assert json.loads(report.read_text(encoding="utf-8"))["decision"] == "open"
    return report


@pytest.mark.parametrize("command", ["summary", "outputs", "publish"])
def test_a_report_that_says_open_is_refused_under_a_signing_policy(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report carries no signatures: under a policy that requires them, an open one is
    refused (the break: `gate summary` said open on the report of unsigned stamps)."""
    report = _open_report(tmp_path)
    for name in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_TOKEN", "GATE_GITHUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    extra = ["--out", str(tmp_path / "summary.md")] if command == "summary" else []
    result = run_cli(command, "--report", report, "--policy", _policy(tmp_path), *extra)
    assert_bad_input(result, str(report), "decision", "open, but the policy requires all "
                     "stamps signed", RUN_CONTEXT)
    assert not (tmp_path / "summary.md").exists()
    if command == "summary":  # without the signing policy the same report is shown as open
        (tmp_path / "plain.yml").write_text("allowlist: []\n", encoding="utf-8")
        shown = run_cli("summary", "--report", report, "--policy", tmp_path / "plain.yml",
                        *extra)
        assert shown.code == 0, shown.err
        assert (tmp_path / "summary.md").exists()


def test_a_closed_report_is_shown_under_a_signing_policy(tmp_path: Path) -> None:
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json",
               stamp(LOCAL, "assert_fail", run_id="l1", fixture_sha256=SHA_X))
    write_json(tmp_path / "stamps" / FREE_ART / "f1.json",
               stamp(FREE, "pass", run_id="f1", fixture_sha256=SHA_X))
    (tmp_path / "plain.yml").write_text("allowlist: []\n", encoding="utf-8")
    report = tmp_path / "report.json"
    assert run_cli("classify", "--stamps", tmp_path / "stamps", "--policy",
                   tmp_path / "plain.yml", "--now", NOW, "--report", report).code == 1
    result = run_cli("summary", "--report", report, "--policy", _policy(tmp_path),
                     "--out", tmp_path / "summary.md")
    assert result.code == 1, result.err  # closed, shown
    assert (tmp_path / "summary.md").exists()
