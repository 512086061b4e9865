"""Signed stamps, ed25519 (issue 21): the stamp job's signing step and the gate job's check.

In-process through ``gate action`` (the act tests run the same code in real jobs): a signed
stamp set opens; every mutation of it is refused before pairing (``reject_unsigned_stamp``,
row 0, naming the artifact and the field), and a Hypothesis property checks that no byte
change of a signed artifact opens.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.decide import signing as rules
from gate.errors import GateInputError
from gate.github import action
from gate.records import pairing, signing
from gate.records.files import canonical_json
from gate.testrun import running
from tests.core_helpers import FREE, LOCAL, NOW, SHA_X, stamp, write_json

LOCAL_ART = "gate-stamps-local-pinned-stamp-1-0a1b2c3d"
FREE_ART = "gate-stamps-free-server-stamp-1-4e5f6a7b"
RUN = {"GITHUB_RUN_ID": "42", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_REPOSITORY": "acme/widgets",
       "GITHUB_REPOSITORY_ID": "777", "GITHUB_SHA": "b" * 40, "GITHUB_JOB": "stamp"}
KEYS = {who: signing.generate() for who in ("local-pinned", "free-server", "gate", "other")}


def _policy(tmp_path: Path, require: str = "all", mode: str = "ed25519",
            classes: tuple[str, ...] = ("local-pinned", "free-server")) -> Path:
    keys = "".join(f"    {who}:\n      - {{id: {who}-1, public_key: '{KEYS[who][1]}'}}\n"
                   for who in classes)
    path = tmp_path / "policy.yml"
    path.write_text(f"signing:\n  mode: {mode}\n  require: {require}\n"
                    + (f"  keys:\n{keys}" if keys else ""), encoding="utf-8")
    return path


def _stamp_env(tmp_path: Path, server_class: str, artifact: str, key: str | None,
               **extra: str) -> dict[str, str]:
    (tmp_path / "runner").mkdir(exist_ok=True)
    manifest = tmp_path / "manifest.yml"
    manifest.write_text("version: 1\nproperties: []\n", encoding="utf-8")
    env = {**RUN, "RUNNER_TEMP": str(tmp_path / "runner"), "GATE_MODE": "sign",
           "GATE_SERVER_CLASS": server_class, "GATE_MANIFEST": str(manifest),
           "GATE_POLICY": str(tmp_path / "policy.yml"),
           "GATE_STAMPS_DIR": str(tmp_path / "stamps" / artifact),
           "GATE_ARTIFACT_NAME": artifact}
    if key is not None:
        env["GATE_SIGNING_KEY"] = KEYS[key][0].decode("ascii")
    env.update(extra)
    return env


def _signed_run(tmp_path: Path, local: str = "pass", free: str = "pass",
                local_key: str | None = "local-pinned",
                free_key: str | None = "free-server") -> None:
    """Two stamp jobs' artifacts (one stamp each, plus a second local one), each signed by
    its signing step."""
    for art, server_class, outcome, run_id in ((LOCAL_ART, LOCAL, local, "l1"),
                                                (FREE_ART, FREE, free, "f1")):
        write_json(tmp_path / "stamps" / art / f"{run_id}.json",
                   stamp(server_class, outcome, run_id=run_id, fixture_sha256=SHA_X))
    write_json(tmp_path / "stamps" / LOCAL_ART / "l2.json",
               stamp(LOCAL, "pass", run_id="l2", test_id="other", fixture_sha256=SHA_X))
    write_json(tmp_path / "stamps" / FREE_ART / "f2.json",
               stamp(FREE, "pass", run_id="f2", test_id="other", fixture_sha256=SHA_X))
    for art, server_class, key in ((LOCAL_ART, LOCAL, local_key), (FREE_ART, FREE, free_key)):
        if key is not None:
            assert action.run(_stamp_env(tmp_path, server_class, art, key)) == 0


def _gate_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {**RUN, "GITHUB_JOB": "gate", "RUNNER_TEMP": str(tmp_path / "runner"),
           "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "GATE_MODE": "gate",
           "GATE_STAMPS_DIR": str(tmp_path / "stamps"), "GATE_NOW": str(NOW),
           "GATE_POLICY": str(tmp_path / "policy.yml"),
           "GATE_MANIFEST": str(tmp_path / "manifest.yml")}  # the stamp jobs' (one checkout)
    env.update(extra)
    return env


def _report(tmp_path: Path) -> dict[str, Any]:
    text = (tmp_path / "output.txt").read_text(encoding="utf-8")
    match = re.search(r"^report<<(\S+)\n(.*?)\n\1$", text, re.M | re.S)
    assert match, text
    loaded: dict[str, Any] = json.loads(Path(match.group(2)).read_text(encoding="utf-8"))
    return loaded


def _decide(tmp_path: Path, **extra: str) -> tuple[int, dict[str, Any]]:
    code = action.run(_gate_env(tmp_path, **extra))
    return code, _report(tmp_path)


def _refused(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in report["pairs"] if p["action"] == rules.REFUSED]


# --- the happy path -------------------------------------------------------------------------


def test_a_signed_stamp_set_opens(tmp_path: Path) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    envelope = json.loads((tmp_path / "stamps" / LOCAL_ART / rules.DSSE_NAME).read_bytes())
    assert envelope["payloadType"] == "application/vnd.in-toto+json"
    assert envelope["signatures"][0]["keyid"] == "local-pinned-1"
    statement = json.loads(base64.b64decode(envelope["payload"]))
    assert statement["_type"] == "https://in-toto.io/Statement/v1"
    assert statement["predicateType"] == rules.PREDICATE_TYPE
    assert [s["name"] for s in statement["subject"]] == ["l1.json", "l2.json"]
    assert statement["predicate"]["artifact"] == LOCAL_ART
    assert statement["predicate"]["run_id"] == "42"
    assert statement["predicate"]["repository_id"] == "777"
    code, report = _decide(tmp_path)
    assert code == 0, report
    assert report["decision"] == "open" and not _refused(report)


def test_each_class_is_required_its_own_isolation_level() -> None:
    """signing.require_isolation: a class's own level, none for a class it does not name."""
    policy = rules.SigningPolicy(mode="ed25519", require="all",
                                 isolation=((FREE, "namespace"),))
    assert policy.isolation_of(FREE) == "namespace"
    assert policy.isolation_of(LOCAL) is None
    assert rules.SigningPolicy().isolation_of(FREE) is None


def test_a_signing_policy_and_a_key_keep_every_field_as_given_and_default_to_off() -> None:
    """SigningPolicy and Key are hand-written frozen values (no dataclass: start-up): each
    field is what was given, in order; nothing given is signing off (built inside the test)."""
    key = rules.Key("gate-1", b"k" * 32)
    assert (key.id, key.public_key) == ("gate-1", b"k" * 32)
    given = rules.SigningPolicy("sigstore", "all", (("gate", key),), (("gate", "uri"),), True,
                                ((FREE, "namespace"),), True)
    assert [getattr(given, n) for n in given.__slots__] == [
        "sigstore", "all", (("gate", key),), (("gate", "uri"),), True, ((FREE, "namespace"),),
        True]
    off = rules.SigningPolicy()
    assert [getattr(off, n) for n in off.__slots__] == ["off", "off", (), (), False, (), False]
    assert off.replace(isolation=((FREE, "user"),)).isolation_of(FREE) == "user"
    assert repr(key) == "Key(id='gate-1', public_key=" + repr(b"k" * 32) + ")"


def test_the_pae_is_the_dsse_one() -> None:
    assert signing.pae("a", b"xyz") == b"DSSEv1 1 a 3 xyz"
    assert signing.pae("application/vnd.in-toto+json", b"") == (
        b"DSSEv1 28 application/vnd.in-toto+json 0 ")


def test_the_envelope_is_never_read_as_a_stamp(tmp_path: Path) -> None:
    _policy(tmp_path)
    _signed_run(tmp_path)
    sources = [i.source for i in pairing.collect(tmp_path / "stamps", "gate-stamps")]
    assert sources and not any(rules.DSSE_NAME in s for s in sources)


# --- every mutation refused -----------------------------------------------------------------


def _envelope(tmp_path: Path, art: str = LOCAL_ART) -> Path:
    return tmp_path / "stamps" / art / rules.DSSE_NAME


def _resign(tmp_path: Path, art: str, key: str, edit: Any) -> None:
    """Re-sign the artifact's statement after ``edit(statement)`` with ``key``'s key."""
    path = _envelope(tmp_path, art)
    envelope = json.loads(path.read_bytes())
    statement = json.loads(base64.b64decode(envelope["payload"]))
    edit(statement)
    private = signing.load_private_key(KEYS[key][0], "test")
    keyid = envelope["signatures"][0]["keyid"]
    path.write_bytes(canonical_json(signing.sign_envelope(statement, private, keyid)))


def _change_byte(tmp_path: Path) -> None:
    path = tmp_path / "stamps" / LOCAL_ART / "l1.json"
    path.write_bytes(path.read_bytes().replace(b'"pass"', b'"pass" '))


def _add_stamp(tmp_path: Path) -> None:
    write_json(tmp_path / "stamps" / LOCAL_ART / "l3.json",
               stamp(LOCAL, "pass", run_id="l3", test_id="added", fixture_sha256=SHA_X))
    write_json(tmp_path / "stamps" / FREE_ART / "f3.json",
               stamp(FREE, "pass", run_id="f3", test_id="added", fixture_sha256=SHA_X))


def _remove_stamp(tmp_path: Path) -> None:
    (tmp_path / "stamps" / LOCAL_ART / "l2.json").unlink()


def _move_envelope(tmp_path: Path) -> None:
    """The local envelope into another local artifact holding the same stamps."""
    other = tmp_path / "stamps" / "gate-stamps-local-pinned-stamp-1-99999999"
    shutil.copytree(tmp_path / "stamps" / LOCAL_ART, other)
    shutil.rmtree(tmp_path / "stamps" / LOCAL_ART)


def _truncate(tmp_path: Path) -> None:
    path = _envelope(tmp_path)
    path.write_bytes(path.read_bytes()[:-20])


def _duplicate_subject(tmp_path: Path) -> None:
    _resign(tmp_path, LOCAL_ART, "local-pinned",
            lambda s: s["subject"].append(dict(s["subject"][0])))


def _other_type(tmp_path: Path) -> None:
    _resign(tmp_path, LOCAL_ART, "local-pinned", lambda s: s.update(
        predicateType="https://slsa.dev/provenance/v1"))


def _other_key(tmp_path: Path) -> None:
    """A free-server key signs the local-pinned set (its keyid kept)."""
    _resign(tmp_path, LOCAL_ART, "free-server", lambda s: None)


def _other_keyid(tmp_path: Path) -> None:
    """The free-server key, and its own id, on a local-pinned artifact."""
    path = _envelope(tmp_path)
    envelope = json.loads(path.read_bytes())
    statement = json.loads(base64.b64decode(envelope["payload"]))
    private = signing.load_private_key(KEYS["free-server"][0], "test")
    path.write_bytes(canonical_json(signing.sign_envelope(statement, private, "free-server-1")))


def _predicate(**fields: object) -> Any:
    return lambda tmp_path: _resign(tmp_path, LOCAL_ART, "local-pinned",
                                    lambda s: s["predicate"].update(fields))


def _unsigned(tmp_path: Path) -> None:
    _envelope(tmp_path).unlink()


def _claims_local(tmp_path: Path) -> None:
    """The free-server job's own key and artifact, its statement claiming local-pinned."""
    _resign(tmp_path, FREE_ART, "free-server", lambda s: s["predicate"].update(
        server_class="local-pinned"))


MUTATIONS = {
    "a stamp byte changed": (_change_byte, "subject.0.digest.sha256"),
    "a stamp added after signing": (_add_stamp, "no subject names"),
    "a stamp removed after signing": (_remove_stamp, "subject.1.name"),
    "the envelope moved to another artifact": (_move_envelope, "predicate.artifact"),
    "another run": (_predicate(run_id="43"), "predicate.run_id"),
    "another attempt": (_predicate(run_attempt=2), "predicate.run_attempt"),
    "another repository": (_predicate(repository="evil/widgets"), "predicate.repository"),
    "another repository id": (_predicate(repository_id="1"), "predicate.repository_id"),
    "another job": (_predicate(job="gate"), "predicate.job"),
    "another commit": (_predicate(head_sha="c" * 40), "predicate.head_sha"),
    "a key of the other class": (_other_key, "envelope.signatures.0.sig"),
    "the other class's key and id": (_other_keyid, "envelope.signatures.0.keyid"),
    "a predicate of another type": (_other_type, "statement.predicateType"),
    "a duplicate subject": (_duplicate_subject, "is named twice"),
    "a truncated envelope": (_truncate, "envelope."),
    "no envelope": (_unsigned, "missing"),
    "a free-server statement claiming local-pinned": (_claims_local, "predicate.server_class"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_every_mutation_is_refused_before_pairing(tmp_path: Path, name: str) -> None:
    mutate, field = MUTATIONS[name]
    _policy(tmp_path)
    _signed_run(tmp_path)
    mutate(tmp_path)
    code, report = _decide(tmp_path)
    assert code == 1
    refused = _refused(report)
    assert refused, report["pairs"]
    assert all(p["gate"] == "pairing" and p["row"] == 0 for p in refused)
    reasons = " ".join(p["reason"] for p in refused)
    assert field in reasons, reasons
    assert "artifact 'gate-stamps-" in reasons
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "not covered by a valid signature of its own artifact" in summary


def test_require_local_pinned_leaves_free_server_stamps_unchecked(tmp_path: Path) -> None:
    _policy(tmp_path, require="local-pinned", classes=("local-pinned",))
    _signed_run(tmp_path, free_key=None)
    assert _decide(tmp_path)[0] == 0
    _change_byte(tmp_path)
    code, report = _decide(tmp_path)
    assert code == 1 and _refused(report)


def test_require_local_pinned_refuses_a_free_server_job_claiming_local_pinned(
        tmp_path: Path) -> None:
    """The issue's "done when", in-process: a free-server job (its own key) writes stamps
    claiming local-pinned into a local-pinned artifact; unsigned, or signed by its key, never
    opens."""
    _policy(tmp_path, require="local-pinned")
    _signed_run(tmp_path)
    _other_keyid(tmp_path)  # it signs the set with its own (free-server) key
    code, report = _decide(tmp_path)
    assert code == 1 and "envelope.signatures.0.keyid" in _refused(report)[0]["reason"]
    _envelope(tmp_path).unlink()  # it has no local-pinned key: its set is unsigned
    code, report = _decide(tmp_path)
    assert code == 1 and "missing" in _refused(report)[0]["reason"]
    with pytest.raises(GateInputError) as caught:  # the signing step will not use its key
        action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, "free-server"))
    assert caught.value.field == "signing.keys.local-pinned"


def test_require_off_checks_nothing(tmp_path: Path) -> None:
    _policy(tmp_path, require="off")
    _signed_run(tmp_path, local_key=None, free_key=None)
    code, report = _decide(tmp_path)
    assert code == 0 and not _refused(report)


def test_mode_off_says_the_stamps_are_unsigned(tmp_path: Path) -> None:
    (tmp_path / "policy.yml").write_text("allowlist: []\n", encoding="utf-8")
    _signed_run(tmp_path, local_key=None, free_key=None)
    assert _decide(tmp_path)[0] == 0
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "stamps are unsigned" in summary


# --- the signing step -----------------------------------------------------------------------


def test_the_signing_step_refuses_a_key_the_policy_does_not_list(tmp_path: Path) -> None:
    _policy(tmp_path)
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json", stamp(LOCAL, "pass", run_id="l1"))
    for key in ("free-server", "gate", "other"):
        with pytest.raises(GateInputError) as caught:
            action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, key))
        assert caught.value.field == "signing.keys.local-pinned"
    assert not _envelope(tmp_path).exists()


def test_the_signing_step_needs_a_key_when_its_class_is_required(tmp_path: Path) -> None:
    _policy(tmp_path)
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json", stamp(LOCAL, "pass", run_id="l1"))
    with pytest.raises(GateInputError) as caught:
        action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, None))
    assert caught.value.source == "signing-key"


def test_the_signing_step_refuses_a_garbled_key_without_showing_it(tmp_path: Path) -> None:
    _policy(tmp_path)
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json", stamp(LOCAL, "pass", run_id="l1"))
    secret = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PRIVATE KEY-----\n"
    with pytest.raises(GateInputError) as caught:
        action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, None, GATE_SIGNING_KEY=secret))
    assert "c2VjcmV0" not in str(caught.value)


def test_a_key_file_inside_the_workspace_is_refused(tmp_path: Path) -> None:
    _policy(tmp_path)
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json", stamp(LOCAL, "pass", run_id="l1"))
    inside = tmp_path / "work" / "key.pem"
    inside.parent.mkdir()
    inside.write_bytes(KEYS["local-pinned"][0])
    env = _stamp_env(tmp_path, LOCAL, LOCAL_ART, None, GATE_SIGNING_KEY_FILE=str(inside),
                     GITHUB_WORKSPACE=str(tmp_path / "work"))
    with pytest.raises(GateInputError) as caught:
        action.run(env)
    assert caught.value.field == "signing-key-file"
    outside = tmp_path / "key.pem"
    outside.write_bytes(KEYS["local-pinned"][0])
    env["GATE_SIGNING_KEY_FILE"] = str(outside)
    assert action.run(env) == 0
    assert _envelope(tmp_path).exists()


def test_the_signing_step_refuses_another_artifact_name(tmp_path: Path) -> None:
    _policy(tmp_path)
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json", stamp(LOCAL, "pass", run_id="l1"))
    with pytest.raises(GateInputError) as caught:
        action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, "local-pinned",
                              GATE_ARTIFACT_NAME=FREE_ART))
    assert caught.value.source == "GATE_ARTIFACT_NAME"


def test_mode_off_with_a_key_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "policy.yml").write_text("allowlist: []\n", encoding="utf-8")
    write_json(tmp_path / "stamps" / LOCAL_ART / "l1.json", stamp(LOCAL, "pass", run_id="l1"))
    with pytest.raises(GateInputError) as caught:
        action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, "local-pinned"))
    assert caught.value.field == "signing.mode"
    del_key = _stamp_env(tmp_path, LOCAL, LOCAL_ART, None)
    assert action.run(del_key) == 0 and not _envelope(tmp_path).exists()


def test_the_test_command_never_sees_the_oidc_request_or_the_key(tmp_path: Path) -> None:
    env = {"ACTIONS_ID_TOKEN_REQUEST_URL": "https://token", "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "t",
           "GATE_SIGNING_KEY": "k", "GATE_SIGNING_KEY_FILE": "/k", "KEPT": "1", "PATH": "/bin"}
    out = tmp_path / "env.txt"
    with (tmp_path / "o").open("wb") as stdout, (tmp_path / "e").open("wb") as stderr:
        running.run_command(["/bin/sh", "-c", f"env > {out}"], 30, stdout, stderr, env=env)
    seen = out.read_text(encoding="utf-8")
    assert "KEPT=1" in seen
    for name in running.WITHHELD:
        assert name not in seen


# --- the policy -----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "field"), [
    ("signing: {mode: ed25519, requre: all}", "signing.requre"),
    ("signing: {mode: ed2559}", "signing.mode"),
    ("signing: {mode: off, require: all}", "signing.require"),
    ("signing: {mode: ed25519, require: all, keys: {local-pinned: [{id: a, public_key: "
     f"'{KEYS['local-pinned'][1]}'}}]}}}}", "signing.keys.free-server"),
    ("signing: {mode: ed25519, keys: {local-pined: []}}", "signing.keys.local-pined"),
    ("signing: {mode: ed25519, keys: {gate: [{id: a, public_key: 'AAAA'}]}}",
     "signing.keys.gate.0.public_key"),
    ("signing: {mode: ed25519, keys: {gate: [{id: a, public_key: "
     f"'{KEYS['gate'][1]}', secret: x}}]}}}}", "signing.keys.gate.0.secret"),
    ("signing: {mode: ed25519, keys: {gate: [{id: a, public_key: "
     f"'{KEYS['gate'][1]}'}}], local-pinned: [{{id: a, public_key: '{KEYS['other'][1]}'}}]}}}}",
     "signing.keys.local-pinned.0.id"),
    ("signing: {mode: ed25519, keys: {gate: [{id: a, public_key: "
     f"'{KEYS['gate'][1]}'}}], local-pinned: [{{id: b, public_key: '{KEYS['gate'][1]}'}}]}}}}",
     "signing.keys.local-pinned.0.public_key"),
    ("signing: {mode: sigstore}", "signing.sigstore.signer_workflows"),
    ("signing: {mode: ed25519, sigstore: {signer_workflows: ['https://github.com/a/b/.github/"
     "workflows/c.yml']}}", "signing.sigstore"),
    ("signing: {mode: sigstore, sigstore: {signer_workflows: ['https://github.com/a/b/.github/"
     "workflows/c.yml']}, keys: {gate: "
     f"[{{id: a, public_key: '{KEYS['gate'][1]}'}}]}}}}", "signing.keys"),
])
def test_every_policy_mistake_is_exit_2_naming_the_field(tmp_path: Path, text: str,
                                                        field: str) -> None:
    from gate.commands.main import main

    path = tmp_path / "p.yml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(GateInputError) as caught:
        from gate.records import policy

        policy.load(path)
    assert caught.value.field == field, caught.value
    assert main(["policy", "check", str(path)]) == 2


def test_an_unquoted_off_is_off(tmp_path: Path) -> None:
    from gate.records import policy

    path = tmp_path / "p.yml"
    path.write_text("signing: {mode: off, require: off}\n", encoding="utf-8")
    assert policy.load(path).signing.mode == "off"


# --- no mutation of a signed set opens ------------------------------------------------------


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_byte_change_of_a_signed_artifact_opens(tmp_path_factory: pytest.TempPathFactory,
                                                  data: st.DataObject) -> None:
    tmp_path = tmp_path_factory.mktemp("mut")
    _policy(tmp_path)
    _signed_run(tmp_path)
    art = data.draw(st.sampled_from([LOCAL_ART, FREE_ART]))
    # every file the gate job reads (the test-result statement is the consumers': never read)
    files = sorted(p for p in (tmp_path / "stamps" / art).iterdir()
                   if p.name != rules.TEST_RESULT_DSSE_NAME)
    target = data.draw(st.sampled_from(files))
    raw = bytearray(target.read_bytes())
    kind = data.draw(st.sampled_from(["flip", "cut", "insert"]))
    at = data.draw(st.integers(0, len(raw) - 1))
    if kind == "flip":
        raw[at] ^= data.draw(st.integers(1, 255))
    elif kind == "cut":
        del raw[at:at + data.draw(st.integers(1, 8))]
    else:
        raw[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    target.write_bytes(bytes(raw))
    try:
        code = action.run(_gate_env(tmp_path))
    except GateInputError:
        return  # a stamp no longer valid JSON or schema: bad input, exit 2, closed
    assert code == 1


def test_keygen_writes_a_private_key_and_prints_its_policy_entry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gate.commands.main import main
    from gate.records import policy

    key = tmp_path / "pinned.pem"
    assert main(["signing", "keygen", "--id", "pinned-2026", "--private-key", str(key)]) == 0
    assert key.stat().st_mode & 0o077 == 0
    entry = capsys.readouterr().out.splitlines()[-1]
    (tmp_path / "p.yml").write_text(
        "signing:\n  mode: ed25519\n  require: local-pinned\n  keys:\n    local-pinned:\n"
        f"    {entry}\n", encoding="utf-8")
    listed = policy.load(tmp_path / "p.yml").signing.keys_of(LOCAL)
    private = signing.load_private_key(key.read_bytes(), str(key))
    assert signing.key_for(private, listed, LOCAL, "p").id == "pinned-2026"
    assert main(["signing", "keygen", "--id", "x", "--private-key", str(key)]) == 2
    assert main(["signing", "keygen", "--id", "a b", "--private-key", str(tmp_path / "n")]) == 2


# --- forks (workflow_run) -------------------------------------------------------------------


def _fork_run(tmp_path: Path, require: str) -> int:
    """A fork's free-server stamp (unsigned: forks get no secrets) and this trusted run's
    signed local-pinned one, decided by a workflow_run gate."""
    from tests.test_action import _workflow_run

    _policy(tmp_path, require=require)
    write_json(tmp_path / "stamps" / FREE_ART / "f1.json",
               stamp(FREE, "pass", run_id="f1", fixture_sha256=SHA_X))
    write_json(tmp_path / "trusted" / LOCAL_ART / "l1.json",
               stamp(LOCAL, "pass", run_id="l1", fixture_sha256=SHA_X))
    assert action.run(_stamp_env(tmp_path, LOCAL, LOCAL_ART, "local-pinned",
                                 GATE_STAMPS_DIR=str(tmp_path / "trusted" / LOCAL_ART))) == 0
    return action.run(_gate_env(tmp_path, **_workflow_run(tmp_path)))


def test_a_fork_with_require_local_pinned_pairs_with_the_trusted_signed_stamps(
        tmp_path: Path) -> None:
    assert _fork_run(tmp_path, "local-pinned") == 0
    assert _report(tmp_path)["decision"] == "open"


def test_a_fork_with_require_all_never_opens(tmp_path: Path) -> None:
    assert _fork_run(tmp_path, "all") == 1
    (pair,) = _refused(_report(tmp_path))
    assert f"artifact {FREE_ART!r}" in pair["reason"] and "missing" in pair["reason"]


def test_the_key_reaches_only_the_signing_and_gate_steps() -> None:
    import yaml

    steps = yaml.safe_load((Path(__file__).resolve().parent.parent / "action.yml")
                           .read_text(encoding="utf-8"))["runs"]["steps"]
    holding = [s.get("id") for s in steps
               if any("signing-key" in str(v) for name, v in (s.get("env") or {}).items()
                      if name != "GATE_SIGNING_KEY_FILE_PATH")]
    assert holding == ["sign", "gate"]
    (stamp_step,) = [s for s in steps if s.get("id") == "stamp"]
    # the stamp step gets the key file's path only, to refuse it before the tests (break 3)
    assert [n for n, v in stamp_step["env"].items() if "signing-key" in str(v)] == [
        "GATE_SIGNING_KEY_FILE_PATH"]
    assert stamp_step["env"]["GATE_SIGNING_KEY_FILE_PATH"] == "${{ inputs.signing-key-file }}"
    assert stamp_step["env"]["ACTIONS_ID_TOKEN_REQUEST_URL"] == ""
    assert stamp_step["env"]["ACTIONS_ID_TOKEN_REQUEST_TOKEN"] == ""
    ids = [s.get("id") for s in steps]
    upload = next(i for i, s in enumerate(steps) if s.get("name") == "Upload the stamps")
    assert ids.index("stamp") < ids.index("sign") < upload
