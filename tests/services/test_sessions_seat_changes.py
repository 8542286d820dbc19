"""Players joining and leaving the table mid-session (games/services/sessions.py): the
rules service replays what follows, the leaver keeps their total and is still
settled, a latecomer starts at the total the rules give, and a toss seats the table
anew where the rules call for one."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games.models import Seat, SeatChange
from games.services.errors import EntryRejected
from games.services.money import money_of
from games.services.round_entries import new_round_entry, round_entry_for_edit
from games.services.scoreboard import load_scoreboard
from games.services.sessions import join, leave, rejoin
from tests.support.builders import make_session, play, pool_with_chen_out
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S, WIN_13

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

    assert SeatChange.objects.filter(kind="leave").count() == 1


def test_the_last_player_but_one_leaving_ends_the_session(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben"))
    play(table, "8S", ASHA_AND_BEN)

    leave(table, table.seats.get(player__name="Ben"), user)

    board = load_scoreboard(table)
    assert board.finished and board.winners == ("Asha",)
    with pytest.raises(EntryRejected, match="session is over"):
        leave(table, table.seats.get(player__name="Asha"), user)


def test_a_toss_seats_the_table_after_the_first_dealer_leaves(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Chen", "Dev"))
    play(table, "8S", {**ROUND_1, "Dev": ("first_drop", "")})  # Asha dealt it

    leave(table, table.seats.get(player__name="Asha"), user, random.Random(3))

    seating = SeatChange.objects.get(kind="seats")
    board = load_scoreboard(table)
    tossed = [table.seats.get(pk=pk).player.name for pk in seating.seats]
    assert sorted(tossed) == ["Ben", "Chen", "Dev"] and seating.after_round == 1
    assert not board.state.toss_due
    assert board.next_dealer.player.name == tossed[-1]  # the lowest card deals
    assert [s.player.name for s in board.playing_seats] == ["Ben", "Chen", "Dev"]
    played = play(
        table,
        "8S",
        {"Ben": ("declared", WIN_8S), "Chen": ("shown", SHOWN_8S), "Dev": ("first_drop", "")},
    )
    assert played.dealer.player.name == tossed[-1]
    assert load_scoreboard(table).next_dealer is not None


def test_a_latecomer_joins_at_zero_in_a_points_game_and_plays_the_next_round(
    user: User,
) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)

    made = join(table, "  Dev ", user, random.Random(1))

    assert (made.kind, made.after_round, made.seat.player.name) == ("join", 1, "Dev")
    assert made.seat.position == 4
    board = load_scoreboard(table)
    dev = next(c for c in board.columns if c.name == "Dev")
    assert (dev.total, dev.joined_after) == (0, 1)
    assert sorted(s.player.name for s in new_round_entry(table).seats) == [
        "Asha",
        "Ben",
        "Chen",
        "Dev",
    ]
    assert board.rows[0].cells[3].away and board.rows[0].cells[3].total == 0


def test_a_latecomer_in_a_pool_starts_above_the_worst_total_still_in(user: User) -> None:
    pool = pool_with_chen_out(user)  # Ben's 60 is the worst total still in

    join(pool, "Dev", user)

    assert load_scoreboard(pool).state.totals["Dev"] == 61


def test_a_player_out_of_a_pool_may_go_home_and_the_table_plays_on(user: User) -> None:
    pool = pool_with_chen_out(user)  # Chen out at 120 after round 2

    leave(pool, pool.seats.get(player__name="Chen"), user, random.Random(2))
    third = play(pool, "7C", {"Asha": ("declared", WIN_13), "Ben": ("first_drop", "")})

    board = load_scoreboard(pool)
    chen = next(c for c in board.columns if c.name == "Chen")
    assert (chen.eliminated_in, chen.left_after, chen.total) == (2, 2, 120)
    assert board.rows[third.number - 1].cells[2].away
    assert board.state.totals == {"Asha": 0, "Ben": 80, "Chen": 120}
    assert board.warnings == ()


def test_a_player_out_who_went_home_is_offered_no_rejoin(user: User) -> None:
    pool = pool_with_chen_out(user)  # Chen may rejoin at 61
    chen = pool.seats.get(player__name="Chen")

    leave(pool, chen, user, random.Random(2))

    # Neither offered nor refused on the table, as the rules' rejoin offers say.
    gone = next(c for c in load_scoreboard(pool).columns if c.name == "Chen")
    assert (gone.rejoin_at, gone.rejoin_refused) == (None, None)
    with pytest.raises(EntryRejected, match="Chen may not rejoin: Chen has left the table"):
        rejoin(pool, chen, user)


def test_a_rejoin_made_after_a_leave_is_replayed_after_it(user: User) -> None:
    pool = make_session(user, players=("Asha", "Ben", "Chen", "Dev"), preset="13-pool-101")
    drops = {"Asha": ("declared", WIN_13), "Ben": ("middle_drop", ""), "Dev": ("first_drop", "")}
    play(pool, "7C", drops | {"Chen": ("invalid_declaration", "")})
    play(pool, "7C", drops | {"Chen": ("middle_drop", "")})  # Chen out at 120, Ben at 80
    assert load_scoreboard(pool).columns[2].rejoin_refused == (
        "Ben is still in at 80, above the cutoff of 79"
    )

    leave(pool, pool.seats.get(player__name="Ben"), user, random.Random(1))
    # Ben gone, Dev's 40 is the highest total still in: Chen buys back in at 41, and
    # stays in when the session is read again, the leave replayed before the rejoin.
    rejoin(pool, pool.seats.get(player__name="Chen"), user)

    board = load_scoreboard(pool)
    assert board.warnings == ()
    chen = next(c for c in board.columns if c.name == "Chen")
    assert (chen.total, chen.eliminated_in, chen.rejoined_after) == (41, None, (2,))
    assert [s.player.name for s in board.playing_seats] == ["Asha", "Chen", "Dev"]


def test_a_name_already_at_the_table_cannot_join(user: User) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)

    with pytest.raises(EntryRejected, match="Ben already has a seat"):
        join(table, "ben", user)

    assert not SeatChange.objects.exists()


def test_nobody_joins_a_finished_session(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben"))
    play(table, "8S", ASHA_AND_BEN)
    leave(table, table.seats.get(player__name="Ben"), user)

    with pytest.raises(EntryRejected, match="session is over"):
        join(table, "Dev", user)

    assert not table.seats.filter(player__name="Dev").exists()


def test_editing_a_round_offers_only_the_players_at_the_table_then(user: User) -> None:
    table = make_session(user)
    first = play(table, "8S", ROUND_1)
    leave(table, table.seats.get(player__name="Chen"), user)
    join(table, "Dev", user)
    dealt = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Dev": ("first_drop", "")}
    second = play(table, "8S", dealt)

    def names(played):
        return sorted(s.player.name for s in round_entry_for_edit(played).seats)

    assert names(first) == ["Asha", "Ben", "Chen"]
    assert names(second) == ["Asha", "Ben", "Dev"]
