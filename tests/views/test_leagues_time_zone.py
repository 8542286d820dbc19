"""A league's time zone, on its house rules page: owners pick one of the tz database's
zones (or the site's), and a name that is not one is refused beside the field."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import League
from games.services.leagues import create_league
from games.zones import league_zone
from tests.support.builders import league_form_data, rules_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Tuesday Club", preset="21-points", overrides={})


def test_an_owner_sets_the_leagues_time_zone(scorer: Client, club: League) -> None:
    response = scorer.post(rules_url(club), league_form_data(time_zone="Asia/Kolkata"))

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.time_zone == "Asia/Kolkata"
    assert league_zone(club).key == "Asia/Kolkata"
    page = scorer.get(rules_url(club)).content.decode()
    assert '<option value="Asia/Kolkata" selected>Asia/Kolkata</option>' in page


def test_a_league_starts_in_the_zone_picked_on_the_form(scorer: Client) -> None:
    data = league_form_data(time_zone="America/Port_of_Spain")

    assert scorer.post(reverse("games:league_new"), data).status_code == 302
    assert League.objects.get().time_zone == "America/Port_of_Spain"


def test_a_zone_that_is_not_one_is_refused_beside_the_field(scorer: Client, club: League) -> None:
    response = scorer.post(rules_url(club), league_form_data(time_zone="Asia/Bangalore"))

    assert response.status_code == 422
    said = (
        "“Asia/Bangalore” is not a time zone. Pick one from the list, "
        "such as Asia/Kolkata or Europe/London."
    )
    assert response.context_data["form"].errors["time_zone"] == [said]
    page = response.content.decode()
    # Under the field itself, which says it is wrong.
    field = page[page.index('<select name="time_zone"') :]
    assert 'aria-invalid="true"' in field[: field.index(">")]
    assert said in field[: field.index("</ul>")]
    club.refresh_from_db()
    assert club.time_zone == ""


def test_the_list_offers_the_sites_zone_first_then_zones_by_area(
    settings, scorer: Client, club: League
) -> None:
    settings.TIME_ZONE = "Europe/London"

    page = scorer.get(rules_url(club)).content.decode()

    select = page[page.index('<select name="time_zone"') :]
    select = select[: select.index("</select>")]
    options = [
        (value, html.unescape(label))
        for value, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)
    ]
    assert options[0] == ("", "The site's time zone (Europe/London)")
    assert options[1] == ("UTC", "UTC")
    assert '<optgroup label="Asia">' in select
    assert ("America/Port_of_Spain", "America/Port of Spain") in options
    assert "localtime" not in dict(options)  # the machine's own, no place's
    assert "selected>The site" in select  # the league picked none


def test_picking_the_sites_zone_again_follows_it(scorer: Client, user: User) -> None:
    club = create_league(
        user, name="Tuesday Club", preset="21-points", overrides={}, time_zone="Asia/Tokyo"
    )

    scorer.post(rules_url(club), league_form_data(time_zone=""))

    club.refresh_from_db()
    assert club.time_zone == "" and league_zone(club).key == "UTC"


def test_members_see_the_zone_but_only_owners_change_it(client: Client, user: User) -> None:
    club = create_league(
        user, name="Tuesday Club", preset="21-points", overrides={}, time_zone="Asia/Tokyo"
    )
    ben = User.objects.create_user("ben", password="x")
    club.memberships.create(user=ben, role="scorer")
    client.force_login(ben)

    page = client.get(rules_url(club)).content.decode()

    select = page[page.index('<select name="time_zone"') :]
    assert "disabled" in select[: select.index(">")]
    assert '<option value="Asia/Tokyo" selected>' in select
    assert client.post(rules_url(club), league_form_data(time_zone="UTC")).status_code == 403
