"""Known answers for every digest format the README documents for anyone to recompute (issue
32): the Hypothesis generator, failure and health-check digests, the ``gate-fixture-v1``
fixture hash with and without a card, a pinned sampler file and a halt-ledger entry.

Each expected hex is pinned here and printed beside the same example in the README section that
documents the format; it was computed from the README's own recipe (the fixture hash by running
the README's Python), not from the gate's code. Every other test compares digests the same code
computed, so a changed canonical JSON (``sort_keys``, ``separators``, ``ensure_ascii``) or a
changed ``format`` word would pass them all: these fail."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from gate.decide import digest, stamps
from gate.records import hashing, ledger
from gate.records.files import canonical_json

ROOT = Path(__file__).resolve().parents[1]

#: A stamp's ``hypothesis`` object (``examples_run`` is an outcome: not part of the digest).
HYPOTHESIS = {"version": "6.100.0", "seed": 7, "max_examples": 32, "derandomize": True,
              "database": None, "deadline_ms": 200,
              "suppress_health_check": ["too_slow", "filter_too_much"], "examples_run": 32}
GENERATOR_SHA256 = "5f6e6cc411f1f00572468d5fd59f02c029f28a0ab596304aadf2bba51f937a2d"

#: A red's ``failure`` object: a non-ASCII example with an object address in it.
FAILURE = {"type": "AssertionError", "message": "assert 'café' == 'cafe'",
           "example": "test_round_trip(\n    self=<tests.test_codec.TestCodec object at "
                      "0x7f23d2a74210>,\n    text='café',\n)",
           "reproduce": None}
FAILURE_SHA256 = "c67b5bb61467854bbd66e71f2cbd6d8566b5a5190d8f8061372a43c3e18e9ca0"

HEALTH_CHECK = {"type": "hypothesis.errors.FailedHealthCheck",
                "message": "Input generation is slow: Hypothesis only generated 9 valid inputs "
                           "after 1.04 seconds.",
                "example": None, "reproduce": None}
HEALTH_CHECK_SHA256 = "632ce8e012f444f4a6dcc6e249bf6084f58c41e257a44ef03a3be38d79695252"

#: The fixture folder of the README's example: two files, one in a subfolder.
FIXTURE_FILES = {"cases/one.json": '{"text": "café"}\n'.encode(), "sampler.txt": b"seed 7\n"}
CARD = {"property": "parser_round_trip", "cases": 32, "seed": 7,
        "freeze_expires_at": 1791590400, "description": "round trip of « café »"}
FIXTURE_HASH_CARD = "0954d7e2c486f2ee35d2d1f59b1d314b5d3c03b7c55d79aa9e920fd60c352dac"
FIXTURE_HASH_NO_CARD = "009aa8e48332a044fb7e16fd8f612165a1be1daa6579c1a5cb00199089c54b12"
#: ``gate pin sampler.txt``: the plain SHA-256 of the file's bytes.
PIN_SHA256 = "bda3252545befc611051a87002f0d851f175776a2f6975b3eae4fbc02c67b269"

LEDGER_ENTRY = {"v": 1, "seq": 1, "prev": "0" * 64, "at": 1790000000, "kind": "bind",
                "binding": {"run_id": "run-1", "generation": 1, "scope": "lab.invalid",
                            "host": "api.lab.invalid", "marker": "synthetic-fixture-v1",
                            "target_class": "fixture"}}
LEDGER_HASH = "68e6f4d142416cbb6e0d2eed0688840c10b52c2748a3a9f8fa124110a0d10a6b"

EVERY_ANSWER = (GENERATOR_SHA256, FAILURE_SHA256, HEALTH_CHECK_SHA256, FIXTURE_HASH_CARD,
                FIXTURE_HASH_NO_CARD, PIN_SHA256, LEDGER_HASH)


def test_the_generator_digest() -> None:
    assert digest.generator_digest(HYPOTHESIS) == GENERATOR_SHA256
    # examples_run is an outcome, not the generator
    assert digest.generator_digest(dict(HYPOTHESIS, examples_run=0)) == GENERATOR_SHA256


def test_a_stamp_seen_as_a_run_record_carries_the_documented_digests() -> None:
    stamp = {"run_id": "r1", "outcome": "assert_fail", "hypothesis": HYPOTHESIS,
             "failure": FAILURE}
    record = stamps.as_run_record(stamp)
    assert (record["generator_sha256"], record["fixture_sha256"],
            record["failure_sha256"]) == (GENERATOR_SHA256, GENERATOR_SHA256, FAILURE_SHA256)
    checked = stamps.as_run_record(dict(stamp, outcome="resource_exit", failure=HEALTH_CHECK))
    assert checked["health_check_sha256"] == HEALTH_CHECK_SHA256
    assert "failure_sha256" not in checked  # a health check prints no example


def test_the_failure_digest() -> None:
    assert digest.failure_digest(FAILURE) == FAILURE_SHA256
    # another process: another address, another message; the same digest
    other = dict(FAILURE, message="assert 'café' == 'cafe' (again)",
                 example=FAILURE["example"].replace("0x7f23d2a74210", "0x7f0000000abc"))
    assert digest.failure_digest(other) == FAILURE_SHA256


def test_the_health_check_digest() -> None:
    assert digest.health_check_digest(HEALTH_CHECK) == HEALTH_CHECK_SHA256


def _fixture_folder(root: Path) -> Path:
    for name, data in FIXTURE_FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_the_fixture_hash(tmp_path: Path) -> None:
    root = _fixture_folder(tmp_path)
    assert hashing.fixture_hash([str(root)], str(root), CARD) == FIXTURE_HASH_CARD
    assert hashing.fixture_hash([str(root)], str(root), None) == FIXTURE_HASH_NO_CARD
    # the listing order does not count
    listed = [str(root / "sampler.txt"), str(root / "cases")]
    assert hashing.fixture_hash(listed, str(root), CARD) == FIXTURE_HASH_CARD


def test_the_pin_of_a_sampler_file(tmp_path: Path) -> None:
    path = _fixture_folder(tmp_path) / "sampler.txt"
    assert hashing.pin(path).fixture_sha256 == PIN_SHA256


def test_the_halt_ledger_entry_hash() -> None:
    assert ledger.entry_hash(LEDGER_ENTRY) == LEDGER_HASH
    assert ledger.entry_hash({**LEDGER_ENTRY, "hash": "f" * 64}) == LEDGER_HASH


def test_canonical_json_is_sorted_compact_and_utf8() -> None:
    value = {"b": ["é", 1], "a": {"d": None, "c": True}}
    expected = '{"a":{"c":true,"d":null},"b":["é",1]}'.encode()
    assert canonical_json(value) == expected
    assert digest._sha256_of(value) == hashlib.sha256(expected).hexdigest()


def _documentation() -> str:
    """The README and whatever the docs folder holds (the formats may move there)."""
    return "\n".join(p.read_text(encoding="utf-8")
                     for p in [ROOT / "README.md", *sorted(ROOT.glob("docs/**/*.md"))])


@pytest.mark.parametrize("answer", EVERY_ANSWER)
def test_each_known_answer_is_printed_in_the_documentation(answer: str) -> None:
    assert answer in _documentation()


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_documented_fixture_hash_recipe_gives_the_known_answers(tmp_path: Path) -> None:
    recipes = [b for b in _python_blocks(_documentation()) if "def fixture_hash(" in b]
    assert len(recipes) == 1
    scope: dict[str, Any] = {}
    exec(compile(recipes[0], "README fixture_hash", "exec"), scope)
    root = _fixture_folder(tmp_path)
    assert scope["fixture_hash"](str(root), CARD) == FIXTURE_HASH_CARD
    assert scope["fixture_hash"](str(root)) == FIXTURE_HASH_NO_CARD


def test_the_documented_digest_recipe_gives_the_known_answers() -> None:
    """The README's one line of Python over each documented body."""
    def sha(obj: object) -> str:
        return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":"),
                                         ensure_ascii=False).encode()).hexdigest()

    body = {k: HYPOTHESIS[k] for k in digest.GENERATOR_FIELDS}
    assert sha({"format": "gate-hypothesis-generator/v1", **body}) == GENERATOR_SHA256
    example = str(FAILURE["example"]).replace(" at 0x7f23d2a74210>", " at 0x…>")
    assert sha({"example": example, "format": "gate-hypothesis-failure/v2",
                "type": "AssertionError"}) == FAILURE_SHA256
    assert sha({"format": "gate-hypothesis-health-check/v1", "message": HEALTH_CHECK["message"],
                "type": HEALTH_CHECK["type"]}) == HEALTH_CHECK_SHA256
