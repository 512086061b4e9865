"""The package's folders are its architecture (README "Architecture"): each role may import
only what this table allows, read from every module's imports with ``ast``.

| role            | may import of the project                          |
|-----------------|----------------------------------------------------|
| gate.decide     | gate.decide only (and the standard library)        |
| gate.records    | gate (``__version__``), gate.errors, gate.decide, gate.records |
| gate.github     | the above and gate.github; PyGithub only in gate.github.checks |
| gate.agent      | gate.errors, gate.decide, gate.records, gate.agent |
| gate.testrun    | gate.errors, gate.decide, gate.records, gate.testrun; pytest, Hypothesis |
| gate.action     | gate.errors, gate.decide, gate.records, gate.github, gate.action; imported |
|                 | only by gate.commands (and the old path's shim, gate.github.action) |
| gate.commands   | anything; imported only by ``gate.__main__`` (and the console script) |
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gate"

ROLES = ("decide", "records", "github", "agent", "testrun", "action", "commands")
ALLOWED: dict[str, set[str]] = {
    "decide": {"gate.decide"},
    "records": {"gate", "gate.errors", "gate.decide", "gate.records"},
    "github": {"gate", "gate.errors", "gate.decide", "gate.records", "gate.github"},
    "agent": {"gate", "gate.errors", "gate.decide", "gate.records", "gate.agent"},
    "testrun": {"gate", "gate.errors", "gate.decide", "gate.records", "gate.testrun"},
    # the composite action's steps: they show through gate.github, never run tests themselves
    # (the stamp step runs `gate stamp` through the entry point gate.commands hands it)
    "action": {"gate", "gate.errors", "gate.decide", "gate.records", "gate.github",
               "gate.action"},
    "commands": {"gate", "gate.errors", *(f"gate.{r}" for r in ROLES)},
}
# Third-party packages each role may import (the standard library is always allowed).
THIRD_PARTY: dict[str, set[str]] = {
    "decide": set(),
    "records": {"yaml", "jsonschema", "fastjsonschema", "junitparser", "referencing",
                "cryptography",  # cryptography: signed stamps (gate/records/signing.py)
                # signing.mode: sigstore, imported lazily in gate/records/sigstore_bundle.py
                "sigstore", "sigstore_models"},
    "github": set(),  # PyGithub and its transport only from gate/github/checks.py, see below
    "agent": set(),
    "testrun": {"pytest", "_pytest", "hypothesis"},
    "action": set(),
    "commands": set(),
}
PYGITHUB_HOME = "gate.github.checks"
PYGITHUB = {"github", "urllib3", "requests"}  # PyGithub, and the transport it is configured with
# Modules outside the five roles and what they are for.
TOP_LEVEL = {
    "gate": set(),                                   # __version__ only
    "gate.__main__": {"gate.commands"},              # python -m gate
    "gate.errors": set(),                            # the one error type every role raises
    "gate.guard": {"gate.agent"},                    # old name of gate.agent.guard
    "gate.pytest_plugin": {"gate.testrun"},          # old name of gate.testrun.pytest_plugin
}
# Old names inside a role folder, kept as the very same module as their new home (the one
# arrow each may draw, outside its role's rules).
SHIMS = {
    "gate.agent.recorder": {"gate.testrun"},         # -p gate.agent.recorder
    "gate.github.action": {"gate.action"},           # re-exports gate.action's objects
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module name ``source`` imports (relative imports resolved), with its line."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((node.lineno, base))
            # ``from gate import records`` imports the subpackage gate.records
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names
                      if base == "gate" and alias.name in (*ROLES, "errors")]
    return found


def _project_part(name: str) -> str:
    """``gate.records.files`` -> ``gate.records``; ``gate.errors``; ``gate``."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else parts[0]


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """The forbidden arrows out of one module."""
    parts = module.split(".")
    role = parts[1] if len(parts) > 1 and parts[1] in ROLES else None
    bad: list[str] = []
    stdlib = sys.stdlib_module_names
    for line, name in imports_of(source, module, is_package):
        top = name.split(".")[0]
        if top == "gate":
            target = _project_part(name)
            if target == "gate" and name != "gate":
                target = name  # a top-level module such as gate.guard
            if target == "gate.commands" and module != "gate.__main__" and role != "commands":
                bad.append(f"{module}:{line} imports {name}: only gate.__main__ and the console "
                           "script import the commands")
                continue
            if (target == "gate.action" and role not in ("commands", "action")
                    and target not in SHIMS.get(module, set())):
                bad.append(f"{module}:{line} imports {name}: only the commands import the "
                           "composite action's steps")
                continue
            allowed = ALLOWED[role] if role else TOP_LEVEL.get(module, set()) | {"gate"}
            allowed = allowed | SHIMS.get(module, set())
            if target not in allowed:
                bad.append(f"{module}:{line} imports {name}")
        elif top in stdlib or top == "__future__":
            continue
        elif role is None:
            bad.append(f"{module}:{line} imports {name} (third party outside a role)")
        elif top in PYGITHUB:
            if module != PYGITHUB_HOME:
                bad.append(f"{module}:{line} imports {name}: only {PYGITHUB_HOME} talks to GitHub")
        elif top not in THIRD_PARTY[role]:
            bad.append(f"{module}:{line} imports {name} ({role} may not)")
    return bad


def all_modules() -> list[tuple[str, Path]]:
    return sorted((module_name(p), p) for p in PACKAGE.rglob("*.py")
                  if "examples" not in p.relative_to(PACKAGE).parts)


#: Issue 30: no hand-written module of the gate grows into a hall (the generated validators,
#: ``gate/records/_fast_*.py``, are written by gate.records.schemas and exempt).
MAX_MODULE_LINES = 750


def generated(path: Path) -> bool:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    return path.name.startswith("_fast_") and first.startswith('"""Generated from schemas/') \
        and "do not edit" in first


def test_no_hand_written_module_is_over_the_line_limit() -> None:
    sizes = {module: len(path.read_text(encoding="utf-8").splitlines())
             for module, path in all_modules() if not generated(path)}
    assert {m: n for m, n in sizes.items() if n > MAX_MODULE_LINES} == {}
    assert sum(generated(p) for _, p in all_modules()) >= 8  # the exemption names real files


def test_every_module_belongs_to_a_role_or_is_listed() -> None:
    for module, _ in all_modules():
        parts = module.split(".")
        assert (len(parts) > 1 and parts[1] in ROLES) or module in TOP_LEVEL, module


def test_no_forbidden_import_anywhere() -> None:
    found: list[str] = []
    for module, path in all_modules():
        found += violations(module, path.read_text(encoding="utf-8"), path.name == "__init__.py")
    assert found == []


@pytest.mark.parametrize(("module", "source", "why"), [
    ("gate.decide.halt", "from gate.records import files\n", "decide reads no files"),
    ("gate.decide.stamps", "import os\nimport time\nfrom gate import errors\n", "decide"),
    ("gate.decide.digest", "import yaml\n", "decide uses the standard library only"),
    ("gate.records.pairing", "from gate.github import summary\n", "records never shows"),
    ("gate.records.ledger", "from gate.agent import hook\n", "records never runs agents"),
    ("gate.records.load", "from gate.commands import main\n", "nothing imports commands"),
    ("gate.github.summary", "from github import Github\n", "PyGithub only in checks"),
    ("gate.github.publish", "import requests\n", "its transport too"),
    ("gate.records.load", "import github\n", "records never talks to GitHub"),
    ("gate.github.summary", "from gate.agent import guard\n", "github shows, agent runs"),
    ("gate.agent.hook", "from gate.github import workflow\n", "the hook never publishes"),
    ("gate.agent.hook", "from ..github import workflow\n", "relative imports count too"),
    ("gate.agent.hook", "from gate import github\n", "a subpackage named in from-import"),
    ("gate.guard", "from gate.commands import main\n", "shims re-export, nothing more"),
    ("gate.testrun.recorder", "from gate.github import workflow\n", "testrun never publishes"),
    ("gate.testrun.stamping", "from gate.commands import main\n", "testrun never commands"),
    ("gate.testrun.pytest_plugin", "from gate.agent import hook\n", "test runs are no agent"),
    ("gate.testrun.cases", "import yaml\n", "testrun: pytest and Hypothesis only"),
    ("gate.agent.hook", "from gate.testrun import stamping\n", "the agent runs no tests"),
    ("gate.agent.guard", "import pytest\n", "the agent side needs no pytest"),
    ("gate.records.manifest", "from gate.testrun import cases\n", "records never runs tests"),
    ("gate.github.summary", "from gate.testrun import stamping\n", "github shows, testrun runs"),
    ("gate.action.stamp", "from gate.testrun import stamping\n", "the action runs gate stamp"),
    ("gate.action.gate", "from gate.agent import hook\n", "the action runs no agent"),
    ("gate.github.publish", "from gate.action import settings\n", "only commands import it"),
    ("gate.records.pairing", "from gate.action.gate import _decide\n", "records never acts"),
    ("gate.github.action", "from gate.testrun import stamping\n", "the shim: its one arrow"),
    ("gate.decide.outcome", "from gate.testrun import cases\n", "decide is pure"),
    ("gate.agent.hook", "from gate.testrun import recorder\n", "only the shim's own arrow"),
])
def test_the_rule_catches_one_forbidden_import(module: str, source: str, why: str) -> None:
    assert violations(module, source), why


def test_the_rule_accepts_the_allowed_arrows() -> None:
    assert violations("gate.decide.halt", "import re\nfrom gate.decide import stamps\n") == []
    assert violations("gate.records.report", "from gate import __version__\n") == []
    assert violations("gate.github.checks", "from github import Github\n") == []
    assert violations("gate.commands.halt", "from gate.agent import hook\n") == []
    assert violations("gate.commands.stamp", "from gate.testrun import stamping\n") == []
    assert violations("gate.testrun.stamping", "from gate.records import hashing\n") == []
    assert violations("gate.testrun.recorder", "from gate.decide import outcome\n") == []
    assert violations("gate.agent.recorder", "from gate.testrun import recorder\n") == []
    assert violations("gate.__main__", "from gate.commands.main import main\n") == []
    assert violations("gate.commands.action", "from gate.action import main\n") == []
    assert violations("gate.action.gate", "from gate.github import publish\n") == []
    assert violations("gate.action.main", "from gate.action.stamp import _stamp\n") == []
    assert violations("gate.github.action", "from gate.action.main import run\n") == []


def test_version_imports_no_records_github_or_agent(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gate", "--version"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.startswith("gate "), done.stderr[-2000:]
    names = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    ours = {n for n in names if n == "gate" or n.startswith("gate.")}
    assert ours, "importtime saw no gate module"
    for role in ("gate.records", "gate.github", "gate.agent", "gate.testrun", "gate.decide",
                 "gate.action"):
        assert not {n for n in ours if n == role or n.startswith(role + ".")}, (role, ours)


def test_public_names_stay_importable() -> None:
    import gate.agent.recorder
    import gate.guard
    import gate.pytest_plugin
    from gate.agent import guard
    from gate.testrun import pytest_plugin, recorder

    assert gate.guard is guard and gate.guard.ToolGuard is guard.ToolGuard
    assert gate.pytest_plugin is pytest_plugin
    assert gate.agent.recorder is recorder and sys.modules["gate.agent.recorder"] is recorder


def test_the_old_action_path_gives_the_same_objects() -> None:
    """``gate.github.action`` (before issue 30's split) re-exports every name it had, as the
    very objects of their new homes in ``gate.action``."""
    from gate.action import failures, main, settings, sign, stamp
    from gate.action import gate as gate_step
    from gate.github import action

    assert action.run is main.run and action.Settings is settings.Settings
    assert action._stamp is stamp._stamp and action._sign is sign._sign
    assert action._gate is gate_step._gate and action.stamp_error is failures.stamp_error
    for name in action.__all__:
        assert getattr(action, name) is not None, name


def test_the_hook_names_what_moved_to_its_input_module() -> None:
    """``gate.agent.hook`` (before issue 30 moved its input reading to ``gate.agent.hook_input``)
    still names every public name of that module, as the very same object."""
    from gate.agent import hook, hook_input

    assert hook_input.__all__ and set(hook_input.__all__) <= set(hook.__all__)
    for name in hook_input.__all__:
        assert getattr(hook, name) is getattr(hook_input, name), name


def test_the_plugin_entry_point_is_the_plugin_module() -> None:
    """pytest loads the plugin by its pytest11 entry point: it names the module's new home, and
    loading it gives the very module ``gate.pytest_plugin`` names."""
    from importlib.metadata import entry_points

    import gate.pytest_plugin

    (point,) = [e for e in entry_points(group="pytest11") if e.name == "gate"]
    assert point.value == "gate.testrun.pytest_plugin"
    assert point.load() is gate.pytest_plugin


def test_the_pyproject_entry_point_names_the_new_home() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["pytest11"] == {"gate": "gate.testrun.pytest_plugin"}


# --- the recorder runs in the user's test environment (gate stamp --pytest) ---------------------

RECORDER = "gate.testrun.recorder"
#: The only project modules the recorder may reach, and the third-party packages they may use.
RECORDER_MAY_REACH = {"gate", "gate.errors", "gate.testrun", "gate.testrun.recorder",
                      "gate.testrun.cases", "gate.testrun.hypothesis_card",
                      "gate.testrun.integrity", "gate.testrun.blame"}
RECORDER_THIRD_PARTY = {"pytest", "_pytest", "hypothesis"}


def _module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def import_closure(start: str) -> tuple[set[str], set[str]]:
    """Every project module ``start`` can import (lazily too: every import statement counts,
    and a package's ``__init__`` for each module), and every third-party top-level name."""
    seen: set[str] = set()
    third: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_path(name)
        if path is None:  # ``from gate.x import name``: a name, not a module
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:n]) for n in range(1, len(parts))]  # parent packages
        found = [n for _, n in imports_of(path.read_text(encoding="utf-8"), name,
                                          path.name == "__init__.py")]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found += [f"{node.module}.{alias.name}" for alias in node.names]
        for imported in found:
            top = imported.split(".")[0]
            if top == "gate":
                todo.append(imported)
            elif top not in sys.stdlib_module_names and top != "__future__":
                third.add(top)
    return seen, third


def test_the_recorder_reaches_only_the_standard_library_pytest_and_hypothesis() -> None:
    modules, third = import_closure(RECORDER)
    decide = {m for m in modules if m == "gate.decide" or m.startswith("gate.decide.")}
    assert modules - decide <= RECORDER_MAY_REACH, sorted(modules - decide - RECORDER_MAY_REACH)
    assert third <= RECORDER_THIRD_PARTY, sorted(third - RECORDER_THIRD_PARTY)
    assert {"gate.testrun.cases", "gate.testrun.hypothesis_card", "gate.decide.outcome"} <= modules


def test_the_closure_rule_sees_a_lazy_import() -> None:
    """The rule would catch an import of gate.records (PyYAML, jsonschema) anywhere in it."""
    modules, _ = import_closure("gate.testrun.stamping")
    assert "gate.records.manifest" in modules and "gate.records.schemas" in modules
    _, third = import_closure("gate.records.files")
    assert "yaml" in third


# --- no circles between modules ---------------------------------------------------------------


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its body (lazy imports too)."""
    modules = {name for name, _ in all_modules()}
    graph: dict[str, set[str]] = {}
    for name, path in all_modules():
        targets: set[str] = set()
        source = path.read_text(encoding="utf-8")
        for _, imported in imports_of(source, name, path.name == "__init__.py"):
            targets.add(imported)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_two_modules_import_each_other() -> None:
    """gate.github.review and gate.github.workflow imported each other (issue 19); no circle of
    any length is left, lazy imports counted."""
    assert cycles(import_graph()) == []


def test_the_circle_rule_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    graph = import_graph()
    graph["gate.github.workflow"].add("gate.github.review")
    assert any({"gate.github.review", "gate.github.workflow"} <= set(part)
               for part in cycles(graph))
