"""A league's language and currency in the browser, on a phone: the owner types the
currency as "inr" and picks Hindi on the house rules page, and the league page and
the standings then write every amount in rupees, each on one line, grouped in lakhs
as Hindi groups digits, in a font that draws Devanagari; axe finds nothing, in the
light and in the dark."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from games import figures
from games.services.leagues import create_league
from tests.support import axe
from tests.support.builders import finished_session
from tests.support.hindi import assert_drawn_in_hindi
from tests.support.pages import horizontal_overflow, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_hindi_leagues_standings_count_in_rupees_on_a_phone(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "captain")
    club = create_league(
        user, name="Diwali Club", preset="21-points", overrides={}, money_per_point=Decimal("5000")
    )
    # Asha +122, Ben −92, Chen −30 at 5,000 a point.
    finished_session(user, league=club, money_per_point=Decimal("5000"))

    page.goto(f"/leagues/{club.slug}/rules/")
    page.get_by_label("Currency", exact=True).fill("inr")
    page.get_by_label("Language", exact=True).select_option("hi")
    page.get_by_role("button", name="Save house rules").click()
    # Said in the language the form was sent in: the league's applies from the next page.
    expect(page.locator("ul.messages")).to_contain_text("House rules saved")
    club.refresh_from_db()
    assert (club.language, club.currency) == ("hi", "INR")

    # The next page is the league's, in its language: amounts grouped in lakhs
    # (+₹6,10,000.00), as Hindi groups digits.
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    with translation.override("hi"):
        per_point = figures.money(Decimal("5000"), "INR")
        won = figures.money(Decimal("610000"), "INR", sign=True)
        lost = figures.money(Decimal("-460000"), "INR", sign=True)
        a_point = translation.gettext("%(amount)s a point") % {"amount": per_point}
    expect(page.locator("p.meta")).to_contain_text(a_point)

    page.goto(f"/leagues/{club.slug}/standings/")
    asha = page.locator('tr[data-player="Asha"] [data-money]')
    expect(asha).to_have_text(won)
    expect(page.locator('tr[data-player="Ben"] [data-money]')).to_have_text(lost)
    assert horizontal_overflow(page) <= 0  # the table scrolls in its own box
    # Each amount on one line, as tall as the row's other figures.
    rounds = page.locator('tr[data-player="Asha"] [data-rounds]')
    asha.scroll_into_view_if_needed()
    assert asha.bounding_box()["height"] <= rounds.bounding_box()["height"] + 1
    assert_drawn_in_hindi(page)
    look_at(page, "league-money-hindi-phone")
    axe.assert_no_violations(page)
    page.emulate_media(color_scheme="dark")
    look_at(page, "league-money-hindi-phone-dark", full_page=False)
