"""Entering a round through the services (games/services/rounds.py): checking it with
the rules service while it is typed, saving what the rules service computed, and
refusing stale edits and rounds of a finished session."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, HandEntry, Round
from games.services.errors import EntryRejected
from games.services.rounds import (
    RoundConflict,
    check_round,
    delete_round,
    new_round_entry,
    round_entry_for_edit,
    save_round,
)
from tests.support.builders import make_session, play, seat_pk
from tests.support.hands import LOOSE_148, SHOWN_8S, THREE_PURE, WIN_8S

pytestmark = pytest.mark.django_db

ROUND_1 = (
    "8S",
    {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")},
)


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
