"""A session's score table (games/services/scoreboard.py), replayed by the rules service
from the saved round scores: totals, eliminations and the winner are derived, never
stored."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import GameSession
from games.services.round_entries import new_round_entry
from games.services.scoreboard import LatestTotal, latest_totals, load_scoreboard
from tests.support.builders import expected_totals, play, pool_with_chen_out
from tests.support.hands import LOOSE_148, POOL_ROUNDS, ROUND_1, THREE_PURE

pytestmark = pytest.mark.django_db


def test_scoreboard_replays_rounds_through_the_rules_service(table: GameSession) -> None:
    play(table, "8S", ROUND_1)
    round_2 = (
        "5H",
        {
            "Asha": ("middle_drop", ""),
            "Ben": ("declared", THREE_PURE),
            "Chen": ("shown", LOOSE_148),
        },
    )
    play(table, *round_2)

    board = load_scoreboard(table)
    expected = expected_totals("21-points", ("Asha", "Ben", "Chen"), [("8S", ROUND_1), round_2])

    assert {c.name: c.total for c in board.columns} == expected.totals
    assert [[cell.total for cell in row.cells] for row in board.rows] == [
        [line.totals[name] for name in ("Asha", "Ben", "Chen")] for line in expected.lines
    ]
    assert [row.round.number for row in board.rows] == [1, 2]
    # Asha dealt first (seat 1 by default), then the deal passes clockwise.
    assert [row.dealer for row in board.rows] == ["Asha", "Ben"]
    assert board.next_dealer.player.name == "Chen"
    assert [c.deals_next for c in board.columns] == [False, False, True]


def test_pool_session_eliminates_and_finishes_from_derived_state(user: User) -> None:
    pool = pool_with_chen_out(user)

    board = load_scoreboard(pool)
    rounds = [("7C", hands) for hands in POOL_ROUNDS]
    expected = expected_totals("13-pool-101", ("Asha", "Ben", "Chen"), rounds)
    assert board.state.eliminated_in == expected.eliminated_in == {"Chen": 2}
    assert [c.eliminated_in for c in board.columns] == [None, None, 2]
    assert [s.player.name for s in board.playing_seats] == ["Asha", "Ben"]
    assert [cell.out for cell in board.rows[1].cells] == [False, False, True]
    # The next round's form is for the players still in.
    assert [s.player.name for s in new_round_entry(pool).seats] == ["Asha", "Ben"]


def test_the_latest_totals_give_each_player_their_total_and_last_score(user: User) -> None:
    pool = pool_with_chen_out(user)  # round 2: Asha 0, Ben +20, Chen +40 and out

    assert latest_totals(load_scoreboard(pool)) == (
        LatestTotal("Asha", 0, 0, out=False, winner=False),
        LatestTotal("Ben", 60, 20, out=False, winner=False),
        LatestTotal("Chen", 120, 40, out=True, winner=False),
    )


def test_there_are_no_latest_totals_before_the_first_round(table: GameSession) -> None:
    assert latest_totals(load_scoreboard(table)) == ()
