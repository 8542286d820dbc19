"""Fixtures that test modules of several directories share (a pytest plugin that
tests/conftest.py loads): a league with everything an export holds, its export,
the export moved to an empty database (also of the league whose rounds were edited,
deleted and entered in table mode, and of one whose tables changed between rounds), a
signed-in stranger, and a count of the sessions' replays."""

from __future__ import annotations

import copy

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client, override_settings

from games.models import League
from games.services import scoreboard
from games.transfer.league_export import export_league
from tests.support.league_files import (
    build_changing_tables,
    build_eventful_league,
    build_league,
    wipe,
)
from tests.support.world import FAST_HASHERS


@pytest.fixture
def league(user: User) -> League:
    return build_league(user)


@pytest.fixture
def exported(league: League) -> dict:
    return export_league(league)


def _exported_once(django_db_blocker, build) -> dict:
    """The export of the league ``build`` makes (its owner the `user` fixture's
    "asha"), in a transaction that is then rolled back."""
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        transaction.atomic(),
    ):
        owner = User.objects.create_user(username="asha", password="x")
        data = export_league(build(owner))
        transaction.set_rollback(True)
    return data


@pytest.fixture(scope="session")
def _league_file(django_db_setup, django_db_blocker) -> dict:
    """The export of `league`, built once for the whole run: building the league is
    the dearest step of the import tests, and each of them starts from the file."""
    return _exported_once(django_db_blocker, build_league)


@pytest.fixture(scope="session")
def _eventful_file(django_db_setup, django_db_blocker) -> dict:
    return _exported_once(django_db_blocker, build_eventful_league)


@pytest.fixture
def moved(_league_file: dict, db) -> dict:
    """The export, with the league gone from this database (a move to a new one): a
    copy of its own for each test, which may change it."""
    wipe()
    return copy.deepcopy(_league_file)


@pytest.fixture
def moved_eventful(_eventful_file: dict, db) -> dict:
    """As `moved`, the export of `build_eventful_league`: its history holds edits, a
    deletion, table mode's hands and an author since gone."""
    wipe()
    return copy.deepcopy(_eventful_file)


@pytest.fixture(scope="session")
def _changing_tables_file(django_db_setup, django_db_blocker) -> dict:
    return _exported_once(django_db_blocker, build_changing_tables)


@pytest.fixture
def moved_changing_tables(_changing_tables_file: dict, db) -> dict:
    """As `moved`, the export of `build_changing_tables`: players join and leave."""
    wipe()
    return copy.deepcopy(_changing_tables_file)


@pytest.fixture
def stranger(client: Client) -> Client:
    client.force_login(User.objects.create_user(username="zed", password="x"))
    return client


@pytest.fixture
def counted_replays(monkeypatch) -> list[int]:
    """Each read-and-replay of a session's rounds (scoreboard._load_scoreboard), by
    session id."""
    calls: list[int] = []
    real = scoreboard._load_scoreboard

    def counting(session):
        calls.append(session.pk)
        return real(session)

    monkeypatch.setattr(scoreboard, "_load_scoreboard", counting)
    return calls
