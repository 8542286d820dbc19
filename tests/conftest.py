"""Fixtures shared by every test package (rules, web, e2e). Keep this small."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    # The production hasher is slow on purpose; tests only need it to round-trip.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def password() -> str:
    return "correct-horse-battery-staple"


@pytest.fixture
def user(db, password: str) -> User:
    return User.objects.create_user(username="asha", password=password)
