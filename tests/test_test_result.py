"""The stamp set as a standard in-toto test-result/v0.1 statement (issue 28): written and
signed by the signing step beside the project's own stamp-set statement, the same way (ed25519
DSSE, or a Sigstore bundle), never read by the gate job, and verifiable with a consumer's own
tools (sigstore verify github here, against the test-made Sigstore instance)."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.decide import signing as rules
from gate.github import action
from gate.records import schemas, signing
from gate.records import sigstore_bundle as sb
from tests import test_sigstore_gate as sg
from tests.core_helpers import FREE, LOCAL, SHA_X, stamp, write_json
from tests.test_signing import (
    FREE_ART,
    LOCAL_ART,
    RUN,
    _decide,
    _policy,
    _refused,
    _signed_run,
)

#: A fixed ed25519 key (seed 1..32), so the envelope is a known answer.
SEED = bytes(range(1, 33))


@pytest.mark.parametrize(("outcomes", "result", "passed", "failed"), [
    ([("a", "pass"), ("b", "pass")], "PASSED", ["a", "b"], []),
    ([("a", "pass"), ("b", "assert_fail")], "FAILED", ["a"], ["b"]),
    ([("a", "pass"), ("b", "resource_exit")], "FAILED", ["a"], ["b"]),
    ([("a", "empty_body")], "FAILED", [], ["a"]),
    ([("b", "pass"), ("a", "pass"), ("b", "pass")], "PASSED", ["a", "b"], []),
    ([], "FAILED", [], []),
])
def test_outcomes_as_test_result_says_them(outcomes: list[tuple[str, str]], result: str,
                                           passed: list[str], failed: list[str]) -> None:
    assert rules.test_result(outcomes) == (result, passed, failed)


def _known_answer_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    key = Ed25519PrivateKey.from_private_bytes(SEED)
    public = base64.b64encode(signing.public_bytes(key)).decode()
    monkeypatch.chdir(tmp_path)
    Path("policy.yml").write_text(
        "signing:\n  mode: ed25519\n  require: local-pinned\n  keys:\n    local-pinned:\n"
        f"      - {{id: pinned-1, public_key: '{public}'}}\n", encoding="utf-8")
    Path("gate.yml").write_text("version: 1\nproperties: []\n", encoding="utf-8")
    Path("runner").mkdir()
    folder = Path("stamps") / LOCAL_ART
    write_json(folder / "l1.json", stamp(LOCAL, "pass", run_id="l1", test_id="tests/test_a.py"
                                         "::test_adds", fixture_sha256=SHA_X))
    write_json(folder / "l2.json", stamp(LOCAL, "assert_fail", run_id="l2",
                                         test_id="tests/test_b.py::test_sorts",
                                         fixture_sha256=SHA_X))
    env = {**RUN, "RUNNER_TEMP": "runner", "GATE_MODE": "sign", "GATE_SERVER_CLASS": LOCAL,
           "GATE_MANIFEST": "gate.yml", "GATE_POLICY": "policy.yml",
           "GATE_STAMPS_DIR": str(folder), "GATE_ARTIFACT_NAME": LOCAL_ART,
           "GITHUB_WORKFLOW_REF": "acme/widgets/.github/workflows/properties.yml@refs/pull/7/"
                                  "merge",
           "GATE_SIGNING_KEY": key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8,
                                                 NoEncryption()).decode()}
    assert action.run(env) == 0
    return folder


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_ed25519_test_result_statement_is_a_known_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _known_answer_run(tmp_path, monkeypatch)
    envelope = json.loads((folder / rules.TEST_RESULT_DSSE_NAME).read_bytes())
    assert envelope["payloadType"] == "application/vnd.in-toto+json"
    assert envelope["signatures"][0]["keyid"] == "pinned-1"
    key = rules.Key("pinned-1", signing.public_bytes(
        __import__("cryptography.hazmat.primitives.asymmetric.ed25519", fromlist=["x"])
        .Ed25519PrivateKey.from_private_bytes(SEED)))
    payload = signing.open_envelope(json.dumps(envelope).encode(), [key], "t")
    statement = json.loads(payload)
    assert statement == {
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [
            {"name": "l1.json", "digest": {"sha256": _sha(folder / "l1.json")}},
            {"name": "l2.json", "digest": {"sha256": _sha(folder / "l2.json")}},
        ],
        "predicateType": "https://in-toto.io/attestation/test-result/v0.1",
        "predicate": {
            "result": "FAILED",
            "configuration": [
                {"name": "gate.yml", "digest": {"sha256": _sha(tmp_path / "gate.yml")},
                 "annotations": {"role": "manifest"}},
                {"name": "policy.yml", "digest": {"sha256": _sha(tmp_path / "policy.yml")},
                 "annotations": {"role": "policy"}},
                {"name": "git+https://github.com/acme/widgets",
                 "uri": "https://github.com/acme/widgets/commit/" + "b" * 40,
                 "annotations": {"role": "source", "gitCommit": "b" * 40}},
                {"name": ".github/workflows/properties.yml",
                 "uri": "https://github.com/acme/widgets/.github/workflows/properties.yml"
                        "@refs/pull/7/merge",
                 "annotations": {"role": "workflow"}},
                {"name": "gate-stamp-set.dsse.json",
                 "digest": {"sha256": _sha(folder / rules.DSSE_NAME)},
                 "annotations": {"role": "stamp-set",
                                 "predicateType": rules.PREDICATE_TYPE,
                                 "server_class": "local-pinned", "job": "stamp",
                                 "artifact": LOCAL_ART, "run_attempt": "1"}},
            ],
            "url": "https://github.com/acme/widgets/actions/runs/42/attempts/1",
            "passedTests": ["tests/test_a.py::test_adds"],
            "warnedTests": [],
            "failedTests": ["tests/test_b.py::test_sorts"],
        },
    }
    schemas.validate("test-result", statement, "t")
    # the signature is over DSSE's pre-authentication encoding, as the stamp set's is
    assert payload == base64.b64decode(envelope["payload"])


def test_the_gate_job_never_reads_it_as_a_stamp(tmp_path: Path) -> None:
    """Before the envelope names were skipped the gate job read gate-test-result.dsse.json as
    a stamp (bad input, exit 2); and it is not a subject of the stamp set it accompanies."""
    _policy(tmp_path)
    _signed_run(tmp_path)
    for art in (LOCAL_ART, FREE_ART):
        assert (tmp_path / "stamps" / art / rules.TEST_RESULT_DSSE_NAME).is_file()
        names = {p.name for p in (tmp_path / "stamps" / art).iterdir()}
        assert rules.TEST_RESULT_DSSE_NAME not in signing.stamp_files(tmp_path / "stamps" / art)
        assert rules.TEST_RESULT_DSSE_NAME in names
    code, report = _decide(tmp_path)
    assert code == 0 and not _refused(report)
    assert not any("test-result" in json.dumps(pair) for pair in report["pairs"])
    # junk in its place changes nothing the gate decides: consumers verify it themselves
    (tmp_path / "stamps" / LOCAL_ART / rules.TEST_RESULT_DSSE_NAME).write_text("{junk")
    code, _ = _decide(tmp_path, GITHUB_OUTPUT=str(tmp_path / "output2.txt"))
    assert code == 0


def test_a_stamp_that_is_not_one_is_refused_before_signing(tmp_path: Path) -> None:
    from gate.errors import GateInputError
    from tests.test_signing import _stamp_env

    _policy(tmp_path)
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json", {"test_id": "x", "outcome": "pass"})
    with pytest.raises(GateInputError):
        action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, "local-pinned"))
    assert not (tmp_path / "stamps" / LOCAL_ART / rules.TEST_RESULT_DSSE_NAME).exists()


# --- Sigstore: the same bundle a consumer verifies with sigstore verify github --------------

#: Fulcio's deprecated v1 claims (raw bytes), which sigstore verify github reads.
LEGACY = {"1.3.6.1.4.1.57264.1.1": sb.GITHUB_ACTIONS_ISSUER.encode(),
          "1.3.6.1.4.1.57264.1.5": sg.REPO.encode()}
SAN = sg.LOCAL_WF + "@refs/heads/main"


def _sign_step(tmp_path: Path) -> Path:
    """A local-pinned stamp job's signing step in sigstore mode over one green stamp, with
    whatever ``sb.sign_statement`` the caller set; returns the artifact folder."""
    sg._policy(tmp_path)
    folder = tmp_path / "stamps" / sg.LOCAL_ART
    write_json(folder / "l1.json", stamp(LOCAL, "pass", run_id="l1", fixture_sha256=SHA_X))
    (tmp_path / "runner").mkdir()
    manifest = tmp_path / "manifest.yml"
    manifest.write_text("version: 1\nproperties: []\n", encoding="utf-8")
    env = {**sg.RUN, **sg.OIDC, "RUNNER_TEMP": str(tmp_path / "runner"), "GATE_MODE": "sign",
           "GATE_SERVER_CLASS": LOCAL, "GATE_MANIFEST": str(manifest),
           "GATE_POLICY": str(tmp_path / "policy.yml"), "GATE_STAMPS_DIR": str(folder),
           "GATE_ARTIFACT_NAME": sg.LOCAL_ART}
    assert action.run(env) == 0
    return folder


@pytest.fixture
def signed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A local-pinned stamp job's real signing step in sigstore mode, the test instance
    standing in for Fulcio and Rekor; returns the artifact folder."""
    monkeypatch.setattr(sb, "sign_statement", lambda statement: sg.INSTANCE.sign(
        statement, sg.claims(LOCAL), raw=LEGACY))
    return _sign_step(tmp_path)


def test_the_sigstore_test_result_bundle_verifies_as_the_stamp_set_does(signed: Path) -> None:
    bundle = (signed / rules.TEST_RESULT_SIGSTORE_NAME).read_bytes()
    payload = sb.verify_bundle(bundle, expect=sg.expectation(), where="t",
                               trusted_root=sg.INSTANCE.trusted_root())
    statement = json.loads(payload)
    schemas.validate("test-result", statement, "t")
    assert statement["predicate"]["result"] == "PASSED"
    assert statement["predicate"]["passedTests"] == [stamp(LOCAL, "pass")["test_id"]]
    stamp_set = next(c for c in statement["predicate"]["configuration"]
                     if c["annotations"]["role"] == "stamp-set")
    assert stamp_set["name"] == rules.SIGSTORE_NAME
    assert stamp_set["digest"]["sha256"] == _sha(signed / rules.SIGSTORE_NAME)


def _sigstore_cli(tmp_path: Path, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "trust_config.json"
    config.write_text(json.dumps({
        "mediaType": "application/vnd.dev.sigstore.clienttrustconfig.v0.1+json",
        "trustedRoot": json.loads(sg.INSTANCE.trusted_root()),
        "signingConfig": json.loads(sb.PINNED_SIGNING_CONFIG.read_bytes())}), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "sigstore", "--trust-config", str(config), "verify", "github",
         "--offline", "--bundle", str(folder / rules.TEST_RESULT_SIGSTORE_NAME), *args],
        capture_output=True, text=True, timeout=120, check=False)


def test_sigstore_verify_github_accepts_it_for_a_stamp_file(tmp_path: Path,
                                                            signed: Path) -> None:
    done = _sigstore_cli(tmp_path, signed, "--cert-identity", SAN, "--repository", sg.REPO,
                         str(signed / "l1.json"))
    assert done.returncode == 0, done.stderr
    assert rules.TEST_RESULT_PREDICATE_TYPE in done.stdout


@pytest.mark.parametrize("wrong", ["identity", "repository", "file"])
def test_sigstore_verify_github_refuses_another_signer_repository_or_file(
        tmp_path: Path, signed: Path, wrong: str) -> None:
    other = tmp_path / "other.json"
    other.write_text("{}", encoding="utf-8")
    args = ["--cert-identity", sg.FREE_WF + "@refs/heads/main" if wrong == "identity" else SAN,
            "--repository", "acme/other" if wrong == "repository" else sg.REPO,
            str(other if wrong == "file" else signed / "l1.json")]
    done = _sigstore_cli(tmp_path, signed, *args)
    assert done.returncode != 0


def test_the_free_server_form_is_written_too(tmp_path: Path) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    envelope = json.loads((tmp_path / "stamps" / FREE_ART / rules.TEST_RESULT_DSSE_NAME)
                          .read_bytes())
    statement: dict[str, Any] = json.loads(base64.b64decode(envelope["payload"]))
    annotations = statement["predicate"]["configuration"][-1]["annotations"]
    assert annotations["server_class"] == FREE and envelope["signatures"][0]["keyid"] == (
        "free-server-1")


# --- the ed25519 form, verified by a consumer: gate signing verify --------------------------

def _public() -> str:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return base64.b64encode(signing.public_bytes(
        Ed25519PrivateKey.from_private_bytes(SEED))).decode()


def test_gate_signing_verify_accepts_the_envelope_for_its_stamp_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from gate.commands.main import main

    folder = _known_answer_run(tmp_path, monkeypatch)
    envelope = str(folder / rules.TEST_RESULT_DSSE_NAME)
    assert main(["signing", "verify", envelope, str(folder / "l1.json"),
                 str(folder / "l2.json"), "--public-key", _public(), "--json"]) == 0
    out = capsys.readouterr().out
    assert f"OK: signed by key 'pinned-1', {rules.TEST_RESULT_PREDICATE_TYPE}" in out
    assert "result FAILED, 1 passed, 1 failed" in out
    assert json.loads(out[out.index("{"):])["predicate"]["failedTests"] == [
        "tests/test_b.py::test_sorts"]
    # the stamp set's own envelope verifies the same way
    assert main(["signing", "verify", str(folder / rules.DSSE_NAME), str(folder / "l1.json"),
                 "--public-key", _public()]) == 0


@pytest.mark.parametrize("wrong", ["key", "file", "payload"])
def test_gate_signing_verify_refuses_another_key_file_or_payload(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        wrong: str) -> None:
    from gate.commands.main import main

    folder = _known_answer_run(tmp_path, monkeypatch)
    envelope = folder / rules.TEST_RESULT_DSSE_NAME
    key = KEY_OTHER if wrong == "key" else _public()
    target = folder / "l1.json"
    if wrong == "file":
        target = tmp_path / "other.json"
        target.write_text("{}")
    if wrong == "payload":
        doc = json.loads(envelope.read_bytes())
        statement = json.loads(base64.b64decode(doc["payload"]))
        statement["predicate"]["result"] = "PASSED"
        doc["payload"] = base64.b64encode(json.dumps(statement).encode()).decode()
        envelope.write_text(json.dumps(doc))
    assert main(["signing", "verify", str(envelope), str(target), "--public-key", key]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_gate_signing_verify_refuses_a_key_that_is_not_one(tmp_path: Path) -> None:
    from gate.commands.main import main

    (tmp_path / "e.json").write_text("{}")
    assert main(["signing", "verify", str(tmp_path / "e.json"), "--public-key", "abc"]) == 2


KEY_OTHER = signing.generate()[1]


def test_a_sigstore_outage_after_the_set_is_signed_leaves_one_line_not_a_failed_job(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The stamp set is what the gate decides on: the accompanying statement failing to sign
    (Fulcio or Rekor unreachable the second time) is one log line, as for the gate's
    verification summary; a consumer then finds no test-result bundle."""
    calls: list[bytes] = []

    def once(statement: bytes) -> bytes:
        calls.append(statement)
        if len(calls) > 1:
            raise sb.SigstoreRefusal("signing step", "sigstore", "signing failed: unreachable")
        return sg.INSTANCE.sign(statement, sg.claims(LOCAL))
    monkeypatch.setattr(sb, "sign_statement", once)
    folder = _sign_step(tmp_path)
    assert (folder / rules.SIGSTORE_NAME).is_file()
    assert not (folder / rules.TEST_RESULT_SIGSTORE_NAME).exists()
    assert "the test-result statement is not: sigstore: signing failed" in capsys.readouterr().out
