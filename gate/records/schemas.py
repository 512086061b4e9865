"""JSON Schemas are the single source of truth for every record; this module applies them.

Validators are compiled once per process. ``integer`` means a JSON integer literal, never
``7.0`` and never a boolean, so a float cannot slip through as a count or a time.

Two validators are compiled from the same schema files. ``fastjsonschema`` turns each schema
into Python code (about 50 times faster than ``jsonschema`` on our records) and answers "valid"
on its own; only when it says "invalid" does ``jsonschema`` run, to name the field and the
reason. The fast one is built with the same semantics: ``integer`` strict as above, ``array``
only a list, ECMA-262 ``$`` in patterns, formats and defaults off; a schema that uses a keyword
outside the audited set below is left to ``jsonschema`` alone. tests/test_schemas_fast.py checks
that the two agree on valid and mutated records of every schema. Neither library is imported
until a record is validated (``gate --version`` and ``gate hash`` do not pay for them).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from gate.errors import GateInputError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (typing costs start-up time in `gate halt hook`)
    from collections.abc import Callable, Iterator
    from typing import Any

    from jsonschema import ValidationError

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
    "recorder-plan",
    "recorder-results",
    "recorder-record",
    "rerun-memory",
    "stamp-set",
    "dsse-envelope",
    "rerun-memory-statement",
    "verification-summary",
    "stamp-failure",
    "test-result",
)


@functools.cache
def _schema_dir() -> Path:
    """``gate/schemas`` of an installed package, else ``schemas/`` of the source tree (found
    from this file, as ``importlib.resources`` would for a package on disk, without its
    imports)."""
    package = Path(__file__).resolve().parents[1]
    for directory in (package / "schemas", package.parent / "schemas"):
        if directory.is_dir():
            return directory
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


@functools.cache
def _strict_validator_class() -> Any:
    from jsonschema import Draft202012Validator, ValidationError
    from jsonschema.validators import extend

    def _pattern(validator: Any, pattern: str, instance: Any, _schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string") and not _ecma_pattern(pattern).search(instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")

    type_checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer)
    return extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, validators={"pattern": _pattern}, type_checker=type_checker
    )


def __getattr__(name: str) -> Any:
    if name == "StrictValidator":  # the jsonschema validator class, built on first use
        return _strict_validator_class()
    raise AttributeError(name)


@functools.cache
def _registry() -> Any:
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    registry: Any = Registry()
    directory = _schema_dir()
    for path in sorted(directory.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        # Without its "$schema", a schema reached through a $ref to another file is checked
        # by this module's strict validator class too (jsonschema picks the class from
        # "$schema": a nested binding's generation 7.0 would otherwise pass as an integer).
        contents.pop("$schema", None)
        resource = DRAFT202012.create_resource(contents)
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
    return _strict_validator_class()(schema(name), registry=_registry())


# --- the fast validator ---------------------------------------------------------------------

#: Keywords whose fastjsonschema code was checked against jsonschema's Draft 2020-12 meaning.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "examples"})
_FAST_KEYWORDS = _ANNOTATIONS | {
    "$ref", "$defs", "type", "enum", "const", "properties", "required",
    "additionalProperties", "items", "minItems", "maxItems", "minLength", "maxLength",
    "minimum", "maximum", "pattern", "oneOf", "anyOf", "allOf", "not", "propertyNames",
}


def _fast_supported(node: Any) -> bool:
    """True if every keyword of ``node`` (a schema) and its subschemas is in the audited set."""
    if isinstance(node, bool):
        return True
    if not isinstance(node, dict) or not set(node) <= _FAST_KEYWORDS:
        return False
    if "$ref" in node and not set(node) - {"$ref"} <= _ANNOTATIONS:
        return False  # Draft 7 code ignores a $ref's siblings; 2020-12 applies them
    children: list[Any] = []
    for key in ("properties", "$defs"):
        if key in node:
            if not isinstance(node[key], dict):
                return False
            children += node[key].values()
    for key in ("oneOf", "anyOf", "allOf"):
        if key in node:
            if not isinstance(node[key], list):
                return False
            children += node[key]
    for key in ("items", "additionalProperties", "not", "propertyNames"):
        if key in node:
            children.append(node[key])  # a list under items is refused by the recursion
    return all(_fast_supported(child) for child in children)


_PY_TYPES = {
    "null": "{v} is None",
    "boolean": "isinstance({v}, bool)",
    "integer": "(isinstance({v}, int) and not isinstance({v}, bool))",
    "number": "(isinstance({v}, (int, float)) and not isinstance({v}, bool))",
    "string": "isinstance({v}, str)",
    "array": "isinstance({v}, list)",
    "object": "isinstance({v}, dict)",
}


@functools.cache
def _fast_generator_class() -> Any:
    from fastjsonschema.draft07 import CodeGeneratorDraft07

    base: Any = CodeGeneratorDraft07  # its code-generation helpers are untyped

    class StrictDraft(base):  # type: ignore[misc]
        """Draft 7 code with this module's meanings of ``type`` and ``pattern``."""

        def generate_type(self) -> None:
            declared = self._definition["type"]
            types = declared if isinstance(declared, list) else [declared]
            tests = " or ".join(_PY_TYPES[t].format(v=self._variable) for t in types)
            with self.l("if not ({}):", tests):
                self.exc("{name} must be {}", " or ".join(types), rule="type")

        def generate_pattern(self) -> None:
            with self.l("if isinstance({variable}, str):"):
                pattern = self._definition["pattern"]
                self._compile_regexps[pattern] = _ecma_pattern(pattern)
                with self.l("if not REGEX_PATTERNS[{}].search({variable}):", repr(pattern)):
                    self.exc("{name} must match pattern {}", self.e(pattern), rule="pattern")

        def generate_property_names(self) -> None:
            """``propertyNames: {enum: [names]}`` as one set comparison of the keys: the
            generic code tries each key against each name in turn (a fifth of validating a
            ledger line, which every hook call does for every line: 17 -> 13.5 us)."""
            names = self._definition["propertyNames"]
            if not (isinstance(names, dict) and list(names) == ["enum"]
                    and isinstance(names["enum"], list)
                    and all(isinstance(n, str) for n in names["enum"])):
                super().generate_property_names()
                return
            allowed = "{" + ", ".join(repr(n) for n in sorted(set(names["enum"]))) + "}"
            self.create_variable_is_dict()
            with self.l("if {variable}_is_dict and not {variable}.keys() <= {}:", allowed):
                self.exc("{name} must be named by propertyName definition", rule="propertyNames")

    return StrictDraft


def _local_schema(uri: str) -> Any:
    """$ref targets are the schema files beside this one, never fetched."""
    name = uri.rsplit("/", 1)[-1].split("#", 1)[0]
    if name not in {f"{n}.schema.json" for n in NAMES}:
        raise ValueError(f"$ref to an unknown schema: {uri}")
    return schema(name.removesuffix(".schema.json"))


#: Schemas whose fast validator ships pregenerated (``gate/records/_fast_<name>.py``), because
#: every ``gate halt hook`` process validates ledger entries (generating the code costs more
#: start-up than the rest of the hook), and every ``gate stamp --manifest`` validates the
#: manifest, policy, cards, the recorder's plan, records and results, and the stamps
#: (generating those seven took ~0.25 s of each stamp step, and a valid run now imports no
#: schema library at all; issue 23). One is used only while the digest it records matches the
#: schema files it was generated from (else the code is generated as usual);
#: regenerate with ``python -c "from gate.records import schemas; schemas.write_pregenerated()"``,
#: and tests/test_schemas_fast.py fails while one is stale. Every gate step validates a report
#: and its re-run memory, and with signing an envelope and a stamp-set statement per artifact
#: (generating those four took ~0.3 s of each gate step; issue 31).
PREGENERATED = ("ledger-entry", "manifest", "sample-card", "policy", "recorder-plan",
                "recorder-record", "recorder-results", "stamp", "report", "rerun-memory",
                "dsse-envelope", "stamp-set")


def _referenced(name: str) -> list[str]:
    """``name`` and the schemas it refers to by file name."""
    text = json.dumps(schema(name))
    return [name] + [n for n in NAMES if n != name and f"{n}.schema.json" in text]


def schema_digest(names: tuple[str, ...]) -> str:
    """SHA-256 over the bytes of these schema files, in this order."""
    from gate.records.sha256 import sha256

    digest = sha256()
    for n in names:
        digest.update((_schema_dir() / f"{n}.schema.json").read_bytes())
    return digest.hexdigest()


def _pregenerated(name: str) -> Callable[[Any], Any] | None:
    if name not in PREGENERATED:
        return None
    import sys

    module_name = f"gate.records._fast_{name.replace('-', '_')}"
    try:
        __import__(module_name)  # not importlib: its import costs the hook start-up time
    except ImportError:  # pragma: no cover - a broken install: generate instead
        return None
    module = sys.modules[module_name]
    files = getattr(module, "SCHEMA_FILES", None)
    if not isinstance(files, tuple) or getattr(module, "SCHEMA_SHA256", None) != schema_digest(
            files) or files[0] != name:
        return None
    func: Callable[[Any], Any] = module.validate
    return func


def _generate(name: str) -> tuple[Any, str, Callable[[Any], Any]] | None:
    """fastjsonschema's code generator for ``name``, the name of its entry function, and that
    function compiled; None when fastjsonschema cannot be used for this schema."""
    definition = schema(name)
    try:
        from fastjsonschema.ref_resolver import RefResolver
    except ImportError:  # pragma: no cover - a dependency; without it only speed is lost
        return None
    if not all(_fast_supported(schema(n)) for n in _referenced(name)):
        return None
    handlers = {"https": _local_schema, "http": _local_schema}
    # Without detailed messages the code is a third faster (jsonschema writes the messages);
    # fastjsonschema cannot build that variant for some keywords (const): then with them.
    for detailed in (False, True):
        try:
            resolver = RefResolver.from_schema(definition, handlers=handlers, store={})
            generator = _fast_generator_class()(
                definition, resolver=resolver, formats={}, use_default=False,
                use_formats=False, detailed_exceptions=detailed, fast_fail=True,
            )
            scope = resolver.get_scope_name()
            state = generator.global_state
            exec(generator.func_code, state)  # noqa: S102 - code generated from our schemas
            func: Callable[[Any], Any] = state[scope]
        except Exception:  # noqa: S112 - cannot compile it: try the other variant
            continue
        return generator, scope, func
    return None


_DEFINITION = re.compile(r", definition=\{.*?\}, rule=")


def pregenerated_source(name: str) -> str:
    """The text of ``gate/records/_fast_<name>.py``: the generated validator, standalone."""
    made = _generate(name)
    if made is None:
        raise RuntimeError(f"schema {name} has no fast validator")
    generator, scope, _ = made
    state = generator.global_state_code.replace(
        "from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException",
        "class JsonSchemaValueException(ValueError):\n"
        "    def __init__(self, message, value=None, name=None, definition=None, rule=None):\n"
        "        super().__init__(message)\n\n\n"
        "JsonSchemaValuesException = JsonSchemaValueException").replace(
        # only in ``minimum`` checks, after the strict ``type`` check has refused anything
        # that is not an int or a float: importing decimal would cost start-up for nothing
        "from decimal import Decimal",
        "class Decimal:  # never an instance: no JSON value is a decimal.Decimal\n    pass\n")
    # Each raise carries its whole subschema as a literal (``definition=``), which only an
    # error's reader would use; the gate reads only valid/invalid here (jsonschema words the
    # error): without them the modules are about half the size and compile 2-3 times faster
    # (a reused venv's bytecode is removed, so every job compiles them).
    code = _DEFINITION.sub(", rule=", generator.func_code)
    return (f'"""Generated from schemas/{name}.schema.json by gate.records.schemas; do not edit.'
            f'"""\n# ruff: noqa\n# mypy: ignore-errors\n# fmt: off\n\n'
            f"SCHEMA_FILES = {tuple(_referenced(name))!r}\n"
            f'SCHEMA_SHA256 = "{schema_digest(tuple(_referenced(name)))}"\n\n'
            f"{state}\n{code}\n\n"
            f"validate = {scope}\n")


def write_pregenerated() -> None:
    for name in PREGENERATED:
        target = Path(__file__).with_name(f"_fast_{name.replace('-', '_')}.py")
        target.write_text(pregenerated_source(name), encoding="utf-8")


@functools.cache
def _fast(name: str) -> Callable[[Any], Any] | None:
    """The compiled fast validator of ``name``, or None (jsonschema alone decides)."""
    ready = _pregenerated(name)
    if ready is not None:
        return ready
    made = _generate(name)
    return made[2] if made is not None else None  # None: jsonschema alone decides


def fast_is_valid(name: str, instance: Any) -> bool | None:
    """The fast validator's answer (None when ``name`` has none). Valid is final."""
    func = _fast(name)
    if func is None:
        return None
    try:
        func(instance)
    except Exception:
        return False
    return True


# --- applying them --------------------------------------------------------------------------


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
    if fast_is_valid(name, instance):
        return []
    found = list(validator(name).iter_errors(instance))
    return sorted(found, key=lambda e: (-len(e.absolute_path), str(e.absolute_path)))


def _best(error: ValidationError) -> ValidationError:
    # For oneOf/anyOf, descend to the branch error that went deepest.
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def _unknown_key(error: ValidationError) -> tuple[str, str] | None:
    """(field, message) for an object with a key its schema does not allow: a misspelt key
    makes both a "required" and an "additionalProperties" error, and the unknown key, with the
    nearest allowed name, is the one worth reading."""
    where: Any = error.schema
    if (error.validator not in ("required", "additionalProperties")
            or not isinstance(error.instance, dict) or not isinstance(where, dict)
            or where.get("additionalProperties") is not False):
        return None
    allowed = [str(k) for k in where.get("properties", {})]
    unknown = sorted(str(k) for k in error.instance if k not in allowed)
    if not unknown:
        return None
    import difflib  # error messages only: not imported by every `gate halt hook` call

    key = unknown[0]
    unused = [k for k in allowed if k not in error.instance]
    close = (difflib.get_close_matches(key, unused, n=1, cutoff=0.6)
             or difflib.get_close_matches(key, allowed, n=1, cutoff=0.6))
    field = ".".join([*(str(p) for p in error.absolute_path), key])
    if close:
        return field, f"unknown key {key!r}: did you mean {close[0]!r}?"
    return field, f"unknown key {key!r}; the allowed keys are {', '.join(sorted(allowed))}"


def _unix_seconds(error: ValidationError) -> str | None:
    """A date or date string where the schema wants Unix seconds (its description says so)."""
    import datetime  # error messages only: not imported by every `gate halt hook` call

    where: Any = error.schema
    if (error.validator != "type" or not isinstance(where, dict)
            or "Unix seconds" not in str(where.get("description", ""))
            or not isinstance(error.instance, (str, datetime.date))):
        return None
    text = str(error.instance)
    example = text if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text) else "2026-12-31"
    return (f"{text!r} is not a number: write Unix seconds (an integer), e.g. the output of "
            f"`date -u -d {example} +%s`")


def _near_value(error: ValidationError) -> str | None:
    """A string that is not one of the allowed values, with the nearest one (``too-slow`` for
    ``too_slow`` in a card's ``suppress_health_check``)."""
    where: Any = error.schema
    if (error.validator != "enum" or not isinstance(error.instance, str)
            or not isinstance(where, dict) or not isinstance(where.get("enum"), list)):
        return None
    import difflib

    allowed = [str(v) for v in where["enum"]]
    close = difflib.get_close_matches(error.instance, allowed, n=1, cutoff=0.6)
    if not close:
        return None
    return f"{error.instance!r} is not an allowed value: did you mean {close[0]!r}?"


def validate(name: str, instance: Any, source: str) -> None:
    """Raise GateInputError naming ``source`` and the field if ``instance`` fails ``name``."""
    func = _fast(name)
    if func is not None:  # the fast validator's "valid" is final (fast_is_valid, inlined:
        try:              # every stamp of a classify run passes here)
            func(instance)
        except Exception:  # noqa: S110 - invalid, or cannot tell: jsonschema decides below
            pass
        else:
            return
    found = errors(name, instance)
    if found:
        best = _best(found[0])
        unknown = _unknown_key(best)
        if unknown is not None:
            raise GateInputError(source, *unknown)
        raise GateInputError(source, field_of(best),
                             _unix_seconds(best) or _near_value(best) or best.message)


def is_valid(name: str, instance: Any) -> bool:
    return bool(fast_is_valid(name, instance) or validator(name).is_valid(instance))
