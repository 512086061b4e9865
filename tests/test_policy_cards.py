"""``gate policy check`` flags an allowlist entry whose sample card can never let it freeze.

The stamp gate (SPEC §3 row 6) counts the card's ``freeze_expires_at``, missing counts as
expired, so an allowlist entry for a test whose card lacks the field (or holds a past one)
grants nothing, silently: the newcomer trial added the entry, ran ``gate policy check`` (no
finding) and still got ``reject_freeze_expired``. The finding names the card file, the field and
the fix. With no ``--manifest``, the default ``.github/gate.yml`` under ``--root`` is read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core_helpers import FREE, NOW, allow_entry, policy_yaml, run_cli

LATER = NOW + 10 * 86_400


def repo(root: Path, card: dict[str, object], server_class: str = FREE) -> Path:
    (root / ".github" / "gate-cards").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "tests" / "test_codec.py").write_text("def test_round_trip():\n    pass\n")
    (root / ".github" / "gate-cards" / "round_trip.json").write_text(json.dumps(card))
    (root / ".github" / "gate.yml").write_text(
        "version: 1\nproperties:\n"
        "  - test_id: tests/test_codec.py::test_round_trip\n"
        "    card: .github/gate-cards/round_trip.json\n"
        "    fixtures: [tests/test_codec.py]\n"
        "    junit: {classname: tests.test_codec, name: test_round_trip}\n")
    policy = root / ".github" / "gate-policy.yml"
    policy.write_text(policy_yaml([allow_entry("tests/test_codec.py::test_round_trip",
                                               server_class, LATER)]))
    return policy


CARD = {"property": "tests/test_codec.py::test_round_trip", "cases": 100, "seed": 5}


@pytest.mark.parametrize("manifest", [True, False], ids=["--manifest", "default manifest"])
def test_a_card_without_freeze_expires_at_is_a_finding(tmp_path: Path, manifest: bool) -> None:
    policy = repo(tmp_path, CARD)
    extra = ["--manifest", tmp_path / ".github" / "gate.yml"] if manifest else []
    result = run_cli("policy", "check", policy, "--now", NOW, "--root", tmp_path, *extra)
    assert result.code == 1, result.out + result.err
    (line,) = [x for x in result.lines if "freeze_expires_at" in x]
    card = (tmp_path / ".github" / "gate-cards" / "round_trip.json").as_posix()
    assert f"card {card} has no freeze_expires_at" in line
    assert "can never be granted" in line
    assert (f'fix: add "freeze_expires_at": <Unix seconds, no later than this entry\'s expires '
            f"{LATER}> to {card}") in line
    assert "allowlist.0 ('tests/test_codec.py::test_round_trip' in free-server)" in line
    assert result.lines[-1] == "policy: 1 entries, 1 findings"


def test_a_card_whose_freeze_expires_at_passed_is_a_finding(tmp_path: Path) -> None:
    policy = repo(tmp_path, {**CARD, "freeze_expires_at": NOW - 1})
    result = run_cli("policy", "check", policy, "--now", NOW, "--root", tmp_path)
    assert result.code == 1
    assert any(f"field freeze_expires_at {NOW - 1} has passed" in x and "fix: set" in x
               for x in result.lines), result.out


def test_a_card_with_an_unexpired_freeze_expires_at_is_healthy(tmp_path: Path) -> None:
    policy = repo(tmp_path, {**CARD, "freeze_expires_at": LATER})
    result = run_cli("policy", "check", policy, "--now", NOW, "--root", tmp_path)
    assert result.code == 0, result.out
    assert result.lines[-1] == "policy: 1 entries, 0 findings"


def test_the_finding_agrees_with_the_stamp_gate(tmp_path: Path) -> None:
    """The same card and entry in the stamp gate: the freeze is refused, as the finding says."""
    from gate.decide import stamps

    entry = stamps.AllowEntry("t", FREE, "@o", "r", LATER)
    local = {"test_id": "t", "fixture_hash": "h", "sample_card": CARD,
             "server_class": "local-pinned", "outcome": "pass"}
    free = {**local, "server_class": FREE, "outcome": "assert_fail"}
    assert stamps.classify_pair(local, free, [entry], NOW).action == "reject_freeze_expired"
    with_expiry = {**CARD, "freeze_expires_at": LATER}
    local["sample_card"] = free["sample_card"] = with_expiry
    assert stamps.classify_pair(local, free, [entry], NOW).action == "freeze_inside_server_class"


def test_a_local_pinned_entry_is_not_checked_against_its_card(tmp_path: Path) -> None:
    policy = repo(tmp_path, CARD, server_class="local-pinned")
    result = run_cli("policy", "check", policy, "--now", NOW, "--root", tmp_path)
    assert not any("freeze_expires_at" in x for x in result.lines), result.out
