"""The gate's own re-run records signed keyless (issue 21, ``signing.mode: sigstore``): with
``signing.sigstore.signer_workflows.gate`` in the policy, each gate check run's record carries
a Sigstore bundle the gate job signed with its GitHub OIDC identity (the stamp jobs' signing
path), of an in-toto statement whose one subject is the record. A later attempt verifies each
earlier record's bundle against the pinned trusted root (here: the test-made Sigstore instance,
tests/sigstore_fake.py, in its place) and the identity: this repository and its id, a gate
workflow the policy names, this run and the record's own attempt, this job's commit; and the
record's job. Anything else closes the attempt (exit 2, naming the check run), whatever that
check run concluded. GitHub is the OpenAPI-checked double.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from gate.decide.signing import SigningPolicy
from gate.records import memory, signing
from gate.records import sigstore_bundle as sb
from tests import sigstore_fake
from tests.core_helpers import FREE, LOCAL
from tests.github_double import GitHubDouble
from tests.test_rerun_memory import GREEN_2, HEAD, _attempt, _plant, _red, _s
from tests.test_sigstore_gate import INSTANCE, LOCAL_WF, OIDC

REPO, REPO_ID = "acme/widgets", "777"
GATE_WF = "https://github.com/acme/widgets/.github/workflows/gate.yml"


def gate_claims(attempt: int, **wrong: str) -> dict[str, str]:
    """The claims Fulcio writes for run 42's gate job of ``attempt``, then ``wrong``."""
    right = {
        "issuer": sb.GITHUB_ACTIONS_ISSUER,
        "build signer URI": GATE_WF + "@refs/heads/main",
        "runner environment": "github-hosted",
        "source repository URI": f"https://github.com/{REPO}",
        "source repository digest": HEAD,
        "source repository identifier": REPO_ID,
        "run invocation URI": f"https://github.com/{REPO}/actions/runs/42/attempts/{attempt}",
    }
    right.update(wrong)
    return right


@pytest.fixture(autouse=True)
def test_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test instance's root in place of the one the action pins (in this process only)."""
    root = tmp_path / "trusted_root.json"
    root.write_bytes(INSTANCE.trusted_root())
    monkeypatch.setattr(sb, "PINNED_TRUSTED_ROOT", root)


def _fulcio(monkeypatch: pytest.MonkeyPatch, claims: dict[str, str],
            instance: sigstore_fake.Instance = INSTANCE) -> list[bytes]:
    """The test instance stands in for Fulcio and Rekor; returns the statements signed."""
    signed: list[bytes] = []

    def sign(statement: bytes) -> bytes:
        signed.append(statement)
        return instance.sign(statement, claims)
    monkeypatch.setattr(sb, "sign_statement", sign)
    return signed


def _env(tmp_path: Path, workflows: str = f"gate: ['{GATE_WF}']") -> dict[str, str]:
    path = tmp_path / "policy.yml"
    path.write_text("signing:\n  mode: sigstore\n  sigstore:\n"
                    f"    signer_workflows: {{local-pinned: ['{LOCAL_WF}'], {workflows}}}\n",
                    encoding="utf-8")
    return {"GATE_POLICY": str(path), "GITHUB_REPOSITORY_ID": REPO_ID, **OIDC}


def _keyless(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch, claims: dict[str, str],
             job: str = "gate", instance: sigstore_fake.Instance = INSTANCE) -> str:
    """``record`` (for ``job``) as a gate job whose certificate carries ``claims`` signs it."""
    _fulcio(monkeypatch, claims, instance)
    return memory.encode({**record, "job": job}, signer=signing.sigstore_record_signer(
        OIDC, SigningPolicy(), "policy.yml"))


def _mine(double: GitHubDouble, attempt: int) -> dict[str, Any]:
    return next(r for r in double.check_runs.values()
                if r["external_id"] == f"42-{attempt}-gate")


def test_keyless_records_carry_a_red_through_a_full_re_run(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    env = _env(tmp_path)
    signed = _fulcio(monkeypatch, gate_claims(1))
    _, report, _ = _attempt(tmp_path, github_double, 1,
                            [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")], **env)
    assert report is not None and report["decision"] == "closed"
    record = memory.decode(_mine(github_double, 1)["output"]["text"])
    assert record["job"] == "gate" and set(record["signature"]) == {"bundle"}
    (statement,) = (json.loads(s) for s in signed  # one record signature per attempt
                    if json.loads(s)["predicateType"] == signing.RECORD_PREDICATE_TYPE)
    assert statement["predicateType"] == signing.RECORD_PREDICATE_TYPE
    assert statement["predicate"] == {"workflow_run_id": "42", "attempt": 1, "job": "gate",
                                      "head_sha": HEAD}
    assert statement["subject"][0]["digest"]["sha256"] == signing.sha256_hex(
        memory.signed_bytes(record))
    _fulcio(monkeypatch, gate_claims(2))
    _, report, text = _attempt(tmp_path, github_double, 2, GREEN_2, **env)
    assert report is not None and report["decision"] == "closed"
    assert report["pairs"][0]["action"] == "reject_duplicate_stamps"
    assert "1 read, 1 conclusive red remembered" in text
    assert github_double.invalid_requests() == []


def test_a_keyless_green_record_lets_a_re_run_open(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    _plant(github_double, "42-1-gate", "success",
           _keyless(memory.build("42", 1, HEAD, []), monkeypatch, gate_claims(1)))
    _fulcio(monkeypatch, gate_claims(2))
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2, **_env(tmp_path))
    assert code == 0 and report is not None and report["decision"] == "open"


def test_the_gate_job_may_run_on_either_runner_environment(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    _plant(github_double, "42-1-gate", "success",
           _keyless(memory.build("42", 1, HEAD, []), monkeypatch,
                    gate_claims(1, **{"runner environment": "self-hosted"})))
    _fulcio(monkeypatch, gate_claims(2))
    code, _, _ = _attempt(tmp_path, github_double, 2, GREEN_2, **_env(tmp_path))
    assert code == 0


def _ed25519_signed(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> str:
    key = signing.generate()
    private = signing.load_private_key(key[0], "test")
    return memory.encode({**record, "job": "gate"},
                         signer=signing.record_signer(private, "gate-1", memory.PAYLOAD_TYPE))


def _edited(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> str:
    """Attempt 1's keyless record of a red, the red then removed and the bundle kept."""
    text = _keyless({**record, "reds": [_red()]}, monkeypatch, gate_claims(1))
    signed = memory.decode(text)
    return memory.encode({**signed, "reds": []})


def _stamp_set_bundle(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> str:
    """A genuine bundle of the gate's identity, of a stamp-set statement (another predicate
    type) naming the record's digest: never a record's signature."""
    signed = {**record, "job": "gate"}
    statement = signing.record_statement(memory.signed_bytes(signed))
    statement["predicateType"] = "https://github.com/agent-patch-gate/gate/stamp-set/v1"
    bundle = INSTANCE.sign(json.dumps(statement).encode(), gate_claims(1))
    return memory.encode({**signed, "signature": {"bundle": json.loads(bundle)}})


def _payload_byte(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> str:
    signed = memory.decode(_keyless(record, monkeypatch, gate_claims(1)))
    envelope = signed["signature"]["bundle"]["dsseEnvelope"]
    payload = bytearray(base64.b64decode(envelope["payload"]))
    payload[-3] ^= 1
    envelope["payload"] = base64.b64encode(bytes(payload)).decode()
    return memory.encode(signed)


def _claims(**wrong: str) -> Any:
    return lambda record, mp: _keyless(record, mp, gate_claims(1, **wrong))


BAD: dict[str, tuple[Any, str]] = {
    "unsigned": (lambda record, mp: memory.encode(record), "it is not signed keyless"),
    "signed with an ed25519 key": (_ed25519_signed, "it is not signed keyless"),
    "no record": (lambda record, mp: "### ✅ 2 accepted", "holds no gate record"),
    "another run": (_claims(**{"run invocation URI":
                               f"https://github.com/{REPO}/actions/runs/41/attempts/1"}),
                    "run invocation URI: signed with"),
    "another attempt": (_claims(**{"run invocation URI":
                                   f"https://github.com/{REPO}/actions/runs/42/attempts/2"}),
                        "run invocation URI: signed with"),
    "another job": (lambda record, mp: _keyless(record, mp, gate_claims(1), job="deploy"),
                    "signed for the job 'deploy'"),
    "another workflow": (_claims(**{"build signer URI": "https://github.com/acme/widgets/"
                                                        ".github/workflows/other.yml@refs/x"}),
                         "build signer URI: signed by"),
    "a stamp job's workflow": (_claims(**{"build signer URI": LOCAL_WF + "@refs/heads/main"}),
                               "signing.sigstore.signer_workflows.gate allows"),
    "another repository": (_claims(**{"source repository URI": "https://github.com/fork/w"}),
                           "source repository URI"),
    "another repository id": (_claims(**{"source repository identifier": "778"}),
                              "source repository identifier"),
    "another commit": (_claims(**{"source repository digest": "c" * 40}),
                       "source repository digest"),
    "another issuer": (_claims(issuer="https://accounts.google.com"), "issuer"),
    "another Sigstore instance": (
        lambda record, mp: _keyless(record, mp, gate_claims(1), instance=sigstore_fake.Instance()),
        "its bundle is refused: signature"),
    "an edited record": (_edited, "signs other bytes than the record holds"),
    "a stamp-set statement": (_stamp_set_bundle, "predicateType"),
    "a payload byte changed": (_payload_byte, "its bundle is refused"),
}


@pytest.mark.parametrize("conclusion", ["success", "failure"])
@pytest.mark.parametrize("name", sorted(BAD))
def test_an_earlier_record_not_signed_keyless_for_this_run_closes(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, name: str, conclusion: str) -> None:
    make, why = BAD[name]
    url = _plant(github_double, "42-1-gate", conclusion, make(memory.build("42", 1, HEAD, []),
                                                              monkeypatch))
    _fulcio(monkeypatch, gate_claims(2))
    code, report, _ = _attempt(tmp_path, github_double, 2, GREEN_2, **_env(tmp_path))
    assert code == 2 and report is None
    said = capsys.readouterr().out
    assert url in said and why in said, said
    assert "attempt 2 stays closed" in said
    assert set(memory.decode(_mine(github_double, 2)["output"]["text"])["signature"]) == {"bundle"}


def test_the_gate_job_without_id_token_write_is_exit_2_naming_the_permission(
        tmp_path: Path, github_double: GitHubDouble, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _fulcio(monkeypatch, gate_claims(1))
    env = {**_env(tmp_path), "ACTIONS_ID_TOKEN_REQUEST_TOKEN": ""}
    code, report, _ = _attempt(tmp_path, github_double, 1, GREEN_2, **env)
    assert code == 2 and report is None
    assert "permissions: id-token: write" in capsys.readouterr().out
    assert "signature" not in memory.decode(_mine(github_double, 1)["output"]["text"])


def test_a_failed_keyless_signing_still_publishes_an_unsigned_record(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fulcio or Rekor down: exit 2, and the failure check run still holds the reds
    (unsigned, so a later attempt stays closed: it cannot be told from a forged one)."""
    def down(statement: bytes) -> bytes:
        raise sb.SigstoreRefusal("signing step", "sigstore", "signing failed: unreachable")
    monkeypatch.setattr(sb, "sign_statement", down)
    code, _, _ = _attempt(tmp_path, github_double, 1,
                        [_s(LOCAL, "assert_fail", "l1"), _s(FREE, "pass", "f1")],
                        **_env(tmp_path))
    assert code == 2
    record = memory.decode(_mine(github_double, 1)["output"]["text"])
    assert "signature" not in record and [r["run_id"] for r in record["reds"]] == ["l1"]


def test_without_a_gate_list_the_records_stay_unsigned_as_in_0_2_0(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    signed = _fulcio(monkeypatch, gate_claims(1))
    env = _env(tmp_path, workflows=f"free-server: ['{LOCAL_WF.replace('local-pinned', 'ci')}']")
    code, _, _ = _attempt(tmp_path, github_double, 1, GREEN_2, **env)
    assert code == 0 and signed == []
    assert "signature" not in memory.decode(_mine(github_double, 1)["output"]["text"])


def test_a_signed_record_is_cut_to_fit_with_a_few_signatures_not_one_per_bisection() -> None:
    """A Sigstore signature is a round trip to Fulcio and Rekor: the cut to the check run's
    room is chosen beside the first signature, then signed once more."""
    calls: list[bytes] = []
    key = signing.load_private_key(signing.generate()[0], "test")
    ed25519 = signing.record_signer(key, "gate-1", memory.PAYLOAD_TYPE)

    def signer(data: bytes) -> dict[str, Any]:
        calls.append(data)
        return ed25519(data)
    reds = [_red(f"tests/test_{i}.py::test_{i}_" + "x" * 200, run_id=f"r{i:05d}",
                 result=f"{i:032x}") for i in range(3000)]
    text = memory.encode({**memory.build("42", 1, HEAD, reds), "job": "gate"}, signer=signer)
    back = memory.decode(text)
    assert len(text) <= memory.MAX_COMMENT_BYTES
    assert back["truncated"] is True and 0 < len(back["reds"]) < 3000
    assert len(calls) <= 3, len(calls)
    assert calls[-1] == memory.signed_bytes(back)  # the signature covers what is written
