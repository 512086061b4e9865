"""``gate classify`` (stamp gate) and ``gate triage`` (digest gate): decided, printed, reported."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gate.commands import signed
from gate.commands.args import (
    CLOSED,
    OPEN,
    clock,
    hold_to_exit,
    policy_path,
    print_json,
    say,
)
from gate.errors import GateInputError
from gate.records import load, report
from gate.records.pairing import TestDecision

#: The stamp gate's action for a pair green in both classes (gate.decide.stamps, row 7).
ACCEPTED = "accept_candidate"


def _emit_pair(pair: dict[str, Any], args: argparse.Namespace, with_action: bool) -> None:
    from gate.records import report

    if args.json:
        print_json(pair)
        return
    if with_action:
        say(f"action={pair['action']}")
    for line in report.four_lines(pair):
        say(line)


def cmd_classify(args: argparse.Namespace) -> int:
    from gate.decide import stamps
    from gate.records import load as records
    from gate.records import policy, report

    if args.stamps is not None:

        if args.pair:
            raise GateInputError("gate classify", "(usage)",
                                 "give LOCAL.json REMOTE.json or --stamps DIR, not both")

        return classify_folder(args, clock(args), policy_path(args))
    if len(args.pair) != 2:
        raise GateInputError("gate classify", "(usage)",
                             "give LOCAL.json REMOTE.json, or --stamps DIR")
    now = clock(args)
    pol = policy.load(policy_path(args))
    first, second = (records.load_stamp(Path(p)) for p in args.pair)
    records.check_distinct_attempts([(args.pair[0], first), (args.pair[1], second)])
    signed.refuse_unverified(pol, [(args.pair[0], first), (args.pair[1], second)],
                             "gate classify")
    result = stamps.classify_pair(first, second, pol.granting(now), now)
    pair = report.cross_class_pair(first, second, result, (args.pair[0], args.pair[1]))
    if args.report:
        records.write_report(Path(args.report), report.build([pair], now))
    _emit_pair(pair, args, with_action=True)
    return OPEN if result.door_open else CLOSED


def cmd_triage(args: argparse.Namespace) -> int:
    from gate.decide import digest
    from gate.records import load as records
    from gate.records import policy, report

    left, right = (records.load_run_or_stamp(Path(p)) for p in (args.left, args.right))
    records.check_distinct_attempts([(args.left, left), (args.right, right)])
    signed.refuse_unverified(policy.load(policy_path(args)),
                             [(args.left, left), (args.right, right)], "gate triage")
    result = digest.classify_runs(left, right)
    runs = [{"run_id": str(r.get("run_id", "")), "server_class": str(r.get("server_class", "")),
             "outcome": str(r.get("outcome", ""))} for r in (left, right)]
    test_id = str(left.get("test_id") or right.get("test_id") or "(unnamed)")
    pair = report.same_class_pair(test_id, left, right, result, runs)
    _emit_pair(pair, args, with_action=False)
    return OPEN if result.freeze_allowed else CLOSED


def shown(test_id: str) -> str:
    """A test id as printed: as is, or as a JSON string if it holds white space or controls."""
    # str.isprintable() is false for every white-space character but the ASCII space.
    if test_id and test_id.isprintable() and " " not in test_id:
        return test_id
    return json.dumps(test_id)


def print_text(decisions: Sequence[TestDecision], built: Mapping[str, Any],
               say: Callable[[str], None]) -> None:
    """Reds first, each with its four required fields (SPEC §4), then one line for the tests
    green in both classes, then the decision line, last. A green pair's four fields (and every
    pair's) stay in the report and ``--json``: with 59 properties the reader was shown 295
    lines before the one that decided."""
    green = 0
    for decision in decisions:
        reruns = decision.reruns
        if decision.entry["action"] == ACCEPTED and not reruns:
            green += 1
            continue
        name = shown(decision.test_id)
        say(f"{name} {decision.entry['action']}")
        for line in report.four_lines(decision.entry):
            say(line)
        for pair in reruns:
            first, second = pair["runs"]
            say(f"{name} rerun {first['server_class']} {first['run_id']} {second['run_id']}")
            for line in report.four_lines(pair):
                say(line)
    if green:
        say(f"{green} test{'s' if green != 1 else ''} {ACCEPTED} (green in both classes; each "
            "pair's four fields are in --json and the report)")
    ungated = built.get("ungated")
    if ungated:
        from gate.decide import ungated as ungated_rules

        said = ungated_rules.log_line([(t["test"], t["kind"]) for t in ungated["tests"]],
                                      ungated["count"])
        say(said + (" (policy ungated: fail: the gate is closed)"
                    if ungated["decision"] == ungated_rules.CLOSED else ""))
    counts = built["counts"]
    say(f"decision={built['decision']} tests={len(decisions)} accepted={counts['accepted']} "
        f"frozen={counts['frozen']} rejected={counts['rejected']}")


def classify_folder(args: argparse.Namespace, now: int, policy_path: Path | None) -> int:
    """Returns the exit status: 0 only if every test's door is open (and there is a test)."""
    from gate.records import pairing, policy

    pol = policy.load(policy_path)
    with pairing.collector_off():
        loaded = pairing.collect_some(Path(args.stamps))
        signed.refuse_unverified(pol, ((os.path.join(args.stamps, item.source), item.stamp)
                                       for item in loaded), "gate classify --stamps")
        decisions = pairing.decide_by_policy(loaded, pol, now)
        built = pairing.report_by_policy(
            decisions, now, pol, ungated=pairing.ungated_section(pairing.reported_in(loaded), pol))
    if args.report:
        load.write_report(Path(args.report), built)
    if args.json:
        sys.stdout.write(json.dumps(built, indent=2, sort_keys=True, ensure_ascii=True) + "\n")
    else:
        from gate.github.workflow import log_line

        lines: list[str] = []

        def batched(line: str) -> None:  # one write per 4096 lines, not a print per line
            lines.append(log_line(line))  # the same escaper as args.say
            if len(lines) >= 4096:
                sys.stdout.write("\n".join(lines) + "\n")
                lines.clear()

        print_text(decisions, built, batched)
        if lines:
            sys.stdout.write("\n".join(lines) + "\n")
    hold_to_exit(loaded, decisions, built)  # freed by the process's end, not one by one
    return 0 if built["decision"] == "open" and all(d.door_open for d in decisions) else 1
