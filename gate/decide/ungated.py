"""Ungated properties are named, by mechanism (issue 29; SPEC §6). Pure.

A Hypothesis test that no manifest property selects runs in neither class's stamp job, so
nothing the gate decides says anything about it: a property added (or renamed) without
``gate init --add`` would pass the gate by never running. Two sources name them, and the gate
job shows their union:

* **collected**: each stamp job's pytest session reports every collected Hypothesis test
  (``@given``, and a ``RuleBasedStateMachine``'s ``TestCase``), and the gate's own process
  keeps those no property selects in the stamps' ``ungated`` object (signed with the set);
* **scan**: the gate job parses the test files the pull request changes (``ast``, no import)
  for ``@given`` tests and state machines the manifest lacks: a conftest or ``-k`` can hide a
  test from the collection, not from the file.

The policy's ``ungated`` decides what they do: ``warn`` (the default) names them; ``fail``
closes the gate while any is named — a decision of its own, beside the seed tables:

==  ===============================  ========================
#   condition                        ungated decision
==  ===============================  ========================
1   no ungated test named            ``none`` (never closes)
2   some named, policy ``warn``      ``named`` (shown, open)
3   some named, policy ``fail``      ``closed``
==  ===============================  ========================
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

POLICIES = ("warn", "fail")
DEFAULT_POLICY = "warn"
GIVEN, STATEFUL = "given", "stateful"
KINDS = (GIVEN, STATEFUL)
SCAN = "scan"
#: Where a name came from, in the order shown (the two classes, then the gate job's scan).
SOURCES = ("local-pinned", "free-server", SCAN)
NONE, NAMED, CLOSED = "none", "named", "closed"
#: Names shown in one line (the log, an output); the report keeps more.
LINE_NAMES = 5


@dataclass(frozen=True, slots=True)
class Ungated:
    test: str  # a pytest node id (the scan's: file::[Class::]function)
    kind: str  # one of KINDS
    found_by: tuple[str, ...]  # sources, in SOURCES order


def union(found: Iterable[tuple[str, str, str]]) -> list[Ungated]:
    """``(source, test, kind)`` from every stamp and the scan, one entry per test (its kind the
    first seen, its sources in :data:`SOURCES` order), sorted by test."""
    kinds: dict[str, str] = {}
    sources: dict[str, set[str]] = {}
    for source, test, kind in found:
        kinds.setdefault(test, kind if kind in KINDS else KINDS[0])
        sources.setdefault(test, set()).add(source)
    return [Ungated(t, kinds[t], tuple(s for s in SOURCES if s in sources[t]))
            for t in sorted(kinds)]


def decision(count: int, policy: str) -> str:
    """The ungated decision (the table above); an unknown policy value counts as ``fail``."""
    if count <= 0:
        return NONE
    return NAMED if policy == "warn" else CLOSED


def files_of(tests: Sequence[str]) -> list[str]:
    """The test files of ``tests`` (node ids), in order, once each: what ``gate init --add``
    is given."""
    return list(dict.fromkeys(t.split("::", 1)[0] for t in tests))


def fix(tests: Sequence[str]) -> str:
    """The fix, as a command: ``gate init --add FILE...`` (it adds only what the manifest
    lacks), then commit the new cards and manifest entries."""
    files = files_of(tests)
    shown = " ".join(files[:LINE_NAMES]) + (" ..." if len(files) > LINE_NAMES else "")
    return f"gate init --add {shown}"


def log_line(tests: Sequence[tuple[str, str]], count: int) -> str:
    """One line naming ``count`` ungated tests (the first of ``tests`` shown) and the fix."""
    names = [t for t, _ in tests]
    shown = ", ".join(names[:LINE_NAMES]) + (
        f" and {count - min(len(names), LINE_NAMES)} more" if count > LINE_NAMES else "")
    one = count == 1
    return (f"gate: {count} Hypothesis test{'' if one else 's'} no manifest property "
            f"selects (ungated: {'it runs' if one else 'they run'} in no stamp job and "
            f"{'is' if one else 'are'} never decided): {shown}; fix: {fix(names)}")


def output_value(entries: Sequence[Mapping[str, object]]) -> str:
    """The ``ungated`` output: the node ids, space-separated (empty when none)."""
    return " ".join(str(e["test"]) for e in entries)


# --- which tests a manifest selects (as the stamp jobs match them) ---------------------------


def junit_key(nodeid: str) -> tuple[str, str]:
    """``(classname, name)`` of a node id as pytest's ``--junitxml`` writes them (its
    ``mangle_test_address``: the file's path as dotted names without ``.py``, then the
    classes; the last part is the name, parameters kept: split before the parameters, which
    may hold ``::``)."""
    address, bracket, params = nodeid.partition("[")  # a parameter id may hold "::"
    names = address.split("::")
    names[0] = names[0].replace("/", ".").removesuffix(".py")
    names[-1] += bracket + params
    if len(names) == 1:
        return "", names[0]
    return ".".join(names[:-1]), names[-1]


def selected(test: str, selectors: Iterable[tuple[str, str | None, str]]) -> bool:
    """Whether any property selects ``test``: by its ``test_id`` or its JUnit selector
    (``(test_id, classname or None, name)``; a None classname matches any, as the stamp
    jobs match)."""
    classname, name = junit_key(test)
    return any(test == test_id or (name == sel_name and sel_class in (None, classname))
               for test_id, sel_class, sel_name in selectors)


# --- the gate job's scan of the changed test files (ast: nothing is imported or run) ----------

#: The decorator that makes a Hypothesis test, by its last name (``given``, ``hypothesis.given``).
_GIVEN = "given"
#: Base classes that make a state machine, by their last name.
_MACHINES = frozenset({"RuleBasedStateMachine", "GenericStateMachine"})


def _last_name(node: object) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_given(function: object) -> bool:
    return any(_last_name(d) == _GIVEN for d in getattr(function, "decorator_list", ()))


def _is_test_function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return node.name.startswith("test") and _is_given(node)


def scan_source(path: str, source: str) -> list[tuple[str, str]]:
    """``(node id, kind)`` of every Hypothesis test in one test file's ``source`` (``path``:
    its path in the repository), as pytest's default collection would name it: a module-level
    ``@given`` function ``test*``, a ``@given`` method ``test*`` of a class ``Test*`` (or of a
    ``unittest.TestCase``, whatever its name), and a
    state machine's ``TestCase`` bound to a module-level name (or subclassed by a class):
    ``path::Name::runTest``. A file that does not parse gives nothing (pytest's own collection
    error is the news). Pure: the text is parsed, never imported."""
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError):
        return []
    machines: set[str] = set()
    for node in tree.body:  # a machine, or a subclass of one defined above it in the file
        if isinstance(node, ast.ClassDef) and any(
                _last_name(b) in _MACHINES or _last_name(b) in machines for b in node.bases):
            machines.add(node.name)
    found: list[tuple[str, str]] = []

    def test_case_of(value: object) -> bool:  # Machine.TestCase
        return (isinstance(value, ast.Attribute) and value.attr == "TestCase"
                and _last_name(value.value) in machines | _MACHINES)

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if _is_test_function(node):
                found.append((f"{path}::{node.name}", GIVEN))
        elif isinstance(node, ast.ClassDef):
            if any(test_case_of(b) for b in node.bases):
                found.append((f"{path}::{node.name}::runTest", STATEFUL))
            elif node.name.startswith("Test") or any(_last_name(b) == "TestCase"
                                                      for b in node.bases):
                found += [(f"{path}::{node.name}::{item.name}", GIVEN) for item in node.body
                          if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                          and _is_test_function(item)]
        elif isinstance(node, ast.Assign) and test_case_of(node.value):
            found += [(f"{path}::{t.id}::runTest", STATEFUL) for t in node.targets
                      if isinstance(t, ast.Name)]
    return found
