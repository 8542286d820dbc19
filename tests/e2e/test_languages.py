"""The app in the player's language, as a phone shows it: the scripts speak it too
(the offline page's count of waiting rounds)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def choose_hindi_in_the_footer(page: Page) -> None:
    page.get_by_label("Language").select_option("hi")
    page.get_by_role("button", name="Change").click()
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
