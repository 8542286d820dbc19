"""A league's language and currency, on its house rules page: owners pick the
language its pages open in and name its money's currency by its code or its sign;
anything else is refused beside the field, with what was typed kept."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import League
from games.services.leagues import create_league
from tests.support.builders import league_form_data, rules_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Tuesday Club", preset="21-points", overrides={})


def field_of(page: str, name: str) -> str:
    """The page from a field's input on to the end of its list of errors."""
    field = page[page.index(f'name="{name}"') :]
    return field[: field.index("</ul>") + 5] if "</ul>" in field else field


def test_an_owner_saves_the_leagues_language_and_currency(scorer: Client, club: League) -> None:
    response = scorer.post(rules_url(club), league_form_data(language="hi", currency="inr"))

    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.language, club.currency) == ("hi", "INR")
    page = scorer.get(rules_url(club)).content.decode()
    assert '<option value="hi" selected>हिन्दी</option>' in page
    assert 'value="INR"' in page[page.index('name="currency"') :][:300]


def test_a_currency_is_picked_by_its_sign(scorer: Client, club: League) -> None:
    assert scorer.post(rules_url(club), league_form_data(currency="£")).status_code == 302

    club.refresh_from_db()
    assert club.currency == "GBP"


def test_a_league_starts_with_the_language_and_currency_picked(scorer: Client) -> None:
    data = league_form_data(language="en", currency="EUR")

    assert scorer.post(reverse("games:league_new"), data).status_code == 302
    league = League.objects.get()
    assert (league.language, league.currency) == ("en", "EUR")


def test_empty_follows_the_browser_and_the_languages_currency(scorer: Client, club: League) -> None:
    club.language, club.currency = "hi", "GBP"
    club.save()

    assert scorer.post(rules_url(club), league_form_data()).status_code == 302

    club.refresh_from_db()
    assert (club.language, club.currency) == ("", "")


def test_a_currency_that_is_not_one_is_refused_beside_the_field(
    scorer: Client, club: League
) -> None:
    response = scorer.post(rules_url(club), league_form_data(currency="rupees", language="hi"))

    assert response.status_code == 422
    said = (
        "“rupees” is not a currency code. Type its three letters (ISO 4217), such as "
        "INR, GBP or USD, or leave it empty for none."
    )
    assert response.context_data["form"].errors["currency"] == [said]
    field = field_of(response.content.decode(), "currency")
    assert 'aria-invalid="true"' in field[: field.index(">")]
    assert 'value="rupees"' in field  # kept as typed, to correct
    assert said in html.unescape(field)
    club.refresh_from_db()
    assert (club.language, club.currency) == ("", "")


def test_a_sign_several_currencies_share_asks_for_the_code(scorer: Client, club: League) -> None:
    response = scorer.post(rules_url(club), league_form_data(currency="$"))

    assert response.status_code == 422
    assert response.context_data["form"].errors["currency"] == [
        "“$” is written for several currencies: type the code of yours, "
        "such as USD, AUD, CAD or SGD."
    ]


def test_a_language_the_site_does_not_have_is_refused(scorer: Client, club: League) -> None:
    response = scorer.post(rules_url(club), league_form_data(language="ta"))

    assert response.status_code == 422
    assert response.context_data["form"].errors["language"] == ["Pick a language from the list."]


def test_the_field_suggests_currencies_by_sign_and_name(scorer: Client, club: League) -> None:
    page = scorer.get(rules_url(club)).content.decode()

    assert 'list="currencies"' in page
    assert '<option value="INR">₹ Indian Rupee (INR)</option>' in page
    assert '<option value="GBP">£ British Pound (GBP)</option>' in page
    assert '<option value="" selected>Browser&#x27;s language</option>' in page


def test_a_viewer_sees_the_language_and_currency_without_changing_them(
    client: Client, club: League, password: str
) -> None:
    club.language, club.currency = "hi", "INR"
    club.save()
    viewer = User.objects.create_user(username="ben", password=password)
    club.memberships.create(user=viewer, role="viewer")
    client.force_login(viewer)

    page = client.get(rules_url(club)).content.decode()

    assert 'value="INR"' in field_of(page, "currency")
    assert "disabled" in field_of(page, "currency")[:300]
    assert "disabled" in field_of(page, "language")[:100]
