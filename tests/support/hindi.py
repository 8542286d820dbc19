"""What the browser tests look for on a page in Hindi: the catalogue's words (never
written out in a test, so a translation corrected changes none), Devanagari drawn
in a font that has it, and every word inside its box on a phone."""

from __future__ import annotations

from django.utils import translation
from playwright.sync_api import Page, expect

from tests.support.pages import horizontal_overflow

# Devanagari letters, and as many code points no font has: where no font has
# Devanagari either, both are drawn as the same empty boxes, as wide as each other.
DEVANAGARI_DRAWN = """() => {
  const canvas = document.createElement("canvas").getContext("2d");
  canvas.font = getComputedStyle(document.body).font;
  const width = (text) => canvas.measureText(text).width;
  return width("कखगघ") !== width("\\u0378\\u0379\\u0380\\u0381");
}"""

# The boxes on the screen whose words do not fit them: a button, chip, key, label or
# cell whose text runs past its edges, or is cut off by them (a word longer in Hindi
# than in English, with no space to wrap at).
WORDS_OUTSIDE = """() => [...document.querySelectorAll(
    "button, .button, .chip, .key, .badge, label, legend, th, td, h1, h2, h3")]
  .filter(el => el.checkVisibility() && getComputedStyle(el).display !== "inline"
                && !el.closest(".visually-hidden"))
  .filter(el => el.scrollWidth > el.clientWidth + 1
                || (el.scrollHeight > el.clientHeight + 1
                    && getComputedStyle(el).overflowY !== "visible"))
  .map(el => `${el.tagName.toLowerCase()}.${el.className}: "${el.textContent.trim()}"`
             + ` ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`)"""


def hindi(message: str, *, context: str = "", **values: object) -> str:
    """The catalogue's Hindi for ``message`` (in ``context``, where it has one), a
    template's placeholders filled in: ``hindi("Save round %(number)s", number=1)``."""
    with translation.override("hi"):
        said = translation.pgettext(context, message) if context else translation.gettext(message)
    return said % values if values else said


def choose_hindi_in_the_footer(page: Page) -> None:
    page.get_by_role("group", name="App language").get_by_role("button", name="हिन्दी").click()
    expect(page.locator("html")).to_have_attribute("lang", "hi")


def assert_drawn_in_hindi(page: Page) -> None:
    """The page is in Hindi, drawn in a font with Devanagari (not boxes), nothing wider
    than the screen and every word inside its box."""
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    assert page.evaluate(DEVANAGARI_DRAWN), (
        "Devanagari drawn as boxes: apt-get install fonts-lohit-deva"
    )
    assert horizontal_overflow(page) <= 0
    outside = page.evaluate(WORDS_OUTSIDE)
    assert not outside, "words outside their box:\n" + "\n".join(outside)
