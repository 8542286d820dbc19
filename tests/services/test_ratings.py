"""A league's ratings after every change equal a replay of its whole history, while
a change replays only the sessions from it on (games/services/ratings.py)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameSession, League, Rating, RatingChange
from games.services.ratings import NEW_PLAYER, rate, replay
from games.services.round_saves import delete_round
from tests.support.builders import make_session, play

pytestmark = pytest.mark.django_db

WIN = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
LOOSE = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"  # 80 points: out after two


def evening(user: User, league: League, day: int, winner: str, loser: str) -> GameSession:
    """A pool-101 evening of two that ``winner`` wins in two rounds."""
    session = make_session(
        user,
        preset="13-pool-101",
        players=(winner, loser),
        league=league,
        played_on=datetime.date(2026, 10, day),
    )
    for _ in range(2):
        play(session, "7C", {winner: ("declared", WIN), loser: ("shown", LOOSE)})
    return session


def ratings_now(league: League) -> tuple[dict, list]:
    current = {
        r.player.name: (round(r.mu, 9), round(r.sigma, 9), r.sessions)
        for r in Rating.objects.filter(league=league).select_related("player")
    }
    history = sorted(
        (c.sequence, c.session_id, c.player.name, round(c.mu, 9))
        for c in RatingChange.objects.filter(league=league).select_related("player")
    )
    return current, history


def assert_as_a_full_replay(league: League) -> None:
    kept = ratings_now(league)
    replay(league.pk)
    assert ratings_now(league) == kept


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Club", slug="club", preset="13-pool-101")


def test_evenings_finished_out_of_date_order_rate_as_a_full_replay(
    user: User, league: League
) -> None:
    # Entered on the 3rd, 1st, 5th, 2nd and 4th: each one sits before some later ones.
    for day, winner, loser in [
        (3, "Asha", "Ben"),
        (1, "Chen", "Asha"),
        (5, "Ben", "Dev"),
        (2, "Dev", "Chen"),
        (4, "Asha", "Dev"),
    ]:
        evening(user, league, day, winner, loser)
        assert_as_a_full_replay(league)
    sequences = RatingChange.objects.filter(league=league).values_list("sequence", flat=True)
    assert sorted(set(sequences)) == [0, 1, 2, 3, 4]
    assert Rating.objects.get(league=league, player__name="Asha").sessions == 3


def test_reopening_a_middle_evening_rates_the_rest_without_it(user: User, league: League) -> None:
    evenings = [evening(user, league, day, "Asha", "Ben") for day in (1, 2, 3)]
    middle = evenings[1]
    delete_round(middle.rounds.get(number=2), user)  # no longer finished
    assert not RatingChange.objects.filter(session=middle).exists()
    assert Rating.objects.get(league=league, player__name="Ben").sessions == 2
    assert_as_a_full_replay(league)


def test_reopening_the_newest_evening_leaves_the_history_before_it_alone(
    user: User, league: League
) -> None:
    first, second = (
        evening(user, league, 1, "Asha", "Ben"),
        evening(user, league, 2, "Chen", "Asha"),
    )
    rows_before = set(RatingChange.objects.filter(session=first).values_list("pk", flat=True))
    delete_round(second.rounds.get(number=2), user)
    # The first evening's rows were neither deleted nor written again.
    assert set(RatingChange.objects.filter(session=first).values_list("pk", flat=True)) == (
        rows_before
    )
    # Chen was rated only in the evening reopened: he has no rating now.
    assert not Rating.objects.filter(league=league, player__name="Chen").exists()
    assert_as_a_full_replay(league)


def test_closing_the_newest_evening_reads_no_more_as_the_league_grows(
    user: User, league: League
) -> None:
    def queries_to_close_a_new_evening(day: int) -> int:
        session = evening(user, league, day, "Asha", "Ben")
        with CaptureQueriesContext(connection) as queries:
            replay(league.pk, since=session)
        return len(queries)

    assert queries_to_close_a_new_evening(1) == queries_to_close_a_new_evening(2)
    for day in range(3, 9):
        evening(user, league, day, "Chen", "Dev")
    assert queries_to_close_a_new_evening(20) == queries_to_close_a_new_evening(21)
    assert_as_a_full_replay(league)


def test_a_run_of_good_evenings_rates_above_one_lucky_one() -> None:
    """What the standings page says of the rating (templates/standings/league.html):
    held down until results settle, a run of wins counts for more than one."""
    regular, one, two = NEW_PLAYER, NEW_PLAYER, NEW_PLAYER
    for _ in range(3):
        regular, one, two = rate([regular, one, two], [1, 2, 3])
    newcomer, *_ = rate([NEW_PLAYER, NEW_PLAYER, NEW_PLAYER], [1, 2, 3])

    assert NEW_PLAYER.ordinal == pytest.approx(0)  # everyone starts at 0
    assert regular.ordinal > newcomer.ordinal > 0
