"""The compact manifest (issue 28): groups, globs and inline cards give, property by property,
the fixture hash of the long form (the same files listed one by one, the card in a file); every
glob, group and card mistake is exit 2 naming the manifest, the field and the fix."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.commands.main import main
from gate.decide import globs, judges
from gate.errors import GateInputError
from gate.records import adopt, hashing, manifest
from gate.testrun import stamping

CARD = {"cases": 3, "seed": 7, "deadline_ms": None}


def write(path: Path, record: Any) -> Path:
    path.write_text(yaml.safe_dump(json.loads(json.dumps(record)), sort_keys=False))
    return path


def tree(root: Path, files: list[str]) -> None:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"bytes of {name}\n")


def hashes(path: Path, root: Path) -> dict[str, str]:
    return {p.test_id: hashing.fixture_hash(list(p.fixtures), root, manifest.card_of(p))
            for p in manifest.load(path, root)}


FILES = ["src/pkg/__init__.py", "src/pkg/a.py", "src/pkg/sub/b.py", "src/pkg/sub/c.txt",
         "src/pkg/.hidden.py", "tests/conftest.py", "tests/test_x.py", "tests/data/1.json",
         "tests/data/deep/2.json", "pyproject.toml"]


def long_and_compact(root: Path) -> tuple[Path, Path]:
    tree(root, FILES)
    (root / "x.card.json").write_text(json.dumps({"property": "tests/test_x.py::t", **CARD}))
    listed = ["tests/test_x.py", "src/pkg/__init__.py", "src/pkg/a.py", "src/pkg/sub/b.py",
              "src/pkg/.hidden.py", "tests/data/1.json", "tests/data/deep/2.json",
              "tests/conftest.py", "pyproject.toml"]
    long = write(root / "long.yml", {"version": 1, "properties": [
        {"test_id": "tests/test_x.py::t", "card": "x.card.json", "fixtures": listed,
         "junit": {"classname": "tests.test_x", "name": "t"}}]})
    compact = write(root / "compact.yml", {
        "version": 1,
        "groups": {"harness": ["tests/conftest.py", "pyproject.toml"],
                   "package": [{"glob": "src/pkg/**/*.py"}]},
        "properties": [{"test_id": "tests/test_x.py::t", "card": CARD,
                        "fixtures": ["tests/test_x.py", {"group": "package"},
                                     {"glob": "tests/data/**"}, {"group": "harness"}]}]})
    return long, compact


def test_groups_globs_and_an_inline_card_hash_as_the_long_form(tmp_path: Path) -> None:
    long, compact = long_and_compact(tmp_path)
    assert hashes(compact, tmp_path) == hashes(long, tmp_path)
    [prop] = manifest.load(compact, tmp_path)
    shown = [f.relative_to(tmp_path).as_posix() for f in prop.fixtures]
    # items in order, each glob's files by their UTF-8 bytes (the hash's own order)
    assert shown == ["tests/test_x.py", "src/pkg/.hidden.py", "src/pkg/__init__.py",
                     "src/pkg/a.py", "src/pkg/sub/b.py", "tests/data/1.json",
                     "tests/data/deep/2.json", "tests/conftest.py", "pyproject.toml"]
    assert prop.globs == ("src/pkg/**/*.py", "tests/data/**")
    assert prop.card_record == {"property": "tests/test_x.py::t", **CARD}
    assert (prop.junit_classname, prop.junit_name) == ("tests.test_x", "t")  # junit_of


@pytest.mark.parametrize(("test_id", "junit"), [
    ("tests/test_x.py::test_y", ("tests.test_x", "test_y")),
    ("tests/test_x.py::TestA::test_y", ("tests.test_x.TestA", "test_y")),
    ("tests/test_x.py::test_y[a::b/c.py]", ("tests.test_x", "test_y[a::b/c.py]")),
    ("parser_round_trip", (None, "parser_round_trip")),
])
def test_junit_left_out_is_the_name_pytest_gives_the_node_id(test_id: str,
                                                            junit: tuple[str, str]) -> None:
    assert manifest.junit_of(test_id) == junit


def _refused(tmp_path: Path, record: dict[str, Any]) -> GateInputError:
    with pytest.raises(GateInputError) as caught:
        manifest.load(write(tmp_path / "m.yml", record), tmp_path)
    return caught.value


def _one(fixtures: list[Any], **extra: Any) -> dict[str, Any]:
    return {"version": 1, **extra, "properties": [
        {"test_id": "tests/test_x.py::t", "card": dict(CARD), "fixtures": fixtures}]}


@pytest.mark.parametrize(("record", "field", "words"), [
    (_one([{"glob": "tests/*.txt"}]), "properties.0.fixtures.0.glob",
     "'tests/*.txt' matches no file under the root"),
    (_one([{"glob": "tests/*.txt"}]), "properties.0.fixtures.0.glob",
     "or remove it (test 'tests/test_x.py::t')"),
    (_one(["tests/test_x.py", {"glob": "nowhere/**"}]), "properties.0.fixtures.1.glob",
     "'nowhere/**' matches no file"),
    (_one([{"group": "g"}], groups={"g": ["tests/test_x.py", {"glob": "src/*.rs"}]}),
     "groups.g.1.glob", "'src/*.rs' matches no file"),
    (_one([{"group": "missing"}]), "properties.0.fixtures.0.group",
     "'missing' (test 'tests/test_x.py::t'): no such group under groups"),
    (_one(["tests/test_x.py"], groups={"unused": ["pyproject.toml"]}), "groups.unused",
     "defined, but no property names it ({group: unused}"),
    (_one([{"glob": "../*.py"}]), "properties.0.fixtures.0.glob", "without '..'"),
    (_one([{"glob": "/etc/*"}]), "properties.0.fixtures.0.glob", ""),
    (_one([{"group": "bad name"}]), "properties.0.fixtures.0.group", ""),
    (_one([{"glob": "a", "group": "b"}]), "properties.0.fixtures.0", ""),
    (_one(["tests/test_x.py"]) | {"groups": {"g": []}}, "groups.g", ""),
])
def test_glob_and_group_mistakes_are_bad_input_naming_the_field(
        tmp_path: Path, record: dict[str, Any], field: str, words: str) -> None:
    tree(tmp_path, FILES)
    error = _refused(tmp_path, record)
    assert (error.source, error.field) == (str(tmp_path / "m.yml"), field), error
    assert words in error.message


def test_a_glob_matching_nothing_is_exit_2_from_the_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree(tmp_path, FILES)
    m = write(tmp_path / "m.yml", _one([{"glob": "tests/*.txt"}]))
    pol = tmp_path / "p.yml"
    pol.write_text("allowlist: []\n")
    assert main(["policy", "check", str(pol), "--manifest", str(m),
                 "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(m) in err and "properties.0.fixtures.0.glob" in err and "tests/*.txt" in err


@pytest.mark.parametrize("pattern", ["src/**", "src/*/link.py", "src/pkg/*"])
def test_a_symbolic_link_a_glob_reaches_is_refused(tmp_path: Path, pattern: str) -> None:
    tree(tmp_path, FILES)
    os.symlink(tmp_path / "pyproject.toml", tmp_path / "src" / "pkg" / "link.py")
    os.symlink(tmp_path / "tests", tmp_path / "src" / "linked")
    error = _refused(tmp_path, _one([{"glob": pattern}]))
    assert "symbolic link" in error.message and error.field == "properties.0.fixtures.0.glob"


@pytest.mark.parametrize(("change", "field"), [
    (lambda c: c.update(property="other"), "properties.0.card.property"),
    (lambda c: c.update(cases=0), "properties.0.card.cases"),
    (lambda c: c.update(colour=1), "properties.0.card.colour"),
])
def test_an_inline_card_is_checked_as_a_card_file_is(tmp_path: Path, change: Any,
                                                    field: str) -> None:
    tree(tmp_path, FILES)
    record = _one(["tests/test_x.py"])
    change(record["properties"][0]["card"])
    assert _refused(tmp_path, record).field == field


def test_an_inline_card_with_its_property_hashes_the_same(tmp_path: Path) -> None:
    tree(tmp_path, FILES)
    with_id = _one(["tests/test_x.py"])
    with_id["properties"][0]["card"] = {"property": "tests/test_x.py::t", **CARD}
    assert hashes(write(tmp_path / "a.yml", with_id), tmp_path) == hashes(
        write(tmp_path / "b.yml", _one(["tests/test_x.py"])), tmp_path)


def test_an_inline_card_changed_during_the_run_is_seen(tmp_path: Path) -> None:
    """The card is read again from the manifest (a card file is read again too): a test that
    rewrites its own inline card never stamps the hash of the card it started with."""
    tree(tmp_path, FILES)
    m = write(tmp_path / "m.yml", _one(["tests/test_x.py"]))
    [prop] = manifest.load(m, tmp_path)
    prepared = stamping.prepare(prop, tmp_path, None)
    assert prepared.still_same()
    m.write_text(m.read_text().replace("seed: 7", "seed: 8"))
    assert not prepared.still_same()
    assert manifest.card_of(prop)["seed"] == 8



def test_the_manifest_is_parsed_once_while_its_bytes_stay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: loading the manifest and reading each inline card again after the run parse
    the file once; a changed file is parsed again (the card it holds now is seen)."""
    from gate.records import files

    tree(tmp_path, FILES)
    m = write(tmp_path / "m.yml", _one(["tests/test_x.py"]))
    parsed: list[str] = []
    real = files.parse_yaml
    monkeypatch.setattr(files, "parse_yaml",
                        lambda data, source: (parsed.append(source), real(data, source))[1])
    manifest._parsed_cached.cache_clear()
    [prop] = manifest.load(m, tmp_path)
    assert manifest.card_of(prop)["seed"] == 7 and manifest.card_of(prop)["seed"] == 7
    assert parsed == [str(m)]
    m.write_text(m.read_text().replace("seed: 7", "seed: 8"))
    assert manifest.card_of(prop)["seed"] == 8
    assert parsed == [str(m), str(m)]

# --- the long form and the compact form, over random trees -----------------------------------

NAMES = st.sampled_from(["a", "b", "c.py", "d.json", ".e", "é.py", "f g.txt"])
PATHS = st.lists(NAMES, min_size=1, max_size=4).map("/".join)


@st.composite
def layouts(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    files = draw(st.lists(PATHS, min_size=1, max_size=12, unique=True))
    # no file may be a folder of another
    files = [f for f in files if not any(o.startswith(f + "/") for o in files)]
    props = draw(st.lists(st.lists(st.sampled_from(files), min_size=1, max_size=len(files),
                                   unique=True), min_size=1, max_size=6))
    return files, props


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(layout=layouts(), pattern=st.lists(st.sampled_from(["**", "*", "?", "a", "*.py",
                                                           "c.py", "*.json", "b"]),
                                          min_size=1, max_size=3).map("/".join))
def test_random_trees_hash_the_same_in_both_forms(tmp_path_factory: pytest.TempPathFactory,
                                                  layout: tuple[list[str], list[list[str]]],
                                                  pattern: str) -> None:
    files, lists = layout
    root = tmp_path_factory.mktemp("tree")
    tree(root, files)
    entries = [{"test_id": f"t{i}", "card": dict(CARD, seed=i), "fixtures": fixtures,
                "junit": {"name": f"t{i}"}} for i, fixtures in enumerate(lists)]
    matched = sorted((f for f in files if globs.matches(pattern, f)),
                     key=lambda f: f.encode("utf-8"))
    if matched:  # a glob stands for exactly the files it matches, in the hash's order
        entries.append({"test_id": "glob", "card": CARD, "fixtures": [{"glob": pattern}]})
    here = tmp_path_factory.mktemp("manifests")  # outside the tree: no glob matches them
    long = write(here / "long.yml", {"version": 1, "properties": entries})
    groups, grouped = adopt.compact(entries, min_files=1)
    compact = here / "compact.yml"
    compact.write_text(adopt.render_manifest(grouped, groups))
    assert hashes(compact, root) == hashes(long, root)
    if matched:
        glob_prop = manifest.load(long, root)[-1]
        assert [f.relative_to(root).as_posix() for f in glob_prop.fixtures] == matched
        assert hashes(long, root)["glob"] == hashing.fixture_hash(
            [root / f for f in matched], root, dict(CARD, property="glob"))


@pytest.mark.parametrize(("pattern", "path", "hit"), [
    ("src/**/*.py", "src/a.py", True),
    ("src/**/*.py", "src/x/y/a.py", True),
    ("src/**/*.py", "src/a.pyc", False),
    ("src/*.py", "src/x/a.py", False),
    ("src/*", "src/.hidden", True),
    ("data/**", "data/x/y", True),
    ("data/**", "data", False),
    ("a?c", "abc", True),
    ("a?c", "a/c", False),
    ("[ab].py", "[ab].py", True),
    ("[ab].py", "a.py", False),
])
def test_the_glob_syntax(pattern: str, path: str, hit: bool) -> None:
    assert globs.matches(pattern, path) is hit


# --- what judges the patch: groups and globs --------------------------------------------------


def test_judge_files_follow_groups_and_globs(tmp_path: Path) -> None:
    """A changed file a property's glob matches is its fixture, even one added by the pull
    request (not listed when the manifest was read); a group's files are its fixtures; an
    inline card is the manifest's (row 1), not a card file."""
    _, compact = long_and_compact(tmp_path)
    props = manifest.from_record(yaml.safe_load(compact.read_text()), str(compact), tmp_path,
                                 in_checkout=False)
    files = [judges.PropertyFiles(
        p.test_id, "tests/test_x.py",
        tuple(f.relative_to(tmp_path).as_posix() for f in p.fixtures), None,
        p.globs) for p in props]
    found = judges.judged([("src/pkg/new/mod.py", None), ("tests/data/new.json", None),
                           ("pyproject.toml", None), ("src/pkg/notes.md", None)], files)
    assert {c.path: c.kinds for c in found} == {
        "src/pkg/new/mod.py": ("fixture",), "tests/data/new.json": ("fixture",),
        "pyproject.toml": ("harness", "fixture")}


def test_the_github_attribution_reads_the_patterns(tmp_path: Path) -> None:
    from gate.github import judges as github_judges

    _, compact = long_and_compact(tmp_path)
    found, why = github_judges.properties_of(["tests/test_x.py::t"], str(compact),
                                             str(tmp_path), str(tmp_path))
    assert why == ""
    [prop] = found
    assert prop.card is None  # inline: the manifest's change is shown for every property
    assert prop.globs == ("src/pkg/**/*.py", "tests/data/**")
    assert "tests/conftest.py" in prop.fixtures


# --- gate init's compact form -----------------------------------------------------------------


def _entry(test_id: str, fixtures: list[str]) -> dict[str, Any]:
    return adopt.entry_for(test_id=test_id, card={"property": test_id, **CARD},
                           fixtures=fixtures, classname=test_id.split("::")[0][:-3].replace(
                               "/", "."), name=test_id.split("::")[1],
                           location=test_id.split("::")[0], line=3)


def test_compact_groups_what_the_same_entries_share(tmp_path: Path) -> None:
    shared = ["src/pkg/__init__.py", "src/pkg/a.py", "tests/conftest.py", "pyproject.toml"]
    entries = [_entry("tests/test_x.py::t1", ["tests/test_x.py", *shared]),
               _entry("tests/test_x.py::t2", ["tests/test_x.py", *shared, "tests/data/1.json"]),
               _entry("tests/test_y.py::t3", ["tests/test_y.py", "src/pkg/sub/b.py", *shared])]
    assert all("junit" not in e for e in entries)  # pytest's own names: left out
    groups, grouped = adopt.compact(entries)
    assert groups == {"shared": shared}
    assert [e["fixtures"] for e in grouped] == [
        ["tests/test_x.py", {"group": "shared"}],
        ["tests/test_x.py", {"group": "shared"}, "tests/data/1.json"],
        ["tests/test_y.py", {"group": "shared"}, "src/pkg/sub/b.py"]]
    text = adopt.render_manifest(grouped, groups)
    assert "card: {cases: 3, seed: 7, deadline_ms: null}" in text
    tree(tmp_path, [*FILES, "tests/test_y.py"])
    long = write(tmp_path / "long.yml", {"version": 1, "properties": entries})
    compact = tmp_path / "c.yml"
    compact.write_text(text)
    assert hashes(compact, tmp_path) == hashes(long, tmp_path)


def test_compact_text_converts_a_long_manifest_with_every_hash_kept(tmp_path: Path) -> None:
    long, _ = long_and_compact(tmp_path)
    text = adopt.compact_text(yaml.safe_load(long.read_text()), str(long), tmp_path)
    compact = tmp_path / "converted.yml"
    compact.write_text(text)
    assert hashes(compact, tmp_path) == hashes(long, tmp_path)
    assert "junit" not in yaml.safe_load(text)["properties"][0]


def test_with_groups_names_only_groups_whose_files_it_lists() -> None:
    entry = _entry("tests/test_x.py::t", ["tests/test_x.py", "a.py", "b.py", "c.py"])
    out = adopt.with_groups(entry, {"ab": ["a.py", "b.py"], "cd": ["c.py", "d.py"],
                                    "glob": [{"glob": "*.py"}]})
    assert out["fixtures"] == ["tests/test_x.py", {"group": "ab"}, "c.py"]


def test_replace_cards_rewrites_inline_cards_in_place(tmp_path: Path) -> None:
    tree(tmp_path, FILES)
    text = adopt.render_manifest([_entry("tests/test_x.py::t", ["tests/test_x.py"])])
    record = yaml.safe_load(text)
    out = adopt.replace_cards(text.encode(), record, {0: {
        "property": "tests/test_x.py::t", "cases": 9, "seed": 7}}, "m", tmp_path).decode()
    assert out.replace("card: {cases: 9, seed: 7}", "card: {cases: 3, seed: 7, "
                       "deadline_ms: null}") == text


def test_the_compact_manifest_script_converts_and_proves_every_hash(tmp_path: Path) -> None:
    """scripts/compact_manifest.py, as run on attrs 26.1.0 (README): exit 0 when every hash is
    the long form's, 1 when one differs."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "scripts" / "compact_manifest.py"
    long, compact = long_and_compact(tmp_path)
    out = tmp_path / "out.yml"
    done = subprocess.run([sys.executable, str(script), str(long), str(out), "--root",
                           str(tmp_path), "--against", str(compact)], capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 1 fixture hashes identical" in done.stdout
    compact.write_text(compact.read_text().replace("tests/data/**", "tests/data/*.json"))
    done = subprocess.run([sys.executable, str(script), str(long), str(out), "--root",
                           str(tmp_path), "--against", str(compact)], capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 1 and "differ: tests/test_x.py::t" in done.stdout
