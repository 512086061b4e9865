"""Strict YAML: no anchors' aliases, no implicit timestamps, no tags but ``!!str``, string keys
only, no key twice.

The manifest, the policy and the cards are YAML a pull request can write. libyaml's parser reads
what it can vouch for; the rest, and every refusal, is PyYAML's pure-Python strict loader's, so
either way gives the same value or the same error. Bytes in, a value out: reading the file (its
size cap, no link followed) is gate.records.files's.
"""

from __future__ import annotations

import functools
import re

from gate.errors import GateInputError
from gate.records.utf8 import refuse_lone_surrogates

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _construct_mapping(loader: Any, node: Any) -> dict[Any, Any]:
    """A mapping of the strict loaders: string keys only, no key twice (after ``<<`` merges)."""
    import yaml

    loader.flatten_mapping(node)
    result: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise yaml.constructor.ConstructorError(
                None, None, f"mapping keys must be strings, got {key!r}", key_node.start_mark
            )
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        result[key] = loader.construct_object(value_node, deep=True)
    return result


#: The explicit tags a document may carry: none (the value's plain reading), ``!`` (a quoted
#: or non-specific text) and ``!!str``. Any other tag (``!!bool "maybe"``, ``!!int "x"``,
#: ``!!null "x"``, ``!!binary``, ``!!timestamp``, ``!!set``, a local ``!x``) would make
#: PyYAML's constructors raise an arbitrary exception or silently turn the text into another
#: value; the records the gate reads are plain data and need none of them.
_ALLOWED_TAGS = frozenset({"!", "tag:yaml.org,2002:str"})

_CORE_PREFIX = "tag:yaml.org,2002:"


def tag_problem(tag: str | None) -> str | None:
    """Why an explicit tag is refused (one line naming the tag and the fix), or None."""
    if tag is None or tag in _ALLOWED_TAGS:
        return None
    shown = "!!" + tag[len(_CORE_PREFIX):] if tag.startswith(_CORE_PREFIX) else tag
    return f"the tag {shown} is not allowed (only !!str is): remove it, and quote a text"


@functools.cache
def _strict_loader() -> Any:
    """SafeLoader without aliases, implicit timestamps or tags but ``!!str`` (PyYAML loaded on
    first use: commands that read no YAML do not pay for importing it)."""
    import yaml

    class _StrictLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            event: Any = self.peek_event()  # type: ignore[no-untyped-call]
            if self.check_event(yaml.events.AliasEvent):
                raise yaml.composer.ComposerError(
                    None, None, "anchors and aliases are not allowed", event.start_mark
                )
            problem = tag_problem(getattr(event, "tag", None))
            if problem:
                raise yaml.composer.ComposerError(None, None, problem, event.start_mark)
            return super().compose_node(parent, index)

    _StrictLoader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                  _construct_mapping)
    return _StrictLoader


#: The deepest nesting the libyaml route decides (:func:`_strict_c_loader`); a deeper document
#: goes to the Python loader, whose recursion limit words the refusal ("nesting too deep").
_C_ROUTE_DEPTH = 64


#: What the libyaml route reads: printable ASCII but ``?``, and line feeds. Tabs, carriage
#: returns, byte order marks, NEL and other line breaks, anything outside ASCII and ``?`` are
#: the Python loader's: libyaml and PyYAML's scanner differ on some of them (a tab after a
#: plain scalar is an error to PyYAML's scanner and white space to libyaml's; so is a ``?``
#: inside a plain scalar in a flow collection, ``{a: b?c}``).
_C_ROUTE_TEXT = re.compile(rb"[\x20-\x3e\x40-\x7e\n]*")


#: Literal and folded scalars are the Python loader's (libyaml reads ``>+#c`` as an empty
#: folded scalar; PyYAML's scanner refuses it).
_BLOCK_STYLES = ("|", ">")


class _Undecided(Exception):
    """The libyaml route leaves this document to the Python loader (an anchor, an alias, a
    second document, deep nesting): that loader accepts or refuses it and words the error."""


@functools.cache
def _strict_c_loader() -> Any:
    """The strict loader over libyaml's parser (PyYAML's ``CParser``, about 10x faster than the
    pure-Python scanner and parser), or None when PyYAML was built without libyaml.

    libyaml's own composer resolves aliases in C, where the strict loader's alias refusal never
    runs; so this loader composes the nodes itself from libyaml's events, as PyYAML's
    ``Composer`` does, with the same resolvers and constructors as :func:`_strict_loader`. It
    decides only a document it can vouch for: text outside :data:`_C_ROUTE_TEXT`, any anchor or
    alias, any tag, a literal or folded scalar, a ``%YAML`` or ``%TAG`` directive, a second
    document, nesting deeper than :data:`_C_ROUTE_DEPTH` and any error at all leave the
    document to :func:`_strict_loader` (``parse_yaml``), so every refusal and its message are
    the Python loader's. tests/test_yaml_strict.py checks that both routes give the same value
    or the same error, on a table of documents and on generated ones."""
    import yaml

    if not getattr(yaml, "__with_libyaml__", False):
        return None
    from yaml.events import (
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
        StreamStartEvent,
    )
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    strict = _strict_loader()

    class _StrictCLoader(yaml.cyaml.CSafeLoader):
        def get_single_node(self) -> Any:
            """PyYAML's ``Composer.get_single_node`` and ``compose_document``, iterative."""
            first: Any = self.get_event()
            if type(first) is not StreamStartEvent:
                raise _Undecided
            event: Any = self.get_event()
            if type(event) is StreamEndEvent:
                return None
            if type(event) is not DocumentStartEvent or event.version or event.tags:
                raise _Undecided  # %YAML and %TAG directives are the Python loader's
            root = self._compose_root()
            self.get_event()  # the document's end
            if type(self.get_event()) is not StreamEndEvent:
                raise _Undecided  # a second document: the Python loader's error
            return root

        def _compose_root(self) -> Any:
            stack: list[Any] = []  # the open collections, outermost first
            keys: list[Any] = []  # per open mapping: its key waiting for a value (else None)
            node: Any
            while True:
                event: Any = self.get_event()
                kind = type(event)
                if kind is SequenceEndEvent or kind is MappingEndEvent:
                    node = stack.pop()
                    keys.pop()
                    node.end_mark = event.end_mark
                elif event.anchor is not None or event.tag is not None:
                    raise _Undecided  # an anchor, an alias (its anchor's name), a tag
                elif kind is ScalarEvent:
                    if event.style in _BLOCK_STYLES:
                        raise _Undecided
                    tag = self.resolve(  # type: ignore[no-untyped-call]
                        ScalarNode, event.value, event.implicit)
                    node = ScalarNode(tag, event.value, event.start_mark, event.end_mark,
                                      style=event.style)
                elif kind is SequenceStartEvent or kind is MappingStartEvent:
                    node_class: Any = (SequenceNode if kind is SequenceStartEvent
                                       else MappingNode)
                    tag = self.resolve(  # type: ignore[no-untyped-call]
                        node_class, None, event.implicit)
                    if len(stack) >= _C_ROUTE_DEPTH:
                        raise _Undecided
                    stack.append(node_class(tag, [], event.start_mark, None,
                                            flow_style=event.flow_style))
                    keys.append(None)
                    continue
                else:
                    raise _Undecided
                if not stack:
                    return node
                parent = stack[-1]
                if type(parent) is SequenceNode:
                    parent.value.append(node)
                elif keys[-1] is None:
                    keys[-1] = node
                else:
                    parent.value.append((keys[-1], node))
                    keys[-1] = None

    if _StrictCLoader.yaml_path_resolvers:  # pragma: no cover - PyYAML's default is none
        return None
    _StrictCLoader.yaml_implicit_resolvers = strict.yaml_implicit_resolvers
    _StrictCLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                   _construct_mapping)
    return _StrictCLoader


def _parse_yaml_c(data: bytes) -> tuple[bool, Any]:
    """``(True, value)`` when the libyaml route accepts ``data``; ``(False, None)`` leaves it
    to the Python loader (refused, or not decided here: :func:`_strict_c_loader`)."""
    import yaml

    loader = _strict_c_loader()
    if loader is None or not _C_ROUTE_TEXT.fullmatch(data):
        return False, None
    try:
        value = yaml.load(data, Loader=loader)  # noqa: S506 - strict, libyaml's parser
        refuse_lone_surrogates(value)
    except Exception:  # every refusal is the Python loader's to word
        return False, None
    return True, value


def _parse_yaml_python(data: bytes, source: str) -> Any:
    """The reference route: PyYAML's pure-Python loader, strict; every refusal is worded here."""
    import yaml

    loader = _strict_loader()
    try:
        value = yaml.load(data, Loader=loader)  # noqa: S506 - strict SafeLoader subclass
        refuse_lone_surrogates(value)  # "\ud800" in a double-quoted scalar
        return value
    except UnicodeError:
        raise GateInputError(source, "(yaml)", "not UTF-8 text") from None
    except RecursionError:
        raise GateInputError(source, "(yaml)", "nesting too deep") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(yaml)"
        problem = getattr(exc, "problem", None) or str(exc)
        raise GateInputError(source, where, f"not valid YAML: {problem}") from None


def parse_yaml(data: bytes, source: str) -> Any:
    """Strict YAML: no anchors' aliases, no implicit timestamps, no tag but ``!!str``, string
    keys, no duplicate key. libyaml's parser reads what it can vouch for; the rest, and every
    refusal, is the pure-Python loader's (the same value or the same error either way)."""
    decided, value = _parse_yaml_c(data)
    if decided:
        return value
    return _parse_yaml_python(data, source)
