"""A club's evening after the first game, in the browser: Rematch from a
finished session lands on the new one with the seats rotated; an owner's invite link
opened by a second person, signed out in their own browser, who signs up, joins the
league and claims their player name."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import GameSession, Membership, PlayerClaim
from games.services.leagues import create_league
from tests.support.builders import finished_session
from tests.support.pages import PASSWORD, horizontal_overflow, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_rematch_from_a_finished_session(phone_page: Page, look_at: Callable[..., None]) -> None:
    page = phone_page
    user = sign_in(page, "captain")
    done = finished_session(user, name="Friday")

    page.goto(f"/sessions/{done.pk}/")
    button = page.get_by_role("button", name="Rematch")
    expect(button).to_be_visible()
    expect(page.locator("#rematch-help")).to_contain_text(
        "Everyone moves one seat on (Ben now sits first, Asha last)"
    )
    assert button.bounding_box()["height"] >= 44
    look_at(page, "rematch-offered-phone")
    button.tap()

    expect(page.get_by_role("heading", level=1)).to_have_text("Friday (rematch)")
    new = GameSession.objects.get(rematch_of=done)
    assert page.url.endswith(f"/sessions/{new.pk}/")
    expect(page.locator("ul.messages")).to_contain_text("Rematch started")
    expect(page.get_by_role("link", name="Friday", exact=True)).to_be_visible()
    assert [s.player.name for s in new.seats.select_related("player")] == ["Ben", "Chen", "Asha"]
    # The new session's round form follows the new seat order.
    fieldsets = page.locator("fieldset[data-player]")
    expect(fieldsets).to_have_count(3)
    assert [fieldsets.nth(i).get_attribute("data-player") for i in range(3)] == [
        "Ben",
        "Chen",
        "Asha",
    ]
    assert horizontal_overflow(page) <= 0


def test_an_invite_link_used_by_a_second_person_who_then_claims_their_name(
    phone_page: Page, new_context: Callable[..., object], look_at: Callable[..., None]
) -> None:
    owner_page = phone_page
    owner = sign_in(owner_page, "captain")
    league = create_league(owner, name="Tuesday Club", preset="21-points", overrides={})
    finished_session(owner, name="Friday", league=league)

    owner_page.goto(f"/leagues/{league.slug}/")
    owner_page.get_by_label("Joins as").select_option("scorer")
    owner_page.get_by_label("Works for").select_option("7")
    owner_page.get_by_role("button", name="Make an invite link").tap()
    expect(owner_page.locator("ul.messages")).to_contain_text("Invite link made")
    url = owner_page.get_by_role("textbox", name="Invite link").input_value()
    assert "/invite/" in url
    assert horizontal_overflow(owner_page) <= 0
    look_at(owner_page, "invite-links-phone")

    # Ben, on his own phone, not signed in.
    ben = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ben.new_page()
    page.goto(url)
    expect(page.locator("ul.messages")).to_contain_text("to join Tuesday Club")
    page.get_by_role("link", name="Create an account").tap()
    page.get_by_label("Username").fill("ben")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").tap()

    expect(page.get_by_role("heading", level=1)).to_have_text("Join Tuesday Club as scorer")
    page.get_by_role("button", name="Join Tuesday Club").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tuesday Club")
    expect(page.locator("ul.messages")).to_contain_text("you joined as scorer")
    assert Membership.objects.get(league=league, user__username="ben").role == "scorer"

    # His name at the table: from the standings to his player page, "This is me".
    page.get_by_role("link", name="Standings", exact=True).tap()
    page.get_by_role("link", name="Ben", exact=True).tap()
    page.get_by_role("button", name="This is me").tap()
    expect(page.locator("[data-claimed-by]")).to_contain_text("claimed by you (ben)")
    assert PlayerClaim.objects.get(league=league).player.name == "Ben"
    page.goto(f"/leagues/{league.slug}/standings/")
    expect(page.locator("tr[data-you]")).to_have_attribute("data-player", "Ben")
    look_at(page, "claimed-standings-phone")

    # The owner sees the link used once, and who Ben is.
    owner_page.goto(f"/leagues/{league.slug}/")
    expect(owner_page.locator("[data-uses]")).to_have_text("used 1 time")
    owner_page.goto(f"/players/{PlayerClaim.objects.get().player_id}/")
    expect(owner_page.locator("[data-claimed-by]")).to_contain_text("claimed by ben")
