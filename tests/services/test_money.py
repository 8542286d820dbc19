"""What the totals are worth (games/services/money.py): who pays whom in a net-format
session, and a pool's pot and its split."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games.services.money import money_of
from games.services.scoreboard import load_scoreboard
from games.services.sessions import join, rejoin
from tests.support.builders import make_session, play, pool_with_chen_out
from tests.support.hands import (
    LOOSE_148,
    ROUND_1,
    SHOWN_8S,
    THREE_PURE,
    WIN_8S,
    WIN_13,
)

pytestmark = pytest.mark.django_db


def test_money_per_point_turns_net_totals_into_the_fewest_payments(user: User) -> None:
    table = make_session(user, money_per_point=Decimal("0.10"))
    play(table, "8S", ROUND_1)  # Asha +122, Ben -92, Chen -30 (the shared example)

    money = money_of(load_scoreboard(table))

    # 92 points at 0.10 = 9.20 and 30 points = 3.00: two payments, both to Asha.
    assert money.per_point == Decimal("0.10")
    assert {(p.payer, p.payee, p.amount) for p in money.payments} == {
        ("Ben", "Asha", Decimal("9.20")),
        ("Chen", "Asha", Decimal("3.00")),
    }


def test_settling_many_rounds_needs_fewer_payments_than_losers(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Chen", "Dev"), money_per_point=Decimal(1))
    play(
        table,
        "8S",
        {
            "Asha": ("declared", WIN_8S),
            "Ben": ("shown", SHOWN_8S),
            "Chen": ("first_drop", ""),
            "Dev": ("first_drop", ""),
        },
    )
    play(
        table,
        "5H",
        {
            "Asha": ("middle_drop", ""),
            "Ben": ("first_drop", ""),
            "Chen": ("declared", THREE_PURE),
            "Dev": ("shown", LOOSE_148),
        },
    )
    board = load_scoreboard(table)
    money = money_of(board)

    # Every balance is cleared: what each pays minus what they receive is their total.
    for name, total in board.state.totals.items():
        paid = sum(p.amount for p in money.payments if p.payer == name)
        received = sum(p.amount for p in money.payments if p.payee == name)
        assert received - paid == total
    assert len(money.payments) <= len([t for t in board.state.totals.values() if t]) - 1


def test_a_pools_pot_is_split_by_the_drops_each_player_has_left(user: User) -> None:
    pool = pool_with_chen_out(user, buy_in=Decimal("10.00"))

    money = money_of(load_scoreboard(pool))

    # Pot 3 x 10.00. Out at 101, so 100 is the last safe total: Asha (0) has
    # 100 // 20 = 5 first drops left, Ben (60) 40 // 20 = 2. 3000 cents by 5:2 is
    # 2142.86 and 857.14: 2142 + 857 = 2999, the odd cent to the larger remainder.
    assert money.pot == Decimal("30.00")
    assert [(s.name, s.drops, s.amount) for s in money.shares] == [
        ("Asha", 5, Decimal("21.43")),
        ("Ben", 2, Decimal("8.57")),
    ]


def test_a_rejoin_buys_in_again_and_grows_the_pot(user: User) -> None:
    pool = pool_with_chen_out(user, buy_in=Decimal("10.00"))
    rejoin(pool, pool.seats.get(player__name="Chen"), user)

    money = money_of(load_scoreboard(pool))

    assert money.pot == Decimal("40.00")  # three buy-ins and Chen's second
    assert sum(s.amount for s in money.shares) == Decimal("40.00")


def test_a_latecomer_buys_in_as_a_rejoin_does_and_grows_the_pot(user: User) -> None:
    pool = pool_with_chen_out(user, buy_in=Decimal("10.00"))
    join(pool, "Kim", user)

    money = money_of(load_scoreboard(pool))

    assert money.pot == Decimal("40.00")  # three buy-ins and Kim's
    assert {s.name for s in money.shares} == {"Asha", "Ben", "Kim"}
    assert sum(s.amount for s in money.shares) == Decimal("40.00")


def test_the_winner_of_a_finished_pool_takes_the_pot(user: User) -> None:
    pool = pool_with_chen_out(user, buy_in=Decimal("5.00"))
    # Ben 60 + 80 = 140: out, and Asha is left alone.
    play(pool, "7C", {"Asha": ("declared", WIN_13), "Ben": ("invalid_declaration", "")})

    money = money_of(load_scoreboard(pool))

    assert money.pot == Decimal("15.00") and money.pot_winners == ("Asha",)
    assert money.shares == ()
