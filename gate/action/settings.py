"""The composite action's settings: every ``GATE_*`` input ``action.yml`` passes through
``env:``, read once into the one frozen :class:`Settings`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

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
    # gate mode on another run's artifacts (a workflow_run workflow)
    run_id: str = ""
    repository: str = ""
    trusted_dir: str = ""
    # the receipt's attempt folder (gate receipt bootstrap --attempt-id A --dir D)
    receipt_dir: str = ""
    attempt_id: str = ""
    # stamp mode on the recorder route: run only the gated tests, or every collected one
    tests: str = "gated"
    # the signing step (after the stamp step): the artifact the stamps go into
    artifact_name: str = ""
    # stamp mode: the install command, run sealed before the tests (gate stamp --install)
    install: str = ""
    # stamp mode: the isolation level the command runs at, and the user level's user
    isolation: str = "auto"
    isolation_user: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        mode = env.get("GATE_MODE", "gate").strip() or "gate"
        if mode not in ("gate", "stamp", "sign"):  # sign: action.yml's own signing step
            raise GateInputError("mode", "(input)", f"must be gate or stamp, not {mode!r}")
        prefix = env.get("GATE_ARTIFACT_PREFIX", "gate-stamps").strip() or "gate-stamps"
        if not _PREFIX.match(prefix):
            raise GateInputError("artifact-prefix", "(input)",
                                 "letters, digits, '.', '_' and '-' only, at most 64")
        comment = env.get("GATE_COMMENT", "").strip().lower() or "off"
        if comment not in ("off", "on-red", "always"):
            raise GateInputError("comment", "(input)",
                                 f"must be off, on-red or always, not {comment!r}")
        tests = env.get("GATE_TESTS", "").strip().lower() or "gated"
        if tests not in ("gated", "all"):
            raise GateInputError("tests", "(input)", f"must be gated or all, not {tests!r}")
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
            run_id=env.get("GATE_RUN_ID", "").strip(),
            repository=env.get("GATE_REPOSITORY", "").strip(),
            trusted_dir=env.get("GATE_TRUSTED_STAMPS_DIR", "").strip(),
            receipt_dir=env.get("GATE_RECEIPT_DIR", "").strip(),
            attempt_id=env.get("GATE_ATTEMPT_ID", "").strip(),
            tests=tests,
            artifact_name=env.get("GATE_ARTIFACT_NAME", "").strip(),
            install=env.get("GATE_INSTALL", ""),
            isolation=env.get("GATE_ISOLATION", "").strip().lower() or "auto",
            isolation_user=env.get("GATE_ISOLATION_USER", "").strip(),
        )

    @property
    def work_dir(self) -> Path:
        return self.runner_temp / "agent-patch-gate"
