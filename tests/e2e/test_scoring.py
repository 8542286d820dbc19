"""A whole evening in the browser, on a phone and on a desktop: sign in, start a
session for three players, enter three rounds through the form (one with a typing
mistake that is shown and then corrected), edit round 1, and check the totals on
the page against the rules service itself."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.figures import points, signed
from games.rules.totals import SessionState
from tests.support.builders import expected_totals
from tests.support.hands import LOOSE_148, ROUND_1, SHOWN_8S, THREE_PURE
from tests.support.pages import (
    PASSWORD,
    PLAYERS,
    assert_red_and_readable,
    choose_outcome,
    fill_round,
    hand_errors,
    horizontal_overflow,
    player,
    preview,
    sign_in_on_the_page,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


# Ben's hand in round 1 as first typed: the last card, 8C, mistyped as 8X.
TYPO = SHOWN_8S.removesuffix("8C") + "8X"

# Asha's hand in round 3, grouped as the rules service groups it under a 10♣ cut (the
# app would arrange SHOWN_8S's loose cards so; this test checks totals, not that).
ASHA_3 = "2D 3D 4D | 8C 9C 10C | AS 2S 5S 7S JS QS 6H QH KH KH 9D QD 4C 6C JC"

Round = tuple[str, dict[str, tuple[str, str]]]
ROUNDS: list[Round] = [
    ("8S", ROUND_1),
    (
        "5H",
        {
            "Asha": ("middle_drop", ""),
            "Ben": ("declared", THREE_PURE),
            "Chen": ("shown", LOOSE_148),
        },
    ),
    (
        "10C",
        {"Asha": ("shown", ASHA_3), "Ben": ("first_drop", ""), "Chen": ("declared", THREE_PURE)},
    ),
]
# Round 1 corrected afterwards: Chen had dropped in the middle, not at the start.
EDITED_1: Round = ("8S", ROUNDS[0][1] | {"Chen": ("middle_drop", "")})


def expected(rounds: list[Round]) -> SessionState:
    """The rules service's totals for these rounds, worked out without the app; seat 1
    deals first and the deal passes clockwise."""
    dealers = [PLAYERS[i % 3] for i in range(len(rounds))]
    return expected_totals("21-points", PLAYERS, rounds, dealers=dealers)


def save_round(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator("#round-entry")).to_contain_text(f"Round {number} saved.")


def assert_totals(page: Page, state: SessionState) -> None:
    for name in PLAYERS:
        expect(page.locator(f'[data-total="{name}"]')).to_have_text(points(state.totals[name]))
        standing = page.locator(f'.standing[data-player="{name}"] [data-standing-total]')
        expect(standing).to_have_text(points(state.totals[name]))


def sign_in_and_start_a_session(page: Page, username: str) -> None:
    User.objects.create_user(username=username, password=PASSWORD)
    sign_in_on_the_page(page, username)
    page.get_by_role("link", name="Start a session").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Start a session")
    assert horizontal_overflow(page) <= 0
    for number, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {number}", exact=True).fill(name)
    expect(page.get_by_label("21-card points")).to_be_checked()
    page.get_by_role("button", name="Start session").click()
    # Unnamed: called by its game and day.
    expect(page.get_by_role("heading", level=1)).to_contain_text("21-card points, ")
    expect(page.locator("[data-next-dealer]")).to_contain_text("Asha")


def enter_three_rounds(
    page: Page, *, keypad: bool, look_at: Callable[..., None], size: str
) -> None:
    # Saving must swap the table in place: a full reload would lose this marker.
    page.evaluate("window.noReload = true")

    # Round 1, with Ben's last card mistyped.
    cut, hands = ROUNDS[0]
    fill_round(page, cut, hands | {"Ben": ("shown", TYPO)})
    typo_error = "'8X' is not a card (group 7, card 6)"
    if keypad:
        # The live preview names the bad card beside Ben, and only there...
        expect(hand_errors(page, "Ben")).to_contain_text(typo_error)
        expect(hand_errors(page, "Asha")).not_to_contain_text("not a card")
        expect(page.locator("[data-jokers]")).to_contain_text("Jokers: 8♣ 8♦ 8♥ 8♠ 7♠ 9♠ PJ")
        # ...and the card picker corrects it: undo twice (the X, then the 8), then 8♣.
        groups = player(page, "Ben").get_by_label("Groups")
        groups.focus()
        groups.press("Control+End")
        keys = player(page, "Ben").locator("[data-picker]")
        expect(keys).to_be_visible()  # it moved under the field being typed into
        box = keys.locator('[data-card="8H"]').bounding_box()
        assert box is not None and box["height"] >= 44  # a thumb-sized key
        keys.locator('[data-key="undo"]').click()
        keys.locator('[data-key="undo"]').click()
        keys.locator('[data-card="8C"]').click()
        expect(groups).to_have_value(SHOWN_8S)
    else:
        # Saved with the mistake: the server refuses, keeps the text, says where.
        page.get_by_role("button", name="Save round 1").click()
        expect(hand_errors(page, "Ben")).to_contain_text(typo_error)
        expect(player(page, "Ben").get_by_label("Groups")).to_have_value(TYPO)
        expect(page.locator(".scores")).to_have_count(0)  # nothing was saved
        # The form was swapped in anew: type once htmx has wired it up (a person
        # cannot type within those milliseconds; a test can).
        page.wait_for_function(  # a function: an expression is polled with eval(), see CSP
            "() => document.querySelector('#settlement')['htmx-internal-data'] !== undefined"
            " && !document.querySelector('.htmx-settling, .htmx-swapping')"
        )
        player(page, "Ben").get_by_label("Groups").fill(SHOWN_8S)
    expect(hand_errors(page, "Ben")).not_to_contain_text(typo_error)
    expect(preview(page, "Ben")).to_contain_text("Hand points: 102")
    # Every hand is complete: the settlement is previewed before saving.
    first = expected(ROUNDS[:1])
    expect(page.locator('[data-settlement="Ben"] .round-score')).to_have_text(
        signed(first.lines[0].scores["Ben"])
    )
    save_round(page, 1)
    assert_totals(page, first)
    expect(page.locator("[data-next-dealer]")).to_contain_text("Ben")
    expect(page.get_by_label("Cut joker")).to_have_value("")  # a fresh form

    # Rounds 2 and 3.
    fill_round(page, *ROUNDS[1])
    expect(page.locator('[data-settlement="Chen"]')).to_be_visible()
    if keypad:
        look_at(page, f"round-form-{size}")
    save_round(page, 2)
    fill_round(page, *ROUNDS[2])
    save_round(page, 3)
    assert_totals(page, expected(ROUNDS))
    assert page.evaluate("window.noReload") is True


def edit_round_one(page: Page, *, look_at: Callable[..., None], size: str) -> None:
    page.get_by_role("link", name="Edit round 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    expect(player(page, "Ben").get_by_label("Groups")).to_have_value(SHOWN_8S)
    choose_outcome(player(page, "Chen"), "middle_drop")
    expect(preview(page, "Chen")).to_contain_text("Hand points: 70")
    assert horizontal_overflow(page) <= 0
    look_at(page, f"round-edit-{size}")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 saved")


def check_the_final_page(page: Page) -> None:
    state = expected([EDITED_1, *ROUNDS[1:]])
    assert state.totals != expected(ROUNDS).totals  # the edit moved the totals
    assert_totals(page, state)
    for line in state.lines:
        row = page.locator(f'tr[data-round="{line.number}"] .running')
        expect(row).to_have_text([points(line.totals[name]) for name in PLAYERS])
    expect(page.locator("[data-next-dealer]")).to_contain_text(state.next_dealer)
    heart = page.locator(".scores .card.suit-h").first
    assert_red_and_readable(heart)
    assert heart.inner_text() == "5♥"


def test_an_evening_on_a_phone(phone_page: Page, look_at: Callable[..., None]) -> None:
    page = phone_page
    sign_in_and_start_a_session(page, "phone")
    enter_three_rounds(page, keypad=True, look_at=look_at, size="phone")
    edit_round_one(page, look_at=look_at, size="phone")
    check_the_final_page(page)

    assert horizontal_overflow(page) <= 0
    look_at(page, "session-phone")
    page.set_viewport_size({"width": 375, "height": 667})  # the narrowest we promise
    assert horizontal_overflow(page) <= 0
    link = page.get_by_role("link", name="Edit round 2").bounding_box()
    assert link is not None and link["height"] >= 44


def test_an_evening_on_a_desktop(desktop_page: Page, look_at: Callable[..., None]) -> None:
    page = desktop_page
    sign_in_and_start_a_session(page, "desktop")
    enter_three_rounds(page, keypad=False, look_at=look_at, size="desktop")
    edit_round_one(page, look_at=look_at, size="desktop")
    check_the_final_page(page)

    assert horizontal_overflow(page) <= 0
    look_at(page, "session-desktop")


def test_the_toss_seats_players_by_their_cards(phone_page: Page) -> None:
    page = phone_page
    User.objects.create_user(username="toss", password=PASSWORD)
    sign_in_on_the_page(page, "toss")
    page.goto("/sessions/new/")
    for number, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {number}", exact=True).fill(name)

    page.get_by_role("button", name="Toss for seats").click()

    expect(page.locator("[data-toss-card]")).to_have_count(3)
    seated = [page.get_by_label(f"Seat {n}", exact=True).input_value() for n in (1, 2, 3)]
    assert sorted(seated) == sorted(PLAYERS)
    # The lowest card, in the last seat, deals first.
    expect(page.locator('input[name="first_dealer"][value="3"]')).to_be_checked()
    # Picking a preset swaps in its ceiling and house rules.
    page.get_by_label("13-card pool 101").check()
    expect(page.get_by_label("Point ceiling")).to_have_value("101")
    page.get_by_text("House rules").click()
    expect(page.get_by_label("Maximum hand points")).to_have_value("80")
    page.get_by_role("button", name="Start session").click()
    expect(page.locator("[data-next-dealer]")).to_contain_text(seated[2])
    expect(page.locator(".meta")).to_contain_text("ceiling 101")


def test_known_players_are_seated_by_a_tap(phone_page: Page) -> None:
    from games.services.sessions import create_session

    page = phone_page
    picks = User.objects.create_user(username="picks", password=PASSWORD)
    # Players are offered once this user has sat at a table with them.
    create_session(picks, preset="21-points", overrides={}, players=["Dev", "Esha"])
    sign_in_on_the_page(page, "picks")
    page.goto("/sessions/new/")
    seat_1, seat_2 = (page.get_by_label(f"Seat {n}", exact=True) for n in (1, 2))

    page.get_by_role("button", name="Esha", exact=True).click()
    page.get_by_role("button", name="Dev", exact=True).click()
    expect(seat_1).to_have_value("Esha")
    expect(seat_2).to_have_value("Dev")
    page.get_by_role("button", name="Esha", exact=True).click()  # a second tap unseats
    expect(seat_1).to_have_value("")
    assert horizontal_overflow(page) <= 0


def test_a_round_can_be_entered_without_javascript(
    new_context, look_at: Callable[..., None]
) -> None:
    from games.services.sessions import create_session

    page = new_context(viewport={"width": 375, "height": 667}, java_script_enabled=False).new_page()
    user = User.objects.create_user(username="nojs", password=PASSWORD)
    session = create_session(
        user, preset="21-points", overrides={}, players=list(PLAYERS), name="Plain"
    )
    sign_in_on_the_page(page, "nojs")
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("[data-picker]")).to_be_hidden()  # nothing to drive it

    fill_round(page, *ROUNDS[0])
    page.get_by_role("button", name="Save round 1").click()

    # A plain POST and redirect: the page reloads with the table and a fresh form.
    expect(page.locator(".messages")).to_contain_text("Round 1 saved.")
    assert_totals(page, expected(ROUNDS[:1]))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    assert horizontal_overflow(page) <= 0
