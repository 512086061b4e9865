"""Issue 29 item 6: failure text that carries the job's secrets is masked in the stamp job,
before any stamp is written, so no later sink (report, summary, check run, annotation,
comment) republishes a secret value.

The end-to-end tests run a real property that fails on an assertion about ``os.environ`` (pytest
prints the compared values, as it did on attrs) through both pytest routes, with a secret-named
variable and an act-style ``INPUT_SIGNING-KEY`` holding a PEM key in the environment; then the
gate job's command-line route over those stamps.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.records.redaction import MASK, Redactor, secret_name, secret_values
from tests.property_suite.harness import env, write_manifest

TOKEN = "tok-9f8e7d6c5b4a39281706"
PEM = ("-----BEGIN PRIVATE KEY-----\n"
       "MC4CAQAwBQYDK2VwBCIEIGxv0Mzl8NH9xN5mJm4Z1hB2g1k3qV7c0J1sQm2rT6uA\n"
       "-----END PRIVATE KEY-----\n")
PEM_BODY = PEM.splitlines()[1]


@pytest.mark.parametrize("name", [
    "GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "MY_SECRET",
    "DB_PASSWORD", "GATE_SIGNING_KEY", "GATE_SIGNING_KEY_FILE", "INPUT_SIGNING-KEY",
    "INPUT_SIGNING-KEY-FILE", "INPUT_GITHUB-TOKEN", "PYPI_API_KEY", "APIKEY", "KEY",
    "AWS_SECRET_ACCESS_KEY", "SSH_PRIVATE", "NPM_AUTH", "GPG_PASSPHRASE", "AZURE_CREDENTIALS",
    "github_token"])
def test_secret_names(name: str) -> None:
    assert secret_name(name)


@pytest.mark.parametrize("name", [
    "PATH", "HOME", "CI", "PYTHONHASHSEED", "GITHUB_SHA", "RUNNER_TEMP", "KEYRING_BACKEND",
    "MONKEY", "HOTKEYS", "INPUT_SERVER-CLASS", "GATE_SERVER_CLASS"])
def test_ordinary_names(name: str) -> None:
    assert not secret_name(name)


def test_short_values_and_ordinary_variables_are_not_masked() -> None:
    found = secret_values({"GITHUB_TOKEN": "true", "PATH": "/usr/bin:/bin", "MY_SECRET": "1234567"})
    assert found == ()
    assert Redactor.from_env({"MY_SECRET": "1234567"}).text("x 1234567") == "x 1234567"


def test_a_pem_is_masked_whole_by_line_and_as_repr_writes_it() -> None:
    redactor = Redactor.from_env({"INPUT_SIGNING-KEY": PEM})
    assert redactor.text(f"got {PEM}!") == f"got {MASK}!"
    assert redactor.text(f"got {PEM!r}") == f"got '{MASK}'"
    assert redactor.text(f"line: {PEM_BODY}") == f"line: {MASK}"
    assert PEM_BODY not in redactor.text(repr(PEM.replace("\n", "\r\n")))


def test_extra_values_are_masked() -> None:
    assert Redactor.from_env({}, ["a-key-read-from-a-file"]).text(
        "k=a-key-read-from-a-file") == f"k={MASK}"


def test_the_longer_secret_is_masked_whole_first() -> None:
    redactor = Redactor.from_env({"A_TOKEN": "abcdefgh", "B_TOKEN": "abcdefgh-and-more"})
    assert redactor.text("abcdefgh-and-more") == MASK


_SECRET = st.text(st.characters(codec="utf-8", exclude_characters="*"), min_size=8, max_size=40
                  ).filter(lambda s: s.strip() == s and len(s) >= 8)


@given(secret=_SECRET, before=st.text(max_size=30), after=st.text(max_size=30))
def test_no_secret_survives_in_any_text(secret: str, before: str, after: str) -> None:
    redactor = Redactor.from_env({"SOME_TOKEN": secret})
    assert secret not in redactor.text(before + secret + after)


@given(text=st.text(max_size=60))
def test_text_without_secrets_is_unchanged(text: str) -> None:
    assert Redactor.from_env({"SOME_TOKEN": "\x00never-in-text\x00"}).text(
        text.replace("\x00", "")) == text.replace("\x00", "")


# --- end to end: a red property whose assertion prints the secrets ------------------------------


PROPS = '''import os

from hypothesis import given, strategies as st


@given(st.integers(0, 3))
def test_tokens(n):
    assert os.environ.get("MY_API_TOKEN") == "expected", os.environ.get("MY_API_TOKEN")


@given(st.integers(0, 3))
def test_key(n):
    assert os.environ.get("INPUT_SIGNING-KEY", "") == "", repr(os.environ.get("INPUT_SIGNING-KEY"))
'''


def _workspace(root: Path) -> None:
    (root / "env_props.py").write_text(PROPS)
    (root / "pytest.ini").write_text("[pytest]\npython_files = env_*.py\n"
                                     "addopts = -p no:cacheprovider\n")
    (root / "cards").mkdir()
    entries = []
    for name in ("tokens", "key"):
        (root / "cards" / f"{name}.json").write_text(
            json.dumps({"property": name, "cases": 5, "seed": 1}))
        entries.append({"test_id": name, "card": f"cards/{name}.json",
                        "fixtures": ["env_props.py"],
                        "junit": {"classname": "env_props", "name": f"test_{name}"}})
    write_manifest(root / "gate.yml", entries)


def _secret_env() -> dict[str, str]:
    environment = env()
    environment.pop("CI", None)
    environment.update({"MY_API_TOKEN": TOKEN, "INPUT_SIGNING-KEY": PEM})
    return environment


def _leaks(text: str) -> list[str]:
    return [name for name, value in (("token", TOKEN), ("pem body", PEM_BODY))
            if value in text]


def _stamps_text(folder: Path) -> str:
    texts = [p.read_text() for p in sorted(folder.rglob("*.json"))]
    assert len(texts) == 2, texts
    return "\n".join(texts)


def _gate_job_sinks(root: Path, stamps: Path) -> str:
    """What the gate job's command-line route prints and writes from ``stamps``."""
    done = subprocess.run(
        [sys.executable, "-m", "gate", "classify", "--stamps", str(stamps), "--report",
         "report.json", "--now", "1800000000"],
        cwd=root, env=env(), capture_output=True, text=True, timeout=120, check=False)
    summary = subprocess.run(
        [sys.executable, "-m", "gate", "summary", "--report", "report.json"],
        cwd=root, env=env(), capture_output=True, text=True, timeout=120, check=False)
    return "\n".join([done.stdout, done.stderr, summary.stdout, summary.stderr,
                      (root / "report.json").read_text()])


def test_the_recorder_route_masks_secrets_in_every_stamp(tmp_path: Path) -> None:
    _workspace(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "gate", "stamp", "--manifest", "gate.yml", "--server-class",
         "local-pinned", "--out", "stamps/local", "--pytest", "--",
         sys.executable, "-m", "pytest", "-q", "env_props.py"],
        cwd=tmp_path, env=_secret_env(), capture_output=True, text=True, timeout=300,
        check=False)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    text = _stamps_text(tmp_path / "stamps" / "local")
    assert _leaks(text) == []
    assert '"assert_fail"' in text and MASK in text
    assert _leaks(_gate_job_sinks(tmp_path, tmp_path / "stamps")) == []


def test_the_plugin_route_masks_secrets_in_every_stamp(tmp_path: Path) -> None:
    _workspace(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--gate-stamps", "stamps/local",
         "--gate-server-class", "local-pinned", "--gate-manifest", "gate.yml", "env_props.py"],
        cwd=tmp_path, env=_secret_env(), capture_output=True, text=True, timeout=300,
        check=False)
    text = _stamps_text(tmp_path / "stamps" / "local")
    assert _leaks(text) == []
    assert '"assert_fail"' in text and MASK in text
