"""The test harness recorded apart from the fixtures (issue 27): ``harness`` and
``harness_sha256`` in the manifest, the ``gate-harness-v1`` digest, the stamp step's check, the
stamp gate's pairing, and the old form (harness inside ``fixtures``) unchanged."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.commands.main import main
from gate.decide import stamps
from gate.errors import GateInputError
from gate.records import hashing, manifest, schemas
from gate.records.files import canonical_json
from gate.testrun import stamping

TEST_ID = "tests/test_x.py::test_p"
CARD = {"cases": 10, "seed": 1}
JUNIT = ('<testsuite><testcase classname="tests.test_x" name="test_p"/></testsuite>\n')


def recompute(root: Path, names: list[str]) -> str:
    """docs/formats.md's recipe for ``harness_sha256``, written independently of the gate."""
    out = [b"gate-harness-v1\n"]
    for name in sorted(n.encode() for n in names):
        data = (root / name.decode()).read_bytes()
        out += [b"F", len(name).to_bytes(8, "big"), name, len(data).to_bytes(8, "big"),
                hashlib.sha256(data).digest()]
    return hashlib.sha256(b"".join(out)).hexdigest()


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tests").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("from pkg import core\n")
    (tmp_path / "pkg" / "core.py").write_text("VALUE = 1\n")
    (tmp_path / "tests" / "conftest.py").write_text("import os\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "report.xml").write_text(JUNIT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


HARNESS = ["pytest.ini", "tests/conftest.py"]
FIXTURES = ["tests/test_x.py", "pkg/core.py"]


def entry(ws: Path, *, harness: list[str] | None = HARNESS,
          digest: str | None = None) -> dict[str, Any]:
    """One manifest entry: the new form (``harness`` apart) or, ``harness=None``, the old
    one (the harness files inside ``fixtures``)."""
    if harness is None:
        return {"test_id": TEST_ID, "card": dict(CARD), "fixtures": [*FIXTURES, *HARNESS]}
    return {"test_id": TEST_ID, "card": dict(CARD), "fixtures": list(FIXTURES),
            "harness": list(harness),
            "harness_sha256": digest or hashing.harness_hash(harness, ws)}


def write(ws: Path, *entries: dict[str, Any]) -> Path:
    path = ws / "gate.yml"
    path.write_text(json.dumps({"version": 1, "properties": list(entries)}))
    return path


def stamp(ws: Path, capsys: pytest.CaptureFixture[str], *extra: str,
          cls: str = "local-pinned", out: str = "out") -> tuple[int, list[dict[str, Any]], str]:
    status = main(["stamp", "--manifest", "gate.yml", "--server-class", cls, "--junit",
                   "report.xml", "--out", out, *extra])
    err = capsys.readouterr().err
    found = [json.loads(p.read_text()) for p in sorted((ws / out).glob("*.json"))] \
        if (ws / out).is_dir() else []
    return status, found, err


# --- the digest --------------------------------------------------------------------------------


def test_harness_sha256_known_answer(tmp_path: Path) -> None:
    """docs/formats.md's worked example, pinned."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "pytest.ini").write_bytes(b"[pytest]\naddopts = -p no:cacheprovider\n")
    (tmp_path / "tests" / "conftest.py").write_bytes(b"import os\n")
    names = ["tests/conftest.py", "pytest.ini"]
    got = hashing.harness_hash([tmp_path / n for n in names], tmp_path)
    assert got == "9b97ed31755b7c55acc198d4f82442a6977c1b844ccc17223d304709bd0dea5d"
    assert got == recompute(tmp_path, names)
    # the same files as a fixture set (no card) hash otherwise: another format name
    assert got != hashing.fixture_hash([tmp_path / n for n in names], tmp_path, None)


def test_the_encoding_is_the_format_name_and_the_file_records(tmp_path: Path) -> None:
    entries = [(b"a", 1, b"\x01" * 32)]
    assert hashing.encode_harness(entries) == (b"gate-harness-v1\nF" + (1).to_bytes(8, "big")
                                               + b"a" + (1).to_bytes(8, "big")
                                               + b"\x01" * 32)
    assert hashing.encode_harness([]) == b"gate-harness-v1\n"


def test_an_empty_harness_or_a_link_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(GateInputError, match="empty fixture set"):
        hashing.harness_hash([tmp_path / "d"], tmp_path)
    (tmp_path / "real.py").write_text("x")
    os.symlink(tmp_path / "real.py", tmp_path / "conftest.py")
    with pytest.raises(GateInputError, match="symbolic link"):
        hashing.harness_hash([tmp_path / "conftest.py"], tmp_path)


# --- the manifest ------------------------------------------------------------------------------


def test_the_manifest_reads_the_harness_apart(ws: Path) -> None:
    (prop,) = manifest.load(write(ws, entry(ws)), ws)
    assert [p.relative_to(ws).as_posix() for p in prop.fixtures] == FIXTURES
    assert [p.relative_to(ws).as_posix() for p in prop.harness] == HARNESS
    assert prop.harness_sha256 == hashing.harness_hash(HARNESS, ws)


def test_harness_items_take_groups_and_globs(ws: Path) -> None:
    record = {"version": 1, "groups": {"harness": ["pytest.ini"]},
              "properties": [{**entry(ws), "harness": [{"group": "harness"},
                                                      {"glob": "tests/conf*.py"}]}]}
    (ws / "gate.yml").write_text(json.dumps(record))
    (prop,) = manifest.load(ws / "gate.yml", ws)
    assert [p.relative_to(ws).as_posix() for p in prop.harness] == HARNESS
    assert prop.harness_globs == ("tests/conf*.py",)


@pytest.mark.parametrize(("drop", "field"), [("harness_sha256", "properties.0.harness_sha256"),
                                             ("harness", "properties.0.harness")])
def test_harness_and_its_digest_go_together(ws: Path, drop: str, field: str) -> None:
    raw = entry(ws)
    del raw[drop]
    with pytest.raises(GateInputError) as caught:
        manifest.load(write(ws, raw), ws)
    assert caught.value.field == field


def test_a_file_in_both_lists_is_bad_input(ws: Path) -> None:
    raw = entry(ws, harness=["pytest.ini", "pkg/core.py"])
    with pytest.raises(GateInputError) as caught:
        manifest.load(write(ws, raw), ws)
    assert caught.value.field == "properties.0.harness"
    assert "'pkg/core.py'" in caught.value.message and "not both" in caught.value.message


def test_schema_round_trip(ws: Path) -> None:
    """A manifest entry and a stamp with the new fields validate (both validators) and read
    back unchanged; a digest that is not 64 lower-case hex digits does not."""
    raw = {"properties": [entry(ws)]}
    for name, record in (("manifest", raw),):
        again = json.loads(canonical_json(record))
        schemas.validate(name, again, "round trip")
        assert again == record
    bad = {"properties": [{**entry(ws), "harness_sha256": "A" * 64}]}
    with pytest.raises(GateInputError, match="harness_sha256"):
        schemas.validate("manifest", bad, "bad")


# --- the stamp step ----------------------------------------------------------------------------


def test_a_stamp_records_the_harness_apart(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(ws, entry(ws))
    status, (got,), err = stamp(ws, capsys, "--exit-code", "0")
    assert status == 0, err
    assert got["harness_sha256"] == hashing.harness_hash(HARNESS, ws)
    assert got["fixture_hash"] == hashing.fixture_hash(FIXTURES, ws, {**CARD,
                                                                      "property": TEST_ID})
    schemas.validate("stamp", json.loads(canonical_json(got)), "round trip")


def test_a_harness_only_change_is_named_as_the_harness(
        ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(ws, entry(ws))
    (ws / "tests" / "conftest.py").write_text("import os  # changed\n")
    status, found, err = stamp(ws, capsys, "--exit-code", "0")
    assert status == 2 and found == []
    assert "gate.yml: properties.0.harness_sha256:" in err
    assert "pytest.ini, tests/conftest.py" in err and "gate init --refresh" in err


def test_a_fixture_only_change_is_named_as_the_fixture(
        ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A changed fixture passes the harness check and changes fixture_hash only: the pair
    with a stamp of the old bytes is a fixture mismatch, not a harness one."""
    write(ws, entry(ws))
    status, (before,), err = stamp(ws, capsys, "--exit-code", "0")
    assert status == 0, err
    (ws / "pkg" / "core.py").write_text("VALUE = 2\n")
    status, (after,), err = stamp(ws, capsys, "--exit-code", "0", cls="free-server",
                                  out="out2")
    assert status == 0, err
    assert after["harness_sha256"] == before["harness_sha256"]
    assert after["fixture_hash"] != before["fixture_hash"]
    got = stamps.classify_pair(before, after, (), 0)
    assert (got.action, got.row) == ("reject_fixture_mismatch", 1)
    assert "harness" not in got.reason and "fixtures" in got.reason


def test_a_harness_changed_during_the_run_is_resource_exit(
        ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(ws, entry(ws))
    (ws / "report.xml").unlink()  # the command writes it
    code = ("import time; time.sleep(0.05); "
            "open('tests/conftest.py', 'a').write('# during the run\\n'); "
            f"open('report.xml', 'w').write({JUNIT!r})")
    status, found, err = stamp(ws, capsys, "--", sys.executable, "-c", code)
    assert status == 0, err
    (got,) = found
    assert got["outcome"] == "resource_exit" and got["note"] == stamping.CHANGED_DURING_RUN
    assert "test harness" in got["note"]


# --- the old form: the harness inside the fixtures ---------------------------------------------


def test_an_old_form_manifest_stamps_as_before(ws: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """No harness_sha256 in its stamps, the fixture_hash of every file it lists (harness
    included) as before, and a changed harness file is a fixture change, not refused."""
    write(ws, entry(ws, harness=None))
    status, (got,), err = stamp(ws, capsys, "--exit-code", "0")
    assert status == 0, err
    assert "harness_sha256" not in got
    assert got["fixture_hash"] == hashing.fixture_hash([*FIXTURES, *HARNESS], ws,
                                                       {**CARD, "property": TEST_ID})
    (ws / "tests" / "conftest.py").write_text("import os  # changed\n")
    status, (again,), err = stamp(ws, capsys, "--exit-code", "0", out="out2")
    assert status == 0, err
    assert again["fixture_hash"] != got["fixture_hash"] and "harness_sha256" not in again


# --- the stamp gate ----------------------------------------------------------------------------


def pair(**changes: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    card = {"property": "t", "cases": 1, "seed": 1, "freeze_expires_at": None}
    local = {"test_id": "t", "fixture_hash": "f" * 64, "sample_card": card,
             "server_class": stamps.LOCAL, "outcome": "pass", "harness_sha256": "a" * 64}
    free = {**local, "server_class": stamps.FREE, **changes}
    return local, {k: v for k, v in free.items() if v is not None}


def test_two_harnesses_are_a_fixture_mismatch_named_as_harness() -> None:
    got = stamps.classify_pair(*pair(harness_sha256="b" * 64), (), 0)
    assert (got.action, got.row) == ("reject_fixture_mismatch", 1)
    assert "harness_sha256 aaaaaaaaaaaa (local-pinned) vs bbbbbbbbbbbb (free-server)" \
        in got.reason


def test_a_harness_on_one_side_only_is_a_mismatch() -> None:
    got = stamps.classify_pair(*pair(harness_sha256=None), (), 0)
    assert (got.action, got.row) == ("reject_fixture_mismatch", 1)
    assert "absent (free-server)" in got.reason


def test_the_same_harness_pairs_as_before() -> None:
    got = stamps.classify_pair(*pair(), (), 0)
    assert got.action == "accept_candidate"
    local, free = pair()
    del local["harness_sha256"], free["harness_sha256"]
    assert stamps.classify_pair(local, free, (), 0).action == "accept_candidate"


def test_the_report_names_the_harness_in_the_mismatch() -> None:
    from gate.records import report

    local, free = pair(harness_sha256="b" * 64)
    assert report.mismatch(local, free) == [
        "harness_sha256: local-pinned aaaaaaaaaaaa… vs free-server bbbbbbbbbbbb…"]


def test_the_rerun_memory_digest_of_an_old_stamp_is_unchanged() -> None:
    """A red remembered from a stamp without harness_sha256 keeps its digest (the formula
    before this change, written out); one with it differs from the same stamp without."""
    from gate.records import pairing

    local, _ = pair()
    del local["harness_sha256"]
    local.update(outcome="assert_fail", run_id="r1")
    old = canonical_json([local["outcome"], local["fixture_hash"], None, local["sample_card"],
                          None])
    item = pairing.Loaded(local, "r1.json")
    assert pairing.result_digest(item) == hashlib.sha256(old).hexdigest()[:32]
    with_harness = pairing.Loaded({**local, "harness_sha256": "a" * 64}, "r1.json")
    assert pairing.result_digest(with_harness) != pairing.result_digest(item)


# --- What judges the patch is shown ------------------------------------------------------------


def test_a_listed_harness_file_judges_its_property_as_harness() -> None:
    """Row 8: a file the manifest lists in one property's harness (a plugin module no name
    rule knows) or one its harness globs match is shown as that property's harness; a fixture
    as its fixture."""
    from gate.decide import judges

    props = [judges.PropertyFiles("a.py::t", "a.py", ("a.py", "lib/core.py"), None, (),
                                  ("plugins/forge_impl.py",), ("helpers/**/*.py",)),
             judges.PropertyFiles("b.py::t", "b.py", ("b.py",))]
    got = {c.path: (c.kinds, c.test_ids) for c in judges.judged(
        [("plugins/forge_impl.py", None), ("helpers/x/y.py", None), ("lib/core.py", None)],
        props)}
    assert got == {"plugins/forge_impl.py": (("harness",), ("a.py::t",)),
                   "helpers/x/y.py": (("harness",), ("a.py::t",)),
                   "lib/core.py": (("fixture",), ("a.py::t",))}


def test_the_gate_job_reads_the_harness_from_the_manifest(ws: Path) -> None:
    from gate.github import judges as gh_judges

    raw = {**entry(ws), "harness": ["pytest.ini", {"glob": "tests/conf*.py"}]}
    write(ws, raw)
    (found,), why = gh_judges.properties_of([TEST_ID], "gate.yml", ".", str(ws))
    assert why == ""
    assert found.harness == ("pytest.ini",) and found.harness_globs == ("tests/conf*.py",)
    assert found.fixtures == tuple(FIXTURES)


# --- the compact form --------------------------------------------------------------------------


def test_compact_groups_the_harness_apart_and_keeps_its_digest(ws: Path) -> None:
    """Two entries sharing a harness: it is written once as the ``harness`` group, the
    fixtures' groups stay fixtures', and every entry expands to the same files (so the same
    digests) as the long form."""
    from gate.records import adopt

    (ws / "tests" / "test_y.py").write_text("from pkg import core\n")
    second = {**entry(ws), "test_id": "tests/test_y.py::test_q",
              "fixtures": ["tests/test_y.py", "pkg/core.py", "tests/test_x.py"],
              "location": {"path": "tests/test_y.py"}}
    first = {**entry(ws), "location": {"path": "tests/test_x.py"},
             "fixtures": ["tests/test_x.py", "pkg/core.py", "tests/test_y.py"]}
    long_form = {"version": 1, "properties": [first, second]}
    text = adopt.compact_text(long_form, "gate.yml", ws)
    (ws / "compact.yml").write_text(text)
    record = json.loads(json.dumps(__import__("yaml").safe_load(text)))
    assert record["groups"]["harness"] == HARNESS
    assert all(e["harness"] == [{"group": "harness"}] for e in record["properties"])
    write(ws, first, second)
    before = manifest.load(ws / "gate.yml", ws)
    after = manifest.load(ws / "compact.yml", ws)
    for old, new in zip(before, after, strict=True):
        assert (set(new.fixtures), new.harness, new.harness_sha256) == (
            set(old.fixtures), old.harness, old.harness_sha256)


def test_gate_hash_harness_prints_the_digest(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hash", "--harness", *HARNESS]) == 0
    assert capsys.readouterr().out == hashing.harness_hash(HARNESS, ws) + "\n"
    assert main(["hash", "--harness", "--json", "--root", ".", *HARNESS]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "harness_sha256": hashing.harness_hash(HARNESS, ws), "format": "gate-harness-v1"}
    assert main(["hash", *HARNESS]) == 0  # without it: the fixture hash, as before
    assert capsys.readouterr().out == hashing.fixture_hash(HARNESS, ws, None) + "\n"
    assert main(["hash", "--harness", "--card", "c.json", *HARNESS]) == 2
    assert "gate hash: --card: not with --harness" in capsys.readouterr().err
