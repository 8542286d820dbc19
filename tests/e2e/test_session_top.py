"""The session page on a phone, as a club's first night used it: what the scorer
reaches for at the table (table mode, the share link, the table view) on the first
screen of a fresh six-player session, each one tap."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import GameSession
from games.services.sessions import create_session
from tests.support.pages import PHONE, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIX = ["Asha", "Ben", "Chen", "Dev", "Esi", "Fay"]
LEADS = ("table-mode", "share-link", "table-view")


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
