"""Sigstore mode in a repository that is not public (issue 28): the gate signs through the
public-good instance only, whose Rekor log is public, so signing there would publish the
repository's name, workflow and commit. Every Sigstore signature the gate makes is refused
(exit 2, naming the policy file, signing.sigstore.public_log_for_private_repository and the
fix) unless the event payload shows the repository public or the policy opts in; an event that
says nothing is refused like a private one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.decide import signing as rules
from gate.decide.signing import SigningPolicy
from gate.errors import GateInputError
from gate.github import action
from gate.records import policy, signing
from gate.records import sigstore_bundle as sb
from tests import test_sigstore_gate as sg
from tests.core_helpers import LOCAL, stamp, write_json

FIELD = "signing.sigstore.public_log_for_private_repository"


@pytest.mark.parametrize(("event", "seen"), [
    ({"repository": {"private": False, "visibility": "public"}}, "public"),
    ({"repository": {"private": False}}, "public"),
    ({"repository": {"visibility": "public"}}, "public"),
    ({"repository": {"private": True, "visibility": "private"}}, "private"),
    ({"repository": {"private": True}}, "private"),
    ({"repository": {"visibility": "internal"}}, "private"),
    ({"repository": {"private": False, "visibility": "internal"}}, "private"),
    ({"repository": {"private": False, "visibility": "private"}}, "private"),
    ({"repository": {"private": "false", "visibility": "public"}}, "unknown"),
    ({"repository": {"private": 0}}, "unknown"),
    ({"repository": {"private": False, "visibility": "secret"}}, "unknown"),
    ({"repository": {"full_name": "a/b"}}, "unknown"),
    ({"repository": "a/b"}, "unknown"),
    ({"schedule": "0 0 * * *"}, "unknown"),
    ([], "unknown"),
    (None, "unknown"),
])
def test_visibility_is_public_only_when_the_event_says_so(event: Any, seen: str) -> None:
    assert rules.repository_visibility(event) == seen


WHY = ("Sigstore mode signs through the public-good instance, whose public Rekor log would "
       "then publish the repository's name, workflow and commit; fix: use signing.mode "
       "ed25519, or set public_log_for_private_repository: true under signing.sigstore in the "
       "policy if those may be public")


@pytest.mark.parametrize(("seen", "said"), [
    ("private", "this repository is not public (the event payload's repository.private / "
                "visibility)"),
    ("unknown", "the event payload ($GITHUB_EVENT_PATH) does not say that this repository is "
                "public (repository.private / repository.visibility)"),
])
def test_a_repository_not_shown_public_is_refused_unless_the_policy_opts_in(seen: str,
                                                                             said: str) -> None:
    """Word for word: what the repository is said to be, why that refuses, and the fix."""
    assert rules.public_log_problem(seen, opted_in=False) == f"{said}: {WHY}"
    assert rules.public_log_problem(seen, opted_in=True) is None
    assert rules.public_log_problem("public", opted_in=False) is None


def _event(tmp_path: Path, repository: Any) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"repository": repository}), encoding="utf-8")
    return str(path)


def _policy(tmp_path: Path, opt_in: str = "") -> Path:
    path = tmp_path / "policy.yml"
    path.write_text(
        f"signing:\n  mode: sigstore\n  require: local-pinned\n  sigstore:\n"
        f"    signer_workflows: {{local-pinned: ['{sg.LOCAL_WF}']}}\n{opt_in}", encoding="utf-8")
    return path


def _sign_env(tmp_path: Path, event: str | None) -> dict[str, str]:
    write_json(tmp_path / "stamps" / sg.LOCAL_ART / "l1.json",
               stamp(LOCAL, "pass", run_id="l1", fixture_sha256=sg.SHA_X))
    (tmp_path / "runner").mkdir(exist_ok=True)
    manifest = tmp_path / "manifest.yml"
    manifest.write_text("version: 1\nproperties: []\n", encoding="utf-8")
    env = {**sg.RUN, **sg.OIDC, "RUNNER_TEMP": str(tmp_path / "runner"), "GATE_MODE": "sign",
           "GATE_SERVER_CLASS": LOCAL, "GATE_MANIFEST": str(manifest),
           "GATE_POLICY": str(tmp_path / "policy.yml"),
           "GATE_STAMPS_DIR": str(tmp_path / "stamps" / sg.LOCAL_ART),
           "GATE_ARTIFACT_NAME": sg.LOCAL_ART}
    env.pop("GITHUB_EVENT_PATH")
    if event is not None:
        env["GITHUB_EVENT_PATH"] = event
    return env


def _no_signing(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    signed: list[bytes] = []

    def sign(statement: bytes) -> bytes:
        signed.append(statement)
        return sg.INSTANCE.sign(statement, sg.claims(LOCAL))
    monkeypatch.setattr(sb, "sign_statement", sign)
    return signed


@pytest.mark.parametrize("repository", [{"private": True, "visibility": "private"},
                                        {"private": False, "visibility": "internal"},
                                        {"full_name": "acme/widgets"}, None])
def test_the_signing_step_of_a_private_repository_signs_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repository: Any) -> None:
    """The attack on privacy: before the fix the signing step entered a private repository's
    name, workflow and commit in the public Rekor log (through the public-good Fulcio)."""
    signed = _no_signing(monkeypatch)
    policy_path = _policy(tmp_path)
    env = _sign_env(tmp_path, _event(tmp_path, repository))
    with pytest.raises(GateInputError) as caught:
        action.run(env)
    assert (caught.value.source, caught.value.field) == (str(policy_path), FIELD)
    assert "fix:" in caught.value.message
    assert signed == []
    assert not (tmp_path / "stamps" / sg.LOCAL_ART / rules.SIGSTORE_NAME).exists()


@pytest.mark.parametrize("event", [None, "missing.json", "junk"])
def test_an_event_that_cannot_be_read_is_unknown_and_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, event: str | None) -> None:
    signed = _no_signing(monkeypatch)
    _policy(tmp_path)
    if event == "junk":
        (tmp_path / "junk").write_text("{not json", encoding="utf-8")
    path = None if event is None else str(tmp_path / event)
    with pytest.raises(GateInputError) as caught:
        action.run(_sign_env(tmp_path, path))
    assert caught.value.field == FIELD
    assert "does not say that this repository is public" in caught.value.message
    assert signed == []


def test_the_opt_in_signs_a_private_repository(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    signed = _no_signing(monkeypatch)
    _policy(tmp_path, "    public_log_for_private_repository: true\n")
    env = _sign_env(tmp_path, _event(tmp_path, {"private": True, "visibility": "private"}))
    assert action.run(env) == 0
    assert len(signed) == 2  # the stamp set and its test-result statement
    assert (tmp_path / "stamps" / sg.LOCAL_ART / rules.SIGSTORE_NAME).is_file()


def test_a_public_repository_signs_without_the_opt_in(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    signed = _no_signing(monkeypatch)
    _policy(tmp_path)
    assert action.run(_sign_env(tmp_path, sg.PUBLIC_EVENT)) == 0
    assert len(signed) == 2  # the stamp set and its test-result statement


def test_the_stamp_step_refuses_before_any_test(tmp_path: Path) -> None:
    policy_path = _policy(tmp_path)
    env = {**_sign_env(tmp_path, _event(tmp_path, {"private": True})), "GATE_MODE": "stamp",
           "GATE_COMMAND": "python -m pytest"}

    def never(argv: list[str]) -> int:
        raise AssertionError("the tests ran")
    with pytest.raises(GateInputError) as caught:
        action.run(env, gate_main=never)
    assert (caught.value.source, caught.value.field) == (str(policy_path), FIELD)


def test_the_gate_job_refuses_before_deciding(tmp_path: Path) -> None:
    from gate.action.gate import _gate_signer

    pol = policy.Policy(signing=SigningPolicy(
        mode="sigstore", workflows=(("gate", "https://github.com/a/b/.github/workflows/g.yml"),)))
    env = {**sg.OIDC, "GATE_POLICY": "p.yml",
           "GITHUB_EVENT_PATH": _event(tmp_path, {"visibility": "private"})}
    with pytest.raises(GateInputError) as caught:
        _gate_signer(env, pol)
    assert (caught.value.source, caught.value.field) == ("p.yml", FIELD)
    opted = policy.Policy(signing=SigningPolicy(
        mode="sigstore", workflows=pol.signing.workflows, public_log_for_private=True))
    assert _gate_signer(env, opted) is not None


def test_every_sigstore_signature_goes_through_the_one_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The re-run record and the verification summary sign through sign_bundle too."""
    signed = _no_signing(monkeypatch)
    env = {**sg.OIDC, "GITHUB_EVENT_PATH": _event(tmp_path, {"private": True})}
    record_signer = signing.sigstore_record_signer(env, SigningPolicy(), "p.yml")
    with pytest.raises(GateInputError) as caught:
        record_signer(b'{"workflow_run_id": "1", "attempt": 1, "job": "g", "head_sha": "'
                      + b"a" * 40 + b'"}')
    assert caught.value.field == FIELD
    with pytest.raises(GateInputError):
        signing.sigstore_signer()({"_type": "x"}, env=env, public_log_opt_in=False,
                                  policy_source="p.yml")
    assert signed == []


def test_policy_check_names_a_misspelt_opt_in(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from gate.commands.main import main

    path = _policy(tmp_path, "    public_log_for_private_repo: true\n")
    assert main(["policy", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "public_log_for_private_repo" in err
    assert "did you mean 'public_log_for_private_repository'" in err
    path.write_text(path.read_text().replace("private_repo: true", "private_repository: 'true'"))
    assert main(["policy", "check", str(path)]) == 2
    path.write_text(path.read_text().replace(": 'true'", ": true"))
    assert main(["policy", "check", str(path)]) == 0
    assert "published there too" in capsys.readouterr().out


def test_the_opt_in_is_only_for_sigstore_mode(tmp_path: Path) -> None:
    path = tmp_path / "policy.yml"
    path.write_text("signing:\n  mode: ed25519\n  sigstore:\n"
                    "    public_log_for_private_repository: true\n", encoding="utf-8")
    with pytest.raises(GateInputError) as caught:
        policy.load(path)
    assert caught.value.field == "signing.sigstore"
