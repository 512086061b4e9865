"""What ``gate init`` writes: cards, manifest entries and the empty policy, from collected tests.

Pure rendering and path work; collecting (a child pytest) is :mod:`gate.testrun.collecting`,
and the command (:mod:`gate.commands.init`) does the writing.

* **Fixtures** default to the test file and the project modules it imports, transitively: the
  test file is parsed with :mod:`ast` (never imported here), every ``import`` and ``from ...
  import`` is resolved to a file as Python would, on the child interpreter's ``sys.path``
  entries that lie under the root (relative imports against the importing file's folder), only
  files under the root outside ``site-packages`` are kept, and each kept file's imports are
  followed the same way (each file once). A name that is a module gives its own file
  (``pkg/mod.py`` or ``pkg/__init__.py``), never a folder: a folder would hash ``__pycache__``.
* **Card files** are named after the test id with everything but ``[A-Za-z0-9._-]`` replaced,
  plus a short digest of the id when the name was shortened or would collide.
* **Appending** (``--add``) keeps the existing manifest's bytes and adds entries at the end; the
  result must parse to the old record plus the new entries, else it is refused.
"""

from __future__ import annotations

import ast
import hashlib
import json
import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from gate.errors import GateInputError
from gate.records import manifest, schemas
from gate.records import policy as policy_mod
from gate.records.files import parse_yaml, read_bytes_capped
from gate.records.workflow_files import _q

DEFAULT_CASES = 100  # Hypothesis's own default max_examples
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NAME_LIMIT = 96
_THIRD_PARTY_DIRS = {"site-packages", "dist-packages", "node_modules", ".tox", ".nox"}

MANIFEST_HEADER = """\
# The stamp manifest (written by `gate init`; review it, then commit it). Paths are relative
# to the stamping root (`gate stamp --root`; in CI the repository root), not to this file.
#   groups    fixtures many properties share, written once; a property names them
#   test_id   the pytest node id; stamps, reports and the policy name the property by it
#   card      the sample card: cases (the test's max_examples) and a seed minted by gate init
#   fixtures  the bytes the property checks: its test file and the project modules it
#             imports; add the data files it reads ({glob: "data/*"}); hashed into fixture_hash
#   harness   the test harness it runs under, apart: pytest's configuration, the conftest.py
#             files pytest loads for it and what they import, __init__.py on its package
#             path, plugins, sitecustomize.py/*.pth
#   harness_sha256  the harness's digest (docs/formats.md); gate stamp refuses to stamp when
#             the files hash otherwise: after a reviewed harness change, gate init --refresh
#   junit     how the test is found in the JUnit report, when pytest's node id does not say
#   location  where a red result is annotated (the test's file and line)
"""

POLICY_TEXT = """\
# The reviewed policy file (written empty by `gate init`). `gate classify`, `gate stamp`, the
# pytest plugin and the action's gate mode read it; `gate policy check` checks it.
#
# A freeze mutes one red test in one server class until an expiry fixed before the run (the
# card's `freeze_expires_at` must be in the future too). Add entries only through review:
#
# allowlist:
#   - test_id: "tests/test_example.py::test_round_trip"
#     server_class: free-server        # the class the freeze applies to
#     owner: "@your-team"              # who will fix it
#     reason: why the free runner cannot run this property yet
#     issue: "https://github.com/OWNER/REPO/issues/1"   # where the fix is tracked
#     added: 1790985600                # Unix seconds (`date -u -d 2026-10-03 +%s`)
#     expires: 1791590400              # Unix seconds, within max_freeze_days of added
# max_freeze_days: 30                  # the longest freeze window `gate policy check` allows
# timeouts:
#   exit_codes: [124, 137]             # exit statuses stamped as resource_exit
# ungated: fail                        # a @given test no manifest property selects closes the
#                                      # gate (default warn: it is only named); recommended
#                                      # for agent-drafted pull requests
allowlist: []
"""


@dataclass(frozen=True, slots=True)
class Planned:
    """One property ``gate init`` writes: its card (path and record) and its manifest entry."""

    test_id: str
    card_path: Path | None  # its card file (relative to the current folder); None: inline
    card: dict[str, Any]
    entry: dict[str, Any]  # the manifest entry (paths relative to the root)


def relative_to_root(path: Path, root: Path, source: str, field: str, fix: str) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise GateInputError(source, field, f"{path} is outside the root {root}; {fix}") from None


def _is_third_party(path: Path, root: Path) -> bool:
    try:
        parts = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return True
    return any(part in _THIRD_PARTY_DIRS or part.startswith((".venv", "venv"))
               for part in parts[:-1])


def imports_of(test_file: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """``(level, module, names)`` for every import in the file (``names`` of a from-import)."""
    try:
        tree = ast.parse(read_bytes_capped(test_file), filename=str(test_file))
    except SyntaxError as exc:
        raise GateInputError(str(test_file), f"line {exc.lineno}",
                             f"not valid Python: {exc.msg}") from None
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(0, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or "",
                          tuple(alias.name for alias in node.names if alias.name != "*")))
    return found


def _module_file(base: Path, dotted: str) -> Path | None:
    parts = [p for p in dotted.split(".") if p]
    if not parts:
        init = base / "__init__.py"
        return init if init.is_file() else None
    here = base.joinpath(*parts)
    for candidate in (here.with_name(here.name + ".py"), here / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _resolve_absolute(dotted: str, bases: Sequence[Path]) -> Path | None:
    """The first base whose tree holds the module's top package, as Python's path search."""
    top = dotted.split(".")[0]
    for base in bases:
        if _module_file(base, top) is not None or (base / top).is_dir():
            return _module_file(base, dotted)
    return None


_MODULE_LIMIT = 10_000  # files followed at most (a bound, far above any real project)


def _imported_files(source: Path, bases: Sequence[Path], root: Path,
                    strict: bool) -> list[Path]:
    """The project files ``source``'s own imports name (one level), in the order they appear."""
    try:
        imports = imports_of(source)
    except GateInputError:
        if strict:  # the test file itself
            raise
        return []  # a module it imports that does not parse: its own failure to report
    found: list[Path] = []
    for level, module, names in imports:
        if level:  # relative to the package holding ``source`` (its folder, __init__ or not)
            base = source.parent
            for _ in range(level - 1):
                base = base.parent
            targets = [_module_file(base, module)]
            targets += [_module_file(base, f"{module}.{n}" if module else n) for n in names]
        else:
            targets = [_resolve_absolute(module, bases)]
            targets += [_resolve_absolute(f"{module}.{n}", bases) for n in names]
        found += [t for t in targets if t is not None and not _is_third_party(t, root)]
    return found


def module_files(test_file: Path, search: Sequence[Path], root: Path) -> list[Path]:
    """The project files (under ``root``, outside third-party folders) the test file imports,
    followed transitively: a package's ``__init__.py`` that re-exports from its private
    modules (``from ._parser import parse``) brings those modules in, and so on. Breadth first
    in the order the imports appear, each file once (cycles end there), bounded."""
    bases = [b for b in search if b.is_dir() and not _is_third_party(b / "x", root)]
    seen: set[Path] = {test_file.resolve()}
    unique: list[Path] = []
    queue = [test_file]
    while queue and len(unique) < _MODULE_LIMIT:
        source = queue.pop(0)
        for path in _imported_files(source, bases, root, strict=source is test_file):
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                unique.append(path)
                queue.append(path)
    return unique[:_MODULE_LIMIT]


def _extension_file(base: Path, dotted: str) -> Path | None:
    """The compiled extension module ``dotted`` names under ``base`` (``name.cpython-311-…so``,
    ``name.pyd``), if one is there."""
    parts = [p for p in dotted.split(".") if p]
    if not parts:
        return None
    folder = base.joinpath(*parts[:-1])
    for suffix in EXTENSION_SUFFIXES:
        candidate = folder / (parts[-1] + suffix)
        if candidate.is_file():
            return candidate
    return None


def extension_modules(sources: Iterable[Path], search: Sequence[Path],
                      root: Path) -> list[tuple[Path, Path]]:
    """``(extension, importer)`` for each compiled extension module under ``root`` (outside
    third-party folders) that one of the Python files ``sources`` imports, each once, in the
    order found. The import following stops there: an extension's sources (C, Cython) and its
    build script are no import, so ``gate init`` names the extension for them to be added to
    the fixtures by hand (pyrsistent trial: ``pvectorc``, built in place from
    ``pvectorcmodule.c``, is what its ``pvector`` runs, and no fixture held its code)."""
    bases = [b for b in search if b.is_dir() and not _is_third_party(b / "x", root)]
    seen: set[Path] = set()
    found: list[tuple[Path, Path]] = []
    for source in sources:
        if source.suffix != ".py":
            continue
        try:
            imports = imports_of(source)
        except GateInputError:
            continue  # reported where the file is followed, if at all
        for level, module, names in imports:
            dotted = [module, *(f"{module}.{n}" if module else n for n in names)]
            if level:
                base = source.parent
                for _ in range(level - 1):
                    base = base.parent
                hits = [_extension_file(base, d) for d in dotted]
            else:
                hits = [next((hit for b in bases if (hit := _extension_file(b, d))), None)
                        for d in dotted]
            for hit in hits:
                if hit is None or _is_third_party(hit, root) or hit.resolve() in seen:
                    continue
                seen.add(hit.resolve())
                found.append((hit, source))
    return found


def conftest_files(test_file: Path, search: Sequence[Path], root: Path) -> list[Path]:
    """The ``conftest.py`` files pytest loads for ``test_file`` (its folder and every folder
    above it up to ``root``, the outermost first) and the project files they import: they
    hold the fixtures and the settings profile the property runs with (attrs trial: a conftest
    that loads a profile was no fixture, so changing it changed nothing the stamps compare)."""
    from gate.records.files import is_regular_file

    top = root.resolve()
    folder = test_file.resolve().parent
    chain: list[Path] = []
    while True:
        candidate = folder / "conftest.py"
        if is_regular_file(candidate):
            chain.append(candidate)
        if folder == top or top not in folder.parents:
            break
        folder = folder.parent
    found: list[Path] = []
    for conftest in reversed(chain):
        found += [conftest, *module_files(conftest, search, root)]
    return found


def package_inits(test_file: Path, root: Path) -> list[Path]:
    """The ``__init__.py`` files in the folders from ``root`` down to ``test_file``'s own
    (the outermost first): pytest imports a test module's packages with it, so their code runs
    in the test process (issue 27: harness, not the package under test)."""
    from gate.records.files import is_regular_file

    top = root.resolve()
    folder = test_file.resolve().parent
    chain: list[Path] = []
    while folder == top or top in folder.parents:
        candidate = folder / "__init__.py"
        if is_regular_file(candidate):
            chain.append(candidate)
        if folder == top:
            break
        folder = folder.parent
    return list(reversed(chain))


def card_file_names(test_ids: Iterable[str], taken: Iterable[str] = ()) -> dict[str, str]:
    """A distinct, portable ``*.json`` file name per test id (case-insensitively distinct)."""
    used = {name.lower() for name in taken}
    names: dict[str, str] = {}
    for test_id in test_ids:
        stem = _SAFE.sub("_", test_id.replace("::", "__")).strip("._-") or "property"
        digest = hashlib.sha256(test_id.encode("utf-8")).hexdigest()[:8]
        if len(stem) > _NAME_LIMIT:
            stem = f"{stem[:_NAME_LIMIT]}-{digest}"
        name = f"{stem}.json"
        if name.lower() in used:
            name = f"{stem}-{digest}.json"
        used.add(name.lower())
        names[test_id] = name
    return names


def card_for(test_id: str, max_examples: int | None, seed: int, source: str,
             own: dict[str, Any] | None = None) -> dict[str, Any]:
    """The card: ``cases`` from ``max_examples``, the seed, and ``own`` (the
    ``deadline_ms``/``suppress_health_check`` the test's own settings set, so the card never
    conflicts with them)."""
    card: dict[str, Any] = {
        "property": test_id,
        "cases": max_examples if max_examples and max_examples > 0 else DEFAULT_CASES,
        "seed": seed}
    for key in ("deadline_ms", "suppress_health_check"):
        if own and key in own:
            card[key] = own[key]
    schemas.validate("sample-card", card, f"{source}: card for {test_id!r}")
    return card


def entry_for(*, test_id: str, card: str | dict[str, Any], fixtures: Sequence[str],
              classname: str, name: str, location: str, line: int | None,
              harness: Sequence[str] = (), harness_sha256: str | None = None) -> dict[str, Any]:
    """A manifest entry; ``card`` a path, or the card itself (written inline, without its
    ``property``). ``junit`` is left out when pytest's junitxml names the test id so
    (:func:`gate.records.manifest.junit_of`). ``harness`` (with its ``harness_sha256``) only
    when there is one."""
    entry: dict[str, Any] = {"test_id": test_id, "fixtures": list(fixtures)}
    entry["card"] = card if isinstance(card, str) else {
        k: v for k, v in card.items() if k != "property"}
    if harness:
        entry["harness"] = list(harness)
        entry["harness_sha256"] = harness_sha256
    if manifest.junit_of(test_id) != ((classname or None), name):
        entry["junit"] = {"classname": classname, "name": name} if classname else {
            "name": name}
    loc: dict[str, Any] = {"path": location}
    if line is not None and line >= 1:
        loc["line"] = line
    entry["location"] = loc
    return entry


def _flow(value: Any) -> str:
    """A value as a one-line YAML flow node (mappings with bare keys, JSON for the rest)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _q(value) if isinstance(value, str) else json.dumps(value)


#: Card fields in the order an inline card shows them.
_CARD_ORDER = ("cases", "seed", "deadline_ms", "suppress_health_check", "freeze_expires_at",
               "description")


def _card_text(card: Any) -> str:
    if isinstance(card, str):
        return _q(card)
    ordered = {k: card[k] for k in _CARD_ORDER if k in card}
    ordered.update({k: v for k, v in card.items() if k not in ordered})
    return _flow(ordered)


def render_entries(entries: Sequence[dict[str, Any]], indent: str = "  ") -> str:
    lines: list[str] = []
    for entry in entries:
        lines.append(f"{indent}- test_id: {_q(entry['test_id'])}")
        lines.append(f"{indent}  card: {_card_text(entry['card'])}")
        for key in ("fixtures", "harness"):
            if key not in entry:
                continue
            if all(isinstance(p, str) for p in entry[key]) and len(entry[key]) > 3:
                lines.append(f"{indent}  {key}:")
                lines += [f"{indent}    - {_q(path)}" for path in entry[key]]
            else:
                lines.append(f"{indent}  {key}: {_flow(entry[key])}")
        if "harness_sha256" in entry:
            lines.append(f"{indent}  harness_sha256: {_q(entry['harness_sha256'])}")
        if "junit" in entry:
            lines.append(f"{indent}  junit: {_flow(entry['junit'])}")
        if "location" in entry:
            lines.append(f"{indent}  location: {_flow(entry['location'])}")
    return "".join(f"{line}\n" for line in lines)


def render_manifest(entries: Sequence[dict[str, Any]],
                    groups: Mapping[str, Sequence[str]] | None = None) -> str:
    text = f"{MANIFEST_HEADER}version: 1\n"
    if groups:
        text += "groups:\n" + "".join(
            f"  {name}:\n" + "".join(f"    - {_q(path)}\n" for path in paths)
            for name, paths in groups.items())
    return f"{text}properties:\n{render_entries(entries)}"


def _group_name(paths: Sequence[str], taken: set[str], prefix: str = "") -> str:
    folder = posixpath.commonpath([posixpath.dirname(p) for p in paths])
    stem = _SAFE.sub("-", folder).strip("._-")[:48]
    stem = (f"{prefix}-{stem}" if stem else prefix) if prefix else (stem or "shared")
    name, n = stem, 2
    while name in taken:
        name, n = f"{stem}-{n}", n + 1
    taken.add(name)
    return name


def compact(entries: Sequence[dict[str, Any]], taken: Sequence[str] = (),
            min_files: int = 2) -> tuple[dict[str, list[str]], list[dict[str, Any]]]:
    """The fixtures entries share, written once: every set of at least ``min_files`` files
    that exactly the same two or more entries list (each entry's own test file, its
    ``location``, aside) becomes a group, named after the files' common folder (``shared``
    at the root); each entry names its groups after its test file and keeps its other files.
    Every entry's fixtures expand to the same set of files (so the same fixture hash). The
    ``harness`` lists are grouped the same way, apart (groups named ``harness``,
    ``harness-FOLDER``; the same harness digest)."""
    groups, entries = _compact(entries, "fixtures", set(taken), min_files, "")
    more, entries = _compact(entries, "harness", set(taken) | set(groups), min_files, "harness")
    return {**groups, **more}, entries


def _compact(entries: Sequence[dict[str, Any]], key: str, names: set[str], min_files: int,
             prefix: str) -> tuple[dict[str, list[str]], list[dict[str, Any]]]:
    users: dict[str, set[int]] = {}
    for index, entry in enumerate(entries):
        own = (entry.get("location") or {}).get("path")
        for path in entry.get(key, ()):
            if isinstance(path, str) and path != own:
                users.setdefault(path, set()).add(index)
    by_users: dict[frozenset[int], list[str]] = {}
    for path, who in users.items():
        if len(who) >= 2:
            by_users.setdefault(frozenset(who), []).append(path)
    groups: dict[str, list[str]] = {}
    member: dict[str, str] = {}
    for paths in by_users.values():
        if len(paths) >= min_files:
            name = _group_name(paths, names, prefix)
            groups[name] = paths
            member.update(dict.fromkeys(paths, name))
    return groups, [_grouped(entry, member, key) for entry in entries]


def _grouped(entry: dict[str, Any], member: Mapping[str, str],
             key: str = "fixtures") -> dict[str, Any]:
    """``entry`` with each file of ``member`` (file -> group) in its ``key`` list replaced by
    its group, named once: its own test file first, then its groups, then its other items."""
    if key not in entry:
        return entry
    own = (entry.get("location") or {}).get("path")
    named: list[str] = []
    rest: list[Any] = []
    for path in entry[key]:
        group = member.get(path) if isinstance(path, str) else None
        if group is not None:
            if group not in named:
                named.append(group)
        elif path != own:
            rest.append(path)
    head = [own] if own in entry[key] else []
    return {**entry, key: [*head, *({"group": g} for g in named), *rest]}


def with_groups(entry: dict[str, Any], groups: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
    """``entry`` naming each of ``groups`` whose files (plain paths only) its fixtures (or its
    harness) all list, in their place: for ``gate init --add`` into a manifest that has
    groups."""
    for key in ("fixtures", "harness"):
        listed = set(p for p in entry.get(key, ()) if isinstance(p, str))
        member: dict[str, str] = {}
        for name, paths in groups.items():
            if all(isinstance(p, str) for p in paths) and set(paths) <= listed:
                member.update({p: name for p in paths if p not in member})
        entry = _grouped(entry, member, key)
    return entry


def check_manifest_text(text: str, source: str, root: Path) -> Any:
    """Parse and validate manifest text exactly as ``gate stamp`` will; the parsed record."""
    record = parse_yaml(text.encode("utf-8"), source)
    manifest.from_record(record, source, root, check_paths=False)  # its cards come next
    return record


def check_policy_text(text: str, source: str) -> None:
    policy_mod.from_record(parse_yaml(text.encode("utf-8"), source), source)


def append_entries(original: bytes, old_record: Any, entries: Sequence[dict[str, Any]],
                   source: str, root: Path) -> bytes:
    """``original`` with ``entries`` appended to its ``properties``, every old byte kept."""
    try:
        text = original.decode("utf-8")
    except UnicodeDecodeError:
        raise GateInputError(source, "(yaml)", "not UTF-8 text") from None
    if text and not text.endswith("\n"):
        text += "\n"
    expected = dict(old_record)
    expected["properties"] = [*old_record["properties"], *entries]
    for indent in ("  ", "", "    "):
        candidate = text + render_entries(entries, indent)
        try:
            parsed = parse_yaml(candidate.encode("utf-8"), source)
        except GateInputError:
            continue
        if parsed == expected:
            manifest.from_record(parsed, source, root, check_paths=False)
            return candidate.encode("utf-8")
    raise GateInputError(source, "properties", "cannot append entries at the end of the file; "
                         "make `properties:` the last key, as a block list (`- test_id: ...`), "
                         "and run gate init --add again")


STARTUP_FILES = ("sitecustomize.py", "usercustomize.py")


def harness_files(inipath: Path | None, plugin_files: Sequence[Path], search: Sequence[Path],
                  root: Path) -> list[Path]:
    """The test harness every property runs under, as files under ``root`` (outside installed
    packages): the configuration file pytest read (its ``inipath``), every plugin module pytest
    loaded that is not a ``conftest.py`` (``-p NAME`` in ``addopts``, ``pytest_plugins``, an
    entry point of a distribution installed from the workspace) with the project files it
    imports, and the ``sitecustomize.py``, ``usercustomize.py`` and ``*.pth`` files in the
    folders of the interpreter's path under ``root`` (Python runs them at start). The
    ``conftest.py`` files are per test (:func:`conftest_files`). Plugins installed from a
    package index are not under the root: not files of the repository, never listed."""
    from gate.records.files import is_regular_file

    found: list[Path] = []
    if inipath is not None and is_regular_file(inipath) and not _is_third_party(inipath, root):
        found.append(inipath)
    bases = [b for b in search if b.is_dir() and not _is_third_party(b / "x", root)]
    for plugin in plugin_files:
        if plugin.name == "conftest.py" or _is_third_party(plugin, root) \
                or not is_regular_file(plugin):
            continue
        found += [plugin, *module_files(plugin, bases, root)]
    for base in bases:
        startup = [base / name for name in STARTUP_FILES]
        startup += sorted(p for p in base.glob("*.pth"))
        found += [p for p in startup if is_regular_file(p)]
    unique: list[Path] = []
    seen: set[Path] = set()
    for path in found:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique.append(path)
    return unique


def _checked_edit(text: str, expected: Any, refuse: GateInputError, source: str,
                  root: Path) -> bytes:
    """``text``, an in-place edit of a manifest, as bytes: only when it parses to ``expected``
    (the old record with exactly the intended change) and is a valid manifest, else
    ``refuse`` (gate init --add and --refresh: every other byte of the file is kept)."""
    try:
        parsed = parse_yaml(text.encode("utf-8"), source)
    except GateInputError:
        raise refuse from None
    if parsed != expected:
        raise refuse
    manifest.from_record(parsed, source, root, check_paths=False)
    return text.encode("utf-8")


def add_fixtures(original: bytes, old_record: Any, additions: Mapping[int, Sequence[str]],
                 source: str, root: Path, key: str = "fixtures") -> bytes:
    """``original`` with each ``additions[index]`` appended to the ``key`` list (``fixtures``
    or ``harness``) of entry ``index`` of ``properties``, one new line per path after the
    list's last item (a flow list ``[a, b]`` gains ``, "c"`` before its ``]``), every other
    byte kept. The result must parse to the old record with exactly those paths added, else it
    is refused."""
    import yaml

    try:
        text = original.decode("utf-8")
    except UnicodeDecodeError:
        raise GateInputError(source, "(yaml)", "not UTF-8 text") from None
    expected = json.loads(json.dumps(old_record))
    edits: list[tuple[int, str]] = []  # (character offset, text to insert)
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    props = next((v for k, v in node.value if k.value == "properties"), None) \
        if isinstance(node, yaml.MappingNode) else None
    refuse = GateInputError(source, key, f"cannot add the test harness to an existing "
                            f"entry's {key}; make each `{key}:` a list of quoted paths "
                            "and run gate init --add again (or add them by hand)")
    if not isinstance(props, yaml.SequenceNode):
        raise refuse
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for index, paths in sorted(additions.items()):
        if not paths:
            continue
        entry = props.value[index]
        fixtures = next((v for k, v in entry.value if k.value == key), None) \
            if isinstance(entry, yaml.MappingNode) else None
        if not isinstance(fixtures, yaml.SequenceNode) or not fixtures.value:
            raise refuse
        expected["properties"][index][key] += list(paths)
        last = fixtures.value[-1]
        if fixtures.flow_style:
            close = starts[fixtures.end_mark.line] + fixtures.end_mark.column - 1
            edits.append((close, "".join(f", {_q(p)}" for p in paths)))
            continue
        first = fixtures.value[0]
        dash = lines[first.start_mark.line][:first.start_mark.column]
        if not dash.rstrip().endswith("-"):
            raise refuse
        indent = dash[:len(dash.rstrip()) - 1]
        after = starts[last.end_mark.line + 1] if last.end_mark.column else starts[
            last.end_mark.line]
        edits.append((after, "".join(f"{indent}- {_q(p)}\n" for p in paths)))
    for offset, insert in sorted(edits, reverse=True):
        text = text[:offset] + insert + text[offset:]
    return _checked_edit(text, expected, refuse, source, root)


def _properties_node(original: bytes, old_record: Any, source: str,
                     refuse: GateInputError) -> tuple[str, Any, Any]:
    """The manifest's text, a copy of its record to edit into the expected one, and the YAML
    node of its ``properties`` list (``refuse`` when there is none): what an in-place edit of
    ``gate init --refresh`` or ``--add`` starts from."""
    import yaml

    try:
        text = original.decode("utf-8")
    except UnicodeDecodeError:
        raise GateInputError(source, "(yaml)", "not UTF-8 text") from None
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    props = next((v for k, v in node.value if k.value == "properties"), None) \
        if isinstance(node, yaml.MappingNode) else None
    if not isinstance(props, yaml.SequenceNode):
        raise refuse
    return text, json.loads(json.dumps(old_record)), props


def replace_cards(original: bytes, old_record: Any, cards: Mapping[int, dict[str, Any]],
                  source: str, root: Path) -> bytes:
    """``original`` with the inline card of each entry ``index`` of ``cards`` rewritten (one
    flow mapping in place of the old card's text), every other byte kept; the result must
    parse to the old record with exactly those cards changed, else it is refused
    (``gate init --refresh``)."""
    import yaml

    refuse = GateInputError(source, "card", "cannot rewrite an inline card in place; write "
                            "each inline card as one flow mapping (`card: {cases: 100, seed: "
                            "1}`) and run gate init --refresh again")
    text, expected, props = _properties_node(original, old_record, source, refuse)
    edits: list[tuple[int, int, str]] = []
    for index, card in sorted(cards.items()):
        entry = props.value[index]
        old = next((v for k, v in entry.value if k.value == "card"), None) \
            if isinstance(entry, yaml.MappingNode) else None
        if not isinstance(old, yaml.MappingNode):
            raise refuse
        written = {k: v for k, v in card.items()
                   if k != "property" or "property" in expected["properties"][index]["card"]}
        expected["properties"][index]["card"] = written
        edits.append((old.start_mark.index, old.end_mark.index, _card_text(written)))
    for start, end, insert in sorted(edits, reverse=True):
        text = text[:start] + insert + text[end:]
    return _checked_edit(text, expected, refuse, source, root)


def replace_digests(original: bytes, old_record: Any, digests: Mapping[int, str],
                    source: str, root: Path) -> bytes:
    """``original`` with the ``harness_sha256`` of each entry ``index`` of ``digests``
    rewritten in place (the scalar alone), every other byte kept; the result must parse to the
    old record with exactly those digests changed, else it is refused (``gate init --refresh``
    and ``--add``)."""
    import yaml

    refuse = GateInputError(source, "harness_sha256", "cannot rewrite a harness_sha256 in "
                            "place; write each as one quoted or plain scalar on its own "
                            "line and run gate init again")
    text, expected, props = _properties_node(original, old_record, source, refuse)
    edits: list[tuple[int, int, str]] = []
    for index, digest in sorted(digests.items()):
        entry = props.value[index]
        old = next((v for k, v in entry.value if k.value == "harness_sha256"), None) \
            if isinstance(entry, yaml.MappingNode) else None
        if not isinstance(old, yaml.ScalarNode):
            raise refuse
        expected["properties"][index]["harness_sha256"] = digest
        edits.append((old.start_mark.index, old.end_mark.index, _q(digest)))
    for start, end, insert in sorted(edits, reverse=True):
        text = text[:start] + insert + text[end:]
    return _checked_edit(text, expected, refuse, source, root)


def compact_text(record: Any, source: str, root: Path) -> str:
    """The compact form of a manifest record (as ``gate init`` writes one): each card file's
    card inline, the fixtures entries share as groups (:func:`compact`). Every property's
    fixture hash is the record's (``scripts/compact_manifest.py`` checks it); a record that
    has groups already is refused."""
    from gate.records.load import load_card

    if record.get("groups"):
        raise GateInputError(source, "groups", "already compact (it has groups)")
    props = manifest.from_record(record, source, root)
    entries: list[dict[str, Any]] = []
    for raw, prop in zip(record["properties"], props, strict=True):
        entry = dict(raw)
        if "junit" in entry and manifest.junit_of(prop.test_id) == (
                entry["junit"].get("classname"), entry["junit"]["name"]):
            del entry["junit"]
        if prop.card_record is None:
            entry["card"] = {k: v for k, v in load_card(prop.card).items() if k != "property"}
        entries.append(entry)
    groups, entries = compact(entries)
    text = render_manifest(entries, groups)
    check_manifest_text(text, source, root)
    return text
