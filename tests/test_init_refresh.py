"""Issue 22: ``gate init --refresh`` rewrites the settings fields of the existing cards from the
settings in force (keeping each seed, ``freeze_expires_at`` and file name), and ``--new-seeds``
rotates the seeds on purpose. On a real pytest project whose conftest loads a profile only when
``CI`` is set (suppressing too_slow and filter_too_much), as the trial's project did."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gate.commands.main import main
from tests.property_suite.harness import env

CONFTEST = '''\
import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci-project", suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.filter_too_much])
if os.environ.get("CI"):
    settings.load_profile("ci-project")
'''
TESTS = '''\
from hypothesis import given, strategies as st


@given(st.integers())
def test_total(x):
    assert x == x
'''
CARD = Path(".github/gate-cards/tests_test_total.py__test_total.json")


def _off_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from hypothesis._settings import _CI_VARS

    for name in _CI_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(CONFTEST)
    (tmp_path / "tests" / "test_total.py").write_text(TESTS)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    _off_ci(monkeypatch)
    return tmp_path


def _plugin(root: Path, out: str, ci: bool) -> subprocess.CompletedProcess[str]:
    environment = env()
    for name in ("CI", "GITHUB_ACTIONS"):
        environment.pop(name, None)
    if ci:
        environment["CI"] = "true"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "tests", "--gate-stamps", out,
                           "--gate-server-class", "local-pinned"], cwd=root, env=environment,
                          capture_output=True, text=True, timeout=300, check=False)


def _card() -> dict[str, Any]:
    return dict(json.loads(CARD.read_text()))


def test_refresh_on_ci_writes_the_cards_ci_needs_keeping_the_seed(
        project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "tests", "--cards", ".github/gate-cards"]) == 0
    before = _card()
    del before["suppress_health_check"]  # a card written before gate init collected as CI
    before["freeze_expires_at"] = 1_900_000_000
    CARD.write_text(json.dumps(before))
    # the first CI run: the conftest loads its profile there, the card conflicts (exit 2)
    refused = _plugin(project, "s1", ci=True)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "filter_too_much" in refused.stdout + refused.stderr
    capsys.readouterr()
    monkeypatch.setenv("CI", "true")  # collect as CI will
    assert main(["init", "tests", "--refresh"]) == 0
    said = capsys.readouterr().out
    after = _card()
    assert after["suppress_health_check"] == ["filter_too_much", "too_slow"]
    assert (after["seed"], after["freeze_expires_at"], after["cases"]) == (
        before["seed"], 1_900_000_000, before["cases"])
    assert f"rewrote {CARD}: suppress_health_check null -> " in said
    assert "a changed card is a new card (its hash changes)" in said
    done = _plugin(project, "s2", ci=True)
    assert done.returncode == 0 and "gate: 1 stamp written" in done.stdout, done.stdout
    # nothing changes a second time
    assert main(["init", "tests", "--refresh"]) == 0
    assert "nothing to refresh" in capsys.readouterr().out
    assert os.environ["CI"] == "true"


def test_new_seeds_rotates_every_seed_and_says_so(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "tests", "--cards", ".github/gate-cards"]) == 0
    before = _card()
    capsys.readouterr()
    assert main(["init", "tests", "--refresh", "--new-seeds"]) == 0
    after = _card()
    assert after["seed"] != before["seed"]
    assert {k: v for k, v in after.items() if k != "seed"} == {
        k: v for k, v in before.items() if k != "seed"}
    assert f"rewrote {CARD}: seed {before['seed']} -> {after['seed']}" in capsys.readouterr().out


def test_new_seeds_needs_refresh(project: Path) -> None:
    assert main(["init", "tests", "--new-seeds"]) == 2


def test_init_writes_the_cards_ci_needs_and_says_the_profile_depends_on_it(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22 major 1: ``gate init`` on a laptop (no CI) collects as CI will too, writes the
    card CI needs, and says which tests' settings depend on the environment; the card then
    governs the test on CI and off it."""
    assert main(["init", "tests", "--cards", ".github/gate-cards"]) == 0
    said = capsys.readouterr().out
    assert ("note: 1 Hypothesis test run with other settings where CI is set (CI, "
            "GITHUB_ACTIONS): a settings profile depends on the environment") in said
    assert "tests/test_total.py::test_total" in said
    assert _card()["suppress_health_check"] == ["filter_too_much", "too_slow"]
    for ci in (True, False):
        done = _plugin(project, f"s-{ci}", ci=ci)
        assert done.returncode == 0 and "gate: 1 stamp written" in done.stdout, (
            ci, done.stdout + done.stderr)


def test_a_project_profile_named_ci_is_the_projects_not_hypothesiss(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A trial's project registered its own profile under the name ``ci`` (no deadline,
    too_slow and filter_too_much suppressed) and loaded it only on CI: its values were read as
    inherited from Hypothesis's own ``ci`` profile, so the cards and the stamps on CI ran with
    the default profile's 200 ms deadline and no health check suppressed. Hypothesis's profile
    is the object Hypothesis registered, never whatever is named ``ci`` later."""
    (project / "tests" / "conftest.py").write_text(CONFTEST.replace(
        'register_profile("ci-project", ', 'register_profile("ci", deadline=None, ').replace(
        'load_profile("ci-project")', 'load_profile("ci")'))
    assert main(["init", "tests", "--cards", ".github/gate-cards"]) == 0
    assert "a settings profile depends on the environment" in capsys.readouterr().out
    card = _card()
    assert card["suppress_health_check"] == ["filter_too_much", "too_slow"]
    assert card["deadline_ms"] is None
    done = _plugin(project, "s-ci", ci=True)
    assert done.returncode == 0 and "gate: 1 stamp written" in done.stdout, (
        done.stdout + done.stderr)
    (stamp,) = (json.loads(p.read_text()) for p in (project / "s-ci").glob("*.json"))
    assert stamp["hypothesis"]["deadline_ms"] is None
    assert sorted(stamp["hypothesis"]["suppress_health_check"]) == ["filter_too_much",
                                                                    "too_slow"]


def test_refresh_rewrites_an_inline_card_in_place_keeping_every_other_byte(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The compact manifest's inline cards: ``--refresh --new-seeds`` edits the card's one
    line in the manifest (no card file), and the plugin governs with the new card."""
    from gate.records import manifest

    assert main(["init", "tests"]) == 0
    path = Path(".github/gate.yml")
    text = path.read_text()
    (prop,) = manifest.load(path, Path("."))
    before = manifest.card_of(prop)
    capsys.readouterr()
    assert main(["init", "tests", "--refresh", "--new-seeds"]) == 0
    after = manifest.card_of(prop)
    assert after["seed"] != before["seed"]
    assert path.read_text() == text.replace(f"seed: {before['seed']}", f"seed: {after['seed']}")
    assert (f"rewrote the inline card of tests/test_total.py::test_total in {path}: seed "
            f"{before['seed']} -> {after['seed']}") in capsys.readouterr().out
    assert not Path(".github/gate-cards").exists()
    done = _plugin(project, "s", ci=False)
    assert done.returncode == 0 and "gate: 1 stamp written" in done.stdout, done.stdout
