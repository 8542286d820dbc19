"""The club's time zone (DJANGO_TIME_ZONE, settings.TIME_ZONE): a session is dated by
the club's calendar, and the times a page or an export shows are the club's clock.
Half past midnight in India is 19:00 UTC the day before: the moment these tests stop
the clock at."""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterator
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import GameSession, RoundChange
from tests.support.builders import make_session, play, session_form_data
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db

# 00:30 on 29 November in Kolkata (UTC+5:30): still 28 November in UTC.
MIDNIGHT_IN_INDIA = datetime.datetime(2026, 11, 28, 19, 0, tzinfo=datetime.UTC)
INDIAN_DAY = datetime.date(2026, 11, 29)


@pytest.fixture
def kolkata(settings) -> Iterator[None]:
    settings.TIME_ZONE = "Asia/Kolkata"
    with mock.patch("django.utils.timezone.now", return_value=MIDNIGHT_IN_INDIA):
        yield


def test_a_session_started_after_midnight_in_india_is_dated_that_indian_day(
    kolkata: None, user: User
) -> None:
    session = make_session(user)

    assert session.played_on == INDIAN_DAY
    session.refresh_from_db()
    assert session.played_on == INDIAN_DAY  # not 28 November, UTC's day


def test_the_new_session_form_offers_the_clubs_day(kolkata: None, scorer: Client) -> None:
    page = scorer.get(reverse("games:session_new")).content.decode()

    assert 'value="2026-11-29"' in page
    assert 'value="2026-11-28"' not in page


def test_the_session_started_through_the_form_is_dated_the_clubs_day(
    kolkata: None, scorer: Client
) -> None:
    page = scorer.get(reverse("games:session_new")).content.decode()
    shown_day = "2026-11-29" if 'value="2026-11-29"' in page else ""
    data = session_form_data(seat_1="Asha", seat_2="Ben", played_on=shown_day)

    response = scorer.post(reverse("games:session_new"), data)

    assert response.status_code == 302
    assert GameSession.objects.get().played_on == INDIAN_DAY


def test_history_and_the_rounds_export_show_the_clubs_clock(
    settings, scorer: Client, user: User
) -> None:
    settings.TIME_ZONE = "Asia/Kolkata"
    session = make_session(user)
    played = play(session, "8S", ROUND_1)
    RoundChange.objects.filter(round=played).update(changed_at=MIDNIGHT_IN_INDIA)

    history = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()
    exported = scorer.get(reverse("games:session_rounds_csv", args=[session.pk]))
    rows = list(csv.DictReader(io.StringIO(exported.content.decode("utf-8-sig"))))

    assert "29 Nov 2026, 00:30:00" in history
    assert "28 Nov 2026, 19:00" not in history  # UTC's clock
    assert rows[0]["Entered at"] == "2026-11-29 00:30:00"


def test_without_a_zone_the_site_keeps_utc(user: User) -> None:
    with mock.patch("django.utils.timezone.now", return_value=MIDNIGHT_IN_INDIA):
        assert timezone.get_current_timezone_name() == "UTC"
        assert make_session(user).played_on == datetime.date(2026, 11, 28)
