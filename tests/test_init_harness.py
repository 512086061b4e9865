"""The test harness is part of what is hashed (issue 20.3): ``gate init`` writes pytest's
configuration file, the plugins it loads (``-p`` in ``addopts``, ``pytest_plugins``), the
conftest.py files and ``sitecustomize.py``/``*.pth`` on the path into every property's
fixtures, and ``gate init --add`` adds them to existing entries, every other byte kept.

Real pytest projects in temporary folders, collected through the project's own pytest.
"""

from __future__ import annotations

import difflib
import json
import textwrap
from pathlib import Path

import pytest

from gate.errors import GateInputError
from gate.records import adopt, manifest
from gate.records.files import parse_yaml
from tests.test_init import MANIFEST, init, project

FORGE = '''\
"""A plugin a patch adds: it could rewrite results."""
from mylib.forge_helpers import rewrite  # noqa: F401


def pytest_configure(config):
    pass
'''


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project(tmp_path))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    (tmp_path / "mylib" / "forge_helpers.py").write_text("def rewrite():\n    pass\n")
    return tmp_path


def fixtures_of(test_id: str = "tests/test_props.py::test_add_zero") -> list[str]:
    props = {p.test_id: p for p in manifest.load(MANIFEST, Path("."))}
    return [f.as_posix() for f in props[test_id].fixtures]


def test_a_plugin_named_in_addopts_and_its_imports_are_fixtures_of_every_property(
        repo: Path) -> None:
    """The attack of issue 20.3: ``addopts = -p forge`` with forge.py in the workspace."""
    (repo / "forge.py").write_text(FORGE)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p forge\n"
                                     "pythonpath = .\n")
    assert init("tests") == 0
    for test_id in manifest.load(MANIFEST, Path(".")):
        files = fixtures_of(test_id.test_id)
        assert files[-3:] == ["pytest.ini", "forge.py", "mylib/forge_helpers.py"], files
    # installed plugins (pytest's own, Hypothesis's) are not files of the repository
    assert not [f for f in fixtures_of() if "site-packages" in f or f.startswith("/")]


def test_pytest_plugins_of_a_conftest_are_fixtures(repo: Path) -> None:
    (repo / "plugs").mkdir()
    (repo / "plugs" / "__init__.py").write_text("")
    (repo / "plugs" / "extra.py").write_text("import mylib.forge_helpers  # noqa\n")
    (repo / "conftest.py").write_text('pytest_plugins = ["plugs.extra"]\n')
    assert init("tests") == 0
    files = fixtures_of()
    assert "conftest.py" in files and "plugs/extra.py" in files
    assert "mylib/forge_helpers.py" in files


@pytest.mark.parametrize(("name", "text"), [
    ("pytest.ini", "[pytest]\naddopts = -p no:cacheprovider\n"),
    ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider"\n'),
    ("tox.ini", "[pytest]\naddopts = -p no:cacheprovider\n"),
    ("setup.cfg", "[tool:pytest]\naddopts = -p no:cacheprovider\n"),
])
def test_the_configuration_file_pytest_reads_is_a_fixture(repo: Path, name: str,
                                                          text: str) -> None:
    (repo / "pytest.ini").unlink()
    (repo / name).write_text(text)
    assert init("tests") == 0
    assert fixtures_of()[-1] == name


def test_no_configuration_file_adds_nothing(repo: Path) -> None:
    (repo / "pytest.ini").unlink()
    assert init("tests") == 0
    assert fixtures_of() == ["tests/test_props.py", "mylib/__init__.py", "mylib/core.py",
                             "tests/helpers.py"]


def test_sitecustomize_and_pth_files_on_the_path_are_fixtures(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    boot = repo / "boot"
    boot.mkdir()
    (boot / "sitecustomize.py").write_text("import os  # runs at every start\n")
    (boot / "evil.pth").write_text("import os\n")
    (repo / "elsewhere").mkdir()
    (repo / "elsewhere" / "ignored.pth").write_text("\n")  # not on the path
    monkeypatch.setenv("PYTHONPATH", str(boot))
    assert init("tests") == 0
    files = fixtures_of()
    assert files[-2:] == ["boot/sitecustomize.py", "boot/evil.pth"], files
    assert "elsewhere/ignored.pth" not in files


def test_harness_files_outside_the_root_or_in_a_venv_are_left_out(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".venv" / "lib").mkdir(parents=True)
    outside = tmp_path / "outside.py"
    outside.write_text("")
    venv_plugin = root / ".venv" / "lib" / "plug.py"
    venv_plugin.write_text("")
    (root / "mine.py").write_text("")
    (root / "conftest.py").write_text("")
    found = adopt.harness_files(None, [outside, venv_plugin, root / "mine.py",
                                       root / "conftest.py"], [root], root)
    assert found == [root / "mine.py"]  # conftest.py files are per test (conftest_files)


# --- gate init --add on a manifest written before the harness was hashed -----------------------


def old_style_manifest(repo: Path) -> bytes:
    """A manifest as gate init wrote it before: no harness files in any entry."""
    assert init("tests") == 0
    record = parse_yaml(MANIFEST.read_bytes(), "m")
    groups = record.pop("groups", {})
    for entry in record["properties"]:  # the long form: every file listed per entry
        entry["fixtures"] = [p for item in entry["fixtures"] for p in (
            groups[item["group"]] if isinstance(item, dict) else [item]) if p != "pytest.ini"]
    text = (adopt.MANIFEST_HEADER + "version: 1\nproperties:\n"
            + adopt.render_entries(record["properties"]))
    MANIFEST.write_text(text)
    assert "pytest.ini" not in text
    return text.encode()


def test_add_adds_the_harness_to_existing_entries_and_changes_nothing_else(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = old_style_manifest(repo)
    (repo / "forge.py").write_text(FORGE)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p forge\n"
                                     "pythonpath = .\n")
    capsys.readouterr()
    assert init("--add", "tests") == 0
    out = capsys.readouterr().out
    assert ("added the test harness to the fixtures of 3 existing properties in "
            ".github/gate.yml (new lines at the end of each one's fixtures list, nothing else "
            "changed): forge.py, mylib/forge_helpers.py, pytest.ini") in out
    after = MANIFEST.read_bytes()
    diff = [line for line in difflib.ndiff(before.decode().splitlines(),
                                           after.decode().splitlines())
            if line.startswith(("+", "-"))]
    assert all(line.startswith("+ ") for line in diff), diff  # only lines added
    assert sorted(diff) == sorted(['+       - "pytest.ini"', '+       - "forge.py"',
                                   '+       - "mylib/forge_helpers.py"'] * 3)
    for prop in manifest.load(MANIFEST, Path(".")):
        assert [f.as_posix() for f in prop.fixtures][-3:] == [
            "pytest.ini", "forge.py", "mylib/forge_helpers.py"]
    assert init("--add", "tests") == 0  # again: nothing to add
    assert "nothing to add" in capsys.readouterr().out
    assert MANIFEST.read_bytes() == after


def test_add_adds_the_harness_and_new_properties_together(repo: Path) -> None:
    old_style_manifest(repo)
    (repo / "tests" / "test_more.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n"
        "@given(st.integers())\ndef test_more(x):\n    pass\n")
    assert init("--add", "tests") == 0
    props = manifest.load(MANIFEST, Path("."))
    assert len(props) == 4
    assert all(p.fixtures[-1] == Path("pytest.ini") for p in props)


def test_a_flow_list_of_fixtures_gains_the_paths_in_place(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text("")
    text = textwrap.dedent("""\
        version: 1
        properties:
          - test_id: "t.py::t"   # a comment kept
            card: "c.json"
            fixtures: ["t.py", "lib.py"]
            junit: {name: "t"}
            location: {path: "t.py"}
        """)
    record = parse_yaml(text.encode(), "m")
    out = adopt.add_fixtures(text.encode(), record, {0: ["pytest.ini"]}, "m", tmp_path)
    assert out.decode() == text.replace('"lib.py"]', '"lib.py", "pytest.ini"]')


def test_fixtures_it_cannot_extend_in_place_are_refused(tmp_path: Path) -> None:
    """The fixtures list is the file's last line, without a newline: a line added after it
    would not parse to the record, so the whole --add is refused, nothing written."""
    (tmp_path / "a.py").write_text("")
    text = ('version: 1\nproperties:\n  - test_id: "a.py::t"\n    card: "a.json"\n'
            '    junit: {name: "t"}\n    location: {path: "a.py"}\n    fixtures:\n'
            '      - "a.py"')
    record = parse_yaml(text.encode(), "m")
    with pytest.raises(GateInputError, match="cannot add the test harness"):
        adopt.add_fixtures(text.encode(), record, {0: ["pytest.ini"]}, "m", tmp_path)


def test_the_collector_reports_the_inifile_and_the_plugin_files(repo: Path) -> None:
    from gate.testrun import collecting

    (repo / "forge.py").write_text(FORGE)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p forge\n"
                                     "pythonpath = .\n")
    import sys

    found = collecting.collect(["tests"], sys.executable)
    assert found.inipath == repo / "pytest.ini"
    assert repo / "forge.py" in found.plugin_files
    assert json.dumps([str(p) for p in found.plugin_files])  # paths, not modules


def test_add_adds_the_harness_to_compact_entries_in_their_flow_lists(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A compact manifest (groups): the harness files no group or glob of an entry lists are
    added at the end of its one-line fixtures list; what its groups list is not added again."""
    assert init("tests") == 0
    before = MANIFEST.read_text()
    assert '{group: "shared"}' in before and '    - "pytest.ini"' in before
    (repo / "forge.py").write_text(FORGE)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p forge\n"
                                     "pythonpath = .\n")
    assert init("--add", "tests") == 0
    after = MANIFEST.read_text()
    assert after == before.replace('{group: "shared"}]',
                                   '{group: "shared"}, "forge.py", "mylib/forge_helpers.py"]')
    for prop in manifest.load(MANIFEST, Path(".")):
        assert {"pytest.ini", "forge.py", "mylib/forge_helpers.py"} <= {
            f.as_posix() for f in prop.fixtures}
