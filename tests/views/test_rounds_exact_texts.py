"""The round form under the rules as the Paplu and Kodai texts give them exactly: "Won
on the deal" for a Kodai winner, "Deal show" for Paplu losers, and the round page
saying which rule applied; and the exact words of a refused round's problems."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, Round
from tests.support.builders import make_session, round_data, seat_pk
from tests.support.forms import forms_in
from tests.support.hands import ONE_PURE, ROUND_1, SEVEN_DOUBLES, WIN_8S, WIN_PLAIN, shuffled

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# Kodai, cut 8S: Asha holds seven dublees as dealt (no claim card); Ben drops later.
ON_DEAL = {
    "Asha": ("declared", SEVEN_DOUBLES),
    "Ben": ("middle_drop", ""),
    "Chen": ("first_drop", ""),
}


@pytest.fixture
def kodai(user: User) -> GameSession:
    return make_session(user, name="Kodai night", preset="21-kodai")


def page(client: Client, session: GameSession) -> str:
    return client.get(reverse("games:session_detail", args=[session.pk])).content.decode()


def test_a_kodai_round_form_offers_won_on_the_deal_to_every_player(
    scorer: Client, kodai: GameSession, table: GameSession
) -> None:
    html = page(scorer, kodai)
    for name in ("Asha", "Ben", "Chen"):
        box = f'name="on_deal_{seat_pk(kodai, name)}"'
        assert re.search(rf'<label class="chip chip-on-deal"><input type="checkbox" {box}', html)
    assert html.count("Won on the deal") == 3
    # Unticked, it sends nothing: an untouched form is a plain declaration.
    sent = next(form for form in forms_in(html) if "cut_joker" in form.names())
    assert not any(name.startswith("on_deal_") for name in sent.names())
    # 21-points has no win on the deal.
    assert "Won on the deal" not in page(scorer, table)


def test_a_win_on_the_deal_is_saved_and_the_round_says_so(
    scorer: Client, kodai: GameSession
) -> None:
    data = round_data(kodai, "8S", ON_DEAL, **{f"on_deal_{seat_pk(kodai, 'Asha')}": "on"})
    response = scorer.post(reverse("games:round_create", args=[kodai.pk]), data)

    assert response.status_code == 302
    played = Round.objects.get()
    asha = played.entries.get(player__name="Asha")
    assert (asha.on_deal, asha.declaration) == (True, "dublees")
    html = scorer.get(reverse("games:round_detail", args=[kodai.pk, played.pk])).content.decode()
    assert "Asha · Declared on the deal" in html
    assert "<li>on the deal: 7 dublees</li>" in html
    # Opening the edit shows the box ticked, so saving it untouched keeps the win.
    edit = scorer.get(reverse("games:round_edit", args=[kodai.pk, played.pk])).content.decode()
    sent = next(form for form in forms_in(edit) if "cut_joker" in form.names())
    assert sent.data()[f"on_deal_{seat_pk(kodai, 'Asha')}"] == ["on"]


def test_seven_dublees_without_the_box_are_refused_with_the_reason(
    scorer: Client, kodai: GameSession
) -> None:
    response = scorer.post(
        reverse("games:round_create", args=[kodai.pk]), round_data(kodai, "8S", ON_DEAL)
    )
    assert response.status_code == 422
    assert "7 dublees (8 needed, 7 if won on the deal)" in response.content.decode()
    assert not Round.objects.exists()


def test_the_preview_and_arrange_read_the_box(scorer: Client, kodai: GameSession) -> None:
    asha = seat_pk(kodai, "Asha")
    cards = {**ON_DEAL, "Asha": ("declared", shuffled(SEVEN_DOUBLES))}
    data = round_data(kodai, "8S", cards, **{f"on_deal_{asha}": "on"})
    preview = scorer.post(reverse("games:round_preview", args=[kodai.pk]), data, headers=HTMX)
    assert "Valid declaration: dublees." in preview.content.decode()
    arranged = scorer.post(
        reverse("games:round_arrange", args=[kodai.pk]), {**data, "arrange": asha}, headers=HTMX
    )
    form = arranged.context_data["form"]
    assert form[f"groups_{asha}"].value().count("|") >= 7  # seven dublees, then the rest


def test_a_paplu_round_form_offers_the_deal_show(scorer: Client, user: User) -> None:
    paplu = make_session(user, preset="21-paplu")
    html = page(scorer, paplu)
    assert f'name="outcome_{seat_pk(paplu, "Ben")}" value="deal_show"' in html
    assert "Won on the deal" not in html
    hands = {**ROUND_1, "Asha": ("declared", WIN_PLAIN), "Ben": ("deal_show", ONE_PURE)}
    response = scorer.post(
        reverse("games:round_create", args=[paplu.pk]), round_data(paplu, "8S", hands)
    )
    assert response.status_code == 302
    played = Round.objects.get()
    html = scorer.get(reverse("games:round_detail", args=[paplu.pk, played.pk])).content.decode()
    assert "<li>deal show: a fixed 60, whatever the hand holds</li>" in html
    assert "<li>first drop: pays the declarer only, receives at most 40 from each</li>" in html


# The QA walk's false declaration: three pure sequences, three dublees, six loose cards.
ESHA = "2c3c4c | 5d6d7d | 8s9s10s | qh qh | kc kc | jd jd | 3s 6c 9d 10h kh jh"
ESHA_WHY = (
    "the declaration is not valid: 3 pure sequences (enough), but 3♠ 6♣ 9♦ 10♥ K♥ J♥ is no "
    "group (neither one suit for a sequence nor one rank for a set), and Q♥ Q♥, K♣ K♣ and "
    "J♦ J♦ are dublees, not allowed in a three-pure declaration; 0 tunnelas (3 needed); "
    "3 dublees (8 needed); 0 jokers in one group (8 needed). If that is how it was shown, "
    "enter it as an invalid declaration"
)


def problems_above_save(html: str) -> str:
    return html_lib.unescape(html.split("data-problems")[1].split("</ul>")[0])


def test_a_false_declaration_says_why_for_each_way_and_names_the_player_once(
    scorer: Client, user: User
) -> None:
    session = make_session(user, players=("Esha", "Ben"))
    hands = {"Esha": ("declared", ESHA), "Ben": ("first_drop", "")}

    response = scorer.post(
        reverse("games:round_create", args=[session.pk]), round_data(session, "AS", hands)
    )

    assert response.status_code == 422
    html = response.content.decode()
    beside = html_lib.unescape(html.split('data-hand-errors="Esha"')[1].split("</ul>")[0])
    assert f"<li>{ESHA_WHY}</li>" in beside
    assert f"<strong>Esha</strong>: {ESHA_WHY}</a>" in problems_above_save(html)
    assert not Round.objects.exists()


def test_a_problem_in_the_list_above_save_names_its_player_once(
    scorer: Client, table: GameSession
) -> None:
    short = ROUND_1["Ben"][1].removesuffix(" 8C")
    data = round_data(table, "8S", {**ROUND_1, "Ben": ("shown", short)})

    response = scorer.post(reverse("games:round_create", args=[table.pk]), data)

    problems = problems_above_save(response.content.decode())
    assert "<strong>Ben</strong>: must show all 21 cards, not 20</a>" in problems
    assert "Ben must show" not in problems


def test_loose_cards_are_called_so_in_the_preview_and_on_the_round_page(
    scorer: Client, table: GameSession
) -> None:
    data = round_data(table, "8S", ROUND_1)
    preview = scorer.post(reverse("games:round_preview", args=[table.pk]), data, headers=HTMX)
    assert '<span class="kind kind-invalid">loose cards</span>' in preview.content.decode()
    assert ">invalid<" not in preview.content.decode()

    scorer.post(reverse("games:round_create", args=[table.pk]), data)
    played = Round.objects.get()
    # A round saved when the page still wrote the rules' kind name reads the same.
    ben = played.entries.get(player__name="Ben")
    ben.breakdown["groups"] = [group | {"label": "invalid"} for group in ben.breakdown["groups"]]
    ben.save()
    html = scorer.get(reverse("games:round_detail", args=[table.pk, played.pk])).content.decode()
    assert '<span class="kind kind-invalid">loose cards</span>' in html
    assert ">invalid<" not in html


# The QA walk's two settlements whose group figures do not add up to the hand points.
# Kodai: Ben's seven dublees count 136 card by card, but they are a free hand.
FREE_HAND = {
    "Asha": ("declared", WIN_8S),
    "Ben": ("shown", SEVEN_DOUBLES),
    "Chen": ("first_drop", ""),
}
FREE_HAND_RULE = "Free hand: 7 doubles — no points, no claims"
# Paplu: Ben's deal show (113 card by card) costs a fixed 60.
DEAL_SHOW = {**ROUND_1, "Asha": ("declared", WIN_PLAIN), "Ben": ("deal_show", ONE_PURE)}
DEAL_SHOW_RULE = "Deal show: a fixed 60 whatever the cards"


def preview_of(html: str, name: str) -> str:
    return html.split(f'data-preview="{name}"')[1].split('class="hand-preview"')[0]


def saved_hand(html: str, name: str) -> str:
    return html.split(f'data-player="{name}"')[1].split("</article>")[0]


@pytest.mark.parametrize(
    ("preset", "hands", "points", "rule"),
    [
        ("21-kodai", FREE_HAND, 0, FREE_HAND_RULE),
        ("21-paplu", DEAL_SHOW, 60, DEAL_SHOW_RULE),
    ],
)
def test_hand_points_that_are_not_the_groups_sum_say_why(
    scorer: Client, user: User, preset: str, hands: dict, points: int, rule: str
) -> None:
    session = make_session(user, preset=preset)
    data = round_data(session, "8S", hands)
    line = f'<span class="hand-rule" data-hand-rule>{rule}</span>'

    preview = scorer.post(reverse("games:round_preview", args=[session.pk]), data, headers=HTMX)
    ben = preview_of(preview.content.decode(), "Ben")
    assert re.search(rf"Hand points: <strong>{points}</strong>\s*{line}\s*</p>", ben)

    scorer.post(reverse("games:round_create", args=[session.pk]), data)
    played = Round.objects.get()
    url = reverse("games:round_detail", args=[session.pk, played.pk])
    saved = saved_hand(scorer.get(url).content.decode(), "Ben")
    assert re.search(rf"Hand points {points}[^<]*{line}\s*</p>", saved)
    # Asha's win costs what its groups count: nothing to explain.
    assert "data-hand-rule" not in saved_hand(scorer.get(url).content.decode(), "Asha")

    # A round saved before the reason was kept still shows, without the line.
    ben = played.entries.get(player__name="Ben")
    del ben.breakdown["rule_applied"]
    ben.save()
    saved = saved_hand(scorer.get(url).content.decode(), "Ben")
    assert f"Hand points {points}" in saved
    assert "data-hand-rule" not in saved
