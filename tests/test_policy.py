"""``gate policy check``: every finding and every exit status."""

from __future__ import annotations

from pathlib import Path

import pytest

from gate.commands.main import main
from gate.errors import GateInputError
from gate.records import policy

NOW = 1_800_000_000
DAY = 86_400


def entry(**fields: object) -> str:
    base: dict[str, object] = {"test_id": "t", "server_class": "free-server", "owner": "@o",
                               "reason": "free runner lacks the locale",
                               "added": NOW - DAY, "expires": NOW + 10 * DAY}
    base.update(fields)
    inner = ", ".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {v}"
                      for k, v in base.items() if v is not None)
    return f"  - {{{inner}}}\n"


def check(tmp_path: Path, text: str, *extra: str) -> int:
    path = tmp_path / "policy.yml"
    path.write_text(text)
    return main(["policy", "check", str(path), "--now", str(NOW), *extra])


def test_healthy_policy_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "allowlist:\n" + entry(issue="#12") + entry(test_id="u", issue=12, added=None)
    assert check(tmp_path, text) == 0
    assert capsys.readouterr().out.strip().endswith("policy: 2 entries, 0 findings")
    assert check(tmp_path, "") == 0  # an empty file is an empty allowlist
    assert check(tmp_path, "allowlist: []\n") == 0


@pytest.mark.parametrize(("fields", "finding"), [
    ({"expires": NOW}, "expired at"),
    ({"expires": NOW - 1, "added": NOW - 2 * DAY}, "expired at"),
    ({"expires": NOW + 31 * DAY, "added": NOW}, "longer than the 30-day maximum"),
    ({"expires": NOW + 31 * DAY, "added": None}, "longer than the 30-day maximum"),
    ({"added": NOW + 1, "expires": NOW + 2}, "in the future"),
    ({"added": NOW - 5 * DAY, "expires": NOW - 6 * DAY}, "expires before it was added"),
])
def test_each_finding_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              fields: dict[str, object], finding: str) -> None:
    assert check(tmp_path, "allowlist:\n" + entry(**fields)) == 1
    out = capsys.readouterr().out
    assert finding in out and "allowlist.0" in out and "'t' in free-server" in out


def test_thirty_days_exactly_is_allowed(tmp_path: Path) -> None:
    assert check(tmp_path, "allowlist:\n" + entry(added=NOW, expires=NOW + 30 * DAY)) == 0


def test_maximum_from_the_file_and_the_flag(tmp_path: Path) -> None:
    long = entry(added=NOW, expires=NOW + 45 * DAY)
    assert check(tmp_path, "allowlist:\n" + long) == 1
    assert check(tmp_path, "max_freeze_days: 60\nallowlist:\n" + long) == 0
    assert check(tmp_path, "max_freeze_days: 60\nallowlist:\n" + long, "--max-days", "40") == 1
    assert check(tmp_path, "allowlist:\n" + long, "--max-days", "45") == 0
    assert check(tmp_path, "allowlist:\n" + entry(), "--max-days", "5") == 1


def test_every_finding_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = ("allowlist:\n" + entry(test_id="a", expires=NOW - 1, added=NOW - DAY)
            + entry(test_id="b", added=NOW + DAY, expires=NOW + 90 * DAY) + entry(test_id="c"))
    assert check(tmp_path, text) == 1
    out = capsys.readouterr().out
    findings = "\n".join(line for line in out.splitlines() if " frozen in " not in line)
    assert "'a'" in findings and findings.count("'b'") == 2
    assert "'c'" not in findings and out.strip().endswith("3 entries, 3 findings")


def test_every_entry_is_described_for_people(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = ("allowlist:\n" + entry(test_id="a", expires=NOW - 3 * DAY)
            + entry(test_id="b", expires=NOW + 5 * DAY, issue=1234)
            + entry(test_id="c", expires=NOW + 12 * DAY))
    check(tmp_path, text)
    lines = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()
             if " frozen in " in line]
    assert len(lines) == 3
    assert lines[0].startswith("allowlist.0: EXPIRED: 'a' frozen in free-server; owner ")
    assert lines[0].endswith(" UTC, expired 3 days ago")
    assert lines[1].startswith("allowlist.1: EXPIRES WITHIN 7 DAYS: 'b'")
    assert "; issue: 1234; " in lines[1] and lines[1].endswith(" UTC, in 5 days")
    assert lines[2].startswith("allowlist.2: ok: 'c'") and "issue: none" in lines[2]
    assert " UTC, in 12 days" in lines[2]


@pytest.mark.parametrize("text", [
    "allowlist:\n" + entry() + entry(),  # duplicate (same test and class)
    "allowlist:\n" + entry(expires=NOW + DAY) + entry(expires=NOW + 2 * DAY),
    "allowlist:\n" + entry(owner=None),
    "allowlist:\n" + entry(reason=None),
    "allowlist:\n" + entry(owner="  "),
    "allowlist:\n" + entry(reason=""),
    "allowlist:\n" + entry(expires="soon"),
    "allowlist:\n" + entry(expires=None),
    "allowlist:\n" + entry(server_class="gpu"),
    "allowlist:\n" + entry(extra="x"),
    "allowlist:\n  - expires: 2026-01-01\n",
    "allowlist: [\n",
    "- a list\n",
    "max_freeze_days: 0\n",
    "allowlist:\n  - &e {test_id: t}\n  - *e\n",
    # an explicit tag PyYAML cannot hold: each once raised a KeyError or ValueError traceback
    "allowlist:\n" + entry(expires='!!int "soon"'),
    'max_freeze_days: !!bool "maybe"\n',
    'max_freeze_days: !!float "x"\n',
    "allowlist:\n  - !!map [1]\n",
    'allowlist:\n  - {expires: !!timestamp "nope"}\n',
    # ... or silently turns into another value ("x" into None)
    'max_freeze_days: !!null "x"\n',
])
def test_malformed_policy_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  text: str) -> None:
    assert check(tmp_path, text) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("gate: error: ") and captured.err.count("\n") == 1
    assert "policy.yml" in captured.err


def test_duplicates_are_malformed_for_every_reader(tmp_path: Path) -> None:
    path = tmp_path / "policy.yml"
    path.write_text("allowlist:\n" + entry() + entry(expires=NOW + 20 * DAY))
    with pytest.raises(GateInputError) as caught:
        policy.load(path)
    assert caught.value.field == "allowlist.1"
    # The same test in the other class is not a duplicate.
    path.write_text("allowlist:\n" + entry() + entry(server_class="local-pinned"))
    assert len(policy.load(path).allowlist) == 2


def test_flags_and_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert check(tmp_path, "allowlist:\n" + entry(), "--max-days", "0") == 2
    assert main(["policy", "check", str(tmp_path / "absent.yml")]) == 2
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "gate-policy.yml").write_text("allowlist:\n" + entry())
    assert main(["policy", "check", "--now", str(NOW)]) == 0  # the default file


def test_check_is_pure_over_a_loaded_policy(tmp_path: Path) -> None:
    path = tmp_path / "policy.yml"
    path.write_text("allowlist:\n" + entry(expires=NOW + 40 * DAY, added=NOW))
    loaded = policy.load(path)
    assert policy.check(loaded, NOW, max_days=50) == []
    assert len(policy.check(loaded, NOW)) == 1
    assert len(policy.check(loaded, NOW + 41 * DAY, max_days=50)) == 1  # expired by then
