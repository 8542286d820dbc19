"""A session's score table, replayed by the rules service from the saved round scores.

Read as one snapshot (``read_snapshot``), so a round saved by another phone while a
page is read is either entirely in the table or not at all.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from django.db import connection, transaction
from django.utils.translation import gettext

from games.models import GameSession, Round, Seat
from games.models import SeatChange as StoredChange
from games.rules import (
    REJOIN,
    Ruleset,
    SeatChange,
    Seating,
    SessionState,
    change_take_back_problem,
    hands_after_elimination,
    house_rule_changes,
    is_pool,
    rejoins_played,
    take_back_problem,
)
from games.services.replay import Replayed, in_order_made, replay_table
from games.services.rulesets import ruleset_of


@dataclass(frozen=True)
class Rejoined:
    """A player bought back in after round ``after_round``, at ``total``."""

    after_round: int
    total: int


@dataclass(frozen=True)
class Column:
    """One player's column of the score table, with their standing."""

    seat: Seat
    name: str
    total: int
    distance: int | None  # points left before the ceiling: None without one, once out or over
    eliminated_in: int | None
    winner: bool
    deals_next: bool
    rejoined: tuple[Rejoined, ...] = ()  # each time the player bought back in
    # Pool rules, for a player who is out: the total they may rejoin at now, or why
    # they may not (both None where rejoining is not played).
    rejoin_at: int | None = None
    rejoin_refused: str | None = None
    left_after: int | None = None  # the last round played by a player who left the table
    joined_after: int | None = None  # a latecomer: the round before their first
    joined_at: int | None = None  # the total the rules gave them to start at

    @property
    def rejoined_after(self) -> tuple[int, ...]:
        """The rounds after which the player bought back in."""
        return tuple(rejoin.after_round for rejoin in self.rejoined)


@dataclass(frozen=True)
class Cell:
    score: int | None  # None: sat out (eliminated earlier, or gone home)
    total: int  # after this round; for a player it put out, the total that did
    out: bool  # eliminated by this round
    rejoined: int | None = None  # bought back in after this round, at this total
    away: bool = False  # not at the table this round: they had left it or not yet come


@dataclass(frozen=True)
class Row:
    round: Round
    dealer: str | None
    cells: tuple[Cell, ...]

    @property
    def rejoins(self) -> bool:
        """Whether anyone bought back in after this round: the table shows a line for it."""
        return any(cell.rejoined is not None for cell in self.cells)


# A round as the score table reads it: (id, number, dealer seat id, cut joker, version).
RoundKey = tuple[int, int, int | None, str, int]
ROUND_FIELDS = ("id", "number", "dealer_id", "cut_joker", "version")


class Rows(Sequence[Row]):
    """The score table's rows, built when they are looked at: a page that shows the
    latest ten rounds of a long session (the share link) builds ten rows, not all of
    them, while ``len()`` and ``bool()`` cost nothing. Indexing and slicing work as on
    a tuple; iterating builds every row."""

    def __init__(
        self,
        session: GameSession,
        rounds: Sequence[RoundKey],
        state: SessionState,
        names: Sequence[str],
        name_of_seat: Mapping[int, str],
    ) -> None:
        self._session = session
        self._rounds = rounds
        self._state = state
        self._names = tuple(names)
        self._name_of_seat = name_of_seat

    def __len__(self) -> int:
        return len(self._rounds)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self._row(i) for i in range(*index.indices(len(self._rounds))))
        if index < 0:
            index += len(self._rounds)
        if not 0 <= index < len(self._rounds):
            raise IndexError("no such round")
        return self._row(index)

    def __iter__(self) -> Iterator[Row]:
        return (self._row(i) for i in range(len(self._rounds)))

    def _row(self, index: int) -> Row:
        # The Round a query with .only(*ROUND_FIELDS) would have loaded (from_db wants
        # the values in the model's field order).
        loaded = dict(zip(ROUND_FIELDS, self._rounds[index], strict=True))
        loaded["session_id"] = self._session.pk
        fields = [f.attname for f in Round._meta.concrete_fields if f.attname in loaded]
        played = Round.from_db(self._session._state.db, fields, [loaded[f] for f in fields])
        played.session = self._session
        line = self._state.lines[index]
        return Row(
            round=played,
            dealer=self._name_of_seat.get(played.dealer_id),
            cells=tuple(
                # A player who left sits out later rounds, keeping their total.
                Cell(
                    score=line.scores.get(name),
                    total=line.totals.get(name, 0),
                    out=name in line.eliminated,
                    rejoined=line.rejoined.get(name),
                    away=name not in line.scores,
                )
                for name in self._names
            ),
        )


@dataclass(frozen=True)
class Scoreboard:
    """A session replayed by the rules service, shaped for the score table."""

    session: GameSession
    ruleset: Ruleset
    state: SessionState
    seats: tuple[Seat, ...]
    columns: tuple[Column, ...]
    rows: Rows
    next_dealer: Seat | None
    warnings: tuple[str, ...] = ()  # e.g. a rejoin an edit has made impossible
    # What it was replayed from (see with_round); left out of comparisons and repr.
    saved: SavedScores | None = field(default=None, compare=False, repr=False)

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def winners(self) -> tuple[str, ...]:
        return self.state.winners

    @property
    def ceiling(self) -> int | None:
        return self.state.ceiling

    @property
    def ceiling_total(self) -> int | None:
        return self.state.ceiling_total

    @property
    def last_round(self) -> int:
        """The number of the latest round played, 0 before the first."""
        return self.state.lines[-1].number if self.state.lines else 0

    @property
    def pool(self) -> bool:
        return is_pool(self.ruleset, self.state.ceiling)

    @property
    def house_rules(self) -> tuple[str, ...]:
        """The session's rules that differ from its preset, in words."""
        return house_rule_changes(self.ruleset)

    @property
    def rejoins_played(self) -> bool:
        """Whether these rules let a player who is out buy back in."""
        return rejoins_played(self.ruleset, self.state.ceiling)

    @property
    def rejoins_made(self) -> tuple[RejoinMade, ...]:
        """The rejoins as stored, in the order made (read with the rounds)."""
        return self.saved.made if self.saved else ()

    def take_back_problem(self, made: RejoinMade) -> str | None:
        """Why the rejoin ``made`` may no longer be taken back, or None (the rules
        service decides: until the next round is played, and not once it is over)."""
        return take_back_problem(self.state, made.after_round, made.name)

    @property
    def rejoins_to_take_back(self) -> tuple[RejoinMade, ...]:
        """The rejoins the scorer may still take back: those the page offers."""
        return tuple(made for made in self.rejoins_made if not self.take_back_problem(made))

    @property
    def last_change(self) -> ChangeMade | None:
        """The latest join or leave as stored: the one the scorer may take back."""
        made = self.saved.made_changes if self.saved else ()
        return made[-1] if made else None

    def change_take_back_problem(self, made: ChangeMade) -> str | None:
        """Why the join or leave ``made`` may no longer be taken back, or None (the
        rules service decides: until the next round is played)."""
        return change_take_back_problem(self.state, made.change)

    @property
    def change_to_take_back(self) -> ChangeMade | None:
        """The latest join or leave, while the scorer may still take it back: the one
        the page offers."""
        made = self.last_change
        return None if made is None or self.change_take_back_problem(made) else made

    @property
    def join_at(self) -> int | None:
        """The total a latecomer would start at now, or None where nobody may join:
        before the first round, once the session is over, or as the rules refuse."""
        if not self.leave_possible or self.state.join_problem():
            return None
        return self.state.join_total()

    @property
    def leave_possible(self) -> bool:
        """Whether a player may leave now: after a round, before the session is over."""
        return bool(self.rows) and not self.finished

    @property
    def playing_seats(self) -> tuple[Seat, ...]:
        """Seats still in, in seat order: the players of the next round."""
        active = set(self.state.active)
        return tuple(seat for seat in self.seats if seat.player.name in active)


@dataclass(frozen=True)
class LatestTotal:
    """One player's total and what the latest round gave them (``last``; None: they
    sat it out): the score so far in one line, as a seat's phone shows it above the
    hand (games/views/table.py)."""

    name: str
    total: int
    last: int | None
    out: bool  # out of the session
    winner: bool


def latest_totals(board: Scoreboard) -> tuple[LatestTotal, ...]:
    """Each player's total after the latest round and their score in it, in seat
    order (the score table's): nothing before the first round."""
    if not board.rows:
        return ()
    last = board.rows[-1]
    return tuple(
        LatestTotal(
            name=column.name,
            total=column.total,
            last=cell.score,
            out=column.eliminated_in is not None,
            winner=column.winner,
        )
        for column, cell in zip(board.columns, last.cells, strict=True)
    )


T = TypeVar("T")

# The share page shows this many of the latest rounds; older ones are a tap away.
LATEST_ROUNDS = 10


@dataclass(frozen=True)
class Fold(Generic[T]):
    """The rows a long list shows: from item ``first`` (counted from the oldest) to the
    latest, the older ones (1 to ``first`` - 1) one tap away. The score table folds
    its rounds, the history its changes. Only the rows shown are built, so a page
    showing a fold costs the same at round 10,000 as at round 20, apart from the
    replay of the saved scores."""

    rows: tuple[T, ...]
    first: int  # the first item shown: 1 when none is hidden
    pinned: bool  # the reader asked to see from ``first``: items saved later add on
    step: int  # items one tap shows more of

    @property
    def hidden(self) -> int:
        """Items not shown: 1 to this."""
        return self.first - 1

    @property
    def last(self) -> int:
        """The last item shown, counted from the oldest."""
        return self.first + len(self.rows) - 1

    @property
    def earlier(self) -> int:
        """The first item shown after one tap on "earlier"."""
        return max(1, self.first - self.step)

    @property
    def more(self) -> int:
        """How many items that tap adds."""
        return self.first - self.earlier


def fold_start(count: int, *, latest: int, first: int | None) -> tuple[int, bool]:
    """The first of ``count`` items a fold shows: the latest ``latest``, or every one
    from ``first`` on when a reader asked for older ones (anything out of range shows
    the latest); and whether the reader pinned it so."""
    newest = max(1, count - latest + 1)
    start = newest if first is None or first < 1 else min(first, newest)
    return start, start < newest


def fold_rows(board: Scoreboard, *, latest: int = LATEST_ROUNDS, first: int | None = None) -> Fold:
    """The latest ``latest`` rounds of the table or, when a reader asked for older ones,
    every round from ``first`` on (anything out of range shows the latest)."""
    start, pinned = fold_start(len(board.rows), latest=latest, first=first)
    return Fold(rows=board.rows[start - 1 :], first=start, pinned=pinned, step=latest)


@contextmanager
def read_snapshot() -> Iterator[None]:
    """Every query inside reads one snapshot of the database, as of the first one.

    On PostgreSQL each statement of a READ COMMITTED transaction (Django's default,
    and autocommit) sees what was committed when *it* started, so a page that reads
    the session, then its rounds and hands, then its rejoins could mix the states
    before and after another phone's save. A REPEATABLE READ transaction pins the
    snapshot of its first statement for all of them; READ ONLY, because a snapshot
    that writes could fail to serialize, and one that only reads never does and never
    blocks a writer (MVCC). Inside a transaction that is already open (a save, which
    holds the session's row lock, so nothing of the session changes under it) the
    isolation level can no longer be set, and there is no need to.

    On SQLite nothing is opened: a transaction there takes the database's write lock
    (BEGIN IMMEDIATE, see settings.py), which would queue every page behind every
    other. What must agree, the rounds and their hands, is read by one statement
    (see load_scoreboard), and one statement reads one state on any database."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def load_scoreboard(session: GameSession) -> Scoreboard:
    """Replay the session's rounds through `session_state`: totals, eliminations,
    the winner and the next dealer are derived here, never stored.

    Safe while other phones save, edit and delete rounds: see `read_snapshot`."""
    with read_snapshot():
        return _load_scoreboard(session)


@dataclass(frozen=True)
class SavedScores:
    """What a session's score table is replayed from, as read from the database:
    kept with the board so that a save can replay the session with its new round
    without reading the old ones again."""

    rounds: tuple[RoundKey, ...]
    scores: tuple[dict[str, int], ...]  # each round's scores by player name
    made: tuple[RejoinMade, ...] = ()  # the rejoins as stored, for taking one back
    # Players joining, leaving and rejoining, and the new seatings, in the order made.
    changes: tuple[SeatChange | Seating, ...] = ()
    made_changes: tuple[ChangeMade, ...] = ()  # the joins and leaves as stored


@dataclass(frozen=True)
class ChangeMade:
    """A join or a leave as stored (one the replay refused too): the scorer may take
    the last one back until the next round is played."""

    pk: int
    kind: str  # JOIN or LEAVE
    name: str
    after_round: int

    @property
    def change(self) -> SeatChange:
        return SeatChange(self.kind, self.name, self.after_round)


@dataclass(frozen=True)
class RejoinMade:
    """A rejoin as stored (one the replay ignored too): the scorer may take it back
    until the next round is played (one the replay ignored, at any time)."""

    pk: int
    name: str
    after_round: int
    made_at: datetime.datetime | None = field(default=None, compare=False)

    @property
    def change(self) -> SeatChange:
        return SeatChange(REJOIN, self.name, self.after_round)


def _load_scoreboard(session: GameSession) -> Scoreboard:
    seats = tuple(session.seats.select_related("player").order_by("position"))
    name_of_player = {seat.player_id: seat.player.name for seat in seats}
    name_of_seat = {seat.pk: seat.player.name for seat in seats}
    # The rounds and their hands in ONE statement (a LEFT JOIN, so a round without
    # hands still counts): two queries could straddle another phone's save and find
    # hands of a round they never read, or a round without its hands. Only what the
    # replay needs: every page and every save replays the session, so the hands'
    # groups and breakdowns (JSON) are not read here, and the rows come in chunks: the
    # 40,000 hands of a very long session are never all in memory at once.
    rounds: list[RoundKey] = []
    scores: list[dict[str, int]] = []
    for *played, player_id, score in (
        session.rounds.order_by("number")
        .values_list(*ROUND_FIELDS, "entries__player_id", "entries__score")
        .iterator(chunk_size=2000)
    ):
        if not rounds or rounds[-1][0] != played[0]:
            rounds.append(tuple(played))
            scores.append({})
        # An entry for someone without a seat can only come from the admin; the rules
        # service would not know the name, so it is left off the table.
        if player_id in name_of_player:
            scores[-1][name_of_player[player_id]] = score
    made = tuple(
        RejoinMade(pk, name_of_seat[seat_id], after, when)
        for pk, seat_id, after, when in session.rejoins.order_by("after_round", "pk").values_list(
            "pk", "seat_id", "after_round", "created_at"
        )
        if seat_id in name_of_seat
    )
    # A rename changes no seat: the seat already reads its new name.
    stored = [
        row
        for row in session.seat_changes.exclude(kind=StoredChange.Kind.RENAME)
        .order_by("after_round", "pk")
        .values_list("pk", "kind", "seat_id", "after_round", "seats", "created_at")
        if row[2] in name_of_seat or row[1] == "seats"
    ]
    changes = in_order_made(
        [(rejoin.after_round, rejoin.made_at, rejoin.change) for rejoin in made],
        [(row[3], row[5], _table_change(*row[1:5], name_of_seat)) for row in stored],
    )
    changes_made = tuple(
        ChangeMade(pk, kind, name_of_seat[seat_id], after)
        for pk, kind, seat_id, after, *_ in stored
        if kind != "seats"
    )
    saved = SavedScores(tuple(rounds), tuple(scores), made, changes, changes_made)
    return _replay(session, ruleset_of(session), seats, saved)


def _table_change(
    kind: str, seat_id: int | None, after: int, seating: list, name_of_seat: Mapping[int, str]
) -> SeatChange | Seating:
    """A stored change of the table as the rules service takes it."""
    if kind == "seats":
        return Seating(after, tuple(name_of_seat[pk] for pk in seating if pk in name_of_seat))
    assert seat_id is not None, "a join or leave names its seat"
    return SeatChange(kind, name_of_seat[seat_id], after)


def with_round(board: Scoreboard, played: Round, scores: Mapping[int, int]) -> Scoreboard:
    """``board`` with ``played`` as a save wrote it (``scores`` by player id): a new
    last round, or an earlier round edited. Replayed by the rules service from the
    scores ``board`` was read from, without reading them again: only valid while
    nothing else changed the session since ``board`` was read (a save holds
    the session's lock and checks its stamp)."""
    saved = board.saved
    assert saved is not None, "a board replayed by load_scoreboard"
    name_of_player = {seat.player_id: seat.player.name for seat in board.seats}
    key: RoundKey = (played.pk, played.number, played.dealer_id, played.cut_joker, played.version)
    named = {name_of_player[pk]: score for pk, score in scores.items() if pk in name_of_player}
    index = played.number - 1
    rounds, by_round = list(saved.rounds), list(saved.scores)
    if index == len(rounds):
        rounds.append(key)
        by_round.append(named)
    else:
        rounds[index], by_round[index] = key, named
    replayed = replace(saved, rounds=tuple(rounds), scores=tuple(by_round))
    return _replay(board.session, board.ruleset, board.seats, replayed)


def with_session(board: Scoreboard, session: GameSession) -> Scoreboard:
    """``board`` replayed for ``session`` as it now is (ended by hand, or reopened),
    from the scores ``board`` was read from, without reading them again: only valid
    while nothing else changed the session since (the caller holds its lock)."""
    assert board.saved is not None, "a board replayed by load_scoreboard"
    return _replay(session, board.ruleset, board.seats, board.saved)


def _replay_state(
    session: GameSession,
    ruleset: Ruleset,
    seats: tuple[Seat, ...],
    saved: SavedScores,
    changes: Sequence[SeatChange | Seating],
) -> Replayed:
    name_of_seat = {seat.pk: seat.player.name for seat in seats}
    return replay_table(
        ruleset,
        [seat.player.name for seat in seats],
        saved.scores,
        ceiling=session.ceiling,
        dealers=[name_of_seat[key[2]] for key in saved.rounds if key[2] in name_of_seat],
        first_dealer=name_of_seat.get(session.first_dealer_id),
        changes=changes,
        closed=session.closed_at is not None,
    )


def change_problem(board: Scoreboard, change: SeatChange | Seating) -> str | None:
    """Why the rules service refuses ``change`` after the rounds of ``board``, or None."""
    assert board.saved is not None, "a board replayed by load_scoreboard"
    saved = board.saved
    replayed = _replay_state(
        board.session, board.ruleset, board.seats, saved, [*saved.changes, change]
    )
    return next((r.why for r in replayed.refused if r.change == change), None)


def _replay(
    session: GameSession, ruleset: Ruleset, seats: tuple[Seat, ...], saved: SavedScores
) -> Scoreboard:
    name_of_seat = {seat.pk: seat.player.name for seat in seats}
    replayed = _replay_state(session, ruleset, seats, saved, saved.changes)
    state = replayed.state
    ignored = list(replayed.ignored)
    # A latecomer whose join the rules refused (an earlier round edited since) has a
    # seat but no place at the table: the table and the results leave them off.
    seats = tuple(seat for seat in seats if seat.player.name in state.totals)
    names = [seat.player.name for seat in seats]
    for name, number in hands_after_elimination(state):
        ignored.append(
            gettext(
                "{player} was out before round {number} but has a hand in it (an earlier "
                "round was edited): it still counts. Edit or delete round {number} if it "
                "should not."
            ).format(player=name, number=number)
        )
    rejoined: dict[str, list[Rejoined]] = {name: [] for name in names}
    joined_at: dict[str, int] = {}
    for line in state.lines:
        for name, total in line.rejoined.items():
            rejoined[name].append(Rejoined(line.number, total))
        joined_at |= line.joined
    by_name = {seat.player.name: seat for seat in seats}
    offers = _rejoin_offers(state)
    columns = tuple(
        Column(
            seat=seat,
            name=seat.player.name,
            total=state.totals[seat.player.name],
            distance=_to_go(state, seat.player.name),
            eliminated_in=state.eliminated_in.get(seat.player.name),
            winner=seat.player.name in state.winners,
            deals_next=seat.player.name == state.next_dealer,
            rejoined=tuple(rejoined[seat.player.name]),
            left_after=state.left_after.get(seat.player.name),
            joined_after=state.joined_after.get(seat.player.name),
            joined_at=joined_at.get(seat.player.name),
            **offers.get(seat.player.name, {}),
        )
        for seat in seats
    )
    return Scoreboard(
        session=session,
        ruleset=ruleset,
        state=state,
        seats=seats,
        columns=columns,
        rows=Rows(session, saved.rounds, state, names, name_of_seat),
        next_dealer=by_name.get(state.next_dealer) if state.next_dealer else None,
        warnings=tuple(ignored),
        saved=saved,
    )


def _to_go(state: SessionState, name: str) -> int | None:
    """The distance the table shows: none for a player who is out (the badge says
    so), nor once the session is over (the winner is marked)."""
    if state.finished or name in state.eliminated_in:
        return None
    return state.distance_to_ceiling(name)


def _rejoin_offers(state: SessionState) -> dict[str, dict]:
    """For each player who is out and still at the table, under rules that let them
    buy back in: the total they would rejoin at now, or the rules service's reason
    why they may not, as its ``rejoin_offers`` says (a player who went home once out
    is offered nothing)."""
    return {
        offer.player: {"rejoin_refused": offer.problem}
        if offer.problem
        else {"rejoin_at": offer.total}
        for offer in state.rejoin_offers()
    }


def live_stamp(session: GameSession) -> str:
    """Changes whenever anything on the score table may have changed: a live view
    polls with it and is answered "nothing new" while it matches."""
    return str(int(session.updated_at.timestamp() * 1_000_000))
