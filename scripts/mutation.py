"""Mutation testing of the decision tables (gate/decide/), issue 32; not part of CI.

    pip install -e '.[test,mutation]'
    python scripts/mutation.py             # every module, from scratch (about an hour on 2 cores)
    python scripts/mutation.py halt stamps # some modules; --keep reuses mutants/ from a last run
    python scripts/mutation.py --report    # the scores of the last run, nothing run

mutmut (configured in pyproject.toml, ``[tool.mutmut]``) changes one thing at a time in
gate/decide/ and runs the fast unit tests that call the changed function; a mutant no test
notices survives. Each module is run on its own, one child at a time, the modules whose tests are
slowest last. Then the score per module is printed (killed of all, and of those not judged
equivalent), and every survivor is checked against tests/mutation/equivalent.txt, one
``<mutant name>: <why it changes nothing a user can see>`` a line. Exit 0 when every survivor
is listed and every listed mutant survived; 1 otherwise (the unlisted survivors are shown with
their diff: a test that kills it, or a line in the list with the reason). A mutant that timed
out is run once more alone, and the second result stands; the timeouts left are counted killed
(mutmut's convention) and shown per module. A changed source renumbers its mutants: run again
and review the list.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The modules whose tests are slowest, run last; every other module of gate/decide/ first.
SLOWEST = ("receipts", "halt", "outcome", "digest", "stamps")
MODULES = tuple(sorted(p.stem for p in (ROOT / "gate" / "decide").glob("*.py")
                       if p.stem != "__init__" and p.stem not in SLOWEST)) + SLOWEST
EQUIVALENT = ROOT / "tests" / "mutation" / "equivalent.txt"
#: mutmut's exit codes for a timeout: the tests ran past 15 times their usual wall time (or 30
#: times their CPU time), e.g. a mutant that loops, or a machine under load.
TIMEOUT = {36, -24, 24, 152, 255}
KILLED = {1, 3, 37} | TIMEOUT  # mutmut's exit codes for killed (a test failed), timeout, type check


def equivalent() -> dict[str, str]:
    listed: dict[str, str] = {}
    for number, line in enumerate(EQUIVALENT.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, why = line.partition(": ")
        if not sep or not why.strip():
            sys.exit(f"{EQUIVALENT}:{number}: '<mutant name>: <reason>' expected, not {line!r}")
        listed[name.strip()] = why.strip()
    return listed


def results(module: str) -> dict[str, int | None]:
    meta = ROOT / "mutants" / "gate" / "decide" / f"{module}.py.meta"
    if not meta.exists():
        return {}
    codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
    return codes


def run(modules: list[str], children: int) -> None:
    # CI: Hypothesis's ci profile (derandomized, no database); one hash seed for every process
    env = dict(os.environ, CI="true", PYTHONHASHSEED="0")
    for module in modules:
        print(f"== mutmut: gate/decide/{module}.py", flush=True)
        subprocess.run(["mutmut", "run", "--max-children", str(children),
                        f"gate.decide.{module}.*"], cwd=ROOT, env=env, check=False)
        # A timeout under load is no verdict (a survivor would pass for killed, an equivalent
        # mutant for one a test kills): each is run once more, alone; the second result stands.
        timed_out = [name for name, code in results(module).items() if code in TIMEOUT]
        if timed_out:
            print(f"== mutmut: {len(timed_out)} timed out, run again: {' '.join(timed_out)}",
                  flush=True)
            subprocess.run(["mutmut", "run", "--max-children", "1", *timed_out], cwd=ROOT,
                           env=env, check=False)


def report(modules: list[str]) -> int:
    listed = equivalent()
    unlisted: list[str] = []
    stale: list[str] = []
    print(f"{'module':10} {'mutants':>8} {'killed':>7} {'equivalent':>11} {'score':>7}"
          f"  {'not run':>7} {'timeout':>7}")
    for module in modules:
        codes = results(module)
        if not codes:
            print(f"{module:10} (not run)")
            continue
        killed = sum(1 for c in codes.values() if c in KILLED)
        # survived, or no test calls the function (mutmut's 33): both must be killed or listed
        survived = [n for n, c in codes.items() if c in (0, 33)]
        not_run = len(codes) - killed - len(survived)
        same = [n for n in survived if n in listed]
        unlisted += [n for n in survived if n not in listed]
        stale += [n for n in listed if n.startswith(f"gate.decide.{module}.") and n in codes
                  and codes[n] in KILLED]
        timeouts = sum(1 for c in codes.values() if c in TIMEOUT)
        judged = len(codes) - len(same) - not_run
        score = f"{100 * killed / judged:.1f}%" if judged else "-"
        print(f"{module:10} {len(codes):8} {killed:7} {len(same):11} {score:>7}  {not_run:7}"
              f" {timeouts:7}")
    for name in unlisted:
        print(f"\nsurvived, not in {EQUIVALENT.relative_to(ROOT)}: {name}")
        subprocess.run(["mutmut", "show", name], cwd=ROOT, check=False)
    for name in stale:
        what = "timed out twice (run it alone: mutmut run NAME)" if results(
            name.split(".")[2]).get(name) in TIMEOUT else "killed now (remove it)"
        print(f"listed as equivalent but {what}: {name}")
    return 1 if unlisted or stale else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help=f"of gate/decide/ (default: all: {', '.join(MODULES)})")
    parser.add_argument("--keep", action="store_true", help="reuse mutants/ from the last run")
    parser.add_argument("--report", action="store_true", help="only the scores of the last run")
    parser.add_argument("--max-children", type=int, default=1)
    args = parser.parse_args()
    unknown = sorted(set(args.modules) - set(MODULES))
    if unknown:
        parser.error(f"no module {unknown[0]!r} in gate/decide/ (one of {', '.join(MODULES)})")
    modules = [m for m in MODULES if m in args.modules] or list(MODULES)
    if not args.report:
        if shutil.which("mutmut") is None:
            print("mutmut is not installed: pip install -e '.[test,mutation]'", file=sys.stderr)
            return 2
        if not args.keep:
            shutil.rmtree(ROOT / "mutants", ignore_errors=True)
        run(modules, args.max_children)
    return report(modules)


if __name__ == "__main__":
    sys.exit(main())
