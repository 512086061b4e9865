"""``gate action``: what the composite action runs (configured by ``GATE_*`` environment)."""

from __future__ import annotations

import argparse


def cmd_action(args: argparse.Namespace) -> int:
    from gate.commands.main import run_raising
    from gate.github import action

    return action.run(gate_main=run_raising)
