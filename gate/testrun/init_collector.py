"""``gate init``'s collecting plugin, loaded into the user's own pytest with ``-p``.

It must run in the user's test environment, which may not have the gate installed: so it
imports nothing of the gate, only pytest, Hypothesis and the standard library, and
``gate.testrun.collecting`` copies this file into a temporary folder under its own module name
before it runs ``python -m pytest --collect-only -p <that name>``.

After collection it writes one JSON document to the file named by ``GATE_INIT_OUT``: every
collected item with its node id, whether it is a Hypothesis test
(``hypothesis.is_hypothesis_test``), the ``max_examples`` of the settings it was decorated
with (the active profile's when it has no ``@settings``), the other settings the sample card
governs when the settings in force for the test (its own, or a loaded profile's) change them
(``deadline`` as ``deadline_ms``, null for none; ``suppress_health_check`` as names), so the
card never conflicts with them, its file
and line, the JUnit ``classname``/``name`` pytest's ``--junitxml`` gives it, and the
interpreter's ``sys.path`` (where the test files' imports resolve); and the test harness: the
configuration file pytest read (``inipath``) and the file of every plugin module it loaded.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import pytest

OUT_ENV = "GATE_INIT_OUT"


def _max_examples(current: Any) -> int | None:
    value = getattr(current, "max_examples", None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _off_ci_profile() -> None:
    """Collect as if off CI: Hypothesis loads its ``ci`` profile by itself where ``CI`` (or
    ``GITHUB_ACTIONS``, ...) is set, before the test modules build their ``@settings`` from it,
    and the cards ``gate init`` writes must not depend on where it ran. Only collection runs
    under this plugin, so no test runs with the ``default`` profile instead."""
    try:
        from hypothesis import settings
    except ImportError:
        return
    if settings.get_current_profile_name() == "ci":  # nothing but Hypothesis ran before us
        settings.load_profile("default")


def _own_ci_profile() -> Any:
    """Hypothesis's own ``ci`` profile object, taken at import (before any conftest can register
    a profile of its own under that name), or None."""
    try:
        from hypothesis import settings
        from hypothesis.errors import InvalidArgument
    except ImportError:
        return None
    try:
        return settings.get_profile("ci")
    except InvalidArgument:  # Hypothesis before 6.117 registers no ci profile of its own
        return None


_HYPOTHESIS_CI = _own_ci_profile()  # at import, as below
_off_ci_profile()  # at import: ``-p`` loads this plugin before any conftest or test module


def _made_from_ci(current: Any, ci: Any) -> bool:
    if ci is None:
        return False
    link, seen = current, 0
    while link is not None and link is not ci and seen < 100:
        link, seen = getattr(link, "_fallback", None), seen + 1
    return link is ci


def _card_settings(current: Any, stateful: bool) -> dict[str, Any]:
    """The card fields that keep the ``deadline``/``suppress_health_check`` in force for the
    test: its own ``@settings``', or a settings profile's (a conftest's ``load_profile``).

    Mirrors ``gate.testrun.hypothesis_card``: a setting is a conflict when the settings in force
    differ from the ``default`` profile (a stateful ``TestCase``: from its defaults, no
    deadline and every health check suppressed), so exactly those are written into the card,
    with the value in force. Values inherited from Hypothesis's ``ci`` profile are read as the
    ``default`` profile's, as the plugin reads them."""
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return {}
    if current is None:
        return {}
    ci: Any = _HYPOTHESIS_CI  # Hypothesis's own, never a project's profile named "ci"
    default = settings.get_profile("default")
    from_ci = _made_from_ci(current, ci)
    if stateful:
        base_deadline: Any = None
        base_checks: Any = list(HealthCheck)
    else:
        base_deadline, base_checks = default.deadline, default.suppress_health_check
    found: dict[str, Any] = {}
    deadline = getattr(current, "deadline", None)
    if from_ci and deadline == ci.deadline != base_deadline:
        deadline = default.deadline  # the ci profile's, had it been made from the default one
    if deadline != base_deadline:
        found["deadline_ms"] = (None if deadline is None
                                else max(1, round(deadline.total_seconds() * 1000)))
    checks = getattr(current, "suppress_health_check", ())
    if from_ci and set(checks) == set(ci.suppress_health_check) != set(base_checks):
        checks = default.suppress_health_check
    if set(checks) != set(base_checks):
        found["suppress_health_check"] = sorted({h.name for h in checks})
    return found


def _item(item: pytest.Item) -> dict[str, Any]:
    from _pytest.junitxml import mangle_test_address

    obj = getattr(item, "obj", None)
    try:
        import hypothesis

        is_hypothesis = obj is not None and bool(hypothesis.is_hypothesis_test(obj))
    except ImportError:
        is_hypothesis = False
    names = mangle_test_address(item.nodeid)
    path = os.fspath(getattr(item, "path", None) or item.fspath)
    where, lineno, _domain = item.location
    # The line is in the test's own file only when the function was defined there: a stateful
    # machine's runTest is Hypothesis's own code, so its line would point into another file.
    rootdir = os.fspath(item.config.rootpath)
    if os.path.realpath(os.path.join(rootdir, where)) != os.path.realpath(path):
        lineno = None
    stateful = getattr(obj, "_hypothesis_state_machine_class", None) is not None
    # RuleBasedStateMachine.TestCase runs with TestCase.settings, not its runTest's
    settings_of = (getattr(getattr(item, "cls", None), "settings", None) if stateful else
                   getattr(obj, "_hypothesis_internal_use_settings", None))
    return {
        "nodeid": item.nodeid,
        "hypothesis": is_hypothesis,
        "stateful": stateful,
        "max_examples": _max_examples(settings_of) if is_hypothesis else None,
        "card_settings": _card_settings(settings_of, stateful) if is_hypothesis else {},
        "path": path,
        "line": lineno + 1 if isinstance(lineno, int) else None,
        "classname": ".".join(names[:-1]),
        "name": names[-1],
    }


def _plugin_files(config: pytest.Config) -> list[str]:
    """The files of every plugin module registered in this pytest: ``-p NAME`` (in
    ``addopts`` too), ``pytest_plugins`` of a conftest, entry points, and the conftests
    themselves (``gate init`` keeps those under the root, outside installed packages)."""
    found: list[str] = []
    for plugin in config.pluginmanager.get_plugins():
        path = getattr(plugin, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            found.append(os.path.abspath(path))
    return sorted(set(found))


def _options_of(plugin: Any, config: pytest.Config) -> set[str]:
    """The command-line options and ini keys ``plugin``'s ``pytest_addoption`` registers."""
    import inspect

    from _pytest.config.argparsing import Parser

    hook = getattr(plugin, "pytest_addoption", None)
    if not callable(hook):
        return set()
    parser = Parser()
    try:
        wanted = inspect.signature(hook).parameters
        hook(**{k: v for k, v in (("parser", parser), ("pluginmanager", config.pluginmanager))
                if k in wanted})
    except Exception:  # a plugin's own hook: what it registers is only a hint here
        return set()
    names: set[str] = set(getattr(parser, "_inidict", {}))
    for group in [getattr(parser, "_anonymous", None), *getattr(parser, "_groups", [])]:
        for option in getattr(group, "options", []):
            names.update(option.names())
    return names


def _plugin_dists(config: pytest.Config) -> list[dict[str, Any]]:
    """Each installed distribution whose pytest plugin (entry point ``pytest11``) this pytest
    loaded, with what of the configuration needs it: an ``addopts`` option it registers, a
    ``-p NAME`` naming its entry point, an ini key it registers that the configuration sets."""
    import itertools

    addopts = [str(word) for word in (config.getini("addopts") or [])]
    options = {word.split("=", 1)[0] for word in addopts if word.startswith("-")}
    named = {b for a, b in itertools.pairwise(addopts) if a == "-p"}
    named |= {w[2:] for w in addopts if w.startswith("-p") and len(w) > 2}
    keys = set(getattr(config, "inicfg", {}) or {})
    found: dict[str, dict[str, Any]] = {}
    for plugin, dist in config.pluginmanager.list_plugin_distinfo():
        metadata = getattr(dist, "metadata", None)
        name = (metadata["Name"] if metadata is not None and "Name" in metadata
                else getattr(dist, "project_name", None))
        if not name:
            continue
        entry = found.setdefault(str(name), {"name": str(name), "needed_by": []})
        registered = _options_of(plugin, config)
        needs = sorted(options & registered) + sorted(keys & registered)
        points = {ep.name for ep in getattr(dist, "entry_points", [])
                  if getattr(ep, "group", "") == "pytest11"}
        needs += [f"-p {n}" for n in sorted(named & points)]
        entry["needed_by"] = sorted(set(entry["needed_by"]) | set(needs))
    return sorted(found.values(), key=lambda e: str(e["name"]).lower())


def pytest_collection_finish(session: pytest.Session) -> None:
    target = os.environ.get(OUT_ENV)
    if not target:
        return
    try:
        import hypothesis

        version: str | None = hypothesis.__version__
    except ImportError:
        version = None
    inipath = getattr(session.config, "inipath", None)  # pytest >= 6.1
    document = {
        "rootdir": os.fspath(session.config.rootpath),
        "inipath": os.fspath(inipath) if inipath else None,
        "plugin_files": _plugin_files(session.config),
        "plugin_dists": _plugin_dists(session.config),
        "addopts": [str(w) for w in (session.config.getini("addopts") or [])],
        "hypothesis_version": version,
        "python_version": f"{sys.version_info[0]}.{sys.version_info[1]}",
        "sys_path": [os.path.abspath(p) for p in sys.path if isinstance(p, str) and p],
        "items": [_item(item) for item in session.items],
    }
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
