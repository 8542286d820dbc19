"""Filters that show cards and scores: formatting only, never arithmetic."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable

from django import template
from django.template.loader import get_template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, gettext_noop, override

from games import figures
from games.models import HandEntry
from games.rules import (
    ARRANGED_OUTCOMES,
    NOTATION,
    RANK_NAMES,
    SUIT_SYMBOLS,
    Kind,
    all_cards,
    card_label,
    choice_words,
    spoken_name,
    suit_name,
)

register = template.Library()


@register.filter
def card(code: object) -> SafeString | str:
    """``7H`` → 7♥ in red; ``10S`` → 10♠ in black; ``PJ`` stays PJ; anything else as it
    is. The letter is in the title so a screen reader and a copy-paste both keep the
    notation."""
    text = str(code)
    return _faces(get_language()).get(text, text)


@functools.cache
def _faces(language: str) -> dict[str, SafeString]:
    """Each card of the rules' deck, by its code, as ``card`` shows it: made once for
    each language (a joker's title is its spoken name)."""
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
def explained(line: str, names: Iterable[str] = ()) -> SafeString:
    """A line of the rules service's explanation of a hand, kept with its round, as the
    page shows it: its figures' signs as ``points`` writes them, its cards as ``card``
    shows them, like the groups above it ("not counted: 2♦ 3♦ 4♦ (pure sequence)").
    ``names``: the round's players. Where a line names one (a default win's winner,
    whose claims a player pays: games/rules/scoring.py), the name stays a word,
    whatever card it spells; the same letters elsewhere are a card."""
    text = figures.points(line)
    language = get_language()
    named = _named_spans(text, language, tuple(sorted(set(names), key=len, reverse=True)))
    pieces, at = [], 0
    for found in _card_words(language).finditer(text):
        if any(start <= found.start() < end for start, end in named):
            continue
        pieces += [text[at : found.start()], _faces(language)[found[0]]]
        at = found.end()
    return format_html_join("", "{}", ((piece,) for piece in [*pieces, text[at:]]))


# The rules' lines that name a player (games/rules/scoring.py), as the catalogue
# holds them: the words around "{name}", in the page's language and in English (a
# hand kept before its language was), tell a name from a card it spells.
_NAMING_LINES = (
    gettext_noop("won by default by {name}: every drop pays {points}"),
    gettext_noop("{name} won by default: every drop pays {points}"),
    gettext_noop("pays {name}'s claims: {points}"),
)
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _named_spans(text: str, language: str, names: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where in ``text`` one of ``names`` stands as a naming line places it."""
    if not names:
        return []
    return [
        found.span("name")
        for pattern in _naming_patterns(language, names)
        for found in pattern.finditer(text)
    ]


@functools.lru_cache(maxsize=64)
def _naming_patterns(language: str, names: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    name = "(?P<name>" + "|".join(map(re.escape, names)) + ")"
    patterns = []
    for said in _NAMING_LINES:
        for words in {said, _in(language, said)}:
            before, _, after = words.partition("{name}")
            lead = _PLACEHOLDER.split(before)[-1]
            trail = _PLACEHOLDER.split(after)[0]
            start = "^" if not _PLACEHOLDER.search(before) else ""
            patterns.append(re.compile(f"{start}{re.escape(lead)}{name}(?={re.escape(trail)})"))
    return tuple(patterns)


def _in(language: str, message: str) -> str:
    with override(language):
        return gettext(message)


@functools.cache
def _card_words(language: str) -> re.Pattern[str]:
    """Each of the deck's codes as a whole word, longest first (10H before a 10)."""
    codes = sorted(_faces(language), key=len, reverse=True)
    return re.compile("(?<!\\w)(?:" + "|".join(codes) + ")(?!\\w)")


@register.filter
def groups(groups: Iterable[Iterable[object]]) -> SafeString:
    """A hand's groups, "|" between them, each kept whole on a line where it fits
    (app.css: .cards-group): wrapped mid-group, a line break hid where a group ended."""
    return format_html_join(
        " | ", '<span class="cards-group">{}</span>', ((cards(group),) for group in groups)
    )


# How figures are written: one place (games/figures.py), for the pages too.
register.filter("points", figures.points)
register.filter("fixed", figures.fixed)
register.filter("signed", figures.signed)
# An amount in a currency: ``{{ payment.amount|money:money.currency }}``.
register.filter("money", figures.money)


@register.filter
def outcome_label(value: str) -> str:
    return HandEntry.outcome_words(value)


@register.filter
def figures_words(value: dict | None) -> str:
    """A counted hand's figures in words: "count 102, value points 10"."""
    return HandEntry.figures_words(value or {})


@register.filter
def counted_words(value: dict | None, outcome: str) -> str:
    """A counted hand in place of its cards, by its figures and its outcome:
    ``hand.figures|counted_words:hand.outcome``, for a saved hand or the history's."""
    return HandEntry.counted_words(outcome, value or {})


@register.filter
def at_the_table(outcome: str) -> str:
    """How a hand without cards was taken: "shown at the table" (a trusted winner),
    else "counted at the table"."""
    return HandEntry.at_the_table(outcome)


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
    return choice_words(value) if value else ""


def picker_suits() -> list[dict]:
    """The card picker's rows: each suit with its thirteen cards of the deck, A … K,
    as the notation the groups field takes (``10H``) and the name a screen reader says."""
    deck = [card for card in all_cards() if not card.is_printed_joker]
    return [
        {
            "letter": suit,
            "symbol": symbol,
            "name": suit_name(suit),
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
    on every form: rendered once per process and language (the cards' names are
    words), not on every page and every save's answer, where they were a tenth of the
    rendering."""
    return _picker_cards(get_language())


@functools.cache
def _picker_cards(language: str) -> SafeString:
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
