"""Money in the league's currency on its pages: the standings' money column, the
league page's stakes and the standings download's heading, in rupees grouped in
lakhs for a Hindi league and in the currency a league picked otherwise."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import League
from games.services.leagues import create_league
from tests.support.builders import finished_session

pytestmark = pytest.mark.django_db

MINUS = "\u2212"
# Hindi pages, however the language is chosen (the league's, or the browser's).
HINDI = {"HTTP_ACCEPT_LANGUAGE": "hi"}


def staked_league(user: User, **league: str) -> League:
    """A league with one finished session at 5,000 a point: Asha +122, Ben −92 and
    Chen −30, so Asha wins 6,10,000 and Ben loses 4,60,000."""
    club = create_league(
        user,
        name="Diwali Club",
        preset="21-points",
        overrides={},
        money_per_point=Decimal("5000"),
        **league,
    )
    finished_session(user, league=club, money_per_point=Decimal("5000"))
    return club


def money_cell(page: str, player: str) -> str:
    row = re.search(rf'<tr data-player="{player}">(.*?)</tr>', page, re.S)
    assert row, f"no row for {player}"
    return re.search(r"<td data-money>(.*?)</td>", row[1], re.S)[1].strip()


def test_a_hindi_leagues_standings_count_in_rupees_grouped_in_lakhs(
    scorer: Client, user: User
) -> None:
    club = staked_league(user, language="hi")

    with translation.override("hi"):
        page = scorer.get(reverse("games:league_standings", args=[club.slug]), **HINDI)

    text = page.content.decode()
    assert money_cell(text, "Asha") == "+₹6,10,000.00"
    assert money_cell(text, "Ben") == f"{MINUS}₹4,60,000.00"
    assert money_cell(text, "Chen") == f"{MINUS}₹1,50,000.00"


def test_a_league_in_english_writes_the_currency_it_picked(scorer: Client, user: User) -> None:
    club = staked_league(user, currency="GBP")

    text = scorer.get(reverse("games:league_standings", args=[club.slug])).content.decode()

    assert money_cell(text, "Asha") == "+£610,000.00"
    assert money_cell(text, "Ben") == f"{MINUS}£460,000.00"


def test_a_league_naming_no_currency_writes_the_figure_alone(scorer: Client, user: User) -> None:
    club = staked_league(user)

    text = scorer.get(reverse("games:league_standings", args=[club.slug])).content.decode()

    assert money_cell(text, "Asha") == "+610,000.00"


def test_the_league_page_says_what_a_point_is_worth_in_its_currency(
    scorer: Client, user: User
) -> None:
    club = staked_league(user, language="hi")

    with translation.override("hi"):
        page = scorer.get(reverse("games:league_detail", args=[club.slug]), **HINDI)

    assert "₹5,000.00 प्रति पॉइंट" in page.content.decode()


def test_the_standings_download_keeps_plain_numbers_and_names_the_currency(
    scorer: Client, user: User
) -> None:
    club = staked_league(user, language="hi")

    with translation.override("hi"):
        response = scorer.get(reverse("games:league_standings_csv", args=[club.slug]), **HINDI)

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = next(row for row in rows if "खिलाड़ी" in row)
    money = header.index("नेट पैसे (INR)")
    asha = next(row for row in rows if row and row[0] == "Asha")
    assert float(asha[money]) == 610000


def test_a_browser_in_indias_english_reads_english_with_lakh_grouping(
    scorer: Client, user: User
) -> None:
    club = staked_league(user, currency="INR")

    page = scorer.get(
        reverse("games:league_detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="en-IN,en;q=0.8"
    )

    html = page.content.decode()
    assert '<html lang="en-in"' in html
    assert "₹5,000.00 a point" in html
    standings = scorer.get(
        reverse("games:league_standings", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="en-IN"
    ).content.decode()
    assert "₹6,10,000.00" in standings and "Player" in standings


def test_a_league_in_indias_english_counts_in_rupees_by_default(scorer: Client, user: User) -> None:
    club = staked_league(user, language="en-in")

    page = scorer.get(reverse("games:league_detail", args=[club.slug]))

    assert "₹5,000.00 a point" in page.content.decode()
