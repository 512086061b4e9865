"""Root conftest: registers the GitHub API double fixture for every test module."""

pytest_plugins = ["tests.github_double",
                  "tests.hardening.figures"]
