"""A latecomer and a player who goes home, on the scorer's phone: both folded under the
standings (a leave cannot be taken back, so no tap meant for a total may land on one),
each a tap or two once opened, and the page saying what changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import GameSession, SeatChange
from games.services.sessions import create_session
from tests.support.axe import assert_no_violations
from tests.support.builders import play
from tests.support.hands import ROUND_1
from tests.support.pages import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_latecomer_joins_and_a_player_goes_home_from_the_folded_controls(
    fresh_phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = fresh_phone_page
    user = sign_in(page, "olga")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    play(session, "8S", ROUND_1)
    page.goto(f"/sessions/{session.pk}/")

    fold = page.locator("[data-table-changes]")
    expect(page.locator("[data-leave]:visible")).to_have_count(0)  # folded until asked for
    fold.locator("summary").tap()
    expect(fold.locator("[data-leave]")).to_have_text(["Asha leaves", "Ben leaves", "Chen leaves"])
    look_at(page, "seat-changes-open-phone", full_page=False)
    assert_no_violations(page)

    fold.locator("[data-join-name]").fill("Dev")
    fold.locator("[data-join]").tap()
    expect(page.locator('[data-player="Dev"] [data-joined]')).to_have_text("joined after round 1")

    page.locator("[data-table-changes] summary").tap()
    page.once("dialog", lambda dialog: dialog.accept())  # it asks first: no taking back
    page.locator('[data-leave="Chen"]').tap()
    expect(page.locator('[data-player="Chen"] [data-left]')).to_have_text("left after round 1")
    look_at(page, "seat-changes-done-phone")

    session = GameSession.objects.get(pk=session.pk)
    assert [seat.player.name for seat in session.seats.all()].count("Dev") == 1
    kinds = list(session.seat_changes.values_list("kind", flat=True))
    assert kinds.count(SeatChange.Kind.LEAVE) == 1
