"""The cache (Redis in production) is down: signed-in pages still work from the
database, live polls take the database path, and a sign-up says to try again in a
minute instead of going uncounted. Never a server error (the test client re-raises
any exception a view lets escape)."""

from __future__ import annotations

import socket

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from games.models import GameSession
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


def _closed_port() -> int:
    """A local port nothing listens on: bound, then released."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def redis_down():
    location = f"redis://127.0.0.1:{_closed_port()}/0"
    caches = {
        "default": {
            "BACKEND": "scorekeeper.cache.RedisCache",  # production's, as settings.py has it
            "LOCATION": location,
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    with override_settings(CACHES=caches):
        yield


@pytest.fixture
def session(user: User) -> GameSession:
    table = make_session(user, name="Friday")
    play(table, "8S", ROUND_1)
    return table


def test_signed_in_pages_work_from_the_database_alone(
    redis_down, user: User, session: GameSession
) -> None:
    client = Client()
    client.force_login(user)  # the sign-in is stored; its cache copy is passed over

    assert client.get(reverse("games:home")).status_code == 200
    page = client.get(reverse("games:session_detail", args=[session.pk]))
    assert page.status_code == 200
    assert "Friday" in page.content.decode()
    poll = reverse("games:session_scoreboard", args=[session.pk])
    assert client.get(poll, {"v": "stale"}).status_code == 200
    client.logout()
    assert client.get(reverse("games:session_detail", args=[session.pk])).status_code == 302


def test_a_round_saves_and_the_share_link_polls_without_the_cache(
    redis_down, user: User, session: GameSession
) -> None:
    shared = reverse("games:shared_scoreboard", args=[session.share_token])
    assert Client().get(shared, {"v": "stale"}).status_code == 200

    play(session, "8S", ROUND_1)  # the stamp is not cached: logged, not raised

    assert session.rounds.count() == 2


def test_a_sign_up_waits_for_the_cache_and_says_so(redis_down) -> None:
    password = "a-long-pass-phrase-42"
    response = Client().post(
        "/accounts/signup/", {"username": "newcomer", "password1": password, "password2": password}
    )

    assert response.status_code == 503
    assert "try again in a minute" in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()
