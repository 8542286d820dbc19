"""Hand points, value points, claims and round settlement (docs/rules §5–6).

:func:`score_round` is the whole service: it validates a round as entered, then
says for every player what their cards or drop cost, what they exchange in value
points or claims, and what is added to their running total. What stops a round from
being scored is :mod:`.checks`; the declarations, :mod:`.declarations`; what value
cards and claim cards are worth, :mod:`.values`; the outcomes themselves,
:mod:`.outcomes`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain

from .cards import Card, format_cards
from .checks import errors_of_round, hand_errors
from .counted import HandFigures, figure_names
from .declarations import (
    Groups,
    declaration_way,
    is_marriage_group,
    largest_joker_group,
    on_deal_line,
    pure_count,
    way_holds,
    why_not_declared,
)
from .errors import RoundErrors
from .melds import PURE_KINDS, SEQUENCE_KINDS, VALID_MELDS, JokerRoles, Kind, classify, joker_roles
from .outcomes import (
    DROP_OUTCOMES,
    SHOWN_OUTCOMES,
    WINNING_OUTCOMES,
    outcome_label,
    outcome_words,
)
from .rulesets import Ruleset, choice_words
from .speech import gettext as _
from .speech import list_words, ngettext
from .values import Holding, claim_holding, value_holding


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
    pure = pure_count(kinds)
    if rules.hand_size == 13:
        sequences = len([kind for kind in kinds if kind in SEQUENCE_KINDS])
        complete = pure >= 1 and sequences >= 2
        enough = _("a pure and a second sequence: no valid meld counts")
    else:
        complete = pure >= rules.pure_needed
        enough = ngettext(
            "{count} pure group: no valid meld counts",
            "{count} pure groups: no valid meld counts",
            pure,
        )
    if complete:
        rule = enough.format(count=pure)
        left_out = [kind in VALID_MELDS for kind in kinds]
    elif rules.counting == "kodai":
        rule = ngettext(
            "{count} pure group: only tunnelas and pure sequences of 4+ cards don't count",
            "{count} pure groups: only tunnelas and pure sequences of 4+ cards don't count",
            pure,
        ).format(count=pure)
        left_out = [
            kind == Kind.TUNNELA or (kind == Kind.PURE_SEQUENCE and len(group) >= 4)
            for group, kind in zip(groups, kinds, strict=True)
        ]
    elif pure == 0:
        rule = _("no pure sequence: every card counts")
        left_out = [False] * len(kinds)
    else:
        rule = ngettext(
            "{count} pure group: only pure groups don't count",
            "{count} pure groups: only pure groups don't count",
            pure,
        ).format(count=pure)
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
    if rules.two_point_three_pure and way_holds("three_pure", groups, kinds, roles):
        return _("groups form a valid three-pure declaration")
    # Each kind of two-point hand is counted only under rules that have it.
    if rules.two_point_dublees is not None:
        dublees = kinds.count(Kind.DUBLEE)
        if dublees >= rules.two_point_dublees:
            return ngettext("{count} dublee", "{count} dublees", dublees).format(count=dublees)
    if rules.two_point_jokers is not None:
        jokers = largest_joker_group(groups, roles)
        if jokers >= rules.two_point_jokers:
            said = ngettext("{count} joker in one group", "{count} jokers in one group", jokers)
            return said.format(count=jokers)
    if rules.two_point_tunnelas is not None:
        tunnelas = kinds.count(Kind.TUNNELA)
        if tunnelas >= rules.two_point_tunnelas:
            return ngettext("{count} tunnela", "{count} tunnelas", tunnelas).format(count=tunnelas)
    if rules.two_point_marriages is not None:
        marriages = sum(is_marriage_group(g, roles) for g in groups)
        if marriages >= rules.two_point_marriages:
            said = ngettext("{count} marriage", "{count} marriages", marriages)
            return said.format(count=marriages)
    return None


def free_hand_reason(cards: Sequence[Card], roles: JokerRoles) -> str | None:
    """Kodai: a loser holding 7 doubles or 8 jokers pays nothing (docs/rules §5)."""
    rules = roles.ruleset
    if rules.free_hand_doubles is not None:
        # A tenali is one double: count each distinct card held at least twice.
        doubles = sum(1 for count in Counter(cards).values() if count >= 2)
        if doubles >= rules.free_hand_doubles:
            said = ngettext("free hand: {count} double", "free hand: {count} doubles", doubles)
            return said.format(count=doubles)
    if rules.free_hand_jokers is not None:
        jokers = len([card for card in cards if card in roles.jokers])
        if jokers >= rules.free_hand_jokers:
            said = ngettext("free hand: {count} joker", "free hand: {count} jokers", jokers)
            return said.format(count=jokers)
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
        lines.append(_("not counted: {groups}").format(groups=list_words(left_out)))
    free = free_hand_reason(hand.cards, roles)
    two_point = None if free else two_point_reason(hand.groups, kinds, roles)
    return _cost(hand.outcome, sum(counting.counted), free, two_point, roles.ruleset, lines)


def _counted_cost(outcome: str, figures: HandFigures, rules: Ruleset) -> _HandCost:
    """What a hand counted at the table costs: what its figures say its cards make,
    under every rule that needs no cards."""
    free = _("free hand") if figures.free_hand else None
    two_point = _("counted at the table") if figures.two_point else None
    return _cost(outcome, figures.count or 0, free, two_point, rules, [_("counted at the table")])


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
        # Translators: why a loser's hand is free ("free hand: 7 doubles").
        cost.lines.append(_("{reason}: no points and no claims").format(reason=free))
        cost.free = True
        # Translators: why a loser's hand is free, as a rule that applied.
        said = _("{reason} — no points, no claims")
        cost.rule = said.format(reason=_capitalised(free))
        return cost
    if outcome == "deal_show" and rules.deal_show_fixed is not None:
        # Paplu (seed 003): "a penalty of 60 points + the points of the value cards",
        # whatever the hand holds; the value cards are settled with everyone's (§6).
        cost.points = rules.deal_show_fixed
        said = _("deal show: a fixed {points}, whatever the hand holds")
        cost.lines.append(said.format(points=cost.points))
        cost.rule = _("Deal show: a fixed {points} whatever the cards").format(points=cost.points)
        return cost
    if outcome == "deal_show":
        if two_point:
            cost.points = rules.two_point_loss
            # Translators: why a hand is a two-point hand ("6 dublees"), and its cost.
            said = _("two-point hand ({reason}): deal show costs {points}")
            cost.lines.append(said.format(reason=two_point, points=cost.points))
            cost.rule = _("Two-point hand ({reason})").format(reason=two_point)
            return cost
        half = count // 2
        cost.points = min(max(half, rules.deal_show_min), rules.deal_show_max)
        said = _("deal show: half of {count} is {half}, kept within {least}..{most} = {points}")
        cost.lines.append(
            said.format(
                count=count,
                half=half,
                least=rules.deal_show_min,
                most=rules.deal_show_max,
                points=cost.points,
            )
        )
        cost.rule = _half_rule(count, half, rules)
        return cost
    if two_point:
        cost.points = rules.two_point_loss
        said = _("two-point hand ({reason}): loses {points}")
        cost.lines.append(said.format(reason=two_point, points=cost.points))
        cost.rule = _("Two-point hand ({reason})").format(reason=two_point)
        return cost
    cost.points = count
    cost.lines.append(_("count {count}").format(count=count))
    if count == 0 and rules.zero_count_becomes:
        cost.points = rules.zero_count_becomes
        cost.lines.append(_("a count of 0 becomes {points}").format(points=cost.points))
        cost.rule = _("A count of 0 costs {points}").format(points=cost.points)
    if cost.points > rules.hand_cap:
        cost.lines.append(_("capped at {cap}").format(cap=rules.hand_cap))
        cost.points = rules.hand_cap
        cost.rule = _("Capped at {cap}").format(cap=rules.hand_cap)
    return cost


def _half_rule(count: int, half: int, rules: Ruleset) -> str:
    """A halved deal show in a player's words: what was halved, and the bound
    that held it where one did (docs/rules §5: half, floor, 2..60)."""
    if half > rules.deal_show_max:
        said = _("Deal show: half the count ({half}), at most {most}")
        return said.format(half=half, most=rules.deal_show_max)
    if half < rules.deal_show_min:
        said = _("Deal show: half the count ({half}), at least {least}")
        return said.format(half=half, least=rules.deal_show_min)
    if count % 2:
        return _("Deal show: half the count of {count}, rounded down").format(count=count)
    return _("Deal show: half the count of {count}").format(count=count)


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
        lines = [_("declared: the table's show, taken as valid")]
        if hand.on_deal:
            lines.append(_("on the deal"))
    elif hand.outcome == "declared":
        declaration = declaration_way(hand.groups, kinds, roles, hand.on_deal)
        if declaration:
            lines = [_("declared: {way}").format(way=choice_words(declaration))]
        else:
            lines = [outcome_words("declared")]
        if hand.on_deal and declaration:
            lines.append(on_deal_line(hand.groups, kinds, roles, declaration))
    elif hand.outcome == "default_win":
        lines = [_("won: every other player dropped")]
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
        # Translators: an outcome that costs a fixed number of points, and what it cost.
        said = _("{outcome}: {points}")
        lines = [said.format(outcome=outcome_words(hand.outcome), points=hand_points)]
        said = _("{outcome}: a fixed {points}")
        rule = said.format(outcome=outcome_label(hand.outcome), points=hand_points)

    if rules.ace_marriage_pure:
        said = _("{cards}: the K A 2 marriage counted as a rummy (Ace cut)")
        lines += [
            said.format(cards=format_cards(group))
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
    problems = [error.beside for error in hand_errors(0, hand, ruleset, cut)]
    if hand.outcome not in ruleset.outcomes:
        return HandAssessment((), None, None, False, (), tuple(problems))
    assessment = _assess(hand, kinds, roles)
    complete = len(hand.cards) == ruleset.hand_size
    if hand.outcome == "declared" and complete and assessment.declaration is None:
        why = why_not_declared(hand.groups, kinds, roles, hand.on_deal)
        problems.append(_("not a valid declaration: {why}").format(why=why))
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


def score_round(ruleset: Ruleset, cut: Card, hands: Sequence[PlayerHand]) -> RoundResult:
    """Validate and score one round. Raises RoundErrors listing every input error
    (each with the field at fault, see :func:`round_errors`) and scores nothing
    unless the round is sound."""
    roles = joker_roles(ruleset, cut)
    kinds_of = [tuple(classify(group, roles) for group in hand.groups) for hand in hands]
    errors = errors_of_round(ruleset, roles, hands, kinds_of)
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
            named = {"name": hands[winner].name, "points": hand_points[i]}
            lines[i].append(_("won by default by {name}: every drop pays {points}").format(**named))
            rules_applied[i] = _("{name} won by default: every drop pays {points}").format(**named)

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
                said = _("value points exchanged: {points}")
                lines[i].append(said.format(points=f"{value_points[i]:+d}"))

    claims = [0] * count
    if rules.claims:
        holding = _claims_of(hands[winner], roles)
        value_cards[winner] = holding.cards
        if holding.lines:
            said = _("claims: {claims} = {points}")
            lines[winner].append(
                said.format(claims=list_words(holding.lines), points=holding.points)
            )
        for i in range(count):
            if i != winner and not free[i] and holding.points:
                claims[i] = holding.points
                said = _("pays {name}'s claims: {points}")
                lines[i].append(said.format(name=hands[winner].name, points=holding.points))

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
    return Holding(points, (), (_("counted at the table"),))


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
        lines[winner].append(_("won by default: no value points"))
        return pays, [()] * count
    if drop_rules:
        holders = list(range(count))
    else:
        holders = [i for i, hand in enumerate(hands) if hand.outcome not in DROP_OUTCOMES]
    holdings = {i: _values_of(hands[i], roles) for i in holders}
    for i, holding in holdings.items():
        if holding.points:
            said = _("value cards: {cards} = {points}")
            lines[i].append(said.format(cards=list_words(holding.lines), points=holding.points))
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
            if hand.outcome == "first_drop" and limit is not None:
                said = _("first drop: pays the declarer only, receives at most {limit} from each")
                lines[i].append(said.format(limit=limit))
            elif hand.outcome == "first_drop":
                lines[i].append(_("first drop: pays the declarer only"))
            elif hand.outcome in DROP_OUTCOMES | {"invalid_declaration"}:
                said = _("{outcome}: pays every player, receives from all but first drops")
                lines[i].append(said.format(outcome=outcome_words(hand.outcome)))
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
    lines.append(
        _("value payments cut from {total} to {budget} by the cap").format(
            total=total, budget=budget
        )
    )
