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

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import lexists, read_yaml
from gate.records.load import load_card

DEFAULT_MANIFEST = Path(".github/gate.yml")


@dataclass(frozen=True, slots=True)
class Property:
    test_id: str
    card: Path
    fixtures: tuple[Path, ...]
    sample: Path | None
    junit_classname: str | None
    junit_name: str
    location: dict[str, Any] | None
    #: The file ``location.path`` names (root joined), checked to exist when loaded.
    location_file: Path | None = None


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
        card_path = _existing(root, raw["card"], source, f"{where}.card", test_id, check_paths)
        if check_paths:
            check_card(test_id, load_card(card_path), source, f"{where}.test_id", raw["card"])
        found.append(Property(
            test_id=test_id,
            card=card_path,
            fixtures=tuple(_existing(root, p, source, f"{where}.fixtures.{n}", test_id,
                                     check_paths)
                           for n, p in enumerate(raw["fixtures"])),
            sample=(_existing(root, sample, source, f"{where}.sample", test_id, check_paths)
                    if sample else None),
            junit_classname=raw["junit"].get("classname"),
            junit_name=raw["junit"]["name"],
            location=dict(raw["location"]) if "location" in raw else None,
            location_file=location_file,
        ))
    return found


def load(path: Path, root: Path) -> list[Property]:
    return from_record(read_yaml(path), str(path), root)
