"""The stamp step (``action.yml``'s "Stamp the test run", ``GATE_MODE=stamp``): run (or record)
the test run and write one stamp per manifest property into a fresh folder, and name the
artifact the upload step uploads."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path

from gate.action.settings import Settings
from gate.errors import GateInputError

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


#: The stamp step's copy of the ``signing-key-file`` input: the path only (never the key), under
#: a name the gate's restart without secrets keeps (gate.testrun.withheld), so that the step
#: can refuse it before the tests start.
KEY_FILE_PATH = "GATE_SIGNING_KEY_FILE_PATH"


def refuse_key_file(env: Mapping[str, str], isolation: str) -> None:
    """Exit 2 when the job's signing key is a file and the tests may run as a user who can read
    it (issue 27 break 3: a test read the path from the workflow file, copied the key and
    signed a green set with it): below the ``user`` isolation level they run as the runner's
    user. At ``user`` (asked by name: ``auto`` may end lower) ``gate stamp`` refuses an
    isolation user who can read the file (gate.testrun.isolation.user_problem), before any
    test."""
    path = env.get(KEY_FILE_PATH, "").strip()
    if path and isolation != "user":
        raise GateInputError(
            "signing-key-file", "(input)",
            f"{path[:200]!r}: the tests of a stamp job run as the runner's user, who can read "
            "this file, so a test can copy the key; fix: give the key as a secret through "
            "signing-key (only the signing step after the tests sees it), or set isolation: "
            "user with an isolation-user who cannot read the file")


def refuse_public_log(settings: Settings, env: Mapping[str, str]) -> None:
    """Exit 2 before any test when the policy's Sigstore mode would enter a repository that
    the event payload does not show public in the public Rekor log: the signing step after
    the tests refuses the same (gate.records.sigstore_bundle.check_public_log, the one rule)."""
    from gate.records.files import is_regular_file

    if not settings.policy or not is_regular_file(Path(settings.policy)):
        return
    from gate.records import policy

    try:
        sign = policy.load(Path(settings.policy)).signing
    except GateInputError:
        return  # a policy with a mistake: gate stamp names it, as it always did
    if sign.mode == "sigstore":
        from gate.records.sigstore_bundle import check_public_log

        check_public_log(env, opted_in=sign.public_log_for_private, source=settings.policy)


def _stamp(settings: Settings, gate_main: Callable[[list[str]], int] | None,
           env: Mapping[str, str] | None = None) -> int:
    from gate.github import workflow

    # without a command the tests ran in an earlier step, as the runner's user
    refuse_key_file(os.environ if env is None else env,
                    settings.isolation if settings.command.strip() else "none")
    refuse_public_log(settings, os.environ if env is None else env)
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
        if settings.install.strip():  # pull-request code: inside the seal, like the tests
            argv += ["--install", settings.install]
        argv += ["--isolation", settings.isolation, "--isolation-input", "isolation"]
        if settings.isolation_user:
            argv += ["--isolation-user", settings.isolation_user]
        # the runner parses the step's output for workflow commands: none from the commands
        argv += ["--fence", "--", "bash", "-c", settings.command]
    elif settings.install.strip():
        raise GateInputError("install", "(input)", "only with command: the install runs in "
                             "the stamp step, sealed with the tests it installs for")
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
