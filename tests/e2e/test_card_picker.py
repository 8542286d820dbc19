"""The card picker on a phone: every card one tap, a whole hand entered with it alone,
the system keyboard kept closed until asked for, the picker moving on to the next
player once a hand is complete, and each card's copies counted across the round."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from games.models import GameSession
from games.rules import CardError, parse_cards
from games.services.sessions import create_session
from tests.support.hands import WIN_13
from tests.support.pages import (
    assert_in_view,
    assert_red_and_readable,
    choose_outcome,
    console_errors,
    sign_in,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def open_pool(page: Page, players: list[str]) -> GameSession:
    """A 13-card pool session's page, signed in as its scorer."""
    user = sign_in(page, "keys")
    session = create_session(user, preset="13-pool-101", overrides={}, players=players, name="Keys")
    page.goto(f"/sessions/{session.pk}/")
    return session


def tap_hand(picker: Locator, text: str) -> int:
    """Tap a hand's cards, group by group; returns the taps it took."""
    taps = 0
    for number, group in enumerate(text.split(" | ")):
        if number:
            picker.get_by_role("button", name="New group").click()
            taps += 1
        for code in group.split():
            picker.locator(f'[data-card="{code}"]').click()
            taps += 1
    return taps


def tap_ashas_win(page: Page) -> tuple[Locator, Locator]:
    """Asha and Ben's pool round on the picker: the cut joker and Asha's winning hand
    tapped, the picker moved on to Ben. Returns the picker and Ben's fieldset."""
    open_pool(page, ["Asha", "Ben"])
    picker = page.locator("[data-picker]")
    picker.locator('[data-card="7C"]').tap()
    choose_outcome(page.locator('fieldset[data-player="Asha"]'), "declared")
    tap_hand(picker, WIN_13)
    return picker, page.locator('fieldset[data-player="Ben"]')


def test_a_hand_tapped_on_the_picker_alone(phone_page: Page, look_at: Callable[..., None]) -> None:
    page = phone_page
    open_pool(page, ["Asha", "Ben"])
    asha = page.locator('fieldset[data-player="Asha"]')
    ben = page.locator('fieldset[data-player="Ben"]')
    picker = page.locator("[data-picker]")

    # The picker starts under the cut joker: one tap picks it, then it moves to Asha.
    expect(picker).to_be_visible()
    expect(picker.locator("[data-picker-for]")).to_have_text("Tap the cut joker")
    for key in picker.locator("button").all():
        box = key.bounding_box()
        assert box is not None and box["height"] >= 40 and box["width"] >= 40, key.inner_text()
    assert_red_and_readable(picker.locator('[data-card="7H"]'))
    picker.locator('[data-card="7C"]').click()
    expect(page.get_by_label("Cut joker")).to_have_value("7C")
    expect(asha.locator("[data-picker]")).to_be_visible()
    # On a phone the system keyboard stays closed: the picker types instead.
    expect(asha.get_by_label("Groups")).to_have_attribute("inputmode", "none")

    choose_outcome(asha, "declared")
    taps = tap_hand(picker, WIN_13)
    assert taps == 13 + 3  # one tap a card, one a group
    expect(asha.get_by_label("Groups")).to_have_value(WIN_13)
    expect(page.locator('[data-preview="Asha"]')).to_contain_text("Valid declaration: 13-card show")

    # A complete hand moves the picker on to the next player; copies are counted.
    expect(ben.locator("[data-picker]")).to_be_visible()
    expect(picker.locator("[data-picker-for]")).to_have_text("Cards for Ben: 0 of 13")
    look_at(page, "picker-phone", full_page=False)
    expect(picker.locator('[data-card="KS"] [data-count]')).to_have_text("1/2")
    # Two decks and the cut card on the table: one 7♣ is left, and once it is
    # entered the card is greyed out and refuses another tap.
    seven = picker.locator('[data-card="7C"]')
    expect(seven.locator("[data-count]")).to_have_text("")
    seven.click()
    expect(seven).to_have_attribute("aria-disabled", "true")
    expect(seven).to_have_accessible_name("7 of clubs, 1 of 1 used")
    seven.click(force=True)  # a tap on it anyway adds nothing
    picker.get_by_role("button", name="printed joker").click()
    expect(ben.get_by_label("Groups")).to_have_value("7C PJ")
    picker.get_by_role("button", name="Undo card").click()
    expect(ben.get_by_label("Groups")).to_have_value("7C")
    expect(page.locator('[data-preview="Ben"]')).to_contain_text("must show all 13 cards")

    # ⌨ brings the system keyboard back for typing by hand.
    picker.locator('[data-key="keyboard"]').click()
    expect(ben.get_by_label("Groups")).not_to_have_attribute("inputmode", "none")


def test_a_drop_needs_no_cards_and_the_picker_skips_it(phone_page: Page) -> None:
    page = phone_page
    open_pool(page, ["Asha", "Ben", "Chen"])
    picker = page.locator("[data-picker]")
    picker.locator('[data-card="7C"]').click()
    ben = page.locator('fieldset[data-player="Ben"]')
    choose_outcome(ben, "first_drop")
    expect(ben.get_by_label("Groups")).to_be_hidden()  # nothing to enter for a drop
    choose_outcome(page.locator('fieldset[data-player="Asha"]'), "declared")
    tap_hand(picker, WIN_13)
    # Asha's hand is complete: the picker passes Ben, who dropped, for Chen.
    expect(page.locator('fieldset[data-player="Chen"] [data-picker]')).to_be_visible()


def test_a_last_player_who_drops_folds_the_cards_away_and_save_comes_into_view(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """The last hand is a drop: once it is chosen, every hand is in, and the cards no
    longer stand open under that player's outcomes, between them and Save."""
    page = phone_page
    picker, ben = tap_ashas_win(page)
    expect(ben.locator("[data-picker]")).to_be_visible()

    ben.locator("label.chip", has_text="Middle drop").tap()

    expect(picker.locator("[data-picker-for]")).to_contain_text("Every hand is in")
    expect(picker.locator("[data-picker-for]")).to_be_visible()
    expect(picker.locator(".picker-suit").first).to_be_hidden()
    save = page.get_by_role("button", name="Save round 1")
    assert_in_view(page, ben.locator("label.chip", has_text="Middle drop"), save)
    look_at(page, "picker-every-hand-in-phone", full_page=False)
    # Undo still takes back the last card tapped; a tap on a field opens the cards.
    picker.get_by_role("button", name="Undo card").tap()
    expect(picker.locator(".picker-suit").first).to_be_visible()
    expect(picker.locator("[data-picker-for]")).to_have_text("Cards for Asha: 12 of 13")


def test_a_greyed_out_card_says_why_it_takes_no_tap(phone_page: Page) -> None:
    page = phone_page
    picker, ben = tap_ashas_win(page)
    said = picker.locator("[data-picker-for]")
    seven, king = picker.locator('[data-card="7C"]'), picker.locator('[data-card="KS"]')
    seven.tap()  # two decks, one 7♣ the cut joker: this was the other
    king.tap()  # Asha holds the other K♠
    expect(king).to_have_attribute("aria-disabled", "true")

    before = seven.bounding_box()
    seven.tap(force=True)
    expect(said).to_have_text("No 7♣ left: one is the cut joker")
    assert seven.bounding_box() == before  # said in one line: no key moved
    king.tap(force=True)
    expect(said).to_have_text("Both K♠ are already used")
    expect(ben.get_by_label("Groups")).to_have_value("7C KS")
    # The next card that goes in counts again.
    picker.locator('[data-card="2D"]').tap()
    expect(said).to_have_text("Cards for Ben: 3 of 13")


def test_cards_tapped_in_any_order_are_arranged_and_saved(phone_page: Page) -> None:
    """No groups: the scorer taps the cards as they lie on the table, the rules
    service groups them for the preview and the save."""
    page = phone_page
    session = open_pool(page, ["Asha", "Ben"])
    picker = page.locator("[data-picker]")
    picker.locator('[data-card="7C"]').tap()
    choose_outcome(page.locator('fieldset[data-player="Asha"]'), "declared")
    scrambled = sorted(WIN_13.replace("|", " ").split(), key=lambda code: code[::-1])
    for code in scrambled:
        picker.locator(f'[data-card="{code}"]').tap()
    asha = page.locator('[data-preview="Asha"]')
    expect(asha).to_contain_text("Arranged by the rules")
    expect(asha).to_contain_text("Valid declaration: 13-card show")
    choose_outcome(page.locator('fieldset[data-player="Ben"]'), "middle_drop")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-saved]")).to_contain_text("Round 1 saved.")
    saved = session.rounds.get().entries.get(player__name="Asha")
    assert len(saved.groups) == 4 and saved.declaration == "show13"


def test_a_tap_on_a_field_the_picker_left_brings_it_back(phone_page: Page) -> None:
    """The field keeps the focus while the picker moves on (its keys never take it): a
    tap on it again must still aim the picker there, not at the next hand."""
    page = phone_page
    open_pool(page, ["Asha", "Ben"])
    picker = page.locator("[data-picker]")
    cut = page.get_by_label("Cut joker")
    cut.tap()
    picker.locator('[data-card="3C"]').tap()
    asha = page.locator('fieldset[data-player="Asha"]')
    expect(asha.locator("[data-picker]")).to_be_visible()
    picker.locator('[data-card="AS"]').tap()

    cut.tap()  # the cut was wrong
    expect(picker.locator("[data-picker-for]")).to_have_text("Tap the cut joker")
    picker.locator('[data-card="4C"]').tap()
    expect(cut).to_have_value("4C")
    expect(asha.get_by_label("Groups")).to_have_value("AS")

    groups = asha.get_by_label("Groups")
    groups.tap()  # and back to Asha's hand, the same way
    picker.locator('[data-card="2S"]').tap()
    expect(groups).to_have_value("AS 2S")


def test_a_round_put_back_after_a_reload_goes_on_where_it_stopped(phone_page: Page) -> None:
    """A reload (a pull to refresh, a phone that dropped the tab) puts back what was
    typed; the picker goes on under the first hand still short of cards. The next card
    tapped is that hand's: it used to replace the cut joker put back."""
    page = phone_page
    picker, ben = tap_ashas_win(page)
    expect(ben.locator("[data-picker]")).to_be_visible()

    page.reload()
    expect(page.locator("[data-draft-restored]")).to_be_visible()
    expect(page.get_by_label("Cut joker")).to_have_value("7C")
    expect(ben.locator("[data-picker]")).to_be_visible()
    expect(picker.locator("[data-picker-for]")).to_contain_text("Ben")
    picker.locator('[data-card="2D"]').tap()
    expect(ben.get_by_label("Groups")).to_have_value("2D")
    expect(page.get_by_label("Cut joker")).to_have_value("7C")


# Hands typed by keyboard in the forms the rules read (docs/rules §1): runs, ranges (an
# Ace low or high, a first suit or none), outline suits and emoji presentation, jokers,
# each separator; and what the rules read as no card at all.
TYPED_HANDS = [
    "5h6h7h",
    "3-7\u2661 8\u2661",
    "Q-A\u2660",
    "A-3\u2662 | T\u2663 10c",
    "7\u2665\ufe0f 8\u2665\ufe0e",
    "9\u2665\ufe0f-J\u2665\ufe0f",
    "jk * pj",
    "k\u2664 qd a\u2663 tS",
    "9S,9H;9D/9C\t2d\n3d\r4d",
    "K-2S 5H-7S 7 H 7\u017f \u212aH",
]


def read_as_cards(text: str) -> int:
    """How many cards the rules read in ``text``, token by token: none in one that is
    no card (the rules refuse the text; the picker counts the rest)."""
    count = 0
    for token in re.split(r"[\s|/;,]+", text):
        with contextlib.suppress(CardError):
            count += len(parse_cards(token))
    return count


def test_the_picker_counts_typed_cards_as_the_rules_read_them(phone_page: Page) -> None:
    """The picker's count and its copies follow the rules' notation (games/rules/cards),
    not a reading of their own: a range or an outline suit typed on a phone keyboard
    counts as the cards the rules service will score."""
    page = phone_page
    open_pool(page, ["Asha", "Ben"])
    picker = page.locator("[data-picker]")
    page.get_by_label("Cut joker").fill("5\u2661")
    asha = page.locator('fieldset[data-player="Asha"]')
    choose_outcome(asha, "declared")
    groups = asha.get_by_label("Groups")
    groups.focus()
    for text in TYPED_HANDS:
        groups.fill(text)
        expect(picker.locator("[data-picker-for]")).to_have_text(
            f"Cards for Asha: {read_as_cards(text)} of 13"
        )
    # Undo takes the last token typed off: a range typed by hand goes whole.
    groups.fill("2D 3-7\u2661")
    picker.get_by_role("button", name="Undo card").click()
    expect(groups).to_have_value("2D")
    # 3-7♡ holds 5♡, the cut card is 5♡: two decks have no more of it.
    groups.fill("3-7\u2661")
    expect(picker.locator('[data-card="5H"]')).to_have_attribute("aria-disabled", "true")
    expect(picker.locator('[data-card="6H"] [data-count]')).to_have_text("1/2")


def test_after_a_refused_save_the_error_stands_under_its_field_and_the_keyboard_stays(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """Save refused: the new form keeps the way the scorer was entering cards (the
    system keyboard, asked for with ⌨), and each hand's error stands right under its
    cards, above the picker that comes to them: it used to stand under the whole
    picker, a screen below the field it is about."""
    page = phone_page
    picker, ben = tap_ashas_win(page)
    choose_outcome(ben, "shown")
    keyboard = picker.locator('[data-key="keyboard"]')
    keyboard.tap()
    ben.get_by_label("Groups").fill("2D 3D 4D | 5S 6S 7S | 9C 10C JC | KH KD 8X QS")

    page.get_by_role("button", name="Save round 1").tap()

    problems = page.locator("[data-problems]")
    expect(problems).to_contain_text("'8X' is not a card")
    look_at(page, "round-refused-keyboard-phone", full_page=False)
    picker = page.locator("[data-picker]")  # the form's new one
    keyboard = picker.locator('[data-key="keyboard"]')
    expect(keyboard).to_have_attribute("aria-pressed", "true")
    expect(picker).to_have_class(re.compile(r"\bis-folded\b"))
    expect(ben.get_by_label("Groups")).not_to_have_attribute("inputmode", "none")

    keyboard.tap()  # back to the picker's cards
    expect(picker).not_to_have_class(re.compile(r"\bis-folded\b"))
    problems.get_by_role("link", name=re.compile("Ben")).tap()
    errors = ben.locator("[data-hand-errors]")
    expect(errors).to_contain_text("'8X' is not a card")
    expect(ben.locator("textarea[data-groups] + [data-hand-errors] + [data-picker]")).to_have_count(
        1
    )
    # The field, its error and the whole picker, Undo card included, on the screen.
    undo = picker.get_by_role("button", name="Undo card")
    assert_in_view(
        page, ben.get_by_label("Groups"), errors, picker.locator("[data-picker-for]"), undo
    )
    look_at(page, "round-refused-error-by-its-field-phone", full_page=False)


def test_an_error_that_goes_under_a_finger_does_not_pull_the_picker_up(phone_page: Page) -> None:
    """After a refused Save each check is Save's: Undo takes away a copy too many, the
    long error under Ben's cards gives way to a short one, and the picker's keys stay
    where the finger is, not a line higher."""
    page = phone_page
    picker, ben = tap_ashas_win(page)
    choose_outcome(ben, "shown")
    ben.get_by_label("Groups").fill("2D 3D 4D 5S 6S 7S 9C 10C JC QD KH KH KH")
    page.get_by_role("button", name="Save round 1").tap()
    page.locator("[data-problems]").get_by_role("link", name=re.compile("Ben")).tap()
    errors = ben.locator("[data-hand-errors]")
    expect(errors).to_contain_text("K♥ is entered 3 times")
    picker = page.locator("[data-picker]")
    expect(ben.locator("[data-hand-errors] + [data-picker]")).to_be_in_viewport()
    field = ben.get_by_label("Groups")

    def gap() -> float:  # from the cards typed down to the picker's keys
        boxes = [field.bounding_box(), picker.bounding_box()]
        assert boxes[0] is not None and boxes[1] is not None
        return boxes[1]["y"] - (boxes[0]["y"] + boxes[0]["height"])

    before = gap()
    with console_errors(page) as logged:
        picker.get_by_role("button", name="Undo card").tap()
        expect(field).to_have_value("2D 3D 4D 5S 6S 7S 9C 10C JC QD KH KH")
        expect(errors).to_contain_text("must show all 13 cards, not 12")
        expect(errors).not_to_contain_text("K♥ is entered")
        assert abs(gap() - before) < 1, (before, gap())
        # Once the picker moves on (to another hand tapped), it gives the room back.
        page.locator('fieldset[data-player="Asha"]').get_by_label("Groups").tap()
        expect(page.locator('fieldset[data-player="Asha"] [data-picker]')).to_be_visible()
    assert page.locator("[data-picker]").evaluate("picker => picker.style.marginTop") == ""
    # No style the Content-Security-Policy refuses (htmx copies a swapped element's).
    assert logged == []


def test_a_preview_that_grows_above_the_picker_does_not_push_its_keys_down(
    phone_page: Page,
) -> None:
    """A hand further up whose preview grows at a live check (a line that wraps once the
    round scores, a longer explanation) moves what stands below it: the page scrolls by
    as much, so the picker's keys stay under the finger."""
    page = phone_page
    picker, ben = tap_ashas_win(page)
    choose_outcome(ben, "shown")
    tap_hand(picker, "2D 3D 4D")
    # Past the two seconds in which the picker, having just moved on to Ben, is kept in
    # sight whatever moves (static/js/picker_place.js, keepPickerInView): Ben is being typed now.
    page.wait_for_timeout(2100)
    asha = page.locator('fieldset[data-player="Asha"]')
    expect(ben.locator("[data-picker]")).to_be_visible()
    undo = picker.get_by_role("button", name="Undo card")
    # The end of Asha's hand just in sight at the top, the picker's first rows below.
    asha.evaluate("hand => window.scrollBy(0, hand.getBoundingClientRect().bottom - 60)")
    # Asha's preview grows by three lines at the next check; it is in sight, above.
    lines = "<p>a line</p>" * 3

    def grown(route: Route) -> None:
        answer = route.fetch()
        body = re.sub(r'(data-preview="Asha"[^>]*>)', lambda found: found[1] + lines, answer.text())
        route.fulfill(response=answer, body=body)

    page.route("**/preview/", grown)
    keys_at = undo.evaluate("key => key.getBoundingClientRect().top")
    asha_at = asha.evaluate("hand => hand.getBoundingClientRect().bottom")
    assert asha_at > 0, "Asha's hand is out of sight: the browser would keep its place anyway"
    card = picker.locator('[data-card="5S"]')
    expect(card).to_be_in_viewport(ratio=1)  # the tap does not scroll
    with page.expect_response("**/preview/"):
        card.tap()
    expect(asha.get_by_text("a line")).to_have_count(3)
    page.wait_for_function("() => !document.querySelector('.htmx-settling')")
    assert abs(undo.evaluate("key => key.getBoundingClientRect().top") - keys_at) < 1


def test_with_a_mouse_the_keyboard_key_holds_for_its_form_only(desktop_page: Page) -> None:
    """A desktop types and taps alike from the start: ⌨ there only folds the cards away,
    for the form it was pressed in; the next form starts as the first did."""
    page = desktop_page
    open_pool(page, ["Asha", "Ben"])
    picker = page.locator("[data-picker]")
    keyboard = picker.locator('[data-key="keyboard"]')
    expect(keyboard).to_have_attribute("aria-pressed", "true")
    keyboard.click()
    keyboard.click()
    expect(picker).to_have_class(re.compile(r"\bis-folded\b"))

    page.get_by_role("button", name="Save round 1").click()  # nothing entered: refused

    expect(page.locator("[data-problems]")).to_be_visible()
    picker = page.locator("[data-picker]")
    expect(picker.locator('[data-key="keyboard"]')).to_have_attribute("aria-pressed", "true")
    expect(picker).not_to_have_class(re.compile(r"\bis-folded\b"))


def test_undo_takes_back_the_last_card_tapped_even_once_the_picker_moved_on(
    phone_page: Page,
) -> None:
    """A hand's last card moves the picker on, to the next hand (still empty) or to none:
    Undo then takes that card back, where it went, and the picker with it. It used to do
    nothing on the empty hand, and, every hand in, to take the first player's last card."""
    page = phone_page
    picker, ben = tap_ashas_win(page)
    asha = page.locator('fieldset[data-player="Asha"]').get_by_label("Groups")
    expect(ben.locator("[data-picker]")).to_be_visible()

    picker.get_by_role("button", name="Undo card").tap()
    expect(asha).to_have_value(WIN_13.removesuffix(" KS"))
    expect(picker.locator("[data-picker-for]")).to_have_text("Cards for Asha: 12 of 13")
    picker.locator('[data-card="KS"]').tap()  # whole again: on to Ben

    choose_outcome(ben, "shown")
    tap_hand(picker, "2D 3D 4D 5S 6S 7S 9C 10C JC QD QS QH 9D")
    expect(picker.locator("[data-picker-for]")).to_contain_text("Every hand is in")
    picker.get_by_role("button", name="Undo card").tap()
    expect(ben.get_by_label("Groups")).to_have_value("2D 3D 4D 5S 6S 7S 9C 10C JC QD QS QH")
    expect(asha).to_have_value(WIN_13)


def test_a_card_tapped_with_the_caret_inside_another_goes_after_it(phone_page: Page) -> None:
    """A finger's tap on the field leaves the caret where it landed, inside a card: the
    card tapped next goes after that card, not into it ("6 QDD")."""
    page = phone_page
    open_pool(page, ["Asha", "Ben"])
    picker = page.locator("[data-picker]")
    picker.locator('[data-card="7C"]').tap()
    groups = page.locator('fieldset[data-player="Asha"]').get_by_label("Groups")
    groups.fill("5D 6D | 9S")
    groups.evaluate("field => { field.focus(); field.setSelectionRange(4, 4); }")  # 6|D

    picker.locator('[data-card="7D"]').tap()

    expect(groups).to_have_value("5D 6D 7D | 9S")


def test_undo_after_a_tap_inside_the_field_takes_back_the_last_card_and_glues_nothing(
    phone_page: Page,
) -> None:
    """A finger that lands inside the field moves the caret: Undo still takes back the
    card tapped last. Where it takes the card before the caret (the last one typed on
    the keyboard), the cards on either side stay apart: "5H7H" was one token, no card."""
    page = phone_page
    open_pool(page, ["Asha", "Ben"])
    picker = page.locator("[data-picker]")
    picker.locator('[data-card="7C"]').tap()
    groups = page.locator('fieldset[data-player="Asha"]').get_by_label("Groups")
    tap_hand(picker, "2S 3S 4S 5H 6H 7H 8C")
    undo = picker.get_by_role("button", name="Undo card")
    groups.evaluate("field => { field.focus(); field.setSelectionRange(15, 15); }")  # 6H |7H

    undo.tap()
    expect(groups).to_have_value("2S 3S 4S 5H 6H 7H")  # 8C, the card tapped last

    groups.evaluate("field => { field.focus(); field.setSelectionRange(15, 15); }")  # 6H |7H
    undo.tap()  # nothing tapped since: the card before the caret
    expect(groups).to_have_value("2S 3S 4S 5H 7H")
    undo.tap()
    expect(groups).to_have_value("2S 3S 4S 7H")

    # A card tapped, a new group, then Undo: the bar goes, not the card before it.
    groups.evaluate("field => field.setSelectionRange(field.value.length, field.value.length)")
    picker.locator('[data-card="9D"]').tap()
    picker.get_by_role("button", name="New group").tap()
    expect(groups).to_have_value("2S 3S 4S 7H 9D | ")
    undo.tap()
    expect(groups).to_have_value("2S 3S 4S 7H 9D")
