"""``gate init``: adopt the gate in one command — cards, manifest and policy from the test suite.

Collects the tests through the project's own pytest (:mod:`gate.testrun.collecting`), keeps the
Hypothesis tests, and writes one sample card per property, the manifest and an empty,
commented policy (:mod:`gate.records.adopt`). Every file is validated before the first one is
written; nothing existing is ever overwritten (exit 2 naming the file). ``--add`` adds only the
properties the manifest does not hold yet, appending to it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
from pathlib import Path
from typing import Any

from gate.commands.args import CLOSED, OPEN, say
from gate.errors import GateInputError


def _count(n: int, word: str) -> str:
    plural = "properties" if word == "property" else f"{word}s"
    return f"{n} {word if n == 1 else plural}"


def _exists(path: Path, fix: str) -> GateInputError:
    return GateInputError(str(path), "(file)", f"already exists; gate init never overwrites "
                          f"a file ({fix})")


def _harness_of(item: Any, harness: list[Path], collected: Any, root: Path) -> list[Path]:
    """The test harness of one collected test: the ``__init__.py`` files on its package path,
    the conftest.py files pytest loads for it (with what they import), then what every test
    runs under (``harness``: pytest's configuration, plugins, start-up files)."""
    from gate.records import adopt

    return [*adopt.package_inits(item.path, root),
            *adopt.conftest_files(item.path, collected.sys_path, root), *harness]


def harness_digests(props: list[Any], root: Path) -> dict[int, str]:
    """Per index of a property that records a harness (``harness_sha256``): its files'
    ``gate-harness-v1`` digest now."""
    from gate.records import hashing

    return {index: hashing.harness_hash(list(prop.harness), root)
            for index, prop in enumerate(props) if prop.harness_sha256 is not None}


def _harness_for_existing(old_record: Any, found: list[Any], harness: list[Path],
                          collected: Any, root: Path, manifest_path: Path) -> dict[int, list[str]]:
    """Per index of an existing manifest entry still collected: the harness files (the
    pytest configuration, plugins, start-up files, the conftest.py files pytest loads for it,
    ``__init__.py`` on its package path) its fixtures and harness (their groups' and globs'
    files too) do not list yet."""
    from gate.records import adopt, manifest

    source = str(manifest_path)
    by_id = {item.nodeid: item for item in found}
    listed = {p.test_id: p for p in manifest.from_record(old_record, source, root)}
    added: dict[int, list[str]] = {}
    for index, entry in enumerate(old_record["properties"]):
        item = by_id.get(entry["test_id"])
        if item is None:
            continue
        prop = listed[entry["test_id"]]
        have = {adopt.relative_to_root(f, root, source, "fixtures", "")
                for f in (*prop.fixtures, *prop.harness)}
        wanted = _harness_of(item, harness, collected, root)
        missing: list[str] = []
        for path in wanted:
            shown = adopt.relative_to_root(path, root, source, "fixtures", "")
            if shown not in have and shown not in missing:
                missing.append(shown)
        if missing:
            added[index] = missing
    return added


def cmd_init(args: argparse.Namespace) -> int:
    from gate.records import adopt, hashing, manifest
    from gate.records.files import parse_yaml, read_bytes_capped, write_once, write_replace

    root = Path(args.root)
    if not root.is_dir():
        raise GateInputError(str(root), "--root", "not a folder")
    manifest_path, policy_path = Path(args.manifest), Path(args.policy)
    cards = Path(args.cards) if getattr(args, "cards", None) else None
    if cards is not None:
        adopt.relative_to_root(cards, root, str(cards), "--cards",
                                "the manifest names cards relative to the root")
    if getattr(args, "new_seeds", False) and not getattr(args, "refresh", False):
        raise GateInputError("gate init", "--new-seeds", "only with --refresh")
    if getattr(args, "check", False):
        return _check(args, root, manifest_path)
    if getattr(args, "refresh", False):
        if args.add:
            raise GateInputError("gate init", "--refresh", "not with --add (run them one "
                                 "after the other)")
        return _refresh(args, root, manifest_path)
    original: bytes | None = None
    old_record: Any = None
    known: set[str] = set()
    if args.add:
        if not manifest_path.is_file():
            raise GateInputError(str(manifest_path), "--add", "no manifest to add to; run "
                                 "gate init without --add first")
        original = read_bytes_capped(manifest_path)
        old_record = parse_yaml(original, str(manifest_path))
        old_props = manifest.from_record(old_record, str(manifest_path), root)
        known = {p.test_id for p in old_props}
        for index, digest in harness_digests(old_props, root).items():
            refused = manifest.harness_refusal(old_props[index], digest, root)
            if refused is not None:  # recording more would hide the change: refresh first
                raise refused
    else:
        for path in (manifest_path, policy_path):
            if os.path.lexists(path):
                raise _exists(path, "use --add to add new properties to an existing manifest")

    collected, by_environment = _collect_both_ways(args.tests, args.python)
    found = [item for item in collected.items if item.hypothesis]
    if not found:
        where = " ".join(args.tests) or "(pytest's default test paths)"
        why = ("Hypothesis is not installed for that interpreter"
               if collected.hypothesis_version is None else
               "the gate stamps Hypothesis properties (tests decorated with @given)")
        raise GateInputError(where, "TESTS", f"no Hypothesis tests among the "
                             f"{len(collected.items)} tests pytest collected; {why}")
    new = [item for item in found if item.nodeid not in known]
    left_out = len(collected.items) - len(found)
    say(f"gate init: {_count(len(found), 'Hypothesis test')} of "
          f"{len(collected.items)} collected"
          + (f" ({_count(left_out, 'other test')} left out)" if left_out else ""))
    stateful = [item for item in new if item.stateful]
    if stateful:
        say(f"note: {_count(len(stateful), 'stateful test')} (RuleBasedStateMachine.TestCase): "
              "cases from TestCase.settings; the location names the file only")
    moved = [item for item in new if item.nodeid in by_environment]
    if moved:
        say(f"note: {_count(len(moved), 'Hypothesis test')} run with other settings where CI "
            "is set (CI, GITHUB_ACTIONS): a settings profile depends on the environment (a "
            "conftest that loads one only on CI?); their cards hold the settings CI runs "
            f"them with, which govern them here too: {moved[0].nodeid}"
            + (" …" if len(moved) > 1 else ""))
    gone = sorted(known - {item.nodeid for item in found})
    if gone:
        say(f"note: {_count(len(gone), 'property')} of {manifest_path} not collected any more "
              f"(their stamps will be resource_exit; remove them by hand): {gone[0]}"
              + (" …" if len(gone) > 1 else ""))
    harness = adopt.harness_files(collected.inipath, collected.plugin_files,
                                  collected.sys_path, root)
    harness_added = _harness_for_existing(old_record, found, harness, collected, root,
                                          manifest_path) if args.add else {}
    if not new and not harness_added:
        say(f"nothing to add: every Hypothesis test is in {manifest_path} already")
        return OPEN

    names = adopt.card_file_names([item.nodeid for item in new]) if cards else {}
    planned: list[adopt.Planned] = []
    extensions: dict[Path, Path] = {}
    for item in new:
        source = f"{item.path}:{item.line or 1}"
        if len(item.nodeid) > 256:
            raise GateInputError(source, "test_id", f"{item.nodeid[:60]!r}… is longer than the "
                                 "256 characters a card's property may hold; shorten the "
                                 "test or parameter ids")
        location = adopt.relative_to_root(item.path, root, source, "location.path",
                                           "run gate init from the repository root or give "
                                           "--root")
        fixture_files = adopt.module_files(item.path, collected.sys_path, root)
        harness_files = _harness_of(item, harness, collected, root)
        for ext, importer in adopt.extension_modules(
                [item.path, *fixture_files, *harness_files], collected.sys_path, root):
            extensions.setdefault(ext.resolve(), importer)
        fixtures = [location]
        for path in fixture_files:
            shown = adopt.relative_to_root(path, root, source, "fixtures", "")
            if shown not in fixtures:
                fixtures.append(shown)
        harness_paths: list[str] = []  # a file the test itself imports stays a fixture
        for path in harness_files:
            shown = adopt.relative_to_root(path, root, source, "harness", "")
            if shown not in fixtures and shown not in harness_paths:
                harness_paths.append(shown)
        card_path = cards / names[item.nodeid] if cards else None
        card = adopt.card_for(item.nodeid, item.max_examples, secrets.randbits(32), source,
                              item.card_settings)
        entry = adopt.entry_for(
            test_id=item.nodeid,
            card=(adopt.relative_to_root(card_path, root, str(cards), "--cards", "")
                  if card_path else card),
            fixtures=fixtures, classname=item.classname, name=item.name, location=location,
            line=item.line, harness=harness_paths,
            harness_sha256=(hashing.harness_hash([root / p for p in harness_paths], root)
                            if harness_paths else None))
        planned.append(adopt.Planned(item.nodeid, card_path, card, entry))

    if extensions:
        ext, importer = next(iter(extensions.items()))
        named = [adopt.relative_to_root(p, root, str(p), "fixtures", "")
                 for p in (ext, importer)]
        say(f"note: the fixtures import {_count(len(extensions), 'compiled extension')} "
            f"built in the repository ({named[0]}, imported by {named[1]}"
            + (", …" if len(extensions) > 1 else "") + "), whose sources no import names: "
            "add them and the build script (setup.py) to the fixtures of the properties that "
            "run it (docs/adopt.md, step 3)")
    for plan in planned:
        if plan.card_path is not None and os.path.lexists(plan.card_path):
            raise _exists(plan.card_path, "remove it, or pass another --cards folder")
    entries = [plan.entry for plan in planned]
    if original is None:
        groups, entries = adopt.compact(entries)
        text = adopt.render_manifest(entries, groups)
        adopt.check_manifest_text(text, str(manifest_path), root)
        manifest_bytes = text.encode("utf-8")
    else:
        entries = [adopt.with_groups(e, old_record.get("groups") or {}) for e in entries]
        base, record = original, old_record
        if harness_added:
            base, record = _add_harness(original, old_record, harness_added,
                                        manifest_path, root)
        manifest_bytes = (adopt.append_entries(base, record, entries, str(manifest_path), root)
                          if entries else base)
    write_policy = not os.path.lexists(policy_path)
    if write_policy:
        adopt.check_policy_text(adopt.POLICY_TEXT, str(policy_path))
    extra = [] if original is not None else _first_files(args, root, collected)

    import json

    # Write everything, then report: a failure (or an interrupt) part-way removes the files this
    # run created, so the next run does not trip over half an init.
    created: list[Path] = []
    lines: list[str] = []
    try:
        for plan in planned:
            if plan.card_path is None:
                continue
            write_once(plan.card_path,
                       (json.dumps(plan.card, indent=2, sort_keys=True) + "\n").encode("utf-8"))
            created.append(plan.card_path)
            lines.append(f"wrote {plan.card_path} cases={plan.card['cases']} "
                         f"seed={plan.card['seed']}")
        if write_policy:
            write_once(policy_path, adopt.POLICY_TEXT.encode("utf-8"))
            created.append(policy_path)
            lines.append(f"wrote {policy_path} (an empty allowlist)")
        for path, data, what in extra:
            write_once(path, data)  # its folders made as needed, no link followed
            created.append(path)
            lines.append(f"wrote {path} ({what})")
        if original is None:
            write_once(manifest_path, manifest_bytes)
            lines.append(f"wrote {manifest_path} ({_count(len(entries), 'property')}"
                         + ("" if cards else ", their cards inline") + ")")
        else:
            if read_bytes_capped(manifest_path) != original:
                raise GateInputError(str(manifest_path), "(file)", "changed while gate init "
                                     "ran; run it again")
            write_replace(manifest_path, manifest_bytes)
            if entries:
                lines.append(f"added {_count(len(entries), 'property')} to {manifest_path}")
            if harness_added:
                apart = {i for i in harness_added
                         if "harness" in old_record["properties"][i]}
                for kind, which in (("fixtures", set(harness_added) - apart),
                                    ("harness", apart)):
                    if not which:
                        continue
                    paths = sorted({p for i in which for p in harness_added[i]})
                    lines.append(
                        f"added the test harness to the {kind} of {len(which)} existing "
                        f"propert{'y' if len(which) == 1 else 'ies'} in {manifest_path} "
                        f"(new lines at the end of each one's {kind} list"
                        + (", its harness_sha256 rewritten" if kind == "harness" else "")
                        + f", nothing else changed): {', '.join(paths[:5])}"
                        + (f" and {len(paths) - 5} more" if len(paths) > 5 else ""))
    except BaseException:
        for path in reversed(created):
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    if original is None:
        lines += _next_steps(manifest_path, policy_path, extra)
    else:
        lines.append("next: review the new entries, then commit them")
    for line in lines:
        say(line)
    return OPEN


def _add_harness(original: bytes, old_record: Any, added: dict[int, list[str]],
                 manifest_path: Path, root: Path) -> tuple[bytes, Any]:
    """``gate init --add``'s edit of existing entries: the harness files each lacks, added to
    its ``harness`` list with its ``harness_sha256`` rewritten for the new list (an entry that
    records its harness apart), or to its ``fixtures`` (an entry of the old form, its harness
    inside its fixtures, as before). Every other byte kept."""
    from gate.records import adopt, hashing, manifest
    from gate.records.files import parse_yaml

    source = str(manifest_path)
    entries = old_record["properties"]
    apart = {i: paths for i, paths in added.items() if "harness" in entries[i]}
    inside = {i: paths for i, paths in added.items() if "harness" not in entries[i]}
    base, record = original, old_record
    for key, additions in (("fixtures", inside), ("harness", apart)):
        if additions:
            base = adopt.add_fixtures(base, record, additions, source, root, key)
            record = parse_yaml(base, source)
    if apart:
        props = manifest.from_record(record, source, root)
        digests = {i: hashing.harness_hash(list(props[i].harness), root) for i in apart}
        base = adopt.replace_digests(base, record, digests, source, root)
        record = parse_yaml(base, source)
    return base, record


def _first_files(args: argparse.Namespace, root: Path,
                 collected: Any) -> list[tuple[Path, bytes, str]]:
    """The workflow and ``requirements-test.txt`` a first ``gate init`` writes: (path, bytes,
    what). An existing workflow file is refused (exit 2, never overwritten); an existing
    ``requirements-test.txt`` is kept (``gate init --check`` checks it)."""
    from gate.records import workflow_files

    found: list[tuple[Path, bytes, str]] = []
    if not getattr(args, "no_workflow", False):
        workflow = Path(getattr(args, "workflow", ".github/workflows/properties.yml"))
        if os.path.lexists(workflow):
            raise _exists(workflow, "give --workflow OTHER.yml, or --no-workflow")
        command = getattr(args, "test_command", None) or " ".join(
            ["python", "-m", "pytest", *args.tests])
        values = {"local_runner": getattr(args, "local_runner", "self-hosted,pinned"),
                  "free_runner": getattr(args, "free_runner", "ubuntu-latest"),
                  "python_version": (getattr(args, "python_version", None)
                                     or collected.python_version or "3.11"),
                  "test_command": command}
        if getattr(args, "two_job", False):
            text = workflow_files.render_workflow(**values)
            what = "the two stamp legs and the gate job"
        else:
            text = workflow_files.render_caller(**values, manifest=args.manifest,
                                                policy=args.policy)
            what = ("the caller of the gate's reusable workflow: both stamp legs and the gate "
                    "job")
        found.append((workflow, text.encode("utf-8"), what))
    requirements = root / "requirements-test.txt"
    if not os.path.lexists(requirements):
        text = workflow_files.requirements_text(
            root, [name for name, _ in collected.plugin_dists])
        found.append((requirements, text.encode("utf-8"), "the stamp jobs' test dependencies"))
    return found


def _next_steps(manifest_path: Path, policy_path: Path,
                extra: list[tuple[Path, bytes, str]]) -> list[str]:
    written = [str(p) for p, _, _ in extra]
    workflow = next((p for p in written if p.endswith((".yml", ".yaml"))), None)
    steps = [f"review {manifest_path} (cards, fixtures), {policy_path}"
             + "".join(f", {p}" for p in written) + " like code",
             "gate init --check: what would break the first CI run (missing plugins, cards "
             "the CI profile overrides, properties the manifest no longer matches)"]
    if workflow:
        steps.append(f"set the local-pinned leg's runner in {workflow} (local-runner, or "
                     "runs-on with --two-job) to your runner's labels (--local-runner), if "
                     "self-hosted,pinned are not its labels")
    steps.append("commit them, push a branch and open a pull request: the check run "
                 "'agent-patch gate' decides (docs/adopt.md)")
    return ["next steps:", *(f"  {n}. {s}" for n, s in enumerate(steps, start=1))]


#: The card fields ``--refresh`` rewrites from the settings in force (the rest is kept).
SETTINGS_FIELDS = ("cases", "deadline_ms", "suppress_health_check")


def refreshed_card(old: dict[str, Any], max_examples: int | None,
                   card_settings: dict[str, Any], seed: int | None = None) -> dict[str, Any]:
    """``old`` with its settings fields from the settings in force (as ``gate init`` writes
    them for a new card), every other field (``seed``, ``freeze_expires_at``, ...) kept;
    ``seed`` given: the new seed."""
    from gate.records import adopt

    fresh = adopt.card_for(str(old["property"]), max_examples, int(old["seed"]),
                           "gate init --refresh", card_settings)
    card = {k: v for k, v in old.items() if k not in SETTINGS_FIELDS}
    card.update({k: fresh[k] for k in SETTINGS_FIELDS if k in fresh})
    if seed is not None:
        card["seed"] = seed
    return card


def _refresh(args: argparse.Namespace, root: Path, manifest_path: Path) -> int:
    """``gate init --refresh [--new-seeds]``: rewrite the manifest's cards from the settings in
    force for their tests (collected here and as on CI, as new cards are), naming every card
    it changed."""
    import json

    from gate.records import adopt, manifest
    from gate.records.files import parse_yaml, read_bytes_capped, write_replace

    if not manifest_path.is_file():
        raise GateInputError(str(manifest_path), "--refresh", "no manifest whose cards to "
                             "refresh; run gate init first")
    original = read_bytes_capped(manifest_path)
    record = parse_yaml(original, str(manifest_path))
    props = manifest.from_record(record, str(manifest_path), root)
    collected, _ = _collect_both_ways(args.tests, args.python)  # as gate init writes cards
    by_id = {item.nodeid: item for item in collected.items if item.hypothesis}
    changed = 0
    inline: dict[int, dict[str, Any]] = {}
    for index, prop in enumerate(props):
        item = by_id.get(prop.test_id)
        if item is None:
            say(f"note: {prop.test_id} is not collected (renamed or removed? gate init --add "
                "names the new test; remove the old entry): its card is left as it is")
            continue
        old = manifest.card_of(prop)
        new = refreshed_card(old, item.max_examples, item.card_settings,
                             secrets.randbits(32) if args.new_seeds else None)
        if new == old:
            continue
        changed += 1
        what = ", ".join(f"{k} {json.dumps(old.get(k))} -> {json.dumps(new.get(k))}"
                         for k in ("seed", *SETTINGS_FIELDS) if old.get(k) != new.get(k))
        if prop.card_record is not None:
            inline[index] = new
            say(f"rewrote the inline card of {prop.test_id} in {manifest_path}: {what}")
            continue
        write_replace(prop.card, (json.dumps(new, indent=2, sort_keys=True) + "\n").encode())
        say(f"rewrote {prop.card}: {what}")
    digests = {index: digest for index, digest in harness_digests(props, root).items()
               if digest != props[index].harness_sha256}
    for index, digest in digests.items():
        say(f"rewrote the harness_sha256 of {props[index].test_id} in {manifest_path}: "
            f"{props[index].harness_sha256} -> {digest} (its test harness changed: "
            f"{_named(props[index].harness, root)})")
    if inline or digests:
        text = original
        if inline:
            text = adopt.replace_cards(text, record, inline, str(manifest_path), root)
        if digests:
            text = adopt.replace_digests(text, parse_yaml(text, str(manifest_path)), digests,
                                         str(manifest_path), root)
        if read_bytes_capped(manifest_path) != original:
            raise GateInputError(str(manifest_path), "(file)", "changed while gate init ran; "
                                 "run it again")
        write_replace(manifest_path, text)
    if changed:
        say(f"{_count(changed, 'card')} changed: a changed card is a new card (its hash "
            "changes): review and commit them; both stamp jobs run again on them")
    if digests:
        say(f"{_count(len(digests), 'harness digest')} recorded anew: review the harness "
            "change with them and commit the manifest; both stamp jobs run again")
    if not changed and not digests:
        say(f"nothing to refresh: every card and harness_sha256 of {manifest_path} matches "
            "the settings and files in force")
    return OPEN


def _named(paths: Any, root: Path) -> str:
    files = [p.relative_to(root).as_posix() if p.is_relative_to(root) else str(p)
             for p in paths]
    return ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")


#: The variables that make a run look like CI (Hypothesis loads its ``ci`` profile, and many
#: conftests load their own, where they are set).
CI_VARIABLES = ("CI", "GITHUB_ACTIONS")


def _collect_both_ways(tests: Any, python: str) -> tuple[Any, set[str]]:
    """The tests collected here, with each Hypothesis test's settings as they will be on CI
    (``CI`` and ``GITHUB_ACTIONS`` set), collected a second time with them set (or unset, when
    this run is on CI). Where the two differ the card must hold CI's: a card made from CI's
    settings governs the test off CI too (there they are the ``default`` profile's), not the
    other way round. Returns the collection and the node ids whose settings depend on it."""
    import dataclasses

    from gate.testrun import collecting

    here = collecting.collect(tests, python)
    on_ci = any(os.environ.get(name) for name in CI_VARIABLES)
    other = collecting.collect(tests, python, environment={
        name: (None if on_ci else "true") for name in CI_VARIABLES})
    ci = {item.nodeid: item for item in (here if on_ci else other).items}
    items, moved = [], set()
    for item in here.items:
        twin = ci.get(item.nodeid)
        if (item.hypothesis and twin is not None and twin.hypothesis
                and (twin.max_examples, twin.card_settings) != (item.max_examples,
                                                                item.card_settings)):
            item = dataclasses.replace(item, max_examples=twin.max_examples,
                                       card_settings=dict(twin.card_settings))
            moved.add(item.nodeid)
        items.append(item)
    return dataclasses.replace(here, items=tuple(items)), moved


#: The card fields ``gate init --check`` compares with the settings CI runs a test with
#: (``cases`` aside: the card sets it, whatever the profile says).
CHECKED_FIELDS = ("deadline_ms", "suppress_health_check")


def _check(args: argparse.Namespace, root: Path, manifest_path: Path) -> int:
    """``gate init --check``: each finding on one line (file, field, problem, fix), then a
    count. Exit 0 when nothing would break the first CI run, 1 with findings, 2 on bad input
    (a manifest that does not load)."""
    from gate.records import doctor, manifest, workflow_files

    if not manifest_path.is_file():
        raise GateInputError(str(manifest_path), "--check", "no manifest to check; run gate "
                             "init first")
    props = manifest.load(manifest_path, root)
    collected, _ = _collect_both_ways(args.tests, args.python)  # the settings CI runs with
    by_id = {item.nodeid: item for item in collected.items if item.hypothesis}
    requirements = root / "requirements-test.txt"
    findings = doctor.plugin_findings(requirements, root, collected.plugin_dists,
                                      workflow_files.NOT_NEEDED)
    cards = []
    for index, prop in enumerate(props):
        item = by_id.get(prop.test_id)
        if item is None:
            continue
        card = manifest.card_of(prop)
        wanted = refreshed_card(card, item.max_examples, item.card_settings)
        inline = prop.card_record is not None
        cards.append((prop.test_id, str(manifest_path if inline else prop.card),
                      f"properties.{index}.card." if inline else "", card, wanted))
    findings += doctor.card_findings(cards, CHECKED_FIELDS)
    for index, digest in harness_digests(props, root).items():
        problem = manifest.harness_problem(props[index], digest, root)
        if problem is not None:
            findings.append(doctor.Finding(*problem, manifest.HARNESS_FIX))
    findings += doctor.manifest_findings(str(manifest_path), [p.test_id for p in props],
                                         sorted(by_id))
    for finding in findings:
        say(finding.line())
    offline = doctor.offline_build(requirements, root)
    if offline:
        say(f"note: {requirements.as_posix()} installs the project (-e .): an offline run "
            "(act with PIP_NO_INDEX) needs the wheels it builds with in its wheel folder: "
            f"pip download -d DIR2 {' '.join(offline)}")
    say(f"gate init --check: {_count(len(findings), 'finding')}"
        + (" (nothing found that would break the first CI run)" if not findings else ""))
    return CLOSED if findings else OPEN
