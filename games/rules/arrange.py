"""The best arrangement of a hand: the grouping the rules score best.

Given cards in any order, a ruleset and the cut joker, find a valid declaration if
one exists; otherwise the grouping with the fewest counted points under the
preset's counting rule (docs/rules §5), two-point hands and free hands included.

How: the count a loser pays depends on the grouping only through a few tiers —
no pure group (every card counts), one or two pure groups (only they are left out),
or enough pure groups (every valid meld is left out; 13-card: a pure and a second
sequence). Each tier is its own small optimisation:

* the low tiers choose at most two pure groups (or one) among the hand's candidates,
  a tiny search;
* the top tier is a maximum-weight cover of the natural cards by valid melds with at
  least that many pure groups, solved exactly by a memoised depth-first search: it
  always decides the lowest card left (deadwood, or one of the melds it can start),
  so every partition is reached once, and identical rests of the hand are solved
  once. Jokers are a pool of wild cards; a joker card may also stand for itself in
  a pure sequence or tunnela. A declaration needs every card placed, so it uses the
  same search with deadwood forbidden and the leftover jokers placed at the end.

Every figure reported is the rules service's own (``scoring.assess_hand``) on the
grouping found, so the solver can never claim points the scorer would not give.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from .cards import ACE, SUITS, Card, display_order
from .declarations import declaration_way, is_marriage_group, needed
from .errors import RulesError
from .melds import MAX_RUN, JokerRoles, Kind, classify, joker_roles
from .rulesets import Ruleset
from .scoring import HandAssessment, PlayerHand, assess_hand, free_hand_reason

# gettext by its name: "_" is this module's throwaway.
from .speech import gettext, ngettext

NEG = -(10**9)  # an infeasible branch


@dataclass(frozen=True)
class Arrangement:
    """The best grouping found and what the rules make of it."""

    groups: tuple[tuple[Card, ...], ...]
    kinds: tuple[Kind, ...]
    counted: tuple[int, ...]
    declaration: str | None  # the way the hand declares, or None
    count: int  # the counted points if shown (0 for a declaration)
    hand_points: int  # what the hand costs a loser who shows it (0 for a declaration)
    lines: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "declaration": self.declaration,
            "groups": [
                {"cards": [c.code for c in group], "kind": str(kind), "counted": counted}
                for group, kind, counted in zip(self.groups, self.kinds, self.counted, strict=True)
            ],
            "count": self.count,
            "hand_points": self.hand_points,
            "breakdown": list(self.lines),
        }


@dataclass(frozen=True)
class _Meld:
    """A meld the search may form: the natural cards it takes (by index, with
    copies), the joker cards it takes as themselves, and wild jokers it needs."""

    naturals: tuple[tuple[int, int], ...]
    jokers: tuple[tuple[int, int], ...]
    wild: int
    pure: bool
    sequence: bool
    points: int
    spare: int  # more jokers it could take and stay valid (impure melds only)
    run: bool  # a sequence of distinct ranks (not a tunnela, not a set)
    # Cards in display order: ("n", index), ("j", index) or ("w", 0) for a wild joker.
    slots: tuple[tuple[str, int], ...]
    # The same needs packed into integers for the search (see _pack).
    packed_naturals: int = field(init=False)
    packed_jokers: int = field(init=False)
    jokers_taken: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "packed_naturals", _pack(self.naturals))
        object.__setattr__(self, "packed_jokers", _pack(self.jokers))
        object.__setattr__(self, "jokers_taken", sum(k for _, k in self.jokers))


# The search keeps the cards left as one integer, 4 bits a card (count 0–7): taking a
# meld's cards is one subtraction, and a guard bit above each count shows at once
# whether any count would go below zero.
_BITS = 4
_GUARD = int("1000" * 60, 2)


def _pack(pairs: Iterable[tuple[int, int]]) -> int:
    return sum(k << (_BITS * index) for index, k in pairs)


def _minus(packed: int, need: int) -> int:
    """``packed`` less ``need``, or -1 if some card is not there often enough."""
    after = (packed | _GUARD) - need
    return after ^ _GUARD if after & _GUARD == _GUARD else -1


def _lowest(packed: int) -> int:
    return ((packed & -packed).bit_length() - 1) // _BITS


class _Hand:
    """A hand split into natural cards (not jokers this round) and joker cards, with
    the melds each natural card can start when it is the lowest card left."""

    def __init__(self, cards: Sequence[Card], roles: JokerRoles) -> None:
        self.roles = roles
        self.rules = roles.ruleset
        held = Counter(cards)
        key = display_order
        self.naturals = sorted((c for c in held if not roles.is_joker(c)), key=key)
        self.jokers = sorted((c for c in held if roles.is_joker(c)), key=key)
        self.ncount = tuple(held[c] for c in self.naturals)
        self.jcount = tuple(held[c] for c in self.jokers)
        self.points = tuple(c.face_points for c in self.naturals)
        self.total_jokers = sum(self.jcount)
        self.natural_total = sum(n * p for n, p in zip(self.ncount, self.points, strict=True))
        self._complete: dict[tuple[int, int], list[list[Card]] | None] = {}
        # (suit, rank) → index, so that no Card is built in the loops below.
        self.nat_index = {(c.suit, c.rank): i for i, c in enumerate(self.naturals)}
        self.jok_index = {(c.suit, c.rank): i for i, c in enumerate(self.jokers)}
        self.joker_pure = self._joker_only_pure_groups()
        # Pure groups are needed for every hand; the rest only when the top tier or a
        # declaration is searched, so they are built on first use.
        self.pure_melds = [self._pure_from(i) for i in range(len(self.naturals))]
        self._melds: list[list[_Meld]] | None = None

    def complete_grouping(self, pure: int, sequences: int) -> list[list[Card]] | None:
        """Every card in valid melds with enough pure groups and sequences, or None."""
        key = (pure, sequences)
        if key not in self._complete:
            grouping = None
            if _disjoint_pure(self, pure):
                value, melds, placement = _Cover(self, pure, sequences, True).solve(
                    self.natural_total - 1
                )
                if value > NEG:
                    grouping = _build(self, melds, placement)
            self._complete[key] = grouping
        return self._complete[key]

    @property
    def melds(self) -> list[list[_Meld]]:
        """For each natural card, the melds it can start when it is the lowest card
        left, richest first (the search stops early once all that is left is covered)."""
        if self._melds is None:
            self._melds = []
            for i, pure in enumerate(self.pure_melds):
                melds = pure + self._impure_runs_from(i) + self._sets(i)
                melds.sort(key=lambda meld: -meld.points)
                self._melds.append(melds)
        return self._melds

    # --- candidate melds ------------------------------------------------------------

    def _at(self, suit: str, position: int, lowest: int) -> tuple[str, int] | None:
        """What can stand naturally at a run position (14 = Ace high): a natural card
        after the lowest one in canonical order, or a joker card as itself."""
        rank = ACE if position == 14 else position
        index = self.jok_index.get((suit, rank))
        if index is not None:
            return ("j", index)
        index = self.nat_index.get((suit, rank))
        if index is not None and index > lowest:
            return ("n", index)
        return None

    def _pure_from(self, i: int) -> list[_Meld]:
        card = self.naturals[i]
        melds: list[_Meld] = []
        if self.rules.tunnelas_and_dublees and self.ncount[i] >= 3:
            melds.append(
                _Meld(((i, 3),), (), 0, True, True, 3 * self.points[i], 0, False, (("n", i),) * 3)
            )
        for position in [14, ACE] if card.rank == ACE else [card.rank]:
            melds += self._pure_runs(i, position)
        return melds

    def _impure_runs_from(self, i: int) -> list[_Meld]:
        card = self.naturals[i]
        melds: list[_Meld] = []
        seen: set[tuple[tuple[tuple[int, int], ...], int]] = set()
        for position in [14, ACE] if card.rank == ACE else [card.rank]:
            for meld in self._impure_runs(i, position):
                signature = (meld.naturals, meld.wild)
                if signature not in seen:
                    seen.add(signature)
                    melds.append(meld)
        return melds

    def _pure_runs(self, i: int, position: int) -> list[_Meld]:
        """Runs of natural cards (joker cards standing for themselves) through this card."""
        suit = self.naturals[i].suit

        def slot(p: int) -> tuple[str, int] | None:
            if p == position:
                return ("n", i)
            if {p, position} == {ACE, 14}:
                return None  # the same Ace cannot be low and high
            return self._at(suit, p, i)

        fill = {position: ("n", i)}
        low = position
        while low > 1 and position - low < MAX_RUN - 1 and (at := slot(low - 1)) is not None:
            low -= 1
            fill[low] = at
        high = position
        while high < 14 and high - position < MAX_RUN - 1 and (at := slot(high + 1)) is not None:
            high += 1
            fill[high] = at
        if high - low < 2:
            return []
        runs = []
        for start in range(low, position + 1):
            for end in range(max(position, start + 2), min(high, start + MAX_RUN - 1) + 1):
                slots = tuple(fill[p] for p in range(start, end + 1))
                naturals = Counter(index for kind, index in slots if kind == "n")
                jokers = Counter(index for kind, index in slots if kind == "j")
                points = sum(self.points[index] * k for index, k in naturals.items())
                runs.append(
                    _Meld(
                        tuple(sorted(naturals.items())),
                        tuple(sorted(jokers.items())),
                        0,
                        True,
                        True,
                        points,
                        0,
                        True,
                        slots,
                    )
                )
        return runs

    def _impure_runs(self, i: int, position: int) -> list[_Meld]:
        """Runs whose natural cards are this one and some later cards of its suit, the
        gaps and short ends filled by wild jokers (at least one)."""
        if self.total_jokers == 0:
            return []
        suit = self.naturals[i].suit
        # The Ace high (14): partners sit below it.
        ranks = range(13, 1, -1) if position == 14 else range(position + 1, 14)
        partners = [
            (p, index)
            for p in ranks
            if (index := self.nat_index.get((suit, p))) is not None and index > i
        ]
        runs = []
        budget = self.total_jokers

        def extend(members: list[tuple[int, int]], next_at: int) -> None:
            ranks = [position] + [p for p, _ in members]
            low, high = min(ranks), max(ranks)
            span = high - low + 1
            wild = (span - len(ranks)) + max(0, 3 - span)
            if wild and wild <= budget:
                length = max(span, 3)
                filled = {position: ("n", i)} | {p: ("n", index) for p, index in members}
                slots = [filled.get(p, ("w", 0)) for p in range(low, high + 1)]
                slots += [("w", 0)] * (length - span)
                runs.append(
                    _Meld(
                        tuple(sorted([(i, 1)] + [(index, 1) for _, index in members])),
                        (),
                        wild,
                        False,
                        True,
                        self.points[i] + sum(self.points[index] for _, index in members),
                        MAX_RUN - length,
                        True,
                        tuple(slots),
                    )
                )
            for k in range(next_at, len(partners)):
                p, index = partners[k]
                new_span = max(high, p) - min(low, p) + 1
                if new_span > MAX_RUN or new_span - len(ranks) - 1 > budget:
                    break
                extend([*members, (p, index)], k + 1)

        extend([], 0)
        return runs

    def _sets(self, i: int) -> list[_Meld]:
        card = self.naturals[i]
        others = [
            self.nat_index[(suit, card.rank)]
            for suit in SUITS[SUITS.index(card.suit) + 1 :]
            if (suit, card.rank) in self.nat_index
        ]
        sets = []
        for size in range(0, len(others) + 1):
            for chosen in itertools.combinations(others, size):
                naturals = 1 + size
                wild = max(0, 3 - naturals)
                if naturals > 4 or wild > self.total_jokers:
                    continue
                members = (i, *chosen)
                sets.append(
                    _Meld(
                        tuple((index, 1) for index in members),
                        (),
                        wild,
                        False,
                        False,
                        sum(self.points[index] for index in members),
                        4 - naturals - wild,
                        False,
                        tuple(("n", index) for index in members) + (("w", 0),) * wild,
                    )
                )
        return sets

    def _joker_only_pure_groups(self) -> list[_Meld]:
        """Pure groups made only of joker cards standing for themselves: tunnelas of
        one joker card, and the lower-cut-upper run of the cut suit (K-A-2 only where
        the rules count that marriage as a rummy)."""
        groups = []
        if self.rules.tunnelas_and_dublees:
            for k, card in enumerate(self.jokers):
                if self.jcount[k] >= 3 and (
                    not card.is_printed_joker or self.rules.printed_joker_tunnela
                ):
                    groups.append(_Meld((), ((k, 3),), 0, True, True, 0, 0, False, (("j", k),) * 3))
        roles = self.roles
        lower, upper = roles.lower, roles.upper
        # Lower and upper jokers come together, and an Ace marriage only with them.
        natural_run = roles.effective_cut.rank != ACE
        if (
            lower is not None
            and upper is not None
            and (natural_run or (self.rules.ace_marriage_pure and roles.ace_marriage is not None))
        ):
            trio = (lower, roles.effective_cut, upper)
            if (
                all((c.suit, c.rank) in self.jok_index for c in trio)
                and not roles.cut.is_printed_joker
            ):
                slots = tuple(("j", self.jok_index[(c.suit, c.rank)]) for c in trio)
                jokers = tuple(sorted(Counter(k for _, k in slots).items()))
                groups.append(_Meld((), jokers, 0, True, True, 0, 0, True, slots))
        return groups


# --- The cover search ---------------------------------------------------------------------


def _take(counts: tuple[int, ...], need: tuple[tuple[int, int], ...]) -> tuple[int, ...] | None:
    """``counts`` less ``need`` (index, copies), or None if they are not there."""
    if not need:
        return counts
    after = list(counts)
    for index, k in need:
        if after[index] < k:
            return None
        after[index] -= k
    return tuple(after)


# Progress along a branch of the search (see _Cover).
_Progress: TypeAlias = tuple[int, int, int, int, int]
# A state of the search: the natural and joker cards left (packed), the jokers melds
# already need, and the progress.
_State: TypeAlias = tuple[int, int, int, _Progress]
# The joker-only pure groups that finish a branch, and where its leftover jokers go.
_Finish: TypeAlias = tuple[tuple[_Meld, ...], str]
# What the search chose at a state: a meld, "deadwood" (the lowest card left loose) or,
# once no natural card is left, its finish; None where nothing beat the floor.
_Choice: TypeAlias = _Meld | Literal["deadwood"] | _Finish | None


class _Cover:
    """The most points of natural cards that valid melds can cover, with at least
    ``pure`` pure groups and ``sequences`` sequences among the melds.

    With ``complete`` every card must be placed (a declaration): no deadwood, and
    the jokers left over must fit into melds or make a joker group of their own.
    Progress along a branch is (pure groups, sequences, spare places for jokers in
    impure melds, pure runs with one spare place, pure runs with two), each capped
    where more makes no difference.
    """

    def __init__(self, hand: _Hand, pure: int, sequences: int, complete: bool) -> None:
        self.hand = hand
        self.pure = pure
        self.sequences = sequences
        self.complete = complete
        # Only a declaration can turn surplus pure runs into homes for jokers.
        self.pure_cap = pure + 2 if complete else pure
        self.sequence_cap = sequences + 2 if complete else sequences
        # state → (points, choice, exact): exact unless the points are only a bound.
        self.memo: dict[_State, tuple[int, _Choice, bool]] = {}
        self.natural_points = [p for p in hand.points]
        self.start = (
            _pack(enumerate(hand.ncount)),
            _pack(enumerate(hand.jcount)),
            hand.total_jokers,
            0,
            (0, 0, 0, 0, 0),
        )

    def solve(self, better_than: int = NEG) -> tuple[int, list[_Meld], str | None]:
        """(points covered, melds, where leftover jokers go) if more than
        ``better_than`` points can be covered; else (NEG, [], None)."""
        nat, jok, jokers, wild, progress = self.start
        total = sum(n * p for n, p in zip(self.hand.ncount, self.hand.points, strict=True))
        value = self._best(nat, jok, jokers, wild, progress, total, better_than)
        if value <= better_than or value <= NEG // 2:
            return NEG, [], None
        melds, placement = self._rebuild()
        return value, melds, placement

    def _advance(self, progress: _Progress, meld: _Meld) -> _Progress:
        pure, seqs, spare, runs1, runs2 = progress
        pure = min(self.pure_cap, pure + meld.pure)
        seqs = min(self.sequence_cap, seqs + meld.sequence)
        if self.complete:
            if meld.pure and meld.run:
                room = MAX_RUN - len(meld.slots)
                runs1 = min(2, runs1 + (room >= 1))
                runs2 = min(1, runs2 + (room >= 2))
            elif not meld.pure:
                spare = min(2, spare + meld.spare)
        return (pure, seqs, spare, runs1, runs2)

    def _best(
        self,
        nat: int,
        jok: int,
        jokers: int,
        wild: int,
        progress: _Progress,
        left: int,
        floor: int,
    ) -> int:
        """Most points coverable from here, if that is more than ``floor``; otherwise
        some upper bound no more than ``floor`` (a branch that cannot beat the best
        found so far need not be solved exactly). ``jokers`` counts the joker cards
        not standing for themselves, ``wild`` how many of them melds already need,
        ``left`` the points of the natural cards still to place."""
        key = (nat, jok, wild, progress)
        hit = self.memo.get(key)
        if hit is not None and (hit[2] or hit[0] <= floor):
            return hit[0]
        if not nat:
            value, finish = self._finish(jok, jokers, wild, progress)
            self.memo[key] = (value, finish, True)
            return value
        if left <= floor:
            return left
        first = _lowest(nat)
        best = NEG
        choice: _Choice = None
        for meld in self.hand.melds[first]:
            if best >= left:
                break  # every card left is covered: nothing can do better
            nat2 = _minus(nat, meld.packed_naturals)
            if nat2 < 0:
                continue
            jok2, jokers2 = jok, jokers
            if meld.jokers_taken:
                jok2 = _minus(jok, meld.packed_jokers)
                if jok2 < 0:
                    continue
                jokers2 = jokers - meld.jokers_taken
            if wild + meld.wild > jokers2:
                continue
            value = meld.points + self._best(
                nat2,
                jok2,
                jokers2,
                wild + meld.wild,
                self._advance(progress, meld),
                left - meld.points,
                max(floor, best) - meld.points,
            )
            if value > best:
                best, choice = value, meld
        if not self.complete and best < left:
            lose = self.natural_points[first]
            value = self._best(
                nat - (1 << (_BITS * first)),
                jok,
                jokers,
                wild,
                progress,
                left - lose,
                max(floor, best),
            )
            if value > best:
                best, choice = value, "deadwood"
        self.memo[key] = (best, choice, best > floor)
        return best

    def _finish(
        self, jok: int, jokers: int, wild: int, progress: _Progress
    ) -> tuple[int, _Finish | None]:
        """No natural card is left: meet what is still needed with pure groups of
        joker cards standing for themselves, then place the leftover jokers."""
        options = self.hand.joker_pure
        # The same group may be there twice (two copies each of lower, cut and upper).
        most = min(self.pure + 2, self.hand.total_jokers // 3) if options else 0
        for size in range(most + 1):
            for chosen in itertools.combinations_with_replacement(options, size):
                left, spare_jokers, state = jok, jokers, progress
                for meld in chosen:
                    left = _minus(left, meld.packed_jokers) if left >= 0 else -1
                    spare_jokers -= meld.jokers_taken
                    state = self._advance(state, meld)
                if left < 0 or spare_jokers < wild:
                    continue
                placement = self._place(spare_jokers - wild, state)
                if placement is not None:
                    return 0, (chosen, placement)
        return NEG, None

    def _place(self, leftover: int, progress: _Progress) -> str | None:
        """How ``leftover`` jokers are placed so that the requirement still holds."""
        pure, seqs, spare, runs1, runs2 = progress
        if not self.complete or leftover == 0:
            return "none" if pure >= self.pure and seqs >= self.sequences else None
        if leftover >= 3:  # a joker group of their own, itself a valid sequence
            return "group" if pure >= self.pure and seqs + 1 >= self.sequences else None
        if spare >= leftover:
            return "spare" if pure >= self.pure and seqs >= self.sequences else None
        # The rest go into pure runs, which stay sequences but are no longer pure.
        short = leftover - spare
        lost = 1 if runs2 or (short == 1 and runs1) else 2 if runs1 >= 2 else None
        if lost is None or pure - lost < self.pure or seqs < self.sequences:
            return None
        return "pure"

    def _rebuild(self) -> tuple[list[_Meld], str | None]:
        nat, jok, jokers, wild, progress = self.start
        melds: list[_Meld] = []
        while True:
            _, choice, _ = self.memo[(nat, jok, wild, progress)]
            if not nat:
                # A solved branch ends in its finish, and every step to it in a meld
                # or deadwood.
                assert isinstance(choice, tuple)
                chosen, placement = choice
                return melds + list(chosen), placement
            if choice == "deadwood":
                nat -= 1 << (_BITS * _lowest(nat))
                continue
            assert isinstance(choice, _Meld)
            melds.append(choice)
            nat = _minus(nat, choice.packed_naturals)
            if choice.jokers_taken:
                jok = _minus(jok, choice.packed_jokers)
                jokers -= choice.jokers_taken
            wild += choice.wild
            progress = self._advance(progress, choice)


# --- Groupings ------------------------------------------------------------------------------


def _build(hand: _Hand, melds: Sequence[_Meld], placement: str | None) -> list[list[Card]]:
    """Cards for the melds found; natural cards left over make one loose group, and
    leftover jokers go where they keep every meld valid."""
    jokers = Counter({card: n for card, n in zip(hand.jokers, hand.jcount, strict=True)})
    naturals = Counter({card: n for card, n in zip(hand.naturals, hand.ncount, strict=True)})
    for meld in melds:
        for index, k in meld.jokers:
            jokers[hand.jokers[index]] -= k
        for index, k in meld.naturals:
            naturals[hand.naturals[index]] -= k
    pool = list(jokers.elements())
    groups: list[list[Card]] = []
    absorbers: list[tuple[list[Card], int]] = []  # impure melds with room to spare
    pure_runs: list[tuple[list[Card], int]] = []
    for meld in melds:
        cards = [
            hand.naturals[index]
            if kind == "n"
            else hand.jokers[index]
            if kind == "j"
            else pool.pop()
            for kind, index in meld.slots
        ]
        groups.append(cards)
        if not meld.pure and meld.spare:
            absorbers.append((cards, meld.spare))
        elif meld.pure and meld.run and len(cards) < MAX_RUN:
            pure_runs.append((cards, MAX_RUN - len(cards)))
    loose = sorted(naturals.elements(), key=display_order)
    if pool and (placement in ("spare", "pure") or (placement != "group" and len(pool) < 3)):
        targets = absorbers + (pure_runs if placement == "pure" else [])
        for cards, room in targets:
            while pool and room:
                cards.append(pool.pop())
                room -= 1
    if len(pool) >= 3 or (pool and not loose):
        groups.append(pool)
    else:
        loose += pool
    if loose:
        groups.append(loose)
    return groups


def _rest(hand: _Hand, used: Counter[Card]) -> list[Card]:
    held = Counter(dict(zip(hand.naturals, hand.ncount, strict=True)))
    held.update(dict(zip(hand.jokers, hand.jcount, strict=True)))
    return sorted((held - used).elements(), key=display_order)


def _with_rest(hand: _Hand, groups: list[list[Card]]) -> list[list[Card]]:
    used = Counter(card for group in groups for card in group)
    rest = _rest(hand, used)
    return groups + ([rest] if rest else [])


def _identical(hand: _Hand, size: int, allow_printed: bool) -> list[list[Card]]:
    """Groups of ``size`` identical cards (tunnelas, dublees), as many as the hand has."""
    held = list(zip(hand.naturals, hand.ncount, strict=True)) + list(
        zip(hand.jokers, hand.jcount, strict=True)
    )
    return [
        [card] * size
        for card, n in held
        if allow_printed or not card.is_printed_joker
        for _ in range(n // size)
    ]


def _marriages(hand: _Hand) -> list[list[Card]]:
    """As many disjoint marriage groups as the hand holds."""
    roles = hand.roles
    if roles.marriage is None:
        return []
    held = Counter(dict(zip(hand.jokers, hand.jcount, strict=True)))
    held.update(dict(zip(hand.naturals, hand.ncount, strict=True)))
    best: list[list[Card]] = []
    for trios in range(min(held[c] for c in roles.marriage) + 1):
        left = held.copy()
        groups = [list(roles.marriage) for _ in range(trios)]
        for card in roles.marriage:
            left[card] -= trios
        for card in sorted(left):
            for _ in range(left[card] // 3):
                if is_marriage_group([card] * 3, roles):
                    groups.append([card] * 3)
        if len(groups) > len(best):
            best = groups
    return best


def _best_pure(hand: _Hand, most: int, eligible: Callable[[_Meld], bool]) -> list[_Meld]:
    """At most ``most`` disjoint pure groups with the most points."""
    candidates = [m for melds in hand.pure_melds for m in melds if eligible(m)]
    candidates += [m for m in hand.joker_pure if eligible(m)]
    candidates.sort(key=lambda m: -m.points)
    best: list[_Meld] = []
    best_points = -1
    for k in range(1, most + 1):
        # With several decks the same pure group may be there twice.
        for chosen in itertools.combinations_with_replacement(candidates, k):
            points = sum(m.points for m in chosen)
            if points <= best_points:
                continue
            nc: tuple[int, ...] | None = hand.ncount
            jc: tuple[int, ...] | None = hand.jcount
            for meld in chosen:
                nc = _take(nc, meld.naturals) if nc is not None else None
                jc = _take(jc, meld.jokers) if jc is not None else None
            if nc is not None and jc is not None:
                best, best_points = list(chosen), points
    return best


def _disjoint_pure(hand: _Hand, needed: int) -> bool:
    """Whether the hand holds ``needed`` disjoint pure groups at all."""
    candidates = [m for melds in hand.pure_melds for m in melds] + hand.joker_pure

    def fits(k: int, start: int, nc: tuple[int, ...], jc: tuple[int, ...]) -> bool:
        if k == 0:
            return True
        for index in range(start, len(candidates)):
            meld = candidates[index]
            nc2, jc2 = _take(nc, meld.naturals), _take(jc, meld.jokers)
            if nc2 is not None and jc2 is not None and fits(k - 1, index, nc2, jc2):
                return True
        return False

    return fits(needed, 0, hand.ncount, hand.jcount)


# --- The solver -----------------------------------------------------------------------------


def _check(ruleset: Ruleset, cut: Card, cards: Sequence[Card]) -> None:
    if not cards:
        raise RulesError(gettext("no cards to arrange"), "cards")
    if len(cards) > ruleset.hand_size:
        said = ngettext(
            "{count} card: a hand has {size}", "{count} cards: a hand has {size}", len(cards)
        )
        raise RulesError(said.format(count=len(cards), size=ruleset.hand_size), "cards")
    for card, n in Counter(cards).items():
        allowed = ruleset.decks - (card == cut)
        if n > allowed:
            times = ngettext("{count} time", "{count} times", n).format(count=n)
            said = ngettext(
                "{card} appears {times}, but {decks} deck holds only {allowed}",
                "{card} appears {times}, but {decks} decks hold only {allowed}",
                ruleset.decks,
            )
            said = said.format(card=card.code, times=times, decks=ruleset.decks, allowed=allowed)
            raise RulesError(said, "cards")


def _declarations(hand: _Hand, on_deal: bool) -> Iterator[list[list[Card]]]:
    """Groupings that try each enabled declaration way, in docs/rules §4 order
    (``on_deal``: with the counts of a win on the deal)."""
    rules = hand.rules
    for way in rules.declarations:
        grouping = None
        if way == "three_pure":
            grouping = hand.complete_grouping(rules.pure_needed, 0)
        elif way == "show13":
            grouping = hand.complete_grouping(1, 2)
        elif way == "tunnelas":
            groups = _identical(hand, 3, rules.printed_joker_tunnela)
            if len(groups) >= rules.tunnelas_needed:
                grouping = _with_rest(hand, groups)
        elif way == "dublees":
            groups = _identical(hand, 2, rules.printed_joker_dublee)
            if len(groups) >= needed(way, rules, on_deal):
                grouping = _with_rest(hand, groups)
        elif way == "jokers" and hand.total_jokers >= needed(way, rules, on_deal):
            grouping = _with_rest(hand, [_joker_cards(hand)])
        elif way == "marriages":
            groups = _marriages(hand)
            if len(groups) >= rules.marriages_needed:
                grouping = _with_rest(hand, groups)
        if grouping is not None:
            yield grouping


def _joker_cards(hand: _Hand) -> list[Card]:
    return [card for card, n in zip(hand.jokers, hand.jcount, strict=True) for _ in range(n)]


def _count_groupings(hand: _Hand) -> list[list[list[Card]]]:
    """Groupings that reach each counting tier at its best (docs/rules §5)."""
    rules = hand.rules
    tries: list[list[list[Card]]] = []
    thirteen = rules.hand_size == 13
    # Below the top tier only pure groups are left out (Kodai: tunnelas and pure
    # sequences of 4+ cards), at most two of them (13-card: one).
    if rules.counting == "kodai":
        low = _best_pure(hand, 2, lambda m: not m.run or len(m.slots) >= 4)
    else:
        low = _best_pure(hand, 1 if thirteen else 2, lambda m: True)
    tries.append(_build(hand, low, None))
    # The top tier: every valid meld is left out.
    pure, sequences = (1, 2) if thirteen else (rules.pure_needed, 0)
    if _disjoint_pure(hand, pure):
        # Only worth building if it covers more than the low tier does.
        low_cover = sum(meld.points for meld in low)
        value, melds, placement = _Cover(hand, pure, sequences, False).solve(low_cover)
        if value > NEG:
            tries.append(_build(hand, melds, placement))
    return tries


def _two_point_groupings(hand: _Hand) -> list[list[list[Card]]]:
    """Groupings that make a two-point hand (docs/rules §5), where the rules have one."""
    rules = hand.rules
    tries: list[list[list[Card]]] = []
    if rules.two_point_three_pure:
        grouping = hand.complete_grouping(rules.pure_needed, 0)
        if grouping is not None:
            tries.append(grouping)
    if rules.two_point_dublees is not None:
        groups = _identical(hand, 2, rules.printed_joker_dublee)
        if len(groups) >= rules.two_point_dublees:
            tries.append(_with_rest(hand, groups))
    if rules.two_point_jokers is not None and hand.total_jokers >= rules.two_point_jokers:
        tries.append(_with_rest(hand, [_joker_cards(hand)]))
    if rules.two_point_tunnelas is not None:
        groups = _identical(hand, 3, rules.printed_joker_tunnela)
        if len(groups) >= rules.two_point_tunnelas:
            tries.append(_with_rest(hand, groups))
    if rules.two_point_marriages is not None:
        groups = _marriages(hand)
        if len(groups) >= rules.two_point_marriages:
            tries.append(_with_rest(hand, groups))
    return tries


def _judge(
    ruleset: Ruleset, cut: Card, groups: list[list[Card]], outcome: str, on_deal: bool = False
) -> tuple[PlayerHand, HandAssessment]:
    hand = PlayerHand("hand", outcome, tuple(tuple(g) for g in groups if g), on_deal)
    return hand, assess_hand(ruleset, cut, hand)


def arrange(
    ruleset: Ruleset, cut: Card, cards: Sequence[Card], on_deal: bool = False
) -> Arrangement:
    """The grouping of ``cards`` that the rules score best: a valid declaration if
    there is one (full hands only; ``on_deal``: as dealt, where a win on the deal
    needs fewer dublees or jokers), else the one that costs a loser the fewest
    points, with two-point and free hands taken into account."""
    _check(ruleset, cut, cards)
    roles = joker_roles(ruleset, cut)
    hand = _Hand(cards, roles)
    complete = len(cards) == ruleset.hand_size
    on_deal = on_deal and ruleset.wins_on_deal
    declarations = _declarations(hand, on_deal) if complete else iter(())
    for groups in declarations:
        played, judged = _judge(ruleset, cut, groups, "declared", on_deal)
        kinds = tuple(classify(group, roles) for group in played.groups)
        if declaration_way(played.groups, kinds, roles, on_deal):
            return _arrangement(played, judged, declaration=judged.declaration)
    best = None
    for groups in _count_groupings(hand) + _two_point_groupings(hand):
        played, judged = _judge(ruleset, cut, groups, "shown")
        count = sum(g.counted for g in judged.groups)
        rank = (judged.hand_points, count, len(played.groups))
        if best is None or rank < best[0]:
            best = (rank, played, judged)
    assert best is not None
    _, played, judged = best
    return _arrangement(played, judged, declaration=None)


def _arrangement(
    played: PlayerHand, judged: HandAssessment, declaration: str | None
) -> Arrangement:
    counted = tuple(0 if declaration else g.counted for g in judged.groups)
    hand_points = 0 if declaration else judged.hand_points
    assert hand_points is not None  # a shown hand always has its points
    return Arrangement(
        groups=played.groups,
        kinds=tuple(g.kind for g in judged.groups),
        counted=counted,
        declaration=declaration,
        count=sum(counted),
        hand_points=hand_points,
        lines=judged.lines,
    )


def free_hand(ruleset: Ruleset, cut: Card, cards: Sequence[Card]) -> str | None:
    """Kodai: why this hand is free whatever its grouping, or None."""
    return free_hand_reason(list(cards), joker_roles(ruleset, cut))
