"""The figures stored beside the rounds, and the one function that writes them.

A seat's result (total, place, rounds won, drops, ...), the session's status, the
league's standings months and its ratings are derived from the rounds;
``refresh_session`` recomputes them and every write path calls it, the admin
included, so they never drift. Two writes take ``refresh_league`` instead: a
session deleted in the admin (its league's months and ratings rebuilt), and a league
import, which writes thousands of sessions in bulk: it stores each seat's figures
by ``seat_results`` and each session's status by ``GameSession.Status.after``, as
refresh_session does, then rebuilds the league's months and ratings. The
benchmarks' fills call ``seat_results`` too.

``mark_changed`` is how any change reaches the pages that follow a session live:
refresh_session saves the session's row through it, and so do the writes that change
what its table shows without changing its rounds (stakes, the share link, a player
renamed in the admin).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

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
    SessionState,
    best_and_worst,
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


def refresh_session(
    session: GameSession, board: Scoreboard | None = None, *, moved: bool = False
) -> Scoreboard:
    """After any change to a session's rounds: its status, each seat's result and,
    for a league session that is or was finished, the league's ratings. Runs in the
    transaction of the change. ``board`` is the session as changed, when the caller
    has already replayed it (a save does, to answer with it): it is not read again.
    ``moved``: the admin gave the session another league or day, so the ratings are
    replayed from where it was rated, in a league it left too."""
    board = board or load_scoreboard(session)
    was_finished = session.status == GameSession.Status.FINISHED
    session.status = GameSession.Status.after(board.finished)
    mark_changed(session, "status")
    _store_results(session, board)
    standing_months.refresh(
        session.league_id, session.played_on, [seat.player_id for seat in board.seats]
    )
    for game in ratings.games_to_replay(session, was_finished, moved=moved):
        ratings.replay(game.league_id, game.preset, since=session, moved=moved)
    return board


@dataclass(frozen=True)
class SeatResult:
    """A seat's result, as stored in the Seat columns of the same names for the
    standings: made by `seat_results` alone, whether a save or an import stores it."""

    total: int
    place: int
    won: bool  # a winner of a finished session
    rounds_played: int
    rounds_won: int
    drops: int  # first, middle drops and timeouts
    points: int  # the sum of the round scores
    best_round: int | None  # None before the player's first hand
    worst_round: int | None


# A player's hands of one outcome in a session, summed: (player's name, outcome,
# count, sum, lowest and highest of their scores). One hand is a tally of one.
HandTally = tuple[str, str, int, int, int, int]


def one_hand(player: str, outcome: str, score: int) -> HandTally:
    """A single hand as a tally, for callers that hold the hands themselves."""
    return (player, outcome, 1, score, score, score)


def seat_results(state: SessionState, tallies: Iterable[HandTally]) -> dict[str, SeatResult]:
    """Every seat's result, by player name: its total, place and win as the rules
    service replayed the session (``state``), its rounds from its hands (``tallies``,
    in any grouping: a save sums them in SQL, an import and the benchmark's fill give
    each hand). The one place these figures are worked out, so a league imported and
    the same league saved round by round store the same numbers."""
    played = {name: [0, 0, 0, 0, None, None] for name in state.players}
    for name, outcome, count, points, lowest, highest in tallies:
        mine = played.get(name)
        if mine is None:
            continue  # a hand without a seat (only the admin makes one): not a result
        mine[0] += count
        if outcome in WINNING_OUTCOMES:
            mine[1] += count
        if outcome in DROP_OUTCOMES:
            mine[2] += count
        mine[3] += points
        mine[4] = lowest if mine[4] is None else min(mine[4], lowest)
        mine[5] = highest if mine[5] is None else max(mine[5], highest)
    results = {}
    for name, (count, won, dropped, points, lowest, highest) in played.items():
        best, worst = best_and_worst(lowest, highest, net=state.net)
        results[name] = SeatResult(
            total=state.totals[name],
            place=state.place(name),
            won=state.finished and name in state.winners,
            rounds_played=count,
            rounds_won=won,
            drops=dropped,
            points=points,
            best_round=best,
            worst_round=worst,
        )
    return results


def _store_results(session: GameSession, board: Scoreboard) -> None:
    """Each seat's result as the rules service replays it, for the standings."""
    results = seat_results(board.state, _tallies(session, board.seats))
    moved = []
    for seat in board.seats:
        figures = vars(results[seat.player.name])
        if any(getattr(seat, field) != value for field, value in figures.items()):
            moved.append((seat, figures))
    _write_figures(moved)


def _tallies(session: GameSession, seats: Iterable[Seat]) -> Iterator[HandTally]:
    """The session's hands summed by player and outcome, in one plain aggregate
    query (the ORM's, an annotation per figure, cost a save 1.4 ms of CPU); which
    outcomes win or drop is `seat_results`' to say, not the SQL's."""
    name_of = {seat.player_id: seat.player.name for seat in seats}
    sql = f"""
        SELECT h.player_id, h.outcome, COUNT(*), SUM(h.score), MIN(h.score), MAX(h.score)
        FROM {HandEntry._meta.db_table} h JOIN {Round._meta.db_table} r ON r.id = h.round_id
        WHERE r.session_id = %s
        GROUP BY h.player_id, h.outcome"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [session.pk])
        rows = cursor.fetchall()
    for player_id, *tally in rows:
        if player_id in name_of:
            yield (name_of[player_id], *tally)


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
    """After a league's sessions came in bulk (an imported league file) or one went
    (deleted in the admin): its standings' months rebuilt and its ratings replayed."""
    standing_months.rebuild([league_id])
    ratings.replay_league(league_id)
