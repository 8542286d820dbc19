"""Table mode with hands counted at the table: each phone types its own count (and
value points) instead of its cards where the house rules take counts, sees a count no
hand makes refused beside the field, switches back to its cards as it left them; the
scorer reads the counted hand on the panel, corrects it, and saves a round whose
scores are the rules service's for those figures."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameSession, HandEntry, TableHand
from games.rules import HandFigures, PlayerHand, parse_card, parse_groups, score_round
from games.services.round_entries import new_round_entry
from tests.support.builders import make_session, seat_pk
from tests.support.hands import SHOWN_8S, WIN_8S
from tests.support.table import hand_data, seat_phone, url

pytestmark = pytest.mark.django_db

BEN = HandFigures(count=102, value_points=10)  # what SHOWN_8S gives under cut 8S


def counting(user, **rules) -> GameSession:
    return make_session(user, name="Counts", overrides={"hand_entry": "counts", **rules})


def counted_data(
    session: GameSession, name: str, outcome: str, *, text: str = "", edit: int = 1, **figures
) -> dict:
    """The seat form with its Count switch on and ``figures`` typed (as strings)."""
    pk = seat_pk(session, name)
    data = hand_data(session, name, outcome, text, edit=edit) | {f"counted_{pk}": "on"}
    return data | {f"{figure}_{pk}": str(value) for figure, value in figures.items()}


def post(phone: Client, session: GameSession, view: str, data: dict):
    return phone.post(url(view, session), data, headers={"HX-Request": "true"})


def stored(session: GameSession, name: str) -> TableHand:
    return TableHand.objects.get(seat__session=session, seat__player__name=name)


def beside(html: str, figure: str) -> str:
    """The words beside one figure's field (its errors' region), as a person reads them."""
    start = re.search(rf'<div class="figure-errors" id="figure-errors-\w+-{figure}"', html)
    assert start, f"no errors region beside {figure}"
    region = html[start.end() : html.index("</div>", start.end())]
    listed = re.search(r"<ul[^>]*>(.*?)</ul>", html[start.end() :], re.S)
    if 'role="alert"' not in region or listed is None:
        return ""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", listed[1])).split())


def groups(text: str) -> tuple:
    return tuple(tuple(group) for group in parse_groups(text))


def scored(session: GameSession, ben: PlayerHand):
    """The rules service's round under cut 8S: Asha declares WIN_8S, ``ben``, Chen drops."""
    asha = PlayerHand("Asha", "declared", groups(WIN_8S))
    chen = PlayerHand("Chen", "first_drop")
    return score_round(new_round_entry(session).ruleset, parse_card("8S"), [asha, ben, chen])


def test_a_phone_hands_in_its_count_and_the_scorer_reads_it(scorer: Client, user) -> None:
    session = counting(user)
    phone = seat_phone(session, "Ben")

    response = post(
        phone,
        session,
        "table_hand",
        counted_data(session, "Ben", "shown", count=102, value_points=10),
    )

    assert response.status_code == 200, response.content.decode()[:800]
    assert "data-handed-in" in response.content.decode()
    ben = stored(session, "Ben")
    assert (ben.counted, ben.figures, ben.status) == (
        True,
        {"count": 102, "value_points": 10},
        "in",
    )
    panel = scorer.get(reverse("games:table_panel", args=[session.pk])).content.decode()
    said = "counted at the table (count 102, value points 10)"
    assert f"<span data-seat-counted>{said}</span>" in panel


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("1", "no 21 cards count 1: a card counts 2 to 10, a joker 0"),
        ("-3", "a count cannot be below 0, not -3"),
        ("999", "a count of 999 is more than 21 cards can hold: at most 210"),
        ("thirty", "type a whole number, in digits (like 34)"),
        ("12345678", "too long a number: no hand comes near it"),
        ("", "a counted hand needs its count"),
    ],
)
def test_a_count_no_hand_makes_is_refused_beside_the_field(user, typed: str, said: str) -> None:
    session = counting(user)
    phone = seat_phone(session, "Ben")

    response = post(
        phone, session, "table_hand", counted_data(session, "Ben", "shown", count=typed)
    )

    assert response.status_code == 422
    html = response.content.decode()
    assert beside(html, "count") == said
    count_field = re.search(r'<input[^>]*name="count_\d+"[^>]*>', html)[0]
    assert 'aria-invalid="true"' in count_field
    assert "Not handed in: 1 thing to fix" in html
    assert not TableHand.objects.filter(status="in").exists()


def test_while_typing_an_empty_count_is_not_yet_wrong_but_a_wrong_one_is(user) -> None:
    session = counting(user)
    phone = seat_phone(session, "Ben")

    empty = post(phone, session, "table_hand_preview", counted_data(session, "Ben", "shown"))
    wrong = post(
        phone, session, "table_hand_preview", counted_data(session, "Ben", "shown", count=1, edit=2)
    )

    assert beside(empty.content.decode(), "count") == ""
    assert beside(wrong.content.decode(), "count").startswith("no 21 cards count 1")
    assert stored(session, "Ben").figures == {"count": 1}  # kept as typed, to fix


def test_switching_back_to_the_cards_brings_them_back_as_they_were(user) -> None:
    session = counting(user)
    phone = seat_phone(session, "Ben")
    cards = "2D 3D 4D | 9C 10C JC"
    post(phone, session, "table_hand_preview", hand_data(session, "Ben", "shown", cards))

    # The switch turned on: the cards are still in their (hidden) field, and sent.
    post(
        phone,
        session,
        "table_hand_preview",
        counted_data(session, "Ben", "shown", text=cards, count=102, edit=2),
    )
    counted = stored(session, "Ben")
    assert (counted.counted, counted.text, counted.figures) == (True, cards, {"count": 102})
    # And off again: the cards are the hand, the count kept for another switch.
    pk = seat_pk(session, "Ben")
    back = hand_data(session, "Ben", "shown", cards, edit=3) | {f"count_{pk}": "102"}
    post(phone, session, "table_hand_preview", back)

    ben = stored(session, "Ben")
    assert (ben.counted, ben.text, ben.figures) == (False, cards, {"count": 102})
    page = phone.get(url("table_hand", session)).content.decode()
    assert f'name="counted_{pk}"' in page and "data-counting" not in page
    assert f'name="count_{pk}" id="id_count_{pk}" value="102"' in page
    assert re.search(rf'name="groups_{pk}"[^>]*>\s*{re.escape(cards)}</textarea>', page)


def test_a_round_typed_as_counts_saves_the_scores_the_rules_give_those_figures(
    scorer: Client, user
) -> None:
    session = counting(user)
    phones = {name: seat_phone(session, name) for name in ("Asha", "Ben", "Chen")}
    handed = [
        post(phones["Asha"], session, "table_hand", hand_data(session, "Asha", "declared", WIN_8S)),
        post(
            phones["Ben"],
            session,
            "table_hand",
            counted_data(session, "Ben", "shown", count=102, value_points=10),
        ),
        post(phones["Chen"], session, "table_hand", hand_data(session, "Chen", "first_drop", "")),
    ]
    assert [response.status_code for response in handed] == [200, 200, 200]

    response = scorer.post(reverse("games:table_save", args=[session.pk]), {"number": "1"})

    assert response.status_code == 302
    rules = scored(session, PlayerHand("Ben", "shown", figures=BEN))
    entries = HandEntry.objects.filter(round__session=session)
    assert {e.player.name: e.score for e in entries} == {p.name: p.score for p in rules.players}
    ben = entries.get(player__name="Ben")
    assert (ben.counted, ben.hand_figures, ben.groups) == (True, BEN, [])
    # What Ben's cards would have scored, too.
    by_cards = scored(session, PlayerHand("Ben", "shown", groups(SHOWN_8S)))
    assert [p.score for p in by_cards.players] == [p.score for p in rules.players]


def test_a_winner_trusted_on_the_tables_show_hands_in_with_no_cards(user) -> None:
    session = counting(user, trust_show=True)
    phone = seat_phone(session, "Asha")
    page = phone.get(url("table_hand", session)).content.decode()
    assert re.search(r'data-count-outcomes="declared shown', page)

    response = post(phone, session, "table_hand", counted_data(session, "Asha", "declared"))

    assert response.status_code == 200, response.content.decode()[:800]
    asha = stored(session, "Asha")
    assert (asha.status, asha.counted, asha.figures) == ("in", True, {})


def test_a_winner_whose_show_is_not_trusted_is_entered_by_cards_whatever_the_switch(
    user,
) -> None:
    session = counting(user)
    phone = seat_phone(session, "Asha")

    response = post(
        phone, session, "table_hand", counted_data(session, "Asha", "declared", text=WIN_8S)
    )

    assert response.status_code == 200, response.content.decode()[:800]
    asha = stored(session, "Asha")
    assert (asha.counted, asha.text, asha.status) == (False, WIN_8S, "in")


def test_cards_only_house_rules_show_no_count_switch(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")

    page = phone.get(url("table_hand", table)).content.decode()

    assert "data-count-switch" not in page and "data-by-count" not in page
    # A switch sent all the same is not read: the hand is its cards.
    pk = seat_pk(table, "Ben")
    data = hand_data(table, "Ben", "shown", SHOWN_8S) | {f"counted_{pk}": "on", f"count_{pk}": "5"}
    assert post(phone, table, "table_hand", data).status_code == 200
    assert not stored(table, "Ben").counted


@pytest.mark.parametrize(("entry", "opens_on_counts"), [("counts", False), ("counts_first", True)])
def test_counts_first_opens_each_phone_on_the_count(
    user, entry: str, opens_on_counts: bool
) -> None:
    session = make_session(user, overrides={"hand_entry": entry})
    phone = seat_phone(session, "Ben")

    page = phone.get(url("table_hand", session)).content.decode()

    switch = re.search(r'<input type="checkbox" role="switch"[^>]*>', page)[0]
    assert ("checked" in switch) is opens_on_counts
    assert ("data-counting" in page) is opens_on_counts
    assert ("Count your hand and type its figures" in page) is opens_on_counts
    assert 'inputmode="numeric"' in page


def test_the_scorer_corrects_a_counted_hand(scorer: Client, user) -> None:
    session = counting(user)
    phone = seat_phone(session, "Ben")
    post(
        phone,
        session,
        "table_hand",
        counted_data(session, "Ben", "shown", count=100, value_points=10),
    )
    correct = reverse("games:table_correct", args=[session.pk, seat_pk(session, "Ben")])

    page = scorer.get(correct).content.decode()
    pk = seat_pk(session, "Ben")
    assert "data-counting" in page and f'name="count_{pk}" id="id_count_{pk}" value="100"' in page
    response = scorer.post(
        correct, counted_data(session, "Ben", "shown", count=102, value_points=10)
    )

    assert response.status_code == 302
    ben = stored(session, "Ben")
    assert (ben.figures, ben.entered_by, ben.status) == (
        {"count": 102, "value_points": 10},
        user,
        "in",
    )
    refused = scorer.post(correct, counted_data(session, "Ben", "shown", count=1))
    assert refused.status_code == 422
    assert beside(refused.content.decode(), "count").startswith("no 21 cards count 1")
    assert stored(session, "Ben").figures["count"] == 102  # never stored over


def test_a_check_older_than_the_counted_hand_handed_in_is_not_kept_over_it(user) -> None:
    session = counting(user)
    phone = seat_phone(session, "Ben")
    post(
        phone,
        session,
        "table_hand",
        counted_data(session, "Ben", "shown", count=102, value_points=10, edit=5),
    )

    # A live check of the cards typed before, answered after Hand in.
    late = post(
        phone, session, "table_hand_preview", hand_data(session, "Ben", "shown", "2D 3D", edit=4)
    )

    assert late.status_code == 200
    ben = stored(session, "Ben")
    assert (ben.counted, ben.figures, ben.status) == (
        True,
        {"count": 102, "value_points": 10},
        "in",
    )
