"""``gate action``: what the composite action runs, configured only through the environment.

``action.yml`` passes every input through ``env:`` (never ``${{ }}`` inside ``run:``); this
module reads them once into a frozen :class:`Settings`, then does one mode's work:

* ``stamp``: run (or record) the test run and write one stamp per manifest property into a
  fresh folder, and name the artifact the next step uploads. With ``command`` and no
  ``junit`` the command runs pytest and the gate's recorder applies the sample cards in it
  (``gate stamp --pytest``), running only the tests the manifest gates unless ``tests`` is
  ``all``; with ``junit`` or ``exit-code`` the cards are only hashed (one notice line says
  so) and the command runs what it names.
* ``gate``: classify every downloaded stamp (with ``run-id``: another run's, see
  :func:`foreign_run`), optionally verify a receipt and audit a halt ledger,
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
_HEX40 = re.compile(r"^[0-9a-fA-F]{40}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$")
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
        )

    @property
    def work_dir(self) -> Path:
        return self.runner_temp / "agent-patch-gate"


#: Stamp mode through JUnit or a recorded exit code: what the user gives up (one notice).
NOT_APPLIED = ("stamp mode with junit or exit-code: the sample cards are hashed into the "
               "stamps, not applied (each class draws its own Hypothesis examples); give only "
               "command, running pytest, to have the gate's recorder apply them")


#: Where stamp mode's stamps go: a fresh folder per step under ``$RUNNER_TEMP``.
STAMPS_OUT = "stamps-out"

#: The fix for a file-system error, by what the error says (first match): (the signs, the fix
#: on the stamps' folder, the fix on any other file).
_FS_FIXES = (
    (("already exists", "File exists"),
     "stamps are write-once, so the gate never writes into a stamp or folder it did not just "
     "make; remove it from the runner's temp folder (a self-hosted runner keeps $RUNNER_TEMP "
     "between jobs: clean it) and re-run the job",
     "the gate never overwrites a file; remove it and re-run the job"),
    (("not a folder", "Not a directory"),
     "a file stands where the stamps' folder must be ($RUNNER_TEMP/agent-patch-gate/"
     f"{STAMPS_OUT}/...); remove that file from the runner's temp folder and re-run the job",
     "a file stands where a folder of that path must be; remove it and re-run the job"),
    (("Permission denied", "Operation not permitted", "Read-only file system"),
     "the runner's user must be able to write $RUNNER_TEMP (on a self-hosted runner, check "
     "the owner, mode and mount of its temp folder), then re-run the job",
     "the runner's user must be able to read and write it (check its owner, mode and mount), "
     "then re-run the job"),
    (("No space left", "quota exceeded"),
     "free space in the runner's temp folder ($RUNNER_TEMP), then re-run the job",
     "free space on the file system that holds it, then re-run the job"),
)
_FS_FIX = (f"the stamps go to a fresh folder under $RUNNER_TEMP/agent-patch-gate/{STAMPS_OUT}, "
           "which the runner's user must be able to create and write; fix that, then re-run "
           "the job",
           "the operating system refused the file it names; fix that, then re-run the job")


def fs_fix(said: str, stamps: bool = True) -> str:
    """The fix for a file-system error, from its words: on the stamps' folder (``stamps``) or on
    another file."""
    for signs, on_stamps, elsewhere in _FS_FIXES:
        if any(sign in said for sign in signs):
            return on_stamps if stamps else elsewhere
    return _FS_FIX[0 if stamps else 1]


def _make_out(out: Path) -> None:
    """Make the stamps' fresh folder before the tests run (no link followed on the way): a
    temp folder that cannot take the stamps (a file in the way, not writable, the folder there
    already) is exit 2 now, naming the folder and the fix, not after the whole test run."""
    from gate.records.files import lexists, make_dir

    try:
        if lexists(out):
            said = "already exists"
        else:
            make_dir(out)
            return
    except GateInputError as exc:
        said = exc.message
    raise GateInputError(str(out), "(folder)",
                         f"cannot make the stamps' folder: {said}; {fs_fix(said)}")


def _stamp(settings: Settings, gate_main: Callable[[list[str]], int] | None,
           env: Mapping[str, str] | None = None) -> int:
    from gate.github import workflow

    if settings.server_class not in ("local-pinned", "free-server"):
        raise GateInputError("server-class", "(input)",
                             "stamp mode needs server-class local-pinned or free-server")
    unique = secrets.token_hex(4)
    name = (f"{settings.artifact_prefix}-{settings.server_class}-{settings.job}-"
            f"{settings.run_attempt}-{unique}")
    out = settings.work_dir / STAMPS_OUT / name
    argv = ["stamp", "--manifest", settings.manifest, "--root", settings.root,
            "--server-class", settings.server_class, "--out", str(out),
            "--run-id-prefix", f"{unique}-{settings.job}-{settings.run_attempt}"]
    from gate.records.files import is_regular_file

    if settings.policy and is_regular_file(Path(settings.policy)):
        argv += ["--policy", settings.policy]  # the stamp jobs read the gate job's policy
    elif settings.policy:
        print(workflow.log_line(f"agent-patch gate: no policy file at {settings.policy:.200}: "
                                "the stamps use the default timeout codes"))
    recorder = bool(settings.command.strip()) and not settings.junit
    if settings.junit:
        argv += ["--junit", settings.junit]
    elif recorder:
        # the command runs pytest: the recorder applies the cards (and runs the gated tests)
        argv += ["--pytest", "--tests", settings.tests]
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
    if not recorder:
        print(workflow.command(workflow.Annotation("notice", NOT_APPLIED,
                                                   title="agent-patch gate")))
    _make_out(out)
    code = gate_main(argv)
    if code != 0:
        return code
    if settings.output_file:
        workflow.write_outputs(Path(settings.output_file),
                               {"stamps-dir": str(out), "artifact-name": name})
    _stamp_summary(settings, out, name, recorder, os.environ if env is None else env)
    return 0


def _stamp_summary(settings: Settings, out: Path, name: str, recorder: bool,
                   env: Mapping[str, str]) -> None:
    """The stamp job's summary when the stamps are written: a maintainer opening a green stamp
    job sees what it stamped. Only shows: a summary that cannot be written is one stderr line,
    and the step still succeeds (the stamps are written and go on to be uploaded)."""
    target = env.get("GITHUB_STEP_SUMMARY", "").strip()
    if not target:
        return
    from gate.github import publish, summary, workflow
    from gate.records.files import read_json

    try:
        stamps = [read_json(path) for path in sorted(out.glob("*.json"))]
        text = summary.render_stamp_done(
            [s for s in stamps if isinstance(s, dict)], server_class=settings.server_class,
            artifact=name, manifest=settings.manifest, recorder=recorder,
            view=publish.view_from_env(env))
        workflow.append_step_summary(Path(target), text)
    except GateInputError as exc:
        publish.surface_not_written("GITHUB_STEP_SUMMARY", "job summary", exc)


def _signing_key(env: Mapping[str, str], workspace: str) -> tuple[bytes, str] | None:
    """The signing key's PEM and what to call it in errors: the ``signing-key`` input (a
    secret's content) or the file ``signing-key-file`` names, which must lie outside the
    workspace (the code under test can write the workspace); None when neither is given."""
    content = env.get("GATE_SIGNING_KEY", "")
    path = env.get("GATE_SIGNING_KEY_FILE", "").strip()
    if content.strip() and path:
        raise GateInputError("signing-key", "(input)", "give signing-key or signing-key-file, "
                             "not both")
    if content.strip():
        return content.encode("utf-8"), "signing-key (input)"
    if not path:
        return None
    from gate.records.files import read_bytes_capped

    where = os.path.realpath(path)
    root = os.path.realpath(workspace) if workspace else ""
    if root and (where == root or where.startswith(root.rstrip("/") + "/")):
        raise GateInputError(path, "signing-key-file", "inside the workspace, which the code "
                             "under test can write; fix: keep the key outside it (a secret, or "
                             "a file only the runner's user reads)")
    return read_bytes_capped(Path(path), 64 << 10), path


def _sign(settings: Settings, env: Mapping[str, str]) -> int:
    """The stamp job's signing step: one stamp-set statement over every stamp file of the
    folder the stamp step wrote, signed (ed25519: a DSSE envelope) into that folder, which the
    next step uploads. Policy ``signing.mode`` off: nothing is signed (one log line)."""
    from gate.decide.signing import DSSE_NAME, SIGSTORE_NAME
    from gate.github import rerun, workflow
    from gate.records import policy, signing
    from gate.records.files import is_regular_file, read_bytes_capped, write_once

    if settings.server_class not in ("local-pinned", "free-server"):
        raise GateInputError("server-class", "(input)",
                             "stamp mode needs server-class local-pinned or free-server")
    policy_path = Path(settings.policy) if settings.policy else None
    if policy_path is not None and not is_regular_file(policy_path):
        policy_path = None
    sign = policy.load(policy_path).signing
    key = _signing_key(env, env.get("GITHUB_WORKSPACE", "").strip())
    if sign.mode == "off":
        if key is not None:
            raise GateInputError(settings.policy or "(policy)", "signing.mode",
                                 "off, but a signing key was given; fix: set signing.mode "
                                 "ed25519 in the policy (reviewed), or drop the key input")
        print(workflow.log_line("agent-patch gate: the stamps are not signed (policy "
                                "signing.mode is off)"))
        return 0
    out = Path(settings.stamps_dir)
    name = settings.artifact_name
    facts = signing.artifact_facts(name, settings.artifact_prefix)
    if (facts is None or facts != (settings.server_class, settings.job,
                                   rerun.attempt_of(env)) or out.name != name):
        raise GateInputError("GATE_ARTIFACT_NAME", "(env)",
                             f"{name[:200]!r} is not this stamp step's artifact (folder "
                             f"{out.name[:200]!r})")
    run_id = env.get("GITHUB_RUN_ID", "").strip()
    manifest = read_bytes_capped(Path(settings.manifest))
    predicate: dict[str, object] = {
        "server_class": settings.server_class,
        "repository": env.get("GITHUB_REPOSITORY", "").strip(),
        "repository_id": env.get("GITHUB_REPOSITORY_ID", "").strip(),
        "run_id": run_id, "run_attempt": rerun.attempt_of(env), "job": settings.job,
        "artifact": name, "head_sha": env.get("GITHUB_SHA", "").strip().lower(),
        "manifest_sha256": signing.sha256_hex(manifest),
        "policy_sha256": (signing.sha256_hex(read_bytes_capped(policy_path))
                          if policy_path is not None else None),
    }
    if env.get("GITHUB_WORKFLOW_REF", "").strip():
        predicate["workflow_ref"] = env["GITHUB_WORKFLOW_REF"].strip()
    files = signing.stamp_files(out)
    if not files:
        raise GateInputError(str(out), "(folder)", "no stamps to sign")
    statement = signing.statement(files, predicate)
    if sign.mode == "sigstore":
        bundle = signing.sigstore_signer()(statement, env=env)
        write_once(out / SIGSTORE_NAME, bundle)
        print(workflow.log_line(f"agent-patch gate: {len(files)} stamps signed (Sigstore)"))
        return 0
    if key is None:
        if sign.required(settings.server_class):
            raise GateInputError("signing-key", "(input)",
                                 f"missing: the policy requires {settings.server_class} stamps "
                                 "signed (ed25519); fix: give signing-key: ${{ secrets.<the "
                                 f"{settings.server_class} key> }} or signing-key-file")
        print(workflow.log_line(f"agent-patch gate: the stamps are not signed (no key given; "
                                f"the policy does not require {settings.server_class} stamps "
                                "signed)"))
        return 0
    private = signing.load_private_key(key[0], key[1])
    listed = signing.key_for(private, sign.keys_of(settings.server_class),
                             settings.server_class, settings.policy or "(policy)")
    envelope = signing.sign_envelope(statement, private, listed.id)
    from gate.records.files import canonical_json

    write_once(out / DSSE_NAME, canonical_json(envelope))
    print(workflow.log_line(f"agent-patch gate: {len(files)} stamps signed with the "
                            f"{settings.server_class} key {listed.id!r} (ed25519)"))
    return 0


def _receipt_section(settings: Settings) -> dict[str, Any] | None:
    """SPEC §5 through the action: the receipt must be in ``receipt-dir``/``attempt-id``,
    bootstrapped there, and name the generation minted there (``workspace-generation``, when
    given, must be that one too): the same rule as ``gate receipt verify``."""
    companions = (settings.diff, settings.prompt, settings.model_id,
                  settings.workspace_generation, settings.receipt_dir, settings.attempt_id)
    if not settings.receipt:
        if any(companions):
            # The workflow asked for a receipt check (e.g. receipt: ${{ steps.x.outputs.path }}
            # that came out empty): a missing receipt rejects, it is not skipped (SPEC §5).
            from gate.decide.receipts import ReceiptResult

            return ReceiptResult(False, ("missing_receipt",)).to_record()
        return None
    missing = [name for name, value in (("diff", settings.diff), ("prompt", settings.prompt),
                                        ("model-id", settings.model_id),
                                        ("receipt-dir", settings.receipt_dir),
                                        ("attempt-id", settings.attempt_id))
               if not value]
    if missing:
        raise GateInputError("receipt", "(input)",
                             "verifying a receipt also needs " + ", ".join(missing)
                             + " (receipt-dir and attempt-id: the folder and attempt given to "
                             "gate receipt bootstrap)")
    from gate.records import attempts
    from gate.records import load as records

    attempts.check_attempt_id(settings.attempt_id, "(input)", "attempt-id")
    result = records.verify_receipt_files(Path(settings.receipt), settings.diff,
                                          settings.prompt, settings.model_id,
                                          settings.workspace_generation or None,
                                          settings.attempt_id, Path(settings.receipt_dir))
    return result.to_record()


def _halt_section(settings: Settings, pol: Any) -> dict[str, Any] | None:
    if not settings.halt_ledger:
        return None
    from gate.records import ledger

    return ledger.audit(Path(settings.halt_ledger), pol.halt).to_record()


@dataclass(frozen=True, slots=True)
class ForeignRun:
    """The run whose artifacts a ``workflow_run`` gate decides on, as the *event* names it
    (GitHub wrote the event; the artifacts were written by whoever ran that run)."""

    run_id: str
    repository: str
    head_sha: str
    head_repository: str | None
    pull_requests: tuple[int, ...]

    @property
    def from_fork(self) -> bool:
        """A head repository other than the base (or none named) is a fork: fail closed."""
        return self.head_repository != self.repository

    def note(self) -> str:
        prs = ", ".join(f"#{n}" for n in self.pull_requests) or "none named by the event"
        head = self.head_repository or "unknown"
        trust = (f"a fork ({head}): only its free-server stamps count; local-pinned stamps come "
                 "from this trusted run") if self.from_fork else f"head repository {head}"
        return (f"decided on the stamps of run {self.run_id} of {self.repository} at "
                f"{self.head_sha[:12]} (pull requests: {prs}); {trust}")


def foreign_run(settings: Settings, env: Mapping[str, str]) -> ForeignRun | None:
    """With ``run-id``: the ``workflow_run`` event that names that run, checked; else None.

    The head SHA, the pull requests and whether the run came from a fork are read from
    ``$GITHUB_EVENT_PATH`` only, never from artifact contents.
    """
    if not settings.run_id:
        if settings.repository:
            raise GateInputError("repository", "(input)", "only with run-id")
        return None
    from gate.records.files import read_json

    if not settings.run_id.isdigit():
        raise GateInputError("run-id", "(input)", f"must be a run id, not {settings.run_id!r}")
    event_name = env.get("GITHUB_EVENT_NAME", "")
    event_path = env.get("GITHUB_EVENT_PATH", "")
    if event_name != "workflow_run" or not event_path:
        raise GateInputError("run-id", "(input)",
                             "needs a workflow_run event (the head SHA and whether the run came "
                             f"from a fork are read from it), not {event_name or 'none'!r}")
    event = read_json(Path(event_path))
    run = event.get("workflow_run") if isinstance(event, dict) else None
    if not isinstance(run, dict):
        raise GateInputError(event_path, "workflow_run", "missing from the event")
    if str(run.get("id", "")) != settings.run_id:
        raise GateInputError("run-id", "(input)",
                             f"{settings.run_id} is not the event's run "
                             f"({str(run.get('id'))[:20]}): use github.event.workflow_run.id")
    sha = run.get("head_sha")
    if not isinstance(sha, str) or not _HEX40.match(sha):
        raise GateInputError(event_path, "workflow_run.head_sha", "not a 40-hex commit SHA")

    def full_name(key: str) -> str | None:
        repo = run.get(key)
        name = repo.get("full_name") if isinstance(repo, dict) else None
        return name if isinstance(name, str) and _REPO.match(name) else None

    base = full_name("repository")
    if base is None:
        raise GateInputError(event_path, "workflow_run.repository.full_name", "missing")
    wanted = settings.repository or env.get("GITHUB_REPOSITORY", "")
    if wanted.lower() != base.lower():
        raise GateInputError("repository", "(input)",
                             f"{wanted!r} is not the repository of the event's run ({base})")
    numbers = []
    for pr in run.get("pull_requests") or []:
        number = pr.get("number") if isinstance(pr, dict) else None
        if isinstance(number, int) and not isinstance(number, bool) and number > 0:
            numbers.append(number)
    return ForeignRun(settings.run_id, base, sha.lower(), full_name("head_repository"),
                      tuple(numbers))


def _signed(settings: Settings, directory: Path, loaded: list[Any], signing: Any,
            env: Mapping[str, str], foreign: ForeignRun | None,
            used: list[tuple[str, str]] | None = None) -> list[Any]:
    """``loaded`` (the stamps under ``directory``) with every stamp the policy requires signed
    and no valid envelope of its own artifact covers marked refused (pairing row 0). Stamps of
    ``foreign``'s run must name that run; this run's, this run, attempt at most this one, and
    this commit."""
    from gate.records import pairing
    from gate.records import signing as signed

    if signing.require == "off":
        return loaded
    from gate.decide.signing import Expect
    from gate.github import rerun

    repository = foreign.repository if foreign is not None else env.get("GITHUB_REPOSITORY", "")
    run_id = foreign.run_id if foreign is not None else env.get("GITHUB_RUN_ID", "").strip()
    attempt = 10**9 if foreign is not None else rerun.attempt_of(env)
    head = "" if foreign is not None else env.get("GITHUB_SHA", "").strip().lower()
    policy_sha, manifest_sha = _file_digests(settings)

    def expect(artifact: str, server_class: str, job: str, run_attempt: int) -> Expect:
        return Expect(artifact, server_class, job, run_attempt, repository,
                      env.get("GITHUB_REPOSITORY_ID", "").strip(), (run_id,), attempt, head,
                      files_compared=foreign is None, policy_sha256=policy_sha,
                      manifest_sha256=manifest_sha)

    why = signed.refusals(directory, [(i.source, i.stamp["server_class"]) for i in loaded],
                          signing, settings.artifact_prefix, expect, used)
    return pairing.refuse(loaded, why)


def _file_digests(settings: Settings) -> tuple[str | None, str | None]:
    """The sha256 of the policy and manifest files the gate job decides with, as a stamp
    job's signing step records them (None: no such file), for :func:`_signed`."""
    from gate.records import signing
    from gate.records.files import is_regular_file, read_bytes_capped

    def digest(name: str) -> str | None:
        path = Path(name) if name else None
        if path is None or not is_regular_file(path):
            return None
        return signing.sha256_hex(read_bytes_capped(path))
    return digest(settings.policy), digest(settings.manifest)


def _decide(settings: Settings, foreign: ForeignRun | None, pol: Any,
            now: int, remembered: Any = (), env: Mapping[str, str] | None = None,
            used: list[tuple[str, str]] | None = None) -> list[Any]:
    """Pair the downloaded stamps, after the signature check (:func:`_signed`). From another
    run, a fork's local-pinned stamps are refused: a fork speaks for the free server it ran
    on, never for the runner the base repository controls; that class must come from this
    (trusted) run's own artifacts."""
    from gate.decide.signing import SigningPolicy
    from gate.records import pairing

    signing = pol.signing if pol is not None else SigningPolicy()
    env = env if env is not None else {}
    if not settings.stamps_dir:
        raise GateInputError("GATE_STAMPS_DIR", "(env)", "not set")
    if foreign is None:
        directory = Path(settings.stamps_dir)
        loaded = _signed(settings, directory,
                         pairing.collect_some(directory, settings.artifact_prefix), signing,
                         env, None, used)
        return pairing.decide_by_policy(loaded, pol, now, remembered)
    theirs = pairing.collect(Path(settings.stamps_dir), settings.artifact_prefix)
    if foreign.from_fork:
        for item in theirs:
            if item.stamp["server_class"] == "local-pinned":
                raise GateInputError(
                    item.source, "server_class",
                    f"a local-pinned stamp from run {foreign.run_id}, which ran for the fork "
                    f"{foreign.head_repository or '(unknown)'}: a fork cannot speak for the "
                    "local-pinned class; stamp it in the trusted workflow_run workflow")
    ours = (pairing.collect(Path(settings.trusted_dir), settings.artifact_prefix)
            if settings.trusted_dir else [])
    theirs = _signed(settings, Path(settings.stamps_dir), theirs, signing, env, foreign, used)
    if settings.trusted_dir:
        ours = _signed(settings, Path(settings.trusted_dir), ours, signing, env, None, used)
    seen = {item.stamp["run_id"]: item for item in ours}
    for item in theirs:
        if item.stamp["run_id"] in seen:
            raise GateInputError(item.source, "run_id",
                                 f"run id {item.stamp['run_id']!r} is in both runs' artifacts")
    loaded = [*ours, *theirs]
    if not loaded:
        raise GateInputError(settings.stamps_dir, "--stamps", "no stamps (no *.json files) found")
    return pairing.decide_by_policy(loaded, pol, now, remembered)


def _github_env(settings: Settings, env: Mapping[str, str],
                foreign: ForeignRun | None) -> dict[str, str]:
    github_env = {**env, "GITHUB_TOKEN": settings.token}
    if foreign is not None:  # the check run belongs on the pull request's head, from the event
        github_env["GITHUB_SHA"] = foreign.head_sha
    return github_env


def _gate(settings: Settings, env: Mapping[str, str]) -> int:
    from gate.github import publish, workflow
    from gate.records import load as records
    from gate.records import pairing, policy
    from gate.records.files import is_regular_file

    foreign = foreign_run(settings, env)
    now = settings.now if settings.now is not None else int(time.time())
    policy_path = Path(settings.policy) if settings.policy else None
    if policy_path is not None and not is_regular_file(policy_path):
        print(workflow.log_line(f"agent-patch gate: no policy file at {policy_path!s:.200}: "
                                "no freezes are granted, and the halt audit uses the default "
                                "scopes and marker"))
        policy_path = None
    pol = policy.load(policy_path)
    from gate.github import rerun

    github_env = _github_env(settings, env, foreign)
    signer = _gate_signer(env, pol)  # signs this attempt's re-run record (keys.gate)
    gate_keys = pol.signing.keys_of("gate") if pol.signing.mode == "ed25519" else ()
    memory = rerun.earlier_reds(github_env, settings.check_name, gate_keys,  # attempt > 1 only
                                _gate_record_check(env, pol))
    for line in memory.notes:
        print(workflow.log_line(line))
    used: list[tuple[str, str]] = []  # the stamp envelopes verified
    decisions = _decide(settings, foreign, pol, now, memory.remembered, env, used)
    reds = pairing.memory_reds(decisions)
    report_path = settings.work_dir / f"report-{settings.job}-{settings.run_attempt}.json"
    try:
        built = pairing.report_by_policy(decisions, now, pol,
                                         receipt=_receipt_section(settings),
                                         halt_audit=_halt_section(settings, pol))
        shown = _judge_files(settings, built, github_env)
        if shown is not None:
            built["judge_files"] = shown
        records.write_report(report_path, built)
    except GateInputError as exc:  # the stamps were paired: this attempt's reds count still
        raise PairedInputError(exc, reds) from exc
    vsa = _verification_summary(settings, env, github_env, pol, policy_path, built, now, used)

    # The decision is made; what follows only shows it and never changes it.
    from gate.github import review

    view = publish.view_from_env(github_env, policy_path=settings.policy or None,
                                 artifact_prefix=settings.artifact_prefix,
                                 report_artifact=report_artifact(settings))
    url, notes = publish.publish_report(
        built, github_env, name=settings.check_name, view=view,
        memory=rerun.record_text(github_env, reds, signer=signer))
    notes = [*memory.notes, *notes]
    if pol.signing.mode == "off":
        from gate.decide.signing import UNSIGNED_NOTICE

        notes.append(UNSIGNED_NOTICE)
    if foreign is not None:
        notes = [foreign.note(), *notes]
    publish.write_summary(built, url, notes, None, github_env, view=view)
    outputs = workflow.report_outputs(built, str(report_path))
    outputs["check-run-url"] = url or ""
    outputs["report-artifact"] = report_artifact(settings)  # action.yml uploads it
    outputs["verification-summary"] = vsa  # uploaded beside the report (empty: none)
    publish.write_outputs(github_env, outputs)
    said = publish.post_comment(built, github_env, name=settings.check_name,
                                mode=settings.comment, view=view)
    if said:
        print(workflow.log_line(said))
    logged = [*review.log_lines(built), *review.audit_log_lines(built),  # workflow.log_line
              *review.judge_log_lines(built)]
    if logged:
        print("\n".join(logged))
    counts = built["counts"]
    print(workflow.log_line(f"agent-patch gate: {built['decision']} ({counts['rejected']} "
                            f"rejected, {counts['frozen']} frozen, {counts['accepted']} "
                            f"accepted); JSON report: artifact {report_artifact(settings)}"))
    if built["decision"] == "closed" and settings.fail_on_closed:
        return 1
    return 0


def _judge_files(settings: Settings, built: Mapping[str, Any],
                 github_env: Mapping[str, str]) -> dict[str, Any] | None:
    """The changed files the gated properties depend on (gate/github/judges.py): shown, never
    deciding; None when the run is not for a pull request."""
    from gate.github import judges

    return judges.section(built, github_env, token=settings.token,
                          manifest_path=settings.manifest, root=settings.root,
                          policy_path=settings.policy)


def report_artifact(settings: Settings) -> str:
    """The JSON report's artifact name (action.yml uploads it under this name)."""
    return f"{settings.artifact_prefix}-report-{settings.job}-{settings.run_attempt}"


def bad_input_words(exc: GateInputError, env: Mapping[str, str]) -> str:
    """What went wrong, for people: the artifact pattern that matched nothing, or the file and
    field that is invalid, with the runner's temp folder names taken out."""
    prefix = env.get("GATE_ARTIFACT_PREFIX", "").strip() or "gate-stamps"
    stamps_dir = env.get("GATE_STAMPS_DIR", "").strip()
    if exc.field == "--stamps" and ("no stamps" in exc.message or "no such folder" in exc.message):
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


class PairedInputError(GateInputError):
    """Bad input met after the stamps were paired (a receipt, the halt audit, the report's
    write): the failure check run still records the reds this attempt saw, so that a full
    re-run cannot forget them."""

    def __init__(self, exc: GateInputError, reds: list[dict[str, str]]) -> None:
        super().__init__(exc.source, exc.field, exc.message)
        self.reds = reds


def _gate_signer(env: Mapping[str, str], pol: Any) -> Any:
    """What signs this gate job's re-run record: with policy ``signing.mode`` ed25519 and
    ``signing.keys.gate``, the gate key given as ``signing-key`` (or ``signing-key-file``),
    which must be one of those keys; with ``signing.mode`` sigstore and
    ``signing.sigstore.signer_workflows.gate``, the gate job's GitHub OIDC identity (keyless,
    ``permissions: id-token: write``); else None (records unsigned)."""
    from gate.records import memory, signing

    if pol.signing.mode == "sigstore" and pol.signing.workflows_of("gate"):
        from gate.records.sigstore_bundle import OIDC_VARIABLES

        missing = [name for name in OIDC_VARIABLES if not env.get(name, "").strip()]
        if missing:
            raise GateInputError("permissions", "id-token",
                                 f"{', '.join(missing)} unset: the policy lists signing.sigstore."
                                 "signer_workflows.gate, so the gate job signs its re-run record"
                                 " keyless; fix: give the gate job `permissions: id-token: "
                                 "write`")
        return signing.sigstore_record_signer(env)
    keys = pol.signing.keys_of("gate") if pol.signing.mode == "ed25519" else ()
    if not keys:
        return None

    key = _signing_key(env, env.get("GITHUB_WORKSPACE", "").strip())
    if key is None:
        raise GateInputError("signing-key", "(input)",
                             "missing: the policy lists signing.keys.gate, so the gate job signs "
                             "its re-run record; fix: give the gate job signing-key: the gate "
                             "key's secret")
    private = signing.load_private_key(key[0], key[1])
    listed = signing.key_for(private, keys, "gate",
                             env.get("GATE_POLICY", "").strip() or "(policy)")
    return signing.record_signer(private, listed.id, memory.PAYLOAD_TYPE)


def _verification_summary(settings: Settings, env: Mapping[str, str],
                          github_env: Mapping[str, str], pol: Any, policy_path: Path | None,
                          built: Mapping[str, Any], now: int,
                          used: list[tuple[str, str]]) -> str:
    """The gate's decision as a signed SLSA verification summary (README, Signed stamps),
    written beside the report: with a gate signer in the policy (``signing.keys.gate``, or
    ``signing.sigstore.signer_workflows.gate``), signed as the re-run record is; its path, or
    "" when there is none. A failed Sigstore signing is one line: the decision stands, and a
    consumer requiring the summary finds none."""
    from gate.github import publish, workflow
    from gate.records import signing
    from gate.records.files import canonical_json, write_once

    sign = pol.signing
    kind = ("ed25519" if sign.mode == "ed25519" and sign.keys_of("gate") else
            "sigstore" if sign.mode == "sigstore" and sign.workflows_of("gate") else None)
    head = publish.head_sha(github_env)
    repository = github_env.get("GITHUB_REPOSITORY", "").strip()
    if kind is None or policy_path is None or head is None or not repository:
        return ""
    statement = signing.verification_summary(
        repository=repository, head_sha=head, decision=str(built["decision"]), now=now,
        policy_uri=settings.policy, used=used,
        policy_sha256=signing.sha256_hex(_read_policy(policy_path)))
    try:
        if kind == "ed25519":
            key = _signing_key(env, env.get("GITHUB_WORKSPACE", "").strip())
            assert key is not None  # _gate_signer required it
            private = signing.load_private_key(key[0], key[1])
            listed = signing.key_for(private, sign.keys_of("gate"), "gate", settings.policy)
            data = canonical_json(signing.sign_envelope(statement, private, listed.id))
        else:
            data = signing.sigstore_signer()(statement, env=env)
    except GateInputError as exc:
        print(workflow.log_line(f"agent-patch gate: the verification summary is not signed: "
                                f"{exc.field}: {exc.message}"))
        return ""
    path = (settings.work_dir / f"verification-summary-{settings.job}-{settings.run_attempt}."
            f"{signing.VSA_SUFFIX[kind]}")
    write_once(path, data)
    return str(path)


def _read_policy(path: Path) -> bytes:
    from gate.records.files import read_bytes_capped

    return read_bytes_capped(path)


def _gate_record_check(env: Mapping[str, str], pol: Any) -> Any:
    """Sigstore mode with ``signing.sigstore.signer_workflows.gate``: what an earlier attempt's
    re-run record must be signed by (gate.records.signing.record_bundle_problem): this
    repository and its id, this run and that attempt, this job's commit (``GITHUB_SHA`` as the
    runner set it: a workflow_run's own, not the pull request's), this job, a workflow of the
    gate's list. Else None."""
    workflows = pol.signing.workflows_of("gate") if pol.signing.mode == "sigstore" else ()
    if not workflows:
        return None
    from gate.github import rerun
    from gate.records import signing

    identity = signing.GateIdentity(
        repository=env.get("GITHUB_REPOSITORY", "").strip(),
        repository_id=env.get("GITHUB_REPOSITORY_ID", "").strip(),
        run_id=env.get("GITHUB_RUN_ID", "").strip(),
        head_sha=env.get("GITHUB_SHA", "").strip().lower(), job=rerun.job_name(env),
        workflows=workflows)

    def check(record: Mapping[str, object], attempt: int) -> str | None:
        return signing.record_bundle_problem(record, attempt, identity)
    return check


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


def _report_stamp_failure(exc: GateInputError, env: Mapping[str, str]) -> None:
    """Stamp mode stopped on bad input (exit 2, no stamps): one ``::error`` on the file the
    error names and a job summary, so that the gate job's "no stamps found" has its cause
    beside it."""
    from gate.github import publish, summary, workflow

    what = bad_input_words(exc, env)
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


def run(env: Mapping[str, str] | None = None, *,
        gate_main: Callable[[list[str]], int] | None = None) -> int:
    """One mode's work. Stamp mode runs ``gate stamp`` through ``gate_main`` (the command line's
    entry point, handed in by ``gate action`` so that this module never imports the commands).

    In gate mode, bad input (exit 2) still reports: a ``failure`` check run and a job summary
    that say what went wrong, and an ``::error``; in stamp mode an ``::error`` on the file and a
    job summary (``gate_main`` must let :class:`GateInputError` through for that:
    ``gate.commands.main.run_raising``); then the error goes on to the command line."""
    environ = os.environ if env is None else env
    mode = environ.get("GATE_MODE", "gate").strip() or "gate"
    try:
        settings = Settings.from_env(environ)
        if settings.mode == "stamp":
            return _stamp(settings, gate_main, environ)
        if settings.mode == "sign":
            return _sign(settings, environ)
        return _gate(settings, environ)
    except GateInputError as exc:
        if mode == "sign":
            _report_stamp_failure(exc, environ)
        elif mode == "gate":
            _report_bad_input(exc, environ)
        elif mode == "stamp":
            fixed = stamp_error(exc, environ) or exc
            _report_stamp_failure(fixed, environ)
            if fixed is not exc:
                raise fixed from None
        raise
    except (OSError, UnicodeError, ValueError, KeyboardInterrupt) as exc:
        error = stamp_error(exc, environ) if mode == "stamp" else None
        if error is None:
            raise
        _report_stamp_failure(error, environ)  # every exit 2 of stamp mode reaches the job
        raise error from None
