"""A Sigstore instance made in the tests (no network): a Fulcio CA, a CT log, a Rekor log and
the trusted_root.json naming their keys; :meth:`Instance.sign` issues a Fulcio-style leaf
certificate with the given claims and an embedded SCT, signs a statement as a DSSE envelope,
and logs it as a Rekor ``dsse`` 0.0.1 entry (inclusion promise, a one-leaf inclusion proof and
its signed checkpoint), the way the public-good instance answers. The bundle is then verified
by sigstore-python's ``Verifier`` unchanged."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import struct
from dataclasses import dataclass, field

import rfc8785
from cryptography import x509
from cryptography.hazmat import asn1
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from gate.records import sigstore_bundle as sb

SCT_OID = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")
START = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def spki(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.DER,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)


def key_id(key: ec.EllipticCurvePrivateKey) -> bytes:
    return hashlib.sha256(spki(key)).digest()


def sign(key: ec.EllipticCurvePrivateKey, data: bytes) -> bytes:
    return key.sign(data, ec.ECDSA(hashes.SHA256()))


def pae(payload_type: str, payload: bytes) -> bytes:
    kind = payload_type.encode()
    return b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(payload), payload)


@dataclass
class Instance:
    ca_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    ct_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    rekor_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))

    def __post_init__(self) -> None:
        name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "sigstore-test"),
                          x509.NameAttribute(NameOID.COMMON_NAME, "sigstore-test")])
        self.ca = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(self.ca_key.public_key()).serial_number(7)
                   .not_valid_before(START - dt.timedelta(days=1))
                   .not_valid_after(START + dt.timedelta(days=3650))
                   .add_extension(x509.BasicConstraints(ca=True, path_length=1), True)
                   .add_extension(x509.KeyUsage(False, False, False, False, False, True, True,
                                                False, False), True)
                   .add_extension(x509.SubjectKeyIdentifier.from_public_key(
                       self.ca_key.public_key()), False)
                   .sign(self.ca_key, hashes.SHA256()))

    def trusted_root(self) -> bytes:
        valid = {"start": "2025-01-01T00:00:00Z"}

        def log(key: ec.EllipticCurvePrivateKey, url: str) -> dict[str, object]:
            return {"baseUrl": url, "hashAlgorithm": "SHA2_256",
                    "publicKey": {"rawBytes": b64(spki(key)),
                                  "keyDetails": "PKIX_ECDSA_P256_SHA_256", "validFor": valid},
                    "logId": {"keyId": b64(key_id(key))}}

        return json.dumps({
            "mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
            "tlogs": [log(self.rekor_key, "https://rekor.test.invalid")],
            "certificateAuthorities": [{
                "subject": {"organization": "sigstore-test", "commonName": "sigstore-test"},
                "uri": "https://fulcio.test.invalid",
                "certChain": {"certificates": [
                    {"rawBytes": b64(self.ca.public_bytes(serialization.Encoding.DER))}]},
                "validFor": valid}],
            "ctlogs": [log(self.ct_key, "https://ctfe.test.invalid")],
            "timestampAuthorities": [],
        }).encode()

    def _sct_list(self, tbs_precert: bytes, when: dt.datetime) -> bytes:
        millis = int(when.timestamp() * 1000)
        issuer = key_id(self.ca_key)
        signed = (struct.pack("!BBQH", 0, 0, millis, 1) + issuer
                  + len(tbs_precert).to_bytes(3, "big") + tbs_precert + struct.pack("!H", 0))
        sig = sign(self.ct_key, signed)
        sct = (b"\x00" + key_id(self.ct_key) + struct.pack("!QH", millis, 0)
               + b"\x04\x03" + struct.pack("!H", len(sig)) + sig)
        listed = struct.pack("!H", len(sct)) + sct
        return asn1.encode_der(struct.pack("!H", len(listed)) + listed)

    def certificate(self, key: ec.EllipticCurvePrivateKey, claims: dict[str, str],
                    when: dt.datetime, raw: dict[str, bytes] | None = None
                    ) -> x509.Certificate:
        def build(sct: bytes) -> x509.Certificate:
            builder = (x509.CertificateBuilder().subject_name(x509.Name([]))
                       .issuer_name(self.ca.subject).public_key(key.public_key())
                       .serial_number(4242).not_valid_before(when - dt.timedelta(minutes=1))
                       .not_valid_after(when + dt.timedelta(minutes=10))
                       .add_extension(x509.KeyUsage(True, False, False, False, False, False,
                                                    False, False, False), True)
                       .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]),
                                      False)
                       .add_extension(x509.BasicConstraints(ca=False, path_length=None), True)
                       .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                           self.ca_key.public_key()), False)
                       .add_extension(x509.SubjectAlternativeName([x509.UniformResourceIdentifier(
                           claims.get("build signer URI", "https://example.invalid"))]), True))
            for name, value in claims.items():
                builder = builder.add_extension(x509.UnrecognizedExtension(
                    x509.ObjectIdentifier(sb.CLAIMS[name]), asn1.encode_der(value)), False)
            for oid, data in (raw or {}).items():  # e.g. Fulcio's deprecated v1 claims
                builder = builder.add_extension(x509.UnrecognizedExtension(
                    x509.ObjectIdentifier(oid), data), False)
            return builder.add_extension(x509.UnrecognizedExtension(SCT_OID, sct),
                                         False).sign(self.ca_key, hashes.SHA256())

        draft = build(self._sct_list(b"\x00", when))
        return build(self._sct_list(draft.tbs_precertificate_bytes, when))

    def sign(self, statement: bytes, claims: dict[str, str], *,
             when: dt.datetime = START, signing_key: ec.EllipticCurvePrivateKey | None = None,
             log_key: ec.EllipticCurvePrivateKey | None = None,
             raw: dict[str, bytes] | None = None) -> bytes:
        """A bundle of ``statement`` (``signing_key``: sign the envelope with another key than
        the certificate's; ``log_key``: a log entry signed by another log; ``raw``: more
        certificate extensions, OID -> raw bytes, as Fulcio writes its v1 claims)."""
        key = ec.generate_private_key(ec.SECP256R1())
        cert = self.certificate(key, claims, when, raw)
        sig = sign(signing_key or key, pae(sb.IN_TOTO_PAYLOAD_TYPE, statement))
        envelope = {"payload": b64(statement), "payloadType": sb.IN_TOTO_PAYLOAD_TYPE,
                    "signatures": [{"sig": b64(sig)}]}
        pem = cert.public_bytes(serialization.Encoding.PEM)
        body = json.dumps({"apiVersion": "0.0.1", "kind": "dsse", "spec": {
            "envelopeHash": {"algorithm": "sha256",
                             "value": hashlib.sha256(json.dumps(envelope).encode()).hexdigest()},
            "payloadHash": {"algorithm": "sha256",
                            "value": hashlib.sha256(statement).hexdigest()},
            "signatures": [{"signature": b64(sig), "verifier": b64(pem)}]}}).encode()
        rekor = log_key or self.rekor_key
        log_id = key_id(self.rekor_key)
        integrated = int(when.timestamp())
        promise = sign(rekor, rfc8785.dumps({"body": b64(body), "integratedTime": integrated,
                                             "logID": log_id.hex(), "logIndex": 0}))
        root = hashlib.sha256(b"\x00" + body).digest()
        note = f"rekor.test.invalid - 1\n1\n{b64(root)}\n"
        checkpoint = (note + "\n\u2014 rekor.test.invalid "
                      + b64(log_id[:4] + sign(rekor, note.encode())) + "\n")
        return json.dumps({
            "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
            "verificationMaterial": {
                "certificate": {"rawBytes": b64(cert.public_bytes(serialization.Encoding.DER))},
                "tlogEntries": [{
                    "logIndex": "0", "logId": {"keyId": b64(log_id)},
                    "kindVersion": {"kind": "dsse", "version": "0.0.1"},
                    "integratedTime": str(integrated),
                    "inclusionPromise": {"signedEntryTimestamp": b64(promise)},
                    "inclusionProof": {"logIndex": "0", "rootHash": b64(root), "treeSize": "1",
                                       "hashes": [], "checkpoint": {"envelope": checkpoint}},
                    "canonicalizedBody": b64(body)}]},
            "dsseEnvelope": envelope,
        }).encode()
