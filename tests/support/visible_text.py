"""What a person reads of a page (HTML or SVG): its text, and the attributes a
browser shows or reads aloud, each piece on its own (a text between two tags is one
piece), with the elements it is in."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import NamedTuple

# Attributes a browser shows (a tooltip, an empty field's hint, an image's stand-in,
# an option group's heading) or a screen reader says.
READ_ATTRIBUTES = (
    "title",
    "aria-label",
    "aria-description",
    "aria-roledescription",
    "aria-valuetext",
    "placeholder",
    "alt",
    "label",
)
# Inputs whose value is their label on the page.
BUTTON_INPUTS = ("submit", "button", "reset")
# What no one reads: scripts and styles.
UNREAD = ("script", "style")
# Elements that hold nothing and have no end tag.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Piece(NamedTuple):
    """A text a person reads: the elements it is in, outermost first, each its tag and
    classes (``ul.lines``); the attribute it is the value of ("" for a text); and the
    text as the page has it."""

    elements: tuple[str, ...]
    attribute: str
    text: str

    @property
    def where(self) -> str:
        """Its element, and its attribute if any: ``<span.badge>``, ``<svg title>``."""
        element = self.elements[-1] if self.elements else ""
        return f"<{element} {self.attribute}>" if self.attribute else f"<{element}>"

    def within(self, *names: str) -> bool:
        """Whether it is inside one of the elements ``names``: a tag (``code``), or a
        tag with one of its classes (``ul.lines``)."""
        for element in self.elements:
            tag, *classes = element.split(".")
            for name in names:
                wanted, _, wanted_class = name.partition(".")
                if tag == wanted and (not wanted_class or wanted_class in classes):
                    return True
        return False


def _tag(element: str) -> str:
    return element.split(".")[0]


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[Piece] = []
        self._open: list[str] = []  # the elements the parser is in, as Piece has them

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        element = ".".join([tag, *attr.get("class", "").split()])
        where = (*self._open, element)
        for name in READ_ATTRIBUTES:
            if attr.get(name, "").strip():
                self.pieces.append(Piece(where, name, attr[name]))
        if tag == "input" and attr.get("type", "").lower() in BUTTON_INPUTS and attr.get("value"):
            self.pieces.append(Piece(where, "value", attr["value"]))
        if tag not in VOID:
            self._open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <path .../> in SVG: its attributes, and nothing inside.
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self._open.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in map(_tag, self._open):
            while _tag(self._open.pop()) != tag:
                pass

    def handle_data(self, data: str) -> None:
        if data.strip() and not any(_tag(element) in UNREAD for element in self._open):
            self.pieces.append(Piece(tuple(self._open), "", data))


def visible_text(markup: str) -> list[Piece]:
    """The texts a person reads on ``markup`` (a page, a fragment, an SVG), in its order."""
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    return parser.pieces
