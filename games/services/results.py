"""The figures stored beside the rounds, and the one function that writes them.

A seat's result (total, place, rounds won, drops, ...), the session's status, the
league's standings months and its ratings are derived from the rounds;
``refresh_session`` recomputes them and
every write path calls it, the admin included, so they never drift.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Count, Max, Min, Q, Sum

from games.models import (
    GameSession,
    HandEntry,
    Seat,
)
from games.rules import (
    DROP_OUTCOMES,
    WINNING_OUTCOMES,
)
from games.services import ratings, standing_months
from games.services.scoreboard import Scoreboard, load_scoreboard


def refresh_session(session: GameSession, board: Scoreboard | None = None) -> Scoreboard:
    """After any change to a session's rounds: its status, each seat's result and,
    for a league session that is or was finished, the league's ratings. Runs in the
    transaction of the change. ``board`` is the session as changed, when the caller
    has already replayed it (a save does, to answer with it): it is not read again."""
    board = board or load_scoreboard(session)
    was_finished = session.status == GameSession.Status.FINISHED
    session.status = GameSession.Status.FINISHED if board.finished else GameSession.Status.ACTIVE
    session.save(update_fields=["status", "updated_at"])  # updated_at: the live view's cue
    _store_results(session, board)
    standing_months.refresh(
        session.league_id, session.played_on, [seat.player_id for seat in board.seats]
    )
    if session.league_id and (board.finished or was_finished):
        ratings.replay(session.league_id, since=session)
    return board


def _store_results(session: GameSession, board: Scoreboard) -> None:
    """Each seat's result as the rules service replays it, for the standings."""
    state = board.state
    best, worst = (Max, Min) if state.net else (Min, Max)
    rows = {
        row["player_id"]: row
        for row in HandEntry.objects.filter(round__session=session)
        .values("player_id")
        .annotate(
            played=Count("id"),
            won=Count("id", filter=Q(outcome__in=WINNING_OUTCOMES)),
            dropped=Count("id", filter=Q(outcome__in=sorted(DROP_OUTCOMES))),
            points=Sum("score"),
            best=best("score"),
            worst=worst("score"),
        )
    }
    moved = []
    for seat in board.seats:
        name = seat.player.name
        row = rows.get(seat.player_id, {})
        figures = {
            "total": state.totals[name],
            "place": state.place(name),
            "won": state.finished and name in state.winners,
            "rounds_played": row.get("played", 0),
            "rounds_won": row.get("won", 0),
            "drops": row.get("dropped", 0),
            "points": row.get("points") or 0,
            "best_round": row.get("best"),
            "worst_round": row.get("worst"),
        }
        if any(getattr(seat, field) != value for field, value in figures.items()):
            moved.append((seat, figures))
    _write_figures(moved)


def _write_figures(moved: list[tuple[Seat, dict]]) -> None:
    """The seats whose figures moved (nearly all of them, after every round), in one
    statement run for each: an ORM update per seat cost a save 2 ms of CPU, and
    bulk_update's CASE over every seat and field more than the replay itself."""
    if not moved:
        return
    names = list(moved[0][1])  # every seat has the same figures
    meta, quote = Seat._meta, connection.ops.quote_name
    columns = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in names)
    update = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"
    with connection.cursor() as cursor:
        cursor.executemany(
            update, [(*(figures[name] for name in names), seat.pk) for seat, figures in moved]
        )
    for seat, figures in moved:
        for name, value in figures.items():
            setattr(seat, name, value)


def refresh_league(league_id: int) -> None:
    """After a league's sessions changed behind the services' back (the admin: one
    deleted, moved, re-dated or given another player): its standings' months rebuilt
    and its ratings replayed."""
    standing_months.rebuild([league_id])
    ratings.replay(league_id)
