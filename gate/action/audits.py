"""The gate step's two audits beside the stamps: the review receipt (SPEC §5) and the halt
ledger, each as its report section."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gate.action.settings import Settings
from gate.errors import GateInputError


def _receipt_section(settings: Settings) -> dict[str, Any] | None:
    """SPEC §5 through the action: the receipt must be in ``receipt-dir``/``attempt-id``,
    bootstrapped there, and name the generation minted there (``workspace-generation``, when
    given, must be that one too): the same rule as ``gate receipt verify``."""
    companions = (settings.diff, settings.prompt, settings.model_id,
                  settings.workspace_generation, settings.receipt_dir, settings.attempt_id)
    if not settings.receipt:
        if any(companions):
            # The workflow asked for a receipt check (e.g. receipt: ${{ steps.x.outputs.path }}
            # that came out empty): a missing receipt rejects, it is not skipped (SPEC §5).
            from gate.decide.receipts import ReceiptResult

            return ReceiptResult(False, ("missing_receipt",)).to_record()
        return None
    missing = [name for name, value in (("diff", settings.diff), ("prompt", settings.prompt),
                                        ("model-id", settings.model_id),
                                        ("receipt-dir", settings.receipt_dir),
                                        ("attempt-id", settings.attempt_id))
               if not value]
    if missing:
        raise GateInputError("receipt", "(input)",
                             "verifying a receipt also needs " + ", ".join(missing)
                             + " (receipt-dir and attempt-id: the folder and attempt given to "
                             "gate receipt bootstrap)")
    from gate.records import attempts
    from gate.records import load as records

    attempts.check_attempt_id(settings.attempt_id, "(input)", "attempt-id")
    result = records.verify_receipt_files(Path(settings.receipt), settings.diff,
                                          settings.prompt, settings.model_id,
                                          settings.workspace_generation or None,
                                          settings.attempt_id, Path(settings.receipt_dir))
    return result.to_record()


def _halt_section(settings: Settings, pol: Any) -> dict[str, Any] | None:
    if not settings.halt_ledger:
        return None
    from gate.records import ledger

    return ledger.audit(Path(settings.halt_ledger), pol.halt).to_record()
