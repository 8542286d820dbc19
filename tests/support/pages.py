"""What the browser tests do on a page: sign in, find a player's part of the round
form and its preview, type a round, and measure sideways scrolling."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

PLAYERS = ("Asha", "Ben", "Chen")
PASSWORD = "correct-horse-battery-staple"


def sign_in(page: Page, username: str) -> User:
    """Create a user and sign in as them through the sign-in page."""
    user = User.objects.create_user(username=username, password=PASSWORD)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    return user


def horizontal_overflow(page: Page) -> int:
    # clientWidth, not innerWidth: a mobile layout viewport grows to fit overflow.
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def player(page: Page, name: str) -> Locator:
    return page.locator(f'fieldset[data-player="{name}"]')


def preview(page: Page, name: str) -> Locator:
    return page.locator(f'[data-preview="{name}"]')


def fill_round(page: Page, cut: str, hands: dict[str, tuple[str, str]]) -> None:
    page.get_by_label("Cut joker").fill(cut)
    for name, (outcome, groups) in hands.items():
        player(page, name).get_by_label("Outcome").select_option(outcome)
        player(page, name).get_by_label("Groups").fill(groups)
