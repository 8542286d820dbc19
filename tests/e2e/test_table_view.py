"""The table view in a browser: a tablet or TV in landscape shows each total large,
a round saved elsewhere appears without a reload, and a phone still shows it without
sideways scrolling. On a tablet, a TV and a phone on its side, for two to eight
players with totals of four figures, every total stays on one line inside its card,
every card on the screen, and nothing to scroll; axe finds nothing wrong there, in
either theme. Two cards abreast on an upright phone, a note wider than its card wraps
inside it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.figures import points
from games.models import GameSession
from games.services.scoreboard import load_scoreboard
from games.services.sessions import create_session, rejoin
from tests.support import axe
from tests.support.big_league import EIGHT, eight_hands
from tests.support.builders import make_session, play
from tests.support.hands import POOL_ROUNDS, ROUND_1
from tests.support.pages import PASSWORD, PHONE, horizontal_overflow
from tests.support.reads import copies_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANDSCAPE = {"width": 1280, "height": 720}
SHARE_POLL_MS = 3_000  # games/views/sharing.py
# axe's default rules and target-size, as tests/e2e/test_accessibility.py runs it.
AXE_RUN = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}


def test_a_tv_shows_the_totals_big_and_follows_a_round_saved_elsewhere(
    new_context, look_at: Callable[..., None]
) -> None:
    user = User.objects.create_user("asha", password=PASSWORD)
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    page = new_context(viewport=LANDSCAPE).new_page()  # nobody signed in
    page.clock.install()  # its polls come when the test moves its clock on
    page.goto(f"/shared/{session.share_token}/")
    page.get_by_role("link", name="Table view").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday")
    expect(page.locator("[data-big-player]")).to_have_count(3)
    expect(page.locator('[data-big-player="Asha"] [data-big-total]')).to_have_text("0")
    page.evaluate("window.notReloaded = true")

    play(session, "8S", ROUND_1)  # saved by the scorer's phone, as far as this page knows

    page.clock.fast_forward(SHARE_POLL_MS)
    board = load_scoreboard(session)
    for column in board.columns:
        total = page.locator(f'[data-big-player="{column.name}"] [data-big-total]')
        expect(total).to_have_text(points(column.total))
    expect(page.locator("[data-big-round]")).to_have_text("1")
    expect(page.locator("[data-next-dealer]")).to_contain_text(board.next_dealer.player.name)
    assert page.evaluate("window.notReloaded") is True  # swapped in, not reloaded
    # Read across a table: each total at least 96 px high, all three side by side.
    totals = page.locator("[data-big-total]")
    sizes = totals.evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert min(sizes) >= 96, sizes
    # Measured in one look, not three moments apart.
    tops = set(totals.evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().y))"))
    assert len(tops) == 1, tops
    assert horizontal_overflow(page) <= 0
    look_at(page, "table-view-landscape", full_page=False)

    page.set_viewport_size(PHONE)
    expect(totals.first).to_be_visible()
    assert horizontal_overflow(page) <= 0
    look_at(page, "table-view-phone")


# Where a club puts the table view: a tablet, a TV, and a phone lying on its side.
SCREENS = {
    "tablet": {"width": 1024, "height": 768},
    "tv": {"width": 1920, "height": 1080},
    "phone-landscape": {"width": 844, "height": 390},
}
# Copies of the last round after one round each player dealt: totals of three and four
# figures with their minus signs, as a long evening leaves them ("−1228", "−2428").
LONG_EVENING = {2: 40, 6: 10, 8: 20}
# Each card and the text of its total, measured in one look: how many lines the total
# takes (its text's line boxes), where it lies, and the page's own size.
MEASURE = """() => {
    const box = r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                       width: r.width, height: r.height});
    const cards = [...document.querySelectorAll("[data-big-player]")].map(card => {
        const total = card.querySelector("[data-big-total]");
        const text = document.createRange();
        text.selectNodeContents(total);
        const lines = new Set([...text.getClientRects()].map(r => Math.round(r.top)));
        return {name: card.dataset.bigPlayer, total: total.textContent.trim(),
                lines: lines.size, text: box(text.getBoundingClientRect()),
                card: box(card.getBoundingClientRect()),
                size: parseFloat(getComputedStyle(total).fontSize)};
    });
    return {cards, width: innerWidth, height: innerHeight,
            scrollHeight: document.scrollingElement.scrollHeight};
}"""


def long_evening(players: int) -> GameSession:
    """``players`` of the big league's names (long ones, other scripts), a round dealt
    by each, then many more: every total three or four figures, many negative."""
    user = User.objects.create_user("host", password=PASSWORD)
    names = EIGHT[:players]
    session = make_session(user, players=names, name="Club night", ceiling=10_000)
    for number in range(players):
        play(session, "8S", eight_hands(number, names))
    copies_of(session.rounds.get(number=players), LONG_EVENING[players])
    return session


def what_is_wrong(seen: dict, screen: str) -> list[str]:
    """What a player would see wrong on the table view as measured: a total broken
    over two lines or spilling out of its card, a card off the screen, a page to
    scroll."""
    wrong = []
    if seen["scrollHeight"] > seen["height"]:
        wrong.append(f"{screen}: the page scrolls ({seen['scrollHeight']} px tall)")
    for card in seen["cards"]:
        who, text, box = card["name"], card["text"], card["card"]
        if card["lines"] != 1:
            wrong.append(f"{screen}: {who}'s {card['total']} on {card['lines']} lines")
        if text["left"] < box["left"] - 1 or text["right"] > box["right"] + 1:
            wrong.append(f"{screen}: {who}'s {card['total']} spills out of the card")
        if box["left"] < 0 or box["top"] < 0:
            wrong.append(f"{screen}: {who}'s card starts off the screen")
        if box["right"] > seen["width"] or box["bottom"] > seen["height"]:
            wrong.append(f"{screen}: {who}'s card ends off the screen at {box}")
    return wrong


@pytest.mark.parametrize("players", sorted(LONG_EVENING))
def test_every_total_fits_its_card_and_every_card_the_screen(
    desktop_page: Page, phone_page: Page, look_at: Callable[..., None], players: int
) -> None:
    session = long_evening(players)
    board = load_scoreboard(session)
    widest = max((points(column.total) for column in board.columns), key=len)
    assert len(widest) >= 5, widest  # four figures and a minus sign: the hard case
    wrong = []
    for screen, size in SCREENS.items():
        page = phone_page if screen == "phone-landscape" else desktop_page
        page.set_viewport_size(size)
        page.goto(f"/shared/{session.share_token}/big/")
        expect(page.locator("[data-big-player]")).to_have_count(players)
        look_at(page, f"table-view-{players}-{screen}", full_page=False)
        seen = page.evaluate(MEASURE)
        wrong += what_is_wrong(seen, screen)
        if horizontal_overflow(page) > 0:
            wrong.append(f"{screen}: the page scrolls sideways")
        # One size for every total, so that they compare at a glance, and as large as
        # the cards allow: the widest total fills most of its card's width, or the
        # total most of the height its card has for it.
        sizes = [card["size"] for card in seen["cards"]]
        if max(sizes) - min(sizes) > 0.5:  # a column a fraction of a pixel wider
            wrong.append(f"{screen}: totals at several sizes: {sorted(set(sizes))}")
        card = next(card for card in seen["cards"] if card["total"] == widest)
        filled = max(
            card["text"]["width"] / card["card"]["width"],
            card["text"]["height"] / card["card"]["height"],
        )
        if filled < 0.6:
            wrong.append(f"{screen}: {widest} fills {filled:.0%} of its card")
        # Eight players on a phone on its side: 47 px for "−1228", 39.5 px since
        # thousands are grouped ("−1,228": the comma is sized as one more figure).
        if min(sizes) < 38:
            wrong.append(f"{screen}: totals {min(sizes)} px high, too small across a table")
    assert not wrong, "\n".join(wrong)


def test_the_table_view_reads_well_in_both_themes_on_every_screen(
    desktop_page: Page, phone_page: Page
) -> None:
    session = long_evening(8)
    for screen, size in SCREENS.items():
        page = phone_page if screen == "phone-landscape" else desktop_page
        page.set_viewport_size(size)
        page.goto(f"/shared/{session.share_token}/big/")
        page.evaluate(axe.SCRIPT)
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            found = page.evaluate("options => axe.run(options).then(r => r.violations)", AXE_RUN)
            assert not found, f"{screen}, {theme}:\n{axe.report(found)}"


def test_a_cards_notes_stay_inside_it_two_abreast_on_a_phone(phone_page: Page) -> None:
    """Five players on an upright phone: two cards abreast, each half the screen wide.
    Chen deals next and rejoined, and both notes show whole inside his card: the
    rejoin's, wider than the card, was cut off at its edge ("rejoined at 61 after r")."""
    session = make_session(
        User.objects.create_user("asha", password=PASSWORD),
        players=("Asha", "Ben", "Chen", "Dara", "Eamon"),
        preset="13-pool-101",
    )
    for hands in POOL_ROUNDS:
        play(session, "7C", hands | {"Dara": ("first_drop", ""), "Eamon": ("first_drop", "")})
    rejoin(session, session.seats.get(player__name="Chen"), session.created_by)
    phone_page.goto(f"/shared/{session.share_token}/big/")
    note = phone_page.locator('[data-big-player="Chen"] [data-big-rejoined]')
    expect(note).to_have_text("rejoined at 61 after round 2")
    inside = note.evaluate(
        """note => {
            const card = note.closest('.big-player').getBoundingClientRect();
            const box = note.getBoundingClientRect();
            return box.left >= card.left && box.right <= card.right
                && box.bottom <= card.bottom && note.scrollWidth <= note.clientWidth;
        }"""
    )
    assert inside, note.evaluate("note => note.closest('.big-player').outerHTML")
