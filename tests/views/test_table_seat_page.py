"""A seat's phone beyond its own hand: the score so far above the hand (following the
table as rounds are saved or edited), and the table link taking a phone that holds
a seat back to it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameSession
from games.services.table import release_seat, replace_table_link
from tests.support.builders import edit, play, seat_pk
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S
from tests.support.table import hand_data, seat_phone, url

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# Round 1 with Asha's and Ben's hands swapped: Ben wins it.
SWAPPED = {"Asha": ("shown", SHOWN_8S), "Ben": ("declared", WIN_8S), "Chen": ("first_drop", "")}


def totals_on(html: str) -> dict[str, tuple[str, str]]:
    """Each player's total and last round's score, as the seat's totals show them."""
    return {
        name: (total, last)
        for name, total, last in re.findall(
            r'data-seat-total="(\w+)">.*?data-total-now>([^<]*)</strong>.*?'
            r'data-last-round><span class="visually-hidden">[^<]*</span> ([^<]*)</span>',
            html,
            flags=re.S,
        )
    }


def status_poll(phone: Client, session: GameSession) -> str:
    html = phone.get(url("table_hand", session)).content.decode()
    return re.search(r'hx-get="([^"]*/hand/status/\?[^"]*)"', html)[1].replace("&amp;", "&")


# --- The score above the hand ---------------------------------------------------------------


def test_a_seats_phone_shows_every_total_and_the_last_round_above_its_hand(
    table: GameSession,
) -> None:
    play(table, "8S", ROUND_1)
    phone = seat_phone(table, "Ben")

    html = phone.get(url("table_hand", table)).content.decode()

    assert totals_on(html) == {
        "Asha": ("122", "+122"),
        "Ben": ("−92", "−92"),
        "Chen": ("−30", "−30"),
    }
    assert "Totals after round 1" in html
    assert html.index('id="seat-totals"') < html.index("data-round-title")  # above the hand
    assert re.search(r'class="[^"]*is-mine[^"]*" data-seat-total="Ben"', html)


def test_before_the_first_round_a_seats_phone_shows_no_totals(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    html = phone.get(url("table_hand", table)).content.decode()
    assert 'id="seat-totals"' in html  # the place a later answer fills
    assert totals_on(html) == {} and "Totals after" not in html


def test_a_round_saved_moves_the_seat_page_on_to_the_new_totals(table: GameSession) -> None:
    play(table, "8S", ROUND_1)
    phone = seat_phone(table, "Ben")
    address = status_poll(phone, table)

    play(table, "8S", ROUND_1)  # the scorer saves round 2
    moved = phone.get(address, headers=HTMX)

    assert moved["HX-Refresh"] == "true"
    html = phone.get(url("table_hand", table)).content.decode()
    assert totals_on(html)["Asha"] == ("244", "+122")
    assert "Totals after round 2" in html


def test_a_round_edited_brings_the_new_totals_with_the_seats_poll(table: GameSession) -> None:
    first = play(table, "8S", ROUND_1)
    phone = seat_phone(table, "Ben")
    address = status_poll(phone, table)
    assert phone.get(address, headers=HTMX).status_code == 204

    edit(first, "8S", SWAPPED)  # the scorer corrects round 1: Ben won it
    answer = phone.get(address, headers=HTMX)

    assert answer.status_code == 200
    html = answer.content.decode()
    assert re.search(r'<section id="seat-totals"[^>]*hx-swap-oob="true"', html)
    assert totals_on(html)["Ben"] == ("122", "+122")


def test_the_live_check_brings_the_totals_along_with_the_polls_new_stamp(
    table: GameSession,
) -> None:
    """The live check moves the poll's stamp on (its status, out of band): it brings
    the totals too, else an edit seen first by a live check would never show."""
    first = play(table, "8S", ROUND_1)
    phone = seat_phone(table, "Ben")
    edit(first, "8S", SWAPPED)

    answer = phone.post(
        url("table_hand_preview", table),
        hand_data(table, "Ben", "shown", SHOWN_8S, number=2),
        headers=HTMX,
    )

    assert answer.status_code == 200
    assert totals_on(answer.content.decode())["Ben"] == ("122", "+122")


# --- Back to the seat -------------------------------------------------------------------------


def test_reopening_the_table_link_takes_a_phone_to_the_seat_it_holds(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")

    response = phone.get(url("table_seats", table))

    assert response.status_code == 302 and response["Location"] == url("table_hand", table)
    assert "private" in response["Cache-Control"]  # the token is the key
    html = phone.get(response["Location"]).content.decode()
    assert "Ben's hand" in html


def test_a_phone_that_left_its_seat_gets_the_seat_list(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    phone.post(url("table_leave", table), {"seat": seat_pk(table, "Ben")})

    response = phone.get(url("table_seats", table))

    assert response.status_code == 200 and 'data-seat="Ben"' in response.content.decode()


def test_a_phone_whose_seat_the_scorer_freed_gets_the_seat_list(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    release_seat(table, table.seats.get(player__name="Ben"))

    response = phone.get(url("table_seats", table))

    assert response.status_code == 200 and "data-holding" not in response.content.decode()


def test_a_phone_at_a_new_table_link_picks_its_seat_again(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    replace_table_link(table)

    response = phone.get(reverse("games:table_seats", args=[table.table_token]))

    assert response.status_code == 200 and 'data-seat="Ben"' in response.content.decode()


def test_a_phone_holding_a_seat_may_still_pick_another_on_the_list(table: GameSession) -> None:
    """The list's form (a tap on a name) is not turned away: a phone holds one seat,
    and picking another gives the first up."""
    phone = seat_phone(table, "Ben")

    response = phone.post(url("table_seats", table), {"seat": seat_pk(table, "Chen")})

    assert response.status_code == 302
    assert not table.seats.get(player__name="Ben").phone_key
    html = phone.get(url("table_hand", table)).content.decode()
    assert "Chen's hand" in html
