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


@dataclass(frozen=True)
class RoundLine:
    """One row of the score table: each seated player's score this round (None when
    they sat out, eliminated) and the running totals it left them at. A player who
    rejoins after the round keeps, in ``totals``, the total that put them out; the
    total they buy back in at is ``rejoined``, the start of their next round."""

    number: int
    scores: dict[str, int | None]
    totals: dict[str, int]
    eliminated: tuple[str, ...]  # players eliminated by this round
    rejoined: dict[str, int] = field(default_factory=dict)  # rejoined after it, new total


@dataclass(frozen=True)
class SessionState:
    players: tuple[str, ...]
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

    @property
    def active(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.eliminated_in)

    def place(self, player: str) -> int:
        """1 for the best; players with equal standing share the better place."""
        key = _standing(player, self.totals, self.eliminated_in, self.net)
        return 1 + sum(
            _standing(other, self.totals, self.eliminated_in, self.net) < key
            for other in self.players
        )

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
        return _rejoin_problem(self.ruleset, self, player) if self.ruleset else "no rules"

    def rejoin_total(self) -> int:
        """The total a player rejoins at: the highest total still in, plus one."""
        worst = max(_loss(self.totals[p], self.net) for p in self.active)
        return -(worst + 1) if self.net else worst + 1


def _loss(total: int, net: bool) -> int:
    """How far a total has gone toward the ceiling: penalty totals grow toward it; in
    net totals the ceiling is a limit on what a player has lost."""
    return -total if net else total


def _reached(loss: int, ceiling: int, mode: str) -> bool:
    return loss > ceiling if mode == "out_passing" else loss >= ceiling


def session_state(
    ruleset: Ruleset,
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    *,
    ceiling: int | None = None,
    dealers: Sequence[str] = (),
    first_dealer: str | None = None,
    rejoins: Sequence[tuple[str, int]] = (),
    closed: bool = False,
) -> SessionState:
    """Replay a session's rounds in order.

    ``players`` are in seat order; ``rounds`` map each player who played the round to
    their score; ``ceiling`` overrides the ruleset's; ``dealers`` are the dealers of
    the rounds played so far (the next dealer is the next player still in, clockwise,
    after the last one); ``rejoins`` are (player, after round) in the order they
    happened; ``closed`` means the table ended the session (the best total wins).

    In ``game_ends`` mode the session ends after the round in which a total reaches
    the ceiling and the best total wins; in ``out`` (``out_passing``) mode a player
    whose total reaches (passes) it is eliminated and the last player left wins.
    Raises RulesError (field ``rejoins[i]``) for a rejoin the rules do not allow.
    """
    ceiling = ceiling if ceiling is not None else ruleset.ceiling
    net = ruleset.totals == "net"
    mode = ruleset.ceiling_mode
    totals = {player: 0 for player in players}
    eliminated_in: dict[str, int] = {}
    lines: list[RoundLine] = []
    finished = False
    winners: tuple[str, ...] = ()
    pending = list(enumerate(rejoins))

    def state_so_far(rejoin_order: tuple[str, ...] = ()) -> SessionState:
        return SessionState(
            tuple(players), tuple(lines), dict(totals), dict(eliminated_in), finished,
            winners, ceiling, None, net, rejoin_order, ruleset,
        )  # fmt: skip

    def apply_rejoins(after: int) -> dict[str, int]:
        rejoined: dict[str, int] = {}
        while pending and pending[0][1][1] == after:
            index, (player, _) = pending.pop(0)
            problem = (
                _rejoin_problem(ruleset, state_so_far(), player)
                if player in totals
                else (f"{player!r} has no seat at this table")
            )
            if problem:
                raise RulesError(problem, f"rejoins[{index}]")
            totals[player] = state_so_far().rejoin_total()
            del eliminated_in[player]
            rejoined[player] = totals[player]
        return rejoined

    for number, scores in enumerate(rounds, start=1):
        for player, score in scores.items():
            totals[player] += score
        out_now: tuple[str, ...] = ()
        if ceiling is not None and not finished:
            still_in = [p for p in players if p not in eliminated_in]
            reached = [p for p in still_in if _reached(_loss(totals[p], net), ceiling, mode)]
            if mode == "game_ends" and reached:
                finished = True
                winners = _best(players, totals, net)
            elif reached and mode != "game_ends":
                if len(reached) == len(still_in):
                    # Everyone left reached it in the same round: the best of them stay.
                    best = set(_best(still_in, totals, net))
                    reached = [p for p in reached if p not in best]
                for player in reached:
                    eliminated_in[player] = number
                out_now = tuple(reached)
                remaining = [p for p in still_in if p not in eliminated_in]
                over = [p for p in remaining if _reached(_loss(totals[p], net), ceiling, mode)]
                if len(remaining) == 1 or len(over) == len(remaining):
                    finished, winners = True, tuple(remaining)
        after_round = dict(totals)  # before any rejoin: the round's own arithmetic
        rejoined = apply_rejoins(number) if not finished else {}
        lines.append(
            RoundLine(
                number=number,
                scores={p: scores.get(p) for p in players},
                totals=after_round,
                eliminated=out_now,
                rejoined=rejoined,
            )
        )
    if pending:
        index, (player, after) = pending[0]
        raise RulesError(f"{player} cannot rejoin after round {after}", f"rejoins[{index}]")

    remaining = [p for p in players if p not in eliminated_in]
    if closed and not finished and lines:
        finished, winners = True, _best(remaining, totals, net)
    next_dealer = None if finished else _next_dealer(players, remaining, dealers, first_dealer)
    order = _finishing_order(players, totals, eliminated_in, net)
    # In field order: every local is named for its field.
    return SessionState(
        tuple(players),
        tuple(lines),
        totals,
        eliminated_in,
        finished,
        winners,
        ceiling,
        next_dealer,
        net,
        order,
        ruleset,
    )


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
    do that to rounds saved after it. The scores still count; the table says so."""
    out: set[str] = set()
    stray = []
    for line in state.lines:
        stray += [
            (p, line.number) for p in state.players if p in out and line.scores[p] is not None
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
        return "the session is over"
    last = state.lines[-1].number if state.lines else 0
    if after_round < last:
        return f"round {after_round + 1} has been played since"
    return None


def _rejoin_problem(ruleset: Ruleset, state: SessionState, player: str) -> str | None:
    cutoff = ruleset.rejoin_cutoff
    if cutoff is None or not rejoins_played(ruleset, state.ceiling):  # no cutoff, or not a pool
        return "rejoining is not played under these rules"
    if state.finished:
        return "the session is over"
    if player not in state.eliminated_in:
        return f"{player} is still in"
    above = [p for p in state.active if _loss(state.totals[p], state.net) > cutoff]
    if len(above) == 1:
        (name,) = above
        return f"{name} is still in at {state.totals[name]}, above the cutoff of {cutoff}"
    if above:
        names = ", ".join(f"{p} ({state.totals[p]})" for p in above[:-1])
        last = f"{above[-1]} ({state.totals[above[-1]]})"
        return f"{names} and {last} are still in, above the cutoff of {cutoff}"
    return None


def _standing(
    player: str, totals: Mapping[str, int], eliminated_in: Mapping[str, int], net: bool
) -> tuple[bool, int, int]:
    """Sort key, best first: players still in by total, then those put out, the later
    the better."""
    out = eliminated_in.get(player)
    return (out is not None, -(out or 0), -totals[player] if net else totals[player])


def _finishing_order(
    players: Sequence[str], totals: Mapping[str, int], eliminated_in: Mapping[str, int], net: bool
) -> tuple[str, ...]:
    return tuple(sorted(players, key=lambda p: _standing(p, totals, eliminated_in, net)))


def _best(players: Sequence[str], totals: Mapping[str, int], net: bool) -> tuple[str, ...]:
    """The players with the best total: highest in net totals, lowest in penalty."""
    pick = max if net else min
    best = pick(totals[p] for p in players)
    return tuple(p for p in players if totals[p] == best)


def _next_dealer(
    players: Sequence[str],
    remaining: Sequence[str],
    dealers: Sequence[str],
    first_dealer: str | None,
) -> str | None:
    if not remaining:
        return None
    if not dealers:
        return first_dealer if first_dealer in remaining else remaining[0]
    # The deal passes clockwise (seat order) to the next player still in.
    start = players.index(dealers[-1]) if dealers[-1] in players else -1
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate in remaining:
            return candidate
    return None


# --- Ending a session by hand ------------------------------------------------------------


def can_end_by_hand(pool: bool, rounds_played: int, finished: bool) -> bool:
    """A points game ends when the table says so (after a round), the best total
    winning; a pool ends only by its ceiling, or by splitting the pot."""
    return not pool and rounds_played > 0 and not finished


# --- A pool's pot and how to split it ----------------------------------------------------


def pot_of(buy_in: int, seats: int, rejoins: int) -> int:
    """The pot (in the smallest coin): each seat bought in once, and each rejoin buys in
    again."""
    return buy_in * (seats + rejoins)


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
