"""The report as frozen dataclasses (issue 30): one loader turns a checked report into
gate.records.report_data, every surface in gate/github reads that, and nothing is lost on the
way (``to_dict(from_dict(r)) == r``)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from gate.records import load as records
from gate.records.report_data import ABSENT, Pair, Report
from tests import golden_cases as g

ROOT = Path(__file__).resolve().parent.parent
# (one_of_each's hand-written failure records leave out ``reproduce``, which the schema needs)
CASES = [g.all_green, g.broken_stamp_run, g.collection_error, g.junit_route,
         g.frozen_open, g.health_check, g.renamed_test, g.judge_files, g.judge_files_unlisted,
         g.deadline_allowlisted]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__)
def test_every_golden_report_round_trips(case: object, tmp_path: Path) -> None:
    built = case()  # type: ignore[operator]
    path = tmp_path / "report.json"
    typed = records.write_report(path, built)
    assert isinstance(typed, Report)
    assert typed.to_dict() == json.loads(json.dumps(built))
    assert records.load_report(path) == typed  # the one loader, reading the file back


def test_the_rerun_memory_report_round_trips() -> None:
    report, _ = g.rerun_memory()
    typed = records.typed_report(report, "(test)")
    assert typed.to_dict() == json.loads(json.dumps(report))
    assert any(p.remembered for p in typed.pairs)


def test_absent_and_null_stay_apart() -> None:
    """An exit code of null (killed by a signal) is not a missing one; a card expiry of null is
    kept as null: both read differently and both come back as they were."""
    base = g.one_of_each()["pairs"][0]
    runs = [{**base["runs"][0], "exit_code": None}, dict(base["runs"][1])]
    runs[1].pop("exit_code", None)
    record = {**base, "runs": runs, "card_expires": None}
    pair = Pair.from_dict(record)
    assert pair.runs[0].exit_code is None and pair.runs[1].exit_code is ABSENT
    assert pair.card_expires is None
    assert pair.to_dict() == record
    record.pop("card_expires")
    assert Pair.from_dict(record).card_expires is ABSENT
    assert Pair.from_dict(record).to_dict() == record


def test_an_unchecked_record_is_refused_not_guessed() -> None:
    record = {**g.one_of_each()["pairs"][0], "row": "6"}
    with pytest.raises(TypeError, match="'row'"):
        Pair.from_dict(record)


REPORT_NAMES = {"report", "pair", "pairs", "run", "runs", "freeze", "entry", "shown"}


def test_no_report_value_in_gate_github_is_an_untyped_mapping() -> None:
    """Past the loader the report is typed: no parameter of a gate/github function that carries
    the report or a part of it is a ``Mapping``/``dict``/``Any``."""
    found = []
    for path in sorted((ROOT / "gate" / "github").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for arg in [*node.args.args, *node.args.kwonlyargs]:
                if arg.arg in REPORT_NAMES and arg.annotation is not None:
                    text = ast.unparse(arg.annotation)
                    if any(word in text for word in ("Mapping", "dict", "Any")):
                        found.append(f"{path.name}:{node.lineno} {node.name}({arg.arg}: {text})")
    # the stamp job's summary reads stamps (not the report), before any report exists
    assert [f for f in found if "_stamp" not in f and "render_stamp_done" not in f] == []
