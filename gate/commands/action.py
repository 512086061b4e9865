"""``gate action``: what the composite action runs (configured by ``GATE_*`` environment)."""

from __future__ import annotations

import argparse


def cmd_action(args: argparse.Namespace) -> int:
    from gate.action import main
    from gate.commands.main import run_raising

    return main.run(gate_main=run_raising)
