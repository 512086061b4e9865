"""Issue 27's break 1 end to end under act: a test plants a ``.pth`` in the action's venv.

The README's signed workflow (tests/test_readme_signed_act.py's project, ed25519, the
local-pinned key a secret) with the local-pinned job's test command preceded by a script the
pull request adds: it writes ``site-packages/zzz.pth`` into the action's venv under
``$RUNNER_TEMP/agent-patch-gate/``, whose line runs at the start of every interpreter of that
venv and prints a marker (the break copied the key and rewrote the red stamp green from there).
Before the seal, the next step ("Sign the stamps", ``-I``) ran it beside the key. The job asks
for ``isolation: none`` (below ``namespace`` the seal is what holds; at ``namespace`` the venv
is read-only to the command and the plant fails; ``process`` needs Yama, which the test
machine's kernel lacks). Now the sign
step checks the set-up step's seal first and refuses: exit 2, one line naming ``zzz.pth`` and
that a test step changed the action's environment; the planted line never runs, nothing is
signed or uploaded for that class, and the gate does not open.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import test_readme_signed_act as signed
from tests import test_readme_workflow as pasted
from tests.github_double import GitHubDouble

wheelhouse = signed.wheelhouse  # the session fixture: the action's locked wheels

PLANT = """\
import glob, os
for site in glob.glob(os.path.join(os.environ["RUNNER_TEMP"], "agent-patch-gate",
                                   "venv-*", "lib", "python3*", "site-packages")):
    with open(os.path.join(site, "zzz.pth"), "w") as f:
        f.write("import sys; print('PLANTED-' + 'RAN in ' + ' '.join(sys.orig_argv), "
                "file=sys.stderr)\\n")
    print("planted", os.path.join(site, "zzz.pth"))
"""
LOCAL = """          server-class: local-pinned
          manifest: .github/gate.yml
          command: python -m pytest
"""


def test_a_pth_planted_by_a_test_never_runs_in_the_signing_step_under_act(
        tmp_path: Path, wheelhouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # isolation none: below namespace the seal is what holds (at namespace the venv is
    # read-only to the command, so the plant itself fails; process needs Yama, which this
    # machine's kernel lacks)
    edit = {LOCAL: LOCAL.replace("command: python -m pytest",
                                 "command: python plant.py && python -m pytest\n"
                                 "          isolation: none")}
    original = pasted._python_project

    def project_with_plant(project: Path) -> None:
        original(project)
        (project / "plant.py").write_text(PLANT, encoding="utf-8")

    monkeypatch.setattr(pasted, "_python_project", project_with_plant)
    with GitHubDouble(accept_any_token=False) as double:
        # a private copy of the action and its own venv: this test plants a file in it
        result = signed._run(tmp_path, double, wheelhouse, None, edit=edit)
        checks = list(double.check_runs.values())
    local = result.job("stamp-local")
    assert "planted " in local.stdout, local.stdout[-3000:]  # the attack was live
    assert "PLANTED-RAN" not in result.log, result.log_tail(80)
    refusal = [line for line in result.log.splitlines()
               if "zzz.pth was added or changed after the set-up step" in line]
    assert refusal, result.log_tail(80)
    assert "a test step changed the action's environment" in refusal[0]
    assert "stamps signed with the local-pinned key" not in local.stdout
    assert result.returncode != 0
    gate = result.job("gate").outputs.get("gate", {})
    assert gate.get("decision") != "open"
    assert all(check.get("conclusion") != "success" for check in checks)
