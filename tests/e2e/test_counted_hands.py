"""A round with hands counted at the table, as a player reads it afterwards on a phone
and on a desktop: the round page says each counted hand's figures where its cards
would stand, and reads clean to axe in both themes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.services.sessions import create_session
from tests.support.axe import assert_no_violations
from tests.support.counted import ASHA_SHOWN, BEN_COUNT, TRUSTED, play_counted
from tests.support.hands import ROUND_1
from tests.support.pages import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_round_page_says_what_was_counted_at_the_table(
    screen: str, request: pytest.FixtureRequest, look_at: Callable[..., None]
) -> None:
    page: Page = request.getfixturevalue(f"{screen}_page")
    user = sign_in(page, f"counts-{screen}")
    session = create_session(
        user, preset="21-points", overrides=TRUSTED, players=["Asha", "Ben", "Chen"]
    )
    played = play_counted(session, "8S", ROUND_1, {"Asha": ASHA_SHOWN, "Ben": BEN_COUNT})

    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/")

    ben = page.locator('[data-player="Ben"]')
    expect(ben.locator("[data-counted]")).to_have_text(
        "Counted at the table, no cards entered: count 102, value points 10."
    )
    expect(ben.locator(".groups")).to_have_count(0)
    expect(page.locator('[data-player="Asha"] [data-counted]')).to_have_text(
        "Shown at the table, no cards entered: value points 0."
    )
    look_at(page, f"round-counted-{screen}")
    assert_no_violations(page)
