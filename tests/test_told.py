"""What a reviewer is told is decided once (issue 30): every decision the seed tables give, as
the golden reports and a few built pairs hold them, goes through :func:`gate.github.told.tell`
once, and each sink (the Markdown of the job summary, check run and comment; the plain text of
annotations and log lines) renders the same facts of it: the step's kind and its parts."""

from __future__ import annotations

import html

import pytest

from gate.decide import when
from gate.github import markdown, plain, review
from gate.github import told as t
from gate.records.report_data import Pair
from tests import golden_cases as g
from tests.typed_report import typed, typed_pair

NOW = g.NOW
REPORTS = [g.one_of_each, g.broken_stamp_run, g.collection_error, g.junit_route, g.frozen_open,
           g.health_check, g.renamed_test]


def _built(action: str, *runs: dict[str, object], **extra: object) -> Pair:
    return typed_pair({"test_id": "tests/test_props.py::test_x", "action": action,
                       "status": "rejected", "runs": list(runs), **extra})


def _run(server_class: str, outcome: str, **extra: object) -> dict[str, object]:
    return {"run_id": f"r-{server_class}", "server_class": server_class, "outcome": outcome,
            **extra}


#: Decisions the golden reports do not hold: the stamp gate's other rows, and the retry kinds.
BUILT = [
    _built("reject_unsigned_stamp", _run(g.LOCAL, "pass"), _run(g.FREE, "pass")),
    _built("reject_bad_class", _run("elsewhere", "pass"), _run(g.FREE, "pass")),
    _built("reject_unstamped_pair", _run(g.FREE, "pass"), _run(g.FREE, "assert_fail")),
    _built("reject_unclassified", _run(g.LOCAL, "pass"), _run(g.FREE, "pass")),
    _built("reject_run_retry_new_id", _run(g.LOCAL, "pass"),
           _run(g.FREE, "resource_exit", exit_code=1,
                note="hypothesis.errors.DeadlineExceeded: Test took 412.00ms")),
    _built("reject_run_retry_new_id", _run(g.LOCAL, "resource_exit", exit_code=2,
                                           note="not in JUnit report"), _run(g.FREE, "pass")),
    _built("reject_run_retry_new_id", _run(g.LOCAL, "pass"),
           _run(g.FREE, "resource_exit", exit_code=None, note="killed")),
    _built("reject_freeze_expired", _run(g.LOCAL, "pass"), _run(g.FREE, "assert_fail"),
           card_expires=NOW - 10, freeze={"owner": "@parsers", "reason": "r",
                                          "expires": NOW - 5}),
    _built("reject_missing_stamp", _run(g.LOCAL, "pass")),
    _built("reject_duplicate_stamps", _run(g.LOCAL, "pass"), _run(g.FREE, "pass")),
    _built("reject_cross_class_pass", _run(g.LOCAL, "assert_fail", failure={
        "type": "AssertionError", "message": "m", "example": "e",
        "reproduce": "@reproduce_failure('6.1', b'AA')"}), _run(g.FREE, "pass")),
]


def _decided() -> list[Pair]:
    pairs = [p for make in REPORTS for p in typed(make()).pairs if p.status != "accepted"]
    report, _ = g.rerun_memory()
    return [*pairs, *(p for p in typed(report).pairs if p.status != "accepted"), *BUILT]


def _facts(told: t.Told) -> list[str]:
    """What every sink must say about a told pair: its step's kind and parts."""
    out = [f"attempt {m.attempt}" for m in told.remembered]
    out += [m.server_class for m in told.remembered]
    step = told.step
    match step:
        case None:
            pass
        case t.AllowlistStep():
            out += ["allowlist", "freeze_expires_at", when.utc_date(step.expires),
                    f"{step.max_days}"]
        case t.FreezeOverStep():
            out += ["the freeze is over"]
        case t.HealthCheckStep():
            out += [step.check.name, "suppress_health_check", "same card"]
        case t.RetryStep():
            for c in step.causes:
                if not c.both_not_collected:  # else "in either class"
                    out.append(c.server_class)
                out += {t.Stuck.COLLECTION: ["collection"],
                        t.Stuck.NOT_COLLECTED: ["gate init --add"],
                        t.Stuck.INTERRUPTED: ["log", "cancelled"],
                        t.Stuck.DEADLINE: ["deadline_ms", "faster"],
                        t.Stuck.NO_REPORT: [c.detail]}.get(c.kind, [c.detail]) \
                    if c.kind is not None else [c.cause]
        case t.LocalRedStep() | t.StableStep():
            out += ["fix the code or the property"]
            if step.reproduce is not None:
                out.append(step.reproduce.line)
        case t.MismatchStep():
            out += ["re-run both"]
        case t.MissingStep():
            out += [step.missing, "stamp job"]
        case t.DuplicateStep():
            out += ["conclusive run"]
        case t.UnsignedStep():
            out += ["sign its stamps"]
        case t.FrozenStep():
            if step.freeze is not None:
                out += [step.freeze.owner, when.expiry(step.freeze.ends, told.now)]
        case t.ClassesStep():
            out += ["server-class"]
    return out


def _plain(text: str) -> str:
    """Markdown as a reader sees its words (entities decoded; code and emphasis marks gone)."""
    for mark in ("`", "**", markdown.NO_LINK):
        text = text.replace(mark, "")
    return " ".join(html.unescape(text).split()).lower()


@pytest.mark.parametrize("pair", _decided(), ids=lambda p: f"{p.action}")
def test_each_sink_renders_the_same_facts(pair: Pair) -> None:
    told = t.tell(pair, NOW, 30)
    sinks = {"markdown": "\n".join(review.told_lines(told, g.VIEW)),
             "red block": "\n".join(review.red_block(pair, NOW, 30, g.VIEW)),
             "annotation": plain.told_message(told),
             "plain": plain.told_text(told)}
    facts = _facts(told)
    assert facts, told
    for sink, text in sinks.items():
        seen = _plain(text)
        missing = [f for f in facts if " ".join(f.split()).lower() not in seen]
        assert missing == [], (sink, told.step, text)


def test_every_step_type_is_fed() -> None:
    """The cases above reach every step type and every retry kind but the health check's."""
    steps = [t.tell(p, NOW, 30) for p in _decided()]
    kinds = {type(s.step) for s in steps}
    assert kinds >= set(t.Step.__args__), set(t.Step.__args__) - kinds  # type: ignore[attr-defined]
    stuck = {c.kind for s in steps if isinstance(s.step, t.RetryStep) for c in s.step.causes}
    assert stuck >= {*t.Stuck} - {t.Stuck.HEALTH_CHECK, t.Stuck.NO_REPORT} | {None}
    assert any(s.remembered for s in steps) and any(s.step is None for s in steps)


def test_the_log_line_of_a_run_that_did_not_finish_carries_its_step() -> None:
    report = typed(g.broken_stamp_run())
    lines = plain.log_lines(report)
    told = t.tell(t.ordered_reds(report.pairs)[0], report.now)
    assert told.log_step and plain.told_text(told) in lines[0]


def test_no_renderer_reads_the_action_string() -> None:
    """The action string is read once, in gate/github/told.py: the renderers compare none."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "gate" / "github"
    found = []
    for name in ("review.py", "plain.py", "summary.py", "checks.py", "comment.py"):
        for node in ast.walk(ast.parse((root / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "action" and isinstance(
                    getattr(node, "ctx", None), ast.Load):
                found.append(f"{name}:{node.lineno}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    node.value.startswith(("reject_", "accept_candidate", "freeze_inside")):
                found.append(f"{name}:{node.lineno} {node.value}")
    # the log line names the action itself (gate: rejected: <test>: <action>), as a value
    assert [f for f in found if not f.startswith("plain.py")] == []
    assert len([f for f in found if f.startswith("plain.py")]) == 1, found
