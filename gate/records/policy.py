"""The reviewed policy file: freeze allowlist, halt-gate scopes and marker, timeout codes.

Loading is strict: the schema (so a missing or blank ``owner`` or ``reason`` is malformed) and
no duplicate entry for one (``test_id``, ``server_class``) — which of two expiries would count
is a guess, so a duplicate is malformed too. A malformed file is bad input (exit 2) wherever it
is read (``classify``, ``stamp``, ``policy check``): it never widens anything and no freeze is
granted from it.

``check`` finds quarantine rot in a well-formed file (``gate policy check`` exits 1):

* an entry past its expiry (``now >= expires``);
* a window longer than the maximum (``max_freeze_days`` in the file, ``--max-days`` on the
  command line, default 30 days), measured from ``added`` or, without ``added``, from now;
* an ``added`` in the future;
* an entry that expires before it was added;
* with manifests: a test id in none of them, and a free-server entry whose sample card has no
  ``freeze_expires_at`` or one that has passed (the card's expiry is the one that counts, so
  such a freeze can never be granted).
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from gate.decide import halt, when
from gate.decide import ungated as ungated_rules
from gate.decide.frozen import FrozenValue
from gate.decide.signing import SigningPolicy
from gate.decide.stamps import FREE as FREE_SERVER
from gate.decide.stamps import AllowEntry
from gate.errors import GateInputError
from gate.records import schemas
from gate.records.files import read_yaml

DEFAULT_TIMEOUT_EXIT_CODES = (124, 137)
DEFAULT_MAX_FREEZE_DAYS = 30
DAY = 86_400


_HaltPolicy = halt.HaltPolicy  # the field ``halt`` hides the module inside Policy.__init__


class Policy(FrozenValue):
    __slots__ = (  # noqa: RUF023 - in field order, as the dataclass showed them
        "allowlist", "halt", "timeout_exit_codes", "max_freeze_days", "added", "issues",
        "signing", "ungated",
    )
    allowlist: tuple[AllowEntry, ...]
    halt: halt.HaltPolicy
    timeout_exit_codes: tuple[int, ...]
    max_freeze_days: int
    added: tuple[int | None, ...]  # per allowlist entry, same order
    issues: tuple[str | int | None, ...]  # per allowlist entry, same order
    signing: SigningPolicy
    #: What an ungated Hypothesis test does (gate/decide/ungated.py): ``warn`` or ``fail``.
    ungated: str

    def __init__(self, allowlist: tuple[AllowEntry, ...] = (),
                 halt: _HaltPolicy | None = None,
                 timeout_exit_codes: tuple[int, ...] = DEFAULT_TIMEOUT_EXIT_CODES,
                 max_freeze_days: int = DEFAULT_MAX_FREEZE_DAYS,
                 added: tuple[int | None, ...] = (), issues: tuple[str | int | None, ...] = (),
                 signing: SigningPolicy | None = None,
                 ungated: str = ungated_rules.DEFAULT_POLICY) -> None:
        self._set(allowlist=allowlist, halt=_HaltPolicy() if halt is None else halt,
                  timeout_exit_codes=timeout_exit_codes, max_freeze_days=max_freeze_days,
                  added=added, issues=issues,
                  signing=SigningPolicy() if signing is None else signing, ungated=ungated)

    def issue_of(self) -> dict[tuple[str, str], str | int]:
        """(test_id, server_class) -> the entry's ``issue``, for the report."""
        return {(e.test_id, e.server_class): i
                for e, i in zip(self.allowlist, self.issues, strict=False) if i is not None}

    def granting(self, now: int) -> tuple[AllowEntry, ...]:
        """The allowlist as every decision uses it: an entry that ``gate policy check`` flags
        (window too long, added in the future, expiring before it was added) carries its
        finding, and the stamp gate grants nothing from it. Expiry itself is decided by the
        table against the clock. Never decide from ``allowlist`` directly."""
        days = self.max_freeze_days
        added = self.added or (None,) * len(self.allowlist)
        issues = self.issues or (None,) * len(self.allowlist)
        out: list[AllowEntry] = []
        for index, (entry, at, issue) in enumerate(zip(self.allowlist, added, issues,
                                                       strict=True)):
            found = [f for f in entry_findings(entry, at, now, days, issue)
                     if not f.startswith("expired at")]
            out.append(dataclasses.replace(entry, finding=f"{_where(index, entry)}: {found[0]}")
                       if found else entry)
        return tuple(out)


#: Characters that print as nothing although Unicode calls them letters or symbols.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character that is not white space, a control, a
    format character (zero-width, bidi), a combining mark alone, or a blank letter."""
    return any(not ch.isspace() and ch not in _BLANK_LETTERS
               and unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me",
                                                    "Zs", "Zl", "Zp")
               for ch in text)


def from_record(record: Any, source: str) -> Policy:
    if record is None:
        record = {}
    if isinstance(record, dict):
        signing_shape(record.get("signing"), source)
    schemas.validate("policy", record, source)
    entries: list[AllowEntry] = []
    added: list[int | None] = []
    issues: list[str | int | None] = []
    seen: set[tuple[str, str]] = set()
    for index, raw in enumerate(record.get("allowlist", [])):
        key = (raw["test_id"], raw["server_class"])
        if key in seen:
            raise GateInputError(source, f"allowlist.{index}",
                                 f"duplicate entry for test {raw['test_id']!r} in "
                                 f"{raw['server_class']}")
        seen.add(key)
        for name in ("owner", "reason"):
            if not visible(raw[name]):
                raise GateInputError(source, f"allowlist.{index}.{name}",
                                     "blank: only white space or invisible characters")
        entries.append(AllowEntry(raw["test_id"], raw["server_class"], raw["owner"],
                                  raw["reason"], raw["expires"]))
        added.append(raw.get("added"))
        issues.append(raw.get("issue"))
    halt_raw = record.get("halt", {})
    halt_policy = halt.HaltPolicy(
        reserved_scopes=tuple(halt_raw.get("reserved_scopes", halt.DEFAULT_RESERVED_SCOPES)),
        expected_marker=halt_raw.get("expected_marker", halt.DEFAULT_MARKER),
    )
    codes = tuple(record.get("timeouts", {}).get("exit_codes", DEFAULT_TIMEOUT_EXIT_CODES))
    return Policy(tuple(entries), halt_policy, codes,
                  record.get("max_freeze_days", DEFAULT_MAX_FREEZE_DAYS), tuple(added),
                  tuple(issues), signing_policy(record.get("signing"), source),
                  record.get("ungated", ungated_rules.DEFAULT_POLICY))


#: A build signer URI as the policy names it (schemas/policy.schema.json, $defs.signer_workflow):
#: a workflow file of a github.com repository, optionally @ a ref or a commit.
SIGNER_WORKFLOW = re.compile(
    r"https://github\.com/[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}/\.github/workflows/"
    r"[A-Za-z0-9_.-]{1,255}\.ya?ml(@(refs/(heads|tags|pull)/[^\s@]{1,900}|[0-9a-f]{40}))?")
_KEY_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_WORKFLOW_FIX = ("fix: write the workflow file's build signer URI, "
                 "https://github.com/OWNER/REPO/.github/workflows/FILE.yml, optionally "
                 "@refs/heads/BRANCH (or @refs/tags/TAG, @refs/pull/N/merge, @COMMIT): the "
                 "job_workflow_ref of the job that signs, with https://github.com/ before it")


def _workflow_problem(value: Any) -> str | None:
    """Why ``value`` is not a build signer URI the gate can compare (None: it is one)."""
    if not isinstance(value, str):
        return f"{str(value)[:80]!r} is not a string; {_WORKFLOW_FIX}"
    if len(value) <= 1024 and SIGNER_WORKFLOW.fullmatch(value):
        return None
    shown = value[:200]
    if not value.startswith("https://"):
        if re.match(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/\.github/workflows/", value):
            return (f"{shown!r} lacks the host: write https://github.com/{shown} (the "
                    "certificate's build signer URI is a full URL)")
        return f"{shown!r} is not an https:// URL; {_WORKFLOW_FIX}"
    if not value.startswith("https://github.com/"):
        return (f"{shown!r} is not on github.com: Sigstore mode verifies GitHub.com's "
                "certificates only (use signing mode ed25519 on GitHub Enterprise Server)")
    if "/.github/workflows/" not in value:
        return f"{shown!r} names no workflow file (.github/workflows/FILE.yml); {_WORKFLOW_FIX}"
    return f"{shown!r} is not a workflow file's build signer URI; {_WORKFLOW_FIX}"


def signing_shape(raw: Any, source: str) -> None:
    """The ``signing:`` section's strings, each with the fix in its error, before the schema
    (which refuses the same, with less to say): signer workflow URIs, key ids, public keys.
    Unknown keys and class names are the schema's (with "did you mean")."""
    if not isinstance(raw, dict):
        return
    keys = raw.get("keys")
    for owner, listed in (keys.items() if isinstance(keys, dict) else ()):
        for index, item in enumerate(listed if isinstance(listed, list) else ()):
            if not isinstance(item, dict):
                continue
            where = f"signing.keys.{owner}.{index}"
            key_id = item.get("id")
            if "id" in item and not (isinstance(key_id, str) and _KEY_ID.fullmatch(key_id)):
                raise GateInputError(source, f"{where}.id",
                                     f"{str(key_id)[:80]!r} is not a key id; fix: 1 to 64 "
                                     "letters, digits and . _ : - (e.g. pinned-2026)")
            if "public_key" in item and not _public_key(item.get("public_key")):
                raise GateInputError(source, f"{where}.public_key",
                                     "not base64 of 32 raw ed25519 bytes; fix: paste the "
                                     "public_key line gate signing keygen printed")
    sigstore = raw.get("sigstore")
    workflows = sigstore.get("signer_workflows") if isinstance(sigstore, dict) else None
    field = "signing.sigstore.signer_workflows"
    if isinstance(workflows, list):
        lists = [(field, workflows)]
    elif isinstance(workflows, dict):
        lists = [(f"{field}.{owner}", listed) for owner, listed in workflows.items()
                 if isinstance(listed, list)]
    else:
        lists = []
    for where, listed in lists:
        for index, value in enumerate(listed):
            why = _workflow_problem(value)
            if why is not None:
                raise GateInputError(source, f"{where}.{index}", why)


def public_key_bytes(text: Any) -> bytes:
    """The 32 raw bytes of a public key spelt as the policy spells it, or b"" when it is not
    one (``gate signing verify --public-key`` reads it the same way)."""
    return _public_key(text)


def _public_key(text: Any) -> bytes:
    """The 32 raw bytes of a policy's ed25519 public key, or b"" when it is not one."""
    import base64
    import binascii

    if not isinstance(text, str):
        return b""
    try:
        public = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return b""
    return public if len(public) == 32 and base64.b64encode(public).decode() == text else b""


def _bare(uri: str) -> str:
    return uri.split("@", 1)[0]


def signing_policy(raw: Any, source: str) -> SigningPolicy:
    """The ``signing:`` section (schema-valid already), checked for what the schema cannot say:
    a key listed twice (by id or by bytes: one key for two classes would let one class sign for
    the other), a requirement without a mode, a mode without what it needs."""
    from gate.decide.signing import Key

    if raw is None:
        return SigningPolicy()
    # YAML 1.1 reads an unquoted ``off`` as false (the schema allows false for off)
    mode = raw.get("mode", "off") or "off"
    require = raw.get("require", "off") or "off"
    keys: list[tuple[str, Key]] = []
    ids: dict[str, str] = {}
    seen: dict[bytes, str] = {}
    for owner, listed in raw.get("keys", {}).items():
        for index, item in enumerate(listed):
            where = f"signing.keys.{owner}.{index}"
            public = _public_key(item["public_key"])
            if len(public) != 32:
                raise GateInputError(source, f"{where}.public_key",
                                     "not base64 of 32 raw ed25519 bytes; fix: paste the "
                                     "public_key line gate signing keygen printed")
            if item["id"] in ids:
                raise GateInputError(source, f"{where}.id",
                                     f"{item['id']!r} is also {ids[item['id']]}; fix: give "
                                     "each key its own id")
            if public in seen:
                raise GateInputError(source, f"{where}.public_key",
                                     f"the same key as {seen[public]}: one key must never "
                                     "sign for two classes (or for the gate); fix: generate "
                                     "a key per class")
            ids[item["id"]] = where
            seen[public] = where
            keys.append((owner, Key(item["id"], public)))
    if mode == "off" and require != "off":
        raise GateInputError(source, "signing.require",
                             f"{require} needs signing.mode sigstore or ed25519 (mode is off)")
    if mode == "ed25519":
        need = {"off": (), "local-pinned": ("local-pinned",),
                "all": ("local-pinned", "free-server")}[require]
        for owner in need:
            if not any(o == owner for o, _ in keys):
                raise GateInputError(source, f"signing.keys.{owner}",
                                     f"missing: require {require} in ed25519 mode needs the "
                                     f"public keys allowed to sign {owner} stamps")
    elif keys:
        raise GateInputError(source, "signing.keys",
                             f"only for mode ed25519 (mode is {mode}): remove it or set the "
                             "mode")
    if mode != "sigstore" and "sigstore" in raw:
        raise GateInputError(source, "signing.sigstore",
                             f"only for mode sigstore (mode is {mode}): remove it or set the "
                             "mode")
    listed = raw.get("sigstore", {}).get("signer_workflows")
    workflows = _signer_workflows(listed, mode, require, source)
    public_log = raw.get("sigstore", {}).get("public_log_for_private_repository", False)
    signing = SigningPolicy(mode, require, tuple(keys), workflows=workflows,
                            per_class=isinstance(listed, dict),
                            public_log_for_private=public_log is True)
    isolation = tuple(sorted(raw.get("require_isolation", {}).items()))
    for server_class, _level in isolation:
        if not signing.required(server_class):
            raise GateInputError(source, f"signing.require_isolation.{server_class}",
                                 f"needs {server_class} stamps required signed (require is "
                                 f"{require}): a level counts only inside a signed stamp "
                                 "set; fix: signing.require all (or local-pinned)")
    replaced: SigningPolicy = signing.replace(isolation=isolation)
    return replaced


def _signer_workflows(raw: Any, mode: str, require: str, source: str
                      ) -> tuple[tuple[str, str], ...]:
    """(owner, build signer URI) pairs: the list form (0.2.0) lists the workflows of both
    stamp classes (never the gate's); the mapping form each class's own. Sigstore mode needs
    a list for each class ``require`` names; a workflow of the gate's list never signs stamps
    (a stamp job could then write the gate's record)."""
    from gate.decide.signing import FREE, GATE, LOCAL

    field = "signing.sigstore.signer_workflows"
    if raw is None:
        if mode == "sigstore":
            raise GateInputError(source, field, "missing: sigstore mode needs the build signer "
                                 "URIs allowed to sign stamps; fix: list them per class "
                                 "(local-pinned: [...], free-server: [...])")
        return ()
    lists = {"": raw} if isinstance(raw, list) else raw
    for owner, uris in lists.items():
        for index, uri in enumerate(uris):
            if uri in uris[:index]:
                where = f"{field}.{owner}.{index}" if owner else f"{field}.{index}"
                raise GateInputError(source, where, f"{uri[:200]!r} is listed twice; fix: "
                                     "remove one")
    if isinstance(raw, list):
        return tuple((owner, uri) for owner in (LOCAL, FREE) for uri in raw)
    if not raw:
        raise GateInputError(source, field, "empty: name the workflows allowed to sign, per "
                             "class (local-pinned, free-server, gate)")
    need = {"off": (), "local-pinned": (LOCAL,), "all": (LOCAL, FREE)}[require]
    for owner in need:
        if owner not in raw:
            raise GateInputError(source, f"{field}.{owner}",
                                 f"missing: require {require} needs the workflows allowed to "
                                 f"sign {owner} stamps")
    stamp_signers = {_bare(uri): owner for owner in (LOCAL, FREE) for uri in raw.get(owner, ())}
    for index, uri in enumerate(raw.get(GATE, ())):
        if _bare(uri) in stamp_signers:
            raise GateInputError(source, f"{field}.gate.{index}",
                                 f"{_bare(uri)!r} also signs {stamp_signers[_bare(uri)]} stamps:"
                                 " a stamp job could then sign the gate's re-run record; fix: "
                                 "run the gate job in a reusable workflow of its own and list "
                                 "that file here")
    return tuple((owner, uri) for owner in (LOCAL, FREE, GATE) for uri in raw.get(owner, ()))


def describe_signing(sign: SigningPolicy) -> list[str]:
    """What the ``signing:`` section says, for people (``gate policy check``): the mode and
    requirement, who may sign for each class and for the gate, and what stays unsigned."""
    from gate.decide.signing import FREE, GATE, LOCAL

    if sign.mode == "off":
        return ["signing: mode off: stamps and re-run records are unsigned (docs/signing.md "
                "says how to turn signing on)"]
    lines = [f"signing: mode {sign.mode}, require {sign.require}"]
    for owner in (LOCAL, FREE, GATE):
        if sign.mode == "ed25519":
            signers = [key.id for key in sign.keys_of(owner)]
            what = "keys"
        else:
            signers = list(sign.workflows_of(owner))
            what = "signer workflows"
        if signers:
            lines.append(f"signing: {owner} {what}: {', '.join(signers)}")
        elif owner == GATE:
            lines.append(f"signing: gate: no {what}: the gate's re-run records are unsigned")
        elif sign.required(owner):  # pragma: no cover - refused at load
            lines.append(f"signing: {owner}: no {what}")
        else:
            lines.append(f"signing: {owner}: not required signed (require {sign.require})")
    for server_class, level in sign.isolation:
        lines.append(f"signing: {server_class} stamps must record isolation {level} or higher")
    if sign.mode == "sigstore":
        lines.append("signing: sigstore: signs through the public-good instance, whose Rekor log "
                     "is public; " + ("a private repository's name, workflow and commit are "
                                      "published there too (public_log_for_private_repository)"
                                      if sign.public_log_for_private else
                                      "a repository the event does not show public is refused "
                                      "(public_log_for_private_repository: false)"))
    if sign.mode == "sigstore" and not sign.per_class:
        lines.append("signing: note: signer_workflows is one list for both classes, so only the "
                     "certificate's runner environment tells a local-pinned signer from a "
                     "free-server one; prefer the per-class form "
                     "(docs/signing.md#sigstore-mode-signingmode-sigstore)")
    lines.extend(unpinned_signer_warnings(sign))
    return lines


def unpinned_signer_warnings(sign: SigningPolicy) -> list[str]:
    """One warning per ``signer_workflows`` entry without ``@REF`` (issue 27): it lets any ref
    of that workflow file sign, and on a pull request from a branch of this repository the
    edited workflow file runs (as ``refs/pull/N/merge``) with the repository's secrets and its
    OIDC token. A warning, not a finding: the file is the team's to protect."""
    if sign.mode != "sigstore":
        return []
    out: list[str] = []
    seen: set[str] = set()
    for owner, uri in sign.workflows:
        if "@" in uri or uri in seen:
            continue
        seen.add(uri)
        who = ("stamps of both classes" if not sign.per_class else
               "the gate's re-run record" if owner == "gate" else f"{owner} stamps")
        out.append(f"signing: warning: {uri[:300]} has no @REF, so any ref of that workflow file "
                   f"may sign {who}, a same-repository pull request's edited copy "
                   "(refs/pull/N/merge) among them; fix: pin it (@refs/heads/main, a protected "
                   "branch) and keep signing in a GitHub Environment with branch rules "
                   "(docs/signing.md)")
    return out


def load(path: Path | None) -> Policy:
    """The policy at ``path``, or the defaults (empty allowlist) when no path is given."""
    if path is None:
        return Policy()
    return from_record(read_yaml(path), str(path))


#: The values of the allowlist entry the gate suggests (gate.github.review.allowlist_entry)
#: that a reviewer must replace: pasted unedited, the entry is a finding and grants nothing.
PLACEHOLDERS = {"owner": ("@OWNER", "who will fix it, e.g. '@your-team'"),
                "reason": ("REASON", "why the free server fails it while local-pinned passes"),
                "issue": ("ISSUE-URL", "the issue URL or number where the fix is tracked")}


def placeholder_findings(entry: AllowEntry, issue: str | int | None) -> list[str]:
    """An ``owner``, ``reason`` or ``issue`` still holding the suggested entry's placeholder."""
    values = {"owner": entry.owner, "reason": entry.reason, "issue": issue}
    return [f"{name} is the placeholder {mark!r} from the suggested entry; fix: replace it "
            f"with {what}"
            for name, (mark, what) in PLACEHOLDERS.items()
            if isinstance(values[name], str) and str(values[name]).strip().upper() == mark]


def entry_findings(entry: AllowEntry, added: int | None, now: int, days: int,
                   issue: str | int | None = None) -> list[str]:
    """What ``gate policy check`` flags in one allowlist entry (without the ``where`` prefix).
    The same list decides whether the entry grants a freeze (:meth:`Policy.granting`)."""
    found: list[str] = placeholder_findings(entry, issue)
    limit = days * DAY
    if now >= entry.expires:
        found.append(f"expired at {entry.expires}")
    if added is not None and added > now:
        found.append(f"added {added} is in the future")
    start = added if added is not None else now
    if entry.expires - start > limit:
        found.append(f"window of {(entry.expires - start) / DAY:.1f} days is longer than the "
                     f"{days}-day maximum")
    if added is not None and entry.expires <= added:
        found.append("expires before it was added")
    return found


def _where(index: int, entry: AllowEntry) -> str:
    return f"allowlist.{index} ({entry.test_id!r} in {entry.server_class})"


def card_findings(entry: AllowEntry, card_path: str, card: Mapping[str, Any],
                  now: int) -> list[str]:
    """Why the sample card of an allowlisted test keeps its freeze from ever being granted:
    the stamp gate (row 6) counts the card's ``freeze_expires_at`` — missing counts as
    expired — and the card is hashed into every stamp, so the entry alone never freezes."""
    if entry.server_class != FREE_SERVER:
        return []
    expiry = card.get("freeze_expires_at")
    fix = (f'fix: add "freeze_expires_at": <Unix seconds, no later than this entry\'s expires '
           f"{entry.expires}> to {card_path} (a changed card is a new fixture_hash: re-run both "
           "stamp jobs)")
    if expiry is None:
        return [f"card {card_path} has no freeze_expires_at, so this freeze can never be "
                f"granted (the stamp gate counts a missing expiry as expired); {fix}"]
    if isinstance(expiry, int) and not isinstance(expiry, bool) and now >= expiry:
        return [f"card {card_path} field freeze_expires_at {expiry} has passed, so this freeze "
                f"can never be granted; {fix.replace('add', 'set', 1)}"]
    return []


def check(policy: Policy, now: int, max_days: int | None = None,
          manifest_ids: Collection[str] | None = None,
          cards: Mapping[str, tuple[str, Mapping[str, Any]]] | None = None) -> list[str]:
    """Findings that make ``gate policy check`` fail; empty when the file is healthy.

    An entry still holding a placeholder of the suggested entry (:data:`PLACEHOLDERS`) is a
    finding, so it grants nothing (:meth:`Policy.granting`).

    ``max_days`` (the ``--max-days`` flag) overrides the file's ``max_freeze_days``; with
    ``manifest_ids`` (``--manifest``), an entry whose test id is in no manifest is a finding;
    with ``cards`` (test id -> (card path, card), from the manifests), an entry whose card
    cannot let it freeze (:func:`card_findings`) is one too.
    """
    findings: list[str] = []
    days = policy.max_freeze_days if max_days is None else max_days
    issues = policy.issues or (None,) * len(policy.allowlist)
    for index, (entry, added, issue) in enumerate(zip(policy.allowlist, policy.added, issues,
                                                      strict=True)):
        where = _where(index, entry)
        findings.extend(f"{where}: {f}" for f in entry_findings(entry, added, now, days, issue))
        if manifest_ids is not None and entry.test_id not in manifest_ids:
            findings.append(f"{where}: test id is in no manifest (a typo grants nothing)")
        if cards is not None and entry.test_id in cards:
            card_path, card = cards[entry.test_id]
            findings.extend(f"{where}: {f}" for f in card_findings(entry, card_path, card, now))
    return findings


def describe(policy: Policy, now: int) -> list[str]:
    """One line per allowlist entry for people: test, class, owner, reason, issue, and the
    expiry as a UTC date with days left; entries expiring within 7 days are flagged."""
    lines: list[str] = []
    issues = policy.issues or (None,) * len(policy.allowlist)
    for index, (entry, issue) in enumerate(zip(policy.allowlist, issues, strict=False)):
        if now >= entry.expires:
            flag = "EXPIRED"
        elif when.soon(entry.expires, now):
            flag = f"EXPIRES WITHIN {when.SOON_DAYS} DAYS"
        else:
            flag = "ok"
        lines.append(
            f"allowlist.{index}: {flag}: {entry.test_id!r} frozen in {entry.server_class}; "
            f"owner {entry.owner}; reason: {entry.reason}; "
            f"issue: {issue if issue is not None else 'none'}; "
            f"expires {when.expiry(entry.expires, now)}")
    return lines


def describe_ungated(policy: Policy) -> str:
    """One line: what an ungated Hypothesis test does under ``policy``."""
    if policy.ungated == "fail":
        return ("ungated: fail (a Hypothesis test no manifest property selects closes the "
                "gate until gate init --add gates it)")
    return ("ungated: warn (a Hypothesis test no manifest property selects is named, the gate "
            "stays as the pairs decide; 'ungated: fail' closes it, recommended for "
            "agent-drafted pull requests)")


def allow_entries(policy: Policy) -> Sequence[AllowEntry]:
    return policy.allowlist
