"""What every command shares: exit statuses, the clock and policy arguments, JSON printing."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

OPEN, CLOSED, BAD = 0, 1, 2
DEFAULT_POLICY = Path(".github/gate-policy.yml")

#: What a command keeps to the end of the ``gate`` process (:func:`hold_to_exit`).
HELD: list[object] = []


def hold_to_exit(*values: object) -> None:
    """Keep ``values`` (a command's large data, done with) to the end of the process: the
    ``gate`` program then ends without freeing them one object at a time
    (gate.commands.main.end_without_freeing: the exit handlers run and the standard streams
    are flushed first). ``gate classify --stamps`` of 100,000 stamps spent 0.2 s freeing its
    stamps and decisions, 4 % of its time, for a process about to end. Only for a command
    that leaves no thread running: ``os._exit`` waits for none."""
    HELD.extend(values)


def say(text: str) -> None:
    """Print one log line. Every line a command prints goes through here (or print_json), and
    here through :func:`gate.github.workflow.log_line`: text from a record or the command line
    can never start a workflow command (``::stop-commands::``) nor add a line of its own.
    tests/test_print_escaped.py fails on any other print in gate/commands."""
    from gate.github.workflow import log_line

    sys.stdout.write(log_line(text) + "\n")


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True) + "\n")


def clock(args: argparse.Namespace) -> int:
    """``--now UNIX`` if given, else the wall clock."""
    return int(args.now) if args.now is not None else int(time.time())


def policy_path(args: argparse.Namespace) -> Path | None:
    """``--policy FILE`` if given, else the default policy file if there is one."""
    if args.policy is not None:
        return Path(args.policy)
    from gate.records.files import lexists

    return DEFAULT_POLICY if lexists(DEFAULT_POLICY) else None
