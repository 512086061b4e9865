"""Workflow commands, step outputs and the step summary file, escaped as the runner expects."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.github import markdown, review, workflow
from gate.github.workflow import Annotation
from gate.records import report
from tests.test_summary import HOSTILE_IDS, hostile_report, make_pair, make_report
from tests.typed_report import typed

texts = st.text(st.characters(codec="utf-8"), max_size=200) | st.sampled_from(
    ["%", "%25", "%0A", "%250A", "\r\n", "::", "a,b:c", "%3A%2C", "::stop-commands::x"])


def parse_command(line: str) -> tuple[str, dict[str, str], str]:
    """The runner's v2 parser: ``::name props::data``; props split on ',' then first '='."""
    assert line.startswith("::")
    end = line.index("::", 2)
    head, data = line[2:end], line[end + 2:]
    name, _, raw_props = head.partition(" ")
    props: dict[str, str] = {}
    for item in raw_props.split(",") if raw_props else []:
        key, _, value = item.partition("=")
        props[key] = workflow.unescape_property(value)
    return name, props, workflow.unescape_data(data)


@given(texts)
def test_data_round_trips_and_is_one_line(text: str) -> None:
    escaped = workflow.escape_data(text)
    assert "\n" not in escaped and "\r" not in escaped
    assert workflow.unescape_data(escaped) == text


@given(texts)
def test_property_round_trips_without_separators(text: str) -> None:
    escaped = workflow.escape_property(text)
    assert not set("\r\n:,") & set(escaped)
    assert workflow.unescape_property(escaped) == text


@settings(max_examples=200)
@given(message=texts, title=texts, file=texts, line=st.integers(1, 10**6))
def test_command_parses_back(message: str, title: str, file: str, line: int) -> None:
    cmd = workflow.command(Annotation("error", message, file=file or None, line=line,
                                      title=title or None))
    assert "\n" not in cmd and "\r" not in cmd
    name, props, data = parse_command(cmd)
    assert name == "error"
    assert props["line"] == str(line)
    if title:
        assert "title" in props and "\n" not in props["title"]
    assert len(data) <= workflow.MESSAGE_MAX
    if len(message) < 1000 and not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", message):
        safe = markdown.visible_controls(message, keep="\r\n\t")
        assert data == safe


def test_exact_escapes() -> None:
    cmd = workflow.command(Annotation("warning", "50% done\r\nnext::x", file="a,b:c.py", line=3,
                                      title="t: 1, 2"))
    assert cmd == ("::warning file=a%2Cb%3Ac.py,line=3,title=t%3A 1%2C 2::"
                   "50%25 done%0D%0Anext::x")


def test_hostile_lines_never_start_a_command() -> None:
    lines = review.annotation_commands(typed(hostile_report()))
    ours = re.compile(r"::(error|warning) file=[^:]*,line=\d+,title=[^:]*::")
    for line in lines:
        assert "\n" not in line and "\r" not in line
        assert ours.match(line) or not line.lstrip().startswith("::"), line
        assert "::stop-commands::" not in line.split("::", 3)[0]
    for text in HOSTILE_IDS:
        logged = workflow.log_line(text)
        assert not logged.lstrip().startswith("::") and "\n" not in logged
        assert "##[" not in workflow.log_line(f"x ##[error]{text}")


def test_ten_of_each_kind_and_the_rest_counted() -> None:
    rep = make_report(rejected=25, frozen=3, accepted=4)
    lines = review.annotation_commands(typed(rep))
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert sum(line.startswith("::warning ") for line in lines) == 3
    assert lines[-1].startswith("gate: 15 errors not shown as annotations here")
    assert "the job summary has all of them" in lines[-1]
    assert len(review.annotation_commands(typed(make_report(rejected=2)))) == 2


def test_annotation_carries_the_four_lines() -> None:
    rep = make_report(pairs=[make_pair(0, location={"path": "tests/test_a.py", "line": 9})])
    (line,) = review.annotation_commands(typed(rep))
    name, props, data = parse_command(line)
    assert (name, props["file"], props["line"]) == ("error", "tests/test_a.py", "9")
    # what happened, the runs, the next step, the four lines, then the stamp gate's own line
    # (issue 22)
    assert data.split("\n")[3:] == [*report.four_lines(rep["pairs"][0]),
                                    f"stamp_gate={rep['pairs'][0]['action']}"]
    assert data.split("\n")[1].startswith("Runs: ")
    assert data.split("\n")[2].startswith("Next step: ")


@pytest.mark.parametrize(("raw", "clean"), [
    ("tests/a.py", "tests/a.py"), ("./tests/a.py", "tests/a.py"), ("/ws/src/x.py", "src/x.py"),
    ("../x.py", None), ("a/../../x", None), ("a/../b.py", None), ("/etc/passwd", None),
    ("C:\\x\\y.py", None), ("", None), ("a\nb", None), ("x" * 2000, None),
    ("src\\w.py", "src/w.py"),
])
def test_repo_path(raw: str, clean: str | None) -> None:
    assert workflow.repo_path(raw, "/ws") == clean


# -- outputs ------------------------------------------------------------------------------------


def read_outputs(path: Path) -> dict[str, str]:
    """The runner's file-command parser for the heredoc form."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out: dict[str, str] = {}
    i = 0
    while i < len(lines):
        if not lines[i]:
            i += 1
            continue
        name, _, delim = lines[i].partition("<<")
        end = lines.index(delim, i + 1)
        out[name] = "\n".join(lines[i + 1:end])
        i = end + 1
    return out


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), max_size=100))
def test_output_heredoc_round_trip(value: str) -> None:
    text = workflow.format_output("fixture-path", value)
    name, _, rest = text.partition("<<")
    delim = rest.split("\n", 1)[0]
    assert name == "fixture-path" and re.fullmatch("ghadelimiter_[0-9a-f]{32}", delim)
    assert text == f"fixture-path<<{delim}\n{value}\n{delim}\n"


def test_outputs_file(tmp_path: Path) -> None:
    path = tmp_path / "out"
    rep = make_report(rejected=1, frozen=1)
    workflow.write_outputs(path, workflow.report_outputs(typed(rep), "r.json"))
    workflow.write_outputs(path, {"multi": "a\nb\nc"})
    got = read_outputs(path)
    assert got == {"decision": "closed", "report": "r.json", "failure-class": "property_miss",
                   "freeze-allowed": "false", "fixture-sha256": "ab" * 32,
                   "fixture-path": f"fixtures/{'ab' * 32}.json", "multi": "a\nb\nc"}


def test_output_refused_when_the_delimiter_occurs(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="delimiter"):
        workflow.format_output("x", "a\nEOF\nb", delimiter="EOF")
    with pytest.raises(ValueError, match="name"):
        workflow.format_output("bad name\n", "v")
    with pytest.raises(ValueError, match="control"):
        workflow.format_output("x", "a\rb")
    path = tmp_path / "out"
    with pytest.raises(ValueError):
        workflow.write_outputs(path, {"ok": "1", "bad name": "2"})
    assert not path.exists()  # all or nothing


# -- step summary -------------------------------------------------------------------------------


def test_step_summary_limit(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    assert workflow.append_summary(path, "# one")
    assert path.read_text() == "# one\n"
    path.write_bytes(b"x" * (workflow.STEP_SUMMARY_LIMIT - 5))
    assert workflow.summary_room(path) == 5
    assert not workflow.append_summary(path, "é" * 3)  # 7 bytes with the newline
    assert path.stat().st_size == workflow.STEP_SUMMARY_LIMIT - 5
    assert workflow.append_summary(path, "abcd")
    assert path.stat().st_size == workflow.STEP_SUMMARY_LIMIT
