"""The composite action run for real under act: the repository's own example workflow.

A matrix job stamps the example properties once per server class (``mode: stamp``) and uploads
the stamps; the gate job downloads them, classifies every pair, publishes a check run to the
GitHub API double on 127.0.0.1, writes the job summary and sets outputs. The two artifact
actions are replaced by the local stand-ins in tests/act/standins/ (they copy files through a
folder); everything else -- action.yml, its Python set-up with the hash-locked requirements,
``gate action`` -- is what a user's runner executes.
"""

from __future__ import annotations

import fcntl
import html
import json
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.act.harness import STANDINS_DIR, ActResult, run_act
from tests.act.once import DoubleState, once_per_session
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.wheelhouse import prepare as prepare_wheelhouse

ROOT = Path(__file__).resolve().parent.parent
HEAD_SHA = "a" * 40
SETUP_PYTHON = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065"
FOUR = re.compile(
    r"^fixture_sha256=(?:[0-9a-f]{64}|none)\nfailure_class=(?:property_miss|fixture_drift|"
    r"harness_flake|unclassified|none)\nfreeze_allowed=(?:true|false)\nfixture_path=.+$",
    re.MULTILINE,
)


@pytest.fixture(scope="session")
def wheelhouse() -> Path:
    """The action's locked wheels, the pinned uv wheel and the build back-end, so every pip in
    the act runs works offline: ``$GATE_WHEELHOUSE`` or a cache folder, filled once
    (tests/wheelhouse.py; .ci/run prepares it the same way)."""
    return prepare_wheelhouse()


@dataclass(frozen=True)
class SharedAction:
    """One copy of this action and one venv root for every act run of a pytest session that
    maps the action's ``uses:`` ref to a folder (``act --local-repository``).

    act copies a mapped action into a new random folder for every job, and the set-up step
    names its environment after the action's folder (requirements/installer.py: the venv's
    ``.pth`` names it), so each job built its own venv (~3-4 s of a job's set-up step).
    Through :meth:`mapped` each job's copy of the action holds its own ``action.yml`` and
    ``.github`` and links to this copy's files: the installer resolves its own path
    (``requirements/installer.py``) to ``action``, and every job of the session names, builds
    once and then verifies the same environment under ``venv_root``
    (``AGENT_PATCH_GATE_VENV_ROOT``, taken in turns under the installer's own ``flock``).
    Every step still runs: the set-up step verifies the venv against its manifest and seals
    it, the gate's Python imports the action's code from ``action`` (on the venv's path, so
    the seal lists it), the namespace level binds it read-only.

    Not for a test that plants files in the venv or changes the action (it works on a private
    copy: no ``shared``), nor for ``uses: ./`` (the action is the job's checkout)."""

    action: Path
    venv_root: Path

    @property
    def env(self) -> dict[str, str]:
        return {"AGENT_PATCH_GATE_VENV_ROOT": str(self.venv_root)}

    def mapped(self, dest: Path) -> Path:
        """``dest`` made the folder act copies for a job: ``action.yml`` and ``.github``
        copied, every other entry a link into :attr:`action`."""
        dest.mkdir()
        for entry in sorted(self.action.iterdir()):
            if entry.name in ("action.yml", ".github"):
                if entry.is_dir():
                    shutil.copytree(entry, dest / entry.name)
                else:
                    shutil.copy2(entry, dest / entry.name)
            else:
                (dest / entry.name).symlink_to(entry)
        return dest


@pytest.fixture(scope="session")
def shared_action(tmp_path_factory: pytest.TempPathFactory) -> SharedAction:
    """The session's :class:`SharedAction`, made once for all pytest-xdist workers (the
    folder above a worker's base temporary folder is the session's; a ``flock`` makes the
    others wait for the first)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / "gate-shared-action"
    shared = SharedAction(action=folder / "action", venv_root=folder / "venvs")
    with (base / "gate-shared-action.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / ".made").is_file():
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir(mode=0o700)
            shared.action.mkdir()
            _project_copy(shared.action)
            shared.venv_root.mkdir(mode=0o700)
            (folder / ".made").touch()
    return shared


def _project_copy(dest: Path) -> Path:
    """The files a user's checkout of this action has, plus the example workflow."""
    for name in ("action.yml", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "junit.xml")
    for folder in ("gate", "schemas", "requirements"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=ignore)
    (dest / ".github" / "workflows").mkdir(parents=True)
    shutil.copy2(ROOT / ".github" / "workflows" / "example.yml",
                 dest / ".github" / "workflows" / "example.yml")
    return dest / ".github" / "workflows" / "example.yml"


@pytest.fixture
def double() -> Iterator[GitHubDouble]:
    with GitHubDouble(accept_any_token=False) as server:
        yield server


def _run_example(tmp_path: Path, double: GitHubDouble, wheelhouse: Path,
                 fail: str = "", edit: dict[str, str] | None = None,
                 env: dict[str, str] | None = None, job: str | None = None) -> ActResult:
    work = tmp_path / "repo"
    work.mkdir()
    workflow = _project_copy(work)
    if edit:  # a user's mistake, made in the copied example workflow
        text = workflow.read_text(encoding="utf-8")
        for old, new in edit.items():
            assert old in text, old
            text = text.replace(old, new)
        workflow.write_text(text, encoding="utf-8")
    payload: dict[str, Any] = {
        "number": 7,
        "pull_request": {"number": 7, "head": {"sha": HEAD_SHA, "ref": "agent/patch"}},
    }
    return run_act(
        work, workflow, event="pull_request", event_payload=payload,
        env={
            "GITHUB_API_URL": double.base_url,
            "PIP_FIND_LINKS": str(wheelhouse),
            "PIP_NO_INDEX": "1",
            # the pinned uv from the wheelhouse (absent there: pip installs)
            "AGENT_PATCH_GATE_UV_URL": wheelhouse.as_uri(),
            "GATE_EXAMPLE_FAIL": fail,
            **(env or {}),
        },
        job=job,
        secrets={"GITHUB_TOKEN": WRITE_TOKEN},
        artifacts_dir=tmp_path / "artifacts",
        timeout=900,
        repository="acme/gate-example",
        extra_args=["--local-repository", f"{SETUP_PYTHON}={STANDINS_DIR / 'setup-python'}"],
    )


@dataclass(frozen=True)
class ExampleRun:
    """One act run of the example workflow, its GitHub double's state and its artifacts
    folder."""

    result: ActResult
    double: DoubleState
    artifacts: Path


def _example_run(tmp_path_factory: pytest.TempPathFactory, name: str, wheelhouse: Path,
                 **kwargs: Any) -> ExampleRun:
    """``_run_example(**kwargs)`` once per pytest session (:func:`once_per_session`)."""
    def run(tmp: Path) -> ExampleRun:
        with GitHubDouble(accept_any_token=False) as double:
            result = _run_example(tmp, double, wheelhouse, **kwargs)
        return ExampleRun(result, DoubleState.of(double), tmp / "artifacts")

    return once_per_session(tmp_path_factory, name, run)


GATE_JOB = "  gate:\n    name: gate\n"
CHECK_NAME = "agent-patch gate (example)"


def gate_job_copy(job: str, edit: dict[str, str]) -> dict[str, str]:
    """The edit of the example workflow that adds, after its gate job, a copy of it as job
    ``job`` with ``edit`` made in it and its own check-name, ``<the example's> <job>``: a
    scenario that differs only in the gate job reads the stamps of the same stamp jobs."""
    text = (ROOT / ".github" / "workflows" / "example.yml").read_text(encoding="utf-8")
    gate = GATE_JOB + text.partition(GATE_JOB)[2]
    assert gate != GATE_JOB, "the example workflow's gate job moved"
    copy = gate.replace(GATE_JOB, f"  {job}:\n    name: {job}\n")
    for old, new in {**edit, f"check-name: {CHECK_NAME}\n":
                     f"check-name: {CHECK_NAME} {job}\n"}.items():
        assert copy.count(old) == 1, old
        copy = copy.replace(old, new)
    return {gate: gate + "\n" + copy}


@pytest.fixture(scope="module")
def green_example(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> ExampleRun:
    """The example workflow as it is (every property green), run once for the tests that each
    read a part of that same run: the gate job's outputs and check run, the stamps."""
    return _example_run(tmp_path_factory, "gate-green-example", wheelhouse)


MISTYPED_PREFIX = "gate-stmps"


@pytest.fixture(scope="module")
def closed_example(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> ExampleRun:
    """The example workflow with parser_round_trip red in both classes, plus a second gate
    job, ``gate-stmps``, whose artifact-prefix is mistyped (it matches no artifact, so what it
    says does not depend on the stamps; issue 31: it had an act run of its own)."""
    return _example_run(tmp_path_factory, "gate-closed-example", wheelhouse,
                        fail="parser_round_trip", edit=gate_job_copy(MISTYPED_PREFIX, {
                            "          mode: gate\n":
                            "          mode: gate\n          artifact-prefix: gate-stmps\n"}))


def _gate_outputs(result: ActResult) -> dict[str, str]:
    gate = result.job("gate")
    return gate.outputs.get("gate", {})


def test_open_gate_under_act(green_example: ExampleRun) -> None:
    result, double = green_example.result, green_example.double
    assert result.returncode == 0, result.log_tail(120)
    for server_class in ("local-pinned", "free-server"):
        stamp = result.job("stamp", {"server-class": server_class})
        assert stamp.succeeded, stamp.result
    # Two stamp artifacts, one per class, three stamps each, and the JSON report.
    artifacts = sorted(p.name for p in green_example.artifacts.iterdir())
    assert len(artifacts) == 3 and all(a.startswith("gate-stamps-") for a in artifacts)
    assert "gate-stamps-report-gate-1" in artifacts
    for folder in green_example.artifacts.iterdir():
        if folder.name != "gate-stamps-report-gate-1":
            assert len(list(folder.rglob("*.json"))) == 3
    (report,) = (green_example.artifacts / "gate-stamps-report-gate-1").rglob("*.json")
    assert json.loads(report.read_text(encoding="utf-8"))["decision"] == "open"

    gate = result.job("gate")
    assert gate.succeeded
    assert FOUR.findall(gate.summary) == []  # green pairs: no failure class shown
    assert "all 3 tests green in both classes" in gate.summary
    assert "JSON report: artifact `gate-stamps-report-gate-1`" in gate.summary
    for test_id in ("parser&#95;round&#95;trip", "tokenizer&#95;total", "lexer&#95;unicode"):
        assert test_id in gate.summary
    outputs = _gate_outputs(result)
    assert outputs["decision"] == "open"
    assert outputs["failure-class"] == "none"  # every pair green: nothing to classify
    assert outputs["check-run-url"].startswith("http")

    assert double.invalid_requests() == []
    assert double.count("create_check_run") == 1
    assert double.count("update_check_run") == 0
    (run,) = double.check_runs.values()
    assert run["head_sha"] == HEAD_SHA
    assert run["conclusion"] == "success"
    assert run["name"] == "agent-patch gate (example)"


def test_closed_gate_fails_the_step(closed_example: ExampleRun) -> None:
    result, double = closed_example.result, closed_example.double
    assert result.returncode != 0
    gate = result.job("gate")
    assert not gate.succeeded
    assert len(FOUR.findall(gate.summary)) == 1  # once per red pair
    assert "gate: rejected: parser_round_trip: reject_stable_fail (red in both server classes)" in (
        gate.stdout)
    outputs = _gate_outputs(result)
    assert outputs["decision"] == "closed"
    assert outputs["failure-class"] == "property_miss"
    assert outputs["freeze-allowed"] == "false"
    assert double.invalid_requests() == []
    assert double.count_named("create_check_run", CHECK_NAME) == 1  # the gate job's
    (run,) = double.runs_named(CHECK_NAME)
    assert run["conclusion"] == "failure"
    assert len(run["annotations"]) == 1
    assert run["annotations"][0]["annotation_level"] == "failure"
    save = os.environ.get("GATE_RENDER_DIR")  # to look at it: render these with a browser
    if save:
        Path(save).mkdir(parents=True, exist_ok=True)
        (Path(save) / "act-summary.md").write_text(gate.summary, encoding="utf-8")
        (Path(save) / "act-check-run.md").write_text(
            f"# {run['output']['title']}\n\n{run['output']['summary']}\n\n"
            f"{run['output'].get('text') or ''}", encoding="utf-8")
    # root: gate/examples, yet the annotation names the file in the repository, at the test.
    assert run["annotations"][0]["path"] == "gate/examples/tests/test_parser.py"
    assert run["annotations"][0]["start_line"] == 67
    assert "def test_round_trip(" in (
        ROOT / "gate/examples/tests/test_parser.py").read_text().splitlines()[66]
    summary = html.unescape(run["output"]["summary"])
    assert "failure_class=property_miss" in summary
    assert "**What happened:** red in both server classes." in summary
    assert "**Next step:** a real property miss" in summary


COMMAND = "command: cd gate/examples && python -m pytest\n"


def test_the_example_stamps_on_the_recorder_route(green_example: ExampleRun) -> None:
    """The README's route: the recorder applied each card in both classes (one seed, the
    card's cases), so both classes ran the same examples; no notice that cards were only
    hashed; each stamp job's summary says so."""
    result = green_example.result
    assert result.returncode == 0, result.log_tail(120)
    stamps: dict[str, dict[str, Any]] = {}
    for path in green_example.artifacts.glob("gate-stamps-*-stamp-*/**/*.json"):
        stamp = json.loads(path.read_text(encoding="utf-8"))
        stamps[f"{stamp['server_class']} {stamp['test_id']}"] = stamp
    cards = {"parser_round_trip": (7, 32), "tokenizer_total": (11, 64), "lexer_unicode": (3, 16)}
    assert len(stamps) == 6
    for test_id, (seed, cases) in cards.items():
        local, free = stamps[f"local-pinned {test_id}"], stamps[f"free-server {test_id}"]
        for stamp in (local, free):
            assert (stamp["outcome"], stamp["source"]) == ("pass", "pytest-recorder")
            assert (stamp["hypothesis"]["seed"], stamp["hypothesis"]["max_examples"]) == (
                seed, cases)
        assert local["hypothesis"] == free["hypothesis"]
    for server_class in ("local-pinned", "free-server"):
        leg = result.job("stamp", {"server-class": server_class})
        assert "::notice" not in leg.stdout
        assert f"## 📦 agent-patch gate: 3 {server_class} stamps written" in leg.summary
        assert "the gate's recorder applied the 3 sample cards" in leg.summary


def test_a_stamp_command_that_cannot_start_names_the_cause(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path) -> None:
    """On the JUnit route, the free-server leg's command fails before any test runs (no JUnit
    report)."""
    result = _run_example(tmp_path, double, wheelhouse, edit={
        COMMAND:
        "command: cd gate/examples && python -m ${{ matrix.server-class == 'free-server' && "
        "'no_such_pytest' || 'pytest' }} --junitxml=junit.xml\n"
        "          junit: gate/examples/junit.xml\n"})
    gate = result.job("gate")
    assert not gate.succeeded
    (run,) = double.check_runs.values()
    assert run["conclusion"] == "failure"
    summary = html.unescape(run["output"]["summary"])
    cause = "the test command failed before writing a report: exit code 1; no JUnit report"
    # said once, in the common cause; each of the three blocks points to it (4104ea7)
    assert summary.count(cause) == 1, summary
    assert summary.count("re-run the free-server stamp job") == 1
    assert summary.count("❌ free-server: no result (resource exit) — the common cause above") == 3
    assert all(cause in note["message"] for note in run["annotations"])
    assert cause in html.unescape(gate.summary)
    assert gate.stdout.count("reject_run_retry_new_id") >= 3


def test_a_collection_error_is_advised_fix_not_rerun(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path) -> None:
    """The newcomer trial's case: on the free server a test file cannot be imported (pytest
    exits 2 after collection). Deterministic, so the reviewer is told to fix the collection."""
    result = _run_example(tmp_path, double, wheelhouse, edit={
        COMMAND:
        "command: cd gate/examples && ${{ matrix.server-class == 'free-server' && "
        "'echo import no_such_module > tests/test_zz_broken.py &&' || '' }} "
        "python -m pytest\n"})
    gate = result.job("gate")
    assert not gate.succeeded
    (run,) = double.check_runs.values()
    assert run["conclusion"] == "failure"
    summary = html.unescape(run["output"]["summary"])
    assert "the test collection failed before the test could run" in summary
    assert ("**Common cause — 3 tests:** in free-server, no test ran: exit code 2; did not run: "
            "the test collection failed (tests.test_zz_broken). Fix the test collection (see the "
            "free-server stamp job's log); a re-run fails the same way.") in summary, summary
    assert summary.count("For this test, the local-pinned run collected it") == 3
    assert "re-run the free-server stamp job" not in summary.lower()
    assert all("fix the test collection" in note["message"] for note in run["annotations"])
    assert "Fix the test collection" in html.unescape(gate.summary)


def test_a_mistyped_artifact_prefix_publishes_a_failure_check_run(
        closed_example: ExampleRun) -> None:
    """The gate job ``gate-stmps`` of the closed run (the one whose prefix is mistyped)."""
    gate = closed_example.result.job(MISTYPED_PREFIX)
    assert not gate.succeeded
    (run,) = closed_example.double.runs_named(f"{CHECK_NAME} {MISTYPED_PREFIX}")
    assert run["conclusion"] == "failure" and run["head_sha"] == HEAD_SHA
    assert "no artifact matched the pattern gate-stmps-*" in run["output"]["title"]
    assert "could not decide" in gate.summary
    assert any(note.level == "error" and "no stamps found" in note.message
               for note in gate.annotations), gate.annotations
    assert "/tmp/" not in run["output"]["summary"]


def test_a_mistyped_manifest_fails_the_stamp_jobs_with_their_cause(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path) -> None:
    """The newcomer trial: the stamp jobs stop on a manifest typo (exit 2, no stamps). Each says
    so in an ::error and its summary; the gate job's 'no stamps found' names a failed stamp job
    first."""
    result = _run_example(tmp_path, double, wheelhouse, edit={
        "manifest: gate/examples/manifest.yml": "manifest: gate/examples/manifest.yaml"})
    for leg in ("local-pinned", "free-server"):
        stamp_job = result.job("stamp", {"server-class": leg})
        assert not stamp_job.succeeded
        failed = [note for note in stamp_job.annotations if note.level == "error"
                  and note.properties.get("title") == "agent-patch gate: stamp failed"]
        assert len(failed) == 1 and "manifest.yaml" in failed[0].message, stamp_job.annotations
        assert "agent-patch gate: stamp failed" in stamp_job.summary
        assert "the gate job will find none" in stamp_job.summary
    gate = result.job("gate")
    assert not gate.succeeded
    (run,) = double.check_runs.values()
    # issue 29 item 4: each stamp job's failure record reaches the gate job, per class
    said = html.unescape(run["output"]["summary"])
    for leg in ("local-pinned", "free-server"):
        assert f"the {leg} stamp job (stamp, attempt 1) wrote no stamps: its stamp step " \
            "stopped: gate/examples/manifest.yaml" in said, said
    assert "artifact-prefix" not in said
