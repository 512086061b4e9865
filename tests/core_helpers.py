"""Shared builders and an in-process CLI runner for the core (issue 2) tests."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.commands import main as cli
from gate.decide import halt

LOCAL = "local-pinned"
FREE = "free-server"
NOW = 1_790_000_000
FUTURE = NOW + 86_400
PAST = NOW - 86_400
HASH_A = "a" * 64
HASH_B = "b" * 64
SHA_X = hashlib.sha256(b"sampler output x").hexdigest()
SHA_Y = hashlib.sha256(b"sampler output y").hexdigest()
TEST_ID = "parser_round_trip"
MARKER = halt.DEFAULT_MARKER
FIXTURE_HOST = "api.lab.invalid"
FIXTURE_SCOPE = "lab.invalid"


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def run_cli(*argv: object) -> Result:
    """``gate.commands.main.main`` in-process, with stdout and stderr captured; SystemExit folded
    in."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as exc:  # argparse --version / --help
            code = int(exc.code or 0)
    return Result(code, out.getvalue(), err.getvalue())


def assert_bad_input(result: Result, *needles: str) -> None:
    """Exit 2 with exactly one stderr line that names every needle (file, field)."""
    assert result.code == 2, (result.code, result.out, result.err)
    assert len(result.err_lines) == 1, result.err
    line = result.err_lines[0]
    assert line.startswith("gate: error: "), line
    for needle in needles:
        assert needle in line, (needle, line)


def write_json(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def card(expires: int | None = FUTURE, **extra: Any) -> dict[str, Any]:
    value: dict[str, Any] = {"property": TEST_ID, "cases": 32, "seed": 7}
    if expires is not None:
        value["freeze_expires_at"] = expires
    value.update(extra)
    return value


def stamp(
    server_class: str,
    outcome: str,
    *,
    run_id: str = "r1",
    fixture_hash: str = HASH_A,
    expires: int | None = FUTURE,
    sample_card: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    the_card = copy.deepcopy(sample_card) if sample_card is not None else card(expires)
    value: dict[str, Any] = {
        "run_id": run_id,
        "test_id": TEST_ID,
        "server_class": server_class,
        "fixture_hash": fixture_hash,
        "sample_card": the_card,
        "outcome": outcome,
        "freeze_expires_at": the_card.get("freeze_expires_at"),
    }
    value.update(extra)
    return value


def run_record(
    oracle: Any, transport: Any, sha: Any = SHA_X, *, run_id: str = "r1", **extra: Any
) -> dict[str, Any]:
    value: dict[str, Any] = {"run_id": run_id, "oracle_passed": oracle, "transport_ok": transport}
    if sha is not _MISSING:
        value["fixture_sha256"] = sha
    value.update(extra)
    return value


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()
MISSING: Any = _MISSING


def policy_yaml(entries: Sequence[dict[str, Any]] = (), **sections: Any) -> str:
    """A policy file as YAML text (JSON is YAML)."""
    body: dict[str, Any] = {"allowlist": list(entries)}
    body.update(sections)
    return json.dumps(body)


def allow_entry(
    test_id: str = TEST_ID, server_class: str = FREE, expires: int = FUTURE
) -> dict[str, Any]:
    return {"test_id": test_id, "server_class": server_class, "owner": "@parsers",
            "reason": "free runner lacks the locale", "expires": expires}


def binding_record(
    run_id: str = "run-1", generation: int = 1, scope: str = FIXTURE_SCOPE,
    host: str = FIXTURE_HOST, marker: str | None = MARKER, target_class: str = "fixture",
) -> dict[str, Any]:
    return {"run_id": run_id, "generation": generation, "scope": scope, "host": host,
            "marker": marker, "target_class": target_class}


def four_lines(sha: str | None, failure_class: str, freeze: bool, path: str | None) -> list[str]:
    return [
        f"fixture_sha256={sha or 'none'}",
        f"failure_class={failure_class}",
        f"freeze_allowed={'true' if freeze else 'false'}",
        f"fixture_path={path or 'none'}",
    ]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def bootstrapped(folder: Path, generation: str) -> list[str]:
    """Record ``generation`` for the attempt folder ``folder`` as ``gate receipt bootstrap``
    would (a chosen generation, for tests), and return the ``--attempt-id A --dir D`` that
    ``gate receipt verify`` needs for a receipt in it."""
    from gate.records import attempts

    folder.mkdir(parents=True, exist_ok=True)
    (folder / attempts.GENERATION_FILE).write_text(json.dumps(
        {"attempt_id": folder.name, "workspace_generation": generation}), encoding="utf-8")
    return ["--attempt-id", folder.name, "--dir", str(folder.parent)]


def count_forks(monkeypatch: Any) -> list[int]:
    """Record the pid of every child ``gate.records.forked.start`` forks (through
    ``monkeypatch``), so a test knows the fork path really ran."""
    from gate.records import forked

    seen: list[int] = []
    real = forked.start

    def counting(work: Callable[[], bytes]) -> forked.Child:
        child = real(work)
        seen.append(child.pid)
        return child

    monkeypatch.setattr(forked, "start", counting)
    return seen
