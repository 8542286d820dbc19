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
from tests.support.world import World, kept_world

# Fixtures that several directories share beyond the few below.
pytest_plugins = ["tests.support.fixtures"]

# Property-based and fuzz tests: few examples in `make test`, CI's full numbers under
# HYPOTHESIS_PROFILE=ci or CI=true (tests/support/profiles.py).
load_profile()


def pytest_configure(config: pytest.Config) -> None:
    # The pages' and the scripts' translations come from the compiled catalogues,
    # which `make test` builds; a run of pytest alone builds them here when a
    # catalogue changed since, once, before the test processes start (they only read
    # them).
    if not hasattr(config, "workerinput"):
        from django.conf import settings
        from django.core.management import call_command

        from scorekeeper import catalogues

        locale = settings.BASE_DIR / "locale"
        if catalogues.needs_compiling(locale, catalogues.scripts_catalogues()):
            call_command("compile_catalogues", verbosity=0)


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
def _fresh_cache(monkeypatch) -> None:
    # Counts kept in the cache (the sign-up limit) start from zero in every test, as
    # the database does. Only the in-process cache: never flush a Redis named by
    # REDIS_URL, which may be somebody's real one.
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()
    # The live cache's epoch is read from the database, rolled back after each test:
    # each test reads it afresh, and once (a process reads it once a second, and a
    # slow machine would add that query between two polls a test expects the cache
    # alone to answer; tests/app/test_workers.py shows the reads between processes).
    from games import live

    live.EPOCH.forget()
    monkeypatch.setattr(live, "EPOCH_SECONDS", 3600)


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


# A browser test waits on Chromium and on the live server, two more processes that a
# neighbour on this shared machine can starve past any wait: one such test once failed
# a CI run of an otherwise green suite. So a browser test that fails is run once more
# (pytest-rerunfailures) and fails the run only if it fails again. The other tests,
# with nothing of that kind to wait on, are never rerun. A rerun is not hidden: the
# summary counts it, and names it with the error it first met (below), to look into.
BROWSER_TEST_RERUNS = 1
_reruns: list[pytest.TestReport] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_TEST_RERUNS))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":
        _reruns.append(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for report in _reruns:
        terminalreporter.write_sep("_", f"RERUN {report.nodeid}: its first try failed")
        terminalreporter.write_line(report.longreprtext)


# The world of the security tests and of the pseudo-locale's pages
# (tests/support/world.py): every role and link of two leagues, built once per module.
@pytest.fixture(scope="module")
def _module_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    with kept_world(django_db_blocker) as built:
        yield built


@pytest.fixture
def world(_module_world: World, db) -> World:
    return _module_world
