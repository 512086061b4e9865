"""The re-run memory: the conclusive reds a gate attempt saw, carried in its own check run.

After GitHub's "Re-run all jobs" the earlier attempts' stamp artifacts are no longer listed, so
a later attempt would pair only its own stamps and a red could be re-run away. The gate's check
runs stay on the commit across attempts: each one ends its ``output.text`` with one hidden
record (``schemas/rerun-memory.schema.json``) of the conclusive reds (``assert_fail`` stamps)
that attempt saw, and a later attempt of the same workflow run reads them back
(gate/github/rerun.py) as conclusive red stamps of their class (gate/records/pairing.py).

The record is an HTML comment, ``<!-- agent-patch-gate-memory:v1 PAYLOAD -->``, on its own
paragraph at the end of the text, where GitHub's Markdown renders nothing of it. ``PAYLOAD`` is
base64 (RFC 4648 standard alphabet, ``A-Z a-z 0-9 + / =``) of zlib-compressed canonical JSON:
no character of that alphabet can end the comment (``-->``), start a tag, or be decoded by the
Markdown or HTML parser, whatever a test id holds (Markdown, ``-->``, newlines, bidi, any
Unicode). The Markdown escaper (gate/github/markdown.py) writes numeric character references,
which an HTML comment does not decode, so it could not give back the exact test id; base64 is
exact and inert. zlib keeps a few hundred reds within the room the record is given.

Reading is strict and bounded: the comment must be the text's last thing, the payload at most
:data:`MAX_COMMENT_BYTES`, decompressed at most :data:`MAX_JSON_BYTES`, strict JSON
(gate.records.files.parse_json), and valid against the schema; anything else is
:class:`RecordProblem` with the reason (the caller closes the gate).
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import canonical_json, parse_json

SCHEMA = "gate-rerun-memory/v1"
MARK = "agent-patch-gate-memory:v1"
OPEN = f"<!-- {MARK} "
CLOSE = " -->"
#: The room a record may take at the end of the check run's text (65,535 bytes in all).
MAX_COMMENT_BYTES = 24_000
MAX_JSON_BYTES = 1 << 20
_COMMENT = re.compile(r"<!-- " + re.escape(MARK) + r" ([A-Za-z0-9+/=]*) -->\Z")


class RecordProblem(Exception):
    """A record that cannot be read: missing, garbled, schema-invalid, or truncated."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True, slots=True)
class Remembered:
    """One conclusive red an earlier attempt saw, as the pairing uses it."""

    test_id: str
    server_class: str
    run_id: str
    result: str  # 32 hex: gate.records.pairing.result_digest of that stamp
    attempt: int  # the attempt whose check run recorded it
    check_run_url: str  # that check run (html_url)

    def red(self) -> dict[str, str]:
        """As a record entry again (a later attempt's record carries it on)."""
        return {"test_id": self.test_id, "server_class": self.server_class,
                "run_id": self.run_id, "result": self.result}


def build(workflow_run_id: str, attempt: int, head_sha: str,
          reds: Sequence[Mapping[str, str]], *, decided: bool = True) -> dict[str, Any]:
    """A record (not yet size-bounded): the reds sorted and without repeats."""
    unique = {(r["test_id"], r["server_class"], r["run_id"], r["result"]): r for r in reds}
    ordered = [dict(unique[k]) for k in sorted(unique)]
    return {"schema": SCHEMA, "workflow_run_id": workflow_run_id, "attempt": attempt,
            "head_sha": head_sha, "decided": decided, "truncated": False, "reds": ordered}


#: What a gate job signs of its record (the DSSE pre-authentication encoding of this type and
#: :func:`signed_bytes`): gate/records/signing.py.
PAYLOAD_TYPE = "application/vnd.agent-patch-gate.rerun-memory+json"

#: Signs a record's :func:`signed_bytes`: returns the record's ``signature`` (ed25519:
#: ``{"keyid": ..., "sig": ...}``; sigstore: ``{"bundle": {...}}``).
Signer = Callable[[bytes], dict[str, Any]]


def signed_bytes(record: Mapping[str, Any]) -> bytes:
    """The bytes a record's signature covers: its canonical JSON without ``signature``."""
    return canonical_json({k: v for k, v in record.items() if k != "signature"})


def _comment(record: Mapping[str, Any], signature: Mapping[str, Any] | None = None) -> str:
    if signature is not None:
        record = {**record, "signature": signature}
    payload = base64.b64encode(zlib.compress(canonical_json(record), 9)).decode("ascii")
    return f"{OPEN}{payload}{CLOSE}"


def _fitting(record: Mapping[str, Any], signature: Mapping[str, Any] | None,
             max_bytes: int) -> dict[str, Any]:
    """``record`` with as many of its reds (in order) as fit within ``max_bytes`` beside
    ``signature``, ``truncated: true`` when some are cut: a bisection over the count."""
    if len(_comment(record, signature)) <= max_bytes:
        return dict(record)
    reds = list(record["reds"])
    low, high = 0, len(reds)
    while low < high:
        middle = (low + high + 1) // 2
        if len(_comment({**record, "truncated": True, "reds": reds[:middle]},
                        signature)) <= max_bytes:
            low = middle
        else:
            high = middle - 1
    return {**record, "truncated": True, "reds": reds[:low]}


#: The most reds a record holds (the schema's ``reds.maxItems``).
MAX_REDS = 5000


def encode(record: Mapping[str, Any], max_bytes: int = MAX_COMMENT_BYTES,
           signer: Signer | None = None) -> str:
    """The hidden comment for ``record``, within ``max_bytes``: when the reds do not all fit,
    as many as fit (in record order) and ``truncated: true`` (a later attempt then stays
    closed rather than miss one). With ``signer``, the record written is signed (after any
    cut: the signature covers what is written)."""
    if len(record["reds"]) > MAX_REDS:  # more than the schema holds: cut first, then check
        record = {**record, "truncated": True, "reds": list(record["reds"])[:MAX_REDS]}
    schemas.validate("rerun-memory", dict(record), "(re-run memory being written)")
    if signer is None:
        return _comment(_fitting(record, None, max_bytes))
    # Signed: a signature (a Sigstore bundle: a network round trip) is made a few times at
    # most, never per bisection step. The cut is chosen beside the last signature, whose size
    # hardly depends on the reds (a bundle's log proof may grow by a hash), then signed again.
    slack = 0
    signature = signer(signed_bytes(record))
    for _ in range(3):
        if len(_comment(record, signature)) <= max_bytes:
            return _comment(record, signature)
        record = _fitting(record, signature, max_bytes - slack)
        signature = signer(signed_bytes(record))
        slack += 1024
    record = {**record, "truncated": True, "reds": []}
    return _comment(record, signer(signed_bytes(record)))


def decode(text: str | None) -> dict[str, Any]:
    """The record at the end of a check run's ``output.text``; :class:`RecordProblem` saying
    why not. A truncated record is returned (the caller decides what it means)."""
    if not text:
        raise RecordProblem("its output text holds no gate record")
    start = text.rfind(OPEN)
    if start < 0:
        raise RecordProblem("its output text holds no gate record")
    tail = text[start:].rstrip("\n")
    if len(tail) > MAX_COMMENT_BYTES:
        raise RecordProblem(f"its gate record is longer than {MAX_COMMENT_BYTES} bytes")
    match = _COMMENT.match(tail)
    if match is None:
        raise RecordProblem("its gate record is garbled (not one base64 comment at the end)")
    try:
        packed = base64.b64decode(match.group(1), validate=True)
        inflater = zlib.decompressobj()
        data = inflater.decompress(packed, MAX_JSON_BYTES)
        if inflater.unconsumed_tail or not inflater.eof or inflater.unused_data:
            raise RecordProblem("its gate record is garbled (bad, cut or oversized compression)")
    except (binascii.Error, zlib.error, ValueError):
        raise RecordProblem("its gate record is garbled (not base64 of zlib data)") from None
    try:
        record = parse_json(data, "gate record")
        schemas.validate("rerun-memory", record, "gate record")
    except GateInputError as exc:
        raise RecordProblem(f"its gate record is invalid: {exc.field}: {exc.message}") from None
    assert isinstance(record, dict)
    return record


def remembered(record: Mapping[str, Any], check_run_url: str) -> list[Remembered]:
    attempt = int(record["attempt"])
    return [Remembered(r["test_id"], r["server_class"], r["run_id"], r["result"], attempt,
                       check_run_url) for r in record["reds"]]
