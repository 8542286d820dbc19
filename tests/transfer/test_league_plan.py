"""Planning a checked league file (games/transfer/league_plan.py): what the import
will write, every round scored again, read from the file alone."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameSession
from games.transfer.league_plan import plan_league
from games.transfer.league_schema import checked_league_file

pytestmark = pytest.mark.django_db


def test_a_plan_is_made_without_the_database(moved_eventful: dict) -> None:
    with CaptureQueriesContext(connection) as queries:
        plan = plan_league(*checked_league_file(moved_eventful))

    assert len(queries) == 0
    night = plan.sessions[6]
    assert night.columns["name"] == "Long night"
    assert night.columns["status"] == GameSession.Status.ACTIVE
    # Every round scored by the rules service (as the file says: it was checked), every
    # change whole.
    given = [
        [hand["score"] for hand in r["entries"]] for r in moved_eventful["sessions"][6]["rounds"]
    ]
    assert [[entry.result.score for entry in r.entries] for r in night.rounds] == given
    assert [change.action for change in night.changes].count("deleted") == 1
    assert all(change.after is not None for change in night.changes if change.action != "deleted")
    assert plan.claims == {"asha": "Asha", "ben": "Ben"}
