"""The language tests' world: the security tests' (tests/support/world.py), built once
per module, whose pages are every page of the access matrix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.world import World, kept_world


@pytest.fixture(scope="module")
def _module_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    with kept_world(django_db_blocker) as built:
        yield built


@pytest.fixture
def world(_module_world: World, db) -> World:
    return _module_world
