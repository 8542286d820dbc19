"""A phone passed round the table (scorekeeper/private_pages.py): once Asha signs out,
Back shows the next person none of her pages, and the app still opens its offline
page without a network.

A phone's Chrome keeps the pages left behind in its back/forward cache and brings one
back on Back as it was, signed in. The Chromium the tests drive keeps none (its
headless shell turns that cache off, and Playwright too), so where a page is not
restored the test asks Chrome why: a reason of the page's own (it is not to be
stored), not only the test browser's settings."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Response, expect

from games.models import League
from games.services.leagues import create_league
from games.services.sessions import create_session
from tests.support.pages import PHONE_DEVICE, WAIT_MS, sign_in, sign_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CLUB = "Asha's Friday club"
# Chrome's reasons for not restoring a page from its back/forward cache that are the
# page's own doing: its answer said Cache-Control: no-store (and, for some, the
# cookies changed since: the sign-out).
NO_STORE_REASONS = {
    "MainResourceHasCacheControlNoStore",
    "CacheControlNoStore",
    "CacheControlNoStoreCookieModified",
    "CacheControlNoStoreHTTPOnlyCookieModified",
}


def asha_at_her_league(page: Page) -> tuple[User, League]:
    asha = sign_in(page, "asha")
    league = create_league(asha, name=CLUB, preset="21-points", overrides={})
    create_session(
        asha, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], league=league
    )
    page.goto(f"/leagues/{league.slug}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(CLUB)
    return asha, league


def not_restored_reasons(page: Page) -> list[set[str]]:
    """Filled in as Chrome says why it did not bring a page back from its back/forward
    cache, one set of reasons a Back."""
    said: list[set[str]] = []
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.on(
        "Page.backForwardCacheNotUsed",
        lambda event: said.append({why["reason"] for why in event["notRestoredExplanations"]}),
    )
    return said


def back(page: Page, said: list[set[str]]) -> set[str]:
    """Back, and Chrome's reasons for not restoring the page it left."""
    count = len(said)
    page.go_back()
    page.wait_for_function("() => document.readyState === 'complete'")
    for _ in range(WAIT_MS // 100):
        if len(said) > count:
            break
        page.wait_for_timeout(100)
    assert len(said) > count, "Chrome said nothing about its back/forward cache"
    return said[-1]


def assert_nothing_of_hers(page: Page) -> None:
    """The page Back brought is the sign-in page, her club nowhere on it."""
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_text(CLUB)).to_have_count(0)
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)


def test_back_after_signing_out_shows_nothing_of_the_last_account(
    fresh_phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = fresh_phone_page
    said = not_restored_reasons(page)
    asha_at_her_league(page)
    page.get_by_role("link", name="Standings").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(CLUB)
    # A date range, swapped in place: htmx keeps a copy of the page it left in the
    # tab's sessionStorage, for its Back.
    page.get_by_label("From").fill("2024-01-01")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"from=2024-01-01"))
    assert page.evaluate("() => sessionStorage.getItem('htmx-history-cache') !== null")

    with page.expect_response(lambda answer: answer.url.endswith("/accounts/logout/")) as out:
        sign_out(page)
    answer: Response = out.value
    assert answer.all_headers().get("clear-site-data") == '"cache"'
    assert page.evaluate("() => sessionStorage.getItem('htmx-history-cache')") is None

    # Back to the standings of her dates, then to them as first opened, then her league.
    for _ in range(3):
        reasons = back(page, said)
        assert reasons & NO_STORE_REASONS, reasons
        assert_nothing_of_hers(page)
    look_at(page, "private-pages-back-after-sign-out")


def test_the_offline_page_still_opens_after_signing_out(new_context: Callable[..., Any]) -> None:
    page = new_context(**PHONE_DEVICE).new_page()  # the service worker allowed
    _, league = asha_at_her_league(page)
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")

    sign_out(page)
    page.go_back()
    assert_nothing_of_hers(page)

    # The worker's cache of static files and the offline page is not the browser's
    # cache that signing out clears.
    assert page.evaluate("() => caches.match('/offline/?language=en').then(hit => Boolean(hit))")
    page.context.set_offline(True)
    page.goto(f"/leagues/{league.slug}/standings/")
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    header = page.locator(".site-header").evaluate("e => getComputedStyle(e).backgroundColor")
    assert header == "rgb(20, 83, 45)"  # styled from the worker's cache
    expect(page.get_by_text(CLUB)).to_have_count(0)
    page.context.set_offline(False)
