"""The sample card governs a gated Hypothesis test (issue 11), for the pytest plugin.

The plugin calls :func:`govern` at collection for every test a manifest property selects. The
test must be a Hypothesis test (``@given``) whose settings the card can govern, or
:class:`CardConflict` is raised and the whole session stops before any test runs. The card is
the only source of the settings that decide which examples run:

==========================  =========================================================
setting                     value
==========================  =========================================================
``max_examples``            the card's ``cases``
the seed                    the card's ``seed`` (as ``@seed`` would; the same
                            examples on every machine with the same Hypothesis)
``derandomize``             False (the seed is explicit)
``database``                None (a database on one runner must not change what runs)
``deadline``                the card's ``deadline_ms`` (null: none); absent: the
                            ``default`` profile's (200 ms)
``suppress_health_check``   the card's list; absent: none
``print_blob``              True (the ``@reproduce_failure`` line is printed)
``phases``, ``backend``     the ``default`` profile's, ``"hypothesis"``
==========================  =========================================================

A stateful test (``RuleBasedStateMachine.TestCase``, node ``TestX::runTest``) is governed
through its class's ``settings`` and its machine's seed (see :class:`StatefulApplied`).

Refused (:class:`CardConflict`): a test that is not a Hypothesis test; an explicit ``@seed``
or ``@reproduce_failure``; settings in force for the test (its ``@settings``, or the profile
loaded when its module was imported) that set a checked setting (:data:`CHECKED`:
``max_examples``, ``deadline``, ``suppress_health_check``, ``phases``, ``backend``) to another
value than the ``default`` profile's and the card's (``@settings(max_examples=20)`` with
``"cases": 20`` is fine), named after the loaded profile when it has that value (one clause
for every test it refuses: :attr:`CardConflict.shared`); two properties with different cards
selecting one test. A test's settings are read as if made from the ``default`` profile, also
where they were made from Hypothesis's ``ci`` one (:func:`_ci_profile_values`): a card
``gate init`` wrote on a laptop governs the same test on CI.

The card is applied just before the test's set-up and taken off after its teardown (a
parametrized test is one function shared by every parameter, each possibly gated by another
card). While the test runs, Hypothesis's "local constants" pool (constants mined from whatever
local modules happen to be imported, which changes the draws) is hidden, and the statistics
give ``examples_run``. Uses Hypothesis attributes that are private (``_hypothesis_internal_*``);
the stamp records ``hypothesis.version`` and a pair with different versions is rejected.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The governed settings a test or a profile may not set to other values than the card's.
#: ``derandomize`` and ``database`` are left out: the card always puts ``False`` (with its
#: explicit seed) and ``None`` in force, which is what those settings are for (the same
#: examples on every run), so a ``ci``-style profile setting them is no reason to refuse.
CHECKED = ("max_examples", "deadline", "suppress_health_check", "phases", "backend")
#: The checked settings Hypothesis's own ``ci`` profile sets.
CI_PROFILE_SETS = ("deadline", "suppress_health_check")
#: The card fields that define the experiment for one test.
CARD_FIELDS = ("cases", "seed", "deadline_ms", "suppress_health_check")
_FAILING = re.compile(r"^(?:Failing|Falsifying) (?:explicit )?(?:test case|example):", re.S)
_BLOB = re.compile(r"@reproduce_failure\('[^']+', b(?:'[^']*'|\"[^\"]*\")\)")
#: How Hypothesis opens and ends a state machine's falsifying example (stateful.py).
_MACHINE, _TEARDOWN = "<state machine>", "state.teardown()"


class CardConflict(Exception):
    """The sample card cannot govern this test. ``shared``: the clauses that are not about the
    test itself (a settings profile's), the same words for every test they refuse, which the
    caller reports once."""

    def __init__(self, message: str, shared: Sequence[str] = (), own: bool = True) -> None:
        super().__init__(message)
        self.shared = tuple(shared)
        self.own = own  # False: the shared clauses are the whole reason


def _fn(item: Any) -> Any:
    """The function that holds Hypothesis's attributes (a bound method's ``__func__``)."""
    return getattr(item.obj, "__func__", item.obj)


def _value(settings: Any, name: str) -> Any:
    got = getattr(settings, name)  # the order of suppressed health checks means nothing
    return frozenset(got) if name == "suppress_health_check" else got


def _ci_profile_values(current: Any) -> dict[str, Any]:
    """The ``default`` profile's values of the checked settings Hypothesis's ``ci`` profile
    changes, when ``current`` was made from the ``ci`` profile (directly, or through a profile
    or ``@settings`` built on it); empty otherwise.

    Hypothesis loads its ``ci`` profile by itself on CI (``CI``, ``GITHUB_ACTIONS``, ... set),
    before any conftest or test module builds a profile or ``@settings`` from it, so they all
    inherit its values (no deadline, ``too_slow`` suppressed). A test's settings are read as if
    made from the ``default`` profile: the same test is then the same conflict, or none, on a
    laptop and on CI. (A value the test sets itself that equals the ``ci`` profile's cannot be
    told apart from an inherited one there; off CI it is checked.)"""
    from hypothesis import settings

    ci, default = _ci_profile(), settings.get_profile("default")
    link, seen = current, 0
    while ci is not None and link is not None and link is not ci and seen < 100:
        link, seen = getattr(link, "_fallback", None), seen + 1
    if ci is None or link is not ci:
        return {}
    return {f: _value(default, f) for f in CI_PROFILE_SETS if _value(ci, f) != _value(default, f)}


#: Hypothesis's own ``ci`` profile, the object Hypothesis registered (:func:`remember_ci_profile`).
_HYPOTHESIS_CI: list[Any] = []


def remember_ci_profile() -> None:
    """Keep Hypothesis's own ``ci`` profile object. Called when the plugin or the recorder is
    loaded (``-p``, an entry point), before any conftest runs: a project may register a profile
    of its own under the name ``ci`` later, and that one is the project's settings, never
    Hypothesis's (issue 22: its values were read as inherited and mapped to the default's)."""
    if _HYPOTHESIS_CI:
        return
    from hypothesis import settings
    from hypothesis.errors import InvalidArgument

    try:
        _HYPOTHESIS_CI.append(settings.get_profile("ci"))
    except InvalidArgument:  # Hypothesis before 6.117 registers no ci profile of its own
        _HYPOTHESIS_CI.append(None)


def _ci_profile() -> Any:
    """Hypothesis's ``ci`` profile, or None where there is none (Hypothesis before 6.117
    registers no ``ci`` profile of its own): the object kept when the plugin loaded."""
    remember_ci_profile()  # loaded outside pytest's plugin start: nothing can have replaced it
    return _HYPOTHESIS_CI[0]


def _seen(current: Any, base: Any, name: str) -> Any:
    """``current``'s value of ``name`` read as if made from the ``default`` profile
    (:func:`_ci_profile_values`): a value inherited from the ``ci`` profile that differs from
    ``base``'s is the ``default`` profile's."""
    got = _value(current, name)
    inherited = _ci_profile_values(current)
    if (name in inherited and got == _value(_ci_profile(), name)
            and got != _value(base, name)):
        return inherited[name]
    return got


def _changed(current: Any, base: Any, card: Any) -> list[str]:
    """Checked settings ``current`` changes relative to ``base`` to a value the card does not
    put in force (a change to the card's own value is no conflict), ``current`` read by
    :func:`_seen`."""
    return [f for f in CHECKED
            if _seen(current, base, f) != _value(base, f)
            and _seen(current, base, f) != _value(card, f)]


def _card_value(field: str, value: Any) -> tuple[str, Any] | None:
    """The card field and JSON value that put a governed setting's ``value`` in force."""
    if field == "max_examples":
        return "cases", value
    if field == "deadline":
        return "deadline_ms", None if value is None else max(1, round(
            value.total_seconds() * 1000))
    if field == "suppress_health_check":
        return "suppress_health_check", sorted({h.name for h in value})
    return None  # derandomize, database, phases, backend: the card cannot hold them


def _fix(changed: Sequence[str], own: Any, card: dict[str, Any], card_name: str | None,
         where: str) -> str:
    """What to do about ``changed``: the card fields to add (naming the card file), or drop
    the settings from ``where``."""
    import json

    named = f"the card {card_name}" if card_name else "the card"
    hints = []
    for name in changed:
        value = getattr(own, name)
        pair = _card_value(name, value)
        shown = (f"{name}={pair[1]} ms" if name == "deadline" and pair and pair[1] is not None
                 else f"{name}={value!r}")
        if pair is None:
            hints.append(f"{where} sets {shown}, which no card field can hold: drop {name} "
                         f"from {where}")
            continue
        key, wanted = pair
        has = f"has {json.dumps(card[key])}" if key in card else "has none"
        hints.append(f"{where} sets {shown}, {named} {has}: set {json.dumps(key)}: "
                     f"{json.dumps(wanted)} in the card, or drop {name} from {where}")
    return " (" + "; ".join(hints) + ")"


def _conflicts(item: Any, card: dict[str, Any],
               card_name: str | None) -> tuple[list[str], list[str]]:
    """The test's own conflicts, and the shared ones (a settings profile's).

    The settings in force for the test (its ``@settings``, or the profile loaded when its
    module was imported) are compared with the ``default`` profile: a checked setting that
    differs from it and from the card's value is a conflict, named after the profile when the
    loaded one has that value, else after the test's ``@settings``."""
    from hypothesis import is_hypothesis_test, settings

    obj = getattr(item, "obj", None)
    if obj is None or not is_hypothesis_test(obj):
        return ["not a Hypothesis test (@given): the sample card can only govern one"], []
    fn, found = _fn(item), []
    if getattr(fn, "_hypothesis_internal_use_seed", None) is not None:
        found.append(f"an explicit @seed({fn._hypothesis_internal_use_seed!r}) overrides the "
                     "card's seed")
    if getattr(fn, "_hypothesis_internal_use_reproduce_failure", None) is not None:
        found.append("@reproduce_failure replays one example instead of the card's")
    own = fn._hypothesis_internal_use_settings
    changed = _changed(own, settings.get_profile("default"), card_settings(own, card))
    by_test, shared = _by_profile(changed, own)
    if by_test:
        where = ("@settings" if getattr(fn, "_hypothesis_internal_settings_applied", False)
                 else "the settings in force")
        found.append(f"{where} sets {', '.join(by_test)} to other values than the card"
                     + _fix(by_test, own, card, card_name, where))
    return found, shared


def _by_profile(changed: Sequence[str], own: Any) -> tuple[list[str], list[str]]:
    """``changed`` split: the settings the test's own settings hold, and the shared clause of
    the loaded profile (not ``default``) for those that equal its value."""
    from hypothesis import settings

    named = settings.get_current_profile_name()
    profile = None if named == "default" else settings.get_profile(named)
    by_profile = [f for f in changed
                  if profile is not None and _value(profile, f) == _value(own, f)]
    by_test = [f for f in changed if f not in by_profile]
    return by_test, [_profile_clause(named, profile, by_profile)] if by_profile else []


def _profile_clause(name: str, profile: Any, changed: Sequence[str]) -> str:
    """One clause for every test a profile's values refuse: the values, and the fix (the card
    fields that hold them, or dropping them from the profile)."""
    import json

    shown, fields, dropped = [], [], []
    for field_name in changed:
        value = getattr(profile, field_name)
        pair = _card_value(field_name, value)
        if pair is None:
            shown.append(f"{field_name}={value!r}")
            dropped.append(field_name)
            continue
        key, wanted = pair
        shown.append(f"{field_name}={wanted} ms" if field_name == "deadline" and wanted
                     is not None else f"{field_name}={json.dumps(wanted)}")
        fields.append(f"{json.dumps(key)}: {json.dumps(wanted)}")
    fix = []
    if fields:
        fix.append(f"set {', '.join(fields)} in the cards (gate init writes them for new "
                   "cards)")
    fix.append(f"drop {', '.join(dropped or changed)} from the profile")
    return (f"settings profile {name!r} sets {', '.join(shown)}, other values than the card "
            f"puts in force: {', or '.join(fix)}")


def _experiment(card: dict[str, Any]) -> dict[str, Any]:
    return {k: card.get(k) for k in CARD_FIELDS if k in card}


#: The settings the engine's runner is compared on with the card's (the stamp's own fields, and
#: what else decides the examples: phases and backend).
OBSERVED = ("max_examples", "derandomize", "database", "deadline", "suppress_health_check",
            "phases", "backend")
#: The health check Hypothesis's own pytest plugin suppresses for every parametrized test (a
#: false alarm there, Hypothesis issue 3733; it never changes which examples run): not a change
#: to the card, and left out of the stamp unless the card lists it.
HYPOTHESIS_OWN = "differing_executors"


@dataclass
class Engine:
    """One run of Hypothesis's engine during a gated test's call, as the runner was built:
    the settings it got, whether its random generator was the card seed's, and the runner
    (after the call: did it find a failing example).

    The runner is held only while the call runs: :meth:`settle`, when the call ends, keeps
    whether it found a failing example and lets the runner go. A runner holds everything the
    engine drew (its data tree, its cache of up to 10,000 test cases); kept for every gated
    test until the process ended, they made the recorder's test process free hundreds of
    thousands of objects at its exit (issue 31: +3.5 s of CPU on 16,166 examples)."""

    runner: Any
    settings: Any
    seeded: bool
    _failed: bool | None = None

    @property
    def failed(self) -> bool:
        if self.runner is None:
            return bool(self._failed)
        return bool(getattr(self.runner, "interesting_test_cases", None)  # 6.1xx's name
                    or getattr(self.runner, "interesting_examples", None))

    def settle(self) -> None:
        """The call ended: keep :attr:`failed` as it is now, drop the runner."""
        if self.runner is not None:
            self._failed = self.failed
            self.runner = None


@dataclass
class Applied:
    """One gated test with its card: apply before set-up, restore after teardown; while the
    call runs, what the engine ran with is observed (:meth:`observing`), not copied."""

    fn: Any
    card: dict[str, Any]
    settings: Any  # the hypothesis.settings the card puts in force
    saved: tuple[Any, Any] | None = None
    examples_run: int | None = None
    _hidden: list[Any] = field(default_factory=list)
    #: The engine runs of the last call (:class:`Engine`), and the name of the type of what the
    #: call raised (the name only: the exception's traceback holds the engine's frames, and
    #: with them its runner).
    engines: list[Engine] = field(default_factory=list)
    raised: str | None = None
    called: bool = False
    _seeded_state: Any = None

    def apply(self) -> None:
        self.saved = (self.fn._hypothesis_internal_use_settings,
                      self.fn._hypothesis_internal_use_seed)
        self.fn._hypothesis_internal_use_settings = self.settings
        self.fn._hypothesis_internal_use_seed = self.card["seed"]
        self.reset()

    def reset(self) -> None:
        self.examples_run = None
        self.engines = []
        self.raised = None
        self.called = False

    def restore(self) -> None:
        if self.saved is not None:
            (self.fn._hypothesis_internal_use_settings,
             self.fn._hypothesis_internal_use_seed) = self.saved
            self.saved = None

    def _card_state(self) -> Any:
        if self._seeded_state is None:
            from random import Random

            self._seeded_state = Random(self.card["seed"]).getstate()  # noqa: S311 (Hypothesis's own)
        return self._seeded_state

    @contextlib.contextmanager
    def _engine_watched(self) -> Iterator[None]:
        """While the call runs, every runner Hypothesis's core builds is noted as it is built
        (its settings, its random generator's state before any draw): the engine's own class,
        taken from the engine module, is what builds it."""
        try:
            from hypothesis import core as core_module
            from hypothesis.internal.conjecture import engine
        except ImportError:  # pragma: no cover - Hypothesis is there for a gated test
            yield
            return
        core: Any = core_module  # its ConjectureRunner is a private name, set for the call
        runner_class = engine.ConjectureRunner
        previous = core.ConjectureRunner
        engines = self.engines

        def built(*args: Any, **kwargs: Any) -> Any:
            runner = runner_class(*args, **kwargs)
            engines.append(Engine(runner, runner.settings,
                                  runner.random.getstate() == self._card_state()))
            return runner

        core.ConjectureRunner = built
        try:
            yield
        finally:
            core.ConjectureRunner = previous

    @contextlib.contextmanager
    def observing(self) -> Iterator[None]:
        """While the test runs: count the examples, hide the local-constants pool, note each
        engine run (:meth:`_engine_watched`) and what the call raised."""
        from hypothesis.statistics import collector

        previous = collector.value
        seen: list[dict[str, Any]] = []
        self.engines = []
        self.raised = None
        self.called = True

        def note(stats: dict[str, Any]) -> None:
            seen.append(stats)
            if previous is not None:
                previous(stats)  # keep Hypothesis's own statistics working

        with _no_local_constants(), \
                collector.with_value(note), self._engine_watched():  # type: ignore[arg-type]
            try:
                yield
            except BaseException as exc:
                self.raised = type(exc).__name__
                raise
            finally:
                for run in self.engines:
                    run.settle()
                if seen:
                    self.examples_run = _examples_run(seen[-1])

    def changed(self) -> list[str]:
        """The stamp's fields the engine ran with other values than the card put in force
        (``seed``: a runner whose generator was not the card seed's)."""
        found: list[str] = []
        for run in self.engines:
            if not run.seeded and "seed" not in found:
                found.append("seed")
            for name in OBSERVED:
                if (self._seen(run.settings, name) != self._seen(self.settings, name)
                        and name not in found):
                    found.append(name)
        return found

    def _seen(self, settings: Any, name: str) -> Any:
        """``settings``' value of ``name``, :data:`HYPOTHESIS_OWN` left out of the suppressed
        health checks unless the card lists it."""
        got = _value(settings, name)
        if name == "suppress_health_check" and HYPOTHESIS_OWN not in self.card.get(
                "suppress_health_check", ()):
            got = frozenset(h for h in got if h.name != HYPOTHESIS_OWN)
        return got

    def record(self) -> dict[str, Any]:
        """The stamp's ``hypothesis`` object: what the engine ran with (the first runner of the
        call; the card's values before any ran), and how many examples ran."""
        import hypothesis

        ran = self.engines[0] if self.engines else None
        settings = ran.settings if ran is not None else self.settings
        deadline = settings.deadline
        database = settings.database
        return {
            "version": hypothesis.__version__,
            "seed": self.card["seed"] if ran is None or ran.seeded else None,
            "max_examples": settings.max_examples,
            "derandomize": settings.derandomize,
            "database": None if database is None else type(database).__name__[:200],
            "deadline_ms": None if deadline is None else round(
                deadline.total_seconds() * 1000),
            "suppress_health_check": sorted(
                h.name for h in self._seen(settings, "suppress_health_check")),
            "examples_run": self.examples_run,
        }


def _examples_run(stats: dict[str, Any]) -> int:
    """Examples that reached the test body and counted (valid or failing), reuse and generate
    phases; shrinking is not counted."""
    total = 0
    for phase in ("reuse-phase", "generate-phase"):
        cases = stats.get(phase, {}).get("test-cases", [])
        total += sum(1 for c in cases if c.get("status") in ("valid", "interesting"))
    return total


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    try:
        from hypothesis.internal.conjecture import providers

        prov: Any = providers  # private names, not re-exported
        empty = prov.Constants(integers=prov.SortedSet(),
                               floats=prov.SortedSet(key=prov.float_to_int),
                               bytes=prov.SortedSet(), strings=prov.SortedSet())
        saved = prov._get_local_constants
    except (ImportError, AttributeError, TypeError):  # another Hypothesis: nothing to hide
        yield
        return
    prov._get_local_constants = lambda: empty
    try:
        yield
    finally:
        prov._get_local_constants = saved


def card_settings(parent: Any, card: dict[str, Any]) -> Any:
    from hypothesis import HealthCheck, settings

    default = settings.get_profile("default")
    return settings(
        parent, max_examples=card["cases"], derandomize=False, database=None,
        print_blob=True, phases=default.phases, backend="hypothesis",
        deadline=card.get("deadline_ms", default.deadline),
        suppress_health_check=[HealthCheck[n] for n in card.get("suppress_health_check", [])])


# --- stateful tests (RuleBasedStateMachine.TestCase, node ``TestX::runTest``) -----------------
#
# Their ``runTest`` is Hypothesis's own function: it builds the @given test when it runs, from
# ``TestCase.settings`` (a class attribute, by default no deadline and every health check
# suppressed) and the machine class's ``@seed``. So the card is applied there: the class's
# settings and the machine's seed attribute, for the time of the test, then restored. Card
# fields it leaves out keep Hypothesis's stateful defaults (no deadline, health checks off).


def _stateful_defaults() -> Any:
    from hypothesis import HealthCheck, settings

    return settings(settings.get_profile("default"), deadline=None,
                    suppress_health_check=list(HealthCheck))


def stateful_settings(parent: Any, card: dict[str, Any]) -> Any:
    from hypothesis import HealthCheck, settings

    default = settings.get_profile("default")
    names = card.get("suppress_health_check")
    return settings(
        parent, max_examples=card["cases"], derandomize=False, database=None,
        print_blob=True, phases=default.phases, backend="hypothesis",
        deadline=card.get("deadline_ms"),
        suppress_health_check=(list(HealthCheck) if names is None
                               else [HealthCheck[n] for n in names]))


def _stateful_conflicts(item: Any, machine: Any, card: dict[str, Any],
                        card_name: str | None) -> tuple[list[str], list[str]]:
    """As :func:`_conflicts`, for a state machine's ``TestCase.settings`` (made from the
    profile loaded when the test module built it)."""
    found = []
    if getattr(machine, "_hypothesis_internal_use_seed", None) is not None:
        found.append(f"an explicit @seed({machine._hypothesis_internal_use_seed!r}) on the "
                     "state machine overrides the card's seed")
    if getattr(machine, "_hypothesis_internal_use_reproduce_failure", None) is not None:
        found.append("@reproduce_failure on the state machine replays one example instead "
                     "of the card's")
    own = item.cls.settings
    governed = stateful_settings(own, card)
    by_test, shared = _by_profile(_changed(own, _stateful_defaults(), governed), own)
    if by_test:
        found.append(f"TestCase.settings sets {', '.join(by_test)} to other values than the "
                     "card" + _fix(by_test, own, card, card_name, "TestCase.settings"))
    return found, shared


@dataclass
class StatefulApplied(Applied):
    """A state machine's ``TestCase``: the card goes on the class settings and the seed."""

    cls: Any = None
    machine: Any = None

    def apply(self) -> None:
        self.saved = (self.cls.__dict__.get("settings", _MISSING),
                      self.machine.__dict__.get("_hypothesis_internal_use_seed", _MISSING))
        self.cls.settings = self.settings
        self.machine._hypothesis_internal_use_seed = self.card["seed"]
        self.reset()

    def restore(self) -> None:
        if self.saved is None:
            return
        for owner, name, value in ((self.cls, "settings", self.saved[0]),
                                   (self.machine, "_hypothesis_internal_use_seed",
                                    self.saved[1])):
            if value is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, value)
        self.saved = None


_MISSING = object()


def _card_name(prepared: Any) -> str | None:
    """The card file the manifest entry names (relative to the root when it lies under it; the
    recorder's plan carries it already relative to the repository, with no root); None when
    the caller does not carry it."""
    import os

    path = getattr(getattr(prepared, "prop", None), "card", None)
    if not isinstance(path, (str, os.PathLike)):
        return None
    root = getattr(prepared, "root", None)
    if isinstance(root, (str, os.PathLike)):
        shown = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
        if not shown.startswith(".."):
            return shown.replace(os.sep, "/")
    return os.fspath(path)


def govern(item: Any, props: Sequence[Any]) -> Applied:
    """The card of the properties selecting ``item``, ready to apply; or :class:`CardConflict`."""
    cards = {p.prop.test_id: _experiment(p.card) for p in props}
    first = props[0]
    for other in props[1:]:
        if cards[other.prop.test_id] != cards[first.prop.test_id]:
            raise CardConflict(f"properties {first.prop.test_id!r} and {other.prop.test_id!r} "
                               "select this test with different cards")
    name = _card_name(first)
    obj = getattr(item, "obj", None)
    machine = getattr(_fn(item), "_hypothesis_state_machine_class", None) if obj else None
    if machine is not None and getattr(item, "cls", None) is not None:
        found, shared = _stateful_conflicts(item, machine, first.card, name)
        if found or shared:
            raise CardConflict(f"property {first.prop.test_id!r}: " + "; ".join(found + shared),
                               shared=shared, own=bool(found))
        return StatefulApplied(_fn(item), dict(first.card),
                               stateful_settings(item.cls.settings, first.card),
                               cls=item.cls, machine=machine)
    found, shared = _conflicts(item, first.card, name)
    if found or shared:
        raise CardConflict(f"property {first.prop.test_id!r}: " + "; ".join(found + shared),
                           shared=shared, own=bool(found))
    fn = _fn(item)
    return Applied(fn, dict(first.card), card_settings(fn._hypothesis_internal_use_settings,
                                                      first.card))


def _walk(exc: BaseException) -> Iterator[BaseException]:
    yield exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _walk(inner)


def _qualname(exc: BaseException) -> str:
    kind = type(exc)
    return kind.__qualname__ if kind.__module__ == "builtins" else (
        f"{kind.__module__}.{kind.__qualname__}")


def raised_types(exc: BaseException) -> list[str]:
    """The qualified type of every exception in ``exc`` (exception groups walked)."""
    return [_qualname(e) for e in _walk(exc)]


def _examples(notes: Sequence[str]) -> list[str]:
    """The falsifying examples among one exception's notes. A stateful machine's is its header
    note (``Failing test case: <state machine>``) and one note per step Hypothesis printed
    after it, through ``state.teardown()``, which it always prints last: the steps are the
    example (the header alone is the same for every failure of every machine)."""
    found: list[str] = []
    for at, note in enumerate(notes):
        if not _FAILING.match(note):
            continue
        if note.rstrip().endswith(_MACHINE):
            steps = notes[at + 1:]
            if _TEARDOWN in steps:
                note = "\n".join([note, *steps[:steps.index(_TEARDOWN) + 1]])
        found.append(note)
    return found


def failure_of(exc: BaseException) -> dict[str, Any]:
    """The stamp's ``failure`` object for a call failure (bounded when the stamp is built)."""
    each = [[str(n) for n in getattr(e, "__notes__", ())] for e in _walk(exc)]
    notes = [n for own in each for n in own]
    examples = [x for own in each for x in _examples(own)]
    blobs = [m.group(0) for n in notes for m in _BLOB.finditer(n)]
    message = str(exc) if not isinstance(exc, BaseExceptionGroup) else exc.message
    return {"type": _qualname(exc), "message": message,
            "example": "\n\n".join(examples) if examples else None,
            "reproduce": "\n".join(blobs) if blobs else None}
