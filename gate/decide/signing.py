"""Signed stamps (issue 21): what the policy requires, and whether a verified stamp-set
statement speaks for the stamps it covers. Pure: no files, no clock, no environment.

The policy's ``signing:`` section (``schemas/policy.schema.json``) says how the stamp jobs sign
(``mode``) and whose stamps the gate job refuses unsigned (``require``). A stamp of a class that
must be signed is refused before every pairing row (``reject_unsigned_stamp``, row 0 of the
pairing table, gate/records/pairing.py) unless exactly one subject of a valid envelope of its
own artifact covers it, and that envelope's statement names this repository, this run (or the
``workflow_run`` run decided on), the attempt and job of its artifact, and the stamp's class.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gate.decide.frozen import FrozenValue

LOCAL = "local-pinned"
FREE = "free-server"
GATE = "gate"
MODES = ("off", "sigstore", "ed25519")
REQUIRES = ("off", "local-pinned", "all")
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE = "https://github.com/agent-patch-gate/gate/stamp-set/v1"
PAYLOAD_TYPE = "application/vnd.in-toto+json"
#: The envelope files a stamp job writes beside its stamps (never read as stamps).
DSSE_NAME = "gate-stamp-set.dsse.json"
SIGSTORE_NAME = "gate-stamp-set.sigstore.json"
#: The same stamp set as a standard in-toto test-result statement, signed the same way and
#: written beside it for consumers' own tools (gh attestation verify, sigstore verify github).
TEST_RESULT_PREDICATE_TYPE = "https://in-toto.io/attestation/test-result/v0.1"
TEST_RESULT_DSSE_NAME = "gate-test-result.dsse.json"
TEST_RESULT_SIGSTORE_NAME = "gate-test-result.sigstore.json"
ENVELOPE_NAMES = (DSSE_NAME, SIGSTORE_NAME, TEST_RESULT_DSSE_NAME, TEST_RESULT_SIGSTORE_NAME)
REFUSED = "reject_unsigned_stamp"
#: The policy field that lets Sigstore mode sign for a repository that is not public.
PUBLIC_LOG_FIELD = "signing.sigstore.public_log_for_private_repository"

#: The one line the summary carries while stamps are unsigned (mode off).
UNSIGNED_NOTICE = ("stamps are unsigned (policy signing.mode is off): a stamp's server class "
                   "is what the job that wrote it claims; docs/signing.md says how to turn "
                   "signing on")


class Key(FrozenValue):
    __slots__ = ("id", "public_key")
    id: str
    public_key: bytes  # the 32 raw ed25519 bytes

    def __init__(self, id: str, public_key: bytes) -> None:
        self._set(id=id, public_key=public_key)


class SigningPolicy(FrozenValue):
    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "mode", "require", "keys", "workflows", "per_class", "isolation",
        "public_log_for_private",
    )
    mode: str
    require: str
    keys: tuple[tuple[str, Key], ...]  # (owner: a server class or "gate", key)
    #: sigstore mode: (owner: a server class or "gate", build signer URI)
    workflows: tuple[tuple[str, str], ...]
    per_class: bool  # signer_workflows in the mapping form (else the 0.2.0 list)
    #: (server class, the lowest isolation level its stamps must record: gate.decide.isolation)
    isolation: tuple[tuple[str, str], ...]
    #: sigstore mode: sign through the public-good instance (whose Rekor log is public) even
    #: when the repository is not public (signing.sigstore.public_log_for_private_repository)
    public_log_for_private: bool

    def __init__(self, mode: str = "off", require: str = "off",
                 keys: tuple[tuple[str, Key], ...] = (),
                 workflows: tuple[tuple[str, str], ...] = (), per_class: bool = False,
                 isolation: tuple[tuple[str, str], ...] = (),
                 public_log_for_private: bool = False) -> None:
        self._set(mode=mode, require=require, keys=keys, workflows=workflows,
                  per_class=per_class, isolation=isolation,
                  public_log_for_private=public_log_for_private)

    def isolation_of(self, server_class: str) -> str | None:
        """The lowest isolation level ``server_class``'s stamps must record, or None."""
        return next((level for who, level in self.isolation if who == server_class), None)

    def required(self, server_class: str) -> bool:
        """Whether a stamp of ``server_class`` must be signed."""
        if self.require == "all":
            return True
        return self.require == LOCAL and server_class == LOCAL

    def keys_of(self, owner: str) -> tuple[Key, ...]:
        return tuple(key for who, key in self.keys if who == owner)

    def workflows_of(self, owner: str) -> tuple[str, ...]:
        """The build signer URIs allowed to sign for ``owner`` (a class, or the gate)."""
        return tuple(uri for who, uri in self.workflows if who == owner)


@dataclass(frozen=True, slots=True)
class Expect:
    """What a stamp-set statement must say to speak for the stamps of one artifact."""

    artifact: str
    server_class: str
    job: str
    run_attempt: int
    repository: str
    repository_id: str  # empty: not known to the gate job (then not compared)
    run_ids: tuple[str, ...]  # this run, or the workflow_run run decided on
    max_attempt: int  # the attempt being decided: a statement never names a later one
    head_sha: str = ""  # empty: not compared (a workflow_run's jobs ran on another SHA)
    #: The policy and manifest files the gate job decides with (sha256 hex; None: it has no
    #: such file), compared with the predicate's when ``files_compared`` (this run's own
    #: stamps; another run's, workflow_run, ran on the pull request's commit, whose files may
    #: differ: not compared).
    files_compared: bool = False
    policy_sha256: str | None = None
    manifest_sha256: str | None = None


def predicate_problem(predicate: Mapping[str, object], expect: Expect) -> tuple[str, str] | None:
    """(field, why) when a schema-valid predicate does not speak for ``expect``'s stamps."""
    checks: list[tuple[str, object, object]] = [
        ("artifact", predicate.get("artifact"), expect.artifact),
        ("server_class", predicate.get("server_class"), expect.server_class),
        ("job", predicate.get("job"), expect.job),
        ("run_attempt", predicate.get("run_attempt"), expect.run_attempt),
    ]
    for name, got, wanted in checks:
        if got != wanted:
            return (f"predicate.{name}", f"{str(got)[:80]!r}, not {str(wanted)[:80]!r} (the "
                    "artifact's own)")
    repo = str(predicate.get("repository", ""))
    if repo.lower() != expect.repository.lower():
        return ("predicate.repository", f"{repo[:100]!r}, not this repository "
                f"{expect.repository!r}")
    rid = predicate.get("repository_id")
    if expect.repository_id and rid != expect.repository_id:
        return ("predicate.repository_id", f"{str(rid)[:30]!r}, not this repository's "
                f"{expect.repository_id!r}")
    if predicate.get("run_id") not in expect.run_ids:
        return ("predicate.run_id", f"{str(predicate.get('run_id'))[:30]!r}, not the run "
                f"decided on ({', '.join(expect.run_ids)})")
    attempt = predicate.get("run_attempt")
    if not isinstance(attempt, int) or attempt > expect.max_attempt:
        return ("predicate.run_attempt", f"{attempt!r} is later than the attempt being decided "
                f"({expect.max_attempt})")
    if expect.head_sha and predicate.get("head_sha") != expect.head_sha:
        return ("predicate.head_sha", f"{str(predicate.get('head_sha'))[:12]!r}, not the commit "
                f"decided on ({expect.head_sha[:12]})")
    if expect.files_compared:
        return files_problem(predicate, expect)
    return None


def _digest(value: object) -> str:
    return "null (no file)" if value is None else repr(str(value)[:12])


def files_problem(predicate: Mapping[str, object], expect: Expect) -> tuple[str, str] | None:
    """(field, why) when the stamp set was signed under another policy or manifest file than
    the gate job decides with (or the gate job has no manifest to tell)."""
    for name, wanted, what in (("policy_sha256", expect.policy_sha256, "policy"),
                               ("manifest_sha256", expect.manifest_sha256, "manifest")):
        got = predicate.get(name)
        if wanted is None and what == "manifest":
            return (f"predicate.{name}", "the gate job has no manifest file to compare it "
                    "with; fix: check the repository out in the gate job and give its manifest "
                    "input the stamp jobs' manifest")
        if got != wanted:
            return (f"predicate.{name}", f"{_digest(got)}, not the {what} file the gate job "
                    f"decides with ({_digest(wanted)}): the stamps were made under another "
                    f"{what}; fix: give every job of the run the same {what} input (and the "
                    "same checkout)")
    return None


def subject_problem(subjects: list[Mapping[str, object]], files: Mapping[str, str]
                    ) -> tuple[str, str] | None:
    """(field, why) when the subjects are not exactly the stamp files (name -> sha256) of the
    artifact: a duplicate subject, a subject with no file (a stamp removed after signing) or
    another digest (a stamp byte changed). A file no subject names is refused by the caller,
    per stamp."""
    names = [str(s.get("name")) for s in subjects]
    seen: set[str] = set()
    for index, name in enumerate(names):
        if name in seen:
            return (f"subject.{index}.name", f"{name[:100]!r} is named twice")
        seen.add(name)
    for index, subject in enumerate(subjects):
        name = names[index]
        digest = subject.get("digest")
        sha = digest.get("sha256") if isinstance(digest, Mapping) else None
        if name not in files:
            return (f"subject.{index}.name", f"{name[:100]!r} is not in the artifact (a stamp "
                    "removed after signing)")
        if sha != files[name]:
            return (f"subject.{index}.digest.sha256", f"{name[:100]!r} has other bytes than "
                    "were signed")
    return None


def repository_visibility(event: object) -> str:
    """``public``, ``private`` (private or internal) or ``unknown``, from a workflow event
    payload's ``repository.private`` and ``repository.visibility``: public only when what it
    says is public and nothing says otherwise; anything else (no payload, no repository, a
    value of another type or an unknown visibility) is unknown."""
    repo = event.get("repository") if isinstance(event, Mapping) else None
    if not isinstance(repo, Mapping):
        return "unknown"
    private = repo.get("private")
    visibility = repo.get("visibility")
    if private is True or visibility in ("private", "internal"):
        return "private"
    if private not in (False, None) or visibility not in ("public", None):
        return "unknown"
    return "public" if private is False or visibility == "public" else "unknown"


def public_log_problem(visibility: str, opted_in: bool) -> str | None:
    """Why Sigstore mode must not sign here: signing through the public-good instance enters
    the repository's name, the workflow, the run and the commit (the certificate's claims) in
    Rekor's public transparency log. None when the repository is public or the policy opts in
    (:data:`PUBLIC_LOG_FIELD`)."""
    if visibility == "public" or opted_in:
        return None
    said = ("this repository is not public (the event payload's repository.private / "
            "visibility)" if visibility == "private" else
            "the event payload ($GITHUB_EVENT_PATH) does not say that this repository is public "
            "(repository.private / repository.visibility)")
    return (f"{said}: Sigstore mode signs through the public-good instance, whose public Rekor "
            "log would then publish the repository's name, workflow and commit; fix: use "
            "signing.mode ed25519, or set public_log_for_private_repository: true under "
            "signing.sigstore in the policy if those may be public")


def test_result(outcomes: Iterable[tuple[str, str]]) -> tuple[str, list[str], list[str]]:
    """A stamp set's (test id, outcome) pairs as test-result/v0.1 says them: (``result``,
    ``passedTests``, ``failedTests``). A test passed when its stamp's outcome is ``pass``;
    every other outcome (``assert_fail``, and the inconclusive ``resource_exit`` and
    ``empty_body``, which the gate discards and reruns) is listed failed: "passed with
    warnings" (``warnedTests``) is never true of them. ``PASSED`` only when nothing failed
    and something passed."""
    passed: set[str] = set()
    failed: set[str] = set()
    for test_id, outcome in outcomes:
        (passed if outcome == "pass" else failed).add(test_id)
    result = "PASSED" if passed and not failed else "FAILED"
    return result, sorted(passed), sorted(failed)
