"""Cut a release: ``python scripts/release.py`` on a clean main whose ``gate/__init__.py`` holds the
new version and whose CHANGELOG.md has its section.

1. tags HEAD ``vX.Y.Z`` (annotated) and moves the major tag ``vX`` to it;
2. pins that commit in every ``uses:`` line of this action (and of its reusable workflow,
   ``agent-patch-gate/gate/.github/workflows/gate.yml@<sha>``) in the README, the docs pages,
   the example workflows and the reusable workflow itself
   (``uses: agent-patch-gate/gate@<sha> # vX.Y.Z``: the reusable workflow at a release runs
   the action of the release's code), in the offline act mapping (docs/workflow.md), and names
   the tag in the install lines
   (``@vX.Y.Z``), and commits that as "release: pin vX.Y.Z"; push main and both tags.

A workflow names the release by its commit (a tag can be moved; a commit cannot), with the tag
as the comment; tests/test_release.py checks that every such line names one commit, an ancestor
of HEAD whose ``gate/__init__.py`` holds the version the comment names, listed in CHANGELOG.md.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLUG = "agent-patch-gate/gate"
#: The files whose ``uses:`` lines name this action by commit, or that map it for act or name
#: the release in an install line (tests/test_release.py checks none is missing).
PINNED = ("README.md", "docs/adopt.md", "docs/forks.md", "docs/gates.md", "docs/signing.md",
          "docs/workflow.md", "examples/workflows/python.yml",
          "examples/workflows/python-signed.yml", "examples/workflows/reusable-caller.yml",
          ".github/workflows/gate.yml")
#: A ``uses:`` of the action, or of its reusable workflow (``…/.github/workflows/gate.yml``).
USES = re.compile(r"(uses: )(?:your-org/agent-patch-gate|agent-patch-gate/gate)"
                  r"(/\.github/workflows/gate\.yml)?@[0-9a-f]{40}( # )v[^\n]*")
MAPPED = re.compile(r"(--local-repository )(?:your-org/agent-patch-gate|agent-patch-gate/gate)"
                    r"@[0-9a-f]{40}=")
INSTALL = re.compile(r'("agent-patch-gate @ git\+https://github\.com/)[^"@]+@[^"]+(")')
VERSION = re.compile(r'^__version__ = "([0-9]+\.[0-9]+\.[0-9]+)"$', re.M)


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def version() -> str:
    found = VERSION.search((ROOT / "gate" / "__init__.py").read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit("release: gate/__init__.py: no __version__ = \"X.Y.Z\" line")
    return found.group(1)


def pin(text: str, sha: str, tag: str) -> str:
    """Every ``uses:`` line of this action and the install line, naming ``sha`` and ``tag``."""
    text = USES.sub(lambda m: f"{m.group(1)}{SLUG}{m.group(2) or ''}@{sha}{m.group(3)}{tag}",
                    text)
    text = MAPPED.sub(lambda m: f"{m.group(1)}{SLUG}@{sha}=", text)
    return INSTALL.sub(lambda m: f"{m.group(1)}{SLUG}@{tag}{m.group(2)}", text)


def main() -> int:
    tag = f"v{version()}"
    if f"## {tag[1:]}" not in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"):
        raise SystemExit(f"release: CHANGELOG.md: no '## {tag[1:]}' section; write it first")
    if git("status", "--porcelain"):
        raise SystemExit("release: the work tree is not clean; commit first")
    sha = git("rev-parse", "HEAD")
    git("tag", "-a", tag, "-m", f"agent-patch gate {tag}", sha)
    git("tag", "-f", "-a", tag.split(".")[0], "-m", f"agent-patch gate {tag} (moving)", sha)
    for name in PINNED:
        path = ROOT / name
        path.write_text(pin(path.read_text(encoding="utf-8"), sha, tag), encoding="utf-8")
    git("commit", "-q", "-am", f"release: pin {tag} ({sha[:12]}) in the README, the docs and "
        "the example workflows")
    print(f"release: tagged {tag} and {tag.split('.')[0]} at {sha}; pinned it in "
          f"{', '.join(PINNED)}; now push main and the tags")
    return 0


if __name__ == "__main__":
    sys.exit(main())
