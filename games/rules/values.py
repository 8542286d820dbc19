"""What a hand's value cards (21-points, Paplu) and a winner's claim cards (Kodai) are
worth (docs/rules §6). Groups don't matter here: only which cards the hand holds.
Who pays whom for them is the round's settlement (:mod:`.scoring`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from .cards import PRINTED_JOKER, SUITS, Card, format_cards, parse_card
from .melds import JokerRoles
from .speech import gettext as _
from .speech import ngettext


def _tier(table: Sequence[int], count: int) -> int:
    """Points for ``count`` cards of one type from a table for 1, 2 and 3 cards; more
    than three (only possible with a fourth deck) add the one-card step each."""
    if count <= 0:
        return 0
    if count <= len(table):
        return table[count - 1]
    return table[-1] + (count - len(table)) * table[0]


@dataclass(frozen=True)
class Holding:
    """A player's value cards (or a winner's claim cards) and what they are worth."""

    points: int
    cards: tuple[Card, ...]
    lines: tuple[str, ...]


def value_holding(cards: Iterable[Card], roles: JokerRoles) -> Holding:
    """Value points of a hand (docs/rules §6): marriages of one lower, cut and upper card,
    then each type's spare cards by the ruleset's table. Groups don't matter."""
    rules = roles.ruleset
    if roles.marriage is None:
        typed: list[tuple[str, Card | None, tuple[int, int, int]]] = []
    else:
        lower, _cut, upper = roles.marriage
        typed = [
            ("lower joker", lower, rules.value_lower),
            ("cut card", roles.effective_cut, rules.value_cut),
            ("upper joker", upper, rules.value_upper),
        ]
    typed.append(("printed joker", PRINTED_JOKER, rules.value_printed_joker))
    for code in rules.value_extra_cards:
        typed.append((code, parse_card(code), rules.value_extra))
    # A card has the first role it matches (a cut A♠ in Paplu is the cut card, not A♠).
    held = Counter(cards)
    counts: dict[str, int] = {}
    seen: set[Card] = set()
    for name, card, _table in typed:
        if card is None or card in seen:
            counts[name] = 0
            continue
        seen.add(card)
        counts[name] = held[card]
    marriages = 0
    if roles.marriage is not None:
        marriages = min(counts["lower joker"], counts["cut card"], counts["upper joker"])
    points = _tier(rules.value_marriages, marriages)
    lines = []
    if marriages:
        said = ngettext("{count} marriage: {points}", "{count} marriages: {points}", marriages)
        lines.append(said.format(count=marriages, points=points))
    value_cards: list[Card] = []
    for name, card, table in typed:
        count = counts[name]
        if card is None or count == 0:
            continue
        in_marriage = name in ("lower joker", "cut card", "upper joker")
        # Only cards the ruleset values are value cards (a printed joker is worth
        # nothing in 21-points, so it is not shown as one).
        if any(table) or (in_marriage and marriages and any(rules.value_marriages)):
            value_cards += [card] * count
        spare = count - marriages if in_marriage else count
        worth = _tier(table, spare)
        if spare and worth:
            lines.append(
                _spare(name, spare, card).format(count=spare, card=card.code, points=worth)
            )
            points += worth
    if points == 0:
        return Holding(0, (), ())
    return Holding(points, tuple(value_cards), tuple(lines))


def _spare(name: str, count: int, card: Card) -> str:
    """The line of ``count`` spare cards of one type: the English names the type, not
    the cards ("2 spare cut card (8S): 30"), in both its forms."""
    if name == "lower joker":
        return ngettext(
            "{count} spare lower joker ({card}): {points}",
            "{count} spare lower joker ({card}): {points}",
            count,
        )
    if name == "cut card":
        return ngettext(
            "{count} spare cut card ({card}): {points}",
            "{count} spare cut card ({card}): {points}",
            count,
        )
    if name == "upper joker":
        return ngettext(
            "{count} spare upper joker ({card}): {points}",
            "{count} spare upper joker ({card}): {points}",
            count,
        )
    if card == PRINTED_JOKER:
        return ngettext(
            "{count} spare printed joker ({card}): {points}",
            "{count} spare printed joker ({card}): {points}",
            count,
        )
    # Another value card, named by its code (Paplu's AS and 2C).
    return ngettext(
        "{count} spare {card} ({card}): {points}", "{count} spare {card} ({card}): {points}", count
    )


def claim_holding(cards: Iterable[Card], roles: JokerRoles) -> Holding:
    """A Kodai winner's claim points: 10 per claim card, 100 per marriage (one each of
    lower, cut and upper, or three identical claim cards), 50 per mini-marriage (a
    tenali of the cut rank in another suit), split to give the most points."""
    rules = roles.ruleset
    held = Counter(cards)
    lines: list[str] = []
    claim_cards = [card for card in roles.claim_cards if held[card]]
    best_points, best_lines = -1, []
    most_trios = 0
    if roles.marriage is not None:
        most_trios = min(held[card] for card in roles.marriage)
    for trios in range(most_trios + 1):
        remaining = held.copy()
        points = trios * rules.claim_marriage
        trial = []
        if trios:
            said = ngettext(
                "{count} marriage ({cards}): {points}",
                "{count} marriages ({cards}): {points}",
                trios,
            )
            cards_said = format_cards(roles.marriage or ())
            trial.append(said.format(count=trios, cards=cards_said, points=points))
            for card in roles.marriage or ():
                remaining[card] -= trios
        for card in sorted(claim_cards):
            count = remaining[card]
            triples = count // 3 if rules.claim_marriage > 3 * rules.claim_card else 0
            singles = count - 3 * triples
            if triples:
                points += triples * rules.claim_marriage
                said = _("{cards} marriage: {points}")
                trial.append(
                    said.format(cards=format_cards([card] * 3), points=rules.claim_marriage)
                )
            if singles:
                points += singles * rules.claim_card
                said = _("{count} × {card}: {points}")
                trial.append(
                    said.format(count=singles, card=card.code, points=singles * rules.claim_card)
                )
        if points > best_points:
            best_points, best_lines = points, trial
    lines = best_lines
    points = best_points
    cut = roles.effective_cut
    for card, count in sorted(held.items()):
        if card.rank == cut.rank and card.suit != cut.suit and count >= 3:
            minis = count // 3
            points += minis * rules.claim_mini_marriage
            said = _("mini-marriage {cards}: {points}")
            lines.append(
                said.format(cards=format_cards([card] * 3), points=rules.claim_mini_marriage)
            )
            claim_cards.append(card)
    if points <= 0:
        return Holding(0, (), ())
    shown = tuple(card for card in sorted(held.elements()) if card in set(claim_cards))
    return Holding(points, shown, tuple(lines))


# --- What a hand could be worth -----------------------------------------------------------
# A hand counted at the table gives its value points or claims as a figure; these are
# the figures some hand of the round's size could give, so that any other is refused.


def value_worths(roles: JokerRoles) -> frozenset[int]:
    """Every value a hand can hold (docs/rules §6): what :func:`value_holding` gives
    for each way of holding value cards, up to the copies in play and the hand's size.
    The marriage's three cards score together; the printed joker and each other
    value card each score apart."""
    parts: list[tuple[Card, ...]] = []
    if roles.marriage is not None:
        lower, _cut, upper = roles.marriage
        parts.append((lower, roles.effective_cut, upper))
    parts.append((PRINTED_JOKER,))
    parts += [(parse_card(code),) for code in roles.ruleset.value_extra_cards]
    return _worths(parts, roles, lambda cards: value_holding(cards, roles).points)


def claim_worths(roles: JokerRoles) -> frozenset[int]:
    """Every claim total a winner's hand can hold (docs/rules §6): what
    :func:`claim_holding` gives for each way of holding claim cards. The claim cards
    score together (marriages of three different or three identical ones); each card
    of the cut rank in another suit, a mini-marriage three at a time, apart."""
    cut = roles.effective_cut
    parts = [tuple(sorted(roles.claim_cards))]
    parts += [(Card(cut.rank, suit),) for suit in SUITS if suit != cut.suit]
    return _worths(parts, roles, lambda cards: claim_holding(cards, roles).points)


def _worths(
    parts: Sequence[tuple[Card, ...]], roles: JokerRoles, worth: Callable[[list[Card]], int]
) -> frozenset[int]:
    """Every total of ``worth`` over hands of at most the round's hand size, where a
    hand's worth is the sum of its worths in each part: each part's holdings are tried
    on their own (a few hundred at most), then added up, keeping for each total the
    fewest cards that make it. A card counts in the first part that names it, as
    :func:`value_holding` gives a card its first role."""
    most = roles.ruleset.hand_size
    fewest = {0: 0}  # a total: the fewest cards that make it
    seen: set[Card] = set()
    for part in parts:
        cards = [card for card in dict.fromkeys(part) if card not in seen]
        seen.update(cards)
        made: dict[int, int] = {}
        for counts in product(*(range(roles.copies(card) + 1) for card in cards)):
            size = sum(counts)
            if size <= most:
                held = [
                    card for card, count in zip(cards, counts, strict=True) for _ in range(count)
                ]
                points = worth(held)
                made[points] = min(size, made.get(points, size))
        sums: dict[int, int] = {}
        for total, size in fewest.items():
            for points, more in made.items():
                if size + more <= most:
                    key = total + points
                    sums[key] = min(size + more, sums.get(key, size + more))
        fewest = sums
    return frozenset(fewest)
