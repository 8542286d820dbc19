"""The one rule for the day a session was played on: the session form, the admin (the
model field's validator) and the league import all hold a day to it, so that a
league's export imports back whatever it holds.

From 1 January 1970 (the earliest time a league file may give, and years before any
club kept its scores here) to a year after the club's today (an evening planned ahead,
not a typo such as 2062 for 2026). Before, a session took any day, 1900-01-01 and
9999-12-31 among them, and its league's own export was then refused by the import.
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext

from games import figures

EARLIEST_PLAYED_ON = datetime.date(1970, 1, 1)


def latest_played_on(today: datetime.date | None = None) -> datetime.date:
    """The last day a session may be played on: a year after ``today`` (the club's
    today, in its time zone, if not given); from 29 February, 28 February."""
    today = today or timezone.localdate()
    try:
        return today.replace(year=today.year + 1)
    except ValueError:
        return today.replace(year=today.year + 1, day=28)


def validate_played_on(day: datetime.date | None) -> None:
    """Raise ValidationError for a day outside the range a session may be played on."""
    if day is None:
        return
    latest = latest_played_on()
    if not EARLIEST_PLAYED_ON <= day <= latest:
        raise ValidationError(
            gettext("Pick a day from %(earliest)s to %(latest)s (a year from today)."),
            code="played_on_range",
            params={"earliest": figures.day(EARLIEST_PLAYED_ON), "latest": figures.day(latest)},
        )
