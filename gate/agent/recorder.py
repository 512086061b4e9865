"""Moved to :mod:`gate.testrun.recorder`; ``-p gate.agent.recorder`` (in a tox ``commands`` line or
a ``PYTEST_ADDOPTS`` a user wrote) stays loadable as the very same module."""

import sys

from gate.testrun import recorder as _moved

sys.modules[__name__] = _moved
