"""Share and Copy link beside the links the app hands out, in a browser: Copy puts
the link in the clipboard and says so; Share opens the system's share sheet with the
link, and is shown only where the browser has one."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.services.sessions import create_session
from games.services.table import open_table
from tests.support.pages import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The system's share sheet, recorded instead of opened.
FAKE_SHARE = """
window.sharedWith = [];
navigator.share = (data) => { window.sharedWith.push(data); return Promise.resolve(); };
navigator.canShare = () => true;
"""


def session_page(page: Page, *, table: bool = False) -> str:
    user = sign_in(page, "asha")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    if table:
        open_table(session)
    page.goto(f"/sessions/{session.pk}/")
    return session.share_token


def test_copy_link_puts_the_share_link_in_the_clipboard_and_says_so(
    fresh_phone_page: Page,
) -> None:
    page = fresh_phone_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    token = session_page(page)
    panel = page.locator("[data-share-panel]")
    url = panel.locator("[data-link-url]").input_value()
    assert url.endswith(f"/shared/{token}/")

    panel.get_by_role("button", name="Copy link").click()

    expect(panel.get_by_role("status")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == url
    # Without a share sheet (this browser has none), no Share button to tap in vain.
    expect(panel.get_by_role("button", name="Share", exact=True)).to_be_hidden()


def test_without_the_clipboard_api_copy_selects_the_link(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    session_page(page)
    panel = page.locator("[data-share-panel]")

    panel.get_by_role("button", name="Copy link").click()

    field = panel.locator("[data-link-url]")
    expect(field).to_be_focused()
    selected = field.evaluate("el => el.value.slice(el.selectionStart, el.selectionEnd)")
    assert selected == field.input_value()
    expect(panel.get_by_role("status")).not_to_be_empty()


def test_share_hands_the_table_link_to_the_share_sheet(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    page.add_init_script(FAKE_SHARE)
    session_page(page, table=True)
    box = page.locator(".table-link [data-link-actions]")
    url = box.locator("[data-link-url]").input_value()
    assert "/table/" in url

    box.get_by_role("button", name="Share", exact=True).click()

    shared = page.evaluate("window.sharedWith")
    assert [item["url"] for item in shared] == [url]
    expect(box.get_by_role("status")).to_have_text("Link shared")
    # The share link's own box offers Share too, with its own link.
    share_box = page.locator("[data-share-panel]")
    share_box.get_by_role("button", name="Share", exact=True).click()
    expected = share_box.locator("[data-link-url]").input_value()
    assert page.evaluate("window.sharedWith.map(item => item.url)") == [url, expected]
