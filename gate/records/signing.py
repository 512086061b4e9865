"""Signed stamps, the file edge (issue 21): the stamp-set statement, its DSSE envelope, ed25519.

The stamp job's signing step (``gate action`` with ``GATE_MODE=sign``, its own step in
action.yml after the tests, before the upload) builds one in-toto Statement v1
(``schemas/stamp-set.schema.json``) whose subjects are every stamp file in the stamps' folder
(file name, sha256) and whose predicate names the job (repository, run, attempt, job, artifact,
class, commit, manifest and policy digests); in ed25519 mode it signs it into a DSSE envelope
(``payloadType`` ``application/vnd.in-toto+json``, the signature over the DSSE pre-auth encoding
:func:`pae`), written as ``gate-stamp-set.dsse.json`` beside the stamps, in the same artifact.

The gate job (:func:`refusals`) reads each artifact folder's envelope before pairing: an
envelope that is not one strict JSON DSSE envelope, whose signature does not verify under a key
the policy lists for the artifact's class, whose statement is schema-invalid or of another
predicate type, whose predicate names another artifact, class, job, attempt, run or repository,
or whose subjects are not exactly the folder's stamp files refuses every stamp of the folder;
a stamp no subject names is refused alone. Each refusal names the artifact and the field.

The gate job's own statements: its re-run record (ed25519: :func:`record_signer` over the
record's DSSE pre-auth encoding; sigstore: :func:`sigstore_record_signer`, a bundle of
:func:`record_statement`, checked by :func:`record_bundle_problem`), and its decision as an SLSA
verification summary (:func:`verification_summary`), signed the same way.

Keys: the private key is PEM (PKCS#8, ``-----BEGIN PRIVATE KEY-----``, as ``gate signing
keygen`` and ``openssl genpkey -algorithm ed25519`` write it); the public key in the policy is
base64 of its 32 raw bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.decide import signing as rules
from gate.decide.signing import Expect, Key, SigningPolicy
from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import canonical_json, parse_json

#: An envelope is at most this big (a statement of 100,000 stamps fits).
MAX_ENVELOPE_BYTES = 32 << 20


class SignatureProblem(Exception):
    """Why an envelope does not speak for its artifact's stamps: the field and the reason."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"{field}: {why}")
        self.field = field
        self.why = why


def pae(payload_type: str, payload: bytes) -> bytes:
    """The DSSE v1 pre-authentication encoding: what is signed, never the payload alone."""
    kind = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(payload), payload)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: object, field: str) -> bytes:
    if not isinstance(text, str):
        raise SignatureProblem(field, "not a string")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureProblem(field, "not standard base64") from None


# --- keys -----------------------------------------------------------------------------------


def load_private_key(pem: bytes, source: str) -> Any:
    """An ed25519 private key from PEM (PKCS#8); bad input names ``source``, never the key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        key = load_pem_private_key(pem.strip() + b"\n", password=None)
    except (ValueError, TypeError):
        key = None
    if not isinstance(key, Ed25519PrivateKey):
        raise GateInputError(source, "(key)", "not an unencrypted ed25519 private key in PEM "
                             "(-----BEGIN PRIVATE KEY-----); fix: give the private_key that "
                             "gate signing keygen wrote")
    return key


def public_bytes(private_key: Any) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw: bytes = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return raw


def generate() -> tuple[bytes, str]:
    """A new key pair: (the private key as PEM, the public key as the policy spells it)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    return pem, b64(public_bytes(key))


def key_for(private_key: Any, keys: Sequence[Key], owner: str, source: str) -> Key:
    """The policy's entry for this private key among ``owner``'s keys, else bad input: a job
    never signs with a key the gate would refuse (a free-server key in a local-pinned job)."""
    public = public_bytes(private_key)
    for key in keys:
        if key.public_key == public:
            return key
    raise GateInputError(source, f"signing.keys.{owner}",
                         f"the signing key's public key {b64(public)} is not listed for "
                         f"{owner}; fix: add it to the policy (reviewed), or give this job "
                         f"the {owner} key")


def sign_envelope(statement: Mapping[str, Any], private_key: Any, keyid: str) -> dict[str, Any]:
    payload = canonical_json(statement)
    sig = private_key.sign(pae(rules.PAYLOAD_TYPE, payload))
    return {"payloadType": rules.PAYLOAD_TYPE, "payload": b64(payload),
            "signatures": [{"keyid": keyid, "sig": b64(sig)}]}


def open_envelope(data: bytes, keys: Sequence[Key], where: str) -> bytes:
    """The verified payload of a DSSE envelope signed by one of ``keys``; else
    :class:`SignatureProblem` (the field and why)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        envelope = parse_json(data, where)
        schemas.validate("dsse-envelope", envelope, where)
    except GateInputError as exc:
        raise SignatureProblem(f"envelope.{exc.field}", exc.message) from None
    payload = unb64(envelope["payload"], "envelope.payload")
    (signature,) = envelope["signatures"]
    sig = unb64(signature["sig"], "envelope.signatures.0.sig")
    wanted = [k for k in keys if k.id == signature["keyid"]]
    if not wanted:
        listed = ", ".join(k.id for k in keys) or "none"
        raise SignatureProblem("envelope.signatures.0.keyid",
                               f"{signature['keyid']!r} is not a key the policy lists for "
                               f"this class ({listed})")
    try:
        Ed25519PublicKey.from_public_bytes(wanted[0].public_key).verify(
            sig, pae(envelope["payloadType"], payload))
    except InvalidSignature:
        raise SignatureProblem("envelope.signatures.0.sig",
                               f"does not verify under key {wanted[0].id!r}") from None
    return payload


def record_signer(private_key: Any, keyid: str, payload_type: str
                  ) -> Callable[[bytes], dict[str, str]]:
    """Signs bytes as DSSE does (over :func:`pae` of ``payload_type``): ``{keyid, sig}``; the
    gate job's re-run record (gate/records/memory.py)."""
    def sign(payload: bytes) -> dict[str, str]:
        return {"keyid": keyid, "sig": b64(private_key.sign(pae(payload_type, payload)))}
    return sign


def signature_problem(payload_type: str, payload: bytes, signature: object,
                      keys: Sequence[Key]) -> str | None:
    """Why ``signature`` (``{keyid, sig}``) is not one of ``keys`` over ``payload``; None when
    it verifies."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not isinstance(signature, Mapping):
        return "it is not signed (the policy lists signing.keys.gate)"
    wanted = [k for k in keys if k.id == signature.get("keyid")]
    if not wanted:
        return (f"its signature's key {str(signature.get('keyid'))[:64]!r} is not one the "
                "policy lists in signing.keys.gate")
    try:
        sig = unb64(signature.get("sig"), "sig")
        Ed25519PublicKey.from_public_bytes(wanted[0].public_key).verify(
            sig, pae(payload_type, payload))
    except (SignatureProblem, InvalidSignature):
        return f"its signature does not verify under key {wanted[0].id!r}"
    return None


# --- the statement --------------------------------------------------------------------------


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def statement(files: Mapping[str, str], predicate: Mapping[str, Any]) -> dict[str, Any]:
    """The stamp-set statement: one subject per stamp file (name -> sha256), sorted."""
    record = {"_type": rules.STATEMENT_TYPE,
              "subject": [{"name": name, "digest": {"sha256": files[name]}}
                          for name in sorted(files)],
              "predicateType": rules.PREDICATE_TYPE, "predicate": dict(predicate)}
    schemas.validate("stamp-set", record, "(stamp-set statement being written)")
    return record


def test_result_statement(folder: Path, files: Mapping[str, str], predicate: Mapping[str, Any],
                          *, envelope: tuple[str, bytes], manifest: str, policy: str | None,
                          server_url: str = "https://github.com") -> dict[str, Any]:
    """The stamp set of ``folder`` (``files``: name -> sha256, as :func:`stamp_files` found
    them) as a standard in-toto test-result/v0.1 statement
    (``schemas/test-result.schema.json``), from the stamps themselves (each must be a valid
    stamp) and the stamp-set ``predicate`` signed with it: subjects every stamp file;
    configuration the ``manifest`` and ``policy`` files (their digests from the predicate),
    the repository at the commit tested, the workflow (``workflow_ref``) and the stamp set's own
    ``envelope`` (its file name and bytes), annotated with the class, job, artifact and
    attempt; url the run attempt."""
    from gate.records.files import read_bytes_capped
    from gate.records.load import check_stamp

    outcomes: list[tuple[str, str]] = []
    for name in sorted(files):
        data = read_bytes_capped(folder / name)
        if sha256_hex(data) != files[name]:
            raise GateInputError(str(folder / name), "(file)", "changed while being signed")
        stamp = check_stamp(parse_json(data, str(folder / name)), str(folder / name))
        outcomes.append((str(stamp["test_id"]), str(stamp["outcome"])))
    result, passed, failed = rules.test_result(outcomes)
    server = server_url.rstrip("/")
    repository = str(predicate.get("repository", ""))
    # subjects: files only (sigstore verify refuses a statement with a gitCommit subject)
    subjects = [{"name": name, "digest": {"sha256": files[name]}} for name in sorted(files)]
    configuration: list[dict[str, Any]] = [
        {"name": manifest, "digest": {"sha256": predicate["manifest_sha256"]},
         "annotations": {"role": "manifest"}}]
    if policy is not None and predicate.get("policy_sha256"):
        configuration.append({"name": policy, "digest": {"sha256": predicate["policy_sha256"]},
                              "annotations": {"role": "policy"}})
    head = str(predicate.get("head_sha", ""))
    if head and repository:
        configuration.append({"name": f"git+{server}/{repository}",
                              "uri": f"{server}/{repository}/commit/{head}",
                              "annotations": {"role": "source", "gitCommit": head}})
    if predicate.get("workflow_ref"):
        ref = str(predicate["workflow_ref"])
        configuration.append({"name": ref.split("@", 1)[0].split("/", 2)[-1],
                              "uri": f"{server}/{ref}", "annotations": {"role": "workflow"}})
    configuration.append({
        "name": envelope[0], "digest": {"sha256": sha256_hex(envelope[1])},
        "annotations": {"role": "stamp-set", "predicateType": rules.PREDICATE_TYPE,
                        "server_class": str(predicate["server_class"]),
                        "job": str(predicate["job"]), "artifact": str(predicate["artifact"]),
                        "run_attempt": str(predicate["run_attempt"])}})
    body: dict[str, Any] = {"result": result, "configuration": configuration}
    if repository and predicate.get("run_id"):
        body["url"] = (f"{server}/{repository}/actions/runs/{predicate['run_id']}/attempts/"
                       f"{predicate['run_attempt']}")
    body.update(passedTests=passed, warnedTests=[], failedTests=failed)
    record = {"_type": rules.STATEMENT_TYPE, "subject": subjects,
              "predicateType": rules.TEST_RESULT_PREDICATE_TYPE, "predicate": body}
    schemas.validate("test-result", record, "(test-result statement being written)")
    return record


def stamp_files(folder: Path) -> dict[str, str]:
    """Every stamp file directly in ``folder`` (name -> sha256 of its bytes), envelopes and
    the gate's report left out, in name order. Read as the pairing reads a folder
    (:func:`gate.records.files.read_listed_capped`: the folder opened once, each file in four
    system calls; anything not plainly a regular file within the cap is refused as
    :func:`~gate.records.files.read_bytes_capped` refuses it), not one path walk a file."""
    import contextlib
    import os

    from gate.records.files import read_listed_capped

    names = sorted(name for name in os.listdir(folder)
                   if name.endswith(".json") and name not in rules.ENVELOPE_NAMES)
    base = str(folder)
    found: dict[str, str] = {}
    with contextlib.closing(read_listed_capped([f"{base}/{name}" for name in names])) as blobs:
        for name, data in zip(names, blobs, strict=False):  # names first: no read past them
            found[name] = sha256_hex(data)
    return found


def check_statement(payload: bytes, where: str) -> dict[str, Any]:
    """The payload as a schema-valid stamp-set statement, else :class:`SignatureProblem`."""
    try:
        record = parse_json(payload, where)
        if isinstance(record, dict) and record.get("predicateType") != rules.PREDICATE_TYPE:
            raise SignatureProblem("statement.predicateType",
                                   f"{str(record.get('predicateType'))[:100]!r}, not "
                                   f"{rules.PREDICATE_TYPE}")
        schemas.validate("stamp-set", record, where)
    except GateInputError as exc:
        raise SignatureProblem(f"statement.{exc.field}", exc.message) from None
    assert isinstance(record, dict)
    return record


# --- verifying an artifact (the gate job) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Artifact:
    """One downloaded artifact folder: its name, its stamp files' digests (by file name)."""

    name: str
    folder: Path
    files: Mapping[str, str]


#: Sigstore mode's verifier: (bundle bytes, expect=, signer_workflows=, where=) -> the verified
#: statement payload: gate.records.sigstore_bundle.verify_stamp_set (pinned trusted root).
BundleVerifier = Callable[..., bytes]


def sigstore_verifier() -> BundleVerifier:
    """The one place the sigstore mode's verifier is reached (imported only when needed)."""
    from gate.records import sigstore_bundle

    return sigstore_bundle.verify_stamp_set


#: Sigstore mode's signer: (the statement, env=...) -> the bundle's bytes.
BundleSigner = Callable[..., bytes]


def sigstore_signer() -> BundleSigner:
    """The one place the sigstore mode's signer is reached (imported only when needed)."""
    from gate.records import sigstore_bundle

    return sigstore_bundle.sign_bundle


#: An envelope the gate job verified: (``<artifact>/<file name>``, sha256 of its bytes).
Used = list[tuple[str, str]]


def verify_artifact(artifact: Artifact, policy: SigningPolicy, expect: Expect,
                    used: Used | None = None) -> set[str]:
    """The stamp file names the artifact's valid envelope covers (see the module doc); else
    :class:`SignatureProblem`. Files no subject names are the caller's (per stamp). A valid
    envelope is added to ``used`` (the verification summary names it)."""
    from gate.records.files import lexists, read_bytes_capped

    name = rules.SIGSTORE_NAME if policy.mode == "sigstore" else rules.DSSE_NAME
    path = artifact.folder / name
    if not lexists(path):
        raise SignatureProblem(name, "missing: the artifact holds no signed stamp set")
    try:
        data = read_bytes_capped(path, MAX_ENVELOPE_BYTES)
    except GateInputError as exc:
        raise SignatureProblem(name, exc.message) from None
    where = f"{artifact.name}/{name}"
    if policy.mode == "sigstore":
        workflows = policy.workflows_of(expect.server_class)
        if not workflows:
            raise SignatureProblem("bundle.build signer URI", "the policy names no workflow "
                                   f"allowed to sign {expect.server_class} stamps (signing."
                                   f"sigstore.signer_workflows.{expect.server_class})")
        try:
            payload = sigstore_verifier()(data, expect=expect, where=where,
                                          signer_workflows=workflows)
        except GateInputError as exc:
            field = exc.field if exc.field.split(".")[0] == "bundle" else f"bundle.{exc.field}"
            raise SignatureProblem(field, exc.message) from None
    else:
        payload = open_envelope(data, policy.keys_of(expect.server_class), where)
    record = check_statement(payload, where)
    problem = rules.predicate_problem(record["predicate"], expect)
    if problem is None:
        problem = rules.subject_problem(record["subject"], artifact.files)
    if problem is not None:
        raise SignatureProblem(*problem)
    if used is not None:
        used.append((where, sha256_hex(data)))
    return {str(subject["name"]) for subject in record["subject"]}


def artifact_facts(folder_name: str, prefix: str) -> tuple[str, str, int] | None:
    """(server class, job, attempt) from an artifact name ``<prefix>-<class>-<job>-<attempt>-
    <8 hex>``; None when it is not spelled so."""
    import re

    for server_class in (rules.LOCAL, rules.FREE):
        head = f"{prefix}-{server_class}-"
        if folder_name.startswith(head):
            match = re.fullmatch(r"([A-Za-z0-9_-]+)-([0-9]{1,9})-[0-9a-f]{8}",
                                 folder_name[len(head):])
            if match:
                return server_class, match.group(1), int(match.group(2))
    return None


def refusals(directory: Path, sources: Sequence[tuple[str, str]], policy: SigningPolicy,
             prefix: str, expect: Callable[[str, str, str, int], Expect],
             used: Used | None = None) -> dict[str, str]:
    """source -> why, for every stamp (``sources``: (its file relative to ``directory``, its
    server class)) of a class the policy requires signed that no valid envelope of its own
    artifact covers. ``expect(artifact, class, job, attempt)`` says what that artifact's
    statement must name."""
    by_folder: dict[str, list[tuple[str, str]]] = {}
    for source, server_class in sources:
        if policy.required(server_class):
            folder = source.split("/", 1)[0] if "/" in source else ""
            by_folder.setdefault(folder, []).append((source, server_class))
    out: dict[str, str] = {}
    for folder, items in sorted(by_folder.items()):
        facts = artifact_facts(folder, prefix) if folder else None
        if facts is None:
            for source, _ in items:
                out[source] = (f"artifact {folder or '(none)'!r}: not a stamp artifact's own "
                               "folder, so no envelope can cover it")
            continue
        server_class, job, attempt = facts
        files = stamp_files(directory / folder)
        artifact = Artifact(folder, directory / folder, files)
        try:
            covered = verify_artifact(artifact, policy,
                                      expect(folder, server_class, job, attempt), used)
        except SignatureProblem as exc:
            for source, _ in items:
                out[source] = f"artifact {folder!r}: {exc.field}: {exc.why}"
            continue
        for source, stamp_class in items:
            name = source.split("/", 1)[1]
            if name not in covered:
                out[source] = (f"artifact {folder!r}: subject: no subject names {name[:100]!r}"
                               " (a stamp added after signing)")
            elif stamp_class != server_class:  # pairing refuses it too; never let it through
                out[source] = (f"artifact {folder!r}: server_class: a {stamp_class} stamp in a "
                               f"{server_class} artifact")
            elif (low := isolation_short(directory / source, stamp_class, policy)) is not None:
                out[source] = f"artifact {folder!r}: {low}"
    return out


def offline_refusals(directory: Path, sources: Sequence[tuple[str, str]],
                     policy: SigningPolicy) -> dict[str, str]:
    """source -> why, for every stamp (``sources``: (its file relative to ``directory``, its
    server class)) of a class the policy requires signed that its own folder's envelope does
    not cover, checked without the workflow run's context (the command line): the envelope's
    signature against the policy's keys for that class, the statement, its subjects against
    the folder's stamp files and its server class. What binds a set to its run (artifact, run,
    attempt, job, repository, commit, policy and manifest digests) is not checked here: the
    caller says so. A Sigstore bundle is verified against the run's identity only: every such
    stamp is named."""
    from gate.records.files import lexists, read_bytes_capped

    by_folder: dict[str, list[tuple[str, str]]] = {}
    for source, server_class in sources:
        if policy.required(server_class):
            folder = source.rsplit("/", 1)[0] if "/" in source else ""
            by_folder.setdefault(folder, []).append((source, server_class))
    out: dict[str, str] = {}
    for folder, items in sorted(by_folder.items()):
        classes = {server_class for _, server_class in items}
        name = rules.SIGSTORE_NAME if policy.mode == "sigstore" else rules.DSSE_NAME
        path = directory / folder / name
        where = f"{folder or '.'}/{name}"
        try:
            if len(classes) != 1:
                raise SignatureProblem("server_class", "stamps of both classes in one folder")
            (server_class,) = classes
            if policy.mode == "sigstore":
                raise SignatureProblem("bundle", "a Sigstore bundle names the workflow run that "
                                       "signed it, which only the run's context can check")
            if not lexists(path):
                raise SignatureProblem("(envelope)",
                                       "missing: the folder holds no signed stamp set")
            try:
                data = read_bytes_capped(path, MAX_ENVELOPE_BYTES)
            except GateInputError as exc:
                raise SignatureProblem("(envelope)", exc.message) from None
            record = check_statement(open_envelope(data, policy.keys_of(server_class), where),
                                     where)
            if record["predicate"].get("server_class") != server_class:
                raise SignatureProblem("predicate.server_class",
                                       f"the set was signed for another class than "
                                       f"{server_class}")
            problem = rules.subject_problem(record["subject"],
                                            stamp_files(directory / folder))
            if problem is not None:
                raise SignatureProblem(*problem)
        except SignatureProblem as exc:
            for source, _ in items:
                out[source] = f"{where}: {exc.field}: {exc.why}"
            continue
        covered = {str(subject["name"]) for subject in record["subject"]}
        for source, _ in items:
            if source.rsplit("/", 1)[-1] not in covered:
                out[source] = (f"{where}: subject: no subject names "
                               f"{source.rsplit('/', 1)[-1][:100]!r} (a stamp added after "
                               "signing)")
            elif (low := isolation_short(directory / source, server_class, policy)) is not None:
                out[source] = f"{where}: {low}"
    return out


def isolation_short(path: Path, server_class: str, policy: SigningPolicy) -> str | None:
    """Why the signed stamp at ``path`` ran below the isolation level the policy requires of
    its class (``signing.require_isolation``), naming the class, the level found and the
    level required; None when it did not (or nothing is required)."""
    from gate.decide import isolation
    from gate.records.files import read_json

    required = policy.isolation_of(server_class)
    if required is None:
        return None
    stamp = read_json(path)
    recorded = stamp.get("isolation") if isinstance(stamp, dict) else None
    found = recorded.get("level") if isinstance(recorded, dict) else None
    if not isolation.below(found, required):
        return None
    return (f"isolation: the {server_class} stamp's test command ran at "
            f"{found or 'none (no level recorded)'}, the policy requires {required} "
            f"(signing.require_isolation.{server_class})")


# --- the gate job's re-run record in sigstore mode -------------------------------------------

#: The predicate type of a gate job's re-run record statement (never a stamp set's).
RECORD_PREDICATE_TYPE = "https://github.com/agent-patch-gate/gate/rerun-memory/v1"
#: The one subject's name: the record itself (schemas/rerun-memory.schema.json).
RECORD_SUBJECT = "gate-rerun-memory.json"


def record_statement(signed: bytes) -> dict[str, Any]:
    """The statement a gate job signs keyless for its re-run record, from the record's
    :func:`gate.records.memory.signed_bytes`: its sha256 as the one subject, its run, attempt,
    job and commit as the predicate."""
    record = parse_json(signed, "(re-run record being signed)")
    assert isinstance(record, dict)
    statement = {"_type": rules.STATEMENT_TYPE,
                 "subject": [{"name": RECORD_SUBJECT, "digest": {"sha256": sha256_hex(signed)}}],
                 "predicateType": RECORD_PREDICATE_TYPE,
                 "predicate": {name: record.get(name)
                               for name in ("workflow_run_id", "attempt", "job", "head_sha")}}
    schemas.validate("rerun-memory-statement", statement, "(re-run record statement)")
    return statement


def sigstore_record_signer(env: Mapping[str, str], policy: SigningPolicy, policy_source: str
                           ) -> Callable[[bytes], dict[str, Any]]:
    """Signs a gate job's re-run record keyless (``{"bundle": ...}``), with the job's GitHub
    OIDC identity, the way the stamp jobs sign their stamp sets (:func:`sigstore_signer`)."""
    def sign(signed: bytes) -> dict[str, Any]:
        bundle = sigstore_signer()(record_statement(signed), env=env,
                                   public_log_opt_in=policy.public_log_for_private,
                                   policy_source=policy_source)
        return {"bundle": parse_json(bundle, "(the re-run record's Sigstore bundle)")}
    return sign


@dataclass(frozen=True, slots=True)
class GateIdentity:
    """What an earlier attempt's re-run record bundle must name (sigstore mode): this
    repository (``owner/name`` and id), this run, the gate job's commit (``GITHUB_SHA``: the
    same in every attempt of a run), this job, and a workflow of the policy's gate list."""

    repository: str
    repository_id: str
    run_id: str
    head_sha: str
    job: str
    workflows: tuple[str, ...]


def record_bundle_problem(record: Mapping[str, Any], attempt: int, identity: GateIdentity
                          ) -> str | None:
    """Why ``record`` (an earlier attempt's, already schema-valid and checked for its run,
    attempt and commit) is not signed keyless by this run's gate job of ``attempt``; None when
    it is. Its bundle verifies against the pinned trusted root with the identity
    :class:`GateIdentity` names (the run invocation URI: this run and ``attempt``), and its
    statement's one subject is the record's own bytes."""
    from gate.errors import GateInputError as Refusal
    from gate.records import memory, sigstore_bundle

    signature = record.get("signature")
    if not isinstance(signature, Mapping) or "bundle" not in signature:
        return ("it is not signed keyless (the policy lists "
                "signing.sigstore.signer_workflows.gate)")
    where = f"attempt {attempt}'s gate record"
    try:
        expect = sigstore_bundle.Expectation(
            repository=identity.repository, repository_id=identity.repository_id,
            run_id=identity.run_id, run_attempt=str(attempt), commit=identity.head_sha,
            server_class="gate", signer_workflows=identity.workflows,
            signer_field="signing.sigstore.signer_workflows.gate")
    except Refusal as exc:
        return f"the gate job cannot check its bundle: its own {exc.field} {exc.message}"
    try:
        payload = sigstore_bundle.verify_bundle(canonical_json(signature["bundle"]),
                                                expect=expect, where=where)
        statement = parse_json(payload, where)
        schemas.validate("rerun-memory-statement", statement, where)
    except Refusal as exc:
        return f"its bundle is refused: {exc.field}: {exc.message}"
    assert isinstance(statement, dict)
    digest = statement["subject"][0]["digest"]["sha256"]
    if digest != sha256_hex(memory.signed_bytes(record)):
        return "its bundle signs other bytes than the record holds (an edited record)"
    for name, got in statement["predicate"].items():
        if record.get(name) != got:
            return (f"its bundle's predicate names {name} {str(got)[:100]!r}, the record "
                    f"{str(record.get(name))[:100]!r}")
    if record.get("job") != identity.job:
        return (f"its gate record is signed for the job {str(record.get('job'))[:100]!r}, "
                f"not {identity.job!r}")
    return None


# --- the gate's decision as a verification summary -------------------------------------------

VSA_PREDICATE_TYPE = "https://slsa.dev/verification_summary/v1"
VERIFIER_ID = "https://github.com/agent-patch-gate/gate"
#: The verification summary's file name ends so, by how it is signed.
VSA_SUFFIX = {"ed25519": "dsse.json", "sigstore": "sigstore.json"}


def verification_summary(*, repository: str, head_sha: str, decision: str, now: int,
                         policy_uri: str, policy_sha256: str, used: Used,
                         server_url: str = "https://github.com") -> dict[str, Any]:
    """The gate's decision on ``head_sha`` as an in-toto statement of an SLSA verification
    summary (``schemas/verification-summary.schema.json``): PASSED exactly when ``decision``
    is ``open``, naming every stamp envelope the gate job verified (``used``)."""
    import datetime

    from gate import __version__

    repo = f"git+{server_url.rstrip('/')}/{repository}"
    opened = decision == "open"
    statement = {
        "_type": rules.STATEMENT_TYPE,
        "subject": [{"name": repo, "digest": {"gitCommit": head_sha}}],
        "predicateType": VSA_PREDICATE_TYPE,
        "predicate": {
            "verifier": {"id": VERIFIER_ID, "version": {"agent-patch-gate": __version__}},
            "timeVerified": datetime.datetime.fromtimestamp(now, datetime.UTC).strftime(
                "%Y-%m-%dT%H:%M:%SZ"),
            "resourceUri": f"{repo}@{head_sha}",
            "policy": {"uri": policy_uri, "digest": {"sha256": policy_sha256}},
            "inputAttestations": [{"uri": uri, "digest": {"sha256": sha}}
                                  for uri, sha in sorted(set(used))],
            "verificationResult": "PASSED" if opened else "FAILED",
            "verifiedLevels": ["AGENT_PATCH_GATE_OPEN" if opened else "FAILED"],
            "slsaVersion": "1.0",
        },
    }
    schemas.validate("verification-summary", statement, "(verification summary being written)")
    return statement
