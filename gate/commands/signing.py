"""``gate signing keygen``: a new ed25519 key pair for signed stamps."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from gate.commands.args import say
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
