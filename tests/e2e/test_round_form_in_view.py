"""The round form on a phone keeps what matters where the finger is: after Save,
"Round N saved", Undo and whom the round put out are on the screen, not a screen and
a half above the next form; a hand's problem stays in sight while the picker goes on
to the next hand (on the edit page too), and a problem's link brings the fix (the
outcome buttons) into view."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import GameSession
from games.services.sessions import create_session
from tests.support import axe
from tests.support.builders import play
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S, WIN_13
from tests.support.pages import (
    assert_in_view,
    choose_outcome,
    fill_round,
    hand_errors,
    player,
    sign_in,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

POOL = ["Asha", "Ben", "Chen", "Ravi"]
# 13-pool-101 under cut 7C: Ravi's middle drops cost 40 each, 120 after three rounds.
EARLY = {
    "Asha": ("declared", WIN_13),
    "Ben": ("first_drop", ""),
    "Chen": ("first_drop", ""),
    "Ravi": ("middle_drop", ""),
}


def open_pool(page: Page, rounds: int) -> GameSession:
    user = sign_in(page, "asha")
    session = create_session(user, preset="13-pool-101", overrides={}, players=POOL, name="Pool")
    for _ in range(rounds):
        play(session, "7C", EARLY, user)
    page.goto(f"/sessions/{session.pk}/")
    return session


def tap_cards(page: Page, text: str) -> None:
    picker = page.locator("[data-picker]")
    for number, group in enumerate(text.split(" | ")):
        if number:
            picker.get_by_role("button", name="New group").tap()
        for code in group.split():
            picker.locator(f'[data-card="{code}"]').tap()


def test_after_a_save_that_puts_a_player_out_the_news_is_on_the_screen(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_pool(page, rounds=2)
    page.locator('[data-picker] [data-card="7C"]').tap()
    choose_outcome(player(page, "Asha"), "declared")
    tap_cards(page, WIN_13)
    for name, (outcome, _) in EARLY.items():
        if name != "Asha":
            choose_outcome(player(page, name), outcome)
    # The last player's drop sent the picker to Save, which is tapped at once.
    save = page.get_by_role("button", name="Save round 3")
    expect(save).to_be_in_viewport()
    save.tap()

    saved = page.locator("[data-saved]")
    expect(saved).to_contain_text("Round 3 saved. Ravi is out.")
    assert_in_view(page, saved, saved.get_by_role("button", name="Undo"))
    expect(page.get_by_label("Cut joker")).to_be_in_viewport()  # the next round starts here
    assert session.rounds.count() == 3
    look_at(page, "round-saved-player-out-phone", full_page=False)
    axe.assert_no_violations(page)


def friday(page: Page) -> GameSession:
    """Friday's session for Asha, Ben and Chen, the page signed in as its scorer."""
    user = sign_in(page, "asha")
    return create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )


def open_friday(page: Page) -> GameSession:
    session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    return session


def test_a_declarers_hand_that_is_no_declaration_stays_said_beside_the_picker(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    open_friday(page)
    picker = page.locator("[data-picker]")
    picker.locator('[data-card="8S"]').tap()
    choose_outcome(player(page, "Asha"), "declared")
    tap_cards(page, SHOWN_8S.replace(" |", ""))  # 21 cards: no valid declaration

    # The picker went on to Ben, and says what is wrong with Asha's hand at its top.
    expect(picker.locator("[data-picker-for]")).to_have_text("Cards for Ben: 0 of 21")
    problem = picker.locator("[data-picker-problem]")
    expect(problem).to_contain_text("Asha: not a valid declaration")
    assert_in_view(page, problem, picker.locator('[data-card="AS"]'))
    look_at(page, "picker-problem-beside-phone", full_page=False)
    axe.assert_no_violations(page)
    # It stays while Ben's cards are tapped.
    picker.locator('[data-card="2D"]').tap()
    expect(picker.locator("[data-picker-for]")).to_have_text("Cards for Ben: 1 of 21")
    expect(problem).to_contain_text("Asha: not a valid declaration")

    problem.get_by_role("link", name="Show Asha").tap()
    invalid = player(page, "Asha").locator("label.chip", has_text="Invalid declaration")
    assert_in_view(page, invalid, page.locator('[data-preview="Asha"] .problem'))
    look_at(page, "picker-problem-shown-phone", full_page=False)
    invalid.tap()
    expect(problem).to_be_empty()  # fixed: no more said
    expect(page.locator('[data-preview="Asha"] .problem')).to_have_count(0)


def test_on_the_edit_page_too_a_hands_problem_stays_said_beside_the_picker(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = friday(page)
    played = play(session, "8S", ROUND_1)
    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/edit/")
    # The winner was Ben, not Asha: his 21 cards marked a declaration they are not.
    choose_outcome(player(page, "Asha"), "shown")
    choose_outcome(player(page, "Ben"), "declared")
    expect(hand_errors(page, "Ben")).to_contain_text("the declaration is not valid")
    player(page, "Asha").get_by_label("Groups").tap()  # the picker, for Asha's cards

    problem = page.locator("[data-picker] [data-picker-problem]")
    expect(problem).to_contain_text("Ben: the declaration is not valid")
    expect(problem.get_by_role("link", name="Show Ben")).to_be_in_viewport()
    look_at(page, "picker-problem-edit-phone", full_page=False)
    # (axe: the edit page in test_two_phones_one_round.py, the picker's line above.)


def test_a_problems_link_brings_the_outcome_buttons_that_fix_it_into_view(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_friday(page)
    fill_round(page, "8S", ROUND_1 | {"Asha": ("declared", SHOWN_8S), "Ben": ("shown", WIN_8S)})
    page.get_by_role("button", name="Save round 1").tap()

    page.locator("[data-problems]").get_by_role("link", name="Asha").tap()

    asha = player(page, "Asha")
    invalid = asha.locator("label.chip", has_text="Invalid declaration")
    assert_in_view(page, asha.locator("legend").first, invalid, hand_errors(page, "Asha"))
    expect(asha.get_by_label("Groups")).to_be_focused()
    look_at(page, "problem-link-outcomes-phone", full_page=False)
    axe.assert_no_violations(page)
    invalid.tap()  # the fix: the list above Save follows it (Ben's win is another matter)
    expect(hand_errors(page, "Asha")).to_be_empty()
    expect(page.locator("[data-problems]")).not_to_contain_text("Asha")
    assert not session.rounds.exists()
