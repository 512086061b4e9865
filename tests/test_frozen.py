"""gate.decide.frozen.FrozenValue: the one frozen value class of the hot paths (the hook,
``gate hash``). Pickling goes through the constructor by name: a constructor whose parameters
come in another order than ``__slots__`` (Binding's) must not swap fields."""

from __future__ import annotations

import copy
import pickle

import pytest

from gate.decide import halt
from gate.decide.frozen import FrozenValue
from gate.records import hashing, ledger

VALUES = [
    halt.Binding("run-1", 7, "lab.invalid", "api.lab.invalid", "synthetic-fixture-v1", "fixture"),
    halt.HaltPolicy(("lab.invalid",), "synthetic-fixture-v1"),
    hashing.Pin("ab" * 32, "fixtures/x.bin"),
    hashing.FixtureFile(b"a/b.txt", "/tmp/a/b.txt"),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_a_pickled_value_comes_back_equal_field_by_field(value: FrozenValue) -> None:
    for back in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert back == value
        assert {n: getattr(back, n) for n in value.__slots__} == {
            n: getattr(value, n) for n in value.__slots__}


def test_binding_keeps_its_run_id_and_generation_apart_through_pickle() -> None:
    back = pickle.loads(pickle.dumps(VALUES[0]))
    assert isinstance(back, halt.Binding)
    assert (back.run_id, back.generation) == ("run-1", 7)


def test_frozen_values_refuse_assignment() -> None:
    with pytest.raises(AttributeError, match="frozen"):
        VALUES[2].fixture_path = "x"  # type: ignore[misc]


def test_every_frozen_class_is_the_one_class() -> None:
    assert halt.FrozenValue is FrozenValue
    for cls in (halt.Binding, hashing.Pin, hashing.FixtureFile, ledger.CheckResult):
        assert issubclass(cls, FrozenValue)
