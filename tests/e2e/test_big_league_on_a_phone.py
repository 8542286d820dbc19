"""A big league on a phone (390x844, touch): eight players at the table, long names
and names in other scripts, a session many rounds long. What a player looking at the
score table, the round form and the standings would find broken: buttons cut off at
the edge of a table wider than the phone, tables that scroll without saying so, tap
targets smaller than a thumb, a right-to-left name's total read as the next one's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import Player
from games.services.table import claim_seat, open_table
from tests.support.big_league import EIGHT, LONG_NAME, RTL_NAME, big_league, long_session
from tests.support.pages import boxes_once_they, sign_in
from tests.support.pixels import Image

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

THUMB = 44  # px: the least a tap target should be, each way


def test_the_show_earlier_rounds_button_stays_on_screen_above_a_wide_table(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    session = long_session(sign_in(phone_page, "asha"), None, 42)
    phone_page.goto(f"/shared/{session.share_token}/")
    table = phone_page.locator(".table-scroll")
    earlier = phone_page.locator("[data-show-earlier]")
    expect(earlier).to_have_text("Show 10 earlier rounds")
    look_at(phone_page, "big-league-share")
    box, button = boxes_once_they(phone_page, [table, earlier], lambda boxes: True)
    # Eight columns are wider than the phone: the table scrolls inside its box ...
    assert table.evaluate("el => el.scrollWidth > el.clientWidth")
    # ... and the button is whole within it, not cut off at its edge (it was, at 32 px).
    assert box["x"] <= button["x"] and button["x"] + button["width"] <= box["x"] + box["width"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_table_wider_than_the_phone_shows_a_shadow_at_the_edge_it_scrolls_towards(
    phone_page: Page, scheme: str
) -> None:
    phone_page.emulate_media(color_scheme=scheme)
    session = long_session(sign_in(phone_page, "asha"), None, 3)
    phone_page.goto(f"/sessions/{session.pk}/")
    table = phone_page.locator(".table-scroll").first
    expect(table).to_be_visible()
    table.scroll_into_view_if_needed()
    assert table.evaluate("el => el.scrollWidth > el.clientWidth")

    def right_edge() -> float:
        """How light the box's last two pixels are, down its height."""
        box = table.bounding_box()
        assert box is not None
        x, height = box["x"] + box["width"] - 3, box["height"]
        strip = phone_page.screenshot(clip={"x": x, "y": box["y"], "width": 2, "height": height})
        return Image(strip).column_lightness(0)

    more_to_the_right = right_edge()
    table.evaluate("el => el.scrollLeft = el.scrollWidth")
    at_the_end = right_edge()
    # A shadow (a glow on the dark page) while there is more to see; at the end of
    # the table, the page's own surface. It was hidden when the table painted its own
    # background.
    shadow = at_the_end - more_to_the_right if scheme == "light" else more_to_the_right - at_the_end
    assert shadow > 20, (more_to_the_right, at_the_end)


def test_every_outcome_button_of_eight_players_is_a_thumb_high(phone_page: Page) -> None:
    session = long_session(sign_in(phone_page, "asha"), None, 1)
    phone_page.goto(f"/sessions/{session.pk}/")
    chips = phone_page.locator(".round-form .chip")
    expect(chips.first).to_be_visible()
    assert chips.count() >= 6 * len(EIGHT)
    heights = chips.evaluate_all("els => els.map(el => el.getBoundingClientRect().height)")
    assert min(heights) >= THUMB, min(heights)  # they were 40 px


def test_each_name_in_the_standings_is_a_thumb_sized_link(phone_page: Page) -> None:
    user = sign_in(phone_page, "asha")
    league = big_league(user)
    long_session(user, league, 2)
    phone_page.goto(f"/leagues/{league.slug}/standings/")
    names = phone_page.locator(".standings-table tbody th a")
    expect(names).to_have_count(len(EIGHT))
    sizes = names.evaluate_all(
        "els => els.map(el => [el.textContent.trim(), el.getBoundingClientRect().height,"
        " el.getBoundingClientRect().width])"
    )
    small = [(name, h, w) for name, h, w in sizes if h < THUMB or w < THUMB]
    assert not small, small  # 34 px high, and "陈伟" 20 px wide


def test_a_right_to_left_names_total_comes_after_the_name(phone_page: Page) -> None:
    session = long_session(sign_in(phone_page, "asha"), None, 2)
    phone_page.goto(f"/sessions/{session.pk}/")
    entry = phone_page.locator(f'[data-strip="{RTL_NAME}"]')
    name, total = boxes_once_they(
        phone_page,
        [entry.locator(".strip-name"), entry.locator(".strip-total")],
        lambda boxes: True,
    )
    # Left to right, as the page reads: the name, then its total. Without isolating
    # the name, the total was drawn left of it, next to the previous player's.
    assert name["x"] + name["width"] <= total["x"], (name, total)


# Each word of an element's text, and how many lines it is drawn on.
_WORD_LINES = """el => {
    const text = el.firstChild, words = [], range = document.createRange();
    for (const match of text.data.matchAll(/\\S+/g)) {
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        words.push([match[0], tops.size]);
    }
    return words;
}"""


def test_a_long_name_at_the_table_keeps_its_words_whole_beside_the_seats_buttons(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    session = long_session(sign_in(phone_page, "asha"), None, 1)
    open_table(session)
    claim_seat(session, session.seats.get(player__name=LONG_NAME))
    phone_page.goto(f"/sessions/{session.pk}/")
    name = phone_page.locator(f'[data-table-seat="{LONG_NAME}"] .seat-state-name')
    expect(name).to_have_text(LONG_NAME)
    look_at(phone_page, "big-league-table-scorer")
    # "Venkataraghavan" was drawn "Venkataragha" / "van" to fit beside the buttons.
    assert name.evaluate(_WORD_LINES) == [["Venkataraghavan", 1], ["Subramaniam", 1]]
    buttons = phone_page.locator(f'[data-table-seat="{LONG_NAME}"] .seat-state-actions')
    seat, actions = boxes_once_they(
        phone_page, [phone_page.locator(f'[data-table-seat="{LONG_NAME}"]'), buttons], bool
    )
    assert actions["x"] + actions["width"] <= seat["x"] + seat["width"]  # on the screen


def test_what_ending_the_session_means_is_said_under_its_button(phone_page: Page) -> None:
    session = long_session(sign_in(phone_page, "asha"), None, 2)
    phone_page.goto(f"/sessions/{session.pk}/")
    button = phone_page.locator("[data-close]")
    words = phone_page.locator("[data-close-help]")
    expect(words).to_have_text("The best total wins; you can reopen it.")
    said, tap = boxes_once_they(phone_page, [words, button], bool)
    # Beside the button, the sentence started at its right and wrapped under it.
    assert said["y"] >= tap["bottom"] and said["x"] == tap["x"], (said, tap)


def test_a_21_card_hand_opened_for_editing_shows_all_its_cards(phone_page: Page) -> None:
    session = long_session(sign_in(phone_page, "asha"), None, 8)
    played = session.rounds.get(number=8)
    phone_page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/edit/")
    groups = phone_page.locator("textarea[data-groups]")
    expect(groups.first).not_to_have_value("")
    # Every hand's text wholly in its box: nothing to scroll to inside it.
    hidden = groups.evaluate_all(
        "els => els.filter(el => el.value && el.scrollHeight > el.clientHeight + 1)"
        ".map(el => [el.id, el.scrollHeight, el.clientHeight])"
    )
    assert not hidden, hidden


def test_a_long_names_dealer_badge_sits_inside_its_box_in_the_round_form(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    session = long_session(sign_in(phone_page, "asha"), None, 8)  # round 9: seat 1 deals
    phone_page.goto(f"/sessions/{session.pk}/")
    box = phone_page.locator(".round-form fieldset.player").filter(
        has=phone_page.locator("> legend .badge")
    )
    expect(box).to_have_attribute("data-player", LONG_NAME)
    look_at(phone_page, "big-league-dealer")
    fieldset, legend, badge = boxes_once_they(
        phone_page, [box, box.locator("> legend"), box.locator("> legend .badge")], lambda b: True
    )
    # The name and its badge read on their own line(s), clear of the box's top border:
    # a legend two lines high straddled it, the badge's line drawn across the border.
    border_top = fieldset["y"] + 1
    assert badge["y"] >= border_top and legend["y"] >= border_top, (fieldset, legend, badge)
    assert badge["x"] + badge["width"] <= fieldset["x"] + fieldset["width"]


# How many lines an element's text is drawn on.
_LINES = """el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
}"""


def test_a_players_page_reads_league_and_session_names_in_a_line_or_two(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    user = sign_in(phone_page, "asha")
    league = big_league(user)
    long_session(user, league, 3)
    phone_page.goto(f"/players/{Player.objects.get(name=LONG_NAME).pk}/")
    league_name = phone_page.locator(".player-results tbody th a").first
    session_names = phone_page.locator(".rounds-table tbody th a")
    expect(league_name).to_have_text(league.name)
    look_at(phone_page, "big-league-player")
    # They took four lines and two, in a first column 6rem wide.
    assert league_name.evaluate(_LINES) <= 2
    assert set(session_names.evaluate_all(f"els => els.map({_LINES})")) == {1}
    # And each round's score is still in sight beside its session's name.
    score = phone_page.locator(".rounds-table tbody td[data-score]").first
    (box,) = boxes_once_they(phone_page, [score], lambda boxes: True)
    assert box["x"] + box["width"] <= phone_page.viewport_size["width"], box
