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
