"""GitHub Actions workflow commands, step outputs and the job summary file.

Workflow commands (``::error file=F,line=L,title=T::message``) are escaped exactly the way the
runner unescapes them (actions/runner ``ActionCommand``): in the data ``%`` -> ``%25``, CR ->
``%0D``, LF -> ``%0A``; in property values also ``:`` -> ``%3A`` and ``,`` -> ``%2C``. So a
command is always one line and untrusted text can never start a line of its own: no
``::stop-commands::``, no ``::add-mask::``, no second command. Plain log lines built from untrusted
text go through :func:`log_line`, which also defuses a leading ``::`` and the old ``##[`` form.

The runner shows at most 10 annotations of each kind per step;
:func:`gate.github.review.annotation_commands` emits the first 10 of each kind and says how many
it left out (they are in the check run).

Step outputs use the heredoc form with a random delimiter that is checked not to occur in the
value. The job summary is appended within GitHub's 1 MiB per-step limit.

Everything here is pure except :func:`write_outputs` and :func:`append_summary`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gate.decide.frozen import FrozenValue
from gate.github import markdown

if TYPE_CHECKING:  # annotations only: a stamp leg prints through log_line without a report
    from gate.records.report_data import Location, Pair, Report

Level = Literal["error", "warning", "notice"]
LEVELS: tuple[Level, ...] = ("error", "warning", "notice")
MAX_PER_KIND = 10
STEP_SUMMARY_LIMIT = 1024 * 1024  # bytes per step ("supports content up to a size of 1024k")
TITLE_MAX = 255
MESSAGE_MAX = 4096  # characters of workflow-command data (the check run carries the rest)
FALLBACK_PATH = ".github/gate-policy.yml"


# --- escaping (the runner's rules) ------------------------------------------------------------


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def unescape_data(text: str) -> str:
    """The runner's ``UnescapeData`` (same replacement order), for tests."""
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(text: str) -> str:
    """The runner's ``UnescapeProperty`` (same replacement order), for tests."""
    return (text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":")
            .replace("%2C", ",").replace("%25", "%"))


def log_line(text: str) -> str:
    """A plain log line from untrusted text: one line, never a workflow command."""
    flat = markdown.one_line(text).replace("##[", "##%5B")
    # the runner trims leading white space before looking for "::", so prefix something visible
    return "» " + flat if flat.lstrip().startswith("::") else flat


# --- annotations --------------------------------------------------------------------------------


class Annotation(FrozenValue):
    __slots__ = ("level", "message", "file", "line", "title")  # noqa: RUF023 - field order
    level: Level
    message: str
    file: str | None
    line: int | None
    title: str | None

    def __init__(self, level: Level, message: str, file: str | None = None,
                 line: int | None = None, title: str | None = None) -> None:
        self._set(level=level, message=message, file=file, line=line, title=title)


def command(note: Annotation) -> str:
    """One ``::level props::data`` line; untrusted text is escaped and bounded."""
    props: list[str] = []
    if note.file:
        props.append(f"file={escape_property(markdown.visible_controls(note.file))}")
    if note.line is not None and note.line >= 1:
        props.append(f"line={int(note.line)}")
    if note.title:
        title = markdown.truncate(markdown.one_line(note.title), TITLE_MAX)
        props.append(f"title={escape_property(title)}")
    data = markdown.truncate(markdown.visible_controls(note.message, keep="\r\n\t"), MESSAGE_MAX)
    head = f"::{note.level}" + (" " + ",".join(props) if props else "")
    return f"{head}::{escape_data(data)}"


def commands_for(
    notes: Iterable[Annotation], per_kind: int = MAX_PER_KIND
) -> tuple[list[str], dict[str, int]]:
    """Command lines for at most ``per_kind`` annotations of each level, and the left-out counts."""
    lines: list[str] = []
    shown = dict.fromkeys(LEVELS, 0)
    left_out = dict.fromkeys(LEVELS, 0)
    for note in notes:
        if shown[note.level] < per_kind:
            shown[note.level] += 1
            lines.append(command(note))
        else:
            left_out[note.level] += 1
    return lines, {k: v for k, v in left_out.items() if v}


def left_out_line(left_out: Mapping[str, int], where: str = "the check run") -> str | None:
    if not left_out:
        return None
    parts = ", ".join(f"{n} {level}{'s' if n != 1 else ''}" for level, n in left_out.items())
    return (f"gate: {parts} not shown as annotations here (GitHub shows at most "
            f"{MAX_PER_KIND} of each kind per step); {where} has all of them")


# --- where an annotation points -------------------------------------------------------------------

_PLAIN_PATH = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./@+-]*")


def repo_path(raw: object, workspace: str | None = None) -> str | None:
    """A clean repository-relative path, or None (absolute outside the workspace, ``..``, odd)."""
    if not isinstance(raw, str) or not raw or len(raw) > 1024:
        return None
    path = raw.replace("\\", "/")
    if workspace:
        root = workspace.replace("\\", "/").rstrip("/") + "/"
        if path.startswith(root):
            path = path[len(root):]
    if path.startswith("/") or re.match(r"[A-Za-z]:/", path):
        return None
    if markdown.visible_controls(path) != path:
        return None
    norm = posixpath.normpath(path)
    if norm in {".", ""} or norm.startswith("../") or norm == ".." or "/../" in f"/{norm}/":
        return None
    if any(part == ".." for part in path.split("/")):
        return None  # refuse rather than resolve: a ``..`` path is not what the test wrote
    return norm


def pair_location(
    pair: Pair, workspace: str | None = None, fallback: str = FALLBACK_PATH
) -> tuple[str, int]:
    """Where a red pair is annotated (:func:`test_location`)."""
    return test_location(pair.test_id, pair.location, workspace, fallback)


def test_location(test_id: str, loc: Location | None, workspace: str | None = None,
                  fallback: str = FALLBACK_PATH) -> tuple[str, int]:
    """Where a test is: its ``location``; else the test file named by a ``path::name`` test
    id; else ``fallback`` (the reviewed policy file) line 1."""
    if loc is not None:
        path = repo_path(loc.path, workspace)
        line = loc.line
        if path:
            return path, line if isinstance(line, int) and line >= 1 else 1
    if "::" in test_id:
        head = test_id.split("::", 1)[0]
        path = repo_path(head, workspace)
        if path and _PLAIN_PATH.fullmatch(path) and "." in posixpath.basename(path):
            return path, 1
    return fallback, 1


# --- step outputs ------------------------------------------------------------------------------

_OUTPUT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def format_output(name: str, value: str, delimiter: str | None = None) -> str:
    """``name<<DELIM``, the value, ``DELIM``; ValueError for an odd name or DELIM in the value."""
    if not _OUTPUT_NAME.fullmatch(name):
        raise ValueError(f"not a safe output name: {name!r}")
    if markdown.visible_controls(value.replace("\n", "")) != value.replace("\n", ""):
        raise ValueError(f"output {name}: the value holds control characters")
    import secrets  # here only: a stamp run prints no output block

    for _ in range(5):
        delim = delimiter or f"ghadelimiter_{secrets.token_hex(16)}"
        if delim not in value and delim not in name:
            return f"{name}<<{delim}\n{value}\n{delim}\n"
        if delimiter:
            break
    raise ValueError(f"output {name}: the delimiter occurs in the value; not written")


def write_outputs(path: Path, outputs: Mapping[str, str]) -> None:
    """Append every output to ``$GITHUB_OUTPUT`` (all formatted first: all or nothing)."""
    from gate.records.files import append_bytes

    text = "".join(format_output(name, value) for name, value in outputs.items())
    append_bytes(path, text.encode("utf-8"), make_parents=False)


#: The four pair outputs when no pair is red (every pair green, or no pair at all): nothing to
#: describe, so nothing a workflow branching on them could mistake for a failure.
NOTHING_RED = {"failure-class": "none", "freeze-allowed": "false", "fixture-sha256": "none",
               "fixture-path": "none"}


def report_outputs(report: Report, report_path: str) -> dict[str, str]:
    """The action's outputs from a report: those of the first red pair (the first rejected,
    else the first frozen; :data:`NOTHING_RED` when no pair is red), ``decision`` and
    ``report``. Always all six."""
    pairs = report.pairs
    deciding = next((p for p in pairs if p.status == "rejected"), None) or next(
        (p for p in pairs if p.status == "frozen"), None)
    out = {"decision": report.decision, "report": report_path}
    if deciding is None:
        out.update(NOTHING_RED)
    else:
        out.update({
            "failure-class": deciding.failure_class,
            "freeze-allowed": "true" if deciding.freeze_allowed else "false",
            "fixture-sha256": deciding.fixture_sha256 or "none",
            "fixture-path": markdown.one_line(deciding.fixture_path or "none"),
        })
    return out


# --- job summary -------------------------------------------------------------------------------


def summary_room(path: Path, limit: int = STEP_SUMMARY_LIMIT) -> int:
    """Bytes still free in this step's summary file."""
    from gate.records.files import file_size

    return max(0, limit - file_size(path))


def append_summary(path: Path, text: str, limit: int = STEP_SUMMARY_LIMIT) -> bool:
    """Append ``text`` if the file stays within ``limit`` bytes; False (nothing written) if not."""
    data = text if text.endswith("\n") else text + "\n"
    if markdown.utf8_len(data) > summary_room(path, limit):
        return False
    from gate.records.files import append_bytes

    append_bytes(path, data.encode("utf-8", "replace"), make_parents=False)
    return True


append_outputs = write_outputs
append_step_summary = append_summary
