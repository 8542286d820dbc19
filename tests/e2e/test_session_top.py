"""The session page on a phone, as a club's first night used it: what the scorer
reaches for at the table (table mode, the share link, the table view) on the first
screen of a fresh six-player session, each one tap; and the night in one message,
handed to the phone's share sheet or copied."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from games.models import GameSession
from games.services.sessions import close_session, create_session
from tests.support.builders import play
from tests.support.hands import ROUND_1
from tests.support.pages import PHONE, fill_round, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIX = ["Asha", "Ben", "Chen", "Dev", "Esi", "Fay"]
LEADS = ("table-mode", "share-link", "table-view")
FRIDAY = datetime.date(2026, 3, 13)
# The page's share sheet and clipboard, each a stub that keeps what it was handed.
SHARE_SHEET = """
window.handed = [];
Object.defineProperty(navigator, "share", {configurable: true, value: data => {
  window.handed.push(data); return Promise.resolve();
}});
Object.defineProperty(navigator, "canShare", {configurable: true, value: () => true});
"""
CLIPBOARD_ONLY = """
window.copied = [];
Object.defineProperty(navigator, "share", {configurable: true, value: undefined});
Object.defineProperty(navigator, "clipboard", {configurable: true, value: {
  writeText: text => { window.copied.push(text); return Promise.resolve(); }
}});
"""


def test_table_mode_the_share_link_and_the_table_view_lead_a_fresh_six_player_session(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "olga")
    session = create_session(user, preset="21-points", overrides={}, players=SIX, name="Friday")
    address = f"/sessions/{session.pk}/"
    page.goto(address)

    for name in LEADS:
        box = page.locator(f'[data-lead="{name}"]').bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], (name, box)
    look_at(page, "session-leads-phone", full_page=False)
    page.emulate_media(color_scheme="dark")
    look_at(page, "session-leads-phone-dark", full_page=False)

    # Share link: one tap to its panel, the QR code in sight.
    page.locator('[data-lead="share-link"]').tap()
    expect(page).to_have_url(re.compile(r"#share$"))
    expect(page.locator("[data-share-panel] .qr")).to_be_in_viewport()
    expect(page.locator("[data-share-panel] [data-link-url]")).to_have_value(
        re.compile(f"/shared/{session.share_token}/$")
    )

    # Table view: one tap.
    page.goto(address)
    page.locator('[data-lead="table-view"]').tap()
    expect(page).to_have_url(re.compile(f"/shared/{session.share_token}/big/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday")

    # Table mode: one tap opens it, its link and QR code at the top.
    page.goto(address)
    page.locator('[data-lead="table-mode"]').tap()
    expect(page.get_by_role("heading", name="Table mode: round 1")).to_be_in_viewport()
    expect(page.locator(".table-link [data-link-url]")).to_have_value(
        re.compile(f"/table/{GameSession.objects.get(pk=session.pk).table_token}/$")
    )
    # Open, the same tap goes to it.
    expect(page.locator('[data-lead="table-mode"]')).to_have_attribute("href", "#table")
    look_at(page, "session-leads-table-open-phone", full_page=False)


def friday_over(user) -> GameSession:
    """Friday, two rounds played for 0.10 a point, ended by hand: Asha wins."""
    friday = create_session(
        user,
        preset="21-points",
        overrides={},
        players=SIX[:3],
        name="Friday",
        played_on=FRIDAY,
        money_per_point=Decimal("0.10"),
    )
    play(friday, "8S", ROUND_1)
    play(friday, "8S", ROUND_1)
    close_session(friday)
    return friday


def test_share_the_night_hands_the_totals_and_who_pays_whom_to_the_share_sheet(
    fresh_phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = fresh_phone_page
    page.add_init_script(SHARE_SHEET)
    friday = friday_over(sign_in(page, "olga"))
    page.goto(f"/sessions/{friday.pk}/")

    button = page.locator('[data-lead="night"]')
    expect(button).to_be_in_viewport()  # the night over: at the top
    button.tap()

    expect(page.locator(".session-leads [data-night-status]")).to_have_text("Shared.")
    handed = page.evaluate("window.handed")
    assert handed == [
        {
            "text": "Friday, 13 Mar 2026\n"
            "Asha wins.\n"
            "1. Asha 244\n"
            "2. Chen −60\n"
            "3. Ben −184\n"
            "\n"
            "Settle up at 0.10 a point:\n"
            "Ben pays Asha 18.40\n"
            "Chen pays Asha 6.00\n"
            "\n"
            f"Live scores: {page.url.split('/sessions/')[0]}/shared/{friday.share_token}/"
        }
    ]
    look_at(page, "session-night-shared-phone", full_page=False)


def test_share_the_night_is_copied_where_there_is_no_share_sheet_and_follows_the_rounds(
    fresh_phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = fresh_phone_page
    page.add_init_script(CLIPBOARD_ONLY)
    user = sign_in(page, "olga")
    friday = create_session(
        user, preset="21-points", overrides={}, players=SIX[:3], name="Friday", played_on=FRIDAY
    )
    play(friday, "8S", ROUND_1)
    page.goto(f"/sessions/{friday.pk}/")

    # A round saved on this page: the message by the money lines follows it.
    fill_round(page, "8S", ROUND_1)
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("#round-entry")).to_contain_text("Round 2 saved.")
    night = page.locator("[data-night]", has=page.locator("#night-text"))
    night.get_by_role("button", name="Share the night").tap()

    expect(night.locator("[data-night-status]")).to_have_text("Copied: paste it in your chat.")
    assert page.evaluate("window.copied") == [
        "Friday, 13 Mar 2026\n"
        "After round 2, still playing:\n"
        "1. Asha 244\n"
        "2. Chen −60\n"
        "3. Ben −184\n"
        "\n"
        f"Live scores: {page.url.split('/sessions/')[0]}/shared/{friday.share_token}/"
    ]
    look_at(page, "session-night-copied-phone", full_page=False)
