"""The round form's Arrange action, the "grouped best" hint and the cards the form
arranges by itself."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, Round
from games.rules import PRESETS, format_groups, parse_card, parse_cards, parse_groups
from games.rules.arrange import arrange
from games.rules.scoring import PlayerHand, assess_hand
from tests.support.builders import make_session, play, round_data, seat_pk
from tests.support.hands import (
    ROUND_1,
    SEED_BEN,
    SHOWN_8S,
    THREE_PURE,
    VALUE_C,
    WIN_8S,
    shuffled,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def arrange_url(session: GameSession) -> str:
    return reverse("games:round_arrange", args=[session.pk])


def test_arrange_groups_one_players_cards_and_saves_nothing(
    scorer: Client, table: GameSession
) -> None:
    hands = dict(ROUND_1, Asha=("declared", shuffled(WIN_8S)))
    data = round_data(table, "8S", hands, arrange=seat_pk(table, "Asha"))

    response = scorer.post(arrange_url(table), data, headers=HTMX)

    assert response.status_code == 200
    assert response.template_name == "partials/round_fields.html"
    form = response.context_data["form"]
    arranged = form.data[f"groups_{seat_pk(table, 'Asha')}"]
    expected = arrange(PRESETS["21-points"], parse_card("8S"), parse_cards(WIN_8S))
    assert [tuple(g) for g in parse_groups(arranged)] == [tuple(g) for g in expected.groups]
    asha = next(row for row in form.rows() if row.seat.player.name == "Asha")
    assert asha.check.assessment.declaration == "three_pure"
    # The other players' text is kept as typed, and nothing is saved.
    assert form.data[f"groups_{seat_pk(table, 'Ben')}"] == SHOWN_8S
    assert Round.objects.count() == 0
    assert arranged in response.content.decode()


def test_arrange_works_without_javascript(scorer: Client, table: GameSession) -> None:
    hands = dict(ROUND_1, Ben=("shown", shuffled(SHOWN_8S)))
    response = scorer.post(
        arrange_url(table), round_data(table, "8S", hands, arrange=seat_pk(table, "Ben"))
    )
    assert response.status_code == 200
    assert response.template_name == "games/session.html"
    assert "Arrange" in response.content.decode()


def test_arrange_on_an_earlier_round(scorer: Client, table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)
    url = reverse("games:round_edit_arrange", args=[table.pk, played.pk])
    hands = dict(ROUND_1, Ben=("shown", SEED_BEN))
    data = round_data(table, "8S", hands, arrange=seat_pk(table, "Ben"), version=1)
    response = scorer.post(url, data, headers=HTMX)
    assert response.status_code == 200
    # 2D-6D and 8C-QC pure: 81, as the rules tests show, now typed in the field (so
    # kept as typed: the solver can do no better).
    form = response.context_data["form"]
    ben = next(r for r in form.rows() if r.seat.player.name == "Ben")
    assert ben.check.assessment.hand_points == 81 and not ben.check.arranged
    assert form.data[f"groups_{seat_pk(table, 'Ben')}"] == format_groups(ben.check.hand.groups)
    assert Round.objects.get(pk=played.pk).version == 1


def test_arrange_needs_the_cut_joker_and_some_cards(scorer: Client, table: GameSession) -> None:
    data = round_data(table, "", ROUND_1, arrange=seat_pk(table, "Asha"))
    response = scorer.post(arrange_url(table), data, headers=HTMX)
    assert response.status_code == 422
    assert "Enter the cut joker first" in response.content.decode()
    data = round_data(
        table, "8S", dict(ROUND_1, Chen=("shown", "")), arrange=seat_pk(table, "Chen")
    )
    response = scorer.post(arrange_url(table), data, headers=HTMX)
    assert response.status_code == 422
    assert "Type the cards first" in response.content.decode()
    # A typo is named, and the text is kept.
    data = round_data(
        table, "8S", dict(ROUND_1, Chen=("shown", "2H 3X")), arrange=seat_pk(table, "Chen")
    )
    response = scorer.post(arrange_url(table), data, headers=HTMX)
    assert response.status_code == 422
    assert "&#x27;3X&#x27; is not a card" in response.content.decode()
    assert "2H 3X" in response.content.decode()


def test_arrange_for_no_one_or_a_stranger_is_refused(
    scorer: Client, table: GameSession, user: User
) -> None:
    response = scorer.post(arrange_url(table), round_data(table, "8S", ROUND_1))
    assert response.status_code == 400
    response = scorer.post(arrange_url(table), round_data(table, "8S", ROUND_1, arrange="999"))
    assert response.status_code == 400
    other = User.objects.create_user("stranger", password="x")
    scorer.force_login(other)
    response = scorer.post(arrange_url(table), round_data(table, "8S", ROUND_1, arrange="1"))
    assert response.status_code == 404
    scorer.logout()
    response = scorer.post(arrange_url(table), round_data(table, "8S", ROUND_1, arrange="1"))
    assert response.status_code == 302  # to the sign-in page


def previewed(scorer: Client, table: GameSession, **hands: tuple[str, str]):
    """The live preview of round 1 with some hands changed from ROUND_1's."""
    url = reverse("games:round_preview", args=[table.pk])
    return scorer.post(url, round_data(table, "8S", dict(ROUND_1, **hands)), headers=HTMX)


def ben_in(response) -> object:
    return next(r for r in response.context_data["form"].rows() if r.seat.player.name == "Ben")


def test_the_preview_arranges_a_loser_who_left_cards_loose(
    scorer: Client, table: GameSession
) -> None:
    # The seed example's Ben pays 102 as grouped, with cards left loose; grouped best
    # he pays 81, so that grouping is previewed (and would be saved) instead.
    response = previewed(scorer, table, Ben=("shown", SEED_BEN))
    ben = ben_in(response).check
    best = arrange(PRESETS["21-points"], parse_card("8S"), parse_cards(SEED_BEN))
    assert ben.arranged and ben.arranged_text == format_groups(best.groups)
    assert (ben.assessment.hand_points, ben.best.saving) == (81, 0)
    assert ben.result.score == -71  # -81, and +10 for his lower joker
    assert "data-saving" not in response.content.decode()


def test_the_preview_keeps_a_valid_grouping_and_says_what_the_best_saves(
    scorer: Client, table: GameSession
) -> None:
    # Every group of VALUE_C is a group: kept as typed (20 for the dublee KC KC),
    # though grouped best the cards cost 10.
    response = previewed(scorer, table, Ben=("shown", VALUE_C))
    ben = ben_in(response).check
    assert not ben.arranged and ben.arranged_text == ""
    assert (ben.assessment.hand_points, ben.best.hand_points, ben.best.saving) == (20, 10, 10)
    assert 'data-saving="10"' in response.content.decode()


def test_the_preview_arranges_scrambled_cards_into_a_declaration(
    scorer: Client, table: GameSession
) -> None:
    response = previewed(scorer, table, Asha=("declared", shuffled(WIN_8S)))
    asha = response.context_data["form"].rows()[0].check
    assert asha.arranged and asha.assessment.declaration == "three_pure"
    assert response.context_data["form"].check.valid  # the round settles as arranged
    assert "data-can-declare" not in response.content.decode()


def test_the_preview_asks_whether_a_wrong_declaration_that_declares_was_wrong(
    scorer: Client, table: GameSession
) -> None:
    # A wrong declaration costs the same however it is grouped: kept as typed.
    response = previewed(
        scorer, table, Asha=("declared", THREE_PURE), Ben=("invalid_declaration", WIN_8S)
    )
    assert not ben_in(response).check.arranged
    assert response.context_data["form"].check.valid
    assert 'data-can-declare="three_pure"' in response.content.decode()


def test_a_13_card_session_arranges_13_cards(scorer: Client, user: User) -> None:
    session = make_session(user, preset="13-points")
    hand = "QS JS 10S 9S 3H 2H AH 7H 6D 5D KS KD KC"
    data = round_data(
        session,
        "7C",
        {"Asha": ("declared", hand), "Ben": ("first_drop", ""), "Chen": ("middle_drop", "")},
        arrange=seat_pk(session, "Asha"),
    )
    response = scorer.post(arrange_url(session), data, headers=HTMX)
    text = response.context_data["form"].data[f"groups_{seat_pk(session, 'Asha')}"]
    judged = assess_hand(
        PRESETS["13-points"],
        parse_card("7C"),
        PlayerHand("Asha", "declared", tuple(tuple(g) for g in parse_groups(text))),
    )
    assert judged.declaration == "show13"


# The walk-through's round 2 (cut 5H): a loser who typed his three pure sequences with
# cards left loose; the preview arranges them into that declaration (2 points).
LOOSE_DECLARATION = "2D 3D 4D | 6S 7S 8S | QC KC AC | 9S 10S JS | 2H 2C 2S | KD KS 7D 8D 5H 9D"


def test_a_loser_already_grouped_as_a_declaration_is_not_told_to_arrange(
    scorer: Client, table: GameSession
) -> None:
    url = reverse("games:round_preview", args=[table.pk])
    hands = dict(ROUND_1, Ben=("shown", LOOSE_DECLARATION))
    response = scorer.post(url, round_data(table, "5H", hands), headers=HTMX)

    ben = ben_in(response).check
    assert ben.arranged and ben.assessment.hand_points == 2
    assert ben.best.declaration == "three_pure"  # the cards do declare, as shown
    html = response.content.decode()
    assert "Hand points: <strong>2</strong>" in html
    assert "when grouped differently" not in html
    assert "Press Arrange" not in html


def test_a_loser_typed_as_a_declaration_is_not_told_to_arrange(
    scorer: Client, table: GameSession
) -> None:
    # The same cards typed in the declaration's own groups: kept as typed, 2 points.
    typed = "2S 2H 2C | 6S 7S 8S 9S 10S JS | KS KD KC | 2D 3D 4D | 7D 8D 9D | QC 5H AC"
    url = reverse("games:round_preview", args=[table.pk])
    response = scorer.post(
        url, round_data(table, "5H", dict(ROUND_1, Ben=("shown", typed))), headers=HTMX
    )

    ben = ben_in(response).check
    assert not ben.arranged and ben.assessment.hand_points == 2
    assert "when grouped differently" not in response.content.decode()


def test_the_edit_page_does_not_tell_a_declaration_shown_to_arrange(
    scorer: Client, table: GameSession
) -> None:
    played = play(table, "5H", dict(ROUND_1, Ben=("shown", LOOSE_DECLARATION)))
    page = scorer.get(reverse("games:round_edit", args=[table.pk, played.pk])).content.decode()
    assert "Hand points: <strong>2</strong>" in page
    assert "when grouped differently" not in page
