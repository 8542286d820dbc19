"""Sign-ups are limited per client address: a script cannot make
accounts by the hundred. The count lives in Django's cache, Redis in production, so
every gunicorn worker sees the same count."""

from __future__ import annotations

import secrets
import socket

import pytest
from django.contrib.auth.models import User
from django.core.cache.backends.redis import RedisCache
from django.test import Client, override_settings

from scorekeeper import security

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"
REDIS_URL = "redis://127.0.0.1:6379/0"


def sign_up(name: str, address: str, **extra: str):
    password = "a-long-pass-phrase-" + name
    return Client().post(
        SIGNUP,
        {"username": name, "password1": password, "password2": password},
        REMOTE_ADDR=address,
        **extra,
    )


@override_settings(SIGNUP_LIMIT=3, SIGNUP_WINDOW_MINUTES=60)
def test_after_the_limit_an_address_is_told_to_wait_and_no_account_is_made():
    for n in range(3):
        assert sign_up(f"player{n}", "198.51.100.5").status_code == 302

    refused = sign_up("player3", "198.51.100.5")

    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many accounts were made from your address" in page
    assert "60 minutes" in page
    assert not User.objects.filter(username="player3").exists()
    # Another address is not affected.
    assert sign_up("player4", "198.51.100.6").status_code == 302


@override_settings(SIGNUP_LIMIT=2)
def test_a_form_with_errors_does_not_use_up_the_limit():
    client = Client()
    for _ in range(3):
        response = client.post(
            SIGNUP,
            {"username": "ben", "password1": "abc", "password2": "abd"},
            REMOTE_ADDR="198.51.100.8",
        )
        assert response.status_code == 422
    assert sign_up("ben", "198.51.100.8").status_code == 302


@override_settings(SIGNUP_LIMIT=2, BEHIND_PROXY=True)
def test_behind_the_proxy_the_limit_is_per_client_not_per_proxy():
    def through_proxy(name: str, client_address: str):
        return sign_up(name, "127.0.0.1", HTTP_X_FORWARDED_FOR=client_address)

    assert through_proxy("a1", "203.0.113.1").status_code == 302
    assert through_proxy("a2", "203.0.113.1").status_code == 302
    assert through_proxy("a3", "203.0.113.1").status_code == 429
    assert through_proxy("b1", "203.0.113.2").status_code == 302


def _redis_reachable() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _redis_reachable(), reason="no Redis at 127.0.0.1:6379")
def test_two_workers_share_one_count_through_redis():
    # Two cache clients with their own connections, as two gunicorn workers have; a
    # prefix of this run's own keeps other runs' counts apart.
    prefix = f"test-{secrets.token_hex(4)}"
    worker_a = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})
    worker_b = RedisCache(REDIS_URL, {"KEY_PREFIX": prefix})
    try:
        with override_settings(SIGNUP_LIMIT=3):
            assert security.take_signup("198.51.100.9", cache=worker_a)
            assert security.take_signup("198.51.100.9", cache=worker_b)
            assert security.take_signup("198.51.100.9", cache=worker_a)
            # The fourth is refused whichever worker it reaches.
            assert not security.take_signup("198.51.100.9", cache=worker_b)
            assert not security.take_signup("198.51.100.9", cache=worker_a)
    finally:
        worker_a.delete(security.signup_key("198.51.100.9"))
        worker_a.close()
        worker_b.close()


@pytest.mark.skipif(not _redis_reachable(), reason="no Redis at 127.0.0.1:6379")
def test_the_sign_up_page_counts_in_redis_when_configured():
    redis = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"test-{secrets.token_hex(4)}",
        }
    }
    with override_settings(CACHES=redis, SIGNUP_LIMIT=1):
        try:
            assert sign_up("r1", "198.51.100.10").status_code == 302
            assert sign_up("r2", "198.51.100.10").status_code == 429
        finally:
            from django.core.cache import cache

            cache.delete(security.signup_key("198.51.100.10"))
