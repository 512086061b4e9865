"""Times for people: UTC dates and "in 12 days" / "expired 3 days ago". Pure: the clock is an
argument (``now``, Unix seconds), never read here. The Unix value stays in the JSON report."""

from __future__ import annotations

import datetime as _dt

DAY = 86_400
SOON_DAYS = 7  # a freeze expiring within this many days is flagged


def utc_date(ts: int) -> str:
    """``2026-12-13 14:05 UTC`` (``00:00`` kept: a date alone hides which side of midnight)."""
    try:
        moment = _dt.datetime.fromtimestamp(int(ts), tz=_dt.UTC)
    except (OverflowError, OSError, ValueError):
        return f"{ts} (Unix seconds)"
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _days(seconds: int) -> str:
    days = seconds // DAY
    if days >= 1:
        return f"{days} day{'s' if days != 1 else ''}"
    hours = seconds // 3600
    if hours >= 1:
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = max(1, seconds // 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def relative(ts: int, now: int, past: str = "expired") -> str:
    """``in 12 days`` for a future ``ts``; ``expired 3 days ago`` (``past``) for a past one."""
    if ts > now:
        return f"in {_days(ts - now)}"
    if ts == now:
        return f"{past} just now"
    return f"{past} {_days(now - ts)} ago"


def expiry(ts: int, now: int) -> str:
    """``2026-12-13 00:00 UTC, in 12 days`` (a comma, not brackets: it is often shown inside
    brackets already)."""
    return f"{utc_date(ts)}, {relative(ts, now)}"


def days_left(ts: int, now: int) -> int:
    """Whole days until ``ts`` (negative once passed)."""
    return (ts - now) // DAY


def soon(ts: int, now: int, days: int = SOON_DAYS) -> bool:
    """Still in force but expiring within ``days`` days."""
    return now < ts <= now + days * DAY
