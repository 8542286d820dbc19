"""The home page (games/views/sessions.py): htmx and the CSRF header, the sessions a
user can see, and signing in or up for visitors."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_page_renders_with_htmx_and_csrf_header(client: Client) -> None:
    response = client.get(reverse("games:home"))

    assert response.status_code == 200
    assert "games/home.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert "Keep score for rummy" in html
    # htmx comes from django-htmx's static files, never a CDN.
    assert "/static/django_htmx/htmx" in html
    assert 'hx-headers=\'{"x-csrftoken": "' in html
    assert 'name="viewport"' in html


def test_home_page_offers_sign_in_to_anonymous_visitors(client: Client) -> None:
    html = client.get(reverse("games:home")).content.decode()

    assert reverse("login") in html
    assert "Sign out" not in html


def test_home_rejects_post(client: Client) -> None:
    assert client.post(reverse("games:home")).status_code == 405


def test_home_lists_the_sessions_a_user_can_see(client: Client, user) -> None:
    from django.contrib.auth.models import User

    from games.services.sessions import create_session

    mine = create_session(
        user, preset="13-pool-101", overrides={}, players=["Asha", "Ben"], name="Friday"
    )
    create_session(
        User.objects.create_user("ben"), preset="21-points", overrides={}, players=["C", "D"]
    )
    client.force_login(user)

    response = client.get(reverse("games:home"))

    assert [s.pk for s in response.context_data["sessions"]] == [mine.pk]
    html = response.content.decode()
    assert "Friday" in html and "Asha, Ben" in html and "13-card pool 101" in html
    assert reverse("games:session_new") in html


def test_home_offers_sign_up_to_anonymous_visitors(client: Client) -> None:
    assert reverse("games:signup") in client.get(reverse("games:home")).content.decode()


def test_two_evenings_of_a_club_read_apart_on_the_home_page(client: Client, user) -> None:
    """Each session says its game, day and league: two evenings with the same players
    never read as the same card, and none is named by a database id."""
    from datetime import date

    from django.utils import timezone

    from games.services.leagues import create_league
    from games.services.sessions import create_session

    club = create_league(user, name="Tuesday Club", preset="21-points", overrides={})
    for day in (date(2026, 11, 17), date(2026, 11, 24)):
        session = create_session(
            user, preset="21-points", overrides={}, players=["Asha", "Ben"], league=club
        )
        session.played_on = day
        session.save()
    create_session(user, preset="13-points", overrides={}, players=["Asha", "Ben"], name="Friday")
    client.force_login(user)

    html = client.get(reverse("games:home")).content.decode()

    assert "21-card points, 24 Nov 2026" in html and "21-card points, 17 Nov 2026" in html
    assert html.count("Tuesday Club · Asha, Ben") == 2
    today = timezone.localdate()
    assert f"13-card points · {today.day} {today:%b %Y} · Asha, Ben" in html  # named: its day too
    assert "Session " not in html
