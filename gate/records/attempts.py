"""Receipt attempt folders (SPEC §5, issue 14 class 12): the bootstrap rules, enforced.

``gate receipt bootstrap --attempt-id A --dir D`` mints the workspace generation outside the
agent, creates ``D/A/`` and records the generation in ``D/A/workspace-generation.json``; it
refuses a folder that already holds a receipt (anything but that record).

Every verify (``gate receipt verify`` and the action's receipt input) names the attempt and
the folder, always: the receipt must sit directly inside ``D/A``, that folder must have been
bootstrapped for ``A``, and the receipt must name the generation minted there. The generation
the caller gives (the bootstrap's printed one, carried by the workflow) must be that one too;
without one, the minted one is used. A receipt left by a previous generation, copied from
another attempt's folder or written in a folder nobody bootstrapped is rejected
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


def check_attempt_id(attempt_id: str, flag: str = "--attempt-id",
                     source: str = "gate receipt") -> str:
    if not _ATTEMPT_ID.fullmatch(attempt_id) or attempt_id in (".", ".."):
        raise GateInputError(source, flag, "1-128 of A-Z a-z 0-9 . _ - (a folder "
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


def place_problem(receipt: Path, attempt_id: str, directory: Path,
                  workspace_generation: str | None = None) -> tuple[str | None, str | None]:
    """(the reject word when the receipt is not where its attempt's rules put it, else None;
    the generation minted for the attempt, else None).

    The receipt must be directly in ``directory/attempt_id``, bootstrapped for that attempt
    (``receipt_location``); a ``workspace_generation`` given by the caller must be the minted
    one (``workspace_generation``). The receipt itself is then checked against the minted
    generation, so a receipt naming another one rejects too."""
    check_attempt_id(attempt_id)
    wanted = directory / attempt_id
    if Path(str(receipt.parent)).absolute() != Path(str(wanted)).absolute():
        return "receipt_location", _minted_or_none(wanted)
    record = _recorded(wanted)
    if record is None or record["attempt_id"] != attempt_id:
        return "receipt_location", None
    minted = record["workspace_generation"]
    if workspace_generation is not None and workspace_generation != minted:
        return "workspace_generation", minted
    return None, minted


def _minted_or_none(folder: Path) -> str | None:
    try:
        record = _recorded(folder)
    except GateInputError:
        return None
    return record["workspace_generation"] if record else None
