"""``gate hash`` and ``gate pin``: the fixture hash of files and a card; a pinned sampler output."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate.commands.args import OPEN, print_json, say


def cmd_hash(args: argparse.Namespace) -> int:
    from gate.records import hashing
    from gate.records import load as records

    card = records.load_card(Path(args.card)) if args.card else None
    value = hashing.fixture_hash([Path(p) for p in args.paths], Path(args.root), card)
    if args.json:
        print_json({"fixture_hash": value, "format": hashing.FORMAT.decode().strip()})
    else:
        say(value)
    return OPEN


def cmd_pin(args: argparse.Namespace) -> int:
    from gate.records import hashing

    pinned = hashing.pin(Path(args.file), Path(args.store) if args.store else None)
    if args.json:
        print_json({"fixture_sha256": pinned.fixture_sha256, "fixture_path": pinned.fixture_path})
    else:
        say(f"fixture_sha256={pinned.fixture_sha256}")
        if pinned.fixture_path is not None:
            say(f"fixture_path={pinned.fixture_path}")
    return OPEN
