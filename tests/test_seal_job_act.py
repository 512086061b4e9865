"""A later use of the action in the same job, under act (issue 27's remainder).

tests/act/workflows/later-use.yml: the first use's test command (``plant.py``, the pull
request's) plants ``zzz.pth`` in the action's venv and rewrites the venv's manifest so the
installer's reuse check passes; the first use's sign step refuses (its own seal), and the later
use, which the workflow runs after that failure (``if: always()``), used to reuse the venv and
run the planted line in its set-up step (it sealed what it found). Now its set-up checks the
first use's seal, which act carries to it through ``GITHUB_ENV`` as GitHub's runner does: exit 2
naming the changed file, and the planted line never runs. The job runs at ``isolation: none``:
at ``namespace`` the venv is read-only to the command.
"""

from __future__ import annotations

from pathlib import Path

from tests import test_action_act as base
from tests.act.harness import WORKFLOWS_DIR, run_act

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels

PLANT = """\
import glob, os, sys
sys.path.insert(0, "requirements")  # the installer's own manifest writer, from the checkout
import installer
for venv in glob.glob(os.path.join(os.environ["RUNNER_TEMP"], "agent-patch-gate", "venv-*")):
    site = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages"))[0]
    with open(os.path.join(site, "zzz.pth"), "w") as f:
        f.write("import sys; print('PLANTED-' + 'RAN', file=sys.stderr)\\n")
    os.unlink(os.path.join(venv, installer.MANIFEST))
    installer.seal(installer.Path(venv))
    print("planted", os.path.join(site, "zzz.pth"))
"""


def test_a_later_use_refuses_what_the_first_uses_test_planted_under_act(
        tmp_path: Path, wheelhouse: Path) -> None:
    work = tmp_path / "repo"
    work.mkdir()
    base._project_copy(work)
    (work / "plant.py").write_text(PLANT, encoding="utf-8")
    result = run_act(work, WORKFLOWS_DIR / "later-use.yml",
                     env={"PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1",
                          "AGENT_PATCH_GATE_UV_URL": "http://127.0.0.1:9/"},
                     artifacts_dir=tmp_path / "artifacts", timeout=600)
    job = result.job("stamp")
    assert "planted " in job.stdout, result.log_tail(80)  # the attack was live
    assert "PLANTED-RAN" not in result.log, result.log_tail(80)
    refused = [line for _step, line in job.output_lines
               if "zzz.pth was added or changed after" in line
               or ".gate-manifest was removed or changed after" in line]
    assert any(step[0] == "first" for step, line in job.output_lines
               if "after the set-up step: a test step changed" in line), result.log_tail(80)
    assert any("after the first use of the action in this job sealed it" in line
               for line in refused), result.log_tail(80)
    assert job.steps[("first",)] == job.steps[("later",)] == "failure"
    assert result.returncode != 0
