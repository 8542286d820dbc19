"""A round with hands counted at the table, as a player reads it afterwards on a phone
and on a desktop: the round page says each counted hand's figures where its cards
would stand, the history says what an edit counted instead of cards and each count
it changed, and both read clean to axe in both themes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.rules import HandFigures
from games.services.sessions import create_session
from tests.support.axe import assert_no_violations
from tests.support.builders import play
from tests.support.counted import (
    ASHA_SHOWN,
    BEN_COUNT,
    COUNTS,
    TRUSTED,
    edit_counted,
    play_counted,
)
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


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_history_says_each_count_an_edit_changed(
    screen: str, request: pytest.FixtureRequest, look_at: Callable[..., None]
) -> None:
    page: Page = request.getfixturevalue(f"{screen}_page")
    user = sign_in(page, f"history-{screen}")
    session = create_session(
        user, preset="21-points", overrides=COUNTS, players=["Asha", "Ben", "Chen"]
    )
    played = play(session, "8S", ROUND_1)
    played = edit_counted(played, "8S", ROUND_1, {"Ben": BEN_COUNT})
    edit_counted(played, "8S", ROUND_1, {"Ben": HandFigures(count=96, value_points=10)})

    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/history/")

    latest, first = page.locator("[data-what-changed]").all()[:2]
    expect(latest.locator("[data-figure]")).to_have_text("count 102 → 96")
    expect(first.locator("[data-entered]")).to_have_text(
        "counted at the table (count 102, value points 10) instead of cards"
    )
    page.locator("details.change-full").first.locator("summary").click()
    look_at(page, f"history-counted-{screen}")
    assert_no_violations(page)
