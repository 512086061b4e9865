"""Reports as the surfaces read them: the tests build reports and pairs as JSON records (the
schema's shape) and hand them to gate/github through the one loader's conversion
(gate.records.report_data), as gate.records.load.typed_report does after its checks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gate.records.report_data import Pair, Report, Run


def typed(report: Mapping[str, object] | Report) -> Report:
    if isinstance(report, Report):
        return report
    pairs = report.get("pairs") or []
    assert isinstance(pairs, list)
    return Report.from_dict({**REPORT_DEFAULTS, **report,
                             "pairs": [typed_pair(p).to_dict() for p in pairs]})


#: What a test's partial pair record leaves out (only the fields the test is about are given).
PAIR_DEFAULTS: dict[str, object] = {
    "test_id": "", "gate": "stamp", "action": "", "row": 0, "status": "rejected", "reason": "",
    "fixture_sha256": None, "failure_class": "none", "freeze_allowed": False,
    "fixture_path": None, "runs": []}
RUN_DEFAULTS: dict[str, object] = {"run_id": "", "server_class": "", "outcome": ""}
FAILURE_DEFAULTS: dict[str, object] = {"type": "", "message": "", "example": None,
                                       "reproduce": None}
REPORT_DEFAULTS: dict[str, object] = {
    "schema": "gate-report/v1", "gate_version": "", "now": 0, "decision": "closed",
    "counts": {"accepted": 0, "frozen": 0, "rejected": 0}, "pairs": []}


def _run_record(run: Mapping[str, object]) -> dict[str, object]:
    out = {**RUN_DEFAULTS, **run}
    failure = run.get("failure")
    if isinstance(failure, Mapping):
        out["failure"] = {**FAILURE_DEFAULTS, **failure}
    return out


def typed_pair(pair: Mapping[str, object] | Pair) -> Pair:
    if isinstance(pair, Pair):
        return pair
    runs = pair.get("runs") or []
    assert isinstance(runs, list)
    return Pair.from_dict({**PAIR_DEFAULTS, **pair,
                           "runs": [_run_record(r) for r in runs]})


def typed_pairs(pairs: Iterable[Mapping[str, object] | Pair]) -> list[Pair]:
    return [typed_pair(p) for p in pairs]


def typed_run(run: Mapping[str, object] | Run) -> Run:
    return run if isinstance(run, Run) else Run.from_dict(_run_record(run))
