"""``gate stamp``: one real test run in, one stamp per property out. Picks the route for the
request (:mod:`gate.testrun.recorder_route`, :mod:`gate.testrun.junit_route`,
:mod:`gate.testrun.exit_route`) and hands what it decided to the one build-and-write step
(:mod:`gate.testrun.stamping`)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import IO, Any

from gate.errors import GateInputError
from gate.records.files import lexists
from gate.testrun import running
from gate.testrun.isolation import Seal, seal_for
from gate.testrun.stamping import (
    Decided,
    Prepared,
    Request,
    build_all,
    prepare_all,
    write_all,
)


def stamp_run(
    request: Request,
    stdout: IO[bytes] | None = None,
    stderr: IO[bytes] | None = None,
    *,
    written_at: int | None = None,
) -> list[tuple[Path, dict[str, Any]]]:
    """Read inputs, run (or take the recorded run), decide, validate and write every stamp."""
    if (request.command is None) == (request.recorded is None):
        raise GateInputError("gate stamp", "(usage)",
                             "give either -- COMMAND [ARG...] or --exit-code N")
    if len(request.run_ids) != len(request.properties) or len(set(request.run_ids)) != len(
            request.run_ids):
        raise GateInputError("gate stamp", "--run-id", "one distinct run id per property")
    targets = [request.out / f"{run_id}.json" for run_id in request.run_ids]
    for target in targets:
        if lexists(target):
            raise GateInputError(str(target), "(file)", "already exists; never overwritten")
    if request.command is not None:  # the level is chosen (or refused) before anything runs
        request = request.replace(seal=_seal(request))
    out_existed = lexists(request.out)
    if request.fence:  # one stream keeps the fence around every line (running.fenced)
        stdout = stdout if stdout is not None else sys.stdout.buffer
        stderr = stdout
    # at namespace and user the job's home is read-only: the commands get their own
    request = running.with_home(request)
    try:
        if request.install:  # at namespace and user, into a venv of its own (the tool
            # cache is read-only there): running.with_tests_venv
            request = running.with_tests_venv(request)
        decided, prepared = _install_and_run(request, stdout, stderr)
    finally:
        running.without_tests_venv(request)
    _out_made_inside(request, out_existed)
    when = int(time.time()) if written_at is None else written_at
    return write_all(targets, build_all(
        prepared, request.run_ids, decided, server_class=request.server_class, written_at=when,
        isolation=request.seal.record() if request.seal is not None else None))


def _install_and_run(request: Request, stdout: IO[bytes] | None, stderr: IO[bytes] | None
                     ) -> tuple[Decided, list[Prepared]]:
    if request.install:
        running.install(request, stdout if stdout is not None else sys.stdout.buffer,
                        stderr if stderr is not None else sys.stderr.buffer)
    # the fixtures are hashed while the command runs (none runs with --exit-code: hashed now)
    prepared = prepare_all(request.properties, request.root, request.store,
                           background=request.command is not None)
    route = _route(request)
    try:
        decided = route.decide(request, prepared, stdout, stderr)
    finally:
        if prepared:
            prepared[0].watch.finish()  # no thread outlives the run
    return decided, prepared


def _route(request: Request) -> Any:
    """The request's route module, imported when it is picked (a recorder run does not load
    the JUnit route and its XML parser: issue 31)."""
    if request.pytest_recorder:
        from gate.testrun import recorder_route

        return recorder_route
    if request.junit_path is not None:
        from gate.testrun import junit_route

        return junit_route
    from gate.testrun import exit_route

    return exit_route


def _seal(request: Request) -> Seal:
    """The seal for the level the request asks for (refused before anything runs); the stamps
    folder, when it is there, is read-only to the command."""
    source, field_name = request.isolation_place
    return seal_for(request.isolation, source=source, field_name=field_name,
                    other_user=request.isolation_user,
                    workspace=Path(os.environ.get("GITHUB_WORKSPACE") or os.getcwd()),
                    read_only=[request.out])


def _out_made_inside(request: Request, existed: bool) -> None:
    """A stamps folder that was not there before a sealed run and is there after it was made
    by the command (which could have left files in it): bad input, no stamps."""
    if request.seal is not None and request.seal.namespaced and not existed and lexists(
            request.out):
        raise GateInputError(str(request.out), "(folder)",
                             "the test command made the stamps folder, which the gate makes "
                             "after the run; remove it and give an --out the tests do not "
                             "write")
