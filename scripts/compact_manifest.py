"""Write a manifest in the compact form and prove every property hashes the same.

``python scripts/compact_manifest.py LONG COMPACT [--root ROOT] [--against OTHER]``

Reads the long-form manifest LONG (cards in files, every fixture listed per property), writes
its compact form (cards inline, shared fixtures as groups: ``gate.records.adopt.compact_text``)
to COMPACT unless that exists, then loads both and checks that every property's fixture hash
(``gate-fixture-v1``: fixtures and card) is byte for byte the same. ``--against OTHER``
also checks that the manifest OTHER (e.g. what a newer ``gate init`` wrote for the same
project) lists, per property, the same fixture and harness files as LONG, either list (hashed
with LONG's card, since
each ``gate init`` mints its own seeds). Prints the line counts. Exit 0 when every hash is the
same, 1 when one differs, 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gate.errors import GateInputError
from gate.records import adopt, hashing, manifest
from gate.records.files import read_yaml, write_once


def _lines(path: Path) -> int:
    return len(path.read_bytes().splitlines())


def _hashes(path: Path, root: Path, cards: dict[str, dict[str, object]] | None = None
            ) -> dict[str, str]:
    """Per property, the fixture hash of its fixtures and its harness together: a manifest
    that records the harness apart (issue 27) lists the same files as one that keeps it inside
    its fixtures."""
    props = manifest.load(path, root)
    return {p.test_id: hashing.fixture_hash(
        [*p.fixtures, *p.harness], root, (cards or {}).get(p.test_id) or manifest.card_of(p))
        for p in props}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("long", type=Path)
    parser.add_argument("compact", type=Path)
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--against", type=Path)
    args = parser.parse_args(argv)
    try:
        if not args.compact.exists():
            text = adopt.compact_text(read_yaml(args.long), str(args.long), args.root)
            write_once(args.compact, text.encode("utf-8"))
        long_props = manifest.load(args.long, args.root)
        cards = {p.test_id: manifest.card_of(p) for p in long_props}
        want = _hashes(args.long, args.root)
        others = [("compact", args.compact, _hashes(args.compact, args.root))]
        if args.against is not None:
            others.append(("against", args.against, _hashes(args.against, args.root, cards)))
    except GateInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bad = 0
    print(f"{args.long}: {_lines(args.long)} lines, {len(want)} properties")
    for name, path, got in others:
        differ = sorted(t for t in set(want) | set(got) if want.get(t) != got.get(t))
        bad += len(differ)
        print(f"{path} ({name}): {_lines(path)} lines "
              f"({_lines(args.long) / _lines(path):.2f}x shorter), "
              f"{len(got)} properties, {len(want) - len(differ)} of {len(want)} "
              "fixture hashes identical" + (f"; differ: {', '.join(differ[:5])}" if differ
                                            else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
