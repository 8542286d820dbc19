"""League standings (games/standings.py): each player's sessions, wins, rounds, points
per round, drop rate, best and worst round and rating, over a range of dates, in a
fixed number of queries."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameSession, League, Rating, RatingChange, Seat
from games.queries.months import seat_figures
from games.queries.standings import (
    figures,
    league_games,
    money_text,
    net_totals,
    rating_history,
    standings_of,
)
from games.services.sessions import set_stakes
from tests.support.club import (
    EVENINGS,
    FEB,
    FIRST,
    JAN,
    LOSE,
    MAR,
    WIN,
    build_club,
    mixed_league,
    pool_session,
    scores_of,
)

pytestmark = pytest.mark.django_db

YESTERDAY = datetime.date.today() - datetime.timedelta(days=1)


@pytest.fixture
def club(user: User) -> tuple[League, list[GameSession]]:
    return build_club(user)


def by_name(rows) -> dict:
    return {row.player.name: row for row in rows}


def test_standings_count_each_players_sessions_wins_and_rounds(club) -> None:
    league, _ = club
    rows = by_name(standings_of(league))
    assert set(rows) == {"Asha", "Ben", "Chen"}
    asha, ben, chen = rows["Asha"], rows["Ben"], rows["Chen"]
    assert (asha.sessions, asha.sessions_won, asha.rounds, asha.rounds_won) == (2, 1, 3, 2)
    assert (ben.sessions, ben.sessions_won, ben.rounds, ben.rounds_won) == (3, 1, 6, 3)
    # March is still running: nobody has won it yet.
    assert (chen.sessions, chen.sessions_won, chen.rounds, chen.rounds_won) == (2, 0, 4, 1)
    assert (asha.drops, ben.drops, chen.drops) == (0, 1, 2)


def test_points_per_round_and_drop_rate_come_from_the_round_scores(club) -> None:
    league, _ = club
    rows = by_name(standings_of(league))
    for name in ("Asha", "Ben", "Chen"):
        scores = scores_of(name)
        assert rows[name].points == sum(scores)
        assert rows[name].average_points == pytest.approx(sum(scores) / len(scores))
    assert rows["Chen"].drop_rate == pytest.approx(2 / 4)
    assert rows["Chen"].drop_percent == pytest.approx(50.0)
    assert rows["Asha"].drop_rate == 0


def test_best_round_is_the_lowest_score_in_a_penalty_league(club) -> None:
    league, _ = club
    rows = by_name(standings_of(league))
    for name in ("Asha", "Ben", "Chen"):
        scores = scores_of(name)
        assert (rows[name].best_round, rows[name].worst_round) == (min(scores), max(scores))
    assert rows["Ben"].best_round < rows["Ben"].worst_round


def test_standings_follow_the_current_ratings_best_first(club) -> None:
    league, _ = club
    rows = standings_of(league)
    current = {r.player.name: r for r in Rating.objects.filter(league=league)}
    assert [row.player.name for row in rows] == sorted(
        current, key=lambda name: -current[name].ordinal
    )
    for row in rows:
        rating = current[row.player.name]
        assert (row.rating, row.mu, row.sigma) == pytest.approx(
            (rating.ordinal, rating.mu, rating.sigma)
        )
    # Two finished sessions won by Asha and by Ben: each winner is rated above 0.
    assert by_name(rows)["Asha"].rating > by_name(rows)["Chen"].rating


def test_a_date_range_keeps_only_the_sessions_played_in_it(club) -> None:
    league, _ = club
    february = by_name(standings_of(league, date_from=FEB, date_to=FEB))
    assert set(february) == {"Ben", "Chen"}
    assert (february["Ben"].sessions, february["Ben"].rounds) == (1, 3)
    since_feb = by_name(standings_of(league, date_from=FEB))
    assert since_feb["Ben"].sessions == 2 and since_feb["Asha"].sessions == 1
    until_jan = by_name(standings_of(league, date_to=JAN))
    assert set(until_jan) == {"Asha", "Ben"}
    assert standings_of(league, date_from=datetime.date(2025, 1, 1)) == []


def test_with_an_end_date_the_rating_is_the_one_after_that_days_sessions(club) -> None:
    league, sessions = club
    january = by_name(standings_of(league, date_to=datetime.date(2024, 1, 31)))
    after_jan = {c.player.name: c for c in RatingChange.objects.filter(session=sessions[0])}
    assert january["Ben"].rating == pytest.approx(after_jan["Ben"].ordinal)
    assert january["Asha"].mu == pytest.approx(after_jan["Asha"].mu)
    # Ben's current rating also counts his February win: different from January's.
    now = by_name(standings_of(league))
    assert now["Ben"].rating != pytest.approx(january["Ben"].rating)
    # Only the start of a range: the current rating.
    assert by_name(standings_of(league, date_from=JAN))["Ben"].rating == pytest.approx(
        now["Ben"].rating
    )


def test_an_unrated_player_sorts_after_the_rated_ones(user: User) -> None:
    league = League.objects.create(name="New", slug="new", preset="13-pool-101")
    pool_session(user, league, MAR, ("Dev", "Eve"), [{"Dev": WIN, "Eve": LOSE}])
    rows = standings_of(league)
    assert [row.rating for row in rows] == [None, None]
    assert all(row.sessions == 1 for row in rows)


def test_a_session_of_another_league_or_none_is_not_counted(club, user: User) -> None:
    league, _ = club
    other = League.objects.create(name="Other", slug="other", preset="13-pool-101")
    pool_session(user, other, JAN, ("Asha", "Ben"), EVENINGS[0][2])
    pool_session(user, None, JAN, ("Asha", "Ben"), EVENINGS[0][2])
    assert by_name(standings_of(league))["Asha"].sessions == 2


def test_a_points_leagues_standings_leave_out_the_pool_it_also_played(user: User) -> None:
    league, _, _ = mixed_league(user)
    rows = standings_of(league)
    # Only the points session: Ben's two rounds at −92, not with the pool's 60 penalty
    # points added (−124 over 4 rounds); Dev and Farah played only the pool.
    assert {row.player.name: (row.points, row.rounds) for row in rows} == {
        "Asha": (244, 2),
        "Ben": (-184, 2),
        "Chen": (-60, 2),
    }
    assert by_name(rows)["Ben"].average_points == -92.0
    assert (by_name(rows)["Ben"].best_round, by_name(rows)["Ben"].worst_round) == (-92, -92)
    # The same over dates that cut into the month (read from the seats, not the months).
    today = datetime.date.today()
    ranged = standings_of(league, date_from=today, date_to=today)
    assert {row.player.name: row.points for row in ranged} == {
        "Asha": 244,
        "Ben": -184,
        "Chen": -60,
    }


def test_the_pool_played_in_a_points_league_has_its_own_standings_low_totals_best(
    user: User,
) -> None:
    league, _, _ = mixed_league(user)
    games = league_games(league)
    assert [(game.preset, game.net, game.own) for game in games] == [
        ("21-points", True, True),
        ("13-pool-101", False, False),
    ]
    for dates in ({}, {"date_from": datetime.date.today(), "date_to": datetime.date.today()}):
        rows = standings_of(league, game="13-pool-101", **dates)
        assert [(row.player.name, row.points, row.rounds) for row in rows] == [
            ("Dev", 0, 2),  # nobody rated at pool yet: the lowest points per round first,
            ("Ben", 60, 2),  # Ben's rating at points counts nothing here
            ("Farah", 120, 2),
        ]
        # Best round in penalty totals: the lowest.
        assert (rows[2].best_round, rows[2].worst_round) == (40, 80)


def test_a_pool_night_moves_only_the_pools_rating_and_ranks_its_own_table(
    user: User,
) -> None:
    # Asha won the league's points session; Ben beats her at pool once; Dev and Farah
    # play the pool still running (unrated: no session of theirs finished).
    league, _, _ = mixed_league(user)
    points_before = {row.player.name: row.rating for row in standings_of(league)}
    beats = [{"Ben": WIN, "Asha": LOSE}] * 2  # Asha shows 80 twice: out at 160
    pool = pool_session(user, league, datetime.date.today(), ("Ben", "Asha"), beats)
    # The points table's ratings are as they were: the pool night is not one of its.
    assert {row.player.name: row.rating for row in standings_of(league)} == points_before
    assert set(RatingChange.objects.filter(session=pool).values_list("preset", flat=True)) == {
        "13-pool-101"
    }
    rows = standings_of(league, game="13-pool-101")
    assert [(row.player.name, row.sessions_won, row.points, row.rounds) for row in rows] == [
        ("Ben", 1, 60 + 0, 4),  # the pool's rating first: Ben beat Asha at pool,
        ("Asha", 0, 160, 2),  # Asha, rated by her one pool (not by her points win),
        ("Dev", 0, 0, 2),  # then the unrated, by the lowest points per round
        ("Farah", 0, 120, 2),
    ]
    assert [row.rating is not None for row in rows] == [True, True, False, False]
    assert rows[0].rating > rows[1].rating
    # Asha's pool rating is her pool loss alone: below her points rating, the win.
    assert rows[1].rating < points_before["Asha"]
    assert Rating.objects.get(player__name="Asha", preset="13-pool-101").sessions == 1


def test_total_points_add_up_the_session_totals_of_that_game_only(user: User) -> None:
    league, points, pool = mixed_league(user)
    totals = {seat.player.name: seat.total for seat in points.seats.all()}
    rows = standings_of(league)
    assert {row.player.name: row.total_points for row in rows} == totals
    pool_totals = {seat.player.name: seat.total for seat in pool.seats.all()}
    rows = standings_of(league, game="13-pool-101")
    assert {row.player.name: row.total_points for row in rows} == pool_totals
    # A range that cuts into the month sums the seats themselves: the same.
    today = datetime.date.today()
    ranged = standings_of(league, game="13-pool-101", date_from=today, date_to=today)
    assert {row.player.name: row.total_points for row in ranged} == pool_totals


def test_net_money_settles_the_staked_sessions_and_is_blank_without_stakes(
    user: User,
) -> None:
    league, points, _ = mixed_league(user)
    # No stakes yet: no money figure, not a zero.
    assert {row.money for row in standings_of(league)} == {None}
    set_stakes(points, money_per_point=Decimal("0.25"), buy_in=None)
    rows = by_name(standings_of(league))
    totals = {seat.player.name: seat.total for seat in points.seats.all()}
    # Each player's net total times 25 cents: Asha +244 wins 61.00.
    assert {name: row.money for name, row in rows.items()} == {
        name: total * 25 for name, total in totals.items()
    }
    assert sum(row.money for row in rows.values()) == 0
    assert money_text(rows["Asha"].money) == "+61.00"
    assert money_text(rows["Ben"].money) == "\u221246.00"
    # Outside the dates of the staked session: blank again.
    assert {row.money for row in standings_of(league, date_to=YESTERDAY)} <= {None}


def test_a_pools_money_is_the_pot_to_its_winner_less_each_buy_in(user: User) -> None:
    league, _, running = mixed_league(user)
    beats = [{"Ben": WIN, "Asha": LOSE}] * 2
    pool = pool_session(user, league, datetime.date.today(), ("Ben", "Asha"), beats)
    set_stakes(pool, money_per_point=None, buy_in=Decimal("5"))
    # A pool still running settles nothing, whatever its buy-in.
    set_stakes(running, money_per_point=None, buy_in=Decimal("5"))
    rows = by_name(standings_of(league, game="13-pool-101"))
    assert (rows["Ben"].money, rows["Asha"].money) == (500, -500)
    assert rows["Dev"].money is None and rows["Farah"].money is None


def test_standings_take_a_fixed_number_of_queries_however_many_sessions(user: User) -> None:
    league, _ = build_club(user)
    with CaptureQueriesContext(connection) as small:
        assert len(standings_of(league)) == 3
    with CaptureQueriesContext(connection) as small_range:
        standings_of(league, date_from=JAN, date_to=FEB)
    for evening in EVENINGS * 2:
        pool_session(user, league, *evening)
    pool_session(
        user, league, MAR, ("Dev", "Eve", "Asha"), [{"Dev": WIN, "Eve": LOSE, "Asha": FIRST}]
    )
    with CaptureQueriesContext(connection) as large:
        assert len(standings_of(league)) == 5
    with CaptureQueriesContext(connection) as large_range:
        standings_of(league, date_from=JAN, date_to=FEB)
    # Months, the seats of sessions played for stakes (none here), then players with
    # their ratings; a range that cuts into a month reads its seats too.
    assert len(small) == len(large) == 3
    assert len(small_range) == len(large_range) == 4


def straight_from_the_seats(league: League, date_from, date_to) -> dict:
    """The standings' figures as they were read before the monthly figures: every
    seat of the league in the range, summed up."""
    seats = Seat.objects.filter(session__league=league, rounds_played__gt=0)
    if date_from is not None:
        seats = seats.filter(session__played_on__gte=date_from)
    if date_to is not None:
        seats = seats.filter(session__played_on__lte=date_to)
    return {
        row.pop("player__name"): row
        for row in seats.values("player__name").annotate(**seat_figures())
    }


# The names of a standings row's figures, as `figures` gives them.
FIGURES = figures(dict.fromkeys(seat_figures(), 0), net=True).keys()


def test_any_date_range_adds_up_exactly_as_the_seats_do(user: User) -> None:
    """Sessions on the first and last day of months and between, read over ranges that
    start and end on either side of them, within one month or across several."""
    league, _ = build_club(user)
    days = [
        datetime.date(2024, 1, 1),
        datetime.date(2024, 1, 31),
        datetime.date(2024, 2, 29),
        datetime.date(2024, 4, 1),
        datetime.date(2024, 4, 17),
    ]
    for day in days:
        pool_session(user, league, day, ("Dev", "Asha"), [{"Dev": WIN, "Asha": LOSE}] * 2)
    net = net_totals(league.preset, league)
    ends = [None, *days, JAN, FEB, MAR, datetime.date(2024, 2, 1), datetime.date(2024, 3, 31)]
    for date_from in ends:
        for date_to in ends:
            # The seats' sums read as a standings row reads them (best and worst by
            # the league's totals): the months and part-months must add up to them.
            seats = straight_from_the_seats(league, date_from, date_to)
            expected = {name: figures(row, net) for name, row in seats.items()}
            rows = standings_of(league, date_from=date_from, date_to=date_to)
            got = {row.player.name: {k: getattr(row, k) for k in FIGURES} for row in rows}
            assert got == expected, (date_from, date_to)


def test_rating_history_lists_each_rated_session_in_order(club) -> None:
    league, sessions = club
    ben = sessions[0].seats.get(player__name="Ben").player
    history = rating_history(league, [ben.pk])[ben.pk]
    assert [point.session_id for point in history] == [sessions[0].pk, sessions[1].pk]
    assert [point.played_on for point in history] == [JAN, FEB]
    assert history[-1].ordinal == pytest.approx(Rating.objects.get(player=ben).ordinal)
    assert [p.session_id for p in rating_history(league, [ben.pk], date_from=FEB)[ben.pk]] == [
        sessions[1].pk
    ]
