"""A session's history of round changes as its page reads it: newest first, folded as
the score table is, each edit with what it changed.
"""

from __future__ import annotations

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber

from games.models import GameSession, Round, RoundChange
from games.services.round_audit import round_changed
from games.services.scoreboard import Fold, fold_start

# The history shows this many of the latest changes; older ones are a tap away, as the
# score table's older rounds are (a 42-round session's changes were 31 phone screens).
LATEST_CHANGES = 10


def changes_of(
    session: GameSession, played: Round | None = None, *, first: int | None = None
) -> Fold[RoundChange]:
    """The audit trail of a session (or of one of its rounds), newest first, folded as
    the score table is: the latest changes, or from change ``first`` (counted from the
    oldest) on when the reader asked for older ones."""
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
    # fold_start's choice, made in the query: the latest ones, and any from ``first`` on.
    # A filter on the windows is applied after them (Django wraps the query), so the
    # total and the places still count every change, not only the ones shown.
    shown = Q(place__gt=F("total") - LATEST_CHANGES)
    if first is not None and first >= 1:
        shown |= Q(place__gte=first)
    rows = tuple(places.filter(shown).order_by("-changed_at", "-pk"))
    # An edit says what it changed first; the whole rounds before and after are folded.
    for change in rows:
        both = change.before is not None and change.after is not None
        change.what_changed = round_changed(change.before, change.after) if both else None
    start, pinned = fold_start(rows[0].total if rows else 0, latest=LATEST_CHANGES, first=first)
    return Fold(rows=rows, first=start, pinned=pinned, step=LATEST_CHANGES)
