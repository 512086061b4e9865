"""``gate demo``: every gate decides on examples shipped in the package, with a fixed clock."""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from gate.commands import classify
from gate.commands.args import say
from gate.decide import digest, halt, outcome, stamps
from gate.records import hashing, ledger, manifest, pairing, policy, receipts, report
from gate.records import load as records
from gate.records.report_data import Report
from gate.testrun import routes, stamping

#: The demo's clock (2026-09-21), fixed so the demo decides the same way on every day.
DEMO_NOW = 1_790_000_000


def _examples() -> Path:
    return Path(str(resources.files("gate") / "examples"))


class _Tally:
    def __init__(self, say: Callable[[str], None]) -> None:
        self.say, self.good, self.total = say, 0, 0

    def expect(self, label: str, got: str, want: str) -> None:
        self.total += 1
        ok = got == want
        self.good += ok
        self.say(f"  {'ok  ' if ok else 'FAIL'} {label:48} {got}")


def _stamp(card: dict[str, Any], fixture_hash: str, server_class: str, outcome: str,
           run_id: str, pin: hashing.Pin) -> dict[str, Any]:
    stamp = {
        "run_id": run_id, "test_id": card["property"], "server_class": server_class,
        "fixture_hash": fixture_hash, "sample_card": card, "outcome": outcome,
        "freeze_expires_at": card.get("freeze_expires_at"),
        "fixture_sha256": pin.fixture_sha256, "source": "recorded",
    }
    if pin.fixture_path:
        stamp["fixture_path"] = pin.fixture_path
    return records.check_stamp(stamp, f"demo stamp {run_id}")


def run(say: Callable[[str], None]) -> bool:
    base = _examples()
    tally = _Tally(say)
    card = records.load_card(base / "card.json")
    pol = policy.load(base / "policy.yml")
    fixture_hash = hashing.fixture_hash([base / "fixtures" / "parser_round_trip"], base, card)
    say("agent-patch gate demo (clock fixed at 2026-09-21, Unix 1790000000)")
    say(f"fixture_hash of examples/fixtures/parser_round_trip + card.json: {fixture_hash}")
    with tempfile.TemporaryDirectory(prefix="gate-demo-") as tmp_name:
        tmp = Path(tmp_name)
        pin = hashing.pin(base / "sample_output.json", tmp / "pins")
        say(f"pinned sampler output: fixture_sha256={pin.fixture_sha256}")

        say("")
        say("stamp gate (local-pinned versus free-server):")
        cases = [("pass", "pass", "accept_candidate"),
                 ("pass", "assert_fail", "freeze_inside_server_class"),
                 ("assert_fail", "pass", "reject_cross_class_pass"),
                 ("assert_fail", "assert_fail", "reject_stable_fail"),
                 ("pass", "resource_exit", "reject_run_retry_new_id")]
        shown: dict[str, Any] | None = None
        for index, (local, free, want) in enumerate(cases):
            a = _stamp(card, fixture_hash, stamps.LOCAL, local, f"L{index}", pin)
            b = _stamp(card, fixture_hash, stamps.FREE, free, f"F{index}", pin)
            # (the order of the two stamps does not matter)
            result = stamps.classify_pair(b, a, pol.granting(DEMO_NOW), DEMO_NOW)
            tally.expect(f"local {local}, free-server {free}", result.action, want)
            if result.frozen:
                shown = report.cross_class_pair(a, b, result)
        if shown is not None:
            say("  the frozen pair's four fields:")
            for line in report.four_lines(shown):
                say(f"    {line}")

        say("")
        say("digest gate (why a red pair is red):")
        red: dict[str, Any] = {"fixture_sha256": pin.fixture_sha256, "oracle_passed": False,
                               "transport_ok": True}
        flake: dict[str, Any] = {"fixture_sha256": pin.fixture_sha256, "oracle_passed": None,
                 "transport_ok": False, "status_code": 502}
        moved = dict(red, fixture_sha256="0" * 64)
        pairs: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
            ("both oracles false on one digest", red, red, "property_miss"),
            ("digests differ", red, moved, "fixture_drift"),
            ("transport fault, oracle never ran", flake, flake, "harness_flake"),
            ("digest missing", {k: v for k, v in red.items() if k != "fixture_sha256"}, red,
             "unclassified"),
        ]
        for label, left, right, want in pairs:
            got = digest.classify_runs(left, right)
            tally.expect(label, f"{got.failure_class.value} freeze_allowed="
                         f"{str(got.freeze_allowed).lower()}", f"{want} freeze_allowed="
                         f"{str(want == 'harness_flake').lower()}")

        say("")
        say("receipt binder:")
        diff, prompt = b"--- a/x\n+++ b/x\n@@\n-1\n+2\n", b"Review the patch for x."
        import hashlib

        bound = {"diff_sha256": hashlib.sha256(diff).hexdigest(),
                 "prompt_sha256": hashlib.sha256(prompt).hexdigest(),
                 "model_id": "reviewer-1", "workspace_generation": "3"}
        receipt = receipts.build(**bound, verdict="pass", reasons=["covers the change"])
        for label, document, expected, want in [
            ("receipt for this diff", receipt, bound, "accept"),
            ("in-toto receipt for this diff", receipts.to_in_toto(receipt), bound, "accept"),
            ("receipt for an older diff", receipt,
             dict(bound, diff_sha256=hashlib.sha256(b"old").hexdigest()), "reject: diff_sha256"),
            ("receipt from a stale workspace", receipt, dict(bound, workspace_generation="4"),
             "reject: workspace_generation"),
        ]:
            loaded = json.loads(json.dumps(document))
            tally.expect(label, receipts.verify(loaded, expected).line, want)

        say("")
        say("halt gate (tool calls against an issuer ledger):")
        book = ledger.Ledger(tmp / "halt.ledger", pol.halt, tmp / "halts.jsonl")
        first = book.bind("run-1", "lab.invalid", "api.lab.invalid", "synthetic-fixture-v1")
        live = halt.Binding("run-1", 1, "lab.invalid", "api.example.com",
                            "synthetic-fixture-v1", "fixture")
        tally.expect("closed fixture, current generation",
                     book.check(first, 1, "a1", "allow").decision.value, "allow")
        tally.expect("host swapped to a live one",
                     book.check(live, 1, "a2", "halt").decision.value, "halt")
        second = book.bind("run-1", "lab.invalid", "api2.lab.invalid", "synthetic-fixture-v1")
        tally.expect("old generation after a rebind",
                     book.check(first, 1, "a3", "reject").decision.value, "reject")
        tally.expect("issued generation differs",
                     book.check(second, 1, "a4", "reject").decision.value, "reject")
        tally.expect("rebound binding, current generation",
                     book.check(second, 2, "a5", "allow").decision.value, "allow")
        audited = ledger.audit(tmp / "halt.ledger", pol.halt)
        tally.expect("audit of that ledger",
                     f"failed={audited.failed} denominator={audited.denominator}",
                     "failed=0 denominator=5")

        _stamp_flow(base, tmp, pol, tally, say)
    say("")
    say(f"demo: {tally.good} of {tally.total} decisions as expected")
    return tally.good == tally.total


def _stamp_manifest(base: Path, out: Path, pol: policy.Policy, props: list[manifest.Property],
                    server_class: str, junit_name: str, exit_code: int, prefix: str,
                    written_at: int) -> list[tuple[Path, dict[str, Any]]]:
    """``gate stamp --manifest ... --junit ... --exit-code N`` (a run a previous step saw)."""
    request = stamping.Request(
        properties=props, server_class=server_class, out=out, root=base,
        run_ids=stamping.manifest_run_ids(len(props), prefix),
        timeout_codes=pol.timeout_exit_codes, junit_path=base / "junit" / junit_name,
        recorded=outcome.ProcessResult(exit_code))
    return routes.stamp_run(request, written_at=written_at)


def _classify(stamps_dir: Path, report_path: Path, pol: policy.Policy,
              say: Callable[[str], None]) -> Report:
    """``gate classify --stamps DIR --report FILE``, then read the report back."""
    decisions = pairing.decide_by_policy(pairing.collect(stamps_dir), pol, DEMO_NOW)
    built = pairing.report_by_policy(decisions, DEMO_NOW, pol)
    records.write_report(report_path, built)
    classify.print_text(decisions, built, lambda line: say(f"    {line}"))
    return records.load_report(report_path)


def _stamp_flow(base: Path, tmp: Path, pol: policy.Policy, tally: _Tally,
                say: Callable[[str], None]) -> None:
    """Stamp two server classes from JUnit reports, classify the folder, read the report."""
    say("")
    say("stamping real runs (examples/manifest.yml, JUnit reports in examples/junit/):")
    props = manifest.load(base / "manifest.yml", base)
    stamps_dir = tmp / "stamps"  # as downloaded artifacts arrive: one subfolder per job
    runs = [(stamps.LOCAL, "local-pinned.xml", 0, "demo-local"),
            (stamps.FREE, "free-server.xml", 1, "demo-free")]
    for server_class, junit_name, exit_code, prefix in runs:
        say(f"  gate stamp --manifest examples/manifest.yml --server-class {server_class} "
            f"--junit junit/{junit_name} --exit-code {exit_code} --run-id-prefix {prefix}")
        for path, stamp in _stamp_manifest(base, stamps_dir / server_class, pol, props,
                                           server_class, junit_name, exit_code, prefix,
                                           DEMO_NOW - 600):
            note = f" ({stamp['note']})" if "note" in stamp else ""
            say(f"    {path.relative_to(tmp)}: {stamp['test_id']} {stamp['outcome']}{note}")
    say("  gate classify --stamps stamps --report report.json")
    first = _classify(stamps_dir, tmp / "report.json", pol, say)
    expected = {"lexer_unicode": "reject_run_retry_new_id",
                "parser_round_trip": "freeze_inside_server_class",
                "tokenizer_total": "accept_candidate"}
    say("  reading report.json:")
    for pair in first.pairs:
        tally.expect(f"{pair.test_id} ({pair.status})", pair.action, expected[pair.test_id])
    tally.expect("report decision (a skipped run is no green)", first.decision, "closed")

    say("")
    say("  rerun the skipped property on the free server, with a new run id:")
    rerun = [p for p in props if p.test_id == "lexer_unicode"]
    for path, stamp in _stamp_manifest(base, stamps_dir / "free-server-rerun", pol, rerun,
                                       stamps.FREE, "free-server-rerun.xml", 0,
                                       "demo-free-rerun", DEMO_NOW - 60):
        say(f"    {path.relative_to(tmp)}: {stamp['test_id']} {stamp['outcome']}")
    say("  gate classify --stamps stamps --report report.json")
    second = _classify(stamps_dir, tmp / "report.json", pol, say)
    actions = {pair.test_id: pair.action for pair in second.pairs}
    tally.expect("lexer_unicode after the rerun", actions["lexer_unicode"], "accept_candidate")
    labels = [f"{pair.test_id} {pair.failure_class}" for pair in second.reruns or ()]
    tally.expect("rerun pair label (digest gate)", ", ".join(labels),
                 "lexer_unicode harness_flake")
    tally.expect("report decision", second.decision, "open")


def cmd_demo(args: argparse.Namespace) -> int:
    return 0 if run(say) else 1
