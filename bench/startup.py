"""Start-up: ``gate --version``, one allowed ``gate halt hook`` call and ``gate hash`` of one
small file, each against ``python -c pass`` of the same environment, and what each imports;
then one allowed call on a ledger of 1,000 lines (200 with ``--quick``) against the same call
on a ledger of one binding (an info figure: the cost a long agent session adds to each call).

The environment matters: a ``.pth`` file that a test dependency installs runs at every start
of the interpreter and slows the baseline, which flatters the ratio. So the full run builds a
clean virtual environment holding only ``pip install .`` (``GATE_WHEELHOUSE`` for an offline
index, ``GATE_BENCH_VENV`` to reuse one) and measures both sides there; ``--quick`` measures
the current environment and says so.
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bench.common import ROOT, Results, Run, interleaved, run, say

HEAVY = ("github", "requests", "jsonschema", "yaml", "fastjsonschema", "urllib3")
#: Standard-library modules the issue names as start-up costs on paths that do not need them.
WATCHED = ("argparse", "dataclasses", "inspect", "typing", "urllib.parse", "tempfile",
           "importlib.resources", "decimal", "datetime", "difflib")


def clean_venv(work: Path) -> Path:
    """A virtual environment holding only ``pip install .`` of this tree; its directory."""
    given = os.environ.get("GATE_BENCH_VENV")
    if given:
        return Path(given)
    venv = work / "clean-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
           "--disable-pip-version-check"]
    wheelhouse = os.environ.get("GATE_WHEELHOUSE")
    if wheelhouse:
        pip += ["--no-index", "--find-links", wheelhouse]
    subprocess.run([*pip, str(ROOT)], check=True, capture_output=True)
    return venv


def imports(python: str, argv: list[str], stdin: bytes | None = None) -> list[tuple[str, int]]:
    """(module, cumulative microseconds) of every import of ``python -X importtime ARGV``."""
    done = subprocess.run([python, "-X", "importtime", *argv], input=stdin or b"",
                          capture_output=True, check=False)
    rows = []
    for line in done.stderr.decode(errors="replace").splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|", 2)
            if cumulative.strip().isdigit():
                rows.append((name.strip(), int(cumulative)))
    return rows


def hook_call(n: int) -> bytes:
    return json.dumps({"tool_name": "WebFetch", "tool_use_id": f"bench-{n}",
                       "tool_input": {"url": "https://api.lab.invalid/v1/items"}}).encode()


#: A Cursor ``Read`` (wired without a matcher, the hook sees every call): answered before the
#: ledger is built (issue 31, target 1.3x ``python -c pass``).
LOCAL_TOOL_CALL = json.dumps({"hook_event_name": "preToolUse", "tool_name": "Read",
                              "tool_use_id": "bench-read", "cwd": "/repo",
                              "tool_input": {"file_path": "src/x.py"}}).encode()


def long_ledger(results: Results, python: str, gate: list[str], folder: Path, lines: int,
                reps: int) -> None:
    """One allowed call on a ledger of ``lines`` lines against the same call on a ledger of
    one binding: every call re-reads and re-verifies the whole chain under the lock
    (docs/security.md, concurrency), so its cost grows with the agent session's length."""
    book = folder / f"halt-ledger-{lines}.jsonl"
    grow = ("import sys\nfrom gate.records.ledger import Ledger\n"
            "ledger = Ledger(sys.argv[1])\n"
            "binding = ledger.current_bindings()['bench']\n"
            "for n in range(int(sys.argv[2]) - 1):\n"
            "    ledger.check(binding, binding.generation, f'grow-{n}')\n")
    short = folder / "halt-ledger-short.jsonl"
    for path in (book, short):
        subprocess.run([*gate, "halt", "bind", "--ledger", str(path), "--run-id", "bench",
                        "--scope", "lab.invalid", "--host", "api.lab.invalid"],
                       check=True, capture_output=True)
    subprocess.run([python, "-c", grow, str(book), str(lines)], check=True)
    counter = iter(range(1_000_000))
    # each call appends one line to its ledger: both grow alike, by ``reps`` + 1 lines
    ours, base = interleaved(
        lambda: run([*gate, "halt", "hook", "--ledger", str(book)],
                    stdin=hook_call(next(counter))),
        lambda: run([*gate, "halt", "hook", "--ledger", str(short)],
                    stdin=hook_call(next(counter))), reps)
    o = statistics.median(r.seconds for r in ours)
    b = statistics.median(r.seconds for r in base)
    results.ratio(f"startup gate halt hook (allowed call) on a {lines}-line ledger vs 1 line",
                  o, b, None, note=f"medians of {reps}; {(o - b) / (lines - 1) * 1e6:.0f} us a "
                                   "line: the whole chain is re-read and re-verified")


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    reps = 5 if quick else 30
    if quick and not os.environ.get("GATE_BENCH_VENV"):
        bindir = Path(sys.executable).parent
        say("# start-up measured in the current environment (--quick): not a clean venv")
    else:
        bindir = clean_venv(work) / "bin"
    python = str(bindir / "python")
    gate = [str(bindir / "gate")] if (bindir / "gate").is_file() else [python, "-m", "gate"]
    site = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    pth = sorted(p.name for p in Path(site).glob("*.pth"))
    say(f"# environment: {bindir.parent} (.pth files: {', '.join(pth) or 'none'})")

    small = work / "startup"
    small.mkdir(exist_ok=True)
    (small / "one.txt").write_bytes(b"one small fixture file\n")
    book = small / "halt-ledger.jsonl"
    subprocess.run([*gate, "halt", "bind", "--ledger", str(book), "--run-id", "bench",
                    "--scope", "lab.invalid", "--host", "api.lab.invalid"],
                   check=True, capture_output=True)
    counter = iter(range(1_000_000))
    hook = [*gate, "halt", "hook", "--ledger", str(book)]
    bare = [python, "-c", "pass"]
    cases: list[tuple[str, Callable[[], Run], float | None]] = [
             ("--version", lambda: run([*gate, "--version"]), 1.5),
             ("halt hook (allowed call)", lambda: run(hook, stdin=hook_call(next(counter))), 3.0),
             ("halt hook (local tool: Cursor Read)", functools.partial(
                 run, [*hook, "--format", "cursor"], stdin=LOCAL_TOOL_CALL), 1.3),
             ("hash one file", functools.partial(
                 run, [*gate, "hash", str(small / "one.txt"), "--root", str(small)]), None)]
    for label, ours_run, target in cases:
        ours, base = interleaved(ours_run, lambda: run(bare), reps)
        o = [r.seconds for r in ours]
        b = [r.seconds for r in base]
        results.ratio(f"startup gate {label} vs python -c pass", statistics.median(o),
                      statistics.median(b), target,
                      note=f"medians of {reps}; min {min(o) * 1000:.1f} ms vs "
                           f"{min(b) * 1000:.1f} ms")
    lines = book.read_text().splitlines()
    allowed = sum(json.loads(x).get("decision") == "allow" for x in lines)
    say(f"# halt hook: {allowed} allowed calls appended (flock + fsync each) to a ledger of "
        f"{len(lines)} lines")
    long_ledger(results, python, gate, small, 200 if quick else 1000, reps)
    script = [gate[0]] if len(gate) == 1 else ["-m", "gate"]
    for label, argv, stdin in (("--version", [*script, "--version"], None),
                               ("halt hook", [*script, "halt", "hook", "--ledger", str(book)],
                                hook_call(next(counter))),
                               ("hash", [*script, "hash", str(small / "one.txt"), "--root",
                                         str(small)], None)):
        rows = imports(python, argv, stdin)
        names = {name for name, _ in rows}
        top = {name.split(".")[0] for name in names}
        heavy = [n for n in HEAVY if n in top]
        watched = [n for n in WATCHED if n in names]
        say(f"# imports of `gate {label}`: {len(rows)} modules; heavy: "
            f"{', '.join(heavy) or 'none'}; watched: {', '.join(watched) or 'none'}")
        if profile:
            for name, micros in sorted(rows, key=lambda r: -r[1])[:15]:
                say(f"#   {micros / 1000:7.2f} ms cumulative  {name}")
