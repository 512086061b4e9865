"""Fuzzing every parser through its real entry point, with a fixed, meaningful budget.

For each of the ten parsers (stamp, run record, receipt, in-toto receipt, binding, ledger,
policy, manifest, JUnit, report) hypothesis generates, deterministically (``derandomize``,
no example database):

* **structured** inputs: the valid seed with one to three edits (a field replaced by any JSON
  value, removed, added, or a nested value swapped), which mostly land just outside the schema;
* **raw** inputs: the seed's bytes with byte-level edits (flips, cuts, insertions, splices of
  JSON/YAML/XML punctuation), and arbitrary bytes and text.

Every input goes through the CLI in-process (:func:`gate.commands.main.main`) with files in a
scratch
folder; :mod:`tests.hardening.fuzzlib` holds the targets and the independent oracles. Figures:
inputs tried, crashes (must be 0), doors opened by invalid input (must be 0).

Budget: ``GATE_FUZZ_EXAMPLES`` examples per parser and per kind (default 150 in CI; the full
run in the README used 1000). Longer runs: ``tests/fuzz/fuzz_parsers.py`` (atheris).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.hardening import figures, fuzzlib

BUDGET = int(os.environ.get("GATE_FUZZ_EXAMPLES", "150"))
SETTINGS = settings(max_examples=BUDGET, derandomize=True, database=None, deadline=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck))
SCRATCH = fuzzlib.Scratch()
FAILURES: dict[str, list[str]] = {}

json_scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
                | st.floats(allow_nan=False, allow_infinity=False)
                | st.text(max_size=40)
                | st.sampled_from(["", "pass", "assert_fail", "local-pinned", "free-server",
                                   "fixture", "live", "allow", "open", "closed", "accepted",
                                   "frozen", "a" * 64, fuzzlib.SHA_X, "A" * 64, "a" * 63,
                                   "a" * 64 + "\n", "../x", "/etc/passwd", "x" * 5000,
                                   "api.lab.invalid", "lab.invalid", fuzzlib.MARKER,
                                   "\u202e", "\ud83d\ude00", "::error::x", "t1"])
                | st.sampled_from([0, 1, 2, -1, 2**63, fuzzlib.NOW, fuzzlib.FUTURE, 1.0, True]))
json_values = st.recursive(json_scalars,
                           lambda c: st.lists(c, max_size=4)
                           | st.dictionaries(st.text(max_size=12), c, max_size=4),
                           max_leaves=12)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


def _edit(value: Any, path: tuple[Any, ...], op: str, new: Any, key: str) -> Any:
    if not path:
        return new if op == "replace" else value
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if op == "replace":
        parent[last] = new
    elif op == "delete":
        del parent[last]
    elif op == "add" and isinstance(parent[last], dict):
        parent[last][key] = new
    elif op == "add" and isinstance(parent[last], list):
        parent[last].append(new)
    elif op == "duplicate" and isinstance(parent, list):
        parent.append(json.loads(json.dumps(parent[last])))
    else:
        parent[last] = new
    return value


@st.composite
def structured(draw: st.DrawFn, name: str) -> tuple[bytes, int]:
    value = fuzzlib.seed_value(SCRATCH, name)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(value)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "delete", "add", "duplicate"]))
        new = draw(json_values)
        key = draw(st.text(max_size=10) | st.sampled_from(["extra", "marker", "outcome"]))
        value = _edit(value, path, op, new, key)
    rehash = draw(st.booleans())
    return fuzzlib.encode(name, value, SCRATCH, rehash=rehash), draw(st.integers(0, 5))


PUNCT = [b"{", b"}", b"[", b"]", b'"', b",", b":", b"\\", b"\x00", b"\n", b"\r", b"-", b"&",
         b"<", b">", b"<!DOCTYPE x [<!ENTITY a 'b'>]>", b"*a", b"&a ", b"!!python/object:os.system",
         b"NaN", b"1e999", b"\xff\xfe", b"\xed\xa0\x80", b"\\ud800", b"---\n", b"? ", b"%",
         b"[" * 100, b"{\"a\":" * 70]


@st.composite
def raw(draw: st.DrawFn, name: str) -> tuple[bytes, int]:
    flag = draw(st.integers(0, 5))
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "bytes", "text"]))
    if kind == "bytes":
        return draw(st.binary(max_size=600)), flag
    if kind == "text":
        return draw(st.text(max_size=300)).encode("utf-8", "surrogatepass"), flag
    data = bytearray(fuzzlib.seed(SCRATCH, name))
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(["flip", "cut", "insert", "truncate", "dup"]))
        if op == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "cut":
            del data[at:at + draw(st.integers(1, 16))]
        elif op == "insert":
            data[at:at] = draw(st.sampled_from(PUNCT) | st.binary(min_size=1, max_size=8))
        elif op == "truncate":
            del data[at:]
        else:
            end = min(len(data), at + draw(st.integers(1, 64)))
            data[at:at] = data[at:end]
    return bytes(data), flag


def _check(section: str, name: str, data: bytes, flag: int) -> None:
    verdict = fuzzlib.TARGET_FUNCS[name](SCRATCH, data, flag)
    figures.add(section, "inputs tried")
    figures.add(section, "invalid inputs", int(verdict.invalid))
    figures.add(section, "crashes", 0)
    figures.add(section, "doors opened by invalid input", 0)
    if verdict.crash:
        figures.add(section, "crashes")
        FAILURES.setdefault(name, []).append(f"crash {data[:300]!r} flag={flag}: {verdict.crash}")
    if verdict.door:
        figures.add(section, "doors opened by invalid input")
        FAILURES.setdefault(name, []).append(f"door {data[:300]!r} flag={flag} "
                                             f"exit={verdict.code}")


def _make(name: str, maker: Callable[[str], Any]) -> Callable[[], None]:
    @SETTINGS
    @given(maker(name))
    def run(case: tuple[bytes, int]) -> None:
        _check(f"fuzz {name}", name, *case)

    return run


@pytest.mark.parametrize("name", fuzzlib.TARGETS)
@pytest.mark.parametrize("kind", ["structured", "raw"])
def test_fuzz_parser(name: str, kind: str) -> None:
    if kind == "structured" and name == "junit":
        maker: Callable[[str], Any] = raw  # XML has no JSON value form; raw mutations twice
    else:
        maker = structured if kind == "structured" else raw
    FAILURES.pop(name, None)
    _make(name, maker)()
    found = FAILURES.get(name, [])
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:10])


def test_seeds_are_valid_and_open() -> None:
    """The oracles agree that every seed is valid (so mutations start from a real door)."""
    for name in fuzzlib.TARGETS:
        verdict = fuzzlib.TARGET_FUNCS[name](SCRATCH, fuzzlib.seed(SCRATCH, name), 0)
        assert verdict.crash is None, (name, verdict)
        assert not verdict.invalid, name
        assert verdict.code == 0, (name, verdict)
