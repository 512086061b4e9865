"""Benchmarks of agent-patch gate against side-by-side baselines: ``python -m bench``.

Benchmarks print figures; tests never assert on time. See bench/RESULTS.md.
"""
