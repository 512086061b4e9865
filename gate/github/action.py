"""Moved to :mod:`gate.action` (one module per step of the composite action); this old path
re-exports the same objects for code that imports it (``gate action`` itself runs
:func:`gate.action.main.run`)."""

from gate.action.audits import _halt_section, _receipt_section
from gate.action.failures import (
    STAMP_FAILED,
    _bad_input_signer,
    _error_file,
    _report_bad_input,
    _report_stamp_failure,
    bad_input_words,
    stamp_error,
)
from gate.action.gate import (
    ForeignRun,
    PairedInputError,
    _decide,
    _file_digests,
    _gate,
    _gate_record_check,
    _gate_signer,
    _github_env,
    _judge_files,
    _read_policy,
    _signed,
    _verification_summary,
    foreign_run,
    report_artifact,
)
from gate.action.main import run
from gate.action.settings import Settings
from gate.action.sign import _sign, _signing_key
from gate.action.stamp import NOT_APPLIED, STAMPS_OUT, _make_out, _stamp, _stamp_summary, fs_fix
from gate.errors import GateInputError

__all__ = [
    "NOT_APPLIED", "STAMPS_OUT", "STAMP_FAILED", "ForeignRun", "GateInputError",
    "PairedInputError", "Settings", "_bad_input_signer", "_decide", "_error_file",
    "_file_digests", "_gate", "_gate_record_check", "_gate_signer", "_github_env",
    "_halt_section", "_judge_files", "_make_out", "_read_policy", "_receipt_section",
    "_report_bad_input", "_report_stamp_failure", "_sign", "_signed", "_signing_key", "_stamp",
    "_stamp_summary", "_verification_summary", "bad_input_words", "foreign_run", "fs_fix",
    "report_artifact", "run", "stamp_error",
]
