"""The docs site (issue 28): Sphinx with MyST-Parser, built strictly in CI (.ci/run):
``sphinx-build -W --keep-going -b html docs docs/_build/html``."""

project = "agent-patch gate"
author = "agent-patch gate contributors"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
# Every heading gets a GitHub-style anchor, so a link `page.md#heading` works on GitHub and here;
# a link to an anchor or page that does not exist is a warning, and -W makes it an error.
myst_heading_anchors = 6
html_theme = "alabaster"
html_title = "agent-patch gate"
html_theme_options = {"page_width": "1100px", "sidebar_width": "260px"}
