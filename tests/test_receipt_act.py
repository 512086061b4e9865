"""The action's receipt inputs run for real under act (issue 14 class 12, SPEC §5).

The example workflow's gate job gains the steps README.md's "Receipt binder" section tells a
user to add: install the gate, ``gate receipt bootstrap`` (outside the agent) with its
generation as a step output, a reviewer writing the receipt with ``gate receipt write``, and
the ``receipt``, ``receipt-dir``, ``attempt-id``, ``workspace-generation``, ``diff``,
``prompt`` and ``model-id`` inputs of the gate step. The stamps are all green, so the receipt
alone decides whether the gate opens. One act run holds the four scenarios, each its own copy
of the gate job (:func:`_gate_jobs`).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import manual
from tests import test_action_act as base
from tests.act.harness import ActResult
from tests.act.once import DoubleState, once_per_session
from tests.github_double import GitHubDouble
from tests.test_action_act import _project_copy
from tests.test_action_act import _run_example as _run_act_example

wheelhouse = base.wheelhouse  # the fixture: the action's locked wheels

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


# Around the README's attempt step, in each gate job: the gate installed (as a user installs
# its release, README "Adopt it", step 1: here the wheel of this repository's checkout,
# installed once per pytest session by the gate_cli fixture into a venv of its own, so the
# host's Python is left alone, and put on the job's PATH); another attempt's folder
# bootstrapped; the agent's patch and prompt; the reviewer writing its receipt in
# receipts/__FOLDER__.
INSTALL = """\
      - name: Install the gate
        run: echo "$GATE_CLI/bin" >> "$GITHUB_PATH"
"""


def gate_wheel(tmp: Path, wheelhouse: Path) -> Path:
    """The wheel ``pip install .`` builds from a checkout of this repository, built in ``tmp``
    (issue 31: each job built it again, ~5 s of each run at load 5; and since the wheel
    force-includes examples/workflows/reusable-caller.yml, which the act tests' checkout copy
    leaves out, the job's build failed: every receipt act test failed at "Install the
    gate")."""
    source = tmp / "gate-source"
    source.mkdir()
    _project_copy(source)
    # and what the wheel's force-include and shared-scripts name (pyproject.toml), which the
    # act tests' checkout copy leaves out: a user's checkout has them
    shutil.copytree(ROOT / "scripts", source / "scripts")
    (source / "examples" / "workflows").mkdir(parents=True)
    for name in ("python.yml", "reusable-caller.yml"):
        shutil.copy2(ROOT / "examples" / "workflows" / name, source / "examples" / "workflows")
    out = tmp / "gate-wheel"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                           "--no-index", "--find-links", str(wheelhouse),
                           "--disable-pip-version-check", "--wheel-dir", str(out), str(source)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("agent_patch_gate-*.whl")
    return wheel


def gate_cli(tmp: Path, wheelhouse: Path) -> Path:
    """A venv in ``tmp`` holding the gate installed from its wheel with its dependencies, as
    ``pip install <the release>`` installs it (issue 31: each gate job made this venv and
    installed the wheel into it again, ~8 s of CPU a job)."""
    wheel = gate_wheel(tmp, wheelhouse)
    venv = tmp / "gate-cli"
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                           "install", "--quiet", "--disable-pip-version-check", "--no-index",
                           "--find-links", str(wheelhouse), str(wheel)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (venv / "bin" / "gate").is_file()
    return venv


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


# The four scenarios, one gate job each of one act run: the stamp jobs run once and every
# gate job downloads their stamps (issue 31: four act runs of the whole workflow, 40-70 s each
# at load 2-4). Each job has its own workspace (its own receipts folder), its own check-name
# (its own check run on the double) and its own report artifact
# (``gate-stamps-report-<job>-1``); what a test read of "the run" it reads of its own job.
OPENS, ELSEWHERE, UNMINTED, REBOOTSTRAPPED = ("gate", "gate-elsewhere", "gate-unminted",
                                              "gate-rebootstrapped")
GATE_JOB = "  gate:\n    name: gate\n"


def _scenarios() -> dict[str, dict[str, str]]:
    return {
        OPENS: _edit(),
        # the receipt names this attempt's generation but sits in receipts/other
        ELSEWHERE: _edit(folder="other"),
        # the workspace-generation input names a generation nobody minted for this attempt
        UNMINTED: _edit(generation="0123456789abcdef0123456789abcdef"),
        # a receipt already in the attempt folder before README's attempt step
        REBOOTSTRAPPED: _edit(before=STALE, review=False),
    }


def check_name(job: str) -> str:
    """The ``check-name`` of ``job``'s gate step: the example's own for :data:`OPENS`."""
    return "agent-patch gate (example)" + ("" if job == OPENS else f" {job}")


def _gate_jobs(workflow: str) -> dict[str, str]:
    """The edit of the example workflow that makes its gate job the four scenario jobs."""
    head, sep, gate = workflow.partition(GATE_JOB)
    assert sep and head.endswith("\n\n"), "the example workflow's gate job moved"
    jobs = []
    for job, edit in _scenarios().items():
        text = GATE_JOB + gate
        for old, new in edit.items():
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        text = (text.replace(GATE_JOB, f"  {job}:\n    name: {job}\n")
                .replace(GATE_INPUTS, f"          check-name: {check_name(job)}\n"))
        jobs.append(text)
    return {GATE_JOB + gate: "\n".join(jobs)}


@dataclass(frozen=True)
class ReceiptRun:
    """The one act run of the four scenarios: its result, the double's state, its artifacts."""

    result: ActResult
    double: DoubleState
    artifacts: Path

    def report(self, job: str) -> dict[str, object]:
        (path,) = (self.artifacts / f"gate-stamps-report-{job}-1").rglob("*.json")
        report: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
        return report

    def check_run(self, job: str) -> dict[str, Any]:
        """``job``'s one check run."""
        (run,) = self.double.runs_named(check_name(job))
        return run

    def job_log(self, job: str) -> list[str]:
        """The lines act logged for ``job``."""
        return [str(rec.get("msg", "")) for rec in self.result.records
                if rec.get("jobID") == job]


@pytest.fixture(scope="module")
def receipt_run(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> ReceiptRun:
    def run(folder: Path) -> ReceiptRun:
        cli = gate_cli(folder, wheelhouse)
        workflow = (ROOT / ".github" / "workflows" / "example.yml").read_text(encoding="utf-8")
        with GitHubDouble(accept_any_token=False) as double:
            result = _run_act_example(folder, double, wheelhouse, edit=_gate_jobs(workflow),
                                      env={"GATE_CLI": str(cli)})
        return ReceiptRun(result, DoubleState.of(double), folder / "artifacts")

    return once_per_session(tmp_path_factory, "gate-receipt-run", run)


def _refused(run: ReceiptRun, job: str, line: str) -> None:
    """``job`` failed at the gate step, closed by the receipt alone, saying ``line``."""
    assert run.result.returncode != 0
    gate = run.result.job(job)
    assert not gate.succeeded
    assert gate.steps[("gate",)] == "failure", gate.steps
    assert gate.steps[("attempt",)] == "success"  # the receipt was made; the gate refused it
    assert gate.step_output("gate", "decision") == "closed"
    assert gate.step_output("gate", "failure-class") == "none"  # no red test: the receipt
    assert "agent-patch gate: closed (0 rejected, 0 frozen, 3 accepted)" in gate.stdout
    assert f"gate: receipt: {line}\n" in gate.stdout, gate.stdout
    assert f"❌ **reject**: {line}" in html.unescape(gate.summary), gate.summary
    receipt = run.report(job)["receipt"]
    assert isinstance(receipt, dict) and receipt["line"] == line
    check = run.check_run(job)
    assert check["conclusion"] == "failure"
    assert f"Receipt: reject: {line}" in html.unescape(check["output"]["text"] or "")


def test_a_receipt_in_its_bootstrapped_attempt_folder_opens(receipt_run: ReceiptRun) -> None:
    result = receipt_run.result
    # the run of this scenario (the two stamp legs and its gate job) succeeded
    for leg in ("local-pinned", "free-server"):
        assert result.job("stamp", {"server-class": leg}).succeeded, result.log_tail(120)
    gate = result.job(OPENS)
    assert gate.succeeded, result.log_tail(120)
    generation = gate.step_output("attempt", "generation")
    assert len(generation) == 32 and int(generation, 16) >= 0
    assert gate.step_output("gate", "decision") == "open"
    assert "agent-patch gate: open (0 rejected, 0 frozen, 3 accepted)" in gate.stdout
    assert "### Receipt\n\n✅ **accept**: accept\n" in html.unescape(gate.summary), gate.summary
    assert receipt_run.report(OPENS)["receipt"] == {"decision": "accept", "line": "accept",
                                                    "mismatches": []}
    assert receipt_run.double.invalid_requests() == []
    run = receipt_run.check_run(OPENS)
    assert run["conclusion"] == "success"
    assert "Receipt: accept: accept" in html.unescape(run["output"]["text"] or "")


def test_a_receipt_in_another_attempts_folder_is_refused(receipt_run: ReceiptRun) -> None:
    """The receipt names this attempt's generation but sits in ``receipts/other``, a folder
    bootstrapped for another attempt: not directly inside ``receipt-dir``/``attempt-id``."""
    _refused(receipt_run, ELSEWHERE, "reject: receipt_location")


def test_a_generation_other_than_the_minted_one_is_refused(receipt_run: ReceiptRun) -> None:
    """The workspace-generation input names a generation nobody minted for this attempt."""
    _refused(receipt_run, UNMINTED, "reject: workspace_generation")


def test_a_refused_bootstrap_fails_the_step_before_the_gate(receipt_run: ReceiptRun) -> None:
    """README's attempt step keeps the bootstrap's exit status: a folder that already holds a
    receipt is refused (exit 2), the job stops there, and the receipt in it is never read."""
    result = receipt_run.result
    assert result.returncode != 0
    gate = result.job(REBOOTSTRAPPED)
    assert not gate.succeeded
    assert gate.steps[("attempt",)] == "failure", gate.steps
    assert gate.steps.get(("gate",)) in (None, "skipped"), gate.steps  # it never ran
    assert receipt_run.double.runs_named(check_name(REBOOTSTRAPPED)) == []
    assert any("already holds 'receipt.json': an attempt folder with a receipt is never "
               "bootstrapped again" in line for line in receipt_run.job_log(REBOOTSTRAPPED))
