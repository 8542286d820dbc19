"""Two phones entering the same round with hands counted at the table
(games/services/round_clash.py): the same cut joker, outcomes and figures are the
same round, never saved twice; another count, or cards in place of a count, is
another round, and the comparison says the count where the cards would stand."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from games.models import GameSession, Round
from games.rules import HandFigures
from games.services.errors import RoundRepeated
from games.services.round_checks import check_round
from games.services.round_clash import clash_of, same_round
from games.services.round_entries import new_round_entry
from games.services.round_saves import NewRound, create_round
from tests.support.builders import make_session
from tests.support.counted import BEN_COUNT, COUNTS, play_counted, typed
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


@pytest.fixture
def counting(user) -> GameSession:
    return make_session(user, name="Counts", overrides=COUNTS)


def test_the_same_counts_typed_on_a_second_phone_are_the_same_round(
    counting: GameSession,
) -> None:
    entry = new_round_entry(counting)  # the second phone opened the form at round 1
    theirs = play_counted(counting, "8S", ROUND_1, {"Ben": BEN_COUNT})
    mine = check_round(entry, "8S", typed(counting, ROUND_1, {"Ben": BEN_COUNT}), final=True)

    assert same_round(theirs, mine)
    with pytest.raises(RoundRepeated):
        create_round(NewRound(entry, mine, expected_number=2, opened_number=1), None)
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    ("counted", "said"),
    [
        ({"Ben": HandFigures(count=96, value_points=10)}, "Counted at the table (count 96"),
        ({}, "Q♦"),  # Ben's cards, which count as much: still another entry
    ],
)
def test_another_count_or_cards_in_place_of_it_is_another_round(
    counting: GameSession, counted: dict, said: str
) -> None:
    theirs = play_counted(counting, "8S", ROUND_1, {"Ben": BEN_COUNT})
    mine = check_round(
        new_round_entry(counting), "8S", typed(counting, ROUND_1, counted), final=True
    )

    clash = clash_of(theirs, mine)

    assert not clash.same and clash.differs == ("Ben",)
    html = render_to_string(
        "partials/round_clash.html",
        {"clash": {"rounds": clash, "said": ""}, "session": counting, "form": {}},
    )
    ben = html.split('data-clash-row="Ben"')[1].split("</tr>")[0]
    assert "Counted at the table (count 102, value points 10)" in ben  # theirs
    assert said in ben  # mine
