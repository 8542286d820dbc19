"""A session's history of round changes (games/services/round_history.py), folded as
the score table is."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import RoundChange
from games.services import round_history
from games.services.scoreboard import fold_start
from tests.support.builders import make_session

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("count", [0, 1, 10, 11, 25])
def test_the_history_shows_exactly_the_changes_its_fold_counts(user: User, count: int) -> None:
    """changes_of picks its rows in the query, fold_start says what they are: for any
    ``?from=`` the two agree (the rows are changes first to last, newest first)."""
    session = make_session(user, ceiling=None)
    RoundChange.objects.bulk_create(
        RoundChange(session=session, number=n, action=RoundChange.Action.CREATED)
        for n in range(1, count + 1)
    )
    for first in (None, -1, 0, 1, 2, count - 10, count - 9, count, count + 1, 10**9):
        fold = round_history.changes_of(session, first=first)
        assert [change.number for change in fold.rows] == list(
            range(fold.last, fold.first - 1, -1)
        ), first
        start, pinned = fold_start(count, latest=round_history.LATEST_CHANGES, first=first)
        assert (fold.first, fold.pinned, fold.last) == (start, pinned, count), first
