"""Hardening suite (issue 5): fuzzing, crash safety, concurrency, injection, GitHub faults,
supply chain. Every module reports its figures through :mod:`tests.hardening.figures`."""
