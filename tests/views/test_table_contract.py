"""What a seat's phone is answered over htmx, pinned (docs/inside/table-mode.md): the
status of each answer, and where it goes when that is not where its request put it,
said by the server (HX-Retarget, HX-Reswap, or a client redirect or refresh). The
browser's scripts read none of it: htmx swaps an answer by its status alone, as
templates/base.html's responseHandling says, so every answer that carries a region
to show has a status that config swaps."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.models import GameSession
from games.services.table import close_table, replace_table_link
from tests.support.builders import play, seat_pk
from tests.support.hands import ROUND_1
from tests.support.table import hand_data, hand_in, seat_phone, url

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
BASE = Path(settings.BASE_DIR) / "templates" / "base.html"


def htmx_swaps(status: int) -> bool:
    """Whether htmx swaps an answer with ``status``, by the first rule of base.html's
    responseHandling whose code matches it (as htmx reads them: a pattern over the
    status's three digits)."""
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", BASE.read_text())
    for rule in json.loads(config[1])["responseHandling"]:
        if re.fullmatch(rule["code"], str(status)):
            return bool(rule["swap"]) and not rule.get("error")
    return False


def test_htmx_swaps_the_statuses_whose_answers_are_regions_and_no_failure() -> None:
    assert [code for code in (200, 409, 410, 422) if not htmx_swaps(code)] == []
    assert [code for code in (204, 400, 403, 404, 429, 500, 503) if htmx_swaps(code)] == []


def _poll_of(phone: Client, session: GameSession) -> str:
    """The status poll's address, as the seat's page names it."""
    html = phone.get(url("table_hand", session)).content.decode()
    return re.search(r'hx-get="([^"]*/hand/status/\?[^"]*)"', html)[1].replace("&amp;", "&")


def _answers_at_a_link_gone(table: GameSession, phone: Client) -> dict:
    poll = _poll_of(phone, table)
    hand = hand_data(table, "Ben", *ROUND_1["Ben"])
    addresses = {name: url(name, table) for name in ("table_hand", "table_hand_preview")}
    addresses["table_leave"] = url("table_leave", table)
    return {
        "poll": lambda: phone.get(poll, headers=HTMX),
        "live check": lambda: phone.post(addresses["table_hand_preview"], hand, headers=HTMX),
        "hand in": lambda: phone.post(addresses["table_hand"], hand, headers=HTMX),
        "leave": lambda: phone.post(addresses["table_leave"], headers=HTMX),
    }


@pytest.mark.parametrize("scorer_does", [close_table, replace_table_link], ids=["closed", "new"])
@pytest.mark.parametrize("request_", ["poll", "live check", "hand in", "leave"])
@pytest.mark.parametrize("seat_known", [True, False], ids=["seat known", "seat not known"])
def test_every_request_at_a_link_gone_gets_the_one_answer_declared_over_the_status(
    table: GameSession, scorer_does, request_: str, seat_known: bool
) -> None:
    phone = seat_phone(table, "Ben")
    answers = _answers_at_a_link_gone(table, phone)
    page = phone.get(url("table_hand", table)).content.decode()
    scorer_does(table)
    if not seat_known:  # the seat cookie ran out, or Leave was tapped in another tab
        phone.cookies.pop("seat")

    response = answers[request_]()

    assert response.status_code == 410 and htmx_swaps(410)
    assert response.headers["HX-Retarget"] == "#seat-status"
    assert 'id="seat-status"' in page  # where it goes is on every seat's page
    assert response.headers["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert html.count("data-table-closed") == 1 and "<html" not in html


def test_hand_in_is_answered_in_its_own_region_with_a_status_htmx_swaps(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    hand = hand_data(table, "Ben", *ROUND_1["Ben"])
    refused = phone.post(
        url("table_hand", table), hand_data(table, "Ben", "shown", "2D 3D 4D"), headers=HTMX
    )
    handed = phone.post(url("table_hand", table), hand, headers=HTMX)
    play(table, "8S", ROUND_1)  # the round saved meanwhile (by the scorer's own form)
    late = phone.post(url("table_hand", table), hand, headers=HTMX)

    # Handed in is the only 2xx: static/js/draft_queue.js keeps such a hand as handed in.
    for response, status in ((handed, 200), (refused, 422), (late, 409)):
        assert response.status_code == status and htmx_swaps(status)
        assert "HX-Retarget" not in response.headers and "HX-Reswap" not in response.headers
        html = response.content.decode()
        # The seat's hand region, which Hand in's form targets (hx-target="#seat-hand").
        assert html.lstrip().startswith('<section id="seat-hand"')
    assert "Round 1 is already saved" in late.content.decode()


def test_a_page_of_a_seat_given_up_is_sent_on_by_a_client_redirect_never_a_2xx(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    poll = _poll_of(phone, table)
    seat_phone(table, "Chen", phone)  # picked in another tab of the same phone
    hand = hand_data(table, "Ben", *ROUND_1["Ben"])
    answers = [
        phone.get(poll, headers=HTMX),
        phone.post(url("table_hand_preview", table), hand, headers=HTMX),
        phone.post(url("table_hand", table), hand, headers=HTMX),
        phone.post(url("table_leave", table), {"seat": seat_pk(table, "Ben")}, headers=HTMX),
    ]
    for response in answers:
        assert response.status_code == 409  # not handed in, nor checked, nor left
        assert response.headers["HX-Redirect"] == url("table_hand", table)


def test_the_status_poll_says_nothing_new_or_sends_the_page_on(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    poll = _poll_of(phone, table)
    assert phone.get(poll, headers=HTMX).status_code == 204 and not htmx_swaps(204)
    hand_in(phone, table, "Ben", ROUND_1["Ben"])
    changed = phone.get(poll, headers=HTMX)
    assert changed.status_code == 200 and "HX-Retarget" not in changed.headers
    assert changed.content.decode().lstrip().startswith('<div id="seat-status"')

    play(table, "8S", ROUND_1)  # the round saved: the page moves on whole
    assert phone.get(poll, headers=HTMX)["HX-Refresh"] == "true"
