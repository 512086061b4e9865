"""Why a stamp job wrote no stamps: the record its stamp or signing step leaves when it stops on
bad input (``schemas/stamp-failure.schema.json``), and the gate job's reading of them.

Before, a gate job whose stamp jobs had failed said only "no artifact matched … check that the
artifact-prefix input is the same", whatever had stopped them (issue 29 item 4: a patch that
broke the package's import read as a configuration mistake). Now each stopped stamp job uploads
one small record naming its class, job, step and the one-line error it printed, and the gate
job shows it per class. A record only shows: it never opens or closes anything (a class without
stamps is ``reject_missing_stamp`` whatever a record says), and its ``reason`` is untrusted text
that every sink escapes like any other.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import canonical_json, make_dir, read_json, write_once

#: The record's file name, in its own artifact folder (never beside stamps).
NAME = "gate-stamp-failure.json"
SCHEMA = "gate-stamp-failure/v1"
#: The ``reason`` bound (the schema's ``maxLength``).
REASON_CHARS = 1000


def build(*, server_class: str, job: str, attempt: int, step: str, reason: str,
          written_at: int) -> dict[str, Any]:
    """The record, validated (``reason`` cut to its bound, on one line)."""
    line = " ".join(reason.split())
    if len(line) > REASON_CHARS:
        line = line[:REASON_CHARS - 1] + "…"
    record = {"schema": SCHEMA, "server_class": server_class, "job": job, "attempt": attempt,
              "step": step, "reason": line or "(no words)", "written_at": written_at}
    schemas.validate("stamp-failure", record, NAME)
    return record


def write(folder: Path, record: Mapping[str, Any]) -> Path:
    """Write ``record`` as ``folder/NAME`` (the folder made fresh; write-once)."""
    make_dir(folder)
    path = folder / NAME
    write_once(path, canonical_json(dict(record)) + b"\n")
    return path


def read_all(directory: Path) -> list[dict[str, Any]]:
    """Every record under ``directory`` (downloaded artifacts), by class then job; a record
    that is not valid is bad input naming it, as a bad stamp is. Links are never followed."""
    found: list[dict[str, Any]] = []
    pending = [str(directory)]
    while pending:
        current = pending.pop()
        try:
            entries = list(os.scandir(current))
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            raise GateInputError(current, "(folder)", f"cannot list: {exc.strerror}") from None
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            elif entry.name == NAME:
                info = os.lstat(entry.path)
                if not stat.S_ISREG(info.st_mode):
                    raise GateInputError(entry.path, "(file)", "not a regular file")
                record = read_json(Path(entry.path))
                schemas.validate("stamp-failure", record, entry.path)
                found.append(record)
    return sorted(found, key=lambda r: (r["server_class"], r["job"], r["attempt"]))


def words(records: list[dict[str, Any]]) -> list[str]:
    """One line per record: which class's stamp job stopped, in which step, and why."""
    return [f"the {r['server_class']} stamp job ({r['job']}, attempt {r['attempt']}) wrote no "
            f"stamps: its {r['step']} step stopped: {r['reason']}" for r in records]

