"""Two phones fill in the same round, or edit the same round, and the first saves it:
the second's Save answers with both rounds at its Save button and the ways on that
make sense, discard mine or save mine (as the next round, or over theirs); a round
that is theirs again is never stored twice, however it is sent (a tap on the choice,
a save replayed after an outage)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, HandEntry, Round
from tests.support.builders import edit, play, round_data
from tests.support.forms import hidden, opened_form
from tests.support.hands import LOOSE_148, ROUND_1, SEED_BEN, THREE_PURE

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# ROUND_1 with Ben's cards grouped another way (the same cards): the same round.
REGROUPED = ROUND_1 | {
    "Ben": ("shown", "2D 3D 4D 9C 10C JC QD QS QH KH KH 5S 9D AS 7S 6H 6C 4C 2S JS 8C")
}
OTHER = {"Asha": ("middle_drop", ""), "Ben": ("declared", THREE_PURE), "Chen": ("shown", LOOSE_148)}
# Round 1 as first entered, before the phones opened its edit.
FIRST_ENTERED = {
    "Asha": ("first_drop", ""),
    "Ben": ("middle_drop", ""),
    "Chen": ("declared", THREE_PURE),
}


@pytest.fixture
def second_phone(user: User) -> Client:
    """The scorer's own second phone, signed in as them."""
    phone = Client()
    phone.force_login(user)
    return phone


def create_url(table: GameSession) -> str:
    return reverse("games:round_create", args=[table.pk])


def clash_of(html: str) -> str:
    return re.search(r'<section class="clash" data-clash.*?</section>', html, re.S)[0]


@dataclass(frozen=True)
class Answered:
    """The second phone's Save, refused: its answer, where its form posts, and its
    hidden fields as the phone opened it."""

    html: str
    url: str
    fields: dict[str, str]

    @property
    def clash(self) -> str:
        return clash_of(self.html)


@dataclass(frozen=True)
class Clashing:
    """What the second phone's form is for, and what its clash says and offers."""

    form: str  # "new": a new round 1; "edit": round 1's edit
    title: str
    same: str  # the verdict when mine is theirs again
    save: str  # the form's own Save, which the clash stands in for
    save_mine: str  # the button that saves mine, knowingly, when it differs
    # The rounds after saving mine knowingly: (number, cut joker, version) each.
    saved_as: tuple[tuple[int, str, int], ...]

    def ben_saves_first(self, phone: Client, table: GameSession, cut: str, hands) -> Answered:
        """The phone opens its form (round 1's, or its edit); Ben's phone saves ROUND_1
        there first; then the phone's Save sends ``hands``, and is refused."""
        ben = User.objects.create_user("ben")
        if self.form == "new":
            url, fields = create_url(table), opened_form(phone, table)
            play(table, "8S", ROUND_1, ben)
        else:
            played = play(table, "10C", FIRST_ENTERED)
            url = reverse("games:round_edit", args=[table.pk, played.pk])
            fields = {"version": hidden(phone.get(url).content.decode(), "version")}
            edit(played, "8S", ROUND_1, ben)
        response = phone.post(url, round_data(table, cut, hands, **fields), headers=HTMX)
        assert response.status_code == 422
        return Answered(response.content.decode(), url, fields)

    def discard_url(self, table: GameSession) -> str:
        """Where Discard mine goes: the next round's form, or their round as saved."""
        if self.form == "new":
            return reverse("games:session_detail", args=[table.pk])
        return reverse("games:round_detail", args=[table.pk, table.rounds.get().pk])


NEW = Clashing(
    "new",
    "Round 1 was saved on another phone",
    "Yours is the same round: the same cut joker, outcomes and cards. It is saved already.",
    "Save round 1</button>",
    "Save mine as round 2",
    ((1, "8S", 1), (2, "5H", 1)),
)
EDIT = Clashing(
    "edit",
    "Round 1 was changed on another phone",
    "Yours is the same as theirs: the same cut joker, outcomes and cards.",
    "Save changes</button>",
    "Save mine over theirs",
    ((1, "5H", 3),),  # mine over theirs: the third version of round 1
)
BOTH = pytest.mark.parametrize("clashing", [NEW, EDIT], ids=lambda clashing: clashing.form)


@BOTH
def test_the_same_round_from_a_second_phone_is_shown_beside_theirs_and_not_offered_again(
    second_phone: Client, table: GameSession, clashing: Clashing
) -> None:
    answer = clashing.ben_saves_first(second_phone, table, "8S", REGROUPED)

    clash = answer.clash
    assert clashing.title in clash and clashing.same in clash
    assert "Round 1 was saved on another phone by ben meanwhile" in clash
    assert "Their round 1, saved by ben" in clash and ">Yours</th>" in clash
    discard = re.search(r'<a [^>]*href="([^"]*)"[^>]*data-discard[^>]*>Discard mine</a>', clash)
    assert discard[1] == clashing.discard_url(table)
    assert clashing.save_mine not in answer.html  # nothing of mine to add
    assert clashing.save not in answer.html  # nor Save itself
    assert "data-save" not in answer.html.replace("data-saved", "")
    # Everyone's outcome and score, theirs and mine, one row a player.
    for name, score in {"Asha": "+122", "Ben": "−92", "Chen": "−30"}.items():
        row = re.search(rf'<tr class="" data-clash-row="{name}">.*?</tr>', clash, re.S)[0]
        assert row.count(score) == 2
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3
    assert Round.objects.get().entered_by.username == "ben"  # theirs stands


@BOTH
def test_another_round_from_a_second_phone_may_be_saved_knowingly(
    second_phone: Client, table: GameSession, clashing: Clashing
) -> None:
    answer = clashing.ben_saves_first(second_phone, table, "5H", OTHER)

    clash = answer.clash
    assert "Yours differs: the cut joker, Asha, Ben, Chen." in clash
    assert "Discard mine</a>" in clash
    assert re.search(rf"<button [^>]*data-save>{clashing.save_mine}</button>", clash)
    assert LOOSE_148 in answer.html  # what was typed is still in the form
    assert Round.objects.get().cut_joker == "8S"  # theirs, alone

    kept = {name: hidden(answer.html, name) for name in answer.fields}
    saved = second_phone.post(answer.url, round_data(table, "5H", OTHER, **kept))

    assert saved.status_code == 302
    rounds = Round.objects.values_list("number", "cut_joker", "version")
    assert tuple(rounds) == clashing.saved_as


def test_saving_their_round_again_as_the_next_is_refused(
    second_phone: Client, table: GameSession
) -> None:
    answer = NEW.ben_saves_first(second_phone, table, "8S", ROUND_1)
    assert (hidden(answer.html, "number"), hidden(answer.html, "opened")) == ("2", "1")
    # The table comes along, out of band, with their round in it.
    assert re.search(r'<section id="scoreboard"[^>]*hx-swap-oob="true"', answer.html)

    # Sent as round 2 all the same (a form kept from that answer, a script).
    again = round_data(table, "8S", ROUND_1, **(answer.fields | {"number": "2"}))
    response = second_phone.post(answer.url, again, headers=HTMX)

    assert response.status_code == 422
    clash = clash_of(response.content.decode())
    assert "This is round 1 again, as ben saved it" in clash and "It was not saved twice." in clash
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3


def test_one_hand_that_differs_is_named_and_its_cards_shown(
    second_phone: Client, table: GameSession
) -> None:
    clash = NEW.ben_saves_first(
        second_phone, table, "8S", ROUND_1 | {"Ben": ("shown", SEED_BEN)}
    ).clash

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
