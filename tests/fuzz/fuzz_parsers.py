#!/usr/bin/env python3
"""Coverage-guided fuzzing of every gate parser with atheris (longer runs than CI's budget).

Not part of the pytest run and not a dependency: ``pip install atheris`` first. Then, from the
repository root::

    python tests/fuzz/fuzz_parsers.py --target stamp -atheris_runs=100000
    python tests/fuzz/fuzz_parsers.py --target junit corpus/junit/ -max_total_time=600

Targets: stamp, run-record, receipt, receipt-in-toto, binding, ledger, policy, manifest, junit,
report (``--target all`` cycles through them). Each input goes through the same real entry
point and the same independent oracle as tests/hardening/test_fuzz.py
(tests/hardening/fuzzlib.py): the first byte picks a variant of the command, the rest is the
file's content. A crash (an exit status other than 0, 1, 2, an exception out of
``gate.commands.main.main``, a traceback) or a door opened by invalid input raises, so libFuzzer
stops
and writes the input to ``crash-<sha1>``. Any extra arguments are passed to libFuzzer
(``-atheris_runs=N``, ``-max_total_time=S``, a corpus folder, ``-dict=...``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

try:
    import atheris
except ImportError:  # pragma: no cover - optional tool
    sys.exit("fuzz_parsers.py needs atheris: pip install atheris")

with atheris.instrument_imports(include=["gate"]):
    # Every module a target reaches, imported here so that it is instrumented.
    from gate.commands import main as cli  # noqa: F401
    from gate.decide import digest, halt, receipts, stamps  # noqa: F401
    from gate.github import publish, summary, workflow  # noqa: F401
    from gate.records import files, junit, ledger, load, manifest, pairing, policy, report, schemas  # noqa: F401
    from gate.testrun import stamping  # noqa: F401

from tests.hardening import fuzzlib  # noqa: E402


class Finding(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True, choices=[*fuzzlib.TARGETS, "all"])
    args, rest = parser.parse_known_args()
    scratch = fuzzlib.Scratch()
    targets = list(fuzzlib.TARGETS) if args.target == "all" else [args.target]
    count = [0]

    def one_input(data: bytes) -> None:
        name = targets[count[0] % len(targets)]
        count[0] += 1
        flag, body = (data[0], data[1:]) if data else (0, b"")
        verdict = fuzzlib.TARGET_FUNCS[name](scratch, body, flag)
        scratch.clean_last()
        if verdict.crash:
            raise Finding(f"{name}: crash: {verdict.crash}")
        if verdict.door:
            raise Finding(f"{name}: door opened by invalid input (exit {verdict.code})")

    # Seed libFuzzer with the valid inputs when no corpus folder is given.
    if not any(not a.startswith("-") for a in rest):
        seeds = Path(scratch.root) / "seeds"
        seeds.mkdir()
        for n, name in enumerate(targets):
            (seeds / f"seed{n}").write_bytes(b"\x00" + fuzzlib.seed(scratch, name))
        rest.append(str(seeds))
    atheris.Setup([sys.argv[0], *rest], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
