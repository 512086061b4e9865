"""``gate init`` writes the workflow and ``requirements-test.txt`` and prints the next steps;
``gate init --check`` names what would break the first CI run (issue 28): a plugin the
configuration needs that requirements-test.txt lacks, a card the CI settings conflict with,
properties the manifest no longer matches. Each finding names the file, the field and the fix;
exit 0 with none, 1 with findings, 2 on bad input."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from gate.errors import GateInputError
from gate.records import doctor, workflow_files
from tests.test_init import MANIFEST, init, project

WORKFLOW = Path(".github/workflows/properties.yml")
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "workflows" / "python.yml"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project(tmp_path))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    for name in ("CI", "GITHUB_ACTIONS"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_init_writes_the_workflow_the_requirements_and_the_next_steps(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pyproject.toml").write_text("[project]\nname = 'mylib'\nversion = '1'\n")
    assert init("--two-job", "--local-runner", "self-hosted,linux", "tests") == 0
    out = capsys.readouterr().out
    text = WORKFLOW.read_text()
    example = EXAMPLE.read_text()
    assert text == example.replace(
        "runs-on: [self-hosted, pinned] # the runner you control",
        "runs-on: [self-hosted, linux] # the runner you control").replace(
        "command: python -m pytest\n", "command: python -m pytest tests\n").replace(
        'python-version: "3.11"', f'python-version: "{_version()}"')
    assert yaml.safe_load(text)["jobs"]["stamp"]["steps"][-1]["with"]["manifest"] == (
        ".github/gate.yml")
    requirements = (repo / "requirements-test.txt").read_text().splitlines()
    assert [r for r in requirements if not r.startswith("#")][:3] == ["-e .", "pytest",
                                                                      "hypothesis"]
    assert "agent-patch-gate" not in requirements  # the gate's own plugin is never needed
    assert f"wrote {WORKFLOW} (the two stamp legs and the gate job)" in out
    assert "next steps:\n  1. review .github/gate.yml" in out
    assert "  2. gate init --check" in out and "  4. commit them, push a branch" in out


def _version() -> str:
    import sys

    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def test_with_the_defaults_the_workflow_is_the_readmes_byte_for_byte() -> None:
    assert workflow_files.render_workflow(
        local_runner="self-hosted,pinned", free_runner="ubuntu-latest", python_version="3.11",
        test_command="python -m pytest") == EXAMPLE.read_text()


@pytest.mark.parametrize(("option", "value", "field"), [
    ("local_runner", "self hosted", "--local-runner"),
    ("free_runner", "ubuntu-latest,${{ x }}", "--free-runner"),
    ("python_version", "2.7; rm", "--python-version"),
    ("test_command", "python -m pytest\nrm -rf /", "--test-command"),
])
def test_options_that_would_not_be_one_yaml_value_are_refused(option: str, value: str,
                                                              field: str) -> None:
    values = {"local_runner": "a", "free_runner": "b", "python_version": "3.12",
              "test_command": "python -m pytest"}
    values[option] = value
    with pytest.raises(GateInputError) as caught:
        workflow_files.render_workflow(**values)
    assert caught.value.field == field


def test_a_command_with_yaml_characters_is_quoted() -> None:
    text = workflow_files.render_workflow(local_runner="a", free_runner="b", python_version="3.12",
                                 test_command='python -m pytest -k "not slow" # x')
    step = yaml.safe_load(text)["jobs"]["stamp"]["steps"][-1]
    assert step["with"]["command"] == 'python -m pytest -k "not slow" # x'


def test_an_existing_workflow_is_never_overwritten_and_requirements_are_kept(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    WORKFLOW.parent.mkdir(parents=True)
    WORKFLOW.write_text("mine\n")
    assert init("tests") == 2
    err = capsys.readouterr().err
    assert f"{WORKFLOW}: (file): already exists" in err and "--no-workflow" in err
    assert not MANIFEST.exists()
    (repo / "requirements-test.txt").write_text("pytest\nhypothesis\n")
    assert init("--no-workflow", "tests") == 0
    assert (repo / "requirements-test.txt").read_text() == "pytest\nhypothesis\n"
    assert WORKFLOW.read_text() == "mine\n"


def check(capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = init("--check", "tests")
    return code, capsys.readouterr().out.splitlines()


def test_check_is_clean_right_after_init(repo: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    code, lines = check(capsys)
    assert code == 0, lines
    assert lines[-1] == ("gate init --check: 0 findings (nothing found that would break the "
                         "first CI run)")


def test_check_names_a_plugin_addopts_needs_that_the_requirements_lack(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The attrs and pyrsistent trials: the first CI run stopped at 'unrecognized arguments'
    because requirements-test.txt lacked a plugin the configuration's addopts needs."""
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -n 0\n")
    assert init("tests") == 0
    (repo / "requirements-test.txt").write_text("pytest\nhypothesis\n")
    code, lines = check(capsys)
    assert code == 1
    assert ("requirements-test.txt: pytest-xdist: the pytest plugin pytest-xdist is not "
            "installed by it, and the configuration needs it (-n): pytest stops with "
            "'unrecognized arguments' before the gate's recorder loads; fix: add a line "
            "pytest-xdist") in lines
    (repo / "requirements-test.txt").write_text("-r more.txt\n")
    (repo / "more.txt").write_text("pytest\nhypothesis\npytest_xdist==3.8\n")
    assert check(capsys)[0] == 0  # -r followed, names compared as PEP 503 does


def test_check_follows_the_projects_extras(repo: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -n 0\n")
    assert init("tests") == 0
    (repo / "pyproject.toml").write_text(textwrap.dedent("""\
        [project]
        name = "mylib"
        version = "1"
        dependencies = ["hypothesis"]
        [project.optional-dependencies]
        test = ["pytest", "pytest-xdist"]
        """))
    (repo / "requirements-test.txt").write_text("-e .[test]\n")
    assert check(capsys)[0] == 0
    (repo / "requirements-test.txt").write_text("-e .\n")
    code, lines = check(capsys)
    assert code == 1 and any(": pytest-xdist: " in line for line in lines)
    assert any(line.startswith("requirements-test.txt: pytest: pytest is not installed")
               for line in lines)


def test_check_names_a_card_the_ci_settings_conflict_with(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    text = MANIFEST.read_text()
    MANIFEST.write_text(text.replace("card: {cases: 100, seed:", "card: {deadline_ms: 5, "
                                     "cases: 100, seed:", 1))
    code, lines = check(capsys)
    assert code == 1
    [found] = [line for line in lines if "deadline_ms" in line]
    assert found.startswith(f"{MANIFEST}: properties.0.card.deadline_ms: "
                            "tests/test_props.py::test_add_zero: the card says 5, the settings "
                            "it runs with on CI say None")
    assert found.endswith("fix: CI=true gate init --refresh (rewrites the cards' settings "
                          "fields)")


def test_check_names_properties_the_manifest_no_longer_matches(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    test_file = repo / "tests" / "test_props.py"
    test_file.write_text(test_file.read_text().replace("def test_add_zero", "def test_renamed"))
    code, lines = check(capsys)
    assert code == 1
    assert (f"{MANIFEST}: properties: tests/test_props.py::test_add_zero: not collected "
            "(renamed or removed?); its stamps would be resource_exit; fix: remove its entry, "
            "and gate init --add for the new name") in lines
    assert (f"{MANIFEST}: properties: 1 Hypothesis test(s) no property selects, e.g. "
            "tests/test_props.py::test_renamed; fix: gate init --add") in lines


def test_check_of_a_manifest_that_does_not_load_is_exit_2(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("--check", "tests") == 2
    assert f"{MANIFEST}: --check: no manifest to check" in capsys.readouterr().err
    assert init("tests") == 0
    MANIFEST.write_text(MANIFEST.read_text().replace('"tests/test_props.py", {group',
                                                     '{glob: "tests/*.rs"}, {group', 1))
    assert init("--check", "tests") == 2
    assert "properties.0.fixtures.0.glob: 'tests/*.rs' matches no file" in (
        capsys.readouterr().err)


@pytest.mark.parametrize(("build", "wanted"), [
    ('[build-system]\nrequires = ["hatchling", "hatch-vcs"]\n',
     ["hatchling", "hatch-vcs", "editables"]),
    ('[build-system]\nrequires = ["setuptools>=64"]\n', ["setuptools"]),
    ("", ["setuptools", "wheel"]),
])
def test_an_editable_install_names_what_it_builds_with_offline(tmp_path: Path, build: str,
                                                               wanted: list[str]) -> None:
    (tmp_path / "pyproject.toml").write_text(build)
    (tmp_path / "requirements-test.txt").write_text("-e .\npytest\n")
    assert doctor.offline_build(tmp_path / "requirements-test.txt", tmp_path) == wanted
    (tmp_path / "requirements-test.txt").write_text("pytest\n")
    assert doctor.offline_build(tmp_path / "requirements-test.txt", tmp_path) == []


def test_check_prints_the_offline_note_for_hatchling(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    (repo / "pyproject.toml").write_text('[build-system]\nrequires = ["hatchling"]\n'
                                         'build-backend = "hatchling.build"\n')
    (repo / "requirements-test.txt").write_text("-e .\npytest\nhypothesis\n")
    code, lines = check(capsys)
    assert code == 0
    assert ("note: requirements-test.txt installs the project (-e .): an offline run (act "
            "with PIP_NO_INDEX) needs the wheels it builds with in its wheel folder: pip "
            "download -d DIR2 hatchling editables") in lines


def test_the_wheel_carries_the_workflow_where_gate_init_reads_it() -> None:
    """pyproject.toml's force-include puts examples/workflows/python.yml where
    workflow_files.workflow_template looks first in an installed package."""
    import tomllib

    root = EXAMPLE.parent.parent.parent
    build = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    assert build["targets"]["wheel"]["force-include"][
        "examples/workflows/python.yml"] == "gate/examples/workflow.yml"
    assert "examples/workflows/python.yml" in build["targets"]["sdist"]["include"]


def test_add_names_the_existing_groups_a_new_property_lists(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``gate init --add`` into a compact manifest: a new property whose files include a
    group's names that group (same fixture hash as listing them), every old byte kept."""
    from gate.records import manifest

    assert init("tests") == 0
    before = MANIFEST.read_text()
    with (repo / "tests" / "test_props.py").open("a") as handle:
        handle.write("\n\n@given(st.text())\ndef test_new(s):\n    assert twice(len(s)) >= 0\n")
    assert init("--add", "tests") == 0
    after = MANIFEST.read_text()
    assert after.startswith(before)
    added = yaml.safe_load(after)["properties"][-1]
    assert added["test_id"] == "tests/test_props.py::test_new"
    assert added["fixtures"] == ["tests/test_props.py", {"group": "shared"}]
    props = {p.test_id: p for p in manifest.load(MANIFEST, Path("."))}
    assert set(props["tests/test_props.py::test_new"].fixtures) == set(
        props["tests/test_props.py::test_add_zero"].fixtures)
