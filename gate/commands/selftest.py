"""``gate receipt selftest``: write receipts in both formats, then verify and tamper."""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gate.records import receipts
from gate.records.files import read_all, write_replace


def _cases() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    def setter(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda d: d.__setitem__(key, value)

    return [
        ("untouched", lambda d: None, "accept"),
        ("other diff", setter("diff_sha256", "0" * 64), "reject: diff_sha256"),
        ("other prompt", setter("prompt_sha256", "f" * 64), "reject: prompt_sha256"),
        ("other model", setter("model_id", "other-model"), "reject: model_id"),
        ("stale generation", setter("workspace_generation", "0"), "reject: workspace_generation"),
        ("fail verdict", setter("verdict", "fail"), "reject: verdict"),
        ("empty reasons", setter("reasons", []), "reject: reasons"),
        ("unknown field", setter("extra", "x"), "reject: unknown_fields"),
        ("missing model", lambda d: d.pop("model_id"), "reject: model_id"),
    ]


def run_receipt_selftest(say: Callable[[str], None]) -> bool:
    diff, prompt = b"--- a\n+++ b\n", b"review this diff"
    expected = {
        "diff_sha256": hashlib.sha256(diff).hexdigest(),
        "prompt_sha256": hashlib.sha256(prompt).hexdigest(),
        "model_id": "reviewer-model-1",
        "workspace_generation": "7",
    }
    base = receipts.build(**expected, verdict="pass", reasons=["tests cover the change"])
    good = total = 0
    with tempfile.TemporaryDirectory(prefix="gate-selftest-") as tmp:
        for fmt in ("json", "in-toto"):
            for name, tamper, want in _cases():
                plain = json.loads(json.dumps(base))
                tamper(plain)
                if fmt == "json":
                    document: dict[str, Any] = plain
                else:
                    document = receipts.to_in_toto(
                        {k: plain.get(k, base[k]) for k in receipts.FIELDS})
                    if "model_id" not in plain:
                        document["predicate"].pop("model_id")
                    if "extra" in plain:
                        document["predicate"]["extra"] = plain["extra"]
                path = Path(tmp) / f"{fmt}-{total}.json"
                write_replace(path, json.dumps(document).encode("utf-8"))
                loaded = json.loads(read_all(path))
                got = receipts.verify(loaded, expected).line
                total += 1
                ok = got == want
                good += ok
                say(f"{'ok  ' if ok else 'FAIL'} {fmt:8} {name:18} -> {got}")
    say(f"receipt selftest: {good} of {total} cases as expected")
    return good == total
