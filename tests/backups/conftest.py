"""Sites built and backed up once a module: building one (a process that migrates
and fills a database) and backing it up take seconds. Each test restores into
databases of its own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.db import connection

from tests.support.whole_site import BackedUp, Postgres, back_up, build, sqlite_url


@pytest.fixture(scope="module")
def sqlite_site(tmp_path_factory: pytest.TempPathFactory) -> BackedUp:
    """The whole site on SQLite, and its backup."""
    folder = tmp_path_factory.mktemp("sqlite-site")
    url = sqlite_url(folder / "site.sqlite3")
    build(url)
    return back_up(url, folder / "backups")


@pytest.fixture(scope="module")
def postgres() -> Postgres:
    if connection.vendor != "postgresql":
        pytest.skip("on PostgreSQL only (make test-pg, CI)")
    return Postgres.of(connection.settings_dict)


@pytest.fixture(scope="module")
def postgres_site(
    postgres: Postgres, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BackedUp]:
    """The whole site on PostgreSQL, in a database of this test process's own, and
    its backup."""
    name = f"sk_backups_site_{os.getpid()}"
    url = postgres.create(name)
    try:
        build(url)
        yield back_up(url, tmp_path_factory.mktemp("postgres-site") / "backups")
    finally:
        postgres.drop(name)


@pytest.fixture
def postgres_target(postgres: Postgres) -> Iterator[str]:
    """An empty PostgreSQL database to restore into, dropped after the test."""
    name = f"sk_backups_restored_{os.getpid()}"
    yield postgres.create(name)
    postgres.drop(name)
