"""``gate signing keygen``: a new ed25519 key pair for signed stamps; ``gate signing verify``:
a consumer's check of an ed25519 envelope (the stamp set, or its test-result statement)."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from gate.commands.args import print_json, say
from gate.errors import GateInputError


def cmd_keygen(args: argparse.Namespace) -> int:
    from gate.records import signing
    from gate.records.files import write_once

    if not re.fullmatch(r"[A-Za-z0-9._:-]{1,64}", args.id):
        raise GateInputError("gate signing keygen", "--id",
                             "letters, digits and . _ : - only, at most 64")
    pem, public = signing.generate()
    path = Path(args.private_key)
    old = os.umask(0o077)  # the private key is readable by its owner only
    try:
        write_once(path, pem)
    finally:
        os.umask(old)
    say(f"private key written to {path} (PEM); store it as a secret or a file outside the "
        "workspace, then delete this copy")
    say("policy entry (under signing.keys.<local-pinned|free-server|gate>):")
    say(f"  - {{id: {args.id}, public_key: '{public}'}}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """An ed25519 DSSE envelope a stamp job signed (``gate-test-result.dsse.json`` or
    ``gate-stamp-set.dsse.json``) verified under ``--public-key`` (the policy's base64 of the
    32 raw bytes), and each FILE's sha256 one of its statement's subjects, as ``gh attestation
    verify`` and ``sigstore verify`` check a Sigstore bundle: exit 0 and what it says, 1 naming
    what does not verify, 2 on bad input. What binds the set to its run (run, attempt, job,
    class) is in the statement, not checked here: the gate job checks it."""
    import hashlib

    from gate.decide.signing import Key
    from gate.records import policy, signing
    from gate.records.files import parse_json, read_bytes_capped

    public = policy.public_key_bytes(args.public_key)
    if not public:
        raise GateInputError("gate signing verify", "--public-key",
                             "not base64 of 32 raw ed25519 bytes; fix: the public_key of the "
                             "class's entry under signing.keys in the policy")
    path = Path(args.envelope)
    data = read_bytes_capped(path, signing.MAX_ENVELOPE_BYTES)
    envelope = parse_json(data, str(path))
    signatures = envelope.get("signatures") if isinstance(envelope, dict) else None
    first = signatures[0] if isinstance(signatures, list) and signatures else None
    keyid = first.get("keyid") if isinstance(first, dict) else None
    try:
        payload = signing.open_envelope(data, [Key(str(keyid), public)], str(path))
    except signing.SignatureProblem as exc:
        say(f"{path}: FAIL: {exc.field}: {exc.why}")
        return 1
    statement = parse_json(payload, f"{path} (payload)")
    subjects = statement.get("subject") if isinstance(statement, dict) else None
    digests = {str(s.get("digest", {}).get("sha256")) for s in subjects or ()
               if isinstance(s, dict) and isinstance(s.get("digest"), dict)}
    failed = 0
    for name in args.files:
        digest = hashlib.sha256(read_bytes_capped(Path(name))).hexdigest()
        if digest not in digests:
            say(f"{name}: FAIL: no subject of {path} has its sha256 {digest}")
            failed += 1
    if failed:
        return 1
    kind = statement.get("predicateType") if isinstance(statement, dict) else None
    say(f"{path}: OK: signed by key {keyid!r}, {str(kind)[:200]}"
        + "".join(f"; {name}: a subject" for name in args.files))
    predicate = statement.get("predicate") if isinstance(statement, dict) else None
    if isinstance(predicate, dict) and "result" in predicate:
        say(f"{path}: result {predicate['result']}, "
            f"{len(predicate.get('passedTests', []))} passed, "
            f"{len(predicate.get('failedTests', []))} failed")
    if args.json:
        print_json(statement)
    return 0
