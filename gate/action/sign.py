"""The signing step (``action.yml``'s "Sign the stamps", ``GATE_MODE=sign``): one stamp-set
statement over the stamp step's folder, signed as the policy's ``signing:`` section says."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from gate.action.settings import Settings
from gate.errors import GateInputError


def _signing_key(env: Mapping[str, str], workspace: str) -> tuple[bytes, str] | None:
    """The signing key's PEM and what to call it in errors: the ``signing-key`` input (a
    secret's content) or the file ``signing-key-file`` names, which must lie outside the
    workspace (the code under test can write the workspace); None when neither is given."""
    content = env.get("GATE_SIGNING_KEY", "")
    path = env.get("GATE_SIGNING_KEY_FILE", "").strip()
    if content.strip() and path:
        raise GateInputError("signing-key", "(input)", "give signing-key or signing-key-file, "
                             "not both")
    if content.strip():
        return content.encode("utf-8"), "signing-key (input)"
    if not path:
        return None
    from gate.records.files import read_bytes_capped

    where = os.path.realpath(path)
    root = os.path.realpath(workspace) if workspace else ""
    if root and (where == root or where.startswith(root.rstrip("/") + "/")):
        raise GateInputError(path, "signing-key-file", "inside the workspace, which the code "
                             "under test can write; fix: give the key as a secret through "
                             "signing-key")
    return read_bytes_capped(Path(path), 64 << 10), path


def _sign(settings: Settings, env: Mapping[str, str]) -> int:
    """The stamp job's signing step: one stamp-set statement over every stamp file of the
    folder the stamp step wrote, signed (ed25519: a DSSE envelope) into that folder, which the
    next step uploads. Policy ``signing.mode`` off: nothing is signed (one log line)."""
    from gate.decide.signing import (
        DSSE_NAME,
        SIGSTORE_NAME,
        TEST_RESULT_DSSE_NAME,
        TEST_RESULT_SIGSTORE_NAME,
    )
    from gate.github import rerun, workflow
    from gate.records import policy, signing
    from gate.records.files import is_regular_file, read_bytes_capped, write_once

    if settings.server_class not in ("local-pinned", "free-server"):
        raise GateInputError("server-class", "(input)",
                             "stamp mode needs server-class local-pinned or free-server")
    policy_path = Path(settings.policy) if settings.policy else None
    if policy_path is not None and not is_regular_file(policy_path):
        policy_path = None
    sign = policy.load(policy_path).signing
    key = _signing_key(env, env.get("GITHUB_WORKSPACE", "").strip())
    if sign.mode == "off":
        if key is not None:
            raise GateInputError(settings.policy or "(policy)", "signing.mode",
                                 "off, but a signing key was given; fix: set signing.mode "
                                 "ed25519 in the policy (reviewed), or drop the key input")
        print(workflow.log_line("agent-patch gate: the stamps are not signed (policy "
                                "signing.mode is off)"))
        return 0
    out = Path(settings.stamps_dir)
    name = settings.artifact_name
    facts = signing.artifact_facts(name, settings.artifact_prefix)
    if (facts is None or facts != (settings.server_class, settings.job,
                                   rerun.attempt_of(env)) or out.name != name):
        raise GateInputError("GATE_ARTIFACT_NAME", "(env)",
                             f"{name[:200]!r} is not this stamp step's artifact (folder "
                             f"{out.name[:200]!r})")
    run_id = env.get("GITHUB_RUN_ID", "").strip()
    manifest = read_bytes_capped(Path(settings.manifest))
    predicate: dict[str, object] = {
        "server_class": settings.server_class,
        "repository": env.get("GITHUB_REPOSITORY", "").strip(),
        "repository_id": env.get("GITHUB_REPOSITORY_ID", "").strip(),
        "run_id": run_id, "run_attempt": rerun.attempt_of(env), "job": settings.job,
        "artifact": name, "head_sha": env.get("GITHUB_SHA", "").strip().lower(),
        "manifest_sha256": signing.sha256_hex(manifest),
        "policy_sha256": (signing.sha256_hex(read_bytes_capped(policy_path))
                          if policy_path is not None else None),
    }
    if env.get("GITHUB_WORKFLOW_REF", "").strip():
        predicate["workflow_ref"] = env["GITHUB_WORKFLOW_REF"].strip()
    files = signing.stamp_files(out)
    if not files:
        raise GateInputError(str(out), "(folder)", "no stamps to sign")
    statement = signing.statement(files, predicate)
    server = env.get("GITHUB_SERVER_URL", "").strip() or "https://github.com"

    def test_result(envelope: tuple[str, bytes]) -> dict[str, object]:
        """The same set as an in-toto test-result/v0.1 statement, signed next."""
        return signing.test_result_statement(
            out, files, predicate, envelope=envelope, manifest=settings.manifest,
            policy=settings.policy if policy_path is not None else None, server_url=server)

    if sign.mode == "sigstore":
        from gate.records.sigstore_bundle import SigstoreRefusal

        def bundle_of(record: Mapping[str, object]) -> bytes:
            return signing.sigstore_signer()(record, env=env,
                                             public_log_opt_in=sign.public_log_for_private,
                                             policy_source=settings.policy or "(policy)")
        bundle = bundle_of(statement)
        write_once(out / SIGSTORE_NAME, bundle)
        record = test_result((SIGSTORE_NAME, bundle))
        try:
            write_once(out / TEST_RESULT_SIGSTORE_NAME, bundle_of(record))
        except SigstoreRefusal as exc:  # Fulcio or Rekor down after the set was signed
            print(workflow.log_line(f"agent-patch gate: {len(files)} stamps signed (Sigstore); "
                                    f"the test-result statement is not: {exc.field}: "
                                    f"{exc.message}"))
            return 0
        print(workflow.log_line(f"agent-patch gate: {len(files)} stamps signed (Sigstore), "
                                f"with a test-result statement ({TEST_RESULT_SIGSTORE_NAME})"))
        return 0
    if key is None:
        if sign.required(settings.server_class):
            raise GateInputError("signing-key", "(input)",
                                 f"missing: the policy requires {settings.server_class} stamps "
                                 "signed (ed25519); fix: give signing-key: ${{ secrets.<the "
                                 f"{settings.server_class} key> }} or signing-key-file")
        print(workflow.log_line(f"agent-patch gate: the stamps are not signed (no key given; "
                                f"the policy does not require {settings.server_class} stamps "
                                "signed)"))
        return 0
    private = signing.load_private_key(key[0], key[1])
    listed = signing.key_for(private, sign.keys_of(settings.server_class),
                             settings.server_class, settings.policy or "(policy)")
    envelope = signing.sign_envelope(statement, private, listed.id)
    from gate.records.files import canonical_json

    data = canonical_json(envelope)
    write_once(out / DSSE_NAME, data)
    write_once(out / TEST_RESULT_DSSE_NAME, canonical_json(signing.sign_envelope(
        test_result((DSSE_NAME, data)), private, listed.id)))
    print(workflow.log_line(f"agent-patch gate: {len(files)} stamps signed with the "
                            f"{settings.server_class} key {listed.id!r} (ed25519), with a "
                            f"test-result statement ({TEST_RESULT_DSSE_NAME})"))
    return 0
