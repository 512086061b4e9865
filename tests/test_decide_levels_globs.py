"""The pure tables of gate/decide/isolation.py and gate/decide/globs.py, word for word: the
reasons a level is refused with (what the user reads, with the fix), the level ``by`` records,
the lowest level of a class, and a glob's segments and wildcards. Fast (no namespace, no act):
the mutation run (issue 32, docs/testing.md) selects this file."""

from __future__ import annotations

from typing import Any

import pytest

from gate.decide import globs
from gate.decide import isolation as levels

BARE = levels.Facts(ptrace_scope=1, bwrap=False, unshare=False, root=False, sudo=False)


def facts(**changed: Any) -> levels.Facts:
    return levels.Facts(**{**{n: getattr(BARE, n) for n in BARE.__slots__}, **changed})


NO_NAMESPACE_FIX = ("(fix: apt-get install bubblewrap, or run the job with passwordless sudo as "
                    "hosted runners do)")


@pytest.mark.parametrize(("level", "given", "reason"), [
    ("process", facts(ptrace_scope=0),
     "kernel.yama.ptrace_scope is 0, so a same-user process can attach to the gate and the "
     "runner (fix: sysctl kernel.yama.ptrace_scope=1, or a namespace level)"),
    ("process", facts(ptrace_scope=None),
     "the kernel has no Yama, so a same-user process can attach to the gate and the "
     "runner (fix: sysctl kernel.yama.ptrace_scope=1, or a namespace level)"),
    ("process", facts(sudo=True),
     "the job's user has passwordless sudo, which the command can use (fix: a namespace "
     "level, whose no_new_privs stops sudo)"),
    ("process", facts(sockets=("/run/a.sock", "/run/b.sock")),  # the first one is named
     "the container socket /run/a.sock is reachable: a container the command starts through "
     "it is no descendant (fix: a namespace level, which hides it)"),
    ("namespace", facts(unshare=True),
     "no namespace can be made: util-linux unshare needs root or passwordless sudo, which the "
     f"job lacks {NO_NAMESPACE_FIX}"),
    ("namespace", facts(),
     "no namespace can be made: neither bubblewrap nor util-linux unshare and setpriv is "
     f"installed {NO_NAMESPACE_FIX}"),
    ("namespace", facts(userns_restricted=False),
     "no namespace can be made: neither bubblewrap nor util-linux unshare and setpriv is "
     f"installed {NO_NAMESPACE_FIX}"),
    ("user", facts(userns_restricted=True),
     "no namespace can be made: neither bubblewrap nor util-linux unshare and setpriv is "
     "installed (unprivileged user namespaces are restricted: "
     f"kernel.apparmor_restrict_unprivileged_userns is 1) {NO_NAMESPACE_FIX}"),
    ("user", facts(bwrap=True),
     "no other user is named (fix: --isolation-user NAME, the action's isolation-user input: "
     "a user without sudo or container sockets)"),
    ("user", facts(bwrap=True, other_user="t", other_user_problem="t has sudo (fix: x)"),
     "t has sudo (fix: x)"),
])
def test_why_a_level_cannot_be_had_word_for_word(level: str, given: levels.Facts,
                                                 reason: str) -> None:
    assert levels.why_not(level, given) == reason
    with pytest.raises(levels.Unavailable) as caught:
        levels.choose(level, given)
    assert (caught.value.level, caught.value.reason) == (level, reason)


@pytest.mark.parametrize(("level", "given"), [
    ("process", facts(ptrace_scope=2)),
    ("namespace", facts(unshare=True, root=True)),
    ("user", facts(bwrap=True, other_user="t")),
])
def test_a_level_the_facts_make_true_has_no_reason(level: str, given: levels.Facts) -> None:
    assert levels.why_not(level, given) is None


def test_below_namespace_nothing_is_recorded_as_how_even_where_a_namespace_could_be_made() -> None:
    assert levels.choose("process", facts(bwrap=True)) == levels.Level("process", None)
    assert levels.choose("none", facts(unshare=True, root=True)) == levels.Level("none", None)
    assert levels.choose("namespace", facts(bwrap=True)) == levels.Level("namespace", "bwrap")


def test_facts_and_a_level_keep_every_field_as_given_and_default_to_nothing_more() -> None:
    """Facts and Level are hand-written frozen values (no dataclass: start-up): each field is
    what was given, in order, and what is not given is empty (built here, inside the test)."""
    given = levels.Facts(2, True, True, True, True, ("/run/docker.sock",), True, "runner2",
                         "has sudo")
    assert [getattr(given, n) for n in given.__slots__] == [
        2, True, True, True, True, ("/run/docker.sock",), True, "runner2", "has sudo"]
    bare = levels.Facts(None, False, False, False, False)
    assert [getattr(bare, n) for n in bare.__slots__] == [
        None, False, False, False, False, (), None, None, None]
    assert (levels.Level("user", "sudo-unshare").level,
            levels.Level("user", "sudo-unshare").by) == ("user", "sudo-unshare")
    assert repr(levels.Level("none", None)) == "Level(level='none', by=None)"


def test_the_lowest_level_is_by_rank_not_by_name() -> None:
    assert levels.lowest(["none", "namespace"]) == "none"
    assert levels.lowest(["user", "process"]) == "process"
    assert levels.lowest([None, "user"]) == "none"
    assert levels.lowest([]) == "none"  # a class without stamps ran at nothing more


def test_a_pattern_is_cut_at_slashes_dropping_empty_and_dot_segments() -> None:
    assert globs.segments("src/x/a.py") == ("src", "x", "a.py")
    assert globs.segments("./a//b/./c d/") == ("a", "b", "c d")
    assert globs.matches("./src//*.py", "src/a.py")
    assert not globs.matches("src/*.py", "src a.py")


@pytest.mark.parametrize(("segment", "wild"), [
    ("**", True), ("*.py", True), ("a?c", True), ("*", True),
    ("src", False), ("a.py", False), ("[ab]", False), ("", False),
])
def test_a_segment_is_wild_only_with_a_star_or_a_question_mark(segment: str,
                                                               wild: bool) -> None:
    assert globs.is_wild(segment) is wild
