"""Reports a reviewer reads, built through the real pairing code from stamps (no files), for the
golden-file tests (tests/test_review_golden.py) and the rendering tests."""

from __future__ import annotations

import copy
from typing import Any

from gate.decide import stamps as stamp_gate
from gate.github import review
from gate.records import pairing

LOCAL, FREE = "local-pinned", "free-server"
NOW = 1_790_000_000  # 2026-09-21 14:13 UTC
DAY = 86_400
HASH = "a" * 64
SHA_X = "5" * 64
HEAD = "0123456789abcdef0123456789abcdef01234567"
VIEW = review.View(server_url="https://github.com", repository="octo/props", head_sha=HEAD,
                   policy_path=".github/gate-policy.yml", artifact_prefix="gate-stamps",
                   report_artifact="gate-stamps-report-gate-1",
                   run_url="https://github.com/octo/props/actions/runs/42",
                   check_run_url="https://github.com/octo/props/runs/7")


def _card(test: str, expires: int | None = NOW + 20 * DAY, **extra: Any) -> dict[str, Any]:
    card: dict[str, Any] = {"property": test, "cases": 200, "seed": 7}
    if expires is not None:
        card["freeze_expires_at"] = expires
    card.update(extra)
    return card


def _stamp(test: str, line: int, server_class: str, outcome: str, run_id: str,
           card: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    the_card = copy.deepcopy(card) if card is not None else _card(test)
    value: dict[str, Any] = {
        "run_id": run_id, "test_id": f"tests/test_props.py::{test}",
        "server_class": server_class, "fixture_hash": HASH, "sample_card": the_card,
        "outcome": outcome, "freeze_expires_at": the_card.get("freeze_expires_at"),
        "fixture_sha256": SHA_X, "fixture_path": f"fixtures/{test}.json",
        "location": {"path": "tests/test_props.py", "line": line},
        "exit_code": 0 if outcome == "pass" else 1,
    }
    value.update(extra)
    return value


FAILURE = {"type": "AssertionError",
           "message": "assert parse(render(doc)) == doc\n  where doc = Doc(locale='tr_TR')",
           "example": "test_locale_round_trip(\n    doc=Doc(locale='tr_TR'),\n)",
           "reproduce": "pytest tests/test_props.py::test_locale_round_trip "
                        "--hypothesis-seed=7"}


HYPOTHESIS = {"version": "6.100.0", "seed": 7, "max_examples": 200, "derandomize": True,
              "database": None, "deadline_ms": None, "suppress_health_check": [],
              "examples_run": 143}


def _loaded(*stamps_: dict[str, Any]) -> list[pairing.Loaded]:
    return [pairing.Loaded(s, f"gate-stamps-{s['server_class']}-stamp-1-0a1b2c3d/"
                              f"{s['run_id']}.json") for s in stamps_]


def _allow(test: str, expires: int, **extra: Any) -> stamp_gate.AllowEntry:
    del extra
    return stamp_gate.AllowEntry(f"tests/test_props.py::{test}", FREE, "@parsers",
                                 "the free runner lacks the tr_TR locale", expires)


def _report(loaded: list[pairing.Loaded], allow: list[stamp_gate.AllowEntry],
            issues: dict[tuple[str, str], Any] | None = None) -> dict[str, Any]:
    decisions = pairing.decide_all(loaded, allow, NOW, issues)
    return pairing.build_report(decisions, NOW, max_freeze_days=30)


def _green(test: str, line: int) -> list[dict[str, Any]]:
    return [_stamp(test, line, LOCAL, "pass", f"l-{test}"),
            _stamp(test, line, FREE, "pass", f"f-{test}")]


def all_green() -> dict[str, Any]:
    return _report(_loaded(*_green("test_sort_stable", 10), *_green("test_json_round_trip", 20),
                           *_green("test_merge_commutes", 30)), [])


def one_of_each() -> dict[str, Any]:
    s: list[dict[str, Any]] = []
    # reject_not_allowlisted, with the card issue's failure fields (both runs record the same
    # Hypothesis generator: a one-sided record is a fixture mismatch, issue 11)
    s += [_stamp("test_locale_round_trip", 41, LOCAL, "pass", "l-loc", hypothesis=HYPOTHESIS),
          _stamp("test_locale_round_trip", 41, FREE, "assert_fail", "f-loc", failure=FAILURE,
                 hypothesis=HYPOTHESIS)]
    # freeze_inside_server_class, expiring in 5 days (flagged)
    frozen_card = _card("test_unicode_width", NOW + 5 * DAY)
    s += [_stamp("test_unicode_width", 52, LOCAL, "pass", "l-uw", frozen_card),
          _stamp("test_unicode_width", 52, FREE, "assert_fail", "f-uw", frozen_card)]
    # reject_freeze_expired (the card's expiry passed 3 days ago)
    old_card = _card("test_tz_offsets", NOW - 3 * DAY)
    s += [_stamp("test_tz_offsets", 63, LOCAL, "pass", "l-tz", old_card),
          _stamp("test_tz_offsets", 63, FREE, "assert_fail", "f-tz", old_card)]
    # reject_run_retry_new_id: the free-server command never wrote a report
    s += [_stamp("test_big_input", 74, LOCAL, "pass", "l-big"),
          _stamp("test_big_input", 74, FREE, "resource_exit", "f-big",
                 note="no JUnit report was written")]
    # reject_cross_class_pass
    s += [_stamp("test_float_sum", 85, LOCAL, "assert_fail", "l-fs",
                 failure={"type": "AssertionError", "message": "assert 0.30000000000000004 == 0.3",
                          "example": "test_float_sum(xs=[0.1, 0.2])"}),
          _stamp("test_float_sum", 85, FREE, "pass", "f-fs")]
    # reject_stable_fail
    s += [_stamp("test_dedupe_idempotent", 96, LOCAL, "assert_fail", "l-dd"),
          _stamp("test_dedupe_idempotent", 96, FREE, "assert_fail", "f-dd")]
    # reject_fixture_mismatch: the seed differs
    s += [_stamp("test_shuffle_perm", 107, LOCAL, "pass", "l-sp",
                 _card("test_shuffle_perm", seed=7), hypothesis=HYPOTHESIS),
          _stamp("test_shuffle_perm", 107, FREE, "pass", "f-sp",
                 _card("test_shuffle_perm", seed=8),
                 hypothesis={**HYPOTHESIS, "seed": 8, "derandomize": False})]
    # reject_missing_stamp: only local-pinned ran
    s += [_stamp("test_gzip_round_trip", 118, LOCAL, "pass", "l-gz")]
    # two greens
    s += _green("test_sort_stable", 10) + _green("test_json_round_trip", 20)
    allow = [_allow("test_unicode_width", NOW + 6 * DAY),
             _allow("test_tz_offsets", NOW + 10 * DAY)]
    issues = {("tests/test_props.py::test_unicode_width", FREE): 1234,
              ("tests/test_props.py::test_tz_offsets", FREE):
                  "https://github.com/octo/props/issues/99"}
    return _report(_loaded(*s), allow, issues)


def frozen_open() -> dict[str, Any]:
    """Open with one reviewed freeze (check run neutral): the headline says frozen, not green."""
    frozen_card = _card("test_unicode_width", NOW + 5 * DAY)
    s = [_stamp("test_unicode_width", 52, LOCAL, "pass", "l-uw", frozen_card),
         _stamp("test_unicode_width", 52, FREE, "assert_fail", "f-uw", frozen_card),
         *_green("test_sort_stable", 10), *_green("test_json_round_trip", 20)]
    return _report(_loaded(*s), [_allow("test_unicode_width", NOW + 6 * DAY)],
                   {("tests/test_props.py::test_unicode_width", FREE): 1234})


BROKEN_TESTS = [f"test_prop_{i}" for i in range(1, 10)]


def broken_stamp_run() -> dict[str, Any]:
    """The free-server command could not start (`No module named pytest`): no JUnit report."""
    s: list[dict[str, Any]] = []
    for i, test in enumerate(BROKEN_TESTS):
        s += [_stamp(test, 10 * (i + 1), LOCAL, "pass", f"l-{i}"),
              _stamp(test, 10 * (i + 1), FREE, "resource_exit", f"f-{i}",
                     note="no JUnit report was written")]
    return _report(_loaded(*s), [])


def _junit(test: str, line: int, server_class: str, outcome: str, run_id: str,
           card: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A stamp of the action's JUnit route for a property without a sampler file: no
    ``fixture_sha256``/``fixture_path``, no ``hypothesis``/``failure`` (the digest gate can only
    say ``unclassified``)."""
    value = _stamp(test, line, server_class, outcome, run_id, card, **extra)
    del value["fixture_sha256"], value["fixture_path"]
    value.setdefault("note", "JUnit <failure>" if outcome == "assert_fail" else None)
    if value["note"] is None:
        del value["note"]
    return value


COLLECTION_TESTS = ["test_parse_dates", "test_parse_offsets", "test_round_trip"]


def collection_error() -> dict[str, Any]:
    """The free-server run stopped at a collection error (a test file imports a module the
    free server lacks): pytest exits 2, the JUnit report holds only the collection failure."""
    from gate.decide import outcome

    note = outcome.collection_note(["tests.test_helpers"])
    s: list[dict[str, Any]] = []
    for i, test in enumerate(COLLECTION_TESTS):
        s += [_junit(test, 10 * (i + 1), LOCAL, "pass", f"l-{i}"),
              _junit(test, 10 * (i + 1), FREE, "resource_exit", f"f-{i}", exit_code=2,
                     note=note)]
    return _report(_loaded(*s), [])


def import_broken() -> dict[str, Any]:
    """A patch raised ImportError in a package module every test file imports (issue 29 item 4,
    priority 2.0.0 under act): both classes' collection fails the same way, and the stamps'
    notes name the module (gate.testrun.blame.collection_blame)."""
    from gate.decide import outcome

    note = outcome.collection_note(
        ["tests.test_props"], pytest_route=True,
        blame="the patch breaks importing src/props/core.py (line 9: ImportError: broken), "
              "which tests/test_props.py imports: fix that file (the code under test fails "
              "to import, not the job's configuration)")
    s: list[dict[str, Any]] = []
    for i, test in enumerate(COLLECTION_TESTS):
        s += [_junit(test, 10 * (i + 1), cls, "resource_exit", f"{cls[0]}-{i}", exit_code=2,
                     note=note) for cls in (LOCAL, FREE)]
    return _report(_loaded(*s), [])


def junit_route() -> dict[str, Any]:
    """What the action's stamp mode gives today (JUnit, no sampler file): a red in both
    classes, a free-server red and a green, all without digests."""
    s = [_junit("test_dedupe_idempotent", 96, LOCAL, "assert_fail", "l-dd"),
         _junit("test_dedupe_idempotent", 96, FREE, "assert_fail", "f-dd"),
         _junit("test_locale_round_trip", 41, LOCAL, "pass", "l-loc"),
         _junit("test_locale_round_trip", 41, FREE, "assert_fail", "f-loc"),
         _junit("test_sort_stable", 10, LOCAL, "pass", "l-ss"),
         _junit("test_sort_stable", 10, FREE, "pass", "f-ss")]
    return _report(_loaded(*s), [])


def _recorded(test: str, line: int, server_class: str, outcome: str, run_id: str,
              **extra: Any) -> dict[str, Any]:
    """A stamp of the action's recorder route (the card applied; no sampler file): the
    ``hypothesis`` object always, the ``failure`` object on a red."""
    value = _stamp(test, line, server_class, outcome, run_id, _card(test, None), **extra)
    del value["fixture_sha256"], value["fixture_path"]
    value["source"] = "pytest-recorder"
    value.setdefault("hypothesis", dict(HYPOTHESIS, derandomize=False))
    return value


#: Hypothesis 6.170's text for filter_too_much (four paragraphs), as the stamp carries it.
FILTER_TOO_MUCH = (
    "It looks like this test is filtering out a lot of inputs. 0 inputs were generated "
    "successfully, while 50 inputs were filtered out. \n\nAn input might be filtered out by "
    "calls to assume(), strategy.filter(...), or occasionally by Hypothesis internals.\n\n"
    "Applying this much filtering makes input generation slow, since Hypothesis must discard "
    "inputs which are filtered out and try generating it again. It is also possible that "
    "applying this much filtering will distort the domain and/or distribution of the test, "
    "leaving your testing less rigorous than expected.\n\nIf you expect this many inputs to "
    "be filtered out during generation, you can disable this health check with "
    "@settings(suppress_health_check=[HealthCheck.filter_too_much]). See "
    "https://hypothesis.readthedocs.io/en/latest/reference/api.html#hypothesis.HealthCheck "
    "for details.")
TOO_SLOW = (
    "Input generation is slow: Hypothesis only generated 9 valid inputs after 1.12 seconds.\n"
    "\nIf you expect input generation to be slow, you can disable this health check with "
    "@settings(suppress_health_check=[HealthCheck.too_slow]).")


def _health(test: str, line: int, server_class: str, run_id: str, text: str) -> dict[str, Any]:
    from gate.decide import outcome

    return _recorded(test, line, server_class, "resource_exit", run_id,
                     note=outcome.hypothesis_note(("FailedHealthCheck",)),
                     failure={"type": "hypothesis.errors.FailedHealthCheck", "message": text,
                              "example": None, "reproduce": None})


def health_check() -> dict[str, Any]:
    """Issue 22: both classes fail filter_too_much identically on the card's seed (a
    deterministic red: no re-run can pass), beside a too_slow on the free server only (a slow
    runner: the retry class) and a green."""
    hypothesis = dict(HYPOTHESIS, derandomize=False, examples_run=0)
    s = [{**_health("test_parse_ranges", 12, LOCAL, "l-pr", FILTER_TOO_MUCH),
          "hypothesis": hypothesis},
         {**_health("test_parse_ranges", 12, FREE, "f-pr", FILTER_TOO_MUCH),
          "hypothesis": hypothesis},
         _recorded("test_render_all", 30, LOCAL, "pass", "l-ra"),
         _health("test_render_all", 30, FREE, "f-ra", TOO_SLOW),
         _recorded("test_sort_stable", 50, LOCAL, "pass", "l-ss"),
         _recorded("test_sort_stable", 50, FREE, "pass", "f-ss")]
    return _report(_loaded(*s), [])


def renamed_test() -> dict[str, Any]:
    """Issue 22: ``test_round_trip`` was renamed after ``gate init``: both classes stamp it
    ``resource_exit`` (not collected), every other property is stamped as usual."""
    from gate.decide import outcome

    s = [_recorded("test_round_trip", 10, LOCAL, "resource_exit", "l-rt", exit_code=0,
                   note=outcome.NOT_COLLECTED_NOTE),
         _recorded("test_round_trip", 10, FREE, "resource_exit", "f-rt", exit_code=0,
                   note=outcome.NOT_COLLECTED_NOTE)]
    for del_key in ("hypothesis",):
        for stamp in s:
            del stamp[del_key]  # the test never ran: no generator was recorded
    s += [*(_recorded(t, 20 + i, c, "pass", f"{c[0]}-{i}")
            for i, t in enumerate(("test_decode_total", "test_sort_stable"))
            for c in (LOCAL, FREE))]
    for stamp in s:
        stamp["exit_code"] = 0  # the session passed: only the renamed test has no result
    return _report(_loaded(*s), [])


def many(n: int = 10_000, red_every: int = 500) -> dict[str, Any]:
    s: list[dict[str, Any]] = []
    for i in range(n):
        test = f"test_prop_{i:05d}"
        red = i % red_every == 7
        s += [_stamp(test, 1 + i % 5000, LOCAL, "pass", f"l{i}"),
              _stamp(test, 1 + i % 5000, FREE, "assert_fail" if red else "pass", f"f{i}",
                     **({"failure": FAILURE} if red else {}))]
    return _report(_loaded(*s), [])


NO_STAMPS = ("no stamps found: no artifact matched the pattern gate-stamps-*. Most likely a "
             "stamp job failed before uploading (read its log / summary); otherwise check "
             "that the artifact-prefix input is the same in the stamp jobs and the gate job")


CHECK_RUN_1 = "https://github.com/octo/props/runs/6"


def rerun_memory() -> tuple[dict[str, Any], str]:
    """Attempt 2 of run 42 after "Re-run all jobs": attempt 1's check run recorded a
    local-pinned red that this attempt's (green) stamps do not repeat. The report, and this
    attempt's hidden record (the red carried on)."""
    from gate.records import memory

    red = _loaded(_stamp("test_locale_round_trip", 41, LOCAL, "assert_fail", "l-loc-1",
                         failure=FAILURE))[0]
    remembered = [memory.Remembered(red.stamp["test_id"], LOCAL, "l-loc-1",
                                    pairing.result_digest(red), 1, CHECK_RUN_1)]
    loaded = _loaded(*[_stamp("test_locale_round_trip", 41, c, "pass", f"{c[0]}-loc-2")
                       for c in (LOCAL, FREE)], *_green("test_sort_stable", 10))
    decisions = pairing.decide_all(loaded, [], NOW, None, remembered)
    record = memory.build("42", 2, HEAD, pairing.memory_reds(decisions))
    return pairing.build_report(decisions, NOW, max_freeze_days=30), memory.encode(record)


def _judged(report: dict[str, Any], section: dict[str, Any]) -> dict[str, Any]:
    out = dict(report)
    out["judge_files"] = {"base": "f" * 40, "head": HEAD, "properties": len(report["pairs"]),
                          **section}
    return out


def judge_files() -> dict[str, Any]:
    """All green, on a pull request that changes pytest.ini (every property), a test file (two),
    renames a fixture (one) and adds a conftest.py with a hostile name."""
    return _judged(all_green(), {"changed": 9, "files": [
        {"path": "pytest.ini", "kinds": ["harness"], "all": True},
        {"path": "tests/test_props.py", "kinds": ["fixture"], "count": 2,
         "test_ids": ["tests/test_props.py::test_json_round_trip",
                      "tests/test_props.py::test_sort_stable"]},
        {"path": "src/props/merge2.py", "previous": "src/props/merge.py", "kinds": ["fixture"],
         "count": 1, "test_ids": ["tests/test_props.py::test_merge_commutes"]},
        {"path": "tests/`<img src=x>`@team #1/conftest.py", "kinds": ["harness"], "count": 1,
         "test_ids": ["tests/test_props.py::test_merge_commutes"]}]})


def judge_files_unlisted() -> dict[str, Any]:
    """The compare call was refused: one line, the door as always."""
    return _judged(all_green(), {"files": [], "error": "repository or commit not found (or "
                                 "not visible to the token): HTTP 404 Not Found"})


def deadline_allowlisted() -> dict[str, Any]:
    """Issue 29 item 2: the slow free runner's DeadlineExceeded (a resource exit, never frozen)
    on a test the policy allowlists in free-server, with the card's freeze_expires_at set: the
    red block says the entry does not apply and why, and names the card's deadline_ms."""
    from gate.decide import outcome

    s = [_recorded("test_render_all", 30, LOCAL, "pass", "l-ra"),
         _recorded("test_render_all", 30, FREE, "resource_exit", "f-ra",
                   note=outcome.hypothesis_note(("DeadlineExceeded",)),
                   failure={"type": "hypothesis.errors.DeadlineExceeded",
                            "message": "Test took 412.00ms, which exceeds the deadline of "
                                       "200.00ms", "example": None, "reproduce": None}),
         _recorded("test_sort_stable", 50, LOCAL, "pass", "l-ss"),
         _recorded("test_sort_stable", 50, FREE, "pass", "f-ss")]
    for stamp in s[:2]:
        stamp["sample_card"]["freeze_expires_at"] = NOW + 20 * DAY
        stamp["freeze_expires_at"] = NOW + 20 * DAY
    return _report(_loaded(*s), [_allow("test_render_all", NOW + 25 * DAY)])
