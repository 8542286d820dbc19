"""The standings' monthly figures kept by every change to a session's results equal
the ones rebuilt from the seats (games/services/standing_months.py)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.forms.models import model_to_dict

from games.models import League, StandingMonth
from games.queries.months import month_end, month_of
from games.services.round_saves import delete_round
from games.services.standing_months import rebuild
from tests.support.builders import make_session, play
from tests.support.club import mixed_league

pytestmark = pytest.mark.django_db

WIN = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
LOOSE = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"  # 80 points under cut 7C


def months(league: League) -> list[dict]:
    return [
        model_to_dict(row, exclude=["id"])
        for row in StandingMonth.objects.filter(league=league).order_by("month", "player", "preset")
    ]


def test_months_kept_round_by_round_equal_months_rebuilt(user: User) -> None:
    league = League.objects.create(name="Club", slug="club", preset="13-pool-101")
    evenings = []
    for day, players in [
        (datetime.date(2024, 1, 31), ("Asha", "Ben")),
        (datetime.date(2024, 2, 1), ("Ben", "Chen")),
        (datetime.date(2024, 2, 29), ("Asha", "Chen")),
    ]:
        session = make_session(
            user, preset="13-pool-101", players=players, league=league, played_on=day
        )
        for _ in range(2):
            play(session, "7C", {players[0]: ("declared", WIN), players[1]: ("shown", LOOSE)})
        evenings.append(session)
    delete_round(evenings[1].rounds.get(number=2), user)  # a round taken back
    kept = months(league)
    sessions = {
        (row.month.month, row.player.name): row.sessions
        for row in StandingMonth.objects.filter(league=league).select_related("player")
    }
    # Ben and Chen's evening lost its second round but was still played.
    assert sessions == {
        (1, "Asha"): 1,
        (1, "Ben"): 1,
        (2, "Asha"): 1,
        (2, "Ben"): 1,
        (2, "Chen"): 2,
    }
    rebuild([league.pk])
    assert months(league) == kept


def test_each_game_of_a_month_is_kept_apart_and_goes_with_its_last_round(user: User) -> None:
    league, _, pool = mixed_league(user)
    by_game = {
        (row.preset, row.player.name): (row.points, row.rounds)
        for row in StandingMonth.objects.filter(league=league).select_related("player")
    }
    # Ben played both games that month: a month for each, never one sum.
    assert by_game[("21-points", "Ben")] == (-184, 2)
    assert by_game[("13-pool-101", "Ben")] == (60, 2)
    kept = months(league)
    rebuild([league.pk])
    assert months(league) == kept
    # The pool's rounds taken back: its months go, the points game's stay.
    for played in pool.rounds.order_by("-number"):
        delete_round(played, user)
    assert set(StandingMonth.objects.filter(league=league).values_list("preset", flat=True)) == {
        "21-points"
    }


def test_month_ends_know_leap_years_and_december() -> None:
    assert month_of(datetime.date(2024, 2, 17)) == datetime.date(2024, 2, 1)
    assert month_end(datetime.date(2024, 2, 1)) == datetime.date(2024, 2, 29)
    assert month_end(datetime.date(2023, 2, 1)) == datetime.date(2023, 2, 28)
    assert month_end(datetime.date(2024, 12, 1)) == datetime.date(2024, 12, 31)
    assert month_end(datetime.date(9999, 12, 1)) == datetime.date(9999, 12, 31)  # no overflow
