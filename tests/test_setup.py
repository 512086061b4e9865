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
GATE_ONLY = ("github", "nacl")
#: What stamp mode (the step that runs the tests) never imports: the gate job's packages, and
#: what only the signing step's sigstore mode needs (stamp.lock holds those for that step).
NOT_IN_STAMP_MODE = (*GATE_ONLY, "requests", "urllib3", "certifi", "idna", "charset_normalizer",
                     "jwt", "sigstore", "sigstore_models", "rekor_types", "pydantic",
                     "pydantic_core", "tuf", "securesystemslib", "rfc3161_client", "rfc8785",
                     "rich", "id", "platformdirs", "email_validator", "dns", "annotated_types",
                     "typing_inspection")


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
                          "typing-extensions", "cryptography", "cffi", "pycparser",
                          # the signing step's sigstore mode
                          "sigstore", "sigstore-models", "sigstore-rekor-types", "id", "pyjwt",
                          "pydantic", "pydantic-core", "annotated-types", "typing-inspection",
                          "tuf", "securesystemslib", "rfc3161-client", "rfc8785", "rich",
                          "markdown-it-py", "mdurl", "pygments", "platformdirs", "requests",
                          "urllib3", "certifi", "idna", "charset-normalizer",
                          "email-validator", "dnspython"}
    for name, pinned in stamp.items():
        assert full[name] == pinned, name
    assert "pygithub" in full and "pygithub" not in stamp and "sigstore" in full
    assert not {"hatchling", "packaging", "pathspec", "pluggy"} & set(full)  # no build back-end


def test_stamp_mode_imports_nothing_outside_the_stamp_lock(tmp_path: Path) -> None:
    """gate action in stamp mode with every gate-only package made unimportable."""
    blocker = f"""
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {NOT_IN_STAMP_MODE!r}:
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


def test_the_sigstore_signing_step_needs_nothing_outside_the_stamp_lock() -> None:
    """The stamp job's venv is stamp.lock's: everything sigstore mode's signer imports (with the
    pinned trust config loaded, as the step does before it reaches the network) comes from it."""
    probe = """
import json, sys
before = set(sys.modules)  # the interpreter's start (site's .pth hooks) is not the step's
from importlib.metadata import packages_distributions
from gate.records import sigstore_bundle as sb
from sigstore import dsse, sign, oidc, models
from sigstore_models.trustroot import v1
config = v1.SigningConfig.from_json(sb.read_trust_file(sb.PINNED_SIGNING_CONFIG))
root = v1.TrustedRoot.from_json(sb.read_trust_file(sb.PINNED_TRUSTED_ROOT))
trust = models.ClientTrustConfig(v1.ClientTrustConfig(
    media_type=models.ClientTrustConfig.ClientTrustConfigType.CONFIG_0_1.value,
    trusted_root=root, signing_config=config))
sign.SigningContext.from_trust_config(trust)
dists = packages_distributions()
names = {d.lower().replace("_", "-") for m in set(sys.modules) - before
         for d in dists.get(m.split(".")[0], [])}
print(json.dumps(sorted(names)))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    used = set(json.loads(done.stdout)) - {"agent-patch-gate"}
    assert "sigstore" in used
    assert used <= set(_entries("stamp.lock")), used - set(_entries("stamp.lock"))
