"""The command line under a signing policy (issue 27 break 8): it fails closed.

A policy's ``signing.require`` says stamps of a class speak only inside a stamp set signed in
the workflow run that made them. The action's gate step checks that with the run's context (its
artifact names, run id, attempt, job, repository, commit, and the policy and manifest it decides
with). ``gate classify`` (both forms) and ``gate triage`` have the stamps but not that context:
they check what they can — each stamp of a required class must lie in a folder whose envelope
verifies against the policy's keys for its class and names its exact bytes — and then stop,
exit 2, naming what they cannot check. ``gate summary``, ``gate publish`` and ``gate outputs``
have only a report, which carries no signatures: under such a policy a report that says open is
refused the same way (a closed one is shown: closing needs no proof). Never ``decision=open``
on stamps nobody verified.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gate.errors import GateInputError

#: What a command cannot check without the run, and the fix.
_RUN_CONTEXT = ("what binds a stamp set to its workflow run (artifact, run id, attempt, job, "
                "repository, commit, policy and manifest digests) needs that run's context, "
                "which the command line does not have; fix: decide in the action's gate step "
                "(mode: gate), which verifies them, or use a policy without signing.require "
                "for a local look")


def required_classes(policy: Any) -> str:
    """The policy's ``signing.require`` (``off`` when there is no policy)."""
    return str(policy.signing.require) if policy is not None else "off"


def refuse_unverified(policy: Any, stamps: Iterable[tuple[str, Mapping[str, Any]]],
                      command: str) -> None:
    """Exit 2 when ``policy`` requires signed stamps of a class one of ``stamps`` ((its file,
    the loaded stamp or run record)) is of: first naming a stamp whose folder's envelope does
    not cover it (checked against the policy's keys), else naming what only the run's context
    can check. Returns when no stamp is of a required class. ``stamps`` is read only under
    such a policy (``gate classify --stamps`` passes a generator: 100,000 paths joined for
    nothing cost 0.1 s)."""
    if required_classes(policy) == "off":
        return
    from gate.records import signing

    by_dir: dict[str, list[tuple[str, str]]] = {}
    named: dict[tuple[str, str], str] = {}
    for path, stamp in stamps:
        server_class = str(stamp.get("server_class", ""))
        if not policy.signing.required(server_class):
            continue
        where = os.path.abspath(path)
        folder = os.path.dirname(where)
        directory, source = os.path.dirname(folder), (
            f"{os.path.basename(folder)}/{os.path.basename(where)}")
        by_dir.setdefault(directory, []).append((source, server_class))
        named[(directory, source)] = path
    if not by_dir:
        return
    for directory, sources in sorted(by_dir.items()):
        why = signing.offline_refusals(Path(directory), sources, policy.signing)
        if why:
            source, reason = min(why.items())
            raise GateInputError(named[(directory, source)], "signature",
                                 f"the policy requires {policy.signing.require} stamps signed "
                                 f"and this one is not covered: {reason}")
    count = sum(len(sources) for sources in by_dir.values())
    raise GateInputError(command, "signing.require",
                         f"the policy requires {policy.signing.require} stamps signed: the "
                         f"signatures of the {count} such stamp{'s' if count != 1 else ''} "
                         f"verify against its keys and name their bytes, but {_RUN_CONTEXT}")


def refuse_open_report(policy: Any, decision: str, source: str) -> None:
    """Exit 2 when ``policy`` requires signed stamps and the report's ``decision`` is open: a
    report carries no signatures, so nothing here can check its stamps were verified."""
    if required_classes(policy) == "off" or decision != "open":
        return
    raise GateInputError(source, "decision",
                         f"open, but the policy requires {policy.signing.require} stamps "
                         "signed and a report carries no signatures, so whether its stamps "
                         f"were verified cannot be checked here; {_RUN_CONTEXT}")
