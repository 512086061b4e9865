"""The forked-child paths (hashing many small files, loading many stamps) give exactly what
the single-process paths give, including which bad file is reported."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from gate.errors import GateInputError
from gate.records import forked, hashing, pairing
from tests.core_helpers import FREE, LOCAL, count_forks, stamp, write_json


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts forked children, so a test knows the fork path really ran."""
    return count_forks(monkeypatch)


def test_join_returns_bytes_raises_bad_input_and_survives_a_crash() -> None:
    assert forked.join(forked.start(lambda: b"abc")) == b"abc"

    def bad() -> bytes:
        raise GateInputError("stamps/x.json", "outcome", "not one of the four")

    with pytest.raises(GateInputError) as caught:
        forked.join(forked.start(bad))
    assert (caught.value.source, caught.value.field) == ("stamps/x.json", "outcome")

    def crash() -> bytes:
        raise RuntimeError("boom")

    assert forked.join(forked.start(crash)) is None


def _tree(root: Path, count: int) -> None:
    for i in range(count):
        (root / f"d{i % 3}").mkdir(exist_ok=True)
        (root / f"d{i % 3}" / f"f{i:03}.txt").write_bytes(f"content {i}\n".encode() * (i % 5))


def test_hashing_in_children_equals_one_process(tmp_path: Path, starts: list[int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path, 60)
    single = hashing.fixture_hash([tmp_path], tmp_path, {"property": "p"}, workers=1)
    monkeypatch.setattr(hashing, "_FORK_MIN_FILES", 4)
    assert hashing.fixture_hash([tmp_path], tmp_path, {"property": "p"}, workers=2) == single
    assert starts, "the fork path did not run"


def test_hashing_reports_a_special_file_a_child_met(tmp_path: Path, starts: list[int],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path, 60)
    fifo = tmp_path / "d2" / "zz-fifo"
    os.mkfifo(fifo)
    with pytest.raises(GateInputError) as single:
        hashing.fixture_hash([tmp_path], tmp_path, None, workers=1)
    monkeypatch.setattr(hashing, "_FORK_MIN_FILES", 4)
    with pytest.raises(GateInputError) as split:
        hashing.fixture_hash([tmp_path], tmp_path, None, workers=2)
    assert str(split.value) == str(single.value)
    assert "zz-fifo" in split.value.source


def _stamps(root: Path, tests: int) -> None:
    for i in range(tests):
        for cls, run in ((LOCAL, "l"), (FREE, "f")):
            value = stamp(cls, "pass", run_id=f"{run}{i:03}")
            value["test_id"] = f"t{i:03}"
            write_json(root / cls / f"{run}{i:03}.json", value)


def _decide(root: Path) -> list[dict[str, object]]:
    return [d.entry for d in pairing.decide_folder(root, (), 1_790_000_000)]


def test_loading_stamps_in_a_child_equals_one_process(tmp_path: Path, starts: list[int],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _stamps(tmp_path, 30)
    single = _decide(tmp_path)
    monkeypatch.setattr(pairing, "_FORK_MIN_FILES", 4)
    assert _decide(tmp_path) == single
    assert len(starts) == 1


@pytest.mark.parametrize("bad", [["l005"], ["f020"], ["l005", "f020"]])
def test_the_first_bad_stamp_in_path_order_is_reported(tmp_path: Path, starts: list[int],
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      bad: list[str]) -> None:
    _stamps(tmp_path, 30)
    for run in bad:
        folder = LOCAL if run.startswith("l") else FREE
        path = tmp_path / folder / f"{run}.json"
        broken = json.loads(path.read_text())
        broken["outcome"] = "ok"
        path.write_text(json.dumps(broken))
    with pytest.raises(GateInputError) as single:
        _decide(tmp_path)
    monkeypatch.setattr(pairing, "_FORK_MIN_FILES", 4)
    with pytest.raises(GateInputError) as split:
        _decide(tmp_path)
    assert str(split.value) == str(single.value)
    assert starts


def test_spare_core_reads_the_load_average(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (1.4, 0.0, 0.0))
    assert forked.spare_core()
    monkeypatch.setattr(os, "getloadavg", lambda: (1.6, 0.0, 0.0))
    assert not forked.spare_core()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not forked.spare_core()


def test_share_refuses_more_chunks_than_the_pipe_holds() -> None:
    """Every chunk number is written before anyone reads: too many would block for ever."""
    with pytest.raises(ValueError, match="at most 128"):
        forked.share(forked.MAX_SHARED_CHUNKS + 1, lambda i: None, lambda i: b"")
    assert pairing._CHUNKS * 2 <= forked.MAX_SHARED_CHUNKS  # the callers' most


def test_share_gives_each_chunk_to_one_process_and_survives_a_crash(tmp_path: Path) -> None:
    mine: list[int] = []
    theirs = forked.share(40, mine.append, lambda i: str(i * i).encode())
    assert sorted(mine + list(theirs)) == list(range(40)) and not set(mine) & set(theirs)
    assert all(data == str(i * i).encode() for i, data in theirs.items())

    def crash(index: int) -> bytes:
        raise RuntimeError("boom")

    left: list[int] = []
    assert forked.share(40, left.append, crash) == {}  # the caller does what is missing
    assert len(set(left)) == len(left)

    marker = tmp_path / "child-started"

    def bad(index: int) -> bytes:
        marker.write_bytes(b"")
        raise GateInputError("stamps/x.json", "outcome", "not one of the four")

    def wait(index: int) -> None:  # holds one chunk until the child has claimed another
        for _ in range(3000):
            if marker.exists():
                return
            time.sleep(0.01)

    with pytest.raises(GateInputError) as caught:
        forked.share(40, wait, bad)
    assert caught.value.source == "stamps/x.json"  # the child's error, raised here


def _mixed(root: Path, tests: int) -> None:
    """Tests with a red, a repeat (a rerun pair) and a missing class among the greens."""
    for i in range(tests):
        for cls, run in ((LOCAL, "l"), (FREE, "f"), (FREE, "g")):
            if (run == "g" and i % 4) or (run == "l" and i % 7 == 3):
                continue
            outcome = "assert_fail" if run == "f" and i % 5 == 0 else "pass"
            value = stamp(cls, outcome, run_id=f"{run}{i:03}")
            value["test_id"] = f"t{i:03}"
            value["written_at"] = 1_789_000_000 + i + (run == "g")
            write_json(root / cls / f"{run}{i:03}.json", value)


def _decisions(root: Path) -> list[tuple[object, ...]]:
    return [(d.test_id, d.entry, d.reruns, d.reds)
            for d in pairing.decide_folder(root, (), 1_790_000_000)]


def test_deciding_in_a_child_equals_one_process(tmp_path: Path, starts: list[int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _mixed(tmp_path, 40)
    single = _decisions(tmp_path)
    assert not starts
    monkeypatch.setattr(pairing, "_FORK_MIN_TESTS", 4)
    monkeypatch.setattr(forked, "spare_core", lambda: True)
    assert _decisions(tmp_path) == single
    assert len(starts) == 1
    monkeypatch.setattr(forked, "spare_core", lambda: False)  # a busy machine: no child
    assert _decisions(tmp_path) == single
    assert len(starts) == 1
    assert any(reruns for _, _, reruns, _ in single) and any(reds for *_, reds in single)


def test_a_failed_decide_child_changes_nothing(tmp_path: Path, starts: list[int],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal
    import types

    _mixed(tmp_path, 40)
    single = _decisions(tmp_path)

    def boom(value: object) -> bytes:
        raise ValueError("cannot send")

    monkeypatch.setattr(pairing, "_FORK_MIN_TESTS", 4)
    monkeypatch.setattr(forked, "spare_core", lambda: True)
    monkeypatch.setattr(pairing, "marshal", types.SimpleNamespace(dumps=boom,
                                                                  loads=marshal.loads))
    assert _decisions(tmp_path) == single
    assert starts
