"""Fixtures that test modules of several directories share (a pytest plugin that
tests/conftest.py loads): a league's export, and a signed-in stranger."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import League
from games.transfer.league_export import export_league
from tests.support.league_files import build_league, wipe


@pytest.fixture
def league(user: User) -> League:
    return build_league(user)


@pytest.fixture
def exported(league: League) -> dict:
    return export_league(league)


@pytest.fixture
def moved(exported: dict) -> dict:
    """The export, with the league gone from this database (a move to a new one)."""
    wipe()
    return exported


@pytest.fixture
def stranger(client: Client) -> Client:
    client.force_login(User.objects.create_user(username="zed", password="x"))
    return client
