"""The scorekeeper's use cases: where the database meets the rules service.

Views parse a request and call one function here; these functions load models, ask
`games.rules` for every figure (group kinds, hand points, value points, claims,
scores, totals, eliminations, the next dealer, the winner) and write inside
`transaction.atomic()`. Nothing here adds up points itself: running totals are
replayed by `session_state` from the stored round scores each time they are shown.
"""

from __future__ import annotations

import datetime
import random
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction
from django.db.models import Count, F, Max, Min, Q, QuerySet, Sum
from django.utils import timezone

from games.rules import (
    PRESETS,
    Card,
    CardError,
    PlayerHand,
    RoundErrors,
    RulesError,
    Ruleset,
    format_groups,
    get_ruleset,
    parse_card,
    parse_groups,
    score_round,
)
from games.rules.arrange import arrange
from games.rules.melds import joker_roles
from games.rules.scoring import (
    FULL_HAND_OUTCOMES,
    WINNING_OUTCOMES,
    HandAssessment,
    PlayerResult,
    RoundResult,
    assess_hand,
)
from games.rules.session import (
    SessionState,
    hands_after_elimination,
    pot_split,
    remaining_drops,
    session_state,
    toss,
)
from games.rules.settlement import balances_from_totals, settle

from . import ratings
from .models import (
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    Rejoin,
    Round,
    RoundChange,
    Seat,
    new_share_token,
)

AnyUser = AbstractBaseUser | AnonymousUser

# Roles that may add, edit and delete rounds of a league's sessions.
WRITE_ROLES = (Membership.Role.OWNER, Membership.Role.SCORER)


class EntryRejected(Exception):
    """A round that was valid when checked but cannot be saved now: the session
    finished, the table changed or someone else saved the round first."""


# --- Rulesets and presets ------------------------------------------------------------


def ruleset_of(session: GameSession | League) -> Ruleset:
    """The validated ruleset a session (or league) plays under.

    Overrides are validated when stored (session form, admin forms), so a RulesError
    here means the data was changed behind the app's back; it propagates."""
    return get_ruleset(session.preset, session.overrides)


def describe_preset(name: str) -> str:
    """One line about a preset, built from its options so it cannot drift from them."""
    rules = PRESETS[name]
    parts = [f"{rules.hand_size} cards, {rules.decks} decks"]
    if rules.totals == "net":
        parts.append("losers pay the winner their points")
    else:
        parts.append("losers add their points, lowest total is best")
    if rules.value_cards:
        parts.append("value cards exchanged")
    if rules.claims:
        parts.append("the winner claims for jokers")
    if rules.ceiling is not None:
        if rules.ceiling_mode == "out":
            parts.append(f"out at {rules.ceiling}")
        else:
            parts.append(f"game ends at {rules.ceiling}")
    return " · ".join(parts)


def is_net(ruleset: Ruleset) -> bool:
    """Net totals (losers pay the winner): what a point is worth settles the evening."""
    return ruleset.totals == "net"


def is_pool(ruleset: Ruleset, ceiling: int | None) -> bool:
    """A pool: players go out at the ceiling, so the pot is split among those left."""
    return ceiling is not None and ruleset.ceiling_mode != "game_ends"


# --- Who may see and change a session ------------------------------------------------


# A league's sessions follow the league's roles, whoever started them: a member
# who leaves the league (or becomes a viewer) keeps no rights over the sessions they
# started in it. A session outside any league belongs to its creator alone.


def sessions_visible_to(user: AnyUser) -> QuerySet[GameSession]:
    """Sessions a user created outside any league, or that belong to a league they
    are a member of."""
    if not user.is_authenticated:
        return GameSession.objects.none()
    return GameSession.objects.filter(
        Q(created_by=user, league__isnull=True) | Q(league__memberships__user=user)
    ).distinct()


def _has_role(user: AnyUser, session: GameSession, roles: Sequence[str]) -> bool:
    if not user.is_authenticated:
        return False
    if session.league_id is None:
        return session.created_by_id == user.pk
    return Membership.objects.filter(
        league_id=session.league_id, user=user, role__in=roles
    ).exists()


def can_view(user: AnyUser, session: GameSession) -> bool:
    return _has_role(user, session, Membership.Role.values)


def can_write(user: AnyUser, session: GameSession) -> bool:
    """Add, edit and delete rounds, end the session, rejoin players: its creator, or
    a league owner or scorer."""
    return _has_role(user, session, WRITE_ROLES)


def can_manage(user: AnyUser, session: GameSession) -> bool:
    """Set the stakes and replace the share link: its creator, or a league owner."""
    return _has_role(user, session, (Membership.Role.OWNER,))


def leagues_for_scorer(user: AnyUser) -> QuerySet[League]:
    """Leagues a user may start sessions in."""
    if not user.is_authenticated:
        return League.objects.none()
    return League.objects.filter(memberships__user=user, memberships__role__in=WRITE_ROLES)


# --- The score table -------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One player's column of the score table, with their standing."""

    seat: Seat
    name: str
    total: int
    distance: int | None  # points left before the ceiling, None without one
    eliminated_in: int | None
    winner: bool
    deals_next: bool
    rejoined_after: tuple[int, ...] = ()  # rounds after which the player bought back in
    # Pool rules, for a player who is out: the total they may rejoin at now, or why
    # they may not (both None where rejoining is not played).
    rejoin_at: int | None = None
    rejoin_refused: str | None = None


@dataclass(frozen=True)
class Cell:
    score: int | None  # None: sat out (eliminated earlier)
    total: int
    out: bool  # eliminated by this round
    rejoined: int | None = None  # bought back in after this round, at this total


@dataclass(frozen=True)
class Row:
    round: Round
    dealer: str | None
    cells: tuple[Cell, ...]


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
                Cell(
                    score=line.scores[name],
                    total=line.totals[name],
                    out=name in line.eliminated,
                    rejoined=line.rejoined.get(name),
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
    def pool(self) -> bool:
        return is_pool(self.ruleset, self.state.ceiling)

    @property
    def rejoins(self) -> bool:
        """Whether anyone has rejoined, or may: the table then explains it."""
        return any(c.rejoined_after or c.rejoin_at is not None for c in self.columns)

    @property
    def playing_seats(self) -> tuple[Seat, ...]:
        """Seats still in, in seat order: the players of the next round."""
        active = set(self.state.active)
        return tuple(seat for seat in self.seats if seat.player.name in active)


# The share page shows this many of the latest rounds; older ones are a tap away.
LATEST_ROUNDS = 10


@dataclass(frozen=True)
class Fold:
    """The rows a long score table shows: from round ``first`` to the latest, the
    older ones (1 to ``first`` - 1) one tap away. Only the rows shown are built, so a
    page showing a fold costs the same at round 10,000 as at round 20, apart from the
    replay of the saved scores."""

    rows: tuple[Row, ...]
    first: int  # the first round shown: 1 when none is hidden
    pinned: bool  # the reader asked to see from ``first``: rounds saved later add below
    step: int  # rounds one tap shows more of

    @property
    def hidden(self) -> int:
        """Rounds not shown: 1 to this."""
        return self.first - 1

    @property
    def earlier(self) -> int:
        """The first round shown after one tap on "earlier rounds"."""
        return max(1, self.first - self.step)

    @property
    def more(self) -> int:
        """How many rounds that tap adds."""
        return self.first - self.earlier


def fold_rows(board: Scoreboard, *, latest: int = LATEST_ROUNDS, first: int | None = None) -> Fold:
    """The latest ``latest`` rounds of the table or, when a reader asked for older ones,
    every round from ``first`` on (anything out of range shows the latest)."""
    played = len(board.rows)
    newest = max(1, played - latest + 1)
    start = newest if first is None or first < 1 else min(first, newest)
    return Fold(rows=board.rows[start - 1 :], first=start, pinned=start < newest, step=latest)


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


def _load_scoreboard(session: GameSession) -> Scoreboard:
    ruleset = ruleset_of(session)
    seats = tuple(session.seats.select_related("player").order_by("position"))
    names = [seat.player.name for seat in seats]
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
    ignored: list[str] = []
    dealers = [name_of_seat[dealer] for _, _, dealer, _, _ in rounds if dealer in name_of_seat]
    first_dealer = name_of_seat.get(session.first_dealer_id)
    rejoins = [
        (name_of_seat[seat_id], after)
        for seat_id, after in session.rejoins.order_by("after_round", "pk").values_list(
            "seat_id", "after_round"
        )
        if seat_id in name_of_seat
    ]
    while True:
        try:
            state = session_state(
                ruleset,
                names,
                scores,
                ceiling=session.ceiling,
                dealers=dealers,
                first_dealer=first_dealer,
                rejoins=rejoins,
                closed=session.closed_at is not None,
            )
            break
        except RulesError as error:
            # An edit to an earlier round can make a later rejoin break the rules
            # (a total now above the cutoff): it no longer counts, and the page says so.
            index = int(error.field.removeprefix("rejoins[").rstrip("]"))
            name, after = rejoins.pop(index)
            ignored.append(f"{name}'s rejoin after round {after} is ignored: {error.message}.")
    for name, number in hands_after_elimination(state):
        ignored.append(
            f"{name} was out before round {number} but has a hand in it (an earlier round "
            f"was edited): it still counts. Edit or delete round {number} if it should not."
        )
    rejoined_after: dict[str, list[int]] = {name: [] for name in names}
    for line in state.lines:
        for name in line.rejoined:
            rejoined_after[name].append(line.number)
    by_name = {seat.player.name: seat for seat in seats}
    columns = tuple(
        Column(
            seat=seat,
            name=seat.player.name,
            total=state.totals[seat.player.name],
            distance=state.distance_to_ceiling(seat.player.name),
            eliminated_in=state.eliminated_in.get(seat.player.name),
            winner=seat.player.name in state.winners,
            deals_next=seat.player.name == state.next_dealer,
            rejoined_after=tuple(rejoined_after[seat.player.name]),
            **_rejoin_offer(state, ruleset, seat.player.name),
        )
        for seat in seats
    )
    return Scoreboard(
        session=session,
        ruleset=ruleset,
        state=state,
        seats=seats,
        columns=columns,
        rows=Rows(session, rounds, state, names, name_of_seat),
        next_dealer=by_name.get(state.next_dealer) if state.next_dealer else None,
        warnings=tuple(ignored),
    )


def _rejoin_offer(state: SessionState, ruleset: Ruleset, name: str) -> dict:
    """For a player who is out, under rules that let them buy back in: the total
    they would rejoin at now, or the rules service's reason why they may not."""
    if name not in state.eliminated_in or state.finished or ruleset.rejoin_cutoff is None:
        return {}
    problem = state.rejoin_problem(name)
    if problem:
        return {"rejoin_refused": problem}
    return {"rejoin_at": state.rejoin_total()}


def refresh_session(session: GameSession) -> Scoreboard:
    """After any change to a session's rounds: its status, each seat's result and,
    for a league session that is or was finished, the league's ratings. Runs in the
    transaction of the change."""
    board = load_scoreboard(session)
    was_finished = session.status == GameSession.Status.FINISHED
    session.status = GameSession.Status.FINISHED if board.finished else GameSession.Status.ACTIVE
    session.save(update_fields=["status", "updated_at"])  # updated_at: the live view's cue
    _store_results(session, board)
    if session.league_id and (board.finished or was_finished):
        ratings.replay(session.league_id, since=session)
    return board


# Outcomes that count as a drop in the standings' drop rate.
DROPS = ("first_drop", "middle_drop", "declare_timeout")


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
            dropped=Count("id", filter=Q(outcome__in=DROPS)),
            points=Sum("score"),
            best=best("score"),
            worst=worst("score"),
        )
    }
    seats = list(board.seats)
    for seat in seats:
        name = seat.player.name
        row = rows.get(seat.player_id, {})
        seat.total = state.totals[name]
        seat.place = state.place(name)
        seat.won = state.finished and name in state.winners
        seat.rounds_played = row.get("played", 0)
        seat.rounds_won = row.get("won", 0)
        seat.drops = row.get("dropped", 0)
        seat.points = row.get("points") or 0
        seat.best_round = row.get("best")
        seat.worst_round = row.get("worst")
    Seat.objects.bulk_update(
        seats,
        [
            "total",
            "place",
            "won",
            "rounds_played",
            "rounds_won",
            "drops",
            "points",
            "best_round",
            "worst_round",
        ],
    )


# --- Entering a round ------------------------------------------------------------------


@dataclass(frozen=True)
class RoundEntry:
    """What the round form is for: a new round of a session, or an earlier one."""

    session: GameSession
    ruleset: Ruleset
    seats: tuple[Seat, ...]  # the round's players, in seat order
    number: int
    dealer: Seat | None
    round: Round | None = None  # None for a new round
    finished: bool = False  # a new round on a finished session: nothing to enter
    winners: tuple[str, ...] = ()


def new_round_entry(session: GameSession, board: Scoreboard | None = None) -> RoundEntry:
    """The next round: every player still in, dealt by the next dealer."""
    board = board or load_scoreboard(session)
    return RoundEntry(
        session=session,
        ruleset=board.ruleset,
        seats=board.playing_seats,
        number=len(board.rows) + 1,
        dealer=board.next_dealer,
        finished=board.finished,
        winners=board.winners,
    )


def round_entry_for_edit(played: Round, board: Scoreboard | None = None) -> RoundEntry:
    """An earlier round: the players who have a hand in it, plus anyone seated who
    was still in when it was played (an edit may bring a player back in)."""
    board = board or load_scoreboard(played.session)
    in_round = set(played.entries.values_list("player_id", flat=True))
    out_before = {
        name for name, number in board.state.eliminated_in.items() if number < played.number
    }
    seats = tuple(
        seat
        for seat in board.seats
        if seat.player_id in in_round or seat.player.name not in out_before
    )
    return RoundEntry(
        session=played.session,
        ruleset=board.ruleset,
        seats=seats,
        number=played.number,
        dealer=played.dealer,
        round=played,
    )


def initial_values(played: Round) -> tuple[str, dict[int, tuple[str, str]]]:
    """A saved round as the form shows it: the cut joker and, per seat, the outcome
    and the groups in canonical notation."""
    seat_of = {seat.player_id: seat.pk for seat in played.session.seats.all()}
    values = {}
    for entry in played.entries.all():
        groups = [[parse_card(code) for code in group] for group in entry.groups]
        values[seat_of.get(entry.player_id)] = (entry.outcome, format_groups(groups))
    return played.cut_joker, values


@dataclass(frozen=True)
class Suggestion:
    """The best grouping of a player's cards (the rules service's solver), and how it
    compares with the grouping typed."""

    groups: tuple[tuple[Card, ...], ...]
    declaration: str | None  # the way these cards declare, if they can
    hand_points: int | None  # what the best grouping costs for the outcome typed
    saving: int  # points the grouping as typed costs more than the best one

    @property
    def text(self) -> str:
        return format_groups(self.groups)


# Outcomes whose grouping matters: a loser's count, or whether a declaration holds.
_ARRANGED_OUTCOMES = ("shown", "deal_show", "declared", "invalid_declaration")


def suggest_grouping(
    ruleset: Ruleset, cut: Card, hand: PlayerHand, assessment: HandAssessment
) -> Suggestion | None:
    """For a whole hand, the best grouping and what it would save; None otherwise."""
    if hand.outcome not in _ARRANGED_OUTCOMES or len(hand.cards) != ruleset.hand_size:
        return None
    try:
        best = arrange(ruleset, cut, hand.cards)
    except RulesError:
        return None  # e.g. too many copies of a card: the hand's own error says so
    if hand.outcome not in ("shown", "deal_show"):
        return Suggestion(best.groups, best.declaration, None, 0)
    arranged = assess_hand(ruleset, cut, PlayerHand(hand.name, hand.outcome, best.groups))
    saving = max((assessment.hand_points or 0) - (arranged.hand_points or 0), 0)
    return Suggestion(best.groups, best.declaration, arranged.hand_points, saving)


def arranged_text(ruleset: Ruleset, cut_text: str, groups_text: str) -> str:
    """The best grouping of the cards typed, in card notation (the form's Arrange
    action). Raises RulesError with a message to show beside the field."""
    try:
        cut = parse_card(cut_text or "")
    except CardError:
        raise RulesError("Enter the cut joker first: the best grouping depends on it.") from None
    cards = [card for group in parse_groups(groups_text) for card in group]  # CardError
    if not cards:
        raise RulesError("Type the cards first, in any order.")
    return format_groups(arrange(ruleset, cut, cards).groups)


@dataclass
class PlayerCheck:
    """One player's part of a round being entered, as the rules service sees it."""

    seat: Seat
    outcome: str | None
    text: str
    hand: PlayerHand | None = None  # None until the groups parse
    assessment: HandAssessment | None = None  # the live preview (needs the cut joker)
    best: Suggestion | None = None  # the best grouping of a whole hand, for comparison
    result: PlayerResult | None = None  # the settlement, once the round scores
    outcome_errors: list[str] = field(default_factory=list)
    groups_errors: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.seat.player.name

    @property
    def errors(self) -> list[str]:
        return self.outcome_errors + self.groups_errors


@dataclass
class RoundCheck:
    """A round as typed so far: the jokers, each player's preview, and either the
    round's settlement or the errors that stop it, each placed where it belongs."""

    entry: RoundEntry
    cut: Card | None
    players: list[PlayerCheck]
    jokers: tuple[str, ...] = ()
    result: RoundResult | None = None
    cut_errors: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # about the round as a whole

    @property
    def valid(self) -> bool:
        return self.result is not None and not self.has_errors

    @property
    def has_errors(self) -> bool:
        return bool(self.cut_errors or self.errors or any(p.errors for p in self.players))


_PLAYER_FIELD = re.compile(r"players\[(\d+)\]\.(\w+)")


def check_round(
    entry: RoundEntry,
    cut_text: str | None,
    hands: Mapping[int, tuple[str | None, str | None]],
    *,
    final: bool,
) -> RoundCheck:
    """Check a round as typed: ``hands`` maps seat ids to (outcome, groups text).

    ``None`` stands for a value the form already refused. While typing (``final``
    False) each hand is previewed with ``assess_hand`` and the round is scored once
    every hand is complete; when saving (``final``) the round is always scored, so
    every error the rules service finds is reported next to its player.
    """
    check = RoundCheck(entry=entry, cut=None, players=[])
    ruleset = entry.ruleset
    if cut_text:
        try:
            check.cut = parse_card(cut_text)
        except CardError as error:
            check.cut_errors.append(f"Cut joker: {error.message}")
    elif cut_text is not None and final:
        check.cut_errors.append("Enter the cut joker, e.g. 8S.")
    if check.cut is not None:
        check.jokers = tuple(joker_roles(ruleset, check.cut).joker_codes)

    for seat in entry.seats:
        outcome, text = hands.get(seat.pk, (None, None))
        player = PlayerCheck(seat=seat, outcome=outcome, text=text or "")
        check.players.append(player)
        if text is None:
            continue
        try:
            groups = parse_groups(text)
        except CardError as error:
            player.groups_errors.append(error.message)
            continue
        if outcome is None:
            continue
        player.hand = PlayerHand(
            name=seat.player.name, outcome=outcome, groups=tuple(tuple(g) for g in groups)
        )
        # An untouched field of a player who must show a hand has nothing to preview
        # yet ("must show all 21 cards, not 0" beside every player would be noise).
        if check.cut is not None and (text or outcome not in FULL_HAND_OUTCOMES):
            player.assessment = assess_hand(ruleset, check.cut, player.hand)
            player.best = suggest_grouping(ruleset, check.cut, player.hand, player.assessment)

    hands_ready = all(player.hand is not None for player in check.players)
    complete = hands_ready and all(
        player.hand.outcome not in FULL_HAND_OUTCOMES or len(player.hand.cards) == ruleset.hand_size
        for player in check.players
        if player.hand is not None
    )
    if check.cut is None or not hands_ready or not (complete or final):
        return check
    try:
        check.result = score_round(ruleset, check.cut, [p.hand for p in check.players])
    except RoundErrors as errors:
        _place_errors(check, errors.errors)
    else:
        for player, result in zip(check.players, check.result.players, strict=True):
            player.result = result
    return check


def _place_errors(check: RoundCheck, errors: Iterable[RulesError]) -> None:
    """Put each error of the rules service next to the player it concerns: its field
    indexes the list of hands we passed, which is the round's seat order."""
    players = check.players
    for error in errors:
        match = _PLAYER_FIELD.match(error.field)
        if match and int(match[1]) < len(players):
            player = players[int(match[1])]
            if match[2] == "outcome":
                player.outcome_errors.append(error.message)
            elif match[2] == "groups":
                player.groups_errors.append(error.message)
            else:
                check.errors.append(error.message)
            continue
        winners = [p for p in players if p.outcome in WINNING_OUTCOMES]
        if error.field == "players" and len(winners) > 1:
            # "More than one winner" names the round, not a player; it belongs
            # beside each of the players entered as winning.
            for player in winners:
                player.outcome_errors.append(error.message)
        elif error.field == "cut_joker":
            check.cut_errors.append(error.message)
        else:
            check.errors.append(error.message)


def breakdown_of(result: PlayerResult) -> dict:
    return {
        "lines": list(result.breakdown),
        "groups": [
            {
                "cards": [card.code for card in group.cards],
                "kind": str(group.kind),
                "label": group.kind.label,
                "counted": group.counted,
                "left_out": group.left_out,
            }
            for group in result.groups
        ],
        "value_cards": [card.code for card in result.value_cards],
    }


class RoundConflict(EntryRejected):
    """Another device saved this round first: ``theirs`` is their version (None if
    they deleted it). Nothing of ours was written."""

    def __init__(self, message: str, theirs: Round | None) -> None:
        super().__init__(message)
        self.theirs = theirs


def round_snapshot(played: Round) -> dict:
    """A round as the audit trail keeps it: enough to show what it was."""
    entries = played.entries.select_related("player").order_by("pk")
    return {
        "cut_joker": played.cut_joker,
        "dealer": played.dealer.player.name if played.dealer_id else None,
        "version": played.version,
        "entries": [
            {
                "player": entry.player.name,
                "outcome": entry.outcome,
                "groups": entry.groups,
                "score": entry.score,
            }
            for entry in entries
        ],
    }


def _record(played: Round, action: str, user: AnyUser, before: dict | None, after: dict | None):
    RoundChange.objects.create(
        session_id=played.session_id,
        round=played if action != RoundChange.Action.DELETED else None,
        number=played.number,
        action=action,
        changed_by=user if user.is_authenticated else None,
        before=before,
        after=after,
    )


def _changed_on_another_device(played: Round | None, what: str) -> str:
    if played is None:
        return f"{what} was deleted on another device meanwhile. Nothing of yours was saved."
    who = played.entered_by.get_username() if played.entered_by else "someone"
    return (
        f"{what} was saved on another device by {who} meanwhile: their version is shown. "
        "Nothing of yours was saved; what you typed is still here."
    )


def _edit_already_saved(
    current: Round | None, check: RoundCheck, user: AbstractBaseUser | None, version: int | None
) -> bool:
    """Whether ``current`` is exactly what this edit would write, written by this user
    as the very next version: the same form sent again after its answer was lost (an
    edit has no submission token, so its content and version stand in for one)."""
    if current is None or version is None or user is None:
        return False
    if current.version != version + 1 or current.entered_by_id != user.pk:
        return False
    stored = [
        (entry.player_id, entry.outcome, entry.groups) for entry in current.entries.order_by("pk")
    ]
    typed = [
        (
            player.seat.player_id,
            result.outcome,
            [[card.code for card in group] for group in player.hand.groups],
        )
        for player, result in zip(check.players, check.result.players, strict=True)
        if player.hand is not None
    ]
    return current.cut_joker == check.cut.code and stored == typed


def save_round(
    entry: RoundEntry,
    check: RoundCheck,
    user: AnyUser,
    *,
    version: int | None = None,
    expected_number: int | None = None,
    submission: str | None = None,
) -> Round:
    """Save a checked round: a new one at the end, or an edit of ``entry.round``.

    A new round is saved only as round ``expected_number`` (the number its form
    showed) and only once per ``submission`` token: the same token again returns
    the round it saved (a double tap, a retried request). An edit saves only if the
    round is still at ``version``. Otherwise RoundConflict (another device saved
    first) or EntryRejected is raised and nothing is saved."""
    if not check.valid or check.cut is None or check.result is None:
        raise ValueError("only a round the rules service scored can be saved")
    entered_by = user if user.is_authenticated else None
    with transaction.atomic():
        # Lock the session row: two phones saving at once are serialised here.
        session = GameSession.objects.select_for_update().get(pk=entry.session.pk)
        if entry.round is None:
            if submission:
                done = session.rounds.filter(submission=submission).first()
                if done is not None:
                    return done  # this very form was saved already
            last = session.rounds.aggregate(last=Max("number"))["last"] or 0
            if expected_number is not None and expected_number != last + 1:
                theirs = session.rounds.filter(number=expected_number).first()
                what = f"Round {expected_number}"
                raise RoundConflict(_changed_on_another_device(theirs, what), theirs)
            board = load_scoreboard(session)
            if board.finished:
                raise EntryRejected("This session is over: it takes no new rounds.")
            if [s.pk for s in board.playing_seats] != [s.pk for s in entry.seats]:
                raise EntryRejected(
                    "The table changed while this round was typed: reload and enter it again."
                )
            played = Round.objects.create(
                session=session,
                number=last + 1,
                dealer=board.next_dealer,
                cut_joker=check.cut.code,
                entered_by=entered_by,
                submission=submission or None,
            )
            before = None
        else:
            current = session.rounds.select_related("entered_by").filter(pk=entry.round.pk).first()
            if _edit_already_saved(current, check, entered_by, version):
                return current  # this very edit, retried after its answer was lost
            if current is None or current.version != version:
                what = f"Round {entry.round.number}"
                raise RoundConflict(_changed_on_another_device(current, what), current)
            before = round_snapshot(current)
            Round.objects.filter(pk=current.pk).update(
                cut_joker=check.cut.code,
                entered_by=entered_by,
                version=F("version") + 1,
                updated_at=timezone.now(),
            )
            played = Round.objects.select_related("dealer__player").get(pk=current.pk)
            played.entries.all().delete()
        HandEntry.objects.bulk_create(
            HandEntry(
                round=played,
                player=player.seat.player,
                outcome=result.outcome,
                groups=[[card.code for card in group] for group in player.hand.groups],
                declaration=result.declaration or "",
                hand_points=result.hand_points,
                value_points=result.value_points,
                claims=result.claims,
                score=result.score,
                breakdown=breakdown_of(result),
            )
            for player, result in zip(check.players, check.result.players, strict=True)
            if player.hand is not None
        )
        action = RoundChange.Action.CREATED if before is None else RoundChange.Action.EDITED
        _record(played, action, user, before, round_snapshot(played))
        refresh_session(session)
    return played


def delete_round(played: Round, user: AnyUser, *, version: int | None = None) -> None:
    """Delete a round and close the gap: later rounds move up one number, in
    ascending order and one row at a time, so (session, number) stays unique at
    every step (PostgreSQL checks it per row, not at the end of the statement).
    With ``version``, only if nobody changed the round since (else RoundConflict)."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=played.session_id)
        current = (
            session.rounds.select_related("entered_by", "dealer__player")
            .filter(pk=played.pk)
            .first()
        )
        what = f"Round {played.number}"
        if current is None or (version is not None and current.version != version):
            raise RoundConflict(_changed_on_another_device(current, what), current)
        _record(current, RoundChange.Action.DELETED, user, round_snapshot(current), None)
        number = current.number
        Round.objects.filter(pk=current.pk).delete()
        later = session.rounds.filter(number__gt=number).order_by("number")
        for pk in later.values_list("pk", flat=True):
            Round.objects.filter(pk=pk).update(number=F("number") - 1)
        refresh_session(session)


def round_history(session: GameSession, played: Round | None = None) -> QuerySet[RoundChange]:
    """The audit trail of a session (or of one of its rounds), newest first."""
    changes = session.changes.select_related("changed_by").order_by("-changed_at", "-pk")
    return changes.filter(round=played) if played is not None else changes


# --- Starting a session ----------------------------------------------------------------


def toss_seats(names: Sequence[str], ruleset: Ruleset, rng: random.Random | None = None):
    """Deal one card to each player: [(name, Card)] from the highest card to the
    lowest, which is the seat order; the last player deals first."""
    return toss(list(names), rng or random.Random(), ruleset.decks)


def name_key(name: str) -> str:
    """How two spellings of a player's name are compared: NFKC (look-alike letters
    are the letters they look like), case folded, runs of whitespace as one space;
    as the session form compares seats. Compared in Python, not by the database's
    LOWER, which folds only ASCII on SQLite."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _seating_tiers(user: AnyUser, league: League | None) -> Iterator[QuerySet[Player]]:
    """Players a name may resolve to, most preferred first: those of the league's
    own sessions, of the user's own tables outside any league, then of every league
    the user is in. Together the sessions of `sessions_visible_to`, never another;
    each tier one semi-join on the seats (a few ms on a league of 20,000 sessions,
    where one query over the visible sessions took 140)."""
    tiers = []
    if league is not None:
        tiers.append(Seat.objects.filter(session__league=league))
    if user.is_authenticated:
        tiers.append(Seat.objects.filter(session__created_by=user, session__league__isnull=True))
        leagues = Membership.objects.filter(user=user).values("league_id")
        tiers.append(Seat.objects.filter(session__league__in=leagues))
    for seats in tiers:
        yield Player.objects.filter(pk__in=seats.values("player_id"))


def players_for_seats(
    names: Sequence[str], user: AnyUser, league: League | None = None
) -> list[int]:
    """The player id each typed name seats, in order: the player of that name
    (name_key) that ``user`` already sees at a table, the league's own first, the
    oldest of a tier if two match; else a new player spelt as typed. Another club's
    players are never found, so seating "asha" does not reveal their "Asha"."""
    wanted = {name_key(name) for name in names}
    found: dict[str, int] = {}
    for players in _seating_tiers(user, league):
        if wanted <= found.keys():
            break
        for pk, name in players.order_by("pk").values_list("pk", "name"):
            key = name_key(name)
            if key in wanted:
                found.setdefault(key, pk)
    ids = []
    for name in names:
        key = name_key(name)
        if key not in found:
            found[key] = Player.objects.create(name=name).pk
        ids.append(found[key])
    return ids


def _lock_seating(user: AnyUser, league: League | None) -> None:
    """One seating at a time per league (per user outside leagues): two phones
    seating the same new name at once then make one player, the second finding the
    first's once the first commits. Cheap: a row lock held while a session starts.
    A league's table and a member's own table started at the same moment may still
    make two players of one new name; seating later picks the oldest of them."""
    if league is not None:
        rows = League.objects.filter(pk=league.pk)
    elif user.is_authenticated:
        rows = get_user_model().objects.filter(pk=user.pk)
    else:
        return
    list(rows.select_for_update().values_list("pk", flat=True))


def create_session(
    user: AnyUser,
    *,
    preset: str,
    overrides: Mapping[str, object],
    players: Sequence[str],
    first_dealer: int = 0,
    ceiling: int | None = None,
    name: str = "",
    league: League | None = None,
    played_on: datetime.date | None = None,
    money_per_point: Decimal | None = None,
    buy_in: Decimal | None = None,
) -> GameSession:
    """Seat ``players`` in this order and start a session; ``first_dealer`` indexes
    ``players``. Only the overrides that differ from the preset are stored."""
    ruleset = get_ruleset(preset, dict(overrides))  # raises RulesError
    with transaction.atomic():
        _lock_seating(user, league)
        session = GameSession.objects.create(
            name=name,
            league=league,
            preset=preset,
            overrides=ruleset.overrides_from(PRESETS[preset]),
            ceiling=ceiling,
            created_by=user if user.is_authenticated else None,
            played_on=played_on or timezone.localdate(),
            money_per_point=money_per_point,
            buy_in=buy_in,
        )
        seats = [
            Seat.objects.create(session=session, player_id=player, position=position)
            for position, player in enumerate(players_for_seats(players, user, league), start=1)
        ]
        session.first_dealer = seats[first_dealer]
        session.save(update_fields=["first_dealer"])
    return session


# --- Managing a session: stakes, the end, rejoins, the share link ------------------------


def set_stakes(
    session: GameSession, *, money_per_point: Decimal | None, buy_in: Decimal | None
) -> None:
    """What the session is played for. Saving bumps ``updated_at``, so live views
    redraw the money lines; saving the same stakes again writes nothing."""
    if (session.money_per_point, session.buy_in) == (money_per_point, buy_in):
        return
    session.money_per_point = money_per_point
    session.buy_in = buy_in
    session.save(update_fields=["money_per_point", "buy_in", "updated_at"])


def can_close(board: Scoreboard) -> bool:
    """A points game ends when the table says so (after a round), the best total
    winning; a pool ends only by its ceiling, or by splitting the pot."""
    return not board.pool and bool(board.rows) and not board.finished


def close_session(session: GameSession) -> Scoreboard:
    """End a session without a ceiling: the best total wins (rules service)."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if not can_close(load_scoreboard(session)):
            raise EntryRejected("Only a points game with a round played can be ended here.")
        session.closed_at = timezone.now()
        session.save(update_fields=["closed_at"])
        return refresh_session(session)


def reopen_session(session: GameSession) -> Scoreboard:
    """Undo ``close_session``: the table plays on."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if session.closed_at is None:
            raise EntryRejected("This session was not ended by hand.")
        session.closed_at = None
        session.save(update_fields=["closed_at"])
        return refresh_session(session)


def rejoin(session: GameSession, seat: Seat, user: AnyUser) -> Rejoin:
    """An eliminated player buys back in after the last round, at the total the
    rules service gives (the highest total still in, plus one), if its cutoff allows."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        column = next((c for c in board.columns if c.seat.pk == seat.pk), None)
        if column is None:
            raise EntryRejected("That player has no seat at this table.")
        if column.rejoin_at is None:
            reason = column.rejoin_refused or "rejoining is not played under these rules"
            raise EntryRejected(f"{column.name} may not rejoin: {reason}.")
        made = Rejoin.objects.create(
            session=session,
            seat=column.seat,
            after_round=len(board.rows),
            created_by=user if user.is_authenticated else None,
        )
        refresh_session(session)
    return made


def cancel_rejoin(session: GameSession, rejoin_pk: int) -> None:
    """Take back a rejoin entered by mistake; later totals are replayed without it."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        deleted, _ = session.rejoins.filter(pk=rejoin_pk).delete()
        if not deleted:
            raise EntryRejected("That rejoin was already taken back.")
        refresh_session(session)


def replace_share_token(session: GameSession) -> str:
    """A new read-only link; the old one stops working at once."""
    session.share_token = new_share_token()
    session.save(update_fields=["share_token", "updated_at"])
    return session.share_token


def live_stamp(session: GameSession) -> str:
    """Changes whenever anything on the score table may have changed: a live view
    polls with it and is answered "nothing new" while it matches."""
    return str(int(session.updated_at.timestamp() * 1_000_000))


# --- Money: settling a net-format session, splitting a pool's pot ------------------------

CENT = Decimal("0.01")


def _cents(amount: Decimal) -> int:
    return int((amount / CENT).to_integral_value())


def _money(cents: int) -> Decimal:
    return (Decimal(cents) * CENT).quantize(CENT)


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal


@dataclass(frozen=True)
class PotShare:
    name: str
    drops: int  # first drops the player can still take before the ceiling
    amount: Decimal


@dataclass(frozen=True)
class Money:
    """What the totals are worth: who pays whom (net-format sessions with a value
    per point), or the pot and how it could be split (pools with a buy-in)."""

    per_point: Decimal | None = None
    payments: tuple[Payment, ...] = ()
    buy_in: Decimal | None = None
    pot: Decimal | None = None
    shares: tuple[PotShare, ...] = ()  # a suggested split while the pool is still on
    pot_winners: tuple[str, ...] = ()  # who takes the pot once it is over


def money_of(board: Scoreboard) -> Money | None:
    """The money lines of the session page, or None when it plays for points only.
    Every amount comes from the rules service (settle, pot_split) on the replayed
    totals; this only converts between money and cents."""
    session = board.session
    if is_net(board.ruleset) and session.money_per_point:
        per_point = _cents(session.money_per_point)
        balances = balances_from_totals(board.state.totals, per_point)
        payments = tuple(Payment(t.payer, t.payee, _money(t.amount)) for t in settle(balances))
        return Money(per_point=session.money_per_point, payments=payments)
    if board.pool and session.buy_in:
        # Each seat bought in once, and each rejoin buys in again.
        entries = len(board.seats) + sum(len(c.rejoined_after) for c in board.columns)
        pot = _cents(session.buy_in) * entries
        if board.finished:
            return Money(buy_in=session.buy_in, pot=_money(pot), pot_winners=board.winners)
        drops = remaining_drops(board.state, board.ruleset)
        split = pot_split(board.state, board.ruleset, pot)
        shares = tuple(
            PotShare(name, drops[name], _money(split[name])) for name in board.state.active
        )
        return Money(buy_in=session.buy_in, pot=_money(pot), shares=shares)
    return None
