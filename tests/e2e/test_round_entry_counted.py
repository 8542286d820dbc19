"""Hands counted at the table on a phone: a round opened on every hand's count (counts
first), the winner's cards tapped on the picker and the losers' figures typed, a count
no hand makes said beside its field, a winner on the table's show in one tap, and an
edit from cards to a count and back."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from games.models import GameSession, HandEntry, Round
from games.rules import HandFigures
from games.services.round_checks import TypedHand, check_round
from games.services.round_entries import new_round_entry
from games.services.round_saves import save_round
from games.services.sessions import create_session
from tests.support import axe
from tests.support.builders import by_seat, play, seat_pk
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S
from tests.support.pages import (
    choose_outcome,
    edge_looks_red,
    hand_errors,
    player,
    preview,
    sign_in,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Ben's SHOWN_8S under cut 8S, as he says it at the table.
BEN = HandFigures(count=102, value_points=10)


def open_counting(page: Page, **house_rules: object) -> GameSession:
    user = sign_in(page, "asha")
    session = create_session(
        user,
        preset="21-points",
        overrides={"hand_entry": "counts_first", **house_rules},
        players=["Asha", "Ben", "Chen"],
        name="Friday",
    )
    page.goto(f"/sessions/{session.pk}/")
    return session


def count_switch(page: Page, name: str) -> Locator:
    return player(page, name).get_by_role("switch", name="Count at the table")


def figure(page: Page, name: str, label: str) -> Locator:
    return player(page, name).get_by_label(label, exact=True)


def tap_cards(page: Page, text: str) -> None:
    for code in text.replace("|", " ").split():
        page.locator(f'[data-picker] [data-card="{code}"]').tap()


def stored_scores(session: GameSession) -> dict[str, int]:
    entries = HandEntry.objects.filter(round__session=session)
    return dict(entries.values_list("player__name", "score"))


def test_a_round_of_counts_with_the_winner_tapped_on_the_picker(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_counting(page)
    picker = page.locator("[data-picker]")
    # Every hand opens on its count: the figures in place of the cards.
    for name in ("Asha", "Ben", "Chen"):
        expect(count_switch(page, name)).to_be_checked()
        expect(player(page, name).get_by_label("Groups")).to_be_hidden()
    expect(figure(page, "Ben", "Count")).to_be_visible()
    expect(figure(page, "Ben", "Count")).to_have_attribute("inputmode", "numeric")
    look_at(page, "counts-first-opened-phone")

    picker.locator('[data-card="8S"]').tap()
    # No hand to tap cards for: the picker folds and says what is left.
    expect(picker.locator("[data-picker-for]")).to_have_text(
        "Cards done: type the counts, then save."
    )
    # The winner's Declared turns the hand to its cards (the show is not trusted), and
    # the picker goes there.
    choose_outcome(player(page, "Asha"), "declared")
    expect(player(page, "Asha").get_by_label("Groups")).to_be_visible()
    expect(player(page, "Asha").locator("[data-count-switch]")).not_to_be_checked()
    expect(picker.locator("[data-picker-for]")).to_have_text("Cards for Asha: 0 of 21")
    tap_cards(page, WIN_8S)
    expect(picker.locator("[data-picker-for]")).to_have_text(
        "Cards done: type the counts, then save."
    )
    expect(figure(page, "Ben", "Count")).to_be_in_viewport()

    # Focusing a count opens no picker; a count no hand makes is said beside it.
    count = figure(page, "Ben", "Count")
    count.tap()
    count.press_sequentially("1")
    expect(hand_errors(page, "Ben")).to_contain_text(
        "no 21 cards count 1: a card counts 2 to 10, a joker 0"
    )
    expect(count).to_have_attribute("aria-invalid", "true")
    assert edge_looks_red(count)
    expect(picker.locator(".picker-suit").first).to_be_hidden()
    hand_errors(page, "Ben").scroll_into_view_if_needed()
    look_at(page, "counted-error-beside-phone", full_page=False)

    count.fill("102")
    figure(page, "Ben", "Value points").fill("10")
    choose_outcome(player(page, "Chen"), "first_drop")
    expect(preview(page, "Ben")).to_contain_text(
        "Counted at the table: count 102, value points 10."
    )
    expect(preview(page, "Ben")).to_contain_text("Hand points: 102")
    expect(hand_errors(page, "Ben")).to_be_empty()
    expect(count).not_to_have_attribute("aria-invalid", "true")
    player(page, "Ben").scroll_into_view_if_needed()
    look_at(page, "counted-previewed-phone", full_page=False)
    axe.assert_no_violations(page)

    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-saved]")).to_contain_text("Round 1 saved.")
    assert stored_scores(session) == {"Asha": 122, "Ben": -92, "Chen": -30}
    assert HandEntry.objects.get(player__name="Ben").counted


def test_a_wrong_count_saved_is_listed_and_leads_to_its_field(phone_page: Page) -> None:
    page = phone_page
    open_counting(page, trust_show=True)
    page.locator('[data-picker] [data-card="8S"]').tap()
    choose_outcome(player(page, "Asha"), "declared")  # trusted: one tap
    expect(count_switch(page, "Asha")).to_be_checked()
    figure(page, "Ben", "Count").fill("abc")
    choose_outcome(player(page, "Chen"), "first_drop")
    page.get_by_role("button", name="Save round 1").tap()

    problems = page.locator("[data-problems]")
    expect(problems).to_contain_text("Ben: type a whole number, such as 34, not “abc”")
    problems.get_by_role("link", name="type a whole number").tap()
    expect(figure(page, "Ben", "Count")).to_be_focused()
    expect(figure(page, "Ben", "Count")).to_be_in_viewport()
    figure(page, "Ben", "Count").fill("102")
    expect(problems).to_have_count(0)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-saved]")).to_contain_text("Round 1 saved.")
    asha = HandEntry.objects.get(player__name="Asha")
    assert asha.counted and asha.figures == {}


def counted_round(session: GameSession) -> Round:
    """ROUND_1 saved with Ben's hand counted at the table."""
    hands = by_seat(session, ROUND_1)
    hands[seat_pk(session, "Ben")] = TypedHand("shown", "", BEN)
    entry = new_round_entry(session)
    check = check_round(entry, "8S", hands, final=True)
    return save_round(entry, check, session.created_by)


def test_an_edit_turns_cards_into_a_count_and_a_count_into_cards(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "asha")
    session = create_session(
        user,
        preset="21-points",
        overrides={"hand_entry": "counts"},
        players=["Asha", "Ben", "Chen"],
        name="Friday",
    )
    played = play(session, "8S", ROUND_1)
    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/edit/")

    # Cards to a count: the figures the cards give come in.
    expect(count_switch(page, "Ben")).not_to_be_checked()
    count_switch(page, "Ben").tap()
    expect(figure(page, "Ben", "Count")).to_have_value("102")
    expect(figure(page, "Ben", "Value points")).to_have_value("10")
    expect(player(page, "Ben").get_by_label("Groups")).to_be_hidden()
    look_at(page, "edit-cards-to-count-phone", full_page=False)
    page.emulate_media(color_scheme="dark")
    look_at(page, "edit-cards-to-count-phone-dark", full_page=False)
    page.emulate_media(color_scheme="light")
    page.get_by_role("button", name="Save changes").tap()
    expect(page.locator(".page-messages")).to_contain_text("Round 1 saved")
    ben = HandEntry.objects.get(player__name="Ben")
    assert ben.counted and ben.figures == {"count": 102, "value_points": 10}

    # And back: Count off brings the cards' field, to type them in.
    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/edit/")
    expect(count_switch(page, "Ben")).to_be_checked()
    expect(preview(page, "Ben")).to_contain_text("Counted at the table: count 102")
    count_switch(page, "Ben").tap()
    groups = player(page, "Ben").get_by_label("Groups")
    expect(groups).to_be_visible()
    expect(figure(page, "Ben", "Count")).to_be_hidden()
    groups.fill(SHOWN_8S)
    expect(preview(page, "Ben")).to_contain_text("Hand points: 102")
    look_at(page, "edit-count-to-cards-phone", full_page=False)
    axe.assert_no_violations(page)
    page.get_by_role("button", name="Save changes").tap()
    expect(page.locator(".page-messages")).to_contain_text("Round 1 saved")
    ben = HandEntry.objects.get(player__name="Ben")
    assert not ben.counted and len(ben.groups) > 1
    assert stored_scores(session) == {"Asha": 122, "Ben": -92, "Chen": -30}
