"""``gate hash`` and ``gate pin``: the fixture hash of files and a card; a pinned sampler output.

``gate hash`` is timed against ``find | sort | xargs openssl dgst`` (bench/hashing.py), so its
start-up counts: :func:`fast_args` reads the plain forms of its arguments without argparse,
and this module imports nothing at start-up (no argparse, pathlib, typing, json).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    import argparse


class HashArgs:
    """``gate hash`` arguments read by :func:`fast_args`: the names argparse would give."""

    __slots__ = ("card", "json", "paths", "root")

    def __init__(self, paths: list[str], card: str | None, root: str, as_json: bool) -> None:
        self.paths = paths
        self.card = card
        self.root = root
        self.json = as_json

    def __repr__(self) -> str:
        return (f"HashArgs(paths={self.paths!r}, card={self.card!r}, root={self.root!r}, "
                f"json={self.json!r})")


def fast_args(argv: list[str]) -> HashArgs | None:
    """The arguments after ``gate hash`` when they are in the plain forms -- ``PATH...``,
    ``--card FILE``, ``--root DIR``, ``--json`` -- read exactly as the full parser reads them;
    None for anything else (``-h``, ``--opt=value``, abbreviations, ``--``, a value or an
    unknown option starting with ``-``, a missing value, positional arguments split by an
    option, text that is not UTF-8), which the full parser then reads with its own help and
    usage errors. So this path never makes an error of its own."""
    paths: list[str] = []
    card: str | None = None
    root = "."
    as_json = False
    runs = 0  # contiguous runs of positional arguments: argparse takes `PATH...` from the first
    previous_positional = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        positional = False
        if arg == "--json":
            as_json = True
        elif arg in ("--card", "--root"):
            if i + 1 == len(argv) or argv[i + 1].startswith("-"):
                return None
            i += 1
            if arg == "--card":
                card = argv[i]
            else:
                root = argv[i]
        elif arg.startswith("-"):
            return None
        else:
            positional = True
            paths.append(arg)
            if not previous_positional:
                runs += 1
        previous_positional = positional
        i += 1
    if runs != 1:
        return None
    try:
        "".join(argv).encode("utf-8")
    except UnicodeEncodeError:
        return None
    return HashArgs(paths, card, root, as_json)


def path_text(given: str) -> str:
    """``str(pathlib.Path(given))`` without importing pathlib on POSIX (repeated and trailing
    ``/`` and ``.`` parts dropped, a leading ``//`` kept): the name errors show, as before."""
    if os.sep != "/" or os.altsep:  # pragma: no cover - not POSIX
        from pathlib import Path

        return str(Path(given))
    if given.startswith("//") and not given.startswith("///"):
        root = "//"
    elif given.startswith("/"):
        root = "/"
    else:
        root = ""
    return root + "/".join(p for p in given.split("/") if p and p != ".") or "."


def hex_line(value: str) -> str:
    """A hex digest as one output line as it is; anything else through the log-line escaper
    (what ``say`` does, without importing it: a digest needs no escaping)."""
    if value and all(c in "0123456789abcdef" for c in value):
        return value + "\n"
    from gate.github.workflow import log_line

    return log_line(value) + "\n"


def cmd_hash(args: argparse.Namespace | HashArgs) -> int:
    from gate.records import hashing

    if getattr(args, "harness", False):  # never a fast_args form: argparse read it
        return _harness(args)
    card = None
    if args.card:
        from pathlib import Path

        from gate.records import load as records

        card = records.load_card(Path(args.card))
    value = hashing.fixture_hash([path_text(p) for p in args.paths], path_text(args.root), card)
    if args.json:
        from gate.commands.args import print_json

        print_json({"fixture_hash": value, "format": hashing.FORMAT.decode().strip()})
    else:
        sys.stdout.write(hex_line(value))
    return 0  # OPEN


def _harness(args: argparse.Namespace | HashArgs) -> int:
    """``gate hash --harness PATH...``: the ``gate-harness-v1`` digest of the files (a
    manifest entry's ``harness_sha256``, docs/formats.md)."""
    from gate.errors import GateInputError
    from gate.records import hashing

    if args.card:
        raise GateInputError("gate hash", "--card", "not with --harness: a harness digest "
                             "holds no card")
    value = hashing.harness_hash([path_text(p) for p in args.paths], path_text(args.root))
    if args.json:
        from gate.commands.args import print_json

        print_json({"harness_sha256": value,
                    "format": hashing.HARNESS_FORMAT.decode().strip()})
    else:
        sys.stdout.write(hex_line(value))
    return 0  # OPEN


def cmd_pin(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gate.commands.args import OPEN, print_json, say
    from gate.records import hashing

    pinned = hashing.pin(Path(args.file), Path(args.store) if args.store else None)
    if args.json:
        print_json({"fixture_sha256": pinned.fixture_sha256, "fixture_path": pinned.fixture_path})
    else:
        say(f"fixture_sha256={pinned.fixture_sha256}")
        if pinned.fixture_path is not None:
            say(f"fixture_path={pinned.fixture_path}")
    return OPEN
