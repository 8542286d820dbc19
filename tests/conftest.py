"""Fixtures shared by every test directory. Keep this small: builders (functions a
test calls) live in tests/support/, never in a conftest or a test module."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client
from hypothesis import settings as hypothesis_settings

from games.models import GameSession
from tests.support.builders import make_session

# Fixtures that several directories share beyond the few below.
pytest_plugins = ["tests.support.fixtures"]

# Property-based tests: few examples by default, so that `make test` stays quick; many
# in CI (CI=true, as CI services set it, or HYPOTHESIS_PROFILE=ci), where the league
# import fuzzing runs 200 files. Tests that name their own number keep it.
hypothesis_settings.register_profile("default", max_examples=20)
hypothesis_settings.register_profile("ci", max_examples=200)
_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _CI else "default")
)


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


@pytest.fixture
def scorer(user: User, client: Client) -> Client:
    """The signed-in client of the user who creates the sessions."""
    client.force_login(user)
    return client


@pytest.fixture
def table(user: User) -> GameSession:
    """A 21-points session for Asha, Ben and Chen (seated in that order), by `user`."""
    return make_session(user, name="Friday")
