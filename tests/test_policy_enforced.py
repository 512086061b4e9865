"""Issue 14 class 7: what ``gate policy check`` flags grants nothing, in every command.

Mechanism: decisions take the allowlist only through ``Policy.granting`` (checked in the
source), which attaches ``gate policy check``'s own finding to a flagged entry, and the pure
stamp table grants nothing from a flagged entry."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from gate.decide import stamps
from gate.records import pairing, policy
from tests.core_helpers import (
    FREE,
    LOCAL,
    NOW,
    allow_entry,
    assert_bad_input,
    policy_yaml,
    run_cli,
    stamp,
    write_json,
)

GATE = Path(__file__).resolve().parents[1] / "gate"
DAY = 86_400

FLAGGED = {
    "window too long (a milliseconds typo)": {"expires": NOW * 1000},
    "added in the future": {"added": NOW + 5 * DAY, "expires": NOW + 10 * DAY},
    "expires before added (and so in the future)": {"added": NOW + 9 * DAY,
                                                    "expires": NOW + 8 * DAY},
}


def test_decisions_never_read_the_raw_allowlist() -> None:
    offenders = []
    for path in sorted(GATE.rglob("*.py")):
        rel = path.relative_to(GATE.parent).as_posix()
        if rel in ("gate/records/policy.py", "gate/commands/policy.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "allowlist":
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == [], "decide from Policy.granting(now), not .allowlist: " + str(offenders)


def _files(tmp_path: Path, entry: dict[str, Any]) -> tuple[Path, Path, Path]:
    pol = tmp_path / "policy.yml"
    pol.write_text(policy_yaml([entry]), encoding="utf-8")
    folder = tmp_path / "stamps"
    local = write_json(folder / "l.json", stamp(LOCAL, "pass", run_id="L"))
    free = write_json(folder / "f.json", stamp(FREE, "assert_fail", run_id="F"))
    return pol, local, free


def test_a_healthy_entry_still_freezes(tmp_path: Path) -> None:
    pol, local, free = _files(tmp_path, allow_entry())
    result = run_cli("classify", local, free, "--policy", pol, "--now", NOW)
    assert result.code == 0 and "action=freeze_inside_server_class" in result.lines


@pytest.mark.parametrize("kind", list(FLAGGED))
def test_a_flagged_entry_grants_nothing_in_any_command(tmp_path: Path, kind: str) -> None:
    entry = {**allow_entry(), **FLAGGED[kind]}
    pol, local, free = _files(tmp_path, entry)
    check = run_cli("policy", "check", pol, "--now", NOW)
    assert check.code == 1
    finding = policy.load(pol).granting(NOW)[0].finding
    assert finding is not None and finding in check.out
    pair = run_cli("classify", local, free, "--policy", pol, "--now", NOW, "--json")
    assert pair.code == 1 and '"reject_not_allowlisted"' in pair.out
    assert finding in pair.out  # the finding is the reason
    folder = run_cli("classify", "--stamps", tmp_path / "stamps", "--policy", pol, "--now", NOW)
    assert folder.code == 1 and "reject_not_allowlisted" in folder.out
    # the action's route: pairing over a folder with the policy as the action loads it
    loaded = policy.load(pol)
    decisions = pairing.decide_folder(tmp_path / "stamps", loaded.granting(NOW), NOW)
    assert not any(d.door_open for d in decisions)
    assert "grants nothing" in decisions[0].entry["reason"]


@pytest.mark.parametrize("added", [None, NOW - 40 * DAY, NOW - DAY, NOW, NOW + DAY])
@pytest.mark.parametrize("expires", [NOW - DAY, NOW + DAY, NOW + 29 * DAY, NOW + 31 * DAY,
                                     NOW * 1000])
def test_granting_flags_exactly_what_check_flags(added: int | None, expires: int) -> None:
    raw = {**allow_entry(expires=expires), **({"added": added} if added is not None else {})}
    pol = policy.from_record({"allowlist": [raw]}, "p.yml")
    found = [f for f in policy.check(pol, NOW) if "expired at" not in f]
    granted = pol.granting(NOW)[0]
    assert (granted.finding is None) == (found == [])
    assert granted.finding is None or granted.finding == found[0]


def test_the_table_grants_nothing_from_a_flagged_entry() -> None:
    local, free = stamp(LOCAL, "pass", run_id="L"), stamp(FREE, "assert_fail", run_id="F")
    entry = stamps.AllowEntry(local["test_id"], FREE, "o", "r", NOW + DAY)
    assert stamps.classify_pair(local, free, (entry,), NOW).frozen
    flagged = stamps.AllowEntry(local["test_id"], FREE, "o", "r", NOW + DAY, "window")
    result = stamps.classify_pair(local, free, (flagged,), NOW)
    assert (result.action, result.reason) == ("reject_not_allowlisted",
                                              "the allowlist entry grants nothing: window")


@pytest.mark.parametrize("blank", ["\u200b", "\u200b\u200d\ufeff", " \u3164 ", "\u2800",
                                   "\u202e\u2066", "\u00a0\u2003"])
@pytest.mark.parametrize("field", ["owner", "reason"])
def test_invisible_owner_or_reason_is_blank(tmp_path: Path, blank: str, field: str) -> None:
    pol, local, free = _files(tmp_path, {**allow_entry(), field: blank})
    assert_bad_input(run_cli("policy", "check", pol, "--now", NOW), f"allowlist.0.{field}")
    assert_bad_input(run_cli("classify", local, free, "--policy", pol, "--now", NOW),
                     f"allowlist.0.{field}")


def test_policy_check_manifest_flags_unknown_test_ids(tmp_path: Path) -> None:
    examples = GATE / "examples"
    pol = tmp_path / "policy.yml"
    pol.write_text(policy_yaml([allow_entry("tokenizer_total"), allow_entry("tokeniser_total")]),
                   encoding="utf-8")
    result = run_cli("policy", "check", pol, "--now", NOW, "--manifest",
                     examples / "manifest.yml", "--root", examples)
    assert result.code == 1
    assert len([line for line in result.lines if "in no manifest" in line]) == 1
    assert "'tokeniser_total'" in result.out
    ok = tmp_path / "ok.yml"
    # (lexer_unicode: its card has a freeze_expires_at; tokenizer_total's card has none, which
    # is a finding of its own, tests/test_policy_cards.py)
    ok.write_text(policy_yaml([allow_entry("lexer_unicode")]), encoding="utf-8")
    assert run_cli("policy", "check", ok, "--now", NOW, "--manifest",
                   examples / "manifest.yml", "--root", examples).code == 0
