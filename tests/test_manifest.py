"""gate.records.manifest: schema-validated, paths relative to the root, duplicates refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from gate.commands.main import main
from gate.errors import GateInputError
from gate.records import manifest

JUNIT_OK = (b'<testsuites><testsuite name="s"><testcase classname="c" name="a"/>'
            b'<testcase classname="c" name="b"/></testsuite></testsuites>')


def workspace(root: Path) -> list[dict[str, Any]]:
    entries = []
    for name in ("a", "b"):
        (root / "fx" / name).mkdir(parents=True)
        (root / "fx" / name / "f.txt").write_text(name)
        (root / f"{name}.card.json").write_text(json.dumps(
            {"property": name, "cases": 1, "seed": 0}))
        entries.append({"test_id": name, "card": f"{name}.card.json", "fixtures": [f"fx/{name}"],
                        "junit": {"classname": "c", "name": name}})
    return entries


def write(path: Path, record: Any) -> Path:
    path.write_text(yaml.safe_dump(json.loads(json.dumps(record))))  # no aliases
    return path



def _stamp_local(tmp_path: Path, manifest: Path) -> int:
    """``gate stamp --manifest`` of a green local-pinned run with ``tmp_path/r.xml``."""
    return main(["stamp", "--manifest", str(manifest), "--root", str(tmp_path),
                 "--server-class", "local-pinned", "--junit", str(tmp_path / "r.xml"),
                 "--out", str(tmp_path / "out"), "--exit-code", "0"])


def _refused_with_second_test_id(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 test_id: str) -> tuple[Path, str]:
    """The workspace's manifest with its second entry's test id set to ``test_id``, stamped
    (:func:`_stamp_local`): exit 2, and the manifest and the error line it printed."""
    entries = workspace(tmp_path)
    entries[1]["test_id"] = test_id
    m = write(tmp_path / "m.yml", {"properties": entries})
    (tmp_path / "r.xml").write_bytes(JUNIT_OK)
    assert _stamp_local(tmp_path, m) == 2
    return m, capsys.readouterr().err


def test_paths_are_relative_to_the_root(tmp_path: Path) -> None:
    entries = workspace(tmp_path)
    entries[0]["location"] = {"path": "tests/test_a.py", "line": 3}
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_a(): pass\n")
    entries[1]["sample"] = "b.card.json"
    sub = tmp_path / ".github"
    sub.mkdir()
    props = manifest.load(write(sub / "gate.yml", {"properties": entries}), tmp_path)
    assert [p.test_id for p in props] == ["a", "b"]
    assert props[0].card == tmp_path / "a.card.json"
    assert props[0].fixtures == (tmp_path / "fx" / "a",)
    assert props[0].location == {"path": "tests/test_a.py", "line": 3}
    assert props[0].location_file == tmp_path / "tests" / "test_a.py"
    assert props[1].sample == tmp_path / "b.card.json"
    assert props[0].junit_classname == "c" and props[0].junit_name == "a"


@pytest.mark.parametrize(("change", "field"), [
    (lambda m: m["properties"].append(dict(m["properties"][0])), "properties.3.test_id"),
    (lambda m: m["properties"][0].update(card="/etc/passwd"), "properties.0.card"),
    (lambda m: m["properties"][0].update(card="../x.json"), "properties.0.card"),
    (lambda m: m["properties"][0].update(fixtures=["fx/../../x"]), "properties.0.fixtures.0"),
    (lambda m: m["properties"][0].update(sample="a\\b"), "properties.0.sample"),
    (lambda m: m["properties"][0].update(fixtures=[]), "properties.0.fixtures"),
    (lambda m: m["properties"][0]["junit"].pop("name"), "properties.0.junit.name"),
    (lambda m: m["properties"][0].update(extra=1), "properties.0.extra"),
    (lambda m: m.update(properties=[]), "properties"),
    (lambda m: m.update(version=2), "version"),
    (lambda m: m["properties"][0].update(test_id=""), "properties.0.test_id"),
    (lambda m: m["properties"][1].update(location={"path": "tests/none.py"}),
     "properties.1.location.path"),
    (lambda m: m["properties"][0].update(location={"path": "../a.card.json"}),
     "properties.0.location.path"),
    (lambda m: m["properties"][0].update(location={"path": "fx/a"}),  # a folder, not a file
     "properties.0.location.path"),
])
def test_bad_manifests_are_refused(tmp_path: Path, change: Any, field: str) -> None:
    record = {"version": 1, "properties": workspace(tmp_path)}
    # its own card: a test id must be its card's property (a2 on a.card.json is refused)
    (tmp_path / "a2.card.json").write_text(json.dumps({"property": "a2", "cases": 1, "seed": 0}))
    record["properties"].append(dict(record["properties"][0], test_id="a2", card="a2.card.json"))
    change(record)
    with pytest.raises(GateInputError) as caught:
        manifest.load(write(tmp_path / "m.yml", record), tmp_path)
    assert caught.value.field == field


def test_a_schema_error_in_an_entry_names_its_test(tmp_path: Path) -> None:
    """attrs trial: "properties.0.fixture: unknown key" did not say which of 59 entries."""
    record = {"version": 1, "properties": workspace(tmp_path)}
    record["properties"][1]["fixture"] = record["properties"][1].pop("fixtures")
    with pytest.raises(GateInputError) as caught:
        manifest.load(write(tmp_path / "m.yml", record), tmp_path)
    test_id = record["properties"][1]["test_id"]
    assert caught.value.field == "properties.1.fixture"
    assert caught.value.message == (f"unknown key 'fixture': did you mean 'fixtures'? (the entry "
                                    f"of test {test_id!r})")


def test_duplicate_test_ids_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, err = _refused_with_second_test_id(tmp_path, capsys, "a")
    assert "duplicate test id 'a'" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_yaml_anchors_and_non_mapping_are_refused(tmp_path: Path) -> None:
    workspace(tmp_path)
    path = tmp_path / "m.yml"
    path.write_text("properties:\n  - &x {test_id: a}\n  - *x\n")
    with pytest.raises(GateInputError):
        manifest.load(path, tmp_path)
    path.write_text("- just a list\n")
    with pytest.raises(GateInputError):
        manifest.load(path, tmp_path)


def test_manifest_mode_stamps_every_property(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    m = write(tmp_path / "m.yml", {"properties": workspace(tmp_path)})
    (tmp_path / "r.xml").write_bytes(JUNIT_OK)
    code = main(["stamp", "--manifest", str(m), "--root", str(tmp_path), "--server-class",
                 "free-server", "--junit", str(tmp_path / "r.xml"), "--out",
                 str(tmp_path / "out"), "--exit-code", "0", "--run-id-prefix", "job7",
                 "--json"])
    assert code == 0
    written = json.loads(capsys.readouterr().out)
    assert [w["stamp"]["run_id"] for w in written] == ["job7.1", "job7.2"]
    assert {w["stamp"]["outcome"] for w in written} == {"pass"}
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["job7.1.json", "job7.2.json"]
    # The same prefix again: the first target exists, nothing is written, exit 2.
    code = main(["stamp", "--manifest", str(m), "--root", str(tmp_path), "--server-class",
                 "free-server", "--junit", str(tmp_path / "r.xml"), "--out",
                 str(tmp_path / "out"), "--exit-code", "0", "--run-id-prefix", "job7"])
    assert code == 2
    assert "never overwritten" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [
    ["--card", "a.card.json"], ["--test-id", "a"], ["--fixtures", "fx"], ["--run-id", "r"],
    ["--sample", "a.card.json"], ["--junit-name", "a"],
])
def test_manifest_mode_refuses_single_property_flags(tmp_path: Path, extra: list[str]) -> None:
    m = write(tmp_path / "m.yml", {"properties": workspace(tmp_path)})
    (tmp_path / "r.xml").write_bytes(JUNIT_OK)
    assert main(["stamp", "--manifest", str(m), "--server-class", "free-server", "--junit",
                 str(tmp_path / "r.xml"), "--out", str(tmp_path / "o"), "--exit-code", "0",
                 *extra]) == 2


def test_manifest_mode_needs_junit(tmp_path: Path) -> None:
    m = write(tmp_path / "m.yml", {"properties": workspace(tmp_path)})
    assert main(["stamp", "--manifest", str(m), "--server-class", "free-server", "--out",
                 str(tmp_path / "o"), "--exit-code", "0"]) == 2


def test_a_location_that_does_not_exist_is_exit_2_naming_the_entry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = workspace(tmp_path)
    entries[1]["location"] = {"path": "tests/test_b.py", "line": 4}
    m = write(tmp_path / "m.yml", {"properties": entries})
    (tmp_path / "r.xml").write_bytes(JUNIT_OK)
    code = _stamp_local(tmp_path, m)
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "properties.1.location.path" in line and "'tests/test_b.py'" in line
    assert "test 'b'" in line and "no such file" in line
    assert not (tmp_path / "out").exists()


def _stamped_location(tmp_path: Path, root: Path, capsys: pytest.CaptureFixture[str],
                      monkeypatch: pytest.MonkeyPatch, workspace_env: str | None = None,
                      ) -> Any:
    if workspace_env is None:
        monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    else:
        monkeypatch.setenv("GITHUB_WORKSPACE", workspace_env)
    entries = workspace(root)
    (root / "tests").mkdir()
    (root / "tests" / "test_a.py").write_text("def test_a(): pass\n")
    entries[0]["location"] = {"path": "tests/test_a.py", "line": 1}
    m = write(root / "m.yml", {"properties": entries})
    (root / "r.xml").write_bytes(JUNIT_OK)
    code = main(["stamp", "--manifest", str(m), "--root", str(root), "--server-class",
                 "local-pinned", "--junit", str(root / "r.xml"), "--out",
                 str(tmp_path / "out"), "--exit-code", "0", "--json"])
    assert code == 0
    written = json.loads(capsys.readouterr().out)
    assert "location" not in written[1]["stamp"]
    return written[0]["stamp"]["location"]


def test_stamped_location_is_relative_to_the_repository_root(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """root: props/suite in a repository: the stamp names props/suite/tests/test_a.py."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    root = repo / "props" / "suite"
    root.mkdir(parents=True)
    monkeypatch.chdir(repo)
    assert _stamped_location(tmp_path, root, capsys, monkeypatch) == {
        "path": "props/suite/tests/test_a.py", "line": 1}


def test_a_worktree_git_file_marks_the_repository_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").write_text("gitdir: /elsewhere\n")
    (repo / "sub").mkdir()
    assert _stamped_location(tmp_path, repo / "sub", capsys, monkeypatch)["path"] == \
        "sub/tests/test_a.py"


def test_without_git_the_workspace_is_the_repository_root(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ws" / "a").mkdir(parents=True)
    got = _stamped_location(tmp_path, tmp_path / "ws" / "a", capsys, monkeypatch,
                            workspace_env=str(tmp_path / "ws"))
    assert got["path"] == "a/tests/test_a.py"


def test_outside_any_repository_the_path_stays_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "r").mkdir()
    got = _stamped_location(tmp_path, tmp_path / "r", capsys, monkeypatch,
                            workspace_env=str(tmp_path / "elsewhere"))
    assert got["path"] == "tests/test_a.py"


def test_the_example_manifest_locations_name_each_test_line() -> None:
    """gate/examples/manifest.yml: every location is the `def test_…` line of its test."""
    root = Path(__file__).resolve().parent.parent / "gate" / "examples"
    for prop in manifest.load(root / "manifest.yml", root):
        assert prop.location is not None and prop.location_file is not None
        lines = prop.location_file.read_text(encoding="utf-8").splitlines()
        assert lines[prop.location["line"] - 1].startswith(f"def {prop.junit_name}("), prop


@pytest.mark.parametrize(("change", "field"), [
    (lambda e: e.update(card="gone.card.json"), "properties.0.card"),
    (lambda e: e.update(fixtures=["fx/a", "fx/missing.txt"]), "properties.0.fixtures.1"),
    (lambda e: e.update(sample="no-sample.json"), "properties.0.sample"),
])
def test_a_missing_card_fixture_or_sample_names_the_entry(
        tmp_path: Path, change: Any, field: str) -> None:
    """A newcomer's typo in a fixture path: the error names the manifest, the entry and the
    field, not a bare path from deep inside hashing."""
    entries = workspace(tmp_path)
    change(entries[0])
    m = write(tmp_path / "m.yml", {"properties": entries})
    with pytest.raises(GateInputError) as caught:
        manifest.load(m, tmp_path)
    assert (caught.value.source, caught.value.field) == (str(m), field)
    assert "no such file or folder under the root" in caught.value.message


def test_a_test_id_that_differs_from_its_card_property_is_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer trial: ``test_id: ...::test_convertyar`` (card ``...::test_convertyear``) stamped
    and opened the gate, the JUnit selector still matching the real test."""
    m, err = _refused_with_second_test_id(tmp_path, capsys, "bb")
    assert err.count("\n") == 1, err
    for part in (str(m), "properties.1.test_id", "'bb'", "'b'", "b.card.json", "the same"):
        assert part in err, (part, err)
    assert not (tmp_path / "out").exists()
    with pytest.raises(GateInputError):
        manifest.load(m, tmp_path)
    pol = tmp_path / "policy.yml"
    pol.write_text("allowlist: []\n")
    code = main(["policy", "check", str(pol), "--manifest", str(m), "--root", str(tmp_path)])
    assert code == 2 and "properties.1.test_id" in capsys.readouterr().err
