"""The figures stored beside the rounds, and the one function that writes them.

A seat's result (total, place, rounds won, drops, ...), the session's status, the
league's standings months and its ratings are derived from the rounds;
``refresh_session`` recomputes them and
every write path calls it, the admin included, so they never drift.

``mark_changed`` is how any change reaches the pages that follow a session live:
refresh_session saves the session's row through it, and so do the writes that change
what its table shows without changing its rounds (stakes, the share link, a player
renamed in the admin).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

from games.models import (
    GameSession,
    HandEntry,
    Round,
    Seat,
)
from games.rules import (
    DROP_OUTCOMES,
    WINNING_OUTCOMES,
)
from games.services import ratings, standing_months
from games.services.scoreboard import Scoreboard, load_scoreboard


def mark_changed(session: GameSession, *fields: str) -> None:
    """Save the session's row (``fields`` with its ``updated_at``, the live stamp): once
    it commits, games/live.py writes the new stamp and a new table generation to the
    cache, and every page following the session asks for its table again."""
    session.save(update_fields=[*fields, "updated_at"])


def mark_shown_changed(sessions: Iterable[GameSession]) -> None:
    """Sessions whose table shows something that changed outside their rounds (a
    player's name): each one's live stamp moves, with nothing recomputed."""
    for session in sessions:
        mark_changed(session)


def refresh_session(session: GameSession, board: Scoreboard | None = None) -> Scoreboard:
    """After any change to a session's rounds: its status, each seat's result and,
    for a league session that is or was finished, the league's ratings. Runs in the
    transaction of the change. ``board`` is the session as changed, when the caller
    has already replayed it (a save does, to answer with it): it is not read again."""
    board = board or load_scoreboard(session)
    was_finished = session.status == GameSession.Status.FINISHED
    session.status = GameSession.Status.FINISHED if board.finished else GameSession.Status.ACTIVE
    mark_changed(session, "status")
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
    tallies = _tallies(session)
    moved = []
    for seat in board.seats:
        name = seat.player.name
        played, won, dropped, points, lowest, highest = tallies.get(seat.player_id, _NO_HANDS)
        figures = {
            "total": state.totals[name],
            "place": state.place(name),
            "won": state.finished and name in state.winners,
            "rounds_played": played,
            "rounds_won": won,
            "drops": dropped,
            "points": points or 0,
            # Net totals: the most won is the best round; penalty totals: the least lost.
            "best_round": highest if state.net else lowest,
            "worst_round": lowest if state.net else highest,
        }
        if any(getattr(seat, field) != value for field, value in figures.items()):
            moved.append((seat, figures))
    _write_figures(moved)


# A player without a hand in the session: none played, won or dropped, no scores.
_NO_HANDS = (0, 0, 0, None, None, None)


def _tallies(session: GameSession) -> dict[int, tuple]:
    """Each player's hands in the session, by player id: (played, won, dropped, sum,
    lowest and highest of their scores). A plain aggregate query: building the ORM's
    (an annotation per figure) cost a save 1.4 ms of CPU, six times running it."""
    won, dropped = sorted(WINNING_OUTCOMES), sorted(DROP_OUTCOMES)
    sql = f"""
        SELECT h.player_id, COUNT(*),
               COUNT(CASE WHEN h.outcome IN ({", ".join(["%s"] * len(won))}) THEN 1 END),
               COUNT(CASE WHEN h.outcome IN ({", ".join(["%s"] * len(dropped))}) THEN 1 END),
               SUM(h.score), MIN(h.score), MAX(h.score)
        FROM {HandEntry._meta.db_table} h JOIN {Round._meta.db_table} r ON r.id = h.round_id
        WHERE r.session_id = %s
        GROUP BY h.player_id"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [*won, *dropped, session.pk])
        return {player_id: figures for player_id, *figures in cursor.fetchall()}


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
