"""Issue 14: one generator per class of fail-open defect, through the real CLI.

Each generator draws hostile inputs for one class and runs the commands in-process
(:func:`tests.hardening.fuzzlib.run_cli`). Figures per class: inputs tried, crashes (a
traceback, an exit status outside 0/1/2, or a multi-line error), doors opened (a door the
independent oracle here says must stay shut), leaks (a byte written through a planted link, a
workflow command or an extra line in the job log), wrong closes (a door the oracle says must
open, refused: the host-case and in-toto classes). All must be zero.

Budget: ``GATE_FUZZ_EXAMPLES`` examples per class (default 150, like test_fuzz.py).
"""

from __future__ import annotations

import copy
import json
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gate.decide import halt, stamps
from gate.records import ledger, report
from tests.hardening import figures, fuzzlib

BUDGET = int(os.environ.get("GATE_FUZZ_EXAMPLES", "150"))
SETTINGS = settings(max_examples=BUDGET, derandomize=True, database=None, deadline=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck))
SCRATCH = fuzzlib.Scratch()
NOW = fuzzlib.NOW
DAY = 86_400
LOCAL, FREE = stamps.LOCAL, stamps.FREE
PROBLEMS: dict[str, list[str]] = {}


def _tally(section: str, *, crash: str | None = None, door: str | None = None,
           leak: str | None = None, wrong: str | None = None) -> None:
    name = f"fuzz issue 14: {section}"
    figures.add(name, "inputs tried")
    for figure in ("crashes", "doors opened", "leaks", "wrong closes"):
        figures.add(name, figure, 0)
    for figure, problem in (("crashes", crash), ("doors opened", door), ("leaks", leak),
                            ("wrong closes", wrong)):
        if problem:
            figures.add(name, figure)
            PROBLEMS.setdefault(section, []).append(f"{figure}: {problem}")


def _crash_of(result: fuzzlib.Outcome) -> str | None:
    if result.crash:
        return result.crash
    if result.code == 2 and len(result.err.splitlines()) != 1:
        return f"exit 2 with {len(result.err.splitlines())} stderr lines: {result.err[:300]!r}"
    return None


def _log_leak(text: str) -> str | None:
    for line in text.splitlines():
        if line.lstrip().startswith(("::", "##[")):  # what the runner reads as a command
            return f"workflow command in the log: {line[:200]!r}"
    return None


def _run(section: str, maker: Any, check: Callable[..., None]) -> None:
    PROBLEMS.pop(section, None)

    @SETTINGS
    @given(maker)
    def run(case: Any) -> None:
        check(case)

    run()
    found = PROBLEMS.get(section, [])
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:10])


# --- class 1: hostile file names and link layouts ---------------------------------------------

LAYOUTS = ("link to a file", "link to /dev/null", "fifo", "socket", "link on the way",
           "dangling link", "a folder")
SURFACES = ("ledger: audit", "ledger: repair-tail", "ledger: bind", "halt report", "report out",
            "receipt out", "stamp out")


def _plant(folder: Path, layout: str) -> tuple[Path, Path]:
    """(the hostile path, the secret file that must never change)."""
    secret = folder / "home" / ".profile"
    secret.parent.mkdir()
    secret.write_bytes(b"secret\n")
    path = folder / "work" / "target"
    path.parent.mkdir()
    if layout == "link to a file":
        path.symlink_to(secret)
    elif layout == "link to /dev/null":
        path.symlink_to("/dev/null")
    elif layout == "fifo":
        os.mkfifo(path)
    elif layout == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
    elif layout == "link on the way":
        (folder / "work" / "via").symlink_to(secret.parent)
        path = folder / "work" / "via" / ".profile"
    elif layout == "dangling link":
        path.symlink_to(folder / "home" / "new-file")
    else:
        path.mkdir()
    return path, secret


def _surface_argv(folder: Path, surface: str, path: Path) -> list[str]:
    real = folder / "real.jsonl"
    bind = ["halt", "bind", "--run-id", "r", "--scope", "lab.invalid", "--host",
            "api.lab.invalid"]
    if surface == "ledger: audit":
        return ["halt", "audit", str(path)]
    if surface == "ledger: repair-tail":
        return ["halt", "repair-tail", str(path)]
    if surface == "ledger: bind":
        return [*bind, "--ledger", str(path)]
    if surface == "halt report":
        assert fuzzlib.run_cli([*bind, "--ledger", str(real)]).code == 0
        b = folder / "b.json"
        b.write_text(json.dumps(dict(fuzzlib.binding(), host="evil.example.com",
                                     run_id="r")), encoding="utf-8")
        return ["halt", "check", "--ledger", str(real), "--binding", str(b), "--issued-gen",
                "1", "--attempt-id", "a", "--halt-report", str(path)]
    a = folder / "a.json"
    a.write_text(json.dumps(fuzzlib.stamp(LOCAL, "pass", "A")), encoding="utf-8")
    c = folder / "c.json"
    c.write_text(json.dumps(fuzzlib.stamp(FREE, "pass", "B")), encoding="utf-8")
    if surface == "report out":
        return ["classify", str(a), str(c), "--now", str(NOW), "--report", str(path)]
    if surface == "receipt out":
        reasons = folder / "r.json"
        reasons.write_text('["ok"]', encoding="utf-8")
        return ["receipt", "write", "--diff", str(a), "--prompt", str(a), "--model", "m",
                "--workspace-gen", "1", "--verdict", "pass", "--reasons-file", str(reasons),
                "--out", str(path)]
    return ["stamp", "--server-class", LOCAL, "--out", str(path), "--card", str(a),
            "--test-id", "t", "--fixtures", str(a), "--root", str(folder), "--exit-code", "0",
            "--body-bytes", "3", "--run-id", "x"]


def _check_links(case: tuple[str, str]) -> None:
    surface, layout = case
    folder = SCRATCH.fresh()
    path, secret = _plant(folder, layout)
    result = fuzzlib.run_cli(_surface_argv(folder, surface, path))
    crash = _crash_of(result)
    door = None
    refusable = not (surface == "stamp out" and layout == "a folder")  # a folder is its --out
    if refusable and result.code != 2 and not crash:
        door = f"{surface} through {layout}: exit {result.code}"
    leak = None
    if secret.read_bytes() != b"secret\n" or (folder / "home" / "new-file").exists():
        leak = f"{surface} wrote through {layout}"
    _tally("links and special files", crash=crash, door=door, leak=leak)
    SCRATCH.clean_last()


def test_fuzz_hostile_file_layouts() -> None:
    _run("links and special files",
         st.tuples(st.sampled_from(SURFACES), st.sampled_from(LAYOUTS)), _check_links)


# --- class 2: hostile strings in every record field ----------------------------------------

HOSTILE = st.one_of(
    st.sampled_from(["::stop-commands::x", "::add-mask::s", " ::error::x", "##[group]x",
                     "a\n::warning::b", "x\nfreeze_allowed=true", "a\rb", "a\u2028b",
                     "\u202eevil", "%0A::x", "a\x1b[2Kb", "a\tb", "\x00", "p\u0085q"]),
    st.text(alphabet=st.sampled_from(":#[\n\r\t %\u2028\u202ea0\x00\x1b"), min_size=1,
            max_size=12))
FIELDS = ("test_id", "fixture_path", "run_id", "outcome", "server_class")


def _check_strings(case: tuple[str, str]) -> None:
    field, value = case
    folder = SCRATCH.fresh()
    local = fuzzlib.stamp(LOCAL, "pass", "A")
    free = fuzzlib.stamp(FREE, "pass", "B")
    local["fixture_sha256"] = "a" * 64
    local[field] = value
    if field == "test_id":
        free[field] = value
    (folder / "s").mkdir()
    (folder / "s" / "l.json").write_text(json.dumps(local), encoding="utf-8")
    (folder / "s" / "f.json").write_text(json.dumps(free), encoding="utf-8")
    leak = crash = None
    opened = 0
    for argv in (["classify", "--stamps", str(folder / "s"), "--now", str(NOW)],
                 ["classify", str(folder / "s" / "l.json"), str(folder / "s" / "f.json"),
                  "--now", str(NOW), "--report", str(folder / "r.json")],
                 ["triage", str(folder / "s" / "l.json"), str(folder / "s" / "f.json")]):
        result = fuzzlib.run_cli(argv)
        crash = crash or _crash_of(result)
        leak = leak or _log_leak(result.out + result.err)
        block = [line for line in result.out.splitlines()
                 if line.startswith(("fixture_sha256=", "failure_class=", "freeze_allowed=",
                                     "fixture_path="))]
        # one pair: exactly the four lines; the folder form counts a pair green in both
        # classes on one line instead (its four lines are in --json and the report)
        green = (argv[1] == "--stamps" and not block
                 and "1 test accept_candidate (" in result.out)
        if result.code != 2 and len(block) != 4 and not green:
            leak = leak or f"the four-line block has {len(block)} lines: {result.out[:300]!r}"
        opened += result.code == 0
    if (folder / "r.json").exists():
        for command in ("outputs", "summary"):
            result = fuzzlib.run_cli([command, "--report", str(folder / "r.json")])
            crash = crash or _crash_of(result)
            leak = leak or _log_leak(result.out + result.err)
    _tally("hostile strings in record fields", crash=crash, leak=leak)
    SCRATCH.clean_last()


def test_fuzz_hostile_strings() -> None:
    _run("hostile strings in record fields", st.tuples(st.sampled_from(FIELDS), HOSTILE),
         _check_strings)


# --- classes 3 and 4: non-UTF-8 argv and paths the OS refuses ------------------------------

ARGS = ("--host", "--run-id", "--scope", "--marker", "LEDGER")


def _check_argv(case: tuple[str, bytes, str]) -> None:
    flag, raw, shape = case
    folder = SCRATCH.fresh()
    value = os.fsdecode(raw) if shape == "bytes" else {
        "NUL": "a\x00b", "too long": "n" * 5000, "file component": str(folder / "f" / "x"),
    }[shape]
    (folder / "f").write_text("x", encoding="utf-8")
    argv = {"--host": "api.lab.invalid", "--run-id": "r", "--scope": "lab.invalid",
            "--marker": fuzzlib.MARKER, "LEDGER": str(folder / "l.jsonl")}
    argv[flag] = value if flag != "LEDGER" or shape != "bytes" else str(folder / value)
    result = fuzzlib.run_cli(["halt", "bind", "--ledger", argv["LEDGER"], "--run-id",
                              argv["--run-id"], "--scope", argv["--scope"], "--host",
                              argv["--host"], "--marker", argv["--marker"]])
    crash = _crash_of(result)
    door = None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        if result.code != 2:
            door = f"non-UTF-8 {flag} accepted: exit {result.code}"
    _tally("non-UTF-8 argv and refused paths", crash=crash, door=door)
    SCRATCH.clean_last()


def test_fuzz_argv_and_paths() -> None:
    _run("non-UTF-8 argv and refused paths",
         st.tuples(st.sampled_from(ARGS), st.binary(min_size=1, max_size=12).filter(
             lambda b: b"\x00" not in b and b"/" not in b),
             st.sampled_from(["bytes", "bytes", "NUL", "too long", "file component"])),
         _check_argv)


# --- classes 6 and 11: contradictory reports -------------------------------------------------

OUTCOMES = ("pass", "assert_fail", "resource_exit", "empty_body")
ACTIONS = ("accept_candidate", "freeze_inside_server_class", "reject_stable_fail",
           "reject_cross_class_pass", "reject_not_allowlisted", "reject_fixture_mismatch")


def _may_open(pair: dict[str, Any]) -> bool:
    """The independent oracle: the only two pairs that may open, written from SPEC §3."""
    runs = pair["runs"]
    if len(runs) != 2 or runs[0]["run_id"] == runs[1]["run_id"]:
        return False
    by_class = {r["server_class"]: r["outcome"] for r in runs}
    if set(by_class) != {LOCAL, FREE} or pair["gate"] != "stamp":
        return False
    if (pair["action"], pair["row"], pair["status"], pair["freeze_allowed"]) == (
            "accept_candidate", 7, "accepted", False):
        return by_class == {LOCAL: "pass", FREE: "pass"}
    if (pair["action"], pair["row"], pair["status"], pair["freeze_allowed"]) == (
            "freeze_inside_server_class", 6, "frozen", False):  # the digest gate: unclassified
        return by_class == {LOCAL: "pass", FREE: "assert_fail"}
    return False


@st.composite
def contradictory(draw: st.DrawFn) -> dict[str, Any]:
    lo, fo = draw(st.sampled_from(OUTCOMES)), draw(st.sampled_from(OUTCOMES))
    a, b = fuzzlib.stamp(LOCAL, lo, "A"), fuzzlib.stamp(FREE, fo, "B")
    entry = stamps.AllowEntry(a["test_id"], FREE, "o", "r", fuzzlib.FUTURE)
    pair = report.cross_class_pair(a, b, stamps.classify_pair(a, b, (entry,), NOW))
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.sampled_from(["action", "status", "row", "freeze", "outcome", "run_id",
                                     "class"]))
        if what == "action":
            pair["action"] = draw(st.sampled_from(ACTIONS))
        elif what == "status":
            pair["status"] = draw(st.sampled_from(["accepted", "frozen", "rejected"]))
        elif what == "row":
            pair["row"] = draw(st.integers(1, 9))
        elif what == "freeze":
            pair["freeze_allowed"] = not pair["freeze_allowed"]
        elif what == "outcome":
            pair["runs"][draw(st.integers(0, 1))]["outcome"] = draw(st.sampled_from(OUTCOMES))
        elif what == "run_id":
            pair["runs"][1]["run_id"] = pair["runs"][0]["run_id"]
        else:
            pair["runs"][draw(st.integers(0, 1))]["server_class"] = draw(
                st.sampled_from([LOCAL, FREE]))
    built = report.build([pair], NOW)
    if draw(st.booleans()):  # a decision field forged to open
        built["decision"] = "open"
        built["counts"] = {"accepted": 0, "frozen": 0, "rejected": 0}
        built["counts"][pair["status"]] = 1
    if draw(st.booleans()):
        built["receipt"] = draw(st.sampled_from([
            {"decision": "accept", "line": "reject: verdict", "mismatches": ["verdict"]},
            {"decision": "accept", "line": "accept", "mismatches": []},
            {"decision": "accept", "line": "accept", "mismatches": ["model_id"]}]))
    return built


def _check_report(doc: dict[str, Any]) -> None:
    folder = SCRATCH.fresh()
    path = folder / "report.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    may = all(_may_open(p) for p in doc["pairs"]) and (
        "receipt" not in doc or doc["receipt"] == {"decision": "accept", "line": "accept",
                                                   "mismatches": []})
    crash = door = None
    for command in ("outputs", "summary"):
        result = fuzzlib.run_cli([command, "--report", str(path)])
        crash = crash or _crash_of(result)
        if result.code == 0 and not may:
            door = f"{command} opened a contradictory report: {json.dumps(doc)[:400]}"
    _tally("contradictory reports", crash=crash, door=door)
    SCRATCH.clean_last()


def test_fuzz_contradictory_reports() -> None:
    _run("contradictory reports", contradictory(), _check_report)


# --- class 7: policy limits ------------------------------------------------------------------


def _check_policy(case: tuple[int | None, int, int]) -> None:
    added, expires, max_days = case
    folder = SCRATCH.fresh()
    entry = {**fuzzlib.allow_entry(expires), **({"added": added} if added is not None else {})}
    pol = folder / "p.yml"
    pol.write_text(json.dumps({"allowlist": [entry], "max_freeze_days": max_days}),
                   encoding="utf-8")
    a = folder / "a.json"
    a.write_text(json.dumps(fuzzlib.stamp(LOCAL, "pass", "A")), encoding="utf-8")
    b = folder / "b.json"
    b.write_text(json.dumps(fuzzlib.stamp(FREE, "assert_fail", "B")), encoding="utf-8")
    result = fuzzlib.run_cli(["classify", str(a), str(b), "--policy", str(pol), "--now",
                              str(NOW)])
    start = added if added is not None else NOW
    healthy = (expires > NOW and (added is None or added <= NOW)
               and expires - start <= max_days * DAY and (added is None or expires > added))
    door = None
    if result.code == 0 and not healthy:
        door = f"freeze from a flagged entry: added={added} expires={expires} max={max_days}"
    _tally("policy limits", crash=_crash_of(result), door=door)
    SCRATCH.clean_last()


def test_fuzz_policy_limits() -> None:
    offsets = st.integers(-400 * DAY, 400 * DAY)
    _run("policy limits",
         st.tuples(st.none() | offsets.map(lambda d: max(0, NOW + d)),
                   offsets.map(lambda d: NOW + d) | st.just(NOW * 1000),
                   st.integers(1, 365)),
         _check_policy)


# --- class 9: host case ------------------------------------------------------------------------


def _recase(host: str, mask: int) -> str:
    return "".join(c.upper() if mask >> (i % 30) & 1 else c for i, c in enumerate(host))


def _check_hosts(case: tuple[str, int, str, int]) -> None:
    minted, m1, called, m2 = case
    folder = SCRATCH.fresh()
    book = ledger.Ledger(folder / "l.jsonl")
    bound = book.bind("r", "lab.invalid", _recase(minted, m1), fuzzlib.MARKER)
    attempt = halt.Binding("r", 1, "lab.invalid", _recase(called, m2), fuzzlib.MARKER,
                           "fixture")
    result = book.check(attempt, bound.generation, "a")
    may = minted == called and minted.endswith(".invalid")  # the same closed fixture host
    door = wrong = None
    if result.decision is halt.Decision.ALLOW and not may:
        door = f"{attempt.host} allowed for {bound.host}"
    if result.decision is not halt.Decision.ALLOW and may:
        wrong = f"{attempt.host} refused for {bound.host}"
    _tally("host names (DNS case)", door=door, wrong=wrong)
    SCRATCH.clean_last()


def test_fuzz_host_case() -> None:
    hosts = st.sampled_from(["api.lab.invalid", "b.lab.invalid", "api.lab.invalld",
                             "apl.lab.invalid"])
    _run("host names (DNS case)",
         st.tuples(hosts, st.integers(0, 2**30), hosts, st.integers(0, 2**30)), _check_hosts)


# --- class 10: in-toto layers ------------------------------------------------------------------


def _check_in_toto(case: tuple[str, str, Any]) -> None:
    layer, key, value = case
    from gate.records import receipts

    expected = {"diff_sha256": "a" * 64, "prompt_sha256": "b" * 64, "model_id": "m",
                "workspace_generation": "1"}
    doc = receipts.to_in_toto({**expected, "verdict": "pass", "reasons": ["ok"]})
    target = {"statement": doc, "subject": doc["subject"][0],
              "digest": doc["subject"][0]["digest"], "predicate": doc["predicate"]}[layer]
    fresh = key not in target
    target.setdefault(key, copy.deepcopy(value))
    accepted = receipts.verify(doc, expected).accepted
    door = None
    if layer == "predicate" and fresh and accepted:
        door = f"unknown predicate field {key!r} accepted"
    wrong = None
    if layer != "predicate" and fresh and not accepted:
        wrong = f"unknown Statement field {key!r} at {layer} rejected"
    _tally("in-toto layers", door=door, wrong=wrong)


def test_fuzz_in_toto_layers() -> None:
    _run("in-toto layers",
         st.tuples(st.sampled_from(["statement", "subject", "digest", "predicate"]),
                   st.text(min_size=1, max_size=8).filter(lambda k: not k.startswith("_")),
                   st.none() | st.integers() | st.text(max_size=5)),
         _check_in_toto)


@pytest.fixture(autouse=True, scope="module")
def _cleanup() -> Any:
    yield
    import shutil

    shutil.rmtree(SCRATCH.root, ignore_errors=True)


# --- class 8: typos in manifest junit selectors -----------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "gate" / "examples"


def _check_selector(case: tuple[int, str, str]) -> None:
    index, name, exit_code = case
    import yaml

    folder = SCRATCH.fresh()
    doc = yaml.safe_load((EXAMPLES / "manifest.yml").read_text(encoding="utf-8"))
    real = doc["properties"][index]["junit"]["name"]
    doc["properties"][index]["junit"]["name"] = name
    manifest = folder / "gate.yml"
    manifest.write_text(json.dumps(doc), encoding="utf-8")
    result = fuzzlib.run_cli(["stamp", "--manifest", str(manifest), "--root", str(EXAMPLES),
                              "--server-class", LOCAL, "--junit",
                              str(EXAMPLES / "junit" / "local-pinned.xml"), "--exit-code",
                              exit_code,
                              "--out", str(folder / "o")])
    door = None
    if name != real and result.code != 2:
        door = (f"selector {name!r} (for {real!r}), run exit {exit_code}, stamped silently: "
                f"exit {result.code}")
    wrong = None
    if name == real and result.code != 0:
        wrong = f"the real selector {real!r} refused: {result.err[:200]}"
    _tally("manifest junit selectors", crash=_crash_of(result), door=door, wrong=wrong)
    SCRATCH.clean_last()


@st.composite
def typo(draw: st.DrawFn) -> tuple[int, str, str]:
    index = draw(st.integers(0, 2))
    real = ["test_round_trip", "test_total", "test_unicode"][index]
    # whatever the run's exit status (a red run too: the newcomer's case), short of a timeout
    exit_code = draw(st.sampled_from(["0", "1", "2", "3", "5"]))
    if draw(st.integers(0, 4)) == 0:
        return index, real, exit_code
    chars = list(real)
    at = draw(st.integers(0, len(chars) - 1))
    op = draw(st.sampled_from(["swap", "drop", "insert", "case"]))
    if op == "swap" and at + 1 < len(chars):
        chars[at], chars[at + 1] = chars[at + 1], chars[at]
    elif op == "drop":
        del chars[at]
    elif op == "insert":
        chars.insert(at, draw(st.sampled_from("_aeiouTs0")))
    else:
        chars[at] = chars[at].swapcase()
    return index, "".join(chars) or "x", exit_code


def test_fuzz_junit_selectors() -> None:
    _run("manifest junit selectors", typo(), _check_selector)


# --- class 12: receipts in and out of their attempt folders ------------------------------------


def _check_receipt_place(case: tuple[str, str, str, str | None]) -> None:
    gen_of, placed_in, claimed, checked_with = case
    folder = SCRATCH.fresh()
    diff = folder / "d.diff"
    diff.write_bytes(b"+x\n")
    reasons = folder / "reasons.json"
    reasons.write_text('["ok"]', encoding="utf-8")
    root = folder / "receipts"
    gens = {}
    for attempt in ("a1", "a2"):
        result = fuzzlib.run_cli(["receipt", "bootstrap", "--attempt-id", attempt, "--dir",
                                  str(root)])
        gens[attempt] = result.out.strip()
    gens["stale"] = "0" * 32
    receipt = root / placed_in / "receipt.json"
    base = ["--diff", str(diff), "--prompt", str(diff), "--model", "m"]
    wrote = fuzzlib.run_cli(["receipt", "write", *base, "--workspace-gen", gens[gen_of],
                             "--verdict", "pass", "--reasons-file", str(reasons), "--out",
                             str(receipt)])
    given = [] if checked_with is None else ["--workspace-gen", gens[checked_with]]
    result = fuzzlib.run_cli(["receipt", "verify", *base, *given,
                              "--receipt", str(receipt), "--attempt-id", claimed, "--dir",
                              str(root)])
    # "loose": a folder nobody bootstrapped; no --workspace-gen: the minted one is used
    may = (placed_in == claimed and gen_of == claimed and checked_with in (claimed, None))
    door = wrong = None
    if result.code == 0 and not may:
        door = f"accepted: gen of {gen_of}, in {placed_in}, claims {claimed}, checked " \
               f"with {checked_with}"
    if result.code != 0 and may:
        wrong = f"refused a receipt in its own folder: {result.out} {result.err}"
    _tally("receipt attempt folders", crash=_crash_of(wrote) or _crash_of(result), door=door,
           wrong=wrong)
    SCRATCH.clean_last()


def test_fuzz_receipt_attempt_folders() -> None:
    attempts = st.sampled_from(["a1", "a2"])
    _run("receipt attempt folders",
         st.tuples(st.sampled_from(["a1", "a2", "stale"]), st.sampled_from(["a1", "a2", "loose"]),
                   attempts, st.sampled_from(["a1", "a2", "stale", None])),
         _check_receipt_place)
