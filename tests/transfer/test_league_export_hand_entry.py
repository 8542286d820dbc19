"""The house rules on entering hands in the league file (games/transfer/league_export.py):
a club that counts at the table, and a session of it that went back to cards, keep their
choices through an export and an import."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from games.services.leagues import create_league
from games.services.rulesets import ruleset_of
from games.transfer.league_export import export_league
from games.transfer.league_import import import_league
from tests.support.builders import make_session
from tests.support.league_files import wipe

pytestmark = pytest.mark.django_db

COUNTS_TRUSTED = {"hand_entry": "counts_first", "trust_show": True}


def test_counts_first_and_a_trusted_show_come_back_from_the_league_file(user: User) -> None:
    league = create_league(user, name="Tuesdays", preset="21-paplu", overrides=COUNTS_TRUSTED)
    make_session(user, preset="21-paplu", league=league, overrides=COUNTS_TRUSTED, name="Counted")
    make_session(user, preset="21-paplu", league=league, overrides={}, name="By cards")
    data = export_league(league)

    assert data["league"]["overrides"] == COUNTS_TRUSTED
    wipe()
    imported = import_league(json.dumps(data)).league

    assert ruleset_of(imported).hand_entry == "counts_first"
    assert ruleset_of(imported).trust_show is True
    kept = {
        session.name: (ruleset_of(session).hand_entry, ruleset_of(session).trust_show)
        for session in imported.sessions.all()
    }
    assert kept == {"Counted": ("counts_first", True), "By cards": ("cards", False)}
