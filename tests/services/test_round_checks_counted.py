"""Hands counted at the table through the round checks and saves: a counted hand scores
and saves as the cards it stands for, its errors land beside the figure they concern,
and the saved round gives the edit form its figures back."""

from __future__ import annotations

import pytest

from games.models import GameSession, RoundChange
from games.rules import PRESETS, HandFigures, PlayerHand, hand_figures, parse_card, parse_groups
from games.services.round_checks import TypedHand, check_hand, check_round, figures_of_cards
from games.services.round_entries import edit_form_data, new_round_entry
from games.services.round_saves import save_round
from tests.support.builders import by_seat, make_session, seat_pk
from tests.support.hands import ROUND_1, SEED_BEN, SHOWN_8S, WIN_8S

pytestmark = pytest.mark.django_db

COUNTS = {"hand_entry": "counts"}


@pytest.fixture
def counting(user) -> GameSession:
    return make_session(user, name="Counts", overrides=COUNTS)


def shown_figures() -> HandFigures:
    """What Ben's shown hand of ROUND_1 gives, as he would say it at the table."""
    hand = PlayerHand("Ben", "shown", tuple(tuple(g) for g in parse_groups(SHOWN_8S)))
    return hand_figures(PRESETS["21-points"], parse_card("8S"), hand)


def test_a_counted_hand_saves_the_score_its_cards_would(counting: GameSession) -> None:
    by_cards = check_round(new_round_entry(counting), "8S", by_seat(counting, ROUND_1), final=True)
    typed = by_seat(counting, ROUND_1)
    typed[seat_pk(counting, "Ben")] = TypedHand("shown", "", shown_figures())

    check = check_round(new_round_entry(counting), "8S", typed, final=True)
    played = save_round(new_round_entry(counting), check, counting.created_by)

    assert check.valid, check.players
    assert [p.result.score for p in check.players] == [p.result.score for p in by_cards.players]
    ben = played.entries.get(player__name="Ben")
    assert (ben.counted, ben.groups) == (True, [])
    assert ben.figures == {"count": 102, "value_points": 10}
    assert ben.hand_figures == shown_figures()
    assert not played.entries.get(player__name="Asha").counted
    after = RoundChange.objects.get(round=played).after
    assert [hand.get("counted", False) for hand in after["entries"]] == [False, True, False]
    data = edit_form_data(played)
    ben_seat = seat_pk(counting, "Ben")
    assert data[f"counted_{ben_seat}"] == "on"
    assert (data[f"count_{ben_seat}"], data[f"value_points_{ben_seat}"]) == ("102", "10")


def test_a_count_no_hand_makes_is_refused_beside_the_count(counting: GameSession) -> None:
    typed = by_seat(counting, ROUND_1)
    typed[seat_pk(counting, "Ben")] = TypedHand("shown", "", HandFigures(count=1, value_points=10))

    check = check_round(new_round_entry(counting), "8S", typed, final=False)

    ben = check.players[1]
    assert ben.figure_errors == {"count": ["no 21 cards count 1: a card counts 2 to 10, a joker 0"]}
    assert ben.errors == ben.figure_errors["count"] and not check.valid


def test_counts_are_refused_where_the_house_rules_take_cards_only(table: GameSession) -> None:
    typed = by_seat(table, ROUND_1)
    typed[seat_pk(table, "Ben")] = TypedHand("shown", "", shown_figures())

    check = check_round(new_round_entry(table), "8S", typed, final=True)

    assert list(check.players[1].figure_errors) == ["count"]
    assert "Cards only" in check.players[1].figure_errors["count"][0]
    assert not check.valid


def test_a_trusted_winner_is_one_tap(user) -> None:
    session = make_session(user, overrides={"hand_entry": "counts", "trust_show": True})
    typed = by_seat(session, ROUND_1)
    typed[seat_pk(session, "Asha")] = TypedHand("declared", "", HandFigures(value_points=0))
    typed[seat_pk(session, "Ben")] = TypedHand("shown", "", shown_figures())

    check = check_round(new_round_entry(session), "8S", typed, final=True)
    played = save_round(new_round_entry(session), check, session.created_by)

    assert check.valid, [p.errors for p in check.players]
    asha = played.entries.get(player__name="Asha")
    assert asha.counted and asha.declaration == ""


def test_a_phone_hands_in_its_count(counting: GameSession) -> None:
    seat = counting.seats.get(player__name="Ben")
    entry = new_round_entry(counting)

    good = check_hand(entry, seat, "8S", "shown", "", final=True, figures=shown_figures())
    bad = check_hand(entry, seat, "8S", "shown", "", final=True, figures=HandFigures(count=-3))

    assert not good.has_errors
    assert bad.players[0].figure_errors["count"] == ["a count cannot be below 0, not -3"]


def test_a_winner_without_cards_is_refused_where_the_show_is_not_trusted(
    counting: GameSession,
) -> None:
    typed = by_seat(counting, {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S)})
    typed[seat_pk(counting, "Asha")] = TypedHand("declared", "", HandFigures())
    typed[seat_pk(counting, "Chen")] = ("first_drop", "")

    check = check_round(new_round_entry(counting), "8S", typed, final=True)

    assert "the house rules do not trust the table's show" in check.players[0].errors[0]
    assert "counted" in check.players[0].figure_errors


def test_the_round_waits_for_a_counted_hands_count(counting: GameSession) -> None:
    typed = by_seat(counting, ROUND_1)
    typed[seat_pk(counting, "Ben")] = TypedHand("shown", "", HandFigures(value_points=10))

    check = check_round(new_round_entry(counting), "8S", typed, final=False)

    assert not check.complete and check.result is None
    assert check.errors == []  # nothing said about the round before it can score


def test_the_figures_of_a_hand_of_cards_are_as_the_round_groups_them(
    counting: GameSession,
) -> None:
    seat = counting.seats.get(player__name="Ben")
    entry = new_round_entry(counting)
    # Typed in any order, with no group: the solver's grouping is the one counted
    # (SEED_BEN costs 102 as the seed example groups it, 81 grouped best).
    loose = " ".join(SEED_BEN.replace("|", " ").split())

    assert figures_of_cards(entry, seat, "8S", "shown", SHOWN_8S) == shown_figures()
    assert figures_of_cards(entry, seat, "8S", "shown", loose) == HandFigures(81, 10)
    assert figures_of_cards(entry, seat, "", "shown", SHOWN_8S) is None
    assert figures_of_cards(entry, seat, "8S", "shown", "2D 3D 4D") is None
