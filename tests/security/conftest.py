"""The security tests' world (tests/support/world.py), built once per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import transaction
from django.test import override_settings

from tests.support.world import FAST_HASHERS, PASSWORD, World, build_world


@pytest.fixture(scope="module")
def _module_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The world, built once per test module inside a transaction that is rolled
    back after the module; each test runs in a savepoint of its own within it (the
    ``db`` fixture), so what one test writes, the next one does not see."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = build_world(PASSWORD)
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)


@pytest.fixture
def world(_module_world: World, db) -> World:
    return _module_world
