"""The gate's own records signed (issue 21): with ``signing.keys.gate`` in the policy, each gate
check run's re-run record is signed by the gate job's key, and an earlier attempt's record that
is missing, unsigned, signed by another key, edited, or signed for another run, attempt or job
closes a later attempt (exit 2, naming the check run), whatever that check run concluded.
GitHub is the OpenAPI-checked double.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gate.decide.signing import Key
from gate.github import rerun
from gate.records import memory, signing
from tests.core_helpers import FREE, LOCAL
from tests.github_double import GitHubDouble
from tests.test_rerun_memory import GREEN_2, HEAD, _attempt, _plant, _red, _s

GATE, OTHER = signing.generate(), signing.generate()


def _policy(tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "policy.yml"
    path.write_text("signing:\n  mode: ed25519\n  keys:\n    gate:\n"
                    f"      - {{id: gate-1, public_key: '{GATE[1]}'}}\n", encoding="utf-8")
    return {"GATE_POLICY": str(path), "GATE_SIGNING_KEY": GATE[0].decode("ascii")}


def _signed(record: dict[str, Any], key: tuple[bytes, str] = GATE, keyid: str = "gate-1",
            job: str = "gate") -> str:
    private = signing.load_private_key(key[0], "test")
    return memory.encode({**record, "job": job},
                         signer=signing.record_signer(private, keyid, memory.PAYLOAD_TYPE))


def _mine(double: GitHubDouble, attempt: int) -> dict[str, Any]:
    return next(r for r in double.check_runs.values()
                if r["external_id"] == f"42-{attempt}-gate")


def test_signed_records_carry_a_red_through_a_full_re_run(tmp_path: Path,
                                                          github_double: GitHubDouble) -> None:
    env = _policy(tmp_path)
    _, report, _ = _attempt(tmp_path, github_double, 1,
                            [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")], **env)
    assert report is not None and report["decision"] == "closed"
    record = memory.decode(_mine(github_double, 1)["output"]["text"])
    assert record["signature"]["keyid"] == "gate-1" and record["job"] == "gate"
    _, report, text = _attempt(tmp_path, github_double, 2, GREEN_2, **env)
    assert report is not None and report["decision"] == "closed"
    assert report["pairs"][0]["action"] == "reject_duplicate_stamps"
    assert "1 read, 1 conclusive red remembered" in text
    assert github_double.invalid_requests() == []


def _edited(tmp_path: Path, double: GitHubDouble) -> str:
    """Attempt 1's signed record with its red removed, the signature kept."""
    env = _policy(tmp_path)
    _attempt(tmp_path, double, 1, [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")],
             **env)
    first = _mine(double, 1)
    record = memory.decode(first["output"]["text"])
    text = memory.encode({**record, "reds": []})
    double.check_runs.pop(first["id"])
    return text


BAD = {
    "unsigned": (lambda: memory.encode(memory.build("42", 1, HEAD, [])), "it is not signed"),
    "another key": (lambda: _signed(memory.build("42", 1, HEAD, []), OTHER),
                    "does not verify under key 'gate-1'"),
    "a key not listed": (lambda: _signed(memory.build("42", 1, HEAD, []), OTHER, "gate-2"),
                         "'gate-2' is not one the policy lists"),
    "another job": (lambda: _signed(memory.build("42", 1, HEAD, []), job="deploy"),
                    "signed for the job 'deploy'"),
    "another run": (lambda: _signed(memory.build("41", 1, HEAD, [])), "names run 41"),
    "another attempt": (lambda: _signed(memory.build("42", 3, HEAD, [_red()])),
                        "names run 42 attempt 3"),
    "no record": (lambda: "### ✅ 2 accepted", "holds no gate record"),
}


@pytest.mark.parametrize("conclusion", ["success", "failure"])
@pytest.mark.parametrize("name", sorted(BAD))
def test_an_earlier_record_not_signed_for_this_run_closes(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str],
        name: str, conclusion: str) -> None:
    make, why = BAD[name]
    url = _plant(github_double, "42-1-gate", conclusion, make())
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2, **_policy(tmp_path))
    assert code == 2 and report is None
    said = capsys.readouterr().out
    assert url in said and why in said, said
    assert memory.decode(_mine(github_double, 2)["output"]["text"])["signature"]


def test_an_edited_signed_record_closes(tmp_path: Path, github_double: GitHubDouble,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    text = _edited(tmp_path, github_double)
    _plant(github_double, "42-1-gate", "failure", text)
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2, **_policy(tmp_path))
    assert code == 2 and report is None
    assert "does not verify under key 'gate-1'" in capsys.readouterr().out


def test_a_signed_green_record_lets_a_re_run_open(tmp_path: Path,
                                                  github_double: GitHubDouble) -> None:
    _plant(github_double, "42-1-gate", "success", _signed(memory.build("42", 1, HEAD, [])))
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2, **_policy(tmp_path))
    assert code == 0 and report is not None and report["decision"] == "open"


def test_the_gate_job_needs_its_key_when_the_policy_lists_one(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str]) -> None:
    env = {**_policy(tmp_path), "GATE_SIGNING_KEY": ""}
    code, report, _ = _attempt(tmp_path, github_double, 1, GREEN_2, **env)
    assert code == 2 and report is None
    assert "signing-key" in capsys.readouterr().out
    assert "signature" not in memory.decode(_mine(github_double, 1)["output"]["text"])
    env["GATE_SIGNING_KEY"] = OTHER[0].decode("ascii")  # a key the policy does not list
    code, _, _ = _attempt(tmp_path, github_double, 2, GREEN_2, **env)
    assert code == 2


def test_record_text_names_the_job_only_when_signed() -> None:
    env = {"GITHUB_RUN_ID": "42", "GITHUB_SHA": HEAD, "GITHUB_JOB": "gate"}
    assert "job" not in memory.decode(rerun.record_text(env, []))
    private = signing.load_private_key(GATE[0], "test")
    signed = memory.decode(rerun.record_text(
        env, [], signer=signing.record_signer(private, "gate-1", memory.PAYLOAD_TYPE)))
    assert signed["job"] == "gate"
    key = Key("gate-1", signing.unb64(GATE[1], "k"))
    assert signing.signature_problem(memory.PAYLOAD_TYPE, memory.signed_bytes(signed),
                                     signed["signature"], [key]) is None
