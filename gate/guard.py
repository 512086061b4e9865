"""Moved to :mod:`gate.agent.guard`; ``gate.guard`` stays importable as the very same module."""

import sys

from gate.agent import guard as _moved

sys.modules[__name__] = _moved
