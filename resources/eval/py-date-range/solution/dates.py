"""Date range helpers for a booking calendar."""

from datetime import timedelta


def date_range(start, end):
    """Every date from start to end, both included; empty when end is before start."""
    days = (end - start).days
    return [start + timedelta(days=offset) for offset in range(days + 1)]


def workdays(start, end):
    """How many dates from start to end (both included) fall on Monday to Friday."""
    return sum(1 for day in date_range(start, end) if day.weekday() < 5)
