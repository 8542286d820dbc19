"""Table mode with hands counted at the table, in the browser at 390×844 with touch:
four phones, each entering its own hand. The first taps the cut joker on the picker,
switches its hand to its count and types it (a count no hand makes is refused beside
the field as it is typed); the winner, trusted on the table's show, taps Declared
and hands in; a drop taps its outcome; a fourth switches between its cards and its
count and finds each as it left it. The scorer reads each counted hand on the panel
and saves the round with the rules service's scores. axe finds nothing, light and
dark."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import HandEntry, TableHand
from games.rules import HandFigures, PlayerHand, parse_card, score_round
from games.services.round_entries import new_round_entry
from games.services.sessions import create_session
from games.services.table import open_table
from tests.support import axe
from tests.support.pages import PHONE_DEVICE, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Asha", "Ben", "Chen", "Dev"]
HOUSE_RULES = {"hand_entry": "counts", "trust_show": True}


def pick_seat(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_role("button", name=name).tap()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}'s hand")
    page.locator("[data-picker]:not([hidden])").wait_for()


def hand_in(page: Page) -> None:
    expect(page.locator(".htmx-request")).to_have_count(0)  # the last check landed
    page.get_by_role("button", name="Hand in").tap()
    expect(page.locator("#seat-handed")).to_contain_text("✓ Handed in")


def beside(page: Page, figure: str):
    return page.locator(f'[id^="figure-errors-"][id$="-{figure}"]')


def test_four_phones_type_their_counts_and_the_scorer_saves(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    scorer = new_context(**PHONE_DEVICE).new_page()
    user = sign_in(scorer, "olga")
    session = create_session(
        user, preset="21-points", overrides=HOUSE_RULES, players=PLAYERS, name="Counts"
    )
    link = f"/table/{open_table(session)}/"
    scorer.goto(f"/sessions/{session.pk}/")
    phones = {name: new_context(**PHONE_DEVICE).new_page() for name in PLAYERS}
    for name, page in phones.items():
        pick_seat(page, link, name)

    # Ben: the cut joker on the picker, then his count instead of his cards.
    ben = phones["Ben"]
    expect(ben.locator("[data-picker-for]")).to_have_text("Tap the cut joker")
    ben.locator('[data-picker] [data-card="8S"]').tap()
    ben.get_by_role("switch", name="Count").tap()
    expect(ben.locator("[data-picker]")).to_be_hidden()
    expect(ben.get_by_label("Cards")).to_be_hidden()
    count = ben.get_by_label("Your count")
    expect(count).to_have_attribute("inputmode", "numeric")
    count.tap()
    count.press_sequentially("1")
    expect(beside(ben, "count")).to_have_text(
        "no 21 cards count 1: a card counts 2 to 10, a joker 0"
    )
    expect(count).to_have_attribute("aria-invalid", "true")
    look_at(ben, "table-counts-seat-refused-phone")
    ben.emulate_media(color_scheme="dark")
    look_at(ben, "table-counts-seat-refused-phone-dark", full_page=False)
    ben.emulate_media(color_scheme="light")
    axe.assert_no_violations(ben)
    count.press_sequentially("02")
    expect(beside(ben, "count")).to_have_text("")
    expect(count).not_to_have_attribute("aria-invalid", "true")
    ben.get_by_label("Value points").tap()
    ben.get_by_label("Value points").press_sequentially("10")
    expect(ben.locator("[data-counted-preview]")).to_have_text(
        "Counted at the table (count 102, value points 10)."
    )
    look_at(ben, "table-counts-seat-typed-phone", full_page=False)
    hand_in(ben)
    look_at(ben, "table-counts-seat-in-phone")

    # Asha won, and the table saw her show: Declared is her one tap.
    asha = phones["Asha"]
    asha.get_by_role("radio", name="Declared").tap()
    expect(asha.get_by_role("switch", name="Count")).to_be_checked()
    expect(asha.get_by_label("Your count")).to_be_hidden()  # a winner has no count
    expect(asha.get_by_label("Value points")).to_be_visible()
    hand_in(asha)
    look_at(asha, "table-counts-winner-phone", full_page=False)

    # Chen dropped: nothing to count.
    chen = phones["Chen"]
    chen.get_by_role("radio", name="First drop").tap()
    expect(chen.get_by_role("switch", name="Count")).to_be_hidden()
    hand_in(chen)

    # Dev starts on his cards, counts instead, looks back, and hands his count in.
    dev = phones["Dev"]
    expect(dev.locator("#seat-cut-known")).to_be_visible()  # Ben's cut, by the poll
    for card in ("2D", "3D", "4D"):
        dev.locator(f'[data-picker] [data-card="{card}"]').tap()
    dev.get_by_role("switch", name="Count").tap()
    dev.get_by_label("Your count").tap()
    dev.get_by_label("Your count").press_sequentially("45")
    dev.get_by_role("switch", name="Count").tap()
    expect(dev.get_by_label("Cards")).to_have_value("2D 3D 4D")
    expect(dev.get_by_label("Your count")).to_be_hidden()
    look_at(dev, "table-counts-cards-back-phone", full_page=False)
    dev.get_by_role("switch", name="Count").tap()
    expect(dev.get_by_label("Your count")).to_have_value("45")
    hand_in(dev)
    kept = TableHand.objects.get(seat__player__name="Dev")
    assert (kept.counted, kept.figures, kept.text) == (True, {"count": 45}, "2D 3D 4D")

    for name in PLAYERS:
        expect(scorer.locator(f'[data-table-seat="{name}"]')).to_have_attribute("data-state", "in")
    expect(scorer.locator('[data-table-seat="Ben"] [data-seat-counted]')).to_have_text(
        "counted at the table (count 102, value points 10)"
    )
    expect(scorer.locator('[data-table-seat="Asha"] [data-seat-counted]')).to_have_text(
        "shown at the table"
    )
    scorer.locator("#table-seats").scroll_into_view_if_needed()
    look_at(scorer, "table-counts-scorer-all-in-phone", full_page=False)
    axe.assert_no_violations(scorer)
    scorer.get_by_role("button", name="Save round 1").tap()

    expect(scorer.locator("[data-saved]")).to_contain_text("Round 1 saved.")
    rules = score_round(
        new_round_entry(session).ruleset,
        parse_card("8S"),
        [
            PlayerHand("Asha", "declared", figures=HandFigures()),
            PlayerHand("Ben", "shown", figures=HandFigures(count=102, value_points=10)),
            PlayerHand("Chen", "first_drop"),
            PlayerHand("Dev", "shown", figures=HandFigures(count=45)),
        ],
    )
    saved = dict(HandEntry.objects.values_list("player__name", "score"))
    assert saved == {player.name: player.score for player in rules.players}
    expect(scorer.locator('[data-total="Asha"]')).to_have_text(str(saved["Asha"]))
    for page in phones.values():  # each phone moves on by itself
        expect(page.locator("[data-round-title]")).to_have_text("Round 2")
