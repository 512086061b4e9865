"""The gate's decision as a signed SLSA verification summary (issue 21, optional part): with a
gate signer in the policy, the gate job signs an in-toto statement of predicate
``https://slsa.dev/verification_summary/v1`` on the commit it decided, PASSED exactly when the
gate is open, naming every stamp envelope it verified (artifact/file and sha256), and the
policy it decided with; written beside the report (output ``verification-summary``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.decide import signing as rules
from gate.decide.signing import Key
from gate.github import action
from gate.records import signing
from gate.records import sigstore_bundle as sb
from tests.test_action import _outputs
from tests.test_signing import FREE_ART, KEYS, LOCAL_ART, _gate_env, _policy, _signed_run

HEAD = "b" * 40
ALL = ("local-pinned", "free-server", "gate")


def _gate(tmp_path: Path, **extra: str) -> tuple[int, dict[str, str]]:
    env = _gate_env(tmp_path, GATE_SIGNING_KEY=KEYS["gate"][0].decode("ascii"), **extra)
    code = action.run(env)
    return code, _outputs(tmp_path / "output.txt")


def _opened(path: str, owner: str = "gate") -> dict[str, Any]:
    key = Key(f"{owner}-1", signing.unb64(KEYS[owner][1], "k"))
    payload = signing.open_envelope(Path(path).read_bytes(), [key], path)
    statement: dict[str, Any] = json.loads(payload)
    return statement


def _digest(art: str, name: str = rules.DSSE_NAME) -> str:
    return signing.sha256_hex((Path(art) / name).read_bytes())


def test_an_open_gate_signs_a_passed_summary_naming_the_envelopes_it_verified(
        tmp_path: Path) -> None:
    _policy(tmp_path, classes=ALL)
    _signed_run(tmp_path)
    code, outputs = _gate(tmp_path)
    assert code == 0 and outputs["decision"] == "open"
    path = outputs["verification-summary"]
    assert Path(path).parent == Path(outputs["report"]).parent  # uploaded with the report
    assert path.endswith(".dsse.json")
    statement = _opened(path)
    assert statement["predicateType"] == "https://slsa.dev/verification_summary/v1"
    assert statement["subject"] == [{"name": "git+https://github.com/acme/widgets",
                                     "digest": {"gitCommit": HEAD}}]
    predicate = statement["predicate"]
    assert predicate["verificationResult"] == "PASSED"
    assert predicate["verifiedLevels"] == ["AGENT_PATCH_GATE_OPEN"]
    assert predicate["resourceUri"] == f"git+https://github.com/acme/widgets@{HEAD}"
    assert predicate["policy"]["digest"]["sha256"] == signing.sha256_hex(
        (tmp_path / "policy.yml").read_bytes())
    stamps = tmp_path / "stamps"
    assert predicate["inputAttestations"] == [
        {"uri": f"{FREE_ART}/{rules.DSSE_NAME}", "digest": {"sha256": _digest(stamps / FREE_ART)}},
        {"uri": f"{LOCAL_ART}/{rules.DSSE_NAME}",
         "digest": {"sha256": _digest(stamps / LOCAL_ART)}}]
    with pytest.raises(signing.SignatureProblem):  # the gate's key, never a stamp class's
        _opened(path, "local-pinned")


def test_a_closed_gate_signs_a_failed_summary_without_the_refused_envelope(
        tmp_path: Path) -> None:
    _policy(tmp_path, classes=ALL)
    _signed_run(tmp_path)
    stamp_file = tmp_path / "stamps" / LOCAL_ART / "l1.json"
    stamp_file.write_bytes(stamp_file.read_bytes().replace(b'"pass"', b'"pass" '))
    code, outputs = _gate(tmp_path)
    assert code == 1 and outputs["decision"] == "closed"
    predicate = _opened(outputs["verification-summary"])["predicate"]
    assert predicate["verificationResult"] == "FAILED" and predicate["verifiedLevels"] == ["FAILED"]
    assert [a["uri"] for a in predicate["inputAttestations"]] == [f"{FREE_ART}/{rules.DSSE_NAME}"]


def test_without_a_gate_signer_no_summary_is_written(tmp_path: Path) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    code = action.run(_gate_env(tmp_path))
    outputs = _outputs(tmp_path / "output.txt")
    assert code == 0 and outputs["verification-summary"] == ""
    assert not list(Path(outputs["report"]).parent.glob("verification-summary-*"))


# --- sigstore mode --------------------------------------------------------------------------


def test_a_sigstore_gate_signs_its_summary_keyless(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import test_sigstore_gate as sg
    from tests.test_sigstore_memory import GATE_WF, gate_claims

    root = tmp_path / "trusted_root.json"
    root.write_bytes(sg.INSTANCE.trusted_root())
    monkeypatch.setattr(sb, "PINNED_TRUSTED_ROOT", root)
    (tmp_path / "policy.yml").write_text(
        "signing:\n  mode: sigstore\n  require: local-pinned\n  sigstore:\n    signer_workflows:"
        f"\n      local-pinned: ['{sg.LOCAL_WF}']\n      gate: ['{GATE_WF}']\n", encoding="utf-8")
    real = sg._sign_step

    def sign_then_gate(tmp: Path, mp: pytest.MonkeyPatch, art: str, server_class: str,
                       claims: dict[str, str]) -> None:
        real(tmp, mp, art, server_class, claims)
        if server_class == "free-server":  # the gate job's own certificate from here on
            mp.setattr(sb, "sign_statement",
                       lambda statement: sg.INSTANCE.sign(statement, gate_claims(1)))
    monkeypatch.setattr(sg, "_sign_step", sign_then_gate)
    code, report = sg._run(tmp_path, monkeypatch, None, **sg.OIDC)
    assert code == 0 and report["decision"] == "open"
    outputs = _outputs(tmp_path / "output.txt")
    path = outputs["verification-summary"]
    assert path.endswith(".sigstore.json")
    expect = sb.Expectation(repository="acme/widgets", repository_id="777", run_id="42",
                            run_attempt="1", commit=HEAD, server_class="gate",
                            signer_workflows=(GATE_WF,))
    statement = json.loads(sb.verify_bundle(Path(path).read_bytes(), expect=expect,
                                            where=path))
    assert statement["predicate"]["verificationResult"] == "PASSED"
    assert [a["uri"] for a in statement["predicate"]["inputAttestations"]] == [
        f"{sg.LOCAL_ART}/{rules.SIGSTORE_NAME}"]  # require local-pinned: only it is verified


def test_a_failed_keyless_summary_is_one_line_and_the_decision_stands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    from gate.decide.signing import SigningPolicy
    from gate.records import policy

    (tmp_path / "runner").mkdir()
    (tmp_path / "policy.yml").write_text("x: 1\n")
    pol = policy.Policy(signing=SigningPolicy(
        mode="sigstore", workflows=(("gate", "https://github.com/a/b/.github/workflows/g.yml"),)))

    def down(statement: Any, *, env: Any, **_policy: Any) -> bytes:
        raise sb.SigstoreRefusal("signing step", "sigstore", "signing failed: unreachable")
    monkeypatch.setattr(signing, "sigstore_signer", lambda: down)
    settings = action.Settings.from_env(_gate_env(tmp_path))
    env = {"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_SHA": HEAD}
    assert action._verification_summary(settings, env, env, pol, tmp_path / "policy.yml",
                                        {"decision": "open"}, 0, []) == ""
    assert "the verification summary is not signed: sigstore: signing failed" in (
        capsys.readouterr().out)
