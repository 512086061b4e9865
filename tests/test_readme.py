"""The README (the front page) and the docs site are the manual: keep them in step with action.yml,
the reusable workflow, the CLI and the hash format."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from gate.commands import main as cli
from gate.records import hashing
from gate.records.files import read_json
from tests import manual

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ACTION: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
REUSABLE: dict[str, Any] = yaml.safe_load(  # PyYAML reads the key `on` as True
    (ROOT / ".github" / "workflows" / "gate.yml").read_text(encoding="utf-8"))[True][
    "workflow_call"]


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.MULTILINE | re.DOTALL)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def _table(marker: str, nth: int = 0) -> list[list[str]]:
    """The rows of the ``nth`` table after ``marker`` (an HTML comment) in the README."""
    block = README.split(marker, 1)[1].split("\n", 1)[1]
    for _ in range(nth):
        block = block.split("\n\n", 1)[1]
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


def test_the_reusable_workflows_inputs_secrets_and_outputs_are_the_readmes() -> None:
    marker = "<!-- reusable inputs: generated from .github/workflows/gate.yml"
    expected = []
    for name, spec in REUSABLE["inputs"].items():
        default = spec.get("default", "")
        expected.append([f"`{name}`", f"`{default}`" if default not in ("", None) else "",
                         _flat(spec["description"])])
    assert _table(marker) == expected
    assert _table(marker, 1) == [[f"`{name}`", _flat(spec["description"])]
                                 for name, spec in REUSABLE["secrets"].items()]
    assert _table(marker, 2) == [[f"`{name}`", _flat(spec["description"])]
                                 for name, spec in REUSABLE["outputs"].items()]


def test_the_readme_is_a_front_page() -> None:
    """Issue 28: at most ~400 lines; the rest is in the docs site."""
    assert README.count("\n") <= 400


def test_every_documented_command_exists() -> None:
    reference = manual.section("Command-line reference")
    documented = set(re.findall(r"^gate ([a-z-]+)", reference, re.MULTILINE))
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    available = set(sub.choices)  # type: ignore[arg-type]
    assert documented - {"--version"} <= available
    assert available <= documented, f"undocumented commands: {available - documented}"


def test_the_documented_hash_recipe_recomputes_gate_hash(tmp_path: Path) -> None:
    recipe = re.search(r"To recompute in Python:\n\n```python\n(.*?)```", manual.text(), re.DOTALL)
    assert recipe
    namespace: dict[str, Any] = {}
    exec(recipe.group(1), namespace)  # the documentation's own example code
    examples = ROOT / "gate" / "examples"
    card = read_json(examples / "card.json")
    root = examples / "fixtures"
    ours = hashing.fixture_hash([root], root, card)
    assert namespace["fixture_hash"](str(root), card) == ours
    assert namespace["fixture_hash"](str(root), None) == hashing.fixture_hash([root], root, None)
