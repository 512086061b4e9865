"""``gate classify --stamps DIR``: one manifest of 24 properties stamped by real pytest runs in
both classes, classified, checked against a table written here; and the pairing rules."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from gate.commands.main import main
from gate.records import pairing, schemas
from tests.property_suite.harness import (
    copy_suite,
    gate,
    make_property,
    pytest_command,
    read_stamps,
    write_manifest,
)

NOW = 1_800_000_000
DAY = 86_400
LOCAL, FREE = "local-pinned", "free-server"

# property: (local behaviour, free behaviour, expected action). Extra handling per property is
# listed below the table; behaviours are those of tests/property_suite/prop_suite.py. (A
# manifest naming a testcase the report does not have is a typo, exit 2: issue 14 class 8.)
TABLE: dict[str, tuple[str, str, str]] = {
    "p01": ("pass", "pass", "accept_candidate"),
    "p02": ("pass", "fail", "freeze_inside_server_class"),  # allowlisted, card expiry ahead
    "p03": ("pass", "fail", "reject_not_allowlisted"),
    "p04": ("pass", "fail", "reject_freeze_expired"),  # allowlisted, card expiry passed
    "p05": ("fail", "pass", "reject_cross_class_pass"),
    "p06": ("fail", "fail", "reject_stable_fail"),
    "p07": ("pass", "error", "reject_run_retry_new_id"),
    "p08": ("error", "pass", "reject_run_retry_new_id"),
    "p09": ("pass", "skip", "reject_run_retry_new_id"),
    "p10": ("skip", "skip", "reject_run_retry_new_id"),
    "p11": ("error", "error", "reject_run_retry_new_id"),
    "p12": ("pass", "pass", "reject_missing_stamp"),  # not in the free-server manifest
    "p13": ("pass", "pass", "reject_fixture_mismatch"),  # fixture edited between the runs
    "p14": ("pass", "pass", "accept_candidate"),  # local rerun: pass again (agrees)
    "p15": ("error", "pass", "accept_candidate"),  # local rerun: pass
    "p16": ("fail", "fail", "reject_stable_fail"),  # local rerun: fail again (agrees)
    "p17": ("skip", "fail", "freeze_inside_server_class"),  # local rerun: pass; allowlisted
    "p18": ("pass", "pass", "accept_candidate"),
    "p19": ("fail", "error", "reject_run_retry_new_id"),
    "p20": ("pass", "pass", "accept_candidate"),  # free rerun: error (discarded)
    "p21": ("pass", "fail", "reject_not_allowlisted"),  # allowlisted for local-pinned only
    "p22": ("pass", "fail", "reject_freeze_expired"),  # allowlist entry expired
    "p23": ("pass", "pass", "accept_candidate"),  # with a location
    "p24": ("xfail", "pass", "reject_run_retry_new_id"),
}
LOCAL_RERUN = {"p14": "pass", "p15": "pass", "p16": "fail", "p17": "pass"}
FREE_RERUN = {"p20": "error"}
# Same-class rerun pairs and the digest gate's label for each.
RERUN_LABELS = {
    ("p14", LOCAL): "none",  # pass, pass: nothing red
    ("p15", LOCAL): "harness_flake",  # error (transport fault), pass
    ("p16", LOCAL): "property_miss",  # fail, fail on the same bytes
    ("p17", LOCAL): "harness_flake",  # skipped, pass
    ("p20", FREE): "harness_flake",  # pass, error
}
# What each behaviour must be stamped as (SPEC §3), independent of gate.decide.outcome.
OUTCOME = {"pass": "pass", "fail": "assert_fail", "error": "resource_exit",
           "skip": "resource_exit", "xfail": "resource_exit"}

POLICY = f"""
allowlist:
  - {{test_id: p02, server_class: free-server, owner: "@a", reason: r, added: {NOW - DAY},
     expires: {NOW + 10 * DAY}}}
  - {{test_id: p04, server_class: free-server, owner: "@a", reason: r, expires: {NOW + DAY}}}
  - {{test_id: p17, server_class: free-server, owner: "@a", reason: r, issue: "#17",
     expires: {NOW + 5 * DAY}}}
  - {{test_id: p21, server_class: local-pinned, owner: "@a", reason: r, expires: {NOW + DAY}}}
  - {{test_id: p22, server_class: free-server, owner: "@a", reason: r, added: {NOW - 20 * DAY},
     expires: {NOW - 1}}}
"""


def _plan(which: int) -> dict[str, str]:
    return {p: row[which] for p, row in TABLE.items()}


def _stamp(ws: Path, manifest: str, server_class: str, out: str, prefix: str,
           plan: dict[str, str]) -> None:
    junit = f"{prefix}.xml"
    done = gate("stamp", "--manifest", manifest, "--server-class", server_class, "--junit",
                junit, "--out", out, "--store", "pins", "--run-id-prefix", prefix,
                "--", *pytest_command(junit), cwd=ws, plan=plan)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    ws = tmp_path_factory.mktemp("manifest24")
    copy_suite(ws)
    entries = []
    for n, name in enumerate(TABLE, start=1):
        expiry = NOW - 1 if name == "p04" else NOW + 7 * DAY
        entry = make_property(ws, name, seed=n, expires=expiry)
        if name == "p23":
            entry["location"] = {"path": "prop_suite.py", "line": 40}
        entries.append(entry)
    write_manifest(ws / "gate.yml", entries)
    write_manifest(ws / "free.yml", [e for e in entries if e["test_id"] != "p12"])
    write_manifest(ws / "rerun-local.yml", [e for e in entries if e["test_id"] in LOCAL_RERUN])
    write_manifest(ws / "rerun-free.yml", [e for e in entries if e["test_id"] in FREE_RERUN])
    (ws / "policy.yml").write_text(POLICY)

    # Artifacts arrive in subfolders, one per job.
    _stamp(ws, "gate.yml", LOCAL, "stamps/local", "run1-local", _plan(0))
    (ws / "fixtures" / "p13" / "data.txt").write_text("edited between the runs\n")
    _stamp(ws, "free.yml", FREE, "stamps/free", "run1-free", _plan(1))
    _stamp(ws, "rerun-local.yml", LOCAL, "stamps/local-rerun", "run2-local", LOCAL_RERUN)
    _stamp(ws, "rerun-free.yml", FREE, "stamps/free-rerun", "run2-free", FREE_RERUN)

    done = gate("classify", "--stamps", "stamps", "--policy", "policy.yml", "--now", str(NOW),
                "--report", "report.json", cwd=ws)
    as_json = gate("classify", "--stamps", "stamps", "--policy", "policy.yml", "--now",
                   str(NOW), "--json", cwd=ws)
    return {"ws": ws, "done": done, "json": as_json,
            "report": json.loads((ws / "report.json").read_text())}


def test_every_stamp_holds_the_planned_outcome(classified: dict[str, Any]) -> None:
    ws: Path = classified["ws"]
    for folder, column in (("local", 0), ("free", 1)):
        stamps = read_stamps(ws / "stamps" / folder)
        expected = {p: OUTCOME[row[column]] for p, row in TABLE.items()
                    if not (folder == "free" and p == "p12")}
        assert {t: s["outcome"] for t, s in stamps.items()} == expected
    reruns = read_stamps(ws / "stamps" / "local-rerun") | read_stamps(ws / "stamps" / "free-rerun")
    assert {t: s["outcome"] for t, s in reruns.items()} == {
        t: OUTCOME[b] for t, b in (LOCAL_RERUN | FREE_RERUN).items()}


def test_every_property_gets_the_expected_action(classified: dict[str, Any]) -> None:
    done = classified["done"]
    assert done.returncode == 1, done.stderr  # some doors are closed
    lines = done.stdout.splitlines()
    printed = {}
    for line in lines:
        parts = line.split(" ")
        if len(parts) == 2 and parts[0] in TABLE:
            printed[parts[0]] = parts[1]
    report = classified["report"]
    actions = {p["test_id"]: p["action"] for p in report["pairs"]}
    assert actions == {p: row[2] for p, row in TABLE.items()}
    assert [p["test_id"] for p in report["pairs"]] == sorted(TABLE)
    # reds first, by name; a pair green in both classes with no rerun is one count (issue 29)
    with_reruns = {p["test_id"] for p in report["reruns"]}
    quiet = {p for p, a in actions.items() if a == "accept_candidate" and p not in with_reruns}
    assert quiet == {"p01", "p18", "p23"}
    assert printed == {p: a for p, a in actions.items() if p not in quiet}
    assert lines[-2:] == [
        "3 tests accept_candidate (green in both classes; each pair's four fields are in "
        "--json and the report)",
        "decision=closed tests=24 accepted=6 frozen=2 rejected=16"]


def test_text_output_has_the_four_lines_after_every_entry(classified: dict[str, Any]) -> None:
    lines = classified["done"].stdout.splitlines()[:-2]
    assert len(lines) == 5 * (24 - 3 + len(RERUN_LABELS))
    for start in range(0, len(lines), 5):
        block = lines[start:start + 5]
        assert [line.split("=")[0] for line in block[1:]] == [
            "fixture_sha256", "failure_class", "freeze_allowed", "fixture_path"]


def test_report_is_schema_valid_and_counts_tests(classified: dict[str, Any]) -> None:
    report = classified["report"]
    schemas.validate("report", report, "report.json")
    assert report["decision"] == "closed"
    assert report["counts"] == {"accepted": 6, "frozen": 2, "rejected": 16}
    assert json.loads(classified["json"].stdout) == report
    by_test = {p["test_id"]: p for p in report["pairs"]}
    assert by_test["p02"]["status"] == "frozen" and by_test["p02"]["freeze_allowed"] is False
    assert by_test["p01"]["gate"] == "stamp" and by_test["p12"]["gate"] == "pairing"
    assert by_test["p14"]["gate"] == "stamp" and len(by_test["p14"]["runs"]) == 2
    assert "1 agreeing same-class repeat of the paired stamp" in by_test["p14"]["reason"]
    assert by_test["p23"]["location"] == {"path": "prop_suite.py", "line": 40}
    assert by_test["p01"]["fixture_path"].startswith("pins/")
    assert {r["source"].split("/")[0] for r in by_test["p01"]["runs"]} == {"local", "free"}
    assert "discarded" in by_test["p15"]["reason"] and "discarded" in by_test["p20"]["reason"]
    for pair in report["pairs"]:
        assert pair["freeze_allowed"] == (pair["failure_class"] == "harness_flake")


def test_reruns_are_labelled_by_the_digest_gate(classified: dict[str, Any]) -> None:
    reruns = classified["report"]["reruns"]
    got = {(p["test_id"], p["runs"][0]["server_class"]): p["failure_class"] for p in reruns}
    assert got == RERUN_LABELS
    for pair in reruns:
        assert pair["gate"] == "digest" and pair["status"] == "rejected"
        first, second = pair["runs"]
        assert first["run_id"].startswith("run1") and second["run_id"].startswith("run2")


# --- pairing rules, in-process ------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _away_from_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No default .github/gate-policy.yml of the repository leaks into these tests."""
    monkeypatch.chdir(tmp_path)


HASH = "a" * 64
CARD = {"property": "t", "cases": 1, "seed": 0, "freeze_expires_at": NOW + DAY}


def stamp(run_id: str, server_class: str, outcome: str, test_id: str = "t",
          **extra: Any) -> dict[str, Any]:
    record = {"run_id": run_id, "test_id": test_id, "server_class": server_class,
              "fixture_hash": HASH, "sample_card": CARD, "outcome": outcome,
              "freeze_expires_at": CARD["freeze_expires_at"]}
    record.update(extra)
    return record


def put(folder: Path, *records: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for record in records:
        (folder / f"{record['run_id']}.json").write_text(json.dumps(record))


def classify(tmp_path: Path, *extra: str) -> int:
    return main(["classify", "--stamps", str(tmp_path / "s"), "--now", str(NOW), *extra])


def test_accepted_everywhere_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(tmp_path / "s" / "a", stamp("l1", LOCAL, "pass"), stamp("l2", LOCAL, "pass", "u"))
    put(tmp_path / "s" / "b" / "deeper", stamp("f1", FREE, "pass"), stamp("f2", FREE, "pass", "u"))
    (tmp_path / "s" / "a" / "notes.txt").write_text("not a stamp, ignored")
    assert classify(tmp_path, "--report", str(tmp_path / "r.json")) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["2 tests accept_candidate (green in both classes; each pair's four fields "
                   "are in --json and the report)",
                   "decision=open tests=2 accepted=2 frozen=0 rejected=0"]
    assert json.loads((tmp_path / "r.json").read_text())["decision"] == "open"


def test_identical_duplicates_count_once(tmp_path: Path) -> None:
    put(tmp_path / "s" / "a", stamp("l1", LOCAL, "pass"), stamp("f1", FREE, "pass"))
    put(tmp_path / "s" / "again", stamp("l1", LOCAL, "pass"))
    assert classify(tmp_path) == 0


def test_same_run_id_with_other_content_exits_2(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    put(tmp_path / "s" / "a", stamp("l1", LOCAL, "pass"), stamp("f1", FREE, "pass"))
    put(tmp_path / "s" / "b", stamp("l1", LOCAL, "assert_fail"))
    assert classify(tmp_path) == 2
    err = capsys.readouterr().err
    assert "b/l1.json" in err and "never overwritten" in err


def test_an_invalid_stamp_exits_2_naming_the_file(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    put(tmp_path / "s", stamp("l1", LOCAL, "pass"), stamp("f1", FREE, "pass"))
    bad = stamp("f2", FREE, "pass")
    bad["freeze_expires_at"] = NOW + 99 * DAY  # disagrees with its card
    put(tmp_path / "s" / "x", bad)
    assert classify(tmp_path) == 2
    assert "x/f2.json" in capsys.readouterr().err
    (tmp_path / "s" / "x" / "f2.json").write_text("{not json")
    assert classify(tmp_path) == 2


def test_links_are_refused(tmp_path: Path) -> None:
    put(tmp_path / "elsewhere", stamp("f1", FREE, "pass"))
    put(tmp_path / "s", stamp("l1", LOCAL, "pass"))
    os.symlink(tmp_path / "elsewhere" / "f1.json", tmp_path / "s" / "f1.json")
    assert classify(tmp_path) == 2
    os.unlink(tmp_path / "s" / "f1.json")
    os.symlink(tmp_path / "elsewhere", tmp_path / "s" / "linked")
    assert classify(tmp_path) == 2
    os.unlink(tmp_path / "s" / "linked")
    assert classify(tmp_path) == 1  # free-server missing


def test_empty_or_missing_folder_exits_2(tmp_path: Path) -> None:
    (tmp_path / "s" / "sub").mkdir(parents=True)
    assert classify(tmp_path) == 2
    assert main(["classify", "--stamps", str(tmp_path / "nope")]) == 2


def test_malformed_policy_grants_no_freeze(tmp_path: Path) -> None:
    put(tmp_path / "s", stamp("l1", LOCAL, "pass"), stamp("f1", FREE, "assert_fail"))
    entry = (f"  - {{test_id: t, server_class: free-server, owner: o, reason: r, "
             f"expires: {NOW + DAY}}}\n")
    (tmp_path / "ok.yml").write_text("allowlist:\n" + entry)
    assert classify(tmp_path, "--policy", str(tmp_path / "ok.yml")) == 0
    (tmp_path / "dup.yml").write_text("allowlist:\n" + entry + entry)
    assert classify(tmp_path, "--policy", str(tmp_path / "dup.yml")) == 2
    (tmp_path / "noowner.yml").write_text("allowlist:\n" + entry.replace("owner: o, ", ""))
    assert classify(tmp_path, "--policy", str(tmp_path / "noowner.yml")) == 2
    assert classify(tmp_path) == 1  # no policy: not allowlisted


def _decide(*records: dict[str, Any]) -> pairing.TestDecision:
    loaded = [pairing.Loaded(r, f"{r['run_id']}.json") for r in records]
    return pairing.decide_test("t", loaded, [], NOW)


@pytest.mark.parametrize(("records", "action"), [
    ([stamp("l1", LOCAL, "pass")], "reject_missing_stamp"),
    ([stamp("f1", FREE, "pass"), stamp("f2", FREE, "pass")], "reject_missing_stamp"),
    ([stamp("l1", LOCAL, "pass"), stamp("l2", LOCAL, "assert_fail"), stamp("f1", FREE, "pass")],
     "reject_duplicate_stamps"),
    ([stamp("l1", LOCAL, "assert_fail"), stamp("l2", LOCAL, "pass"), stamp("f1", FREE, "pass")],
     "reject_duplicate_stamps"),  # a rerun never hides a red
    ([stamp("l1", LOCAL, "pass"), stamp("l2", LOCAL, "pass"), stamp("f1", FREE, "pass")],
     "accept_candidate"),  # agreeing repeats: one result seen twice
    ([stamp("l1", LOCAL, "pass"), stamp("l2", LOCAL, "pass", fixture_hash="b" * 64),
      stamp("f1", FREE, "pass")], "reject_duplicate_stamps"),  # same outcome, other fixture
    ([stamp("l1", LOCAL, "pass"), stamp("l2", LOCAL, "pass", fixture_sha256="c" * 64),
      stamp("f1", FREE, "pass")], "reject_duplicate_stamps"),  # same outcome, other pin
    ([stamp("l1", LOCAL, "pass"), stamp("l2", LOCAL, "empty_body"), stamp("f1", FREE, "pass")],
     "accept_candidate"),
    ([stamp("l1", LOCAL, "resource_exit"), stamp("l2", LOCAL, "empty_body"),
      stamp("f1", FREE, "pass")], "reject_run_retry_new_id"),
    ([stamp("l1", LOCAL, "pass"), stamp("f1", FREE, "pass", fixture_hash="b" * 64)],
     "reject_fixture_mismatch"),
    ([stamp("l1", LOCAL, "pass"), stamp("f1", FREE, "resource_exit"),
      stamp("f2", FREE, "resource_exit"), stamp("f3", FREE, "assert_fail"),
      stamp("f4", FREE, "pass")], "reject_duplicate_stamps"),
])
def test_pairing_rows(records: list[dict[str, Any]], action: str) -> None:
    decided = _decide(*records)
    assert decided.entry["action"] == action
    assert not decided.door_open or action == "accept_candidate"
    # Reruns: every run paired with the one before it in its class.
    counts = {c: sum(r["server_class"] == c for r in records) for c in (LOCAL, FREE)}
    assert len(decided.reruns) == sum(max(0, n - 1) for n in counts.values())


def test_reruns_are_ordered_by_written_at_then_run_id() -> None:
    decided = _decide(stamp("zz", LOCAL, "resource_exit", written_at=10),
                      stamp("aa", LOCAL, "pass", written_at=20),
                      stamp("mm", LOCAL, "resource_exit", written_at=20),
                      stamp("f1", FREE, "pass"))
    assert [[r["run_id"] for r in p["runs"]] for p in decided.reruns] == [["zz", "aa"],
                                                                          ["aa", "mm"]]
    assert decided.entry["action"] == "accept_candidate"


def test_test_ids_with_spaces_are_printed_as_json(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    put(tmp_path / "s", stamp("l1", LOCAL, "assert_fail", "a b\nc"),
        stamp("f1", FREE, "assert_fail", "a b\nc"))
    assert classify(tmp_path) == 1
    assert capsys.readouterr().out.splitlines()[0] == '"a b\\nc" reject_stable_fail'


def test_demo_shows_the_stamp_classify_report_flow(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "gate stamp --manifest examples/manifest.yml --server-class free-server" in out
    assert "reading report.json:" in out
    assert "lexer_unicode harness_flake" in out
    assert "FAIL" not in out


def _seeded_stamps(tests: int, seed: int
                   ) -> tuple[list[pairing.Loaded], list[Any], dict[tuple[str, str], Any]]:
    """``tests`` tests' stamps in every shape the pairing rows tell apart (none, one or several
    stamps per class, each outcome, refused stamps, drifting fixtures, cards and generators,
    failures, notes, free-server allowlist entries live or expired), seeded."""
    import copy
    import random

    from gate.decide import stamps
    from tests.golden_cases import FAILURE, HYPOTHESIS, _card, _stamp

    rng = random.Random(seed)
    loaded: list[pairing.Loaded] = []
    allow: list[Any] = []
    issues: dict[tuple[str, str], Any] = {}
    outcomes = ("pass", "pass", "pass", "assert_fail", "resource_exit", "empty_body")
    for n in range(tests):
        name = f"test_p{n:05d}"
        card = _card(name, expires=rng.choice((NOW + 5 * DAY, NOW - DAY, None)))
        hyp = copy.deepcopy(HYPOTHESIS) if rng.random() < 0.5 else None
        counts = rng.choice(((1, 1),) * 8 + ((0, 1), (1, 0), (2, 1), (1, 3), (2, 2)))
        for cls, count in zip((LOCAL, FREE), counts, strict=True):
            for k in range(count):
                extra: dict[str, Any] = {"written_at": NOW - rng.randrange(3) * 60}
                if hyp is not None:
                    extra["hypothesis"] = dict(hyp, max_examples=rng.choice((200, 200, 50)))
                outcome = rng.choice(outcomes)
                if outcome == "assert_fail" and rng.random() < 0.5:
                    extra["failure"] = dict(FAILURE, message=rng.choice(("a", "b")))
                if rng.random() < 0.05:
                    extra["note"] = "n" * rng.randrange(1, 5000)
                if rng.random() < 0.05:
                    extra["fixture_hash"] = "b" * 64
                if rng.random() < 0.03:
                    del extra["written_at"]
                the_card = card if rng.random() < 0.95 else dict(card, seed=8)
                stamp = _stamp(name, n, cls, outcome, f"{cls[0]}{n}-{k}", the_card, **extra)
                refused = "bad signature" if rng.random() < 0.02 else None
                loaded.append(pairing.Loaded(stamp, f"{cls}/{stamp['run_id']}.json", refused))
        if rng.random() < 0.3:
            allow.append(stamps.AllowEntry(f"tests/test_props.py::{name}", FREE, "o", "r",
                                           NOW + rng.choice((-DAY, 3 * DAY, 40 * DAY))))
            if rng.random() < 0.5:
                issues[(f"tests/test_props.py::{name}", FREE)] = rng.choice((n, f"#{n}"))
    rng.shuffle(loaded)
    return loaded, allow, issues


def test_one_stamp_per_class_decides_as_the_general_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: the one-stamp-per-class shortcut of :func:`pairing._decide_test` and the
    general path give the same decisions, byte for byte, and the same report, on a seeded set
    of every shape (the 100,000-stamp comparison is ``python -m bench --only classify``)."""
    from gate.records import files

    loaded, allow, issues = _seeded_stamps(3000, seed=31)
    fast = pairing.decide_all(loaded, allow, NOW, issues)
    shortcuts = sum(pairing._one_per_class(
        [i for i in loaded if i.stamp["test_id"] == d.test_id], ()) is not None
        for d in fast[:300])
    assert shortcuts > 150  # most tests take the shortcut
    monkeypatch.setattr(pairing, "_one_per_class", lambda *_: None)
    general = pairing.decide_all(loaded, allow, NOW, issues)
    assert [(d.test_id, d.entry, d.reruns, d.reds) for d in fast] == [
        (d.test_id, d.entry, d.reruns, d.reds) for d in general]
    assert files.canonical_json(pairing.build_report(fast, NOW)) == files.canonical_json(
        pairing.build_report(general, NOW))
    actions = {d.entry["action"] for d in fast}
    assert {"accept_candidate", "reject_missing_stamp", "reject_duplicate_stamps",
            "reject_run_retry_new_id", "reject_fixture_mismatch", "reject_stable_fail",
            "reject_cross_class_pass", "freeze_inside_server_class", "reject_freeze_expired",
            "reject_not_allowlisted"} <= actions
    assert any("issue" in d.entry.get("freeze", {}) for d in fast)


def _large_seeded_set() -> tuple[list[pairing.Loaded], list[Any], dict[tuple[str, str], Any]]:
    """:func:`_seeded_stamps` on 4,000 tests, with some stamps' location and pinned file taken
    away (the report's optional fields both ways)."""
    import random

    loaded, allow, issues = _seeded_stamps(4000, seed=3131)
    rng = random.Random(3131)
    for item in loaded:
        if rng.random() < 0.4:
            del item.stamp["location"]
        if rng.random() < 0.2:
            del item.stamp["fixture_sha256"], item.stamp["fixture_path"]
    return loaded, allow, issues


#: sha256 of the canonical report and of the printed text of :func:`_large_seeded_set`, and of
#: ``gate classify --stamps --json`` and its report on the set written to files, as main
#: printed and wrote them at 053953c, before issue 31's third pass (the report's gate version
#: pinned): the output, byte for byte.
LARGE_SET_DIGESTS = {
    "report": "a6b9132edb95b674b562765ad466b744effe80bd9bced0f31257e853fffe7541",
    "text": "a5707a758a4834c465775e3174019e943d97c100c93b0712c53e0132dcfa2f12",
    "json": "aafc2ef99859876f0040734e8d598bb14f444b04316603ef3eea088df9c911fa",
    "report_file": "a09c5e1cc1fbe19fbca815a9f31cc23e112b4a4f306041a8dbf0f6eee82265c4",
}


def test_a_large_seeded_set_decides_and_reports_as_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31, third pass: the classify path's cuts (the stamp check, the run entries, the
    pair) change no byte of the report or the text in memory (4,000 tests), nor of ``--json``
    and the report file through the files (read, parsed and checked; 600 of those tests), on a
    seeded set of every shape."""
    import hashlib

    from gate.commands import classify
    from gate.github.workflow import log_line
    from gate.records import files, report

    monkeypatch.setattr(report, "__version__", "pinned")  # the report names the gate version

    def digest(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    loaded, allow, issues = _large_seeded_set()
    decisions = pairing.decide_all(loaded, allow, NOW, issues)
    built = pairing.build_report(decisions, NOW, max_freeze_days=90)
    lines: list[str] = []
    classify.print_text(decisions, built, lambda line: lines.append(log_line(line)))
    found = {"report": digest(files.canonical_json(built)),
             "text": digest("\n".join(lines).encode("utf-8"))}
    by_run: dict[str, dict[str, Any]] = {}
    for item in loaded:
        # files for the first 600 tests only (~1,500 files: the temporary folder's clean-up
        # costs ~1 ms a file here)
        if item.refused is None and int(item.stamp["test_id"][-5:]) < 600:
            # as a file, within the schema: lines from 1, short notes
            record = dict(item.stamp)
            if "note" in record:
                record["note"] = record["note"][:4096]
            if "location" in record:
                record["location"] = dict(record["location"], line=record["location"]["line"] + 1)
            by_run[item.stamp["run_id"]] = record
    for run_id, record in sorted(by_run.items()):
        folder = tmp_path / "stamps" / record["server_class"] / run_id[-1]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{run_id}.json").write_text(json.dumps(record, indent=2), encoding="utf-8")
    capsys.readouterr()
    code = main(["classify", "--stamps", str(tmp_path / "stamps"), "--now", str(NOW),
                 "--json", "--report", str(tmp_path / "report.json")])
    shown = capsys.readouterr()
    assert code in (0, 1), shown.err
    found["json"] = digest(shown.out.encode("utf-8"))
    found["report_file"] = digest((tmp_path / "report.json").read_bytes())
    assert found == LARGE_SET_DIGESTS
