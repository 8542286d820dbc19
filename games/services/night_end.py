"""The end of a night nobody ended: a points session without a ceiling finishes only
when the table ends it by hand, and a table that went home without tapping "End the
session now" left it running, with no winner, no rating and no money in the
standings.

Two ways out, both ending it as the table would (`sessions.close_session`):

- A session with no round for ``settings.SESSION_IDLE_HOURS`` (6 by default) is
  ended at its last round when the league's standings are next read. Idle means
  nothing changed it: its ``updated_at`` moves with every round saved and with a
  reopening, so a session the scorer reopened waits as long again
  (`end_idle_sessions`). No background worker: the standings end what they would
  otherwise leave out before reading, in the same request. It is stored, not worked
  out at each read, because the ratings are stored incrementally: the session is
  rated once, at its place in the league's order (the day it was played), by the
  same replay a session ended by hand takes. "Reopen the session" undoes it.
- The session page asks the scorer at its top to end the night once no round has
  been saved for a while (`night_looks_over`).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.models import GameSession, League
from games.rules import RulesError, get_ruleset, is_pool
from games.services.results import refresh_session
from games.services.scoreboard import Scoreboard, load_scoreboard, with_session
from games.services.sessions import can_close

# No round for this long, and the night looks over: the page asks. A long break is
# shorter than this; a short one does not make the page ask in the middle of a game.
NIGHT_LOOKS_OVER = datetime.timedelta(minutes=45)


def idle_after() -> datetime.timedelta:
    """How long without a round ends a session by itself (the setting)."""
    return datetime.timedelta(hours=settings.SESSION_IDLE_HOURS)


def last_round_at(session: GameSession) -> datetime.datetime | None:
    """When the session's latest round was first saved; None before its first."""
    return session.rounds.aggregate(last=Max("created_at"))["last"]


def night_looks_over(session: GameSession, board: Scoreboard) -> bool:
    """Whether the session page should ask its scorer to end the night: the table may
    end it by hand (a points game, a round played, not over) and no round was saved
    for ``NIGHT_LOOKS_OVER``."""
    if not can_close(board):
        return False
    last = last_round_at(session)
    return last is not None and timezone.now() - last >= NIGHT_LOOKS_OVER


def end_idle_sessions(league: League) -> list[GameSession]:
    """End the league's sessions the table could end by hand that had no round for
    `idle_after`, each at its last round; returns them. One query when there is none."""
    cutoff = timezone.now() - idle_after()
    idle = (
        GameSession.objects.filter(
            league=league, status=GameSession.Status.ACTIVE, updated_at__lt=cutoff
        )
        .annotate(last=Max("rounds__created_at"))
        .filter(last__isnull=False)
        .order_by("played_on", "pk")
    )
    ended = []
    for session in idle:
        if _pool(session):  # a pool ends by its ceiling or a split pot, never by idling
            continue
        if _end(session.pk, cutoff):
            ended.append(session)
    return ended


def _pool(session: GameSession) -> bool:
    try:
        ruleset = get_ruleset(session.preset, session.overrides)
    except RulesError:
        return False  # the board decides (can_close) on rules it can read
    return is_pool(ruleset, session.ceiling or ruleset.ceiling)


def _end(pk: int, cutoff: datetime.datetime) -> bool:
    """End one session at its last round, if it is still idle and may be ended (a
    round saved, the session reopened or ended meanwhile: left alone)."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=pk)
        last = last_round_at(session)
        if session.closed_at is not None or last is None or session.updated_at >= cutoff:
            return False
        board = load_scoreboard(session)
        if not can_close(board):
            return False
        session.closed_at = last
        session.save(update_fields=["closed_at"])
        refresh_session(session, with_session(board, session))
        return True
