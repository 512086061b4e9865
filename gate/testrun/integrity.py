"""What the recorder checks about the test process it runs in (issue 27): where the modules it
trusts came from, and that the objects pytest and Hypothesis report through are still theirs.

Runs in the user's test process beside the recorder (:mod:`gate.testrun.recorder`), so it
imports only the standard library (and reads pytest and Hypothesis from ``sys.modules``).

**Where the trusted modules came from.** The gate loads the recorder under a per-run module
name from a private folder (:func:`gate.testrun.recorder_route.recorder_env`): that loader puts
the gate's package in ``sys.modules["gate"]`` from its own absolute path before anything can
import a ``gate`` by name, and refuses the run (:func:`foreign_modules`) when a ``gate`` module
from elsewhere is already imported, or when ``pytest``, ``_pytest``, ``pluggy`` or
``hypothesis`` were imported from the workspace (a folder the patch writes) rather than an
installed location.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The top-level modules the run imports and trusts: a workspace file may not stand in for one.
TRUSTED = ("gate", "pytest", "_pytest", "pluggy", "hypothesis")


def _real(path: str) -> str:
    return os.path.realpath(path)


def inside(path: str, folder: str) -> bool:
    folder = folder.rstrip(os.sep) + os.sep
    return (path + os.sep).startswith(folder)


def installed_folders() -> list[str]:
    """The folders this interpreter installs packages in (its site-packages, purelib, platlib,
    the standard library): a trusted module is found there, whatever folder holds the venv."""
    import site
    import sysconfig

    found: set[str] = set()
    for name in ("purelib", "platlib", "stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(name)
        if path:
            found.add(path)
    with contextlib.suppress(AttributeError):  # an old virtualenv's site module
        found.update(site.getsitepackages())
    user = getattr(site, "USER_SITE", None)
    if user:
        found.add(user)
    return sorted(_real(p) for p in found)


def module_file(module: object) -> str | None:
    """The file a module was loaded from (a package's ``__init__``), as its real path."""
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) or getattr(module, "__file__", None)
    if not isinstance(origin, str) or not os.path.isabs(origin):
        return None
    return _real(origin)


def foreign_modules(package: str, workspace: Sequence[str],
                    names: Iterable[str] = TRUSTED) -> list[str]:
    """Why the trusted modules already imported cannot be trusted, one line each: ``gate`` (or
    any ``gate.*``) not from ``package`` (the gate's own folder), or ``pytest``, ``_pytest``,
    ``pluggy``, ``hypothesis`` from a ``workspace`` folder and not an installed location."""
    package = _real(package)
    folders = [_real(w) for w in workspace]
    installed = installed_folders()
    problems: list[str] = []
    for name in names:
        module = sys.modules.get(name)
        if module is None:
            continue
        where = module_file(module)
        if name == "gate":
            subs = [m for n, m in list(sys.modules.items()) if n.startswith("gate.")]
            for held in [module, *subs]:
                at = module_file(held)
                if at is None or not inside(at, package):
                    shown = at or repr(held)
                    problems.append(f"{shown}: a module named {getattr(held, '__name__', '?')} "
                                    "was imported before the gate's recorder, not from the "
                                    f"gate's own package ({package}): the patch's code would "
                                    "stand in for the recorder (rename or remove it)")
                    break
            continue
        if where is None:
            problems.append(f"{name}: imported from no file ({module!r}): the run trusts "
                            f"only an installed {name}")
            continue
        if any(inside(where, f) for f in folders) and not any(
                inside(where, i) for i in installed):
            problems.append(f"{where}: the test process imported {name} from the workspace, "
                            f"not the installed {name}: a file the patch can write would stand "
                            f"in for {name} (rename or remove it)")
    return problems


def shadowing_files(folders: Iterable[str], package: str | None = None) -> list[str]:
    """The files in ``folders`` that Python would import as one of :data:`TRUSTED` (a module,
    or a package's ``__init__``, with any suffix Python imports), real paths; the gate's own
    ``package`` folder is not one."""
    from importlib.machinery import all_suffixes

    own = _real(package) if package else None
    found: list[str] = []
    for folder in dict.fromkeys(_real(f) for f in folders if f):
        if not os.path.isdir(folder):
            continue
        for name in TRUSTED:
            candidates = [os.path.join(folder, name + s) for s in all_suffixes()]
            candidates += [os.path.join(folder, name, "__init__" + s) for s in all_suffixes()]
            for path in candidates:
                if not os.path.isfile(path):
                    continue
                if own is not None and inside(_real(path), own):
                    continue
                found.append(path)
    return found


# --- the objects pytest and Hypothesis report through -------------------------------------------
#
# Each watched object is found by its attribute path from its module (a class attribute through
# the class's MRO, as an instance would see it: a subclass's shadow is found too), and must be
# the function whose code the installed file compiles to under ``qualname``. When the recorder
# loads, the references are taken and their code compared with the installed files' (a plugin
# named by the configuration's addopts loads before the recorder, so the first reference may
# already be a forgery; ``co_filename`` and ``__qualname__`` can be forged, the code cannot
# while it does something else); at every report and at the session's end each reference must
# still be the one found then, with the same code object.

#: (module, attribute path, the qualified name its code has in the installed file).
WATCHED = (
    ("_pytest.reports", "TestReport.from_item_and_call", "TestReport.from_item_and_call"),
    ("_pytest.reports", "TestReport.passed", "BaseReport.passed"),
    ("_pytest.reports", "TestReport.failed", "BaseReport.failed"),
    ("_pytest.reports", "TestReport.skipped", "BaseReport.skipped"),
    ("_pytest.runner", "pytest_runtest_protocol", "pytest_runtest_protocol"),
    ("_pytest.runner", "runtestprotocol", "runtestprotocol"),
    ("_pytest.runner", "call_and_report", "call_and_report"),
    ("_pytest.runner", "pytest_runtest_call", "pytest_runtest_call"),
    ("_pytest.runner", "pytest_runtest_makereport", "pytest_runtest_makereport"),
    ("_pytest.runner", "CallInfo.from_call", "CallInfo.from_call"),
    ("_pytest.python", "Function.runtest", "Function.runtest"),
    ("_pytest.python", "pytest_pyfunc_call", "pytest_pyfunc_call"),
    ("_pytest.skipping", "pytest_runtest_makereport", "pytest_runtest_makereport"),
    ("_pytest.unittest", "TestCaseFunction.runtest", "TestCaseFunction.runtest"),
    ("_pytest.unittest", "pytest_runtest_makereport", "pytest_runtest_makereport"),
    ("pluggy._callers", "_multicall", "_multicall"),
    ("pluggy._hooks", "HookCaller.__call__", "HookCaller.__call__"),
    ("hypothesis.core", "get_random_for_wrapped_test", "get_random_for_wrapped_test"),
    ("hypothesis.core", "StateForActualGivenExecution.run_engine",
     "StateForActualGivenExecution.run_engine"),
    ("hypothesis.internal.conjecture.engine", "ConjectureRunner.__init__",
     "ConjectureRunner.__init__"),
    ("hypothesis.internal.conjecture.engine", "ConjectureRunner.run", "ConjectureRunner.run"),
    ("hypothesis.statistics", "note_statistics", "note_statistics"),
)
#: Names one module binds to another's object: (module, name, owner module, owner's name).
BOUND = (
    ("_pytest.runner", "TestReport", "_pytest.reports", "TestReport"),
    ("hypothesis.core", "ConjectureRunner", "hypothesis.internal.conjecture.engine",
     "ConjectureRunner"),
    ("hypothesis.core", "note_statistics", "hypothesis.statistics", "note_statistics"),
)
#: Module-level objects whose identity must hold (read by the recorder or the engine).
HELD = (("hypothesis.statistics", "collector"),)
#: The hooks a test's outcome passes through: pytest's own implementations must stay its own.
HOOKS = ("pytest_runtest_protocol", "pytest_runtest_call", "pytest_runtest_makereport",
         "pytest_pyfunc_call")


def _function(owner: Any, name: str) -> Any:
    """The function behind ``owner.name`` as an instance sees it (a class's MRO, no
    descriptor run: ``inspect.getattr_static``'s answer for a module or a class, cheaper)."""
    if isinstance(owner, type):
        for klass in type.__dict__["__mro__"].__get__(owner):  # not a metaclass's own
            found = vars(klass)
            if name in found:
                raw = found[name]
                break
        else:
            raise AttributeError(name)
    else:
        raw = vars(owner).get(name, _ABSENT)
    if isinstance(raw, (classmethod, staticmethod)):
        return raw.__func__
    if isinstance(raw, property):
        return raw.fget
    return raw


def _resolve(module: str, path: str) -> Any:
    held = sys.modules.get(module)
    if held is None:
        return _ABSENT
    owner: Any = held
    parts = path.split(".")
    try:
        for part in parts[:-1]:
            owner = getattr(owner, part)
        return _function(owner, parts[-1])
    except AttributeError:
        return _ABSENT


_ABSENT = object()


def _codes(code: Any, table: dict[str, list[Any]]) -> None:
    table.setdefault(code.co_qualname, []).append(code)
    for const in code.co_consts:
        if hasattr(const, "co_qualname"):
            _codes(const, table)


def installed_code(module: Any) -> dict[str, list[Any]]:
    """Every code object the module's installed file compiles to, by qualified name: as
    pytest's assertion rewriter compiled it when the module was loaded through it (Hypothesis,
    as a plugin's distribution), else as Python compiles the source. Read from the bytecode
    cache beside the file when its header names the file's current size and time (as the
    import system reads it), else compiled from the file."""
    from pathlib import Path

    origin = module_file(module)
    if origin is None or not origin.endswith(".py"):
        return {}
    loader = getattr(module, "__loader__", None)
    config = getattr(loader, "config", None)
    code: Any = None
    if type(loader).__name__ == "AssertionRewritingHook" and config is not None:
        from _pytest.assertion import rewrite

        source = Path(origin)
        pyc = source.parent / "__pycache__" / (source.name[:-3] + rewrite.PYC_TAIL)
        code = rewrite._read_pyc(source, pyc)
        if code is None:
            code = rewrite._rewrite_test(source, config)[1]
    else:
        code = _cached(origin)
        if code is None:
            with open(origin, "rb") as handle:
                code = compile(handle.read(), origin, "exec", dont_inherit=True)
    table: dict[str, list[Any]] = {}
    _codes(code, table)
    return table


def _cached(origin: str) -> Any:
    """The code in ``origin``'s bytecode cache when its header matches the file (timestamp
    form: magic, flags 0, mtime, size), else None."""
    import importlib.util
    import marshal

    try:
        pyc = importlib.util.cache_from_source(origin)
        with open(pyc, "rb") as handle:
            data = handle.read()
        stat = os.stat(origin)
    except (OSError, NotImplementedError, ValueError):
        return None
    if (len(data) < 16 or data[:4] != importlib.util.MAGIC_NUMBER
            or int.from_bytes(data[4:8], "little") != 0
            or int.from_bytes(data[8:12], "little") != int(stat.st_mtime) & 0xFFFFFFFF
            or int.from_bytes(data[12:16], "little") != stat.st_size & 0xFFFFFFFF):
        return None
    try:
        return marshal.loads(data[16:])  # noqa: S302 (the installed cache, as import reads it)
    except (EOFError, ValueError, TypeError):
        return None


def _where(obj: Any) -> str:
    code = getattr(obj, "__code__", None)
    if code is None:
        return repr(obj)[:120]
    return f"{code.co_filename}:{code.co_firstlineno}"


@dataclass
class Integrity:
    """The references taken when the recorder loaded (:func:`taken`), and what they found."""

    refs: dict[tuple[str, str], tuple[Any, Any]] = field(default_factory=dict)
    held: dict[tuple[str, str], Any] = field(default_factory=dict)
    #: What was wrong when the references were taken: the run cannot pass.
    found: list[str] = field(default_factory=list)

    def take(self) -> None:
        """Take every reference and compare its code with the installed file's."""
        if self.refs:
            return
        tables: dict[str, dict[str, list[Any]]] = {}
        for module, path, qualname in WATCHED:
            obj = _resolve(module, path)
            if obj is _ABSENT:
                continue  # not loaded (or not in this version): nothing reports through it
            code = getattr(obj, "__code__", None)
            self.refs[(module, path)] = (obj, code)
            homes = [module]
            home = getattr(obj, "__module__", None)  # where the code may live (checked by code)
            if (isinstance(home, str) and home != module
                    and home.split(".")[0] == module.split(".")[0] and home in sys.modules):
                homes.append(home)
            originals: list[Any] = []
            for where in homes:
                if where not in tables:
                    try:
                        tables[where] = installed_code(sys.modules[where])
                    except (OSError, SyntaxError, ValueError, ImportError) as exc:
                        self.found.append(f"{where}: its installed file cannot be read to "
                                          f"check {path} ({type(exc).__name__})")
                        tables[where] = {}
                originals += tables[where].get(qualname, []) or tables[where].get(
                    getattr(code, "co_qualname", ""), []) if where != module else tables[
                    where].get(qualname, [])
            if code is None or not any(code == c for c in originals):
                self.found.append(f"{module}.{path} is not the installed {module}'s own "
                                  f"(its code is {_where(obj)}'s): replaced before the "
                                  "gate's recorder loaded")
        for module, name in HELD:
            held = sys.modules.get(module)
            if held is not None and hasattr(held, name):
                self.held[(module, name)] = getattr(held, name)

    def check(self, config: Any = None) -> list[str]:
        """What was replaced since the references were taken, one line each (empty: none)."""
        found: list[str] = []
        for (module, path), (obj, code) in self.refs.items():
            now = _resolve(module, path)
            if now is not obj or getattr(now, "__code__", None) is not code:
                found.append(f"{module}.{path} was replaced during the run (now "
                             f"{_where(now) if now is not _ABSENT else 'gone'})")
        for module, name, owner, owner_name in BOUND:
            held, source = sys.modules.get(module), sys.modules.get(owner)
            if held is None or source is None:
                continue
            if getattr(held, name, None) is not getattr(source, owner_name, None):
                found.append(f"{module}.{name} is not {owner}.{owner_name} (now "
                             f"{_where(getattr(held, name, None))})")
        for (module, name), obj in self.held.items():
            held = sys.modules.get(module)
            if held is None or getattr(held, name, None) is not obj:
                found.append(f"{module}.{name} was replaced during the run")
        if config is not None:
            found += self._hooks(config)
        return found

    def _hooks(self, config: Any) -> list[str]:
        """pytest's own implementations of :data:`HOOKS` still call its own functions."""
        found: list[str] = []
        for hook in HOOKS:
            caller = getattr(config.hook, hook, None)
            if caller is None:
                continue
            for impl in caller.get_hookimpls():
                plugin = impl.plugin
                name = getattr(plugin, "__name__", "")
                if not isinstance(name, str) or not name.startswith("_pytest."):
                    continue
                ref = self.refs.get((name, hook))
                expected = ref[0] if ref is not None else getattr(plugin, hook, None)
                if impl.function is not expected:
                    found.append(f"pytest's {name}.{hook} implementation was replaced "
                                 f"(now {_where(impl.function)})")
        return found


def bounded_line(text: str, limit: int = 1000) -> str:
    """One printable line of at most ``limit`` characters (a finding in a record)."""
    flat = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


#: The process's one set of references (taken when the loader imports the recorder).
WATCH = Integrity()
