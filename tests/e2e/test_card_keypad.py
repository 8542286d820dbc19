"""The card keypad on a phone: a whole hand typed with rank, suit and "new group"
keys only, the system keyboard kept closed until asked for, and the keypad moving
to the player being typed for."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from games.services.sessions import create_session
from tests.support.hands import WIN_13
from tests.support.pages import assert_red_and_readable

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"


def press_hand(keypad: Locator, text: str) -> None:
    for group_number, group in enumerate(text.split(" | ")):
        if group_number:
            keypad.get_by_role("button", name="new group").click()
        for code in group.split():
            keypad.locator(f'[data-rank="{code[:-1]}"]').click()
            keypad.locator(f'[data-suit="{code[-1]}"]').click()


def test_a_hand_typed_on_the_keypad_alone(phone_page: Page) -> None:
    page = phone_page
    user = User.objects.create_user(username="keys", password=PASSWORD)
    session = create_session(
        user, preset="13-pool-101", overrides={}, players=["Asha", "Ben"], name="Keys"
    )
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("keys")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"/sessions/{session.pk}/")
    page.get_by_label("Cut joker").fill("7C")

    asha = page.locator('fieldset[data-player="Asha"]')
    ben = page.locator('fieldset[data-player="Ben"]')
    asha.get_by_label("Outcome").select_option("declared")
    groups = asha.get_by_label("Groups")
    groups.click()
    # On a phone the system keyboard stays closed: the keypad types instead.
    expect(groups).to_have_attribute("inputmode", "none")
    keypad = asha.locator("[data-keypad]")
    expect(keypad).to_be_visible()
    for key in keypad.locator("button").all():
        box = key.bounding_box()
        assert box is not None and box["height"] >= 44, key.inner_text()
    assert_red_and_readable(keypad.locator(".key-suit.suit-h").first)

    press_hand(keypad, WIN_13)

    expect(groups).to_have_value(WIN_13)
    expect(page.locator('[data-preview="Asha"]')).to_contain_text("Valid declaration: show13")

    # The keypad follows the field being typed into; PJ and backspace work there too.
    ben.get_by_label("Outcome").select_option("shown")
    ben.get_by_label("Groups").click()
    keypad = ben.locator("[data-keypad]")
    expect(keypad).to_be_visible()
    keypad.locator('[data-rank="5"]').click()
    keypad.locator('[data-suit="D"]').click()
    keypad.get_by_role("button", name="PJ").click()
    expect(ben.get_by_label("Groups")).to_have_value("5D PJ")
    keypad.get_by_role("button", name="backspace").click()
    expect(ben.get_by_label("Groups")).to_have_value("5D")
    expect(page.locator('[data-preview="Ben"]')).to_contain_text("Ben must show all 13 cards")

    # ⌨ brings the system keyboard back for typing by hand.
    keypad.locator('[data-key="keyboard"]').click()
    expect(ben.get_by_label("Groups")).not_to_have_attribute("inputmode", "none")
