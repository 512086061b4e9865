"""The policy's ``signing:`` block checked in full (issue 21): per-class signer workflows in
Sigstore mode (``signer_workflows: {local-pinned: [...], free-server: [...], gate: [...]}``; the
0.2.0 list form keeps its meaning), and every mistake in the block exit 2 from ``gate policy
check``, one line naming the file, the field and the fix. End to end, a stamp set signed by a
workflow of the other class's list is refused (``reject_unsigned_stamp``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gate.errors import GateInputError
from gate.records import policy
from tests.core_helpers import FREE, LOCAL
from tests.test_signing import KEYS
from tests.test_sigstore_gate import FREE_ART, FREE_WF, LOCAL_ART, LOCAL_WF, _refused, _run, claims

GATE_WF = "https://github.com/acme/widgets/.github/workflows/gate.yml"


def _load(tmp_path: Path, text: str) -> policy.Policy:
    path = tmp_path / "policy.yml"
    path.write_text(text, encoding="utf-8")
    return policy.load(path)


def _mapping(tmp_path: Path, require: str = "all", **lists: list[str]) -> None:
    lines = "".join(f"      {owner.replace('_', '-')}: {uris!r}\n" for owner, uris in lists.items())
    (tmp_path / "policy.yml").write_text(
        f"signing:\n  mode: sigstore\n  require: {require}\n  sigstore:\n"
        f"    signer_workflows:\n{lines}", encoding="utf-8")


# --- the two forms ----------------------------------------------------------------------------


def test_the_list_form_keeps_its_meaning_both_stamp_classes_and_not_the_gate(
        tmp_path: Path) -> None:
    sign = _load(tmp_path, f"signing: {{mode: sigstore, require: all, sigstore: "
                           f"{{signer_workflows: ['{LOCAL_WF}', '{FREE_WF}']}}}}\n").signing
    assert sign.workflows_of(LOCAL) == sign.workflows_of(FREE) == (LOCAL_WF, FREE_WF)
    assert sign.workflows_of("gate") == ()


def test_the_mapping_form_gives_each_class_its_own_list(tmp_path: Path) -> None:
    _mapping(tmp_path, local_pinned=[LOCAL_WF], free_server=[FREE_WF], gate=[GATE_WF])
    sign = policy.load(tmp_path / "policy.yml").signing
    assert sign.workflows_of(LOCAL) == (LOCAL_WF,)
    assert sign.workflows_of(FREE) == (FREE_WF,)
    assert sign.workflows_of("gate") == (GATE_WF,)


# --- end to end: a stamp's certificate must name a workflow of its own class's list -----------


@pytest.fixture
def test_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.records import sigstore_bundle as sb
    from tests.test_sigstore_gate import INSTANCE

    root = tmp_path / "trusted_root.json"
    root.write_bytes(INSTANCE.trusted_root())
    monkeypatch.setattr(sb, "PINNED_TRUSTED_ROOT", root)


#: The free-server leg's workflow, run on a self-hosted runner, signing a local-pinned claim.
CROSSED = claims(LOCAL, **{"build signer URI": FREE_WF + "@refs/heads/main"})


def test_per_class_lists_open_a_set_each_signed_by_its_own_class(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_root: None) -> None:
    _mapping(tmp_path, local_pinned=[LOCAL_WF], free_server=[FREE_WF])
    code, report = _run(tmp_path, monkeypatch)
    assert code == 0 and report["decision"] == "open" and not _refused(report)


def test_a_local_pinned_set_signed_by_the_free_server_workflow_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_root: None) -> None:
    _mapping(tmp_path, local_pinned=[LOCAL_WF], free_server=[FREE_WF])
    code, report = _run(tmp_path, monkeypatch, CROSSED)
    assert code == 1
    (refused,) = _refused(report)
    assert (f"artifact {LOCAL_ART!r}: bundle.build signer URI: signed by "
            f"'{FREE_WF}@refs/heads/main'") in refused["reason"], refused["reason"]
    assert "allows to sign for local-pinned" in refused["reason"]


def test_the_list_form_still_lets_either_listed_workflow_sign_either_class(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_root: None) -> None:
    """The 0.2.0 meaning, kept: the runner environment alone tells the classes apart (which is
    why README prefers the mapping form)."""
    (tmp_path / "policy.yml").write_text(
        "signing:\n  mode: sigstore\n  require: all\n  sigstore:\n"
        f"    signer_workflows: ['{LOCAL_WF}', '{FREE_WF}']\n", encoding="utf-8")
    code, report = _run(tmp_path, monkeypatch, CROSSED)
    assert code == 0 and not _refused(report)


def test_a_class_the_mapping_does_not_list_is_refused_when_only_it_is_required(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_root: None) -> None:
    """require local-pinned and no free-server list: the free-server stamps are not required
    signed, so they pair; a policy requiring all must list both (exit 2 at load)."""
    _mapping(tmp_path, require="local-pinned", local_pinned=[LOCAL_WF])
    code, report = _run(tmp_path, monkeypatch)
    assert code == 0 and not _refused(report)
    again = tmp_path / "again"
    again.mkdir()
    _mapping(again, require="all", local_pinned=[LOCAL_WF], free_server=[LOCAL_WF])
    code, report = _run(again, monkeypatch)
    assert code == 1
    (refused,) = _refused(report)
    assert f"artifact {FREE_ART!r}: bundle.build signer URI" in refused["reason"]


# --- every mistake in the signing block: exit 2, the field, the fix ---------------------------

GOOD_KEY = KEYS["local-pinned"][1]
WF = "https://github.com/acme/widgets/.github/workflows/ci.yml"


def _sigstore(workflows: str, require: str = "off") -> str:
    return f"signing: {{mode: sigstore, require: {require}, sigstore: {{signer_workflows: " \
           f"{workflows}}}}}"


MISTAKES = {
    "a mode misspelt": ("signing: {mode: sigstor}", "signing.mode", "did you mean 'sigstore'?"),
    "a requirement misspelt": ("signing: {mode: ed25519, require: local-pined}",
                               "signing.require", "did you mean 'local-pinned'?"),
    "mode misspelt as a key": ("signing: {mod: ed25519}", "signing.mod", "did you mean 'mode'?"),
    "a class name misspelt": (
        _sigstore(f"{{local-pined: ['{WF}']}}"), "signing.sigstore.signer_workflows.local-pined",
        "did you mean 'local-pinned'?"),
    "a key's class misspelt": (
        f"signing: {{mode: ed25519, keys: {{free-sever: [{{id: a, public_key: '{GOOD_KEY}'}}]}}}}",
        "signing.keys.free-sever", "did you mean 'free-server'?"),
    "signing.sigstore misspelt": (
        f"signing: {{mode: sigstore, sigstor: {{signer_workflows: ['{WF}']}}}}",
        "signing.sigstor", "did you mean 'sigstore'?"),
    "signer_workflows misspelt": (
        f"signing: {{mode: sigstore, sigstore: {{signer_workflow: ['{WF}']}}}}",
        "signing.sigstore.signer_workflow", "did you mean 'signer_workflows'?"),
    "a key entry's field misspelt": (
        f"signing: {{mode: ed25519, keys: {{gate: [{{id: a, public_ky: '{GOOD_KEY}'}}]}}}}",
        "signing.keys.gate.0.public_ky", "did you mean 'public_key'?"),
    "a workflow without its host": (
        _sigstore("['acme/widgets/.github/workflows/ci.yml@refs/heads/main']"),
        "signing.sigstore.signer_workflows.0", "write https://github.com/acme/widgets/"),
    "a workflow on another host": (
        _sigstore("['https://ghe.example.com/acme/widgets/.github/workflows/ci.yml']"),
        "signing.sigstore.signer_workflows.0", "use signing mode ed25519 on GitHub Enterprise"),
    "a repository URL, not a workflow": (
        _sigstore("{local-pinned: ['https://github.com/acme/widgets']}"),
        "signing.sigstore.signer_workflows.local-pinned.0", "names no workflow file"),
    "a workflow of another extension": (
        _sigstore("['https://github.com/acme/widgets/.github/workflows/ci.json']"),
        "signing.sigstore.signer_workflows.0", "fix: write the workflow file's build signer URI"),
    "a ref that is not refs/ or a commit": (
        _sigstore(f"['{WF}@main']"), "signing.sigstore.signer_workflows.0", "@refs/heads/BRANCH"),
    "a workflow with white space": (
        _sigstore(f"['{WF}@refs/heads/a b']"), "signing.sigstore.signer_workflows.0", "fix:"),
    "http, not https": (
        _sigstore("['http://github.com/acme/widgets/.github/workflows/ci.yml']"),
        "signing.sigstore.signer_workflows.0", "is not an https:// URL"),
    "a workflow that is not a string": (
        _sigstore("{gate: [7]}"), "signing.sigstore.signer_workflows.gate.0", "not a string"),
    "an empty mapping": (_sigstore("{}"), "signing.sigstore.signer_workflows", "empty"),
    "an empty list": (_sigstore("[]"), "signing.sigstore.signer_workflows", ""),
    "a required class without a list": (
        _sigstore(f"{{free-server: ['{WF}']}}", require="local-pinned"),
        "signing.sigstore.signer_workflows.local-pinned", "missing: require local-pinned"),
    "the free-server class missing under require all": (
        _sigstore(f"{{local-pinned: ['{WF}']}}", require="all"),
        "signing.sigstore.signer_workflows.free-server", "missing: require all"),
    "the gate's workflow also signing stamps": (
        _sigstore(f"{{local-pinned: ['{WF}@refs/heads/main'], gate: ['{WF}']}}"),
        "signing.sigstore.signer_workflows.gate.0", "a stamp job could then sign the gate's"),
    "a key id with a space": (
        f"signing: {{mode: ed25519, keys: {{gate: [{{id: 'a b', public_key: '{GOOD_KEY}'}}]}}}}",
        "signing.keys.gate.0.id", "fix: 1 to 64 letters"),
    "a key id too long": (
        f"signing: {{mode: ed25519, keys: {{gate: [{{id: '{'k' * 65}', "
        f"public_key: '{GOOD_KEY}'}}]}}}}", "signing.keys.gate.0.id", "fix: 1 to 64 letters"),
    "a public key cut short": (
        f"signing: {{mode: ed25519, keys: {{gate: [{{id: a, public_key: '{GOOD_KEY[:-4]}'}}]}}}}",
        "signing.keys.gate.0.public_key", "fix: paste the public_key line"),
    "a public key in the URL-safe alphabet": (
        "signing: {mode: ed25519, keys: {gate: [{id: a, public_key: '"
        + "_" * 42 + "A='}]}}", "signing.keys.gate.0.public_key", "fix: paste the public_key"),
    "a public key with padding bits set": (
        "signing: {mode: ed25519, keys: {gate: [{id: a, public_key: '" + "A" * 42 + "B='}]}}",
        "signing.keys.gate.0.public_key", "fix: paste the public_key line"),
    "a key without its id": (
        f"signing: {{mode: ed25519, keys: {{gate: [{{public_key: '{GOOD_KEY}'}}]}}}}",
        "signing.keys.gate.0.id", ""),
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_every_signing_mistake_is_exit_2_naming_the_field_and_the_fix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    from gate.commands.main import main

    text, field, fix = MISTAKES[name]
    path = tmp_path / "policy.yml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(GateInputError) as caught:
        policy.load(path)
    assert caught.value.source == str(path)
    assert caught.value.field == field, caught.value
    assert fix in caught.value.message, caught.value.message
    assert "\n" not in str(caught.value)
    capsys.readouterr()
    assert main(["policy", "check", str(path)]) == 2
    said = capsys.readouterr()
    assert field in said.out + said.err


@pytest.mark.parametrize("uri", [
    WF, WF + "@refs/heads/main", WF + "@refs/heads/gh-readonly-queue/main/pr-7-abc",
    WF + "@refs/tags/v1.2.3", WF + "@refs/pull/12/merge", WF + "@" + "a" * 40,
    "https://github.com/acme/widgets/.github/workflows/local.yaml",
])
def test_each_build_signer_uri_form_the_verifier_compares_is_accepted(tmp_path: Path,
                                                                      uri: str) -> None:
    sign = _load(tmp_path, _sigstore(f"{{local-pinned: ['{uri}']}}", "local-pinned") + "\n")
    assert sign.signing.workflows_of(LOCAL) == (uri,)


def test_a_workflow_listed_twice_is_exit_2(tmp_path: Path) -> None:
    for text, field in ((_sigstore(f"['{WF}', '{WF}']"), "signing.sigstore.signer_workflows.1"),
                        (_sigstore(f"{{free-server: ['{WF}', '{WF}']}}"),
                         "signing.sigstore.signer_workflows.free-server.1")):
        with pytest.raises(GateInputError) as caught:
            _load(tmp_path, text + "\n")
        assert caught.value.field == field and "listed twice" in caught.value.message


# --- gate policy check says what the signing block means ------------------------------------


def _check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    from gate.commands.main import main

    path = tmp_path / "policy.yml"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["policy", "check", str(path)]) == 0
    return [line.removeprefix(f"{path}: ") for line in capsys.readouterr().out.splitlines()]


def test_policy_check_prints_who_signs_for_each_class(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    lines = _check(tmp_path, _sigstore(f"{{local-pinned: ['{LOCAL_WF}'], gate: ['{GATE_WF}']}}",
                                       "local-pinned") + "\n", capsys)
    assert lines[:4] == [
        "signing: mode sigstore, require local-pinned",
        f"signing: local-pinned signer workflows: {LOCAL_WF}",
        "signing: free-server: not required signed (require local-pinned)",
        f"signing: gate signer workflows: {GATE_WF}"]
    assert lines[-1] == "policy: 0 entries, 0 findings"


def test_policy_check_notes_the_list_form_and_unsigned_gate_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _check(tmp_path, _sigstore(f"['{LOCAL_WF}', '{FREE_WF}']", "all") + "\n", capsys)
    assert f"signing: free-server signer workflows: {LOCAL_WF}, {FREE_WF}" in lines
    assert "signing: gate: no signer workflows: the gate's re-run records are unsigned" in lines
    assert any(line.startswith("signing: note: signer_workflows is one list for both classes")
               for line in lines)


def test_policy_check_names_the_ed25519_key_ids_and_says_when_signing_is_off(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = f"{{id: pinned-2026, public_key: '{GOOD_KEY}'}}"
    lines = _check(tmp_path, "signing: {mode: ed25519, require: local-pinned, keys: "
                             f"{{local-pinned: [{key}]}}}}\n", capsys)
    assert "signing: local-pinned keys: pinned-2026" in lines
    assert "signing: gate: no keys: the gate's re-run records are unsigned" in lines
    assert not any("note:" in line for line in lines)
    lines = _check(tmp_path, "allowlist: []\n", capsys)
    assert lines[0].startswith("signing: mode off: stamps and re-run records are unsigned")


def test_policy_check_warns_on_a_signer_workflow_without_a_ref(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: a same-repository pull request's edited workflow runs with the repository's
    secrets and OIDC token as refs/pull/N/merge; a build signer URI without @REF lets that run
    sign. `gate policy check` warns on each such entry (a warning: the exit status stays)."""
    pinned = f"{GATE_WF}@refs/heads/main"
    lines = _check(tmp_path, _sigstore(f"{{local-pinned: ['{LOCAL_WF}'], free-server: "
                                       f"['{FREE_WF}@refs/heads/main'], gate: ['{pinned}']}}",
                                       "all") + "\n", capsys)
    warnings = [line for line in lines if line.startswith("signing: warning:")]
    assert len(warnings) == 1, lines
    assert warnings[0].startswith(f"signing: warning: {LOCAL_WF} has no @REF, so any ref of "
                                  "that workflow file may sign local-pinned stamps, a "
                                  "same-repository pull request's edited copy")
    assert "@refs/heads/main" in warnings[0] and "GitHub Environment" in warnings[0]
    assert lines[-1] == "policy: 0 entries, 0 findings"
    # the list form: one warning per unpinned entry, for stamps of both classes
    lines = _check(tmp_path, _sigstore(f"['{LOCAL_WF}', '{FREE_WF}@refs/heads/main']",
                                       "all") + "\n", capsys)
    warnings = [line for line in lines if line.startswith("signing: warning:")]
    assert len(warnings) == 1 and "may sign stamps of both classes" in warnings[0], warnings
    # every entry pinned: no warning
    lines = _check(tmp_path, _sigstore(f"{{local-pinned: ['{LOCAL_WF}@refs/heads/main']}}",
                                       "local-pinned") + "\n", capsys)
    assert not [line for line in lines if "warning" in line], lines
