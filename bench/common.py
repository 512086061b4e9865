"""Shared helpers: child processes timed with their own peak RSS, ratio lines, the machine."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    seconds: float
    max_rss: int  # bytes, of the child process (and any child it waited for)
    code: int


_TIME = Path("/usr/bin/time")


def run(argv: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None,
        ok: Sequence[int] = (0,), stdin: bytes | None = None) -> Run:
    """Run ``argv`` (stdout discarded; ``stdin`` fed from a file): wall time and the peak RSS
    of the process tree.

    The peak comes from GNU time (``%M``) when it is installed: a child forked from this
    (large) Python process would carry this process's high-water mark across ``exec`` in its
    own ``ru_maxrss``, while GNU time forks from a small process. Without it, ``wait4``.
    """
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as peak, \
            tempfile.TemporaryFile() as given:
        given.write(stdin or b"")
        given.seek(0)
        wrapped = list(argv)
        if _TIME.is_file():
            wrapped = [str(_TIME), "-f", "%M", "-o", peak.name, *wrapped]
        started = time.perf_counter()
        proc = subprocess.Popen(wrapped, cwd=cwd, env=env,
                                stdin=given if stdin is not None else subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in ok:
            err.seek(0)
            raise RuntimeError(f"{' '.join(map(str, argv))} exited {proc.returncode}: "
                               f"{err.read().decode(errors='replace')[-2000:]}")
        rss = usage.ru_maxrss * 1024
        if _TIME.is_file():
            lines = [x for x in peak.read().split() if x.isdigit()]
            if lines:
                rss = int(lines[-1]) * 1024
    return Run(seconds, rss, proc.returncode)


def interleaved(ours: Callable[[], Run], base: Callable[[], Run], reps: int,
                warm: bool = True) -> tuple[list[Run], list[Run]]:
    """Alternate the two sides ``reps`` times (after one warm-up each), so that load on the
    machine hits both alike."""
    if warm:
        ours()
        base()
    a: list[Run] = []
    b: list[Run] = []
    for _ in range(reps):
        a.append(ours())
        b.append(base())
    return a, b


def best(runs: Sequence[Run]) -> float:
    return min(r.seconds for r in runs)


def gate_command() -> list[str]:
    """The installed ``gate`` script beside this interpreter (not a pyenv shim)."""
    script = Path(sys.executable).parent / "gate"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "gate"]


def compile_gate() -> str:
    """Compile the bytecode of the ``gate`` package the ``gate`` script imports (the one
    :func:`gate_command` runs), into its ``__pycache__``, and say what was done.

    A user's gate runs from bytecode: pip compiles a wheel's modules when it installs it, and
    the action's set-up writes the bytecode its steps read (requirements/installer.py,
    ``warm``). An editable install or a fresh checkout has none, and with
    ``PYTHONDONTWRITEBYTECODE`` set Python never writes it: every measured run would then
    compile each module it imports (~0.3 s more of the gate's own CPU in a stamp leg)."""
    # where the script's own import finds the package (-I: as the script does, without the
    # current folder, which ``python -m bench`` puts first on this process's path)
    found = subprocess.run([sys.executable, "-I", "-c", "import gate; print(gate.__file__)"],
                           capture_output=True, text=True, check=False)
    if found.returncode != 0:
        return "gate not importable here: nothing compiled"
    folder = Path(found.stdout.strip()).parent
    return f"{compile_folder(folder)} modules of the gate package compiled in {folder}"


def compile_folder(folder: Path) -> int:
    """Write the bytecode of every module under ``folder`` (whatever PYTHONDONTWRITEBYTECODE
    says); the number of modules. A module that does not compile is an error."""
    import compileall

    if not compileall.compile_dir(folder, quiet=1, workers=1):
        raise RuntimeError(f"compileall {folder}: a module did not compile")
    return sum(1 for _ in folder.rglob("*.py"))


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


@dataclass
class Results:
    lines: list[dict[str, Any]] = field(default_factory=list)

    def ratio(self, name: str, ours: float, baseline: float, target: float | None,
              unit: str = "s", note: str = "") -> None:
        value = ours / baseline if baseline else float("inf")
        load = os.getloadavg()[0]  # the 1-minute load average when the figure was taken
        verdict = "info" if target is None else ("met" if value <= target else "MISSED")
        shown_target = "-" if target is None else f"<={target:g}"
        print(f"RATIO {name:<34} ours={ours:10.4f}{unit} baseline={baseline:10.4f}{unit} "
              f"ratio={value:6.3f} target={shown_target:<7} {verdict} load={load:.2f}"
              + (f"  ({note})" if note else ""), flush=True)
        self.lines.append({"name": name, "ours": ours, "baseline": baseline, "ratio": value,
                           "target": target, "verdict": verdict, "unit": unit, "note": note,
                           "load": load})


def say(text: str) -> None:
    print(text, flush=True)


def machine() -> dict[str, str]:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    openssl = shutil.which("openssl")
    version = (subprocess.run([openssl, "version"], capture_output=True, text=True).stdout.strip()
               if openssl else "not installed")
    flags = ""
    try:
        text = Path("/proc/cpuinfo").read_text()
        flags = " ".join(f for f in ("sha_ni", "avx2", "avx512f") if f" {f}" in text)
    except OSError:
        pass
    return {"nproc": str(cores()), "cpu": model, "cpu_flags": flags,
            "python": platform.python_version(), "openssl": version,
            "kernel": platform.release()}


def fmt_bytes(n: float) -> str:
    return f"{n / (1 << 20):.1f} MiB"


def profile(title: str, work: Callable[[], object], top: int = 12) -> None:
    """Run ``work`` under cProfile and print the ``top`` functions by own time."""
    import contextlib
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    with contextlib.redirect_stdout(io.StringIO()):
        profiler.enable()
        work()
        profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    say(f"# {title}:")
    for line in text.getvalue().splitlines():
        if line.strip():
            say("#   " + line)
