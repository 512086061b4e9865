"""The stamp manifest (YAML, default ``.github/gate.yml``): which properties one run stamps.

Schema-validated (``schemas/manifest.schema.json``). Every path in it is relative to the
stamping root (``gate stamp --root``, default the current directory — in CI, the repository
root), never to the manifest's own folder; absolute paths and ``..`` are refused so that a
manifest names the same files in every checkout. Duplicate test ids are bad input.

Example::

    version: 1
    properties:
      - test_id: parser_round_trip
        card: cards/parser_round_trip.json
        fixtures: [fixtures/parser_round_trip]
        sample: samples/parser_round_trip.json      # optional sampler output to pin
        junit: {classname: tests.test_parser, name: test_round_trip}
        location: {path: tests/test_parser.py, line: 12}   # optional, for annotations

**Written once** (the compact form ``gate init`` writes): fixtures many properties share go
under ``groups`` and each property names them, beside its own files; a ``{glob: PATTERN}``
item stands for the files a pattern matches (syntax: :mod:`gate.decide.globs`), listed when the
manifest is read; a card may be written inline::

    version: 1
    groups:
      package: [src/pkg/__init__.py, src/pkg/_core.py, tests/conftest.py, pyproject.toml]
    properties:
      - test_id: tests/test_core.py::test_round_trip
        card: {cases: 100, seed: 1234}          # inline: its property is the test_id
        fixtures: [{group: package}, tests/test_core.py, {glob: "tests/data/**/*.json"}]
        location: {path: tests/test_core.py, line: 12}

Without ``junit`` the test is found by the names pytest's JUnit report gives its node id
(:func:`junit_of`: ``tests.test_core`` and ``test_round_trip`` here).

A property's fixtures are its items in order, each group's items in its place, each glob's
files ordered by the UTF-8 bytes of their root-relative paths (the order the fixture hash
orders files in), duplicates dropped: the fixture hash (which orders and de-duplicates the
files itself, SPEC §1) is byte for byte the one of the same files listed one by one, and an
inline card hashes as the same card in a file. Bad input, exit 2, naming the manifest and the
field: a glob that matches no file (``properties.N.fixtures.M.glob`` or
``groups.NAME.K.glob``), a group a property names that ``groups`` does not define, and a group
that no property names (dead configuration hides a typo). Globs are listed only where the
manifest's paths are checked (not for another commit's manifest, read without its checkout):
there the judge-files attribution matches changed paths against the patterns
(:func:`gate.decide.judges.judged`).

``location.path`` is relative to the root like every other path and must name an existing
file (a location that does not exist is bad input, naming the entry); the stamp records it
relative to the repository root (see :func:`gate.testrun.stamping.repository_path`), so that an
annotation points at the file on GitHub whatever the root is.

Each entry's ``test_id`` must equal its card's ``property`` (the card schema requires it): a
typo in either would otherwise stamp and open the gate for a test the card does not name, while
the JUnit selector still matches the real test. :func:`check_card` is that one check; every
route that loads a manifest with its cards (``gate stamp --manifest``, the pytest plugin, the
recorder route, ``gate init --add``, ``gate policy check --manifest``) goes through
:func:`from_record`, which applies it.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from gate.decide.frozen import FrozenValue
from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import lexists, read_bytes_capped, read_yaml_bytes
from gate.records.load import load_card

DEFAULT_MANIFEST = Path(".github/gate.yml")


class Property(FrozenValue):
    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "test_id", "card", "fixtures", "sample", "junit_classname", "junit_name", "location",
        "location_file", "card_record", "globs", "where", "harness", "harness_globs",
        "harness_sha256",
    )
    test_id: str
    card: Path
    fixtures: tuple[Path, ...]
    sample: Path | None
    junit_classname: str | None
    junit_name: str
    location: dict[str, Any] | None
    #: The file ``location.path`` names (root joined), checked to exist when loaded.
    location_file: Path | None
    #: An inline card (``card:`` a mapping; its ``property`` filled in), else None: ``card`` is
    #: its file. For an inline card ``card`` is the manifest file.
    card_record: dict[str, Any] | None
    #: The glob patterns among its fixtures (its groups' too), relative to the root.
    globs: tuple[str, ...]
    #: The manifest's source name and entry index (where an inline card is read again).
    where: tuple[str, int] | None
    #: The test harness listed apart from the fixtures (``harness``: its files, in the order
    #: the fixtures' items are expanded), its glob patterns, and the ``harness_sha256`` the
    #: manifest records for it; all empty for an entry without ``harness`` (the old form,
    #: its harness inside its fixtures).
    harness: tuple[Path, ...]
    harness_globs: tuple[str, ...]
    harness_sha256: str | None

    def __init__(self, test_id: str, card: Path, fixtures: tuple[Path, ...], sample: Path | None,
                 junit_classname: str | None, junit_name: str, location: dict[str, Any] | None,
                 location_file: Path | None = None, card_record: dict[str, Any] | None = None,
                 globs: tuple[str, ...] = (), where: tuple[str, int] | None = None,
                 harness: tuple[Path, ...] = (), harness_globs: tuple[str, ...] = (),
                 harness_sha256: str | None = None) -> None:
        self._set(test_id=test_id, card=card, fixtures=fixtures, sample=sample,
                  junit_classname=junit_classname, junit_name=junit_name, location=location,
                  location_file=location_file, card_record=card_record, globs=globs,
                  where=where, harness=harness, harness_globs=harness_globs,
                  harness_sha256=harness_sha256)


def _relative(root: Path, value: str, source: str, where: str) -> Path:
    if "\x00" in value:
        raise GateInputError(source, where, f"{value!r}: a path holds a NUL character")
    pure = PurePosixPath(value)
    if pure.is_absolute() or "\\" in value or ".." in pure.parts or value.startswith("~"):
        raise GateInputError(source, where,
                             f"{value!r}: paths are relative to the root, without '..'")
    return root / Path(*pure.parts)


def _existing(root: Path, value: str, source: str, where: str, test_id: str,
              check: bool = True) -> Path:
    """A manifest path that must name something: else bad input naming the entry and field
    (not a bare path from deep inside hashing)."""
    path = _relative(root, value, source, where)
    if check and not lexists(path):
        raise GateInputError(source, where, f"{value!r} (test {test_id!r}): no such file or "
                             "folder under the root; fix the path (relative to the root) or "
                             "create the file")
    return path


def junit_of(test_id: str) -> tuple[str | None, str]:
    """``(classname, name)`` pytest's junitxml gives the test whose node id is ``test_id``
    (the file path dotted, ``.py`` dropped, then the classes; parameters kept on the name):
    the selector of an entry without ``junit``. ``gate init`` leaves ``junit`` out only when
    the collected test's own names are these."""
    path, bracket, params = test_id.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    return (".".join(names[:-1]) or None), names[-1]


def check_card(test_id: str, card: Any, source: str, field: str, card_path: str, *,
               given: str = "test_id") -> None:
    """Bad input (``source``, ``field``) unless the card's ``property`` is the ``test_id``
    that ``given`` names: a manifest entry's ``test_id``, or ``gate stamp --test-id``."""
    named = card.get("property") if isinstance(card, dict) else None
    if named != test_id:
        raise GateInputError(source, field,
                             f"{test_id!r} differs from the card's property {named!r} "
                             f"({card_path}); make {given} and the card's property the same "
                             "test id (fix the typo in one of them)")


def _naming_the_test(exc: GateInputError, record: Any) -> GateInputError:
    """A schema error inside ``properties.N`` also names that entry's test id, when it has a
    readable one (an index alone does not say which of 59 entries to open)."""
    found = re.match(r"properties\.([0-9]+)(?:\.|$)", exc.field)
    entries = record.get("properties") if isinstance(record, dict) else None
    if found is None or not isinstance(entries, list) or int(found.group(1)) >= len(entries):
        return exc
    entry = entries[int(found.group(1))]
    test_id = entry.get("test_id") if isinstance(entry, dict) else None
    if not isinstance(test_id, str) or not test_id:
        return exc
    return GateInputError(exc.source, exc.field,
                          f"{exc.message} (the entry of test {test_id[:200]!r})")


def expand_glob(root: Path, pattern: str, source: str, where: str) -> list[Path]:
    """The regular files under ``root`` whose root-relative path matches ``pattern``
    (:mod:`gate.decide.globs`), ordered by the UTF-8 bytes of that path. A symbolic link the
    pattern reaches (a file it matches, or a folder it would look in) is refused, as the
    fixture hash refuses one; a pattern matching nothing is bad input."""
    from gate.decide import globs

    found: list[bytes] = []
    parts = globs.segments(pattern)

    def refuse_link(path: bytes) -> None:
        raise GateInputError(source, where, f"{pattern!r} reaches the symbolic link "
                             f"{os.fsdecode(path)!r}; a fixture set never holds one (narrow "
                             "the pattern or remove the link)")

    def walk(folder: bytes, rel: bytes, rest: tuple[str, ...]) -> None:
        if not rest:
            return
        head, tail = rest[0], rest[1:]
        if head == "**":
            if tail:
                walk(folder, rel, tail)
            for entry in _listing(folder, source, where):
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, rel + entry.name + b"/", rest)
                elif not tail and entry.is_file(follow_symlinks=False):
                    found.append(rel + entry.name)
                elif entry.is_symlink():
                    refuse_link(entry.path)
            return
        if not globs.is_wild(head):
            entries = [_one(folder, head)]
        else:
            regex = globs.segment_regex(head)
            entries = [e for e in _listing(folder, source, where)
                       if regex.fullmatch(os.fsdecode(e.name)) is not None]
        for entry in entries:
            if entry is None:
                continue
            if entry.is_symlink():
                refuse_link(entry.path)
            if tail and entry.is_dir(follow_symlinks=False):
                walk(entry.path, rel + entry.name + b"/", tail)
            elif not tail and entry.is_file(follow_symlinks=False):
                found.append(rel + entry.name)

    walk(os.fsencode(root), b"", parts)
    names = sorted(set(found))
    if not names:
        raise GateInputError(source, where, f"{pattern!r} matches no file under the root "
                             f"{root}; fix the pattern (relative to the root, "
                             "gate/decide/globs.py) or remove it")
    return [root / os.fsdecode(name) for name in names]


class _Entry:
    """A path met while expanding a glob, as much of ``os.DirEntry`` as the walk reads."""

    def __init__(self, path: bytes, name: bytes, mode: int) -> None:
        self.path, self.name, self._mode = path, name, mode

    def is_symlink(self) -> bool:
        return stat.S_ISLNK(self._mode)

    def is_dir(self, follow_symlinks: bool = False) -> bool:
        return stat.S_ISDIR(self._mode)

    def is_file(self, follow_symlinks: bool = False) -> bool:
        return stat.S_ISREG(self._mode)


def _one(folder: bytes, name: str) -> _Entry | None:
    path = os.path.join(folder, os.fsencode(name))
    try:
        return _Entry(path, os.fsencode(name), os.lstat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _listing(folder: bytes, source: str, where: str) -> list[Any]:
    try:
        with os.scandir(folder) as listing:
            return sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        raise GateInputError(source, where, f"cannot list {os.fsdecode(folder)!r}: "
                             f"{exc.strerror}") from None


_Item = tuple[str, str, str]  # (kind "path" | "glob", root-relative text, field)


def _groups(record: Mapping[str, Any], source: str) -> dict[str, list[_Item]]:
    groups: dict[str, list[_Item]] = {}
    for name, items in (record.get("groups") or {}).items():
        groups[name] = [("path", item, f"groups.{name}.{k}") if isinstance(item, str)
                        else ("glob", item["glob"], f"groups.{name}.{k}.glob")
                        for k, item in enumerate(items)]
    return groups


def _items(raw: Mapping[str, Any], where: str, groups: Mapping[str, list[_Item]],
           used: set[str], source: str, test_id: str, key: str = "fixtures") -> list[_Item]:
    """A property's fixture (or ``harness``) items, each group's in its place."""
    found: list[_Item] = []
    for n, item in enumerate(raw[key]):
        field = f"{where}.{key}.{n}"
        if isinstance(item, str):
            found.append(("path", item, field))
        elif "glob" in item:
            found.append(("glob", item["glob"], f"{field}.glob"))
        else:
            name = item["group"]
            if name not in groups:
                raise GateInputError(source, f"{field}.group",
                                     f"{name!r} (test {test_id!r}): no such group under "
                                     "groups; define it or fix the name")
            used.add(name)
            found += groups[name]
    return found


def _inline_card(raw: Mapping[str, Any], test_id: str, source: str,
                 where: str) -> dict[str, Any]:
    """An inline card with its ``property`` (the test id), validated as a card file is."""
    card = dict(raw["card"])
    if "property" in card:
        check_card(test_id, card, source, f"{where}.card.property", f"{where}.card")
    card["property"] = test_id
    try:
        schemas.validate("sample-card", card, source)
    except GateInputError as exc:
        raise GateInputError(source, f"{where}.card.{exc.field}".rstrip("."),
                             f"{exc.message} (the inline card of test {test_id[:200]!r})") \
            from None
    return card


def card_of(prop: Property) -> dict[str, Any]:
    """The property's card as it is now: its file read, or its inline card read again from the
    manifest file (so a card changed during a run is seen, as a card file's change is)."""
    if prop.card_record is None:
        return load_card(prop.card)
    if prop.where is None:
        return dict(prop.card_record)
    source, index = prop.where
    entries = _parsed(prop.card, read_bytes_capped(prop.card)).get("properties")
    raw = entries[index] if isinstance(entries, list) and index < len(entries) else None
    if not isinstance(raw, dict) or raw.get("test_id") != prop.test_id \
            or not isinstance(raw.get("card"), dict):
        raise GateInputError(source, f"properties.{index}.card",
                             f"test {prop.test_id!r}: its inline card is not there any more")
    return _inline_card(raw, prop.test_id, source, f"properties.{index}")


@functools.lru_cache(maxsize=4)
def _parsed_cached(path: str, data: bytes) -> Any:
    from gate.records.files import parse_yaml

    return parse_yaml(data, path)


def _parsed(path: Path, data: bytes) -> Any:
    found = _parsed_cached(str(path), data)
    return found if isinstance(found, dict) else {}


def _files(items: list[_Item], root: Path, source: str, test_id: str, check_paths: bool,
           listed: dict[str, list[Path]]) -> tuple[dict[Path, None], list[str]]:
    """The files ``items`` name, in order without duplicates (each glob listed once per
    manifest, in ``listed``), and the glob patterns among them."""
    files: dict[Path, None] = {}
    patterns: list[str] = []
    for kind, text, field in items:
        if kind == "path":
            files[_existing(root, text, source, field, test_id, check_paths)] = None
            continue
        _relative(root, text, source, field)
        patterns.append(text)
        if check_paths:
            if text not in listed:
                try:
                    listed[text] = expand_glob(root, text, source, field)
                except GateInputError as exc:
                    whose = "" if field.startswith("groups.") else f" (test {test_id!r})"
                    raise GateInputError(exc.source, exc.field,
                                         exc.message + whose) from None
            files.update(dict.fromkeys(listed[text]))
    return files, patterns


def from_record(record: Any, source: str, root: Path, *, check_paths: bool = True,
                in_checkout: bool = True) -> list[Property]:
    """The manifest's properties. ``check_paths=False`` only for a manifest about to be written
    together with its cards (``gate init``): the cards do not exist yet. ``in_checkout=False``
    for a manifest of another commit than the checkout's (the pull request's base, read
    through GitHub's API): validated the same, but no path is looked up in this checkout
    (neither cards, fixtures nor ``location.path``)."""
    check_paths = check_paths and in_checkout
    try:
        schemas.validate("manifest", record, source)
    except GateInputError as exc:
        raise _naming_the_test(exc, record) from None
    found: list[Property] = []
    seen: dict[str, int] = {}
    groups = _groups(record, source)
    used: set[str] = set()
    listed: dict[str, list[Path]] = {}  # a glob's files, listed once per manifest
    for index, raw in enumerate(record["properties"]):
        where = f"properties.{index}"
        test_id = raw["test_id"]
        if test_id in seen:
            raise GateInputError(source, f"{where}.test_id",
                                 f"duplicate test id {test_id!r} (first at "
                                 f"properties.{seen[test_id]})")
        seen[test_id] = index
        sample = raw.get("sample")
        location_file: Path | None = None
        if "location" in raw:
            where_loc = f"{where}.location.path"
            location_file = _relative(root, raw["location"]["path"], source, where_loc)
            if in_checkout and not location_file.is_file():
                raise GateInputError(source, where_loc,
                                     f"{raw['location']['path']!r} (test {test_id!r}): no such "
                                     "file under the root; name the test file relative to the "
                                     "root")
        card_record: dict[str, Any] | None = None
        if isinstance(raw["card"], dict):
            card_record = _inline_card(raw, test_id, source, where)
            card_path = Path(source)
        else:
            card_path = _existing(root, raw["card"], source, f"{where}.card", test_id,
                                  check_paths)
            if check_paths:
                check_card(test_id, load_card(card_path), source, f"{where}.test_id",
                           raw["card"])
        fixtures, patterns = _files(_items(raw, where, groups, used, source, test_id), root,
                                    source, test_id, check_paths, listed)
        harness: dict[Path, None] = {}
        harness_globs: list[str] = []
        if "harness" in raw:
            harness, harness_globs = _files(
                _items(raw, where, groups, used, source, test_id, "harness"), root, source,
                test_id, check_paths, listed)
        both = [f for f in harness if f in fixtures]
        if both:
            raise GateInputError(source, f"{where}.harness",
                                 f"{_shown(both[0], root)!r} (test {test_id!r}) is in its "
                                 "fixtures too: a file is a fixture or the harness, not both; "
                                 "remove it from one of the two lists")
        junit = ((raw["junit"].get("classname"), raw["junit"]["name"]) if "junit" in raw
                 else junit_of(test_id))
        found.append(Property(
            test_id=test_id,
            card=card_path,
            fixtures=tuple(fixtures),
            sample=(_existing(root, sample, source, f"{where}.sample", test_id, check_paths)
                    if sample else None),
            junit_classname=junit[0],
            junit_name=junit[1],
            location=dict(raw["location"]) if "location" in raw else None,
            location_file=location_file,
            card_record=card_record,
            globs=tuple(dict.fromkeys(patterns)),
            where=(source, index),
            harness=tuple(harness),
            harness_globs=tuple(dict.fromkeys(harness_globs)),
            harness_sha256=raw.get("harness_sha256"),
        ))
    for name in groups:
        if name not in used:
            raise GateInputError(source, f"groups.{name}",
                                 "defined, but no property names it ({group: "
                                 f"{name}}} in its fixtures); remove the group or name it")
    return found


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


#: What to do about a recorded harness that hashes otherwise (:func:`harness_refusal`).
HARNESS_FIX = "review the change, then run gate init --refresh to record it"


def harness_problem(prop: Property, digest: str, root: Path) -> tuple[str, str, str] | None:
    """``(manifest, field, problem)`` when the property records a harness and ``digest`` (its
    files' ``gate-harness-v1`` digest now) is not the ``harness_sha256`` it records; else
    None. The one comparison behind :func:`harness_refusal` and ``gate init --check``."""
    if prop.harness_sha256 is None or digest == prop.harness_sha256:
        return None
    source, index = prop.where if prop.where is not None else ("(manifest)", 0)
    files = [_shown(f, root) for f in prop.harness]
    named = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return (source, f"properties.{index}.harness_sha256",
            f"test {prop.test_id!r}: its test harness ({named}) hashes to {digest}, the "
            f"manifest records {prop.harness_sha256}: a harness file changed since it was "
            "recorded")


def harness_refusal(prop: Property, digest: str, root: Path) -> GateInputError | None:
    """The one check of a recorded harness (``gate stamp`` before the run, ``gate init
    --add``): None when :func:`harness_problem` finds none, else the error naming the
    manifest, the field, the files and the fix. A harness changed and not recorded is refused
    as loudly as bad input: the stamps would otherwise pair two runs under a harness no one
    recorded."""
    found = harness_problem(prop, digest, root)
    if found is None:
        return None
    source, field, problem = found
    return GateInputError(source, field, f"{problem}; {HARNESS_FIX}")


def load(path: Path, root: Path) -> list[Property]:
    """The manifest's properties. Its bytes are parsed once: :func:`card_of` reading an inline
    card again after the run parses the file again only when its bytes changed (issue 31)."""
    return from_record(_parsed_cached(str(path), read_yaml_bytes(path)), str(path), root)
