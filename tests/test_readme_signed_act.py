"""The README's signed workflow (``examples/workflows/python-signed.yml``, the YAML block of
"Signed stamps", byte for byte) runs as pasted under act in ed25519 mode; and, with
``require: local-pinned``, a free-server job that uploads stamps claiming local-pinned is
refused (``reject_unsigned_stamp``) by the gate job.

The project is tests/test_readme_workflow.py's; its policy gains ``signing:`` with the public
key of a key pair made here, whose private key is the secret the local-pinned job reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gate.decide import signing as rules
from gate.records import signing
from tests import test_action_act as base
from tests import test_readme_workflow as pasted
from tests.act.harness import STANDINS_DIR, ActResult, run_act
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.test_action_act import HEAD_SHA, ROOT, SETUP_PYTHON, SharedAction, _project_copy

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
shared_action = base.shared_action  # the session's one copy of the action and its venv
WORKFLOW = ROOT / "examples" / "workflows" / "python-signed.yml"
PRIVATE, PUBLIC = signing.generate()


def _readme_block() -> str:
    return pasted.readme_block("Signed stamps", "name: properties\n")


def test_the_readme_signed_workflow_is_the_repository_file() -> None:
    assert _readme_block() == WORKFLOW.read_text(encoding="utf-8")


GATE_PRIVATE, GATE_PUBLIC = signing.generate()


def _run(tmp_path: Path, double: GitHubDouble, wheelhouse: Path, shared: SharedAction | None,
         edit: dict[str, str] | None = None, gate_key: bool = False) -> ActResult:
    """The README's signed workflow under act; ``shared`` None: a private copy of the action
    and its own venv under the job's ``RUNNER_TEMP`` (a test that plants files in the venv)."""
    action = tmp_path / "action"
    if shared is None:
        action.mkdir()
        _project_copy(action)
    else:
        shared.mapped(action)
    project = tmp_path / "project"
    pasted._python_project(project)
    text = WORKFLOW.read_text(encoding="utf-8")
    for old, new in (edit or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    (project / ".github" / "workflows" / "properties.yml").write_text(text, encoding="utf-8")
    (project / ".github" / "gate-policy.yml").write_text(
        "allowlist: []\nsigning:\n  mode: ed25519\n  require: local-pinned\n  keys:\n"
        f"    local-pinned:\n      - {{id: pinned-1, public_key: '{PUBLIC}'}}\n"
        + (f"    gate:\n      - {{id: gate-1, public_key: '{GATE_PUBLIC}'}}\n" if gate_key
           else ""),
        encoding="utf-8")
    ref = pasted.action_ref(text)
    return run_act(
        project, project / ".github" / "workflows" / "properties.yml",
        event="pull_request",
        event_payload={"number": 7, "pull_request": {
            "number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}}},
        env={"GITHUB_API_URL": double.base_url, "PIP_FIND_LINKS": str(wheelhouse),
             "PIP_NO_INDEX": "1", **(shared.env if shared else {})},
        secrets={"GITHUB_TOKEN": WRITE_TOKEN, "GATE_SIGNING_KEY": PRIVATE.decode("ascii"),
                 "GATE_GATE_KEY": GATE_PRIVATE.decode("ascii")},
        artifacts_dir=tmp_path / "artifacts",
        timeout=900, repository="acme/python-project",
        extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}",
                    "--local-repository", f"{ref}={action}"])


def _report(tmp_path: Path) -> dict[str, Any]:
    (path,) = (tmp_path / "artifacts" / "gate-stamps-report-gate-1").rglob("*.json")
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def test_the_readme_signed_workflow_runs_as_pasted_under_act(
        tmp_path: Path, wheelhouse: Path, shared_action: SharedAction) -> None:
    with GitHubDouble(accept_any_token=False) as double:
        result = _run(tmp_path, double, wheelhouse, shared_action)
        assert result.returncode == 0, result.log_tail(120)
        assert double.invalid_requests() == []
        (check,) = double.check_runs.values()
    local = result.job("stamp-local")
    assert "stamps signed with the local-pinned key 'pinned-1' (ed25519)" in local.stdout
    assert PRIVATE.decode("ascii").splitlines()[1] not in result.log  # never printed
    artifacts = tmp_path / "artifacts"
    (envelope,) = artifacts.glob(f"gate-stamps-local-pinned-*/**/{rules.DSSE_NAME}")
    assert json.loads(envelope.read_bytes())["signatures"][0]["keyid"] == "pinned-1"
    assert not list(artifacts.glob(f"gate-stamps-free-server-*/**/{rules.DSSE_NAME}"))
    assert result.job("gate").outputs["gate"]["decision"] == "open"
    assert check["conclusion"] == "success"
    assert "stamps are unsigned" not in result.job("gate").summary


#: A free-server job that writes its stamps again claiming local-pinned and uploads them in an
#: artifact named for that class (it has no local-pinned key: the stamps are unsigned).
FORGE = {
    '''          server-class: free-server
          manifest: .github/gate.yml
          command: python -m pytest
          # pull-request code: installed inside the gate's seal, never before it
          install: python -m pip install -r requirements-test.txt
          timeout-seconds: "1800"
''': '''          server-class: free-server
          manifest: .github/gate.yml
          command: python -m pytest
          # pull-request code: installed inside the gate's seal, never before it
          install: python -m pip install -r requirements-test.txt
          timeout-seconds: "1800"
      - name: Forge local-pinned stamps
        run: |
          mkdir -p "$RUNNER_TEMP/forged"
          for f in "$RUNNER_TEMP"/agent-patch-gate/stamps-out/*/*.json; do
            python - "$f" "$RUNNER_TEMP/forged/$(basename "$f")" <<'PY'
          import json, sys
          s = json.load(open(sys.argv[1]))
          s["server_class"] = "local-pinned"
          s["run_id"] = "forged-" + s["run_id"]
          json.dump(s, open(sys.argv[2], "w"))
          PY
          done
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        with:
          name: gate-stamps-local-pinned-stamp-free-1-deadbeef
          path: ${{ runner.temp }}/forged
''',
}


def test_a_free_server_job_claiming_local_pinned_is_refused_under_act(
        tmp_path: Path, wheelhouse: Path, shared_action: SharedAction) -> None:
    with GitHubDouble(accept_any_token=False) as double:
        result = _run(tmp_path, double, wheelhouse, shared_action, FORGE)
        (check,) = double.check_runs.values()
    assert result.job("stamp-free").succeeded, result.log_tail(80)
    forged = list((tmp_path / "artifacts" / "gate-stamps-local-pinned-stamp-free-1-deadbeef")
                  .rglob("*.json"))
    assert len(forged) == 3 and all(json.loads(p.read_bytes())["server_class"] == "local-pinned"
                                    for p in forged)
    gate = result.job("gate")
    assert not gate.succeeded
    assert gate.outputs["gate"]["decision"] == "closed"
    pairs = _report(tmp_path)["pairs"]
    assert len(pairs) == 3
    for pair in pairs:
        assert (pair["action"], pair["row"]) == ("reject_unsigned_stamp", 0)
        assert "artifact 'gate-stamps-local-pinned-stamp-free-1-deadbeef'" in pair["reason"]
        assert f"{rules.DSSE_NAME}: missing" in pair["reason"]
    assert check["conclusion"] == "failure"


#: The gate job given its own key (policy signing.keys.gate).
GATE_KEY = {"          policy: .github/gate-policy.yml\n":
            "          policy: .github/gate-policy.yml\n"
            "          signing-key: ${{ secrets.GATE_GATE_KEY }}\n"}


def test_a_gate_key_signs_the_record_and_the_verification_summary_under_act(
        tmp_path: Path, wheelhouse: Path, shared_action: SharedAction) -> None:
    """The report artifact carries the signed SLSA verification summary beside the report
    (action.yml uploads both paths), and the check run's re-run record is signed."""
    from gate.decide.signing import Key
    from gate.records import memory

    with GitHubDouble(accept_any_token=False) as double:
        result = _run(tmp_path, double, wheelhouse, shared_action, GATE_KEY, gate_key=True)
        assert result.returncode == 0, result.log_tail(120)
        (check,) = double.check_runs.values()
    assert memory.decode(check["output"]["text"])["signature"]["keyid"] == "gate-1"
    outputs = result.job("gate").outputs["gate"]
    assert outputs["decision"] == "open"
    assert outputs["verification-summary"].endswith("verification-summary-gate-1.dsse.json")
    folder = tmp_path / "artifacts" / "gate-stamps-report-gate-1"
    (summary,) = folder.rglob("verification-summary-gate-1.dsse.json")
    assert len(list(folder.rglob("report-gate-1.json"))) == 1
    key = Key("gate-1", signing.unb64(GATE_PUBLIC, "k"))
    statement = json.loads(signing.open_envelope(summary.read_bytes(), [key], str(summary)))
    assert statement["predicateType"] == "https://slsa.dev/verification_summary/v1"
    assert statement["predicate"]["verificationResult"] == "PASSED"
    (used,) = statement["predicate"]["inputAttestations"]
    assert used["uri"].startswith("gate-stamps-local-pinned-")
    assert GATE_PRIVATE.decode("ascii").splitlines()[1] not in result.log
