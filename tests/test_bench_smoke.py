"""``python -m bench --quick`` runs and prints a ratio line for every benchmark.

Benchmarks print figures; nothing here asserts on time.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
    assert "# machine: nproc=" in done.stdout
    for phase in ("listing", "reading", "parsing", "validating", "pairing", "report building",
                  "report writing", "start-up: gate hash", "per-file system calls"):
        assert re.search(rf"^PHASE {phase}.* load=", done.stdout, re.MULTILINE), phase
    assert list(tmp_path.iterdir()) == []  # generated data removed
