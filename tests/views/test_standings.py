"""The standings page, /leagues/<slug>/standings/: for the league's members only,
filterable by dates (bad dates are a form error), each player linking to their
page, and the ratings' history as a chart."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import League, Membership, Rating
from tests.support.club import (
    EVENINGS,
    FEB,
    JAN,
    build_club,
    mixed_league,
    pool_session,
    scores_of,
)
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
    assert "game-tabs" not in html  # one game played: no tabs
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
    title = root.find(f"{SVG}title").text
    assert root.get("role") == "img" and title.startswith("13-card pool 101 ratings in")


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


def test_a_points_league_shows_its_points_and_links_to_the_pool_it_also_played(
    scorer: Client, user: User
) -> None:
    league, _, _ = mixed_league(user)
    html = scorer.get(url(league)).content.decode()
    assert "21-card points · net totals: a high score is good" in html
    assert "Ranked by 21-card points rating, then sessions won, then points per round" in html
    assert "each game the league played has its own standings and its own rating" in html
    # Ben's two points rounds at −92, without the pool's penalty points; Farah and Dev
    # played only the pool.
    assert set(names_in_order(html)) == {"Asha", "Ben", "Chen"}
    assert cell(html, "Ben", "average") == "−92.0"
    assert cell(html, "Asha", "average") == "122.0"
    tabs = re.search(r'<nav class="game-tabs".*?</nav>', html, re.S).group(0)
    assert re.findall(r">([^<>]+)</a>", tabs) == ["21-card points", "13-card pool 101"]
    assert 'aria-current="page">21-card points' in tabs

    # The pool's tab: its own figures, low totals best, the dates kept.
    today = datetime.date.today().isoformat()
    pool_link = f"{url(league)}?game=13-pool-101&amp;from={today}&amp;to={today}"
    dated = scorer.get(url(league), {"from": today, "to": today}).content.decode()
    assert f'href="{pool_link}"' in dated
    pool = scorer.get(url(league), {"game": "13-pool-101", "from": today, "to": today})
    html = pool.content.decode()
    assert "13-card pool 101 (played in this league besides its 21-card points)" in html
    assert "penalty totals: a low score is good" in html
    # Nobody is rated at pool yet (its one session runs on): by its results, low
    # best: 0 before 30 before 60. Ben's points rating is not this game's.
    assert names_in_order(html) == ["Dev", "Ben", "Farah"]
    assert [cell(html, name, "average") for name in ("Dev", "Ben", "Farah")] == [
        "0.0",
        "30.0",
        "60.0",
    ]
    assert cell(html, "Ben", "rating") == "–"
    assert [cell(html, name, "total") for name in ("Dev", "Ben", "Farah")] == ["0", "60", "120"]
    assert cell(html, "Ben", "money") == "–"  # no stakes set
    assert (
        "Ranked by 13-card pool 101 rating, then sessions won, then points per round"
        " (lowest first)."
    ) in html
    assert "Total is the sum of each player's session totals (penalty: a low total is good)" in html
    # The date form and "All dates" stay on the pool; the downloads follow it.
    assert '<input type="hidden" name="game" value="13-pool-101">' in html
    assert f'href="{url(league)}?game=13-pool-101"' in html
    csv = reverse("games:league_standings_csv", args=[league.slug])
    assert f'href="{csv}?game=13-pool-101&amp;from={today}&amp;to={today}"' in html
    # A game the league never played: its own standings.
    other = scorer.get(url(league), {"game": "21-kodai"}).content.decode()
    assert set(names_in_order(other)) == {"Asha", "Ben", "Chen"}


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


def test_a_league_that_played_only_another_game_says_where_its_sessions_are(
    scorer: Client, user: User
) -> None:
    # Was "No sessions have been played in this league yet." above the pool's tab,
    # though the league had played a pool evening.
    league = League.objects.create(name="Points club", slug="points", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    pool_session(user, league, JAN, ("Asha", "Ben"), EVENINGS[0][2])
    html = scorer.get(url(league)).content.decode()
    assert "No sessions have been played" not in html
    said = re.search(r"<p class=\"empty\" data-empty-game>(.*?)</p>", html, re.S).group(1)
    pool = f"{url(league)}?game=13-pool-101"
    assert " ".join(re.sub(r"<[^>]+>", "", said).split()) == (
        "No 21-card points session has been played in this league yet."
        " This league's sessions so far are in the 13-card pool 101 tab."
    )
    assert f'<a href="{pool}"' in said and ">13-card pool 101</a>" in said
    # The pool's tab has its players; a date range with no points names the game too.
    assert set(names_in_order(scorer.get(pool).content.decode())) == {"Asha", "Ben"}
    dated = scorer.get(url(league), {"from": JAN.isoformat(), "to": JAN.isoformat()})
    assert "No 21-card points session was played in these dates." in dated.content.decode()


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
    # With the nights nobody ended (none idle, none running here): one query each. Two
    # of them say which language the page is in: the account's, the league's.
    assert len(large) <= 13
