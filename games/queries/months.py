"""What a month of the league standings is (`StandingMonth`), for reading and for
writing alike: the month a day falls in, its last day, and how a group of seats sums
up to a month's figures.

The standings read months and sum the seats of part-months with these
(games/queries/standings.py); the write path stores the months with the same
(games/services/standing_months.py), so both always count a month the same way. A
query module, imported by the service, never the other way round.
"""

from __future__ import annotations

import datetime

from django.db.models import Count, Max, Min, Q, Sum


def month_of(day: datetime.date) -> datetime.date:
    return day.replace(day=1)


def month_end(month: datetime.date) -> datetime.date:
    """The last day of ``month`` (a month's first day), December 9999 included: a
    date filter may reach the calendar's end."""
    if month.month == 12:
        return month.replace(day=31)
    return month.replace(month=month.month + 1) - datetime.timedelta(days=1)


def seat_figures() -> dict:
    """A group of seats summed up as a StandingMonth holds it; seats where the player
    played no round are nobody's result and must be left out before."""
    return {
        "sessions": Count("id"),
        "sessions_won": Count("id", filter=Q(won=True)),
        "rounds": Sum("rounds_played"),
        "rounds_won": Sum("rounds_won"),
        "drops": Sum("drops"),
        "points": Sum("points"),
        "totals": Sum("total"),
        "best_high": Max("best_round"),
        "best_low": Min("best_round"),
        "worst_high": Max("worst_round"),
        "worst_low": Min("worst_round"),
    }
