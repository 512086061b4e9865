"""Commands import only what they use: nothing that talks to GitHub outside ``gate publish``,
and no schema or YAML library for ``gate --version`` and ``gate hash`` (start-up time)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported(*argv: str, cwd: Path, full: bool = False) -> set[str]:
    """The top-level names of the modules ``gate ARGV`` imports (``full``: whole names)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gate", *argv],
                          capture_output=True, text=True, cwd=cwd, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    names: set[str] = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                names.add(name if full else name.split(".")[0])
    return names


@pytest.fixture
def fixture_dir(tmp_path: Path) -> Path:
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "one.txt").write_bytes(b"one small fixture file\n")
    return tmp_path


def test_version_imports_nothing_heavy(fixture_dir: Path) -> None:
    names = imported("--version", cwd=fixture_dir)
    assert "gate" in names
    for heavy in ("github", "requests", "urllib3", "jsonschema", "fastjsonschema", "yaml",
                  "sigstore", "cryptography", "pydantic"):
        assert heavy not in names, heavy


def test_hash_imports_no_github_and_no_schema_library(fixture_dir: Path) -> None:
    names = imported("hash", "fx", "--root", ".", cwd=fixture_dir)
    assert "gate" in names
    for heavy in ("github", "requests", "urllib3", "jsonschema", "fastjsonschema", "yaml",
                  "sigstore", "cryptography", "pydantic"):
        assert heavy not in names, heavy


def test_classify_imports_no_github(fixture_dir: Path) -> None:
    # a malformed stamp folder still gets as far as reading: exit 2, never GitHub
    (fixture_dir / "stamps").mkdir()
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gate", "classify",
                           "--stamps", "stamps"], capture_output=True, text=True,
                          cwd=fixture_dir, timeout=60, check=False)
    assert done.returncode == 2
    assert not {"github", "requests"} & {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_stamp_validates_with_the_pregenerated_validators_alone(fixture_dir: Path) -> None:
    """A ``gate stamp --manifest --pytest`` run whose records are all valid (manifest, policy,
    card, the recorder's plan, records and results, the stamp) imports neither schema
    library: the validators ship pregenerated (issue 23)."""
    (fixture_dir / "card.json").write_text(
        '{"property": "t.py::test_p", "cases": 3, "seed": 1}')
    (fixture_dir / "gate.yml").write_text(
        'version: 1\nproperties:\n  - test_id: "t.py::test_p"\n    card: "card.json"\n'
        '    fixtures: ["fx"]\n    junit: {classname: "t", name: "test_p"}\n')
    (fixture_dir / ".github").mkdir()
    (fixture_dir / ".github" / "gate-policy.yml").write_text("max_freeze_days: 30\n")
    (fixture_dir / "t.py").write_text("from hypothesis import given, strategies as st\n\n\n"
                                      "@given(st.integers())\ndef test_p(x):\n    pass\n")
    modules = imported("stamp", "--manifest", "gate.yml", "--server-class", "local-pinned",
                       "--out", "out", "--pytest", "--", sys.executable, "-m", "pytest", "-q",
                       "-p", "no:cacheprovider", "t.py", cwd=fixture_dir, full=True)
    names = {name.split(".")[0] for name in modules}
    assert len(list((fixture_dir / "out").glob("*.json"))) == 1
    assert "gate" in names and "yaml" in names
    for heavy in ("jsonschema", "fastjsonschema", "referencing", "github", "sigstore"):
        assert heavy not in names, heavy
    # a stamp leg builds no report: checking a stamp's four-line-block values does not import
    # the report's code and its dataclasses (~10 ms of the gate's own time; issue 31)
    assert "gate.decide.block" in modules
    for unused in ("gate.records.report", "gate.records.report_data"):
        assert unused not in modules, unused
    # nor the other routes' code: the JUnit route and its XML parser (issue 31, third pass)
    assert "gate.testrun.recorder_route" in modules
    for unused in ("gate.testrun.junit_route", "gate.records.junit", "xml.parsers.expat"):
        assert unused not in modules, unused


#: What the per-tool-call path must not import (start-up: one process per agent tool call).
NOT_ON_THE_HOOK_PATH = ("argparse", "dataclasses", "inspect", "typing", "tempfile", "decimal",
                        "importlib.resources", "fastjsonschema", "jsonschema", "yaml", "github",
                        "requests", "urllib3", "hashlib", "sigstore", "cryptography", "pydantic",
                        "datetime", "difflib")


def test_halt_hook_imports_no_parser_dataclasses_or_schema_library(tmp_path: Path) -> None:
    from gate.records import ledger

    book = tmp_path / "l.jsonl"
    ledger.Ledger(book).bind("run-1", "lab.invalid", "api.lab.invalid", "synthetic-fixture-v1")
    call = (b'{"tool_name": "WebFetch", "tool_use_id": "t1", '
            b'"tool_input": {"url": "https://api.lab.invalid/x"}}')
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gate", "halt", "hook",
                           "--format", "claude-code", "--ledger", str(book)],
                          input=call.replace(b'"tool_name"', b'"hook_event_name": "PreToolUse", '
                                                             b'"tool_name"'),
                          capture_output=True, cwd=tmp_path, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr[-2000:]
    names = {line.rsplit(b"|", 1)[1].strip().decode() for line in done.stderr.splitlines()
             if line.startswith(b"import time:") and b"|" in line}
    assert "gate.records.ledger" in names  # it did decide
    assert sorted(n for n in NOT_ON_THE_HOOK_PATH if n in names) == []


#: What answering a local tool of a matcher-less CLI (Cursor's Read, Copilot's view) must not
#: import: it is answered before the ledger, the target reading or a JSON module (issue 31).
NOT_ON_THE_LOCAL_TOOL_PATH = (*NOT_ON_THE_HOOK_PATH, "json", "re", "enum", "contextlib",
                              "signal", "pathlib", "functools", "collections", "gate.records",
                              "gate.decide", "gate.agent.target", "ipaddress", "fcntl")
#: The only modules of the gate that path imports (issue 30 moved the input reading and the
#: prefilter out of gate.agent.hook into gate.agent.hook_input: one module more, no more code).
LOCAL_TOOL_PATH_GATE = {"gate", "gate.commands", "gate.commands.main", "gate.agent", "gate.errors",
                        "gate.agent.hook_input", "gate.agent.hook"}


@pytest.mark.parametrize(("fmt", "call"), [
    ("cursor", b'{"hook_event_name": "preToolUse", "tool_name": "Read", "tool_use_id": "t1", '
               b'"tool_input": {"file_path": "src/x.py"}, "cwd": "/repo"}'),
    ("copilot", b'{"sessionId": "s", "timestamp": 1, "cwd": "/w", "toolName": "view", '
                b'"toolArgs": "{\\"path\\": \\"src/x.py\\"}"}'),
])
def test_a_local_tool_is_answered_before_the_ledger_is_built(tmp_path: Path, fmt: str,
                                                            call: bytes) -> None:
    from gate.records import ledger

    book = tmp_path / "l.jsonl"
    ledger.Ledger(book).bind("run-1", "lab.invalid", "api.lab.invalid", "synthetic-fixture-v1")
    before = book.read_bytes()
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           "import sys; from gate.commands.main import main; sys.exit(main())",
                           "halt", "hook", "--format", fmt, "--ledger", str(book)], input=call,
                          capture_output=True, cwd=tmp_path, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (
        0, b'{"permission":"allow"}\n' if fmt == "cursor" else b""), done.stderr[-2000:]
    names = [line.rsplit(b"|", 1)[1].strip().decode() for line in done.stderr.splitlines()
             if line.startswith(b"import time:") and b"|" in line]
    names = names[names.index("site") + 1:]
    assert {n for n in names if n == "gate" or n.startswith("gate.")} == LOCAL_TOOL_PATH_GATE
    assert sorted(n for n in names if n in NOT_ON_THE_LOCAL_TOOL_PATH
                  or n.startswith(("gate.records.", "gate.decide."))) == []
    assert book.read_bytes() == before


def test_version_imports_no_parser(fixture_dir: Path) -> None:
    names = {n for n in imported("--version", cwd=fixture_dir)}
    assert not {"argparse", "typing", "dataclasses"} & names


#: What ``gate hash`` of a small set must not import: it is timed against OpenSSL, and each of
#: these cost it start-up once (the parser, dataclass machinery, annotations at run time, the
#: helpers of other commands, a thread pool or forked workers for a set too small for them).
NOT_ON_THE_HASH_PATH = ("argparse", "dataclasses", "inspect", "typing", "pathlib", "json", "re",
                        "enum", "functools", "collections", "contextlib", "struct", "hashlib",
                        "threading", "concurrent.futures", "urllib.parse", "secrets", "shutil",
                        "locale", "gate.github", "gate.commands.args", "gate.records.files",
                        "gate.records.load", "gate.records.schemas", "gate.records.forked")


def imported_after_site(*argv: str, cwd: Path) -> list[str]:
    """Every module imported by the ``gate`` command (as scripts/gate starts it, not through
    runpy) after the interpreter's own start-up (``site`` and any ``.pth`` file)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           "import sys; from gate.commands.main import main; sys.exit(main())",
                           *argv], capture_output=True, text=True, cwd=cwd, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    names = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:") and "|" in line]
    return names[names.index("site") + 1:] if "site" in names else names


@pytest.mark.parametrize("what", ["one file", "a small folder"])
def test_hash_imports_no_parser_dataclasses_typing_or_helpers(fixture_dir: Path,
                                                              what: str) -> None:
    for i in range(5):
        (fixture_dir / "fx" / f"more-{i}.txt").write_bytes(b"x" * i)
    target = "fx/one.txt" if what == "one file" else "fx"
    names = imported_after_site("hash", target, "--root", ".", cwd=fixture_dir)
    assert "gate.records.hashing" in names  # it did hash
    assert sorted(n for n in NOT_ON_THE_HASH_PATH if n in names) == []
