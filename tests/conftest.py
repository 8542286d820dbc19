"""Fixtures shared by every test package (rules, web, e2e). Keep this small."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    # The production hasher is slow on purpose; tests only need it to round-trip.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    # Counts kept in the cache (the sign-up limit) start from zero in every test, as
    # the database does. Only the in-process cache: never flush a Redis named by
    # REDIS_URL, which may be somebody's real one.
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


@pytest.fixture
def password() -> str:
    return "correct-horse-battery-staple"


@pytest.fixture
def user(db, password: str) -> User:
    return User.objects.create_user(username="asha", password=password)
