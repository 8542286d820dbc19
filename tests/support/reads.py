"""Reads of the score table under test: another phone's change landing in the middle
of one, and long sessions made quickly."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection

from games.models import HandEntry, Round, RoundChange
from games.services.results import refresh_session
from games.services.round_audit import round_snapshot
from games.services.scoreboard import Scoreboard


@contextmanager
def after_first_read_of_rounds(change: Callable[[], object]) -> Iterator[None]:
    """Run ``change`` once, as soon as the first statement that reads the rounds table
    has been read to its end: before the next statement, or at the end of the block.

    Run on the reading connection, the change is what another connection committing
    at that moment looks like to statements that each see the latest committed data
    (autocommit on SQLite, READ COMMITTED on PostgreSQL); run in a thread of its own
    (a connection of its own), it is that commit."""
    state = {"read": False, "changed": False}

    def make_change() -> None:
        state["changed"] = True
        change()

    def wrapper(execute, sql, params, many, context):
        if state["read"] and not state["changed"]:
            make_change()
        result = execute(sql, params, many, context)
        if not state["read"] and sql.lstrip().startswith("SELECT") and '"games_round"' in sql:
            state["read"] = True
        return result

    with connection.execute_wrapper(wrapper):
        yield
        if state["read"] and not state["changed"]:
            make_change()
    assert state["changed"], "the rounds were never read"


def figures(board: Scoreboard) -> dict:
    """What a phone shows: each row's number, cut and scores, the totals, warnings."""
    return {
        "rows": [
            (row.round.number, row.round.cut_joker, [cell.score for cell in row.cells])
            for row in board.rows
        ],
        "totals": {column.name: column.total for column in board.columns},
        "rejoined": {column.name: column.rejoined_after for column in board.columns},
        "warnings": board.warnings,
    }


def copies_of(played: Round, count: int, *, recorded: bool = False) -> None:
    """``count`` more rounds like ``played``, stored as a save stores them, dealt round
    the table: a long session without replaying it after every round. ``recorded``:
    each with its "created" change in the history, as a save writes it."""
    session = played.session
    seats = list(session.seats.order_by("position"))
    entries = list(played.entries.all())
    last = session.rounds.count()
    for number in range(last + 1, last + count + 1):
        copy = Round.objects.create(
            session=session,
            number=number,
            dealer=seats[(number - 1) % len(seats)],
            cut_joker=played.cut_joker,
        )
        for entry in entries:
            entry.pk, entry.round = None, copy
        HandEntry.objects.bulk_create(entries)
        if recorded:
            RoundChange.objects.create(
                session=session,
                round=copy,
                number=number,
                action=RoundChange.Action.CREATED,
                changed_by=session.created_by,
                after=round_snapshot(copy),
            )
    refresh_session(session)
