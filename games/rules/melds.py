"""The round's jokers (docs/rules §2) and the classification of a group (§3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .cards import ACE, KING, PRINTED_JOKER, SUITS, Card, all_cards
from .rulesets import Ruleset
from .speech import gettext as _
from .speech import gettext_noop

MAX_RUN = 13  # A..K with the Ace low, or 2..A with it high: never both
_FACE_POINTS = {card: card.face_points for card in all_cards()}


class Kind(StrEnum):
    """What a group of cards is, in the order docs/rules §3 tries them."""

    TUNNELA = "tunnela"
    PURE_SEQUENCE = "pure_sequence"
    IMPURE_SEQUENCE = "impure_sequence"
    SET = "set"
    JOKER_GROUP = "joker_group"
    DUBLEE = "dublee"
    INVALID = "invalid"

    @property
    def label(self) -> str:
        """The kind as a player reads it beside the group. Cards that make no group are
        the loose cards of a hand, not an input error: "loose cards", not "invalid"."""
        return _(_KIND_LABELS[self])


_KIND_LABELS = {
    Kind.TUNNELA: gettext_noop("tunnela"),
    Kind.PURE_SEQUENCE: gettext_noop("pure sequence"),
    Kind.IMPURE_SEQUENCE: gettext_noop("impure sequence"),
    # Translators: a kind of group of cards, three or four of one rank.
    Kind.SET: gettext_noop("set"),
    Kind.JOKER_GROUP: gettext_noop("joker group"),
    Kind.DUBLEE: gettext_noop("dublee"),
    Kind.INVALID: gettext_noop("loose cards"),
}


PURE_KINDS = frozenset({Kind.TUNNELA, Kind.PURE_SEQUENCE})
VALID_MELDS = frozenset(
    {Kind.TUNNELA, Kind.PURE_SEQUENCE, Kind.IMPURE_SEQUENCE, Kind.SET, Kind.JOKER_GROUP}
)
# What counts as a sequence where a declaration needs "sequences" (13-card show):
# a joker group can stand for a sequence (docs/rules §3: "valid as a set/sequence").
SEQUENCE_KINDS = frozenset(
    {Kind.TUNNELA, Kind.PURE_SEQUENCE, Kind.IMPURE_SEQUENCE, Kind.JOKER_GROUP}
)


def _next_rank(rank: int) -> int:
    return ACE if rank == KING else rank + 1


def _previous_rank(rank: int) -> int:
    return KING if rank == ACE else rank - 1


@dataclass(frozen=True)
class JokerRoles:
    """Which cards play a joker role in a round, given the ruleset and the cut card.

    Built by :func:`joker_roles`. ``cut`` is the card turned up (possibly ``PJ``);
    ``effective_cut`` is what the round is played as (``AS`` for a printed joker).
    """

    ruleset: Ruleset
    cut: Card
    effective_cut: Card
    wild: tuple[Card, ...]
    lower: Card | None
    upper: Card | None
    jokers: frozenset[Card]
    # One each of lower joker, cut card and upper joker: a marriage (value cards,
    # claims and the marriages declaration). Kodai with a printed joker cut puts the
    # printed joker in the middle (K♠ PJ 2♠), everyone else the A♠ it stands for.
    marriage: tuple[Card, Card, Card] | None
    # Every card's points this round, looked up once per card of every hand scored
    # instead of asking the card and the jokers each time (derived from the above).
    card_points: dict[Card, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        points = _FACE_POINTS | dict.fromkeys(self.jokers, 0)
        object.__setattr__(self, "card_points", points)

    def copies(self, card: Card) -> int:
        """How many copies of ``card`` the hands of a round can hold between them: one
        a deck, but one copy of the cut card lies face up on the table (docs/rules §1)."""
        return self.ruleset.decks - (card == self.cut)

    def is_joker(self, card: Card) -> bool:
        return card in self.jokers

    def points(self, card: Card) -> int:
        """A card's points in this round: every joker is worth 0 (docs/rules §1)."""
        return self.card_points[card]

    @property
    def joker_codes(self) -> list[str]:
        """Jokers in a fixed order: wild rank by suit letter, lower, upper, printed."""
        ordered = sorted(self.wild, key=lambda card: card.suit)
        ordered += [card for card in (self.lower, self.upper) if card is not None]
        ordered.append(PRINTED_JOKER)
        return [card.code for card in dict.fromkeys(ordered)]

    @property
    def ace_marriage(self) -> tuple[Card, Card, Card] | None:
        """The cut suit's K A 2 when an Ace is cut (not a printed joker standing for
        A♠): a marriage that is no sequence, since an Ace is never both high and low."""
        if self.marriage is None or self.cut.is_printed_joker or self.cut.rank != ACE:
            return None
        return self.marriage

    def is_ace_marriage(self, cards: Sequence[Card]) -> bool:
        marriage = self.ace_marriage
        return marriage is not None and len(cards) == 3 and set(cards) == set(marriage)

    @property
    def claim_cards(self) -> frozenset[Card]:
        """Kodai claim cards: printed jokers and the cut suit's r-1, r, r+1 (with a
        printed joker cut, K♠, 2♠ and printed jokers; A♠ is not one)."""
        cards = {PRINTED_JOKER}
        if self.marriage is not None:
            cards.update(self.marriage)
        return frozenset(cards)


def joker_roles(ruleset: Ruleset, cut: Card) -> JokerRoles:
    """The jokers of a round whose cut card is ``cut`` (docs/rules §2)."""
    effective = Card(ACE, "S") if cut.is_printed_joker else cut
    rank, suit = effective.rank, effective.suit
    wild_suits = SUITS if ruleset.wild_rank_all_suits else (suit,)
    wild = tuple(Card(rank, s) for s in wild_suits)
    lower = upper = None
    marriage = None
    if ruleset.upper_lower_jokers:
        lower = Card(_previous_rank(rank), suit)
        upper = Card(_next_rank(rank), suit)
        middle = PRINTED_JOKER if (cut.is_printed_joker and ruleset.claims) else effective
        marriage = (lower, middle, upper)
    jokers = {PRINTED_JOKER, *wild} | {card for card in (lower, upper) if card is not None}
    # In field order: every local is named for its field.
    return JokerRoles(ruleset, cut, effective, wild, lower, upper, frozenset(jokers), marriage)


# --- Runs -----------------------------------------------------------------------------


def _orders(cards: Sequence[Card]) -> tuple[tuple[list[int], int, int], ...]:
    """The ranks of cards of distinct ranks in order, with the lowest and highest rank
    a run may reach: the Ace low (A..K), and, only when an Ace is held, the Ace high
    (2..A, the Ace as 14). Without an Ace the second way fits nothing the first does
    not."""
    ranks = sorted([card.rank for card in cards])
    if ranks[0] != ACE:
        return ((ranks, ACE, KING),)
    return ((ranks, ACE, KING), ([*ranks[1:], 14], 2, 14))


def _one_suit_distinct_ranks(cards: Sequence[Card]) -> bool:
    return len({card.suit for card in cards}) == 1 and len({card.rank for card in cards}) == len(
        cards
    )


def is_pure_run(cards: Sequence[Card]) -> bool:
    """3 to 13 natural cards of one suit in consecutive ranks, Ace low or high, no wrap."""
    if not 3 <= len(cards) <= MAX_RUN or PRINTED_JOKER in cards:
        return False
    if not _one_suit_distinct_ranks(cards):
        return False
    return any(ranks[-1] - ranks[0] == len(ranks) - 1 for ranks, _, _ in _orders(cards))


def fits_run(naturals: Sequence[Card], length: int) -> bool:
    """Whether natural cards can sit in one run of ``length`` ranks of their suit,
    jokers filling the gaps and extending the ends."""
    if not naturals or length > MAX_RUN or not _one_suit_distinct_ranks(naturals):
        return False
    for ranks, lowest, highest in _orders(naturals):
        first_start = max(ranks[-1] - length + 1, lowest)
        last_start = min(ranks[0], highest - length + 1)
        if first_start <= last_start:
            return True
    return False


def _is_set(naturals: Sequence[Card], size: int) -> bool:
    return (
        size in (3, 4)
        and bool(naturals)
        and len({card.rank for card in naturals}) == 1
        and len({card.suit for card in naturals}) == len(naturals)
    )


# --- Classification -------------------------------------------------------------------


def classify(cards: Sequence[Card], roles: JokerRoles) -> Kind:
    """The kind of a group of cards in this round (docs/rules §3): the first kind of the
    table that fits. A joker-role card may stand for itself, so pure sequences and
    tunnelas may hold jokers used naturally."""
    rules = roles.ruleset
    size = len(cards)
    if rules.tunnelas_and_dublees and size in (2, 3) and len(set(cards)) == 1:
        if not cards[0].is_printed_joker:
            return Kind.TUNNELA if size == 3 else Kind.DUBLEE
        if size == 3 and rules.printed_joker_tunnela:
            return Kind.TUNNELA
        if size == 2 and rules.printed_joker_dublee:
            return Kind.DUBLEE
    if size < 3:
        return Kind.INVALID
    if is_pure_run(cards):
        return Kind.PURE_SEQUENCE
    # Using a joker as a joker is never less flexible than using it naturally, so
    # from here on every joker-role card stands in for whatever is missing.
    naturals = [card for card in cards if card not in roles.jokers]
    if not naturals:
        # K-A-2 of the cut suit with an Ace cut (and any lower-cut-upper marriage that
        # is not a pure sequence) is a valid impure sequence (docs/rules §3, "K A 2 of
        # the cut suit");
        # Kodai may count K-A-2 as a rummy "if you want": it always helps, since its
        # cards are jokers, worth 0 however the group is counted, and one more pure
        # group only ever helps a declaration or a loser's count.
        if rules.ace_marriage_pure and roles.is_ace_marriage(cards):
            return Kind.PURE_SEQUENCE
        if roles.marriage is not None and sorted(cards) == sorted(roles.marriage):
            return Kind.IMPURE_SEQUENCE
        return Kind.JOKER_GROUP
    if fits_run(naturals, size):
        return Kind.IMPURE_SEQUENCE
    if _is_set(naturals, size):
        return Kind.SET
    return Kind.INVALID


def why_no_group(cards: Sequence[Card], roles: JokerRoles) -> str:
    """Why these cards are no valid meld, without naming them. Plain words, with no
    parenthesis or semicolon: a declaration's explanation puts it in parentheses
    among its other reasons (scoring.why_not_declared)."""
    rules = roles.ruleset
    size = len(cards)
    if size == 2 and rules.tunnelas_and_dublees:
        if len(set(cards)) == 1:  # two printed jokers: natural pairs are dublees
            return _("two printed jokers make a dublee only where the rules say so")
        return _("two cards are a group only as a dublee, two identical cards")
    if size < 3:
        return _("a set or sequence needs at least 3 cards")
    naturals = [card for card in cards if not roles.is_joker(card)]
    suits = {card.suit for card in naturals}
    ranks = Counter(card.rank for card in naturals)
    if len(set(cards)) == 1 and cards[0].is_printed_joker:
        return _("printed jokers make a tunnela only where the rules say so")
    if len(ranks) == 1 and len(suits) < len(naturals):
        if len(set(naturals)) == 1 and not rules.tunnelas_and_dublees:
            return _("identical cards are not a set: each suit only once")
        return _("a set needs a different suit for every natural card")
    if len(ranks) == 1 and size > 4:
        return _("a set has at most 4 cards")
    if len(suits) == 1:
        if any(count > 1 for count in ranks.values()):
            return _("a sequence cannot hold the same rank twice")
        if size > MAX_RUN:
            return _("a sequence has at most 13 cards")
        if ACE in ranks:
            return _("an Ace is low or high, never both, and every gap in the run needs a joker")
        return _("the run has a gap that no joker fills")
    return _("neither one suit for a sequence nor one rank for a set")
