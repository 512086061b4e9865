"""Issue 22: the README's offline act recipe maps every remote action the README's workflow and
action.yml use, at the exact commits they pin, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

from tests import manual

ROOT = Path(__file__).resolve().parent.parent
USES = re.compile(r"^\s*(?:-\s*)?uses:\s*([\w.-]+/[\w.-]+)@([0-9a-f]{40})\b", re.M)
MAPPED = re.compile(r"--local-repository ([\w.-]+/[\w.-]+)@([0-9a-f]{40})=")


def test_the_offline_recipe_maps_every_pinned_action() -> None:
    used = set(USES.findall((ROOT / "examples" / "workflows" / "python.yml").read_text()))
    used |= set(USES.findall((ROOT / "action.yml").read_text()))
    readme = manual.text()
    block = readme[readme.index("act pull_request -W .github/workflows/properties.yml "
                                "--action-offline-mode"):]
    block = block[:block.index("```")]
    assert used and set(MAPPED.findall(block)) == used
