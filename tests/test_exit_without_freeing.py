"""``gate classify --stamps`` ends without freeing its stamps one by one
(gate.commands.args.hold_to_exit, gate.commands.main.end_without_freeing): what a normal exit
does still happens (the exit handlers run, the output is all written, the exit status is the
command's), a closed output is never a success, and a caller in the same process gets its
memory back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gate.commands import args as command_args
from tests.core_helpers import FREE, LOCAL, NOW, SHA_X, run_cli, stamp, write_json

ROOT = Path(__file__).resolve().parent.parent

#: The ``gate`` program (argv None: main ends the process itself) with an exit handler of a
#: caller's registered first, and ``os._exit`` saying on stderr that it ended the process.
PROGRAM = """import atexit, os, sys
atexit.register(lambda: sys.stdout.write("exit handler ran\\n"))
real_exit = os._exit
def said_exit(code):
    sys.stderr.write(f"os._exit({code})\\n")
    sys.stderr.flush()
    real_exit(code)
os._exit = said_exit
sys.argv = ["gate", *sys.argv[1:]]
from gate.commands.main import main
sys.exit(main())
"""


def _stamps(tmp_path: Path, free_outcome: str) -> Path:
    folder = tmp_path / "stamps"
    write_json(folder / "gate-stamps-local-pinned-1" / "l1.json",
               stamp(LOCAL, "pass", run_id="l1", fixture_sha256=SHA_X))
    write_json(folder / "gate-stamps-free-server-1" / "f1.json",
               stamp(FREE, free_outcome, run_id="f1", fixture_sha256=SHA_X))
    return folder


def _program(*argv: object, stdout: int = subprocess.PIPE) -> subprocess.Popen[bytes]:
    # buffered output (PYTHONUNBUFFERED off): what the command writes is flushed at the end
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GATE_") and k != "PYTHONUNBUFFERED"}
    return subprocess.Popen([sys.executable, "-c", PROGRAM, *map(str, argv)], cwd=ROOT,
                            env=env, stdout=stdout, stderr=subprocess.PIPE)


def test_the_program_prints_and_exits_as_the_command_decides(tmp_path: Path) -> None:
    for free_outcome, code in (("pass", 0), ("assert_fail", 1)):
        folder = _stamps(tmp_path / free_outcome, free_outcome)
        argv = ("classify", "--stamps", folder, "--now", NOW)
        same = run_cli(*argv)
        assert same.code == code, same.err
        assert command_args.HELD == []  # in process: freed when the command returned
        proc = _program(*argv)
        out, err = proc.communicate(timeout=120)
        # ended at once, not by the interpreter's clean-up
        assert (proc.returncode, err) == (code, f"os._exit({code})\n".encode())
        # every line the command printed, then the caller's exit handler: it ran, after them
        assert out.decode() == same.out + "exit handler ran\n"


def test_output_that_reaches_no_reader_is_never_a_success(tmp_path: Path) -> None:
    folder = _stamps(tmp_path, "pass")
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the flush at the end fails (EPIPE)
    try:
        proc = _program("classify", "--stamps", folder, "--now", NOW, stdout=write_end)
    finally:
        os.close(write_end)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (2, b"os._exit(2)\n")
