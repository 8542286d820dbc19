"""A session's running totals toward its ceiling (docs/rules §5, "Ceiling").

Totals are never typed in: they are the sums of the rounds' scores, recomputed from
the first round whenever any round changes, so an edit to round 1 moves every
later total, elimination and the winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .errors import RulesError
from .rulesets import Ruleset, ceiling_as_total, is_pool
from .speech import gettext as _
from .speech import join_words, list_words

JOIN, LEAVE, REJOIN = "join", "leave", "rejoin"
SEAT_CHANGES = (JOIN, LEAVE, REJOIN)


@dataclass(frozen=True)
class SeatChange:
    """A player joining, leaving or (after being put out) rejoining the table after
    round ``after_round``, before the next (docs/rules §5, "Joining and leaving")."""

    kind: str  # JOIN, LEAVE or REJOIN
    player: str
    after_round: int


@dataclass(frozen=True)
class Seating:
    """The seats from the round after ``after_round`` on, the first seat first: every
    player still in, as a toss for seats (or the table) placed them. Players who are
    out may be listed too; those left off sit after the others, in their old order."""

    after_round: int
    seats: tuple[str, ...]


@dataclass(frozen=True)
class RejoinOffer:
    """What the table may offer a player who is out: the total they would rejoin at
    now, or, where ``problem`` is set, why they may not rejoin now."""

    player: str
    total: int | None
    problem: str | None = None


@dataclass(frozen=True)
class RoundLine:
    """One row of the score table: each seated player's score this round (None when
    they sat out, eliminated) and the running totals it left them at. A player who
    rejoins after the round keeps, in ``totals``, the total that put them out; the
    total they buy back in at is ``rejoined``, the start of their next round.

    ``scores`` has the players at the table that round, in seat order; ``totals``
    everyone who has sat at the table so far, those who left included. ``joined``,
    ``left``, ``rejoined`` and ``seats`` are what changed after the round."""

    number: int
    scores: dict[str, int | None]
    totals: dict[str, int]
    eliminated: tuple[str, ...]  # players eliminated by this round
    rejoined: dict[str, int] = field(default_factory=dict)  # rejoined after it, new total
    dealer: str | None = None  # who dealt it, as given or as the deal passes
    joined: dict[str, int] = field(default_factory=dict)  # joined after it, their total
    left: tuple[str, ...] = ()  # left the table after it
    seats: tuple[str, ...] = ()  # the seating given after it (a toss), if any


@dataclass(frozen=True)
class SessionState:
    """A session replayed by :func:`session_state`: everything the score table shows."""

    players: tuple[str, ...]  # everyone who sat at the table: the first seats, then joiners
    lines: tuple[RoundLine, ...]
    totals: dict[str, int]
    eliminated_in: dict[str, int]  # player → round number that put them out
    finished: bool
    winners: tuple[str, ...]
    ceiling: int | None
    next_dealer: str | None
    net: bool  # net totals (higher is better) or penalty totals (lower is better)
    order: tuple[str, ...] = ()  # finishing order, best first
    ruleset: Ruleset | None = None
    left_after: dict[str, int] = field(default_factory=dict)  # player → last round played
    joined_after: dict[str, int] = field(default_factory=dict)  # player → round before theirs
    seats: tuple[str, ...] = ()  # the seats for the next round: at the table, in or out
    toss_due: bool = False  # a join or leave since the last round calls for a toss

    @property
    def active(self) -> tuple[str, ...]:
        """The players still in: at the table and not put out."""
        return tuple(
            p for p in self.players if p not in self.eliminated_in and p not in self.left_after
        )

    def place(self, player: str) -> int:
        """1 for the best; players with equal standing share the better place."""
        key = _standing(player, self.totals, self._gone_in(), self.net)
        return 1 + sum(
            _standing(other, self.totals, self._gone_in(), self.net) < key for other in self.players
        )

    def _gone_in(self) -> dict[str, int]:
        return self.left_after | self.eliminated_in

    @property
    def ceiling_total(self) -> int | None:
        """The session's ceiling as a total (``ceiling_as_total``)."""
        return ceiling_as_total(self.ceiling, self.net)

    def distance_to_ceiling(self, player: str) -> int | None:
        """Points a player may still lose before reaching the ceiling (0 at or past it)."""
        if self.ceiling is None:
            return None
        return max(self.ceiling - _loss(self.totals[player], self.net), 0)

    def rejoin_problem(self, player: str) -> str | None:
        """Why ``player`` may not rejoin now, or None if they may."""
        return _rejoin_problem(self.ruleset, self, player) if self.ruleset else _("no rules")

    def rejoin_total(self) -> int:
        """The total a player rejoins at: the highest total still in, plus one."""
        worst = max(_loss(self.totals[p], self.net) for p in self.active)
        return -(worst + 1) if self.net else worst + 1

    def rejoin_offers(self) -> tuple[RejoinOffer, ...]:
        """For each player who is out and still at the table, in seat order, under
        rules that let players buy back in: the total they would rejoin at now, or why
        they may not. Empty once the session is over."""
        if self.ruleset is None or self.finished:
            return ()
        if not rejoins_played(self.ruleset, self.ceiling):
            return ()
        offers = []
        for player in self.seats:
            if player not in self.eliminated_in:
                continue
            problem = self.rejoin_problem(player)
            total = None if problem else self.rejoin_total()
            offers.append(RejoinOffer(player, total, problem))
        return tuple(offers)

    def join_problem(self) -> str | None:
        """Why nobody may join the table now, or None if a player may."""
        if self.ruleset is None:
            return _("no rules")
        return _join_problem(self.ruleset, self)

    def join_total(self) -> int:
        """The total a player joining now starts at (``join_total`` of the rules)."""
        assert self.ruleset is not None, "a state replayed by session_state"
        return _join_total(self.ruleset, self)


def _loss(total: int, net: bool) -> int:
    """How far a total has gone toward the ceiling: penalty totals grow toward it; in
    net totals the ceiling is a limit on what a player has lost."""
    return -total if net else total


def _reached(loss: int, ceiling: int, mode: str) -> bool:
    return loss > ceiling if mode == "out_passing" else loss >= ceiling


@dataclass(frozen=True)
class _Event:
    """A change between rounds with the input field it came from, for the error."""

    change: SeatChange | Seating
    where: str


@dataclass
class _Gap:
    """What changes between a round and the next, gathered for the round's line."""

    joined: dict[str, int] = field(default_factory=dict)
    left: list[str] = field(default_factory=list)
    rejoined: dict[str, int] = field(default_factory=dict)
    seats: tuple[str, ...] = ()


def session_state(
    ruleset: Ruleset,
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    *,
    ceiling: int | None = None,
    dealers: Sequence[str] = (),
    first_dealer: str | None = None,
    rejoins: Sequence[tuple[str, int]] = (),
    changes: Sequence[SeatChange | Seating] = (),
    closed: bool = False,
) -> SessionState:
    """Replay a session's rounds in order, and the changes to the table between them.

    ``players`` are the first seats in order; ``rounds`` map each player who played
    the round to their score; ``ceiling`` overrides the ruleset's; ``dealers`` are
    who dealt the rounds played so far, the last one the last round (the rounds
    without one left out: the deal passes on clockwise from the last one given, and
    from ``first_dealer``, or the first seat, when none is); ``rejoins`` are (player,
    after round), the same as ``SeatChange(REJOIN, …)``; ``changes`` are the joins,
    leaves, rejoins and new seatings between rounds, each round's in the order they
    happened; ``closed`` means the table ended the session (the best total wins).

    In ``game_ends`` mode the session ends after the round in which a total reaches
    the ceiling and the best total wins; in ``out`` (``out_passing``) mode a player
    whose total reaches (passes) it is eliminated and the last player left wins.
    A player who leaves keeps their total and is settled with it, plays no later
    round and cannot win; when one player is left in, the session is over and they
    win. Raises RulesError, its field ``rejoins[i]``, ``changes[i]``, ``dealers[i]``
    or ``rounds[i].<player>``, for a change the rules do not allow or a score or
    dealer of a player not at the table.
    """
    ceiling = ceiling if ceiling is not None else ruleset.ceiling
    net = ruleset.totals == "net"
    mode = ruleset.ceiling_mode
    everyone = list(players)
    totals = {player: 0 for player in players}
    eliminated_in: dict[str, int] = {}
    left_after: dict[str, int] = {}
    joined_after: dict[str, int] = {}
    # Leavers keep their seat until a new seating: the deal passes on from where they sat.
    seating = list(players)
    lines: list[RoundLine] = []
    finished = False
    winners: tuple[str, ...] = ()
    events = [
        _Event(SeatChange(REJOIN, p, after), f"rejoins[{i}]")
        for i, (p, after) in enumerate(rejoins)
    ]
    events += [_Event(change, f"changes[{i}]") for i, change in enumerate(changes)]
    # Each gap's changes in the order given; the gaps in round order.
    events.sort(key=lambda event: event.change.after_round)
    pending = list(events)
    toss_due = False
    tossed: tuple[str, ...] = ()  # the seats a toss gave since the last round, if one did
    last_dealer: str | None = None
    dealers = tuple(dealers or ())  # callers without any have passed None
    offset = len(rounds) - len(dealers)  # dealers[-1] dealt the last round

    def state_so_far() -> SessionState:
        return SessionState(
            tuple(everyone), tuple(lines), dict(totals), dict(eliminated_in), finished,
            winners, ceiling, None, net, (), ruleset, dict(left_after), dict(joined_after),
            _at_table(seating, left_after), toss_due,
        )  # fmt: skip

    def still_in() -> list[str]:
        return [p for p in seating if p not in eliminated_in and p not in left_after]

    def deals_next() -> str | None:
        """Who deals the next round as the rules pass the deal (None: a toss decides)."""
        in_seats = still_in()
        if toss_due or not in_seats:
            return None
        # The lowest toss card, the toss's last seat, deals first: not a player who
        # rejoined after the toss and sits after its seats without a card.
        drew = [p for p in tossed if p in in_seats]
        if drew:
            return drew[-1]
        if last_dealer is None:
            if lines:
                return None  # nobody is known to have dealt the last round
            return first_dealer if first_dealer in in_seats else in_seats[0]
        return _clockwise_after(seating, last_dealer, in_seats)

    def apply(event: _Event, after: int, gap: _Gap) -> None:
        nonlocal finished, winners, seating, toss_due, tossed
        change, where = event.change, event.where
        if finished:
            if isinstance(change, SeatChange) and change.kind == REJOIN:
                raise RulesError(_no_rejoin_after(change.player, after), where)
            said = _("the session is over after round {number}").format(number=after)
            raise RulesError(said, where)
        if isinstance(change, Seating):
            seating = _reseated(change, seating, left_after, eliminated_in, where)
            tossed, toss_due = change.seats if ruleset.toss_on_change else (), False
            gap.seats = tuple(seating)
            return
        player = change.player
        if change.kind == JOIN:
            problem: str | None = (
                _not_new(player, left_after)
                if player in totals
                else _join_problem(ruleset, state_so_far())
            )
            if problem:
                said = _("{name} cannot join: {problem}").format(name=player, problem=problem)
                raise RulesError(said, where, beside=problem)
            totals[player] = _join_total(ruleset, state_so_far())
            everyone.append(player)
            seating.append(player)
            joined_after[player] = after
            gap.joined[player] = totals[player]
        elif change.kind == LEAVE:
            if player not in totals or player in left_after:
                raise RulesError(_not_seated(player, left_after), where)
            if joined_after.get(player) == after:
                # Nothing to keep or settle: the join itself was the mistake.
                said = _("{name} joined after round {number} and played no round")
                raise RulesError(said.format(name=player, number=after), where)
            left_after[player] = after
            gap.left.append(player)
            remaining = still_in()
            if len(remaining) <= 1:  # nobody left to play against: the last one wins
                finished, winners = True, tuple(remaining)
        elif change.kind == REJOIN:
            if player not in totals:
                problem = _("{name} has no seat at this table").format(name=repr(player))
            elif player in left_after:
                problem = _("{name} has left the table").format(name=player)
            else:
                problem = _rejoin_problem(ruleset, state_so_far(), player)
            if problem:
                raise RulesError(problem, where)
            totals[player] = state_so_far().rejoin_total()
            del eliminated_in[player]
            gap.rejoined[player] = totals[player]
            return  # a rejoin keeps the seating: no toss
        else:
            said = _("a change is a {kinds}, not {kind}")
            raise RulesError(
                said.format(kinds=list_words(SEAT_CHANGES), kind=repr(change.kind)), where
            )
        if ruleset.toss_on_change and not finished:
            toss_due, tossed = True, ()

    for number, scores in enumerate(rounds, start=1):
        seated = _at_table(seating, left_after)
        for player, score in scores.items():
            if player not in seated:
                raise RulesError(_not_in_round(player, number), f"rounds[{number - 1}].{player}")
            totals[player] += score
        given = number - 1 - offset
        if 0 <= given < len(dealers):
            dealer: str | None = dealers[given]
            if dealer not in seated:
                raise RulesError(_not_in_round(str(dealer), number), f"dealers[{given}]")
        else:
            dealer = deals_next()
        last_dealer, tossed, toss_due = dealer, (), False
        out_now: tuple[str, ...] = ()
        if ceiling is not None and not finished:
            in_now = still_in()
            reached = [p for p in in_now if _reached(_loss(totals[p], net), ceiling, mode)]
            if mode == "game_ends" and reached:
                finished = True
                winners = _best(in_now, totals, net)
            elif reached and mode != "game_ends":
                if len(reached) == len(in_now):
                    # Everyone left reached it in the same round: the best of them stay.
                    best = set(_best(in_now, totals, net))
                    reached = [p for p in reached if p not in best]
                for player in reached:
                    eliminated_in[player] = number
                out_now = tuple(reached)
                remaining = [p for p in in_now if p not in eliminated_in]
                over = [p for p in remaining if _reached(_loss(totals[p], net), ceiling, mode)]
                if len(remaining) == 1 or len(over) == len(remaining):
                    finished, winners = True, tuple(remaining)
        after_round = dict(totals)  # before any change: the round's own arithmetic
        gap = _Gap()
        while pending and pending[0].change.after_round == number:
            apply(pending.pop(0), number, gap)
        lines.append(
            RoundLine(
                number=number,
                scores={p: scores.get(p) for p in seated},
                totals=after_round,
                eliminated=out_now,
                rejoined=gap.rejoined,
                dealer=dealer,
                joined=gap.joined,
                left=tuple(gap.left),
                seats=gap.seats,
            )
        )
    if pending:
        event = pending[0]
        change = event.change
        after = change.after_round
        if isinstance(change, SeatChange) and change.kind == REJOIN:
            raise RulesError(_no_rejoin_after(change.player, after), event.where)
        if after < 1:
            said = _("a change comes after a round: after_round is at least 1")
            raise RulesError(said, event.where)
        said = _("there is no round {number} to come after").format(number=after)
        raise RulesError(said, event.where)

    remaining = still_in()
    if closed and not finished and lines:
        finished, winners = True, _best(remaining, totals, net)
    next_dealer = None if finished else deals_next()
    gone_in = left_after | eliminated_in
    return SessionState(
        players=tuple(everyone),
        lines=tuple(lines),
        totals=totals,
        eliminated_in=eliminated_in,
        finished=finished,
        winners=winners,
        ceiling=ceiling,
        next_dealer=next_dealer,
        net=net,
        order=_finishing_order(everyone, totals, gone_in, net),
        ruleset=ruleset,
        left_after=left_after,
        joined_after=joined_after,
        seats=_at_table(seating, left_after),
        toss_due=toss_due and not finished,
    )


def _no_rejoin_after(player: str, after: int) -> str:
    return _("{name} cannot rejoin after round {number}").format(name=player, number=after)


def _not_in_round(player: str, number: int) -> str:
    return _("{name} is not at the table in round {number}").format(name=player, number=number)


def _at_table(seating: Sequence[str], left_after: Mapping[str, int]) -> tuple[str, ...]:
    return tuple(p for p in seating if p not in left_after)


def _clockwise_after(seating: Sequence[str], dealer: str, in_seats: Sequence[str]) -> str:
    """The deal passes clockwise (seat order) to the next player still in."""
    start = seating.index(dealer) if dealer in seating else -1
    for step in range(1, len(seating) + 1):
        candidate = seating[(start + step) % len(seating)]
        if candidate in in_seats:
            return candidate
    return in_seats[0]


def _reseated(
    change: Seating,
    seating: Sequence[str],
    left_after: Mapping[str, int],
    eliminated_in: Mapping[str, int],
    where: str,
) -> list[str]:
    """The seating after ``change``: its seats, then the players who are out and not
    in it, in their old order."""
    at_table = _at_table(seating, left_after)
    for index, name in enumerate(change.seats):
        if name not in at_table:
            raise RulesError(_not_seated(name, left_after), f"{where}.seats[{index}]")
        if name in change.seats[:index]:
            said = _("{name} is seated twice").format(name=name)
            raise RulesError(said, f"{where}.seats[{index}]")
    missing = [p for p in at_table if p not in change.seats and p not in eliminated_in]
    if missing:
        said = _("the seats must include {names}").format(names=list_words(missing))
        raise RulesError(said, f"{where}.seats")
    return [*change.seats, *(p for p in at_table if p not in change.seats)]


def _not_seated(player: str, left_after: Mapping[str, int]) -> str:
    if player in left_after:
        said = _("{name} left the table after round {number}")
        return said.format(name=player, number=left_after[player])
    return _("{name} is not at the table").format(name=player)


def _not_new(player: str, left_after: Mapping[str, int]) -> str:
    if player in left_after:
        return _("left the table after round {number}").format(number=left_after[player])
    return _("already at the table")


def _join_problem(ruleset: Ruleset, state: SessionState) -> str | None:
    """Why nobody may join now: the session is over, or a latecomer joins as a rejoin
    in a pool whose rejoins are closed."""
    if state.finished:
        return _("the session is over")
    if ruleset.join_total == "rejoin" and rejoins_played(ruleset, state.ceiling):
        above = _above_cutoff(ruleset, state)
        if above:
            # Translators: who still in is above the rejoin cutoff ("Asha is still in at 85").
            return _("{above}, so rejoining has closed").format(above=above)
    return None


def _join_total(ruleset: Ruleset, state: SessionState) -> int:
    """The total a latecomer starts at, by the ``join_total`` option."""
    if ruleset.join_total == "zero" or not state.active:
        return 0
    worst = max(_loss(state.totals[p], state.net) for p in state.active)
    if ruleset.join_total == "rejoin":
        worst += 1
    return -worst if state.net else worst


def out_before(state: SessionState, number: int) -> frozenset[str]:
    """The players whom a round before round ``number`` put out and who had not
    rejoined by then: those who sat round ``number`` out. (``eliminated_in`` cannot
    tell: it holds only who is out now, a player who rejoined since is not in it.)"""
    out: set[str] = set()
    for line in state.lines[: number - 1]:
        out |= set(line.eliminated)
        out -= set(line.rejoined)
    return frozenset(out)


def hands_after_elimination(state: SessionState) -> list[tuple[str, int]]:
    """(player, round) for each round a player has a score in although an earlier
    round put them out (and they had not rejoined): an edit to an earlier round can
    do that to rounds saved after it. The scores still count; the table says so. A
    player who is out and went home has no place in the rounds after: none of theirs."""
    out: set[str] = set()
    stray = []
    for line in state.lines:
        stray += [
            (p, line.number) for p in state.players if p in out and line.scores.get(p) is not None
        ]
        out |= set(line.eliminated)
        out -= set(line.rejoined)
    return stray


def rejoins_played(ruleset: Ruleset, ceiling: int | None) -> bool:
    """Whether a player who is out may buy back in: a pool with a rejoin cutoff."""
    return ruleset.rejoin_cutoff is not None and is_pool(ruleset, ceiling)


def take_back_problem(state: SessionState, after_round: int, player: str) -> str | None:
    """Why ``player``'s rejoin after round ``after_round`` may no longer be taken back,
    or None while it may: only until the next round is played (that round was dealt
    with the player in, and taking the rejoin back would leave them scores in rounds
    they were out of), and never once the session is over. A rejoin the replay did not
    count (an edit put it past the cutoff) may always be: nothing was dealt on it."""
    counted = any(line.number == after_round and player in line.rejoined for line in state.lines)
    if not counted:
        return None
    if state.finished:
        return _("the session is over")
    last = state.lines[-1].number if state.lines else 0
    if after_round < last:
        return _played_since(after_round + 1)
    return None


def _played_since(number: int) -> str:
    return _("round {number} has been played since").format(number=number)


def change_take_back_problem(state: SessionState, change: SeatChange) -> str | None:
    """Why a join or a leave (``change``) may no longer be taken back, or None while it
    may: only until the next round is played, as a rejoin (that round was dealt to the
    table the change made: a latecomer has hands in it, a leaver none). A leave that
    ended the session (one player left in) may be: taking it back lets the table play
    on. A change the replay did not count (an edit made it break the rules) may always
    be: nothing was dealt on it."""
    if change.kind not in (JOIN, LEAVE):
        said = _("only a join or a leave is taken back here, not a {kind}")
        return said.format(kind=change.kind)
    line = next((line for line in state.lines if line.number == change.after_round), None)
    made = (line.joined if change.kind == JOIN else line.left) if line else ()
    if change.player not in made:
        return None
    last = state.lines[-1].number
    if change.after_round < last:
        return _played_since(change.after_round + 1)
    return None


def _rejoin_problem(ruleset: Ruleset, state: SessionState, player: str) -> str | None:
    cutoff = ruleset.rejoin_cutoff
    if cutoff is None or not rejoins_played(ruleset, state.ceiling):  # no cutoff, or not a pool
        return _("rejoining is not played under these rules")
    if state.finished:
        return _("the session is over")
    if player in state.left_after:
        return _("{name} has left the table").format(name=player)
    if player not in state.eliminated_in:
        return _("{name} is still in").format(name=player)
    above = _above_cutoff(ruleset, state)
    if not above:
        return None
    # Translators: who still in is above the rejoin cutoff ("Asha is still in at 85").
    return _("{above}, above the cutoff of {cutoff}").format(above=above, cutoff=cutoff)


def _above_cutoff(ruleset: Ruleset, state: SessionState) -> str:
    """Who still in is above the rejoin cutoff, in words ("Asha is still in at 85"),
    or "" when nobody is: while nobody is, rejoining is open."""
    cutoff = ruleset.rejoin_cutoff
    if cutoff is None:
        return ""
    above = [p for p in state.active if _loss(state.totals[p], state.net) > cutoff]
    if len(above) == 1:
        (name,) = above
        return _("{name} is still in at {total}").format(name=name, total=state.totals[name])
    if above:
        names = join_words(f"{p} ({state.totals[p]})" for p in above)
        # Translators: players still in, each with their total ("Asha (85) and Ben (90)").
        return _("{names} are still in").format(names=names)
    return ""


def _standing(
    player: str, totals: Mapping[str, int], gone_in: Mapping[str, int], net: bool
) -> tuple[bool, int, int]:
    """Sort key, best first: players still in by total, then those put out or gone
    from the table, the later the better (a leaver as though put out by the last round
    they played)."""
    out = gone_in.get(player)
    return (out is not None, -(out or 0), -totals[player] if net else totals[player])


def _finishing_order(
    players: Sequence[str], totals: Mapping[str, int], gone_in: Mapping[str, int], net: bool
) -> tuple[str, ...]:
    return tuple(sorted(players, key=lambda p: _standing(p, totals, gone_in, net)))


def _best(players: Sequence[str], totals: Mapping[str, int], net: bool) -> tuple[str, ...]:
    """The players with the best total: highest in net totals, lowest in penalty."""
    pick = max if net else min
    best = pick(totals[p] for p in players)
    return tuple(p for p in players if totals[p] == best)


# --- Ending a session by hand ------------------------------------------------------------


def can_end_by_hand(pool: bool, rounds_played: int, finished: bool) -> bool:
    """A points game ends when the table says so (after a round), the best total
    winning; a pool ends only by its ceiling, or by splitting the pot."""
    return not pool and rounds_played > 0 and not finished


# --- A pool's pot and how to split it ----------------------------------------------------


def buy_ins(state: SessionState) -> dict[str, int]:
    """How many times each player bought into a pool: once on sitting down, at the
    start or as a latecomer (who buys in as a player who is out buys back in: docs/rules
    §5, "Joining and leaving"), and once more with each rejoin. A player who left the
    table has paid in all the same."""
    bought = dict.fromkeys(state.players, 1)
    for line in state.lines:
        for player in line.rejoined:
            bought[player] += 1
    return bought


def pot_of(buy_in: int, buy_ins: int) -> int:
    """The pot (in the smallest coin): every buy-in (``buy_ins``: how many were made,
    as :func:`buy_ins` counts them)."""
    return buy_in * buy_ins


def remaining_drops(state: SessionState, ruleset: Ruleset) -> dict[str, int]:
    """For each player still in, how many more first drops they can take before the
    ceiling puts them out: the usual measure for splitting a pool's pot."""
    if state.ceiling is None or ruleset.first_drop <= 0:
        return {p: 0 for p in state.active}
    limit = state.ceiling if ruleset.ceiling_mode == "out_passing" else state.ceiling - 1
    return {
        p: max(limit - _loss(state.totals[p], state.net), 0) // ruleset.first_drop
        for p in state.active
    }


def pot_split(state: SessionState, ruleset: Ruleset, pot: int) -> dict[str, int]:
    """Share a pot (in the smallest coin) among the players still in, in proportion to
    their remaining drops; odd coins go to the largest remainders (then seat order), so
    the shares add up to the pot. With no drops left anywhere, equal shares."""
    drops = remaining_drops(state, ruleset)
    weights = drops if sum(drops.values()) else {p: 1 for p in drops}
    return _share(pot, weights)


def _share(amount: int, weights: Mapping[str, int]) -> dict[str, int]:
    total = sum(weights.values())
    if not total:
        return {name: 0 for name in weights}
    shares = {name: amount * w // total for name, w in weights.items()}
    names = list(weights)
    order = sorted(names, key=lambda n: (-(amount * weights[n] % total), names.index(n)))
    for name in order[: amount - sum(shares.values())]:
        shares[name] += 1
    return shares
