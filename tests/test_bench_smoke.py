"""``python -m bench --quick`` runs and prints a ratio line for every benchmark.

Benchmarks print figures; nothing here asserts on time.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RATIO = re.compile(r"^RATIO (\S+) .* ours=\s*\S+ baseline=\s*\S+ ratio=\s*\S+ target=\S+\s+"
                   r"(met|MISSED|info)", re.MULTILINE)


def test_quick_bench_prints_a_ratio_for_every_benchmark(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--tmp", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    kinds = {match.group(1) for match in RATIO.finditer(done.stdout)}
    for kind in ("hash", "classify", "ledger", "startup", "action", "stamp", "gate-step",
                 "xdist"):
        assert kind in kinds, (kind, done.stdout[-3000:])
    assert len(re.findall(r"^RATIO hash \S+ vs openssl", done.stdout, re.MULTILINE)) == 3
    assert re.search(r"^RATIO startup gate halt hook \(allowed call\) on a 200-line ledger vs 1 "
                     r"line .* info load=.*us a line", done.stdout, re.MULTILINE), done.stdout
    assert "# machine: nproc=" in done.stdout
    assert re.search(r"^# bytecode: \d+ modules of the gate package compiled in ", done.stdout,
                     re.MULTILINE), done.stdout[:2000]
    for phase in ("listing", "reading", "parsing", "validating", "pairing", "report building",
                  "report writing", "start-up: gate hash", "per-file system calls"):
        assert re.search(rf"^PHASE {phase}.* load=", done.stdout, re.MULTILINE), phase
    assert list(tmp_path.iterdir()) == []  # generated data removed


def test_the_bench_measures_the_gate_from_bytecode(tmp_path: Path) -> None:
    """A user's gate runs from bytecode (pip compiles a wheel, the action's set-up warms its
    own): the bench writes it first, even with PYTHONDONTWRITEBYTECODE set, so that no
    measured run compiles the gate's modules."""
    from bench.common import compile_folder

    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    sources = [package / "__init__.py", package / "sub" / "mod.py"]
    for source in sources:
        source.write_text("VALUE = 1\n")
    assert compile_folder(package) == 2
    for source in sources:
        assert Path(importlib.util.cache_from_source(str(source))).is_file(), source
    (package / "bad.py").write_text("def (\n")
    with pytest.raises(RuntimeError, match="did not compile"):
        compile_folder(package)
