"""Issue 21, sigstore mode: the identity rules over certificates built here with ``cryptography``.

Every claim the gate reads from a Fulcio certificate (gate.records.sigstore_bundle.CLAIMS) is
made wrong in turn, missing, or encoded another way, and the runner environment is crossed
with the class the stamps claim: only the exact values of :class:`Expectation` pass.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat import asn1
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from hypothesis import given
from hypothesis import strategies as st

from gate.errors import GateInputError
from gate.records import sigstore_bundle as sb

REPO = "octo-org/patched"
SHA = "0123456789abcdef0123456789abcdef01234567"
LOCAL = "https://github.com/octo-org/patched/.github/workflows/local-pinned.yml"
FREE = "https://github.com/octo-org/patched/.github/workflows/free-server.yml"
KEY = ec.generate_private_key(ec.SECP256R1())


def expectation(server_class: sb.ServerClass = "local-pinned",
                signers: tuple[str, ...] = (LOCAL,)) -> sb.Expectation:
    return sb.Expectation(repository=REPO, repository_id="4242", run_id="987654321",
                          run_attempt="2", commit=SHA, server_class=server_class,
                          signer_workflows=signers)


def claims(runner: str = "self-hosted", signer: str = LOCAL + "@refs/pull/7/merge"
           ) -> dict[str, str]:
    """What Fulcio writes for the token of the run ``expectation()`` describes."""
    return {
        "issuer": "https://token.actions.githubusercontent.com",
        "build signer URI": signer,
        "runner environment": runner,
        "source repository URI": "https://github.com/octo-org/patched",
        "source repository digest": SHA,
        "source repository identifier": "4242",
        "run invocation URI":
            "https://github.com/octo-org/patched/actions/runs/987654321/attempts/2",
    }


def certificate(values: dict[str, str], *, raw: dict[str, bytes] | None = None,
                legacy_issuer: bytes | None = None) -> x509.Certificate:
    """A leaf carrying ``values`` as DER UTF8Strings (``raw``: extension bytes as given)."""
    name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "sigstore-test")])
    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    builder = (x509.CertificateBuilder().subject_name(x509.Name([])).issuer_name(name)
               .public_key(KEY.public_key()).serial_number(1).not_valid_before(now)
               .not_valid_after(now + dt.timedelta(minutes=10)))
    encoded = {name: asn1.encode_der(value) for name, value in values.items()}
    encoded.update(raw or {})
    for claim, data in encoded.items():
        builder = builder.add_extension(
            x509.UnrecognizedExtension(x509.ObjectIdentifier(sb.CLAIMS[claim]), data), False)
    if legacy_issuer is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(
            x509.ObjectIdentifier(sb.LEGACY_ISSUER_OID), legacy_issuer), False)
    return builder.sign(KEY, hashes.SHA256())


def refusal(cert: x509.Certificate, expect: sb.Expectation) -> sb.SigstoreRefusal:
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.check_identity(cert, expect, where="stamps-local-pinned/stamp-set.sigstore.json")
    assert caught.value.where == "stamps-local-pinned/stamp-set.sigstore.json"
    assert str(caught.value).startswith("stamps-local-pinned/stamp-set.sigstore.json: ")
    return caught.value


def test_the_exact_claims_pass() -> None:
    sb.check_identity(certificate(claims()), expectation(), where="a")
    sb.check_identity(certificate(claims(), legacy_issuer=b"https://token.actions."
                                  b"githubusercontent.com"), expectation(), where="a")


def test_every_claim_the_gate_reads_is_in_the_matrix() -> None:
    assert set(claims()) == set(sb.CLAIMS)
    assert set(expectation().exact()) | {"build signer URI"} == set(sb.CLAIMS)


#: For each claim, values that are wrong: another repository, run, attempt, commit, near misses.
WRONG: dict[str, list[str]] = {
    "issuer": ["https://token.actions.githubusercontent.com/", "https://accounts.google.com",
               "https://token.actions.githubusercontent.com.evil.example"],
    "build signer URI": [
        "https://github.com/octo-org/patched/.github/workflows/free-server.yml@refs/heads/main",
        "https://github.com/octo-org/patched/.github/workflows/local-pinned.yml.bak@refs/x",
        "https://github.com/fork-owner/patched/.github/workflows/local-pinned.yml@refs/x",
        "https://github.com/octo-org/patched/.github/workflows/local-pinned.ym"],
    "runner environment": ["github-hosted", "Self-Hosted", "self-hosted ", ""],
    "source repository URI": ["https://github.com/fork-owner/patched",
                              "https://github.com/Octo-Org/patched",
                              "https://github.com/octo-org/patched/", "http://github.com/octo-org/patched"],
    "source repository digest": ["f" * 40, SHA.upper(), SHA[:12]],
    "source repository identifier": ["4243", "04242", " 4242"],
    "run invocation URI": [
        "https://github.com/octo-org/patched/actions/runs/987654321/attempts/1",
        "https://github.com/octo-org/patched/actions/runs/987654320/attempts/2",
        "https://github.com/fork-owner/patched/actions/runs/987654321/attempts/2",
        "https://github.com/octo-org/patched/actions/runs/987654321/attempts/2/"],
}


@pytest.mark.parametrize(("claim", "value"), [(c, v) for c, vs in WRONG.items() for v in vs])
def test_each_claim_wrong_in_turn_is_refused_naming_it(claim: str, value: str) -> None:
    values = claims()
    values[claim] = value
    caught = refusal(certificate(values), expectation())
    assert caught.field == claim
    assert repr(value)[1:-1] in caught.reason or claim == "build signer URI"


@pytest.mark.parametrize("claim", sorted(sb.CLAIMS))
def test_each_claim_missing_is_refused_naming_it(claim: str) -> None:
    values = claims()
    del values[claim]
    caught = refusal(certificate(values), expectation())
    assert caught.field == claim
    assert sb.CLAIMS[claim] in caught.reason


@pytest.mark.parametrize("claim", sorted(sb.CLAIMS))
@pytest.mark.parametrize("how", ["raw bytes (v1 style)", "IA5String", "trailing byte"])
def test_each_claim_encoded_otherwise_is_refused(claim: str, how: str) -> None:
    good = claims()[claim]
    data = {"raw bytes (v1 style)": good.encode(),
            "IA5String": asn1.encode_der(good).replace(b"\x0c", b"\x16", 1),
            "trailing byte": asn1.encode_der(good) + b"\x00"}[how]
    values = claims()
    del values[claim]
    caught = refusal(certificate(values, raw={claim: data}), expectation())
    assert caught.field == claim
    assert "DER UTF8String" in caught.reason


@pytest.mark.parametrize("legacy", [b"https://accounts.google.com", b"",
                                    asn1.encode_der(sb.GITHUB_ACTIONS_ISSUER)])
def test_a_legacy_issuer_that_disagrees_is_refused(legacy: bytes) -> None:
    caught = refusal(certificate(claims(), legacy_issuer=legacy), expectation())
    assert caught.field == "issuer"


@pytest.mark.parametrize("runner", ["self-hosted", "github-hosted"])
@pytest.mark.parametrize("server_class", ["local-pinned", "free-server"])
def test_runner_environment_crossed_with_the_claimed_class(runner: str,
                                                            server_class: sb.ServerClass) -> None:
    cert = certificate(claims(runner=runner, signer=FREE + "@refs/heads/main"))
    expect = expectation(server_class, signers=(LOCAL, FREE))
    matches = (server_class, runner) in {("local-pinned", "self-hosted"),
                                         ("free-server", "github-hosted")}
    if matches:
        sb.check_identity(cert, expect, where="a")
    else:
        caught = refusal(cert, expect)
        assert caught.field == "runner environment"
        assert f"a {server_class} stamp must be signed on a" in caught.reason


@pytest.mark.parametrize(("allowed", "signer", "ok"), [
    (LOCAL, LOCAL + "@refs/heads/main", True),
    (LOCAL, LOCAL + "@refs/pull/7/merge", True),
    (LOCAL + "@refs/heads/main", LOCAL + "@refs/heads/main", True),
    (LOCAL + "@refs/heads/main", LOCAL + "@refs/heads/main2", False),
    (LOCAL + "@refs/heads/main", LOCAL + "@refs/pull/7/merge", False),
    (LOCAL, LOCAL + "x@refs/heads/main", False),
    (LOCAL, LOCAL, True),
    (LOCAL + "@refs/heads/main", LOCAL, False),
    (FREE, LOCAL + "@refs/heads/main", False),
])
def test_the_signer_workflow_is_one_the_policy_names(allowed: str, signer: str,
                                                     ok: bool) -> None:
    cert = certificate(claims(signer=signer))
    expect = expectation(signers=(allowed,))
    if ok:
        sb.check_identity(cert, expect, where="a")
    else:
        caught = refusal(cert, expect)
        assert caught.field == "build signer URI"
        assert "signing.sigstore.signer_workflows" in caught.reason


@given(claim=st.sampled_from(sorted(set(sb.CLAIMS) - {"build signer URI"})),
       value=st.text(max_size=80))
def test_any_other_value_of_an_exact_claim_is_refused(claim: str, value: str) -> None:
    values = claims()
    if value == values[claim]:
        return
    values[claim] = value
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.check_identity(certificate(values), expectation(), where="w")
    assert caught.value.field == claim
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("field", "changes"), [
    ("commit", {"commit": "abc"}), ("commit", {"commit": SHA.upper()}),
    ("repository_id", {"repository_id": "42a"}), ("run_id", {"run_id": ""}),
    ("run_attempt", {"run_attempt": "-1"}), ("server_class", {"server_class": "fork"}),
    ("signer_workflows", {"signer_workflows": ()}),
    ("signer_workflows", {"signer_workflows": ("local-pinned.yml",)}),
])
def test_an_expectation_that_cannot_be_met_is_bad_input(field: str,
                                                        changes: dict[str, object]) -> None:
    fields: dict[str, object] = {"repository": REPO, "repository_id": "1", "run_id": "2",
                                 "run_attempt": "1", "commit": SHA,
                                 "server_class": "free-server", "signer_workflows": (FREE,)}
    fields.update(changes)
    with pytest.raises(GateInputError) as caught:
        sb.Expectation(**fields)  # type: ignore[arg-type]
    assert caught.value.field == field


# --- the bundle's shape, refused before any cryptography ---------------------------------

def test_a_bundle_without_a_log_entry_is_refused_naming_the_limitation() -> None:
    private = {"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
               "verificationMaterial": {"certificate": {"rawBytes": "AA=="},
                                        "tlogEntries": [],
                                        "timestampVerificationData": {
                                            "rfc3161Timestamps": [{"signedTimestamp": "AA=="}]}},
               "dsseEnvelope": {"payload": "e30=", "payloadType": sb.IN_TOTO_PAYLOAD_TYPE,
                                "signatures": [{"sig": "AA=="}]}}
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.verify_bundle(json.dumps(private).encode(), expect=expectation(), where="art/b.json")
    assert caught.value.field == "bundle.verificationMaterial.tlogEntries"
    assert "GitHub's own Sigstore instance" in caught.value.reason
    assert "ed25519" in caught.value.reason


@pytest.mark.parametrize(("data", "field"), [
    (b"", "bundle"), (b"not json", "bundle"), (b"[]", "bundle.verificationMaterial"),
    (b'{"verificationMaterial": {"tlogEntries": [{}]}}', "bundle.dsseEnvelope"),
    (b'{"a": 1, "a": 2}', "bundle"),
    (b" " * (sb.MAX_BUNDLE_BYTES + 1), "bundle"),
])
def test_what_is_not_a_bundle_is_refused(data: bytes, field: str) -> None:
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.verify_bundle(data, expect=expectation(), where="art/b.json")
    assert (caught.value.where, caught.value.field) == ("art/b.json", field)


def test_a_bundle_shaped_document_that_sigstore_cannot_read_is_refused() -> None:
    doc = {"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
           "verificationMaterial": {"certificate": {"rawBytes": "AA=="},
                                    "tlogEntries": [{"logIndex": "1"}]},
           "dsseEnvelope": {"payload": "e30=", "payloadType": sb.IN_TOTO_PAYLOAD_TYPE,
                            "signatures": [{"sig": "AA=="}]}}
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.verify_bundle(json.dumps(doc).encode(), expect=expectation(), where="art/b.json")
    assert caught.value.field == "bundle"


def test_an_unreadable_trusted_root_is_refused() -> None:
    doc = {"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
           "verificationMaterial": {"tlogEntries": [{}]}, "dsseEnvelope": {}}
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.verify_bundle(json.dumps(doc).encode(), expect=expectation(), where="w",
                         trusted_root=b'{"mediaType": "something else"}')
    assert caught.value.field == "trusted root"


# --- the pinned trust files ---------------------------------------------------------------

def test_the_pinned_trusted_root_loads_and_its_source_is_recorded() -> None:
    root = sb._trusted_root(sb.read_trust_file(sb.PINNED_TRUSTED_ROOT), "pinned")
    assert root.get_fulcio_certs()
    assert root.get_timestamp_authorities()
    sources = (sb.TRUST_DIR / "SOURCES.md").read_text(encoding="utf-8")
    for pinned in (sb.PINNED_TRUSTED_ROOT, sb.PINNED_SIGNING_CONFIG):
        assert pinned.name in sources
        assert hashlib.sha256(pinned.read_bytes()).hexdigest() in sources, pinned.name


def test_signing_without_an_oidc_token_is_refused_before_any_network() -> None:
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.sign_statement(b"{}", detect=lambda: None)
    assert caught.value.field == "OIDC token"
    assert "id-token: write" in caught.value.reason



# --- the framework's call sites ------------------------------------------------------------

def stamp_expect(**changes: object) -> object:
    from gate.decide.signing import Expect

    fields: dict[str, object] = {
        "artifact": "stamps-local-pinned-tests-2-0123abcd", "server_class": "local-pinned",
        "job": "tests", "run_attempt": 2, "repository": REPO, "repository_id": "4242",
        "run_ids": ("987654321",), "max_attempt": 3, "head_sha": SHA}
    fields.update(changes)
    return Expect(**fields)  # type: ignore[arg-type]


def test_the_framework_expect_maps_to_the_exact_claims() -> None:
    made = sb.expectation_for(stamp_expect(), (LOCAL,), where="w")  # type: ignore[arg-type]
    assert made == expectation()  # the artifact's own attempt (2), not the one decided (3)
    sb.check_identity(certificate(claims()), made, where="w")


@pytest.mark.parametrize(("changes", "field"), [
    ({"repository_id": ""}, "source repository identifier"),
    ({"head_sha": ""}, "source repository digest"),
    ({"run_ids": ("1", "2")}, "run invocation URI"),
    ({"run_ids": ()}, "run invocation URI"),
    ({"server_class": "gate"}, "runner environment"),
    ({"head_sha": "xyz"}, "commit"),
])
def test_what_the_gate_job_does_not_know_is_refused_not_skipped(changes: dict[str, object],
                                                                 field: str) -> None:
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.verify_stamp_set(b"{}", expect=stamp_expect(**changes),  # type: ignore[arg-type]
                            signer_workflows=(LOCAL,), where="art/b.json")
    assert (caught.value.where, caught.value.field) == ("art/b.json", field)


def test_the_framework_reaches_this_module() -> None:
    from gate.records import signing

    assert signing.sigstore_verifier() is sb.verify_stamp_set
    assert signing.sigstore_signer() is sb.sign_bundle


@pytest.mark.parametrize("env", [{}, {"ACTIONS_ID_TOKEN_REQUEST_URL": "https://x.invalid/t"},
                                 {"ACTIONS_ID_TOKEN_REQUEST_TOKEN": "t",
                                  "ACTIONS_ID_TOKEN_REQUEST_URL": " "}])
def test_the_signing_step_without_id_token_write_is_refused(env: dict[str, str]) -> None:
    with pytest.raises(sb.SigstoreRefusal) as caught:
        sb.sign_bundle({"_type": "x"}, env=env, public_log_opt_in=True, policy_source="p.yml")
    assert caught.value.field == "OIDC token"
    assert "id-token: write" in caught.value.reason


def test_an_artifact_with_a_private_instance_bundle_refuses_its_stamps(tmp_path: Path) -> None:
    from gate.decide.signing import SigningPolicy
    from gate.records import signing

    folder = tmp_path / "stamps-local-pinned-tests-2-0123abcd"
    folder.mkdir()
    (folder / "a.json").write_text("{}")
    (folder / "gate-stamp-set.sigstore.json").write_text(json.dumps({
        "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {"certificate": {"rawBytes": "AA=="}, "tlogEntries": []},
        "dsseEnvelope": {"payload": "e30=", "payloadType": sb.IN_TOTO_PAYLOAD_TYPE,
                         "signatures": [{"sig": "AA=="}]}}))
    policy = SigningPolicy(mode="sigstore", require="local-pinned",
                           workflows=(("local-pinned", LOCAL),))
    why = signing.refusals(tmp_path, [(f"{folder.name}/a.json", "local-pinned")], policy,
                           "stamps", lambda a, c, j, n: stamp_expect(artifact=a))  # type: ignore[arg-type,return-value]
    reason = why[f"{folder.name}/a.json"]
    assert reason.startswith(f"artifact {folder.name!r}: bundle.verificationMaterial."
                             "tlogEntries: no transparency-log entry"), reason
    assert "GitHub's own Sigstore instance" in reason
