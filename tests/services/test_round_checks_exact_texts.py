"""Rounds under the rule texts as the presets now word them, through the services: a
Kodai win on the deal checked, arranged, saved and kept in the audit trail; a Paplu
deal show; a session keeping the rules it was started with."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, RoundChange
from games.rules import get_ruleset
from games.rules.rulesets import as_stored_before_exact_texts
from games.services.round_checks import check_round
from games.services.round_entries import new_round_entry, on_deal_seats, round_entry_for_edit
from games.services.round_saves import save_round
from games.services.rulesets import ruleset_of
from tests.support.builders import by_seat, make_session, play, seat_pk
from tests.support.hands import (
    ONE_PURE,
    PAPLU_ROUND,
    PAPLU_SCORES,
    PAPLU_SCORES_BEFORE,
    SEVEN_DOUBLES,
    WIN_PLAIN,
    shuffled,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def kodai(user: User) -> GameSession:
    return make_session(user, preset="21-kodai")


# Kodai, cut 8S: Asha holds seven dublees as dealt; Ben drops later (60).
ON_DEAL = {
    "Asha": ("declared", SEVEN_DOUBLES),
    "Ben": ("middle_drop", ""),
    "Chen": ("first_drop", ""),
}


def test_a_win_on_the_deal_is_checked_saved_and_kept_in_the_trail(
    kodai: GameSession, user: User
) -> None:
    entry = new_round_entry(kodai)
    asha = seat_pk(kodai, "Asha")
    check = check_round(entry, "8S", by_seat(kodai, ON_DEAL), final=True, on_deal=[asha])
    assert check.valid

    played = save_round(entry, check, user)

    winner = played.entries.get(player__name="Asha")
    assert (winner.on_deal, winner.declaration, winner.score) == (True, "dublees", 0)
    assert "on the deal: 7 dublees" in winner.breakdown["lines"]
    # Penalty totals: the middle drop adds 60, the first drop 30 (no claim card held).
    assert {e.player.name: e.score for e in played.entries.all()} == {
        "Asha": 0,
        "Ben": 60,
        "Chen": 30,
    }
    assert not played.entries.get(player__name="Ben").on_deal
    [created] = RoundChange.objects.filter(round=played)
    assert created.after["entries"][0]["on_deal"] is True
    assert "on_deal" not in created.after["entries"][1]
    # What an edit starts from: Asha's box ticked.
    assert on_deal_seats(played) == {asha}


def test_without_the_mark_seven_dublees_are_no_declaration(kodai: GameSession) -> None:
    check = check_round(new_round_entry(kodai), "8S", by_seat(kodai, ON_DEAL), final=True)
    asha = check.players[0]
    assert not check.valid
    assert any("7 dublees (8 needed, 7 if won on the deal)" in e for e in asha.groups_errors)


def test_the_mark_on_a_loser_is_said_beside_their_outcome(kodai: GameSession) -> None:
    hands = by_seat(kodai, ON_DEAL | {"Asha": ("declared", WIN_PLAIN)})
    ben = seat_pk(kodai, "Ben")
    check = check_round(new_round_entry(kodai), "8S", hands, final=True, on_deal=[ben])
    assert not check.valid
    assert check.players[1].outcome_errors == [
        "only a declared winner wins on the deal, not a middle drop"
    ]


def test_a_hand_won_on_the_deal_typed_in_any_order_is_arranged_into_its_dublees(
    kodai: GameSession,
) -> None:
    hands = by_seat(kodai, ON_DEAL | {"Asha": ("declared", shuffled(SEVEN_DOUBLES))})
    asha = seat_pk(kodai, "Asha")
    check = check_round(new_round_entry(kodai), "8S", hands, final=True, on_deal=[asha])
    assert check.valid and check.players[0].arranged
    assert check.result.players[0].declaration == "dublees"


def test_editing_a_round_won_on_the_deal_keeps_the_mark_when_sent_again(
    kodai: GameSession, user: User
) -> None:
    asha = seat_pk(kodai, "Asha")
    entry = new_round_entry(kodai)
    played = save_round(
        entry, check_round(entry, "8S", by_seat(kodai, ON_DEAL), final=True, on_deal=[asha]), user
    )
    edit = round_entry_for_edit(played)
    check = check_round(edit, "8S", by_seat(kodai, ON_DEAL), final=True, on_deal=[asha])
    again = save_round(edit, check, user, version=played.version)
    assert again.entries.get(player__name="Asha").on_deal
    # The same edit sent again after its answer was lost saves nothing more.
    assert save_round(edit, check, user, version=played.version).version == again.version


def test_a_paplu_table_offers_the_deal_show_at_60(user: User) -> None:
    paplu = make_session(user, preset="21-paplu")
    assert "deal_show" in new_round_entry(paplu).ruleset.outcomes
    hands = {
        "Asha": ("declared", WIN_PLAIN),
        "Ben": ("deal_show", ONE_PURE),
        "Chen": ("first_drop", ""),
    }
    played = play(paplu, "8S", hands, user)
    ben = played.entries.get(player__name="Ben")
    # 60 whatever the hand holds, plus his value cards 7S 20 + 2C 20 from Asha.
    assert (ben.hand_points, ben.value_points, ben.score) == (60, 40, -20)
    assert "deal show: a fixed 60, whatever the hand holds" in ben.breakdown["lines"]


def test_a_session_plays_the_rules_it_was_started_with(user: User) -> None:
    # A session stored with the earlier Paplu rules (as migration 0007 leaves one)
    # scores by them; a new Paplu session by seed 003's drop rules.
    earlier = make_session(
        user, preset="21-paplu", overrides=as_stored_before_exact_texts("21-paplu", {})
    )
    assert ruleset_of(earlier) == get_ruleset("21-paplu", earlier.overrides)
    assert ruleset_of(earlier).value_payments == "players_in"
    saved = play(earlier, "8S", PAPLU_ROUND, user)
    assert {e.player.name: e.score for e in saved.entries.all()} == PAPLU_SCORES_BEFORE
    saved = play(make_session(user, preset="21-paplu"), "8S", PAPLU_ROUND, user)
    assert {e.player.name: e.score for e in saved.entries.all()} == PAPLU_SCORES
