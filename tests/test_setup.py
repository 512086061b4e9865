"""The action's set-up: what each mode installs, all of it locked by hash.

Stamp mode installs ``requirements/stamp.lock`` only: a subset of ``action.lock`` (same versions
and hashes), enough for ``gate action`` in stamp mode and its signing step (cryptography),
without PyGithub.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "gate" / "examples"
#: Import names of what action.lock holds beyond stamp.lock.
GATE_ONLY = ("github", "requests", "urllib3", "certifi", "idna", "charset_normalizer", "jwt",
             "nacl",
             # signing.mode: sigstore (gate/records/sigstore_bundle.py) and what it brings
             "sigstore", "sigstore_models", "rekor_types", "pydantic", "pydantic_core", "tuf",
             "securesystemslib", "rfc3161_client", "rfc8785", "rich", "id", "platformdirs",
             "email_validator", "dns", "annotated_types", "typing_inspection")


def _entries(name: str) -> dict[str, tuple[str, frozenset[str]]]:
    text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
    found: dict[str, tuple[str, frozenset[str]]] = {}
    for block in re.split(r"\n(?=[a-z0-9])", text):
        head = re.match(r"([a-z0-9][a-z0-9_.-]*)==(\S+)", block)
        if head:
            found[head.group(1)] = (head.group(2),
                                    frozenset(re.findall(r"--hash=sha256:([0-9a-f]{64})", block)))
    return found


def test_stamp_lock_is_a_subset_of_action_lock() -> None:
    stamp, full = _entries("stamp.lock"), _entries("action.lock")
    assert set(stamp) == {"attrs", "fastjsonschema", "jsonschema", "jsonschema-specifications",
                          "junitparser", "pyyaml", "referencing", "rpds-py",
                          "typing-extensions", "cryptography", "cffi", "pycparser"}
    for name, pinned in stamp.items():
        assert full[name] == pinned, name
    assert "pygithub" in full and "cryptography" in full and "sigstore" in full
    assert not {"hatchling", "packaging", "pathspec", "pluggy"} & set(full)  # no build back-end


def test_stamp_mode_imports_nothing_outside_the_stamp_lock(tmp_path: Path) -> None:
    """gate action in stamp mode with every gate-only package made unimportable."""
    blocker = f"""
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {GATE_ONLY!r}:
            raise ImportError("stamp mode imported " + name)
        return None
sys.meta_path.insert(0, Refuse())
from gate.commands.main import main
raise SystemExit(main(["action"]))
"""
    (tmp_path / "runner").mkdir()
    env = {"PATH": "/usr/bin:/bin", "RUNNER_TEMP": str(tmp_path / "runner"),
           "GITHUB_OUTPUT": str(tmp_path / "out.txt"), "GATE_MODE": "stamp",
           "GATE_SERVER_CLASS": "free-server", "GATE_MANIFEST": str(EXAMPLES / "manifest.yml"),
           "GATE_ROOT": str(EXAMPLES), "GATE_JUNIT": str(EXAMPLES / "junit" / "free-server.xml"),
           "GATE_EXIT_CODE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-P", "-c", blocker], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out = (tmp_path / "out.txt").read_text(encoding="utf-8")
    match = re.search(r"stamps-dir<<(\S+)\n(.*?)\n\1", out, re.S)
    assert match, out
    folder = Path(match.group(2))
    stamps = [json.loads(p.read_text()) for p in folder.glob("*.json")]
    assert len(stamps) == 3
