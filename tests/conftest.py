"""Fixtures shared by every test directory. Keep this small: builders (functions a
test calls) live in tests/support/, never in a conftest or a test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client

from games.models import GameSession
from tests.support.builders import make_session
from tests.support.profiles import load_profile
from tests.support.schema import copy_migrated_schema

# Fixtures that several directories share beyond the few below.
pytest_plugins = ["tests.support.fixtures"]

# Property-based and fuzz tests: few examples in `make test`, CI's full numbers under
# HYPOTHESIS_PROFILE=ci or CI=true (tests/support/profiles.py).
load_profile()


@pytest.fixture(scope="session", autouse=True)
def _migrate_once(request: pytest.FixtureRequest) -> Iterator[None]:
    # Each test process copies in a database migrated once instead of migrating its
    # own (tests/support/schema.py). Autouse: in place before pytest-django's
    # django_db_setup creates the test database.
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    undo = copy_migrated_schema(cache.mkdir("test-schema")) if cache else None
    yield
    if undo:
        undo()


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
