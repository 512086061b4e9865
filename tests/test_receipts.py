"""Receipt binder (SPEC §5): write refusals, every mismatch word, both formats, the CLI."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from gate.records import receipts
from tests.core_helpers import (
    Result,
    assert_bad_input,
    bootstrapped,
    run_cli,
    sha256_hex,
    write_json,
)

DIFF = b"--- a/x\n+++ b/x\n@@\n-1\n+2\n"
PROMPT = b"Review the patch for x."
BOUND = {
    "diff_sha256": sha256_hex(DIFF),
    "prompt_sha256": sha256_hex(PROMPT),
    "model_id": "reviewer-1",
    "workspace_generation": "3",
}


def good_receipt() -> dict[str, Any]:
    return receipts.build(**BOUND, verdict="pass", reasons=["covers the change"])


def line(document: Any) -> str:
    return receipts.verify(json.loads(json.dumps(document)), BOUND).line


# --- build -------------------------------------------------------------------------------------


def test_build_exact_fields() -> None:
    assert good_receipt() == {**BOUND, "verdict": "pass", "reasons": ["covers the change"]}
    assert receipts.build(**BOUND, verdict="fail", reasons=["r"])["verdict"] == "fail"


@pytest.mark.parametrize("verdict", ["PASS", "accept", "", "ok", None])
def test_build_refuses_other_verdicts(verdict: Any) -> None:
    with pytest.raises(receipts.ReceiptWriteError) as info:
        receipts.build(**BOUND, verdict=verdict, reasons=["r"])
    assert info.value.field == "verdict"


@pytest.mark.parametrize("reasons", [[], "a reason", {"a": 1}, None, [""], [1], ["ok", None]])
def test_build_refuses_bad_reasons(reasons: Any) -> None:
    with pytest.raises(receipts.ReceiptWriteError) as info:
        receipts.build(**BOUND, verdict="pass", reasons=reasons)
    assert info.value.field == "reasons"


def test_build_refuses_a_malformed_hash() -> None:
    with pytest.raises(receipts.ReceiptWriteError) as info:
        receipts.build(**dict(BOUND, prompt_sha256="X" * 64), verdict="pass", reasons=["r"])
    assert info.value.field == "prompt_sha256"


# --- verify, plain JSON ------------------------------------------------------------------------


def test_verify_accepts() -> None:
    assert line(good_receipt()) == "accept"
    assert receipts.verify(good_receipt(), BOUND).accepted is True


@pytest.mark.parametrize(
    ("key", "value", "word"),
    [
        ("diff_sha256", sha256_hex(b"old diff"), "diff_sha256"),
        ("prompt_sha256", sha256_hex(b"other prompt"), "prompt_sha256"),
        ("model_id", "reviewer-2", "model_id"),
        ("workspace_generation", "4", "workspace_generation"),
        ("workspace_generation", 3, "workspace_generation"),  # a number is not the string "3"
        ("verdict", "fail", "verdict"),
        ("verdict", "PASS", "verdict"),
        ("reasons", [], "reasons"),
        ("reasons", "looks fine", "reasons"),
        ("reasons", [""], "reasons"),
        ("diff_sha256", sha256_hex(DIFF).upper(), "diff_sha256"),
    ],
)
def test_verify_plain_mismatch(key: str, value: Any, word: str) -> None:
    document = dict(good_receipt(), **{key: value})
    assert line(document) == f"reject: {word}"


@pytest.mark.parametrize("key", list(receipts.FIELDS))
def test_verify_plain_missing_field(key: str) -> None:
    document = good_receipt()
    del document[key]
    assert line(document) == f"reject: {key}"


def test_verify_unknown_fields() -> None:
    assert line(dict(good_receipt(), extra="x")) == "reject: unknown_fields"
    assert line(dict(good_receipt(), _note=1, zzz=2)) == "reject: unknown_fields"


def test_verify_several_mismatches_in_field_order() -> None:
    document = dict(good_receipt(), workspace_generation="9", model_id="m2", verdict="fail",
                    extra=True)
    assert line(document) == "reject: model_id,workspace_generation,verdict,unknown_fields"


@pytest.mark.parametrize("document", [[], "receipt", 3, None, True])
def test_verify_not_an_object(document: Any) -> None:
    assert receipts.verify(document, BOUND).line == "reject: receipt_type"


# --- verify, in-toto ---------------------------------------------------------------------------


def test_in_toto_shape() -> None:
    statement = receipts.to_in_toto(good_receipt())
    assert statement == {
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [{"name": "diff", "digest": {"sha256": BOUND["diff_sha256"]}}],
        "predicateType": receipts.PREDICATE_TYPE,
        "predicate": {"prompt_sha256": BOUND["prompt_sha256"], "model_id": "reviewer-1",
                      "workspace_generation": "3", "verdict": "pass",
                      "reasons": ["covers the change"]},
    }
    assert line(statement) == "accept"


def _tampered(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    statement = copy.deepcopy(receipts.to_in_toto(good_receipt()))
    target: Any = statement
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return statement


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("subject", 0, "digest", "sha256"), sha256_hex(b"old"), "reject: diff_sha256"),
        (("subject", 0, "name"), "patch", "reject: diff_sha256"),
        (("subject",), [], "reject: diff_sha256"),
        (("predicate", "prompt_sha256"), sha256_hex(b"p2"), "reject: prompt_sha256"),
        (("predicate", "model_id"), "other", "reject: model_id"),
        (("predicate", "workspace_generation"), "2", "reject: workspace_generation"),
        (("predicate", "verdict"), "fail", "reject: verdict"),
        (("predicate", "reasons"), [], "reject: reasons"),
        (("predicate", "model_id"), _DELETE, "reject: model_id"),
        (("predicate", "extra"), "x", "reject: unknown_fields"),
        (("extra",), "x", "accept"),  # the Statement layer ignores unknown fields (in-toto)
        (("predicateType",), "https://example.com/other/v1", "reject: statement_type"),
        (("_type",), "https://in-toto.io/Statement/v0.1", "reject: statement_type"),
    ],
)
def test_in_toto_tampered(path: tuple[Any, ...], value: Any, expected: str) -> None:
    assert line(_tampered(path, value)) == expected


def test_in_toto_two_subjects_rejects() -> None:
    statement = receipts.to_in_toto(good_receipt())
    statement["subject"].append(copy.deepcopy(statement["subject"][0]))
    assert line(statement) == "reject: diff_sha256"


def test_in_toto_predicate_not_an_object() -> None:
    statement = _tampered(("predicate",), ["x"])
    assert line(statement).startswith("reject: prompt_sha256,model_id,workspace_generation,"
                                      "verdict,reasons")


# --- CLI ---------------------------------------------------------------------------------------


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    diff = tmp_path / "change.diff"
    diff.write_bytes(DIFF)
    prompt = tmp_path / "prompt.txt"
    prompt.write_bytes(PROMPT)
    reasons = write_json(tmp_path / "reasons.json", ["covers the change"])
    return {"diff": diff, "prompt": prompt, "reasons": reasons, "dir": tmp_path}


def write(files: dict[str, Path], out: Path, *extra: object, verdict: str = "pass",
          reasons: Path | None = None) -> Result:
    return run_cli("receipt", "write", "--diff", files["diff"], "--prompt", files["prompt"],
                   "--model", "reviewer-1", "--workspace-gen", "3", "--verdict", verdict,
                   "--reasons-file", reasons or files["reasons"], "--out", out, *extra)


def verify(files: dict[str, Path], receipt: Path, model: str = "reviewer-1",
           gen: str = "3", *extra: object) -> Result:
    """Verify ``receipt`` in its own attempt folder, bootstrapped with generation 3."""
    return run_cli("receipt", "verify", "--diff", files["diff"], "--prompt", files["prompt"],
                   "--model", model, "--workspace-gen", gen, "--receipt", receipt,
                   *bootstrapped(receipt.parent, "3"), *extra)


@pytest.mark.parametrize("fmt", ["json", "in-toto"])
def test_cli_write_then_verify_accepts(files: dict[str, Path], fmt: str) -> None:
    out = files["dir"] / "attempt-1" / "receipt.json"
    written = write(files, out, "--format", fmt)
    assert (written.code, written.out, written.err) == (0, f"{out}\n", "")
    document = json.loads(out.read_text(encoding="utf-8"))
    assert ("_type" in document) is (fmt == "in-toto")
    result = verify(files, out)
    assert (result.code, result.out, result.err) == (0, "accept\n", "")


@pytest.mark.parametrize("fmt", ["json", "in-toto"])
def test_cli_verify_rejects_other_model_and_generation(files: dict[str, Path], fmt: str) -> None:
    out = files["dir"] / "r.json"
    assert write(files, out, "--format", fmt).code == 0
    assert (verify(files, out, "reviewer-2").code, verify(files, out, "reviewer-2").out) == (
        1, "reject: model_id\n")
    result = verify(files, out, "reviewer-1", "4")
    assert (result.code, result.out) == (1, "reject: workspace_generation\n")
    files["diff"].write_bytes(DIFF + b"+3\n")  # the diff moved on
    result = verify(files, out)
    assert (result.code, result.out) == (1, "reject: diff_sha256\n")
    files["prompt"].write_bytes(b"another prompt")
    result = verify(files, out)
    assert (result.code, result.out) == (1, "reject: diff_sha256,prompt_sha256\n")


@pytest.mark.parametrize("fmt", ["json", "in-toto"])
def test_cli_fail_verdict_is_written_but_never_verifies(files: dict[str, Path], fmt: str
                                                        ) -> None:
    out = files["dir"] / "r.json"
    assert write(files, out, "--format", fmt, verdict="fail").code == 0
    result = verify(files, out)
    assert (result.code, result.out) == (1, "reject: verdict\n")


def test_cli_verify_missing_receipt(files: dict[str, Path]) -> None:
    result = verify(files, files["dir"] / "nope.json")
    assert (result.code, result.out, result.err) == (1, "reject: missing_receipt\n", "")


@pytest.mark.parametrize("text", ['{"diff_sha256": ', "", "\ufeff{}", "{'a': 1}", "NaN",
                                  '{"a": 1, "a": 2}'])
def test_cli_verify_unparsable(files: dict[str, Path], text: str) -> None:
    path = files["dir"] / "r.json"
    path.write_text(text, encoding="utf-8")
    result = verify(files, path)
    assert (result.code, result.out) == (1, "reject: receipt_json\n")


def test_cli_verify_not_utf8(files: dict[str, Path]) -> None:
    path = files["dir"] / "r.json"
    path.write_bytes(b"\xff\xfe{}")
    assert verify(files, path).out == "reject: receipt_json\n"


@pytest.mark.parametrize("value", [[], ["accept"], "accept", 1, None, True])
def test_cli_verify_not_an_object(files: dict[str, Path], value: Any) -> None:
    path = write_json(files["dir"] / "r.json", value)
    result = verify(files, path)
    assert (result.code, result.out) == (1, "reject: receipt_type\n")


def test_cli_verify_unknown_field(files: dict[str, Path]) -> None:
    out = files["dir"] / "r.json"
    assert write(files, out).code == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    document["approved_by"] = "model"
    write_json(out, document)
    assert verify(files, out).out == "reject: unknown_fields\n"


def test_cli_verify_empty_reasons(files: dict[str, Path]) -> None:
    out = write_json(files["dir"] / "r.json", dict(good_receipt(), reasons=[]))
    result = verify(files, out)
    assert (result.code, result.out) == (1, "reject: reasons\n")


def test_cli_verify_json(files: dict[str, Path]) -> None:
    out = write_json(files["dir"] / "r.json", dict(good_receipt(), verdict="fail"))
    result = verify(files, out, "reviewer-1", "3", "--json")
    assert result.code == 1
    assert json.loads(result.out) == {"decision": "reject", "line": "reject: verdict",
                                      "mismatches": ["verdict"]}


def test_cli_verify_missing_diff_is_bad_input(files: dict[str, Path]) -> None:
    out = write_json(files["dir"] / "r.json", good_receipt())
    files["diff"].unlink()
    assert_bad_input(verify(files, out), str(files["diff"]), "(file)")


@pytest.mark.parametrize("verdict", ["maybe", "PASS", ""])
def test_cli_write_refuses_other_verdicts(files: dict[str, Path], verdict: str) -> None:
    out = files["dir"] / "r.json"
    assert_bad_input(write(files, out, verdict=verdict), "(arguments)", "verdict")
    assert not out.exists()


@pytest.mark.parametrize("reasons", [[], {}, "fine", [""], [1], None])
def test_cli_write_refuses_bad_reasons(files: dict[str, Path], reasons: Any) -> None:
    path = write_json(files["dir"] / "bad-reasons.json", reasons)
    out = files["dir"] / "r.json"
    assert_bad_input(write(files, out, reasons=path), str(path), "reasons")
    assert not out.exists()


def test_cli_write_missing_reasons_file(files: dict[str, Path]) -> None:
    missing = files["dir"] / "none.json"
    assert_bad_input(write(files, files["dir"] / "r.json", reasons=missing), str(missing),
                     "(file)")


def test_cli_write_never_overwrites(files: dict[str, Path]) -> None:
    out = files["dir"] / "r.json"
    assert write(files, out).code == 0
    before = out.read_bytes()
    assert_bad_input(write(files, out, verdict="fail"), str(out), "(file)")
    assert out.read_bytes() == before


def test_cli_write_bad_format_is_usage(files: dict[str, Path]) -> None:
    assert_bad_input(write(files, files["dir"] / "r.json", "--format", "xml"), "(usage)")


def test_cli_selftest() -> None:
    result = run_cli("receipt", "selftest")
    assert result.code == 0
    assert result.lines[-1] == "receipt selftest: 18 of 18 cases as expected"
    assert sum(ln.startswith("ok ") for ln in result.lines) == 18
    assert not any(ln.startswith("FAIL") for ln in result.lines)


def test_cli_receipt_without_subcommand_is_usage() -> None:
    assert_bad_input(run_cli("receipt"), "(usage)")


# --- issue 14 class 10: the Statement layer ignores unknown fields; the predicate is exact ------


@pytest.mark.parametrize("path", [("zz_future",), ("subject", 0, "uri"),
                                  ("subject", 0, "annotations"),
                                  ("subject", 0, "digest", "sha512")])
def test_in_toto_statement_layer_ignores_unknown_fields(path: tuple[Any, ...]) -> None:
    assert line(_tampered(path, "x")) == "accept"


@pytest.mark.parametrize("key", ["zz_future", "approved_by"])
def test_in_toto_predicate_stays_exact(key: str) -> None:
    assert line(_tampered(("predicate", key), "x")) == "reject: unknown_fields"


def test_predicate_type_is_owned_and_the_old_one_still_verifies() -> None:
    assert receipts.PREDICATE_TYPE == "https://github.com/agent-patch-gate/gate/review-receipt/v1"
    assert ".invalid" not in receipts.PREDICATE_TYPE
    assert receipts.to_in_toto(good_receipt())["predicateType"] == receipts.PREDICATE_TYPE
    old = _tampered(("predicateType",), "https://agent-patch-gate.invalid/review-receipt/v1")
    assert line(old) == "accept"
    assert line(_tampered(("predicateType",), "https://github.com/agent-patch-gate/gate/"
                          "review-receipt/v2")) == "reject: statement_type"
