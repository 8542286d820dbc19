"""A session's history of round changes and table changes
(games/services/round_history.py), folded as the score table is."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from games.models import RoundChange, SeatChange
from games.services import round_history
from games.services.scoreboard import fold_start
from games.services.sessions import leave
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1

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
        assert [line.round.number for line in fold.rows] == list(
            range(fold.last, fold.first - 1, -1)
        ), first
        start, pinned = fold_start(count, latest=round_history.LATEST_CHANGES, first=first)
        assert (fold.first, fold.pinned, fold.last) == (start, pinned, count), first


EVENING = datetime.datetime(2024, 6, 7, 19, 0, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("rounds", "table_after"),
    [
        (0, [0, 0]),  # the table's changes alone
        (3, [1, 3]),
        (25, [2, 2, 12, 24, 25]),  # two at once, the latest the very last line
        (25, [0, 1, 2, 3, 4, 5, 6, 7]),  # all before the latest ten
        (40, [19, 20, 21, 30]),
    ],
)
def test_the_tables_changes_stand_in_time_among_the_rounds_and_the_fold_counts_them(
    user: User, rounds: int, table_after: list[int]
) -> None:
    """Each line (a round's change, or one of the table's made after the change of
    round ``table_after[i]``) in time order, folded as one list: for any ``?from=``
    the rows are the lines from the fold's first to its last, newest first."""
    session = make_session(user, ceiling=None)
    minute = datetime.timedelta(minutes=1)
    expected = []  # every line, oldest first: ("round", number) or ("table", index)
    for number in range(1, rounds + 1):
        expected.append(("round", number))
        expected += [("table", i) for i, after in enumerate(table_after) if after == number]
    expected = [("table", i) for i, after in enumerate(table_after) if after == 0] + expected
    times = {line: EVENING + place * minute for place, line in enumerate(expected)}
    RoundChange.objects.bulk_create(
        RoundChange(
            session=session,
            number=number,
            action=RoundChange.Action.CREATED,
            changed_at=times["round", number],
        )
        for number in range(1, rounds + 1)
    )
    for index in range(len(table_after)):
        made = SeatChange.objects.create(
            session=session, kind=SeatChange.Kind.SEATING, after_round=index + 1
        )
        SeatChange.objects.filter(pk=made.pk).update(created_at=times["table", index])
    total = len(expected)

    for first in (None, 0, 1, 2, 5, total - 10, total - 9, total, total + 1):
        fold = round_history.changes_of(session, first=first)

        start, pinned = fold_start(total, latest=round_history.LATEST_CHANGES, first=first)
        assert (fold.first, fold.pinned, fold.last) == (start, pinned, total), first
        shown = [
            ("round", line.round.number) if line.round else ("table", line.table.after_round - 1)
            for line in fold.rows
        ]
        assert shown == expected[start - 1 :][::-1], first


def test_a_rounds_own_history_leaves_the_table_out(user: User) -> None:
    session = make_session(user)
    played = play(session, "8S", ROUND_1)
    leave(session, session.seats.get(player__name="Chen"), user)

    whole = round_history.changes_of(session).rows
    own = round_history.changes_of(session, played).rows

    # Newest first: the toss after the leave, then the leave.
    assert [line.table.kind for line in whole if line.table] == ["seats", "leave"]
    assert [(line.round.number, line.table) for line in own] == [(1, None)]
