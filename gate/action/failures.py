"""When a step stops on bad input (exit 2): the words people read, and the surfaces that carry
them (the gate step's failure check run and summary, the stamp steps' ``::error`` and
summary)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gate.action.gate import PairedInputError, _gate_signer
from gate.action.stamp import STAMPS_OUT, fs_fix
from gate.errors import GateInputError


def bad_input_words(exc: GateInputError, env: Mapping[str, str]) -> str:
    """What went wrong, for people: the artifact pattern that matched nothing, or the file and
    field that is invalid, with the runner's temp folder names taken out."""
    prefix = env.get("GATE_ARTIFACT_PREFIX", "").strip() or "gate-stamps"
    stamps_dir = env.get("GATE_STAMPS_DIR", "").strip()
    if exc.field == "--stamps" and ("no stamps" in exc.message or "no such folder" in exc.message):
        stopped = _stamp_failures(stamps_dir)
        if stopped:
            return "no stamps found: " + "; ".join(stopped)
        return (f"no stamps found: no artifact matched the pattern {prefix}-*. Most likely a "
                "stamp job failed before uploading (read its log / summary); otherwise check "
                "that the artifact-prefix input is the same in the stamp jobs and the gate job")
    text = f"{exc.source}: {exc.field}: {exc.message}"
    if stamps_dir:
        text = text.replace(stamps_dir.rstrip("/") + "/", "").replace(stamps_dir,
                                                                      "the stamp artifacts")
    temp = env.get("RUNNER_TEMP", "").strip()
    if temp:
        text = text.replace(temp.rstrip("/"), "$RUNNER_TEMP")
    return text


def _stamp_failures(stamps_dir: str) -> list[str]:
    """The words of every stamp job's failure record downloaded into ``stamps_dir``
    (:mod:`gate.records.stamp_failure`); none when there is no folder or a record is bad."""
    from gate.records import stamp_failure

    if not stamps_dir:
        return []
    try:
        return stamp_failure.words(stamp_failure.read_all(Path(stamps_dir)))
    except GateInputError:
        return []


def _bad_input_signer(env: Mapping[str, str]) -> Any:
    """:func:`_gate_signer` when the policy and the key can still be read, else None (the
    record goes unsigned, and a later attempt that requires it signed stays closed)."""
    from gate.records import policy
    from gate.records.files import is_regular_file

    path = env.get("GATE_POLICY", "").strip()
    try:
        if not path or not is_regular_file(Path(path)):
            return None
        return _gate_signer(env, policy.load(Path(path)))
    except GateInputError:
        return None


def _report_bad_input(exc: GateInputError, env: Mapping[str, str]) -> None:
    """Gate mode could not decide: a failure check run, a job summary, an ``::error``."""
    from gate.github import publish, summary, workflow

    what = bad_input_words(exc, env)
    print(workflow.command(workflow.Annotation("error", what, file=_error_file(exc.source, env),
                                               title="agent-patch gate could not decide")))
    github_env = {**env, "GITHUB_TOKEN": env.get("GATE_GITHUB_TOKEN", "").strip()}
    name = env.get("GATE_CHECK_NAME", "").strip() or "agent-patch gate"
    view = publish.view_from_env(github_env)
    from gate.github import rerun

    signer = _bad_input_signer(env)
    if isinstance(exc, PairedInputError):
        reds, decided = exc.reds, True
    else:  # not paired: still every red stamp that validates (a full re-run must not forget it)
        from gate.records import pairing

        folders = [env.get(n, "").strip() for n in ("GATE_STAMPS_DIR", "GATE_TRUSTED_STAMPS_DIR")]
        reds, decided = pairing.salvage_reds(folders), False
    try:
        record = rerun.record_text(github_env, reds, decided=decided, signer=signer)
    except GateInputError:  # the signing failed (Sigstore): unsigned, a later attempt closes
        record = rerun.record_text(github_env, reds, decided=decided)
    url, notes = publish.publish_error(what, github_env, name=name, view=view, memory=record)
    target = env.get("GITHUB_STEP_SUMMARY")
    if target:
        import dataclasses

        text = summary.render_error(what, dataclasses.replace(view, check_run_url=url), notes)
        workflow.append_step_summary(Path(target), text)
    publish.write_outputs(github_env, {"decision": "closed", "check-run-url": url or ""})


STAMP_FAILED = "agent-patch gate: stamp failed"


def _error_file(source: str, env: Mapping[str, str]) -> str | None:
    """The repository file an error names (the manifest, a card), relative to the checkout,
    or None (an input, a command, a file outside the checkout): where ``::error`` points."""
    from gate.github import workflow

    workspace = env.get("GITHUB_WORKSPACE", "").strip() or os.getcwd()
    absolute = os.path.normpath(os.path.join(os.getcwd(), source))  # relative: to the step's cwd
    path = workflow.repo_path(absolute, workspace)
    if path is None or not (Path(workspace) / path).is_file():
        return None
    return path


def _leave_failure_record(what: str, env: Mapping[str, str]) -> None:
    """The record that tells the gate job why this stamp job wrote no stamps
    (:mod:`gate.records.stamp_failure`), in a fresh folder of its own under the runner's temp
    folder, named in the step's outputs ``failure-dir`` and ``failure-artifact`` for the upload
    step that runs when the job failed. Only shows: a record that cannot be written is one
    stderr line, and the step's own error goes on."""
    import secrets
    import time

    from gate.github import publish, workflow
    from gate.records import stamp_failure

    server_class = env.get("GATE_SERVER_CLASS", "").strip()
    temp = env.get("RUNNER_TEMP", "").strip()
    output = env.get("GITHUB_OUTPUT", "").strip()
    if server_class not in ("local-pinned", "free-server") or not temp or not output:
        return  # no class to speak for, or not under a runner
    prefix = env.get("GATE_ARTIFACT_PREFIX", "").strip() or "gate-stamps"
    job = env.get("GITHUB_JOB", "").strip() or "job"
    attempt = env.get("GITHUB_RUN_ATTEMPT", "").strip() or "1"
    name = f"{prefix}-{server_class}-{job}-{attempt}-failed-{secrets.token_hex(4)}"
    folder = Path(temp) / "agent-patch-gate-stamp-failure" / name  # beside, not inside, the
    # stamps' folder: a file standing there (exit 2) does not stop this record
    try:
        record = stamp_failure.build(
            server_class=server_class, job=job, attempt=int(attempt) if attempt.isdigit() else 1,
            step="sign" if env.get("GATE_MODE", "").strip() == "sign" else "stamp",
            reason=what, written_at=int(time.time()))
        stamp_failure.write(folder, record)
        workflow.write_outputs(Path(output), {"failure-dir": str(folder),
                                              "failure-artifact": name})
    except GateInputError as exc:
        publish.surface_not_written("RUNNER_TEMP", "stamp failure record", exc)


def _report_stamp_failure(exc: GateInputError, env: Mapping[str, str]) -> None:
    """Stamp mode stopped on bad input (exit 2, no stamps): one ``::error`` on the file the
    error names, a job summary, and a failure record for the gate job
    (:func:`_leave_failure_record`), so that the gate job's "no stamps found" has its cause
    beside it."""
    from gate.github import publish, summary, workflow
    from gate.records.redaction import Redactor

    what = Redactor.from_env(env).text(bad_input_words(exc, env))
    _leave_failure_record(what, env)
    print(workflow.command(workflow.Annotation("error", what, file=_error_file(exc.source, env),
                                               title=STAMP_FAILED)))
    target = env.get("GITHUB_STEP_SUMMARY", "").strip()
    if target:
        try:  # the summary only shows the error: the error itself goes on, whatever happens here
            workflow.append_step_summary(Path(target), summary.render_stamp_error(what))
        except GateInputError as summary_exc:
            publish.surface_not_written("GITHUB_STEP_SUMMARY", "job summary", summary_exc)


def stamp_error(exc: BaseException, env: Mapping[str, str]) -> GateInputError | None:
    """What stopped stamp mode, as bad input naming the file, the field and the fix (None: not
    one of these, let it go on): a file-system error on the stamps' folder gets its fix, and an
    error of the operating system, a codec or an interrupt, which ``gate stamp`` leaves to the
    command line's edge, becomes one too, so that it reaches the job's surfaces."""
    temp = env.get("RUNNER_TEMP", "").strip().rstrip("/")

    def in_stamps(path: str) -> bool:
        return bool(temp) and path.startswith(f"{temp}/agent-patch-gate/{STAMPS_OUT}/")

    if isinstance(exc, GateInputError):
        if exc.field == "(file)" and in_stamps(exc.source):
            return GateInputError(exc.source, exc.field, f"{exc.message}; {fs_fix(exc.message)}")
        return exc
    if isinstance(exc, BrokenPipeError):
        return None  # stdout is gone: nothing can be shown
    if isinstance(exc, OSError):
        said = exc.strerror or str(exc)
        where = exc.filename if isinstance(exc.filename, str) else "(file)"
        return GateInputError(where, "(file)", f"{said}; {fs_fix(said, in_stamps(where))}")
    if isinstance(exc, UnicodeError):
        return GateInputError("(input)", "(text)", f"not UTF-8 text ({type(exc).__name__}); a "
                              "file name, an input or a record holds bytes that are not UTF-8")
    if isinstance(exc, ValueError) and "null" in str(exc):
        return GateInputError("(input)", "(path)", "a path holds a NUL character")
    if isinstance(exc, KeyboardInterrupt):
        return GateInputError("gate stamp", "(interrupted)",
                              "stopped before the stamps were written: the job was cancelled "
                              "or reached its timeout-minutes; re-run it (a timeout-seconds "
                              "below the job's timeout-minutes stamps a slow run resource_exit "
                              "instead)")
    return None
