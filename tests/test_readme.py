"""The README is the manual: keep it in step with action.yml, the CLI and the hash format."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from gate.commands import main as cli
from gate.records import hashing
from gate.records.files import read_json

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ACTION: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.MULTILINE | re.DOTALL)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def _table(marker: str) -> list[list[str]]:
    block = README.split(marker, 1)[1].split("\n", 1)[1]
    rows = []
    for line in block.splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


def _flat(text: str) -> str:
    return " ".join(str(text).split())


def test_quick_start_is_exactly_two_commands() -> None:
    body = _section("Quick start")
    block = re.search(r"```sh\n(.*?)```", body, re.DOTALL)
    assert block
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["pip install . && gate demo",
                        "pip install '.[test]' && python -m pytest"]


def test_inputs_table_matches_action_yml() -> None:
    rows = _table("<!-- inputs: generated from action.yml")
    expected = []
    for name, spec in ACTION["inputs"].items():
        default = spec.get("default", "")
        expected.append([f"`{name}`", f"`{default}`" if default not in ("", None) else "",
                         _flat(spec["description"])])
    assert rows == expected


def test_outputs_table_matches_action_yml() -> None:
    rows = _table("<!-- outputs: generated from action.yml")
    expected = [[f"`{name}`", _flat(spec["description"])]
                for name, spec in ACTION["outputs"].items()]
    assert rows == expected


def test_every_documented_command_exists() -> None:
    reference = _section("Command-line reference")
    documented = set(re.findall(r"^gate ([a-z-]+)", reference, re.MULTILINE))
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    available = set(sub.choices)  # type: ignore[arg-type]
    assert documented - {"--version"} <= available
    assert available <= documented, f"undocumented commands: {available - documented}"


def test_the_documented_hash_recipe_recomputes_gate_hash(tmp_path: Path) -> None:
    recipe = re.search(r"To recompute in Python:\n\n```python\n(.*?)```", README, re.DOTALL)
    assert recipe
    namespace: dict[str, Any] = {}
    exec(recipe.group(1), namespace)  # the README's own example code
    examples = ROOT / "gate" / "examples"
    card = read_json(examples / "card.json")
    root = examples / "fixtures"
    ours = hashing.fixture_hash([root], root, card)
    assert namespace["fixture_hash"](str(root), card) == ours
    assert namespace["fixture_hash"](str(root), None) == hashing.fixture_hash([root], root, None)
