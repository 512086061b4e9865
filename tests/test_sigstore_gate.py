"""Issue 21, sigstore mode, against a Sigstore instance made in the tests (tests/sigstore_fake.py).

The bundle's signature, certificate chain, SCT and transparency-log entry are verified by
sigstore-python's ``Verifier`` against the instance's trusted root, unchanged: a genuine bundle
verifies, and each forgery (another CA, another envelope key, another log key, a payload byte)
is refused. End to end in-process through ``gate action`` (the stamp job's signing step, then
the gate job before pairing): with the test root put in place of the pinned one, a stamp set
signed with the right identity opens, and one whose identity is wrong in any claim is refused
(``reject_unsigned_stamp``, exit 1, naming the artifact and the claim). The pinned public-good
root refuses the test instance's bundles.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from gate.decide import signing as rules
from gate.github import action
from gate.records import sigstore_bundle as sb
from tests import sigstore_fake
from tests.core_helpers import FREE, LOCAL, NOW, SHA_X, stamp, write_json

INSTANCE = sigstore_fake.Instance()
REPO, REPO_ID, RUN_ID, SHA = "acme/widgets", "777", "42", "b" * 40
LOCAL_WF = "https://github.com/acme/widgets/.github/workflows/local-pinned.yml"
FREE_WF = "https://github.com/acme/widgets/.github/workflows/ci.yml"
LOCAL_ART = "gate-stamps-local-pinned-stamp-1-0a1b2c3d"
FREE_ART = "gate-stamps-free-server-stamp-1-4e5f6a7b"
RUN = {"GITHUB_RUN_ID": RUN_ID, "GITHUB_RUN_ATTEMPT": "1", "GITHUB_REPOSITORY": REPO,
       "GITHUB_REPOSITORY_ID": REPO_ID, "GITHUB_SHA": SHA, "GITHUB_JOB": "stamp"}
#: A public repository's event payload: Sigstore mode signs only where the event shows the
#: repository public (tests/test_sigstore_private.py tests the rest).
PUBLIC_EVENT = str(Path(__file__).with_name("sigstore_public_event.json"))
OIDC = {"ACTIONS_ID_TOKEN_REQUEST_URL": "https://token.test.invalid/x",
        "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "not-a-real-token", "GITHUB_EVENT_PATH": PUBLIC_EVENT}


def claims(server_class: str, **wrong: str) -> dict[str, str]:
    """The claims Fulcio writes for this run's job of ``server_class``, then ``wrong``."""
    right = {
        "issuer": sb.GITHUB_ACTIONS_ISSUER,
        "build signer URI": (LOCAL_WF if server_class == LOCAL else FREE_WF)
        + "@refs/heads/main",
        "runner environment": sb.RUNNER_ENVIRONMENT[server_class],
        "source repository URI": f"https://github.com/{REPO}",
        "source repository digest": SHA,
        "source repository identifier": REPO_ID,
        "run invocation URI": f"https://github.com/{REPO}/actions/runs/{RUN_ID}/attempts/1",
    }
    right.update(wrong)
    return right


def expectation(server_class: sb.ServerClass = "local-pinned") -> sb.Expectation:
    return sb.Expectation(repository=REPO, repository_id=REPO_ID, run_id=RUN_ID,
                          run_attempt="1", commit=SHA, server_class=server_class,
                          signer_workflows=(LOCAL_WF, FREE_WF))


STATEMENT = json.dumps({"_type": "https://in-toto.io/Statement/v1",
                        "subject": [{"name": "l1.json", "digest": {"sha256": "0" * 64}}],
                        "predicateType": rules.PREDICATE_TYPE, "predicate": {}}).encode()


def verify(bundle: bytes, root: bytes | None = None) -> bytes:
    return sb.verify_bundle(bundle, expect=expectation(), where="art/b.json",
                            trusted_root=INSTANCE.trusted_root() if root is None else root)


# --- signature, chain and log, by sigstore-python's Verifier ------------------------------

def test_a_genuine_bundle_verifies_and_returns_the_statement() -> None:
    assert verify(INSTANCE.sign(STATEMENT, claims(LOCAL))) == STATEMENT


def _edit(bundle: bytes, edit: Any) -> bytes:
    doc = json.loads(bundle)
    edit(doc)
    return json.dumps(doc).encode()


def _payload_byte(doc: dict[str, Any]) -> None:
    payload = bytearray(base64.b64decode(doc["dsseEnvelope"]["payload"]))
    payload[-2] ^= 1
    doc["dsseEnvelope"]["payload"] = base64.b64encode(bytes(payload)).decode()


def _drop_promise_and_time(doc: dict[str, Any]) -> None:
    entry = doc["verificationMaterial"]["tlogEntries"][0]
    del entry["inclusionPromise"], entry["integratedTime"]


def _other_root_hash(doc: dict[str, Any]) -> None:
    entry = doc["verificationMaterial"]["tlogEntries"][0]
    entry["inclusionProof"]["rootHash"] = base64.b64encode(b"\x01" * 32).decode()


FORGERIES: dict[str, Any] = {
    "a certificate from another CA": lambda: sigstore_fake.Instance().sign(STATEMENT,
                                                                           claims(LOCAL)),
    "an envelope signed by another key": lambda: INSTANCE.sign(
        STATEMENT, claims(LOCAL), signing_key=ec.generate_private_key(ec.SECP256R1())),
    "a log entry signed by another log": lambda: INSTANCE.sign(
        STATEMENT, claims(LOCAL), log_key=ec.generate_private_key(ec.SECP256R1())),
    "a payload byte changed after signing": lambda: _edit(
        INSTANCE.sign(STATEMENT, claims(LOCAL)), _payload_byte),
    "no inclusion promise and no timestamp": lambda: _edit(
        INSTANCE.sign(STATEMENT, claims(LOCAL)), _drop_promise_and_time),
    "an inclusion proof for another tree": lambda: _edit(
        INSTANCE.sign(STATEMENT, claims(LOCAL)), _other_root_hash),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_each_forgery_is_refused(name: str) -> None:
    with pytest.raises(sb.SigstoreRefusal) as caught:
        verify(FORGERIES[name]())
    assert caught.value.where == "art/b.json"
    assert caught.value.field in {"signature", "bundle"}


def test_the_pinned_public_good_root_refuses_a_bundle_of_another_instance() -> None:
    bundle = INSTANCE.sign(STATEMENT, claims(LOCAL))
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.verify_bundle(bundle, expect=expectation(), where="art/b.json")
    assert caught.value.field == "signature"


def test_a_wrong_identity_in_a_genuine_bundle_is_refused_naming_the_claim() -> None:
    bundle = INSTANCE.sign(STATEMENT, claims(LOCAL, **{"runner environment": "github-hosted"}))
    with pytest.raises(sb.SigstoreRefusal) as caught:
        verify(bundle)
    assert caught.value.field == "runner environment"


def test_another_payload_type_is_refused() -> None:
    bundle = _edit(INSTANCE.sign(STATEMENT, claims(LOCAL)),
                   lambda d: d["dsseEnvelope"].update(payloadType="text/plain"))
    with pytest.raises(sb.SigstoreRefusal):  # the signature covers the type (DSSE PAE)
        verify(bundle)


# --- end to end: the stamp job's signing step, then the gate job ---------------------------

@pytest.fixture
def test_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test instance's root in place of the one the action pins (in this process only)."""
    root = tmp_path / "trusted_root.json"
    root.write_bytes(INSTANCE.trusted_root())
    monkeypatch.setattr(sb, "PINNED_TRUSTED_ROOT", root)


def _policy(tmp_path: Path, require: str = "all") -> None:
    (tmp_path / "policy.yml").write_text(
        f"signing:\n  mode: sigstore\n  require: {require}\n  sigstore:\n"
        f"    signer_workflows: ['{LOCAL_WF}', '{FREE_WF}']\n", encoding="utf-8")


def _sign_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, art: str, server_class: str,
               fulcio_claims: dict[str, str]) -> None:
    """The stamp job's real signing step; the test instance stands in for Fulcio and Rekor."""
    monkeypatch.setattr(sb, "sign_statement",
                        lambda statement: INSTANCE.sign(statement, fulcio_claims))
    (tmp_path / "runner").mkdir(exist_ok=True)
    manifest = tmp_path / "manifest.yml"
    manifest.write_text("version: 1\nproperties: []\n", encoding="utf-8")
    env = {**RUN, **OIDC, "RUNNER_TEMP": str(tmp_path / "runner"), "GATE_MODE": "sign",
           "GATE_SERVER_CLASS": server_class, "GATE_MANIFEST": str(manifest),
           "GATE_POLICY": str(tmp_path / "policy.yml"),
           "GATE_STAMPS_DIR": str(tmp_path / "stamps" / art), "GATE_ARTIFACT_NAME": art}
    assert action.run(env) == 0


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         local_claims: dict[str, str] | None = None,
         **gate_env: str) -> tuple[int, dict[str, Any]]:
    for art, server_class, run_id in ((LOCAL_ART, LOCAL, "l1"), (FREE_ART, FREE, "f1")):
        write_json(tmp_path / "stamps" / art / f"{run_id}.json",
                   stamp(server_class, "pass", run_id=run_id, fixture_sha256=SHA_X))
    _sign_step(tmp_path, monkeypatch, LOCAL_ART, LOCAL, local_claims or claims(LOCAL))
    _sign_step(tmp_path, monkeypatch, FREE_ART, FREE, claims(FREE))
    assert (tmp_path / "stamps" / LOCAL_ART / rules.SIGSTORE_NAME).is_file()
    env = {**RUN, "GITHUB_JOB": "gate", "RUNNER_TEMP": str(tmp_path / "runner"),
           "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "GATE_MODE": "gate",
           "GATE_STAMPS_DIR": str(tmp_path / "stamps"), "GATE_NOW": str(NOW),
           "GATE_POLICY": str(tmp_path / "policy.yml"),
           "GATE_MANIFEST": str(tmp_path / "manifest.yml"), **gate_env}
    code = action.run(env)
    text = (tmp_path / "output.txt").read_text(encoding="utf-8")
    report_path = text.split("report<<", 1)[1].split("\n", 2)[1]
    return code, json.loads(Path(report_path).read_text(encoding="utf-8"))


def _refused(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in report["pairs"] if p["action"] == rules.REFUSED]


def test_a_sigstore_signed_stamp_set_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          test_root: None) -> None:
    _policy(tmp_path)
    code, report = _run(tmp_path, monkeypatch)
    assert code == 0, report
    assert report["decision"] == "open" and not _refused(report)


#: A local-pinned stamp job's certificate, wrong in one claim at a time.
WRONG: dict[str, str] = {
    "runner environment": "github-hosted",  # a free-server job claiming local-pinned
    "build signer URI": "https://github.com/acme/widgets/.github/workflows/other.yml@refs/x",
    "run invocation URI": f"https://github.com/{REPO}/actions/runs/{RUN_ID}/attempts/2",
    "source repository digest": "c" * 40,
    "source repository identifier": "778",
    "source repository URI": "https://github.com/fork/widgets",
    "issuer": "https://accounts.google.com",
}


@pytest.mark.parametrize("claim", sorted(WRONG))
def test_the_gate_job_refuses_a_sigstore_signed_set_whose_identity_is_wrong(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_root: None, claim: str) -> None:
    _policy(tmp_path, require="local-pinned")
    code, report = _run(tmp_path, monkeypatch, claims(LOCAL, **{claim: WRONG[claim]}))
    assert code == 1
    refused = _refused(report)
    assert refused and report["decision"] != "open"
    reason = refused[0]["reason"]
    assert f"artifact {LOCAL_ART!r}: bundle.{claim}: " in reason, reason


def test_without_the_test_root_the_pinned_root_refuses_the_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _policy(tmp_path, require="local-pinned")
    code, report = _run(tmp_path, monkeypatch)
    assert code == 1
    assert "bundle.signature" in _refused(report)[0]["reason"]
