"""A hand entered as its figures, not its cards (docs/rules §5, "A counted hand").

At a table in a hurry each player counts their own hand and says a number; the
scorer types that number instead of 21 cards. A counted hand carries the figures
its cards would give the rules (its count, its value points, its claims) and the
rules score it with every rule that needs no cards, exactly as they would the cards.

This module says what the figures are (:class:`HandFigures`), which of them a hand
of each outcome gives under each ruleset (:func:`figure_names`), and refuses the
figures no hand could give (:func:`figure_errors`). The figures a hand's cards give
are :func:`.scoring.hand_figures`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card, all_cards
from .errors import RulesError
from .melds import JokerRoles, joker_roles
from .outcomes import DROP_OUTCOMES, SHOWN_OUTCOMES, WINNING_OUTCOMES, outcome_words
from .rulesets import Ruleset, choice_label, option_label
from .speech import gettext as _
from .speech import ngettext
from .values import claim_worths, value_worths

# The figures of a counted hand, in the order a form asks for them; each is the key
# of the JSON command line's player object and the field an error names.
FIGURES = ("count", "value_points", "claims", "two_point", "free_hand")
# The figures that are numbers (the others are yes or no).
NUMBER_FIGURES = ("count", "value_points", "claims")


@dataclass(frozen=True)
class HandFigures:
    """A hand as the figures its cards give, counted at the table (docs/rules §5).

    ``count``: the hand's count, the points of the cards the preset's counting rule
    leaves in (pure groups or melds left out, every joker 0), *before* any rule that
    replaces it: a two-point or free hand, a count of 0 made 2, the cap, a deal
    show's half or fixed cost. The rules apply all of those to it as to cards.
    ``value_points``: the hand's value V (docs/rules §6), what its value cards and
    marriages are worth before anyone pays anyone: the rules settle the exchange.
    ``claims``: what a winner's claim cards, marriages and mini-marriages are worth
    (Kodai): what every other player pays.
    ``two_point``: the cards make one of the preset's two-point hands (the hand
    loses only the two-point loss). ``free_hand``: Kodai's free hand (7 doubles or 8
    jokers): no points, no claims.

    None (or False) is a figure not given. Which a hand gives depends on its
    outcome and the rules: :func:`figure_names`.
    """

    count: int | None = None
    value_points: int | None = None
    claims: int | None = None
    two_point: bool = False
    free_hand: bool = False

    def given(self) -> tuple[str, ...]:
        """The names of the figures given, in the order of FIGURES."""
        # "is", not "in (None, False)": a count of 0 equals False, and is given.
        return tuple(
            name
            for name in FIGURES
            if getattr(self, name) is not None and getattr(self, name) is not False
        )

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.given()}


def has_two_point_hands(rules: Ruleset) -> bool:
    """Whether some losing hands cost only the two-point loss under these rules."""
    kinds = (rules.two_point_dublees, rules.two_point_jokers, rules.two_point_tunnelas)
    return (
        rules.two_point_three_pure
        or rules.two_point_marriages is not None
        or any(kind is not None for kind in kinds)
    )


def has_free_hands(rules: Ruleset) -> bool:
    """Whether some losing hands are free of points and claims (Kodai)."""
    return rules.free_hand_doubles is not None or rules.free_hand_jokers is not None


def figure_names(rules: Ruleset, outcome: str) -> tuple[str, ...]:
    """The figures a counted hand of ``outcome`` gives under ``rules``, those the rules
    would read from its cards, in the order of FIGURES:

    - ``count`` for a hand counted card by card (``shown``, ``deal_show``), but not
      a deal show of a fixed cost (Paplu: 60 whatever the hand holds);
    - ``two_point`` and ``free_hand`` beside it, where the rules have such hands;
    - ``value_points`` where value cards are played, for the players whose value
      cards count (21-points: all but drops; Paplu's drop rules: everyone, but a winner
      by default, who brings none);
    - ``claims`` for the winner, where claims are played.

    A declared winner gives figures only where the rules trust the table's show
    (``trust_show``); a drop's cost is fixed, so it gives no count."""
    names = []
    fixed_deal_show = outcome == "deal_show" and rules.deal_show_fixed is not None
    if outcome in SHOWN_OUTCOMES and not fixed_deal_show:
        names.append("count")
    if rules.value_cards and rules.value_payments == "drop_rules":
        if outcome != "default_win":
            names.append("value_points")
    elif rules.value_cards and outcome not in DROP_OUTCOMES:
        names.append("value_points")
    if rules.claims and outcome in WINNING_OUTCOMES:
        names.append("claims")
    if outcome in SHOWN_OUTCOMES and not fixed_deal_show and has_two_point_hands(rules):
        names.append("two_point")
    if outcome in SHOWN_OUTCOMES and has_free_hands(rules):
        names.append("free_hand")
    return tuple(name for name in FIGURES if name in names)


def needs_count(outcome: str, figures: HandFigures, rules: Ruleset) -> bool:
    """Whether a counted hand must give its count: where the rules read it, unless
    the hand is a two-point or free hand, whose cost does not depend on it."""
    return "count" in figure_names(rules, outcome) and not (figures.two_point or figures.free_hand)


# --- What figures a hand could give ------------------------------------------------------


@dataclass(frozen=True)
class FigureLimits:
    """The figures some hand of a round could give: every count, value and claim
    total its cards could make (docs/rules §1, §5, §6)."""

    hand_size: int
    counts: frozenset[int]
    value_points: frozenset[int]
    claims: frozenset[int]

    def reachable(self, name: str) -> frozenset[int]:
        if name == "count":
            return self.counts
        return self.value_points if name == "value_points" else self.claims


def figure_limits(rules: Ruleset, cut: Card) -> FigureLimits:
    """What any hand of a round under ``rules`` with ``cut`` turned up could give."""
    return _limits(rules, cut)


# Worked out once per ruleset and cut (a millisecond or ten each): a session's rounds
# ask again and again.
@lru_cache(maxsize=256)
def _limits(rules: Ruleset, cut: Card) -> FigureLimits:
    roles = joker_roles(rules, cut)
    values = value_worths(roles) if rules.value_cards else frozenset({0})
    claims = claim_worths(roles) if rules.claims else frozenset({0})
    return FigureLimits(rules.hand_size, _counts(roles), values, claims)


def _counts(roles: JokerRoles) -> frozenset[int]:
    """Every count a hand can make: sums of the points of at most a hand's cards,
    up to the copies in play. A joker counts 0, and every other card 2 to 10, so no
    hand counts 1; the rest of the hand is jokers or melds left out of the count."""
    most = roles.ruleset.hand_size
    copies: Counter[int] = Counter()
    for card in all_cards():
        if roles.card_points[card]:
            copies[roles.card_points[card]] += roles.copies(card)
    fewest = {0: 0}  # a count: the fewest counted cards that make it
    for points, available in sorted(copies.items()):
        more = dict(fewest)
        for total, size in fewest.items():
            for extra in range(1, min(available, most - size) + 1):
                key = total + extra * points
                more[key] = min(size + extra, more.get(key, size + extra))
        fewest = more
    return frozenset(fewest)


# --- Refusals ----------------------------------------------------------------------------


def figure_errors(
    rules: Ruleset,
    cut: Card | None,
    name: str,
    outcome: str,
    figures: HandFigures,
    where: str,
    *,
    has_cards: bool = False,
) -> list[RulesError]:
    """Why a counted hand cannot be scored as entered, each error naming the player
    ``name`` and the field at fault (``where`` is the player's, ``players[1]``):
    cards and figures both; counts where the house rules take cards only; a winner
    without cards where they do not trust the table's show; a figure the hand's
    outcome or the rules do not use; a count or total no hand could give (checked
    only with the cut card, which decides them)."""

    def error(said: str, field: str) -> RulesError:
        return RulesError.headed(name, said, f"{where}.{field}")

    first = (figures.given() or ("counted",))[0]
    if has_cards:
        return [error(_("entered both by cards and by a count: give one or the other"), first)]
    if outcome == "declared" and not rules.trust_show:
        said = _(
            "a winner is entered by their cards: the house rules do not trust the table's show"
        )
        return [error(said, first)]
    if outcome != "declared" and rules.hand_entry == "cards":
        # The house rules' option and its choice, as the house-rules page labels them.
        said = _(
            "hands are entered by their cards: the house rules allow no counts ({option}: {choice})"
        ).format(option=option_label("hand_entry"), choice=choice_label("cards"))
        return [error(said, first)]
    taken = figure_names(rules, outcome)
    errors = [
        error(_not_taken(figure, outcome, rules), figure)
        for figure in figures.given()
        if figure not in taken
    ]
    if needs_count(outcome, figures, rules) and figures.count is None:
        errors.append(error(_("a counted hand needs its count"), "count"))
    limits = figure_limits(rules, cut) if cut is not None else None
    for figure in NUMBER_FIGURES:
        value = getattr(figures, figure)
        if value is None or figure not in taken:
            continue
        if value < 0:
            errors.append(error(_below_zero(figure).format(value=value), figure))
        elif limits is not None and value not in limits.reachable(figure):
            errors.append(error(_unreachable(figure, value, limits, rules), figure))
    return errors


def _below_zero(figure: str) -> str:
    if figure == "count":
        return _("a count cannot be below 0, not {value}")
    if figure == "value_points":
        return _("value points cannot be below 0, not {value}")
    return _("claims cannot be below 0, not {value}")


def _not_taken(figure: str, outcome: str, rules: Ruleset) -> str:
    """Why ``figure`` has no place in a hand of ``outcome`` under ``rules``."""
    preset = rules.preset
    if figure == "value_points" and not rules.value_cards:
        return _("value points are not played under {preset}").format(preset=preset)
    if figure == "claims" and not rules.claims:
        return _("claims are not played under {preset}").format(preset=preset)
    if figure == "two_point" and not has_two_point_hands(rules):
        return _("{preset} has no two-point hands").format(preset=preset)
    if figure == "free_hand" and not has_free_hands(rules):
        return _("{preset} has no free hands").format(preset=preset)
    if figure == "value_points" and outcome == "default_win":
        return _("a winner by default brings no value points under {preset}").format(preset=preset)
    if figure == "value_points":
        said = _("a {outcome} is out of the value card exchange under {preset}")
        return said.format(outcome=outcome_words(outcome), preset=preset)
    if figure == "claims":
        return _("only the winner's claims are counted")
    if outcome == "deal_show":  # a fixed cost: the count and its rules don't matter
        said = _("a deal show costs a fixed {points}, whatever the hand holds")
        return said.format(points=rules.deal_show_fixed)
    if outcome in WINNING_OUTCOMES:
        if figure == "count":
            return _("a winner has no count")
        if figure == "two_point":
            return _("a winner has no two-point hand")
        return _("a winner has no free hand")
    if figure == "two_point":
        return _("only a shown hand can be a two-point hand")
    if figure == "free_hand":
        return _("only a shown hand can be a free hand")
    said = _("a {outcome} costs a fixed {points}: it has no count")
    return said.format(outcome=outcome_words(outcome), points=getattr(rules, outcome))


def _unreachable(figure: str, value: int, limits: FigureLimits, rules: Ruleset) -> str:
    """A figure no hand gives, and the nearest that some hand does."""
    reachable = sorted(limits.reachable(figure))
    size, most = limits.hand_size, reachable[-1]
    if figure == "count" and value > most:
        said = ngettext(
            "a count of {value} is more than {size} card can hold: at most {most}",
            "a count of {value} is more than {size} cards can hold: at most {most}",
            size,
        )
        return said.format(value=value, size=size, most=most)
    if figure == "count":
        said = ngettext(
            "no {size} card counts {value}: a card counts 2 to 10, a joker 0",
            "no {size} cards count {value}: a card counts 2 to 10, a joker 0",
            size,
        )
        return said.format(size=size, value=value)
    if value > most:
        if figure == "value_points":
            said = ngettext(
                "no {size} card holds {value} in value points under {preset}: at most {most}",
                "no {size} cards hold {value} in value points under {preset}: at most {most}",
                size,
            )
        else:
            said = ngettext(
                "no {size} card holds {value} in claims under {preset}: at most {most}",
                "no {size} cards hold {value} in claims under {preset}: at most {most}",
                size,
            )
        return said.format(size=size, value=value, preset=rules.preset, most=most)
    if figure == "value_points":
        said = ngettext(
            "no {size} card holds {value} in value points under {preset}: the nearest are "
            "{below} and {above}",
            "no {size} cards hold {value} in value points under {preset}: the nearest are "
            "{below} and {above}",
            size,
        )
    else:
        said = ngettext(
            "no {size} card holds {value} in claims under {preset}: the nearest are {below} "
            "and {above}",
            "no {size} cards hold {value} in claims under {preset}: the nearest are {below} "
            "and {above}",
            size,
        )
    below = max(point for point in reachable if point < value)
    above = min(point for point in reachable if point > value)
    return said.format(size=size, value=value, preset=rules.preset, below=below, above=above)
