"""Injection corpus through the real composite action under act.

A scratch repository (the files a user's checkout of the action has, as in
tests/test_action_act.py) gets a policy whose allowlist reasons are hostile; a pre-made stamp
artifact is placed in the stand-in artifact store, one test per hostile string: the string is
the test id (when the schema's 512-character limit allows), the stamp's note, its
``fixture_path`` and its ``location.path``. Only the gate job runs (tests/act/workflows/
hostile.yml, ``uses: ./`` in gate mode), publishing to the GitHub API double.

Checked from act's JSON log: no workflow command other than ours (every ``error``/``warning``
annotation is one the report explains, none carries a forged marker, no ``add-mask``,
``stop-commands``, ``set-env``, ``add-path``, ``save-state``), no forged output (the step
outputs equal what the report says), every Markdown table of the job summary and of the check
run keeps its column count, no raw HTML tag or Mermaid fence reaches the summary, and the API
double accepted every request. Strings the schema refuses (100 KB) are counted as refused:
the gate exits 2 on them, in-process, through the same code the action runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from gate.commands import main as cli
from gate.decide import block
from gate.github import review, ungated, workflow
from gate.records.load import load_report
from tests.act.harness import STANDINS_DIR, WORKFLOWS_DIR, run_act
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.hardening import figures, fuzzlib
from tests.test_action_act import HEAD_SHA, SETUP_PYTHON, _project_copy, wheelhouse

__all__ = ["wheelhouse"]  # the session fixture, shared with tests/test_action_act.py

SECTION = "injection (act)"
FORGED = "FORGED"
HOSTILE: list[str] = [
    f"::error::{FORGED}-1",
    f"x\n::error::{FORGED}-2",
    f"x\r\n::warning::{FORGED}-3",
    f"x\r::notice::{FORGED}-4",
    f"%0A::error::{FORGED}-5",
    f"a%0D%0A::error::{FORGED}-6",
    f"::stop-commands::tok{FORGED}\n::error::{FORGED}-7\n::tok{FORGED}::",
    f"::set-output name=decision::open{FORGED}",
    f"x\n::set-output name=decision::open{FORGED}",
    f"::add-mask::{FORGED}-mask",
    f"x\n::add-mask::{FORGED}-mask2",
    f"::save-state name=x::{FORGED}",
    f"  ::error::{FORGED}-8",
    f"##[error]{FORGED}-9",
    f"x\n##[set-output name=decision;]open{FORGED}",
    "| a | b |\n|---|---|\n| c | d |",
    "col|umn|breaker\\|",
    "`tick` ``double`` ```fence```",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "</details></table><h1>big</h1><!--",
    "```mermaid\ngraph TD; A-->B; click A callback\n```",
    "%%{init: {'theme':'dark'}}%%\ngraph LR; X-->Y",
    "\U0001F600 \U00010000 \U0010FFFD astral",
    "\u202eevil\u202c \u200b zero-width \ufeff",
    "\x1b[31mred\x1b[0m\x07\x00nul",
    "${{ github.token }} $(id) `id`",
    "/etc/passwd",
    "../../../../etc/passwd",
    "tests/../../outside.py::t",
    "C:\\Windows\\system32\\x.py",
    "/home/runner/work/repo/repo/tests/test_abs.py::t",
    "[link](javascript:alert(1)) ![img](http://example.invalid/x.png)",
    "@everyone #1 <@U123>",
]
BIG = ["A" * 100_000, "::error::" + "B" * 100_000, "\n" * 100_000]
ALLOWED_COMMANDS = {"set-output", "summary", "error", "warning", "notice", "debug"}
#: The one environment the action sets (act logs GITHUB_ENV lines as set-env): the first use's
#: seal, from its set-up step, for any later use of the action in the job.
OWN_ENV = {"AGENT_PATCH_GATE_JOB_SEAL", "AGENT_PATCH_GATE_JOB_SEAL_SHA256"}


def _stamps(artifacts: Path) -> list[str]:
    """One red pair per hostile string, each class in its own artifact folder (named as the
    action names them: ``gate-stamps-<class>-…``); returns the test ids used."""
    ids = []
    for n, text in enumerate(HOSTILE):
        test_id = text if len(text) <= 512 else f"hostile-{n}"
        ids.append(test_id)
        for server_class, outcome in (("local-pinned", "pass"), ("free-server", "assert_fail")):
            stamp = fuzzlib.stamp(server_class, outcome, f"h{n}-{server_class}")
            stamp["test_id"] = test_id
            stamp["note"] = text[:4096]
            # A fixture_path that cannot be one line of the four-line block is refused when
            # read (issue 14; tests/test_print_escaped.py): here it stays hostile but printable.
            path = text[:4096]
            stamp["fixture_path"] = path if block.block_value_problem(path) is None else (
                json.dumps(path)[:4096])
            stamp["location"] = {"path": text[:4096], "line": 1 + n}
            folder = artifacts / f"gate-stamps-{server_class}-hostile-1" / "sub"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"h{n}-{server_class}.json").write_bytes(fuzzlib.dumps(stamp))
    return ids


def _policy(ids: list[str]) -> dict[str, Any]:
    return {"allowlist": [
        {"test_id": test_id, "server_class": "free-server", "owner": "@hostile",
         "reason": text, "expires": fuzzlib.FUTURE}
        for test_id, text in zip(ids, HOSTILE, strict=True) if n_even(test_id, ids)]}


def n_even(test_id: str, ids: list[str]) -> bool:
    return ids.index(test_id) % 2 == 0


def _cells(row: str) -> int:
    body = row.strip()
    return len(re.split(r"(?<!\\)\|", body)) - 2 if body.startswith("|") else 0


def _broken_tables(markdown: str) -> int:
    """Rows whose column count differs from their table's header row."""
    broken = 0
    header: int | None = None
    for line in markdown.splitlines():
        if line.lstrip().startswith("|"):
            count = _cells(line)
            if header is None:
                header = count
            elif count != header:
                broken += 1
        else:
            header = None
    return broken


_RAW_TAGS = ("<script", "<img", "<h1", "</table", "<!--", "](javascript:")
_MERMAID_HOSTILE = ("forged", "click", "%%{", "<script", "callback", "-->b", "x-->y")


def _html_leaks(markdown: str) -> list[str]:
    """Raw HTML or a live link outside code fences; hostile text inside a Mermaid block.
    Text inside a ``text`` fence is inert (the fence is longer than any backtick run)."""
    found: list[str] = []
    fence: str | None = None
    info = ""
    for line in markdown.splitlines():
        stripped = line.strip()
        opener = re.match(r"^(`{3,})(\S*)$", stripped)
        if fence is None and opener:
            fence, info = opener.group(1), opener.group(2)
            continue
        if fence is not None and stripped.startswith(fence) and set(stripped) == {"`"}:
            fence = None
            continue
        low = line.lower()
        if fence is None:
            found += [f"{tag} in {line[:120]!r}" for tag in _RAW_TAGS if tag in low]
        elif info == "mermaid":
            found += [f"{tag} in mermaid {line[:120]!r}" for tag in _MERMAID_HOSTILE
                      if tag in low]
    return found


_MEMORY = re.compile(r"(?:\A|\n\n)<!-- agent-patch-gate-memory:v1 [A-Za-z0-9+/=]+ -->\Z")


def _without_memory(text: str, leaks: list[str]) -> str:
    """A check run's text without its one hidden re-run record (gate/records/memory.py), which
    must be exactly that: one base64 HTML comment ending the text, that decodes. Any other
    comment is still raw HTML to _html_leaks."""
    from gate.records import memory

    found = _MEMORY.search(text)
    if found is None:
        leaks.append("check run text: no re-run record at its end")
        return text
    try:
        memory.decode(text)
    except memory.RecordProblem as exc:
        leaks.append(f"check run text: re-run record unreadable: {exc.why}")
    return text[:found.start()]


@pytest.fixture
def double() -> Any:
    with GitHubDouble(accept_any_token=False) as server:
        yield server


@pytest.mark.parametrize("published", [True, False], ids=["check-run", "workflow-commands"])
def test_hostile_strings_under_act(tmp_path: Path, double: GitHubDouble,
                                   wheelhouse: Path, published: bool) -> None:
    """With a token the red pairs go to the check run; without one (a fork pull request)
    they are printed as ``::error``/``::warning`` workflow commands, where escaping matters."""
    work = tmp_path / "repo"
    work.mkdir()
    _project_copy(work)
    artifacts = tmp_path / "artifacts"
    ids = _stamps(artifacts)
    (work / "hostile-policy.yml").write_text(json.dumps(_policy(ids)))

    # The gate's own decision on the same inputs, for the outputs comparison.
    expected_report = tmp_path / "expected-report.json"
    with contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["classify", "--stamps", str(artifacts), "--policy",
                         str(work / "hostile-policy.yml"), "--now", str(fuzzlib.NOW),
                         "--report", str(expected_report)])
    assert code in (0, 1)
    report = load_report(expected_report)  # as every surface reads it (the one loader)

    payload = {"number": 7,
               "pull_request": {"number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/x"}}}
    result = run_act(
        work, WORKFLOWS_DIR / "hostile.yml", event="pull_request", event_payload=payload,
        env={"GITHUB_API_URL": double.base_url, "PIP_FIND_LINKS": str(wheelhouse),
             "PIP_NO_INDEX": "1",
             "AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri()},
        secrets={"GITHUB_TOKEN": WRITE_TOKEN} if published else {},
        artifacts_dir=artifacts, timeout=900,
        repository="acme/gate-hostile",
        extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}"])
    assert result.returncode == 0, result.log_tail(120)
    gate = result.job("gate")
    assert gate.succeeded, result.log_tail(120)

    leaks: list[str] = []
    # 1. Workflow commands: only the kinds we emit; no forged annotation, mask or state.
    for record in result.records:
        command = record.get("command")
        if command == "set-env" and record.get("name") in OWN_ENV \
                and record.get("stepID", [])[-1:] == ["setup"]:
            continue
        if command is not None and command not in ALLOWED_COMMANDS:
            leaks.append(f"command {command}: {str(record)[:200]}")
    # act splits a command at the *last* "::" of the line (a greedy regex); the runner splits
    # at the first one after the command name (ActionCommand.TryParseV2), and property values
    # escape ":" so that first "::" is always ours. So compare what act saw by count and level,
    # and parse our own lines the runner's way.
    ours = [] if published else [workflow.command(workflow.Annotation(
        "warning", "x", title="gate: check run not published"))]
    if not published:
        ours += [line for line in review.annotation_commands(report) if line.startswith("::")]
    seen = [note.level for note in gate.annotations if note.step_id[:1] == ("gate",)]
    shown = len(seen)
    if seen != [line[2:].split(" ", 1)[0].split("::", 1)[0] for line in ours]:
        leaks.append(f"annotations seen {seen} differ from the commands printed")
    for line in ours:
        end = line.find("::", 2)
        name = line[2:end].split(" ", 1)[0]
        data = workflow.unescape_data(line[end + 2:])
        if "\n" in line or "\r" in line or name not in ("error", "warning"):
            leaks.append(f"command line {line[:120]!r}")
        if data.lstrip().startswith(FORGED):
            leaks.append(f"forged data {data[:120]!r}")
    for note in gate.annotations:
        if note.step_id[:1] != ("gate",):
            leaks.append(f"annotation from another step {note}")
    # 2. Outputs: exactly what the report says (the report path and URL aside), the ungated
    # tests' node ids (the report's ungated section) too.
    outputs = dict(gate.outputs.get("gate", {}))
    want = {**workflow.report_outputs(report, "(path)"), "ungated": ungated.output(report)}
    for name, value in want.items():
        if name != "report" and outputs.get(name) != value:
            leaks.append(f"output {name}={outputs.get(name)!r}, report says {value!r}")
    # the action's stamp-mode outputs, and the verification summary (no gate signer): empty here
    declared = {"stamps-dir", "artifact-name", "verification-summary"}
    # ours beyond the report's, and upload-artifact's (the JSON report upload)
    beyond = {"check-run-url", "report-artifact", "artifact-id", "artifact-url", "artifact-digest"}
    extra = {k for k in set(outputs) - set(want) - beyond
             if not (k in declared and outputs[k] == "")}
    if extra:
        leaks.append(f"unexpected outputs {sorted(extra)}")
    for step, values in gate.outputs.items():
        for name, value in values.items():
            if FORGED in value or FORGED in name:
                leaks.append(f"forged output {step}.{name}")
    # 3. Tables intact, no HTML or Mermaid reaches the summary.
    for where, text in (("job summary", gate.summary),
                        *((f"check run {n}", run["output"].get("summary") or "")
                          for n, run in double.check_runs.items()),
                        *((f"check run text {n}", _without_memory(run["output"].get("text") or "",
                                                                   leaks))
                          for n, run in double.check_runs.items())):
        if _broken_tables(text):
            leaks.append(f"{where}: {_broken_tables(text)} table rows broken")
        if _html_leaks(text):
            leaks.append(f"{where}: raw HTML/Mermaid {_html_leaks(text)[:5]}")
    assert "agent-patch gate:" in gate.summary, gate.summary[:2000]
    # 4. The API double accepted every request; one check run.
    if double.invalid_requests():
        leaks.append(f"invalid requests: {double.invalid_requests()[:2]}")
    assert len(double.check_runs) == (1 if published else 0)
    if not published:
        assert shown > 10, "the workflow-command path was not exercised"

    # 5. 100 KB strings: refused (exit 2) where the schema bounds them.
    refused = 0
    for n, text in enumerate(BIG):
        for field in ("test_id", "note", "fixture_path"):
            big_dir = tmp_path / f"big-{n}-{field}"
            big_dir.mkdir()
            for server_class in ("local-pinned", "free-server"):
                stamp = fuzzlib.stamp(server_class, "pass", f"b-{server_class}")
                stamp[field] = text
                (big_dir / f"{server_class}.json").write_bytes(fuzzlib.dumps(stamp))
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()) as err:
                code = cli.main(["classify", "--stamps", str(big_dir), "--now",
                                 str(fuzzlib.NOW)])
            assert code == 2 and len(err.getvalue().splitlines()) == 1
            assert len(err.getvalue()) < 2000  # the error line is bounded too
            refused += 1

    figures.add(SECTION, "act runs")
    figures.add(SECTION, "hostile strings tried (test id, note, paths, reason)", len(HOSTILE))
    figures.add(SECTION, "100 KB strings refused with exit 2", refused)
    figures.add(SECTION, "workflow-command annotations checked", shown)
    figures.add(SECTION, "leaks", len(leaks))
    assert leaks == [], "\n".join(leaks)
