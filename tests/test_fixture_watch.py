"""The fixture hashes taken while the command runs (gate/records/fixture_watch.py, issue 23):
the same value as ``gate hash``, and the "changed during the run" check kept, including for the
files the post-run check does not hash again (their status did not move)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.commands.main import main
from gate.errors import GateInputError
from gate.records import fixture_watch, hashing
from gate.records.fixture_watch import FixtureWatch
from gate.testrun.stamping import CHANGED_DURING_RUN

CARD = {"property": "p01", "cases": 10, "seed": 1}


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """No file counts as just changed (as a checkout minutes old): the post-run check hashes
    again only what its status says moved."""
    monkeypatch.setattr(fixture_watch, "RACY_NS", -(10**18))


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "p01.json").write_text(json.dumps(CARD))
    data = tmp_path / "fixtures" / "p01"
    (data / "deep").mkdir(parents=True)
    (data / "data.txt").write_text("abcdef\n")
    (data / "deep" / "more.txt").write_text("xyz\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def stamp(ws: Path, code: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``gate stamp`` (in this process) of one property whose command runs ``code``."""
    code = "import os, time; time.sleep(0.05)\n" + code  # a clock tick after the listing
    status = main(["stamp", "--server-class", "local-pinned", "--card", "cards/p01.json",
                   "--test-id", "p01", "--fixtures", "fixtures/p01", "--out", "out",
                   "--run-id", "r1", "--", sys.executable, "-c", code])
    out = capsys.readouterr()
    assert status == 0, out.err
    loaded: dict[str, Any] = json.loads((ws / "out" / "r1.json").read_text())
    return loaded


def hashed(ws: Path) -> str:
    return hashing.fixture_hash(["fixtures/p01"], ws, CARD)


def test_an_untouched_run_is_stamped_with_the_hash_gate_hash_gives(
        ws: Path, settled: None, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashed(ws)
    got = stamp(ws, "print('ok')", capsys)
    assert got["outcome"] == "pass" and "note" not in got
    assert got["fixture_hash"] == before


# Each of these changes a fixture while the command runs. With every file settled (not racy),
# only the post-run check's status comparison and re-hash can see it: skipping that check, or
# comparing only sizes or only mtimes, passes the stamp.
CHANGES = {
    "appended": "open('fixtures/p01/data.txt', 'a').write('moved')",
    "same size, mtime put back": (
        "p = 'fixtures/p01/data.txt'; st = os.stat(p)\n"
        "open(p, 'w').write('ABCDEF\\n'); os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))"),
    "a file added in a subfolder": "open('fixtures/p01/deep/new.txt', 'w').write('n')",
    "a file removed": "os.remove('fixtures/p01/deep/more.txt')",
    "a file replaced by a renamed copy with other bytes": (
        "open('t', 'w').write('abcdeX\\n'); os.replace('t', 'fixtures/p01/data.txt')"),
    "the card": "open('cards/p01.json', 'w').write('{\"property\": \"p01\", \"cases\": 11, "
                "\"seed\": 1}')",
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_fixture_changed_during_the_run_is_resource_exit(
        ws: Path, settled: None, capsys: pytest.CaptureFixture[str], change: str) -> None:
    before = hashed(ws)
    got = stamp(ws, CHANGES[change], capsys)
    assert got["outcome"] == "resource_exit"
    assert got["note"] == CHANGED_DURING_RUN
    assert got["fixture_hash"] == before  # the bytes read before the run, as before


def test_a_touched_but_unchanged_fixture_is_not_a_change(
        ws: Path, settled: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The check's meaning is the bytes: a new mtime alone is hashed again, and passes."""
    before = hashed(ws)
    got = stamp(ws, "os.utime('fixtures/p01/data.txt')\n"
                    "open('fixtures/p01/deep/more.txt', 'w').write('xyz\\n'); print('ok')", capsys)
    assert got["outcome"] == "pass" and got["fixture_hash"] == before


def test_racy_files_are_hashed_before_the_run_and_again_after(ws: Path) -> None:
    """Files just written (every file here) are hashed at start(), before the command; a change
    made right after cannot hide behind a timestamp that did not move."""
    before = hashed(ws)
    watch = FixtureWatch(ws)
    index = watch.add(["fixtures/p01"])
    watch.start()
    assert watch._thread is None  # nothing left for the thread: all hashed already
    data = ws / "fixtures" / "p01" / "data.txt"
    info = data.stat()
    data.write_text("ABCDEF\n")  # same size, the same tick perhaps
    os.utime(data, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert watch.digest(index, CARD) == before
    assert watch.changed(index)


def test_settled_files_are_hashed_by_a_thread(ws: Path, settled: None) -> None:
    watch = FixtureWatch(ws)
    index = watch.add(["fixtures/p01"])
    watch.start()
    assert watch._thread is not None
    assert watch.digest(index, CARD) == hashed(ws)
    assert not watch.changed(index)


def test_a_file_written_and_restored_before_the_thread_read_it_is_a_change(
        ws: Path, settled: None) -> None:
    """The stricter case: the bytes before the run are not known, so not claimed."""
    watch = FixtureWatch(ws)
    index = watch.add(["fixtures/p01"])
    data = ws / "fixtures" / "p01" / "data.txt"
    time.sleep(0.05)
    data.write_text("other!\n")
    data.write_text("abcdef\n")
    watch.start()
    watch.finish()
    assert watch.changed(index)


def test_bad_fixture_sets_are_refused_before_anything_is_hashed(ws: Path) -> None:
    os.symlink("data.txt", ws / "fixtures" / "p01" / "link")
    with pytest.raises(GateInputError, match="symbolic link"):
        FixtureWatch(ws).add(["fixtures/p01"])
    with pytest.raises(GateInputError, match="no such file"):
        FixtureWatch(ws).add(["fixtures/nothing"])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_unchanged_file_is_bad_input_after_the_run(
        ws: Path, settled: None) -> None:
    data = ws / "fixtures" / "p01" / "data.txt"
    data.chmod(0)
    watch = FixtureWatch(ws)
    index = watch.add(["fixtures/p01"])
    watch.start()
    assert not watch.changed(index)
    with pytest.raises(GateInputError, match="cannot open"):
        watch.digest(index, CARD)


@settings(max_examples=40, deadline=None)
@given(files=st.dictionaries(st.sampled_from(["a", "b", "c/d", "c/e", "f/g/h", "z"]),
                             st.binary(max_size=300), min_size=1),
       sets=st.lists(st.lists(st.sampled_from(["a", "b", "c", "c/d", "f", "f/g", "z", "."]),
                              min_size=1, max_size=3), min_size=1, max_size=4),
       background=st.booleans(), racy=st.booleans())
def test_every_set_hashes_as_fixture_hash_does(tmp_path_factory: pytest.TempPathFactory,
                                               files: dict[str, bytes],
                                               sets: list[list[str]], background: bool,
                                               racy: bool) -> None:
    """Shared files hashed once, in a thread or not, racy or settled: each set's digest is
    ``fixture_hash``'s, with a card or without, and an untouched set has not changed."""
    root = tmp_path_factory.mktemp("tree")
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    usable = [[str(root / p) for p in given_paths if (root / p).exists()] for given_paths in sets]
    usable = [u for u in usable if u]
    if not usable:
        return
    old = fixture_watch.RACY_NS
    fixture_watch.RACY_NS = old if racy else -(10**18)
    try:
        watch = FixtureWatch(root)
        indexes = [watch.add(u) for u in usable]
        watch.start(background)
        for index, paths in zip(indexes, usable, strict=True):
            for card in (None, CARD):
                assert watch.digest(index, card) == hashing.fixture_hash(paths, root, card)
            assert not watch.changed(index)
    finally:
        fixture_watch.RACY_NS = old


def test_a_folder_swapped_in_for_the_read_and_back_before_the_check_is_a_change(
        ws: Path, settled: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test process renames a fixture's folder away and puts another with other bytes in
    its place before the thread opens the file, and renames it back once the thread has read
    (renaming a folder moves no status of the files in it). The thread read a file that was
    never the listed one: the path's ``lstat`` after the read names the listed file again, the
    descriptor's ``fstat`` does not. Neither the bytes before nor after the run may be claimed
    by a stamp that says nothing changed (review3)."""
    real_digest_fd = hashing._digest_fd
    p01 = ws / "fixtures" / "p01"
    swapped = []

    def read_then_swap_back(fd: int, source: Any, *args: Any, **kwargs: Any) -> Any:
        result = real_digest_fd(fd, source, *args, **kwargs)
        if swapped and os.fsdecode(source).endswith("deep/more.txt"):
            os.rename(p01 / "deep", p01 / "fake")
            os.rename(p01 / "real", p01 / "deep")
            swapped.clear()
        return result

    watch = FixtureWatch(ws)
    index = watch.add(["fixtures/p01"])
    os.rename(p01 / "deep", p01 / "real")
    (p01 / "deep").mkdir()
    (p01 / "deep" / "more.txt").write_text("EVIL\n")
    swapped.append(True)
    monkeypatch.setattr(hashing, "_digest_fd", read_then_swap_back)
    watch.start()
    watch.finish()
    (p01 / "fake" / "more.txt").unlink()  # and the test process tidies up
    (p01 / "fake").rmdir()
    assert not swapped  # the swap-back ran: the listed file is in place, untouched
    assert (p01 / "deep" / "more.txt").read_text() == "xyz\n"
    assert watch.changed(index) or watch.digest(index, CARD) == hashed(ws)
