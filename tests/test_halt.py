"""Halt gate (SPEC §2): classification, the four decision rows, and host validity."""

from __future__ import annotations

import pytest

from gate.decide import halt
from gate.decide.halt import Binding, Decision, HaltPolicy, MemoryIssuer, TargetClass
from tests.core_helpers import FIXTURE_HOST, FIXTURE_SCOPE, MARKER

POLICY = HaltPolicy()


def fixture_binding(**changes: object) -> Binding:
    base = Binding("run-1", 1, FIXTURE_SCOPE, FIXTURE_HOST, MARKER, "fixture")
    return base.replace(**changes)


def issuer_with(*bindings: Binding) -> MemoryIssuer:
    issuer = MemoryIssuer()
    for b in bindings:
        issuer.record(b)
    return issuer


# --- classification ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, TargetClass.FIXTURE),
        ({"scope": "fixture.local"}, TargetClass.FIXTURE),
        ({"target_class": "live"}, TargetClass.LIVE),
        ({"scope": "example.com"}, TargetClass.LIVE),
        ({"scope": "LAB.INVALID"}, TargetClass.LIVE),  # reserved scopes are exact strings
        ({"host": "api.example.com"}, TargetClass.LIVE),
        ({"host": "api.lab.invalid."}, TargetClass.LIVE),
        ({"marker": None}, TargetClass.UNKNOWN),
        ({"marker": "synthetic-fixture-v2"}, TargetClass.UNKNOWN),
        ({"marker": ""}, TargetClass.UNKNOWN),
        ({"target_class": "unknown"}, TargetClass.UNKNOWN),
        ({"target_class": "FIXTURE"}, TargetClass.UNKNOWN),
        # live wins over a missing marker: the scope/host check fails first
        ({"host": "api.example.com", "marker": None}, TargetClass.LIVE),
    ],
)
def test_classify(changes: dict[str, object], expected: TargetClass) -> None:
    assert halt.classify(fixture_binding(**changes), POLICY) is expected


def test_classify_uses_the_policy_scopes_and_marker() -> None:
    policy = HaltPolicy(reserved_scopes=("sandbox.invalid",), expected_marker="m-2")
    assert halt.classify(fixture_binding(), policy) is TargetClass.LIVE
    assert halt.classify(fixture_binding(scope="sandbox.invalid"), policy) is TargetClass.UNKNOWN
    assert (halt.classify(fixture_binding(scope="sandbox.invalid", marker="m-2"), policy)
            is TargetClass.FIXTURE)


# --- decision rows -----------------------------------------------------------------------------


def test_row4_allow_current_minted_closed_fixture() -> None:
    b = fixture_binding()
    result = halt.decide(b, 1, issuer_with(b), POLICY)
    assert (result.decision, result.row, result.target_class) == (
        Decision.ALLOW, 4, TargetClass.FIXTURE)


@pytest.mark.parametrize("issued", [0, 2, -1, 99])
def test_row1_issued_generation_differs_rejects(issued: int) -> None:
    b = fixture_binding()
    result = halt.decide(b, issued, issuer_with(b), POLICY)
    assert (result.decision, result.row) == (Decision.REJECT, 1)


def test_row1_comes_before_row2_for_a_live_host() -> None:
    b = fixture_binding(host="api.example.com")
    result = halt.decide(b, 2, issuer_with(b), POLICY)
    assert (result.decision, result.row, result.target_class) == (
        Decision.REJECT, 1, TargetClass.LIVE)


@pytest.mark.parametrize(
    ("changes", "target"),
    [
        ({"target_class": "live"}, TargetClass.LIVE),
        ({"host": "api.example.com"}, TargetClass.LIVE),
        ({"scope": "prod.example.com"}, TargetClass.LIVE),
        ({"marker": None}, TargetClass.UNKNOWN),
        ({"marker": "wrong-marker"}, TargetClass.UNKNOWN),
        ({"target_class": "unknown"}, TargetClass.UNKNOWN),
    ],
)
def test_row2_not_fixture_halts_even_when_minted(changes: dict[str, object],
                                                  target: TargetClass) -> None:
    b = fixture_binding(**changes)
    result = halt.decide(b, 1, issuer_with(b), POLICY)  # the issuer minted exactly this
    assert (result.decision, result.row, result.target_class) == (Decision.HALT, 2, target)


def test_row2_unknown_class_is_never_a_soft_allow() -> None:
    b = fixture_binding(target_class="unknown")
    assert halt.decide(b, 1, issuer_with(b), POLICY).decision is Decision.HALT


def test_row3_binding_no_issuer_minted_halts() -> None:
    result = halt.decide(fixture_binding(), 1, MemoryIssuer(), POLICY)
    assert (result.decision, result.row) == (Decision.HALT, 3)


def test_row3_generation_never_minted_for_a_known_run_halts() -> None:
    g1 = fixture_binding()
    b = fixture_binding(generation=3)
    result = halt.decide(b, 3, issuer_with(g1), POLICY)
    assert (result.decision, result.row) == (Decision.HALT, 3)


def test_row3_other_run_id_halts() -> None:
    minted = fixture_binding()
    result = halt.decide(fixture_binding(run_id="run-2"), 1, issuer_with(minted), POLICY)
    assert (result.decision, result.row) == (Decision.HALT, 3)


@pytest.mark.parametrize(
    ("minted_changes", "presented_changes"),
    [
        ({}, {"host": "other.lab.invalid"}),  # host swapped under a stable generation
        ({"host": "other.lab.invalid"}, {}),
        ({"marker": None}, {}),  # the issuer minted no marker; the planner added one
        ({"marker": "old-marker"}, {}),
        ({}, {"scope": "fixture.local"}),  # scope swapped
        ({"target_class": "unknown"}, {}),  # class swapped to fixture
    ],
)
def test_row3_swapped_under_stable_generation_rejects(minted_changes: dict[str, object],
                                                       presented_changes: dict[str, object]
                                                       ) -> None:
    minted = fixture_binding(**minted_changes)
    presented = fixture_binding(**presented_changes)
    assert minted != presented
    result = halt.decide(presented, 1, issuer_with(minted), POLICY)
    assert (result.decision, result.row, result.target_class) == (
        Decision.REJECT, 3, TargetClass.FIXTURE)


def test_row3_stale_generation_rejects() -> None:
    g1 = fixture_binding()
    g2 = fixture_binding(generation=2, host="next.lab.invalid")
    issuer = issuer_with(g1, g2)
    stale = halt.decide(g1, 1, issuer, POLICY)
    assert (stale.decision, stale.row) == (Decision.REJECT, 3)
    current = halt.decide(g2, 2, issuer, POLICY)
    assert (current.decision, current.row) == (Decision.ALLOW, 4)


def test_stale_generation_is_not_replayed_against_the_new_host() -> None:
    g1 = fixture_binding()
    g2 = fixture_binding(generation=2, host="next.lab.invalid")
    issuer = issuer_with(g1, g2)
    # the old attempt (issued for generation 1) presented with the new binding: row 1
    result = halt.decide(g2, 1, issuer, POLICY)
    assert (result.decision, result.row) == (Decision.REJECT, 1)


def test_memory_issuer_current_generation_is_the_highest() -> None:
    issuer = issuer_with(fixture_binding(generation=2), fixture_binding(generation=1))
    assert issuer.current_generation("run-1") == 2
    assert issuer.current_generation("nope") is None
    assert issuer.minted("run-1", 3) is None


def test_values_are_frozen() -> None:
    b = fixture_binding()
    with pytest.raises(AttributeError):
        b.host = "x.example.com"  # type: ignore[misc]
    result = halt.decide(b, 1, issuer_with(b), POLICY)
    with pytest.raises(AttributeError):
        result.decision = Decision.ALLOW  # type: ignore[misc]


def test_binding_record_round_trip() -> None:
    b = fixture_binding(marker=None)
    assert Binding.from_record(b.to_record()) == b
    assert b.to_record() == {"run_id": "run-1", "generation": 1, "scope": FIXTURE_SCOPE,
                             "host": FIXTURE_HOST, "marker": None, "target_class": "fixture"}


# --- host validity -----------------------------------------------------------------------------

BAD_HOSTS = [
    "",  # empty
    "invalid",  # a bare TLD: not a host name under it
    "api..invalid",  # empty label
    ".api.lab.invalid",  # empty first label
    "api.lab.invalid.",  # trailing dot
    "127.0.0.1",  # IPv4 literal
    "[::1]",  # IPv6 literal
    "::1",
    "api.lab.invalid:443",  # with port
    "user@api.lab.invalid",  # with user info
    "user:pw@api.lab.invalid",
    "äpi.lab.invalid",  # unicode
    "api.lab.ınvalid",  # dotless i that lowercases/uppercases trickily
    "api_x.lab.invalid",  # underscore
    "a" * 64 + ".lab.invalid",  # 64-char label
    "-api.lab.invalid",  # leading hyphen
    "api-.lab.invalid",  # trailing hyphen
    "api .lab.invalid",  # white space
    " api.lab.invalid",
    "api.lab.invalid ",
    "api\n.lab.invalid",  # embedded newline (regex ``$`` pitfall)
    "api.lab\n.invalid",
    "api.lab.invalid\n",
    "api\t.lab.invalid",
    "api.lab.invalid/path",
    "http://api.lab.invalid",
    "api.lab.invalid%00",
    ("a" * 60 + ".") * 4 + "lab.invalid",  # longer than 253 characters
    "api.lab.invalid.example.com",  # invalid is not the last label
    "api.lab.invalidx",
    "api.lab.in-valid",
]


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_bad_host_is_never_a_closed_fixture(host: str) -> None:
    assert halt.is_closed_fixture_host(host) is False


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_bad_host_never_allows_even_when_minted(host: str) -> None:
    b = fixture_binding(host=host)
    result = halt.decide(b, 1, issuer_with(b), POLICY)
    assert (result.decision, result.row, result.target_class) == (
        Decision.HALT, 2, TargetClass.LIVE)


@pytest.mark.parametrize(
    "host",
    ["", "a..b", "a.b.", "127.0.0.1:80", "a_b.c", "ä.com", "x\n.com", "a" * 64 + ".com",
     "single"],
)
def test_is_valid_dns_host_refuses(host: str) -> None:
    assert halt.is_valid_dns_host(host) is False


@pytest.mark.parametrize("host", [None, 5, b"api.lab.invalid", ["api.lab.invalid"]])
def test_non_string_host_is_not_valid(host: object) -> None:
    assert halt.is_valid_dns_host(host) is False
    assert halt.is_closed_fixture_host(host) is False


@pytest.mark.parametrize(
    "host",
    [
        "api.lab.invalid",
        "a.invalid",
        "x-1.y-2.invalid",
        "a" * 63 + ".lab.invalid",  # 63 is the longest label
        "xn--pi-uia.lab.invalid",  # punycode is ASCII
        "10.0.0.1.invalid",  # numeric labels under .invalid are a host name, not an IP literal
        # DNS names are case-insensitive (RFC 4343): an upper-case INVALID is still the
        # reserved RFC 2606 TLD, so these are closed-fixture hosts.
        "API.LAB.INVALID",
        "api.lab.Invalid",
    ],
)
def test_good_closed_fixture_hosts_allow(host: str) -> None:
    assert halt.is_closed_fixture_host(host) is True
    b = fixture_binding(host=host)
    result = halt.decide(b, 1, issuer_with(b), POLICY)
    assert (result.decision, result.row) == (Decision.ALLOW, 4)


def test_253_character_host_is_the_limit() -> None:
    label = "a" * 61
    host = ".".join([label] * 3) + "." + "b" * (253 - 3 * 62 - 8) + ".invalid"
    assert len(host) == 253
    assert halt.is_closed_fixture_host(host) is True
    assert halt.is_closed_fixture_host("c" + host) is False
