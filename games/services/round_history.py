"""A session's history as its page reads it: every change of its rounds (created,
edited, deleted) and, on the session's page, of its table (a player joining or
leaving, a new seating), newest first, folded as the score table is, each edit with
what it changed.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber

from games.models import GameSession, Round, RoundChange, SeatChange
from games.services.round_audit import round_changed
from games.services.scoreboard import Fold, fold_start, load_scoreboard, read_snapshot

# The history shows this many of the latest changes; older ones are a tap away, as the
# score table's older rounds are (a 42-round session's changes were 31 phone screens).
LATEST_CHANGES = 10


@dataclass(frozen=True)
class TableChange:
    """A change of the table between rounds, as the history says it."""

    kind: str  # SeatChange.Kind: join, leave, seats or rename
    player: str  # who joined or left; "" for a new seating
    after_round: int
    # A latecomer's first total, as the rules service gave it; None where it ignores
    # the join (a round it followed deleted since) and for any other change.
    total: int | None
    seats: tuple[str, ...]  # a new seating: the players from the first seat
    # A name corrected: as it was and as it became (the seat's player now may have
    # been renamed again since, so the change keeps both words it was made with).
    old_name: str
    new_name: str
    said_by: str
    changed_at: datetime.datetime


@dataclass(frozen=True)
class HistoryLine:
    """One line of the history: a change of a round, or of the table."""

    round: RoundChange | None = None
    table: TableChange | None = None

    @property
    def at(self) -> tuple[datetime.datetime, int, int]:
        """Where the line stands in time: a round's change before a change of the
        table made in the same instant (none is, in practice), then as saved."""
        if self.round is not None:
            return (self.round.changed_at, 0, self.round.pk)
        assert self.table is not None
        return (self.table.changed_at, 1, 0)


def changes_of(
    session: GameSession, played: Round | None = None, *, first: int | None = None
) -> Fold[HistoryLine]:
    """The history of a session (with its table's changes), or of one of its rounds,
    newest first, folded as the score table is: the latest changes, or from change
    ``first`` (counted from the oldest) on when the reader asked for older ones.

    Read as one snapshot (scoreboard.read_snapshot): all the table's changes (a
    handful: a player joins or leaves a few times an evening), and of the rounds'
    only those the fold may show. A round's change stands as many lines later among
    all the lines as there are changes of the table before it, so its place among
    the rounds' alone is at most that handful less: fetching the rounds' changes
    from ``first`` less the handful on fetches every one shown."""
    with read_snapshot():
        table = _table_changes(session) if played is None else []
        rounds = _round_changes(session, played, first, len(table))
    count = (rounds[0].total if rounds else 0) + len(table)
    start, pinned = fold_start(count, latest=LATEST_CHANGES, first=first)
    lines = _merged(rounds, table)
    shown = tuple(line for place, line in reversed(lines) if place >= start)
    return Fold(rows=shown, first=start, pinned=pinned, step=LATEST_CHANGES)


def _round_changes(
    session: GameSession, played: Round | None, first: int | None, others: int
) -> list[RoundChange]:
    """The rounds' changes a fold may show, oldest first, each with its ``place``
    among them (from the oldest) and their ``total``; ``others``: how many lines of
    the table's changes stand among them."""
    changes = session.changes.select_related("changed_by")
    if played is not None:
        changes = changes.filter(round=played)
    # The changes shown and how many there are, in ONE statement (as the score table
    # reads its rounds): counted and fetched apart, a change saved in between (another
    # phone's round) would push the window one along, under numbers and a count that
    # no longer match it. Each change's place is counted from the oldest.
    places = changes.annotate(
        total=Window(Count("pk")),
        place=Window(RowNumber(), order_by=(F("changed_at").asc(), F("pk").asc())),
    )
    # fold_start's choice, made in the query: the latest ones, and any from ``first`` on
    # (less the table's changes, which may stand before them). A filter on the windows
    # is applied after them (Django wraps the query), so the total and the places still
    # count every change, not only the ones shown.
    shown = Q(place__gt=F("total") - LATEST_CHANGES)
    if first is not None and first >= 1:
        shown |= Q(place__gte=first - others)
    rows = list(places.filter(shown).order_by("changed_at", "pk"))
    # An edit says what it changed first; the whole rounds before and after are folded.
    for change in rows:
        both = change.before is not None and change.after is not None
        change.what_changed = round_changed(change.before, change.after) if both else None
    return rows


def _table_changes(session: GameSession) -> list[TableChange]:
    """Every change of the session's table, oldest first, players by name."""
    made = list(session.seat_changes.select_related("created_by").order_by("created_at", "pk"))
    if not made:
        return []
    name_of = dict(session.seats.values_list("pk", "player__name"))
    joined: dict[tuple[str, int], int] = {}
    if any(change.kind == SeatChange.Kind.JOIN for change in made):
        # A latecomer's total is the rules service's: the session replayed.
        for line in load_scoreboard(session).state.lines:
            joined |= {(name, line.number): total for name, total in line.joined.items()}
    lines = []
    for change in made:
        player = name_of.get(change.seat_id, "")
        lines.append(
            TableChange(
                kind=change.kind,
                player=player,
                after_round=change.after_round,
                total=joined.get((player, change.after_round))
                if change.kind == SeatChange.Kind.JOIN
                else None,
                seats=tuple(name_of[pk] for pk in change.seats if pk in name_of),
                old_name=change.old_name,
                new_name=change.new_name,
                said_by=change.said_by,
                changed_at=change.created_at,
            )
        )
    return lines


def _merged(
    rounds: Sequence[RoundChange], table: Sequence[TableChange]
) -> list[tuple[int, HistoryLine]]:
    """The lines in time order, each with its place among all of them (from 1).
    ``rounds`` run from their first ``place`` to the last round's change; a change of
    the table before the first of them is given a place later than its own when
    rounds' changes before it were not fetched, but still too early to be shown
    (changes_of fetched enough of them for that)."""
    lines = sorted(
        [HistoryLine(round=change) for change in rounds]
        + [HistoryLine(table=change) for change in table],
        key=lambda line: line.at,
    )
    before = rounds[0].place - 1 if rounds else 0  # rounds' changes not fetched
    return list(enumerate(lines, start=1 + before))
