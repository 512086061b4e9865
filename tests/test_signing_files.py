"""A stamp set is signed under the policy and manifest the gate job decides with (issue 21): the
stamp-set predicate's ``policy_sha256`` and ``manifest_sha256`` are compared with the sha256
of the gate job's own policy and manifest files, for this run's stamps; a set signed under
another file (or a gate job without the manifest to tell) is refused (``reject_unsigned_stamp``,
naming the field). Another run's stamps (``workflow_run``) ran on the pull request's commit,
whose files may differ: not compared (docs/signing.md)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from gate.decide import signing as rules
from gate.github import action
from gate.records import signing
from gate.records.files import canonical_json
from tests.core_helpers import FREE, LOCAL, SHA_X, stamp, write_json
from tests.test_signing import (
    FREE_ART,
    KEYS,
    LOCAL_ART,
    _decide,
    _gate_env,
    _policy,
    _refused,
    _report,
    _signed_run,
    _stamp_env,
)


def _reasons(report: dict[str, object]) -> list[str]:
    return [str(p["reason"]) for p in _refused(report)]  # type: ignore[arg-type]


def test_the_same_files_open_and_the_predicate_names_their_digests(tmp_path: Path) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    envelope = json.loads((tmp_path / "stamps" / LOCAL_ART / rules.DSSE_NAME).read_bytes())
    predicate = json.loads(base64.b64decode(envelope["payload"]))["predicate"]
    assert predicate["policy_sha256"] == signing.sha256_hex((tmp_path / "policy.yml").read_bytes())
    assert predicate["manifest_sha256"] == signing.sha256_hex(
        (tmp_path / "manifest.yml").read_bytes())
    code, report = _decide(tmp_path)
    assert code == 0 and report["decision"] == "open"


@pytest.mark.parametrize(("name", "field"), [("policy.yml", "policy_sha256"),
                                             ("manifest.yml", "manifest_sha256")])
def test_a_set_signed_under_another_file_is_refused(tmp_path: Path, name: str,
                                                   field: str) -> None:
    """The file changed between the stamp jobs and the gate job (another checkout, another
    commit's file, an edited copy): one byte is enough."""
    _policy(tmp_path)
    _signed_run(tmp_path)
    path = tmp_path / name
    path.write_bytes(path.read_bytes() + b"# reviewed later\n")
    code, report = _decide(tmp_path)
    assert code == 1 and report["decision"] == "closed"
    reasons = _reasons(report)
    assert len(reasons) == 2  # both properties: every stamp of them refused
    what = name.split(".")[0]
    for reason in reasons:
        assert f": predicate.{field}: " in reason, reason
        assert f"not the {what} file the gate job decides with" in reason
        assert f"fix: give every job of the run the same {what} input" in reason


def test_the_same_bytes_at_another_path_open(tmp_path: Path) -> None:
    """What is compared is the file's bytes, not its name."""
    _policy(tmp_path)
    _signed_run(tmp_path)
    copy = tmp_path / "elsewhere.yml"
    copy.write_bytes((tmp_path / "manifest.yml").read_bytes())
    code, _ = _decide(tmp_path, GATE_MANIFEST=str(copy))
    assert code == 0


def test_a_gate_job_without_the_manifest_refuses_the_signed_stamps(tmp_path: Path) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    code, report = _decide(tmp_path, GATE_MANIFEST=str(tmp_path / "no-such.yml"))
    assert code == 1
    for reason in _reasons(report):
        assert ": predicate.manifest_sha256: the gate job has no manifest file" in reason
        assert "fix: check the repository out in the gate job" in reason


def test_a_set_signed_with_no_policy_file_is_refused(tmp_path: Path) -> None:
    """A signing step never signs without a policy (its mode is off), but a key holder could:
    null is another policy, not a wildcard."""
    _policy(tmp_path, require="local-pinned", classes=("local-pinned",))
    _signed_run(tmp_path, free_key=None)
    folder = tmp_path / "stamps" / LOCAL_ART
    envelope_path = folder / rules.DSSE_NAME
    statement = json.loads(base64.b64decode(json.loads(envelope_path.read_bytes())["payload"]))
    statement["predicate"]["policy_sha256"] = None
    private = signing.load_private_key(KEYS["local-pinned"][0], "test")
    envelope_path.unlink()
    envelope_path.write_bytes(canonical_json(signing.sign_envelope(statement, private,
                                                                   "local-pinned-1")))
    code, report = _decide(tmp_path)
    assert code == 1
    (reason, _) = _reasons(report)
    assert ": predicate.policy_sha256: null (no file), not the policy file" in reason


def test_require_off_compares_nothing(tmp_path: Path) -> None:
    _policy(tmp_path, require="off", classes=())
    _signed_run(tmp_path, local_key=None, free_key=None)
    (tmp_path / "manifest.yml").write_text("version: 1\nproperties: []\n# other\n")
    code, _ = _decide(tmp_path)
    assert code == 0


# --- another run's stamps (workflow_run): not compared; this run's own: compared ------------


def _foreign_run(tmp_path: Path, trusted_manifest_differs: bool) -> int:
    """A same-repository pull request's run 4242 (its free-server stamps signed under the pull
    request's own policy and manifest) and this trusted run's local-pinned stamps, decided by
    a workflow_run gate."""
    from tests.test_action import _workflow_run

    _policy(tmp_path)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "policy.yml").write_bytes((tmp_path / "policy.yml").read_bytes() + b"# PR\n")
    write_json(tmp_path / "stamps" / FREE_ART / "f1.json",
               stamp(FREE, "pass", run_id="f1", fixture_sha256=SHA_X))
    write_json(tmp_path / "trusted" / LOCAL_ART / "l1.json",
               stamp(LOCAL, "pass", run_id="l1", fixture_sha256=SHA_X))
    env = _stamp_env(theirs, FREE, FREE_ART, "free-server", GITHUB_RUN_ID="4242",
                     GITHUB_SHA="d" * 40, GATE_STAMPS_DIR=str(tmp_path / "stamps" / FREE_ART))
    (theirs / "manifest.yml").write_text("version: 1\nproperties: []\n# the PR's\n")
    env["GATE_MANIFEST"] = str(theirs / "manifest.yml")
    assert action.run(env) == 0
    assert action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, "local-pinned",
                                 GATE_STAMPS_DIR=str(tmp_path / "trusted" / LOCAL_ART))) == 0
    if trusted_manifest_differs:
        (tmp_path / "manifest.yml").write_text("version: 1\nproperties: []\n# later\n")
    return action.run(_gate_env(tmp_path, **_workflow_run(tmp_path, head_repo="acme/widgets")))


def test_another_runs_stamps_signed_under_the_pull_requests_files_are_not_compared(
        tmp_path: Path) -> None:
    assert _foreign_run(tmp_path, trusted_manifest_differs=False) == 0, _report(tmp_path)
    assert _report(tmp_path)["decision"] == "open"


def test_this_runs_own_stamps_are_compared_in_a_workflow_run_gate_too(tmp_path: Path) -> None:
    assert _foreign_run(tmp_path, trusted_manifest_differs=True) == 1
    (reason,) = _reasons(_report(tmp_path))
    assert f"artifact {LOCAL_ART!r}: predicate.manifest_sha256: " in reason


# --- sigstore mode: the same predicate rule ---------------------------------------------------


def test_a_sigstore_set_signed_under_another_manifest_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.records import sigstore_bundle as sb
    from tests import test_sigstore_gate as sg

    root = tmp_path / "trusted_root.json"
    root.write_bytes(sg.INSTANCE.trusted_root())
    monkeypatch.setattr(sb, "PINNED_TRUSTED_ROOT", root)
    sg._policy(tmp_path, require="local-pinned")
    real = sg._sign_step

    def then_edit(tmp: Path, mp: pytest.MonkeyPatch, art: str, server_class: str,
                  claims: dict[str, str]) -> None:
        real(tmp, mp, art, server_class, claims)
        if server_class == FREE:  # after both steps signed: the gate job's checkout differs
            manifest = tmp / "manifest.yml"
            manifest.write_text(manifest.read_text() + "# another commit's\n")
    monkeypatch.setattr(sg, "_sign_step", then_edit)
    code, report = sg._run(tmp_path, monkeypatch)
    assert code == 1
    (refused,) = sg._refused(report)
    assert f"artifact {sg.LOCAL_ART!r}: predicate.manifest_sha256: " in refused["reason"]
    assert FREE_ART == sg.FREE_ART  # the free-server set is not required signed here
