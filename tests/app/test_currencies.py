"""The currency a league's money is in (games/currencies.py): what a club admin
types read as its ISO code, a clear refusal for anything else, and the league's
default where it names none."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from games.currencies import currency_from, currency_label, league_currency
from games.models import League


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("INR", "INR"),
        ("inr", "INR"),
        (" gbp ", "GBP"),
        ("₹", "INR"),
        ("£", "GBP"),
        ("€", "EUR"),
        ("a$", "AUD"),
        ("CHF", "CHF"),
        ("", ""),
        ("  ", ""),
    ],
)
def test_a_code_in_any_case_or_a_currencys_own_sign_is_its_code(typed: str, code: str) -> None:
    assert currency_from(typed) == code


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("$", "“$” is written for several currencies: type the code of yours, such as USD"),
        ("Rs", "such as INR, PKR, NPR or LKR"),
        ("XYZ", "“XYZ” is not a currency code. Type its three letters (ISO 4217)"),
        ("rupees", "“rupees” is not a currency code"),
    ],
)
def test_anything_else_is_refused_saying_what_to_type(typed: str, said: str) -> None:
    with pytest.raises(ValidationError) as refused:
        currency_from(typed)
    assert said in refused.value.messages[0]


def test_a_hindi_league_counts_in_rupees_unless_it_names_another() -> None:
    assert league_currency(League(language="hi")) == "INR"
    assert league_currency(League(language="hi", currency="GBP")) == "GBP"
    assert league_currency(League(language="en", currency="INR")) == "INR"
    # English is spoken in too many countries to guess: no currency named.
    assert league_currency(League(language="en")) == ""
    assert league_currency(League()) == ""
    assert league_currency(None) == ""


def test_a_currency_is_named_in_the_pages_language() -> None:
    with translation.override("en"):
        assert currency_label("INR") == "₹ Indian Rupee (INR)"
        assert currency_label("CHF") == "Swiss Franc (CHF)"
    with translation.override("hi"):
        assert currency_label("INR") == "₹ भारतीय रुपया (INR)"
