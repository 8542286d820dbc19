"""What the browser tests do on a page: sign in, find a player's part of the round
form and its preview, type a round (and find it still typed) or a seat's hand, and
measure sideways scrolling."""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable, Iterator

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import ConsoleMessage, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

PLAYERS = ("Asha", "Ben", "Chen")
# Where pytest-django's live server listens (its default), for the sign-in cookie.
LIVE_HOST = "localhost"
PASSWORD = "correct-horse-battery-staple"
# The viewports the browser tests look at: a phone (with touch) and a desktop.
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# A phone as the browser tests hold one, in one place: 390x844 CSS pixels at a
# phone's pixel ratio, touch, a mobile viewport.
PHONE_DEVICE = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
# How long an expectation waits for the page (tests/e2e/conftest.py sets it for
# expect()): Playwright's 5 s is what a quiet machine needs, not a loaded two-core one
# answering several browsers' requests. A page that is right passes as soon as it is.
WAIT_MS = 15_000


def sign_in(page: Page, username: str) -> User:
    """Create a user and give the page their signed-in session cookie. A few browser
    tests sign in through the sign-in page (sign_in_on_the_page); the others start
    signed in, as a returning player does."""
    user = User.objects.create_user(username=username, password=PASSWORD)
    signed_in_as(page, user)
    return user


def signed_in_as(page: Page, user: User) -> None:
    """Give the page a signed-in session cookie of its own for ``user`` (another of
    their phones)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    # Cookies ignore the port: this one reaches the live server wherever it listens.
    page.context.add_cookies(
        [{"name": cookie.key, "value": cookie.value, "domain": LIVE_HOST, "path": "/"}]
    )


def sign_in_on_the_page(page: Page, username: str) -> None:
    """Sign a user (whose password is PASSWORD) in as a person does: the sign-in page,
    typed and sent."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def sign_out(page: Page) -> None:
    """Tap Sign out and wait until the page says so (the next page is signed out)."""
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()


def horizontal_overflow(page: Page) -> int:
    # clientWidth, not innerWidth: a mobile layout viewport grows to fit overflow.
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


# Each element's box, all measured in one look: a preview answer landing between two
# separate bounding_box() calls moves one element and not the other (CI once saw a
# 250 px "gap" that way). An element swapped out meanwhile (htmx replaced it) says so,
# and is looked up again.
_BOXES = """els => els.map(el => {
    const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, width: r.width, height: r.height, bottom: r.bottom,
            connected: el.isConnected};
})"""
# Between looks, as expect() itself polls (not a frame: a test's paused clock stops those).
_LOOK_AGAIN_S = (0, 0.05, 0.1, 0.25, 0.5)

Box = dict[str, float]


def boxes_once_they(
    page: Page, locators: list[Locator], hold: Callable[[list[Box]], bool]
) -> list[Box]:
    """The elements' boxes, measured together again and again until ``hold`` is true
    of them (the page settles: a preview lands, a poll answers) or WAIT_MS have passed.
    Returns the last boxes seen: the caller asserts what it needs of them, so a layout
    that never gets there fails with what it was."""
    deadline = time.monotonic() + WAIT_MS / 1000
    for look in itertools.count():
        time.sleep(_LOOK_AGAIN_S[min(look, len(_LOOK_AGAIN_S) - 1)])
        handles = [locator.element_handle(timeout=WAIT_MS) for locator in locators]
        boxes = page.evaluate(_BOXES, handles)
        for handle in handles:
            handle.dispose()
        settled = all(box["connected"] for box in boxes) and hold(boxes)
        if settled or time.monotonic() > deadline:
            return boxes
    raise AssertionError("unreachable")


def in_view(page: Page, boxes: list[Box], *, wholly: bool = True) -> bool:
    """Every box lies wholly inside the screen (nothing to scroll to), or with
    ``wholly=False`` shows at least in part (Playwright's to_be_in_viewport)."""
    height = page.viewport_size["height"]
    if wholly:
        return all(box["height"] > 0 and box["y"] >= 0 and box["bottom"] <= height for box in boxes)
    return all(box["height"] > 0 and box["y"] < height and box["bottom"] > 0 for box in boxes)


def assert_in_view(page: Page, *locators: Locator) -> None:
    """The elements are all on the phone's screen at once (once the page settles)."""
    boxes = boxes_once_they(page, list(locators), lambda boxes: in_view(page, boxes))
    assert in_view(page, boxes), f"not all on a {page.viewport_size} screen: {boxes}"


def player(page: Page, name: str) -> Locator:
    return page.locator(f'fieldset[data-player="{name}"]')


def preview(page: Page, name: str) -> Locator:
    return page.locator(f'[data-preview="{name}"]')


def hand_errors(page: Page, name: str) -> Locator:
    """What is wrong with a player's outcome or cards, right under their cards."""
    return page.locator(f'[data-hand-errors="{name}"]')


def choose_outcome(fieldset: Locator, outcome: str) -> None:
    """Tap a player's outcome button (a radio input under its chip)."""
    fieldset.locator(f'input[type="radio"][value="{outcome}"]').check()


def fill_round(page: Page, cut: str, hands: dict[str, tuple[str, str]]) -> None:
    page.get_by_label("Cut joker").fill(cut)
    for name, (outcome, groups) in hands.items():
        choose_outcome(player(page, name), outcome)
        if groups:  # a drop shows no cards: its field is folded away
            player(page, name).get_by_label("Groups").fill(groups)


def assert_round_as_typed(page: Page, cut: str, hands: dict[str, tuple[str, str]]) -> None:
    """The round form still holds what fill_round typed: the cut joker, and each
    player's outcome and groups."""
    expect(page.get_by_label("Cut joker")).to_have_value(cut)
    for name, (outcome, groups) in hands.items():
        expect(player(page, name).locator(f'input[value="{outcome}"]')).to_be_checked()
        expect(player(page, name).get_by_label("Groups")).to_have_value(groups)


# The colour of an element's text and of what it is drawn on (the first ancestor with
# a background that is not transparent; the page is white below them all), as RGB,
# with its font size in CSS pixels and weight.
_COLOURS = """el => {
    const rgba = s => s.match(/[\\d.]+/g).map(Number);
    let node = el, background = [255, 255, 255];
    while (node) {
        const c = rgba(getComputedStyle(node).backgroundColor);
        if (c.length === 3 || c[3] > 0) { background = c.slice(0, 3); break; }
        node = node.parentElement;
    }
    const style = getComputedStyle(el);
    return {
        text: rgba(style.color).slice(0, 3),
        background: background,
        size: parseFloat(style.fontSize),
        weight: parseInt(style.fontWeight, 10),
    };
}"""


def seat_types(page: Page, name: str, cards: str) -> Locator:
    """A seat's phone (holding ``name``'s seat) types the cut joker 8S and ``cards``;
    returns the live check's answer about them, once it came (the hand checked and
    kept on the server)."""
    page.get_by_label("Cut joker").fill("8S")
    page.get_by_label("Cards").fill(cards)
    checked = preview(page, name)
    expect(checked).to_be_visible()
    return checked


def seat_types_unaware(page: Page, name: str, cards: str) -> None:
    """A seat's phone (holding ``name``'s seat, its page loaded) types the cut joker and
    ``cards``, checked and kept, while its status poll is answered "nothing new": what
    the scorer does next goes unnoticed, and the next tap is made on the page as it was."""
    page.route("**/hand/status/**", lambda route: route.fulfill(status=204))
    page.wait_for_load_state()  # htmx listens: what is typed is checked and kept
    seat_types(page, name, cards)


def seat_hands_in(page: Page, cut: str, cards: str) -> None:
    """A seat's phone types the cut joker and ``cards`` and taps Hand in; returns once
    the phone keeps the hand as handed in (its own answer in: the status poll can say
    "✓ Handed in" a moment before it)."""
    page.get_by_label("Cut joker").fill(cut)
    page.get_by_label("Cards").fill(cards)
    page.get_by_role("button", name="Hand in").tap()
    expect(page.locator("#seat-handed")).to_contain_text("✓ Handed in")
    page.wait_for_function(KEPT_AS_HANDED_IN)


# Whether the phone keeps a seat's hand marked as handed in (static/js/drafts.js),
# which it says at a table link gone ("You had handed this hand in").
KEPT_AS_HANDED_IN = """() => Object.keys(localStorage).some((key) =>
  key.startsWith("scorekeeper:draft:table-") && JSON.parse(localStorage[key]).handed)"""


def _luminance(rgb: list[float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def ratio(one: list[float], other: list[float]) -> float:
    """The WCAG contrast ratio of two colours (red, green, blue from 0 to 255)."""
    darker, lighter = sorted((_luminance(one), _luminance(other)))
    return (lighter + 0.05) / (darker + 0.05)


def contrast(locator: Locator) -> tuple[float, float]:
    """The WCAG contrast ratio of the element's text (its colour: a chart's line's too)
    against its background, and the least ratio WCAG AA asks for text of its size
    (4.5; 3 for large text; 3 for lines and marks, whatever their size)."""
    seen = locator.evaluate(_COLOURS)
    large = seen["size"] >= 24 or (seen["size"] >= 18.66 and seen["weight"] >= 700)
    return ratio(seen["text"], seen["background"]), 3.0 if large else 4.5


def looks_red(locator: Locator) -> bool:
    """A person sees the text as red: red well above green and blue."""
    red, green, blue = locator.evaluate(_COLOURS)["text"]
    return red - max(green, blue) >= 80


def edge_looks_red(locator: Locator) -> bool:
    """A person sees the field's edge as red (a field marked wrong)."""
    red, green, blue = locator.evaluate(
        "(element) => getComputedStyle(element).borderTopColor.match(/[\\d.]+/g).map(Number)"
    )[:3]
    return red - max(green, blue) >= 80


def assert_red_and_readable(locator: Locator) -> None:
    """Hearts and diamonds: red, as on the cards, and readable where they stand."""
    assert looks_red(locator), locator.evaluate(_COLOURS)
    ratio, needed = contrast(locator)
    assert ratio >= needed, (ratio, needed, locator.evaluate(_COLOURS))


@contextlib.contextmanager
def console_errors(page: Page) -> Iterator[list[str]]:
    """What the page logs as an error inside the block (htmx says there what it could
    not do) and its scripts' uncaught exceptions. The page's messages reach the test
    a moment after the page moves on: the block ends once a message of its own, logged
    last, has come (they come in order). The page stays as it was, for the next test
    that gets it."""
    errors: list[str] = []

    def logged(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    def raised(error: PlaywrightError) -> None:
        errors.append(str(error))

    page.on("console", logged)
    page.on("pageerror", raised)
    try:
        yield errors
        with page.expect_console_message(lambda message: message.text == "console read"):
            page.evaluate("console.log('console read')")
    finally:
        page.remove_listener("console", logged)
        page.remove_listener("pageerror", raised)
