"""Issue 22: the local route (``gate classify --stamps … --report`` then ``gate summary``) and the
action's route decide and report through the same two functions, so the summary shows the same
freeze (the allowlist entry's ``issue`` and the policy's freeze window) on both."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from gate.commands import main as cli
from gate.records import load as records
from tests.golden_cases import DAY, NOW, _stamp

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/test_props.py::test_locale_round_trip"
POLICY = f"""max_freeze_days: 30
allowlist:
  - test_id: "{TEST}"
    server_class: free-server
    owner: "team-parsers"
    reason: the free runner lacks the tr_TR locale
    issue: "https://github.com/octo/props/issues/41"
    added: {NOW - DAY}
    expires: {NOW + 20 * DAY}
"""


def _frozen_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "stamps"
    folder.mkdir()
    for stamp in (_stamp("test_locale_round_trip", 9, "local-pinned", "pass", "l1"),
                  _stamp("test_locale_round_trip", 9, "free-server", "assert_fail", "f1")):
        (folder / f"{stamp['run_id']}.json").write_text(json.dumps(stamp))
    return folder


def test_the_local_route_keeps_the_allowlist_entrys_issue(tmp_path: Path) -> None:
    folder = _frozen_folder(tmp_path)
    (tmp_path / "policy.yml").write_text(POLICY)
    report = tmp_path / "report.json"
    assert cli.main(["classify", "--stamps", str(folder), "--policy", str(tmp_path / "policy.yml"),
                     "--now", str(NOW), "--report", str(report)]) == 0
    built = records.load_report(report)
    (pair,) = built.pairs
    assert pair.status == "frozen"
    assert pair.freeze is not None
    assert pair.freeze.issue == "https://github.com/octo/props/issues/41"
    assert built.max_freeze_days == 30
    summary = tmp_path / "summary.md"
    assert cli.main(["summary", "--report", str(report), "--out", str(summary)]) == 0
    text = summary.read_text()
    assert "https://github.com/octo/props/issues/41" in text
    assert "none recorded" not in text


def test_commands_and_surfaces_decide_only_by_policy() -> None:
    """Nothing in gate/commands or gate/github goes around decide_by_policy/report_by_policy
    (the route that dropped the issue called the lower functions with half the policy)."""
    lower = {"decide_all", "decide_folder", "decide_test", "build_report"}
    found = []
    for folder in ("commands", "github"):
        for path in (ROOT / "gate" / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in lower:
                    found.append(f"{path.name}:{node.lineno} {node.attr}")
    assert found == []
