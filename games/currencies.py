"""The currency a league's money is counted in: an ISO 4217 code (INR, GBP), as a club
admin types it ("inr", "₹") and as the league's default where it names none (INR for
a league whose language is Hindi). The codes, signs and names are CLDR's, through
babel: Python's standard library has no list of currencies, and one kept by hand
would lack the first club's that it did not foresee.

Only the code is kept; how an amount is written in it (₹1,00,000.00, £12.50) is
games/figures.py's.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

from babel.numbers import get_currency_name, get_currency_symbol, list_currencies
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from games.figures import cldr_locale
from games.rules import speech

if TYPE_CHECKING:
    from games.models import GameSession, League

# The currency a league's money is in when it names none, by the league's language: a
# club that plays in Hindi, or in India's English, counts in rupees. Other languages
# are spoken in too many countries to guess one; their leagues name no currency (the
# figure alone).
DEFAULT_CURRENCY = {"hi": "INR", "en-in": "INR"}

# Signs that several currencies are written with: typed alone, the admin is asked for
# the code rather than given the one a list happens to name first.
_SHARED_SIGNS = {
    "$": ("USD", "AUD", "CAD", "SGD"),
    "¥": ("JPY", "CNY"),
    "RS": ("INR", "PKR", "NPR", "LKR"),
    "RS.": ("INR", "PKR", "NPR", "LKR"),
    "KR": ("SEK", "NOK", "DKK"),
}

# The currencies the league form suggests first, as the clubs that play Indian rummy
# are spread: India and its neighbours, then where their players have moved. Any other
# code CLDR knows is taken as typed.
SUGGESTED = (
    "INR", "GBP", "USD", "EUR", "CAD", "AUD", "NZD", "SGD", "MYR", "AED",
    "SAR", "QAR", "KWD", "OMR", "BHD", "NPR", "PKR", "LKR", "BDT", "ZAR",
)  # fmt: skip


@functools.cache
def currency_codes() -> frozenset[str]:
    """Every ISO 4217 code CLDR knows, those no longer in use included: a league that
    named one before its country changed money must still save its other settings."""
    return frozenset(list_currencies())


@functools.cache
def _signs() -> dict[str, str]:
    """A currency's own sign (as the site's languages write it) → its code, for the
    signs that name one currency alone: ₹ INR, £ GBP, € EUR, A$ AUD."""
    found: dict[str, set[str]] = {}
    for language, _name in settings.LANGUAGES:
        locale = cldr_locale(language)
        for code in currency_codes():
            sign = get_currency_symbol(code, locale)
            if sign != code and sign != "¤":
                found.setdefault(sign.upper(), set()).add(code)
    return {sign: codes.pop() for sign, codes in found.items() if len(codes) == 1}


def currency_from(text: str) -> str:
    """The code a club admin means by ``text``: a code in any case ("inr"), or a sign
    that is one currency's alone (₹, £, €); "" for nothing typed. Raises
    ValidationError, in words the form shows beside the field, for anything else."""
    typed = " ".join(text.split())
    wanted = typed.upper()
    if not wanted:
        return ""
    if wanted in currency_codes():
        return wanted
    if wanted in _SHARED_SIGNS:
        raise ValidationError(
            gettext(
                "“%(typed)s” is written for several currencies: type the code of yours, "
                "such as %(codes)s or %(last)s."
            ),
            code="currency_shared",
            params={
                "typed": typed,
                "codes": speech.list_words(_SHARED_SIGNS[wanted][:-1]),
                "last": _SHARED_SIGNS[wanted][-1],
            },
        )
    if wanted in _signs():
        return _signs()[wanted]
    raise ValidationError(
        gettext(
            "“%(typed)s” is not a currency code. Type its three letters (ISO 4217), such as "
            "INR, GBP or USD, or leave it empty for none."
        ),
        code="currency",
        params={"typed": typed},
    )


def validate_currency(code: str) -> None:
    """Raise ValidationError for a stored code that is not an ISO 4217 one (a league
    file's). Empty is fine: the league's default."""
    if code and code not in currency_codes():
        raise ValidationError(
            gettext("“%(code)s” is not an ISO 4217 currency code."),
            code="currency",
            params={"code": code},
        )


def league_currency(league: League | None) -> str:
    """The code a league's money is in: its own, else its language's default (INR for
    Hindi), else "" (no currency named: the figure alone). None for a session played
    outside a league: no currency named."""
    if league is None:
        return ""
    return league.currency or DEFAULT_CURRENCY.get(league.language, "")


def session_currency(session: GameSession) -> str:
    """The code a session's stakes are in: its league's (league_currency)."""
    return league_currency(session.league)


class CurrencyChoice(NamedTuple):
    """A currency as the league form offers it: its code and its sign and name in the
    page's language ("₹ Indian Rupee")."""

    code: str
    label: str


def currency_label(code: str) -> str:
    """A currency in words, in the page's language: "₹ Indian Rupee (INR)", or "Swiss
    Franc (CHF)" where its sign is its code."""
    locale = cldr_locale()
    sign = get_currency_symbol(code, locale)
    name = get_currency_name(code, locale=locale)
    return f"{sign} {name} ({code})" if sign != code else f"{name} ({code})"


def suggested_currencies() -> list[CurrencyChoice]:
    """The currencies the league form lists under its field, each in words."""
    return [CurrencyChoice(code, currency_label(code)) for code in SUGGESTED]
