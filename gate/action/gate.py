"""The gate step (``action.yml``'s "Decide, publish and report", ``GATE_MODE=gate``): the run
whose stamps are decided on (this one, or ``run-id``'s: :func:`foreign_run`), the signature
check, pairing and deciding, the report, the gate's own signer and verification summary, and
every surface that shows the decision."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.action.audits import _halt_section, _receipt_section
from gate.action.settings import Settings
from gate.action.sign import _signing_key
from gate.errors import GateInputError

_HEX40 = re.compile(r"^[0-9a-fA-F]{40}$")


_REPO = re.compile(r"^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$")


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
            used: list[tuple[str, str]] | None = None, ungated: Any = None,
            read: dict[str, Mapping[str, Any]] | None = None) -> list[Any]:
    """Pair the downloaded stamps, after the signature check (:func:`_signed`). From another
    run, a fork's local-pinned stamps are refused: a fork speaks for the free server it ran
    on, never for the runner the base repository controls; that class must come from this
    (trusted) run's own artifacts. ``ungated`` (:class:`gate.records.pairing.Reported`)
    gets the ungated tests and loaded harness files the stamps that were not refused name;
    ``read`` (:func:`_remember`) the stamps read from ``settings.stamps_dir``, by file."""
    from gate.decide.signing import SigningPolicy
    from gate.records import pairing

    signing = pol.signing if pol is not None else SigningPolicy()
    env = env if env is not None else {}
    if not settings.stamps_dir:
        raise GateInputError("GATE_STAMPS_DIR", "(env)", "not set")
    if foreign is None:
        directory = Path(settings.stamps_dir)
        collected = pairing.collect_some(directory, settings.artifact_prefix)
        _remember(read, directory, collected)
        loaded = _signed(settings, directory, collected, signing, env, None, used)
        if ungated is not None:
            pairing.reported_in(loaded, ungated)
        return pairing.decide_by_policy(loaded, pol, now, remembered)
    theirs = pairing.collect(Path(settings.stamps_dir), settings.artifact_prefix)
    _remember(read, Path(settings.stamps_dir), theirs)
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
    if ungated is not None:
        pairing.reported_in(loaded, ungated)
    return pairing.decide_by_policy(loaded, pol, now, remembered)


def _remember(read: dict[str, Mapping[str, Any]] | None, directory: Path,
              loaded: Sequence[Any]) -> None:
    """Each stamp the pairing read under ``directory``, by its file's path as
    ``directory.rglob`` spells it (:func:`isolation_note` reads it from here, not again)."""
    if read is None:
        return
    base = str(directory)
    for item in loaded:
        read[f"{base}/{item.source}"] = item.stamp


def stopped_stamp_jobs(settings: Settings) -> list[str]:
    """Why a stamp job wrote no stamps, per downloaded failure record
    (:mod:`gate.records.stamp_failure`): shown first, since its class is then
    ``reject_missing_stamp``."""
    from gate.records import stamp_failure

    if not settings.stamps_dir:
        return []
    return stamp_failure.words(stamp_failure.read_all(Path(settings.stamps_dir)))


def _github_env(settings: Settings, env: Mapping[str, str],
                foreign: ForeignRun | None) -> dict[str, str]:
    github_env = {**env, "GITHUB_TOKEN": settings.token}
    if foreign is not None:  # the check run belongs on the pull request's head, from the event
        github_env["GITHUB_SHA"] = foreign.head_sha
    return github_env


def _gate(settings: Settings, env: Mapping[str, str]) -> int:
    """:func:`_decide_and_show` with the cyclic garbage collector off
    (:func:`gate.records.pairing.collector_off`, as ``gate classify --stamps`` runs; 30,000
    stamps, gate action, load 6-7: 0.6 s of 4.3 s of CPU unsigned, 1.5 s of 10.9 s signed)."""
    from gate.records import pairing

    with pairing.collector_off():
        return _decide_and_show(settings, env)


def _decide_and_show(settings: Settings, env: Mapping[str, str]) -> int:
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
    found = pairing.Reported()
    read: dict[str, Mapping[str, Any]] = {}  # the stamps the pairing read, by file
    decisions = _decide(settings, foreign, pol, now, memory.remembered, env, used, found, read)
    reds = pairing.memory_reds(decisions)
    report_path = settings.work_dir / f"report-{settings.job}-{settings.run_attempt}.json"
    listed = _changed_files(settings, github_env)  # one compare request, for both sections
    try:
        built = pairing.report_by_policy(decisions, now, pol,
                                         receipt=_receipt_section(settings),
                                         halt_audit=_halt_section(settings, pol),
                                         ungated=_ungated_section(settings, github_env,
                                                                  decisions, found, pol,
                                                                  listed))
        shown = _judge_files(settings, built, github_env, listed, found.harness_files)
        if shown is not None:
            built["judge_files"] = shown
        report = records.write_report(report_path, built)
    except GateInputError as exc:  # the stamps were paired: this attempt's reds count still
        raise PairedInputError(exc, reds) from exc
    vsa = _verification_summary(settings, env, github_env, pol, policy_path, built, now, used)

    # The decision is made; what follows only shows it and never changes it.
    from gate.github import review
    from gate.github import ungated as ungated_view

    view = publish.view_from_env(github_env, policy_path=settings.policy or None,
                                 artifact_prefix=settings.artifact_prefix,
                                 report_artifact=report_artifact(settings))
    url, notes = publish.publish_report(
        report, github_env, name=settings.check_name, view=view,
        memory=rerun.record_text(github_env, reds, signer=signer))
    notes = [*stopped_stamp_jobs(settings), *memory.notes, *notes]
    if pol.signing.mode == "off":
        from gate.decide.signing import UNSIGNED_NOTICE

        notes.append(UNSIGNED_NOTICE)
    shown_isolation = isolation_note(Path(settings.stamps_dir), pol, read)
    if shown_isolation:
        notes.append(shown_isolation)
    if foreign is not None:
        notes = [foreign.note(), *notes]
    publish.write_summary(report, url, notes, None, github_env, view=view)
    outputs = workflow.report_outputs(report, str(report_path))
    outputs["check-run-url"] = url or ""
    outputs["ungated"] = ungated_view.output(report)
    outputs["report-artifact"] = report_artifact(settings)  # action.yml uploads it
    outputs["verification-summary"] = vsa  # uploaded beside the report (empty: none)
    publish.write_outputs(github_env, outputs)
    said = publish.post_comment(report, github_env, name=settings.check_name,
                                mode=settings.comment, view=view)
    if said:
        print(workflow.log_line(said))
    logged = [*review.log_lines(report), *review.audit_log_lines(report),  # workflow.log_line
              *review.judge_log_lines(report), *ungated_view.log_lines(report)]
    if logged:
        print("\n".join(logged))
    counts = report.counts
    print(workflow.log_line(f"agent-patch gate: {report.decision} ({counts.rejected} "
                            f"rejected, {counts.frozen} frozen, {counts.accepted} "
                            f"accepted); JSON report: artifact {report_artifact(settings)}"))
    if report.decision == "closed" and settings.fail_on_closed:
        return 1
    return 0


def _changed_files(settings: Settings, github_env: Mapping[str, str]) -> Any:
    """The pull request's changed files (gate/github/judges.py), or None; never raises."""
    from gate.github import judges

    try:
        return judges.changed_files(github_env, settings.token)
    except Exception:  # only shown (and scanned): each section says it has no list
        return None


def _ungated_section(settings: Settings, github_env: Mapping[str, str],
                     decisions: Sequence[Any], found: Any, pol: Any,
                     listed: Any) -> dict[str, Any] | None:
    """The report's ``ungated`` section (gate/records/pairing.py): what the stamps named, and
    on a pull request the gate job's own scan of the changed test files (gate/github/ungated.py),
    decided by the policy's ``ungated``; its notes go to the log when nothing is named."""
    from gate.github import ungated_scan, workflow
    from gate.records import pairing

    test_ids = sorted({str(d.test_id) for d in decisions})
    scanned, notes = ungated_scan.scan(github_env, test_ids, listed, token=settings.token,
                                       manifest_path=settings.manifest, root=settings.root)
    found.named.extend(scanned)
    section = pairing.ungated_section(found, pol, notes)
    if section is None:
        for note in notes:
            print(workflow.log_line(f"agent-patch gate: {note}"))
    return section


def _judge_files(settings: Settings, built: Mapping[str, Any],
                 github_env: Mapping[str, str], listed: Any = None,
                 loaded: Any = frozenset()) -> dict[str, Any] | None:
    """The changed files the gated properties depend on (gate/github/judges.py): shown, never
    deciding; None when the run is not for a pull request."""
    from gate.github import judges

    return judges.section([str(p["test_id"]) for p in built["pairs"]], github_env,
                          token=settings.token,
                          manifest_path=settings.manifest, root=settings.root,
                          policy_path=settings.policy, listed=listed, loaded=loaded)


def report_artifact(settings: Settings) -> str:
    """The JSON report's artifact name (action.yml uploads it under this name)."""
    return f"{settings.artifact_prefix}-report-{settings.job}-{settings.run_attempt}"


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
        from gate.records.sigstore_bundle import OIDC_VARIABLES, check_public_log

        missing = [name for name in OIDC_VARIABLES if not env.get(name, "").strip()]
        if missing:
            raise GateInputError("permissions", "id-token",
                                 f"{', '.join(missing)} unset: the policy lists signing.sigstore."
                                 "signer_workflows.gate, so the gate job signs its re-run record"
                                 " keyless; fix: give the gate job `permissions: id-token: "
                                 "write`")
        source = env.get("GATE_POLICY", "").strip() or "(policy)"
        check_public_log(env, opted_in=pol.signing.public_log_for_private, source=source)
        return signing.sigstore_record_signer(env, pol.signing, source)
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
    """The gate's decision as a signed SLSA verification summary (docs/signing.md),
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
            data = signing.sigstore_signer()(statement, env=env,
                                             public_log_opt_in=sign.public_log_for_private,
                                             policy_source=settings.policy or "(policy)")
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


def isolation_note(stamps_dir: Path, pol: Any,
                   read: Mapping[str, Mapping[str, Any]] | None = None) -> str | None:
    """The summary's line on the isolation levels the stamps record, per class (the lowest of
    each class's stamps; :func:`gate.decide.isolation.summary_line`); None when no stamp
    records one. A class the policy requires signed counts: its stamps were refused before
    pairing unless their set's signature covered them. ``read``: the stamps the pairing has
    read, by path (:func:`_remember`); every other ``*.json`` file is read here. (The files
    are taken in any order: the line is the lowest level of each class, whatever the order.)"""
    from gate.decide import isolation
    from gate.decide.signing import ENVELOPE_NAMES
    from gate.records.files import read_json

    by_class: dict[str, list[str | None]] = {}
    recorded = False
    known = read or {}
    for path in stamps_dir.rglob("*.json") if stamps_dir.is_dir() else ():
        if path.name in ENVELOPE_NAMES:
            continue
        stamp = known.get(str(path))
        if stamp is None:
            try:
                stamp = read_json(path)
            except GateInputError:
                continue  # the pairing named it
        if not isinstance(stamp, dict) or not isinstance(stamp.get("server_class"), str):
            continue
        level = stamp.get("isolation")
        found = level.get("level") if isinstance(level, dict) else None
        recorded = recorded or found is not None
        by_class.setdefault(stamp["server_class"], []).append(found)
    if not recorded:
        return None
    return isolation.summary_line(
        by_class, {c: pol.signing.required(c) for c in by_class})
