"""The check run: what a gate report looks like on a pull request, published through PyGithub.

The only module that imports PyGithub, and only inside :func:`publish` (``gate --version`` and
every other command never load it). :func:`plan` is pure: title, conclusion, summary, text and
annotations from a report.

Publishing, decided here:

* **Requests.** One ``POST check-runs`` carrying the conclusion, the output and the first 50
  annotations, then one ``PATCH`` per further 50 (GitHub appends annotations on update). The
  repository object is lazy (no ``GET repo``) and no commit is read.
* **Idempotency by ``external_id``.** Before creating, publishing looks for a check run of this
  name on the head SHA whose ``external_id`` is ours (one ``GET .../commits/{sha}/check-runs``)
  and, when found, updates it and sends only the annotations it does not yet have (its
  ``annotations_count``). The look-up is skipped on a first attempt when ``state_dir`` is given
  (the runner's temp folder): a marker file written *before* the create says "a create may have
  happened", so a later attempt in the same job (same ``external_id``) always looks first.
  Without ``state_dir`` the look-up always happens (one read).
* **Retries.** Reads are retried by urllib3 (``GithubRetry``) on 5xx and dropped connections.
  Any method is retried on rate limits (403/429 with ``Retry-After`` or GitHub's rate-limit
  message), honouring ``Retry-After`` up to ``max_wait`` seconds (longer: give up). A write that
  fails ambiguously (5xx, dropped connection, timeout: GitHub may have applied it) is *not*
  blindly re-sent: after a back-off, publishing looks the check run up again and resumes from
  what GitHub holds, so a lost response never yields a duplicate check run or duplicate
  annotations. All of it is bounded by ``max_retries``. Other 4xx are never retried.
* **Degrading.** 401, 403 (e.g. "Resource not accessible by integration": no ``checks: write``,
  as on fork pull requests and Dependabot), 404, 422, exhausted retries, anything unexpected:
  :class:`PublishResult` with ``published=False`` and a one-line reason. Never an exception:
  the gate's decision (and exit status) comes from the report alone.
* **Re-run memory.** ``Settings.memory`` (gate/records/memory.py) ends ``output.text`` as its
  own paragraph, a hidden HTML comment, never cut (the text is cut to leave it room); the
  error plan carries one too. :func:`list_check_runs` reads every attempt's check runs back
  (gate/github/rerun.py decides what they mean).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.github import markdown, review, summary, workflow
from gate.records.report_data import Report

if TYPE_CHECKING:
    from github.CheckRun import CheckRun
    from github.Repository import Repository

DEFAULT_NAME = "agent-patch gate"
OUTPUT_MAX_BYTES = 65535  # summary and text: GitHub checks the UTF-8 bytesize
ANNOTATIONS_PER_REQUEST = 50
ANNOTATION_TITLE_MAX = 255  # characters; counted in UTF-16 units to be safe
ANNOTATION_TEXT_MAX_BYTES = 65535  # message and raw_details: "64 KB"
LOOKUP_MAX_PAGES = 3
CHECK_JUDGE_FILES = 20  # judge files named in the check run's summary (the job summary: 50)
_WRITES = frozenset({"POST", "PATCH"})
_SHA = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Settings:
    token: str
    api_url: str
    repository: str  # owner/repo
    head_sha: str
    name: str = DEFAULT_NAME
    external_id: str | None = None  # unique per job attempt, e.g. f"{run_id}-{attempt}-{job}"
    details_url: str | None = None
    max_retries: int = 3
    backoff: float = 1.0  # seconds; doubled per retry, capped at max_wait
    max_wait: float = 60.0  # longest Retry-After / rate-limit wait honoured
    timeout: int = 15
    state_dir: Path | None = None  # e.g. $RUNNER_TEMP; None: always look up before creating
    workspace: str | None = None  # $GITHUB_WORKSPACE, stripped from absolute locations
    fallback_path: str = workflow.FALLBACK_PATH
    view: review.View | None = None  # links in the output (blob URL, report artifact)
    #: The hidden re-run memory record (gate/records/memory.py) ending output.text; "" none.
    memory: str = ""


PublishSettings = Settings


@dataclass(frozen=True)
class Plan:
    name: str
    conclusion: str
    title: str
    summary: str
    text: str
    annotations: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class PublishResult:
    published: bool
    reason: str = ""  # one line; empty when published
    url: str | None = None
    check_run_id: int | None = None
    created: bool = False  # False: an existing run (same external_id) was updated
    annotations_sent: int = 0
    annotations_total: int = 0
    attempts: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)


# --- the pure part ------------------------------------------------------------------------------


def conclusion(report: Report) -> str:
    if report.decision != "open":
        return "failure"
    return "neutral" if report.counts.frozen else "success"


def title(report: Report) -> str:
    return summary.counts_line(report)


def _code(value: object, pattern: re.Pattern[str]) -> str:
    text = str(value)
    return f"`{text}`" if pattern.fullmatch(text) else markdown.inline(text, 200)


def _view(view: review.View | None) -> review.View:
    return view or review.View()


def check_summary(report: Report, max_bytes: int = OUTPUT_MAX_BYTES,
                  view: review.View | None = None) -> str:
    """What happened in words, then one block per red test (rejected first), within
    ``max_bytes``; the accepted tests are in the text (:func:`check_text`)."""
    view = _view(view)
    pairs = report.pairs
    from gate.github import ungated

    head = [*review.counts_lines(report), "", *review.common_causes(report),
            *ungated.lines(report), *review.judge_lines(report, max_files=CHECK_JUDGE_FILES)]
    if view.report_artifact:
        where = (markdown.link("the run's artifacts", view.run_url) if view.run_url
                 else "this run's artifacts")
        head += [f"JSON report: artifact {review.span(view.report_artifact)} in {where}", ""]
    greens = review.greens(pairs)
    tail = ([f"{len(greens)} accepted test{'s are' if len(greens) != 1 else ' is'} listed "
             "below."] if greens else [])
    room = max_bytes - markdown.utf8_len("\n".join([*head, *tail])) - 200
    reds, _ = review.red_blocks(report, view, room)
    return markdown.truncate("\n".join([*head, *reds, *tail]).rstrip("\n"), max_bytes,
                             unit="bytes")


def with_memory(text: str, memory: str, max_bytes: int = OUTPUT_MAX_BYTES) -> str:
    """``text`` (cut to leave room) and then the hidden re-run record as its own paragraph
    (an HTML block that GitHub renders as nothing), never cut itself."""
    if not memory:
        return text
    room = max_bytes - markdown.utf8_len(memory) - 2
    body = markdown.truncate(text, max(0, room), unit="bytes")
    return f"{body}\n\n{memory}" if body else memory


def check_text(report: Report, max_bytes: int = OUTPUT_MAX_BYTES,
               view: review.View | None = None, memory: str = "") -> str:
    """The receipt and halt-audit lines, then the accepted tests, within ``max_bytes``; then
    the hidden re-run record, when given (:func:`with_memory`)."""
    if memory:
        room = max_bytes - markdown.utf8_len(memory) - 2
        return with_memory(check_text(report, max(0, room), view), memory, max_bytes)
    view = _view(view)
    extra: list[str] = []
    receipt = report.receipt
    if receipt is not None:
        extra.append(f"Receipt: {markdown.inline(receipt.decision)}: "
                     f"{markdown.inline(receipt.line, 2000)}")
    audit = report.halt_audit
    if audit is not None:
        extra.append(f"Halt audit: failed={audit.failed} "
                     f"denominator={audit.denominator} "
                     f"chain_ok={'true' if audit.chain_ok else 'false'}")
    head = [*extra, ""] if extra else []
    pairs = report.pairs
    room = max_bytes - markdown.utf8_len("\n".join(head)) - 200
    greens = review.green_lines(review.greens(pairs), view, room)
    return markdown.truncate("\n".join([*head, *greens]).rstrip("\n"), max_bytes,
                             unit="bytes")


def check_annotations(report: Report, workspace: str | None = None,
                fallback: str = workflow.FALLBACK_PATH) -> list[dict[str, Any]]:
    """One check-run annotation per red pair: ``failure`` for rejected, ``warning`` for frozen."""
    out: list[dict[str, Any]] = []
    now = report.now
    max_days = report.max_freeze_days or review.DEFAULT_MAX_FREEZE_DAYS
    for pair in review.ordered_reds(report.pairs):
        status = pair.status
        if status not in ("rejected", "frozen"):
            continue
        path, line = workflow.pair_location(pair, workspace, fallback)
        heading = markdown.one_line(f"gate {status}: {pair.test_id}")
        message = review.annotation_message(pair, now, max_days)
        details = "\n".join(
            markdown.one_line(f"{r.run_id} {r.server_class} {r.outcome}") for r in pair.runs)
        note = {
            "path": path,
            "start_line": line,
            "end_line": line,
            "annotation_level": "failure" if status == "rejected" else "warning",
            "title": markdown.truncate(heading, ANNOTATION_TITLE_MAX, unit="utf16"),
            "message": markdown.truncate(message, ANNOTATION_TEXT_MAX_BYTES, unit="bytes"),
        }
        if details:
            note["raw_details"] = markdown.truncate(details, ANNOTATION_TEXT_MAX_BYTES,
                                                    unit="bytes")
        out.append(note)
    return out


def plan(report: Report, settings: Settings) -> Plan:
    return Plan(
        name=settings.name,
        conclusion=conclusion(report),
        title=title(report),
        summary=check_summary(report, view=settings.view),
        text=check_text(report, view=settings.view, memory=settings.memory),
        annotations=tuple(check_annotations(report, settings.workspace, settings.fallback_path)),
    )


def error_plan(what: str, settings: Settings) -> Plan:
    """A ``failure`` check run for a gate that could not decide (bad input, exit 2)."""
    return Plan(
        name=settings.name, conclusion="failure",
        title=markdown.truncate(markdown.one_line(f"could not decide: {what}"), 200),
        summary=markdown.truncate(summary.render_error(what, settings.view), OUTPUT_MAX_BYTES,
                                  unit="bytes"),
        text=with_memory("", settings.memory), annotations=())


def publish_error(what: str, settings: Settings,
                  sleep: Callable[[float], None] = time.sleep) -> PublishResult:
    """Publish :func:`error_plan` (create, or update the same ``external_id``'s run)."""
    try:
        return _publish(error_plan(what, settings), settings, sleep)
    except Exception as exc:  # publishing must never decide anything: report, don't raise
        return PublishResult(False, _one_line(f"{type(exc).__name__}: {exc}"))


def batches(notes: Sequence[dict[str, Any]], size: int = ANNOTATIONS_PER_REQUEST
            ) -> list[list[dict[str, Any]]]:
    return [list(notes[i:i + size]) for i in range(0, len(notes), size)]


def expected_requests(annotation_count: int) -> int:
    """Writes for ``annotation_count`` annotations: 1 create + ceil((N - 50) / 50) updates."""
    return 1 + max(0, -(-(annotation_count - ANNOTATIONS_PER_REQUEST) // ANNOTATIONS_PER_REQUEST))


# --- the marker (state_dir) -----------------------------------------------------------------------


def _marker(settings: Settings) -> Path | None:
    if settings.state_dir is None or not settings.external_id:
        return None
    key = f"{settings.repository}\n{settings.head_sha}\n{settings.name}\n{settings.external_id}"
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return settings.state_dir / f"gate-check-run-{digest}.json"


def _marker_exists(path: Path) -> bool:
    from gate.records.files import lexists

    return lexists(path)


def _write_marker(path: Path | None, check_run_id: int | None) -> None:
    if path is None:
        return
    from gate.records.files import write_replace

    write_replace(path, (json.dumps({"check_run_id": check_run_id}) + "\n").encode("utf-8"))


# --- publishing ---------------------------------------------------------------------------------


class _Ambiguous(Exception):
    """A write may or may not have been applied (5xx, dropped connection, timeout)."""

    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


class _GiveUp(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _retry(settings: Settings) -> Any:
    from github import GithubRetry
    from github.GithubException import RateLimitExceededExceedsMaxWait

    class GateRetry(GithubRetry):
        """GithubRetry that never re-sends a write the server may have applied, and gives up
        on a ``Retry-After`` longer than ``max_rate_limit_wait``."""

        def is_retry(self, method: str, status_code: int, has_retry_after: bool = False) -> bool:
            if method.upper() in _WRITES and status_code >= 500:
                return False
            return bool(super().is_retry(method, status_code, has_retry_after))

        def increment(
            self, method: str | None = None, url: str | None = None, response: Any = None,
            error: Exception | None = None, _pool: Any = None, _stacktrace: Any = None,
        ) -> Any:
            if (error is not None and response is None and method
                    and method.upper() in _WRITES and self._is_read_error(error)):
                raise error
            if response is not None and self.max_rate_limit_wait is not None:
                wait = self.get_retry_after(response)
                if wait is not None and wait > self.max_rate_limit_wait:
                    raise RateLimitExceededExceedsMaxWait(
                        response.status, {"message": f"Retry-After: {wait:g}s"},
                        dict(response.headers), wait=wait)
            return super().increment(method, url, response, error, _pool, _stacktrace)

    import inspect

    from urllib3.util.retry import Retry

    extra: dict[str, Any] = {}
    if "backoff_max" in inspect.signature(Retry.__init__).parameters:  # urllib3 >= 2
        extra["backoff_max"] = settings.max_wait
    return GateRetry(
        total=settings.max_retries,
        backoff_factor=settings.backoff,
        **extra,
        status_forcelist=[429, 500, 502, 503, 504],
        allowed_methods={"GET", "POST", "PATCH"},
        raise_on_status=False,
        max_rate_limit_wait=settings.max_wait,
        secondary_rate_wait=min(60.0, settings.max_wait),
    )


def _message(data: Any) -> str:
    if isinstance(data, Mapping):
        return str(data.get("message", ""))
    return str(data or "")


def _classify(exc: Exception) -> Exception:
    """Turn a client error into :class:`_Ambiguous` (retry after a look-up) or :class:`_GiveUp`."""
    import requests
    from github.GithubException import GithubException, RateLimitExceededExceedsMaxWait

    if isinstance(exc, RateLimitExceededExceedsMaxWait):
        return _GiveUp(f"rate limited: GitHub asked to wait {exc.wait:g}s, longer than allowed")
    if isinstance(exc, GithubException):
        status = exc.status
        message = _message(exc.data)
        if status >= 500:
            headers = exc.headers or {}
            raw = headers.get("Retry-After") or headers.get("retry-after")
            wait = float(raw) if isinstance(raw, str) and raw.isdigit() else None
            return _Ambiguous(f"HTTP {status} {message}".strip(), wait)
        if status == 403 and message.startswith("Resource not accessible"):
            return _GiveUp("the token lacks checks: write (fork pull request or Dependabot?): "
                           f"HTTP 403 {message}")
        if status == 401:
            return _GiveUp(f"the token was refused: HTTP 401 {message}")
        if status == 404:
            return _GiveUp(f"repository or commit not found (or not visible to the token): "
                           f"HTTP 404 {message}")
        return _GiveUp(f"HTTP {status} {message}".strip())
    if isinstance(exc, requests.exceptions.RetryError):
        return _GiveUp(f"retries exhausted: {exc}")
    if isinstance(exc, (requests.exceptions.ConnectionError, requests.exceptions.Timeout,
                        requests.exceptions.ChunkedEncodingError)):
        return _Ambiguous(f"connection failed: {type(exc).__name__}")
    return _GiveUp(f"{type(exc).__name__}: {exc}")


def _find(repo: Repository, settings: Settings) -> CheckRun | None:
    from github.CheckRun import CheckRun
    from github.PaginatedList import PaginatedList

    runs = PaginatedList(
        CheckRun, repo.requester, f"{repo.url}/commits/{settings.head_sha}/check-runs",
        {"check_name": settings.name, "filter": "all", "per_page": 100},
        list_item="check_runs",
    )
    for index, run in enumerate(runs):
        if index >= 100 * LOOKUP_MAX_PAGES:
            break
        if run.external_id == settings.external_id:
            return run
    return None


@dataclass(frozen=True)
class Listed:
    """One check run as listed on the head SHA: what the re-run memory reads."""

    id: int
    html_url: str
    external_id: str
    status: str
    conclusion: str | None
    text: str | None


@dataclass(frozen=True)
class Listing:
    runs: tuple[Listed, ...] = ()
    error: str = ""  # one line; empty when everything was listed
    refused: bool = False  # HTTP 403 "Resource not accessible": the token has no checks access
    status: int | None = None


def list_check_runs(settings: Settings, max_pages: int = 10) -> Listing:
    """Every check run named ``settings.name`` on the head SHA (``filter=all``: every attempt's,
    not only the latest), at most ``max_pages`` pages of 100 (more is an error: the listing
    would be incomplete). One ``GET .../commits/{sha}/check-runs`` per page; reads are retried
    as in :func:`publish`. Never an exception: a failure is :class:`Listing` with ``error``."""
    from github.CheckRun import CheckRun
    from github.GithubException import GithubException
    from github.PaginatedList import PaginatedList

    if not settings.token:
        return Listing(error="no token")
    gh = _client(settings)
    try:
        repo = gh.get_repo(settings.repository)
        runs = PaginatedList(
            CheckRun, repo.requester, f"{repo.url}/commits/{settings.head_sha}/check-runs",
            {"check_name": settings.name, "filter": "all", "per_page": 100},
            list_item="check_runs",
        )
        found: list[Listed] = []
        for index, run in enumerate(runs):
            if index >= 100 * max_pages:
                return Listing(tuple(found), error=f"more than {100 * max_pages} check runs "
                                                   f"named {settings.name!r} on the commit")
            output = run.output
            found.append(Listed(int(run.id), str(run.html_url or ""), str(run.external_id or ""),
                                str(run.status or ""), run.conclusion,
                                output.text if output is not None else None))
        return Listing(tuple(found))
    except Exception as exc:  # sorted into a one-line reason
        if isinstance(exc, GithubException):
            message = _message(exc.data)
            if exc.status == 403 and message.startswith("Resource not accessible"):
                return Listing(error=_one_line(f"HTTP 403 {message}"), refused=True, status=403)
        outcome = _classify(exc)
        reason = outcome.reason if isinstance(outcome, (_GiveUp, _Ambiguous)) else str(exc)
        status = exc.status if isinstance(exc, GithubException) else None
        return Listing(error=_one_line(reason.replace("lacks checks: write", "cannot read "
                                                      "check runs")), status=status)
    finally:
        gh.close()


#: GitHub's compare lists at most this many changed files (on its first page only: paging
#: through a comparison pages its commits, never more files).
COMPARE_FILES_MAX = 300


@dataclass(frozen=True)
class ChangedFiles:
    """The files a comparison changes, as GitHub lists them: ``(path, previous path)``."""

    files: tuple[tuple[str, str | None], ...] = ()
    error: str = ""  # one line; empty when listed
    complete: bool = True  # False: GitHub listed its maximum, so more may have changed


def changed_files(settings: Settings, base: str, head: str) -> ChangedFiles:
    """The files changed between ``base`` and ``head`` (``GET .../compare/{base}...{head}``:
    the merge base of the two against ``head``, what the pull request's "Files changed" shows;
    it works for a fork's head commit, which the base repository holds under its pull
    request's ref). One request, retried as reads are. Never an exception: a failure is
    :class:`ChangedFiles` with ``error``; exactly :data:`COMPARE_FILES_MAX` files listed is
    ``complete=False`` (GitHub lists no more)."""
    if not settings.token:
        return ChangedFiles(error="no token")
    gh = _client(settings)
    try:
        comparison = gh.get_repo(settings.repository).compare(base, head)
        found = tuple((str(f.filename), str(f.previous_filename) if f.previous_filename
                       else None) for f in comparison.files)
        return ChangedFiles(found, complete=len(found) < COMPARE_FILES_MAX)
    except Exception as exc:  # sorted into a one-line reason
        return ChangedFiles(error=_read_refused(exc))
    finally:
        gh.close()


def _read_refused(exc: Exception) -> str:
    """Why a read of the repository's contents failed, in one line (a refused token is named
    for what the read needs, not for checks: write)."""
    outcome = _classify(exc)
    reason = outcome.reason if isinstance(outcome, (_GiveUp, _Ambiguous)) else str(exc)
    return _one_line(reason.replace(
        "the token lacks checks: write (fork pull request or Dependabot?)",
        "the token cannot read the repository's contents"))


@dataclass(frozen=True)
class FileAt:
    """One file of a commit as GitHub's contents API gives it: its bytes, or ``missing``
    (HTTP 404: no such file at that commit), or a one-line ``error``."""

    data: bytes | None = None
    missing: bool = False
    error: str = ""


def file_at(settings: Settings, path: str, ref: str, max_bytes: int) -> FileAt:
    """The file ``path`` (relative to the repository root) at commit ``ref``
    (``GET .../contents/{path}?ref={ref}``; it needs no checkout, so it works for any commit
    the repository holds). One request, retried as reads are. Never an exception: a folder, a
    symbolic link, a submodule, a file larger than ``max_bytes`` or one GitHub sends without
    its content (over 1 MB) is an ``error``; HTTP 404 is ``missing``."""
    from github.GithubException import GithubException

    if not settings.token:
        return FileAt(error="no token")
    gh = _client(settings)
    try:
        found = gh.get_repo(settings.repository).get_contents(path, ref=ref)
        if isinstance(found, list):
            return FileAt(error="a folder, not a file")
        if found.type != "file":
            return FileAt(error=f"a {_one_line(str(found.type))[:40]}, not a file")
        if found.size > max_bytes:
            return FileAt(error=f"{found.size} bytes, more than the {max_bytes} bytes a "
                                "manifest may hold")
        if found.encoding != "base64":
            return FileAt(error=f"GitHub sent it without its content (encoding "
                                f"{_one_line(str(found.encoding))[:40]!r})")
        data = found.decoded_content
        if len(data) > max_bytes:
            return FileAt(error=f"more than the {max_bytes} bytes a manifest may hold")
        return FileAt(data)
    except Exception as exc:  # sorted into a one-line reason
        if isinstance(exc, GithubException) and exc.status == 404:
            return FileAt(missing=True)
        return FileAt(error=_read_refused(exc))
    finally:
        gh.close()


def _output(p: Plan, notes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"title": p.title, "summary": p.summary}
    if p.text:
        out["text"] = p.text
    if notes:
        out["annotations"] = list(notes)
    return out


def _one_line(text: str) -> str:
    return markdown.truncate(markdown.one_line(text), 300)


def publish(report: Report, settings: Settings,
            sleep: Callable[[float], None] = time.sleep) -> PublishResult:
    """Create (or, for the same ``external_id``, update) the check run for ``report``."""
    p = plan(report, settings)
    total = len(p.annotations)
    try:
        return _publish(p, settings, sleep)
    except Exception as exc:  # publishing must never decide anything: report, don't raise
        return PublishResult(False, _one_line(f"{type(exc).__name__}: {exc}"),
                             annotations_total=total)


def _publish(p: Plan, settings: Settings, sleep: Callable[[float], None]) -> PublishResult:
    total = len(p.annotations)
    if not settings.token:
        return PublishResult(False, "no token", annotations_total=total)
    gh = _client(settings)
    try:
        repo = gh.get_repo(settings.repository)
        marker = _marker(settings)
        look = bool(settings.external_id) and (marker is None or _marker_exists(marker))
        sent = 0
        created = False
        run: CheckRun | None = None
        attempts = 0
        while True:
            attempts += 1
            try:
                if look:
                    run = _find(repo, settings)
                    look = False
                    sent = min(run.output.annotations_count, total) if run is not None else 0
                    if run is not None:
                        run = _update(run, p, settings, sent)
                        sent = min(total, sent + ANNOTATIONS_PER_REQUEST)
                if run is None:
                    _write_marker(marker, None)
                    run = _create(repo, p, settings)
                    created = True
                    sent = min(total, ANNOTATIONS_PER_REQUEST)
                while sent < total:
                    batch = list(p.annotations[sent:sent + ANNOTATIONS_PER_REQUEST])
                    run.edit(output=_output(p, batch))
                    sent += len(batch)
                _write_marker(marker, run.id)
                return PublishResult(True, "", url=run.html_url, check_run_id=run.id,
                                     created=created, annotations_sent=sent,
                                     annotations_total=total, attempts=attempts)
            except Exception as exc:  # sorted into retry / give up
                outcome = _classify(exc)
                if isinstance(outcome, _GiveUp):
                    return PublishResult(False, _one_line(
                        outcome.reason),
                        annotations_sent=sent if run is not None else 0,
                        annotations_total=total, attempts=attempts,
                        url=run.html_url if run is not None else None,
                        check_run_id=run.id if run is not None else None)
                assert isinstance(outcome, _Ambiguous)
                if attempts > settings.max_retries:
                    return PublishResult(False, _one_line(
                        f"{outcome.reason} "
                        f"(gave up after {attempts} attempts)"),
                        annotations_total=total, attempts=attempts)
                wait = min(settings.max_wait, settings.backoff * 2 ** (attempts - 1))
                if outcome.wait is not None:
                    if outcome.wait > settings.max_wait:
                        return PublishResult(False, _one_line(
                            f"{outcome.reason}; Retry-After "
                            f"{outcome.wait:g}s is longer than allowed"),
                            annotations_total=total, attempts=attempts)
                    wait = max(wait, outcome.wait)
                sleep(wait)
                if settings.external_id:
                    look = True  # resume from what GitHub holds
                    run = None
                # without an external_id there is nothing to find: retry where we were
    finally:
        gh.close()


# --- the pull-request comment (gate/github/comment.py builds the body) ---------------------------


@dataclass(frozen=True)
class CommentResult:
    posted: bool
    reason: str = ""  # one line; empty when posted (or when nothing needed doing)
    url: str | None = None
    created: bool = False  # False: an existing comment (same marker) was updated
    skipped: bool = False  # nothing to update and nothing to create


def _client(settings: Settings) -> Any:
    from github import Auth, Github

    return Github(
        base_url=settings.api_url.rstrip("/"), auth=Auth.Token(settings.token),
        retry=_retry(settings), timeout=settings.timeout, lazy=True,
        seconds_between_requests=None, seconds_between_writes=None,
    )


def upsert_comment(settings: Settings, number: int, marker: str, body: str, *,
                   create: bool = True) -> CommentResult:
    """Update the comment on pull request ``number`` whose body starts with ``marker``, or
    create one (when ``create``). Needs ``pull-requests: write``; any refusal or failure is a
    :class:`CommentResult` with a one-line reason, never an exception. Ambiguous writes are not
    re-sent: the next run finds the comment by its marker and updates it."""
    if not settings.token:
        return CommentResult(False, "no token")
    try:
        gh = _client(settings)
    except Exception as exc:  # pragma: no cover - construction does no I/O
        return CommentResult(False, _one_line(f"{type(exc).__name__}: {exc}"))
    try:
        issue = gh.get_repo(settings.repository).get_issue(number)
        for index, comment in enumerate(issue.get_comments()):
            if index >= 100 * LOOKUP_MAX_PAGES:
                break
            if (comment.body or "").startswith(marker):
                comment.edit(body)
                return CommentResult(True, url=comment.html_url)
        if not create:
            return CommentResult(False, skipped=True)
        made = issue.create_comment(body)
        return CommentResult(True, url=made.html_url, created=True)
    except Exception as exc:  # publishing must never decide anything: report, don't raise
        outcome = _classify(exc)
        reason = outcome.reason if isinstance(outcome, (_GiveUp, _Ambiguous)) else str(exc)
        if "lacks checks: write" in reason:
            reason = reason.replace("checks: write", "pull-requests: write")
        return CommentResult(False, _one_line(reason))
    finally:
        gh.close()


def _create(repo: Repository, p: Plan, settings: Settings) -> CheckRun:
    first = list(p.annotations[:ANNOTATIONS_PER_REQUEST])
    kwargs: dict[str, Any] = {}
    if settings.external_id:
        kwargs["external_id"] = settings.external_id
    if settings.details_url:
        kwargs["details_url"] = settings.details_url
    return repo.create_check_run(
        name=p.name, head_sha=settings.head_sha, status="completed", conclusion=p.conclusion,
        output=_output(p, first), **kwargs,
    )


def _update(run: CheckRun, p: Plan, settings: Settings, already: int) -> CheckRun:
    batch = list(p.annotations[already:already + ANNOTATIONS_PER_REQUEST])
    kwargs: dict[str, Any] = {}
    if settings.details_url:
        kwargs["details_url"] = settings.details_url
    run.edit(status="completed", conclusion=p.conclusion, output=_output(p, batch), **kwargs)
    return run
