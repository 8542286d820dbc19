"""Sign-in attempts are rate-limited (django-axes): repeated failures for one
username from one address lock that pair out for a while; others are unaffected."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def attempt(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_five_failures_lock_out_that_username_from_that_address(user: User, password: str):
    client = Client()
    for _ in range(4):
        assert attempt(client, user.username, "wrong").status_code == 422  # form error
    locked = attempt(client, user.username, "wrong")
    assert locked.status_code == 429
    assert "Too many sign-in attempts" in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    # Even the right password is refused during the cool-off.
    assert attempt(client, user.username, password).status_code == 429
    # The same member from another address, and another member here, still sign in.
    assert attempt(Client(), user.username, password, ip="10.0.0.2").status_code == 302
    User.objects.create_user("ben", password="another-long-password")
    assert attempt(Client(), "ben", "another-long-password").status_code == 302


def test_a_success_resets_the_count(user: User, password: str):
    client = Client()
    for _ in range(4):
        attempt(client, user.username, "wrong")
    assert attempt(client, user.username, password).status_code == 302
    for _ in range(4):
        assert attempt(Client(), user.username, "wrong").status_code == 422


@override_settings(BEHIND_PROXY=True)
def test_behind_the_proxy_the_address_it_saw_is_used(user: User):
    client = Client()
    for n in range(5):
        # A forged first hop changes every time; the proxy's own last hop does not.
        client.post(
            LOGIN,
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"6.6.6.{n}, 203.0.113.9",
        )
    response = client.post(
        LOGIN,
        {"username": user.username, "password": "wrong"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9",
    )
    assert response.status_code == 429


def test_the_admin_sign_in_is_limited_too(user: User):
    client = Client()
    for _ in range(5):
        client.post(
            "/admin/login/", {"username": user.username, "password": "x"}, REMOTE_ADDR="10.9.9.9"
        )
    response = client.post(
        "/admin/login/", {"username": user.username, "password": "x"}, REMOTE_ADDR="10.9.9.9"
    )
    assert response.status_code == 429


# --- Behind a reverse proxy: the client's address, not the proxy's ----------------------

PROXY = "127.0.0.1"  # the reverse proxy runs on the app's host (DJANGO_PROXY_IPS default)


def via_proxy(client: Client, username: str, password: str, client_address: str):
    # A proxy appends the address it saw to whatever X-Forwarded-For the client sent.
    return client.post(
        LOGIN,
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=f"10.1.1.1, {client_address}",
    )


@override_settings(BEHIND_PROXY=True)
def test_behind_the_proxy_a_guesser_does_not_lock_the_member_out(user: User, password: str):
    guesser, member = Client(), Client()
    for _ in range(5):
        via_proxy(guesser, user.username, "wrong", client_address="198.51.100.66")
    assert via_proxy(guesser, user.username, password, "198.51.100.66").status_code == 429

    # The same username from another phone behind the same proxy still signs in.
    assert via_proxy(member, user.username, password, "203.0.113.20").status_code == 302


@override_settings(BEHIND_PROXY=True)
def test_behind_the_proxy_only_the_proxy_may_name_the_client(user: User):
    # A client reaching the app directly (not through the proxy) cannot dodge the
    # lockout by naming a new address of its own in every attempt.
    client = Client()
    for n in range(6):
        response = client.post(
            LOGIN,
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR="198.51.100.77",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    assert response.status_code == 429


def test_without_the_proxy_setting_x_forwarded_for_is_ignored(user: User):
    client = Client()
    for n in range(6):
        response = client.post(
            LOGIN,
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    assert response.status_code == 429
