"""Table mode in the browser: the scorer opens table mode on a phone, three
players open the table link on phones of their own, pick their seats and tap their
hands in at the same time; the scorer sees each hand arrive, saves the round with one
tap, and the players' phones move on to the next round by themselves."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import GameSession, RoundChange
from games.rules import parse_cards
from games.services.sessions import create_session
from games.services.table import close_table, open_table, replace_table_link, set_cut
from tests.support.builders import edit, play
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S, shuffled
from tests.support.pages import (
    KEPT_AS_HANDED_IN,
    PHONE_DEVICE,
    seat_hands_in,
    seat_types,
    seat_types_unaware,
    sign_in,
    signed_in_as,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TOUCH = PHONE_DEVICE
SEAT_POLL = "**/hand/status/**"  # a seat's phone asks every 3 s (games/views/table.py)
# Each player's hand, tapped card by card in any order; Chen drops.
HANDS = {
    "Asha": ("declared", shuffled(WIN_8S)),
    "Ben": ("shown", shuffled(SHOWN_8S)),
    "Chen": ("first_drop", ""),
}


def seat_state(page: Page, name: str):
    return page.locator(f'[data-table-seat="{name}"]')


def pick_seat(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_role("button", name=name).tap()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}'s hand")
    page.locator("[data-picker]:not([hidden])").wait_for()


def take_the_phone(page: Page, session: GameSession, name: str) -> Page:
    """Another player takes a phone holding a seat: in another tab, the table link
    opens the seat the phone holds; they leave it and pick their own (``name``)."""
    tab = page.context.new_page()
    tab.goto(f"/table/{session.table_token}/")
    held = page.get_by_role("heading", level=1).inner_text().removesuffix("'s hand")
    expect(tab.get_by_role("heading", level=1)).to_have_text(f"{held}'s hand")
    tab.get_by_role("button", name=f"Not {held}? Leave this seat").tap()
    expect(tab.get_by_role("button", name=name, exact=True)).to_be_visible()
    tab.get_by_role("button", name=name, exact=True).tap()
    expect(tab.get_by_role("heading", level=1)).to_have_text(f"{name}'s hand")
    return tab


def ben_at_a_table(new_context: Callable[..., Any]) -> tuple[GameSession, Page]:
    """Olga's Friday table in table mode, and Ben's phone holding his seat there."""
    user = sign_in(new_context(**TOUCH).new_page(), "olga")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    open_table(session)
    phone = new_context(**TOUCH).new_page()
    pick_seat(phone, f"/table/{session.table_token}/", "Ben")
    return session, phone


def tap_card(page: Page, code: str) -> None:
    page.locator(f'[data-picker] [data-card="{code}"]').tap()


def test_three_phones_enter_their_hands_at_once_and_the_scorer_saves(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    scorer = new_context(**TOUCH).new_page()
    user = sign_in(scorer, "olga")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    scorer.goto(f"/sessions/{session.pk}/")
    scorer.get_by_role("button", name="Open table mode").tap()
    expect(scorer.get_by_role("heading", name="Table mode: round 1")).to_be_visible()
    link = scorer.locator(".table-link [data-link-url]").input_value()
    look_at(scorer, "table-scorer-open-phone", full_page=False)

    phones = {name: new_context(**TOUCH).new_page() for name in HANDS}
    for name, page in phones.items():
        pick_seat(page, link, name)
    for name in HANDS:
        expect(seat_state(scorer, name)).to_contain_text("on a phone")
    # A fourth phone finds Ben's seat taken.
    stranger = new_context(**TOUCH).new_page()
    stranger.goto(link)
    expect(stranger.get_by_role("button", name="Ben taken on another phone")).to_be_visible()

    # Each phone asks for the cut joker first (the first one entered is the table's).
    # Meanwhile their polls hear nothing new: on a loaded machine seconds pass between
    # the taps, and a poll would bring the first phone's cut to a phone before its turn.
    for page in phones.values():
        page.route(SEAT_POLL, lambda route: route.fulfill(status=204))
    for page in phones.values():
        expect(page.locator("[data-picker-for]")).to_have_text("Tap the cut joker")
        tap_card(page, "8S")
    for page in phones.values():
        page.unroute(SEAT_POLL)
    for name, (outcome, _cards) in HANDS.items():
        if outcome != "shown":
            phones[name].locator(f'input[type="radio"][value="{outcome}"]').check()
    # All three at once: a card on each phone in turn.
    taps = {name: [card.code for card in parse_cards(cards)] for name, (_, cards) in HANDS.items()}
    for index in range(max(len(cards) for cards in taps.values())):
        for name, cards in taps.items():
            if index < len(cards):
                tap_card(phones[name], cards[index])
        if index == 10:
            expect(seat_state(scorer, "Ben")).to_have_attribute("data-state", "typing")
            look_at(scorer, "table-scorer-typing-phone", full_page=False)
    expect(phones["Ben"].locator('[data-preview="Ben"]')).to_contain_text("Hand points: 102")
    expect(phones["Ben"].locator(".htmx-request")).to_have_count(0)
    look_at(phones["Ben"], "table-seat-complete-phone")
    for page in phones.values():
        page.get_by_role("button", name="Hand in").tap()
    for name, page in phones.items():
        expect(page.locator("[data-handed-in]")).to_be_visible()
        expect(seat_state(scorer, name)).to_have_attribute("data-state", "in")
    look_at(phones["Asha"], "table-seat-in-phone")
    expect(scorer.locator('[data-settlement="Ben"]')).to_be_visible()
    look_at(scorer, "table-scorer-all-in-phone")

    scorer.get_by_role("button", name="Save round 1").tap()

    expect(scorer.locator("[data-saved]")).to_contain_text("Round 1 saved.")
    expect(scorer.get_by_role("heading", name="Table mode: round 2")).to_be_visible()
    expect(scorer.locator('[data-total="Asha"]')).to_have_text("122")
    for page in phones.values():  # each phone moves on by itself
        expect(page.locator("[data-round-title]")).to_have_text("Round 2")
    look_at(phones["Ben"], "table-seat-next-round-phone", full_page=False)
    audit = RoundChange.objects.get(action="created")
    assert {hand["entered_by"] for hand in audit.after["entries"]} == {
        "Asha's phone",
        "Ben's phone",
        "Chen's phone",
    }
    assert GameSession.objects.get(pk=session.pk).rounds.count() == 1


def test_the_auto_save_switch_follows_on_the_scorers_other_phone(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    """Two phones signed in as the scorer, before any hand: one taps the auto-save
    switch, the other's panel shows it from its next poll."""
    first = new_context(**TOUCH).new_page()
    user = sign_in(first, "olga")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    open_table(session)
    second = new_context(**TOUCH).new_page()
    signed_in_as(second, user)
    for page in (first, second):
        page.goto(f"/sessions/{session.pk}/")  # no phone yet: the link's details are open
        expect(page.locator("[data-auto-save]")).to_have_attribute("data-auto-save", "off")

    first.get_by_role("button", name="Save rounds by themselves").tap()
    expect(first.locator("[data-auto-save]")).to_have_attribute("data-auto-save", "on")

    expect(second.locator("[data-auto-save]")).to_have_attribute("data-auto-save", "on")
    expect(second.locator("#table-seats")).to_contain_text("the round then saves itself")
    look_at(second, "table-auto-save-followed-phone", full_page=False)
    second.get_by_role("button", name="Let me save each round").tap()  # the swapped form works
    expect(second.locator("[data-auto-save]")).to_have_attribute("data-auto-save", "off")
    expect(first.locator("[data-auto-save]")).to_have_attribute("data-auto-save", "off")


def told_once(phone: Page):
    """The one message a phone at a table link gone shows: what became of its hand
    and of the link, and what to do next (no refusal above it, no note under the hand,
    no "What you typed ... is back")."""
    others = phone.locator("[data-refused], [data-closed-note], [data-draft-restored]")
    expect(others).to_have_count(0)
    expect(phone.locator("main .message:visible")).to_have_count(1)
    return phone.locator("#seat-status [data-table-closed]")


def expect_only_shown(phone: Page, cards: str) -> None:
    """A hand at a table link gone: on the screen as typed, to be read out, and
    nothing on it that invites entering cards; what to do next said once, above it."""
    expect(phone.get_by_label("Cards")).to_have_value(cards)
    expect(phone.get_by_label("Cards")).to_be_disabled()
    expect(phone.locator("[data-picker]:visible")).to_have_count(0)
    for radio in phone.locator('input[type="radio"]').all():
        expect(radio).to_be_disabled()
    expect(phone.locator(".chip:visible")).to_have_text(["Shown"])  # the outcome, in words
    expect(phone.get_by_role("button", name="Hand in")).to_have_count(0)
    expect(phone.locator("[data-leave]:visible")).to_have_count(0)  # every seat is free
    told = told_once(phone)
    expect(told).to_contain_text("Show your hand to the scorer")
    expect(told).to_be_in_viewport()


def test_a_phone_at_a_table_the_scorer_closes_says_so_and_keeps_the_hand(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, phone = ben_at_a_table(new_context)
    expect(seat_types(phone, "Ben", SHOWN_8S[:20])).to_contain_text("must show all 21 cards")

    close_table(session)

    expect(phone.locator("[data-table-closed]")).to_contain_text("The scorer closed table mode")
    expect(phone.locator("[data-offline], [data-outage]")).to_have_count(0)  # not "offline"
    expect_only_shown(phone, SHOWN_8S[:20])
    expect(phone.get_by_text("Offline")).to_have_count(0)
    look_at(phone, "table-seat-closed-phone", full_page=False)
    phone.emulate_media(color_scheme="dark")
    look_at(phone, "table-seat-closed-phone-dark", full_page=False)

    # Reloaded at the old link: the same, the hand as typed on this phone.
    phone.reload()
    expect(told_once(phone)).to_have_text(
        "The scorer closed table mode, so this link takes no more hands. Show your hand to "
        "the scorer, who enters the round."
    )  # never handed in: nothing said of it
    expect_only_shown(phone, SHOWN_8S[:20])
    phone.reload()  # its draft is kept as typed, however often it is opened
    expect_only_shown(phone, SHOWN_8S[:20])
    look_at(phone, "table-seat-closed-reloaded-phone-dark")


@pytest.mark.parametrize("scorer_does", ["close", "replace"])
def test_a_hand_handed_in_stays_on_the_phone_at_a_link_gone_and_says_it_was_handed_in(
    new_context: Callable[..., Any], look_at: Callable[..., None], scorer_does: str
) -> None:
    session, phone = ben_at_a_table(new_context)
    seat_hands_in(phone, "8S", SHOWN_8S)
    happened = {
        "close": "The scorer closed table mode, so this link takes no more hands. Show your "
        "hand to the scorer, who enters the round.",
        "replace": "The scorer made a new table link, so this one takes no more hands. Show "
        "your hand to the scorer, or scan the new link's QR code and pick your seat again.",
    }[scorer_does]

    {"close": close_table, "replace": replace_table_link}[scorer_does](session)

    # Its poll learns it: the hand stays, said to have been handed in (not "Not sent").
    told = phone.locator("#seat-status [data-table-closed]")
    expect(told).to_have_text(f"You had handed this hand in. {happened}")
    expect_only_shown(phone, SHOWN_8S)
    look_at(phone, f"table-seat-handed-in-{scorer_does}-phone", full_page=False)

    # Reloaded at the old link: the hand as handed in, from this phone's own keeping.
    phone.reload()
    expect(told_once(phone)).to_have_text(f"You had handed this hand in. {happened}")
    expect_only_shown(phone, SHOWN_8S)
    look_at(phone, f"table-seat-handed-in-{scorer_does}-reloaded-phone", full_page=False)
    phone.emulate_media(color_scheme="dark")
    look_at(phone, f"table-seat-handed-in-{scorer_does}-reloaded-phone-dark", full_page=False)


def test_a_phone_whose_seat_at_a_replaced_link_is_not_known_closes_its_hand_too(
    new_context: Callable[..., Any],
) -> None:
    session, phone = ben_at_a_table(new_context)
    seat_hands_in(phone, "8S", SHOWN_8S)
    phone.route(SEAT_POLL, lambda route: route.fulfill(status=204))  # not told meanwhile
    replace_table_link(session)
    # Its seat cookie gone (run out, or Leave tapped in another tab): the server no
    # longer knows which seat this page's was, and says only that the link is gone.
    phone.context.clear_cookies(name="seat")
    phone.unroute(SEAT_POLL)

    # The page's next poll learns the link is gone: the hand is only shown there.
    told = phone.locator("#seat-status [data-table-closed]")
    expect(told).to_contain_text("You had handed this hand in. This table link no longer works")
    expect_only_shown(phone, SHOWN_8S)
    expect(phone.locator("[data-queued-note]")).to_have_count(0)


def test_a_small_phone_told_its_link_is_gone_scrolls_to_the_message(
    new_context: Callable[..., Any],
) -> None:
    """On a screen shorter than the hand, the finger on the picker far below: the page
    comes up to the message, and nothing scrolls it back down after (the picker's
    keys are kept under the finger only while it is there to tap)."""
    session, phone = ben_at_a_table(new_context)
    phone.set_viewport_size({"width": 375, "height": 667})
    seat_hands_in(phone, "8S", SHOWN_8S)
    phone.locator("[data-picker]").evaluate("picker => picker.scrollIntoView({block: 'end'})")
    # The link replaced and the seat not known (only the status comes: closeSeatHand).
    phone.route(SEAT_POLL, lambda route: route.fulfill(status=204))
    replace_table_link(session)
    phone.context.clear_cookies(name="seat")
    told = phone.locator("#seat-status [data-table-closed]")
    phone.unroute(SEAT_POLL)

    expect(told).to_be_in_viewport(ratio=1)
    phone.wait_for_timeout(300)  # past htmx's settling: still in sight
    expect(told).to_be_in_viewport(ratio=1)


def test_a_phone_shared_by_two_players_holds_one_seat_and_keeps_the_hand_of_the_seat_given_up(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, ben = ben_at_a_table(new_context)
    expect(seat_types(ben, "Ben", SHOWN_8S[:20])).to_contain_text("must show all 21 cards")

    # Chen picks his seat in another tab of the same phone, which gives Ben's up.
    # Meanwhile Ben's page is not asked to follow (its poll between the two taps would
    # find no seat held, and go to the list).
    ben.route(SEAT_POLL, lambda route: route.fulfill(status=204))
    take_the_phone(ben, session, "Chen")
    ben.unroute(SEAT_POLL)

    # Ben's page, at its next poll, moves on to the seat the phone holds, saying why:
    # never Chen's status or "This field is required" over Ben's cards.
    expect(ben.get_by_role("heading", level=1)).to_have_text("Chen's hand")
    expect(ben.get_by_role("alert").or_(ben.locator(".message"))).to_contain_text(
        ["This phone holds Chen's seat now, picked in another tab"]
    )
    look_at(ben, "table-seat-given-up-in-another-tab-phone", full_page=False)
    # Chen hands the phone back: Ben's seat picked again, his cards are there as typed.
    ben.get_by_role("button", name="Not Chen? Leave this seat").tap()
    ben.get_by_role("button", name="Ben").tap()
    expect(ben.get_by_label("Cards")).to_have_value(SHOWN_8S[:20])


def test_hand_in_on_a_page_of_a_seat_given_up_at_a_link_gone_is_not_said_handed_in(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, ben = ben_at_a_table(new_context)
    seat_types_unaware(ben, "Ben", SHOWN_8S)  # its poll does not move it on meanwhile
    take_the_phone(ben, session, "Chen")
    close_table(session)

    ben.get_by_role("button", name="Hand in").tap()

    # Told that the link is gone (which of closed or replaced, from the seat the phone
    # held there), Ben's cards shown as typed: never Chen's page, nor "You had handed
    # this hand in" (it was not).
    told = ben.locator("#seat-status [data-table-closed]")
    expect(told).to_contain_text("Not handed in. The scorer closed table mode")
    expect(ben.get_by_role("heading", level=1)).to_have_text("Ben's hand")
    expect_only_shown(ben, SHOWN_8S)
    expect(ben.locator("[data-outage]")).to_have_count(0)  # not "the server refused it"
    look_at(ben, "table-seat-given-up-closed-phone", full_page=False)
    # Nor kept on the phone as handed in, to be said so later.
    assert not ben.evaluate(KEPT_AS_HANDED_IN)


def test_the_cards_stay_under_the_finger_when_the_tables_cut_joker_comes(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, ben = ben_at_a_table(new_context)
    ben.wait_for_load_state()
    card = ben.locator('[data-picker] [data-card="8S"]')
    before = card.bounding_box()

    # Ben's finger is over the cut joker as another phone enters it for the table:
    # Ben's next poll brings it, and the page says it in place of the field.
    set_cut(session, 1, "8S")
    ben.wait_for_function("() => document.querySelector('#seat-cut-known')", polling="raf")
    after = card.bounding_box()
    # The tap lands: the cut joker, as Ben meant it, not his hand's first card.
    tap_card(ben, "8S")
    tap_card(ben, "2D")

    assert after is not None and before is not None
    assert abs(after["y"] - before["y"]) < 1, (before, after)  # nothing moved under it
    expect(ben.get_by_label("Cards")).to_have_value("2D")
    expect(ben.get_by_label("Cut joker")).to_have_value("8♠")
    expect(ben.get_by_label("Cut joker")).not_to_be_editable()
    # From that tap on, the picker stands under the hand it fills (and what is wrong
    # with it), as it always does.
    expect(ben.locator("textarea[data-groups] + [data-hand-errors] + [data-picker]")).to_have_count(
        1
    )
    expect(ben.locator("[data-picker-for]")).to_have_text("Cards for Ben: 1 of 21")
    look_at(ben, "table-seat-cut-known-phone", full_page=False)


def test_a_cut_joker_typed_after_another_phones_gives_way_to_the_tables_on_a_reload(
    new_context: Callable[..., Any],
) -> None:
    session, ben = ben_at_a_table(new_context)
    ben.route(SEAT_POLL, lambda route: route.fulfill(status=204))  # not told meanwhile
    set_cut(session, 1, "8S")  # another phone's, first
    seat_types(ben, "Ben", "2D")  # with 8S typed as the cut on Ben's phone: kept as typed
    ben.get_by_label("Cut joker").fill("9H")  # and changed: the table's stays 8S

    ben.unroute(SEAT_POLL)
    ben.reload()  # what Ben typed comes back from the phone's draft, but not as the cut

    expect(ben.get_by_label("Cut joker")).to_have_value("8♠")
    expect(ben.locator('input[type="hidden"][data-cut]')).to_have_value("8S")  # as sent
    expect(ben.get_by_label("Cards")).to_have_value("2D")


def test_a_hand_handed_in_is_forgotten_on_the_phone_once_its_round_is_saved(
    new_context: Callable[..., Any],
) -> None:
    session, phone = ben_at_a_table(new_context)
    seat_hands_in(phone, "8S", SHOWN_8S)

    play(session, "8S", ROUND_1)  # round 1 saved (by the scorer)
    expect(phone.locator("[data-round-title]")).to_have_text("Round 2")  # moved on itself
    close_table(session)
    phone.reload()

    # Round 2's hand: nothing of round 1 comes back, nor is said to be handed in.
    expect(told_once(phone)).not_to_contain_text("handed")
    expect(phone.get_by_label("Cards")).to_have_value("")
    expect(phone.get_by_label("Cards")).to_be_disabled()


def test_hand_in_says_handed_in_where_the_finger_is(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    _session, phone = ben_at_a_table(new_context)
    phone.get_by_label("Cut joker").fill("8S")
    phone.get_by_label("Cards").fill(SHOWN_8S)
    expect(phone.locator('[data-preview="Ben"]')).to_contain_text("Hand points: 102")
    hand_in = phone.get_by_role("button", name="Hand in")

    hand_in.tap()

    handed = phone.locator("#seat-handed")
    expect(handed).to_contain_text("✓ Handed in. If you change anything, tap Hand in again")
    expect(handed).to_be_in_viewport()  # under the button, not only at the page's top
    expect(hand_in).to_be_in_viewport()
    expect(hand_in).to_be_focused()  # a screen reader reads it out with the button
    expect(hand_in).to_have_accessible_description(re.compile("Handed in"))
    stepped_back = hand_in.evaluate("button => getComputedStyle(button).backgroundColor")
    look_at(phone, "table-seat-handed-in-phone", full_page=False)
    phone.emulate_media(color_scheme="dark")
    look_at(phone, "table-seat-handed-in-phone-dark", full_page=False)
    phone.emulate_media(color_scheme="light")

    # A card changed: no longer in until it is handed in again, said in the same place.
    phone.get_by_label("Cards").fill(SHOWN_8S.removesuffix(" 8C"))
    expect(handed).to_be_empty()
    expect(phone.locator("[data-handed-in]")).to_have_count(0)
    solid = hand_in.evaluate("button => getComputedStyle(button).backgroundColor")
    assert solid != stepped_back  # the button asks to be tapped again
    phone.get_by_label("Cards").fill(SHOWN_8S)
    hand_in.tap()
    expect(handed).to_contain_text("✓ Handed in")


def test_the_list_hand_in_refused_follows_the_fixes_on_the_seat_phone(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    _session, phone = ben_at_a_table(new_context)
    phone.get_by_label("Cut joker").fill("8S")
    phone.get_by_label("Cards").fill(SHOWN_8S.removesuffix(" 8C"))
    phone.get_by_role("button", name="Hand in").tap()
    problems = phone.locator("[data-problems]")
    expect(problems).to_contain_text("Not handed in: 1 thing to fix")
    expect(problems).to_contain_text("must show all 21 cards, not 20")
    expect(problems).to_be_focused()  # read out first, and the new form is live

    # Still a card short after another change: still listed, with the count of now.
    phone.get_by_label("Cards").fill(SHOWN_8S.removesuffix(" JS 8C"))
    expect(problems).to_contain_text("must show all 21 cards, not 19")
    expect(phone.get_by_label("Cards")).to_be_focused()  # typing goes on where it was
    problems.scroll_into_view_if_needed()
    look_at(phone, "table-seat-problems-left-phone", full_page=False)
    phone.emulate_media(color_scheme="dark")
    look_at(phone, "table-seat-problems-left-phone-dark", full_page=False)
    phone.emulate_media(color_scheme="light")
    # Whole again: the list goes, and Hand in hands it in.
    phone.get_by_label("Cards").fill(SHOWN_8S)
    expect(problems).to_have_count(0)
    phone.get_by_role("button", name="Hand in").tap()
    expect(phone.locator("#seat-handed")).to_contain_text("✓ Handed in")


def test_close_table_mode_is_in_sight_once_phones_hold_seats(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, _phone = ben_at_a_table(new_context)  # Ben's phone holds a seat
    scorer = new_context(**TOUCH).new_page()
    signed_in_as(scorer, session.created_by)
    scorer.goto(f"/sessions/{session.pk}/")
    expect(scorer.locator(".table-link")).not_to_have_attribute("open", "")  # folded

    close = scorer.get_by_role("button", name="Close table mode")
    expect(close).to_be_visible()
    close.scroll_into_view_if_needed()
    look_at(scorer, "table-scorer-close-phone", full_page=False)
    scorer.emulate_media(color_scheme="dark")
    look_at(scorer, "table-scorer-close-phone-dark", full_page=False)
    asked = []
    scorer.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    close.tap()

    expect(scorer.get_by_role("button", name="Open table mode")).to_be_visible()
    assert asked and asked[0].startswith("Close table mode?")
    assert GameSession.objects.get(pk=session.pk).table_token is None


def test_a_hand_handed_in_after_its_link_was_replaced_says_so_and_stays_as_typed(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, phone = ben_at_a_table(new_context)
    seat_types_unaware(phone, "Ben", SHOWN_8S)  # Hand in is tapped on the page as it was

    replace_table_link(session)
    phone.get_by_role("button", name="Hand in").tap()

    expect(told_once(phone)).to_contain_text(
        "Not handed in. The scorer made a new table link, so this one takes no more hands."
    )
    expect(phone.get_by_label("Cards")).to_have_value(SHOWN_8S)
    expect(phone.get_by_text("error 404")).to_have_count(0)
    expect(phone.get_by_role("button", name="Hand in")).to_have_count(0)
    look_at(phone, "table-seat-link-replaced-phone")

    # Reloaded at the old link: the same words, and the hand as typed on this phone.
    phone.reload()
    expect(told_once(phone)).to_contain_text("The scorer made a new table link")
    expect(phone.get_by_label("Cards")).to_have_value(SHOWN_8S)
    expect(phone.get_by_role("button", name="Hand in")).to_have_count(0)


def test_leaving_a_seat_after_the_scorer_closed_table_mode_says_so_and_keeps_the_hand(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, phone = ben_at_a_table(new_context)
    seat_types_unaware(phone, "Ben", SHOWN_8S[:20])  # Leave is tapped on the page as it was

    close_table(session)
    phone.get_by_role("button", name="Not Ben? Leave this seat").tap()

    expect(told_once(phone)).to_contain_text(
        "The scorer closed table mode: every seat is free, so this phone has none to leave."
    )
    expect(phone.get_by_text("No such table")).to_have_count(0)
    expect(phone.get_by_label("Cards")).to_have_value(SHOWN_8S[:20])  # to show the scorer
    expect(phone.get_by_role("button", name="Hand in")).to_have_count(0)
    expect(phone.locator("[data-leave]")).to_have_count(0)
    look_at(phone, "table-seat-left-closed-phone")


def test_a_seat_phone_follows_a_rename_of_its_player_and_keeps_the_hand_typed(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    from games.models import Player
    from games.services.results import mark_shown_changed

    session, phone = ben_at_a_table(new_context)
    phone.get_by_label("Cut joker").fill("8S")
    phone.get_by_label("Cards").fill(SHOWN_8S[:20])

    # As the admin renames a player (games/admin.py): the name, then the session's stamp.
    Player.objects.filter(name="Ben").update(name="Benedict")
    mark_shown_changed([session])

    expect(phone.get_by_role("heading", level=1)).to_have_text("Benedict's hand")
    expect(phone.locator("#seat-legend")).to_have_text("Benedict")
    expect(phone.get_by_role("button", name="Not Benedict? Leave this seat")).to_be_visible()
    expect(phone).to_have_title("Benedict's hand · Friday · Scorekeeper")
    expect(phone.get_by_label("Cards")).to_have_value(SHOWN_8S[:20])  # nothing typed is lost
    tap_card(phone, "QD")  # the picker says whose cards they are by the new name too
    expect(phone.locator("[data-picker-for]")).to_have_text("Cards for Benedict: 7 of 21")
    look_at(phone, "table-seat-renamed-phone")


def test_a_seat_phone_shows_the_totals_above_its_hand_and_follows_the_table(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, phone = ben_at_a_table(new_context)
    expect(phone.locator("[data-seat-total]")).to_have_count(0)  # no round yet

    play(session, "8S", ROUND_1)  # the scorer saves round 1: the phone moves on by itself

    expect(phone.locator("[data-round-title]")).to_have_text("Round 2")
    totals = phone.locator("#seat-totals")
    expect(totals.get_by_role("heading")).to_have_text("Totals after round 1")
    expect(phone.locator('[data-seat-total="Asha"] [data-total-now]')).to_have_text("122")
    expect(phone.locator('[data-seat-total="Asha"] [data-last-round]')).to_have_text(
        "round 1: +122"
    )
    expect(phone.locator('[data-seat-total="Ben"] [data-total-now]')).to_have_text("−92")
    # Above the hand, on the first screen.
    expect(totals).to_be_in_viewport(ratio=1)
    above = phone.evaluate(
        "document.querySelector('#seat-totals').getBoundingClientRect().bottom"
        " <= document.querySelector('[data-round-title]').getBoundingClientRect().top"
    )
    assert above
    look_at(phone, "table-seat-totals-phone", full_page=False)
    phone.emulate_media(color_scheme="dark")
    look_at(phone, "table-seat-totals-phone-dark", full_page=False)

    # The scorer corrects round 1 (Ben won it): the totals follow, the page not reloaded,
    # the cards typed meanwhile kept.
    phone.get_by_label("Cut joker").fill("8S")
    phone.get_by_label("Cards").fill(SHOWN_8S[:20])
    phone.evaluate("window.notReloaded = true")
    swapped = {"Asha": ("shown", SHOWN_8S), "Ben": ("declared", WIN_8S), "Chen": ("first_drop", "")}
    edit(session.rounds.get(number=1), "8S", swapped)

    expect(phone.locator('[data-seat-total="Ben"] [data-total-now]')).to_have_text("122")
    expect(phone.locator('[data-seat-total="Asha"] [data-total-now]')).to_have_text("−92")
    assert phone.evaluate("window.notReloaded") is True
    expect(phone.get_by_label("Cards")).to_have_value(SHOWN_8S[:20])


def test_reopening_the_table_link_takes_a_phone_back_to_its_seat(
    new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    session, phone = ben_at_a_table(new_context)
    phone.get_by_label("Cut joker").fill("8S")
    phone.get_by_label("Cards").fill(SHOWN_8S[:20])
    expect(phone.locator('[data-preview="Ben"]')).to_contain_text("must show all 21 cards")

    # The player scans the table link's QR code again (or reopens its tab).
    phone.goto("about:blank")
    phone.goto(f"/table/{session.table_token}/")

    expect(phone.get_by_role("heading", level=1)).to_have_text("Ben's hand")
    expect(phone.get_by_label("Cards")).to_have_value(SHOWN_8S[:20])
    look_at(phone, "table-seat-reopened-phone", full_page=False)

    # Given up, the link shows the seats again.
    phone.get_by_role("button", name="Not Ben? Leave this seat").tap()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Friday: pick your seat")
    phone.reload()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Friday: pick your seat")
    expect(phone.get_by_role("button", name="Ben", exact=True)).to_be_visible()
