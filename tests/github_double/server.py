"""A GitHub REST API double for the check-run surface, served over real HTTP.

The double is a stdlib ``ThreadingHTTPServer`` on 127.0.0.1 that answers the operations listed in
the vendored ``openapi_subset.json`` (cut from GitHub's official OpenAPI description, see
``regen.py``).  Every request is validated against that description (path parameters, query
parameters and JSON body) plus the few GitHub rules the description only states in prose; an
invalid request gets HTTP 422 and is recorded as invalid.  State (check runs and their
annotations) lives in memory.  Responses are built to satisfy the response schemas.

Code under test talks to it with real PyGithub (``base_url=double.base_url`` or
``double.ghes_base_url`` for the GitHub Enterprise Server style ``/api/v3`` prefix).

Run as a separate process (e.g. for a workflow under ``act``)::

    python -m tests.github_double --port 0 --ready-file PORTFILE --record REQUESTS.jsonl \
        [--faults FAULTS.json] [--token T ...] [--read-only-token T ...] [--any-token]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import copy
import hashlib
import json
import re
import signal
import socket
import sys
import threading
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema import (  # type: ignore[import-untyped, unused-ignore]
    Draft4Validator,
    FormatChecker,
)
from jsonschema.exceptions import (  # type: ignore[import-untyped, unused-ignore]
    ValidationError,
)

if TYPE_CHECKING:
    from github import Github

SUBSET_PATH = Path(__file__).with_name("openapi_subset.json")
GHES_PREFIX = "/api/v3"

WRITE_TOKEN = "ghs_double_write_token"
READ_ONLY_TOKEN = "ghs_double_read_only_token"  # what a fork PR / Dependabot GITHUB_TOKEN gets

DOCS = "https://docs.github.com/rest"
SECONDARY_RATE_LIMIT_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. "
    "If you reach out to GitHub Support for help, please include the request ID "
    "DOUBLE:0000:0000000:0000000:00000000."
)
PRIMARY_RATE_LIMIT_MESSAGE = "API rate limit exceeded for installation ID 1."
NOT_ACCESSIBLE_MESSAGE = "Resource not accessible by integration"

# Friendly operation names (used by ``count`` and in records) -> OpenAPI operationId.
OPERATIONS: dict[str, str] = {
    "get_repo": "repos/get",
    "get_commit": "repos/get-commit",
    "create_check_run": "checks/create",
    "get_check_run": "checks/get",
    "update_check_run": "checks/update",
    "list_check_run_annotations": "checks/list-annotations",
    "list_check_runs_for_ref": "checks/list-for-ref",
    "get_issue": "issues/get",
    "list_issue_comments": "issues/list-comments",
    "create_issue_comment": "issues/create-comment",
    "update_issue_comment": "issues/update-comment",
    "compare_commits": "repos/compare-commits-with-basehead",
    "get_content": "repos/get-content",
}
_FRIENDLY = {v: k for k, v in OPERATIONS.items()}
WRITE_OPERATIONS = frozenset({"create_check_run", "update_check_run", "create_issue_comment",
                              "update_issue_comment"})

# GitHub rules stated in the description's prose (or GitHub's docs) rather than in the schema.
ANNOTATION_TITLE_MAX_CHARS = 255
ANNOTATION_TEXT_MAX_BYTES = 64 * 1024  # "The maximum size is 64 KB" (message, raw_details)
HEADERS_OF_INTEREST = (
    "authorization",
    "accept",
    "user-agent",
    "content-type",
    "x-github-api-version",
    "host",
)

_DEFAULT_MESSAGES = {
    400: "Problems parsing JSON",
    401: "Bad credentials",
    403: NOT_ACCESSIBLE_MESSAGE,
    404: "Not Found",
    409: "Conflict",
    422: "Validation Failed",
    429: PRIMARY_RATE_LIMIT_MESSAGE,
    500: "Server Error",
    502: "Server Error",
    503: "Service Unavailable",
    504: "We couldn't respond to your request in time. Sorry about that.",
}


def default_error_body(status: int) -> dict[str, Any]:
    """The JSON body GitHub sends with an error ``status`` (message + documentation_url)."""
    return {
        "message": _DEFAULT_MESSAGES.get(status, f"HTTP {status}"),
        "documentation_url": DOCS,
        "status": str(status),
    }


# --------------------------------------------------------------------------------------------
# OpenAPI handling


def openapi_to_jsonschema(node: Any) -> Any:
    """Turn an OpenAPI 3.0 schema into a JSON Schema (draft 4) one: ``nullable`` -> null type."""
    if isinstance(node, list):
        return [openapi_to_jsonschema(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: openapi_to_jsonschema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable") is True:
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        if "type" in out:
            types = out["type"] if isinstance(out["type"], list) else [out["type"]]
            out["type"] = [*types, "null"]
        elif "enum" not in out:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def _is_datetime(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", value):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _is_uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parts = urllib.parse.urlsplit(value)
    return bool(parts.scheme) and (bool(parts.netloc) or parts.scheme in {"mailto", "urn"})


FORMAT_CHECKER = FormatChecker(formats=())
FORMAT_CHECKER.checks("date-time")(_is_datetime)
FORMAT_CHECKER.checks("uri")(_is_uri)


def _where(prefix: str, path: Iterable[str | int]) -> str:
    out = prefix
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _describe(error: ValidationError, prefix: str) -> str:
    where = _where(prefix, error.absolute_path)
    inst = error.instance
    limit = error.validator_value
    if error.validator == "maxItems" and isinstance(inst, list):
        return f"{where}: has {len(inst)} items, more than the maximum of {limit}"
    if error.validator == "maxLength" and isinstance(inst, str):
        return f"{where}: is {len(inst)} characters long, more than the maximum of {limit}"
    if error.validator == "anyOf" and where == "body":
        return (
            "body: does not match any allowed shape "
            "(conclusion is required when status is 'completed')"
        )
    message = error.message
    if len(message) > 300:
        message = message[:300] + "..."
    return f"{where}: {message}"


def schema_errors(validator: Draft4Validator, instance: Any, prefix: str) -> list[str]:
    errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.path])
    return [_describe(e, prefix) for e in errors]


@dataclass(frozen=True)
class Param:
    name: str
    location: str  # "path" | "query"
    required: bool
    schema: dict[str, Any]
    validator: Draft4Validator

    def coerce(self, raw: str) -> Any:
        kind = self.schema.get("type")
        if kind == "integer":
            try:
                return int(raw)
            except ValueError:
                return raw  # schema validation reports it
        if kind == "boolean" and raw in {"true", "false"}:
            return raw == "true"
        return raw


@dataclass(frozen=True)
class Route:
    method: str
    template: str
    regex: re.Pattern[str]
    operation_id: str
    name: str
    params: tuple[Param, ...]
    body_required: bool
    body_validator: Draft4Validator | None
    response_validators: dict[int, Draft4Validator]


class OpenApiSubset:
    """Routes and validators built from ``openapi_subset.json``."""

    def __init__(self, path: Path = SUBSET_PATH) -> None:
        self.document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        self.version: str = self.document["info"]["version"]
        self.routes: list[Route] = []
        for template, item in self.document["paths"].items():
            shared = item.get("parameters", [])
            for method, operation in item.items():
                if method == "parameters":
                    continue
                self.routes.append(self._route(method.upper(), template, operation, shared))
        # literal segments first so /commits/{ref}/check-runs never shadows another route
        self.routes.sort(key=lambda r: (-r.template.count("/"), r.template.count("{")))

    @staticmethod
    def _validator(schema: dict[str, Any]) -> Draft4Validator:
        return Draft4Validator(openapi_to_jsonschema(schema), format_checker=FORMAT_CHECKER)

    def _route(
        self, method: str, template: str, operation: dict[str, Any], shared: list[dict[str, Any]]
    ) -> Route:
        params = []
        for spec in [*shared, *operation.get("parameters", [])]:
            if spec["in"] not in {"path", "query"}:
                continue
            schema = spec.get("schema", {})
            params.append(
                Param(
                    name=spec["name"],
                    location=spec["in"],
                    required=bool(spec.get("required")),
                    schema=schema,
                    validator=self._validator(schema),
                )
            )
        body = operation.get("requestBody")
        body_validator = None
        if body is not None:
            body_validator = self._validator(body["content"]["application/json"]["schema"])
        responses: dict[int, Draft4Validator] = {}
        for status, response in operation.get("responses", {}).items():
            schema = response.get("content", {}).get("application/json", {}).get("schema")
            if schema is not None and status.isdigit():
                responses[int(status)] = self._validator(schema)
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
        if template.endswith("/contents/{path}"):  # a file path: GitHub keeps its slashes
            pattern = pattern.removesuffix("[^/]+)") + ".+)"
        op_id = operation["operationId"]
        return Route(
            method=method,
            template=template,
            regex=re.compile(f"^{pattern}$"),
            operation_id=op_id,
            name=_FRIENDLY.get(op_id, op_id),
            params=tuple(params),
            body_required=bool(body and body.get("required")),
            body_validator=body_validator,
            response_validators=responses,
        )

    def match(self, method: str, path: str) -> tuple[Route | None, dict[str, str], bool]:
        """(route, raw path params, path-exists-for-another-method)."""
        other_method = False
        for route in self.routes:
            found = route.regex.match(path)
            if found is None:
                continue
            if route.method == method:
                return route, found.groupdict(), False
            other_method = True
        return None, {}, other_method

    def response_schema(self, operation_id: str, status: int) -> dict[str, Any]:
        for item in self.document["paths"].values():
            for method, operation in item.items():
                if method != "parameters" and operation["operationId"] == operation_id:
                    content = operation["responses"][str(status)]["content"]
                    schema: dict[str, Any] = content["application/json"]["schema"]
                    return schema
        raise KeyError(operation_id)


_SYNTH_TIME = "2024-01-01T00:00:00Z"


def synthesize(schema: Mapping[str, Any], name: str, url_base: str) -> Any:
    """A minimal instance of an OpenAPI ``schema`` (required properties only).

    Nullable values become ``None``; URLs are ``{url_base}/{name}``.  Callers overlay the fields
    that matter, so the shape is valid while the content is only as realistic as needed.
    """
    if schema.get("nullable"):
        return None
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return synthesize(schema[key][0], name, url_base)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    example = schema.get("example")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {
            key: synthesize(props.get(key, {}), key, f"{url_base}/{key}")
            for key in schema.get("required", [])
        }
    if kind == "array":
        return []
    if kind == "boolean":
        return example if isinstance(example, bool) else False
    if kind == "integer":
        return example if isinstance(example, int) and not isinstance(example, bool) else 0
    if kind == "number":
        return example if isinstance(example, int | float) else 0
    if kind == "string":
        if schema.get("format") == "date-time":
            return _SYNTH_TIME
        if schema.get("format") == "uri" or name.endswith("_url") or name == "url":
            return url_base
        return example if isinstance(example, str) else ""
    return None


# --------------------------------------------------------------------------------------------
# Records and faults


@dataclass(frozen=True)
class RequestRecord:
    """One request as the double saw it (also the JSON-lines record format)."""

    seq: int
    time: str
    method: str
    path: str  # as received, without the query string (may carry the /api/v3 prefix)
    route_path: str  # with the /api/v3 prefix removed
    prefix: str  # "" or "/api/v3"
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-cased names, only HEADERS_OF_INTEREST
    operation: str | None  # friendly name, e.g. "create_check_run"; None if no route matched
    operation_id: str | None  # OpenAPI operationId, e.g. "checks/create"
    body: Any  # parsed JSON, or the raw text when it is not JSON, or None
    valid: bool
    errors: list[str]
    status: int | None  # None when the connection was dropped without a response
    response_body: Any
    fault: dict[str, Any] | None  # the injected fault that answered, if any
    response_errors: list[str] = field(default_factory=list)  # double's own schema drift

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)


@dataclass
class Fault:
    """A scripted response, consumed (``times``) before normal handling.

    Matches when ``method`` (if given) equals the request method, ``path_regex`` (if given)
    ``re.search``-es the path *without* the ``/api/v3`` prefix, and ``operation`` (if given)
    is the friendly name or operationId of the matched route.  Then:

    * ``drop``: the socket is closed without any response (after ``delay`` seconds);
    * ``status``: that status is sent (after ``delay``) with ``body`` (default: GitHub's error
      JSON for the status; a ``str`` body is sent as text/html) and ``headers``;
    * neither: only ``delay``, then the request is handled normally (a slow server: the client
      may time out while the double still applies the request, just as GitHub may).
    """

    method: str | None = None
    path_regex: str | None = None
    operation: str | None = None
    status: int | None = None
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    times: int | None = 1  # None: until cleared
    delay: float = 0.0
    drop: bool = False
    hits: int = 0

    def matches(self, method: str, route_path: str, route: Route | None) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.method is not None and self.method.upper() != method:
            return False
        if self.path_regex is not None and re.search(self.path_regex, route_path) is None:
            return False
        if self.operation is None:
            return True
        return route is not None and self.operation in {route.name, route.operation_id}

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def describe(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("body")
        return out


FAULT_FIELDS = frozenset(
    {"method", "path_regex", "operation", "status", "body", "headers", "times", "delay", "drop"}
)


def fault_from_mapping(spec: Mapping[str, Any]) -> Fault:
    unknown = set(spec) - FAULT_FIELDS
    if unknown:
        raise ValueError(f"unknown fault keys: {sorted(unknown)}")
    return Fault(**{k: v for k, v in spec.items()})


# --------------------------------------------------------------------------------------------
# The double


def _now() -> datetime:
    return datetime.now(UTC)


def _ts(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class _Reply:
    status: int | None
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


class GitHubDouble:
    """In-memory GitHub check-run API over HTTP.  Use as a context manager or start()/stop()."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        tokens: Iterable[str] = (WRITE_TOKEN,),
        read_only_tokens: Iterable[str] = (READ_ONLY_TOKEN,),
        accept_any_token: bool = False,
        record_path: Path | str | None = None,
        subset_path: Path = SUBSET_PATH,
        clock: Callable[[], datetime] = _now,
        first_check_run_id: int = 1,
    ) -> None:
        self.host = host
        self._requested_port = port
        self.tokens = set(tokens)
        self.read_only_tokens = set(read_only_tokens)
        self.accept_any_token = accept_any_token
        self.record_path = Path(record_path) if record_path is not None else None
        self.api = OpenApiSubset(subset_path)
        self.clock = clock
        self._lock = threading.RLock()
        self._stopping = threading.Event()
        self._faults: list[Fault] = []
        self._records: list[RequestRecord] = []
        self._runs: dict[int, dict[str, Any]] = {}
        self._comments: dict[int, dict[str, Any]] = {}  # pull-request (issue) comments
        self._next_comment_id = 9001
        #: (repo, base, head) -> the changed files GitHub's compare lists (set by the tests)
        self._comparisons: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        #: (repo, ref, path) -> what ``GET .../contents/{path}?ref=`` answers (set by the tests)
        self._contents: dict[tuple[str, str, str], tuple[str, bytes]] = {}
        self._first_id = first_check_run_id
        self._next_id = first_check_run_id
        self._suites: dict[tuple[str, str], int] = {}
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> GitHubDouble:
        if self._server is not None:
            return self
        double = self

        class Handler(_Handler):
            pass

        Handler.double = double
        server = ThreadingHTTPServer((self.host, self._requested_port), Handler)
        server.daemon_threads = True
        self._server = server
        self._stopping.clear()
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> GitHubDouble:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the double is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """github.com style API root (serve at ``/``)."""
        return f"http://{self.host}:{self.port}"

    @property
    def ghes_base_url(self) -> str:
        """GitHub Enterprise Server style API root (``/api/v3``)."""
        return f"{self.base_url}{GHES_PREFIX}"

    def client(self, token: str = WRITE_TOKEN, *, ghes: bool = False, **kwargs: Any) -> Github:
        """A real PyGithub client aimed at the double (no client-side throttling by default)."""
        from github import Auth, Github

        kwargs.setdefault("seconds_between_requests", None)
        kwargs.setdefault("seconds_between_writes", None)
        base = self.ghes_base_url if ghes else self.base_url
        return Github(base_url=base, auth=Auth.Token(token), **kwargs)

    # -- faults ----------------------------------------------------------------------------

    def inject(
        self,
        method: str | None = None,
        path_regex: str | None = None,
        status: int | None = None,
        *,
        operation: str | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        times: int | None = 1,
        delay: float = 0.0,
        drop: bool = False,
    ) -> Fault:
        """Queue a scripted response (see :class:`Fault`); faults are tried in queue order."""
        if status is None and not drop and delay <= 0:
            raise ValueError("a fault needs a status, drop=True or a delay")
        fault = Fault(
            method=method.upper() if method else None,
            path_regex=path_regex,
            operation=operation,
            status=status,
            body=body,
            headers=dict(headers or {}),
            times=times,
            delay=delay,
            drop=drop,
        )
        with self._lock:
            self._faults.append(fault)
        return fault

    def inject_secondary_rate_limit(
        self,
        method: str | None = None,
        path_regex: str | None = None,
        *,
        operation: str | None = None,
        retry_after: int | None = 1,
        status: int = 403,
        times: int | None = 1,
    ) -> Fault:
        """GitHub's secondary rate limit answer: 403 (or 429), ``Retry-After``, message."""
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        body = {"message": SECONDARY_RATE_LIMIT_MESSAGE, "documentation_url": DOCS}
        return self.inject(
            method,
            path_regex,
            status,
            operation=operation,
            body=body,
            headers=headers,
            times=times,
        )

    def inject_primary_rate_limit(
        self,
        method: str | None = None,
        path_regex: str | None = None,
        *,
        operation: str | None = None,
        reset_in: int = 1,
        status: int = 403,
        times: int | None = 1,
    ) -> Fault:
        """GitHub's primary rate limit answer: 403, ``X-RateLimit-Remaining: 0`` + reset."""
        reset = int(self.clock().timestamp()) + reset_in
        headers = {
            "X-RateLimit-Limit": "5000",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Used": "5000",
            "X-RateLimit-Reset": str(reset),
            "X-RateLimit-Resource": "core",
        }
        body = {"message": PRIMARY_RATE_LIMIT_MESSAGE, "documentation_url": DOCS}
        return self.inject(
            method,
            path_regex,
            status,
            operation=operation,
            body=body,
            headers=headers,
            times=times,
        )

    def load_faults(self, specs: Sequence[Mapping[str, Any]]) -> None:
        for spec in specs:
            fault = fault_from_mapping(spec)
            self.inject(
                fault.method,
                fault.path_regex,
                fault.status,
                operation=fault.operation,
                body=fault.body,
                headers=fault.headers,
                times=fault.times,
                delay=fault.delay,
                drop=fault.drop,
            )

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    @property
    def faults(self) -> list[Fault]:
        """Faults that can still fire."""
        with self._lock:
            return [f for f in self._faults if not f.exhausted]

    # -- inspection ------------------------------------------------------------------------

    @property
    def requests(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._records)

    def invalid_requests(self) -> list[RequestRecord]:
        return [r for r in self.requests if not r.valid]

    def count(self, operation: str, *, status: int | None = None) -> int:
        """Requests that reached ``operation`` (friendly name or operationId), faults included."""
        return sum(
            1
            for r in self.requests
            if operation in {r.operation, r.operation_id} and (status is None or r.status == status)
        )

    @property
    def check_runs(self) -> dict[int, dict[str, Any]]:
        """Stored state: id -> {repo, name, head_sha, ..., output{...}, annotations[...]}."""
        with self._lock:
            return copy.deepcopy(self._runs)

    @property
    def comments(self) -> dict[int, dict[str, Any]]:
        """Stored issue comments: id -> {repo, issue_number, body, created_at, updated_at}."""
        with self._lock:
            return copy.deepcopy(self._comments)

    def set_comparison(self, repository: str, base: str, head: str,
                       files: Sequence[str | tuple[str, str]]) -> None:
        """What ``GET /repos/{repository}/compare/{base}...{head}`` lists: each file a path, or
        ``(path, previous path)`` for a rename. A comparison never set answers 404."""
        entries: list[dict[str, Any]] = []
        for item in files:
            path, previous = (item, None) if isinstance(item, str) else item
            entry: dict[str, Any] = {"filename": path, "status": "renamed" if previous
                                     else "modified"}
            if previous:
                entry["previous_filename"] = previous
            entries.append(entry)
        with self._lock:
            self._comparisons[(repository.lower(), base, head)] = entries

    def set_content(self, repository: str, ref: str, path: str, data: bytes | str, *,
                    kind: str = "file") -> None:
        """What ``GET /repos/{repository}/contents/{path}?ref={ref}`` answers: a file holding
        ``data`` (``kind="file"``), a symbolic link to ``data`` (``"symlink"``) or a folder
        (``"dir"``, listing one file). A path never set answers 404, as a missing file does."""
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        if kind not in {"file", "symlink", "dir"}:
            raise ValueError(kind)
        with self._lock:
            self._contents[(repository.lower(), ref, path)] = (kind, raw)

    def reset(self) -> None:
        with self._lock:
            self._faults.clear()
            self._records.clear()
            self._runs.clear()
            self._comments.clear()
            self._comparisons.clear()
            self._contents.clear()
            self._next_comment_id = 9001
            self._suites.clear()
            self._next_id = self._first_id

    # -- request handling (called from handler threads) ------------------------------------

    def _take_fault(self, method: str, route_path: str, route: Route | None) -> Fault | None:
        with self._lock:
            for fault in self._faults:
                if fault.matches(method, route_path, route):
                    fault.hits += 1
                    return copy.deepcopy(fault)
        return None

    def _record(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)
            if self.record_path is not None:
                with self.record_path.open("a", encoding="utf-8") as fh:
                    fh.write(record.to_json() + "\n")
                    fh.flush()

    def handle(
        self,
        handler: _Handler,
        method: str,
        raw_target: str,
        headers: Mapping[str, str],
        raw_body: bytes,
    ) -> None:
        split = urllib.parse.urlsplit(raw_target)
        path = split.path
        prefix = GHES_PREFIX if path == GHES_PREFIX or path.startswith(GHES_PREFIX + "/") else ""
        route_path = path[len(prefix) :] or "/"
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
        host = headers.get("host") or f"{self.host}:{self.port}"
        ctx = _Context(
            double=self,
            api_base=f"http://{host}{prefix}",
            web_base=f"http://{host}",
            raw_path=path,
            query=query,
        )
        route, path_params, other_method = self.api.match(method, route_path)

        body: Any = None
        body_ok = True
        text = raw_body.decode("utf-8", errors="replace")
        if raw_body:
            try:
                body = json.loads(text)
            except ValueError:
                body, body_ok = text, False

        errors: list[str] = []
        if route is None:
            what = "method not allowed on" if other_method else "no operation in the subset for"
            errors.append(f"{what} {method} {route_path}")
        else:
            errors.extend(self._validate(route, path_params, query, body, body_ok, raw_body))

        fault = self._take_fault(method, route_path, route)
        reply: _Reply
        if fault is not None and (fault.delay > 0):
            self._stopping.wait(fault.delay)
        if fault is not None and fault.drop:
            reply = _Reply(status=None)
        elif fault is not None and fault.status is not None:
            fault_body = fault.body if fault.body is not None else default_error_body(fault.status)
            reply = _Reply(fault.status, fault_body, dict(fault.headers))
        else:
            reply = self._answer(ctx, method, route, path_params, headers, body, body_ok, errors)

        response_errors: list[str] = []
        scripted = fault is not None and (fault.drop or fault.status is not None)
        if route is not None and reply.status in route.response_validators and not scripted:
            validator = route.response_validators[reply.status]
            response_errors = schema_errors(validator, reply.body, "response")

        record = RequestRecord(
            seq=0,
            time=_ts(self.clock()),
            method=method,
            path=path,
            route_path=route_path,
            prefix=prefix,
            query=query,
            headers={k: v for k, v in headers.items() if k in HEADERS_OF_INTEREST},
            operation=route.name if route else None,
            operation_id=route.operation_id if route else None,
            body=body,
            valid=not errors,
            errors=errors,
            status=reply.status,
            response_body=reply.body,
            fault=fault.describe() if fault is not None else None,
            response_errors=response_errors,
        )
        with self._lock:
            record = RequestRecord(**{**asdict(record), "seq": len(self._records) + 1})
            self._record(record)

        if reply.status is None:
            handler.drop()
        else:
            handler.reply(reply.status, reply.body, reply.headers)

    def _validate(
        self,
        route: Route,
        path_params: Mapping[str, str],
        query: Mapping[str, list[str]],
        body: Any,
        body_ok: bool,
        raw_body: bytes,
    ) -> list[str]:
        errors: list[str] = []
        for param in route.params:
            if param.location == "path":
                raw: str | None = urllib.parse.unquote(path_params[param.name])
            else:
                values = query.get(param.name)
                raw = values[-1] if values else None
            if raw is None:
                if param.required:
                    errors.append(f"{param.location}.{param.name}: is required")
                continue
            errors.extend(
                schema_errors(param.validator, param.coerce(raw), f"{param.location}.{param.name}")
            )
        if route.body_validator is None:
            return errors
        if not raw_body:
            if route.body_required:
                errors.append("body: a JSON request body is required")
            return errors
        if not body_ok:
            errors.append("body: Problems parsing JSON")
            return errors
        errors.extend(schema_errors(route.body_validator, body, "body"))
        errors.extend(github_rules(route.name, body))
        return errors

    def _answer(
        self,
        ctx: _Context,
        method: str,
        route: Route | None,
        path_params: Mapping[str, str],
        headers: Mapping[str, str],
        body: Any,
        body_ok: bool,
        errors: list[str],
    ) -> _Reply:
        auth = headers.get("authorization", "").strip()
        if not auth:
            return _Reply(401, {"message": "Requires authentication", "documentation_url": DOCS})
        scheme, _, token = auth.partition(" ")
        token = token.strip()
        if scheme.lower() not in {"token", "bearer"} or not token:
            return _Reply(401, default_error_body(401))
        writable = token in self.tokens or (
            self.accept_any_token and token not in self.read_only_tokens
        )
        if not writable and token not in self.read_only_tokens:
            return _Reply(401, default_error_body(401))
        if route is None:
            return _Reply(404, default_error_body(404))
        if not body_ok and route.body_validator is not None:
            return _Reply(400, default_error_body(400))
        if route.name in WRITE_OPERATIONS and not writable:
            return _Reply(403, default_error_body(403))
        if errors:
            return _Reply(
                422,
                {
                    "message": "Invalid request.\n\n" + "\n".join(errors),
                    "errors": errors,
                    "documentation_url": DOCS,
                    "status": "422",
                },
            )
        params = {k: urllib.parse.unquote(v) for k, v in path_params.items()}
        with self._lock:
            return ctx.dispatch(route.name, params, body)


def github_rules(operation: str, body: Any) -> list[str]:
    """GitHub rules that the OpenAPI description states only in prose."""
    if operation not in WRITE_OPERATIONS or not isinstance(body, dict):
        return []
    errors: list[str] = []
    completed = body.get("status") == "completed" or "completed_at" in body
    if operation == "create_check_run" and completed and "conclusion" not in body:
        errors.append(
            "body.conclusion: is required when status is 'completed' or completed_at is set"
        )
    if body.get("conclusion") == "stale":
        errors.append("body.conclusion: 'stale' can only be set by GitHub")
    output = body.get("output")
    annotations = output.get("annotations") if isinstance(output, dict) else None
    for index, note in enumerate(annotations if isinstance(annotations, list) else []):
        if not isinstance(note, dict):
            continue
        where = f"body.output.annotations[{index}]"
        title = note.get("title")
        if isinstance(title, str) and len(title) > ANNOTATION_TITLE_MAX_CHARS:
            errors.append(
                f"{where}.title: is {len(title)} characters long, "
                f"more than the maximum of {ANNOTATION_TITLE_MAX_CHARS}"
            )
        for key in ("message", "raw_details"):
            value = note.get(key)
            if isinstance(value, str) and len(value.encode()) > ANNOTATION_TEXT_MAX_BYTES:
                errors.append(
                    f"{where}.{key}: is {len(value.encode())} bytes, "
                    f"more than the maximum of {ANNOTATION_TEXT_MAX_BYTES} (64 KB)"
                )
        has_columns = "start_column" in note or "end_column" in note
        if has_columns and note.get("start_line") != note.get("end_line"):
            errors.append(
                f"{where}: start_column/end_column are only allowed when start_line == end_line"
            )
    return errors


# --------------------------------------------------------------------------------------------
# Responses


@dataclass
class _Context:
    double: GitHubDouble
    api_base: str  # http://host:port[/api/v3]
    web_base: str  # http://host:port
    raw_path: str
    query: dict[str, list[str]]

    def repo_urls(self, owner: str, repo: str) -> tuple[str, str]:
        return f"{self.api_base}/repos/{owner}/{repo}", f"{self.web_base}/{owner}/{repo}"

    def user(self, login: str, user_id: int, kind: str = "User") -> dict[str, Any]:
        api = f"{self.api_base}/users/{login}"
        return {
            "login": login,
            "id": user_id,
            "node_id": f"MDQ6VXNlcj{user_id}",
            "avatar_url": f"{self.web_base}/avatars/{login}",
            "gravatar_id": "",
            "url": api,
            "html_url": f"{self.web_base}/{login}",
            "followers_url": f"{api}/followers",
            "following_url": f"{api}/following{{/other_user}}",
            "gists_url": f"{api}/gists{{/gist_id}}",
            "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{api}/subscriptions",
            "organizations_url": f"{api}/orgs",
            "repos_url": f"{api}/repos",
            "events_url": f"{api}/events{{/privacy}}",
            "received_events_url": f"{api}/received_events",
            "type": kind,
            "site_admin": False,
        }

    def app(self) -> dict[str, Any]:
        return {
            "id": 15368,
            "slug": "github-actions",
            "node_id": "MDM6QXBwMTUzNjg=",
            "client_id": "Iv1.double",
            "owner": self.user("github", 9919, "Organization"),
            "name": "GitHub Actions",
            "description": "Automate your workflow from idea to production",
            "external_url": "https://help.github.com/en/actions",
            "html_url": f"{self.web_base}/apps/github-actions",
            "created_at": "2018-07-30T09:30:17Z",
            "updated_at": "2024-04-10T20:33:16Z",
            "permissions": {"checks": "write", "contents": "read", "metadata": "read"},
            "events": ["check_run", "check_suite"],
        }

    @staticmethod
    def resolve_sha(owner: str, repo: str, ref: str) -> str:
        if re.fullmatch(r"[0-9a-fA-F]{40}", ref):
            return ref.lower()
        digest = hashlib.sha1(f"{owner}/{repo}@{ref}".lower().encode(), usedforsecurity=False)
        return digest.hexdigest()

    def dispatch(self, name: str, params: Mapping[str, str], body: Any) -> _Reply:
        owner, repo = params["owner"], params["repo"]
        if name == "get_repo":
            return _Reply(200, self.repository(owner, repo))
        if name == "get_commit":
            return _Reply(200, self.commit(owner, repo, params["ref"]))
        if name == "create_check_run":
            run = self.create(owner, repo, body)
            rendered = self.render(run)
            return _Reply(201, rendered, {"Location": str(rendered["url"])})
        if name == "list_check_runs_for_ref":
            return self.list_for_ref(owner, repo, params["ref"])
        if name in {"get_issue", "list_issue_comments", "create_issue_comment",
                    "update_issue_comment"}:
            return self.issue_call(name, owner, repo, params, body)
        if name == "compare_commits":
            return self.compare(owner, repo, params["basehead"])
        if name == "get_content":
            return self.content(owner, repo, params["path"])
        run_id = int(params["check_run_id"])
        found = self.double._runs.get(run_id)
        if found is None or found["repo"] != f"{owner}/{repo}".lower():
            return _Reply(404, default_error_body(404))
        if name == "get_check_run":
            return _Reply(200, self.render(found))
        if name == "update_check_run":
            self.update(found, body)
            return _Reply(200, self.render(found))
        if name == "list_check_run_annotations":
            notes = [self.annotation(owner, repo, found, n) for n in found["annotations"]]
            return self.paginate(notes, None)
        return _Reply(404, default_error_body(404))

    # -- issue (pull-request) comments -----------------------------------------------------

    def issue_call(self, name: str, owner: str, repo: str, params: Mapping[str, str],
                   body: Any) -> _Reply:
        double = self.double
        key = f"{owner}/{repo}".lower()
        if name == "update_issue_comment":
            found = double._comments.get(int(params["comment_id"]))
            if found is None or found["repo"] != key:
                return _Reply(404, default_error_body(404))
            found["body"] = body["body"]
            found["updated_at"] = _ts(double.clock())
            return _Reply(200, self.comment(owner, repo, found))
        number = int(params["issue_number"])
        if name == "get_issue":
            return _Reply(200, self.issue(owner, repo, number))
        if name == "list_issue_comments":
            mine = [self.comment(owner, repo, c) for c in sorted(
                double._comments.values(), key=lambda c: c["id"])
                if c["repo"] == key and c["issue_number"] == number]
            return self.paginate(mine, None)
        now = _ts(double.clock())
        comment = {"id": double._next_comment_id, "repo": key, "issue_number": number,
                   "body": body["body"], "created_at": now, "updated_at": now}
        double._next_comment_id += 1
        double._comments[comment["id"]] = comment
        rendered = self.comment(owner, repo, comment)
        return _Reply(201, rendered, {"Location": str(rendered["url"])})

    def compare(self, owner: str, repo: str, basehead: str) -> _Reply:
        """A comparison the test set (:meth:`GitHubDouble.set_comparison`); its files on the
        first page only, at most 300, as GitHub lists them (paging pages the commits)."""
        base, sep, head = urllib.parse.unquote(basehead).partition("...")
        found = self.double._comparisons.get((f"{owner}/{repo}".lower(), base, head))
        if not sep or found is None:
            return _Reply(404, default_error_body(404))
        api, web = self.repo_urls(owner, repo)
        url = f"{api}/compare/{basehead}"
        data: dict[str, Any] = synthesize(self.schema("repos/compare-commits-with-basehead"),
                                          "comparison", url)
        head_sha = self.resolve_sha(owner, repo, head)
        files = []
        page = int((self.query.get("page") or ["1"])[-1])
        for index, entry in enumerate(found[:300] if page == 1 else []):
            path = str(entry["filename"])
            quoted = urllib.parse.quote(path)
            files.append({"sha": hashlib.sha1(f"{index}{path}".encode(),
                                              usedforsecurity=False).hexdigest(),
                          "filename": path, "status": entry["status"], "additions": 1,
                          "deletions": 1, "changes": 2,
                          "blob_url": f"{web}/blob/{head_sha}/{quoted}",
                          "raw_url": f"{web}/raw/{head_sha}/{quoted}",
                          "contents_url": f"{api}/contents/{quoted}?ref={head_sha}",
                          **({"previous_filename": entry["previous_filename"]}
                             if "previous_filename" in entry else {})})
        data.update(url=url, html_url=f"{web}/compare/{basehead}",
                    permalink_url=f"{web}/compare/{basehead}",
                    diff_url=f"{web}/compare/{basehead}.diff",
                    patch_url=f"{web}/compare/{basehead}.patch", status="ahead", ahead_by=1,
                    behind_by=0, total_commits=1, commits=[], files=files)
        return _Reply(200, data)

    def content(self, owner: str, repo: str, path: str) -> _Reply:
        """A file (base64, as GitHub sends files up to 1 MB), a symbolic link or a folder the
        test set (:meth:`GitHubDouble.set_content`) at ``?ref=``; the default branch when no
        ref is given."""
        ref = (self.query.get("ref") or ["main"])[-1]
        found = self.double._contents.get((f"{owner}/{repo}".lower(), ref, path))
        if found is None:
            return _Reply(404, default_error_body(404))
        kind, raw = found
        api, web = self.repo_urls(owner, repo)

        def entry(entry_path: str, entry_kind: str, size: int) -> dict[str, Any]:
            quoted = urllib.parse.quote(entry_path)
            sha = hashlib.sha1(f"{ref}:{entry_path}".encode(), usedforsecurity=False).hexdigest()
            self_url = f"{api}/contents/{quoted}?ref={urllib.parse.quote(ref)}"
            git_url = f"{api}/git/blobs/{sha}"
            html_url = f"{web}/blob/{urllib.parse.quote(ref)}/{quoted}"
            return {"type": entry_kind, "size": size, "name": entry_path.rsplit("/", 1)[-1],
                    "path": entry_path, "sha": sha, "url": self_url, "git_url": git_url,
                    "html_url": html_url,
                    "download_url": f"{web}/raw/{urllib.parse.quote(ref)}/{quoted}",
                    "_links": {"git": git_url, "html": html_url, "self": self_url}}

        if kind == "dir":
            return _Reply(200, [entry(f"{path}/file", "file", len(raw))])
        data = entry(path, kind, len(raw))
        if kind == "symlink":
            data["target"] = raw.decode("utf-8", errors="replace")
        else:
            encoded = base64.b64encode(raw).decode("ascii")
            # GitHub wraps the base64 at 60 characters, one line each
            data.update(encoding="base64", content="".join(
                encoded[i:i + 60] + "\n" for i in range(0, len(encoded), 60)))
        return _Reply(200, data)

    def issue(self, owner: str, repo: str, number: int) -> dict[str, Any]:
        api, web = self.repo_urls(owner, repo)
        url = f"{api}/issues/{number}"
        data: dict[str, Any] = synthesize(self.schema("issues/get"), "issue", url)
        data.update(id=number + 100_000, node_id=f"PR_double{number}", url=url, number=number,
                    repository_url=api, labels_url=f"{url}/labels{{/name}}",
                    comments_url=f"{url}/comments", events_url=f"{url}/events",
                    html_url=f"{web}/pull/{number}", state="open", title=f"pull request {number}",
                    user=self.user("agent", 4242), locked=False, comments=0,
                    created_at=_SYNTH_TIME, updated_at=_SYNTH_TIME, closed_at=None,
                    author_association="CONTRIBUTOR")
        return data

    def comment(self, owner: str, repo: str, stored: Mapping[str, Any]) -> dict[str, Any]:
        api, web = self.repo_urls(owner, repo)
        url = f"{api}/issues/comments/{stored['id']}"
        data: dict[str, Any] = synthesize(self.schema("issues/create-comment", 201), "comment",
                                          url)
        data.update(id=stored["id"], node_id=f"IC_double{stored['id']}", url=url,
                    html_url=f"{web}/pull/{stored['issue_number']}#issuecomment-{stored['id']}",
                    issue_url=f"{api}/issues/{stored['issue_number']}", body=stored["body"],
                    user=self.user("github-actions[bot]", 41898282, "Bot"),
                    created_at=stored["created_at"], updated_at=stored["updated_at"],
                    author_association="NONE")
        return data

    def schema(self, operation_id: str, status: int = 200) -> dict[str, Any]:
        return self.double.api.response_schema(operation_id, status)

    def repository(self, owner: str, repo: str) -> dict[str, Any]:
        api, web = self.repo_urls(owner, repo)
        data: dict[str, Any] = synthesize(self.schema("repos/get"), "repository", api)
        repo_id = int(
            hashlib.sha1(f"{owner}/{repo}".lower().encode(), usedforsecurity=False).hexdigest()[:8],
            16,
        )
        data.update(
            id=repo_id,
            node_id=f"R_double{repo_id}",
            name=repo,
            full_name=f"{owner}/{repo}",
            owner=self.user(owner, repo_id + 1),
            private=False,
            html_url=web,
            url=api,
            description=None,
            fork=False,
            default_branch="main",
            clone_url=f"{web}.git",
            git_url=f"git://{web.partition('://')[2]}.git",
            ssh_url=f"git@{web.partition('://')[2].partition('/')[0]}:{owner}/{repo}.git",
            svn_url=web,
            visibility="public",
            permissions={
                "admin": False,
                "maintain": False,
                "push": True,
                "triage": True,
                "pull": True,
            },
        )
        return data

    def commit(self, owner: str, repo: str, ref: str) -> dict[str, Any]:
        sha = self.resolve_sha(owner, repo, ref)
        api, web = self.repo_urls(owner, repo)
        url = f"{api}/commits/{sha}"
        data: dict[str, Any] = synthesize(self.schema("repos/get-commit"), "commit", url)
        person = {"name": "Double", "email": "double@example.invalid", "date": _SYNTH_TIME}
        data.update(
            url=url,
            sha=sha,
            node_id=f"C_double{sha[:12]}",
            html_url=f"{web}/commit/{sha}",
            comments_url=f"{url}/comments",
            author=None,
            committer=None,
            parents=[],
            files=[],
            stats={"additions": 0, "deletions": 0, "total": 0},
        )
        data["commit"].update(
            url=f"{api}/git/commits/{sha}",
            author=person,
            committer=person,
            message="commit served by the GitHub double",
            comment_count=0,
            tree={"sha": "0" * 40, "url": f"{api}/git/trees/{'0' * 40}"},
        )
        return data

    def create(self, owner: str, repo: str, body: dict[str, Any]) -> dict[str, Any]:
        double = self.double
        run_id = double._next_id
        double._next_id += 1
        key = (f"{owner}/{repo}".lower(), str(body["head_sha"]))
        suite = double._suites.setdefault(key, len(double._suites) + 1)
        now = _ts(double.clock())
        run: dict[str, Any] = {
            "id": run_id,
            "repo": key[0],
            "owner": owner,
            "repo_name": repo,
            "check_suite_id": suite,
            "name": body["name"],
            "head_sha": body["head_sha"],
            "details_url": None,
            "external_id": None,
            "status": "queued",
            "conclusion": None,
            "started_at": now,
            "completed_at": None,
            "output": {"title": None, "summary": None, "text": None, "images": []},
            "annotations": [],
            "actions": [],
        }
        self.apply(run, body)
        double._runs[run_id] = run
        return run

    def update(self, run: dict[str, Any], body: dict[str, Any]) -> None:
        self.apply(run, body)

    def apply(self, run: dict[str, Any], body: dict[str, Any]) -> None:
        for key in ("name", "details_url", "external_id", "started_at", "completed_at"):
            if key in body:
                run[key] = body[key]
        if "actions" in body:
            run["actions"] = list(body["actions"])
        if "status" in body:
            run["status"] = body["status"]
        if "conclusion" in body:
            run["conclusion"] = body["conclusion"]
            run["status"] = "completed"
        if run["status"] == "completed":
            run["completed_at"] = run["completed_at"] or _ts(self.double.clock())
        else:
            run["conclusion"] = None
            run["completed_at"] = None
        output = body.get("output")
        if isinstance(output, dict):
            for key in ("title", "summary", "text"):
                if key in output:
                    run["output"][key] = output[key]
            run["output"]["images"] = list(output.get("images", run["output"]["images"]))
            run["annotations"].extend(copy.deepcopy(output.get("annotations", [])))

    def render(self, run: dict[str, Any]) -> dict[str, Any]:
        owner, repo = run["owner"], run["repo_name"]
        api, web = self.repo_urls(owner, repo)
        url = f"{api}/check-runs/{run['id']}"
        return {
            "id": run["id"],
            "node_id": f"CR_double{run['id']}",
            "head_sha": run["head_sha"],
            "external_id": run["external_id"] if run["external_id"] is not None else "",
            "url": url,
            "html_url": f"{web}/runs/{run['id']}",
            "details_url": run["details_url"] or f"{web}/runs/{run['id']}",
            "status": run["status"],
            "conclusion": run["conclusion"],
            "started_at": run["started_at"],
            "completed_at": run["completed_at"],
            "output": {
                "title": run["output"]["title"],
                "summary": run["output"]["summary"],
                "text": run["output"]["text"],
                "annotations_count": len(run["annotations"]),
                "annotations_url": f"{url}/annotations",
            },
            "name": run["name"],
            "check_suite": {"id": run["check_suite_id"]},
            "app": self.app(),
            "pull_requests": [],
        }

    def annotation(
        self, owner: str, repo: str, run: dict[str, Any], note: dict[str, Any]
    ) -> dict[str, Any]:
        _, web = self.repo_urls(owner, repo)
        return {
            "path": note["path"],
            "blob_href": f"{web}/blob/{run['head_sha']}/{note['path']}",
            "start_line": note["start_line"],
            "end_line": note["end_line"],
            "start_column": note.get("start_column"),
            "end_column": note.get("end_column"),
            "annotation_level": note["annotation_level"],
            "title": note.get("title", ""),
            "message": note["message"],
            "raw_details": note.get("raw_details", ""),
        }

    def list_for_ref(self, owner: str, repo: str, ref: str) -> _Reply:
        sha = self.resolve_sha(owner, repo, ref)
        repo_key = f"{owner}/{repo}".lower()
        q = {k: v[-1] for k, v in self.query.items() if v}
        runs = [
            r
            for r in self.double._runs.values()
            if r["repo"] == repo_key
            and r["head_sha"] == sha
            and ("check_name" not in q or r["name"] == q["check_name"])
            and ("status" not in q or r["status"] == q["status"])
        ]
        runs.sort(key=lambda r: int(r["id"]), reverse=True)  # newest first
        if q.get("filter", "latest") == "latest":
            seen: set[str] = set()
            latest = []
            for run in runs:
                if run["name"] not in seen:
                    seen.add(run["name"])
                    latest.append(run)
            runs = latest
        return self.paginate([self.render(r) for r in runs], "check_runs")

    def paginate(self, items: list[dict[str, Any]], list_key: str | None) -> _Reply:
        q = {k: v[-1] for k, v in self.query.items() if v}
        per_page = max(1, min(100, int(q.get("per_page", "30"))))
        page = max(1, int(q.get("page", "1")))
        last = max(1, -(-len(items) // per_page))
        chunk = items[(page - 1) * per_page : page * per_page]
        links = []

        def link(number: int, rel: str) -> str:
            params = {k: v for k, v in q.items() if k not in {"page", "per_page"}}
            params.update(per_page=str(per_page), page=str(number))
            target = f"{self.api_base.split('/api/v3')[0]}{self.raw_path}"
            return f'<{target}?{urllib.parse.urlencode(params)}>; rel="{rel}"'

        if page > 1:
            links += [link(page - 1, "prev"), link(1, "first")]
        if page < last:
            links += [link(page + 1, "next"), link(last, "last")]
        headers = {"Link": ", ".join(links)} if links else {}
        body: Any = {"total_count": len(items), list_key: chunk} if list_key else chunk
        return _Reply(200, body, headers)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "GitHubDouble/1"
    timeout = 30
    disable_nagle_algorithm = True  # headers and body are separate writes: avoid 40 ms stalls
    double: GitHubDouble

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw_body = self.rfile.read(length) if length > 0 else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.double.handle(self, self.command, self.path, headers, raw_body)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _serve

    def reply(self, status: int, body: Any, headers: Mapping[str, str]) -> None:
        if isinstance(body, str):
            payload, ctype = body.encode(), "text/html; charset=utf-8"
        elif body is None:
            payload, ctype = b"", "application/json; charset=utf-8"
        else:
            payload = json.dumps(body).encode()
            ctype = "application/json; charset=utf-8"
        self.send_response(status)
        base = {
            "Content-Type": ctype,
            "Content-Length": str(len(payload)),
            "X-GitHub-Media-Type": "github.v3; format=json",
            "X-GitHub-Request-Id": f"DOUBLE:{threading.get_ident():x}",
            "X-RateLimit-Limit": "5000",
            "X-RateLimit-Remaining": "4999",
            "X-RateLimit-Used": "1",
            "X-RateLimit-Reset": str(int(self.double.clock().timestamp()) + 3600),
            "X-RateLimit-Resource": "core",
        }
        base.update(headers)
        for key, value in base.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)
        self.wfile.flush()

    def drop(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


# --------------------------------------------------------------------------------------------
# Separate-process mode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.github_double", description="GitHub check-run API double"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--record", type=Path, help="append one JSON line per request here")
    parser.add_argument("--ready-file", type=Path, help="write the bound port here when ready")
    parser.add_argument("--faults", type=Path, help="JSON list of faults (inject() keywords)")
    parser.add_argument("--token", action="append", default=None, help="write token")
    parser.add_argument("--read-only-token", action="append", default=None)
    parser.add_argument("--any-token", action="store_true", help="any other token may write")
    args = parser.parse_args(argv)

    double = GitHubDouble(
        host=args.host,
        port=args.port,
        tokens=args.token if args.token is not None else (WRITE_TOKEN,),
        read_only_tokens=(
            args.read_only_token if args.read_only_token is not None else (READ_ONLY_TOKEN,)
        ),
        accept_any_token=args.any_token,
        record_path=args.record,
    )
    if args.faults is not None:
        specs = json.loads(args.faults.read_text(encoding="utf-8"))
        if not isinstance(specs, list):
            parser.error("--faults must hold a JSON list")
        double.load_faults(specs)
    if args.record is not None:
        args.record.touch()

    stop = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    double.start()
    try:
        if args.ready_file is not None:
            tmp = args.ready_file.with_name(args.ready_file.name + ".tmp")
            tmp.write_text(f"{double.port}\n", encoding="utf-8")
            tmp.replace(args.ready_file)
        print(f"github double listening on {double.base_url}", file=sys.stderr, flush=True)
        while not stop.wait(0.2):
            pass
    finally:
        double.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
