"""``gate init`` writes the caller of the gate's reusable workflow (issue 28): the options
(--local-runner, --free-runner, --python-version, --test-command, --manifest, --policy) become
its ``with:`` inputs, a value equal to the reusable workflow's default is left out, and with
every default the file is examples/workflows/reusable-caller.yml byte for byte; ``--two-job``
writes the two-job workflow instead (tests/test_init_check.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gate.errors import GateInputError
from gate.records import workflow_files
from tests.test_init import MANIFEST, init
from tests.test_init_check import WORKFLOW, _version, repo  # noqa: F401 (the fixture)

ROOT = Path(__file__).resolve().parent.parent
CALLER = ROOT / "examples" / "workflows" / "reusable-caller.yml"
REUSABLE = ROOT / ".github" / "workflows" / "gate.yml"
DEFAULTS = {"local_runner": "self-hosted,pinned", "free_runner": "ubuntu-latest",
            "python_version": "3.11", "test_command": "python -m pytest"}


def _inputs() -> dict[str, dict[str, object]]:
    loaded = yaml.safe_load(REUSABLE.read_text())
    on = loaded.get("on", loaded.get(True))
    inputs: dict[str, dict[str, object]] = on["workflow_call"]["inputs"]
    return inputs


def test_the_defaults_it_leaves_out_are_the_reusable_workflows() -> None:
    inputs = _inputs()
    for name, value in workflow_files.CALLER_DEFAULTS.items():
        assert str(inputs[name]["default"]) == value, name
    assert inputs["local-runner"]["required"] is True


def test_with_the_defaults_the_caller_is_the_examples_byte_for_byte() -> None:
    assert workflow_files.render_caller(**DEFAULTS) == CALLER.read_text()


def test_init_writes_the_caller_with_the_options_as_inputs(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    assert init("--local-runner", "self-hosted,linux", "--free-runner", "ubuntu-24.04",
                "tests") == 0
    out = capsys.readouterr().out
    text = WORKFLOW.read_text()
    job = yaml.safe_load(text)["jobs"]["gate"]
    assert job["uses"].startswith("agent-patch-gate/gate/.github/workflows/gate.yml@")
    assert job["uses"] == yaml.safe_load(CALLER.read_text())["jobs"]["gate"]["uses"]
    given = job["with"]
    assert json.loads(given["local-runner"]) == ["self-hosted", "linux"]
    assert json.loads(given["free-runner"]) == "ubuntu-24.04"
    assert given["command"] == "python -m pytest tests"
    assert set(given) <= set(_inputs())
    if _version() == "3.11":
        assert "python-version" not in given
    else:
        assert given["python-version"] == _version()
    assert "manifest" not in given and "policy" not in given  # the defaults
    assert text.startswith(CALLER.read_text().split("      local-runner:")[0])
    assert "the caller of the gate's reusable workflow" in out
    assert "local-runner, or runs-on with --two-job" in out
    assert MANIFEST.is_file()


def test_a_manifest_or_policy_elsewhere_is_named(repo: Path) -> None:  # noqa: F811
    assert init("--manifest", "ci/props.yml", "--policy", "ci/policy.yml",
                "--python-version", "3.12", "tests") == 0
    given = yaml.safe_load(WORKFLOW.read_text())["jobs"]["gate"]["with"]
    assert (given["manifest"], given["policy"], given["python-version"]) == (
        "ci/props.yml", "ci/policy.yml", "3.12")


def test_one_label_is_one_json_string() -> None:
    text = workflow_files.render_caller(**{**DEFAULTS, "local_runner": "pinned-box"})
    given = yaml.safe_load(text)["jobs"]["gate"]["with"]
    assert json.loads(given["local-runner"]) == "pinned-box"


def test_a_command_with_yaml_characters_is_quoted() -> None:
    command = 'python -m pytest -k "not slow" # x'
    text = workflow_files.render_caller(**{**DEFAULTS, "test_command": command})
    assert yaml.safe_load(text)["jobs"]["gate"]["with"]["command"] == command


@pytest.mark.parametrize(("option", "value", "field"), [
    ("local_runner", "self hosted", "--local-runner"),
    ("free_runner", "ubuntu-latest,${{ x }}", "--free-runner"),
    ("python_version", "2.7; rm", "--python-version"),
    ("test_command", "python -m pytest\nrm -rf /", "--test-command"),
    ("manifest", "a: b", "--manifest"),
    ("policy", "x\n y", "--policy"),
])
def test_options_that_would_not_be_one_yaml_value_are_refused(option: str, value: str,
                                                              field: str) -> None:
    with pytest.raises(GateInputError) as caught:
        workflow_files.render_caller(**{**DEFAULTS, option: value})  # type: ignore[arg-type]
    assert caught.value.field == field


def test_the_wheel_carries_the_caller_where_gate_init_reads_it() -> None:
    import tomllib

    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    assert build["targets"]["wheel"]["force-include"][
        "examples/workflows/reusable-caller.yml"] == "gate/examples/reusable-caller.yml"
    assert "examples/workflows/reusable-caller.yml" in build["targets"]["sdist"]["include"]
