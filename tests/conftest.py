"""Fixtures shared by every test package (rules, web, e2e). Keep this small."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from hypothesis import settings as hypothesis_settings

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
