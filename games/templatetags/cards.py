"""Filters that show cards and scores: formatting only, never arithmetic."""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.template.loader import get_template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.models import HandEntry
from games.rules import (
    ARRANGED_OUTCOMES,
    NOTATION,
    RANK_NAMES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Kind,
    all_cards,
    card_label,
    choice_label,
    spoken_name,
)

register = template.Library()


@register.filter
def card(code: object) -> SafeString | str:
    """``7H`` → 7♥ in red; ``10S`` → 10♠ in black; ``PJ`` stays PJ; anything else as it
    is. The letter is in the title so a screen reader and a copy-paste both keep the
    notation."""
    text = str(code)
    return _faces().get(text, text)


@functools.cache
def _faces() -> dict[str, SafeString]:
    """Each card of the rules' deck, by its code, as ``card`` shows it: made once."""
    faces = {}
    for one in all_cards():
        if one.is_printed_joker:
            faces[one.code] = format_html(
                '<span class="card card-joker" title="{}">{}</span>', spoken_name(one), one.code
            )
        else:
            faces[one.code] = format_html(
                '<span class="card suit-{}" title="{}">{}</span>',
                one.suit.lower(),
                one.code,
                card_label(one),
            )
    return faces


@register.filter
def cards(codes: Iterable[object]) -> SafeString:
    return format_html_join(" ", "{}", ((card(code),) for code in codes))


@register.filter
def groups(groups: Iterable[Iterable[object]]) -> SafeString:
    """A hand's groups, "|" between them, each kept whole on a line where it fits
    (app.css: .cards-group): wrapped mid-group, a line break hid where a group ended."""
    return format_html_join(
        " | ", '<span class="cards-group">{}</span>', ((cards(group),) for group in groups)
    )


# A score's minus sign: the typographic one (U+2212) the charts draw, not the hyphen
# "-280" was written with. Eyes read it as wide as a plus; screen readers say "minus".
MINUS = "\u2212"


# A hyphen that stands for minus: before a figure, not inside a word ("K-A-2" stays).
_HYPHEN_MINUS = re.compile(r"(?<![\w-])-(?=\d)")


@register.filter
def points(value: int | str | None) -> str:
    """A total or score as the pages write it: −280, 0, 45, −12.5 (``fixed``'s text),
    a dash for none; in a line of words, each figure's sign ("value points
    exchanged: −10", as the rules service explains a hand)."""
    if value is None:
        return "–"
    return _HYPHEN_MINUS.sub(MINUS, str(value))


@register.filter
def fixed(value: float | None, places: int = 1) -> str:
    """A number with ``places`` decimals, rounded half up: what ``floatformat`` shows
    in the app's one locale (no "-0.0" either), at a fraction of its cost. The
    standings print three for each of hundreds of players (benchmarks/http.py)."""
    if value is None:
        return ""
    if not math.isfinite(value):
        return str(value)
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    return f"{rounded if rounded else abs(rounded):f}"


@register.filter
def signed(value: int | None) -> str:
    """+12, −5, 0: a round's score reads as a gain or a loss."""
    if value is None:
        return "–"
    return points(f"{value:+d}") if value else "0"


@register.filter
def outcome_label(value: str) -> str:
    return HandEntry.outcome_words(value)


@register.filter
def kind_label(value: str) -> str:
    """A saved group's kind (``invalid``) as the preview names it ("loose cards"),
    rounds saved before the words changed included."""
    try:
        return Kind(value).label
    except ValueError:
        return value


@register.filter
def words(value: str | None) -> str:
    """A rule model's name as a player reads it, the house rules' label: ``three_pure``
    → three pure sequences, ``show13`` → 13-card show."""
    return choice_label(value).replace("_", " ").lower() if value else ""


def picker_suits() -> list[dict]:
    """The card picker's rows: each suit with its thirteen cards of the deck, A … K,
    as the notation the groups field takes (``10H``) and the name a screen reader says."""
    deck = [card for card in all_cards() if not card.is_printed_joker]
    return [
        {
            "letter": suit,
            "symbol": symbol,
            "name": SUIT_NAMES[suit],
            "cards": [
                {"code": card.code, "rank": RANK_NAMES[card.rank], "name": spoken_name(card)}
                for card in deck
                if card.suit == suit
            ],
        }
        for suit, symbol in SUIT_SYMBOLS.items()
    ]


@register.simple_tag
def picker_cards() -> SafeString:
    """The card picker's fifty-two buttons (round_fields.html#picker_cards), the same
    on every form: rendered once per process, not on every page and every save's
    answer, where they were a tenth of the rendering."""
    return _picker_cards()


@functools.cache
def _picker_cards() -> SafeString:
    return get_template("partials/round_fields.html#picker_cards").render({"suits": picker_suits()})


@register.simple_tag
def card_notation() -> str:
    """The rules' card notation as JSON (the picker's data-notation), by which app.js
    counts the cards typed."""
    return _card_notation()


@functools.cache
def _card_notation() -> str:
    return json.dumps(NOTATION)


@register.simple_tag
def card_outcomes() -> str:
    """The outcomes whose player shows cards (the rest need none), for the picker."""
    return " ".join(sorted(ARRANGED_OUTCOMES))
