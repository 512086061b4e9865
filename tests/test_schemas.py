"""schemas/*.schema.json: the single source of truth for every record."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from gate.decide import receipts
from gate.errors import GateInputError
from gate.records import schemas
from tests.core_helpers import (
    FREE,
    SHA_X,
    allow_entry,
    binding_record,
    card,
    run_record,
    sha256_hex,
    stamp,
)

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"

RECEIPT = {"diff_sha256": sha256_hex(b"d"), "prompt_sha256": sha256_hex(b"p"),
           "model_id": "m", "workspace_generation": "1", "verdict": "pass", "reasons": ["r"]}

MINIMAL: dict[str, Any] = {
    "sample-card": {"property": "p", "cases": 1, "seed": 0},
    "stamp": stamp(FREE, "assert_fail"),
    "run-record": {"oracle_passed": None, "transport_ok": None},
    "receipt": RECEIPT,
    "receipt-in-toto": receipts.to_in_toto(RECEIPT),
    "binding": {"run_id": "r", "generation": 1, "scope": "s", "host": "h",
                "target_class": "fixture"},
    "ledger-entry": {"v": 1, "seq": 1, "prev": "0" * 64, "hash": "1" * 64, "at": 0,
                     "kind": "bind", "binding": binding_record()},
    "policy": {},
    "report": {"schema": "gate-report/v1", "gate_version": "0.1.0", "now": 0,
               "decision": "closed", "counts": {"accepted": 0, "frozen": 0, "rejected": 0},
               "pairs": []},
}


def test_every_name_has_a_file_and_every_file_a_name() -> None:
    on_disk = sorted(p.name.removesuffix(".schema.json") for p in SCHEMA_DIR.glob("*.json"))
    assert on_disk == sorted(schemas.NAMES)


@pytest.mark.parametrize("name", schemas.NAMES)
def test_schema_is_valid_2020_12(name: str) -> None:
    document = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$id"].endswith(f"/{name}.schema.json")


CORE = sorted(MINIMAL)  # the record schemas issue 2 names (others may be added beside them)


def test_core_schemas_are_all_present() -> None:
    assert set(CORE) <= set(schemas.NAMES)


@pytest.mark.parametrize("name", CORE)
def test_minimal_record_is_valid(name: str) -> None:
    assert schemas.errors(name, MINIMAL[name]) == []


@pytest.mark.parametrize("name", CORE)
def test_each_required_field_is_required(name: str) -> None:
    required = schemas.schema(name).get("required", [])
    if name == "ledger-entry":
        required = [*required, "binding"]
    for key in required:
        record = copy.deepcopy(MINIMAL[name])
        del record[key]
        found = schemas.errors(name, record)
        assert found, (name, key)
        if name != "ledger-entry":
            assert schemas.field_of(found[0]) == key


@pytest.mark.parametrize("name", [n for n in CORE if n != "ledger-entry"])
def test_unknown_fields_are_refused(name: str) -> None:
    record = dict(copy.deepcopy(MINIMAL[name]), zz_unknown=1)
    if name == "receipt-in-toto":  # the Statement layer ignores them; the predicate does not
        record = copy.deepcopy(MINIMAL[name])
        record["predicate"]["zz_unknown"] = 1
        found = schemas.errors(name, record)
        assert [schemas.path_of(e) for e in found] == [["predicate", "zz_unknown"]]
        return
    found = schemas.errors(name, record)
    assert [schemas.field_of(e) for e in found] == ["zz_unknown"]


def test_ledger_entry_refuses_unknown_fields() -> None:
    assert not schemas.is_valid("ledger-entry", dict(MINIMAL["ledger-entry"], extra=1))


def test_spec_stamp_example_is_valid() -> None:
    example = {"run_id": "9f2c61d0", "test_id": "parser_round_trip",
               "server_class": "free-server", "fixture_hash": "c" * 64,
               "sample_card": {"property": "parser_round_trip", "cases": 32, "seed": 7,
                               "freeze_expires_at": 1791590400},
               "outcome": "assert_fail", "freeze_expires_at": 1791590400}
    assert schemas.errors("stamp", example) == []


def test_spec_run_record_example_is_valid() -> None:
    example = {"run_id": "r2", "fixture_sha256": SHA_X, "fixture_path": f"fixtures/{SHA_X}.json",
               "oracle_passed": None, "transport_ok": False}
    assert schemas.errors("run-record", example) == []


def test_spec_policy_example_is_valid() -> None:
    assert schemas.errors("policy", {"allowlist": [allow_entry()]}) == []


@pytest.mark.parametrize(
    ("name", "record", "field"),
    [
        ("sample-card", card(cases=7.0), "cases"),
        ("sample-card", card(seed=True), "seed"),
        ("sample-card", card(cases=0), "cases"),
        ("sample-card", {**card(), "freeze_expires_at": 1.5e9}, "freeze_expires_at"),
        ("stamp", stamp(FREE, "pass", fixture_hash="A" * 64), "fixture_hash"),
        ("stamp", stamp(FREE, "pass", fixture_hash="a" * 63), "fixture_hash"),
        ("stamp", stamp(FREE, "pass", fixture_sha256=SHA_X.upper()), "fixture_sha256"),
        ("stamp", stamp("ci", "pass"), "server_class"),
        ("stamp", stamp(FREE, "timeout"), "outcome"),
        ("stamp", stamp(FREE, "pass", run_id="../x"), "run_id"),
        ("stamp", stamp(FREE, "pass", run_id="r\n"), "run_id"),  # ECMA ``$``, not Python's
        ("stamp", stamp(FREE, "pass", fixture_hash="a" * 64 + "\n"), "fixture_hash"),
        ("receipt", dict(RECEIPT, diff_sha256=RECEIPT["diff_sha256"] + "\n"), "diff_sha256"),
        ("stamp", dict(stamp(FREE, "pass"), freeze_expires_at=True), "freeze_expires_at"),
        ("stamp", stamp(FREE, "pass", sample_card=card(colour="x")), "sample_card.colour"),
        ("run-record", run_record(None, False, retry_count=1.0), "retry_count"),
        ("run-record", run_record(None, False, timed_out=1), "timed_out"),
        ("binding", binding_record(generation=0), "generation"),
        ("binding", dict(binding_record(), generation=True), "generation"),
        ("binding", binding_record(target_class="fixtures"), "target_class"),
        ("receipt", dict(RECEIPT, verdict="ok"), "verdict"),
        ("receipt", dict(RECEIPT, reasons=[]), "reasons"),
        ("receipt", dict(RECEIPT, workspace_generation=1), "workspace_generation"),
        ("policy", {"allowlist": [dict(allow_entry(), owner="   ")]}, "allowlist.0.owner"),
        ("policy", {"allowlist": [dict(allow_entry(), expires="2026-01-01")]},
         "allowlist.0.expires"),
    ],
)
def test_bad_values_name_the_field(name: str, record: Any, field: str) -> None:
    with pytest.raises(GateInputError) as info:
        schemas.validate(name, record, "rec.json")
    assert (info.value.source, info.value.field) == ("rec.json", field)


@pytest.mark.parametrize("value", [None, True, "x", 5, [], {"a": 1}, SHA_X.upper()])
def test_run_record_malformed_triple_is_accepted_by_the_schema(value: Any) -> None:
    # SPEC §4: a malformed digest/oracle/transport value is treated as missing, not refused
    for key in ("fixture_sha256", "oracle_passed", "transport_ok"):
        assert schemas.is_valid("run-record", dict(run_record(None, False), **{key: value}))


def test_stamp_with_only_the_required_fields_is_valid() -> None:
    required = schemas.schema("stamp")["required"]
    assert sorted(required) == sorted(["run_id", "test_id", "server_class", "fixture_hash",
                                       "sample_card", "outcome", "freeze_expires_at"])


def test_strict_integer_checker() -> None:
    assert schemas.is_valid("binding", binding_record(generation=1))
    assert not schemas.is_valid("binding", binding_record(generation=1.0))  # type: ignore[arg-type]


def _refusal(name: str, record: Any) -> tuple[str, str]:
    with pytest.raises(GateInputError) as caught:
        schemas.validate(name, record, "f.yml")
    assert "\n" not in str(caught.value)
    return caught.value.field, str(caught.value)


def test_a_misspelt_key_is_named_with_the_nearest_allowed_one() -> None:
    """Newcomer trial: ``server_clas:`` read as "'server_class' is a required property"."""
    entry = allow_entry()
    entry["server_clas"] = entry.pop("server_class")
    field, text = _refusal("policy", {"allowlist": [entry]})
    assert field == "allowlist.0.server_clas"
    assert "f.yml" in text and "unknown key 'server_clas': did you mean 'server_class'?" in text
    field, text = _refusal("sample-card", {"property": "p", "cases": 1, "seeed": 0})
    assert (field, text.endswith("unknown key 'seeed': did you mean 'seed'?")) == ("seeed", True)


def test_an_unknown_key_alone_gets_the_suggestion_too() -> None:
    field, text = _refusal("sample-card", dict(MINIMAL["sample-card"], deadline=500))
    assert field == "deadline" and "did you mean 'deadline_ms'?" in text
    field, text = _refusal("sample-card", dict(MINIMAL["sample-card"], zzzz=1))
    assert field == "zzzz" and "unknown key 'zzzz'; the allowed keys are " in text
    assert "seed" in text


def test_a_date_where_unix_seconds_are_expected_says_how_to_write_them() -> None:
    entry = dict(allow_entry(), expires="2026-12-31")
    field, text = _refusal("policy", {"allowlist": [entry]})
    assert field == "allowlist.0.expires"
    assert "Unix seconds" in text and "`date -u -d 2026-12-31 +%s`" in text
    field, text = _refusal("sample-card", dict(MINIMAL["sample-card"], freeze_expires_at="soon"))
    assert field == "freeze_expires_at" and "Unix seconds" in text


def test_a_misspelt_value_is_named_with_the_nearest_allowed_one() -> None:
    """attrs trial: ``too-slow`` in a card listed the allowed values without the near one."""
    card = dict(MINIMAL["sample-card"], suppress_health_check=["too-slow"])
    field, text = _refusal("sample-card", card)
    assert field == "suppress_health_check.0"
    assert text.endswith("'too-slow' is not an allowed value: did you mean 'too_slow'?"), text
    card = dict(MINIMAL["sample-card"], suppress_health_check=["zzzz"])
    field, text = _refusal("sample-card", card)  # nothing near: the validator's own words
    assert "'zzzz' is not one of" in text
