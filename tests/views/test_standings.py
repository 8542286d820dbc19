"""The standings page, /leagues/<slug>/standings/: for the league's members only,
filterable by dates (bad dates are a form error), each player linking to their
page, and the ratings' history as a chart."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import League, Membership, Rating
from tests.support.club import EVENINGS, FEB, JAN, build_club, pool_session, scores_of
from tests.support.svg import SVG

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def club(user: User):
    return build_club(user)


def url(league: League) -> str:
    return reverse("games:league_standings", args=[league.slug])


def cell(html: str, player: str, field: str) -> str:
    """The text of one figure of a player's row."""
    row = re.search(rf'<tr data-player="{player}">(.*?)</tr>', html, re.S)
    assert row, f"no row for {player}"
    value = re.search(rf"<td data-{field}>(.*?)</td>", row.group(1), re.S)
    return value.group(1).strip()


def names_in_order(html: str) -> list[str]:
    return re.findall(r'<tr data-player="([^"]+)">', html)


def test_a_member_sees_every_player_with_their_figures(scorer: Client, club) -> None:
    league, _ = club
    response = scorer.get(url(league))
    assert response.status_code == 200
    html = response.content.decode()
    assert names_in_order(html) == [
        r.player.name for r in Rating.objects.filter(league=league).order_by("-ordinal")
    ]
    assert cell(html, "Ben", "sessions") == "3"
    assert cell(html, "Ben", "won") == "1"
    assert cell(html, "Ben", "rounds") == "6"
    assert cell(html, "Chen", "drops") == "50%"
    ben = scores_of("Ben")
    assert cell(html, "Ben", "average") == f"{sum(ben) / len(ben):.1f}"
    assert (cell(html, "Ben", "best"), cell(html, "Ben", "worst")) == (str(min(ben)), str(max(ben)))
    rating = Rating.objects.get(league=league, player__name="Asha").ordinal
    assert cell(html, "Asha", "rating") == f"{rating:.1f}"
    assert "All sessions" in html


def test_each_player_links_to_their_page(scorer: Client, club) -> None:
    league, sessions = club
    html = scorer.get(url(league)).content.decode()
    ben = sessions[0].seats.get(player__name="Ben").player
    assert f'href="{reverse("games:player_detail", args=[ben.pk])}"' in html


def test_the_page_draws_the_best_rated_players_ratings_over_time(scorer: Client, club) -> None:
    league, _ = club
    html = scorer.get(url(league)).content.decode()
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    root = ET.fromstring(svg)
    drawn = {g.get("data-name") for g in root.iter(f"{SVG}g") if g.get("class") == "chart-line"}
    assert drawn == set(Rating.objects.filter(league=league).values_list("player__name", flat=True))
    assert root.get("role") == "img" and root.find(f"{SVG}title").text.startswith("Ratings in")


def test_a_date_range_narrows_the_table(scorer: Client, club) -> None:
    league, _ = club
    response = scorer.get(url(league), {"from": FEB.isoformat(), "to": FEB.isoformat()})
    assert response.status_code == 200
    html = response.content.decode()
    assert sorted(names_in_order(html)) == ["Ben", "Chen"]
    assert cell(html, "Ben", "sessions") == "1"
    assert "Sessions played 10 Feb 2024 to 10 Feb 2024" in html
    assert 'value="2024-02-10"' in html  # the form keeps the dates
    only_start = scorer.get(url(league), {"from": FEB.isoformat(), "to": ""}).content.decode()
    assert "Sessions played since 10 Feb 2024" in only_start
    assert cell(only_start, "Asha", "sessions") == "1"


def test_dates_with_no_sessions_say_so(scorer: Client, club) -> None:
    league, _ = club
    html = scorer.get(url(league), {"from": "2030-01-01"}).content.decode()
    assert "No sessions were played in these dates." in html
    assert "<table" not in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"from": "2024-13-45"}, "Enter a valid date."),
        ({"to": "yesterday"}, "Enter a valid date."),
        ({"from": "99999-01-01"}, "Enter a valid date."),
        ({"from": "2024-03-01", "to": "2024-01-01"}, "The start date is after the end date."),
    ],
)
def test_bad_dates_are_a_form_error_and_the_table_shows_all_dates(
    scorer: Client, club, query: dict, message: str
) -> None:
    league, _ = club
    response = scorer.get(url(league), query)
    assert response.status_code == 422
    html = response.content.decode()
    assert message in html
    assert "All sessions" in html
    assert len(names_in_order(html)) == 3


def test_an_htmx_filter_swaps_only_the_standings(scorer: Client, club) -> None:
    league, _ = club
    response = scorer.get(
        url(league), {"from": JAN.isoformat(), "to": JAN.isoformat()}, headers=HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="standings"')
    assert "<html" not in html
    assert sorted(names_in_order(html)) == ["Asha", "Ben"]
    bad = scorer.get(url(league), {"to": "nope"}, headers=HTMX)
    assert bad.status_code == 422 and "Enter a valid date." in bad.content.decode()


def test_only_members_see_the_standings(client: Client, club) -> None:
    league, _ = club
    assert client.get(url(league)).status_code == 302  # sign in first
    stranger = User.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    assert client.get(url(league)).status_code == 404
    Membership.objects.create(league=league, user=stranger, role=Membership.Role.VIEWER)
    assert client.get(url(league)).status_code == 200


def test_an_unknown_league_is_a_404_and_writes_are_refused(scorer: Client, club) -> None:
    league, _ = club
    assert scorer.get("/leagues/no-such-league/standings/").status_code == 404
    assert scorer.get("/leagues/bad%20slug/standings/").status_code == 404
    assert scorer.post(url(league)).status_code == 405


def test_an_empty_league_says_nothing_was_played(scorer: Client, user: User) -> None:
    league = League.objects.create(name="New club", slug="new-club")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    html = scorer.get(url(league)).content.decode()
    assert "No sessions have been played in this league yet." in html


def test_the_page_takes_the_same_queries_however_many_sessions(
    scorer: Client, club, user: User
) -> None:
    league, _ = club
    scorer.get(url(league))  # warm up: the session, the user, content types
    with CaptureQueriesContext(connection) as small:
        scorer.get(url(league))
    with CaptureQueriesContext(connection) as small_range:
        scorer.get(url(league), {"from": JAN.isoformat(), "to": FEB.isoformat()})
    for evening in EVENINGS * 3:
        pool_session(user, league, *evening)
    with CaptureQueriesContext(connection) as large:
        scorer.get(url(league))
    with CaptureQueriesContext(connection) as large_range:
        scorer.get(url(league), {"from": JAN.isoformat(), "to": FEB.isoformat()})
    assert len(small) == len(large)
    assert len(small_range) == len(large_range)
    assert len(large) <= 8
