"""The files ``gate init`` writes besides the manifest: the workflow (the reusable workflow's
caller, or the two-job workflow) and a first ``requirements-test.txt``. Moved out of
:mod:`gate.records.adopt` (one room per file gate init writes)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from gate.errors import GateInputError


def _q(value: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(value, ensure_ascii=True)


# --- the workflow and requirements-test.txt ---------------------------------------------------

#: The lines of the two-job workflow (``examples/workflows/python.yml``, docs/workflow.md's) that
#: ``gate init``'s options set: (option, the line as the file has it, its prefix).
WORKFLOW_LINES = {
    "local_runner": ("            runs-on: [self-hosted, pinned] # the runner you control",
                     "            runs-on: {} # the runner you control"),
    "free_runner": ("            runs-on: ubuntu-latest # the free one",
                    "            runs-on: {} # the free one"),
    "python_version": ('          python-version: "3.11"', "          python-version: {}"),
    "test_command": ("          command: python -m pytest", "          command: {}"),
}
_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ./_=,+-]*")
_PATH = re.compile(r"[A-Za-z0-9._][A-Za-z0-9._/-]{0,999}")


def _shipped(names: tuple[str, str], missing: str) -> str:
    """A workflow file ``scripts/release.py`` pins: ``examples/workflows/NAME`` of the source
    tree, or the copy the wheel carries (``gate/examples/…``); ``missing`` says what to do
    when neither is there."""
    from gate.records.files import is_regular_file, read_bytes_capped

    package = Path(__file__).resolve().parent.parent
    for path in (package / "examples" / names[0],
                 package.parent / "examples" / "workflows" / names[1]):
        if is_regular_file(path):
            return read_bytes_capped(path).decode("utf-8")
    raise GateInputError(str(package), "(workflow)", missing)


def workflow_template() -> str:
    """The two-job workflow (``examples/workflows/python.yml``)."""
    return _shipped(("workflow.yml", "python.yml"), "the workflow template is not installed "
                    "with the gate; reinstall it, or give --no-workflow and paste the two-job "
                    "workflow of docs/workflow.md")


def _labels(labels: str, option: str) -> list[str]:
    """Runner labels, comma-separated, each checked."""
    parts = [part.strip() for part in labels.split(",")]
    bad = next((part for part in parts if not _LABEL.fullmatch(part)), None)
    if bad is not None:
        raise GateInputError("gate init", option, f"{bad!r}: a runner label is letters, digits "
                             "and ._- (several: comma-separated, self-hosted,pinned)")
    return parts


def _runner(labels: str, option: str) -> str:
    parts = _labels(labels, option)
    return parts[0] if len(parts) == 1 else "[" + ", ".join(parts) + "]"


def _version_and_command(python_version: str, test_command: str) -> tuple[str, str]:
    """``--python-version`` and ``--test-command`` checked (a 3.x version; one command line,
    its spaces collapsed), as both workflows ``gate init`` writes take them."""
    version = python_version.strip()
    if not re.fullmatch(r"3\.[0-9]{1,3}", version):
        raise GateInputError("gate init", "--python-version", f"{python_version!r}: give a "
                             "Python version such as 3.12 (the gate needs 3.11 or newer)")
    command = " ".join(test_command.split())
    if not command or "\n" in test_command:
        raise GateInputError("gate init", "--test-command", "give one command line (python "
                             "-m pytest tests/)")
    return version, command


def render_workflow(*, local_runner: str, free_runner: str, python_version: str,
                    test_command: str, template: str | None = None) -> str:
    """The workflow with the runner labels (comma-separated), the Python version and the test
    command given; with the defaults, the template byte for byte."""
    version, command = _version_and_command(python_version, test_command)
    values = {"local_runner": _runner(local_runner, "--local-runner"),
              "free_runner": _runner(free_runner, "--free-runner"),
              "python_version": _q(version),
              "test_command": command if _PLAIN.fullmatch(command) else _q(command)}
    text = workflow_template() if template is None else template
    for key, (line, shape) in WORKFLOW_LINES.items():
        if text.count(line + "\n") != 1:
            raise GateInputError("gate init", "(workflow)", f"the workflow template has no line "
                                 f"{line.strip()!r}; give --no-workflow")
        text = text.replace(line + "\n", shape.format(values[key]) + "\n")
    return text


#: The caller's one required line (examples/workflows/reusable-caller.yml) and the inputs of
#: the reusable workflow (.github/workflows/gate.yml) ``gate init`` may set, with its defaults
#: there: a value equal to its default is left out (tests/test_init_caller.py checks them).
CALLER_RUNNER_LINE = "      local-runner: '[\"self-hosted\", \"pinned\"]' # the runner you control"
CALLER_DEFAULTS = {"free-runner": '"ubuntu-latest"', "python-version": "3.11",
                   "command": "python -m pytest", "manifest": ".github/gate.yml",
                   "policy": ".github/gate-policy.yml"}


def caller_template() -> str:
    """The reusable workflow's caller (``examples/workflows/reusable-caller.yml``)."""
    return _shipped(("reusable-caller.yml", "reusable-caller.yml"), "the reusable workflow's "
                    "caller is not installed with the gate; reinstall it, or give --two-job or "
                    "--no-workflow")


def _runs_on_json(labels: str, option: str) -> str:
    """Runner labels (comma-separated) as the reusable workflow's runs-on input: JSON."""
    parts = _labels(labels, option)
    return json.dumps(parts[0] if len(parts) == 1 else parts)


def render_caller(*, local_runner: str, free_runner: str, python_version: str,
                  test_command: str, manifest: str = ".github/gate.yml",
                  policy: str = ".github/gate-policy.yml", template: str | None = None) -> str:
    """The caller of the reusable workflow with these values as its ``with:`` inputs: the
    local runner's labels replace the template's, and each other value that is not the
    reusable workflow's default (:data:`CALLER_DEFAULTS`) gets its own line after it; with
    the defaults, the template byte for byte."""
    version, command = _version_and_command(python_version, test_command)
    values = {"free-runner": _runs_on_json(free_runner, "--free-runner"),
              "python-version": version, "command": command, "manifest": manifest,
              "policy": policy}
    for name, option in (("manifest", "--manifest"), ("policy", "--policy")):
        if not _PATH.fullmatch(values[name]):
            raise GateInputError("gate init", option, f"{values[name][:100]!r}: give a path "
                                 "of letters, digits and ./_-")
    lines = [f"      local-runner: '{_runs_on_json(local_runner, '--local-runner')}'"
             " # the runner you control"]
    for name, value in values.items():
        if value != CALLER_DEFAULTS[name]:
            shown = (f"'{value}'" if name == "free-runner" else
                     _q(value) if name == "python-version" or not _PLAIN.fullmatch(value)
                     or name in ("manifest", "policy") else value)
            lines.append(f"      {name}: {shown}")
    text = caller_template() if template is None else template
    if text.count(CALLER_RUNNER_LINE + "\n") != 1:
        raise GateInputError("gate init", "(workflow)", "the caller template has no line "
                             f"{CALLER_RUNNER_LINE.strip()!r}; give --no-workflow")
    return text.replace(CALLER_RUNNER_LINE + "\n", "\n".join(lines) + "\n")


def requirements_text(root: Path, plugin_dists: Sequence[str]) -> str:
    """A first ``requirements-test.txt``: the project itself (editable, when it has a build
    file), pytest, Hypothesis and every plugin distribution the collection loaded."""
    from gate.records.files import is_regular_file

    lines = ["# The test dependencies the stamp jobs install (written by `gate init`; review it).",
             "# List every pytest plugin your configuration's addopts needs; `gate init --check`",
             "# says which are missing."]
    if any(is_regular_file(root / name) for name in ("pyproject.toml", "setup.py", "setup.cfg")):
        lines.append("-e .")
    names = ["pytest", "hypothesis"]
    for name in sorted(plugin_dists, key=str.lower):
        if normalized(name) not in {normalized(n) for n in [*names, *NOT_NEEDED]}:
            names.append(name)
    return "\n".join([*lines, *names]) + "\n"


#: Plugin distributions a test environment never needs (the gate loads its own recorder).
NOT_NEEDED = ("agent-patch-gate",)


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()
