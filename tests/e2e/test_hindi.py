"""The app in Hindi on a phone (390x844, touch), where the Hindi words are longest and
the rules speak most: a round entered with the card picker, a declaration that is not
valid said why in Hindi, the penalty on the round page; table mode, a seat's phone and
the scorer's. Every page in a font that draws Devanagari, and axe finds nothing on it,
in the light and in the dark. (The standings in rupees: test_league_money_language.py.)

What the pages should say is the catalogue's Hindi, or the rules' own sentence said in
Hindi, never written out here: a translation corrected changes no test."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation
from django.utils.html import strip_tags
from playwright.sync_api import Locator, Page, expect

from games.models import GameSession, HandEntry
from games.rules import (
    PlayerHand,
    RoundResult,
    assess_hand,
    parse_card,
    parse_cards,
    parse_groups,
    score_round,
)
from games.services.languages import save_account_language
from games.services.rulesets import ruleset_of
from games.services.sessions import create_session
from games.services.table import TypedHand, claim_seat, write_hand
from games.templatetags.cards import explained
from tests.support import axe
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S, shuffled
from tests.support.hindi import assert_drawn_in_hindi, choose_hindi_in_the_footer, hindi
from tests.support.pages import PHONE_DEVICE, player, preview, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Asha", "Ben", "Chen"]
SEAT_STATE = "a seat's hand in table mode"  # the catalogue's context of a seat's state
# 21 cards under cut 8S that declare nothing: three pure sequences, but loose cards
# and dublees beside them (the rules' longest reasons), none a copy too many beside
# Ben's WIN_8S.
FALSE_SHOW = "2C 3C 4C | 5D 6D 7D | 8S 9S 10S | QH QH | KC KC | QS QS | 3S 6C 9D 10H KH JH"
# The round as saved: Asha's show entered as the penalty it is, Ben's win.
FALSE_ROUND = {
    "Asha": ("invalid_declaration", FALSE_SHOW),
    "Ben": ("declared", WIN_8S),
    "Chen": ("first_drop", ""),
}


def outcome(value: str) -> str:
    """An outcome button's words in Hindi (Invalid declaration: गलत डिक्लेरेशन)."""
    with translation.override("hi"):
        return HandEntry.outcome_words(value)


def tap_hand(page: Page, groups: str) -> None:
    """Tap a hand's cards on the picker, group by group (its Hindi New group key)."""
    picker = page.locator("[data-picker]")
    for number, group in enumerate(groups.split(" | ")):
        if number:
            picker.get_by_role("button", name=hindi("New group")).tap()
        for code in group.split():
            picker.locator(f'[data-card="{code}"]').tap()


def tap_outcome(fieldset: Locator, value: str) -> None:
    fieldset.locator("label.chip", has_text=outcome(value)).tap()


def why_not_a_declaration(session: GameSession, groups: str) -> str:
    """What the rules say, in Hindi, of ``groups`` declared under cut 8S, as the page
    writes it (its cards' faces: 3♠, not 3S)."""
    hand = PlayerHand("Asha", "declared", parse_groups(groups))
    with translation.override("hi"):
        (problem,) = assess_hand(ruleset_of(session), parse_card("8S"), hand).problems
        return strip_tags(explained(problem))


def the_round_in_hindi(session: GameSession, hands: dict[str, tuple[str, str]]) -> RoundResult:
    """The round scored by the rules speaking Hindi: its words as a Hindi reader's
    round page gives them."""
    played = [PlayerHand(name, how, parse_groups(cards)) for name, (how, cards) in hands.items()]
    with translation.override("hi"):
        return score_round(ruleset_of(session), parse_card("8S"), played)


def as_the_page_writes(line: str, names: list[str]) -> str:
    with translation.override("hi"):
        return strip_tags(explained(line, names))


def test_a_false_declaration_entered_with_the_picker_in_hindi(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "asha")
    session = create_session(user, preset="21-points", overrides={}, players=PLAYERS, name="Diwali")
    page.goto(f"/sessions/{session.pk}/")
    choose_hindi_in_the_footer(page)  # signed in: kept on the account too

    picker = page.locator("[data-picker]")
    picker.locator('[data-card="8S"]').tap()
    tap_outcome(player(page, "Asha"), "declared")
    tap_hand(page, FALSE_SHOW)
    # Said under Asha's cards in the rules' Hindi: why this is no declaration.
    expect(preview(page, "Asha")).to_contain_text(why_not_a_declaration(session, FALSE_SHOW))
    assert_drawn_in_hindi(page)  # the picker open under Ben's cards
    look_at(page, "hindi-picker-phone", full_page=False)
    preview(page, "Asha").scroll_into_view_if_needed()
    look_at(page, "hindi-false-declaration-phone", full_page=False)
    axe.assert_no_violations(page)
    page.emulate_media(color_scheme="dark")
    look_at(page, "hindi-false-declaration-phone-dark", full_page=False)
    page.emulate_media(color_scheme="light")

    # It was shown that way: the scorer enters it as the penalty it is.
    tap_outcome(player(page, "Asha"), "invalid_declaration")
    expect(preview(page, "Asha").locator(".problem")).to_have_count(0)
    player(page, "Ben").get_by_label(hindi("Groups")).tap()
    tap_outcome(player(page, "Ben"), "declared")
    tap_hand(page, WIN_8S)
    tap_outcome(player(page, "Chen"), "first_drop")
    expect(page.locator('[data-settlement="Asha"]')).to_be_visible()
    save = page.get_by_role("button", name=hindi("Save round %(number)s", number=1))
    save.scroll_into_view_if_needed()
    assert_drawn_in_hindi(page)
    look_at(page, "hindi-settlement-phone", full_page=False)
    save.tap()
    expect(page.locator("[data-saved]")).to_contain_text(hindi("Round %(number)s saved.", number=1))

    # The round page: Asha's penalty, its rule and its working, in Hindi.
    asha_scored = the_round_in_hindi(session, FALSE_ROUND).players[0]
    page.goto(f"/sessions/{session.pk}/rounds/{session.rounds.get().pk}/")
    asha = page.locator('article.hand[data-player="Asha"]')
    expect(asha.locator("h3")).to_contain_text(outcome("invalid_declaration"))
    expect(asha.locator("[data-hand-rule]")).to_have_text(asha_scored.rule_applied or "")
    lines = [as_the_page_writes(line, PLAYERS) for line in asha_scored.breakdown]
    expect(asha.locator("ul.lines li")).to_have_text(lines)
    assert_drawn_in_hindi(page)
    look_at(page, "hindi-round-page-phone")
    axe.assert_no_violations(page)


def test_table_mode_in_hindi_a_seats_phone_and_the_scorers(
    phone_page: Page, new_context: Callable[..., Any], look_at: Callable[..., None]
) -> None:
    # The scorer chose Hindi for their account; Ben's phone, signed out, is set to Hindi.
    scorer = phone_page
    user = sign_in(scorer, "olga")
    save_account_language(user, "hi")
    session = create_session(user, preset="21-points", overrides={}, players=PLAYERS, name="Diwali")
    scorer.goto(f"/sessions/{session.pk}/")
    scorer.get_by_role("button", name=hindi("Open table mode")).tap()
    table_title = hindi("Table mode: round %(number)s", number=1)
    expect(scorer.get_by_role("heading", name=table_title)).to_be_visible()
    link = scorer.locator(".table-link [data-link-url]").input_value()
    assert_drawn_in_hindi(scorer)
    look_at(scorer, "hindi-table-scorer-open-phone", full_page=False)

    ben = new_context(**PHONE_DEVICE, locale="hi-IN").new_page()
    ben.goto(link)
    assert_drawn_in_hindi(ben)
    look_at(ben, "hindi-table-seats-phone", full_page=False)
    ben.get_by_role("button", name="Ben", exact=True).tap()
    expect(ben.get_by_role("heading", level=1)).to_have_text(hindi("%(name)s's hand", name="Ben"))
    picker = ben.locator("[data-picker]:not([hidden])")
    picker.locator('[data-card="8S"]').tap()
    for card in parse_cards(shuffled(SHOWN_8S)):
        picker.locator(f'[data-card="{card.code}"]').tap()
    points = strip_tags(hindi("Hand points: <strong>%(points)s</strong>", points=102))
    expect(preview(ben, "Ben")).to_contain_text(points)
    expect(ben.locator(".htmx-request")).to_have_count(0)
    assert_drawn_in_hindi(ben)
    look_at(ben, "hindi-table-seat-typed-phone", full_page=False)
    axe.assert_no_violations(ben)
    ben.emulate_media(color_scheme="dark")
    look_at(ben, "hindi-table-seat-typed-phone-dark", full_page=False)
    ben.emulate_media(color_scheme="light")
    hand_in = ben.get_by_role("button", name=hindi("Hand in"))
    hand_in.scroll_into_view_if_needed()
    look_at(ben, "hindi-table-seat-hand-in-phone", full_page=False)
    hand_in.tap()
    handed_in = ben.locator("[data-handed-in]")
    said = "<strong>Handed in.</strong> You can still change it until the round is saved."
    expect(handed_in).to_contain_text(strip_tags(hindi(said)))
    handed_in.scroll_into_view_if_needed()
    assert_drawn_in_hindi(ben)
    look_at(ben, "hindi-table-seat-in-phone", full_page=False)
    ben_on_the_panel = scorer.locator('[data-table-seat="Ben"]')
    expect(ben_on_the_panel).to_contain_text(hindi("Hand in", context=SEAT_STATE))
    expect(ben_on_the_panel).to_contain_text(hindi("on a phone"))

    # Asha's and Chen's phones hand theirs in meanwhile.
    session.refresh_from_db()  # its table, opened by the scorer's tap
    seats = {seat.player.name: seat for seat in session.seats.select_related("player")}
    for name in ("Asha", "Chen"):
        outcome_value, cards = ROUND_1[name]
        claim_seat(session, seats[name])
        typed = TypedHand(1, outcome=outcome_value, text=cards, cut_text="8S", edit=1)
        write_hand(session, seats[name], typed, final=True)
    expect(scorer.locator('[data-settlement="Ben"]')).to_be_visible()
    scorer.get_by_role("heading", name=table_title).scroll_into_view_if_needed()
    assert_drawn_in_hindi(scorer)
    look_at(scorer, "hindi-table-scorer-all-in-phone", full_page=False)
    axe.assert_no_violations(scorer)
    # From here the panel's polls hear nothing new: one answered after the save would
    # find round 2 and reload the page, the note "Round 1 saved" with it (a race of
    # table mode's, in any language).
    scorer.route(lambda url: "/table/?" in url, lambda route: route.fulfill(status=204))
    expect(scorer.locator("#table-seats.htmx-request")).to_have_count(0)  # none in flight
    scorer.get_by_role("button", name=hindi("Save round %(number)s", number=1)).tap()
    expect(scorer.locator("[data-saved]")).to_contain_text(
        hindi("Round %(number)s saved.", number=1)
    )
    expect(ben.locator("[data-round-title]")).to_have_text(hindi("Round %(number)s", number=2))
    look_at(ben, "hindi-table-seat-next-round-phone", full_page=False)
