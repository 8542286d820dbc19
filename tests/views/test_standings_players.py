"""The player page, /players/<id>/: a player's sessions, results per league, ratings
over time and recent rounds, across the sessions the viewing user may see and no
others."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import figures
from games.models import GameSession, HandEntry, League, Membership, Player, PlayerClaim, Rating
from tests.support.club import EVENINGS, JAN, LOSE, MAR, WIN, build_club, pool_session, scores_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(user: User):
    """The user's club (3 evenings), a league they are not in, a session of their
    own without a league, and one of someone else's without a league."""
    club, sessions = build_club(user)
    other = User.objects.create_user("other", password="x")
    # A member of the club too: the Ben they seat elsewhere is the club's Ben (a name
    # resolves among the players its user can see), one player across leagues.
    Membership.objects.create(league=club, user=other, role=Membership.Role.VIEWER)
    elsewhere = League.objects.create(name="Elsewhere", slug="elsewhere", preset="13-pool-101")
    Membership.objects.create(league=elsewhere, user=other, role=Membership.Role.OWNER)
    hidden = pool_session(other, elsewhere, JAN, ("Ben", "Dev"), [{"Ben": WIN, "Dev": LOSE}])
    own = pool_session(user, None, MAR, ("Ben", "Eve"), [{"Eve": WIN, "Ben": LOSE}])
    private = pool_session(other, None, MAR, ("Ben", "Eve"), [{"Ben": WIN, "Eve": LOSE}])
    return {
        "club": club,
        "sessions": sessions,
        "hidden": hidden,
        "own": own,
        "private": private,
        "ben": Player.objects.get(name="Ben"),
    }


def page(client: Client, player: Player, **query) -> str:
    response = client.get(reverse("games:player_detail", args=[player.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_lists_the_sessions_the_user_may_see(scorer: Client, world) -> None:
    html = page(scorer, world["ben"])
    shown = {int(pk) for pk in re.findall(r'<li data-session="(\d+)">', html)}
    assert shown == {s.pk for s in world["sessions"]} | {world["own"].pk}
    assert world["hidden"].pk not in shown and world["private"].pk not in shown
    # Newest first: March's two sessions before February's and January's.
    order = [int(pk) for pk in re.findall(r'<li data-session="(\d+)">', html)]
    assert order[-1] == world["sessions"][0].pk


def test_results_per_league_match_the_rounds_played(scorer: Client, world) -> None:
    html = page(scorer, world["ben"])
    club_row = re.search(r'<tr data-group="club-13-pool-101">(.*?)</tr>', html, re.S).group(1)
    ben = scores_of("Ben")
    assert re.search(r"<td data-sessions>3</td>", club_row)
    assert re.search(r"<td data-rounds>6</td>", club_row)
    assert re.search(rf"<td data-average>{sum(ben) / len(ben):.1f}</td>", club_row)
    assert re.search(rf"<td data-best>{min(ben)}</td>", club_row)
    own_row = re.search(r'<tr data-group="none-13-pool-101">(.*?)</tr>', html, re.S).group(1)
    assert re.search(r"<td data-sessions>1</td>", own_row)  # not the other user's
    assert "Elsewhere" not in html
    assert f'href="{reverse("games:league_standings", args=["club"])}"' in html


def test_the_rating_over_time_is_drawn_per_league_the_user_is_in(scorer: Client, world) -> None:
    html = page(scorer, world["ben"])
    rating = Rating.objects.get(league=world["club"], player=world["ben"])
    figure = re.search(
        r'<figure class="chart-figure" data-league="club" data-game="13-pool-101">(.*?)</figure>',
        html,
        re.S,
    )
    assert figure
    assert f"<span data-rating>{rating.ordinal:.1f}</span>" in figure.group(1)
    # The rating said in words, not as "mu" and "sigma".
    assert f"(estimated skill {rating.mu:.1f} ± {rating.sigma:.1f}, 2 rated sessions)" in html
    assert "mu " not in html and "sigma" not in html
    # One point per rated session: January and February.
    (points,) = re.findall(r'<polyline points="([^"]+)"', figure.group(1))
    assert len(points.split()) == rating.sessions == 2
    assert 'data-league="elsewhere"' not in html


def test_a_rating_of_one_session_is_written_on_its_chart(scorer: Client, world) -> None:
    # Asha's March session is still running: January's is her only rated one.
    asha = Player.objects.get(name="Asha")
    rating = Rating.objects.get(league=world["club"], player=asha)
    figure = re.search(
        r'<figure class="chart-figure" data-league="club" data-game="13-pool-101">(.*?)</figure>',
        page(scorer, asha),
        re.S,
    ).group(1)
    said = figures.rating(rating.ordinal)
    assert f"One rated session (5 Jan 2024): rating {said}." in figure
    assert re.search(rf'<text class="chart-value"[^>]*>{said}</text>', figure)
    assert "5 Jan 24 · one rated session</text>" in figure


def test_recent_rounds_show_session_round_outcome_and_score(scorer: Client, world) -> None:
    html = page(scorer, world["ben"])
    rows = re.findall(r'<tr data-round="(\d+)-(\d+)">(.*?)</tr>', html, re.S)
    visible = {s.pk for s in world["sessions"]} | {world["own"].pk}
    assert {int(session) for session, _, _ in rows} == visible
    entry = HandEntry.objects.get(round__session=world["own"], player=world["ben"])
    own = next(body for s, n, body in rows if int(s) == world["own"].pk)
    assert "Shown" in own and f"<td data-score>+{entry.score}</td>" in own
    played = HandEntry.objects.filter(player=world["ben"], round__session__in=visible).count()
    assert len(rows) == min(played, 20)


def test_a_player_seen_nowhere_is_a_404(scorer: Client, world) -> None:
    dev = Player.objects.get(name="Dev")  # only in the league the user is not in
    assert scorer.get(reverse("games:player_detail", args=[dev.pk])).status_code == 404
    assert scorer.get("/players/99999999/").status_code == 404
    assert scorer.get("/players/9999999999999999999999/").status_code == 404
    assert scorer.get("/players/abc/").status_code == 404


def test_ones_own_player_page_shows_even_without_sessions(scorer: Client, user: User) -> None:
    me = Player.objects.create(name="Me")
    # Claimed ("this is me") in a league whose sessions have all been deleted since.
    league = League.objects.create(name="Club", slug="club")
    PlayerClaim.objects.create(league=league, player=me, user=user)
    html = page(scorer, me)
    assert "No sessions yet." in html and "No rounds played yet." in html


def test_signing_in_is_needed_and_writes_are_refused(client: Client, world) -> None:
    url = reverse("games:player_detail", args=[world["ben"].pk])
    assert client.get(url).status_code == 302
    client.force_login(User.objects.get(username="asha"))
    assert client.post(url).status_code == 405


def test_sessions_come_in_pages_and_a_bad_page_number_is_no_error(
    scorer: Client, user: User
) -> None:
    league, _ = build_club(user)
    for _ in range(8):
        for evening in EVENINGS:
            pool_session(user, league, *evening)
    ben = Player.objects.get(name="Ben")
    total = GameSession.objects.filter(seats__player=ben).count()
    assert total > 20
    first = page(scorer, ben)
    assert len(re.findall(r"<li data-session=", first)) == 20
    assert "Page 1 of 2" in first
    second = page(scorer, ben, page="2")
    assert len(re.findall(r"<li data-session=", second)) == total - 20
    assert "Page 2 of 2" in page(scorer, ben, page="999")
    assert "Page 1 of 2" in page(scorer, ben, page="abc")


def test_the_page_takes_the_same_queries_however_many_leagues_and_claims(
    scorer: Client, user: User, world
) -> None:
    ben = world["ben"]
    with CaptureQueriesContext(connection) as before:
        page(scorer, ben)
    # A second league of the user's where Ben plays too, the user being Dev there,
    # and Ben claimed in the first by another member.
    second = League.objects.create(name="Second", slug="second", preset="13-pool-101")
    Membership.objects.create(league=second, user=user, role=Membership.Role.OWNER)
    pool_session(user, second, JAN, ("Ben", "Dev"), [{"Ben": WIN, "Dev": LOSE}])
    dev = Player.objects.get(name="Dev", seats__session__league=second)
    PlayerClaim.objects.create(league=second, player=dev, user=user)
    Rating.objects.create(league=second, player=ben, mu=25.0, sigma=8.0, ordinal=1.0)
    other = User.objects.get(username="other")
    PlayerClaim.objects.create(league=world["club"], player=ben, user=other)

    with CaptureQueriesContext(connection) as after:
        text = page(scorer, ben)

    assert re.search(r'data-claim="second".*?you are <a href="[^"]+">Dev</a>', text, re.S)
    assert re.search(r'data-claim="club".*?claimed by <strong>other</strong>', text, re.S)
    assert 'data-league="second"' in text  # its rating chart
    # The sign-in's read among them, and the account's language.
    assert len(after) == len(before) == 11
