"""The exit-status route of ``gate stamp`` (no ``--junit``, no ``--pytest``): the command's exit
status, or one an earlier step recorded (``--exit-code``, with ``--assertion-failed`` when it
knows the red was an assertion), decides every property alike
(:func:`gate.decide.outcome.from_process`)."""

from __future__ import annotations

from typing import IO

from gate.decide import outcome
from gate.testrun.running import run_or_recorded
from gate.testrun.stamping import Decided, Prepared, Request


def decide(request: Request, prepared: list[Prepared], stdout: IO[bytes] | None,
           stderr: IO[bytes] | None) -> Decided:
    proc = run_or_recorded(request, stdout, stderr)
    decided = outcome.from_process(proc, request.timeout_codes, request.assertion_failed)
    return Decided(proc, [decided] * len(prepared),
                   "command" if request.command is not None else "recorded",
                   ran=request.command is not None)
