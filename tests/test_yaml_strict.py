"""The strict YAML loader's two routes give the same value or the same refusal (issue 31).

``gate.records.files.parse_yaml`` (gate/records/strict_yaml.py) reads what libyaml can vouch
for through libyaml's parser (``_parse_yaml_c``) and leaves everything else, every refusal
included, to PyYAML's pure-Python loader (``_parse_yaml_python``, the loader every earlier
release used). These tests compare the
two routes on a table of documents (each refusal the strict loader makes: aliases, duplicate
keys, non-string keys, bad text) and on generated ones, and check that the documents the gate
writes take the fast route.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.errors import GateInputError
from gate.records import files, strict_yaml

EXAMPLES = Path(__file__).resolve().parent.parent / "gate" / "examples"


def _canon(value: Any) -> Any:
    """A value with its types (1 and True, 1 and 1.0 differ), NaN equal to itself."""
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    if isinstance(value, dict):
        return ("dict", tuple((_canon(k), _canon(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(_canon(v) for v in value))
    if isinstance(value, set):
        return ("set", tuple(sorted(map(repr, value))))
    return (type(value).__name__, repr(value))


def _outcome(parse: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "value", _canon(parse(data, "doc.yml"))
    except GateInputError as exc:
        return "refused", str(exc)
    # Nothing else: any other exception (PyYAML's KeyError for `!!bool "x"` once) is a crash.


def _python(data: bytes) -> tuple[str, Any]:
    return _outcome(strict_yaml._parse_yaml_python, data)


def _same_either_way(data: bytes) -> tuple[str, Any]:
    """parse_yaml and the Python route agree; when the libyaml route decides, it accepts what
    the Python route accepts, with the same value."""
    reference = _python(data)
    assert _outcome(files.parse_yaml, data) == reference
    decided, value = strict_yaml._parse_yaml_c(data)
    if decided:
        assert reference == ("value", _canon(value)), data
    return reference


def _tag(line: int, shown: str) -> str:
    return (f"doc.yml: line {line}: not valid YAML: the tag {shown} is not allowed "
            f"(only !!str is): remove it, and quote a text")


#: (document, what the strict loader says): the refusal's message, or the value.
TABLE: list[tuple[bytes, Any]] = [
    (b"a: &x 1\nb: *x\n", "doc.yml: line 2: not valid YAML: anchors and aliases are not allowed"),
    (b"a: [&x 1, *x]\n", "doc.yml: line 1: not valid YAML: anchors and aliases are not allowed"),
    (b"a: *x\n", "doc.yml: line 1: not valid YAML: anchors and aliases are not allowed"),
    (b"a: &x 1\n", {"a": 1}),  # an anchor no alias names is read (as before)
    (b"a: &x 1\nb: &x 2\n", "doc.yml: line 2: not valid YAML: second occurrence"),
    (b"a: 1\na: 2\n", "doc.yml: line 2: not valid YAML: duplicate key 'a'"),
    (b"{a: 1, a: 2}\n", "doc.yml: line 1: not valid YAML: duplicate key 'a'"),
    (b"1: a\n", "doc.yml: line 1: not valid YAML: mapping keys must be strings, got 1"),
    (b"? [a]\n: b\n", "doc.yml: line 1: not valid YAML: mapping keys must be strings, got ['a']"),
    (b"<<: {a: 1}\nb: 2\n", {"a": 1, "b": 2}),
    (b"<<: {a: 1}\na: 2\n", "doc.yml: line 2: not valid YAML: duplicate key 'a'"),
    (b"when: 2001-12-14\n", {"when": "2001-12-14"}),  # no implicit timestamps
    # no explicit tag but !!str: PyYAML's constructors crash on `!!bool "maybe"` (KeyError),
    # `!!int "x"` (ValueError), `!!timestamp "x"` and `!!map [1]`, or turn a text into another
    # value (`!!null "x"` is None, `!!binary "%%"` is b"", `!!timestamp 2001-12-14` a date)
    (b"when: !!timestamp 2001-12-14\n", _tag(1, "!!timestamp")),
    (b'a: !!timestamp "nope"\n', _tag(1, "!!timestamp")),
    (b'a: !!bool "maybe"\n', _tag(1, "!!bool")),
    (b'a: 1\nb: !!int "x"\n', _tag(2, "!!int")),
    (b'a: !!float "x"\n', _tag(1, "!!float")),
    (b'a: !!int "0x"\n', _tag(1, "!!int")),
    (b'a: !!null "x"\n', _tag(1, "!!null")),
    (b'a: !!binary "%%%"\n', _tag(1, "!!binary")),
    (b"a: !!set {x}\n", _tag(1, "!!set")),
    (b"a: !!map [1]\n", _tag(1, "!!map")),
    (b"!!map\na: 1\n", _tag(1, "!!map")),
    (b"a: !!seq [1]\n", _tag(1, "!!seq")),
    (b"a: !<tag:yaml.org,2002:int> 1\n", _tag(1, "!!int")),
    (b"a: !!python/object:os.system x\n", _tag(1, "!!python/object:os.system")),
    (b"a: !local x\n", _tag(1, "!local")),
    (b"a: !!str [1]\n", "doc.yml: line 1: not valid YAML: expected a scalar node"),
    (b"a: ! x\n", {"a": "x"}),
    (b"a: !!str 1\n", {"a": "1"}),
    (b"a: 1\n---\nb: 2\n", "doc.yml: line 2: not valid YAML: but found another document"),
    (b"", None),
    (b"# only a comment\n", None),
    (b"a:\tb\n", None),
    (b"a: b\tc\n", None),
    (b"a: [b\t]\n", None),
    (b"a: {b: c?d}\n", None),
    (b"a: [?b]\n", None),
    (b"a: >+#c\n", None),
    (b"a: |\n  x\n  y\n", {"a": "x\ny\n"}),
    (b"a: b\r\nc: d\r\n", {"a": "b", "c": "d"}),
    (b"\xef\xbb\xbfa: b\n", {"a": "b"}),
    (b"\xff\xfea\x00:\x00 \x00b\x00\n\x00", {"a": "b"}),
    (b"a: \xff\n", None),
    (b"a: \x00\n", None),
    (b'a: "\\ud800"\n', "doc.yml: (yaml): not UTF-8 text"),
    (b"a: b\xe2\x80\xa8c\n", None),
    (b"%YAML 1.1\n---\na: b\n", {"a": "b"}),
    (b"%YAML 2.0\n---\na: b\n", None),
    (b"%TAG !e! tag:example.com,2000:\n---\na: !e!x b\n", _tag(3, "tag:example.com,2000:x")),
    (b"[" * 70 + b"]" * 70, None),
    (b"[" * 600 + b"]" * 600, "doc.yml: (yaml): nesting too deep"),
    (b"a: [1, 2\n", None),
    (b"a: b: c\n", None),
    (b"- a\nb: c\n", None),
    (b"a: .nan\nb: -.inf\nc: 0x1F\nd: 1_000\ne: yes\nf: ~\ng: 0o17\n", None),
]


@pytest.mark.parametrize(("document", "expected"), TABLE,
                         ids=[repr(doc[:30]) for doc, _ in TABLE])
def test_both_routes_give_the_same_value_or_refusal(document: bytes, expected: Any) -> None:
    kind, found = _same_either_way(document)
    if isinstance(expected, str):
        assert kind == "refused"
        assert expected.split(": not valid YAML: ")[-1] in found
        assert found.startswith(expected.split(": not valid YAML: ")[0])
    elif expected is not None:
        assert (kind, found) == ("value", _canon(expected))


def test_billion_laughs_is_refused_the_same_way() -> None:
    lol = b'a: &a ["lol","lol"]\n' + b"".join(
        b"%c: &%c [*%c,*%c,*%c]\n" % (c, c, c - 1, c - 1, c - 1) for c in range(98, 106))
    kind, message = _same_either_way(lol)
    assert kind == "refused" and "anchors and aliases are not allowed" in message


@pytest.mark.parametrize("path", [EXAMPLES / "manifest.yml", EXAMPLES / "policy.yml"],
                         ids=lambda p: p.name)
def test_the_shipped_examples_take_the_libyaml_route(path: Path) -> None:
    data = path.read_bytes()
    decided, value = strict_yaml._parse_yaml_c(data)
    assert decided
    assert _python(data) == ("value", _canon(value))


def test_a_manifest_as_gate_init_writes_it_takes_the_libyaml_route() -> None:
    text = ("# a comment: with punctuation, [brackets] and {braces}\nversion: 1\nproperties:\n"
            + "".join(f'  - test_id: "tests/test_x.py::test_{i}[a-b]"\n'
                      f"    card: {{cases: 100, seed: {1000 + i}}}\n"
                      f'    fixtures: ["tests/test_x.py", {{glob: "data/*.json"}}]\n'
                      f'    harness: ["pytest.ini"]\n'
                      f'    harness_sha256: "{"ab" * 32}"\n'
                      f'    location: {{path: "tests/test_x.py", line: {i + 3}}}\n'
                      for i in range(40)))
    decided, value = strict_yaml._parse_yaml_c(text.encode())
    assert decided
    assert value["properties"][39]["card"] == {"cases": 100, "seed": 1039}
    assert _python(text.encode()) == ("value", _canon(value))


def test_without_libyaml_every_document_takes_the_python_route(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strict_yaml, "_strict_c_loader", lambda: None)
    assert strict_yaml._parse_yaml_c(b"a: 1\n") == (False, None)
    assert files.parse_yaml(b"a: 1\n", "doc.yml") == {"a": 1}
    with pytest.raises(GateInputError, match="duplicate key 'a'"):
        files.parse_yaml(b"a: 1\na: 2\n", "doc.yml")


# --- generated documents ------------------------------------------------------------------

#: Pieces of YAML syntax, so that generated text reaches the scanner's corners.
PIECES = ["- ", ": ", ":", "\n", "  ", " ", "[", "]", "{", "}", ", ", ",", '"', "'", "&a ",
          "*a", "!!str ", "!!int ", "!!bool ", "!!null ", "!!binary ", "!!timestamp ",
          "!!map ", "!!seq ", "!!set ", "! ", "!x ", "? ", "?", "#c", "|", ">", "|-", ">+", "<<",
          "a", "key", "1", "0x1F", "1.5", ".nan", "1_000", "017", "true", "yes", "null", "~",
          "2001-12-14", "\t", "%YAML 1.1\n", "---\n", "...\n", "\\", "\\n", "\\u00e9",
          "\\ud800", "é", "\u2028", "\x85", "\ufeff", "\x00", "@", "`", "%", "=", "\r\n"]

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["", "a b", "a: b", "- x", "x #y", "'", '"', ":", "a:b", "[x]", "{x}",
                     "null", "1e3", "0x10", "~", "yes", " lead", "trail ", "multi\nline",
                     "2001-12-14", "<<", "@x", "`x", "%x", "&x", "*x", "!x", "|", ">", "é"]),
    st.text(alphabet="ab :-#,[]{}'\"\\\n", max_size=8))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(alphabet="ab :-#[]'\"", max_size=5),
                                            inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=25))
def test_pieces_of_syntax_read_the_same_either_way(pieces: list[str]) -> None:
    _same_either_way("".join(pieces).encode("utf-8", "surrogatepass"))


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([True, False, None]), st.sampled_from([None, "'", '"']),
       st.sampled_from([12, 80]), st.lists(st.tuples(st.integers(0, 10**6),
                                                      st.sampled_from(sorted(set(
                                                          "".join(PIECES))))),
                                            max_size=3))
def test_dumped_and_damaged_documents_read_the_same_either_way(
        value: Any, flow: bool | None, style: str | None, width: int,
        damage: list[tuple[int, str]]) -> None:
    text = list(yaml.safe_dump(value, default_flow_style=flow, default_style=style,
                               width=width, allow_unicode=True))
    for where, char in damage:
        text[where % len(text)] = char
    kind, found = _same_either_way("".join(text).encode("utf-8", "surrogatepass"))
    if not damage:
        # A quoted style makes PyYAML tag what a quote would turn into a text (`!!null ''`,
        # `!!int '1'`): refused, as every tag but !!str is.
        tagged = re.search(r"!!(?!str\b)", "".join(text))
        assert (kind, bool(tagged)) in {("value", False), ("refused", True)}
        if tagged:
            assert "is not allowed (only !!str is)" in found


def test_damaged_shipped_examples_read_the_same_either_way() -> None:
    """Random edits of the shipped manifest and policy (seeded: the same every run)."""
    seeds = [(EXAMPLES / name).read_bytes() for name in ("manifest.yml", "policy.yml")]
    alphabet = b" \n-:[]{},\"'&*!?#|>%@`<=\\0aZ1.~\t\r"
    rnd = random.Random(31)
    decided = 0
    for _ in range(400):
        data = bytearray(rnd.choice(seeds))
        for _ in range(rnd.randint(1, 4)):
            pos = rnd.randrange(len(data) + 1)
            if rnd.random() < 0.4:
                del data[pos:pos + rnd.randint(1, 8)]
            else:
                data[pos:pos] = bytes([rnd.choice(alphabet)]) * rnd.randint(1, 3)
        _same_either_way(bytes(data))
        decided += strict_yaml._parse_yaml_c(bytes(data))[0]
    assert decided > 80  # the comparison covered the libyaml route, not only the fallback
