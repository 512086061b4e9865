"""Shared by the property-based fuzz tests and the atheris harness (tests/fuzz/).

Each parser has a *target*: a real entry point of ``gate`` (the CLI in-process through
:func:`gate.commands.main.main`, with the input written to a file in a scratch folder) plus an
*independent oracle* that says whether the input is valid and, when the command opened a door
(exit 0), whether that door may open for it. Outcomes are classified as:

* ``crash``: an exit status other than 0, 1, 2, any exception out of ``main`` (``SystemExit``
  with another status included), or a traceback on stderr;
* ``door``: exit 0 (accept / allow / freeze / stamps written) for an input the oracle calls
  invalid or whose door must stay shut;
* otherwise fine (exit 1 or 2 for invalid input, anything in 0..2 for valid input).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import itertools
import json
import re
import tempfile
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gate.commands import main as cli
from gate.decide import halt
from gate.records import ledger, receipts, schemas

NOW = 1_790_000_000
FUTURE = NOW + 86_400
HASH_A = "a" * 64
SHA_X = hashlib.sha256(b"sampler output x").hexdigest()
TEST_ID = "t1"
MARKER = halt.DEFAULT_MARKER
TARGETS = ("stamp", "run-record", "receipt", "receipt-in-toto", "binding", "ledger", "policy",
           "manifest", "junit", "report")

_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


@dataclass
class Outcome:
    code: int | None
    out: str
    err: str
    crash: str | None = None


def run_cli(argv: list[str]) -> Outcome:
    out, err = io.StringIO(), io.StringIO()
    crash: str | None = None
    code: int | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else None
            crash = f"SystemExit({exc.code!r})"
        except BaseException:
            crash = traceback.format_exc(limit=8)
    if crash is None and code not in (0, 1, 2):
        crash = f"exit status {code!r}"
    if crash is None and "Traceback (most recent call last)" in err.getvalue():
        crash = "traceback on stderr: " + err.getvalue()[-2000:]
    return Outcome(code, out.getvalue(), err.getvalue(), crash)


# --- strict reference JSON parsing (the oracle's own, not gate.records.files) ---------------------


class _Bad(Exception):
    pass


def _pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in items:
        if key in result:
            raise _Bad("duplicate key")
        result[key] = value
    return result


def _const(name: str) -> Any:
    raise _Bad(name)


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, level)
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, level + 1) for child in children)
    return deepest


def ref_json(data: bytes) -> tuple[bool, Any]:
    """(parsed?, value): UTF-8, no duplicate keys, no NaN/Infinity, depth at most 64."""
    try:
        text = data.decode("utf-8")
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_const)
    except (UnicodeDecodeError, ValueError, RecursionError, _Bad):
        return False, None
    if _depth(value) > 64:
        return False, None
    return True, value


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


# --- valid seeds ----------------------------------------------------------------------------


def card(expires: int | None = FUTURE) -> dict[str, Any]:
    value: dict[str, Any] = {"property": TEST_ID, "cases": 32, "seed": 7}
    if expires is not None:
        value["freeze_expires_at"] = expires
    return value


def stamp(server_class: str, outcome: str, run_id: str = "r1") -> dict[str, Any]:
    return {"run_id": run_id, "test_id": TEST_ID, "server_class": server_class,
            "fixture_hash": HASH_A, "sample_card": card(), "outcome": outcome,
            "freeze_expires_at": FUTURE, "fixture_sha256": SHA_X,
            "fixture_path": f"fixtures/{SHA_X}.json"}


def run_record(run_id: str = "r2") -> dict[str, Any]:
    return {"run_id": run_id, "fixture_sha256": SHA_X, "oracle_passed": None,
            "transport_ok": False, "fixture_path": f"fixtures/{SHA_X}.json"}


def allow_entry(expires: int = FUTURE) -> dict[str, Any]:
    return {"test_id": TEST_ID, "server_class": "free-server", "owner": "@parsers",
            "reason": "free runner lacks the locale", "expires": expires}


def policy() -> dict[str, Any]:
    return {"allowlist": [allow_entry()], "max_freeze_days": 30,
            "halt": {"reserved_scopes": ["lab.invalid"], "expected_marker": MARKER},
            "timeouts": {"exit_codes": [124, 137]}}


def binding(generation: int = 1) -> dict[str, Any]:
    return {"run_id": "run-1", "generation": generation, "scope": "lab.invalid",
            "host": "api.lab.invalid", "marker": MARKER, "target_class": "fixture"}


def manifest() -> dict[str, Any]:
    return {"version": 1, "properties": [
        {"test_id": TEST_ID, "card": "card.json", "fixtures": ["fixtures"],
         "junit": {"name": TEST_ID}, "location": {"path": "tests/test_x.py", "line": 3}}]}


JUNIT_PASS = (b'<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="s" tests="2">'
              b'<testcase classname="tests.x" name="t1" time="0.1"/>'
              b'<testcase classname="tests.x" name="t2"><failure message="m">boom</failure>'
              b'</testcase></testsuite></testsuites>')


def report() -> dict[str, Any]:
    from gate.decide import stamps
    from gate.records import report as report_mod

    local, free = stamp("local-pinned", "pass", "r1"), stamp("free-server", "pass", "r2")
    result = stamps.classify_pair(local, free, (), NOW)
    pair = report_mod.cross_class_pair(local, free, result, ("a.json", "b.json"))
    return report_mod.build([pair], NOW)


# --- oracles --------------------------------------------------------------------------------


def stamp_valid(value: Any) -> bool:
    return (isinstance(value, dict) and schemas.is_valid("stamp", value)
            and value["freeze_expires_at"] == value["sample_card"].get("freeze_expires_at")
            and type(value["freeze_expires_at"]) is type(
                value["sample_card"].get("freeze_expires_at")))


def _clean(value: Any) -> str | None:
    return value if isinstance(value, str) and _HEX64.match(value) else None


def _tri(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _as_run(value: dict[str, Any]) -> dict[str, Any]:
    if "outcome" in value:
        oracle = {"pass": True, "assert_fail": False}.get(value["outcome"])
        transport = value["outcome"] in ("pass", "assert_fail")
        return {"fixture_sha256": value.get("fixture_sha256"), "oracle_passed": oracle,
                "transport_ok": transport, "timed_out": value.get("timed_out")}
    return value


def ref_failure_class(left: dict[str, Any], right: dict[str, Any]) -> str:
    """SPEC §4 rows, written again from the SPEC text."""
    left, right = _as_run(left), _as_run(right)
    a, b = _clean(left.get("fixture_sha256")), _clean(right.get("fixture_sha256"))
    if a is None or b is None:
        return "unclassified"
    if a != b:
        return "fixture_drift"
    oa, ob = _tri(left.get("oracle_passed")), _tri(right.get("oracle_passed"))
    if oa is False and ob is False:
        return "property_miss"
    if oa is False or ob is False:
        return "unclassified"
    fault = any(_tri(r.get("transport_ok")) is False or r.get("timed_out") is True
                or (isinstance(r.get("status_code"), int) and not isinstance(
                    r.get("status_code"), bool) and r["status_code"] >= 500)
                or (isinstance(r.get("retry_count"), int) and r["retry_count"] > 0)
                for r in (left, right))
    return "harness_flake" if fault else "unclassified"


def run_or_stamp_valid(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if "outcome" in value:
        return stamp_valid(value)
    return schemas.is_valid("run-record", value)


def receipt_accepts(value: Any, expected: dict[str, str]) -> bool:
    if not isinstance(value, dict):
        return False
    if "_type" in value:
        if not schemas.is_valid("receipt-in-toto", value):
            return False
        flat = dict(value["predicate"])
        flat["diff_sha256"] = value["subject"][0]["digest"]["sha256"]
    else:
        if not schemas.is_valid("receipt", value):
            return False
        flat = value
    return (all(flat[k] == v for k, v in expected.items()) and flat["verdict"] == "pass"
            and isinstance(flat["reasons"], list) and len(flat["reasons"]) > 0)


def binding_allows(value: Any, issued: int, minted: dict[str, Any]) -> bool:
    if not isinstance(value, dict) or not schemas.is_valid("binding", value):
        return False
    seen = {k: value.get(k) for k in minted}
    return seen == minted and all(type(seen[k]) is type(minted[k]) for k in minted) and (
        issued == minted["generation"])


def policy_valid(value: Any) -> bool:
    if value is None:
        value = {}
    if not isinstance(value, dict) or not schemas.is_valid("policy", value):
        return False
    keys = [(e["test_id"], e["server_class"]) for e in value.get("allowlist", [])]
    return len(keys) == len(set(keys))


def ref_yaml(data: bytes) -> tuple[bool, Any]:
    try:
        return True, yaml.safe_load(data)
    except (yaml.YAMLError, RecursionError, ValueError):
        return False, None


def freeze_allowed_by(value: Any) -> bool:
    """May the canned pair (local pass, free-server red, card expiry FUTURE) be frozen?"""
    if not policy_valid(value):
        return False
    entries = (value or {}).get("allowlist", [])
    return any(e["test_id"] == TEST_ID and e["server_class"] == "free-server"
               and e["expires"] > NOW for e in entries)


def _safe_rel(path: str) -> bool:
    parts = path.split("/")
    return not (path.startswith(("/", "~")) or "\\" in path or ".." in parts)


def _glob_segment(segment: str) -> re.Pattern[str]:
    return re.compile("".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c)
                              for c in segment), re.DOTALL)


def glob_hits(pattern: str, root: Path) -> bool:
    """Own reading of a manifest ``{glob: PATTERN}``: does it match a regular file under
    ``root`` (``**`` a whole segment: any folders; ``*`` and ``?`` inside one name)?"""
    segs = [s for s in pattern.split("/") if s not in ("", ".")]

    def hit(i: int, parts: list[str], j: int) -> bool:
        if i == len(segs):
            return j == len(parts)
        if segs[i] == "**":
            if i == len(segs) - 1:
                return j < len(parts)
            return any(hit(i + 1, parts, k) for k in range(j, len(parts)))
        return (j < len(parts) and _glob_segment(segs[i]).fullmatch(parts[j]) is not None
                and hit(i + 1, parts, j + 1))

    files = [p.relative_to(root).as_posix().split("/") for p in root.rglob("*")
             if p.is_file() and not p.is_symlink()]
    return any(hit(0, parts, 0) for parts in files)


def manifest_valid(value: Any, root: Path | None = None) -> bool:
    """Own reading of a manifest's validity (the long and the compact form: groups, globs,
    inline cards); with ``root``, a ``location.path`` must also name an existing file under it
    and every glob must match a file under it."""
    if not isinstance(value, dict) or not schemas.is_valid("manifest", value):
        return False
    ids = [p["test_id"] for p in value["properties"]]
    if len(ids) != len(set(ids)):
        return False
    groups = value.get("groups") or {}
    used: set[str] = set()
    globs: list[str] = []
    paths: list[str] = []
    for items in groups.values():
        paths += [i if isinstance(i, str) else i["glob"] for i in items]
        globs += [i["glob"] for i in items if isinstance(i, dict)]
    for prop in value["properties"]:
        card = prop["card"]
        if isinstance(card, dict):
            if card.get("property", prop["test_id"]) != prop["test_id"] or \
                    not schemas.is_valid("sample-card", {**card, "property": prop["test_id"]}):
                return False
        else:
            paths.append(card)
        for item in prop["fixtures"]:
            if isinstance(item, str):
                paths.append(item)
            elif "glob" in item:
                paths.append(item["glob"])
                globs.append(item["glob"])
            elif item["group"] not in groups:
                return False
            else:
                used.add(item["group"])
        paths += [prop["sample"]] if "sample" in prop else []
        paths += [prop["location"]["path"]] if "location" in prop else []
        if not all(_safe_rel(p) for p in paths):
            return False
        where = prop.get("location", {}).get("path")
        if where is not None and not (_safe_rel(where) and root is not None
                                      and (root / where).is_file()):
            return False
    if set(groups) - used:
        return False
    return root is None or all(glob_hits(g, root) for g in globs)


def junit_may_pass(data: bytes) -> bool:
    """May a JUnit report make ``t1`` a ``pass`` (exit 0 recorded)? Own reading, via etree."""
    low = data.lower()
    if b"<!doctype" in low or b"<!entity" in low:
        return False
    try:
        root = ET.fromstring(data)
    except (ET.ParseError, ValueError, LookupError, RecursionError):
        return False
    cases = [c for c in root.iter("testcase") if c.get("name") == TEST_ID]
    if len(cases) != 1:
        return False
    return not any(child.tag in ("failure", "error", "skipped") for child in cases[0])


def report_may_open(value: Any) -> bool:
    if not isinstance(value, dict) or not schemas.is_valid("report", value):
        return False
    pairs = value["pairs"]
    tally = {"accepted": 0, "frozen": 0, "rejected": 0}
    for pair in pairs:
        tally[pair["status"]] += 1
    receipt = value.get("receipt")
    audit = value.get("halt_audit")
    return (value["decision"] == "open" and tally == value["counts"] and bool(pairs)
            and tally["rejected"] == 0
            and (receipt is None or receipt["decision"] == "accept")
            and (audit is None or (audit["failed"] == 0 and audit["chain_ok"])))


@dataclass
class LedgerView:
    structure_ok: bool  # framing, strict JSON, schema, seq, chain, hashes, bind generations
    table_ok: bool  # and every recorded decision is the table's (what ``audit`` checks)
    issuer: halt.MemoryIssuer
    decided: dict[str, tuple[str, bool]]  # attempt id -> (decision, the table's at its time)


def ledger_view(data: bytes, pol: halt.HaltPolicy) -> LedgerView:
    """Own verification of a halt ledger, written from the ledger's documented format."""
    issuer = halt.MemoryIssuer()
    view = LedgerView(False, False, issuer, {})
    if data and not data.endswith(b"\n"):
        return view
    tail, seq, table_ok = "0" * 64, 0, True
    for raw in data.split(b"\n")[:-1] if data else []:
        ok, entry = ref_json(raw)
        if not ok or not isinstance(entry, dict) or not schemas.is_valid("ledger-entry", entry):
            return view
        body = {k: v for k, v in entry.items() if k != "hash"}
        digest = hashlib.sha256(bytes.fromhex(entry["prev"]) + json.dumps(
            body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
        if entry["seq"] != seq + 1 or entry["prev"] != tail or digest != entry["hash"]:
            return view
        bound = halt.Binding.from_record(entry["binding"])
        if entry["kind"] == "bind":
            if bound.generation != (issuer.current_generation(bound.run_id) or 0) + 1:
                return view
            issuer.record(bound)
        else:
            due = halt.decide(bound, entry["issued_generation"], issuer, pol).decision.value
            if entry["kind"] == "conflict":
                due = "reject"
            elif entry["attempt_id"] in view.decided:
                return view
            agrees = entry["decision"] == due and entry.get("expected") in (None, due)
            table_ok = table_ok and agrees
            if entry["kind"] == "decision":
                view.decided[entry["attempt_id"]] = (entry["decision"], agrees)
        seq, tail = entry["seq"], entry["hash"]
    view.structure_ok, view.table_ok = True, table_ok
    return view


def ledger_valid(data: bytes, pol: halt.HaltPolicy) -> bool:
    view = ledger_view(data, pol)
    return view.structure_ok and view.table_ok


def ledger_may_allow(data: bytes, attempt: str, bound: dict[str, Any]) -> bool:
    """May ``halt check`` ALLOW ``attempt`` with ``bound`` against this ledger?"""
    view = ledger_view(data, halt.HaltPolicy())
    if not view.structure_ok:
        return False
    if attempt in view.decided:
        decision, agrees = view.decided[attempt]
        return decision == "allow" and agrees
    want = halt.Binding.from_record(bound)
    return (view.issuer.minted(want.run_id, want.generation) == want
            and view.issuer.current_generation(want.run_id) == want.generation)


# --- the targets ----------------------------------------------------------------------------


@dataclass
class Verdict:
    crash: str | None
    door: bool
    code: int | None
    invalid: bool


@dataclass
class Scratch:
    """A scratch folder with one sub-folder per input."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="gate-fuzz-")))
    counter: itertools.count[int] = field(default_factory=itertools.count)
    cache: dict[str, Any] = field(default_factory=dict)

    def fresh(self) -> Path:
        path = self.root / f"i{next(self.counter)}"
        path.mkdir()
        self.cache["last"] = path
        return path

    def clean_last(self) -> None:
        """Remove the folder of the last input (long fuzzing runs)."""
        import shutil

        last = self.cache.pop("last", None)
        if last is not None:
            shutil.rmtree(last, ignore_errors=True)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def target_stamp(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    d = s.fresh()
    ok, value = ref_json(data)
    valid = ok and stamp_valid(value)
    partner = stamp("free-server", "pass", "rpartner")
    if ok and isinstance(value, dict) and value.get("server_class") == "free-server":
        partner = stamp("local-pinned", "pass", "rpartner")
    if flag % 2:
        folder = d / "stamps"
        (folder / "art").mkdir(parents=True)
        _write(folder / "art" / "fuzzed.json", data)
        _write(folder / "partner.json", dumps(partner))
        out = run_cli(["classify", "--stamps", str(folder), "--now", str(NOW)])
    else:
        a = _write(d / "a.json", data)
        b = _write(d / "b.json", dumps(partner))
        out = run_cli(["classify", str(a), str(b), "--now", str(NOW)])
    return Verdict(out.crash, out.code == 0 and not valid, out.code, not valid)


def target_run_record(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    d = s.fresh()
    ok, value = ref_json(data)
    valid = ok and run_or_stamp_valid(value)
    partner = run_record("rpartner")
    a = _write(d / "a.json", data)
    b = _write(d / "b.json", dumps(partner))
    args = [str(a), str(b)] if flag % 2 == 0 else [str(b), str(a)]
    out = run_cli(["triage", *args])
    may_open = valid and ref_failure_class(value, partner) == "harness_flake"
    return Verdict(out.crash, out.code == 0 and not may_open, out.code, not valid)


def _receipt_files(s: Scratch) -> tuple[Path, Path, dict[str, str]]:
    if "receipt" not in s.cache:
        diff = _write(s.root / "diff.patch", b"--- a\n+++ b\n")
        prompt = _write(s.root / "prompt.txt", b"review this\n")
        expected = {"diff_sha256": hashlib.sha256(diff.read_bytes()).hexdigest(),
                    "prompt_sha256": hashlib.sha256(prompt.read_bytes()).hexdigest(),
                    "model_id": "model-x", "workspace_generation": "gen-1"}
        s.cache["receipt"] = (diff, prompt, expected)
    return s.cache["receipt"]  # type: ignore[no-any-return]


def valid_receipt(s: Scratch, in_toto: bool) -> dict[str, Any]:
    _, _, expected = _receipt_files(s)
    plain = receipts.build(verdict="pass", reasons=["looked at every hunk"], **expected)
    return receipts.to_in_toto(plain) if in_toto else plain


def target_receipt(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    diff, prompt, expected = _receipt_files(s)
    d = s.fresh() / "attempt-1"  # bootstrapped with the expected generation, as
    d.mkdir()  # gate receipt bootstrap would (issue 14 class 12)
    _write(d / "workspace-generation.json", json.dumps(
        {"attempt_id": "attempt-1",
         "workspace_generation": expected["workspace_generation"]}).encode())
    path = _write(d / "receipt.json", data)
    out = run_cli(["receipt", "verify", "--diff", str(diff), "--prompt", str(prompt),
                   "--model", expected["model_id"], "--workspace-gen",
                   expected["workspace_generation"], "--receipt", str(path),
                   "--attempt-id", "attempt-1", "--dir", str(d.parent)]
                  + (["--json"] if flag % 2 else []))
    ok, value = ref_json(data)
    accepts = ok and receipt_accepts(value, expected)
    return Verdict(out.crash, out.code == 0 and not accepts, out.code, not accepts)


def _ledger_file(s: Scratch) -> Path:
    if "ledger" not in s.cache:
        path = s.root / "binding-ledger.jsonl"
        ledger.Ledger(path).bind("run-1", "lab.invalid", "api.lab.invalid", MARKER)
        s.cache["ledger"] = path
    return s.cache["ledger"]  # type: ignore[no-any-return]


def target_binding(s: Scratch, data: bytes, flag: int = 1) -> Verdict:
    path = _ledger_file(s)
    d = s.fresh()
    bfile = _write(d / "binding.json", data)
    issued = (1, 1, 1, 0, 2, 1)[flag % 6]
    out = run_cli(["halt", "check", "--ledger", str(path), "--binding", str(bfile),
                   "--issued-gen", str(issued), "--attempt-id", f"a-{d.name}",
                   "--halt-report", str(d / "halts.jsonl")])
    ok, value = ref_json(data)
    allows = ok and binding_allows(value, issued, binding(1))
    return Verdict(out.crash, out.code == 0 and not allows, out.code, not allows)


def valid_ledger(s: Scratch) -> bytes:
    if "ledger-bytes" not in s.cache:
        path = s.root / "seed-ledger.jsonl"
        book = ledger.Ledger(path)
        first = book.bind("run-1", "lab.invalid", "api.lab.invalid", MARKER)
        book.check(first, 1, "a1")
        book.check(halt.Binding("run-1", 1, "lab.invalid", "api.example.com", MARKER, "fixture"),
                   1, "a2")
        second = book.bind("run-1", "lab.invalid", "api.lab.invalid", MARKER)
        book.check(first, 1, "a3")
        book.check(second, 2, "a4")
        s.cache["ledger-bytes"] = path.read_bytes()
    return s.cache["ledger-bytes"]  # type: ignore[no-any-return]


def target_ledger(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    d = s.fresh()
    path = _write(d / "ledger.jsonl", data)
    valid = ledger_valid(data, halt.HaltPolicy())
    if flag % 2 == 0:
        out = run_cli(["halt", "audit", str(path)])
        door = out.code == 0 and not valid
    else:
        attempt = ("fuzz-attempt", "a4", "a1")[flag % 3]
        bfile = _write(d / "binding.json", dumps(binding(2)))
        out = run_cli(["halt", "check", "--ledger", str(path), "--binding", str(bfile),
                       "--issued-gen", "2", "--attempt-id", attempt,
                       "--halt-report", str(d / "halts.jsonl")])
        door = out.code == 0 and not ledger_may_allow(data, attempt, binding(2))
    return Verdict(out.crash, door, out.code, not valid)


def target_policy(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    d = s.fresh()
    path = _write(d / "policy.yml", data)
    ok, value = ref_yaml(data)
    if flag % 2 == 0:
        out = run_cli(["policy", "check", str(path), "--now", str(NOW)])
        door = out.code == 0 and not (ok and policy_valid(value))
    else:
        a = _write(d / "a.json", dumps(stamp("local-pinned", "pass", "r1")))
        b = _write(d / "b.json", dumps(stamp("free-server", "assert_fail", "r2")))
        out = run_cli(["classify", str(a), str(b), "--policy", str(path), "--now", str(NOW)])
        door = out.code == 0 and not (ok and freeze_allowed_by(value))
    return Verdict(out.crash, door, out.code, not (ok and policy_valid(value)))


def _stamp_root(s: Scratch) -> Path:
    if "stamp-root" not in s.cache:
        root = s.root / "project"
        (root / "fixtures").mkdir(parents=True)
        (root / "fixtures" / "f.txt").write_bytes(b"fixture bytes\n")
        (root / "card.json").write_text(json.dumps(card()))
        (root / "junit.xml").write_bytes(JUNIT_PASS)
        (root / "tests").mkdir()
        (root / "tests" / "test_x.py").write_text("def test_x(): pass\n")
        s.cache["stamp-root"] = root
    return s.cache["stamp-root"]  # type: ignore[no-any-return]


def target_manifest(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    root = _stamp_root(s)
    d = s.fresh()
    path = _write(d / "gate.yml", data)
    out = run_cli(["stamp", "--manifest", str(path), "--root", str(root), "--server-class",
                   "local-pinned", "--out", str(d / "out"), "--junit", str(root / "junit.xml"),
                   "--exit-code", "0", "--run-id-prefix", f"p{d.name}"])
    ok, value = ref_yaml(data)
    valid = ok and manifest_valid(value, root)
    return Verdict(out.crash, out.code == 0 and not valid, out.code, not valid)


def target_junit(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    root = _stamp_root(s)
    d = s.fresh()
    path = _write(d / "junit.xml", data)
    out = run_cli(["stamp", "--card", str(root / "card.json"), "--test-id", TEST_ID,
                   "--fixtures", str(root / "fixtures"), "--root", str(root), "--junit",
                   str(path), "--exit-code", "0", "--server-class", "local-pinned",
                   "--out", str(d / "out"), "--run-id", f"r{d.name}", "--json"])
    passed = False
    if out.code == 0:
        try:
            written = json.loads(out.out)
            passed = any(item["stamp"]["outcome"] == "pass" for item in written)
        except (ValueError, KeyError, TypeError):
            passed = True  # unreadable output for a success: count it as a door
    may = junit_may_pass(data)
    return Verdict(out.crash, passed and not may, out.code, not may)


def target_report(s: Scratch, data: bytes, flag: int = 0) -> Verdict:
    d = s.fresh()
    path = _write(d / "report.json", data)
    command = ("publish", "outputs", "summary")[flag % 3]
    argv = [command, "--report", str(path)]
    if command == "summary":
        argv += ["--out", str(d / "summary.md")]
    with _no_github_env():
        out = run_cli(argv)
    ok, value = ref_json(data)
    may = ok and report_may_open(value)
    return Verdict(out.crash, out.code == 0 and not may, out.code, not may)


@contextlib.contextmanager
def _no_github_env() -> Any:
    import os

    saved = {k: os.environ.pop(k) for k in list(os.environ)
             if k.startswith("GITHUB_") or k == "RUNNER_TEMP"}
    try:
        yield
    finally:
        os.environ.update(saved)


TARGET_FUNCS: dict[str, Callable[[Scratch, bytes, int], Verdict]] = {
    "stamp": target_stamp,
    "run-record": target_run_record,
    "receipt": target_receipt,
    "receipt-in-toto": target_receipt,
    "binding": target_binding,
    "ledger": target_ledger,
    "policy": target_policy,
    "manifest": target_manifest,
    "junit": target_junit,
    "report": target_report,
}


def seed(s: Scratch, name: str) -> bytes:
    """A valid input for each target (the start of structured mutation)."""
    if name == "stamp":
        return dumps(stamp("local-pinned", "pass"))
    if name == "run-record":
        return dumps(run_record())
    if name in ("receipt", "receipt-in-toto"):
        return dumps(valid_receipt(s, name == "receipt-in-toto"))
    if name == "binding":
        return dumps(binding())
    if name == "ledger":
        return valid_ledger(s)
    if name == "policy":
        return yaml.safe_dump(policy()).encode()
    if name == "manifest":
        return yaml.safe_dump(manifest()).encode()
    if name == "junit":
        return JUNIT_PASS
    if name == "report":
        return dumps(report())
    raise KeyError(name)


def seed_value(s: Scratch, name: str) -> Any:
    """The seed as a value (for structured mutation), or None for byte-only targets."""
    if name == "ledger":
        return [json.loads(line) for line in valid_ledger(s).splitlines()]
    if name == "junit":
        return None
    if name in ("policy", "manifest"):
        return yaml.safe_load(seed(s, name))
    return json.loads(seed(s, name))


def encode(name: str, value: Any, s: Scratch, rehash: bool = False) -> bytes:
    """A structured value back to the bytes the target reads."""
    if name == "ledger":
        if not isinstance(value, list):
            return dumps(value) + b"\n"
        entries = copy.deepcopy(value)
        lines = []
        for entry in entries:
            if rehash and isinstance(entry, dict) and isinstance(entry.get("prev"), str):
                with contextlib.suppress(ValueError, TypeError, KeyError):
                    entry["hash"] = ledger.entry_hash(entry)
            lines.append(dumps(entry))
        return b"\n".join(lines) + b"\n"
    if name in ("policy", "manifest"):
        try:
            return yaml.safe_dump(value, allow_unicode=True).encode("utf-8", "surrogatepass")
        except (yaml.YAMLError, UnicodeEncodeError):
            return dumps(value)
    return dumps(value)
