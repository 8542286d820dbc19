"""The club's time zone (DJANGO_TIME_ZONE, settings.TIME_ZONE): a session is dated by
the club's calendar, and the times a page or an export shows are the club's clock.
Half past midnight in India is 19:00 UTC the day before: the moment these tests stop
the clock at."""

from __future__ import annotations

import csv
import datetime
import io
import zoneinfo
from collections.abc import Iterator
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import GameSession, League, RoundChange
from games.services.leagues import create_invite, create_league
from games.services.sessions import rematch
from games.zones import zone_words
from tests.support.builders import finished_session, make_session, play, session_form_data
from tests.support.hands import ROUND_1
from tests.support.league_files import read_csv, read_xlsx

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
    assert rows[0]["Entered at (Asia/Kolkata)"] == "2026-11-29 00:30:00"


def test_without_a_zone_the_site_keeps_utc(user: User) -> None:
    with mock.patch("django.utils.timezone.now", return_value=MIDNIGHT_IN_INDIA):
        assert timezone.get_current_timezone_name() == "UTC"
        assert make_session(user).played_on == datetime.date(2026, 11, 28)


# --- A league's own clock (games/zones.py) ------------------------------------------------

# 20:30 UTC on 28 November is 02:00 on 29 November in Kolkata.
EVENING_UTC = datetime.datetime(2026, 11, 28, 20, 30, tzinfo=datetime.UTC)


@pytest.fixture
def kolkata_club(user: User) -> League:
    """A league in India on a site left at UTC: the clubs' case the league's zone is for."""
    return create_league(
        user, name="Chennai", preset="21-points", overrides={}, time_zone="Asia/Kolkata"
    )


def saved_at(session: GameSession, moment: datetime.datetime) -> RoundChange:
    played = play(session, "8S", ROUND_1)
    RoundChange.objects.filter(round=played).update(changed_at=moment)
    return RoundChange.objects.get(round=played)


def test_a_leagues_history_reads_on_its_own_clock(
    scorer: Client, user: User, kolkata_club: League
) -> None:
    session = make_session(user, league=kolkata_club)
    change = saved_at(session, EVENING_UTC)

    for url in (
        reverse("games:session_history", args=[session.pk]),
        reverse("games:round_history", args=[session.pk, change.round_id]),
    ):
        page = scorer.get(url).content.decode()
        assert "29 Nov 2026, 02:00:00" in page
        assert "28 Nov 2026, 20:30" not in page  # the site's clock, UTC
        assert 'datetime="2026-11-29T02:00:00+05:30"' in page
        assert page.count('Times are in <span data-zone="Asia/Kolkata">Kolkata time</span>.') == 1


def test_a_session_without_a_league_reads_on_the_sites_clock(
    settings, scorer: Client, user: User, kolkata_club: League
) -> None:
    settings.TIME_ZONE = "Europe/London"
    session = make_session(user)
    saved_at(session, EVENING_UTC)

    page = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()

    assert "28 Nov 2026, 20:30:00" in page  # London is on UTC in November
    assert 'Times are in <span data-zone="Europe/London">London time</span>.' in page


def test_a_league_that_picked_no_zone_follows_the_sites_as_it_changes(
    settings, scorer: Client, user: User
) -> None:
    league = create_league(user, name="Club", preset="21-points", overrides={})
    session = make_session(user, league=league)
    saved_at(session, EVENING_UTC)
    url = reverse("games:session_history", args=[session.pk])

    assert "28 Nov 2026, 20:30:00" in scorer.get(url).content.decode()
    settings.TIME_ZONE = "Asia/Kolkata"  # set after the club's first night
    assert "29 Nov 2026, 02:00:00" in scorer.get(url).content.decode()


def test_the_round_downloads_read_on_the_leagues_clock(
    scorer: Client, user: User, kolkata_club: League
) -> None:
    session = make_session(user, league=kolkata_club)
    saved_at(session, EVENING_UTC)

    exported = scorer.get(reverse("games:session_rounds_csv", args=[session.pk]))
    header, row = read_csv(exported.content)
    sheet = read_xlsx(
        scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk])).content, "Rounds"
    )

    assert header[4] == "Entered at (Asia/Kolkata)"
    assert header[7] == "Last edited at (Asia/Kolkata)"
    assert row[4] == "2026-11-29 02:00:00"
    assert sheet["E1"].value == "Entered at (Asia/Kolkata)"
    assert sheet["E2"].value == datetime.datetime(2026, 11, 29, 2, 0)


def test_a_leagues_session_is_dated_by_the_leagues_day(user: User, kolkata_club: League) -> None:
    with mock.patch("django.utils.timezone.now", return_value=EVENING_UTC):
        in_league = make_session(user, league=kolkata_club)
        alone = make_session(user)

    assert in_league.played_on == datetime.date(2026, 11, 29)
    assert alone.played_on == datetime.date(2026, 11, 28)  # the site's day: UTC


def test_a_rematch_is_dated_by_the_leagues_day(user: User, kolkata_club: League) -> None:
    first = finished_session(user, league=kolkata_club)
    with mock.patch("django.utils.timezone.now", return_value=EVENING_UTC):
        again, _started = rematch(first, user)

    assert again.played_on == datetime.date(2026, 11, 29)


def test_the_new_session_form_offers_the_day_of_the_users_club(
    scorer: Client, kolkata_club: League
) -> None:
    url = reverse("games:session_new")
    with mock.patch("django.utils.timezone.now", return_value=EVENING_UTC):
        unpicked = scorer.get(url).content.decode()  # their one league's clock
        picked = scorer.get(url, {"league": kolkata_club.pk}).content.decode()

    for page in (unpicked, picked):
        assert 'value="2026-11-29"' in page and 'value="2026-11-28"' not in page


def test_the_league_page_and_invite_link_read_on_the_leagues_clock(
    scorer: Client, client: Client, user: User, kolkata_club: League
) -> None:
    # Made on an evening still to come, so the day-long link works whenever this runs.
    evening_to_come = EVENING_UTC.replace(year=2099)
    with mock.patch("django.utils.timezone.now", return_value=evening_to_come):
        invite = create_invite(kolkata_club, user, role="viewer", days=1)

    league_page = scorer.get(reverse("games:league_detail", args=[kolkata_club.slug]))
    client.force_login(User.objects.create_user("ben", password="x"))
    invite_page = client.get(reverse("games:invite", args=[invite.token]))

    assert "works until 30 Nov 2099, 02:00" in league_page.content.decode()
    assert "Times are in Kolkata time." in league_page.content.decode()
    assert "works until 30 Nov 2099, 02:00 (Asia/Kolkata time)" in invite_page.content.decode()


def test_a_league_refuses_a_zone_that_is_not_one(kolkata_club: League) -> None:
    kolkata_club.time_zone = "Asia/Bangalore"

    with pytest.raises(ValidationError) as refused:
        kolkata_club.full_clean()

    assert refused.value.message_dict["time_zone"] == [
        "“Asia/Bangalore” is not a time zone. Pick one from the list, "
        "such as Asia/Kolkata or Europe/London."
    ]


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("UTC", "UTC"),
        ("Asia/Kolkata", "Kolkata time"),
        ("America/Argentina/Buenos_Aires", "Buenos Aires time"),
        ("US/Eastern", "US/Eastern time"),
    ],
)
def test_a_clock_is_named_as_a_sentence_names_it(key: str, words: str) -> None:
    # "Times are in UTC time." said time twice; a zone's raw name read as code.
    assert zone_words(zoneinfo.ZoneInfo(key)) == words
