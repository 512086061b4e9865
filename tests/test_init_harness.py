"""The test harness is what is hashed apart (issues 20.3, 27): ``gate init`` writes pytest's
configuration file, the plugins it loads (``-p`` in ``addopts``, ``pytest_plugins``), the
conftest.py files, ``__init__.py`` on the test's package path and ``sitecustomize.py``/``*.pth``
on the path into every property's ``harness`` with its ``harness_sha256`` (its fixtures keep
the test file and the project modules it imports); ``gate init --add`` adds them to existing
entries, every other byte kept; ``--check`` and ``--refresh`` see a harness change.

Real pytest projects in temporary folders, collected through the project's own pytest.
"""

from __future__ import annotations

import difflib
import json
import textwrap
from pathlib import Path

import pytest

from gate.errors import GateInputError
from gate.records import adopt, hashing, manifest
from gate.records.files import parse_yaml
from tests.test_init import MANIFEST, init, project

FORGE = '''\
"""A plugin a patch adds: it could rewrite results."""
from mylib.forge_helpers import rewrite  # noqa: F401


def pytest_configure(config):
    pass
'''
OWN = ["tests/test_props.py", "mylib/__init__.py", "mylib/core.py", "tests/helpers.py"]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project(tmp_path))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    (tmp_path / "mylib" / "forge_helpers.py").write_text("def rewrite():\n    pass\n")
    return tmp_path


def prop_of(test_id: str = "tests/test_props.py::test_add_zero") -> manifest.Property:
    return {p.test_id: p for p in manifest.load(MANIFEST, Path("."))}[test_id]


def fixtures_of(test_id: str = "tests/test_props.py::test_add_zero") -> list[str]:
    return [f.as_posix() for f in prop_of(test_id).fixtures]


def harness_of(test_id: str = "tests/test_props.py::test_add_zero") -> list[str]:
    prop = prop_of(test_id)
    # every entry gate init writes records its harness's digest
    assert prop.harness_sha256 == hashing.harness_hash(list(prop.harness), Path("."))
    return [f.as_posix() for f in prop.harness]


def test_a_plugin_named_in_addopts_and_its_imports_are_the_harness_of_every_property(
        repo: Path) -> None:
    """The attack of issue 20.3: ``addopts = -p forge`` with forge.py in the workspace."""
    (repo / "forge.py").write_text(FORGE)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p forge\n"
                                     "pythonpath = .\n")
    assert init("tests") == 0
    for prop in manifest.load(MANIFEST, Path(".")):
        files = harness_of(prop.test_id)
        assert files == ["tests/__init__.py", "pytest.ini", "forge.py",
                         "mylib/forge_helpers.py"], files
        assert not {f.as_posix() for f in prop.fixtures} & set(files)  # apart
    assert fixtures_of() == OWN  # the fixtures: the test file and what it imports
    # installed plugins (pytest's own, Hypothesis's) are not files of the repository
    assert not [f for f in harness_of() if "site-packages" in f or f.startswith("/")]


def test_pytest_plugins_of_a_conftest_are_harness(repo: Path) -> None:
    (repo / "plugs").mkdir()
    (repo / "plugs" / "__init__.py").write_text("")
    (repo / "plugs" / "extra.py").write_text("import mylib.forge_helpers  # noqa\n")
    (repo / "conftest.py").write_text('pytest_plugins = ["plugs.extra"]\n')
    assert init("tests") == 0
    files = harness_of()
    assert "conftest.py" in files and "plugs/extra.py" in files
    assert "mylib/forge_helpers.py" in files
    assert fixtures_of() == OWN


@pytest.mark.parametrize(("name", "text"), [
    ("pytest.ini", "[pytest]\naddopts = -p no:cacheprovider\n"),
    ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider"\n'),
    ("tox.ini", "[pytest]\naddopts = -p no:cacheprovider\n"),
    ("setup.cfg", "[tool:pytest]\naddopts = -p no:cacheprovider\n"),
])
def test_the_configuration_file_pytest_reads_is_harness(repo: Path, name: str,
                                                        text: str) -> None:
    (repo / "pytest.ini").unlink()
    (repo / name).write_text(text)
    assert init("tests") == 0
    assert harness_of()[-1] == name
    assert fixtures_of() == OWN


def test_no_configuration_file_leaves_the_package_path(repo: Path) -> None:
    (repo / "pytest.ini").unlink()
    assert init("tests") == 0
    assert fixtures_of() == OWN
    assert harness_of() == ["tests/__init__.py"]


def test_no_harness_at_all_writes_none(repo: Path) -> None:
    """Nothing but the test and its imports: no harness key, no digest (the schema wants at
    least one file in a harness)."""
    (repo / "pytest.ini").unlink()
    (repo / "solo").mkdir()
    (repo / "solo" / "test_solo.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n"
        "@given(st.integers())\ndef test_solo(x):\n    pass\n")
    assert init("solo") == 0
    prop = prop_of("solo/test_solo.py::test_solo")
    assert prop.harness == () and prop.harness_sha256 is None
    assert "harness" not in MANIFEST.read_text().split("properties:")[1]


def test_sitecustomize_and_pth_files_on_the_path_are_harness(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    boot = repo / "boot"
    boot.mkdir()
    (boot / "sitecustomize.py").write_text("import os  # runs at every start\n")
    (boot / "evil.pth").write_text("import os\n")
    (repo / "elsewhere").mkdir()
    (repo / "elsewhere" / "ignored.pth").write_text("\n")  # not on the path
    monkeypatch.setenv("PYTHONPATH", str(boot))
    assert init("tests") == 0
    files = harness_of()
    assert files[-2:] == ["boot/sitecustomize.py", "boot/evil.pth"], files
    assert "elsewhere/ignored.pth" not in files


def test_package_inits_from_the_root_to_the_test(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    for init_file in ("__init__.py", "a/__init__.py", "a/b/__init__.py"):
        (tmp_path / init_file).write_text("")
    (tmp_path / "a" / "b" / "test_x.py").write_text("")
    (tmp_path / "a" / "c").mkdir()
    (tmp_path / "a" / "c" / "__init__.py").write_text("")  # not on its path
    assert adopt.package_inits(tmp_path / "a" / "b" / "test_x.py", tmp_path) == [
        tmp_path / "__init__.py", tmp_path / "a" / "__init__.py",
        tmp_path / "a" / "b" / "__init__.py"]


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
    """A manifest as gate init wrote it before the harness was hashed: no harness files in
    any entry, and no ``harness`` apart (the old form)."""
    assert init("tests") == 0
    record = parse_yaml(MANIFEST.read_bytes(), "m")
    groups = record.pop("groups", {})
    for entry in record["properties"]:  # the long form: every file listed per entry
        entry["fixtures"] = [p for item in entry["fixtures"] for p in (
            groups[item["group"]] if isinstance(item, dict) else [item])]
        del entry["harness"], entry["harness_sha256"]
    text = (adopt.MANIFEST_HEADER + "version: 1\nproperties:\n"
            + adopt.render_entries(record["properties"]))
    MANIFEST.write_text(text)
    body = text.split("\nversion: 1\n")[1]  # the header names the fields
    assert "pytest.ini" not in body and "harness" not in body
    return text.encode()


def test_add_adds_the_harness_to_old_form_entries_fixtures_and_changes_nothing_else(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An entry of the old form keeps it: --add appends what it lacks to its fixtures, as
    before this change (no harness key is added to it)."""
    before = old_style_manifest(repo)
    (repo / "forge.py").write_text(FORGE)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p forge\n"
                                     "pythonpath = .\n")
    capsys.readouterr()
    assert init("--add", "tests") == 0
    out = capsys.readouterr().out
    assert ("added the test harness to the fixtures of 3 existing properties in "
            ".github/gate.yml (new lines at the end of each one's fixtures list, nothing else "
            "changed): forge.py, mylib/forge_helpers.py, pytest.ini, tests/__init__.py") in out
    after = MANIFEST.read_bytes()
    diff = [line for line in difflib.ndiff(before.decode().splitlines(),
                                           after.decode().splitlines())
            if line.startswith(("+", "-"))]
    assert all(line.startswith("+ ") for line in diff), diff  # only lines added
    assert sorted(diff) == sorted(['+       - "tests/__init__.py"', '+       - "pytest.ini"',
                                   '+       - "forge.py"',
                                   '+       - "mylib/forge_helpers.py"'] * 3)
    for prop in manifest.load(MANIFEST, Path(".")):
        assert [f.as_posix() for f in prop.fixtures][-4:] == [
            "tests/__init__.py", "pytest.ini", "forge.py", "mylib/forge_helpers.py"]
        assert prop.harness == () and prop.harness_sha256 is None
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
    assert all(p.fixtures[-1] == Path("pytest.ini") for p in props[:3])  # the old form
    assert props[3].harness[-1] == Path("pytest.ini")  # a new entry: apart
    assert Path("pytest.ini") not in props[3].fixtures


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


def test_a_changed_harness_is_refused_by_add_found_by_check_and_recorded_by_refresh(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A compact manifest (groups); pytest.ini gains ``-p forge``: --add refuses (recording
    more would hide the change), --check finds it (exit 1), --refresh rewrites the digests
    alone, then --add appends forge.py and its import to each one-line harness list and
    records their digest; what a group lists is not added again."""
    assert init("tests") == 0
    before = MANIFEST.read_text()
    assert 'harness: [{group: "harness"}]' in before and '    - "pytest.ini"' in before
    (repo / "forge.py").write_text(FORGE)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p forge\n"
                                     "pythonpath = .\n")
    capsys.readouterr()
    assert init("--add", "tests") == 2
    err = capsys.readouterr().err
    assert (".github/gate.yml: properties.0.harness_sha256: test "
            "'tests/test_props.py::test_add_zero': its test harness (tests/__init__.py, "
            "pytest.ini) hashes to ") in err
    assert "gate init --refresh" in err and MANIFEST.read_text() == before
    assert init("--check", "tests") == 1
    out = capsys.readouterr().out
    assert out.count("harness_sha256: test ") == 3 and "fix: review the change, then run " \
        "gate init --refresh to record it" in out
    assert init("--refresh", "tests") == 0
    out = capsys.readouterr().out
    assert "3 harness digests recorded anew" in out
    refreshed = MANIFEST.read_text()
    new = hashing.harness_hash(["tests/__init__.py", "pytest.ini"], ".")
    old = before.split('harness_sha256: "')[1][:64]
    assert refreshed == before.replace(old, new)  # the three digests, nothing else
    assert init("--add", "tests") == 0
    after = MANIFEST.read_text()
    newer = hashing.harness_hash(["tests/__init__.py", "pytest.ini", "forge.py",
                                  "mylib/forge_helpers.py"], ".")
    assert after == refreshed.replace(
        '{group: "harness"}]', '{group: "harness"}, "forge.py", "mylib/forge_helpers.py"]'
    ).replace(new, newer)
    for prop in manifest.load(MANIFEST, Path(".")):
        assert {"pytest.ini", "forge.py", "mylib/forge_helpers.py"} <= {
            f.as_posix() for f in prop.harness}
    assert init("--check", "tests") == 0


# --- the stamp routes refuse a harness changed since gate init recorded it ------------------------


@pytest.mark.parametrize("route", ["pytest plugin", "gate stamp --pytest"])
def test_every_pytest_route_refuses_a_harness_changed_since_init(repo: Path, route: str) -> None:
    """A conftest.py added after gate init is a new harness file only --add records; a
    changed conftest.py (or pytest.ini) is a stale harness_sha256: exit 2 before any test
    runs, naming the manifest's field and the fix, no stamps."""
    import subprocess
    import sys

    from tests.property_suite.harness import env

    (repo / "tests" / "conftest.py").write_text("import os\n")
    assert init("tests") == 0
    (repo / "tests" / "conftest.py").write_text("import os  # a patch's harness change\n")
    pytest_args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    command = ([*pytest_args, "--gate-stamps", "stamps", "--gate-server-class",
                "local-pinned"] if route == "pytest plugin" else
               [sys.executable, "-m", "gate", "stamp", "--manifest", str(MANIFEST),
                "--server-class", "local-pinned", "--pytest", "--out", "stamps",
                "--isolation", "none", "--", *pytest_args])
    done = subprocess.run(command, cwd=repo, env=env(), capture_output=True, text=True,
                          timeout=300, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 2, said
    assert ".github/gate.yml: properties.0.harness_sha256: test " in said
    assert "(tests/__init__.py, tests/conftest.py, pytest.ini)" in said
    assert "gate init --refresh" in said
    assert not list(repo.glob("stamps/*.json"))
