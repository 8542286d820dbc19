"""How the app writes a figure: a score or total with a true minus sign, a number
rounded half up to a fixed count of decimals, a rating, an amount of money and a
day. The templates' filters (templatetags/cards.py), the charts, the standings, the
admin and the models' names all write figures with these, so that one figure reads
the same wherever it stands. Formatting only, never arithmetic: every figure comes
from games/rules.

Each is written as the page's language writes numbers (CLDR's data, through babel):
digits grouped in thousands in English (1,234,567), in thousands then hundreds in
Hindi and Indian English (12,34,567); an amount with its currency's sign where the
language puts it (₹1,00,000.00). A figure a machine reads back (a form's value, a
download's cell, JSON) is never written here.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency, get_decimal_symbol, get_group_symbol
from django.conf import settings
from django.utils import formats, translation

# A score's minus sign: the typographic one (U+2212) the charts draw, not the hyphen
# "-280" was written with. Eyes read it as wide as a plus; screen readers say "minus".
MINUS = "\u2212"

# A hyphen that stands for minus: before a figure, not inside a word ("K-A-2" stays).
_HYPHEN_MINUS = re.compile(r"(?<![\w-])-(?=\d)")

# Where a currency written as letters (CHF, AED) meets the figure: a space that keeps
# them on one line, as CLDR's currency spacing asks (babel leaves it out).
_NO_BREAK = "\u00a0"
# The figure in a currency's text: its digits and the separators between them.
_FIGURE = re.compile(r"\d(?:[\d.,'\u00a0\u202f]*\d)?")


class _Numbers(NamedTuple):
    """How one language writes numbers: its separators and digit groups."""

    locale: Locale
    group: str  # between groups of digits: "," in English and Hindi
    decimal: str  # before the decimals: "."
    first: int  # the digits of the last group: 3
    then: int  # of each group before it: 3 in English, 2 in Hindi (12,34,567)


def cldr_locale(language: str | None = None) -> Locale:
    """CLDR's locale for a Django language code ("hi", "en-in"), the page's own by
    default; English for one CLDR does not know."""
    return _numbers(language or _language()).locale


def _language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


@functools.lru_cache(maxsize=16)
def _numbers(language: str) -> _Numbers:
    try:
        locale = Locale.parse(translation.to_locale(language))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en")
    first, then = locale.decimal_formats[None].grouping
    return _Numbers(locale, get_group_symbol(locale), get_decimal_symbol(locale), first, then)


def _grouped(digits: str, numbers: _Numbers) -> str:
    """A run of digits in the language's groups: 1234567 → 1,234,567 or 12,34,567."""
    if len(digits) <= numbers.first:
        return digits
    head, groups = digits[: -numbers.first], [digits[-numbers.first :]]
    while len(head) > numbers.then:
        groups.append(head[-numbers.then :])
        head = head[: -numbers.then]
    groups.append(head)
    return numbers.group.join(reversed(groups))


def whole(value: int) -> str:
    """A whole number as the page's language writes it: 1,234,567 (English) or
    12,34,567 (Hindi), a loss with a true minus sign (−1,234)."""
    digits = _grouped(str(abs(value)), _numbers(_language()))
    return MINUS + digits if value < 0 else digits


def points(value: int | str | None) -> str:
    """A total or score as the pages write it: −280, 0, 45, 1,250 (grouped as the
    page's language groups digits), −12.5 (``fixed``'s text), a dash for none; in a
    line of words, each figure's sign ("value points exchanged: −10", as the rules
    service explains a hand)."""
    if value is None:
        return "–"
    if isinstance(value, int):
        return whole(value)
    return _HYPHEN_MINUS.sub(MINUS, str(value))


def fixed(value: float | None, places: int = 1) -> str:
    """A number with ``places`` decimals, rounded half up, its whole part grouped as
    the page's language groups digits (1,234.5): what ``floatformat`` shows (no "-0.0"
    either), at a fraction of its cost. The standings print three for each of
    hundreds of players (benchmarks/http.py). A loss keeps its hyphen here, for
    ``points`` to make a minus sign."""
    if value is None:
        return ""
    if not math.isfinite(value):
        return str(value)
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    return _decimal_text(rounded if rounded else abs(rounded), "-")


def _decimal_text(amount: Decimal, minus: str) -> str:
    """A decimal amount as the page's language writes it, with the decimals it has."""
    numbers = _numbers(_language())
    whole_part, _, part = f"{abs(amount):f}".partition(".")
    text = _grouped(whole_part, numbers) + (numbers.decimal + part if part else "")
    return minus + text if amount < 0 else text


def signed(value: int | None) -> str:
    """+12, −5, 0, +1,250: a round's score reads as a gain or a loss."""
    if value is None:
        return "–"
    return "+" + whole(value) if value > 0 else whole(value)


def rating(value: float) -> str:
    """A rating (or a rating's skill): one decimal, rounded half up, a true minus sign,
    as the standings, the player pages, their charts and the admin write it."""
    return points(fixed(value))


def money(amount: Decimal | None, currency: str = "", *, sign: bool = False) -> str:
    """An amount of money as the pages write it, in the league's ``currency`` (an ISO
    code, games/currencies.py): its sign where the page's language puts it, ₹1,00,000.00
    in Hindi, £12.50 or CHF 12.50 in English; the decimals the currency has (none for
    yen when the amount has none). Without a currency, the figure alone (12.50). A loss
    has a true minus sign (−₹3.00); with ``sign``, a gain its plus (+₹12.50), as the
    standings write what each player won or lost. A dash for none."""
    if amount is None:
        return "–"
    minus = MINUS if amount < 0 else "+" if sign and amount > 0 else ""
    if not currency:
        return minus + _decimal_text(abs(Decimal(amount)).quantize(Decimal("0.01")), "")
    text = format_currency(
        abs(amount),
        currency,
        locale=cldr_locale(),
        currency_digits=True,
        decimal_quantization=False,
    )
    return minus + _spaced(text)


def _spaced(text: str) -> str:
    """A currency written as letters kept a space apart from the digits (CHF 12.50,
    Cg. 12.50); a sign (₹, £, A$) stays against them."""
    figure = _FIGURE.search(text)
    if figure is None:
        return text
    before, number, after = text[: figure.start()], figure[0], text[figure.end() :]
    if before and unicodedata.category(before[-1])[0] not in "SZ":
        before += _NO_BREAK
    if after and unicodedata.category(after[0])[0] not in "SZ":
        after = _NO_BREAK + after
    return before + number + after


def day(value: datetime.date) -> str:
    """A day as the page's language writes one: 5 Jan 2024, 5 जनवरी 2024 (the
    DATE_FORMAT of scorekeeper/formats/, else Django's for the language), as the
    templates' ``date:"DATE_FORMAT"`` does."""
    return formats.date_format(value, "DATE_FORMAT")
