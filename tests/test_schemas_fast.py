"""The fast validator (fastjsonschema, compiled from the same schema files) agrees with
jsonschema on valid and mutated records of every schema; "valid" from it is final, so it must
never accept what jsonschema refuses (strict integers, ECMA ``$``, arrays are lists)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.errors import GateInputError
from gate.records import schemas
from tests.core_helpers import LOCAL, allow_entry, binding_record, stamp
from tests.test_schemas import MINIMAL
from tests.test_summary import make_report

SHA = "a" * 64

BASES: dict[str, list[Any]] = {name: [copy.deepcopy(record)] for name, record in MINIMAL.items()}
BASES["stamp"].append(stamp(LOCAL, "pass", run_id="L1", fixture_sha256=SHA))
BASES["ledger-entry"].append({
    "v": 1, "seq": 2, "prev": SHA, "hash": "b" * 64, "at": 1, "kind": "decision",
    "attempt_id": "a1", "binding": binding_record(), "issued_generation": 1,
    "decision": "allow", "row": 4, "reason": "closed fixture", "target_class": "fixture",
    "expected": None})
BASES["policy"].append({"allowlist": [allow_entry()]})
BASES["report"].append(make_report(rejected=2, frozen=1, accepted=1))
BASES["policy"].append({"signing": {"mode": "ed25519", "require": "local-pinned", "keys": {
    "local-pinned": [{"id": "pinned-1", "public_key": "A" * 43 + "="}]}}})
BASES["stamp-set"] = [{
    "_type": "https://in-toto.io/Statement/v1",
    "subject": [{"name": "s1.json", "digest": {"sha256": SHA}}],
    "predicateType": "https://github.com/agent-patch-gate/gate/stamp-set/v1",
    "predicate": {"server_class": "local-pinned", "repository": "o/r", "repository_id": "12",
                  "run_id": "42", "run_attempt": 1, "job": "stamp",
                  "artifact": "gate-stamps-local-pinned-stamp-1-0a1b2c3d", "head_sha": "b" * 40,
                  "manifest_sha256": SHA, "policy_sha256": None}}]
BASES["dsse-envelope"] = [{"payloadType": "application/vnd.in-toto+json", "payload": "e30=",
                           "signatures": [{"keyid": "k", "sig": "A" * 86 + "=="}]}]
BASES["rerun-memory-statement"] = [{
    "_type": "https://in-toto.io/Statement/v1",
    "subject": [{"name": "gate-rerun-memory.json", "digest": {"sha256": SHA}}],
    "predicateType": "https://github.com/agent-patch-gate/gate/rerun-memory/v1",
    "predicate": {"workflow_run_id": "42", "attempt": 1, "job": "gate", "head_sha": "b" * 40}}]
_MEMORY = {"schema": "gate-rerun-memory/v1", "workflow_run_id": "42", "attempt": 1,
           "head_sha": "b" * 40, "decided": True, "truncated": False, "reds": [], "job": "gate"}
BASES.setdefault("rerun-memory", []).extend([
    {**_MEMORY, "signature": {"keyid": "gate-1", "sig": "A" * 86 + "=="}},
    {**_MEMORY, "signature": {"bundle": {"mediaType": "m", "verificationMaterial": {},
                                         "dsseEnvelope": {}}}}])
BASES["verification-summary"] = [{
    "_type": "https://in-toto.io/Statement/v1",
    "subject": [{"name": "git+https://github.com/o/r", "digest": {"gitCommit": "b" * 40}}],
    "predicateType": "https://slsa.dev/verification_summary/v1",
    "predicate": {"verifier": {"id": "https://github.com/agent-patch-gate/gate",
                               "version": {"agent-patch-gate": "0.2.0"}},
                  "timeVerified": "2026-12-01T00:00:00Z",
                  "resourceUri": "git+https://github.com/o/r@" + "b" * 40,
                  "policy": {"uri": ".github/gate-policy.yml", "digest": {"sha256": SHA}},
                  "inputAttestations": [{"uri": "a/gate-stamp-set.dsse.json",
                                         "digest": {"sha256": SHA}}],
                  "verificationResult": "PASSED", "verifiedLevels": ["AGENT_PATCH_GATE_OPEN"],
                  "slsaVersion": "1.0"}}]
BASES["test-result"] = [{
    "_type": "https://in-toto.io/Statement/v1",
    "subject": [{"name": "s1.json", "digest": {"sha256": SHA}}],
    "predicateType": "https://in-toto.io/attestation/test-result/v0.1",
    "predicate": {"result": "FAILED",
                  "configuration": [{"name": "gate.yml", "digest": {"sha256": SHA},
                                     "annotations": {"role": "manifest"}},
                                    {"name": "w", "uri": "https://github.com/o/r/w.yml"}],
                  "url": "https://github.com/o/r/actions/runs/1/attempts/1",
                  "passedTests": ["a"], "warnedTests": [], "failedTests": ["b"]}}]
BASES["manifest"] = [{"version": 1, "properties": [
    {"test_id": "p", "card": "cards/p.json", "fixtures": ["fx/p"], "sample": "out.json",
     "junit": {"classname": "tests.test_p", "name": "test_p"}}]},
    {"version": 1, "groups": {"h": ["pytest.ini"]}, "properties": [  # the harness apart
        {"test_id": "p", "card": {"cases": 1, "seed": 1}, "fixtures": ["fx/p"],
         "harness": [{"group": "h"}, {"glob": "tests/**/conftest.py"}],
         "harness_sha256": SHA}]}]
BASES["stamp"].append(stamp(LOCAL, "pass", run_id="L2", harness_sha256=SHA))

_CASE = {"classname": "m", "name": "test_p", "kinds": ["failure"], "crash": "ValueError",
         "hypothesis": None, "raised": ["builtins.ValueError"], "tampered": None,
         "failure": {"type": "ValueError", "message": "m", "example": None, "reproduce": None}}
BASES["recorder-record"] = [
    {"record": "begin", "schema": "gate-recorder-results/v1", "pid": 7, "gate_version": "1",
     "pytest_version": "8", "hypothesis_version": "6"},
    {"record": "started", "nodeid": "m.py::test_p"},
    {"record": "finished", "nodeid": "m.py::test_p", "cases": [_CASE]},
    {"record": "end", "exit_status": 1, "refused": [], "refused_tests": 0, "cases": [_CASE],
     "tampered": [],
     "collected": {"selected": [["m", "test_p"]], "deselected": [], "ungated": [],
                   "failed": []}}]

TRICKY: list[Any] = [
    0, 1, -1, 7, 7.0, 1.0, 0.0, 1.5, True, False, None, 2**70, "", "x", "a" * 64,
    "a" * 64 + "\n", "A" * 64, "0" * 63, "/abs", "\\win", " ", "pass", "bind", "fixture",
    "local-pinned", "free-server", "x" * 5000, [], [1], ["a"], {}, {"x": 1}, (1,), ("a",),
]


def _paths(doc: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*here, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            out += _paths(value, (*here, index))
    return out


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


@st.composite
def mutated(draw: st.DrawFn, name: str) -> Any:
    doc = copy.deepcopy(draw(st.sampled_from(BASES[name])))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "drop", "add", "dup"]))
        if not path:
            if op == "replace":
                doc = copy.deepcopy(draw(st.sampled_from(TRICKY)))
            continue
        parent = _at(doc, path[:-1])
        if op == "replace":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(TRICKY)))
        elif op == "drop":
            del parent[path[-1]]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "note", "_x", "v"]))] = copy.deepcopy(
                draw(st.sampled_from(TRICKY)))
        elif op == "dup" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
    return doc


def _slow(name: str, doc: Any) -> bool:
    return bool(schemas.validator(name).is_valid(doc))


@pytest.mark.parametrize("name", schemas.NAMES)
def test_every_schema_has_a_fast_validator(name: str) -> None:
    assert schemas._fast(name) is not None, name


@pytest.mark.parametrize("name", sorted(BASES))
def test_bases_valid_in_both(name: str) -> None:
    for doc in BASES[name]:
        assert _slow(name, doc), (name, doc)
        assert schemas.fast_is_valid(name, doc), (name, doc)


@pytest.mark.parametrize("name", sorted(BASES))
@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fast_agrees_with_jsonschema(name: str, data: st.DataObject) -> None:
    doc = data.draw(mutated(name))
    assert schemas.fast_is_valid(name, doc) == _slow(name, doc), doc
    assert schemas.is_valid(name, doc) == _slow(name, doc)


@pytest.mark.parametrize("value", [7.0, True, False, 1.5, "7", None])
def test_strict_integer_in_both(value: Any) -> None:
    card = {"property": "p", "cases": value, "seed": 0}
    assert schemas.fast_is_valid("sample-card", card) is False
    assert not _slow("sample-card", card)
    with pytest.raises(GateInputError) as caught:
        schemas.validate("sample-card", card, "card.json")
    assert caught.value.field == "cases"


def test_ecma_dollar_in_both() -> None:
    doc = copy.deepcopy(MINIMAL["stamp"])
    doc["fixture_hash"] = "a" * 64 + "\n"
    assert schemas.fast_is_valid("stamp", doc) is False
    assert not _slow("stamp", doc)
    with pytest.raises(GateInputError) as caught:
        schemas.validate("stamp", doc, "s.json")
    assert caught.value.field == "fixture_hash"


def test_tuples_are_not_arrays_in_either() -> None:
    doc = copy.deepcopy(BASES["policy"][1])
    doc["allowlist"] = tuple(doc["allowlist"])
    assert schemas.fast_is_valid("policy", doc) is False
    assert not _slow("policy", doc)


def test_unaudited_keywords_leave_a_schema_to_jsonschema() -> None:
    assert schemas._fast_supported({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert not schemas._fast_supported({"type": "object", "unevaluatedProperties": False})
    assert not schemas._fast_supported({"items": [{"type": "string"}]})
    assert not schemas._fast_supported({"$ref": "#/$defs/x", "minLength": 3})
    assert schemas._fast_supported({"$ref": "#/$defs/x", "description": "fine"})


# --- pregenerated validators (the ledger's, read by every `gate halt hook` process) -----------


@pytest.mark.parametrize("name", schemas.PREGENERATED)
def test_the_pregenerated_validator_is_current(name: str) -> None:
    from pathlib import Path

    shipped = Path(schemas.__file__).with_name(f"_fast_{name.replace('-', '_')}.py")
    assert shipped.read_text(encoding="utf-8") == schemas.pregenerated_source(name), (
        "regenerate: python -c \"from gate.records import schemas; schemas.write_pregenerated()\"")
    assert schemas._fast(name).__module__ == f"gate.records._fast_{name.replace('-', '_')}"


def test_a_stale_pregenerated_validator_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.records import _fast_ledger_entry

    monkeypatch.setattr(_fast_ledger_entry, "SCHEMA_SHA256", "0" * 64)
    assert schemas._pregenerated("ledger-entry") is None  # generated afresh instead
    assert schemas._pregenerated("receipt") is None  # none shipped


def test_property_names_from_a_list_are_one_set_comparison() -> None:
    """``propertyNames: {enum: [...]}`` (the ledger entry's two kinds) is generated as one
    comparison of the keys with a set, not a loop over the keys: the same answers as
    jsonschema for a name outside the list, a key that is not a string and an empty object."""
    from gate.records import _fast_ledger_entry

    source = schemas.pregenerated_source("ledger-entry")
    assert "_property_names" not in source
    assert source.count(".keys() <= {'at', ") == 2
    decision = BASES["ledger-entry"][1]
    for doc in (decision, {**decision, "note": 1}, {**decision, 1: 1},
                {k: v for k, v in decision.items() if k != "expected"}, {}):
        assert schemas.fast_is_valid("ledger-entry", doc) == _slow("ledger-entry", doc), doc
    assert not schemas.fast_is_valid("ledger-entry", {**decision, "note": 1})
    assert not schemas.fast_is_valid("ledger-entry", {**decision, 1: 1})
    assert schemas._fast("ledger-entry") is _fast_ledger_entry.validate
