"""``python -m tests.github_double``: run the double as a separate process."""

from tests.github_double.server import main

raise SystemExit(main())
