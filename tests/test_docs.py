"""The docs site (issue 28): the README is the front page and docs/ holds the rest, built by
Sphinx with MyST-Parser strictly in CI (.ci/run: ``sphinx-build -W``, which fails on a link to
a page or heading that does not exist). What that build cannot see is checked here: links to
files of the repository (GitHub URLs: the site holds only docs/), and the README's first
workflow being the reusable-workflow caller that tests/test_reusable_workflow.py runs."""

from __future__ import annotations

import re

from tests import manual

ROOT = manual.ROOT
REPO_FILE = re.compile(r"\]\(https://github\.com/agent-patch-gate/gate/(?:blob|tree)/main/([^)#\s]+)")


def test_every_link_to_a_file_of_the_repository_names_one_that_exists() -> None:
    missing = []
    for page in manual.pages():
        for path in REPO_FILE.findall(page.read_text(encoding="utf-8")):
            if not (ROOT / path).exists():
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert missing == []


def test_the_readmes_first_workflow_is_the_reusable_caller() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```yaml\n(.*?)```\n", readme, re.DOTALL)
    assert first
    caller = (ROOT / "examples" / "workflows" / "reusable-caller.yml").read_text(encoding="utf-8")
    assert first.group(1) == caller


def test_every_docs_page_is_in_the_navigation() -> None:
    """Sphinx warns about a page no toctree names (-W fails the build); the README, included
    as the site's front page, links into the docs with paths GitHub resolves too."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    named = set(re.findall(r"^([\w-]+)$", index, re.MULTILINE))
    pages = {p.stem for p in (ROOT / "docs").glob("*.md")} - {"index"}
    assert pages <= named
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(docs/([\w/-]+\.md)", readme):
        assert (ROOT / "docs" / target).is_file(), target


def test_the_readmes_images_exist_and_stay_small() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\((docs/images/[\w.-]+\.png)\)", readme)
    assert images
    for image in images:
        assert (ROOT / image).stat().st_size < 300_000, image
