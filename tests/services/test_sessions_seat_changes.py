"""Players leaving the table mid-session (games/services/sessions.py): the rules
service replays what follows, the leaver keeps their total and is still settled."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games.models import Seat, SeatChange
from games.services.errors import EntryRejected
from games.services.money import money_of
from games.services.round_entries import new_round_entry
from games.services.scoreboard import load_scoreboard
from games.services.sessions import leave
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S

pytestmark = pytest.mark.django_db

ASHA_AND_BEN = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S)}


def test_a_leaver_keeps_their_total_and_plays_no_later_round(user: User) -> None:
    table = make_session(user, money_per_point=Decimal("1.00"))
    play(table, "8S", ROUND_1)
    chen = table.seats.get(player__name="Chen")
    total_after_round_1 = load_scoreboard(table).state.totals["Chen"]

    made = leave(table, chen, user)

    assert (made.kind, made.after_round, made.created_by) == ("leave", 1, user)
    assert [s.player.name for s in new_round_entry(table).seats] == ["Asha", "Ben"]
    play(table, "8S", ASHA_AND_BEN)
    board = load_scoreboard(table)
    column = next(c for c in board.columns if c.name == "Chen")
    assert column.left_after == 1 and column.total == total_after_round_1
    assert board.rows[1].cells[2].score is None and board.rows[1].cells[2].away
    # Still settled: the stored result and the money both count the leaver.
    assert Seat.objects.get(pk=chen.pk).total == total_after_round_1
    payers = {payment.payer for payment in money_of(board).payments}
    assert "Chen" in payers


def test_nobody_leaves_before_the_first_round(user: User) -> None:
    table = make_session(user)

    with pytest.raises(EntryRejected, match="before the first round"):
        leave(table, table.seats.get(player__name="Chen"), user)

    assert not SeatChange.objects.exists()


def test_a_player_who_left_may_not_leave_again(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Chen", "Dev"))
    play(table, "8S", {**ROUND_1, "Dev": ("first_drop", "")})
    dev = table.seats.get(player__name="Dev")
    leave(table, dev, user)

    with pytest.raises(EntryRejected, match="Dev may not leave"):
        leave(table, dev, user)

    assert SeatChange.objects.count() == 1


def test_the_last_player_but_one_leaving_ends_the_session(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben"))
    play(table, "8S", ASHA_AND_BEN)

    leave(table, table.seats.get(player__name="Ben"), user)

    board = load_scoreboard(table)
    assert board.finished and board.winners == ("Asha",)
    with pytest.raises(EntryRejected, match="session is over"):
        leave(table, table.seats.get(player__name="Asha"), user)
