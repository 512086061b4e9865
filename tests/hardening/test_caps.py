"""Size and depth caps before parsing: each hostile shape is refused with exit 2, quickly."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.core_helpers import assert_bad_input, run_cli, stamp, write_json
from tests.hardening import figures, fuzzlib

SECTION = "caps before parsing"
BILLION_LAUGHS_YAML = b"""a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
allowlist: [*f,*f,*f,*f,*f,*f,*f,*f,*f]
"""
BILLION_LAUGHS_XML = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<testsuites><testsuite><testcase name="t1">&lol9;</testcase></testsuite></testsuites>"""
EXTERNAL_XML = b"""<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>
<testsuites><testsuite><testcase name="t1">&e;</testcase></testsuite></testsuites>"""


def _timed(name: str, *argv: object) -> None:
    started = time.monotonic()
    result = run_cli(*argv)
    seconds = time.monotonic() - started
    assert_bad_input(result)
    assert seconds < 10, f"{name} took {seconds:.1f} s"
    figures.add(SECTION, "hostile shapes refused with exit 2")
    figures.put(SECTION, f"{name} (s)", round(seconds, 2))


def _pair(tmp_path: Path) -> Path:
    return write_json(tmp_path / "b.json", stamp("free-server", "pass", run_id="r2"))


def test_stamp_over_the_configured_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = stamp("local-pinned", "pass")
    big["note"] = "x" * 4000
    a = write_json(tmp_path / "a.json", big)
    monkeypatch.setenv("GATE_MAX_RECORD_BYTES", "2048")
    _timed("stamp over GATE_MAX_RECORD_BYTES", "classify", a, _pair(tmp_path), "--now", 1)
    assert "2048-byte limit" in run_cli("classify", a, _pair(tmp_path)).err


@pytest.mark.parametrize("depth", [65, 1000, 1_000_000])
def test_deep_json_is_refused_before_parsing(tmp_path: Path, depth: int) -> None:
    a = tmp_path / "a.json"
    a.write_text('{"run_id":' + "[" * depth + "]" * depth + "}")
    _timed(f"JSON nested {depth} deep", "classify", a, _pair(tmp_path), "--now", 1)
    assert "nesting deeper than 64" in run_cli("classify", a, _pair(tmp_path)).err


def test_billion_laughs_yaml(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yml"
    policy.write_bytes(BILLION_LAUGHS_YAML)
    _timed("billion-laughs YAML policy", "policy", "check", policy, "--now", 1)
    assert "aliases are not allowed" in run_cli("policy", "check", policy).err


def test_yaml_over_its_own_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    policy = tmp_path / "policy.yml"
    policy.write_bytes(b"allowlist:\n" + b"- x\n" * 300_000)  # 1.2 MB: 8 s of PyYAML
    _timed("YAML over GATE_MAX_YAML_BYTES (1 MiB)", "policy", "check", policy, "--now", 1)
    monkeypatch.setenv("GATE_MAX_YAML_BYTES", "100")
    small = tmp_path / "small.yml"
    small.write_bytes(b"allowlist: []\n" + b"# pad\n" * 30)
    assert "100-byte limit" in run_cli("policy", "check", small).err


@pytest.mark.parametrize("document", [BILLION_LAUGHS_XML, EXTERNAL_XML],
                         ids=["entity-expansion", "external-entity"])
def test_xml_entities_are_refused(tmp_path: Path, document: bytes) -> None:
    root = fuzzlib._stamp_root(fuzzlib.Scratch(root=tmp_path))
    junit = tmp_path / "junit.xml"
    junit.write_bytes(document)
    _timed("XML DOCTYPE/entities in JUnit", "stamp", "--card", root / "card.json",
           "--test-id", "t1", "--fixtures", root / "fixtures", "--root", root,
           "--junit", junit, "--exit-code", 0, "--server-class", "local-pinned",
           "--out", tmp_path / "out", "--run-id", "r1")
    assert not (tmp_path / "out").exists()


def test_junit_over_its_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fuzzlib._stamp_root(fuzzlib.Scratch(root=tmp_path))
    monkeypatch.setenv("GATE_MAX_JUNIT_BYTES", "64")
    _timed("JUnit over GATE_MAX_JUNIT_BYTES", "stamp", "--card", root / "card.json",
           "--test-id", "t1", "--fixtures", root / "fixtures", "--root", root,
           "--junit", root / "junit.xml", "--exit-code", 0, "--server-class",
           "local-pinned", "--out", tmp_path / "out", "--run-id", "r1")


@pytest.mark.parametrize("encoding", ["utf-x", "utf-32", "x-mac-japanese"])
def test_junit_with_an_unknown_encoding_is_bad_input(tmp_path: Path, encoding: str) -> None:
    """Found by the fuzzer: expat raised LookupError/ValueError (a traceback, exit 1)."""
    root = fuzzlib._stamp_root(fuzzlib.Scratch(root=tmp_path))
    junit = tmp_path / "junit.xml"
    junit.write_bytes(f'<?xml version="1.0" encoding="{encoding}"?><testsuites/>'.encode())
    _timed("JUnit with an unsupported encoding", "stamp", "--card", root / "card.json",
           "--test-id", "t1", "--fixtures", root / "fixtures", "--root", root,
           "--junit", junit, "--exit-code", 0, "--server-class", "local-pinned",
           "--out", tmp_path / "out", "--run-id", "r1")


def test_ledger_line_with_a_duplicate_key_is_refused(tmp_path: Path) -> None:
    """Found by the fuzzer: a duplicated key passed the audit (json.loads keeps the last)."""
    from gate.decide import halt
    from gate.records import ledger

    path = tmp_path / "ledger.jsonl"
    ledger.Ledger(path).bind("run-1", "lab.invalid", "api.lab.invalid", halt.DEFAULT_MARKER)
    line = path.read_bytes()
    path.write_bytes(line.replace(b'"kind":"bind"', b'"kind":"decision","kind":"bind"', 1))
    result = run_cli("halt", "audit", path)
    assert result.code == 1 and "not valid JSON" in result.out


def test_report_that_disagrees_with_itself_is_bad_input(tmp_path: Path) -> None:
    report = fuzzlib.report()
    report["pairs"][0]["status"] = "rejected"  # counts still say accepted; decision open
    path = write_json(tmp_path / "report.json", report)
    _timed("report whose counts disagree with its pairs", "outputs", "--report", path)
    report["counts"] = {"accepted": 0, "frozen": 0, "rejected": 1}
    path = write_json(tmp_path / "report2.json", report)
    _timed("report open with a rejected pair", "outputs", "--report", path)


@pytest.mark.parametrize("text", ['"\\ud800"', '"x\\udfff"', '"\\ud800\\u0041"'])
def test_lone_surrogate_escapes_are_bad_input(tmp_path: Path, text: str) -> None:
    """Found by the fuzzer: a binding with ``"\\ud800"`` parsed, then crashed the ledger's
    hashing (UnicodeEncodeError, a traceback). JSON and YAML now refuse such text."""
    binding = tmp_path / "binding.json"
    binding.write_text('{"run_id": "run-1", "generation": 1, "scope": "lab.invalid", '
                       '"host": "api.lab.invalid", "target_class": "fixture", "marker": '
                       + text + "}")
    _timed("lone surrogate escape in JSON", "halt", "check", "--ledger",
           tmp_path / "ledger.jsonl", "--binding", binding, "--issued-gen", 1,
           "--attempt-id", "a1")
    policy = tmp_path / "policy.yml"
    policy.write_text("halt: {expected_marker: " + text + "}\n")
    _timed("lone surrogate escape in YAML", "policy", "check", policy, "--now", 1)
