"""``gate hash`` without argparse (gate/commands/hash.py, :func:`fast_args`): the plain forms of
its arguments are read exactly as the full parser reads them, anything else is left to the
parser, so help, usage errors (exit 2, one line) and results do not change."""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gate.commands import hash as hash_command
from gate.commands import main as cli
from gate.errors import GateInputError
from gate.records import hashing
from tests.core_helpers import assert_bad_input, count_forks, run_cli


def by_the_parser(argv: list[str]) -> tuple[list[str], str | None, str, bool] | None:
    """What the full parser makes of ``gate hash ARGV`` (None: it refuses it, or shows help)."""
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            args = cli.build_parser().parse_args(["hash", *argv])
        cli._check_text_arguments(args)
    except (GateInputError, SystemExit):
        return None
    return args.paths, args.card, args.root, args.json


def by_the_fast_path(argv: list[str]) -> tuple[list[str], str | None, str, bool] | None:
    fast = hash_command.fast_args(argv)
    return None if fast is None else (fast.paths, fast.card, fast.root, fast.json)


PLAIN = [
    ["fx"],
    ["fx", "--root", "."],
    ["--root", "top", "a", "b/c", "--json"],
    ["a", "b", "--card", "card.json", "--root", "r", "--json", "--json"],
    ["--card", "one.json", "--card", "two.json", "a"],
    ["--json", "a", "b", "c"],
    ["", "--root", ""],
    ["a b", "--card", "c d"],
]


@pytest.mark.parametrize("argv", PLAIN)
def test_plain_forms_are_read_without_the_parser_as_the_parser_reads_them(argv: list[str]) -> None:
    fast = by_the_fast_path(argv)
    assert fast is not None
    assert fast == by_the_parser(argv)


#: Forms the fast path leaves to the parser (which reads some and refuses others).
LEFT_TO_THE_PARSER = [
    [], ["-h"], ["fx", "--help"], ["--root=r", "fx"], ["fx", "--ro", "r"], ["fx", "--js"],
    ["--", "fx"], ["fx", "--"], ["-"], ["fx", "-1"], ["fx", "--card"], ["fx", "--root", "-r"],
    ["fx", "--card", "-1"], ["a", "--json", "b"], ["a", "--root", "r", "b"], ["fx", "--bogus"],
    ["fx", "--json=1"], ["x\udcff"], ["fx", "--root", "\udcff"], ["--version", "fx"],
]


@pytest.mark.parametrize("argv", LEFT_TO_THE_PARSER)
def test_other_forms_are_left_to_the_parser(argv: list[str]) -> None:
    assert by_the_fast_path(argv) is None


TOKENS = st.sampled_from(["a", "b/c", "", ".", "--card", "--root", "--json", "-x", "--", "-",
                          "-1", "-h", "--root=r", "--ca", "--json=1", "x y", "-a b", "\udcff"])


@settings(max_examples=400, deadline=None)
@given(st.lists(TOKENS, max_size=7))
@example(["a", "--card", "a", "b"])
@example(["--root", "--json", "a"])
def test_the_fast_path_never_disagrees_with_the_parser(argv: list[str]) -> None:
    fast = by_the_fast_path(argv)
    if fast is not None:
        assert fast == by_the_parser(argv)


def test_main_hashes_the_plain_forms_without_building_the_parser(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "one.txt").write_bytes(b"one\n")
    expected = run_cli("hash", tmp_path / "fx", "--root", tmp_path)
    assert expected.code == 0 and len(expected.lines) == 1

    def no_parser(argv: object = None) -> None:
        raise AssertionError("the parser was built")

    monkeypatch.setattr(cli, "build_parser", no_parser)
    assert run_cli("hash", tmp_path / "fx", "--root", tmp_path) == expected
    assert run_cli("hash", "--root", tmp_path, tmp_path / "fx") == expected
    with pytest.raises(AssertionError, match="parser was built"):
        run_cli("hash", f"--root={tmp_path}", tmp_path / "fx")


def test_a_form_left_to_the_parser_gives_the_same_digest(tmp_path: Path) -> None:
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "one.txt").write_bytes(b"one\n")
    plain = run_cli("hash", tmp_path / "fx", "--root", tmp_path)
    assert run_cli("hash", f"--root={tmp_path}", tmp_path / "fx") == plain
    assert run_cli("hash", "--ro", tmp_path, "--", tmp_path / "fx") == plain


@pytest.mark.parametrize("argv", [
    ["hash"], ["hash", "--json"], ["hash", "fx", "--card"], ["hash", "fx", "--root"],
    ["hash", "a", "--json", "b"], ["hash", "a", "--root", ".", "b"], ["hash", "--bogus", "fx"],
    ["hash", "fx", "--card", "-c"], ["hash", "fx", "--json=1"], ["hash", "fx", "-x"],
])
def test_bad_arguments_exit_2_with_one_usage_line(argv: list[str]) -> None:
    result = run_cli(*argv)
    assert_bad_input(result, "(usage)")
    assert result.out == ""


def test_text_that_is_not_utf8_is_one_usage_line_naming_the_argument() -> None:
    assert_bad_input(run_cli("hash", "fx\udcff"), "--paths", "not UTF-8")
    assert_bad_input(run_cli("hash", "fx", "--card", "\udcff"), "--card", "not UTF-8")


def test_help_is_the_parsers(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["hash", "-h"])
    assert done.value.code == 0
    assert "--card CARD.json" in capsys.readouterr().out


def test_errors_name_the_path_as_given_normalised_as_pathlib_does(tmp_path: Path) -> None:
    given = f"{tmp_path}//fx/./nope/"
    assert_bad_input(run_cli("hash", given, "--root", tmp_path), f"{tmp_path}/fx/nope: (path)")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="/.ab", max_size=12))
@example("//a")
@example("///a")
@example("")
def test_path_text_is_pathlibs_str(text: str) -> None:
    assert hash_command.path_text(text) == str(Path(text))


def test_hex_line_prints_a_digest_as_it_is_and_escapes_anything_else() -> None:
    digest = "0123456789abcdef" * 4
    assert hash_command.hex_line(digest) == digest + "\n"
    assert hash_command.hex_line("::stop-commands::x") == "» ::stop-commands::x\n"
    assert hash_command.hex_line("a\nb").count("\n") == 1


# --- reading ahead (one large file, a second thread reads while this one hashes) ----------------


@pytest.fixture
def small_ring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read ahead from 1 byte on, through 3 buffers of 7 bytes: every slot is reused (and two
    cores, so that one large file is read ahead whatever machine runs the test)."""
    monkeypatch.setattr(hashing, "_cores", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.3, 0.3, 0.3))
    monkeypatch.setattr(hashing, "_READ_AHEAD_MIN", 1)
    monkeypatch.setattr(hashing, "_WHOLE", 4)
    monkeypatch.setattr(hashing, "_CHUNK", 7)


@pytest.mark.parametrize("size", [5, 7, 14, 100, 1000])
def test_reading_ahead_gives_the_same_digest(tmp_path: Path, small_ring: None, size: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    data = bytes(range(256)) * 4
    (tmp_path / "big.bin").write_bytes(data[:size])
    ahead = hashing.fixture_hash([tmp_path], tmp_path, None)
    monkeypatch.setattr(hashing, "_cores", lambda: 1)  # one core: no second thread
    assert hashing.fixture_hash([tmp_path], tmp_path, None) == ahead
    monkeypatch.setattr(hashing, "_cores", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.6, 0.0, 0.0))  # no core to spare
    assert hashing.fixture_hash([tmp_path], tmp_path, None) == ahead
    fd = os.open(tmp_path / "big.bin", os.O_RDONLY)
    try:
        digest = hashlib.sha256()
        assert hashing._stream_read_ahead(fd, digest, 0, size) == size
        assert digest.digest() == hashlib.sha256(data[:size]).digest()
    finally:
        os.close(fd)


def test_reading_ahead_stops_past_the_size_it_was_told(tmp_path: Path, small_ring: None) -> None:
    import hashlib

    (tmp_path / "grew.bin").write_bytes(b"x" * 100)
    fd = os.open(tmp_path / "grew.bin", os.O_RDONLY)
    try:
        total = hashing._stream_read_ahead(fd, hashlib.sha256(), 0, 20)
    finally:
        os.close(fd)
    assert 20 < total <= 20 + 7  # one buffer past the size: the caller says the file changed


def test_a_read_error_comes_back_and_the_reader_has_ended(tmp_path: Path, small_ring: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big.bin").write_bytes(b"y" * 100)
    real = os.readv
    calls: list[int] = []

    def failing(fd: int, buffers: list[bytearray]) -> int:
        calls.append(fd)
        if len(calls) == 4:
            raise OSError(5, "Input/output error")
        return real(fd, buffers)

    monkeypatch.setattr(os, "readv", failing)
    with pytest.raises(OSError, match="Input/output"):
        hashing.fixture_hash([tmp_path], tmp_path, None)
    assert len(calls) == 4  # the reader stopped at the error


def test_an_error_while_hashing_ends_the_reader_before_returning(tmp_path: Path,
                                                                 small_ring: None) -> None:
    (tmp_path / "big.bin").write_bytes(b"z" * 1000)
    reads: list[int] = []

    class Failing:
        def update(self, data: object) -> None:
            if len(reads) == 2:
                raise KeyboardInterrupt
            reads.append(1)

    fd = os.open(tmp_path / "big.bin", os.O_RDONLY)
    try:
        with pytest.raises(KeyboardInterrupt):
            hashing._stream_read_ahead(fd, Failing(), 0, 1000)
        position = os.lseek(fd, 0, os.SEEK_CUR)
        assert os.lseek(fd, 0, os.SEEK_CUR) == position  # nobody reads the file any more
        assert position <= 7 * (2 + 3 + 1)  # the hashed slots, the ring, one in flight
    finally:
        os.close(fd)


def test_a_file_that_grows_while_read_ahead_is_one_error(tmp_path: Path, small_ring: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"g" * 50)
    real = os.fstat

    def grown(fd: int) -> os.stat_result:
        info = real(fd)
        with open(big, "ab") as handle:  # after the size was taken: the file grows
            handle.write(b"more")
        return info

    monkeypatch.setattr(os, "fstat", grown)
    assert_bad_input(run_cli("hash", tmp_path, "--root", tmp_path), "big.bin", "changed")


# --- many files: forked workers claim batches from a shared pipe --------------------------------


def _many(root: Path, count: int) -> Path:
    for i in range(count):
        (root / f"d{i % 4}").mkdir(parents=True, exist_ok=True)
        (root / f"d{i % 4}" / f"f{i:04}.bin").write_bytes(f"file {i}\n".encode() * (i % 7))
    return root


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Fork from 8 files on, in batches of 16 files; counts the children started."""
    monkeypatch.setattr(hashing, "_FORK_MIN_FILES", 8)
    monkeypatch.setattr(hashing, "_cores", lambda: 3)
    return count_forks(monkeypatch)


def test_claimed_batches_give_the_digest_of_one_process(tmp_path: Path, forks: list[int]) -> None:
    root = _many(tmp_path / "fx", 300)
    single = hashing.fixture_hash([root], root, {"property": "p"}, workers=1)
    assert hashing.fixture_hash([root], root, {"property": "p"}) == single
    assert len(forks) == 2  # three workers: this process and two children


def test_batches_a_failed_child_claimed_are_hashed_here(tmp_path: Path, forks: list[int],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    root = _many(tmp_path / "fx", 300)
    single = hashing.fixture_hash([root], root, None, workers=1)

    def claims_then_crashes(root_b: bytes, batches: list[list[bytes]],
                            claims: int) -> Callable[[], bytes]:
        def work() -> bytes:
            os.read(claims, 8)  # two batches claimed, never framed
            raise RuntimeError("the child fails")

        return work

    monkeypatch.setattr(hashing, "_claimed_bytes", claims_then_crashes)
    assert hashing.fixture_hash([root], root, None) == single
    assert forks


@pytest.mark.parametrize("bad", [["d0/f0004.bin"], ["d3/f0287.bin"],
                                 ["d1/f0005.bin", "d3/f0299.bin"],
                                 ["d3/f0299.bin", "d0/f0000.bin"]])
def test_bad_input_is_the_error_one_process_reports(tmp_path: Path, forks: list[int],
                                                    bad: list[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = _many(tmp_path / "fx", 300)
    real = hashing._digest_path

    def refusing(path: str | bytes, *more: object) -> tuple[int, bytes]:
        # files that turn out not to be regular once opened (after the walk): the children,
        # forked from this process, refuse them too
        if any(os.fsdecode(path).endswith(name) for name in bad):
            raise GateInputError(os.fsdecode(path), "(file)", "not a regular file")
        return real(path, *more)  # type: ignore[arg-type]

    monkeypatch.setattr(hashing, "_digest_path", refusing)
    with pytest.raises(GateInputError) as single:
        hashing.fixture_hash([root], root, None, workers=1)
    assert single.value.source.endswith(min(bad))
    with pytest.raises(GateInputError) as split:
        hashing.fixture_hash([root], root, None)
    assert str(split.value) == str(single.value)
    assert forks


def test_an_unpacked_child_answer_is_what_it_framed() -> None:
    framed = {3: bytearray(b"three"), 0: bytearray(b""), 7: bytearray(b"F" * 300)}
    packed = b"".join(i.to_bytes(4, "big") + len(v).to_bytes(8, "big") + v
                      for i, v in framed.items())
    assert hashing._unpack(packed) == framed


@pytest.mark.parametrize(("cores", "load", "spare"), [(1, 0.0, False), (2, 0.0, True),
                                                      (2, 1.4, True), (2, 1.5, False),
                                                      (8, 6.0, True), (8, 7.6, False)])
def test_a_core_is_spare_by_the_load_average(monkeypatch: pytest.MonkeyPatch, cores: int,
                                             load: float, spare: bool) -> None:
    monkeypatch.setattr(os, "getloadavg", lambda: (load, 0.0, 0.0))
    assert hashing._spare_core(cores) is spare


def test_one_large_file_is_read_ahead_only_with_a_core_to_spare(
        tmp_path: Path, small_ring: None, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big.bin").write_bytes(b"q" * 100)
    used: list[int] = []
    real = hashing._stream_read_ahead

    def counted(*args: Any) -> int:
        used.append(1)
        return real(*args)

    monkeypatch.setattr(hashing, "_stream_read_ahead", counted)
    hashing.fixture_hash([tmp_path], tmp_path, None)
    assert used == [1]
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 0.0, 0.0))
    hashing.fixture_hash([tmp_path], tmp_path, None)
    assert used == [1]
