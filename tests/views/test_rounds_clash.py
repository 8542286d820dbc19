"""Two phones fill in the same round and the first saves it: the second's Save
answers with both rounds at its Save button and two ways on, discard mine or save
mine as the next round; a round that is theirs again is never stored twice, however
it is sent (a tap on the choice, a save replayed after an outage)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, HandEntry, Round
from tests.support.builders import round_data
from tests.support.forms import hidden, opened_form
from tests.support.hands import LOOSE_148, ROUND_1, SEED_BEN, THREE_PURE

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# ROUND_1 with Ben's cards grouped another way (the same cards): the same round.
REGROUPED = ROUND_1 | {
    "Ben": ("shown", "2D 3D 4D 9C 10C JC QD QS QH KH KH 5S 9D AS 7S 6H 6C 4C 2S JS 8C")
}
OTHER = {"Asha": ("middle_drop", ""), "Ben": ("declared", THREE_PURE), "Chen": ("shown", LOOSE_148)}


@pytest.fixture
def second_phone(user: User) -> Client:
    """The scorer's own second phone, signed in as them."""
    phone = Client()
    phone.force_login(user)
    return phone


def clash_of(html: str) -> str:
    return re.search(r'<section class="clash" data-clash.*?</section>', html, re.S)[0]


def both_open_then_first_saves(
    scorer: Client, second_phone: Client, table: GameSession
) -> dict[str, str]:
    """Both phones open round 1; the first saves ROUND_1. The second's hidden fields."""
    mine, his = opened_form(scorer, table), opened_form(second_phone, table)
    create = reverse("games:round_create", args=[table.pk])
    assert scorer.post(create, round_data(table, "8S", ROUND_1, **mine)).status_code == 302
    return his


def test_the_same_round_from_a_second_phone_is_shown_beside_theirs_and_not_offered_again(
    scorer: Client, second_phone: Client, table: GameSession
) -> None:
    his = both_open_then_first_saves(scorer, second_phone, table)
    create = reverse("games:round_create", args=[table.pk])

    response = second_phone.post(create, round_data(table, "8S", REGROUPED, **his), headers=HTMX)

    assert response.status_code == 422
    html = response.content.decode()
    clash = clash_of(html)
    assert "Round 1 was saved on another phone" in clash
    assert "Their round 1, saved by asha" in clash and ">Yours</th>" in clash
    assert "Yours is the same round: the same cut joker, outcomes and cards." in clash
    assert "Discard mine</a>" in clash
    assert "Save mine as round" not in html  # nothing of mine to add
    assert "data-save" not in html.replace("data-saved", "")
    # Everyone's outcome and score, theirs and mine, one row a player.
    for name, score in {"Asha": "+122", "Ben": "−92", "Chen": "−30"}.items():
        row = re.search(rf'<tr class="" data-clash-row="{name}">.*?</tr>', clash, re.S)[0]
        assert row.count(score) == 2
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3


def test_saving_their_round_again_as_the_next_is_refused(
    scorer: Client, second_phone: Client, table: GameSession
) -> None:
    his = both_open_then_first_saves(scorer, second_phone, table)
    create = reverse("games:round_create", args=[table.pk])
    answer = second_phone.post(create, round_data(table, "8S", ROUND_1, **his), headers=HTMX)
    html = answer.content.decode()
    assert (hidden(html, "number"), hidden(html, "opened")) == ("2", "1")

    # Sent as round 2 all the same (a form kept from that answer, a script).
    again = his | {"number": "2"}
    response = second_phone.post(create, round_data(table, "8S", ROUND_1, **again), headers=HTMX)

    assert response.status_code == 422
    clash = clash_of(response.content.decode())
    assert "This is round 1 again, as asha saved it" in clash and "It was not saved twice." in clash
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3


def test_another_round_from_a_second_phone_may_be_saved_as_the_next_knowingly(
    scorer: Client, second_phone: Client, table: GameSession
) -> None:
    his = both_open_then_first_saves(scorer, second_phone, table)
    create = reverse("games:round_create", args=[table.pk])

    response = second_phone.post(create, round_data(table, "5H", OTHER, **his), headers=HTMX)

    assert response.status_code == 422
    html = response.content.decode()
    clash = clash_of(html)
    assert "Yours differs: the cut joker, Asha, Ben, Chen." in clash
    assert "Discard mine</a>" in clash
    assert re.search(r"<button [^>]*data-save>Save mine as round 2</button>", clash)
    assert Round.objects.count() == 1

    kept = {name: hidden(html, name) for name in ("number", "opened", "submission", "key")}
    assert second_phone.post(create, round_data(table, "5H", OTHER, **kept)).status_code == 302
    assert list(Round.objects.values_list("number", "cut_joker")) == [(1, "8S"), (2, "5H")]


def test_one_hand_that_differs_is_named_and_its_cards_shown(
    scorer: Client, second_phone: Client, table: GameSession
) -> None:
    his = both_open_then_first_saves(scorer, second_phone, table)
    create = reverse("games:round_create", args=[table.pk])
    other_ben = ROUND_1 | {"Ben": ("shown", SEED_BEN)}

    html = second_phone.post(create, round_data(table, "8S", other_ben, **his), headers=HTMX)

    clash = clash_of(html.content.decode())
    assert "Yours differs: Ben." in clash
    ben = re.search(r'<tr class="is-different" data-clash-row="Ben">.*?</tr>', clash, re.S)[0]
    assert ben.count('class="clash-cards"') == 2  # his cards and mine, to compare
    assert 'data-clash-row="Asha"' in clash and 'is-different" data-clash-row="Asha' not in clash


def test_a_round_typed_again_after_the_form_opened_later_is_not_a_repeat(
    scorer: Client, table: GameSession
) -> None:
    """The same hands in a later form are a round of their own: only a round saved
    since a form was opened is compared with it."""
    create = reverse("games:round_create", args=[table.pk])
    first = round_data(table, "8S", ROUND_1, **opened_form(scorer, table))
    assert scorer.post(create, first).status_code == 302
    again = round_data(table, "8S", ROUND_1, **opened_form(scorer, table))
    assert scorer.post(create, again).status_code == 302
    assert Round.objects.count() == 2


def test_a_replayed_save_of_the_round_it_saved_answers_with_that_round(
    scorer: Client, table: GameSession
) -> None:
    """An outage lost the answer; the phone sends the same form again (its queue):
    the round it saved, not a second, nor a clash with itself."""
    create = reverse("games:round_create", args=[table.pk])
    data = round_data(table, "8S", ROUND_1, **opened_form(scorer, table))
    assert scorer.post(create, data, headers=HTMX).status_code == 200

    replayed = scorer.post(create, data, headers=HTMX)

    assert replayed.status_code == 200 and "Round 1 saved." in replayed.content.decode()
    assert Round.objects.count() == 1
