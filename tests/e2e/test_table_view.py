"""The table view in a browser: a tablet or TV in landscape shows each total large,
a round saved elsewhere appears without a reload, and a phone still shows it without
sideways scrolling."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.figures import points
from games.services.scoreboard import load_scoreboard
from games.services.sessions import create_session
from tests.support.builders import play
from tests.support.hands import ROUND_1
from tests.support.pages import PASSWORD, PHONE, horizontal_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANDSCAPE = {"width": 1280, "height": 720}
SHARE_POLL_MS = 3_000  # games/views/sharing.py


def test_a_tv_shows_the_totals_big_and_follows_a_round_saved_elsewhere(
    new_context, look_at: Callable[..., None]
) -> None:
    user = User.objects.create_user("asha", password=PASSWORD)
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    page = new_context(viewport=LANDSCAPE).new_page()  # nobody signed in
    page.clock.install()  # its polls come when the test moves its clock on
    page.goto(f"/shared/{session.share_token}/")
    page.get_by_role("link", name="Table view").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday")
    expect(page.locator("[data-big-player]")).to_have_count(3)
    expect(page.locator('[data-big-player="Asha"] [data-big-total]')).to_have_text("0")
    page.evaluate("window.notReloaded = true")

    play(session, "8S", ROUND_1)  # saved by the scorer's phone, as far as this page knows

    page.clock.fast_forward(SHARE_POLL_MS)
    board = load_scoreboard(session)
    for column in board.columns:
        total = page.locator(f'[data-big-player="{column.name}"] [data-big-total]')
        expect(total).to_have_text(points(column.total))
    expect(page.locator("[data-big-round]")).to_have_text("1")
    expect(page.locator("[data-next-dealer]")).to_contain_text(board.next_dealer.player.name)
    assert page.evaluate("window.notReloaded") is True  # swapped in, not reloaded
    # Read across a table: each total at least 96 px high, all three side by side.
    totals = page.locator("[data-big-total]")
    sizes = totals.evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert min(sizes) >= 96, sizes
    # Measured in one look, not three moments apart.
    tops = set(totals.evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().y))"))
    assert len(tops) == 1, tops
    assert horizontal_overflow(page) <= 0
    look_at(page, "table-view-landscape", full_page=False)

    page.set_viewport_size(PHONE)
    expect(totals.first).to_be_visible()
    assert horizontal_overflow(page) <= 0
    look_at(page, "table-view-phone")
