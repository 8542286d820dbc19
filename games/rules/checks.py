"""What stops a round as entered from being scored (DESIGN.md): every input error,
each with the field at fault and in a player's words, so that a form can say each
beside its field at once. :func:`.scoring.score_round` refuses what this finds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from .cards import Card
from .counted import figure_errors
from .declarations import declaration_way, why_not_declared
from .errors import RulesError
from .melds import JokerRoles, Kind, classify, joker_roles
from .outcomes import (
    DROP_OUTCOMES,
    FULL_HAND_OUTCOMES,
    OUTCOMES,
    WINNING_OUTCOMES,
    outcome_words,
)
from .rulesets import Ruleset
from .speech import gettext as _
from .speech import list_words, ngettext

if TYPE_CHECKING:  # a round's hands are scoring's; scoring imports this module
    from .scoring import PlayerHand


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


def hand_errors(
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
    return errors_of_round(ruleset, roles, hands, kinds_of, unread)


def errors_of_round(
    ruleset: Ruleset,
    roles: JokerRoles | None,
    hands: Sequence[PlayerHand],
    kinds_of: Sequence[Sequence[Kind]] | None,
    unread: frozenset[int] = frozenset(),
) -> list[RulesError]:
    errors = _name_errors(hands)
    cut = roles.cut if roles is not None else None
    for index, hand in enumerate(hands):
        errors += hand_errors(index, hand, ruleset, cut, cards_read=index not in unread)
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
