"""Issue 14 class 1: one way to open a file (gate.records.files.open_fd and its wrappers).

The mechanism test reads gate/'s source and fails on any file-opening call outside
gate/records/files.py; the behaviour tests plant links (final and on the way), FIFOs, devices
and sockets under every kind of file the gate reads or writes, and expect a clean exit 2.
"""

from __future__ import annotations

import ast
import json
import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from gate.errors import GateInputError
from gate.records import files, hashing, ledger
from tests.core_helpers import FIXTURE_HOST, FIXTURE_SCOPE, assert_bad_input, run_cli

GATE = Path(__file__).resolve().parents[1] / "gate"

#: Calls that open (or create, read, write) a file by name. Only files.py may make them.
FORBIDDEN_ATTRS = {"open", "read_text", "write_text", "read_bytes", "write_bytes", "mkstemp",
                   "NamedTemporaryFile", "TemporaryFile", "mkdir", "makedirs", "touch",
                   "rename", "symlink_to", "hardlink_to"}
FORBIDDEN_OS = {"open", "replace", "rename", "link", "mkdir", "makedirs", "unlink", "remove"}

#: The documented exceptions, (module, function) -> why it is safe.
ALLOWED: dict[tuple[str, str], str] = {
    ("gate/records/hashing.py", "_digest_path"):
        "hot path of the fixture tree walk: every entry is reached by scandir with links and "
        "special files refused per entry, opened O_NOFOLLOW|O_NONBLOCK and fstat-checked",
    ("gate/records/schemas.py", "_registry"):
        "reads the package's own schemas/ (installed with the code, not a record)",
    ("gate/records/schemas.py", "schema"):
        "reads the package's own schemas/ (installed with the code, not a record)",
    ("gate/records/schemas.py", "schema_digest"):
        "hashes the package's own schemas/ (is the pregenerated validator current?)",
    ("gate/records/schemas.py", "write_pregenerated"):
        "a developer's tool: writes the pregenerated validator into the package source",
    ("gate/testrun/init_collector.py", "pytest_collection_finish"):
        "runs inside the user's test interpreter, where the gate is not importable; writes "
        "into the private folder gate init created for it",
    ("gate/testrun/recorder.py", "read_plan"):
        "runs inside the user's pytest (gate.records is not importable there): reads the plan "
        "gate stamp --pytest wrote and validated in its private folder",
    # issue 27's seal: kernel pseudo-files and the test process, which files.py is not for
    ("gate/testrun/reaping.py", "_stat"):
        "reads /proc/PID/stat of the processes below the gate (kernel pseudo-files)",
    ("gate/testrun/reaping.py", "_kids"):
        "reads /proc/PID/task/TID/children (kernel pseudo-files)",
    ("gate/testrun/reaping.py", "_command_line"):
        "reads /proc/PID/cmdline to name a killed process (kernel pseudo-file)",
    ("gate/testrun/withheld.py", "held"):
        "reads /proc/self/environ: what another process could read of the gate",
    ("gate/testrun/isolation.py", "_read_int"):
        "reads one integer from /proc/sys (kernel.yama.ptrace_scope and friends)",
    ("gate/testrun/file_commands.py", "_see"):
        "reads the runner's file commands by descriptor (O_NOFOLLOW, O_NONBLOCK, bounded) "
        "to compare them byte for byte: never writes, and files.py has no reader that "
        "keeps the identity it compares",
    ("gate/testrun/file_commands.py", "restore"):
        "puts a runner's file command back as it was after the command (a temporary file "
        "beside it renamed over it, or what appeared in the runner's folder removed): the "
        "runner applies a failed step's file commands too, so this must overwrite, which "
        "files.py's writers never do",
    ("gate/testrun/file_commands.py", "_truncated"):
        "cuts a runner's file command that only grew back to its bytes in place, by "
        "descriptor (O_NOFOLLOW, O_NONBLOCK, fstat-checked): no new space needed",
    ("gate/testrun/isolation.py", "_parent"):
        "reads /proc/PID/stat of the gate's ancestors (kernel pseudo-files) to find the "
        "runner's folder",
    ("gate/testrun/integrity.py", "installed_code"):
        "runs inside the user's pytest (gate.records is not importable there): reads the "
        "installed pytest/Hypothesis source it compares the live objects against",
    ("gate/testrun/integrity.py", "_cached"):
        "runs inside the user's pytest: reads the installed package's bytecode cache",
}
#: Whole trees that are not the gate: the example project's own tests, shipped as data.
ALLOWED_TREES = ("gate/examples/",)


def _calls(path: Path) -> list[tuple[str, int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = func
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = child.name
            if isinstance(child, ast.Call):
                target = child.func
                if isinstance(target, ast.Name) and target.id == "open":
                    found.append((name, child.lineno, "open("))
                elif isinstance(target, ast.Attribute):
                    base = target.value
                    if isinstance(base, ast.Name) and base.id == "os":
                        if target.attr in FORBIDDEN_OS:
                            found.append((name, child.lineno, f"os.{target.attr}("))
                    elif target.attr in FORBIDDEN_ATTRS:
                        found.append((name, child.lineno, f".{target.attr}("))
            visit(child, name)

    visit(tree, "<module>")
    return found


def test_every_file_opening_call_is_in_files_py() -> None:
    offenders = []
    for path in sorted(GATE.rglob("*.py")):
        rel = path.relative_to(GATE.parent).as_posix()
        if rel == "gate/records/files.py" or rel.startswith(ALLOWED_TREES):
            continue
        for func, line, call in _calls(path):
            if (rel, func) not in ALLOWED:
                offenders.append(f"{rel}:{line} {call} in {func}")
    assert offenders == [], "open files through gate.records.files:\n" + "\n".join(offenders)


def test_the_mechanism_test_sees_a_planted_open(tmp_path: Path) -> None:
    bad = tmp_path / "x.py"
    bad.write_text("import os\ndef f(p):\n    os.open(p, 0)\n    p.write_text('x')\n"
                   "    open(p)\n    p.open('a')\n", encoding="utf-8")
    assert [c for _, _, c in _calls(bad)] == ["os.open(", ".write_text(", "open(", ".open("]


def test_allow_list_entries_still_exist() -> None:
    for (rel, func), _why in ALLOWED.items():
        assert any(f == func for f, _, _ in _calls(GATE.parent / rel)), (rel, func)


# --- the hostile layouts ----------------------------------------------------------------------


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _socket(path: Path) -> Path:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


def _regular(path: Path) -> Path:
    path.write_bytes(b"secret\n")
    return path


def layouts(tmp_path: Path) -> dict[str, Path]:
    """name -> a path the gate must refuse to read or write through."""
    real = tmp_path / "real"
    real.mkdir()
    target = _regular(real / "target.txt")
    out = {}
    link = tmp_path / "final-link"
    link.symlink_to(target)
    out["final link to a file"] = link
    dev = tmp_path / "dev-link"
    dev.symlink_to("/dev/null")
    out["link to /dev/null"] = dev
    out["/dev/null itself"] = Path("/dev/null")
    out["fifo"] = _fifo(tmp_path / "fifo")
    out["socket"] = _socket(tmp_path / "sock")
    way = tmp_path / "way"
    way.symlink_to(real)
    out["link on the way"] = way / "target.txt"
    out["dangling final link"] = tmp_path / "dangling"
    out["dangling final link"].symlink_to(tmp_path / "nowhere" / "x")
    out["a component is a file"] = target / "below"
    out["name too long"] = tmp_path / ("n" * 300)
    out["embedded NUL"] = Path(str(tmp_path / "a") + "\x00b")
    return out


READERS: dict[str, Callable[[Path], object]] = {
    "read_bytes_capped": files.read_bytes_capped,
    "read_all": files.read_all,
    "open_fd": lambda p: os.close(files.open_fd(p)),
    "file_size": files.file_size,
    "file_digest": lambda p: hashing.file_digest(str(p)),
    "read_listed_capped": lambda p: list(files.read_listed_capped([str(p)])),
}
WRITERS: dict[str, Callable[[Path], object]] = {
    "append_bytes": lambda p: files.append_bytes(p, b"evil\n"),
    "write_once": lambda p: files.write_once(p, b"evil\n"),
    "write_once scratch": lambda p: files.write_once(p, b"evil\n", durable=False),
    "write_replace": lambda p: files.write_replace(p, b"evil\n"),
    "open_fd create": lambda p: os.close(files.open_fd(p, os.O_WRONLY | os.O_CREAT)),
}


@pytest.mark.parametrize("func", [*READERS, *WRITERS])
def test_every_function_refuses_every_hostile_layout(tmp_path: Path, func: str) -> None:
    call = {**READERS, **WRITERS}[func]
    for name, path in layouts(tmp_path).items():
        if func in WRITERS and name == "dangling final link":
            pass  # writing through it would create the target: must be refused too
        with pytest.raises(GateInputError) as info:
            call(path)
        assert info.value.field == "(file)", (name, info.value)
    assert (tmp_path / "real" / "target.txt").read_bytes() == b"secret\n"
    assert not (tmp_path / "nowhere").exists()


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _outcome(call: Callable[[], object]) -> object:
    try:
        return call()
    except GateInputError as exc:
        return ("refused", exc.source, exc.field, exc.message)


def test_read_listed_capped_reads_and_refuses_as_read_bytes_capped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder-descriptor reader (pairing's) gives each file's bytes or the very refusal
    read_bytes_capped gives, after a good file of the same folder opened that folder, and
    leaves no descriptor open whether it ends or stops at a refusal."""
    monkeypatch.setenv("GATE_MAX_RECORD_BYTES", "64")
    good = _regular(tmp_path / "good.json")
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "big.json").write_bytes(b"x" * 65)
    (tmp_path / "edge.json").write_bytes(b"y" * 64)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "s.json").write_bytes(b"{}")
    hostile = layouts(tmp_path)
    names = [str(good), str(tmp_path / "empty.json"), str(tmp_path / "sub" / "s.json"),
             str(tmp_path / "edge.json"), str(tmp_path / "big.json"),
             str(tmp_path / "missing.json"), *(str(p) for p in hostile.values())]
    before = _open_fds()
    for name in names:
        want = _outcome(lambda name=name: files.read_bytes_capped(name))
        got = _outcome(lambda name=name: list(files.read_listed_capped([str(good), name])))
        if isinstance(want, bytes):
            assert got == [b"secret\n", want], name
        else:
            assert got == want, name
    every = files.read_listed_capped(names[:4])
    assert [next(every) for _ in range(4)] == [b"secret\n", b"", b"{}", b"y" * 64]
    with pytest.raises(StopIteration):
        next(every)
    assert _open_fds() == before


def test_read_listed_capped_asks_for_nothing_before_the_first_file(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATE_MAX_RECORD_BYTES", "not a number")
    assert list(files.read_listed_capped([])) == []


def test_base_keeps_a_path_inside_its_folder(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "ok.json").write_text("{}", encoding="utf-8")
    os.close(files.open_fd("ok.json", base=tmp_path / "in"))
    for escaping in ("../in/ok.json", "/etc/passwd", "a/../../x"):
        with pytest.raises(GateInputError, match="escapes its folder"):
            files.open_fd(escaping, base=tmp_path / "in")


def test_regular_files_still_work(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "f.txt"
    files.append_bytes(path, b"a")
    files.append_bytes(path, b"b")
    assert files.read_all(path) == b"ab" and files.file_size(path) == 2
    files.write_replace(path, b"c")
    assert files.read_bytes_capped(path) == b"c"
    files.write_once(tmp_path / "once", b"x")
    with pytest.raises(GateInputError, match="never overwritten"):
        files.write_once(tmp_path / "once", b"y")
    assert not [p for p in tmp_path.rglob("*.tmp")]
    assert files.lexists(path) and not files.lexists(tmp_path / "nope")


def test_only_scratch_writes_skip_fsync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record is flushed to disk, file and folder (two ``fsync``); a scratch file in a private
    temporary folder (``durable=False``: the recorder's loader and plan) is written as
    atomically and never over an existing name, without them (issue 31)."""
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    files.write_once(tmp_path / "record", b"x")
    files.write_replace(tmp_path / "report", b"x")
    assert len(synced) == 4
    files.write_once(tmp_path / "scratch", b"y", durable=False)
    assert len(synced) == 4 and files.read_bytes_capped(tmp_path / "scratch") == b"y"
    with pytest.raises(GateInputError, match="never overwritten"):
        files.write_once(tmp_path / "scratch", b"z", durable=False)
    assert files.read_bytes_capped(tmp_path / "scratch") == b"y"
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_write_once_all_syncs_each_file_and_each_folder_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stamp leg's stamps (issue 31): each file flushed before it is linked, each folder once
    after its last file (seven stamps: eight ``fsync``, not fourteen); never over an existing
    name, and the files before a refused one are written and flushed."""
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    out, other = tmp_path / "out", tmp_path / "other"
    files.write_once_all((out / f"s{n}.json", b"%d" % n) for n in range(7))
    assert len(synced) == 8
    assert [files.read_bytes_capped(out / f"s{n}.json") for n in range(7)] == [
        b"%d" % n for n in range(7)]
    synced.clear()
    files.write_once_all([(out / "a", b"a"), (other / "b", b"b"), (out / "c", b"c")])
    assert len(synced) == 5  # three files, two folders
    synced.clear()
    with pytest.raises(GateInputError, match="never overwritten"):
        files.write_once_all([(out / "d", b"d"), (out / "a", b"x"), (out / "e", b"e")])
    assert len(synced) == 2  # d, then its folder
    assert files.read_bytes_capped(out / "d") == b"d"
    assert files.read_bytes_capped(out / "a") == b"a" and not files.lexists(out / "e")
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_the_stamp_leg_syncs_its_stamps_not_its_scratch_files() -> None:
    """The two scratch writes of the recorder route say so, and nothing else in gate/ does."""
    import re

    root = Path(files.__file__).resolve().parent.parent
    found = sorted(f"{p.relative_to(root)}" for p in root.rglob("*.py")
                   if re.search(r"durable=False", p.read_text()) and p.name != "files.py")
    assert found == ["testrun/collecting.py", "testrun/recorder_route.py"]


# --- the examples, through the commands ---------------------------------------------


def _bound_ledger(tmp_path: Path) -> tuple[Path, Path]:
    book = tmp_path / "ledger.jsonl"
    result = run_cli("halt", "bind", "--ledger", book, "--run-id", "r", "--scope",
                     FIXTURE_SCOPE, "--host", FIXTURE_HOST)
    assert result.code == 0, result
    binding = tmp_path / "b.json"
    record = json.loads(result.out)
    record["host"] = "evil.example.com"
    binding.write_text(json.dumps(record), encoding="utf-8")
    return book, binding


def test_halt_report_linked_to_a_start_up_file_is_never_written(tmp_path: Path) -> None:
    book, binding = _bound_ledger(tmp_path)
    profile = _regular(tmp_path / "profile")
    book.with_name(book.name + ".halts.jsonl").symlink_to(profile)
    result = run_cli("halt", "check", "--ledger", book, "--binding", binding,
                     "--issued-gen", 1, "--attempt-id", "a1")
    assert_bad_input(result, "halts.jsonl", "symbolic link refused")
    assert profile.read_bytes() == b"secret\n"


def test_halt_report_with_a_link_on_the_way(tmp_path: Path) -> None:
    book, binding = _bound_ledger(tmp_path)
    (tmp_path / "home").mkdir()
    (tmp_path / "reports").symlink_to(tmp_path / "home")
    result = run_cli("halt", "check", "--ledger", book, "--binding", binding, "--issued-gen",
                     1, "--attempt-id", "a1", "--halt-report", tmp_path / "reports" / ".bashrc")
    assert_bad_input(result, "symbolic link on the way refused")
    assert not (tmp_path / "home" / ".bashrc").exists()


@pytest.mark.parametrize("command", [("halt", "audit"), ("halt", "repair-tail")])
def test_audit_and_repair_never_pass_or_hang_on_special_files(tmp_path: Path,
                                                              command: tuple[str, str]) -> None:
    for name, path in layouts(tmp_path).items():
        result = run_cli(*command, path)
        assert result.code == 2, (name, result)
        assert len(result.err_lines) == 1, (name, result.err)


@pytest.mark.parametrize("path_kind", ["fifo", "link to /dev/null", "final link to a file"])
def test_the_ledger_itself_is_refused(tmp_path: Path, path_kind: str) -> None:
    path = layouts(tmp_path)[path_kind]
    result = run_cli("halt", "bind", "--ledger", path, "--run-id", "r", "--scope",
                     FIXTURE_SCOPE, "--host", FIXTURE_HOST)
    assert_bad_input(result)
    with pytest.raises(GateInputError):
        ledger.audit(path)


def test_report_summary_and_outputs_are_not_written_through_links(tmp_path: Path) -> None:
    from gate.github import workflow

    target = _regular(tmp_path / "target")
    link = tmp_path / "out"
    link.symlink_to(target)
    with pytest.raises(GateInputError):
        workflow.write_outputs(link, {"decision": "open"})
    with pytest.raises(GateInputError):
        workflow.append_summary(link, "hello")
    with pytest.raises(GateInputError):
        files.write_replace(link, b"{}")
    assert target.read_bytes() == b"secret\n"
