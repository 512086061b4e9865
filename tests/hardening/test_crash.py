"""Crash safety: SIGKILL at random points while writing stamps, reports and ledger entries.

Each trial forks a child (the gate modules are already imported, so a trial costs
milliseconds) that loops over one command through :func:`gate.commands.main.main` and writes an
acknowledgement to a pipe after each command *returned* (exit 0, or 0/1 for ``classify``,
whose exit status is the decision). The child dies by SIGKILL at a random point, chosen in one
of two ways (alternating trials):

* **call index**: ``os.open``, ``os.write``, ``os.fsync``, ``os.link``, ``os.unlink``,
  ``os.replace``, ``os.rename`` and ``os.ftruncate`` are wrapped to count calls; at a random
  index the child SIGKILLs itself *before* the call — or, for ``os.write``, after writing a
  random prefix of the buffer (a torn write, as a power cut can leave);
* **random delay**: the parent SIGKILLs the child 0-30 ms after it started.

Then the parent reads what is on disk with the real readers. Figures per writer: trials,
acknowledged writes, acknowledged writes lost (must be 0), torn files seen (temporary files
left beside the target, torn ledger tails), torn files believed (a reader that accepted a
partial stamp, report or ledger line; must be 0).

The documented handling of a torn ledger tail: ``gate halt audit`` reports ``chain: line N:
torn last line`` and exits 1; ``gate halt check``/``bind`` refuse to append (exit 2); ``gate
halt repair-tail L`` moves the torn bytes to ``L.torn-<unix time>`` and truncates the ledger to
its last complete line, only if every complete line verifies (an edit in the middle is never
hidden: repair-tail then refuses with exit 1 and changes nothing).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gate.commands import main as cli
from gate.decide import halt
from gate.records import files, ledger
from gate.records import load as records
from tests.hardening import figures, fuzzlib

TRIALS = int(os.environ.get("GATE_CRASH_TRIALS", "200"))
WRAPPED = ("open", "write", "fsync", "link", "unlink", "replace", "rename", "ftruncate")
ORIGINAL = {name: getattr(os, name) for name in WRAPPED}


def _quiet(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(argv)
    return code, out.getvalue()


def _arm(kill_at: int, seed: int) -> None:
    rng = random.Random(seed)
    calls = [0]

    def wrap(name: str) -> Callable[..., Any]:
        original = ORIGINAL[name]

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            if calls[0] == kill_at:
                if name == "write" and len(args) == 2 and rng.random() < 0.7:
                    data = bytes(args[1])
                    original(args[0], data[: rng.randrange(len(data) + 1)])
                os.kill(os.getpid(), signal.SIGKILL)
            return original(*args, **kwargs)

        return wrapper

    for name in WRAPPED:
        setattr(os, name, wrap(name))


def _trial(body: Callable[[Callable[[str], None]], None], trial: int) -> list[str]:
    """Fork; the child runs ``body(ack)`` until killed; returns the acknowledgements."""
    rng = random.Random(trial)
    by_index = trial % 2 == 0
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_fd)
        try:
            if by_index:
                _arm(rng.randrange(1, 120), trial)

            def ack(text: str) -> None:
                ORIGINAL["write"](write_fd, (text + "\n").encode())

            body(ack)
        finally:
            os._exit(0)
    os.close(write_fd)
    if not by_index:
        time.sleep(rng.uniform(0, 0.03))
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    chunks = []
    while True:
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    figures.add(SECTION[0], "children killed", int(os.WIFSIGNALED(status)))
    return b"".join(chunks).decode().split()


SECTION = ["crash"]


def _leftovers(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*.tmp"))


# --- stamps -----------------------------------------------------------------------------------


def test_sigkill_while_stamping(tmp_path: Path) -> None:
    section = SECTION[0] = "crash: gate stamp"
    scratch = fuzzlib.Scratch(root=tmp_path)
    root = fuzzlib._stamp_root(scratch)
    lost = believed = torn_seen = acked_total = 0
    for trial in range(TRIALS):
        out = tmp_path / f"out{trial}"

        def body(ack: Callable[[str], None], out: Path = out) -> None:
            for j in range(60):
                code, _ = _quiet(["stamp", "--card", str(root / "card.json"), "--test-id",
                                  "t1", "--fixtures", str(root / "fixtures"), "--root",
                                  str(root), "--exit-code", "0", "--server-class",
                                  "local-pinned", "--out", str(out), "--run-id", f"r{j}"])
                if code == 0:
                    ack(f"r{j}")

        acked = _trial(body, trial)
        acked_total += len(acked)
        for run_id in acked:
            path = out / f"{run_id}.json"
            try:
                stamp = records.load_stamp(path)
                assert stamp["run_id"] == run_id
            except Exception:
                lost += 1
        if out.is_dir():
            torn_seen += _leftovers(out)
            for path in out.glob("*.json"):
                data = path.read_bytes()
                try:
                    stamp = records.load_stamp(path)
                except files.GateInputError:
                    continue  # refused: not believed
                if data != files.canonical_json(stamp) + b"\n":
                    believed += 1
            # The folder reader ignores leftovers and never trips on a partial stamp.
            code, _ = _quiet(["classify", "--stamps", str(out), "--now", str(fuzzlib.NOW)])
            if any(out.glob("*.json")) and code == 2:
                believed += 1
    figures.put(section, "trials", TRIALS)
    figures.put(section, "acknowledged writes", acked_total)
    figures.put(section, "acknowledged writes lost", lost)
    figures.put(section, "temporary files left (ignored by readers)", torn_seen)
    figures.put(section, "torn files believed", believed)
    assert lost == 0 and believed == 0


# --- reports ----------------------------------------------------------------------------------


def test_sigkill_while_writing_reports(tmp_path: Path) -> None:
    section = SECTION[0] = "crash: gate classify --report"
    stamps_dir = tmp_path / "stamps"
    stamps_dir.mkdir()
    for name, value in (("a", fuzzlib.stamp("local-pinned", "pass", "r1")),
                        ("b", fuzzlib.stamp("free-server", "pass", "r2"))):
        (stamps_dir / f"{name}.json").write_bytes(fuzzlib.dumps(value))
    lost = believed = torn_seen = acked_total = 0
    for trial in range(TRIALS):
        target = tmp_path / f"reports{trial}" / "report.json"

        def body(ack: Callable[[str], None], target: Path = target) -> None:
            for j in range(60):
                code, _ = _quiet(["classify", "--stamps", str(stamps_dir), "--report",
                                  str(target), "--now", str(fuzzlib.NOW + j)])
                if code in (0, 1):
                    ack(str(fuzzlib.NOW + j))

        acked = _trial(body, trial)
        acked_total += len(acked)
        if target.parent.is_dir():
            torn_seen += _leftovers(target.parent)
        if not target.exists():
            lost += len(acked) > 0
            continue
        data = target.read_bytes()
        try:
            built = records.load_report(target)
        except files.GateInputError:
            lost += len(acked) > 0  # the last acknowledged report must be readable
            continue
        if data != files.canonical_json(built.to_dict()) + b"\n":
            believed += 1
        if acked and built.now < max(int(a) for a in acked):
            lost += 1
    figures.put(section, "trials", TRIALS)
    figures.put(section, "acknowledged writes", acked_total)
    figures.put(section, "acknowledged writes lost", lost)
    figures.put(section, "temporary files left (ignored by readers)", torn_seen)
    figures.put(section, "torn files believed", believed)
    assert lost == 0 and believed == 0


# --- ledger -----------------------------------------------------------------------------------


def _ledger_body(path: Path, bfile: Path) -> Callable[[Callable[[str], None]], None]:
    def body(ack: Callable[[str], None]) -> None:
        generation = 0
        for j in range(60):
            if j % 10 == 0:
                code, out = _quiet(["halt", "bind", "--ledger", str(path), "--run-id", "run-1",
                                    "--scope", "lab.invalid", "--host", "api.lab.invalid"])
                if code != 0:
                    return
                generation = json.loads(out)["generation"]
                bfile.write_text(out)
                ack(f"bind:{generation}")
                continue
            code, out = _quiet(["halt", "check", "--ledger", str(path), "--binding",
                                str(bfile), "--issued-gen", str(generation),
                                "--attempt-id", f"a{j}", "--json"])
            if code in (0, 1):
                ack(f"decision:a{j}:{json.loads(out)['decision']}")
            else:
                return

    return body


def test_sigkill_while_appending_to_the_ledger(tmp_path: Path) -> None:
    section = SECTION[0] = "crash: gate halt check/bind"
    lost = believed = torn_tails = repaired = acked_total = 0
    for trial in range(TRIALS):
        path = tmp_path / f"l{trial}" / "ledger.jsonl"
        path.parent.mkdir()
        acked = _trial(_ledger_body(path, path.parent / "binding.json"), trial)
        acked_total += len(acked)
        if not path.exists():
            lost += len(acked)
            continue
        data = path.read_bytes()
        torn = bool(data) and not data.endswith(b"\n")
        audit_code, _ = _quiet(["halt", "audit", str(path)])
        if torn:
            torn_tails += 1
            if audit_code == 0:
                believed += 1  # a torn tail must never pass the audit
            bfile = path.parent / "binding.json"
            if bfile.exists():
                code, _ = _quiet(["halt", "check", "--ledger", str(path), "--binding",
                                  str(bfile), "--issued-gen", "1", "--attempt-id", "after"])
                if code != 2:
                    believed += 1  # nothing is appended after a torn tail
            code, _ = _quiet(["halt", "repair-tail", str(path)])
            assert code == 0, "repair-tail refused a ledger whose complete lines verify"
            repaired += 1
            assert list(path.parent.glob("ledger.jsonl.torn-*")), "torn bytes not kept"
            data = path.read_bytes()
            audit_code, _ = _quiet(["halt", "audit", str(path)])
        if audit_code != 0:
            believed += 1  # a ledger of complete lines written by gate must pass its audit
        entries = [json.loads(line) for line in data.splitlines()]
        decided = {e["attempt_id"]: e["decision"] for e in entries if e["kind"] == "decision"}
        generations = {e["binding"]["generation"] for e in entries if e["kind"] == "bind"}
        for item in acked:
            kind, *rest = item.split(":")
            if kind == "bind" and int(rest[0]) not in generations:
                lost += 1
            if kind == "decision" and decided.get(rest[0]) != rest[1]:
                lost += 1
    figures.put(section, "trials", TRIALS)
    figures.put(section, "acknowledged writes", acked_total)
    figures.put(section, "acknowledged writes lost", lost)
    figures.put(section, "torn tails seen (detected, repaired)", f"{torn_tails}, {repaired}")
    figures.put(section, "torn files believed", believed)
    assert lost == 0 and believed == 0


def test_repair_tail_never_hides_an_edit_in_the_middle(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    book = ledger.Ledger(path)
    first = book.bind("run-1", "lab.invalid", "api.lab.invalid", halt.DEFAULT_MARKER)
    for n in range(4):
        book.check(first, 1, f"a{n}")
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"allow"', b'"halt"')
    edited = b"".join(lines) + b'{"v":1,"seq":6,'
    path.write_bytes(edited)
    code, _ = _quiet(["halt", "repair-tail", str(path)])
    assert code == 1
    assert path.read_bytes() == edited  # nothing moved, nothing truncated
    assert not list(tmp_path.glob("ledger.jsonl.torn-*"))
    code, out = _quiet(["halt", "audit", str(path)])
    assert code == 1 and "torn" in out
    figures.put("crash: gate halt check/bind", "repair-tail refused an edited ledger", True)


def test_repair_tail_on_a_whole_ledger_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger.Ledger(path).bind("run-1", "lab.invalid", "api.lab.invalid", halt.DEFAULT_MARKER)
    before = path.read_bytes()
    code, out = _quiet(["halt", "repair-tail", str(path)])
    assert code == 0 and "no torn tail" in out
    assert path.read_bytes() == before


@pytest.mark.parametrize("tail", [b"{", b'{"v":1,"seq":2', b"\x00\x00", b"garbage"])
def test_torn_tail_is_reported_with_its_line(tmp_path: Path, tail: bytes) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger.Ledger(path).bind("run-1", "lab.invalid", "api.lab.invalid", halt.DEFAULT_MARKER)
    path.write_bytes(path.read_bytes() + tail)
    code, out = _quiet(["halt", "audit", str(path)])
    assert code == 1 and "line 2: torn last line" in out
    code, out = _quiet(["halt", "repair-tail", str(path)])
    assert code == 0 and "line 2" in out
    (kept,) = tmp_path.glob("ledger.jsonl.torn-*")
    assert kept.read_bytes() == tail
    assert _quiet(["halt", "audit", str(path)])[0] == 0
