"""The days a session may be played on (games/days.py): one rule for the session form,
the admin and the league import."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.days import EARLIEST_PLAYED_ON, latest_played_on, validate_played_on


def test_the_last_day_is_a_year_after_today_and_after_a_leap_day_the_28th() -> None:
    assert latest_played_on(datetime.date(2026, 11, 29)) == datetime.date(2027, 11, 29)
    assert latest_played_on(datetime.date(2028, 2, 29)) == datetime.date(2029, 2, 28)


def test_a_day_from_1970_to_a_year_from_today_is_taken_and_no_other() -> None:
    latest = latest_played_on()
    for day in (EARLIEST_PLAYED_ON, timezone.localdate(), latest):
        validate_played_on(day)
    for day in (datetime.date(1900, 1, 1), latest + datetime.timedelta(days=1)):
        with pytest.raises(ValidationError, match=r"Pick a day from 1 Jan 1970 to"):
            validate_played_on(day)
