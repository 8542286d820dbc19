"""How a figure reads in each language (games/figures.py): digits grouped in
thousands in English and in lakhs in Hindi and Indian English, a loss with a true
minus sign, money with its currency's sign where the language puts it, a day in the
language's own words."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import translation

from games import figures

MINUS = "\u2212"
NO_BREAK = "\u00a0"


def test_english_groups_digits_in_thousands() -> None:
    with translation.override("en"):
        assert figures.points(1234567) == "1,234,567"
        assert figures.points(-1234567) == f"{MINUS}1,234,567"
        assert figures.signed(1250) == "+1,250"
        assert figures.fixed(-1234.56) == "-1,234.6"  # points() makes its minus sign
        assert figures.rating(-1234.56) == f"{MINUS}1,234.6"


@pytest.mark.parametrize("language", ["hi", "en-in"])
def test_hindi_and_indian_english_group_in_lakhs(language: str) -> None:
    with translation.override(language):
        assert figures.points(1234567) == "12,34,567"
        assert figures.points(100000) == "1,00,000"
        assert figures.points(-1234567) == f"{MINUS}12,34,567"
        assert figures.signed(-123456789) == f"{MINUS}12,34,56,789"
        assert figures.signed(1000) == "+1,000"
        assert figures.fixed(1234567.25, 2) == "12,34,567.25"


@pytest.mark.parametrize("language", ["en", "hi"])
def test_scores_below_a_thousand_read_as_they_always_did(language: str) -> None:
    with translation.override(language):
        assert [figures.points(v) for v in (0, 45, -92, 999)] == ["0", "45", f"{MINUS}92", "999"]
        assert [figures.signed(v) for v in (12, -5, 0)] == ["+12", f"{MINUS}5", "0"]
        assert figures.points(None) == "–"
        # A line of the rules' words keeps its figures as written, signs made minus.
        assert figures.points("value points exchanged: -10") == (
            f"value points exchanged: {MINUS}10"
        )


def test_money_carries_its_currency_as_the_language_places_it() -> None:
    lakh = Decimal("100000.00")
    with translation.override("hi"):
        assert figures.money(lakh, "INR") == "₹1,00,000.00"
        assert figures.money(lakh, "GBP") == "£1,00,000.00"
        assert figures.money(lakh) == "1,00,000.00"  # no currency named: the figure
    with translation.override("en"):
        assert figures.money(lakh, "INR") == "₹100,000.00"
        assert figures.money(Decimal("12.5"), "GBP") == "£12.50"
        assert figures.money(Decimal("9.20")) == "9.20"
        # A currency whose sign is its code stands a space apart, on the same line.
        assert figures.money(Decimal("12.50"), "CHF") == f"CHF{NO_BREAK}12.50"
        # Yen has no cents: an amount without any is written without them.
        assert figures.money(Decimal("100.00"), "JPY") == "¥100"
        assert figures.money(None, "INR") == "–"


def test_money_won_and_lost_keeps_its_sign_before_the_currency() -> None:
    with translation.override("hi"):
        assert figures.money(Decimal("610000"), "INR", sign=True) == "+₹6,10,000.00"
        assert figures.money(Decimal("-3"), "INR", sign=True) == f"{MINUS}₹3.00"
        assert figures.money(Decimal("0"), "INR", sign=True) == "₹0.00"
    with translation.override("en"):
        assert figures.money(Decimal("-46"), "", sign=True) == f"{MINUS}46.00"
        assert figures.money(Decimal("-46"), "GBP") == f"{MINUS}£46.00"


def test_a_day_is_written_in_the_languages_own_words() -> None:
    day = datetime.date(2024, 1, 5)
    with translation.override("en"):
        assert figures.day(day) == "5 Jan 2024"  # as the app always wrote it
    with translation.override("hi"):
        assert figures.day(day) == "5 जनवरी 2024"


def test_a_language_cldr_does_not_know_writes_as_english() -> None:
    with translation.override("xx"):
        assert figures.points(1234567) == "1,234,567"
