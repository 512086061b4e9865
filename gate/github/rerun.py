"""Re-runs: what a gate attempt remembers of the earlier attempts of its workflow run.

After "Re-run all jobs" GitHub no longer lists the earlier attempts' stamp artifacts, so the
stamps alone would let a full re-run hide a red. The gate's check runs stay on the commit: each
one ends with a hidden record of the conclusive reds its attempt saw (gate/records/memory.py,
written by :func:`record_text`), and on attempt N > 1 :func:`earlier_reds` reads the check runs
of the same name on the same head SHA whose ``external_id`` is ``{run_id}-{k}-{job}`` for this
run id and job and an earlier attempt ``k < N`` (any other run id, job, or a later attempt is
ignored). Their reds join the pairing (gate/records/pairing.py, row 2m) where the stamps
listed now do not hold them. A record of an attempt that could not decide (bad input, exit 2)
holds the red stamps that validated before it stopped, and they are remembered the same way:
one malformed file never erases a red (issue 20.4).

Signed records (docs/signing.md): with the policy's ``signing.keys.gate`` (ed25519) or
``signing.sigstore.signer_workflows.gate`` (sigstore, keyless: a Sigstore bundle of the
record, gate.records.signing.record_bundle_problem), every earlier attempt's record must be
signed for this run, its own attempt and this job, whatever its check run concluded.

Fail closed, only ever adding reds: memory never removes a red, so a forged check run can only
close the gate. What cannot be read closes it (:class:`GateInputError`, one line naming the
check run and the fix):

* an earlier attempt's check run that did not conclude ``success`` (a success saw no
  conclusive red: every test green in both classes) whose record is missing, garbled,
  schema-invalid, names another run, attempt or commit, or is marked truncated;
* a listing that failed (HTTP 401, 404, 5xx after retries, a dropped connection, more check
  runs than :data:`MAX_PAGES` pages).

Two cases are not closing, and say so in one line (log and job summary): no token (or no
repository/commit to ask about), and HTTP 403 "Resource not accessible by integration" (a
token without ``checks`` access, e.g. a workflow that grants no ``checks`` permission). Then
no earlier attempt of this run could have published a check run either (``checks: write``
implies ``checks: read``, and every attempt runs the same workflow file), so there is no record
to lose; the decision is the stamps' alone, as before. Attempt 1 asks nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gate.errors import GateInputError
from gate.records import memory
from gate.records.memory import Remembered

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gate.decide.signing import Key

MAX_PAGES = 10
_DIGITS = re.compile(r"[0-9]{1,20}")
_JOB = re.compile(r"[^A-Za-z0-9_-]+")  # as gate.action.settings spells GITHUB_JOB
FIX = ("a re-run never drops an earlier attempt's red: push a new commit (the fix), whose "
       "workflow run starts again at attempt 1")


@dataclass(frozen=True)
class Memory:
    remembered: tuple[Remembered, ...] = ()
    notes: tuple[str, ...] = ()  # one line each, for the log and the job summary


def attempt_of(env: Mapping[str, str]) -> int:
    raw = env.get("GITHUB_RUN_ATTEMPT", "").strip()
    return int(raw) if _DIGITS.fullmatch(raw) and int(raw) > 0 else 1


def job_name(env: Mapping[str, str]) -> str:
    """GITHUB_JOB as a signed record names it (the schema's spelling)."""
    return _JOB.sub("-", env.get("GITHUB_JOB", "") or "job")[:100] or "job"


def record_text(env: Mapping[str, str], reds: Sequence[Mapping[str, str]], *,
                decided: bool = True, signer: memory.Signer | None = None) -> str:
    """This attempt's hidden record (empty outside a workflow run: nothing can re-run it).
    ``decided=False`` (bad input before the pairing) still carries ``reds``: the red stamps
    that validated (gate.records.pairing.salvage_reds)."""
    from gate.github import publish

    run_id = env.get("GITHUB_RUN_ID", "").strip()
    sha = publish.head_sha(env)
    if not _DIGITS.fullmatch(run_id) or sha is None:
        return ""
    record = memory.build(run_id, attempt_of(env), sha, reds, decided=decided)
    if signer is not None:  # signed: the job is named too (policy signing.keys.gate)
        record["job"] = job_name(env)
    try:
        return memory.encode(record, signer=signer)
    except GateInputError:  # a red the schema cannot hold: later attempts must stay closed
        return memory.encode({**record, "truncated": True, "reds": []}, signer=signer)


def _signature_problem(record: Mapping[str, object], job: str, keys: Sequence[Key]
                       ) -> str | None:
    """With the policy's gate keys: why the record is not signed by one of them for this job."""
    from gate.records import signing

    why = signing.signature_problem(memory.PAYLOAD_TYPE, memory.signed_bytes(record),
                                    record.get("signature"), keys)
    if why is None and record.get("job") != job:
        why = f"its gate record is signed for the job {str(record.get('job'))[:100]!r}, not {job!r}"
    return why


def _problem(record: Mapping[str, object], run_id: str, attempt: int, sha: str) -> str | None:
    if record["workflow_run_id"] != run_id or record["attempt"] != attempt:
        return (f"its gate record names run {record['workflow_run_id']} attempt "
                f"{record['attempt']}, not the run {run_id} attempt {attempt} of its external_id")
    if record["head_sha"] != sha:
        return f"its gate record names the commit {str(record['head_sha'])[:12]}, not this one"
    if record["truncated"]:
        return "its gate record is marked truncated (more reds than fit in a check run)"
    return None


#: Why an earlier attempt's record (schema-valid, for this run, attempt and commit) is not
#: signed as the policy requires, given that attempt's number; None when it is (sigstore mode:
#: gate.records.signing.record_bundle_problem).
RecordCheck = Callable[[Mapping[str, object], int], "str | None"]


def earlier_reds(env: Mapping[str, str], name: str, keys: Sequence[Key] = (),
                 check: RecordCheck | None = None) -> Memory:
    """The reds the earlier attempts of this workflow run recorded (see the module doc). With
    ``keys`` (the policy's ``signing.keys.gate``) or ``check`` (sigstore mode, the policy's
    ``signing.sigstore.signer_workflows.gate``), every earlier attempt's record must be
    signed for this run, attempt and job, whatever its check run concluded: an unsigned,
    wrongly signed or missing record closes, as an unreadable one does."""
    attempt = attempt_of(env)
    if attempt <= 1:
        return Memory()
    from gate.github import checks, publish

    run_id = env.get("GITHUB_RUN_ID", "").strip()
    job = env.get("GITHUB_JOB", "") or "job"
    lead = f"gate: re-run attempt {attempt}: earlier attempts' gate check runs"
    if not _DIGITS.fullmatch(run_id):
        return Memory(notes=(f"{lead} not read: GITHUB_RUN_ID is not set",))
    settings, missing = publish._check_settings(env, name=name, max_retries=3, max_wait=30.0)
    if settings is None:
        return Memory(notes=(f"{lead} not read ({missing}); without a token no earlier attempt "
                             "published one either: the stamps listed now decide",))
    listing = checks.list_check_runs(settings, MAX_PAGES)
    if listing.refused:
        return Memory(notes=(f"{lead} not read: the token has no checks access "
                             f"({listing.error}); no earlier attempt could publish one either "
                             "(checks: write implies checks: read): the stamps listed now "
                             "decide",))
    if listing.error:
        raise GateInputError(
            f"{settings.api_url.rstrip('/')}/repos/{settings.repository}/commits/"
            f"{settings.head_sha}/check-runs", "check_runs",
            f"attempt {attempt} cannot list the earlier attempts' gate check runs "
            f"({listing.error}), so it cannot know their reds and stays closed; re-run it when "
            "GitHub answers (the token needs checks: read, implied by checks: write)")
    wanted = {f"{run_id}-{k}-{job}": k for k in range(1, attempt)}
    found: list[Remembered] = []
    read = 0
    for run in sorted(listing.runs, key=lambda r: r.id):
        k = wanted.get(run.external_id)
        if k is None:
            continue
        read += 1
        where = run.html_url or f"check run {run.id}"
        try:
            record = memory.decode(run.text)
            why = _problem(record, run_id, k, settings.head_sha)
            if why is None and keys:
                why = _signature_problem(record, _JOB.sub("-", job), keys)
            if why is None and check is not None:
                why = check(record, k)
        except memory.RecordProblem as exc:
            if run.conclusion == "success" and not keys and check is None:
                continue  # a success saw no conclusive red: nothing to remember
            why = exc.why  # signed records: a success's text can be edited too
        if why is not None:
            raise GateInputError(where, "output.text",
                                 f"attempt {k}'s gate check run concluded "
                                 f"{run.conclusion or run.status or 'nothing'}, but {why}: the "
                                 f"reds it saw cannot be carried over, so attempt {attempt} "
                                 f"stays closed; {FIX}")
        found += memory.remembered(record, where)  # undecided too: its reds were read
    note = (f"{lead}: {read} read, {len(found)} conclusive red"
            f"{'s' if len(found) != 1 else ''} remembered (a full re-run does not hide a red)")
    return Memory(tuple(found), (note,))
