"""``gate action``: what the composite action runs, configured only through the environment.

``action.yml`` passes every input through ``env:`` (never ``${{ }}`` inside ``run:``); this
module reads them once into a frozen :class:`Settings`, then does one mode's work:

* ``stamp``: run (or record) the test run and write one stamp per manifest property into a
  fresh folder, and name the artifact the next step uploads. With ``command`` and no
  ``junit`` the command runs pytest and the gate's recorder applies the sample cards in it
  (``gate stamp --pytest``), running only the tests the manifest gates unless ``tests`` is
  ``all``; with ``junit`` or ``exit-code`` the cards are only hashed (one notice line says
  so) and the command runs what it names.
* ``gate``: classify every downloaded stamp (with ``run-id``: another run's, see
  :func:`foreign_run`), optionally verify a receipt and audit a halt ledger,
  write the JSON report, publish the check run (degrading to workflow-command annotations
  without ``checks: write``), write the job summary and the step outputs, and exit 1 when the
  gate is closed (unless ``fail-on-closed`` is false). The decision never depends on whether
  publishing worked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from gate.action.failures import _report_bad_input, _report_stamp_failure, stamp_error
from gate.action.gate import _gate
from gate.action.settings import Settings
from gate.action.sign import _sign
from gate.action.stamp import _stamp
from gate.errors import GateInputError


def run(env: Mapping[str, str] | None = None, *,
        gate_main: Callable[[list[str]], int] | None = None) -> int:
    """One mode's work. Stamp mode runs ``gate stamp`` through ``gate_main`` (the command line's
    entry point, handed in by ``gate action`` so that this module never imports the commands).

    In gate mode, bad input (exit 2) still reports: a ``failure`` check run and a job summary
    that say what went wrong, and an ``::error``; in stamp mode an ``::error`` on the file and a
    job summary (``gate_main`` must let :class:`GateInputError` through for that:
    ``gate.commands.main.run_raising``); then the error goes on to the command line."""
    environ = os.environ if env is None else env
    mode = environ.get("GATE_MODE", "gate").strip() or "gate"
    try:
        settings = Settings.from_env(environ)
        if settings.mode == "stamp":
            return _stamp(settings, gate_main, environ)
        if settings.mode == "sign":
            return _sign(settings, environ)
        return _gate(settings, environ)
    except GateInputError as exc:
        if mode == "sign":
            _report_stamp_failure(exc, environ)
        elif mode == "gate":
            _report_bad_input(exc, environ)
        elif mode == "stamp":
            fixed = stamp_error(exc, environ) or exc
            _report_stamp_failure(fixed, environ)
            if fixed is not exc:
                raise fixed from None
        raise
    except (OSError, UnicodeError, ValueError, KeyboardInterrupt) as exc:
        error = stamp_error(exc, environ) if mode == "stamp" else None
        if error is None:
            raise
        _report_stamp_failure(error, environ)  # every exit 2 of stamp mode reaches the job
        raise error from None
