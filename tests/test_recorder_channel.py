"""The recorder's results travel over a channel the gate opened (issue 20.3): every attack a
test process can make on it, each a real ``gate stamp --pytest`` around a real pytest.

A plugin or test the patch adds runs inside the very pytest process that reports; it can lie,
but never quietly: a rewritten, forged, cut or garbled stream, or one that disagrees with the
process's exit status, is ``resource_exit`` naming what disagreed, never a pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.testrun.channel import RECORD_LIMIT, ResultsChannel, disagreement
from tests.property_suite.harness import read_stamps
from tests.test_hypothesis_card import FINDS, workspace
from tests.test_recorder import pytest_argv, select, stamp

#: one green and one red gated test (fixed_band's seed finds its counterexample)
SEEDS = {"draws": 1, "fixed_band": FINDS}


def _with_plugin(root: Path, source: str) -> None:
    """A pytest plugin the patch adds, loaded from pytest.ini (not a fixture of any property)."""
    workspace(root, SEEDS)
    (root / "forge.py").write_text(source)
    ini = (root / "pytest.ini").read_text()
    (root / "pytest.ini").write_text(ini.replace("addopts = ", "addopts = -p forge "))


def _outcomes(root: Path, *extra: str, isolation: str = "auto") -> dict[str, tuple[str, str]]:
    done = stamp(root, "out", *pytest_argv(*select("draws", "fixed_band"), *extra),
                 environment=None, extra=("--isolation", isolation))
    assert done.returncode == 0, done.stdout + done.stderr
    return {t: (s["outcome"], s.get("note", "")) for t, s in read_stamps(root / "out").items()}


FORGE_REWRITE = '''
import json, os

import pytest


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    path = os.environ.get("GATE_RECORDER_RESULTS")
    if path and os.path.exists(path):  # the old route: rewrite the results file
        with open(path) as handle:
            record = json.load(handle)
        for case in record["cases"]:
            case.update(kinds=[], failure=None, crash=None, raised=[])
        record["exit_status"] = 0
        with open(path, "w") as handle:
            json.dump(record, handle)
    os._exit(0)
'''


def test_a_plugin_that_rewrites_the_results_and_exits_0_is_never_a_pass(tmp_path: Path) -> None:
    """The issue's attack: pytest printed ``1 failed``, the stamps said ``pass``."""
    _with_plugin(tmp_path, FORGE_REWRITE)
    got = _outcomes(tmp_path)
    assert {t: o for t, (o, _) in got.items()} == {
        "draws": "resource_exit", "fixed_band": "resource_exit"}, got
    assert all("exit status 0" in note and "red" in note for _, note in got.values()), got


#: Every forger below also tries the old route's attack (rewrite the results file, exit 0), so
#: each test fails on the code before the channel: there the forged green was believed.
OLD_ROUTE = '''
import json, os, socket, subprocess, sys

import pytest

FD = os.environ.get("GATE_RECORDER_CHANNEL")  # read at import, before the recorder drops it
GREEN = {"classname": "hypo_props", "name": "test_fixed_band", "kinds": [], "crash": None,
         "hypothesis": None, "failure": None, "raised": [], "tampered": None}


def send(record):
    os.write(int(FD), (json.dumps(record) + "\\n").encode())


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    path = os.environ.get("GATE_RECORDER_RESULTS")
    if path and os.path.exists(path):
        with open(path) as handle:
            record = json.load(handle)
        for case in record["cases"]:
            case.update(kinds=[], failure=None, crash=None, raised=[])
        record["exit_status"] = 0
        with open(path, "w") as handle:
            json.dump(record, handle)
        os._exit(0)
'''


def _never_pass(root: Path, hook: str, *needles: str) -> dict[str, tuple[str, str]]:
    _with_plugin(root, OLD_ROUTE + hook)
    got = _outcomes(root)
    assert "pass" not in {o for t, (o, _) in got.items() if t == "fixed_band"}, got
    for needle in needles:
        assert any(needle in note for _, note in got.values()), (needle, got)
    return got


def test_a_forged_green_record_from_the_same_process_is_caught(tmp_path: Path) -> None:
    """A plugin writes a second ``finished`` for the red test: a test that finished twice."""
    got = _never_pass(tmp_path, '''
def pytest_runtest_logfinish(nodeid):
    if FD and nodeid.endswith("test_fixed_band"):
        send({"record": "finished", "nodeid": nodeid, "cases": [GREEN]})
''', "finished twice")
    assert {o for o, _ in got.values()} == {"resource_exit"}


def test_a_forged_green_test_beside_the_red_one_leaves_it_ambiguous(tmp_path: Path) -> None:
    """A whole forged test (started, finished green, under the red test's name): the red one is
    still there, so its selector matches two testcases."""
    got = _never_pass(tmp_path, '''
def pytest_runtest_logfinish(nodeid):
    if FD and nodeid.endswith("test_fixed_band"):
        send({"record": "started", "nodeid": "forged"})
        send({"record": "finished", "nodeid": "forged", "cases": [GREEN]})
''', "ambiguous")
    assert got["fixed_band"][0] == "resource_exit"


def test_a_record_written_by_another_process_is_a_second_writer(tmp_path: Path) -> None:
    """A test's child process handed the descriptor: the kernel names it, not the session."""
    _never_pass(tmp_path, '''
def pytest_runtest_logfinish(nodeid):
    if FD and nodeid.endswith("test_fixed_band"):
        code = ("import json, os; os.write(%s, (json.dumps({'record': 'started', "
                "'nodeid': 'forged'}) + '\\\\n').encode())" % FD)
        subprocess.run([sys.executable, "-c", code], pass_fds=(int(FD),), check=True)
''', "a second writer", "was written by process")


def test_a_plugin_that_closes_the_channel_early_is_a_resource_exit(tmp_path: Path) -> None:
    got = _never_pass(tmp_path, '''
def pytest_collection_finish(session):
    if FD:
        os.close(int(FD))
''')
    assert {o for o, _ in got.values()} == {"resource_exit"}, got


def test_garbage_bytes_on_the_channel_are_a_resource_exit(tmp_path: Path) -> None:
    got = _never_pass(tmp_path, '''
def pytest_collection_finish(session):
    if FD:
        os.write(int(FD), b"\\\\x00\\\\xffnot json\\\\n")
''', "is not one line of JSON")
    assert {o for o, _ in got.values()} == {"resource_exit"}, got


def test_an_over_long_record_is_a_resource_exit(tmp_path: Path) -> None:
    got = _never_pass(tmp_path, f'''
def pytest_collection_finish(session):
    if FD:
        os.write(int(FD), b'{{"record": "started", "nodeid": "' + b"x" * {RECORD_LIMIT})
''', f"longer than {RECORD_LIMIT} bytes")
    assert {o for o, _ in got.values()} == {"resource_exit"}, got


def test_a_record_after_the_sessions_end_is_a_resource_exit(tmp_path: Path) -> None:
    got = _never_pass(tmp_path, '''
@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if FD:
        send({"record": "started", "nodeid": "late"})
''', "came after the session's end record")
    assert {o for o, _ in got.values()} == {"resource_exit"}, got


def test_a_test_that_started_and_never_reported_is_a_resource_exit(tmp_path: Path) -> None:
    """A plugin that announces the red test and then never runs it."""
    got = _never_pass(tmp_path, '''
@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    if FD and item.name == "test_fixed_band":
        item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
        return True
''', "started and never reported")
    assert {o for o, _ in got.values()} == {"resource_exit"}, got


def test_exit_1_with_every_testcase_green_is_a_resource_exit_naming_it(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    (tmp_path / "forge.py").write_text(
        "import os\nimport pytest\n\n@pytest.hookimpl(trylast=True)\n"
        "def pytest_unconfigure(config):\n    os._exit(1)\n")
    ini = (tmp_path / "pytest.ini").read_text()
    (tmp_path / "pytest.ini").write_text(ini.replace("addopts = ", "addopts = -p forge "))
    done = stamp(tmp_path, "out", *pytest_argv(*select("draws")))
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["outcome"] == "resource_exit"
    assert got["note"] == ("the command's exit status 1 disagrees with the recorder's channel, "
                           "which reported every testcase green")


def test_an_exit_status_other_than_the_sessions_is_a_resource_exit(tmp_path: Path) -> None:
    workspace(tmp_path, {"draws": 1})
    done = stamp(tmp_path, "out", "bash", "-c", " ".join(pytest_argv(*select("draws")))
                 + "; exit 3")
    assert done.returncode == 0, done.stdout + done.stderr
    (got,) = read_stamps(tmp_path / "out").values()
    assert got["outcome"] == "resource_exit"
    assert "exit status 3 disagrees with the recorder's channel, whose pytest session ended " \
        "with exit status 0" in got["note"]


# --- what the test process can reach ------------------------------------------------------------

PROBE = '''
import json, os, stat


def pytest_collection_finish(session):
    parent = os.getppid()
    reached, sockets = [], 0
    for name in os.listdir(f"/proc/{parent}/fd"):
        link = f"/proc/{parent}/fd/{name}"
        try:
            target = os.readlink(link)
        except OSError:
            continue
        sockets += target.startswith("socket:")
        try:
            fd = os.open(link, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        os.close(fd)
        reached.append(target)
    own = []
    for name in os.listdir("/proc/self/fd"):
        try:
            if stat.S_ISSOCK(os.fstat(int(name)).st_mode):
                own.append(int(name))
        except OSError:  # the listing's own descriptor, closed by now
            continue
    with open("probe.json", "w") as out:
        json.dump({"reached": reached, "parent_sockets": sockets,
                   "env": sorted(k for k in os.environ if k.startswith("GATE_RECORDER_")),
                   "inheritable": [os.get_inheritable(fd) for fd in own]}, out)
'''


def test_the_test_process_reaches_no_results_path_and_not_the_gates_end(tmp_path: Path) -> None:
    _with_plugin(tmp_path, PROBE)
    _outcomes(tmp_path, isolation="none")  # the gate is the test process's parent
    probe = json.loads((tmp_path / "probe.json").read_text())
    assert probe["parent_sockets"] == 1  # the gate's end of the channel: there, unreachable
    assert not [t for t in probe["reached"] if t.startswith("socket:")], probe
    assert probe["env"] == ["GATE_RECORDER_PLAN"]  # the channel's number gone, no results path
    assert probe["inheritable"] == [False], probe  # the channel is never handed on


# --- the stream, record by record (the gate's reader, without a run) ----------------------------

PID = 4242
BEGIN = {"record": "begin", "schema": "gate-recorder-results/v1", "pid": PID,
         "gate_version": "0", "pytest_version": "8", "hypothesis_version": "6"}
RED = {"classname": "m", "name": "test_red", "kinds": ["failure"], "crash": None,
       "hypothesis": None, "failure": None, "raised": [], "tampered": None}
GREEN = {**RED, "name": "test_green", "kinds": []}
COLLECTED: dict[str, object] = {"selected": None, "deselected": [], "ungated": [], "failed": []}


def end(exit_status: int = 1, cases: list[object] | None = None) -> dict[str, object]:
    return {"record": "end", "exit_status": exit_status, "refused": [], "refused_tests": 0,
            "cases": cases or [], "tampered": [], "collected": COLLECTED}


def test_one(nodeid: str, *cases: object) -> list[dict[str, object]]:
    return [{"record": "started", "nodeid": nodeid},
            {"record": "finished", "nodeid": nodeid, "cases": list(cases)}]


test_one.__test__ = False  # type: ignore[attr-defined]


def line(record: object) -> bytes:
    return json.dumps(record).encode() + b"\n"


def fed(*chunks: bytes | tuple[bytes, int]) -> ResultsChannel:
    """A channel fed ``chunks`` (bytes from the session's process, or (bytes, pid))."""
    channel = ResultsChannel()
    try:
        for chunk in chunks:
            data, pid = chunk if isinstance(chunk, tuple) else (chunk, PID)
            channel.feed(data, pid)
        channel.after_run()
    finally:
        channel.close()
    return channel


WHOLE = [BEGIN, *test_one("m::test_red", RED), *test_one("m::test_green", GREEN), end(1)]


def test_a_whole_stream_assembles_the_results_in_order() -> None:
    channel = fed(*(line(r) for r in WHOLE))
    assert channel.problem is None and channel.sessions == 1
    results = channel.results()
    assert results is not None and results["cases"] == [RED, GREEN]
    assert disagreement(results, 1) is None


def test_records_split_and_glued_across_reads_are_the_same_stream() -> None:
    data = b"".join(line(r) for r in WHOLE)
    channel = fed(*(data[i:i + 7] for i in range(0, len(data), 7)))
    assert channel.problem is None and channel.results() is not None


def test_no_end_record_is_no_results() -> None:
    channel = fed(*(line(r) for r in WHOLE[:-1]))
    assert channel.problem is None and channel.results() is None


@pytest.mark.parametrize(("chunks", "problem"), [
    ([b"\x00\xff\n"], "record 1 is not one line of JSON"),
    ([b'{"record": "started", "nodeid": "a", "nodeid": "b"}\n'],
     "record 1 is not one line of JSON (not valid JSON: duplicate key 'nodeid')"),
    ([line({"record": "started", "nodeid": 1})], "record 1 breaks schemas/recorder-record"),
    ([line(BEGIN), line({**end(), "extra": 1})], "record 2 breaks schemas/recorder-record"),
    ([line(test_one("a")[0])], "record 1 (started) came before the session's begin record"),
    ([line(BEGIN), line(end()), line(test_one("a")[0])],
     "record 3 (started) came after the session's end record"),
    ([line(BEGIN), line(BEGIN)], "a second writer: record 2 is a second begin record"),
    ([line(BEGIN), (line(test_one("a")[0]), 7)],
     "a second writer: record 2 (started) was written by process 7, not the session's 4242"),
    ([(line(BEGIN), 7)], "record 1 (begin) names process 4242 but process 7 wrote it"),
    ([line(BEGIN), line(test_one("a")[0])[:5], (line(test_one("a")[0])[5:], 7)],
     "record 2 was written by 2 processes (7, 4242)"),
    ([line(BEGIN), *map(line, test_one("a")), line(test_one("a")[0])], "test a started twice"),
    ([line(BEGIN), *map(line, test_one("a")), line(test_one("a")[1])], "test a finished twice"),
    ([line(BEGIN), line(test_one("a")[1])], "test a finished without starting"),
    ([line(BEGIN), line(test_one("a")[0]), line(end())], "test a started and never reported"),
    ([line(BEGIN), b'{"record": "end"'], "record 2 was cut off (no end of line)"),
    ([line(BEGIN), b"x" * (RECORD_LIMIT + 1)], f"record 2 is longer than {RECORD_LIMIT} bytes"),
])
def test_each_break_in_the_stream_poisons_it_naming_what(
        chunks: list[bytes | tuple[bytes, int]], problem: str) -> None:
    channel = fed(*chunks)
    assert channel.problem is not None and problem in channel.problem, channel.problem
    assert channel.problem.startswith("the recorder's channel: ")


def test_a_poisoned_stream_drains_without_reading_on() -> None:
    channel = fed(b"junk\n", *(line(r) for r in WHOLE))
    assert channel.problem is not None
    assert channel.problem.startswith("the recorder's channel: record 1 is not one line of JSON")
    assert channel.sessions == 0  # nothing after the poison was believed


def test_a_begin_after_a_sessions_end_is_a_second_session() -> None:
    channel = fed(*(line(r) for r in WHOLE), (line({**BEGIN, "pid": PID + 1}), PID + 1))
    assert channel.sessions == 2


@pytest.mark.parametrize(("exit_code", "stream_exit", "cases", "said"), [
    (0, 1, [RED], "exit status 0 disagrees with the recorder's channel, which reported a red "
                  "testcase (m::test_red)"),
    (1, 1, [GREEN], "exit status 1 disagrees with the recorder's channel, which reported every "
                    "testcase green"),
    (3, 0, [GREEN], "exit status 3 disagrees with the recorder's channel, whose pytest session "
                    "ended with exit status 0"),
    (0, 0, [GREEN], None),
    (1, 1, [GREEN, RED], None),
    (None, 1, [RED], None),  # killed or timed out: decided as before
])
def test_the_exit_status_is_checked_against_the_stream(
        exit_code: int | None, stream_exit: int, cases: list[object], said: str | None) -> None:
    channel = fed(line(BEGIN), line(end(stream_exit, cases)))
    results = channel.results()
    assert results is not None
    got = disagreement(results, exit_code)
    assert (got is None) if said is None else (got is not None and said in got), got
