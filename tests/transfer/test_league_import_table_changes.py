"""A session whose table changed between rounds, moved by league file: a rejoin the
rules no longer allow (an earlier round edited since) comes back kept and ignored, as
its page ignored it, so the imported session counts what the original counted."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, League, Membership
from games.services.scoreboard import load_scoreboard
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import import_league
from tests.support.builders import edit
from tests.support.club import FIRST, MAR, WIN
from tests.support.league_files import rejoin_session, wipe

pytestmark = pytest.mark.django_db


def club(user: User) -> League:
    league = League.objects.create(name="Friday club", slug="club", preset="13-pool-101")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    return league


def table_of(session: GameSession) -> dict:
    """What the session's page shows of its table: every column's total and standing,
    each round's totals, and the warnings above the table."""
    board = load_scoreboard(session)
    return {
        "columns": [
            (c.name, c.total, c.eliminated_in, c.winner, c.left_after, c.joined_after)
            for c in board.columns
        ],
        "lines": [line.totals for line in board.state.lines],
        "finished": board.finished,
        "warnings": board.warnings,
    }


def test_a_rejoin_its_page_ignores_comes_back_ignored(user: User) -> None:
    session = rejoin_session(user, club(user), MAR)
    # Round 2 edited since: Ben no longer passes 101 in it, so his rejoin after it
    # breaks the rules, and the page counts the rounds without it.
    edit(session.rounds.get(number=2), "7C", {"Asha": WIN, "Ben": FIRST, "Chen": FIRST})
    before = table_of(session)
    assert any("Ben's rejoin after round 2 is ignored" in line for line in before["warnings"])
    text = dumps(export_league(session.league))
    wipe()

    imported = import_league(text).league.sessions.get()

    assert table_of(imported) == before
    assert list(imported.rejoins.values_list("seat__player__name", "after_round")) == [("Ben", 2)]
