"""The gate step's classify, with and without a signing policy: ``gate action`` in gate mode
(what the action's gate job runs: the stamps downloaded, paired, decided and reported) on two
artifacts of stamps, one per server class, against reading and JSON-parsing the same files in
one Python loop (bench/classify.py's baseline).

``gate classify --stamps`` refuses a policy that requires signed stamps (only the gate job has
the run's context to check a set against), so the signed figure is the gate step's: each
artifact is signed offline by the stamp job's signing step (``gate action`` in sign mode, an
ed25519 key made here, as tests/test_signing.py does), and the gate step verifies both
envelopes (every stamp file's digest against its subject) before it pairs. The unsigned figure
runs the same step on the same files with a policy without ``signing``.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

from bench.classify import BASELINE, NOW, _stamp
from bench.common import Results, Run, best, gate_command, run, say

#: The artifacts as the stamp jobs upload them (``<prefix>-<class>-<job>-<attempt>-<hex>``).
ARTIFACTS = {"local-pinned": "gate-stamps-local-pinned-stamp-1-0a1b2c3d",
             "free-server": "gate-stamps-free-server-stamp-1-4e5f6a7b"}
RUN = {"GITHUB_RUN_ID": "42", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_REPOSITORY": "acme/widgets",
       "GITHUB_REPOSITORY_ID": "777", "GITHUB_SHA": "b" * 40}


def generate(work: Path, stamps: int) -> tuple[Path, dict[str, str]]:
    """``stamps`` stamps (stamps/2 tests, one per class) in one artifact folder per class under
    WORK/stamps; the two policies (WORK/signed.yml, WORK/unsigned.yml) and the key of each
    class (PEM, by class)."""
    from gate.records import signing

    directory = work / "stamps"
    for folder in ARTIFACTS.values():
        (directory / folder).mkdir(parents=True)
    for test in range(stamps // 2):
        for server_class, folder in ARTIFACTS.items():
            stamp = _stamp(test, server_class)
            (directory / folder / f"{stamp['run_id']}.json").write_text(
                json.dumps(stamp, indent=2))
    keys = {server_class: signing.generate() for server_class in ARTIFACTS}
    listed = "".join(f"    {server_class}:\n      - {{id: {server_class}-1, "
                     f"public_key: '{public}'}}\n" for server_class, (_, public) in keys.items())
    (work / "signed.yml").write_text(f"signing:\n  mode: ed25519\n  require: all\n  keys:\n"
                                     f"{listed}", encoding="utf-8")
    (work / "unsigned.yml").write_text("signing:\n  mode: 'off'\n", encoding="utf-8")
    (work / "manifest.yml").write_text("version: 1\nproperties: []\n", encoding="utf-8")
    return directory, {c: private.decode("ascii") for c, (private, _) in keys.items()}


def _env(work: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GATE_", "GITHUB_"))}
    (work / "runner").mkdir(exist_ok=True)
    env.update(RUN, RUNNER_TEMP=str(work / "runner"), GATE_MANIFEST=str(work / "manifest.yml"))
    env.update(extra)
    return env


def sign(work: Path, directory: Path, keys: dict[str, str]) -> None:
    """Each artifact signed by the stamp job's signing step, as its job would."""
    for server_class, folder in ARTIFACTS.items():
        run([*gate_command(), "action"],
            env=_env(work, GITHUB_JOB="stamp", GATE_MODE="sign", GATE_SERVER_CLASS=server_class,
                     GATE_POLICY=str(work / "signed.yml"),
                     GATE_STAMPS_DIR=str(directory / folder), GATE_ARTIFACT_NAME=folder,
                     GATE_SIGNING_KEY=keys[server_class]))


def gate_step(work: Path, directory: Path, policy: str) -> Run:
    """One run of the gate job's step (``gate action``, gate mode) with ``policy`` (signed.yml
    or unsigned.yml), from a fresh runner folder and fresh output files."""
    for folder in (work / "runner", work / "outputs"):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    env = _env(work, GITHUB_JOB="gate", GATE_MODE="gate", GATE_STAMPS_DIR=str(directory),
               GATE_NOW=str(NOW), GATE_POLICY=str(work / policy),
               GITHUB_OUTPUT=str(work / "outputs" / "output.txt"),
               GITHUB_STEP_SUMMARY=str(work / "outputs" / "summary.md"))
    return run([*gate_command(), "action"], env=env, ok=(0, 1))


def _check_report(work: Path, tests: int) -> None:
    """The last gate step decided every test and refused no stamp (else this would time the
    refusal, not the verification)."""
    import re

    from gate.decide.signing import REFUSED

    text = (work / "outputs" / "output.txt").read_text(encoding="utf-8")
    found = re.search(r"^report<<(\S+)\n(.*?)\n\1$", text, re.M | re.S)
    if found is None:
        raise RuntimeError(f"the gate step named no report: {text[-2000:]}")
    pairs = json.loads(Path(found.group(2)).read_text(encoding="utf-8"))["pairs"]
    refused = [p for p in pairs if p["action"] == REFUSED]
    if len(pairs) != tests or refused:
        raise RuntimeError(f"the gate step decided {len(pairs)} tests of {tests}, refused "
                           f"{len(refused)}: {refused[:1]}")


def bench(results: Results, work: Path, quick: bool, reps: int, profile: bool) -> None:
    stamps = 400 if quick else 100_000
    started = time.perf_counter()
    directory, keys = generate(work, stamps)
    sign(work, directory, keys)
    os.sync()
    say(f"# gate-step: {stamps} stamps ({stamps // 2} pairs) in two artifacts under "
        f"{directory}, each signed by its signing step (generated and signed in "
        f"{time.perf_counter() - started:.1f}s)")
    loop = [sys.executable, "-c", BASELINE, str(directory)]
    signed: list[Run] = []
    unsigned: list[Run] = []
    base: list[Run] = []
    if not quick:  # one warm-up each
        gate_step(work, directory, "signed.yml")
        gate_step(work, directory, "unsigned.yml")
        run(loop)
    for _ in range(reps):  # interleaved: signed, unsigned, loop; each report checked
        signed.append(gate_step(work, directory, "signed.yml"))
        _check_report(work, stamps // 2)
        unsigned.append(gate_step(work, directory, "unsigned.yml"))
        _check_report(work, stamps // 2)
        base.append(run(loop))
    for name, runs in (("signed", signed), ("unsigned", unsigned)):
        seconds = [r.seconds for r in runs]
        results.ratio(f"gate-step classify, {name} policy, vs json loop", best(runs), best(base),
                      1.5, note=f"medians {statistics.median(seconds):.2f}s vs "
                                f"{statistics.median(r.seconds for r in base):.2f}s (best "
                                f"of {len(runs)} interleaved)")
    shutil.rmtree(directory, ignore_errors=True)
