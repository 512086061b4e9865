"""Issue 14 class 12: the receipt binder's bootstrap rules, enforced (gate.records.attempts)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gate.records import attempts
from tests.core_helpers import Result, assert_bad_input, run_cli, write_json


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    diff = tmp_path / "change.diff"
    diff.write_bytes(b"+x\n")
    prompt = tmp_path / "prompt.txt"
    prompt.write_bytes(b"review")
    reasons = write_json(tmp_path / "reasons.json", ["covers the change"])
    return {"diff": diff, "prompt": prompt, "reasons": reasons, "dir": tmp_path / "receipts"}


def bootstrap(files: dict[str, Path], attempt: str) -> str:
    result = run_cli("receipt", "bootstrap", "--attempt-id", attempt, "--dir", files["dir"])
    assert result.code == 0, result
    generation = result.out.strip()
    assert re.fullmatch(r"[0-9a-f]{32}", generation)
    return generation


def write(files: dict[str, Path], out: Path, gen: str) -> None:
    result = run_cli("receipt", "write", "--diff", files["diff"], "--prompt", files["prompt"],
                     "--model", "m", "--workspace-gen", gen, "--verdict", "pass",
                     "--reasons-file", files["reasons"], "--out", out)
    assert result.code == 0, result


def verify(files: dict[str, Path], receipt: Path, gen: str | None, *extra: object) -> Result:
    given = [] if gen is None else ["--workspace-gen", gen]
    return run_cli("receipt", "verify", "--diff", files["diff"], "--prompt", files["prompt"],
                   "--model", "m", *given, "--receipt", receipt, *extra)


def test_bootstrap_mints_records_and_creates(files: dict[str, Path]) -> None:
    gen = bootstrap(files, "attempt-1")
    record = json.loads((files["dir"] / "attempt-1" / attempts.GENERATION_FILE).read_text())
    assert record == {"attempt_id": "attempt-1", "workspace_generation": gen}
    assert bootstrap(files, "attempt-1") != gen  # no receipt yet: a fresh generation


def test_bootstrap_refuses_a_folder_that_holds_a_receipt(files: dict[str, Path]) -> None:
    gen = bootstrap(files, "a1")
    write(files, files["dir"] / "a1" / "receipt.json", gen)
    result = run_cli("receipt", "bootstrap", "--attempt-id", "a1", "--dir", files["dir"])
    assert_bad_input(result, "a1", "receipt.json")


@pytest.mark.parametrize("bad", ["../x", ".", "..", "a/b", "", "-x", "a" * 129])
def test_bootstrap_refuses_attempt_ids_that_are_not_folder_names(files: dict[str, Path],
                                                                 bad: str) -> None:
    result = run_cli("receipt", "bootstrap", "--attempt-id", bad, "--dir", files["dir"])
    assert_bad_input(result, "--attempt-id")


def test_bootstrap_refuses_a_linked_folder(files: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    files["dir"].mkdir()
    (files["dir"] / "a1").symlink_to(tmp_path / "elsewhere")
    assert_bad_input(run_cli("receipt", "bootstrap", "--attempt-id", "a1", "--dir",
                             files["dir"]), "symbolic link")


def test_a_receipt_in_its_attempt_folder_accepts(files: dict[str, Path]) -> None:
    gen = bootstrap(files, "a1")
    write(files, files["dir"] / "a1" / "receipt.json", gen)
    for given in (gen, None):  # the bootstrap's printed generation, or the minted one
        result = verify(files, files["dir"] / "a1" / "receipt.json", given,
                        "--attempt-id", "a1", "--dir", files["dir"])
        assert (result.code, result.out) == (0, "accept\n"), result


def test_a_receipt_outside_the_attempt_it_claims_rejects(files: dict[str, Path]) -> None:
    gen1, gen2 = bootstrap(files, "a1"), bootstrap(files, "a2")
    write(files, files["dir"] / "a2" / "receipt.json", gen1)  # a1's generation, a2's folder
    for given in (gen1, None):
        result = verify(files, files["dir"] / "a2" / "receipt.json", given,
                        "--attempt-id", "a1", "--dir", files["dir"])
        assert (result.code, result.out.strip().split(",")[0]) == (1, "reject: receipt_location")
    # claiming the folder it is in: it names a generation other than the one minted there
    for given in (gen2, None):
        result = verify(files, files["dir"] / "a2" / "receipt.json", given,
                        "--attempt-id", "a2", "--dir", files["dir"])
        assert (result.code, result.out) == (1, "reject: workspace_generation\n"), result
    # and a generation given that is not the minted one rejects even a matching receipt
    result = verify(files, files["dir"] / "a2" / "receipt.json", gen1,
                    "--attempt-id", "a2", "--dir", files["dir"])
    assert (result.code, result.out) == (1, "reject: workspace_generation\n"), result


def test_a_receipt_in_another_folder_under_the_same_name_rejects(files: dict[str, Path],
                                                                 tmp_path: Path) -> None:
    gen = bootstrap(files, "a1")
    copy = tmp_path / "elsewhere" / "a1" / "receipt.json"
    write(files, copy, gen)  # the right name, the wrong folder
    result = verify(files, copy, gen, "--attempt-id", "a1", "--dir", files["dir"])
    assert (result.code, result.out) == (1, "reject: receipt_location\n"), result
    nested = files["dir"] / "a1" / "sub" / "receipt.json"
    write(files, nested, gen)  # directly inside, not somewhere below
    result = verify(files, nested, gen, "--attempt-id", "a1", "--dir", files["dir"])
    assert (result.code, result.out) == (1, "reject: receipt_location\n"), result


def test_a_receipt_not_in_a_bootstrapped_folder_rejects_when_an_attempt_is_claimed(
        files: dict[str, Path]) -> None:
    loose = files["dir"] / "a1" / "receipt.json"
    write(files, loose, "g")
    for given in ("g", None):
        result = verify(files, loose, given, "--attempt-id", "a1", "--dir", files["dir"])
        assert result.code == 1 and result.out.startswith("reject: receipt_location"), result


def test_a_receipt_left_by_a_previous_generation_rejects(files: dict[str, Path]) -> None:
    old = bootstrap(files, "a1")
    new = bootstrap(files, "a1")  # nothing written yet: the generation moves on
    write(files, files["dir"] / "a1" / "receipt.json", old)
    for gen in (old, new):
        result = verify(files, files["dir"] / "a1" / "receipt.json", gen,
                        "--attempt-id", "a1", "--dir", files["dir"])
        assert result.code == 1 and "workspace_generation" in result.out, (gen, result)


def test_a_folder_renamed_to_another_attempt_rejects(files: dict[str, Path]) -> None:
    gen = bootstrap(files, "a1")
    write(files, files["dir"] / "a1" / "receipt.json", gen)
    (files["dir"] / "a1").rename(files["dir"] / "a9")
    result = verify(files, files["dir"] / "a9" / "receipt.json", gen,
                    "--attempt-id", "a9", "--dir", files["dir"])
    assert (result.code, result.out) == (1, "reject: receipt_location\n")


@pytest.mark.parametrize("drop", ["--attempt-id", "--dir", "both"])
def test_verify_always_needs_the_attempt_and_its_folder(files: dict[str, Path],
                                                        drop: str) -> None:
    gen = bootstrap(files, "a1")
    write(files, files["dir"] / "a1" / "r.json", gen)
    place = {"--attempt-id": "a1", "--dir": str(files["dir"])}
    extra = [x for flag, value in place.items() if drop not in (flag, "both")
             for x in (flag, value)]
    result = verify(files, files["dir"] / "a1" / "r.json", gen, *extra)
    assert result.code == 2 and "required" in result.err, result
    assert (drop if drop != "both" else "--attempt-id") in result.err
    assert result.out == ""


def test_the_action_receipt_route_uses_the_same_rule(files: dict[str, Path]) -> None:
    from gate.records import load

    gen = bootstrap(files, "a1")
    bootstrap(files, "a2")
    write(files, files["dir"] / "a2" / "receipt.json", gen)
    result = load.verify_receipt_files(files["dir"] / "a2" / "receipt.json", str(files["diff"]),
                                       str(files["prompt"]), "m", None, "a2", files["dir"])
    assert not result.accepted and "workspace_generation" in result.mismatches
