"""Issue 22: a red in both classes on byte-identical failure text prints it once (the second
class says "the same failure on the same example"); annotations carry the assertion message
and the falsifying example, bounded; dates are dates."""

from __future__ import annotations

import copy

from gate.github import review
from tests.golden_cases import FAILURE, HYPOTHESIS, NOW, VIEW, _loaded, _report, _stamp
from tests.typed_report import typed_pair

TEST = "test_locale_round_trip"


def _pair(free_failure: dict[str, object]) -> dict[str, object]:
    local = _stamp(TEST, 41, "local-pinned", "assert_fail", "l1", failure=copy.deepcopy(FAILURE),
                   hypothesis=dict(HYPOTHESIS))
    free = _stamp(TEST, 41, "free-server", "assert_fail", "f1", failure=free_failure,
                  hypothesis=dict(HYPOTHESIS))
    (pair,) = _report(_loaded(local, free), [])["pairs"]
    return pair


def test_identical_failures_are_printed_once() -> None:
    block = "\n".join(review.red_block(typed_pair(_pair(copy.deepcopy(FAILURE))), NOW, 30, VIEW))
    assert block.count("Failure (") == 1 and block.count("Falsifying example (") == 1
    assert block.count("Hypothesis (") == 1
    assert "free-server: the same failure on the same example as local-pinned" in block
    message = review.annotation_message(typed_pair(_pair(copy.deepcopy(FAILURE))), NOW, 30)
    assert message.count("Failure (") == 1
    assert "free-server: the same failure on the same example as local-pinned" in message


def test_different_failures_are_both_printed() -> None:
    other = {**FAILURE, "example": "test_locale_round_trip(\n    doc=Doc(locale='az_AZ'),\n)"}
    block = "\n".join(review.red_block(typed_pair(_pair(other)), NOW, 30, VIEW))
    assert block.count("Falsifying example (") == 2
    assert "the same failure" not in block


def _with_address(address: str) -> dict[str, object]:
    """FAILURE whose message and example name an object by its default repr (pyrsistent's
    assertion messages do): each process prints another address."""
    shown = f"<tests.test_props.Vec object at {address}>"
    return {**FAILURE, "message": f"assert {shown} == Vec([1, 2])",
            "example": f"test_locale_round_trip(\n    self={shown},\n)"}


def test_failures_that_differ_only_in_object_addresses_are_printed_once() -> None:
    local = _stamp(TEST, 41, "local-pinned", "assert_fail", "l1",
                   failure=_with_address("0x7f23d2a74210"), hypothesis=dict(HYPOTHESIS))
    free = _stamp(TEST, 41, "free-server", "assert_fail", "f1",
                  failure=_with_address("0x7fe10a9b3c40"), hypothesis=dict(HYPOTHESIS))
    (pair,) = _report(_loaded(local, free), [])["pairs"]
    assert pair["failure_class"] == "property_miss"  # the digest reads them as one failure
    block = "\n".join(review.red_block(typed_pair(pair), NOW, 30, VIEW))
    assert block.count("Failure (") == 1 and block.count("Falsifying example (") == 1
    assert ("free-server: the same failure on the same example as local-pinned (but for "
            "object addresses, which differ between processes)") in block
    assert "0x7f23d2a74210" in block and "0x7fe10a9b3c40" not in block  # the first, as printed
    message = review.annotation_message(typed_pair(pair), NOW, 30)
    assert message.count("Failure (") == 1
    assert "(but for object addresses, which differ between processes)" in message
    # byte-identical failures keep their plain words
    same = "\n".join(review.red_block(typed_pair(_pair(copy.deepcopy(FAILURE))), NOW, 30, VIEW))
    assert "object addresses" not in same


def test_failures_that_differ_beyond_addresses_are_both_printed() -> None:
    other = {**_with_address("0x7fe10a9b3c40"), "message": "assert <x at 0x1> == Vec([1, 3])"}
    local = _stamp(TEST, 41, "local-pinned", "assert_fail", "l1",
                   failure=_with_address("0x7f23d2a74210"), hypothesis=dict(HYPOTHESIS))
    free = _stamp(TEST, 41, "free-server", "assert_fail", "f1", failure=other,
                  hypothesis=dict(HYPOTHESIS))
    (pair,) = _report(_loaded(local, free), [])["pairs"]
    block = "\n".join(review.red_block(typed_pair(pair), NOW, 30, VIEW))
    assert block.count("Failure (") == 2 and "the same failure" not in block


def test_an_annotation_carries_the_message_and_example_bounded() -> None:
    long = {**FAILURE, "message": "x" * 5000, "example": "e" * 5000}
    message = review.annotation_message(typed_pair(_pair(long)), NOW, 30)
    failure_line = next(line for line in message.splitlines()
                        if line.startswith("Failure (free-server)"))
    example_line = next(line for line in message.splitlines()
                        if line.startswith("Falsifying example (free-server)"))
    assert len(failure_line) < 700 and len(example_line) < 1100
    assert "AssertionError: xxx" in failure_line


def test_annotations_show_dates_not_unix_seconds() -> None:
    import re

    frozen_stamps = [
        _stamp(TEST, 41, "local-pinned", "pass", "l1"),
        _stamp(TEST, 41, "free-server", "assert_fail", "f1", failure=copy.deepcopy(FAILURE))]
    from tests.golden_cases import DAY, _allow

    (pair,) = _report(_loaded(*frozen_stamps), [_allow(TEST, NOW + 25 * DAY)])["pairs"]
    assert pair["status"] == "frozen"
    message = review.annotation_message(typed_pair(pair), NOW, 30)
    assert not re.search(r"\b1[7-9]\d{8}\b", message), message
    assert "UTC" in message
