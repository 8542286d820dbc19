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
    expect(page.locator('[data-player="Dev"] [data-joined]')).to_have_text(
        "joined at 0 after round 1"
    )

    page.locator("[data-table-changes] summary").tap()
    page.once("dialog", lambda dialog: dialog.accept())  # it asks first: no taking back
    page.locator('[data-leave="Chen"]').tap()
    expect(page.locator('[data-player="Chen"] [data-left]')).to_have_text("left after round 1")
    look_at(page, "seat-changes-done-phone")

    session = GameSession.objects.get(pk=session.pk)
    assert [seat.player.name for seat in session.seats.all()].count("Dev") == 1
    kinds = list(session.seat_changes.values_list("kind", flat=True))
    assert kinds.count(SeatChange.Kind.LEAVE) == 1


def test_a_join_is_undone_a_name_corrected_and_the_rematch_leaves_out_who_went_home(
    fresh_phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = fresh_phone_page
    page.on("dialog", lambda dialog: dialog.accept())  # a leave and the end ask first
    user = sign_in(page, "olga")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Ravee"], name="Friday"
    )
    play(session, "8S", {"Asha": ROUND_1["Asha"], "Ben": ROUND_1["Ben"], "Ravee": ROUND_1["Chen"]})
    page.goto(f"/sessions/{session.pk}/")

    # A latecomer seated by mistake: Undo sits in the message that says so.
    fold = page.locator("[data-table-changes]")
    fold.locator("summary").tap()
    fold.locator("[data-join-name]").fill("Kim")
    fold.locator("[data-join]").tap()
    message = page.locator(".message-success")
    expect(message).to_contain_text("Kim joined the table.")
    look_at(page, "seat-changes-undo-phone", full_page=False)
    page.locator("[data-table-changes] summary").tap()
    expect(page.locator("[data-last-change]")).to_contain_text("Kim joined after round 1.")
    look_at(page, "seat-changes-take-back-phone", full_page=False)
    assert_no_violations(page)
    message.get_by_role("button", name="Undo").tap()
    expect(page.locator(".message-success")).to_have_text(
        "Kim's join taken back: their seat is gone."
    )
    expect(page.locator('[data-player="Kim"]')).to_have_count(0)

    # A name typed wrong: a name already at the table is refused at the field.
    rename = page.locator("[data-rename]")
    rename.locator("summary").tap()
    rename.get_by_role("radio", name="Ravee").check()
    rename.get_by_label("Their name is").fill("ben")
    rename.locator("[data-rename-save]").tap()
    field = page.locator("[data-rename]").get_by_label("Their name is")
    expect(field).to_have_accessible_description("Ben already has a seat at this table.")
    look_at(page, "seat-changes-rename-refused-phone", full_page=False)
    assert_no_violations(page)
    field.fill("Ravi")
    page.locator("[data-rename-save]").tap()
    expect(page.locator(".message-success")).to_have_text("Ravee is now Ravi.")
    expect(page.locator("[data-strip] .strip-name")).to_have_text(["Asha", "Ben", "Ravi"])
    expect(page.locator(".scores thead th")).to_have_text(["Round", "Asha", "Ben", "Ravi"])

    # Ravi goes home; the table ends the night: the rematch is without him.
    page.locator("[data-table-changes] summary").tap()
    page.locator('[data-leave="Ravi"]').tap()
    expect(page.locator('[data-player="Ravi"] [data-left]')).to_be_visible()
    page.locator("[data-close]").tap()
    expect(page.locator("#rematch-help")).to_contain_text("(not Ravi, who went home)")
    look_at(page, "seat-changes-rematch-phone")
    assert [s.player.name for s in GameSession.objects.get(pk=session.pk).seats.all()] == [
        "Asha",
        "Ben",
        "Ravi",
    ]
