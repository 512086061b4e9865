"""The action's receipt inputs run for real under act (issue 14 class 12, SPEC §5).

The example workflow's gate job gains the steps README.md's "Receipt binder" section tells a
user to add: install the gate, ``gate receipt bootstrap`` (outside the agent) with its
generation as a step output, a reviewer writing the receipt with ``gate receipt write``, and
the ``receipt``, ``receipt-dir``, ``attempt-id``, ``workspace-generation``, ``diff``,
``prompt`` and ``model-id`` inputs of the gate step. The stamps are all green, so the receipt
alone decides whether the gate opens.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import manual
from tests import test_action_act as base
from tests.act.harness import ActResult
from tests.github_double import GitHubDouble
from tests.test_action_act import _project_copy
from tests.test_action_act import _run_example as _run_act_example

double = base.double  # the fixtures: the GitHub API double, the action's locked wheels
wheelhouse = base.wheelhouse

ROOT = Path(__file__).resolve().parent.parent
GATE_STEP = "      - name: Pair the stamps and decide\n"
GATE_INPUTS = "          check-name: agent-patch gate (example)\n"
ATTEMPT = "${{ github.run_id }}-${{ github.run_attempt }}"
MINTED = "${{ steps.attempt.outputs.generation }}"


def _readme_block() -> tuple[str, str]:
    """The attempt step and the gate step's receipt inputs, as README.md's receipt section
    shows them (indented for the example workflow's gate job)."""
    section = manual.section("Receipt binder")
    match = re.search(r"```yaml\n(.*?)```\n", section, re.DOTALL)
    assert match, "the receipt section has no yaml block"
    block = match.group(1)
    step = block.split("\n# ", 1)[0] + "\n"
    assert step.startswith("- id: attempt"), step
    inputs = block.split("  with:\n", 1)[1]
    assert inputs.startswith("    receipt: "), inputs
    return (textwrap.indent(step, " " * 6), textwrap.indent(inputs, " " * 6))


# Around the README's attempt step, in the gate job: the gate installed (as a user installs
# its release, README "Adopt it", step 1: here the wheel of the job's own checkout, built once
# per test process by the gate_wheel fixture rather than by pip in every job) into a venv of
# its own, so the host's Python is left alone; another attempt's folder bootstrapped; the
# agent's patch and prompt; the reviewer writing its receipt in receipts/__FOLDER__.
INSTALL = """\
      - name: Install the gate
        run: |
          python3 -m venv "$RUNNER_TEMP/gate-cli"
          "$RUNNER_TEMP/gate-cli/bin/python" -m pip install --quiet --disable-pip-version-check \\
            "$GATE_WHEEL"
          echo "$RUNNER_TEMP/gate-cli/bin" >> "$GITHUB_PATH"
"""


@pytest.fixture(scope="session")
def gate_wheel(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """The wheel ``pip install .`` builds from a checkout of this repository, built once per
    test process and installed by every receipt run (issue 31: each job built it again, ~5 s
    of each run at load 5; and since the wheel force-includes examples/workflows/
    reusable-caller.yml, which the act tests' checkout copy leaves out, the job's build failed:
    every receipt act test failed at "Install the gate")."""
    source = tmp_path_factory.mktemp("gate-source")
    _project_copy(source)
    # and what the wheel's force-include and shared-scripts name (pyproject.toml), which the
    # act tests' checkout copy leaves out: a user's checkout has them
    shutil.copytree(ROOT / "scripts", source / "scripts")
    (source / "examples" / "workflows").mkdir(parents=True)
    for name in ("python.yml", "reusable-caller.yml"):
        shutil.copy2(ROOT / "examples" / "workflows" / name, source / "examples" / "workflows")
    out = tmp_path_factory.mktemp("gate-wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                           "--no-index", "--find-links", str(wheelhouse),
                           "--disable-pip-version-check", "--wheel-dir", str(out), str(source)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("agent_patch_gate-*.whl")
    return wheel


def _run_example(tmp_path: Path, double: GitHubDouble, wheelhouse: Path, gate_wheel: Path,
                 edit: dict[str, str]) -> ActResult:
    return _run_act_example(tmp_path, double, wheelhouse, edit=edit,
                            env={"GATE_WHEEL": str(gate_wheel)})
REVIEW = """\
      - name: Another attempt's folder
        run: gate receipt bootstrap --attempt-id other --dir receipts
      - name: The agent's patch and the review prompt
        run: |
          printf -- '--- a/x\\n+++ b/x\\n@@ -1 +1 @@\\n-a\\n+b\\n' > patch.diff
          printf 'Review this patch.\\n' > prompt.txt
      - name: The reviewer writes its receipt
        env:
          GENERATION: ${{ steps.attempt.outputs.generation }}
          RECEIPT: receipts/__FOLDER__/receipt.json
        run: |
          echo '["the patch does what the prompt asks"]' > "$RUNNER_TEMP/reasons.json"
          gate receipt write --diff patch.diff --prompt prompt.txt --model reviewer-1 \\
            --workspace-gen "$GENERATION" --verdict pass \\
            --reasons-file "$RUNNER_TEMP/reasons.json" --out "$RECEIPT"
"""
# A receipt already in this attempt's folder before the bootstrap (e.g. shipped by the patch),
# naming the generation minted for that folder then.
STALE = """\
      - name: A receipt left in the attempt folder before the bootstrap
        run: |
          old="$(gate receipt bootstrap --attempt-id "$GITHUB_RUN_ID-$GITHUB_RUN_ATTEMPT" \\
            --dir receipts)"
          printf -- '--- a/x\\n+++ b/x\\n@@ -1 +1 @@\\n-a\\n+b\\n' > patch.diff
          printf 'Review this patch.\\n' > prompt.txt
          echo '["planted"]' > "$RUNNER_TEMP/reasons.json"
          gate receipt write --diff patch.diff --prompt prompt.txt --model reviewer-1 \\
            --workspace-gen "$old" --verdict pass --reasons-file "$RUNNER_TEMP/reasons.json" \\
            --out "receipts/$GITHUB_RUN_ID-$GITHUB_RUN_ATTEMPT/receipt.json"
"""


def _edit(folder: str = ATTEMPT, generation: str = MINTED, before: str = "",
          review: bool = True) -> dict[str, str]:
    """The workflow edits: README's attempt step (after ``before``), the receipt written in
    ``receipts/<folder>``, and README's receipt inputs on the gate step, with ``receipt``
    pointing into ``folder`` and ``workspace-generation: <generation>``."""
    step, inputs = _readme_block()
    assert f"receipt: receipts/{ATTEMPT}/receipt.json\n" in inputs
    assert f"workspace-generation: {MINTED}\n" in inputs
    inputs = (inputs.replace(f"receipt: receipts/{ATTEMPT}/", f"receipt: receipts/{folder}/")
              .replace(f"workspace-generation: {MINTED}\n",
                       f"workspace-generation: {generation}\n"))
    steps = INSTALL + before + step + (REVIEW.replace("__FOLDER__", folder) if review else "")
    return {GATE_STEP: steps + GATE_STEP, GATE_INPUTS: GATE_INPUTS + inputs}


def _report(tmp_path: Path) -> dict[str, object]:
    (path,) = (tmp_path / "artifacts" / "gate-stamps-report-gate-1").rglob("*.json")
    report: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return report


def _refused(result: ActResult, tmp_path: Path, double: GitHubDouble, line: str) -> None:
    """The gate job failed at the gate step, closed by the receipt alone, saying ``line``."""
    assert result.returncode != 0
    gate = result.job("gate")
    assert not gate.succeeded
    assert gate.steps[("gate",)] == "failure", gate.steps
    assert gate.steps[("attempt",)] == "success"  # the receipt was made; the gate refused it
    assert gate.step_output("gate", "decision") == "closed"
    assert gate.step_output("gate", "failure-class") == "none"  # no red test: the receipt
    assert "agent-patch gate: closed (0 rejected, 0 frozen, 3 accepted)" in gate.stdout
    assert f"gate: receipt: {line}\n" in gate.stdout, gate.stdout
    assert f"❌ **reject**: {line}" in html.unescape(gate.summary), gate.summary
    receipt = _report(tmp_path)["receipt"]
    assert isinstance(receipt, dict) and receipt["line"] == line
    (run,) = double.check_runs.values()
    assert run["conclusion"] == "failure"
    assert f"Receipt: reject: {line}" in html.unescape(run["output"]["text"] or "")


def test_a_receipt_in_its_bootstrapped_attempt_folder_opens(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path, gate_wheel: Path) -> None:
    result = _run_example(tmp_path, double, wheelhouse, gate_wheel, edit=_edit())
    assert result.returncode == 0, result.log_tail(120)
    gate = result.job("gate")
    assert gate.succeeded
    generation = gate.step_output("attempt", "generation")
    assert len(generation) == 32 and int(generation, 16) >= 0
    assert gate.step_output("gate", "decision") == "open"
    assert "agent-patch gate: open (0 rejected, 0 frozen, 3 accepted)" in gate.stdout
    assert "### Receipt\n\n✅ **accept**: accept\n" in html.unescape(gate.summary), gate.summary
    assert _report(tmp_path)["receipt"] == {"decision": "accept", "line": "accept",
                                            "mismatches": []}
    assert double.invalid_requests() == []
    (run,) = double.check_runs.values()
    assert run["conclusion"] == "success"
    assert "Receipt: accept: accept" in html.unescape(run["output"]["text"] or "")


def test_a_receipt_in_another_attempts_folder_is_refused(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path, gate_wheel: Path) -> None:
    """The receipt names this attempt's generation but sits in ``receipts/other``, a folder
    bootstrapped for another attempt: not directly inside ``receipt-dir``/``attempt-id``."""
    result = _run_example(tmp_path, double, wheelhouse, gate_wheel, edit=_edit(folder="other"))
    _refused(result, tmp_path, double, "reject: receipt_location")


def test_a_generation_other_than_the_minted_one_is_refused(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path, gate_wheel: Path) -> None:
    """The workspace-generation input names a generation nobody minted for this attempt."""
    result = _run_example(tmp_path, double, wheelhouse, gate_wheel,
                          edit=_edit(generation="0123456789abcdef0123456789abcdef"))
    _refused(result, tmp_path, double, "reject: workspace_generation")


def test_a_refused_bootstrap_fails_the_step_before_the_gate(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path, gate_wheel: Path) -> None:
    """README's attempt step keeps the bootstrap's exit status: a folder that already holds a
    receipt is refused (exit 2), the job stops there, and the receipt in it is never read."""
    result = _run_example(tmp_path, double, wheelhouse, gate_wheel,
                          edit=_edit(before=STALE, review=False))
    assert result.returncode != 0
    gate = result.job("gate")
    assert not gate.succeeded
    assert gate.steps[("attempt",)] == "failure", gate.steps
    assert gate.steps.get(("gate",)) in (None, "skipped"), gate.steps  # it never ran
    assert double.check_runs == {}
    assert any("already holds 'receipt.json': an attempt folder with a receipt is never "
               "bootstrapped again" in line for line in result.log.splitlines())
