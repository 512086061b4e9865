"""Sigstore bundles of a stamp set (issue 21, ``signing.mode: sigstore``): verify and sign.

The signing framework (``gate.records.signing``) builds the in-toto statement and checks its
subjects; this module is the Sigstore half it calls:

* :func:`verify_bundle` (gate job) verifies a Sigstore bundle against a trusted root **pinned
  in the action** (``gate/records/trust/``, see SOURCES.md there; never fetched at run time)
  and returns the DSSE payload (the statement's bytes), or raises :class:`SigstoreRefusal`.
  With sigstore-python's ``Verifier``: the signing certificate chains to a pinned Fulcio
  certificate at the signed time (the time from the transparency-log entry's inclusion promise
  or an RFC 3161 timestamp of a pinned timestamp authority), its embedded SCT verifies under a
  pinned CT log key, the identity below holds, the log entry's inclusion proof, checkpoint and
  inclusion promise verify under a pinned Rekor key and agree with the envelope, and the DSSE
  signature verifies under the certificate's key. All of it must hold: the order only changes
  which reason is named first.
* :func:`check_identity` (called by the verifier through :class:`_IdentityPolicy`, and by the
  tests on their own certificates) compares each claim Fulcio copied from GitHub's OIDC token
  into the certificate, exactly, with :class:`Expectation`.
* :func:`sign_statement` (stamp job, the signing step) turns the statement into a bundle with
  GitHub's OIDC token (audience ``sigstore``), the way ``actions/attest`` does.
* :func:`verify_stamp_set` and :func:`sign_bundle` are what the framework calls: they map its
  ``gate.decide.signing.Expect`` and the policy's signer workflows to an :class:`Expectation`,
  and take the step's environment.

Refusals are :class:`SigstoreRefusal` (a :class:`gate.errors.GateInputError`, so a caller that
does not turn it into its own outcome still fails closed, exit 2): ``where`` names the artifact
or file, ``field`` the claim or step that failed (a :data:`CLAIMS` name, ``bundle``,
``signature``, ``payloadType``, ``trusted root``), ``reason`` says what and the fix. The
framework turns it into a ``reject_unsigned_stamp`` reason with ``str(refusal)``.

Signing goes through the public-good instance only (the pinned signing config), whose Rekor log
is public: :func:`check_public_log` refuses it for a repository the event payload does not show
public, unless the policy opts in (``signing.sigstore.public_log_for_private_repository``).
A bundle from GitHub's own instance (what ``actions/attest`` makes for a private repository)
has no transparency-log entry and is refused with a one-line reason naming that limitation.

``sigstore`` (and ``cryptography``) are imported only inside the functions that need them:
``gate --version``, ``gate hash`` and ``gate halt hook`` never load them (tests/test_imports.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from gate.errors import GateInputError
from gate.records import files

if TYPE_CHECKING:  # pragma: no cover - types only
    from cryptography.x509 import Certificate

    from gate.decide.signing import Expect as StampExpect

#: The OIDC issuer of GitHub Actions' tokens: the only one a stamp set may be signed under.
GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com"
#: The DSSE payload type of an in-toto statement.
IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json"
#: The runner environment GitHub puts in the token (``runner_environment``) for each class.
RUNNER_ENVIRONMENT: dict[str, str] = {"local-pinned": "self-hosted",
                                      "free-server": "github-hosted"}

#: A stamp class, or ``gate``: the gate job's own re-run record (any runner environment).
ServerClass = Literal["local-pinned", "free-server", "gate"]
SIGNERS = ("local-pinned", "free-server", "gate")

#: The Fulcio certificate extensions compared (sigstore/fulcio docs/oid-info.md; all are the
#: "v2" kind, a DER-encoded UTF8String), by the name a refusal uses for them.
CLAIMS: dict[str, str] = {
    "issuer": "1.3.6.1.4.1.57264.1.8",
    "build signer URI": "1.3.6.1.4.1.57264.1.9",
    "runner environment": "1.3.6.1.4.1.57264.1.11",
    "source repository URI": "1.3.6.1.4.1.57264.1.12",
    "source repository digest": "1.3.6.1.4.1.57264.1.13",
    "source repository identifier": "1.3.6.1.4.1.57264.1.15",
    "run invocation URI": "1.3.6.1.4.1.57264.1.21",
}
#: The deprecated v1 issuer extension (raw bytes, not DER): if present it must agree too.
LEGACY_ISSUER_OID = "1.3.6.1.4.1.57264.1.1"

TRUST_DIR = Path(__file__).resolve().parent / "trust"
#: The trusted root the action pins (Sigstore public-good; source and date in SOURCES.md).
PINNED_TRUSTED_ROOT = TRUST_DIR / "sigstore-public-good.trusted_root.json"
#: The signing config pinned beside it (the Fulcio, Rekor and timestamp URLs signing uses).
PINNED_SIGNING_CONFIG = TRUST_DIR / "sigstore-public-good.signing_config.json"
#: Bundles and trust files are small (a few KiB); anything far larger is refused unread.
MAX_BUNDLE_BYTES = 1 << 20

_SHA1_HEX = re.compile(r"[0-9a-f]{40}")


class SigstoreRefusal(GateInputError):
    """A bundle that does not prove what the gate needs: ``where: field: reason``."""

    def __init__(self, where: str, field: str, reason: str) -> None:
        super().__init__(where, field, reason)
        self.where = self.source
        self.reason = self.message


@dataclass(frozen=True)
class Expectation:
    """The exact claim values a stamp set's signing certificate must carry.

    ``repository`` is the base repository (``owner/name``) and ``repository_id`` its numeric
    id; ``run_id`` and ``run_attempt`` the run that wrote the stamps (this run, or the
    ``workflow_run`` run the fork pattern names); ``commit`` the commit being decided (40 hex).
    ``signer_workflows`` are the policy's ``signing.sigstore.signer_workflows``: each a full
    build signer URI, ``https://github.com/OWNER/REPO/.github/workflows/FILE.yml@REF``, compared
    exactly, or the same without ``@REF``, compared exactly with the part of the certificate's
    URI before its first ``@`` (any ref of that workflow file, e.g. ``refs/pull/N/merge``).
    ``server_class`` is the class the stamps claim: it fixes the runner environment.
    """

    repository: str
    repository_id: str
    run_id: str
    run_attempt: str
    commit: str
    server_class: ServerClass
    signer_workflows: tuple[str, ...]
    server_url: str = "https://github.com"
    issuer: str = GITHUB_ACTIONS_ISSUER
    #: The policy field the signer workflows come from (named in a refusal).
    signer_field: str = "signing.sigstore.signer_workflows"

    def __post_init__(self) -> None:
        where = "signing expectation"
        for name in ("repository", "repository_id", "run_id", "run_attempt", "commit"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise GateInputError(where, name, f"must be a non-empty string, got {value!r}")
        if not _SHA1_HEX.fullmatch(self.commit):
            raise GateInputError(where, "commit", "must be 40 lower-case hex digits")
        for name in ("repository_id", "run_id", "run_attempt"):
            if not getattr(self, name).isdigit():
                raise GateInputError(where, name, "must be decimal digits")
        if self.server_class not in SIGNERS:
            raise GateInputError(where, "server_class", f"must be one of "
                                 f"{list(SIGNERS)}, got {self.server_class!r}")
        if not self.signer_workflows or not all(isinstance(w, str) and w.startswith("https://")
                                                for w in self.signer_workflows):
            raise GateInputError(where, "signer_workflows", "name at least one build signer "
                                 "URI (https://github.com/OWNER/REPO/.github/workflows/FILE)")

    @property
    def source_repository_uri(self) -> str:
        return f"{self.server_url}/{self.repository}"

    @property
    def run_invocation_uri(self) -> str:
        return (f"{self.server_url}/{self.repository}/actions/runs/{self.run_id}"
                f"/attempts/{self.run_attempt}")

    @property
    def runner_environment(self) -> str | None:
        """The class's runner environment; None for the gate (a gate job runs on either)."""
        return RUNNER_ENVIRONMENT.get(self.server_class)

    def exact(self) -> dict[str, str]:
        """Each single-valued claim and the value it must have."""
        claims = {
            "issuer": self.issuer,
            "runner environment": self.runner_environment,
            "source repository URI": self.source_repository_uri,
            "source repository digest": self.commit,
            "source repository identifier": self.repository_id,
            "run invocation URI": self.run_invocation_uri,
        }
        return {name: value for name, value in claims.items() if value is not None}

    def signer_allowed(self, uri: str) -> bool:
        """True if ``uri`` (the certificate's build signer URI) is one the policy names."""
        bare = uri.split("@", 1)[0]
        return any(uri == allowed if "@" in allowed else bare == allowed
                   for allowed in self.signer_workflows)


def _claim(cert: Certificate, name: str, where: str) -> str:
    """The claim ``name`` of ``cert``: present once, a DER UTF8String with nothing after it."""
    from cryptography import x509
    from cryptography.hazmat import asn1

    try:
        ext = cert.extensions.get_extension_for_oid(x509.ObjectIdentifier(CLAIMS[name]))
    except x509.ExtensionNotFound:
        raise SigstoreRefusal(where, name, f"the signing certificate has no {name} "
                              f"({CLAIMS[name]}): not a GitHub Actions Fulcio "
                              "certificate") from None
    except ValueError as exc:  # duplicate or malformed extensions
        raise SigstoreRefusal(where, name, f"the certificate's extensions are unreadable: "
                              f"{exc}") from None
    raw = ext.value.value if isinstance(ext.value, x509.UnrecognizedExtension) else b""
    try:
        value = asn1.decode_der(str, raw)
    except ValueError:
        raise SigstoreRefusal(where, name, f"{CLAIMS[name]} is not one DER UTF8String") from None
    if not isinstance(value, str):  # pragma: no cover - decode_der(str) returns str
        raise SigstoreRefusal(where, name, f"{CLAIMS[name]} is not one DER UTF8String")
    return value


def check_identity(cert: Certificate, expect: Expectation, *, where: str) -> None:
    """Refuse ``cert`` unless every claim the gate reads equals ``expect``'s, exactly."""
    from cryptography import x509

    try:
        legacy = cert.extensions.get_extension_for_oid(x509.ObjectIdentifier(LEGACY_ISSUER_OID))
    except x509.ExtensionNotFound:
        legacy = None
    except ValueError as exc:
        raise SigstoreRefusal(where, "issuer", f"the certificate's extensions are unreadable: "
                              f"{exc}") from None
    for name, wanted in expect.exact().items():
        got = _claim(cert, name, where)
        if got != wanted:
            raise SigstoreRefusal(where, name, f"signed with {got!r}, the gate requires "
                                  f"{wanted!r}" + _hint(name, expect))
    if legacy is not None and (not isinstance(legacy.value, x509.UnrecognizedExtension)
                               or legacy.value.value != expect.issuer.encode()):
        raise SigstoreRefusal(where, "issuer", f"the legacy issuer ({LEGACY_ISSUER_OID}) is "
                              f"not {expect.issuer!r}")
    signer = _claim(cert, "build signer URI", where)
    if not expect.signer_allowed(signer):
        raise SigstoreRefusal(where, "build signer URI", f"signed by {signer!r}, which is not "
                              f"one of the workflows the policy's {expect.signer_field} "
                              f"allows to sign for {expect.server_class} "
                              f"{list(expect.signer_workflows)!r}")


def _hint(name: str, expect: Expectation) -> str:
    if name == "runner environment":
        return (f": a {expect.server_class} stamp must be signed on a "
                f"{expect.runner_environment} runner")
    if name == "run invocation URI":
        return ": the envelope belongs to another run or attempt"
    if name == "source repository digest":
        return ": the envelope signs another commit"
    return ""


class _IdentityPolicy:
    """:func:`check_identity` as a sigstore ``VerificationPolicy`` (its ``verify(cert)``)."""

    def __init__(self, expect: Expectation, where: str) -> None:
        self._expect = expect
        self._where = where

    def verify(self, cert: Certificate) -> None:
        check_identity(cert, self._expect, where=self._where)


def read_trust_file(path: Path) -> bytes:
    """A pinned trust file's bytes (read through ``gate.records.files``, capped)."""
    return files.read_bytes_capped(path, MAX_BUNDLE_BYTES)


def _trusted_root(data: bytes, where: str) -> Any:
    from sigstore.models import TrustedRoot
    from sigstore_models.trustroot import v1 as trustroot_v1

    try:
        return TrustedRoot(trustroot_v1.TrustedRoot.from_json(data))
    except Exception as exc:  # pydantic or sigstore: any unreadable root is refused
        raise SigstoreRefusal(where, "trusted root", f"unreadable trusted root: "
                              f"{_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _precheck(bundle_bytes: bytes, where: str) -> None:
    """Refuse, before sigstore reads it, what the gate can name better than sigstore could."""
    if len(bundle_bytes) > MAX_BUNDLE_BYTES:
        raise SigstoreRefusal(where, "bundle", f"{len(bundle_bytes)} bytes: a stamp set's "
                              f"bundle is a few KiB (at most {MAX_BUNDLE_BYTES})")
    try:
        doc = files.parse_json(bundle_bytes, where)
    except GateInputError as exc:
        raise SigstoreRefusal(where, "bundle", f"not a Sigstore bundle: {exc.message}") from None
    material = doc.get("verificationMaterial") if isinstance(doc, dict) else None
    if not isinstance(material, dict):
        raise SigstoreRefusal(where, "bundle.verificationMaterial", "missing: not a Sigstore "
                              "bundle")
    if not material.get("tlogEntries"):
        raise SigstoreRefusal(
            where, "bundle.verificationMaterial.tlogEntries",
            "no transparency-log entry: bundles from GitHub's own Sigstore instance (private "
            "repositories) have none and are not supported; use signing mode ed25519 there")
    if not isinstance(doc.get("dsseEnvelope"), dict):
        raise SigstoreRefusal(where, "bundle.dsseEnvelope", "missing: a stamp set is signed as "
                              "a DSSE envelope")


def verify_bundle(bundle_bytes: bytes, *, expect: Expectation, where: str,
                  trusted_root: bytes | None = None) -> bytes:
    """The verified DSSE payload of ``bundle_bytes`` (an in-toto statement), or a refusal.

    ``trusted_root`` is a trusted_root.json's bytes; ``None`` is the one the action pins
    (:data:`PINNED_TRUSTED_ROOT`). ``where`` names the bundle's artifact or file in refusals.
    """
    _precheck(bundle_bytes, where)
    from sigstore.errors import Error as SigstoreError
    from sigstore.models import Bundle
    from sigstore.verify import Verifier

    root_bytes = read_trust_file(PINNED_TRUSTED_ROOT) if trusted_root is None else trusted_root
    root = _trusted_root(root_bytes, where)
    try:
        bundle = Bundle.from_json(bundle_bytes)
    except (SigstoreError, ValueError) as exc:
        raise SigstoreRefusal(where, "bundle", f"not a valid Sigstore bundle: "
                              f"{_first_line(exc)}") from None
    try:
        verifier = Verifier(trusted_root=root)
        payload_type, payload = verifier.verify_dsse(bundle, _IdentityPolicy(expect, where))
    except SigstoreRefusal:
        raise
    except Exception as exc:  # sigstore, pydantic, cryptography: whatever fails, refuses
        raise SigstoreRefusal(where, "signature", f"does not verify against the pinned trusted "
                              f"root (certificate chain, log entry or signature): "
                              f"{_first_line(exc)}") from None
    if payload_type != IN_TOTO_PAYLOAD_TYPE:
        raise SigstoreRefusal(where, "payloadType", f"{payload_type!r}, not "
                              f"{IN_TOTO_PAYLOAD_TYPE!r}")
    return bytes(payload)


#: What the signing step needs: GitHub's OIDC request variables (``permissions: id-token:
#: write``); the step must not run where the test command ran with them (see
#: docs/signing.md#sigstore-mode-signingmode-sigstore).
OIDC_VARIABLES = ("ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN")


def sign_statement(statement: bytes, *, identity_token: str | None = None,
                   signing_config: bytes | None = None, trusted_root: bytes | None = None,
                   detect: Callable[[], str | None] | None = None) -> bytes:
    """Sign ``statement`` (an in-toto statement's bytes) as a Sigstore bundle (JSON bytes).

    The identity is GitHub's OIDC token with audience ``sigstore``: ``identity_token`` if
    given, else requested with ``ACTIONS_ID_TOKEN_REQUEST_URL``/``_TOKEN`` (the job needs
    ``permissions: id-token: write``) through sigstore's ``detect_credential`` (``detect``
    replaces it in tests). Fulcio issues a short-lived certificate carrying the token's claims,
    the DSSE envelope is entered in Rekor (and timestamped), all at the URLs of the pinned
    signing config, checked against the pinned trusted root. Needs the network (github.com's
    Sigstore public-good instance); raises :class:`SigstoreRefusal` naming what failed.
    """
    from sigstore import dsse
    from sigstore.errors import Error as SigstoreError
    from sigstore.models import ClientTrustConfig
    from sigstore.oidc import IdentityToken, detect_credential
    from sigstore.sign import SigningContext
    from sigstore_models.trustroot import v1 as trustroot_v1

    where = "signing step"
    token = identity_token
    if token is None:
        try:
            token = (detect or (lambda: detect_credential("sigstore")))()
        except SigstoreError as exc:
            raise SigstoreRefusal(where, "OIDC token", f"{_first_line(exc)}") from None
    if not token:
        raise SigstoreRefusal(where, "OIDC token", "no GitHub OIDC token: give the job "
                              "`permissions: id-token: write` (forks get none: their stamps "
                              f"stay unsigned); looked for {', '.join(OIDC_VARIABLES)}")
    try:
        root = trustroot_v1.TrustedRoot.from_json(
            read_trust_file(PINNED_TRUSTED_ROOT) if trusted_root is None else trusted_root)
        config = trustroot_v1.SigningConfig.from_json(
            read_trust_file(PINNED_SIGNING_CONFIG) if signing_config is None
            else signing_config)
        trust = ClientTrustConfig(trustroot_v1.ClientTrustConfig(
            media_type=ClientTrustConfig.ClientTrustConfigType.CONFIG_0_1.value,
            trusted_root=root, signing_config=config))
        context = SigningContext.from_trust_config(trust)
        with context.signer(IdentityToken(token), cache=False) as signer:
            bundle = signer.sign_dsse(dsse.Statement(statement))
    except (SigstoreError, ValueError) as exc:
        raise SigstoreRefusal(where, "sigstore", f"signing failed: {_first_line(exc)}") from None
    return bundle.to_json().encode()


# --- the framework's call sites (gate.records.signing) -------------------------------------


def expectation_for(expect: StampExpect, signer_workflows: Sequence[str], *, where: str
                    ) -> Expectation:
    """The :class:`Expectation` for one artifact from the framework's ``Expect`` (what its
    statement must say) and the policy's ``signing.sigstore.signer_workflows``. What the
    certificate must name and the gate job does not know is refused, never left uncompared."""
    if expect.server_class not in RUNNER_ENVIRONMENT:
        raise SigstoreRefusal(where, "runner environment", f"no Sigstore identity for class "
                              f"{expect.server_class!r}")
    if len(expect.run_ids) != 1:
        raise SigstoreRefusal(where, "run invocation URI", "the gate job names "
                              f"{len(expect.run_ids)} runs; a bundle is compared with one")
    if not expect.repository_id:
        raise SigstoreRefusal(where, "source repository identifier", "the gate job does not "
                              "know this repository's id (GITHUB_REPOSITORY_ID is unset)")
    if not expect.head_sha:
        raise SigstoreRefusal(where, "source repository digest", "the gate job does not know "
                              "the commit the stamps ran on (another run's stamps, "
                              "workflow_run): Sigstore bundles are verified for this run's own")
    try:
        return Expectation(repository=expect.repository, repository_id=expect.repository_id,
                           run_id=expect.run_ids[0], run_attempt=str(expect.run_attempt),
                           commit=expect.head_sha,
                           server_class=expect.server_class,  # type: ignore[arg-type]
                           signer_workflows=tuple(signer_workflows))
    except SigstoreRefusal:
        raise
    except GateInputError as exc:
        raise SigstoreRefusal(where, exc.field, f"the gate job's own {exc.field} "
                              f"{exc.message}") from None


def verify_stamp_set(bundle_bytes: bytes, *, expect: StampExpect,
                     signer_workflows: Sequence[str], where: str) -> bytes:
    """:func:`verify_bundle` for one artifact's ``gate-stamp-set.sigstore.json`` against the
    pinned trusted root: what ``gate.records.signing.verify_artifact`` calls in sigstore mode."""
    return verify_bundle(bundle_bytes, where=where,
                         expect=expectation_for(expect, signer_workflows, where=where))


def check_public_log(env: Mapping[str, str], *, opted_in: bool, source: str) -> None:
    """Exit 2 (naming the policy ``source`` and ``signing.sigstore.public_log_for_private_
    repository``) unless the event payload at ``GITHUB_EVENT_PATH`` shows this repository
    public or the policy opts in: every Sigstore signature the gate makes (stamp sets, re-run
    records, verification summaries) is entered in the public-good Rekor log, certificate
    and all. An event that cannot be read is unknown, and refused like a private one."""
    from gate.decide import signing as rules

    if opted_in:
        return
    event: object = None
    path = env.get("GITHUB_EVENT_PATH", "").strip()
    if path:
        try:
            event = files.read_json(Path(path))
        except GateInputError:
            event = None
    problem = rules.public_log_problem(rules.repository_visibility(event), opted_in)
    if problem is not None:
        raise GateInputError(source, rules.PUBLIC_LOG_FIELD, problem)


def sign_bundle(statement: Mapping[str, Any], *, env: Mapping[str, str], public_log_opt_in: bool,
                policy_source: str) -> bytes:
    """Any signing the gate does in sigstore mode: ``statement`` (signed as its canonical JSON)
    as a Sigstore bundle, with the job's GitHub OIDC token.

    ``env`` is the step's environment: both :data:`OIDC_VARIABLES` must be in it (the job has
    ``permissions: id-token: write``), else the refusal says so; the token is then requested by
    sigstore's ``detect_credential`` (the ``id`` package, which reads them from the process
    environment, audience ``sigstore``). A repository not shown public is refused first
    (:func:`check_public_log`, with the policy's opt-in and the policy file's name)."""
    missing = [name for name in OIDC_VARIABLES if not env.get(name, "").strip()]
    if missing:
        raise SigstoreRefusal("signing step", "OIDC token", f"{', '.join(missing)} unset: give "
                              "the stamp job `permissions: id-token: write` (forks get no "
                              "token: their stamps stay unsigned fork claims)")
    check_public_log(env, opted_in=public_log_opt_in, source=policy_source)
    return sign_statement(files.canonical_json(statement))
