"""Receipt attempt folders (SPEC §5, issue 14 class 12): the bootstrap rules, enforced.

``gate receipt bootstrap --attempt-id A --dir D`` mints the workspace generation outside the
agent, creates ``D/A/`` and records the generation in ``D/A/workspace-generation.json``; it
refuses a folder that already holds a receipt (anything but that record). On verify, a
receipt must sit directly inside the folder of the attempt it claims, and that folder's
recorded generation must be the one the receipt is checked against: a receipt left by a
previous generation, or copied from another attempt's folder, is rejected
(``receipt_location`` / ``workspace_generation``).
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from gate.errors import GateInputError
from gate.records.files import (
    canonical_json,
    lexists,
    make_dir,
    parse_json,
    read_bytes_capped,
    write_replace,
)

GENERATION_FILE = "workspace-generation.json"
_ATTEMPT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def check_attempt_id(attempt_id: str, flag: str = "--attempt-id") -> str:
    if not _ATTEMPT_ID.fullmatch(attempt_id) or attempt_id in (".", ".."):
        raise GateInputError("gate receipt", flag, "1-128 of A-Z a-z 0-9 . _ - (a folder "
                             "name), starting with a letter or digit")
    return attempt_id


def bootstrap(directory: Path, attempt_id: str) -> tuple[Path, str]:
    """Create ``directory/attempt_id`` and mint its workspace generation."""
    folder = directory / check_attempt_id(attempt_id)
    held = [name for name in make_dir(folder) if name != GENERATION_FILE]
    if held:
        raise GateInputError(str(folder), "(folder)",
                             f"already holds {held[0]!r}: an attempt folder with a receipt is "
                             "never bootstrapped again (use a new attempt id)")
    generation = secrets.token_hex(16)
    write_replace(folder / GENERATION_FILE, canonical_json(
        {"attempt_id": attempt_id, "workspace_generation": generation}) + b"\n")
    return folder, generation


def _recorded(folder: Path) -> dict[str, str] | None:
    record_path = folder / GENERATION_FILE
    if not lexists(record_path):
        return None
    record = parse_json(read_bytes_capped(record_path, 4096), str(record_path))
    if not (isinstance(record, dict) and isinstance(record.get("attempt_id"), str)
            and isinstance(record.get("workspace_generation"), str)):
        raise GateInputError(str(record_path), "(record)",
                             "not a workspace generation record; bootstrap again")
    return record


def place_problem(receipt: Path, workspace_generation: str, attempt_id: str | None = None,
                  directory: Path | None = None) -> str | None:
    """The reject word when the receipt is not where its attempt's rules put it, else None.

    With ``attempt_id``/``directory`` (verify ``--attempt-id A --dir D``) the receipt must be
    directly in ``D/A`` and that folder must have been bootstrapped. Without them, a receipt
    in a bootstrapped folder must still agree with it (attempt name and generation)."""
    folder = receipt.parent
    if attempt_id is not None:
        check_attempt_id(attempt_id)
        wanted = (directory or folder.parent) / attempt_id
        if Path(str(folder)).absolute() != Path(str(wanted)).absolute():
            return "receipt_location"
    record = _recorded(folder)
    if record is None:
        return "receipt_location" if attempt_id is not None else None
    if record["attempt_id"] != folder.name:
        return "receipt_location"
    if record["workspace_generation"] != workspace_generation:
        return "workspace_generation"
    return None
