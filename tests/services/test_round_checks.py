"""Checking a round with the rules service while it is typed (games/services/round_checks.py):
the preview of each hand, the settlement once every hand is complete, the solver's
grouping where the cards were typed in any order, and each error beside its player."""

from __future__ import annotations

import pytest

from games.models import GameSession, RoundChange
from games.rules import (
    PRESETS,
    PlayerHand,
    arrange,
    format_groups,
    parse_card,
    parse_cards,
    score_round,
)
from games.services import round_checks
from games.services.round_checks import check_round
from games.services.round_entries import initial_values, new_round_entry
from games.services.round_saves import save_round
from tests.support.builders import by_seat, make_session, seat_pk
from tests.support.hands import (
    FIVE_DUBLEES,
    LOOSE_148,
    ROUND_1,
    SEED_BEN,
    SHOWN_8S,
    THREE_PURE,
    VALUE_C,
    WIN_8S,
    ZERO_COUNT,
    shuffled,
)

pytestmark = pytest.mark.django_db


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
    assert asha.assessment.problems == ("must show all 21 cards, not 5",)
    assert check.result is None and not check.has_errors  # nothing is wrong yet, only unfinished


def test_check_round_scores_once_every_hand_is_complete(table: GameSession) -> None:
    entry = new_round_entry(table)
    check = check_round(entry, "8S", by_seat(table, ROUND_1), final=False)

    assert check.valid
    assert [p.result.score for p in check.players] == [122, -92, -30]


def arranged(text: str, outcome: str, name: str) -> PlayerHand:
    """A hand as the rules service's solver groups its cards (21-points, cut 8S)."""
    best = arrange(PRESETS["21-points"], parse_card("8S"), parse_cards(text))
    return PlayerHand(name, outcome, best.groups)


def test_a_round_typed_card_by_card_saves_as_the_solver_arranges_it(
    table: GameSession,
) -> None:
    hands = {
        "Asha": ("declared", shuffled(WIN_8S)),
        "Ben": ("shown", shuffled(SEED_BEN)),
        "Chen": ("shown", shuffled(FIVE_DUBLEES)),
    }
    solved = [arranged(text, outcome, name) for name, (outcome, text) in hands.items()]
    expected = score_round(PRESETS["21-points"], parse_card("8S"), solved)

    check = check_round(new_round_entry(table), "8S", by_seat(table, hands), final=True)
    played = save_round(new_round_entry(table), check, table.created_by)

    assert [p.arranged for p in check.players] == [True, True, True]
    assert [p.arranged_text for p in check.players] == [format_groups(h.groups) for h in solved]
    saved = {entry.player.name: entry for entry in played.entries.all()}
    assert {name: entry.score for name, entry in saved.items()} == {
        player.name: player.score for player in expected.players
    }
    assert (saved["Asha"].declaration, saved["Ben"].hand_points) == ("three_pure", 81)
    assert saved["Chen"].hand_points == 101  # 120 (capped) as one group of loose cards
    for hand in solved:
        assert saved[hand.name].groups == [[card.code for card in g] for g in hand.groups]
    # The audit trail and the edit form show the round as it was saved.
    after = RoundChange.objects.get(round=played).after
    assert [entry["groups"] for entry in after["entries"]] == [saved[name].groups for name in hands]
    seat_of = {seat.pk: seat.player.name for seat in table.seats.all()}
    shown = {seat_of[pk]: text for pk, (_, text, _) in initial_values(played)[1].items()}
    assert shown == {hand.name: format_groups(hand.groups) for hand in solved}


def check_ben(table: GameSession, outcome: str, text: str, asha: str = WIN_8S):
    """Ben's part of round 1 (Asha declares, Chen drops), checked for saving."""
    typed = {
        seat_pk(table, "Asha"): ("declared", asha),
        seat_pk(table, "Ben"): (outcome, text),
        seat_pk(table, "Chen"): ("first_drop", ""),
    }
    return check_round(new_round_entry(table), "8S", typed, final=True)


def test_a_hand_with_cards_left_loose_is_arranged_when_that_costs_less(
    table: GameSession,
) -> None:
    check = check_ben(table, "shown", SEED_BEN)  # 102 as grouped, 81 grouped best

    ben = check.players[1]
    assert ben.arranged and ben.arranged_text == format_groups(
        arranged(SEED_BEN, "shown", "Ben").groups
    )
    assert (ben.result.hand_points, ben.result.score) == (81, -71)
    assert check.players[0].result.score == 101  # 81 + 30 from Chen - 10 to Ben


def test_a_hand_with_cards_left_loose_is_kept_when_no_grouping_costs_less(
    table: GameSession,
) -> None:
    check = check_ben(table, "shown", SHOWN_8S)

    ben = check.players[1]
    assert not ben.arranged and ben.arranged_text == ""
    assert ben.hand.groups[4] == tuple(parse_cards("5S 9D"))  # as typed
    assert ben.result.hand_points == 102


def test_a_grouping_of_valid_groups_is_kept_as_typed(table: GameSession) -> None:
    check = check_ben(table, "shown", VALUE_C)  # the dublee KC KC counts 20

    ben = check.players[1]
    assert not ben.arranged
    assert ben.result.hand_points == 20
    assert (ben.best.hand_points, ben.best.saving) == (10, 10)  # the hint still says so


def test_the_solver_runs_for_a_hand_grouped_in_full_only_when_its_hint_is_asked_for(
    table: GameSession, monkeypatch
) -> None:
    # A save that goes through never shows the hint: a grouping the rules keep as
    # typed, whatever the solver finds, costs it no solver run.
    solved = []
    real = round_checks._solve
    monkeypatch.setattr(
        round_checks, "_solve", lambda *args: solved.append(args[2].name) or real(*args)
    )

    check = check_ben(table, "shown", VALUE_C)

    assert solved == []  # Asha's WIN_8S and Ben's VALUE_C: every group a group
    assert check.valid and check.players[1].best.saving == 10
    assert solved == ["Ben"]


def test_a_declarer_whose_grouping_fails_is_arranged_when_the_cards_declare(
    table: GameSession,
) -> None:
    # ZERO_COUNT ends in a group of two jokers (no group), so as typed it is no
    # declaration; its cards make a three-pure one.
    check = check_ben(table, "shown", SHOWN_8S, asha=ZERO_COUNT)

    asha = check.players[0]
    assert check.valid and asha.arranged
    assert asha.result.declaration == "three_pure"
    assert asha.hand.groups == arranged(ZERO_COUNT, "declared", "Asha").groups


def test_a_short_hand_is_never_arranged(table: GameSession) -> None:
    check = check_ben(table, "shown", shuffled(SHOWN_8S).rsplit(" ", 1)[0])

    ben = check.players[1]
    assert not ben.arranged and len(ben.hand.groups) == 1
    assert ben.groups_errors == ["must show all 21 cards, not 20"]


def test_a_card_error_names_the_token_and_where_it_is(table: GameSession) -> None:
    entry = new_round_entry(table)
    check = check_round(
        entry, "8S", {seat_pk(table, "Ben"): ("shown", "2D 3D 4D | 9C 1C JC")}, final=False
    )

    assert check.players[1].groups_errors == [
        "'1C' is not a card (group 2, card 2): write 10 or T for a ten, A for an ace"
    ]


def test_two_winners_are_told_once_for_the_round_and_each_winner_is_party_to_it(
    table: GameSession,
) -> None:
    entry = new_round_entry(table)
    typed = {
        seat_pk(table, "Asha"): ("declared", WIN_8S),
        seat_pk(table, "Ben"): ("shown", SHOWN_8S),
        seat_pk(table, "Chen"): ("declared", THREE_PURE),
    }

    check = check_round(entry, "8S", typed, final=True)

    assert not check.valid
    asha, ben, chen = check.players
    assert check.errors == ["more than one winner (Asha, Chen): only one player wins a round"]
    assert asha.outcome_errors == chen.outcome_errors == ben.outcome_errors == []
    assert asha.party_to == chen.party_to == check.errors and ben.party_to == []


def test_the_rules_cards_are_said_as_the_picker_shows_them_and_names_stay_names(user) -> None:
    # A player whose initials spell a card keeps them; the cards around are faces.
    session = make_session(user, players=("Asha", "KH", "Chen"))
    entry = new_round_entry(session)
    typed = {
        seat_pk(session, "Asha"): ("declared", WIN_8S),
        seat_pk(session, "KH"): ("declared", LOOSE_148),
        seat_pk(session, "Chen"): ("first_drop", ""),
    }

    check = check_round(entry, "8S", typed, final=True)

    assert check.errors == ["more than one winner (Asha, KH): only one player wins a round"]
    assert "are no groups" in check.players[1].groups_errors[0]
    assert "2♣ 4♦ 6♥, 10♠ Q♣ K♦" in check.players[1].groups_errors[0]
