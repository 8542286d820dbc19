"""Table mode's hands counted at the table (games/services/table.py): a phone's count
is stored as its figures with the cards it typed before kept for a switch back, an
older check never brings the cards back over a count handed in, and the round is
checked and saved with each counted hand as its figures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.models import GameSession, Seat
from games.rules import HandFigures
from games.services.table import (
    TypedHand,
    claim_seat,
    open_table,
    save_table_round,
    write_hand,
)
from tests.support.builders import make_session
from tests.support.hands import WIN_8S

pytestmark = pytest.mark.django_db

CARDS = TypedHand(1, outcome="shown", text="2D 3D 4D", cut_text="8S", edit=1)
COUNT = replace(CARDS, figures=HandFigures(count=102, value_points=10), edit=2)


@pytest.fixture
def counting(user) -> GameSession:
    session = make_session(user, name="Counts", overrides={"hand_entry": "counts"})
    open_table(session)
    return session


def seat(session: GameSession, name: str) -> Seat:
    return claim_seat(session, session.seats.select_related("player").get(player__name=name))


def test_a_count_is_stored_as_its_figures_and_the_cards_stay_for_a_switch_back(
    counting: GameSession,
) -> None:
    ben = seat(counting, "Ben")
    write_hand(counting, ben, CARDS, final=False)

    counted = write_hand(counting, ben, COUNT, final=True).hand
    assert (counted.counted, counted.figures, counted.text) == (
        True,
        {"count": 102, "value_points": 10},
        "2D 3D 4D",
    )
    assert counted.status == "in" and counted.hand_figures == COUNT.figures

    back = write_hand(counting, ben, replace(CARDS, edit=3), final=False).hand
    assert (back.counted, back.figures, back.text) == (False, counted.figures, "2D 3D 4D")
    assert back.hand_figures is None and back.status == "typing"


def test_an_older_check_of_the_cards_never_comes_back_over_a_count_handed_in(
    counting: GameSession,
) -> None:
    ben = seat(counting, "Ben")
    write_hand(counting, ben, COUNT, final=True)

    late = write_hand(counting, ben, CARDS, final=False)

    assert late.stale
    assert (late.hand.counted, late.hand.status) == (True, "in")
    assert late.check.players[0].counted  # said as the count it is


def test_the_round_saves_with_each_counted_hand_as_its_figures(counting: GameSession, user) -> None:
    write_hand(
        counting,
        seat(counting, "Asha"),
        replace(CARDS, outcome="declared", text=WIN_8S),
        final=True,
    )
    write_hand(counting, seat(counting, "Ben"), COUNT, final=True)
    write_hand(
        counting, seat(counting, "Chen"), replace(CARDS, outcome="first_drop", text=""), final=True
    )

    played = save_table_round(counting, 1, user)

    ben = played.entries.get(player__name="Ben")
    assert (ben.counted, ben.hand_figures, ben.groups, ben.hand_points) == (
        True,
        COUNT.figures,
        [],
        102,
    )
    assert not played.entries.get(player__name="Asha").counted
