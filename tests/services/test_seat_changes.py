"""Mending the table's seats (games/services/seat_changes.py): the latest join or leave
taken back until the next round, with the toss it dealt."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games.models import Player, SeatChange
from games.services.errors import EntryRejected
from games.services.money import money_of
from games.services.round_entries import new_round_entry
from games.services.scoreboard import load_scoreboard
from games.services.seat_changes import take_back_change
from games.services.sessions import join, leave
from tests.support.builders import make_session, play, pool_with_chen_out
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S

pytestmark = pytest.mark.django_db

ASHA_AND_BEN = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S)}


def test_a_leave_taken_back_seats_the_player_again_and_forgets_its_toss(user: User) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    dealer_before = load_scoreboard(table).next_dealer
    made = leave(table, table.seats.get(player__name="Chen"), user, random.Random(2))
    assert SeatChange.objects.filter(kind="seats").exists()  # the toss it dealt

    taken = take_back_change(table, made.pk)

    assert (taken.name, taken.kind) == ("Chen", "leave")
    assert not table.seat_changes.exists()
    board = load_scoreboard(table)
    assert "Chen" in board.state.active and board.next_dealer == dealer_before
    assert [s.player.name for s in new_round_entry(table).seats] == ["Asha", "Ben", "Chen"]


def test_a_join_taken_back_removes_the_latecomers_seat_and_new_player(user: User) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    made = join(table, "Kim", user)

    take_back_change(table, made.pk)

    assert not table.seats.filter(player__name="Kim").exists()
    assert not Player.objects.filter(
        name="Kim"
    ).exists()  # the join made her, nothing else holds her
    assert not table.seat_changes.exists()
    assert [c.name for c in load_scoreboard(table).columns] == ["Asha", "Ben", "Chen"]


def test_a_join_taken_back_keeps_a_player_who_sits_at_other_tables(user: User) -> None:
    earlier = make_session(user, players=("Kim", "Asha"))
    table = make_session(user)
    play(table, "8S", ROUND_1)
    made = join(table, "kim", user)
    assert made.seat.player.pk == earlier.seats.get(position=1).player_id

    take_back_change(table, made.pk)

    assert earlier.seats.filter(player__name="Kim").exists()


def test_a_leave_that_ended_the_session_is_taken_back_and_play_goes_on(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben"))
    play(table, "8S", ASHA_AND_BEN)
    made = leave(table, table.seats.get(player__name="Ben"), user)
    assert load_scoreboard(table).finished

    take_back_change(table, made.pk)

    table.refresh_from_db()
    assert not load_scoreboard(table).finished and table.status == "active"


def test_only_the_latest_change_is_taken_back(user: User) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    gone = leave(table, table.seats.get(player__name="Chen"), user)
    came = join(table, "Kim", user)

    with pytest.raises(EntryRejected, match="only the latest may be"):
        take_back_change(table, gone.pk)

    take_back_change(table, came.pk)  # then the leave is the latest
    assert load_scoreboard(table).last_change.pk == gone.pk
    # The leave's own toss is kept: it seated the table that the join found.
    assert table.seat_changes.filter(kind="seats").count() == 1
    take_back_change(table, gone.pk)
    assert not table.seat_changes.exists()


def test_a_change_played_on_is_not_taken_back(user: User) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    made = leave(table, table.seats.get(player__name="Chen"), user)
    play(table, "8S", ASHA_AND_BEN)

    with pytest.raises(EntryRejected) as refused:
        take_back_change(table, made.pk)

    assert str(refused.value) == (
        "Chen's leaving after round 1 can no longer be taken back: round 2 has been played since."
    )
    assert load_scoreboard(table).change_to_take_back is None
    assert table.seat_changes.filter(kind="leave").exists()


def test_a_latecomers_buy_in_leaves_the_pot_with_their_join(user: User) -> None:
    pool = pool_with_chen_out(user, buy_in=Decimal("10.00"))
    made = join(pool, "Kim", user)
    assert money_of(load_scoreboard(pool)).pot == Decimal("40.00")  # three seats, and Kim

    take_back_change(pool, made.pk)

    assert money_of(load_scoreboard(pool)).pot == Decimal("30.00")
