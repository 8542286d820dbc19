"""A pool game to its end on a phone: the round that puts two players out is typed
through the form, the page marks them out, shows the distance bars and the winner
without a reload; deleting that round in the browser reopens the session, with the
totals the rules service gives for the rounds left. A player who is out rejoins on a
phone: the table keeps the round that put them out as it added up."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from games.models import GameSession
from games.rules.totals import SessionState
from games.services.sessions import create_session
from tests.support.builders import CHEN_REJOINED_CELLS, expected_totals, play, pool_with_chen_out
from tests.support.hands import WIN_13
from tests.support.pages import (
    PASSWORD,
    PLAYERS,
    assert_red_and_readable,
    fill_round,
    horizontal_overflow,
    sign_in,
    sign_in_on_the_page,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

Hands = dict[str, tuple[str, str]]
EARLY: Hands = {
    "Asha": ("declared", WIN_13),
    "Ben": ("middle_drop", ""),
    "Chen": ("first_drop", ""),
}
# Ben (80 + 40) and Chen (40 + 80) pass 101 together: Asha is the last one in.
DECIDING: Hands = {
    "Asha": ("declared", WIN_13),
    "Ben": ("middle_drop", ""),
    "Chen": ("invalid_declaration", ""),
}


def expected(rounds: list[Hands]) -> SessionState:
    """The rules service's totals for these rounds (cut 7C), worked out without the
    app; seat 1 deals first and the deal passes clockwise."""
    dealers = list(PLAYERS[: len(rounds)])
    return expected_totals("13-pool-101", PLAYERS, [("7C", h) for h in rounds], dealers=dealers)


def pool_with_two_rounds(user: User) -> GameSession:
    session = create_session(
        user, preset="13-pool-101", overrides={}, players=list(PLAYERS), name="Pool night"
    )
    for _ in range(2):
        play(session, "7C", EARLY, user)
    return session


def assert_standings(page: Page, state: SessionState) -> None:
    for name in PLAYERS:
        standing = page.locator(f'.standing[data-player="{name}"]')
        expect(standing.locator("[data-standing-total]")).to_have_text(str(state.totals[name]))
        # Out, or the session over: no distance left to show ("0 to go", "76 to go").
        if name in state.eliminated_in or state.finished:
            expect(standing.locator("meter, [data-distance]")).to_have_count(0)
            continue
        distance = state.distance_to_ceiling(name)
        expect(standing.locator("meter")).to_have_attribute("value", str(distance))
        expect(standing.locator("[data-distance]")).to_have_text(f"{distance} to go")


def test_a_pool_game_ends_and_reopens_on_a_phone(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = User.objects.create_user(username="pool", password=PASSWORD)
    session = pool_with_two_rounds(user)
    sign_in_on_the_page(page, "pool")
    page.goto(f"/sessions/{session.pk}/")
    assert_standings(page, expected([EARLY, EARLY]))
    page.evaluate("window.noReload = true")

    # The deciding round, typed on the phone.
    fill_round(page, "7C", DECIDING)
    heart = page.locator('[data-preview="Asha"] .card.suit-h').first
    expect(heart).to_have_text("A♥")
    assert_red_and_readable(heart)
    expect(page.locator('[data-settlement="Chen"] .round-score')).to_have_text("+80")
    page.get_by_role("button", name="Save round 3").click()

    # Saved in place: the winner, the players out, the bars, and no form any more.
    final = expected([EARLY, EARLY, DECIDING])
    assert final.finished and final.winners == ("Asha",)
    expect(page.locator("[data-winner]")).to_have_text("Session over: Asha wins.")
    expect(page.get_by_role("heading", name="No more rounds")).to_be_visible()
    assert page.evaluate("window.noReload") is True
    assert_standings(page, final)
    for name in ("Ben", "Chen"):
        standing = page.locator(f'.standing[data-player="{name}"]')
        expect(standing).to_have_class("standing is-out")
        expect(standing).to_contain_text("out in round 3")
    expect(page.locator('tr[data-round="3"] .badge-out')).to_have_count(2)
    expect(page.locator('.standing[data-player="Asha"]')).to_contain_text("winner")
    assert horizontal_overflow(page) <= 0
    look_at(page, "session-pool-over-phone")

    # Deleting the deciding round, from its edit page, reopens the session.
    page.get_by_role("link", name="Edit round 3").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete round 3").click()
    expect(page.locator(".messages")).to_contain_text("Round 3 deleted")
    expect(page.locator("[data-winner]")).to_have_count(0)
    expect(page.locator("[data-next-dealer]")).to_contain_text("Chen")
    expect(page.get_by_role("button", name="Save round 3")).to_be_visible()
    expect(page.locator(".standing.is-out")).to_have_count(0)
    assert_standings(page, expected([EARLY, EARLY]))
    page.set_viewport_size({"width": 375, "height": 667})
    assert horizontal_overflow(page) <= 0


def cell_texts(row: Locator) -> list[str]:
    return [" ".join(text.split()) for text in row.locator("th, td").all_inner_texts()]


def test_a_rejoin_on_a_phone_asks_first_and_keeps_the_round_that_put_the_player_out(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    # Chen is out at 120 (80 + 40) after round 2; Ben has 60, under the house rule's
    # cutoff of 70, so Chen may rejoin at 61.
    session = pool_with_chen_out(sign_in(page, "pool"), overrides={"rejoin_cutoff": 70})
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("[data-house-rules]")).to_have_text(
        "House rules: Rejoin limit 70 (preset 79)"
    )
    look_at(page, "session-pool-house-rules-phone", full_page=False)
    rejoin = page.get_by_role("button", name="Rejoin at 61")
    rejoin.scroll_into_view_if_needed()
    look_at(page, "session-pool-rejoin-offered-phone", full_page=False)

    # Asked first: dismissed, nothing happens.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    rejoin.click()
    expect(rejoin).to_be_visible()
    assert asked == ["Rejoin Chen at 61? That is a new buy-in (you can take it back)."]
    assert not session.rejoins.exists()

    page.once("dialog", lambda dialog: dialog.accept())
    rejoin.click()
    expect(page.locator(".messages")).to_contain_text("Chen rejoined.")
    # Until the next round is played the rejoin may be taken back, asking first.
    take_back = page.get_by_role("button", name="Take back")
    take_back.scroll_into_view_if_needed()
    look_at(page, "session-pool-take-back-phone", full_page=False)
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    take_back.click()
    expect(take_back).to_be_visible()
    assert asked[-1] == "Take back Chen's rejoin? Chen is out again, and the pot loses that buy-in."
    assert session.rejoins.exists()
    fill_round(
        page,
        "7C",
        {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Chen": ("first_drop", "")},
    )
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator('tr[data-round="3"]')).to_be_visible()
    # Chen has played round 3 back in: the rejoin is no longer taken back, nor offered.
    expect(page.locator("[data-take-back]")).to_have_count(0)
    page.reload()
    expect(page.locator("[data-take-back]")).to_have_count(0)

    rows = page.locator("#score-rows tr")
    assert [cell_texts(rows.nth(i))[1:] for i in range(4)] == CHEN_REJOINED_CELLS
    expect(rows.nth(2).locator("th")).to_have_text("Rejoin")
    chen = page.locator('.standing[data-player="Chen"]')
    expect(chen).to_contain_text("rejoined at 61 after round 2")
    expect(chen.locator("[data-distance]")).to_have_text("20 to go")
    assert horizontal_overflow(page) <= 0
    page.locator(".table-scroll").scroll_into_view_if_needed()
    look_at(page, "session-pool-rejoined-phone", full_page=False)
    page.emulate_media(color_scheme="dark")
    look_at(page, "session-pool-rejoined-phone-dark", full_page=False)

    # The share page: the same rows, without the edit links.
    page.goto(f"/shared/{session.share_token}/")
    rows = page.locator("#score-rows tr")
    assert [cell_texts(rows.nth(i))[1:] for i in range(4)] == CHEN_REJOINED_CELLS
    expect(rows.nth(2).locator("th")).to_have_text("Rejoin")
    expect(page.locator("[data-house-rules]")).to_contain_text("Rejoin limit 70")
    look_at(page, "shared-pool-rejoined-phone")
