"""The session page's money and days in the league's currency and language: who
pays whom and the pot with the currency's sign, grouped as the language groups
digits, on the session page, its share page and its table view."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import GameSession
from games.services.leagues import create_league
from tests.support.builders import make_session, play, pool_with_chen_out
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db

HINDI = {"HTTP_ACCEPT_LANGUAGE": "hi"}
DIWALI = datetime.date(2025, 10, 20)


def hindi_night(user: User, **stakes: Decimal) -> GameSession:
    club = create_league(user, name="Club", preset="21-points", overrides={}, language="hi")
    session = make_session(user, name="Diwali", played_on=DIWALI, league=club, **stakes)
    play(session, "8S", ROUND_1)
    return session


def test_a_hindi_leagues_session_settles_up_in_rupees_grouped_in_lakhs(
    scorer: Client, user: User
) -> None:
    session = hindi_night(user, money_per_point=Decimal("5000"))

    with translation.override("hi"):
        page = scorer.get(reverse("games:session_detail", args=[session.pk]), **HINDI)

    html = page.content.decode()
    assert "₹5,000.00 प्रति पॉइंट" in html
    assert (
        '<strong>Ben</strong>, <strong>Asha</strong> को <span class="amount">₹4,60,000.00</span> देंगे'
        in html
    )


def test_the_share_page_writes_the_money_and_the_day_in_hindi(client: Client, user: User) -> None:
    session = hindi_night(user, money_per_point=Decimal("5000"))

    with translation.override("hi"):
        page = client.get(reverse("games:shared_session", args=[session.share_token]), **HINDI)

    html = page.content.decode()
    assert "20 अक्टूबर 2025" in html
    assert '<span class="amount">₹1,50,000.00</span>' in html


def test_an_english_page_keeps_its_day_as_it_always_wrote_it(client: Client, user: User) -> None:
    session = make_session(user, name="Diwali", played_on=DIWALI)
    play(session, "8S", ROUND_1)

    page = client.get(reverse("games:shared_session", args=[session.share_token]))

    assert "· 20 Oct 2025" in page.content.decode()


def test_a_pools_pot_is_in_the_currency_the_league_picked(scorer: Client, user: User) -> None:
    club = create_league(user, name="Club", preset="13-pool-101", overrides={}, currency="GBP")
    pool = pool_with_chen_out(user, league=club, buy_in=Decimal("1500"))

    html = scorer.get(reverse("games:session_detail", args=[pool.pk])).content.decode()

    assert '<h2 id="money-title">The pot: £4,500.00</h2>' in html
    shares = re.findall(r'<span class="amount">([^<]*)</span>', html)
    assert shares and all(share.startswith("£") for share in shares)
