"""Saving a round (games/services/round_saves.py): what the rules service computed is
what is kept; stale edits and rounds of a finished session are refused; a delete
closes the gap."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games.models import GameSession, HandEntry, Round
from games.services.errors import EntryRejected, RoundConflict
from games.services.round_checks import check_round
from games.services.round_entries import new_round_entry, round_entry_for_edit
from games.services.round_saves import delete_round, save_round
from tests.support.builders import by_seat, make_session, play, seat_pk
from tests.support.hands import (
    LOOSE_148,
    ROUND_1,
    THREE_PURE,
    WIN_8S,
)

pytestmark = pytest.mark.django_db


def test_saved_entries_keep_what_the_rules_service_computed(table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)

    ben = played.entries.get(player__name="Ben")
    assert (ben.hand_points, ben.value_points, ben.score) == (102, 10, -92)
    assert ben.groups[0] == ["2D", "3D", "4D"]
    assert ben.breakdown["groups"][0] == {
        "cards": ["2D", "3D", "4D"],
        "kind": "pure_sequence",
        "counted": 0,
        "left_out": True,
    }
    assert "count 102" in ben.breakdown["lines"]
    asha = played.entries.get(player__name="Asha")
    assert (asha.declaration, asha.score) == ("three_pure", 122)
    assert played.cut_joker == "8S"


def test_save_round_refuses_a_new_round_on_a_finished_session(user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    round_1 = {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)}  # Ben loses 120
    play(session, "8S", round_1)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED

    entry = new_round_entry(session)
    assert entry.finished and entry.winners == ("Asha",)
    check = check_round(entry, "8S", by_seat(session, round_1), final=True)
    with pytest.raises(EntryRejected, match="over"):
        save_round(entry, check, user)
    assert Round.objects.count() == 1


def test_save_round_refuses_an_edit_of_a_changed_round(table: GameSession, user: User) -> None:
    played = play(table, "8S", ROUND_1)
    entry = round_entry_for_edit(played)
    edited = ROUND_1 | {"Asha": ("declared", THREE_PURE)}  # valid under a 9S cut too
    typed = by_seat(table, edited)
    check = check_round(entry, "9S", typed, final=True)

    save_round(entry, check, user, version=1)
    # Another form opened at version 1, with other hands: refused. (The same form sent
    # again is a retry whose answer was lost: tests/views/test_rounds_conflicts.py.)
    other = check_round(
        entry, "9S", typed | {seat_pk(table, "Chen"): ("middle_drop", "")}, final=True
    )
    with pytest.raises(RoundConflict, match="saved on another phone") as clash:
        save_round(entry, other, user, version=1)  # still at version 1
    assert clash.value.theirs.version == 2  # their version, to show

    played.refresh_from_db()
    assert (played.cut_joker, played.version) == ("9S", 2)


def test_delete_round_renumbers_later_rounds_without_gaps(table: GameSession) -> None:
    rounds = [play(table, "8S", ROUND_1) for _ in range(4)]

    delete_round(rounds[1], table.created_by)

    assert list(table.rounds.order_by("number").values_list("pk", "number")) == [
        (rounds[0].pk, 1),
        (rounds[2].pk, 2),
        (rounds[3].pk, 3),
    ]
    assert HandEntry.objects.filter(round=rounds[1]).count() == 0


def test_a_round_saved_since_the_form_opened_is_not_saved_again(table: GameSession) -> None:
    from games.services.errors import RoundRepeated
    from games.services.round_saves import NewRound, create_round

    entry = new_round_entry(table)  # the form opened at round 1 (on a second phone)
    theirs = play(table, "8S", ROUND_1)  # the first phone saves round 1
    check = check_round(entry, "8S", by_seat(table, ROUND_1), final=True)

    with pytest.raises(RoundRepeated, match="This is round 1 again") as repeat:
        create_round(NewRound(entry, check, expected_number=2, opened_number=1), table.created_by)
    assert repeat.value.theirs == theirs
    assert Round.objects.count() == 1
    # Another round from that form is saved, as round 2.
    other = ROUND_1 | {"Chen": ("middle_drop", "")}
    check = check_round(entry, "8S", by_seat(table, other), final=True)
    saved = create_round(
        NewRound(entry, check, expected_number=2, opened_number=1), table.created_by
    )
    assert saved.round.number == 2


def test_a_hand_keeps_its_working_in_each_language_whoever_saved_it(table: GameSession) -> None:
    # Saved from a phone in Hindi: the working is kept in English and in Hindi.
    with translation.override("hi"):
        played = play(table, "8S", ROUND_1)

    ben = played.entries.get(player__name="Ben")
    assert "count 102" in ben.breakdown["lines"]
    assert "काउंट 102" in ben.breakdown["said"]["hi"]["lines"]
    assert "count 102" in ben.explanation.lines
    with translation.override("hi"):
        assert "काउंट 102" in ben.explanation.lines


def test_a_hand_kept_before_its_language_was_reads_in_english(table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)
    ben = played.entries.get(player__name="Ben")
    ben.breakdown.pop("said")

    with translation.override("hi"):
        assert "count 102" in ben.explanation.lines


def test_india_s_english_reads_the_source_s_lines(table: GameSession) -> None:
    # A regional English has no words of its own: nothing is kept for it.
    played = play(table, "8S", ROUND_1)
    ben = played.entries.get(player__name="Ben")

    assert set(ben.breakdown["said"]) == {"hi"}
    with translation.override("en-in"):
        assert "count 102" in ben.explanation.lines
