from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.support.pages import assert_red_and_readable, contrast, horizontal_overflow

pytestmark = pytest.mark.e2e


def test_home_page_fits_a_phone_without_horizontal_scroll(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    phone_page.goto("/")

    expect(phone_page.get_by_role("heading", level=1)).to_contain_text("Keep score")
    assert horizontal_overflow(phone_page) <= 0
    look_at(phone_page, "home-phone")

    # The narrowest phone we promise to support.
    phone_page.set_viewport_size({"width": 375, "height": 667})
    assert horizontal_overflow(phone_page) <= 0


def test_home_page_loads_styles_and_htmx(phone_page: Page) -> None:
    phone_page.goto("/")

    # The stylesheet is served and applied: the header's words stand out from a
    # coloured header (unstyled, they would be black on the white page), the hearts
    # are red and readable where they stand; htmx was loaded from django-htmx's
    # bundled copy.
    brand = phone_page.locator(".site-header a").first
    ratio, needed = contrast(brand)
    assert ratio >= needed
    header = phone_page.locator(".site-header")
    assert header.evaluate("el => getComputedStyle(el).backgroundColor") not in (
        "rgba(0, 0, 0, 0)",
        "rgb(255, 255, 255)",
    )
    assert_red_and_readable(phone_page.locator(".suits .suit-red").first)
    assert phone_page.evaluate("typeof window.htmx") == "object"


def test_sign_in_is_a_large_tap_target(phone_page: Page) -> None:
    phone_page.goto("/")

    box = phone_page.get_by_role("link", name="Sign in", exact=True).bounding_box()
    assert box is not None
    assert box["height"] >= 44


def test_home_page_on_desktop(desktop_page: Page, look_at: Callable[..., None]) -> None:
    desktop_page.goto("/")

    expect(desktop_page).to_have_title("Scorekeeper · rummy scores at the table")
    assert horizontal_overflow(desktop_page) <= 0
    look_at(desktop_page, "home-desktop", full_page=False)
