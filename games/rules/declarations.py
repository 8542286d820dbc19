"""Declarations (docs/rules §4): the ways a winner's groups may declare, the first
that holds, and, where none does, why not, in a player's words.

What a declaration is worth and what the round costs the others is :mod:`.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, format_cards
from .melds import PURE_KINDS, SEQUENCE_KINDS, VALID_MELDS, JokerRoles, Kind, why_no_group
from .rulesets import DECLARATION_WAYS, Ruleset, choice_words
from .speech import gettext as _
from .speech import join_words, ngettext

Groups = tuple[tuple[Card, ...], ...]


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


def largest_joker_group(groups: Groups, roles: JokerRoles) -> int:
    return max((len(g) for g in groups if _all_jokers(g, roles)), default=0)


def pure_count(kinds: Sequence[Kind]) -> int:
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


def way_holds(
    way: str, groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, on_deal: bool = False
) -> bool:
    rules = roles.ruleset
    if way == "three_pure":
        return pure_count(kinds) >= rules.pure_needed and _all_valid(kinds)
    if way == "tunnelas":
        return kinds.count(Kind.TUNNELA) >= rules.tunnelas_needed
    if way == "dublees":
        return kinds.count(Kind.DUBLEE) >= needed(way, rules, on_deal)
    if way == "jokers":
        return largest_joker_group(groups, roles) >= needed(way, rules, on_deal)
    if way == "marriages":
        marriages = sum(is_marriage_group(g, roles) for g in groups)
        return marriages >= rules.marriages_needed
    if way == "show13":
        sequences = len([kind for kind in kinds if kind in SEQUENCE_KINDS])
        return pure_count(kinds) >= 1 and sequences >= 2 and _all_valid(kinds)
    raise ValueError(f"unknown declaration way {way!r}")


def declaration_way(
    groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, on_deal: bool = False
) -> str | None:
    """The first enabled way (docs/rules §4 order) in which these groups are a valid
    declaration, or None. ``on_deal``: the winner won on the deal."""
    for way in DECLARATION_WAYS:
        if way in roles.ruleset.declarations and way_holds(way, groups, kinds, roles, on_deal):
            return way
    return None


def on_deal_line(groups: Groups, kinds: Sequence[Kind], roles: JokerRoles, way: str) -> str:
    """What a win on the deal held, in words: "on the deal: 7 dublees"."""
    if way == "dublees":
        count = kinds.count(Kind.DUBLEE)
        said = ngettext("on the deal: {count} dublee", "on the deal: {count} dublees", count)
        return said.format(count=count)
    if way == "jokers":
        count = largest_joker_group(groups, roles)
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
        pure = pure_count(kinds)
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
        pure = pure_count(kinds)
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
        count = largest_joker_group(groups, roles)
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
