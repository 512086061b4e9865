"""Fixture hashing (SPEC §1, format gate-fixture-v1) and `gate hash` / `gate pin`."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
from pathlib import Path
from typing import Any

import pytest

from gate.records import hashing
from tests.core_helpers import assert_bad_input, card, run_cli, write_json

EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def independent_hash(root: Path, card_value: dict[str, Any] | None) -> str:
    """gate-fixture-v1 recomputed from gate/records/hashing.py's docstring, not from its code."""
    files: list[tuple[bytes, bytes]] = []
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            full = Path(dirpath) / name
            rel = full.relative_to(root).as_posix().encode("utf-8")
            files.append((rel, full.read_bytes()))
    files.sort(key=lambda item: item[0])
    out = b"gate-fixture-v1\n"
    for rel, content in files:
        out += b"F" + struct.pack(">Q", len(rel)) + rel
        out += struct.pack(">Q", len(content)) + hashlib.sha256(content).digest()
    if card_value is None:
        out += b"N"
    else:
        body = json.dumps(card_value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
        out += b"C" + struct.pack(">Q", len(body)) + body
    return hashlib.sha256(out).hexdigest()


def make_tree(root: Path, files: dict[str, bytes], order: list[str] | None = None) -> Path:
    for name in order or list(files):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[name])
    return root


TREE = {
    "parser/grammar.txt": b"expr := term ('+' term)*\n",
    "parser/inputs.txt": b"1+2\n3+4\n",
    "lexer/inputs.txt": b"a b c\n",
    "top.bin": bytes(range(256)),
    "empty.txt": b"",
}


def gate_hash(root: Path, *paths: Path | str, card_path: Path | None = None) -> str:
    args: list[object] = ["hash", *(paths or (root,)), "--root", root]
    if card_path is not None:
        args += ["--card", card_path]
    result = run_cli(*args)
    assert result.code == 0, result
    assert result.err == ""
    assert len(result.lines) == 1 and len(result.lines[0]) == 64
    return result.lines[0]


def test_matches_an_independent_implementation(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    card_value = card(1791590400, description="naïve – unicode ✓")
    card_path = write_json(tmp_path / "card.json", card_value)
    assert gate_hash(root, card_path=card_path) == independent_hash(root, card_value)
    assert gate_hash(root) == independent_hash(root, None)


def test_known_vector(tmp_path: Path) -> None:
    # pinned by hand so a silent format change is caught even if both sides drift together
    root = make_tree(tmp_path / "fx", {"a": b"x"})
    framed = (b"gate-fixture-v1\n" + b"F" + (1).to_bytes(8, "big") + b"a"
              + (1).to_bytes(8, "big") + hashlib.sha256(b"x").digest() + b"N")
    assert gate_hash(root) == hashlib.sha256(framed).hexdigest()


def test_identical_across_checkout_locations(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "src", TREE)
    card_path = write_json(tmp_path / "card.json", card())
    one = tmp_path / "checkout-one"
    two = tmp_path / "deeper" / "checkout two" / "x"
    shutil.copytree(root, one)
    shutil.copytree(root, two)
    assert gate_hash(one, card_path=card_path) == gate_hash(two, card_path=card_path)
    assert gate_hash(one, card_path=card_path) == gate_hash(root, card_path=card_path)


def test_identical_across_listing_order_and_mtimes(tmp_path: Path) -> None:
    names = list(TREE)
    a = make_tree(tmp_path / "a", TREE, names)
    b = make_tree(tmp_path / "b", TREE, list(reversed(names)))
    for i, name in enumerate(names):
        os.utime(b / name, (1_000_000 + i, 1_000_000 + i))
    assert gate_hash(a) == gate_hash(b)
    # the order of PATH arguments does not matter either
    assert gate_hash(a, a / "parser", a / "top.bin") == gate_hash(a, a / "top.bin", a / "parser")


def test_duplicate_paths_count_once(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    assert gate_hash(root, root, root / "parser", root / "top.bin") == gate_hash(root)


def test_files_named_by_relative_path_not_bare_name(tmp_path: Path) -> None:
    a = make_tree(tmp_path / "a", {"x/data.txt": b"one", "y/data.txt": b"two"})
    b = make_tree(tmp_path / "b", {"x/data.txt": b"two", "y/data.txt": b"one"})
    assert gate_hash(a) != gate_hash(b)


def test_moving_a_file_changes_the_hash(tmp_path: Path) -> None:
    a = make_tree(tmp_path / "a", {"x/data.txt": b"one"})
    b = make_tree(tmp_path / "b", {"y/data.txt": b"one"})
    assert gate_hash(a) != gate_hash(b)


def test_bytes_shifting_between_path_and_content(tmp_path: Path) -> None:
    # "ab" + "c" and "a" + "bc" concatenate to the same bytes without framing
    a = make_tree(tmp_path / "a", {"ab": b"c"})
    b = make_tree(tmp_path / "b", {"a": b"bc"})
    assert gate_hash(a) != gate_hash(b)
    # and across a file boundary: ("a","b"),("c","") versus ("a",""),("bc", ...)
    c = make_tree(tmp_path / "c", {"a": b"b", "c": b""})
    d = make_tree(tmp_path / "d", {"a": b"", "bc": b""})
    assert gate_hash(c) != gate_hash(d)


def test_bytes_shifting_between_files_and_card(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", {"a": b"x"})
    assert gate_hash(root) != gate_hash(root, card_path=write_json(tmp_path / "c.json", card()))


@pytest.mark.parametrize(
    ("key", "value"),
    [("property", "other_property"), ("cases", 33), ("seed", 8), ("freeze_expires_at", 1),
     ("description", "x")],
)
def test_any_card_value_changes_the_hash(tmp_path: Path, key: str, value: Any) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    base = card(1791590400)
    first = gate_hash(root, card_path=write_json(tmp_path / "c1.json", base))
    second = gate_hash(root, card_path=write_json(tmp_path / "c2.json", {**base, key: value}))
    assert first != second


def test_card_key_order_and_white_space_do_not_matter(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    one = tmp_path / "c1.json"
    one.write_text('{"property": "p", "cases": 3, "seed": 7}', encoding="utf-8")
    two = tmp_path / "c2.json"
    two.write_text('{\n  "seed":7,\n\t"cases" : 3,"property":"p"}\n', encoding="utf-8")
    assert gate_hash(root, card_path=one) == gate_hash(root, card_path=two)


def test_any_content_byte_changes_the_hash(tmp_path: Path) -> None:
    a = make_tree(tmp_path / "a", TREE)
    b = make_tree(tmp_path / "b", dict(TREE, **{"top.bin": bytes(range(255)) + b"\x00"}))
    assert gate_hash(a) != gate_hash(b)


def test_empty_file_counts(tmp_path: Path) -> None:
    a = make_tree(tmp_path / "a", {"x": b"1"})
    b = make_tree(tmp_path / "b", {"x": b"1", "y": b""})
    assert gate_hash(a) != gate_hash(b)


def test_json_output(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    result = run_cli("hash", root, "--root", root, "--json")
    assert result.code == 0
    assert json.loads(result.out) == {"fixture_hash": independent_hash(root, None),
                                      "format": "gate-fixture-v1"}


def test_parallel_and_serial_agree(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", {f"d{i % 3}/f{i}": bytes([i]) * i for i in range(40)})
    serial = hashing.fixture_hash([root], root, None, workers=1)
    parallel = hashing.fixture_hash([root], root, None, workers=4)
    assert serial == parallel == independent_hash(root, None)


# --- refusals (exit 2) -------------------------------------------------------------------------


def test_symlink_file_inside_the_tree(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    (root / "link.txt").symlink_to(root / "top.bin")
    assert_bad_input(run_cli("hash", root, "--root", root), str(root / "link.txt"), "(path)")


def test_symlink_dir_inside_the_tree(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    (root / "linked").symlink_to(root / "parser", target_is_directory=True)
    assert_bad_input(run_cli("hash", root, "--root", root), str(root / "linked"), "(path)")


def test_symlink_as_the_path(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    (root / "file-link").symlink_to(root / "top.bin")
    (root / "dir-link").symlink_to(root / "parser", target_is_directory=True)
    for link in (root / "file-link", root / "dir-link"):
        assert_bad_input(run_cli("hash", link, "--root", root), str(link), "(path)")


def test_dangling_symlink(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    (root / "dangling").symlink_to(tmp_path / "nowhere")
    assert_bad_input(run_cli("hash", root, "--root", root), "dangling", "(path)")


def test_path_through_a_linked_folder(tmp_path: Path) -> None:
    outside = make_tree(tmp_path / "outside", {"secret.txt": b"not a fixture"})
    root = make_tree(tmp_path / "fx", TREE)
    (root / "via").symlink_to(outside, target_is_directory=True)
    target = root / "via" / "secret.txt"
    assert_bad_input(run_cli("hash", target, "--root", root), str(target), "(path)")


def test_fifo_inside_the_tree_and_as_the_path(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    fifo = root / "pipe"
    os.mkfifo(fifo)
    assert_bad_input(run_cli("hash", root, "--root", root), str(fifo), "(path)")
    assert_bad_input(run_cli("hash", fifo, "--root", root), str(fifo), "(path)")


def test_empty_fixture_set(tmp_path: Path) -> None:
    root = tmp_path / "fx"
    (root / "only" / "folders").mkdir(parents=True)
    assert_bad_input(run_cli("hash", root, "--root", root), str(root), "empty fixture set")


def test_missing_path(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    assert_bad_input(run_cli("hash", root / "nope", "--root", root), "nope", "(path)")


def test_path_outside_the_root(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    other = make_tree(tmp_path / "other", {"x": b"1"})
    assert_bad_input(run_cli("hash", other, "--root", root), str(other), "(path)")


def test_bad_card(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "fx", TREE)
    bad = write_json(tmp_path / "card.json", {"property": "p", "cases": 0, "seed": 1})
    assert_bad_input(run_cli("hash", root, "--root", root, "--card", bad), str(bad), "cases")
    extra = write_json(tmp_path / "card2.json", dict(card(), colour="red"))
    assert_bad_input(run_cli("hash", root, "--root", root, "--card", extra), str(extra),
                     "colour")


def test_no_paths_is_usage(tmp_path: Path) -> None:
    assert_bad_input(run_cli("hash"), "(usage)")


# --- gate pin ----------------------------------------------------------------------------------


def test_pin_prints_the_sha(tmp_path: Path) -> None:
    f = tmp_path / "out.json"
    f.write_bytes(b'{"samples": [1, 2]}')
    result = run_cli("pin", f)
    assert (result.code, result.lines) == (
        0, [f"fixture_sha256={hashlib.sha256(f.read_bytes()).hexdigest()}"])


def test_pin_zero_byte_file_has_a_real_digest(tmp_path: Path) -> None:
    f = tmp_path / "empty.json"
    f.write_bytes(b"")
    result = run_cli("pin", f)
    assert (result.code, result.lines) == (0, [f"fixture_sha256={EMPTY_SHA}"])


def test_pin_store_copies_content_addressed(tmp_path: Path) -> None:
    f = tmp_path / "Out.JSON"
    f.write_bytes(b"[1]")
    sha = hashlib.sha256(b"[1]").hexdigest()
    store = tmp_path / "pins"
    result = run_cli("pin", f, "--store", store)
    stored = store / f"{sha}.json"
    assert (result.code, result.lines) == (0, [f"fixture_sha256={sha}",
                                               f"fixture_path={stored}"])
    assert stored.read_bytes() == b"[1]"
    again = run_cli("pin", f, "--store", store)  # idempotent for the same bytes
    assert (again.code, again.lines) == (0, result.lines)


def test_pin_store_refuses_other_bytes_under_the_name(tmp_path: Path) -> None:
    f = tmp_path / "out.json"
    f.write_bytes(b"[1]")
    sha = hashlib.sha256(b"[1]").hexdigest()
    store = tmp_path / "pins"
    store.mkdir()
    (store / f"{sha}.json").write_bytes(b"[2]")
    assert_bad_input(run_cli("pin", f, "--store", store), f"{sha}.json", "(file)")


def test_pin_json(tmp_path: Path) -> None:
    f = tmp_path / "o.bin"
    f.write_bytes(b"")
    result = run_cli("pin", f, "--json")
    assert json.loads(result.out) == {"fixture_sha256": EMPTY_SHA, "fixture_path": None}


def test_pin_refuses_symlink_fifo_and_missing(tmp_path: Path) -> None:
    f = tmp_path / "o.json"
    f.write_bytes(b"1")
    link = tmp_path / "link.json"
    link.symlink_to(f)
    assert_bad_input(run_cli("pin", link), str(link), "(file)")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_bad_input(run_cli("pin", fifo), str(fifo), "(file)")
    assert_bad_input(run_cli("pin", tmp_path / "absent"), "absent", "(file)")
    assert_bad_input(run_cli("pin", tmp_path), str(tmp_path), "(file)")
