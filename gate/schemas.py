"""JSON Schemas are the single source of truth for every record; this module applies them.

Validators are compiled once per process. ``integer`` means a JSON integer literal, never
``7.0`` and never a boolean, so a float cannot slip through as a count or a time.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.validators import extend
from referencing import Registry, Resource

from gate.errors import GateInputError

NAMES = (
    "sample-card",
    "stamp",
    "run-record",
    "receipt",
    "receipt-in-toto",
    "binding",
    "ledger-entry",
    "policy",
    "report",
    "manifest",
)


def _schema_dir() -> Path:
    packaged = resources.files("gate") / "schemas"
    if packaged.is_dir():
        return Path(str(packaged))
    source_tree = Path(__file__).resolve().parent.parent / "schemas"
    if source_tree.is_dir():
        return source_tree
    raise RuntimeError("gate: schemas/ not found beside the package")


def _strict_integer(_checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _ecma_pattern(pattern: str) -> re.Pattern[str]:
    # JSON Schema patterns are ECMA-262, where a final ``$`` matches only at the very end;
    # Python's ``$`` also matches before a trailing newline ("a" * 64 + "\n" would pass).
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


def _pattern(validator: Any, pattern: str, instance: Any, _schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not _ecma_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_TYPE_CHECKER = Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer)
StrictValidator = extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, validators={"pattern": _pattern}, type_checker=_TYPE_CHECKER
)


@functools.cache
def _registry() -> Registry[Any]:
    registry: Registry[Any] = Registry()
    directory = _schema_dir()
    for path in sorted(directory.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resource = Resource.from_contents(contents)
        registry = registry.with_resource(contents["$id"], resource)
        registry = registry.with_resource(path.name, resource)
    return registry


@functools.cache
def schema(name: str) -> dict[str, Any]:
    path = _schema_dir() / f"{name}.schema.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def validator(name: str) -> Any:
    return StrictValidator(schema(name), registry=_registry())


def path_of(error: ValidationError) -> list[str]:
    """The path of the field an error is about (the missing or extra one if so)."""
    parts = [str(p) for p in error.absolute_path]
    wanted: Any = error.validator_value
    where: Any = error.schema
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [p for p in wanted if p not in error.instance]
        if missing:
            parts.append(str(missing[0]))
    elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(where.get("properties", {}) if isinstance(where, dict) else {})
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra:
            parts.append(str(extra[0]))
    return parts


def field_of(error: ValidationError) -> str:
    """The dotted path of the field an error is about, or ``(root)``."""
    return ".".join(path_of(error)) or "(root)"


def errors(name: str, instance: Any) -> list[ValidationError]:
    """Every schema error, deepest and most specific first."""
    found = list(validator(name).iter_errors(instance))
    return sorted(found, key=lambda e: (-len(e.absolute_path), str(e.absolute_path)))


def _best(error: ValidationError) -> ValidationError:
    # For oneOf/anyOf, descend to the branch error that went deepest.
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def validate(name: str, instance: Any, source: str) -> None:
    """Raise GateInputError naming ``source`` and the field if ``instance`` fails ``name``."""
    found = errors(name, instance)
    if found:
        best = _best(found[0])
        raise GateInputError(source, field_of(best), best.message)


def is_valid(name: str, instance: Any) -> bool:
    return bool(validator(name).is_valid(instance))
