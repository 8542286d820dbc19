"""Two phones at one table, in the browser: the scorer saves a round, and a second
browser holding only the share link (not signed in) sees it appear without
reloading. Also a league started, filled and used on a phone."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.models import GameSession, League
from games.services.sessions import create_session
from tests.support.hands import ROUND_1
from tests.support.pages import PASSWORD, PHONE, fill_round, horizontal_overflow, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHARE_POLL_MS = 3_000  # games/views/sharing.py


def test_a_spectator_on_the_share_link_sees_a_round_appear(
    new_context, look_at: Callable[..., None]
) -> None:
    scorer = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    user = sign_in(scorer, "asha")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    scorer.goto(f"/sessions/{session.pk}/")
    share_url = scorer.locator("[data-share-panel] [data-link-url]").input_value()
    assert share_url.endswith(f"/shared/{session.share_token}/")

    # A second browser: its own cookies, nobody signed in.
    spectator = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    spectator.clock.install()  # its polls come when the test moves its clock on
    spectator.goto(share_url)
    expect(spectator.get_by_role("heading", level=1)).to_have_text("Friday")
    expect(spectator.locator(".empty")).to_have_text("No rounds yet.")
    spectator.evaluate("window.notReloaded = true")

    fill_round(scorer, "8S", ROUND_1)
    scorer.get_by_role("button", name="Save round 1").click()
    expect(scorer.locator("#round-entry")).to_contain_text("Round 1 saved.")

    # The share page polls every 3 s: the round shows up at the next poll.
    spectator.clock.fast_forward(SHARE_POLL_MS)
    expect(spectator.locator('[data-total="Asha"]')).to_have_text("122")
    expect(spectator.locator('[data-total="Ben"]')).to_have_text("−92")
    expect(spectator.locator('[data-total="Chen"]')).to_have_text("−30")
    assert spectator.evaluate("window.notReloaded") is True  # swapped in, not reloaded
    # Read-only: nothing to type into, no edit links.
    expect(spectator.locator("form.round-form")).to_have_count(0)
    expect(spectator.locator("a.round-link")).to_have_count(0)
    assert horizontal_overflow(spectator) <= 0
    look_at(spectator, "shared-phone")


def test_a_league_on_a_phone(phone_page: Page, look_at: Callable[..., None]) -> None:
    page = phone_page
    sign_in(page, "captain")
    User.objects.create_user(username="ben", password=PASSWORD)

    page.goto("/")
    page.get_by_role("link", name="Leagues").click()
    page.get_by_role("link", name="Start a league").click()
    page.get_by_label("Name", exact=True).fill("Friday Club")
    page.get_by_label("13-card pool 101").check()
    expect(page.get_by_label("Point ceiling")).to_have_value("101")  # swapped in by htmx
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday Club")
    assert League.objects.get().preset == "13-pool-101"

    page.get_by_label("Username").fill("ben")
    page.get_by_label("Role", exact=True).select_option("scorer")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator('[data-member="ben"]')).to_be_visible()
    assert horizontal_overflow(page) <= 0
    look_at(page, "league-phone")

    page.get_by_role("link", name="Start a session").click()
    expect(page.get_by_label("League (optional)")).to_have_value(str(League.objects.get().pk))
    expect(page.get_by_label("13-card pool 101")).to_be_checked()
    page.get_by_label("Seat 1", exact=True).fill("Asha")
    page.get_by_label("Seat 2", exact=True).fill("Ben")
    page.get_by_role("button", name="Start session").click()
    expect(page.locator("[data-next-dealer]")).to_contain_text("Asha")
    assert GameSession.objects.get().league.name == "Friday Club"
