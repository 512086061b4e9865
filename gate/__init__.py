"""agent-patch gate: CI gates for agent-drafted patches."""

__version__ = "0.3.0"
