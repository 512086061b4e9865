"""``gate action``: what the composite action runs, configured only through the environment.

``action.yml`` passes every input through ``env:`` (never ``${{ }}`` inside ``run:``); this
module reads them once into a frozen :class:`Settings`, then does one mode's work:

* ``stamp``: run (or record) the test run and write one stamp per manifest property into a
  fresh folder, and name the artifact the next step uploads.
* ``gate``: classify every downloaded stamp, optionally verify a receipt and audit a halt ledger,
  write the JSON report, publish the check run (degrading to workflow-command annotations
  without ``checks: write``), write the job summary and the step outputs, and exit 1 when the
  gate is closed (unless ``fail-on-closed`` is false). The decision never depends on whether
  publishing worked.
"""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.errors import GateInputError

_PREFIX = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_JOB = re.compile(r"[^A-Za-z0-9_-]+")


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw in ("true", "false"):
        return raw == "true"
    raise GateInputError(name, "(input)", f"must be true or false, not {raw!r}")


def _int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if raw == "":
        return None
    if not re.fullmatch(r"-?[0-9]{1,18}", raw):
        raise GateInputError(name, "(input)", f"must be a whole number, not {raw!r}")
    return int(raw)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the action was given, read once from the environment."""

    mode: str
    fail_on_closed: bool
    runner_temp: Path
    job: str
    run_attempt: str
    # stamp mode
    server_class: str
    manifest: str
    root: str
    junit: str
    command: str
    exit_code: int | None
    timeout_seconds: int | None
    artifact_prefix: str
    # gate mode
    stamps_dir: str
    policy: str
    receipt: str
    diff: str
    prompt: str
    model_id: str
    workspace_generation: str
    halt_ledger: str
    check_name: str
    token: str
    now: int | None
    output_file: str
    comment: str = "off"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        mode = env.get("GATE_MODE", "gate").strip() or "gate"
        if mode not in ("gate", "stamp"):
            raise GateInputError("mode", "(input)", f"must be gate or stamp, not {mode!r}")
        prefix = env.get("GATE_ARTIFACT_PREFIX", "gate-stamps").strip() or "gate-stamps"
        if not _PREFIX.match(prefix):
            raise GateInputError("artifact-prefix", "(input)",
                                 "letters, digits, '.', '_' and '-' only, at most 64")
        comment = env.get("GATE_COMMENT", "").strip().lower() or "off"
        if comment not in ("off", "on-red", "always"):
            raise GateInputError("comment", "(input)",
                                 f"must be off, on-red or always, not {comment!r}")
        runner_temp = env.get("RUNNER_TEMP", "").strip()
        if not runner_temp:
            raise GateInputError("RUNNER_TEMP", "(env)", "not set: run this inside a job")
        return cls(
            mode=mode,
            fail_on_closed=_bool(env, "GATE_FAIL_ON_CLOSED", True),
            runner_temp=Path(runner_temp),
            job=_JOB.sub("-", env.get("GITHUB_JOB", "job")) or "job",
            run_attempt=_JOB.sub("-", env.get("GITHUB_RUN_ATTEMPT", "1")) or "1",
            server_class=env.get("GATE_SERVER_CLASS", "").strip(),
            manifest=env.get("GATE_MANIFEST", "").strip() or ".github/gate.yml",
            root=env.get("GATE_ROOT", "").strip() or ".",
            junit=env.get("GATE_JUNIT", "").strip(),
            command=env.get("GATE_COMMAND", ""),
            exit_code=_int(env, "GATE_EXIT_CODE"),
            timeout_seconds=_int(env, "GATE_TIMEOUT_SECONDS"),
            artifact_prefix=prefix,
            stamps_dir=env.get("GATE_STAMPS_DIR", "").strip(),
            policy=env.get("GATE_POLICY", "").strip(),
            receipt=env.get("GATE_RECEIPT", "").strip(),
            diff=env.get("GATE_DIFF", "").strip(),
            prompt=env.get("GATE_PROMPT", "").strip(),
            model_id=env.get("GATE_MODEL_ID", "").strip(),
            workspace_generation=env.get("GATE_WORKSPACE_GENERATION", "").strip(),
            halt_ledger=env.get("GATE_HALT_LEDGER", "").strip(),
            check_name=env.get("GATE_CHECK_NAME", "").strip() or "agent-patch gate",
            token=env.get("GATE_GITHUB_TOKEN", "").strip(),
            now=_int(env, "GATE_NOW"),
            output_file=env.get("GITHUB_OUTPUT", ""),
            comment=comment,
        )

    @property
    def work_dir(self) -> Path:
        return self.runner_temp / "agent-patch-gate"


def _stamp(settings: Settings, gate_main: Callable[[list[str]], int] | None) -> int:
    from gate.github import workflow

    if settings.server_class not in ("local-pinned", "free-server"):
        raise GateInputError("server-class", "(input)",
                             "stamp mode needs server-class local-pinned or free-server")
    unique = secrets.token_hex(4)
    name = (f"{settings.artifact_prefix}-{settings.server_class}-{settings.job}-"
            f"{settings.run_attempt}-{unique}")
    out = settings.work_dir / "stamps-out" / name
    argv = ["stamp", "--manifest", settings.manifest, "--root", settings.root,
            "--server-class", settings.server_class, "--out", str(out),
            "--run-id-prefix", f"{unique}-{settings.job}-{settings.run_attempt}"]
    if settings.junit:
        argv += ["--junit", settings.junit]
    if settings.command.strip():
        if settings.exit_code is not None:
            raise GateInputError("exit-code", "(input)", "give command or exit-code, not both")
        if settings.timeout_seconds is not None:
            argv += ["--timeout", str(settings.timeout_seconds)]
        argv += ["--", "bash", "-c", settings.command]
    elif settings.exit_code is not None:
        argv += ["--exit-code", str(settings.exit_code)]
    else:
        raise GateInputError("command", "(input)",
                             "stamp mode needs a command to run or the exit-code of a test step")
    if gate_main is None:
        raise GateInputError("GATE_MODE", "(env)", "stamp mode runs through `gate action`")
    code = gate_main(argv)
    if code != 0:
        return code
    if settings.output_file:
        workflow.write_outputs(Path(settings.output_file),
                               {"stamps-dir": str(out), "artifact-name": name})
    return 0


def _receipt_section(settings: Settings) -> dict[str, Any] | None:
    companions = (settings.diff, settings.prompt, settings.model_id,
                  settings.workspace_generation)
    if not settings.receipt:
        if any(companions):
            # The workflow asked for a receipt check (e.g. receipt: ${{ steps.x.outputs.path }}
            # that came out empty): a missing receipt rejects, it is not skipped (SPEC §5).
            from gate.decide.receipts import ReceiptResult

            return ReceiptResult(False, ("missing_receipt",)).to_record()
        return None
    missing = [name for name, value in (("diff", settings.diff), ("prompt", settings.prompt),
                                        ("model-id", settings.model_id),
                                        ("workspace-generation", settings.workspace_generation))
               if not value]
    if missing:
        raise GateInputError("receipt", "(input)",
                             "verifying a receipt also needs " + ", ".join(missing))
    from gate.records import load as records

    result = records.verify_receipt_files(Path(settings.receipt), settings.diff,
                                          settings.prompt, settings.model_id,
                                          settings.workspace_generation)
    return result.to_record()


def _halt_section(settings: Settings, pol: Any) -> dict[str, Any] | None:
    if not settings.halt_ledger:
        return None
    from gate.records import ledger

    return ledger.audit(Path(settings.halt_ledger), pol.halt).to_record()


def _gate(settings: Settings, env: Mapping[str, str]) -> int:
    from gate.github import publish, workflow
    from gate.records import load as records
    from gate.records import pairing, policy
    from gate.records.files import is_regular_file

    now = settings.now if settings.now is not None else int(time.time())
    policy_path = Path(settings.policy) if settings.policy else None
    if policy_path is not None and not is_regular_file(policy_path):
        print(workflow.log_line(f"agent-patch gate: no policy file at {policy_path!s:.200}: "
                                "no freezes are granted, and the halt audit uses the default "
                                "scopes and marker"))
        policy_path = None
    pol = policy.load(policy_path)
    if not settings.stamps_dir:
        raise GateInputError("GATE_STAMPS_DIR", "(env)", "not set")
    decisions = pairing.decide_folder(Path(settings.stamps_dir), pol.granting(now), now,
                                      settings.artifact_prefix, pol.issue_of())
    built = pairing.build_report(decisions, now, receipt=_receipt_section(settings),
                                 halt_audit=_halt_section(settings, pol),
                                 max_freeze_days=pol.max_freeze_days)
    report_path = settings.work_dir / f"report-{settings.job}-{settings.run_attempt}.json"
    records.write_report(report_path, built)

    # The decision is made; what follows only shows it and never changes it.
    from gate.github import review

    github_env = {**env, "GITHUB_TOKEN": settings.token}
    view = publish.view_from_env(github_env, policy_path=settings.policy or None,
                                 artifact_prefix=settings.artifact_prefix,
                                 report_artifact=report_artifact(settings))
    url, notes = publish.publish_report(built, github_env, name=settings.check_name, view=view)
    publish.write_summary(built, url, notes, None, github_env, view=view)
    outputs = workflow.report_outputs(built, str(report_path))
    outputs["check-run-url"] = url or ""
    outputs["report-artifact"] = report_artifact(settings)  # action.yml uploads it
    publish.write_outputs(github_env, outputs)
    said = publish.post_comment(built, github_env, name=settings.check_name,
                                mode=settings.comment, view=view)
    if said:
        print(workflow.log_line(said))
    for line in review.log_lines(built):
        print(line)
    counts = built["counts"]
    print(workflow.log_line(f"agent-patch gate: {built['decision']} ({counts['rejected']} "
                            f"rejected, {counts['frozen']} frozen, {counts['accepted']} "
                            f"accepted); JSON report: artifact {report_artifact(settings)}"))
    if built["decision"] == "closed" and settings.fail_on_closed:
        return 1
    return 0


def report_artifact(settings: Settings) -> str:
    """The JSON report's artifact name (action.yml uploads it under this name)."""
    return f"{settings.artifact_prefix}-report-{settings.job}-{settings.run_attempt}"


def bad_input_words(exc: GateInputError, env: Mapping[str, str]) -> str:
    """What went wrong, for people: the artifact pattern that matched nothing, or the file and
    field that is invalid, with the runner's temp folder names taken out."""
    prefix = env.get("GATE_ARTIFACT_PREFIX", "").strip() or "gate-stamps"
    stamps_dir = env.get("GATE_STAMPS_DIR", "").strip()
    if exc.field == "--stamps" and ("no stamps" in exc.message or "no such folder" in exc.message):
        return (f"no stamps found: no artifact matched the pattern {prefix}-*. Is the "
                "artifact-prefix input the same in the stamp jobs and the gate job, and did "
                "every stamp job run and upload its stamps?")
    text = f"{exc.source}: {exc.field}: {exc.message}"
    if stamps_dir:
        text = text.replace(stamps_dir.rstrip("/") + "/", "").replace(stamps_dir,
                                                                      "the stamp artifacts")
    temp = env.get("RUNNER_TEMP", "").strip()
    if temp:
        text = text.replace(temp.rstrip("/"), "$RUNNER_TEMP")
    return text


def _report_bad_input(exc: GateInputError, env: Mapping[str, str]) -> None:
    """Gate mode could not decide: a failure check run, a job summary, an ``::error``."""
    from gate.github import publish, summary, workflow

    what = bad_input_words(exc, env)
    print(workflow.command(workflow.Annotation("error", what,
                                               title="agent-patch gate could not decide")))
    github_env = {**env, "GITHUB_TOKEN": env.get("GATE_GITHUB_TOKEN", "").strip()}
    name = env.get("GATE_CHECK_NAME", "").strip() or "agent-patch gate"
    view = publish.view_from_env(github_env)
    url, notes = publish.publish_error(what, github_env, name=name, view=view)
    target = env.get("GITHUB_STEP_SUMMARY")
    if target:
        import dataclasses

        text = summary.render_error(what, dataclasses.replace(view, check_run_url=url), notes)
        workflow.append_step_summary(Path(target), text)
    publish.write_outputs(github_env, {"decision": "closed", "check-run-url": url or ""})


def run(env: Mapping[str, str] | None = None, *,
        gate_main: Callable[[list[str]], int] | None = None) -> int:
    """One mode's work. Stamp mode runs ``gate stamp`` through ``gate_main`` (the command line's
    entry point, handed in by ``gate action`` so that this module never imports the commands).

    In gate mode, bad input (exit 2) still reports: a ``failure`` check run and a job summary
    that say what went wrong, and an ``::error``; then the error goes on to the command line."""
    environ = os.environ if env is None else env
    gate_mode = (environ.get("GATE_MODE", "gate").strip() or "gate") == "gate"
    try:
        settings = Settings.from_env(environ)
        if settings.mode == "stamp":
            return _stamp(settings, gate_main)
        return _gate(settings, environ)
    except GateInputError as exc:
        if gate_mode:
            _report_bad_input(exc, environ)
        raise
