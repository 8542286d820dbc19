"""Declarations, hand points, value points, claims and round settlement (docs/rules §4–6).

:func:`score_round` is the whole service: it validates a round as entered, then
says for every player what their cards or drop cost, what they exchange in value
points or claims, and what is added to their running total. What value cards and
claim cards are worth is :mod:`.values`; the outcomes themselves, :mod:`.outcomes`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from itertools import chain

from .cards import Card, format_cards
from .counted import HandFigures, figure_errors, figure_names
from .errors import RoundErrors, RulesError
from .melds import (
    PURE_KINDS,
    SEQUENCE_KINDS,
    VALID_MELDS,
    JokerRoles,
    Kind,
    classify,
    joker_roles,
    why_no_group,
)
from .outcomes import DROP_OUTCOMES, FULL_HAND_OUTCOMES, OUTCOMES, SHOWN_OUTCOMES, WINNING_OUTCOMES
from .rulesets import DECLARATION_WAYS, Ruleset, choice_words
from .values import Holding, claim_holding, value_holding

Groups = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class PlayerHand:
    """One player's part of a round as entered: outcome and groups (may be empty
    for a drop), and whether a declared winner won on the deal (docs/rules §4).

    ``figures``: a hand counted at the table, entered as the figures its cards give
    instead of the cards (docs/rules §5, "A counted hand"); its groups are then
    empty. Where the house rules trust the table's show, a declared winner may be
    one too, with no figures but its value points or claims."""

    name: str
    outcome: str
    groups: Groups = ()
    on_deal: bool = False
    figures: HandFigures | None = None

    @property
    def counted(self) -> bool:
        return self.figures is not None

    @property
    def cards(self) -> list[Card]:
        return list(chain.from_iterable(self.groups))


@dataclass(frozen=True)
class GroupResult:
    cards: tuple[Card, ...]
    kind: Kind
    counted: int  # what this group adds to the loser's count (0 when left out)
    left_out: bool = False  # left out of the count by the counting rule

    def as_dict(self) -> dict[str, object]:
        return {
            "cards": [c.code for c in self.cards],
            "kind": str(self.kind),
            "counted": self.counted,
        }


@dataclass(frozen=True)
class PlayerResult:
    name: str
    outcome: str
    declaration: str | None
    groups: tuple[GroupResult, ...]
    hand_points: int
    value_points: int
    claims: int
    score: int
    breakdown: tuple[str, ...] = ()
    value_cards: tuple[Card, ...] = ()  # the cards that earned value points or claims
    value_paid: int = 0  # what the player paid others for their value cards (within caps)
    # What the player paid each other player for value cards, by name (payments > 0).
    paid_to: tuple[tuple[str, int], ...] = ()
    on_deal: bool = False  # a declared winner who won on the deal
    # Why hand_points is not the sum of the groups' counts, in a player's words
    # ("Capped at 120", "First drop: a fixed 30"); None where it is that sum.
    rule_applied: str | None = None
    figures: HandFigures | None = None  # a hand counted at the table: what it gave

    @property
    def counted(self) -> bool:
        return self.figures is not None

    def as_dict(self) -> dict[str, object]:
        # "on_deal" only where the input had it, "counted" and "figures" only for a
        # counted hand, and "rule_applied" only where a rule replaced the count, so
        # every other answer keeps its shape.
        return {
            "name": self.name,
            "outcome": self.outcome,
            **({"on_deal": True} if self.on_deal else {}),
            "declaration": self.declaration,
            **(
                {"counted": True, "figures": self.figures.as_dict()}
                if self.figures is not None
                else {}
            ),
            "groups": [group.as_dict() for group in self.groups],
            "hand_points": self.hand_points,
            **({"rule_applied": self.rule_applied} if self.rule_applied else {}),
            "value_points": self.value_points,
            "claims": self.claims,
            "score": self.score,
            "breakdown": list(self.breakdown),
        }


@dataclass(frozen=True)
class RoundResult:
    ruleset: Ruleset
    roles: JokerRoles
    players: tuple[PlayerResult, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "ruleset": self.ruleset.preset,
            "cut_joker": self.roles.cut.code,
            "jokers": self.roles.joker_codes,
            "players": [player.as_dict() for player in self.players],
        }


# --- Declarations (§4) ------------------------------------------------------------------


def is_marriage_group(cards: Sequence[Card], roles: JokerRoles) -> bool:
    """A marriage presented as a group: lower joker, cut card, upper joker; or three
    identical claim cards (Kodai) / upper or lower jokers (Paplu)."""
    if roles.marriage is None or len(cards) != 3:
        return False
    # The marriage is three different cards, so three cards are it exactly when they
    # hold the same cards (cheaper than sorting both).
    if set(cards) == set(roles.marriage):
        return True
    if len(set(cards)) != 1:
        return False
    triples = roles.ruleset.marriage_triples
    if triples == "claim_cards":
        return cards[0] in roles.claim_cards
    if triples == "upper_lower":
        return cards[0] in (roles.upper, roles.lower)
    return False


def _all_jokers(cards: Sequence[Card], roles: JokerRoles) -> bool:
    return bool(cards) and roles.jokers.issuperset(cards)


def _largest_joker_group(groups: Groups, roles: JokerRoles) -> int:
    return max((len(g) for g in groups if _all_jokers(g, roles)), default=0)


def _pure_count(kinds: Sequence[Kind]) -> int:
    return len([kind for kind in kinds if kind in PURE_KINDS])


def _all_valid(kinds: Sequence[Kind]) -> bool:
    return VALID_MELDS.issuperset(kinds)


def needed(way: str, rules: Ruleset, on_deal: bool = False) -> int:
    """Dublees or jokers the way needs: fewer for a winner on the deal where the
    rules have it (docs/rules §4, Kodai: 7 dublees, 8 jokers)."""
    if way == "dublees":
        early = rules.on_deal_dublees if on_deal else None
        return rules.dublees_needed if early is None else early
    if way == "jokers":
        early = rules.on_deal_jokers if on_deal else None
        return rules.jokers_needed if early is None else early
    raise ValueError(f"no count for the declaration way {way!r}")


def _way_holds(
    way: str, groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, on_deal: bool = False
) -> bool:
    rules = roles.ruleset
    if way == "three_pure":
        return _pure_count(kinds) >= rules.pure_needed and _all_valid(kinds)
    if way == "tunnelas":
        return kinds.count(Kind.TUNNELA) >= rules.tunnelas_needed
    if way == "dublees":
        return kinds.count(Kind.DUBLEE) >= needed(way, rules, on_deal)
    if way == "jokers":
        return _largest_joker_group(groups, roles) >= needed(way, rules, on_deal)
    if way == "marriages":
        marriages = sum(is_marriage_group(g, roles) for g in groups)
        return marriages >= rules.marriages_needed
    if way == "show13":
        sequences = len([kind for kind in kinds if kind in SEQUENCE_KINDS])
        return _pure_count(kinds) >= 1 and sequences >= 2 and _all_valid(kinds)
    raise ValueError(f"unknown declaration way {way!r}")


def declaration_way(
    groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, on_deal: bool = False
) -> str | None:
    """The first enabled way (docs/rules §4 order) in which these groups are a valid
    declaration, or None. ``on_deal``: the winner won on the deal."""
    for way in DECLARATION_WAYS:
        if way in roles.ruleset.declarations and _way_holds(way, groups, kinds, roles, on_deal):
            return way
    return None


def on_deal_line(groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, way: str) -> str:
    """What a win on the deal held, in words: "on the deal: 7 dublees"."""
    if way == "dublees":
        return f"on the deal: {kinds.count(Kind.DUBLEE)} dublees"
    if way == "jokers":
        return f"on the deal: {_largest_joker_group(groups, roles)} jokers in one group"
    return f"on the deal: {choice_words(way)}"


def why_not_declared(
    groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, on_deal: bool = False
) -> str:
    """Why these groups are no declaration, for each way the ruleset allows (docs/rules §4,
    in its order), in a player's words: "3 pure sequences (enough), but 3S 6C 9D is
    no group (...); 0 tunnelas (3 needed); 2 dublees (8 needed); ..."."""
    rules = roles.ruleset
    reasons = [
        _why_not(way, groups, kinds, roles, on_deal)
        for way in DECLARATION_WAYS
        if way in rules.declarations
    ]
    return "; ".join(reasons) or "these rules allow no way to declare"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _why_not(
    way: str, groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, on_deal: bool
) -> str:
    """What one way of declaring lacks. Only the three-pure way and the 13-card show
    ask every group to be a meld; the others leave the rest of the cards free."""
    rules = roles.ruleset
    if way == "three_pure":
        pure = _pure_count(kinds)
        held = _plural(pure, "pure sequence")
        if Kind.TUNNELA in kinds:  # a tunnela counts as a pure sequence (docs/rules §3)
            held = f"{held} or tunnela{'' if pure == 1 else 's'}"
        enough = pure >= rules.pure_needed
        return _with_faults(
            f"{held} ({'enough' if enough else f'{rules.pure_needed} needed'})",
            enough,
            groups,
            kinds,
            roles,
            "a three-pure declaration",
        )
    if way == "show13":
        pure = _pure_count(kinds)
        others = len([kind for kind in kinds if kind in SEQUENCE_KINDS]) - pure
        enough = pure >= 1 and others + pure >= 2
        if enough:
            held = "a pure sequence and a second sequence (enough)"
        else:
            held = (
                f"{_plural(pure, 'pure sequence')} and {_plural(others, 'other sequence')} "
                "(a pure sequence and a second sequence needed)"
            )
        return _with_faults(held, enough, groups, kinds, roles, "a 13-card show")
    if way == "tunnelas":
        return f"{_plural(kinds.count(Kind.TUNNELA), 'tunnela')} ({rules.tunnelas_needed} needed)"
    if way == "marriages":
        marriages = sum(is_marriage_group(g, roles) for g in groups)
        return f"{_plural(marriages, 'marriage group')} ({rules.marriages_needed} needed)"
    if way == "dublees":
        count = kinds.count(Kind.DUBLEE)
        held = _plural(count, "dublee")
    else:
        count = _largest_joker_group(groups, roles)
        held = f"{_plural(count, 'joker')} in one group"
    # A win on the deal needs fewer (Kodai): say so to a scorer who marked it, and
    # remind one who did not where it would have been enough.
    early = needed(way, rules, on_deal=True) if rules.wins_on_deal else None
    if early is not None and on_deal:
        return f"{held} ({early} needed on the deal)"
    if early is not None and count >= early:
        return f"{held} ({needed(way, rules)} needed, {early} if won on the deal)"
    return f"{held} ({needed(way, rules)} needed)"


def _with_faults(
    held: str,
    enough: bool,
    groups: Groups,
    kinds: Sequence[Kind],
    roles: JokerRoles,
    declaration: str,
) -> str:
    """``held`` and then the groups that are no meld, where ``declaration`` needs every
    group to be one: cards that are no group, and dublees (a group of 21-card rummy,
    but no meld: docs/rules §4 lists the melds). Where ``held`` is ``enough`` those groups
    are all that is wrong, so each says why it is no group."""
    loose = [g for g, kind in zip(groups, kinds, strict=True) if kind == Kind.INVALID]
    pairs = [format_cards(g) for g, kind in zip(groups, kinds, strict=True) if kind == Kind.DUBLEE]
    if enough:
        faults = [f"{format_cards(g)} is no group ({why_no_group(g, roles)})" for g in loose]
    elif loose:
        are = "is no group" if len(loose) == 1 else "are no groups"
        faults = [f"{_and([format_cards(g) for g in loose])} {are}"]
    else:
        faults = []
    if pairs:
        are = "is a dublee" if len(pairs) == 1 else "are dublees"
        faults.append(f"{_and(pairs)} {are}, not allowed in {declaration}")
    if not faults:
        return held
    return f"{held}{', but' if enough else ', and'} {', and '.join(faults)}"


# --- Counting a loser's hand (§5) --------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """How a loser's groups count: points per group, which were left out, and why."""

    counted: list[int]
    left_out: list[bool]
    rule: str


def count_groups(groups: Groups, kinds: Sequence[Kind], roles: JokerRoles) -> Count:
    """Points each group adds to a loser's count under the preset's counting rule."""
    rules = roles.ruleset
    pure = _pure_count(kinds)
    plural = "s" if pure != 1 else ""
    if rules.hand_size == 13:
        sequences = len([kind for kind in kinds if kind in SEQUENCE_KINDS])
        complete, enough = pure >= 1 and sequences >= 2, "a pure and a second sequence"
    else:
        complete, enough = pure >= rules.pure_needed, f"{pure} pure groups"
    if complete:
        rule = f"{enough}: no valid meld counts"
        left_out = [kind in VALID_MELDS for kind in kinds]
    elif rules.counting == "kodai":
        rule = (
            f"{pure} pure group{plural}: only tunnelas and pure sequences of 4+ cards don't count"
        )
        left_out = [
            kind == Kind.TUNNELA or (kind == Kind.PURE_SEQUENCE and len(group) >= 4)
            for group, kind in zip(groups, kinds, strict=True)
        ]
    elif pure == 0:
        rule = "no pure sequence: every card counts"
        left_out = [False] * len(kinds)
    else:
        rule = f"{pure} pure group{plural}: only pure groups don't count"
        left_out = [kind in PURE_KINDS for kind in kinds]
    points = roles.card_points
    counted = [
        0 if out else sum([points[card] for card in group])
        for group, out in zip(groups, left_out, strict=True)
    ]
    return Count(counted, left_out, rule)


def two_point_reason(groups: Groups, kinds: Sequence[Kind], roles: JokerRoles) -> str | None:
    """Why a losing hand costs only the two-point loss, or None (docs/rules §5)."""
    rules = roles.ruleset
    if rules.two_point_three_pure and _way_holds("three_pure", groups, kinds, roles):
        return "groups form a valid three-pure declaration"
    # Each kind of two-point hand is counted only under rules that have it.
    if rules.two_point_dublees is not None:
        dublees = kinds.count(Kind.DUBLEE)
        if dublees >= rules.two_point_dublees:
            return f"{dublees} dublees"
    if rules.two_point_jokers is not None:
        jokers = _largest_joker_group(groups, roles)
        if jokers >= rules.two_point_jokers:
            return f"{jokers} jokers in one group"
    if rules.two_point_tunnelas is not None:
        tunnelas = kinds.count(Kind.TUNNELA)
        if tunnelas >= rules.two_point_tunnelas:
            return f"{tunnelas} tunnelas"
    if rules.two_point_marriages is not None:
        marriages = sum(is_marriage_group(g, roles) for g in groups)
        if marriages >= rules.two_point_marriages:
            return f"{marriages} marriages"
    return None


def free_hand_reason(cards: Sequence[Card], roles: JokerRoles) -> str | None:
    """Kodai: a loser holding 7 doubles or 8 jokers pays nothing (docs/rules §5)."""
    rules = roles.ruleset
    if rules.free_hand_doubles is not None:
        # A tenali is one double: count each distinct card held at least twice.
        doubles = sum(1 for count in Counter(cards).values() if count >= 2)
        if doubles >= rules.free_hand_doubles:
            return f"free hand: {doubles} doubles"
    if rules.free_hand_jokers is not None:
        jokers = len([card for card in cards if card in roles.jokers])
        if jokers >= rules.free_hand_jokers:
            return f"free hand: {jokers} jokers"
    return None


@dataclass
class _HandCost:
    points: int
    lines: list[str] = field(default_factory=list)
    free: bool = False
    rule: str | None = None  # why points is not the count (PlayerResult.rule_applied)


def _capitalised(words: str) -> str:
    return words[:1].upper() + words[1:]


def _shown_cost(
    hand: PlayerHand, kinds: Sequence[Kind], counting: Count, roles: JokerRoles
) -> _HandCost:
    lines = [counting.rule]
    left_out = [
        f"{format_cards(group)} ({kind.label})"
        for group, kind, out in zip(hand.groups, kinds, counting.left_out, strict=True)
        if out
    ]
    if left_out:
        lines.append("not counted: " + ", ".join(left_out))
    free = free_hand_reason(hand.cards, roles)
    two_point = None if free else two_point_reason(hand.groups, kinds, roles)
    return _cost(hand.outcome, sum(counting.counted), free, two_point, roles.ruleset, lines)


def _counted_cost(outcome: str, figures: HandFigures, rules: Ruleset) -> _HandCost:
    """What a hand counted at the table costs: what its figures say its cards make,
    under every rule that needs no cards."""
    free = "free hand" if figures.free_hand else None
    two_point = "counted at the table" if figures.two_point else None
    return _cost(outcome, figures.count or 0, free, two_point, rules, ["counted at the table"])


def _cost(
    outcome: str,
    count: int,
    free: str | None,
    two_point: str | None,
    rules: Ruleset,
    lines: list[str],
) -> _HandCost:
    """What a shown hand (or a deal show) costs, from what its cards make: their
    ``count`` (docs/rules §5) and why they are a free hand or a two-point hand (None
    where they are not). Everything else here needs no cards: the same for a hand
    entered by its cards or counted at the table."""
    cost = _HandCost(0, lines)
    if free:
        cost.lines.append(f"{free}: no points and no claims")
        cost.free = True
        cost.rule = f"{_capitalised(free)} — no points, no claims"
        return cost
    if outcome == "deal_show" and rules.deal_show_fixed is not None:
        # Paplu (seed 003): "a penalty of 60 points + the points of the value cards",
        # whatever the hand holds; the value cards are settled with everyone's (§6).
        cost.points = rules.deal_show_fixed
        cost.lines.append(f"deal show: a fixed {cost.points}, whatever the hand holds")
        cost.rule = f"Deal show: a fixed {cost.points} whatever the cards"
        return cost
    if outcome == "deal_show":
        if two_point:
            cost.points = rules.two_point_loss
            cost.lines.append(f"two-point hand ({two_point}): deal show costs {cost.points}")
            cost.rule = f"Two-point hand ({two_point})"
            return cost
        half = count // 2
        cost.points = min(max(half, rules.deal_show_min), rules.deal_show_max)
        cost.lines.append(
            f"deal show: half of {count} is {half}, kept within "
            f"{rules.deal_show_min}..{rules.deal_show_max} = {cost.points}"
        )
        cost.rule = _half_rule(count, half, rules)
        return cost
    if two_point:
        cost.points = rules.two_point_loss
        cost.lines.append(f"two-point hand ({two_point}): loses {cost.points}")
        cost.rule = f"Two-point hand ({two_point})"
        return cost
    cost.points = count
    cost.lines.append(f"count {count}")
    if count == 0 and rules.zero_count_becomes:
        cost.points = rules.zero_count_becomes
        cost.lines.append(f"a count of 0 becomes {cost.points}")
        cost.rule = f"A count of 0 costs {cost.points}"
    if cost.points > rules.hand_cap:
        cost.lines.append(f"capped at {rules.hand_cap}")
        cost.points = rules.hand_cap
        cost.rule = f"Capped at {rules.hand_cap}"
    return cost


def _half_rule(count: int, half: int, rules: Ruleset) -> str:
    """A halved deal show in a player's words: what was halved, and the bound
    that held it where one did (docs/rules §5: half, floor, 2..60)."""
    if half > rules.deal_show_max:
        return f"Deal show: half the count ({half}), at most {rules.deal_show_max}"
    if half < rules.deal_show_min:
        return f"Deal show: half the count ({half}), at least {rules.deal_show_min}"
    rounded = ", rounded down" if count % 2 else ""
    return f"Deal show: half the count of {count}{rounded}"


@dataclass(frozen=True)
class HandAssessment:
    """One player's hand judged on its own, before the round is settled: what each
    group is and counts, the declaration it makes, and what the outcome costs."""

    groups: tuple[GroupResult, ...]
    declaration: str | None  # the way the groups form a valid declaration, if any
    hand_points: int | None  # None for the winner
    free: bool  # a Kodai free hand: no points, no claims
    lines: tuple[str, ...]
    # What stops the round from being scored as entered, said beside the player: no
    # name ("must show all 21 cards, not 20", see RulesError.beside).
    problems: tuple[str, ...] = ()
    rule_applied: str | None = None  # as PlayerResult.rule_applied, for this hand alone


def _assess(hand: PlayerHand, kinds: Sequence[Kind], roles: JokerRoles) -> HandAssessment:
    rules = roles.ruleset
    # Only a shown hand's cards count, and only a declarer makes a declaration.
    counted, left_out = [0] * len(hand.groups), [False] * len(hand.groups)
    declaration = None
    hand_points: int | None = None
    free = False
    rule = None
    if hand.outcome == "declared" and hand.figures is not None:
        lines = ["declared: the table's show, taken as valid"]
        if hand.on_deal:
            lines.append("on the deal")
    elif hand.outcome == "declared":
        declaration = declaration_way(hand.groups, kinds, roles, hand.on_deal)
        lines = [f"declared: {choice_words(declaration)}" if declaration else "declared"]
        if hand.on_deal and declaration:
            lines.append(on_deal_line(hand.groups, kinds, roles, declaration))
    elif hand.outcome == "default_win":
        lines = ["won: every other player dropped"]
    elif hand.outcome in SHOWN_OUTCOMES:
        if hand.figures is not None:
            cost = _counted_cost(hand.outcome, hand.figures, rules)
        else:
            counting = count_groups(hand.groups, kinds, roles)
            counted, left_out = counting.counted, counting.left_out
            cost = _shown_cost(hand, kinds, counting, roles)
        hand_points, free, lines, rule = cost.points, cost.free, cost.lines, cost.rule
    else:
        # A fixed penalty: the cards don't count.
        hand_points = getattr(rules, hand.outcome)
        lines = [f"{hand.outcome.replace('_', ' ')}: {hand_points}"]
        rule = f"{_capitalised(hand.outcome.replace('_', ' '))}: a fixed {hand_points}"

    if rules.ace_marriage_pure:
        lines += [
            f"{format_cards(group)}: the K A 2 marriage counted as a rummy (Ace cut)"
            for group, kind in zip(hand.groups, kinds, strict=True)
            if kind == Kind.PURE_SEQUENCE and roles.is_ace_marriage(group)
        ]
    groups = tuple(
        GroupResult(tuple(group), kind, points, out)
        for group, kind, points, out in zip(hand.groups, kinds, counted, left_out, strict=True)
    )
    return HandAssessment(groups, declaration, hand_points, free, tuple(lines), rule_applied=rule)


def assess_hand(ruleset: Ruleset, cut: Card, hand: PlayerHand) -> HandAssessment:
    """Judge one player's hand as it is being typed (the round form's live preview):
    group kinds and counts, the declaration, the cost of the outcome, and the
    problems (wrong size, false declaration, outcome not played) found so far.
    Value points and claims need the whole round: see :func:`score_round`."""
    roles = joker_roles(ruleset, cut)
    kinds = [classify(group, roles) for group in hand.groups]
    problems = [error.beside for error in _hand_errors(0, hand, ruleset, cut)]
    if hand.outcome not in ruleset.outcomes:
        return HandAssessment((), None, None, False, (), tuple(problems))
    assessment = _assess(hand, kinds, roles)
    complete = len(hand.cards) == ruleset.hand_size
    if hand.outcome == "declared" and complete and assessment.declaration is None:
        why = why_not_declared(hand.groups, kinds, roles, hand.on_deal)
        problems.append(f"not a valid declaration: {why}")
    return dataclasses.replace(assessment, problems=tuple(problems))


# --- A hand's figures -------------------------------------------------------------------


def hand_figures(ruleset: Ruleset, cut: Card, hand: PlayerHand) -> HandFigures:
    """The figures ``hand``'s cards give (docs/rules §5, "A counted hand"): those a
    counted hand of its outcome gives under these rules (:func:`.counted.figure_names`),
    computed from its groups as entered, which decide its count. A hand counted with
    these figures scores as its cards do. It checks nothing (a round form shows them
    when a hand is switched from its cards to its count)."""
    roles = joker_roles(ruleset, cut)
    names = figure_names(ruleset, hand.outcome)
    count = value_points = claims = None
    two_point = free = False
    if {"count", "two_point", "free_hand"} & set(names):
        kinds = [classify(group, roles) for group in hand.groups]
        if "count" in names:
            count = sum(count_groups(hand.groups, kinds, roles).counted)
        two_point = "two_point" in names and two_point_reason(hand.groups, kinds, roles) is not None
        free = "free_hand" in names and free_hand_reason(hand.cards, roles) is not None
    if "value_points" in names:
        value_points = value_holding(hand.cards, roles).points
    if "claims" in names:
        claims = claim_holding(hand.cards, roles).points
    return HandFigures(count, value_points, claims, two_point, free)


# --- Settlement --------------------------------------------------------------------------


def _name_errors(hands: Sequence[PlayerHand]) -> list[RulesError]:
    errors = []
    if len(hands) < 2:
        errors.append(RulesError("a round needs at least 2 players", "players"))
    seen: set[str] = set()
    for index, hand in enumerate(hands):
        name = hand.name.strip()
        if not name:
            errors.append(RulesError(f"player {index + 1} has no name", f"players[{index}].name"))
        elif name.casefold() in seen:
            errors.append(RulesError(f"two players are called {name!r}", f"players[{index}].name"))
        seen.add(name.casefold())
    return errors


def _winner_errors(hands: Sequence[PlayerHand]) -> list[RulesError]:
    winners = [i for i, hand in enumerate(hands) if hand.outcome in WINNING_OUTCOMES]
    if not winners:
        return [
            RulesError("no winner: one player must have declared (or won by default)", "players")
        ]
    if len(winners) > 1:
        names = ", ".join(hands[i].name for i in winners)
        return [
            RulesError(f"more than one winner ({names}): only one player wins a round", "players")
        ]
    winner = hands[winners[0]]
    if winner.outcome == "default_win":
        still_in = [
            hand.name
            for hand in hands
            if hand is not winner and hand.outcome not in DROP_OUTCOMES | {"invalid_declaration"}
        ]
        if still_in:
            said = (
                f"cannot win by default while {', '.join(still_in)} still played: "
                "only the last player left wins by default"
            )
            return [RulesError.naming(winner.name, " ", said, f"players[{winners[0]}].outcome")]
    return []


def _hand_errors(
    index: int, hand: PlayerHand, rules: Ruleset, cut: Card | None, cards_read: bool = True
) -> list[RulesError]:
    where = f"players[{index}]"

    # Each message names the player, "Esha: unknown outcome ..." or "Esha must show
    # ...", and says the same beside them without the name.
    def headed(said: str, field: str) -> RulesError:
        return RulesError.naming(hand.name, ": ", said, f"{where}.{field}")

    def opened(said: str, field: str) -> RulesError:
        return RulesError.naming(hand.name, " ", said, f"{where}.{field}")

    if hand.outcome not in OUTCOMES:
        return [headed(f"unknown outcome {hand.outcome!r}", "outcome")]
    if hand.outcome not in rules.outcomes:
        return [headed(f"outcome {hand.outcome} is not played under {rules.preset}", "outcome")]
    errors = []
    if hand.on_deal and not rules.wins_on_deal:
        errors.append(headed(f"winning on the deal is not played under {rules.preset}", "on_deal"))
    elif hand.on_deal and hand.outcome != "declared":
        errors.append(
            headed(
                f"only a declared winner wins on the deal, not a {hand.outcome.replace('_', ' ')}",
                "on_deal",
            )
        )
    if hand.figures is not None:
        return errors + figure_errors(
            rules, cut, hand.name, hand.outcome, hand.figures, where, has_cards=bool(hand.cards)
        )
    if not cards_read:
        return errors
    size = len(hand.cards)
    if hand.outcome in FULL_HAND_OUTCOMES and size != rules.hand_size:
        errors.append(opened(f"must show all {rules.hand_size} cards, not {size}", "groups"))
    elif size > rules.hand_size:
        errors.append(opened(f"holds {size} cards: a hand has {rules.hand_size}", "groups"))
    return errors


def _copy_errors(hands: Sequence[PlayerHand], roles: JokerRoles) -> list[RulesError]:
    """No card may appear more often in the round than the decks hold; one copy of the
    cut card lies on the table (docs/rules §1)."""
    decks = roles.ruleset.decks
    # Count the whole round at once: it almost always fits in the shoe, and only a
    # round that does not needs the card-by-card walk that says where it went wrong.
    held = Counter(chain.from_iterable(hand.cards for hand in hands))
    if held[roles.cut] < decks and all(count <= decks for count in held.values()):
        return []
    seen: Counter[Card] = Counter()
    errors = []
    reported: set[Card] = set()
    for index, hand in enumerate(hands):
        for group_index, group in enumerate(hand.groups):
            for card_index, card in enumerate(group):
                seen[card] += 1
                allowed = roles.copies(card)
                if seen[card] > allowed and card not in reported:
                    reported.add(card)
                    on_table = (
                        " (one more is the cut card on the table)" if card == roles.cut else ""
                    )
                    counted = (
                        f"{card.code} is entered {held[card]} times in this round, but "
                        f"{decks} decks hold only {allowed}{on_table}"
                    )
                    errors.append(
                        RulesError(
                            f"{counted}: check {hand.name}'s group {group_index + 1}",
                            f"players[{index}].groups[{group_index}][{card_index}]",
                            beside=f"{counted}: check group {group_index + 1}",
                        )
                    )
    return errors


def round_errors(
    ruleset: Ruleset,
    cut: Card | None,
    hands: Sequence[PlayerHand],
    unread: Collection[int] = (),
) -> list[RulesError]:
    """Every input error of a round as entered, each with the field at fault (what
    :func:`score_round` refuses), as far as it can be told: the hands whose indexes
    are in ``unread`` are those whose cards could not all be read (a typo), given with
    the cards read around it, so only their outcome (and who won) and those cards'
    copies across the round are checked; without the cut joker (``None``) the checks
    that need it (copies of a card, a false declaration) are left out. An entry form
    can so report every problem at once, even while one hand holds a typo."""
    unread = frozenset(unread)
    roles = joker_roles(ruleset, cut) if cut is not None else None
    kinds_of = None
    if roles is not None:
        kinds_of = [
            () if index in unread else tuple(classify(group, roles) for group in hand.groups)
            for index, hand in enumerate(hands)
        ]
    return _round_errors(ruleset, roles, hands, kinds_of, unread)


def _round_errors(
    ruleset: Ruleset,
    roles: JokerRoles | None,
    hands: Sequence[PlayerHand],
    kinds_of: Sequence[Sequence[Kind]] | None,
    unread: frozenset[int] = frozenset(),
) -> list[RulesError]:
    errors = _name_errors(hands)
    cut = roles.cut if roles is not None else None
    for index, hand in enumerate(hands):
        errors += _hand_errors(index, hand, ruleset, cut, cards_read=index not in unread)
    if not any(error.field.endswith(".outcome") for error in errors):
        errors += _winner_errors(hands)
    if roles is None or kinds_of is None:
        return errors
    errors += _copy_errors(hands, roles)
    for index, (hand, kinds) in enumerate(zip(hands, kinds_of, strict=True)):
        complete = len(hand.cards) == ruleset.hand_size
        if (
            index not in unread
            and hand.outcome == "declared"
            and complete
            and not declaration_way(hand.groups, kinds, roles, hand.on_deal)
        ):
            said = (
                "declaration is not valid: "
                f"{why_not_declared(hand.groups, kinds, roles, hand.on_deal)}. If that "
                "is how it was shown, enter it as an invalid declaration"
            )
            errors.append(
                RulesError.naming(
                    hand.name, "'s ", said, f"players[{index}].groups", beside=f"the {said}"
                )
            )
    return errors


def score_round(ruleset: Ruleset, cut: Card, hands: Sequence[PlayerHand]) -> RoundResult:
    """Validate and score one round. Raises RoundErrors listing every input error
    (each with the field at fault, see :func:`round_errors`) and scores nothing
    unless the round is sound."""
    roles = joker_roles(ruleset, cut)
    kinds_of = [tuple(classify(group, roles) for group in hand.groups) for hand in hands]
    errors = _round_errors(ruleset, roles, hands, kinds_of)
    if errors:
        raise RoundErrors(errors)
    return _settle(ruleset, roles, hands, kinds_of)


def _settle(
    rules: Ruleset,
    roles: JokerRoles,
    hands: Sequence[PlayerHand],
    kinds_of: Sequence[Sequence[Kind]],
) -> RoundResult:
    winner = next(i for i, hand in enumerate(hands) if hand.outcome in WINNING_OUTCOMES)
    count = len(hands)
    hand_points = [0] * count
    declarations: list[str | None] = [None] * count
    group_results: list[tuple[GroupResult, ...]] = []
    lines: list[list[str]] = [[] for _ in hands]
    free = [False] * count
    rules_applied: list[str | None] = [None] * count

    by_default = hands[winner].outcome == "default_win"
    for i, (hand, kinds) in enumerate(zip(hands, kinds_of, strict=True)):
        assessment = _assess(hand, kinds, roles)
        declarations[i] = assessment.declaration
        hand_points[i] = assessment.hand_points or 0
        free[i] = assessment.free
        rules_applied[i] = assessment.rule_applied
        lines[i] += assessment.lines
        group_results.append(assessment.groups)
        if by_default and rules.default_win_drop is not None and hand.outcome in DROP_OUTCOMES:
            # Paplu, "Only Winner, no declarer": each dropper pays the same 30.
            hand_points[i] = rules.default_win_drop
            lines[i].append(
                f"won by default by {hands[winner].name}: every drop pays {hand_points[i]}"
            )
            rules_applied[i] = (
                f"{hands[winner].name} won by default: every drop pays {hand_points[i]}"
            )

    value_points = [0] * count
    value_paid = [0] * count
    paid_to: list[tuple[tuple[str, int], ...]] = [()] * count
    value_cards: list[tuple[Card, ...]] = [()] * count
    if rules.value_cards:
        pays, value_cards = _value_payments(rules, roles, hands, hand_points, winner, lines)
        value_points = [sum(pays[j][i] for j in range(count)) - sum(pays[i]) for i in range(count)]
        value_paid = [sum(row) for row in pays]
        paid_to = [
            tuple((hands[j].name, amount) for j, amount in enumerate(row) if amount) for row in pays
        ]
        for i in range(count):
            if any(pays[i]) or any(row[i] for row in pays):  # paid or was paid
                lines[i].append(f"value points exchanged: {value_points[i]:+d}")

    claims = [0] * count
    if rules.claims:
        holding = _claims_of(hands[winner], roles)
        value_cards[winner] = holding.cards
        if holding.lines:
            lines[winner].append("claims: " + ", ".join(holding.lines) + f" = {holding.points}")
        for i in range(count):
            if i != winner and not free[i] and holding.points:
                claims[i] = holding.points
                lines[i].append(f"pays {hands[winner].name}'s claims: {holding.points}")

    losses = [hand_points[i] + claims[i] for i in range(count)]
    scores = [0] * count
    for i in range(count):
        if rules.totals == "net":
            if i == winner:
                scores[i] = sum(losses[j] for j in range(count) if j != winner) + value_points[i]
            else:
                scores[i] = -losses[i] + value_points[i]
        else:
            scores[i] = (0 if i == winner else losses[i]) - value_points[i]

    players = tuple(
        PlayerResult(
            name=hand.name,
            outcome=hand.outcome,
            declaration=declarations[i],
            groups=group_results[i],
            hand_points=hand_points[i],
            value_points=value_points[i],
            claims=claims[i],
            score=scores[i],
            breakdown=tuple(lines[i]),
            value_cards=value_cards[i],
            value_paid=value_paid[i],
            paid_to=paid_to[i],
            on_deal=hand.on_deal,
            rule_applied=rules_applied[i],
            figures=hand.figures,
        )
        for i, hand in enumerate(hands)
    )
    return RoundResult(ruleset=rules, roles=roles, players=players)


def _values_of(hand: PlayerHand, roles: JokerRoles) -> Holding:
    """A hand's value cards, or, counted at the table, the value it was given."""
    if hand.figures is None:
        return value_holding(hand.cards, roles)
    return _counted_holding(hand.figures.value_points)


def _claims_of(hand: PlayerHand, roles: JokerRoles) -> Holding:
    """A winner's claim cards, or, counted at the table, the claims they were given."""
    if hand.figures is None:
        return claim_holding(hand.cards, roles)
    return _counted_holding(hand.figures.claims)


def _counted_holding(points: int | None) -> Holding:
    if not points:
        return Holding(0, (), ())
    return Holding(points, (), ("counted at the table",))


def _value_payments(
    rules: Ruleset,
    roles: JokerRoles,
    hands: Sequence[PlayerHand],
    hand_points: Sequence[int],
    winner: int,
    lines: list[list[str]],
) -> tuple[list[list[int]], list[tuple[Card, ...]]]:
    """Who pays whom for value cards (docs/rules §6): ``pays[i][j]`` is what player i pays
    player j, within the cap, and each player's value cards.

    ``players_in`` (21-points): each player still in (not dropped) receives their value
    V from every other such player and pays each of them theirs.
    ``drop_rules`` (Paplu, seed 003): every player's value cards count; a first drop
    pays the winner only, everyone else pays every other player; a first drop receives
    at most ``first_drop_receives`` from each payer; a winner by default brings no
    value points at all."""
    count = len(hands)
    pays = [[0] * count for _ in range(count)]
    drop_rules = rules.value_payments == "drop_rules"
    if drop_rules and hands[winner].outcome == "default_win":
        lines[winner].append("won by default: no value points")
        return pays, [()] * count
    if drop_rules:
        holders = list(range(count))
    else:
        holders = [i for i, hand in enumerate(hands) if hand.outcome not in DROP_OUTCOMES]
    holdings = {i: _values_of(hands[i], roles) for i in holders}
    for i, holding in holdings.items():
        if holding.points:
            lines[i].append("value cards: " + ", ".join(holding.lines) + f" = {holding.points}")
    limit = rules.first_drop_receives
    for i in holders:  # the payer
        for j in holders:  # the one paid
            if i == j:
                continue
            if drop_rules and hands[i].outcome == "first_drop" and j != winner:
                continue  # "pay 'the declarer' of the game", nobody else
            due = holdings[j].points
            if drop_rules and hands[j].outcome == "first_drop" and limit is not None:
                due = min(due, limit)  # "up-to 2 values or 40 value points maximum"
            pays[i][j] = due
    if drop_rules and any(holding.points for holding in holdings.values()):
        for i, hand in enumerate(hands):
            if hand.outcome == "first_drop":
                most = f", receives at most {limit} from each" if limit is not None else ""
                lines[i].append(f"first drop: pays the declarer only{most}")
            elif hand.outcome in DROP_OUTCOMES | {"invalid_declaration"}:
                lines[i].append(
                    f"{hand.outcome.replace('_', ' ')}: pays every player, receives from "
                    "all but first drops"
                )
    if rules.cap_includes_values:
        for i in range(count):
            if i != winner:
                _cap_payments(pays[i], rules.hand_cap - hand_points[i], hands[i].name, lines[i])
    cards = [holdings[i].cards if i in holdings else () for i in range(count)]
    return pays, cards


def _cap_payments(payments: list[int], budget: int, name: str, lines: list[str]) -> None:
    """Shrink one loser's value payments so that hand points plus payments stay within
    the cap (Paplu's 250), shared in proportion with the largest remainders rounded up
    so the round still sums to zero."""
    total = sum(payments)
    budget = max(budget, 0)
    if total <= budget:
        return
    shares = [payment * budget // total for payment in payments]
    remainders = sorted(range(len(payments)), key=lambda j: (-(payments[j] * budget % total), j))
    for j in remainders[: budget - sum(shares)]:
        shares[j] += 1
    payments[:] = shares
    lines.append(f"value payments cut from {total} to {budget} by the cap")
