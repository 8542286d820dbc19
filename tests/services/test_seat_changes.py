"""Mending the table's seats (games/services/seat_changes.py): the latest join or leave
taken back until the next round, with the toss it dealt, and a name typed wrong
corrected by pointing the seat at the right player."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games.models import (
    HandEntry,
    Player,
    PlayerClaim,
    Rating,
    Seat,
    SeatChange,
    StandingMonth,
)
from games.services.errors import EntryRejected
from games.services.leagues import create_league
from games.services.money import money_of
from games.services.round_entries import new_round_entry
from games.services.scoreboard import load_scoreboard
from games.services.seat_changes import rename, take_back_change
from games.services.sessions import join, leave
from games.transfer.tables import session_history
from tests.support.builders import finished_session, make_session, play, pool_with_chen_out
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


# --- Correcting a name -------------------------------------------------------------------


def test_a_rename_points_the_seat_at_a_new_player_and_every_round_follows(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Ravee"))
    play(table, "8S", {**ASHA_AND_BEN, "Ravee": ROUND_1["Chen"]})
    seat = table.seats.get(player__name="Ravee")
    total = load_scoreboard(table).state.totals["Ravee"]

    made = rename(table, seat, "  Ravi ", user)

    seat.refresh_from_db()
    assert seat.player.name == "Ravi"
    assert (made.kind, made.old_name, made.new_name, made.after_round) == (
        "rename",
        "Ravee",
        "Ravi",
        1,
    )
    assert made.words == "Ravee was renamed Ravi" and made.created_by == user
    assert not Player.objects.filter(name="Ravee").exists()  # only the typo held it
    assert HandEntry.objects.filter(round__session=table, player=seat.player).count() == 1
    board = load_scoreboard(table)
    assert [c.name for c in board.columns] == ["Asha", "Ben", "Ravi"]
    assert board.state.totals["Ravi"] == total and seat.total == total
    exported = session_history(table)  # the rounds download
    assert "Ravi: score" in exported.header and exported.rows[0][-1] == total


def test_a_rename_finds_the_leagues_player_of_that_name(user: User) -> None:
    league = create_league(user, name="Club", preset="21-points", overrides={})
    make_session(user, players=("Ravi", "Asha"), league=league)
    table = make_session(user, players=("Asha", "Ben", "Ravee"), league=league)

    rename(table, table.seats.get(player__name="Ravee"), "ravi", user)

    ravi = Player.objects.get(name="Ravi")  # one Ravi, not two
    assert table.seats.filter(player=ravi).exists()


def test_a_rename_never_renames_or_finds_another_clubs_player(user: User) -> None:
    stranger = User.objects.create_user("stranger")
    make_session(stranger, players=("Ravi", "Zed"))
    table = make_session(user, players=("Asha", "Ravee"))

    rename(table, table.seats.get(player__name="Ravee"), "Ravi", user)

    assert Player.objects.filter(name="Ravi").count() == 2
    theirs = Seat.objects.get(session__created_by=stranger, player__name="Ravi")
    assert table.seats.get(position=2).player_id != theirs.player_id


def test_a_renamed_player_who_is_claimed_or_seated_elsewhere_is_kept(user: User) -> None:
    league = create_league(user, name="Club", preset="21-points", overrides={})
    table = make_session(user, players=("Asha", "Ravee"), league=league)
    ravee = Player.objects.get(name="Ravee")
    PlayerClaim.objects.create(league=league, player=ravee, user=user)

    rename(table, table.seats.get(player=ravee), "Ravi", user)

    assert Player.objects.filter(pk=ravee.pk).exists()


def test_a_name_respelt_changes_the_players_own_record_only_where_no_one_else_holds_it(
    user: User,
) -> None:
    # "asha" typed at seating, "Asha" meant: the same name to the rules, so the only
    # correction is the record's own spelling, and only where it is this seat's alone.
    table = make_session(user, players=("asha", "Ben"))
    asha = table.seats.get(position=1).player

    made = rename(table, table.seats.get(player=asha), "Asha", user)

    asha.refresh_from_db()
    assert asha.name == "Asha" and made.words == "asha was renamed Asha"
    make_session(user, players=("Asha", "Chen"))  # now she sits at another table too
    with pytest.raises(EntryRejected, match="written so at other tables too"):
        rename(table, table.seats.get(player=asha), "ASHA", user)
    asha.refresh_from_db()
    assert asha.name == "Asha"


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("ben", "Ben already has a seat at this table."),
        ("Ravee", "Ravee is the name they have."),
        ("   ", "Say the name to seat them under."),
        ("Ra\u202evi", "A name may hold only printable text: U+202E is an invisible"),
        ("R" * 61, "A name may be at most 60 characters long (this one has 61)."),
    ],
)
def test_a_rename_is_refused_for_a_name_at_the_table_or_no_name(
    user: User, typed: str, why: str
) -> None:
    table = make_session(user, players=("Asha", "Ben", "Ravee"))

    with pytest.raises(EntryRejected) as refused:
        rename(table, table.seats.get(player__name="Ravee"), typed, user)

    assert str(refused.value).startswith(why)
    assert table.seats.filter(player__name="Ravee").exists()
    assert not SeatChange.objects.exists()


def test_a_rename_moves_the_standings_and_ratings_to_the_corrected_player(user: User) -> None:
    league = create_league(user, name="Club", preset="21-points", overrides={})
    finished_session(user, league=league)  # Chen's own night
    table = finished_session(user, league=league)  # where "Chen" was Chenna
    months = StandingMonth.objects.filter(league=league)
    assert months.get(player__name="Chen").sessions == 2

    rename(table, table.seats.get(player__name="Chen"), "Chenna", user)

    assert months.get(player__name="Chen").sessions == 1
    assert months.get(player__name="Chenna").sessions == 1
    ratings = Rating.objects.filter(league=league)
    assert ratings.get(player__name="Chen").sessions == 1
    assert ratings.get(player__name="Chenna").sessions == 1
