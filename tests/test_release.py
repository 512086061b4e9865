"""Issue 22: a release to pin. Every ``uses:`` line of this action in the README and the example
workflows names one commit, with its version tag as the comment; that commit is an ancestor of
HEAD whose ``gate/__init__.py`` holds that version, CHANGELOG.md has the version's section, and
the README's install line names the tag (scripts/release.py writes all of this)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from tests import manual

ROOT = Path(__file__).resolve().parent.parent


def release_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release", ROOT / "scripts" / "release.py")
    assert spec and spec.loader
    release = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(release)
    return release


PINNED = release_script().PINNED
OURS = re.compile(r"uses: (agent-patch-gate/gate)(?:/\.github/workflows/gate\.yml)?@([0-9a-f]{40})"
                  r" # (v\d+\.\d+\.\d+)$", re.M)
ANY_GATE_USES = re.compile(r"^\s*(?:- )?uses: [\w.-]+/(?:agent-patch-gate|gate)"
                           r"(?:/\.github/workflows/[\w.-]+)?@\S+.*$", re.M)


INSTALL = re.compile(r'"agent-patch-gate @ git\+https://github\.com/[^"]+"')
MAPPED = re.compile(r"--local-repository [\w.-]+/(?:agent-patch-gate|gate)@")


def _pins() -> set[tuple[str, str, str]]:
    found: set[tuple[str, str, str]] = set()
    for name in PINNED:
        text = (ROOT / name).read_text(encoding="utf-8")
        lines = ANY_GATE_USES.findall(text)
        assert lines or INSTALL.search(text) or MAPPED.search(text), f"{name} pins nothing"
        for line in lines:
            match = OURS.search(line)
            assert match, f"{name}: {line!r} does not pin a release (run scripts/release.py)"
            found.add(match.groups())
    return found


def test_every_uses_line_names_one_release_commit() -> None:
    (pin,) = _pins()
    _, _, tag = pin
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {tag[1:]}\n" in changelog
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f'"agent-patch-gate @ git+https://github.com/agent-patch-gate/gate@{tag}"' in readme
    for name in PINNED:  # every install line names the release the uses: lines pin
        for line in INSTALL.findall((ROOT / name).read_text(encoding="utf-8")):
            assert line == f'"agent-patch-gate @ git+https://github.com/agent-patch-gate/gate@{tag}"'


def test_the_pinned_commit_is_the_release() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an sdist): the commit cannot be looked up")
    ((_, sha, tag),) = _pins()

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              check=False)

    if git("cat-file", "-e", f"{sha}^{{commit}}").returncode != 0:
        pytest.skip("a shallow clone without the release commit")
    assert git("merge-base", "--is-ancestor", sha, "HEAD").returncode == 0
    version = git("show", f"{sha}:gate/__init__.py").stdout
    assert f'__version__ = "{tag[1:]}"' in version


def test_the_release_script_pins_every_file_that_names_the_action() -> None:
    """A workflow, act mapping or install line of the action in a file release.py does not
    rewrite would keep naming the old release: every such file of the repository is PINNED."""
    files = [*manual.pages(), *sorted((ROOT / "examples").glob("**/*.yml")),
             *sorted((ROOT / ".github" / "workflows").glob("*.yml"))]
    naming = {str(path.relative_to(ROOT)) for path in files
              if any(p.search(path.read_text(encoding="utf-8"))
                     for p in (ANY_GATE_USES, INSTALL, MAPPED))}
    assert naming == set(PINNED)


def test_the_release_script_pins_uses_and_install_lines() -> None:
    release = release_script()
    text = ('python -m pip install "agent-patch-gate @ git+https://github.com/<owner>/<repo>@v1"\n'
            "      - uses: your-org/agent-patch-gate@" + "0" * 40 + " # v1: pin it\n"
            "        uses: agent-patch-gate/gate@" + "1" * 40 + " # v0.1.0\n"
            "      - uses: actions/checkout@" + "2" * 40 + " # v4.2.2\n"
            "    uses: agent-patch-gate/gate/.github/workflows/gate.yml@" + "1" * 40 + " # v0.1.0\n"
            "  --local-repository your-org/agent-patch-gate@" + "0" * 40 + "=$HOME/x \\\n")
    out = release.pin(text, "a" * 40, "v0.2.0")
    assert out.count("uses: agent-patch-gate/gate@" + "a" * 40 + " # v0.2.0") == 2
    assert "actions/checkout@" + "2" * 40 + " # v4.2.2" in out
    assert ("uses: agent-patch-gate/gate/.github/workflows/gate.yml@" + "a" * 40 + " # v0.2.0"
            in out)
    assert "--local-repository agent-patch-gate/gate@" + "a" * 40 + "=$HOME/x" in out
    assert '"agent-patch-gate @ git+https://github.com/agent-patch-gate/gate@v0.2.0"' in out
