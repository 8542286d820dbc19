"""The app in the player's language, as a phone shows it: Hindi chosen in the footer
(no script needed) opens every page in Hindi, in a font that has Devanagari (not
boxes), and the scripts speak it too (the offline page's count of waiting rounds)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support.axe import assert_no_violations
from tests.support.hindi import DEVANAGARI_DRAWN, choose_hindi_in_the_footer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_hindi_chosen_in_the_footer_opens_the_pages_in_hindi(phone_page: Page, look_at) -> None:
    page = phone_page
    page.goto("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    choose_hindi_in_the_footer(page)

    expect(page).to_have_url("/accounts/login/")
    expect(page.get_by_role("link", name="साइन इन")).to_be_visible()
    chosen = page.get_by_role("group", name="ऐप की भाषा").get_by_role("button", name="हिन्दी")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(DEVANAGARI_DRAWN), (
        "Devanagari drawn as boxes: apt-get install fonts-lohit-deva"
    )
    look_at(page, "language-hindi-footer")
    assert_no_violations(page)
    page.goto("/")  # another page: the choice is kept
    expect(page.locator("html")).to_have_attribute("lang", "hi")


def test_the_offline_page_counts_waiting_rounds_in_hindi(phone_page: Page, look_at) -> None:
    # One of the scripts' strings, from locale/hi/LC_MESSAGES/djangojs.po to the
    # static catalogue to static/js/offline_page.js.
    page = phone_page
    page.goto("/accounts/login/")
    choose_hindi_in_the_footer(page)
    page.goto("/offline/")
    page.evaluate(
        "localStorage.setItem('scorekeeper:draft:session-1-round:1',"
        " JSON.stringify({values: {}, at: Date.now(), queued: true}))"
    )
    page.reload()
    expect(page.locator("[data-drafts-waiting]")).to_have_text(
        "1 राउंड इस फ़ोन में रुका है: उसका पेज खुलते ही और कनेक्शन लौटते ही भेज दिया जाएगा।"
    )
    look_at(page, "language-hindi-offline")
