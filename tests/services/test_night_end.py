"""A points night nobody ended (games/services/night_end.py): ended by itself at its
last round once it idled long enough, so that the standings and ratings count it;
the session page asks its scorer before that."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import GameSession, League, Membership, Rating
from games.queries.standings import standings_of
from games.services.night_end import end_idle_sessions, last_round_at, night_looks_over
from games.services.scoreboard import load_scoreboard
from games.services.sessions import reopen_session
from tests.support.builders import make_session, play
from tests.support.club import LOSE, WIN
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(user: User) -> League:
    league = League.objects.create(name="Friday Club", slug="friday", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    return league


def points_night(user: User, league: League) -> GameSession:
    """Two rounds of 21-card points, the table never ended (Asha leads)."""
    session = make_session(user, preset="21-points", league=league)
    for _ in range(2):
        play(session, "8S", ROUND_1, user)
    return session


def idle_for(session: GameSession, hours: float) -> None:
    """As if the last change to the session (its rounds) was ``hours`` ago."""
    then = timezone.now() - datetime.timedelta(hours=hours)
    session.rounds.update(created_at=then)
    GameSession.objects.filter(pk=session.pk).update(updated_at=then)


def test_a_points_night_idle_for_six_hours_ends_at_its_last_round(
    user: User, league: League
) -> None:
    session = points_night(user, league)
    assert {row.sessions_won for row in standings_of(league)} == {0}
    assert not Rating.objects.filter(league=league).exists()
    idle_for(session, 6.5)
    last = last_round_at(session)

    assert end_idle_sessions(league) == [session]
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.closed_at == last  # ended at its last round, not when read
    rows = {row.player.name: row for row in standings_of(league)}
    assert rows["Asha"].sessions_won == 1 and rows["Asha"].rating is not None
    assert set(Rating.objects.filter(league=league).values_list("preset", flat=True)) == {
        "21-points"
    }
    assert end_idle_sessions(league) == []  # once


def test_a_night_still_going_and_a_pool_are_left_running(user: User, league: League) -> None:
    recent = points_night(user, league)
    idle_for(recent, 5)  # a long evening, not yet six hours
    pool = make_session(user, preset="13-pool-101", players=("Dev", "Eve"), league=league)
    play(pool, "7C", {"Dev": WIN, "Eve": LOSE}, user)
    idle_for(pool, 48)  # a pool ends by its ceiling or a split pot, never by idling

    assert end_idle_sessions(league) == []
    statuses = GameSession.objects.filter(league=league).values_list("status", flat=True)
    assert set(statuses) == {GameSession.Status.ACTIVE}


def test_a_night_reopened_after_it_ended_by_itself_waits_as_long_again(
    user: User, league: League
) -> None:
    session = points_night(user, league)
    idle_for(session, 7)
    end_idle_sessions(league)
    reopen_session(session)
    assert end_idle_sessions(league) == []  # reopened just now: not ended again
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE and session.closed_at is None
    assert not Rating.objects.filter(league=league).exists()


def test_the_page_asks_once_no_round_came_for_a_while(user: User, league: League) -> None:
    session = points_night(user, league)
    assert not night_looks_over(session, load_scoreboard(session))  # just played
    idle_for(session, 1)
    assert night_looks_over(session, load_scoreboard(session))
    pool = make_session(user, preset="13-pool-101", players=("Dev", "Eve"), league=league)
    play(pool, "7C", {"Dev": WIN, "Eve": LOSE}, user)
    idle_for(pool, 1)
    assert not night_looks_over(pool, load_scoreboard(pool))  # no ending a pool by hand
