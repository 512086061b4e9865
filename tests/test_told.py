"""What a reviewer is told is decided once (issue 30): every decision the seed tables give goes
through :func:`gate.github.told.tell` once, and every sink renders the same facts of it.

The decisions are the code's own enumeration (:func:`seed_actions`: the stamp gate's rows over
every outcome and class, and the actions gate/records/pairing.py writes), fed as the golden
reports hold them and as built pairs for each way a next step reads an action (every retry
kind, the health check and the missing report included; every card expiry, freeze end, digest
gate label of a red in both classes, missing class, remembered red);
:func:`test_every_decision_of_the_seed_tables_is_fed` fails when a new one is not fed. Each is
put in a report and rendered by every sink as the action writes it (the job summary, the check
run's output and its annotations, the workflow annotations, the pull-request comment, the gate
job's log line); each must say which gate closed the door and why, what each class's run gave,
and the next step's kind and parts."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from gate.decide import digest, stamps, when
from gate.decide import outcome as outcomes
from gate.decide import ungated as ungated_rules
from gate.github import checks, comment, judge_view, markdown, plain, summary, ungated
from gate.github import told as t
from gate.records.files import read_json
from gate.records.report_data import Pair, Report
from tests import golden_cases as g
from tests.typed_report import typed, typed_pair

NOW, DAY = g.NOW, g.DAY
ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
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


#: The outcomes a stamp may carry (schemas/stamp.schema.json) and the classes a pair may hold.
OUTCOMES = tuple(read_json(SCHEMAS / "stamp.schema.json")["properties"]["outcome"]["enum"])
CLASS_PAIRS = ((g.LOCAL, g.FREE), (g.FREE, g.LOCAL), (g.LOCAL, g.LOCAL), (g.FREE, g.FREE),
               (g.LOCAL, "elsewhere"))


def seed_actions() -> set[str]:
    """Every action the seed tables give, from the code: the stamp gate's nine rows over every
    outcome and class (:func:`gate.decide.stamps.table_actions`, which asks classify_pair
    itself) and the pairing rows (the action names gate/records/pairing.py writes)."""
    import ast

    from gate.records import pairing

    # row 9 ("anything else") is reached by an outcome the schema does not name
    found = {action for lo in (*OUTCOMES, "other") for fo in (*OUTCOMES, "other")
             for classes in CLASS_PAIRS for action in stamps.table_actions(lo, fo, classes)}
    tree = ast.parse(Path(pairing.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):  # _pairing_entry(test_id, ACTION, row, ...)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_pairing_entry":
            action = node.args[1]
            found.add(str(action.value) if isinstance(action, ast.Constant)
                      else str(getattr(pairing, action.id)))  # type: ignore[attr-defined]
    return found


def _failing(cls: str, example: str | None = "f(x=1)", **extra: object) -> dict[str, object]:
    return _run(cls, "assert_fail", failure={
        "type": "AssertionError", "message": "assert f(x)", "example": example,
        "reproduce": "@reproduce_failure('6.1', b'AA')" if example else None}, **extra)


def _stuck(cls: str, kind: t.Stuck | None) -> dict[str, object]:
    """A run that gave no result, with the stamp words that make it ``kind``."""
    notes = {t.Stuck.COLLECTION: (2, outcomes.COLLECTION_NOTE + " (tests/test_props.py)"),
             t.Stuck.NO_REPORT: (1, "no JUnit report was written"),
             t.Stuck.INTERRUPTED: (2, outcomes.NOT_IN_REPORT),
             t.Stuck.DEADLINE: (1, t.DEADLINE_NOTE + " Test took 412.00ms"),
             t.Stuck.NOT_COLLECTED: (0, outcomes.NOT_COLLECTED_NOTE),
             None: (None, "killed")}
    code, note = notes[kind]
    return _run(cls, "resource_exit", exit_code=code, note=note)


def _health(cls: str) -> dict[str, object]:
    return _run(cls, "resource_exit", exit_code=1,
                note=outcomes.hypothesis_note(("FailedHealthCheck",)),
                hypothesis=g.HYPOTHESIS, failure={
                    "type": digest.HEALTH_CHECK_TYPE, "message": g.FILTER_TOO_MUCH,
                    "example": None, "reproduce": None})


FREEZE = {"owner": "@parsers", "reason": "the free server's locale", "expires": NOW + 9 * DAY}


def built_decisions() -> list[Pair]:
    """One pair per decision the seed tables give and each way the told value reads it: every
    action, and within an action every kind the next step has (card expiry, freeze ends,
    retry kind and health check, digest gate label, missing class, remembered red)."""
    green, red = (_run(g.LOCAL, "pass"), _run(g.FREE, "pass")), (_failing(g.LOCAL),)
    out = [
        _built("reject_unsigned_stamp", *green,
               reason="free-server stamp r-free-server.json: no envelope covers it (field "
                      "subjects)"),
        _built("reject_bad_class", _run("elsewhere", "pass"), _run(g.FREE, "pass"),
               reason="a server class is not one of the two"),
        _built("reject_unstamped_pair", _run(g.FREE, "pass"), _run(g.FREE, "assert_fail"),
               reason="both stamps are free-server; the other class did not run"),
        _built("reject_unclassified", *green, reason="no row matched"),
        _built("reject_cross_class_pass", *red, _run(g.FREE, "pass"),
               reason="a free-server green never closes a local-pinned red"),
        _built("reject_cross_class_pass", _failing(g.LOCAL, None), _run(g.FREE, "pass")),
        _built("reject_duplicate_stamps", *green,
               reason="two conclusive local-pinned stamps disagree"),
        _built("freeze_inside_server_class", _run(g.LOCAL, "pass"), _failing(g.FREE),
               status="frozen", card_expires=NOW + 5 * DAY, freeze=FREEZE,
               reason="frozen inside free-server (the card's freeze_expires_at)"),
        _built("reject_fixture_mismatch", *green, mismatch=["sample card seed 7 vs 8"],
               reason="the two stamps are for different tests, fixtures or sample cards"),
        _built("reject_fixture_mismatch", *green, mismatch=["fixture_hash aaaa vs bbbb"],
               reason="the two stamps ran under different test harnesses"),
        _built("reject_run_retry_new_id", _health(g.LOCAL), _health(g.FREE)),
        _built("reject_run_retry_new_id", _run(g.LOCAL, "pass"),
               _stuck(g.FREE, t.Stuck.DEADLINE), freeze=FREEZE),
    ]
    for missing, present in ((g.FREE, g.LOCAL), (g.LOCAL, g.FREE)):
        out.append(_built("reject_missing_stamp", _run(present, "pass"),
                          reason=f"no {missing} stamp: that class did not run"))
    for kind in (*t.Stuck, None):
        if kind is not t.Stuck.HEALTH_CHECK:  # both classes' health check: _health above
            out.append(_built("reject_run_retry_new_id", _run(g.LOCAL, "pass"),
                              _stuck(g.FREE, kind)))
    out.append(_built("reject_run_retry_new_id", _stuck(g.LOCAL, t.Stuck.NOT_COLLECTED),
                      _stuck(g.FREE, t.Stuck.NOT_COLLECTED)))
    for card in t.CardExpiry:
        expires = {t.CardExpiry.SET: NOW + 3 * DAY, t.CardExpiry.PASSED: NOW - DAY,
                   t.CardExpiry.MISSING: None}[card]
        out.append(_built("reject_not_allowlisted", _run(g.LOCAL, "pass"), _failing(g.FREE),
                          card_expires=expires,
                          reason="the allowlist entry grants nothing: its owner is not a "
                                 "CODEOWNER" if card is t.CardExpiry.SET else ""))
    for ends, entry in ((None, None), (NOW - DAY, None), (NOW + DAY, NOW - 5)):
        freeze = {**FREEZE, "expires": entry} if entry is not None else None
        out.append(_built("reject_freeze_expired", _run(g.LOCAL, "pass"), _failing(g.FREE),
                          card_expires=ends, **({"freeze": freeze} if freeze else {}),
                          reason="the allowlist entry has expired" if entry else ""))
    # a red in both classes, by every label the digest gate gives two assertion failures
    for label in stable_labels():
        examples = (None, None) if label == "uncompared" else ("f(x=1)", "f(x=2)")
        out.append(_built("reject_stable_fail", _failing(g.LOCAL, examples[0]),
                          _failing(g.FREE, examples[1]),
                          failure_class=label if label != "uncompared" else "unclassified"))
    return [typed_pair(p) if not isinstance(p, Pair) else p for p in out]


def stable_labels() -> list[str]:
    """The digest gate's labels for two assertion failures (rows 0-3, from its own table,
    :func:`gate.decide.stamps.rerun_table`, over a pinned digest and none, and two runs with
    and without falsifying examples), with ``uncompared`` for a pair of runs that carry none."""
    labels: set[str] = set()
    for pin in (None, g.SHA_X):
        for examples in (("f(x=1)", "f(x=1)"), ("f(x=1)", "f(x=2)"), (None, None)):
            runs = [{"run_id": f"r{i}", "outcome": "assert_fail", "hypothesis": g.HYPOTHESIS,
                     "failure": {"type": "AssertionError", "message": "m", "example": e}}
                    for i, e in enumerate(examples)]
            labels |= set(stamps.rerun_table(runs[0], runs[1], pin))
    return [*sorted(labels), "uncompared"]


def _decided() -> list[Pair]:
    pairs = [p for make in REPORTS for p in typed(make()).pairs if p.status != "accepted"]
    report, _ = g.rerun_memory()
    return [*pairs, *(p for p in typed(report).pairs if p.status != "accepted"), *BUILT,
            *built_decisions()]


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
                    if c.kind is not None else [c.detail if c.above else c.cause]
                if c.above:  # said in its common-cause paragraph, still on the page
                    out.append(c.detail)
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
    text = html.unescape(text.replace(markdown.NO_LINK, ""))  # an escaped ` reads as one
    for mark in ("`", "**"):
        text = text.replace(mark, "")
    return " ".join(text.split()).lower()


SETTINGS = checks.Settings(token="t", api_url="https://api.github.com", repository="octo/props",
                           head_sha=g.HEAD, view=g.VIEW)


def _report(pair: Pair) -> Report:
    """A report holding just ``pair`` (and its decision), as the loader gives it."""
    counts = {"accepted": 0, "frozen": 0, "rejected": 0, pair.status: 1}
    return typed({"now": NOW, "max_freeze_days": 30, "counts": counts,
                  "decision": "closed" if pair.status == "rejected" else "open",
                  "pairs": [pair.to_dict()]})


def sinks(report: Report) -> dict[str, str]:
    """Every sink's text for a report, as the action writes it: the job summary, the check
    run's output (its summary and text), its annotations, the annotations the job prints when
    no check run is published, the pull-request comment and the gate job's log lines (each
    red test's, then the receipt, judge and ungated lines, as gate/action/gate.py prints
    them)."""
    plan = checks.plan(report, SETTINGS)
    return {"summary": summary.render(report, view=g.VIEW),
            "check run output": plan.summary + "\n" + plan.text,
            "check run annotation": "\n".join(a["message"] for a in plan.annotations),
            "workflow annotation": "\n".join(a.message for a in plain.pair_annotations(
                report.pairs, now=report.now, max_days=30)),
            "pr comment": comment.body(report, "agent-patch gate", g.VIEW),
            "log line": "\n".join([*plain.log_lines(report), *plain.audit_log_lines(report),
                                   *judge_view.judge_log_lines(report),
                                   *ungated.log_lines(report)])}


def told_facts(told: t.Told) -> list[str]:
    """The told value's parts every sink must say: which gate closed the door and why (the
    words, and the gate's reason where it adds to them), what each class's run gave, and the
    next step's kind and parts."""
    return [told.happened, *([told.reason] if told.reason else []),
            *(r.brief or r.words for r in told.runs), *_facts(told)]


@pytest.mark.parametrize("pair", _decided(), ids=lambda p: f"{p.action}")
def test_each_sink_renders_the_same_facts(pair: Pair) -> None:
    told = t.tell(pair, NOW, 30)
    facts = told_facts(told)
    assert facts, told
    for sink, text in sinks(_report(pair)).items():
        seen = _plain(text)
        missing = [f for f in facts if _plain(f) not in seen]
        assert missing == [], (sink, told.step, text)


#: The sinks that show the common-cause paragraphs above the red blocks (review.headline, or
#: review.common_causes in the check run's output): their blocks point to a cause said there.
COMMON_CAUSE_SINKS = ("summary", "check run output", "pr comment")


@pytest.mark.parametrize("pair", [p for p in _decided() if isinstance(
    t.tell(p, NOW, 30).step, t.RetryStep | t.HealthCheckStep)], ids=lambda p: f"{p.action}")
def test_each_sink_renders_the_same_facts_when_the_cause_is_common(pair: Pair) -> None:
    """Issue 29 (repetition): two tests with one cause. The sinks with common-cause paragraphs
    say the cause there once and point to it from each block (the brief run words); every fact
    is still on the page. An annotation and a log line stand alone: the whole told value."""
    again = typed_pair({**pair.to_dict(), "test_id": pair.test_id + "_again"})
    report = typed({"now": NOW, "max_freeze_days": 30,
                    "counts": {"accepted": 0, "frozen": 0, "rejected": 2},
                    "decision": "closed", "pairs": [pair.to_dict(), again.to_dict()]})
    stated = t.above(report.pairs, NOW)
    assert stated or isinstance(t.tell(pair, NOW, 30).step, t.HealthCheckStep)
    for sink, text in sinks(report).items():
        told = t.tell(pair, NOW, 30, stated if sink in COMMON_CAUSE_SINKS else frozenset())
        seen = _plain(text)
        missing = [f for f in told_facts(told) if _plain(f) not in seen]
        assert missing == [], (sink, told.step, text)
        if sink in COMMON_CAUSE_SINKS and stated:
            assert "common cause" in seen, sink
        else:
            assert "the common cause above" not in seen, (sink, text)


def test_every_decision_of_the_seed_tables_is_fed() -> None:
    """The enumeration is the code's: every action the stamp gate and the pairing rows give is
    fed, is one told.py has words for, and no other; every step type, retry kind (the health
    check and the missing report too), card expiry, digest-gate reading of a red in both
    classes, missing class and remembered red is reached."""
    actions = seed_actions()
    assert actions == set(t.WORDS), actions ^ set(t.WORDS)
    decided = _decided()
    assert {p.action for p in decided} == actions - {"accept_candidate"}
    told = [t.tell(p, NOW, 30) for p in decided]
    steps = [s.step for s in told]
    assert {type(s) for s in steps if s is not None} == set(t.Step.__args__)
    kinds = {c.kind for s in steps if isinstance(s, t.RetryStep) for c in s.causes}
    kinds |= {t.Stuck.HEALTH_CHECK for s in steps if isinstance(s, t.HealthCheckStep)}
    assert kinds == {*t.Stuck, None}
    assert {s.card for s in steps if isinstance(s, t.AllowlistStep)} == set(t.CardExpiry)
    assert {s.kind for s in steps if isinstance(s, t.StableStep)} == set(t.StableKind)
    assert {s.missing for s in steps if isinstance(s, t.MissingStep)} == {g.LOCAL, g.FREE}
    assert any(s.unused_entry for s in steps if isinstance(s, t.RetryStep))
    assert {(s.card_missing, s.card_ended is not None, s.entry_ended is not None)
            for s in steps if isinstance(s, t.FreezeOverStep)} >= {
        (True, False, False), (False, True, False), (False, False, True)}
    assert any(s.remembered for s in told) and any(s.step is None for s in told)
    assert any(s.reason for s in told)
    assert set(stable_labels()) >= {"property_miss", "fixture_drift", "unclassified"}


def test_the_log_line_of_a_run_that_did_not_finish_carries_its_step() -> None:
    report = typed(g.broken_stamp_run())
    lines = plain.log_lines(report)
    told = t.tell(t.ordered_reds(report.pairs)[0], report.now)
    assert plain.told_text(told) in lines[0]


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


UNGATED = [("tests/test_new.py::test_added", "given"),
           ("tests/test_new.py::TestMachine", "stateful"),
           *((f"tests/test_more.py::test_{i}", "given") for i in range(5))]


@pytest.mark.parametrize("policy", ungated_rules.POLICIES)
@pytest.mark.parametrize("count", [0, 1, len(UNGATED)])
def test_each_sink_names_the_ungated_tests_alike(policy: str, count: int) -> None:
    """The ungated decision (gate/decide/ungated.py's table, every row: none, named, closed)
    said alike by every sink that shows the report's sections: the job summary, the check run's
    output, the pull-request comment and the gate job's log: how many, the first named, the
    fix, and for ``closed`` that the policy closed the gate. (No annotation names them: an
    annotation is a red pair's.)"""
    decision = ungated_rules.decision(count, policy)
    record = dict(g.all_green())
    tests = UNGATED[:count]
    if decision != ungated_rules.NONE:
        record["ungated"] = {"policy": policy, "decision": decision, "count": count,
                             "tests": [{"test": name, "kind": kind, "found_by": ["scan"]}
                                       for name, kind in tests]}
        record["decision"] = "closed" if decision == ungated_rules.CLOSED else "open"
    report = typed(record)
    facts = [f"{count} hypothesis test{'s' if count != 1 else ''}", tests[0][0],
             ungated_rules.fix([name for name, _ in tests])] if tests else []
    if decision == ungated_rules.CLOSED:
        facts += ["ungated: fail", "the gate is closed"]
    for sink, text in sinks(report).items():
        if sink.endswith("annotation"):
            continue
        seen = _plain(text)
        if decision == ungated_rules.NONE:
            assert "ungated" not in seen, (sink, text)
            continue
        missing = [f for f in facts if _plain(f) not in seen]
        assert missing == [], (sink, decision, text)
