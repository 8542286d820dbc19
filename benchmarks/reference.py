"""An exact reference for the best-arrangement solver: integer programs in OR-Tools
CP-SAT (a dev-only dependency), written from docs/rules independently of
``games/rules/arrange.py``.

Every meld a hand could hold is enumerated from scratch (pure runs by window, impure
runs by subset of the natural cards of a suit, sets by subset of suits, tunnelas),
and a model chooses how many of each to form:

* the top tier maximises the points covered by valid melds with at least the pure
  groups (13-card: a pure and a second sequence) the rules ask for;
* the low tier maximises the points of at most two pure groups (13-card: one;
  Kodai: tunnelas and pure sequences of 4+ cards);
* a declaration (three pure, 13-card show) places every card: no deadwood, and
  every joker in a meld, in a joker group of its own, or in a pure run that then
  stops being pure.

The count-based declarations and two-point hands (tunnelas, dublees, jokers,
marriages) and Kodai's free hands are plain counts of the hand.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from ortools.sat.python import cp_model

from games.rules.cards import ACE, SUITS, Card
from games.rules.melds import joker_roles
from games.rules.rulesets import Ruleset
from games.rules.scoring import is_marriage_group

MAX_RUN = 13


@dataclass(frozen=True)
class Candidate:
    cards: tuple[tuple[Card, int], ...]  # cards standing for themselves, with copies
    wild: int  # jokers standing in for missing cards
    points: int
    pure: bool
    run: bool  # a sequence (pure or impure)
    length: int
    spare: int  # more jokers it could take as a meld of its kind


@dataclass(frozen=True)
class Optimum:
    declares: bool
    hand_points: int  # what the hand costs a loser who shows it (0 if it declares)
    count: int  # the fewest counted points over every grouping


def _points(card: Card, jokers: frozenset[Card]) -> int:
    return 0 if card in jokers else card.face_points


def candidates(rules: Ruleset, held: Counter, jokers: frozenset[Card]) -> list[Candidate]:
    found: list[Candidate] = []
    joker_count = sum(n for card, n in held.items() if card in jokers)
    # Pure runs: a window of consecutive ranks, every card held (a joker as itself).
    for suit in SUITS:
        for start in range(1, 13):
            for end in range(start + 2, min(14, start + MAX_RUN - 1) + 1):
                cards = [Card(ACE if p == 14 else p, suit) for p in range(start, end + 1)]
                if all(held[card] for card in cards):
                    found.append(
                        Candidate(
                            tuple((card, 1) for card in cards),
                            0,
                            sum(_points(card, jokers) for card in cards),
                            True,
                            True,
                            len(cards),
                            MAX_RUN - len(cards),
                        )
                    )
    # Tunnelas: three identical cards.
    if rules.tunnelas_and_dublees:
        for card, n in held.items():
            if n >= 3 and (not card.is_printed_joker or rules.printed_joker_tunnela):
                found.append(
                    Candidate(((card, 3),), 0, 3 * _points(card, jokers), True, False, 3, 0)
                )
    if joker_count == 0:
        return found + _sets(held, jokers, 0)
    # Impure runs: natural cards of one suit (the Ace low or high) and wild jokers.
    for suit in SUITS:
        naturals = sorted(c.rank for c in held if c.suit == suit and c not in jokers)
        seen = set()
        for size in range(1, len(naturals) + 1):
            for chosen in itertools.combinations(naturals, size):
                for ace_high in (False, True) if ACE in chosen else (False,):
                    ranks = sorted(14 if (r == ACE and ace_high) else r for r in chosen)
                    span = ranks[-1] - ranks[0] + 1
                    wild = span - len(ranks) + max(0, 3 - span)
                    key = (chosen, wild)
                    if span > MAX_RUN or wild == 0 or wild > joker_count or key in seen:
                        continue
                    seen.add(key)
                    length = max(span, 3)
                    cards = tuple((Card(r, suit), 1) for r in chosen)
                    found.append(
                        Candidate(
                            cards,
                            wild,
                            sum(Card(r, suit).face_points for r in chosen),
                            False,
                            True,
                            length,
                            MAX_RUN - length,
                        )
                    )
    return found + _sets(held, jokers, joker_count)


def _sets(held: Counter, jokers: frozenset[Card], joker_count: int) -> list[Candidate]:
    found = []
    for rank in range(1, 14):
        suits = [s for s in SUITS if held[Card(rank, s)] and Card(rank, s) not in jokers]
        for size in range(1, len(suits) + 1):
            for chosen in itertools.combinations(suits, size):
                wild = max(0, 3 - size)
                if wild > joker_count:
                    continue
                cards = tuple((Card(rank, s), 1) for s in chosen)
                found.append(
                    Candidate(
                        cards,
                        wild,
                        sum(Card(rank, s).face_points for s in chosen),
                        False,
                        False,
                        size + wild,
                        4 - size - wild,
                    )
                )
    return found


class _Model:
    """One CP-SAT model over the hand's candidate melds."""

    def __init__(self, rules, held, jokers, found, *, complete: bool) -> None:
        self.model = cp_model.CpModel()
        m = self.model
        self.found = found
        joker_count = sum(n for card, n in held.items() if card in jokers)
        self.x = [
            m.new_int_var(0, min(held[c] // k for c, k in cand.cards), f"x{i}")
            for i, cand in enumerate(found)
        ]
        for card, n in held.items():
            use = [
                k * self.x[i] for i, cand in enumerate(found) for c, k in cand.cards if c == card
            ]
            if complete and card not in jokers:
                m.add(sum(use) == n)
            elif use:
                m.add(sum(use) <= n)
        # Jokers: as themselves in pure melds, wild in impure ones, extra in melds with
        # room, or in joker groups of their own (three or more each).
        natural_jokers = [
            k * self.x[i] for i, cand in enumerate(found) for c, k in cand.cards if c in jokers
        ]
        wild = [cand.wild * self.x[i] for i, cand in enumerate(found)]
        self.groups = []
        spent = natural_jokers + wild
        for g in range(2):
            size = m.new_int_var(0, joker_count, f"jg{g}")
            made = m.new_bool_var(f"jgm{g}")
            m.add(size >= 3).only_enforce_if(made)
            m.add(size == 0).only_enforce_if(~made)
            self.groups.append(made)
            spent.append(size)
        self.broken = []  # copies of pure runs that took a joker and are no longer pure
        if complete:
            for i, cand in enumerate(found):
                if cand.spare == 0:
                    continue
                extra = m.new_int_var(0, cand.spare * joker_count, f"e{i}")
                if cand.pure:
                    broken = m.new_int_var(0, 4, f"b{i}")
                    m.add(broken <= self.x[i])
                    m.add(extra <= cand.spare * broken)
                    self.broken.append((i, broken))
                else:
                    m.add(extra <= cand.spare * self.x[i])
                spent.append(extra)
            m.add(sum(spent) == joker_count)
        else:
            m.add(sum(spent) <= joker_count)
        broken_by = dict(self.broken)
        self.pure = sum(
            self.x[i] - broken_by[i] if i in broken_by else self.x[i]
            for i, cand in enumerate(found)
            if cand.pure
        )
        self.sequences = sum(self.x[i] for i, cand in enumerate(found) if cand.run) + sum(
            self.groups
        )
        self.points = sum(cand.points * self.x[i] for i, cand in enumerate(found))

    def solve(self) -> int | None:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        status = solver.solve(self.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        assert status == cp_model.OPTIMAL
        return round(solver.objective_value) if self.model.has_objective() else 0


def _top_tier(rules, held, jokers, found, complete: bool) -> int | None:
    model = _Model(rules, held, jokers, found, complete=complete)
    if rules.hand_size == 13:
        model.model.add(model.pure >= 1)
        model.model.add(model.sequences >= 2)
    else:
        model.model.add(model.pure >= rules.pure_needed)
    if not complete:
        model.model.maximize(model.points)
    return model.solve()


def _low_tier(rules, held, jokers, found) -> int:
    if rules.counting == "kodai":
        eligible = [c for c in found if c.pure and (not c.run or c.length >= 4)]
    else:
        eligible = [c for c in found if c.pure]
    model = _Model(rules, held, jokers, eligible, complete=False)
    model.model.add(sum(model.x) <= (1 if rules.hand_size == 13 else 2))
    model.model.maximize(model.points)
    return model.solve() or 0


def _marriages(held: Counter, roles) -> int:
    if roles.marriage is None:
        return 0
    best = 0
    for trios in range(min(held[c] for c in roles.marriage) + 1):
        left = held.copy()
        for card in roles.marriage:
            left[card] -= trios
        triples = sum(left[c] // 3 for c in left if is_marriage_group([c] * 3, roles))
        best = max(best, trios + triples)
    return best


def optimum(rules: Ruleset, cut: Card, hand: list[Card]) -> Optimum:
    """What the best grouping of ``hand`` is worth under ``rules``."""
    roles = joker_roles(rules, cut)
    jokers = roles.jokers
    held = Counter(hand)
    joker_count = sum(n for card, n in held.items() if card in jokers)
    found = candidates(rules, held, jokers)
    # Kodai's K A 2 with an Ace cut may count as a rummy (docs/rules §3): a pure run of three
    # jokers standing for themselves, worth 0.
    if rules.ace_marriage_pure and rules.upper_lower_jokers and cut.rank == ACE:
        kings_aces_twos = [Card(rank, cut.suit) for rank in (13, ACE, 2)]
        if all(held[card] for card in kings_aces_twos):
            run = tuple((card, 1) for card in kings_aces_twos)
            found.append(Candidate(run, 0, 0, True, True, 3, MAX_RUN - 3))
    tunnelas = sum(
        n // 3 for c, n in held.items() if not c.is_printed_joker or rules.printed_joker_tunnela
    )
    dublees = sum(
        n // 2 for c, n in held.items() if not c.is_printed_joker or rules.printed_joker_dublee
    )
    marriages = _marriages(held, roles)

    def complete(pure_needed_rules: Ruleset) -> bool:
        return _top_tier(pure_needed_rules, held, jokers, found, complete=True) is not None

    full = len(hand) == rules.hand_size
    ways = {
        "three_pure": lambda: complete(rules),
        "show13": lambda: complete(rules),
        "tunnelas": lambda: tunnelas >= rules.tunnelas_needed,
        "dublees": lambda: dublees >= rules.dublees_needed,
        "jokers": lambda: joker_count >= rules.jokers_needed,
        "marriages": lambda: marriages >= rules.marriages_needed,
    }
    total = sum(c.face_points * n for c, n in held.items() if c not in jokers)
    top = _top_tier(rules, held, jokers, found, complete=False)
    low = _low_tier(rules, held, jokers, found)
    count = min(total, total - low, total - top if top is not None else total)
    if full and any(ways[way]() for way in rules.declarations):
        return Optimum(True, 0, count)
    doubles = sum(1 for n in held.values() if n >= 2)
    if (rules.free_hand_doubles is not None and doubles >= rules.free_hand_doubles) or (
        rules.free_hand_jokers is not None and joker_count >= rules.free_hand_jokers
    ):
        return Optimum(False, 0, count)
    cost = rules.zero_count_becomes if count == 0 else count
    cost = min(cost, rules.hand_cap)
    two_point = (
        (rules.two_point_three_pure and complete(rules))
        or (rules.two_point_dublees is not None and dublees >= rules.two_point_dublees)
        or (rules.two_point_jokers is not None and joker_count >= rules.two_point_jokers)
        or (rules.two_point_tunnelas is not None and tunnelas >= rules.two_point_tunnelas)
        or (rules.two_point_marriages is not None and marriages >= rules.two_point_marriages)
    )
    if two_point:
        cost = min(cost, rules.two_point_loss)
    return Optimum(False, cost, count)
