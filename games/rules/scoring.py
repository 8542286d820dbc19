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
from .outcomes import (
    DROP_OUTCOMES,
    FULL_HAND_OUTCOMES,
    OUTCOMES,
    SHOWN_OUTCOMES,
    WINNING_OUTCOMES,
    outcome_label,
    outcome_words,
)
from .rulesets import DECLARATION_WAYS, Ruleset, choice_words
from .speech import gettext as _
from .speech import join_words, list_words, ngettext
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
        count = kinds.count(Kind.DUBLEE)
        said = ngettext("on the deal: {count} dublee", "on the deal: {count} dublees", count)
        return said.format(count=count)
    if way == "jokers":
        count = _largest_joker_group(groups, roles)
        said = ngettext(
            "on the deal: {count} joker in one group",
            "on the deal: {count} jokers in one group",
            count,
        )
        return said.format(count=count)
    return _("on the deal: {way}").format(way=choice_words(way))


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
    if not reasons:
        return _("these rules allow no way to declare")
    said = reasons[-1]
    for reason in reversed(reasons[:-1]):
        # Translators: what one way of declaring lacks, then what the others lack.
        said = _("{first}; {rest}").format(first=reason, rest=said)
    return said


def _needed(held: str, needed: int) -> str:
    # Translators: what a hand holds toward a declaration ("2 tunnelas"), and how many
    # the declaration needs.
    return _("{held} ({needed} needed)").format(held=held, needed=needed)


def _why_not(
    way: str, groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, on_deal: bool
) -> str:
    """What one way of declaring lacks. Only the three-pure way and the 13-card show
    ask every group to be a meld; the others leave the rest of the cards free."""
    rules = roles.ruleset
    if way == "three_pure":
        pure = _pure_count(kinds)
        if Kind.TUNNELA in kinds:  # a tunnela counts as a pure sequence (docs/rules §3)
            held = ngettext(
                "{count} pure sequence or tunnela", "{count} pure sequences or tunnelas", pure
            )
        else:
            held = ngettext("{count} pure sequence", "{count} pure sequences", pure)
        held = held.format(count=pure)
        enough = pure >= rules.pure_needed
        if enough:
            # Translators: what a hand holds toward a declaration, enough of it.
            held = _("{held} (enough)").format(held=held)
        else:
            held = _needed(held, rules.pure_needed)
        return _with_faults(held, enough, groups, kinds, roles, way)
    if way == "show13":
        pure = _pure_count(kinds)
        others = len([kind for kind in kinds if kind in SEQUENCE_KINDS]) - pure
        enough = pure >= 1 and others + pure >= 2
        if enough:
            held = _("a pure sequence and a second sequence (enough)")
        else:
            pure_held = ngettext("{count} pure sequence", "{count} pure sequences", pure)
            others_held = ngettext("{count} other sequence", "{count} other sequences", others)
            held = _("{pure} and {others} (a pure sequence and a second sequence needed)").format(
                pure=pure_held.format(count=pure), others=others_held.format(count=others)
            )
        return _with_faults(held, enough, groups, kinds, roles, way)
    if way == "tunnelas":
        count = kinds.count(Kind.TUNNELA)
        held = ngettext("{count} tunnela", "{count} tunnelas", count).format(count=count)
        return _needed(held, rules.tunnelas_needed)
    if way == "marriages":
        count = sum(is_marriage_group(g, roles) for g in groups)
        held = ngettext("{count} marriage group", "{count} marriage groups", count)
        return _needed(held.format(count=count), rules.marriages_needed)
    if way == "dublees":
        count = kinds.count(Kind.DUBLEE)
        held = ngettext("{count} dublee", "{count} dublees", count).format(count=count)
    else:
        count = _largest_joker_group(groups, roles)
        held = ngettext("{count} joker in one group", "{count} jokers in one group", count)
        held = held.format(count=count)
    # A win on the deal needs fewer (Kodai): say so to a scorer who marked it, and
    # remind one who did not where it would have been enough.
    early = needed(way, rules, on_deal=True) if rules.wins_on_deal else None
    if early is not None and on_deal:
        return _("{held} ({early} needed on the deal)").format(held=held, early=early)
    if early is not None and count >= early:
        said = _("{held} ({needed} needed, {early} if won on the deal)")
        return said.format(held=held, needed=needed(way, rules), early=early)
    return _needed(held, needed(way, rules))


def _with_faults(
    held: str,
    enough: bool,
    groups: Groups,
    kinds: Sequence[Kind],
    roles: JokerRoles,
    way: str,
) -> str:
    """``held`` and then the groups that are no meld, where the ``way`` of declaring
    (three pure, a 13-card show) needs every group to be one: cards that are no group,
    and dublees (a group of 21-card rummy, but no meld: docs/rules §4 lists the melds).
    Where ``held`` is ``enough`` those groups are all that is wrong, so each says why
    it is no group."""
    loose = [g for g, kind in zip(groups, kinds, strict=True) if kind == Kind.INVALID]
    pairs = [format_cards(g) for g, kind in zip(groups, kinds, strict=True) if kind == Kind.DUBLEE]
    if enough:
        faults = [
            _("{cards} is no group ({why})").format(
                cards=format_cards(g), why=why_no_group(g, roles)
            )
            for g in loose
        ]
    elif loose:
        said = ngettext("{cards} is no group", "{cards} are no groups", len(loose))
        faults = [said.format(cards=join_words(format_cards(g) for g in loose))]
    else:
        faults = []
    if pairs and way == "show13":
        said = ngettext(
            "{cards} is a dublee, not allowed in a 13-card show",
            "{cards} are dublees, not allowed in a 13-card show",
            len(pairs),
        )
        faults.append(said.format(cards=join_words(pairs)))
    elif pairs:
        said = ngettext(
            "{cards} is a dublee, not allowed in a three-pure declaration",
            "{cards} are dublees, not allowed in a three-pure declaration",
            len(pairs),
        )
        faults.append(said.format(cards=join_words(pairs)))
    if not faults:
        return held
    said = faults[-1]
    for fault in reversed(faults[:-1]):
        # Translators: one group that is no meld, then another.
        said = _("{first}, and {rest}").format(first=fault, rest=said)
    if enough:
        # Translators: enough of what a declaration needs, but groups that are no meld.
        return _("{held}, but {faults}").format(held=held, faults=said)
    # Translators: too few of what a declaration needs, and groups that are no meld too.
    return _("{held}, and {faults}").format(held=held, faults=said)


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
    if rules.two_point_three_pure and _way_holds("three_pure", groups, kinds, roles):
        return _("groups form a valid three-pure declaration")
    # Each kind of two-point hand is counted only under rules that have it.
    if rules.two_point_dublees is not None:
        dublees = kinds.count(Kind.DUBLEE)
        if dublees >= rules.two_point_dublees:
            return ngettext("{count} dublee", "{count} dublees", dublees).format(count=dublees)
    if rules.two_point_jokers is not None:
        jokers = _largest_joker_group(groups, roles)
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
    problems = [error.beside for error in _hand_errors(0, hand, ruleset, cut)]
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


def _name_errors(hands: Sequence[PlayerHand]) -> list[RulesError]:
    errors = []
    if len(hands) < 2:
        errors.append(RulesError(_("a round needs at least 2 players"), "players"))
    seen: set[str] = set()
    for index, hand in enumerate(hands):
        name = hand.name.strip()
        where = f"players[{index}].name"
        if not name:
            said = _("player {number} has no name").format(number=index + 1)
            errors.append(RulesError(said, where))
        elif name.casefold() in seen:
            said = _("two players are called {name}").format(name=repr(name))
            errors.append(RulesError(said, where))
        seen.add(name.casefold())
    return errors


def _winner_errors(hands: Sequence[PlayerHand]) -> list[RulesError]:
    winners = [i for i, hand in enumerate(hands) if hand.outcome in WINNING_OUTCOMES]
    if not winners:
        said = _("no winner: one player must have declared (or won by default)")
        return [RulesError(said, "players")]
    if len(winners) > 1:
        said = _("more than one winner ({names}): only one player wins a round")
        return [
            RulesError(said.format(names=list_words(hands[i].name for i in winners)), "players")
        ]
    winner = hands[winners[0]]
    if winner.outcome == "default_win":
        still_in = [
            hand.name
            for hand in hands
            if hand is not winner and hand.outcome not in DROP_OUTCOMES | {"invalid_declaration"}
        ]
        if still_in:
            players = list_words(still_in)
            message = _(
                "{name} cannot win by default while {players} still played: only the last "
                "player left wins by default"
            ).format(name=winner.name, players=players)
            beside = _(
                "cannot win by default while {players} still played: only the last player "
                "left wins by default"
            ).format(players=players)
            return [RulesError(message, f"players[{winners[0]}].outcome", beside=beside)]
    return []


def _hand_errors(
    index: int, hand: PlayerHand, rules: Ruleset, cut: Card | None, cards_read: bool = True
) -> list[RulesError]:
    where = f"players[{index}]"

    # Each message names the player, "Esha: unknown outcome ..." or "Esha must show
    # ...", and says the same beside them without the name.
    def headed(said: str, field: str) -> RulesError:
        return RulesError.headed(hand.name, said, f"{where}.{field}")

    if hand.outcome not in OUTCOMES:
        said = _("unknown outcome {outcome}").format(outcome=repr(hand.outcome))
        return [headed(said, "outcome")]
    if hand.outcome not in rules.outcomes:
        said = _("outcome {outcome} is not played under {preset}")
        return [headed(said.format(outcome=hand.outcome, preset=rules.preset), "outcome")]
    errors = []
    if hand.on_deal and not rules.wins_on_deal:
        said = _("winning on the deal is not played under {preset}").format(preset=rules.preset)
        errors.append(headed(said, "on_deal"))
    elif hand.on_deal and hand.outcome != "declared":
        said = _("only a declared winner wins on the deal, not a {outcome}")
        errors.append(headed(said.format(outcome=outcome_words(hand.outcome)), "on_deal"))
    if hand.figures is not None:
        return errors + figure_errors(
            rules, cut, hand.name, hand.outcome, hand.figures, where, has_cards=bool(hand.cards)
        )
    if not cards_read:
        return errors
    size, named = len(hand.cards), {"name": hand.name, "size": rules.hand_size}
    if hand.outcome in FULL_HAND_OUTCOMES and size != rules.hand_size:
        message = ngettext(
            "{name} must show all {size} cards, not {count}",
            "{name} must show all {size} cards, not {count}",
            rules.hand_size,
        )
        beside = ngettext(
            "must show all {size} cards, not {count}",
            "must show all {size} cards, not {count}",
            rules.hand_size,
        )
    elif size > rules.hand_size:
        message = ngettext(
            "{name} holds {count} card: a hand has {size}",
            "{name} holds {count} cards: a hand has {size}",
            size,
        )
        beside = ngettext(
            "holds {count} card: a hand has {size}", "holds {count} cards: a hand has {size}", size
        )
    else:
        return errors
    errors.append(
        RulesError(
            message.format(count=size, **named),
            f"{where}.groups",
            beside=beside.format(count=size, **named),
        )
    )
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
                    counted = _too_many(card, held[card], decks, allowed, card == roles.cut)
                    number = group_index + 1
                    # Translators: too many copies of a card, and where to look.
                    message = _("{problem}: check {name}'s group {number}")
                    beside = _("{problem}: check group {number}")
                    errors.append(
                        RulesError(
                            message.format(problem=counted, name=hand.name, number=number),
                            f"players[{index}].groups[{group_index}][{card_index}]",
                            beside=beside.format(problem=counted, number=number),
                        )
                    )
    return errors


def _too_many(card: Card, count: int, decks: int, allowed: int, cut: bool) -> str:
    """A card entered more often than the decks hold it, in words."""
    times = ngettext("{count} time", "{count} times", count).format(count=count)
    if cut:
        said = ngettext(
            "{card} is entered {times} in this round, but {decks} deck holds only {allowed} "
            "(one more is the cut card on the table)",
            "{card} is entered {times} in this round, but {decks} decks hold only {allowed} "
            "(one more is the cut card on the table)",
            decks,
        )
    else:
        said = ngettext(
            "{card} is entered {times} in this round, but {decks} deck holds only {allowed}",
            "{card} is entered {times} in this round, but {decks} decks hold only {allowed}",
            decks,
        )
    return said.format(card=card.code, times=times, decks=decks, allowed=allowed)


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
            why = why_not_declared(hand.groups, kinds, roles, hand.on_deal)
            message = _(
                "{name}'s declaration is not valid: {why}. If that is how it was shown, enter "
                "it as an invalid declaration"
            ).format(name=hand.name, why=why)
            beside = _(
                "the declaration is not valid: {why}. If that is how it was shown, enter it as "
                "an invalid declaration"
            ).format(why=why)
            errors.append(RulesError(message, f"players[{index}].groups", beside=beside))
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
