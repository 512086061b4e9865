"""The docs site (issue 28): the README is the front page and docs/ holds the rest, built by
Sphinx with MyST-Parser strictly in CI (.ci/run: ``sphinx-build -W``, which fails on a link to
a page or heading that does not exist). What that build cannot see is checked here: links to
files of the repository (GitHub URLs: the site holds only docs/), and the README's first
workflow being the reusable-workflow caller that tests/test_reusable_workflow.py runs."""

from __future__ import annotations

import re
from pathlib import Path

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


# --- references from code, action.yml, schemas and workflows into the manual ---------------------

#: Where the gate's own text points readers into the manual: error messages, CLI help, summaries,
#: action.yml's descriptions, schema descriptions, workflow comments, docstrings (issue 28 moved
#: the README's sections into docs/; these still named "README, Signed stamps" and the like).
REFERRING = ("gate", "action.yml", "schemas", ".github", "examples", "requirements", "scripts",
             "README.md", "docs")
#: A reference: ``docs/PAGE.md`` or ``README.md``, optionally ``#anchor`` (the form the README
#: links with; the anchor is the heading's GitHub-style slug, which the docs build gives too);
#: as a path, or at the end of this repository's GitHub URL.
REFERENCE = re.compile(r"(?:(?<=/blob/main/)|(?<![\w/.-]))(README\.md|docs/[\w-]+\.md)"
                       r"(?:#([\w-]+))?")
#: The old form, a README section named in words ("README, Signed stamps", 'README "Shell
#: tools"', "README: Adopt it ..."), which no test can follow: never again.
README_SECTION = re.compile(r"\bREADME\b(?!\.md)[,:]?\s*[\"“]?(?=[A-Z`])")
#: Another project's docs named by its own path (sigstore/fulcio's docs/oid-info.md).
FOREIGN = {"docs/oid-info.md"}


def slug(title: str) -> str:
    """The anchor of a heading, as GitHub and MyST (myst_parser.slugs.github_slugify) make it
    from the heading's text: links keep their text, code spans lose their backticks."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title).replace("`", "")
    return re.sub(r"[^\w\u4e00-\u9fff\- ]", "", text.lower().replace(" ", "-"))


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    for _, _, title in manual.headings(page.read_text(encoding="utf-8").splitlines()):
        base = slug(title)
        name, n = base, 0
        while name in found:  # a repeated heading's anchor gets -1, -2, ...
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def referring_files() -> list[Path]:
    files: list[Path] = []
    for name in REFERRING:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        files += [p for p in candidates if p.is_file() and "__pycache__" not in p.parts
                  and "_build" not in p.parts and p.suffix in (".py", ".md", ".yml", ".yaml",
                                                               ".json", ".sh", ".txt", ".in")]
    return files


def references(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2) or "") for m in REFERENCE.finditer(text)]


def test_every_reference_into_the_manual_names_a_heading_that_exists() -> None:
    wrong: list[str] = []
    seen = 0
    for path in referring_files():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        for target, anchor in references(text):
            if target in FOREIGN:
                continue
            seen += 1
            page = ROOT / target
            if not page.is_file():
                wrong.append(f"{where}: {target}: no such page")
            elif anchor and anchor not in anchors(page):
                wrong.append(f"{where}: {target}#{anchor}: no such heading")
        for m in README_SECTION.finditer(text):
            line = text[:m.start()].count("\n") + 1
            wrong.append(f"{where}:{line}: a README section named in words "
                         f"({text[m.start():m.start() + 40]!r}): name docs/PAGE.md#heading")
    assert wrong == []
    assert seen > 30  # the references are found at all


def test_the_reference_rules_see_what_they_should() -> None:
    assert slug("Sigstore mode (`signing.mode: sigstore`)") == "sigstore-mode-signingmode-sigstore"
    assert slug("Fixture hash format `gate-fixture-v1`") == "fixture-hash-format-gate-fixture-v1"
    assert "isolation-levels" in anchors(ROOT / "docs" / "threat-model.md")
    assert references("see docs/signing.md#sigstore-mode-signingmode-sigstore.") == [
        ("docs/signing.md", "sigstore-mode-signingmode-sigstore")]
    assert references("(https://github.com/agent-patch-gate/gate/blob/main/docs/gates.md#x)") == [
        ("docs/gates.md", "x")]
    assert references("sigstore/fulcio's x/docs/oid-info.md and README.md") == [("README.md", "")]
    for old in ("(README, Signed stamps)", 'README "Shell tools"', "(README: Adopt it in your",
                "README Signed stamps", "(README, ``gate stamp --pytest``)"):
        assert README_SECTION.search(old), old
    for fine in ("the README's workflow", "as in the README)", "in the README, the docs pages",
                 "README.md", "its README; [CHANGELOG"):
        assert not README_SECTION.search(fine), fine
