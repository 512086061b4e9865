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
