"""Moved to :mod:`gate.testrun.pytest_plugin`; ``gate.pytest_plugin`` stays importable as the very
same module."""

import sys

from gate.testrun import pytest_plugin as _moved

sys.modules[__name__] = _moved
