"""services.py: the use cases, against the database and the real rules service."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User

from games.access import can_view, can_write, sessions_visible_to
from games.models import GameSession, HandEntry, Player, Round
from games.rules import PRESETS, RulesError
from games.services.errors import EntryRejected
from games.services.rounds import (
    RoundConflict,
    check_round,
    delete_round,
    new_round_entry,
    round_entry_for_edit,
    save_round,
)
from games.services.rulesets import describe_preset
from games.services.scoreboard import load_scoreboard
from games.services.sessions import create_session, toss_seats

from .conftest import (
    LOOSE_148,
    SHOWN_8S,
    THREE_PURE,
    WIN_8S,
    WIN_13,
    expected_totals,
    make_session,
    play,
    seat_pk,
)

pytestmark = pytest.mark.django_db

ROUND_1 = (
    "8S",
    {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")},
)


def test_create_session_seats_players_in_order_and_stores_only_changed_options(user: User) -> None:
    make_session(user, players=("asha", "Dev"))  # a table this user played at
    session = create_session(
        user,
        preset="21-points",
        overrides={"first_drop": 25, "middle_drop": 70},  # 70 is the preset's own
        players=["Asha", "Ben", "Chen"],
        first_dealer=2,
    )

    assert [s.player.name for s in session.seats.order_by("position")] == ["asha", "Ben", "Chen"]
    assert Player.objects.count() == 4  # "Asha" is the user's "asha"; and Dev
    assert session.overrides == {"first_drop": 25}
    assert session.first_dealer.player.name == "Chen"
    assert session.created_by == user


def test_create_session_refuses_an_invalid_override(user: User) -> None:
    with pytest.raises(RulesError) as caught:
        make_session(user, overrides={"hand_cap": -1})

    assert caught.value.field == "overrides.hand_cap"
    assert not GameSession.objects.exists()


def test_scoreboard_replays_rounds_through_the_rules_service(table: GameSession) -> None:
    play(table, *ROUND_1)
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
    expected = expected_totals("21-points", ("Asha", "Ben", "Chen"), [ROUND_1, round_2])

    assert {c.name: c.total for c in board.columns} == expected.totals
    assert [[cell.total for cell in row.cells] for row in board.rows] == [
        [line.totals[name] for name in ("Asha", "Ben", "Chen")] for line in expected.lines
    ]
    assert [row.round.number for row in board.rows] == [1, 2]
    # Asha dealt first (seat 1 by default), then the deal passes clockwise.
    assert [row.dealer for row in board.rows] == ["Asha", "Ben"]
    assert board.next_dealer.player.name == "Chen"
    assert [c.deals_next for c in board.columns] == [False, False, True]


def test_saved_entries_keep_what_the_rules_service_computed(table: GameSession) -> None:
    played = play(table, *ROUND_1)

    ben = played.entries.get(player__name="Ben")
    assert (ben.hand_points, ben.value_points, ben.score) == (102, 10, -92)
    assert ben.groups[0] == ["2D", "3D", "4D"]
    assert ben.breakdown["groups"][0] == {
        "cards": ["2D", "3D", "4D"],
        "kind": "pure_sequence",
        "label": "pure sequence",
        "counted": 0,
        "left_out": True,
    }
    assert "count 102" in ben.breakdown["lines"]
    asha = played.entries.get(player__name="Asha")
    assert (asha.declaration, asha.score) == ("three_pure", 122)
    assert played.cut_joker == "8S"


def test_check_round_previews_each_hand_while_typing(table: GameSession) -> None:
    entry = new_round_entry(table)
    check = check_round(
        entry,
        "8s",
        {
            seat_pk(table, "Asha"): ("declared", "2H 3H 4H | 5C 6C"),
            seat_pk(table, "Ben"): ("shown", ""),
        },
        final=False,
    )

    assert check.jokers == ("8C", "8D", "8H", "8S", "7S", "9S", "PJ")
    asha = check.players[0]
    assert [str(g.kind) for g in asha.assessment.groups] == ["pure_sequence", "invalid"]
    assert asha.assessment.problems == ("Asha must show all 21 cards, not 5",)
    assert check.result is None and not check.has_errors  # nothing is wrong yet, only unfinished


def test_check_round_scores_once_every_hand_is_complete(table: GameSession) -> None:
    entry = new_round_entry(table)
    typed = {seat_pk(table, name): hand for name, hand in ROUND_1[1].items()}

    check = check_round(entry, "8S", typed, final=False)

    assert check.valid
    assert [p.result.score for p in check.players] == [122, -92, -30]


def test_a_card_error_names_the_token_and_where_it_is(table: GameSession) -> None:
    entry = new_round_entry(table)
    check = check_round(
        entry, "8S", {seat_pk(table, "Ben"): ("shown", "2D 3D 4D | 9C 1C JC")}, final=False
    )

    assert check.players[1].groups_errors == [
        "'1C' is not a card (group 2, card 2): write 10 or T for a ten, A for an ace"
    ]


def test_two_winners_are_told_beside_each_winner(table: GameSession) -> None:
    entry = new_round_entry(table)
    typed = {
        seat_pk(table, "Asha"): ("declared", WIN_8S),
        seat_pk(table, "Ben"): ("shown", SHOWN_8S),
        seat_pk(table, "Chen"): ("declared", THREE_PURE),
    }

    check = check_round(entry, "8S", typed, final=True)

    assert not check.valid
    asha, ben, chen = check.players
    assert "more than one winner" in asha.outcome_errors[0]
    assert "more than one winner" in chen.outcome_errors[0]
    assert ben.errors == []


def test_save_round_refuses_a_new_round_on_a_finished_session(user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    round_1 = {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)}  # Ben loses 120
    play(session, "8S", round_1)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED

    entry = new_round_entry(session)
    assert entry.finished and entry.winners == ("Asha",)
    typed = {seat_pk(session, n): h for n, h in round_1.items()}
    check = check_round(entry, "8S", typed, final=True)
    with pytest.raises(EntryRejected, match="over"):
        save_round(entry, check, user)
    assert Round.objects.count() == 1


def test_save_round_refuses_an_edit_of_a_changed_round(table: GameSession, user: User) -> None:
    played = play(table, *ROUND_1)
    entry = round_entry_for_edit(played)
    edited = ROUND_1[1] | {"Asha": ("declared", THREE_PURE)}  # valid under a 9S cut too
    typed = {seat_pk(table, n): h for n, h in edited.items()}
    check = check_round(entry, "9S", typed, final=True)

    save_round(entry, check, user, version=1)
    # Another form opened at version 1, with other hands: refused. (The same form sent
    # again is a retry whose answer was lost: test_round_conflicts.py.)
    other = check_round(
        entry, "9S", typed | {seat_pk(table, "Chen"): ("middle_drop", "")}, final=True
    )
    with pytest.raises(RoundConflict, match="saved on another device") as clash:
        save_round(entry, other, user, version=1)  # still at version 1
    assert clash.value.theirs.version == 2  # their version, to show

    played.refresh_from_db()
    assert (played.cut_joker, played.version) == ("9S", 2)


def test_delete_round_renumbers_later_rounds_without_gaps(table: GameSession) -> None:
    rounds = [play(table, *ROUND_1) for _ in range(4)]

    delete_round(rounds[1], table.created_by)

    assert list(table.rounds.order_by("number").values_list("pk", "number")) == [
        (rounds[0].pk, 1),
        (rounds[2].pk, 2),
        (rounds[3].pk, 3),
    ]
    assert HandEntry.objects.filter(round=rounds[1]).count() == 0


def test_pool_session_eliminates_and_finishes_from_derived_state(user: User) -> None:
    pool = make_session(user, preset="13-pool-101")
    rounds = [
        (
            "7C",
            {
                "Asha": ("declared", WIN_13),
                "Ben": ("middle_drop", ""),
                "Chen": ("invalid_declaration", ""),
            },
        ),
        (
            "7C",
            {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Chen": ("middle_drop", "")},
        ),
    ]
    for cut, hands in rounds:
        play(pool, cut, hands)

    board = load_scoreboard(pool)
    expected = expected_totals("13-pool-101", ("Asha", "Ben", "Chen"), rounds)
    assert board.state.eliminated_in == expected.eliminated_in == {"Chen": 2}
    assert [c.eliminated_in for c in board.columns] == [None, None, 2]
    assert [s.player.name for s in board.playing_seats] == ["Asha", "Ben"]
    assert [cell.out for cell in board.rows[1].cells] == [False, False, True]
    # The next round's form is for the players still in.
    assert [s.player.name for s in new_round_entry(pool).seats] == ["Asha", "Ben"]


def test_toss_seats_deals_one_card_each_from_the_rules_service() -> None:
    dealt = toss_seats(["Asha", "Ben", "Chen"], PRESETS["21-points"], random.Random(7))

    assert sorted(name for name, _ in dealt) == ["Asha", "Ben", "Chen"]
    assert all(not card.is_printed_joker for _, card in dealt)


def test_visibility_follows_creator_and_league_membership(user: User, table: GameSession) -> None:
    from games.models import League, Membership

    other = User.objects.create_user("ben")
    assert can_view(user, table) and can_write(user, table)
    assert not can_view(other, table)

    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    table.league = league
    table.save()
    membership = Membership.objects.create(league=league, user=other, role="viewer")
    assert can_view(other, table) and not can_write(other, table)
    membership.role = "scorer"
    membership.save()
    assert can_write(other, table)
    assert list(sessions_visible_to(other)) == [table]


def test_describe_preset_comes_from_the_preset_options() -> None:
    assert describe_preset("13-pool-101") == (
        "13 cards, 2 decks · losers add their points, lowest total is best · out at 101"
    )
    assert "value cards" in describe_preset("21-points")
