"""The standings' total points and net money in the browser: on a phone the wide
table scrolls inside its own box (the page never does), on a desktop every column is
whole; a night nobody ended is named above the table; axe finds nothing, in the light
and in the dark."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from games.models import League
from games.services.sessions import set_stakes
from tests.support import axe
from tests.support.big_league import EIGHT, big_league, long_session
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1
from tests.support.pages import horizontal_overflow, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Each wide table on the page: how much wider its content is than its box (0: whole).
_CUT = "els => els.map(el => el.scrollWidth - el.clientWidth)"
DARK = {"resultTypes": ["violations"], "runOnly": ["color-contrast", "link-in-text-block"]}


def staked_league(user) -> League:
    """A league of long names with a finished, staked session of eight and a points
    night of three still running."""
    league = big_league(user)
    finished = long_session(user, league, 1, ceiling=50)
    set_stakes(finished, money_per_point=Decimal("0.50"), buy_in=None)
    running = make_session(user, preset="21-points", league=league)
    play(running, "8S", ROUND_1, user)
    return league


def no_violations(page: Page) -> None:
    page.evaluate(axe.SCRIPT)
    light = page.evaluate("() => axe.run().then(r => r.violations)")
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate("options => axe.run(options).then(r => r.violations)", DARK)
    page.emulate_media(color_scheme="light")
    assert not light, axe.report(light)
    assert not dark, axe.report(dark)


def test_on_a_desktop_total_points_and_money_are_in_the_whole_table(
    desktop_page: Page, look_at: Callable[..., None]
) -> None:
    page = desktop_page
    user = sign_in(page, "captain")
    league = staked_league(user)
    page.goto(f"/leagues/{league.slug}/standings/")
    # The eight of the staked session, and the one of the running night who is not.
    expect(page.locator(".standings-table tbody tr")).to_have_count(len(EIGHT) + 1)
    for heading in ("Total", "Money"):
        expect(page.locator(".standings-table thead th", has_text=heading)).to_have_count(1)
    money = page.locator(".standings-table tbody [data-money]")
    staked = [text for text in money.all_inner_texts() if text != "–"]
    assert len(staked) == len(EIGHT)  # blank only for the one never at stakes
    expect(page.locator("[data-running]")).to_contain_text("Still running")
    look_at(page, "standings-columns-desktop", full_page=False)
    assert page.locator(".standings-scroll").evaluate_all(_CUT) == [0], "standings cut off"
    assert horizontal_overflow(page) <= 0
    no_violations(page)
    page.emulate_media(color_scheme="dark")
    look_at(page, "standings-columns-desktop-dark", full_page=False)


def test_on_a_phone_the_wide_table_scrolls_in_its_own_box(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "captain")
    league = staked_league(user)
    page.goto(f"/leagues/{league.slug}/standings/")
    scroller = page.locator(".standings-scroll").first
    expect(page.locator(".standings-table tbody tr")).to_have_count(len(EIGHT) + 1)
    assert horizontal_overflow(page) <= 0  # the page itself never scrolls sideways
    assert scroller.evaluate("el => el.scrollWidth > el.clientWidth")
    # The money column is reached by scrolling the table, and is whole there.
    last = page.locator(".standings-table tbody tr").first.locator("[data-money]")
    last.scroll_into_view_if_needed()
    box, cell = scroller.bounding_box(), last.bounding_box()
    assert cell["x"] >= box["x"] and cell["x"] + cell["width"] <= box["x"] + box["width"] + 1
    look_at(page, "standings-columns-phone")
    no_violations(page)
    page.emulate_media(color_scheme="dark")
    look_at(page, "standings-columns-phone-dark")
