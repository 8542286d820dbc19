"""Cards and the card notation of docs/rules §1.

A card is a rank (1 = Ace … 13 = King) and a suit letter, or the printed joker.
Input is forgiving (``7h``, ``7♥``, ``Ts``, ``JK``, ``*``, ranges like ``3-7S``,
cards run together like ``5h6h7h``); output is always canonical (``7H``, ``10S``,
``PJ``), so that what we store and compare never depends on how it was typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import RulesError
from .speech import gettext as _
from .speech import gettext_noop

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

# Every way a suit may be typed; the outline symbols are common on phone keyboards.
_SUIT_ALIASES = {
    "S": "S", "♠": "S", "♤": "S",
    "H": "H", "♥": "H", "♡": "H",
    "D": "D", "♦": "D", "♢": "D",
    "C": "C", "♣": "C", "♧": "C",
}  # fmt: skip
_RANK_ALIASES = {name: rank for rank, name in enumerate(RANK_NAMES) if name} | {"T": 10}
_MADE: dict[tuple[int, str], Card] = {}  # every card made so far, by (rank, suit)


@dataclass(frozen=True, order=True, slots=True, init=False)
class Card:
    """One playing card. ``rank`` 0 with suit ``""`` is the printed joker.

    There are only 53 different cards, so each is made once and ``Card(7, "H")``
    always returns that same object (so do copying and unpickling). Two cards are
    then equal exactly when they are the same object: a round of 84 cards is counted
    and classified many times, and identity makes every comparison and hash lookup
    a pointer compare in C instead of a generated method comparing fields.
    """

    rank: int
    suit: str

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __new__(cls, rank: int, suit: str) -> Card:
        card = _MADE.get((rank, suit))
        if card is None:
            if not (rank == 0 and suit == "") and not (ACE <= rank <= KING and suit in SUITS):
                raise ValueError(f"no such card: rank {rank!r}, suit {suit!r}")
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            card = _MADE.setdefault((rank, suit), card)
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        # Copies and unpickled cards go through __new__, so they are the card itself.
        return (Card, (self.rank, self.suit))

    @property
    def is_printed_joker(self) -> bool:
        return self.rank == 0

    @property
    def code(self) -> str:
        """Canonical notation: ``7H``, ``10S``, ``PJ``."""
        return "PJ" if self.rank == 0 else RANK_NAMES[self.rank] + self.suit

    @property
    def face_points(self) -> int:
        """Points of the card by its face (docs/rules §1); jokers are zeroed by the caller,
        because whether a card is a joker depends on the round's cut card."""
        if self.rank == 0:
            return 0
        if self.rank == ACE or self.rank >= JACK:
            return 10
        return self.rank

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


PRINTED_JOKER = Card(0, "")


def card_label(card: Card) -> str:
    """How a card is named in a list to choose from: ``8♠``, ``10♥``, "Printed joker"."""
    if card.is_printed_joker:
        return _("Printed joker")
    return RANK_NAMES[card.rank] + SUIT_SYMBOLS[card.suit]


# In English, as marked for the catalogue: suit_name says a suit in the player's language.
SUIT_NAMES = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}
_RANK_WORDS = {
    ACE: gettext_noop("ace"),
    JACK: gettext_noop("jack"),
    QUEEN: gettext_noop("queen"),
    KING: gettext_noop("king"),
}


def suit_name(suit: str) -> str:
    """A suit by its letter, as a player says it: "spades" for ``S``."""
    return _(SUIT_NAMES[suit])


def spoken_name(card: Card) -> str:
    """How a card is said: "ace of spades", "10 of hearts", "printed joker" (the
    names a screen reader gives the card picker's cards)."""
    if card.is_printed_joker:
        return _("printed joker")
    rank = _(_RANK_WORDS[card.rank]) if card.rank in _RANK_WORDS else RANK_NAMES[card.rank]
    # Translators: a card said aloud, "ace of spades", "10 of hearts".
    return _("{rank} of {suit}").format(rank=rank, suit=suit_name(card.suit))


def all_cards() -> list[Card]:
    """The 52 distinct cards of one deck plus the printed joker."""
    return [Card(rank, suit) for suit in SUITS for rank in range(ACE, KING + 1)] + [PRINTED_JOKER]


def display_order(card: Card) -> tuple[int, int]:
    """Sort key for showing a hand: by suit (S H D C), then rank, jokers last."""
    if card.is_printed_joker:
        return (len(SUITS), 0)
    return (SUITS.index(card.suit), card.rank)


class CardError(RulesError):
    """A token in card notation that is not a card, with where it was found."""

    def __init__(
        self,
        message: str,
        *,
        token: str,
        offset: int,
        group: int,
        index: int,
        field: str = "",
        unplaced: str = "",
    ) -> None:
        super().__init__(message, field)
        self.token = token
        self.offset = offset  # 0-based character offset in the parsed text
        self.group = group  # 1-based group number
        self.index = index  # 1-based card number within the group
        # The message without where in the groups it was: for a text of one card.
        self.unplaced = unplaced or message


_SUIT = "[SHDC♠♥♦♣♤♡♢♧][\ufe0e\ufe0f]?"
_RANK = "10|[2-9TJQKA]"
_JOKER = r"PJ|JK|\*"
# A joker, a range (3-7S, Q-AS) or one card. Written with no white space and no
# syntax a browser's RegExp lacks: the card picker reads cards with it too (NOTATION).
# ASCII: a letter matches its other case only (no "ſ" for S, no Kelvin sign for K), as
# in the browser, and every match is a key of the alias tables.
_TOKEN_PATTERN = (
    f"(?P<joker>{_JOKER})"
    f"|(?P<first>{_RANK})(?P<first_suit>{_SUIT})?-(?P<last>{_RANK})(?P<last_suit>{_SUIT})"
    f"|(?P<rank>{_RANK})(?P<suit>{_SUIT})"
)
_TOKEN = re.compile(_TOKEN_PATTERN, re.IGNORECASE | re.ASCII)
_GROUP_SEPARATORS = "|/;\n\r"
_CARD_SEPARATORS = " \t,"

# The notation for the browser: the card picker (static/js/app.js) counts the cards
# typed by it, so that its count is the one the rules service scores. It finds tokens
# with _TOKEN's pattern (its groups named as here) and expands a range as
# _expand_range does; tests/e2e/test_card_picker.py compares its counts with
# parse_cards'.
NOTATION = {
    "token": _TOKEN_PATTERN.replace("(?P<", "(?<"),  # a RegExp's named groups
    "ranks": _RANK_ALIASES,  # a rank as typed → 1 … 13
    "names": RANK_NAMES,  # 1 … 13 → as written in a code
    "suits": _SUIT_ALIASES,  # a suit as typed (its first character) → its letter
    "printed_joker": PRINTED_JOKER.code,
    "separators": _GROUP_SEPARATORS + _CARD_SEPARATORS,  # what stands between cards
}


def _suit(text: str) -> str:
    return _SUIT_ALIASES[text[0].upper()]


def _rank(text: str) -> int:
    return _RANK_ALIASES[text.upper()]


def _expand_range(first: int, last: int, suit: str) -> list[Card] | None:
    """``3-7S`` → 3S…7S; an Ace is low at the start (``A-3S``) and high at the end
    (``Q-AS``). Returns None for a range that runs backwards or wraps (``K-2S``)."""
    if last == ACE and first != ACE:
        last = 14
    if first >= last:
        return None
    return [Card(ACE if rank == 14 else rank, suit) for rank in range(first, last + 1)]


def parse_groups(text: str) -> list[list[Card]]:
    """Parse groups of cards in the notation of docs/rules §1.

    Groups are separated by ``|``, ``/``, ``;`` or new lines; cards by spaces or
    commas, or run together. Empty groups are skipped. Raises CardError naming the
    first token that is not a card and where it is.
    """
    groups, errors = read_groups(text)
    if errors:
        raise errors[0]
    return groups


def read_groups(text: str) -> tuple[list[list[Card]], list[CardError]]:
    """The groups as :func:`parse_groups` reads them, with every token that is not a
    card left out and named, in the order typed: an entry form says each typo at once,
    and still counts the cards around them (copies of a card across the round). A group
    whose every token is wrong stays in its place, empty, so that each group keeps the
    number it was typed with; without errors no group is empty."""
    groups: list[list[Card]] = []
    errors: list[CardError] = []
    current: list[Card] = []
    wrong = 0  # tokens of the current group that are not cards: each keeps its place
    pos = 0
    # Where the word being read began (cards run together, "5h6h7h", are one word) and
    # how many cards it has given so far: a typo inside a word names the whole word,
    # as it was typed ("'ahh' is not a card", not "'h'"), and none of its cards count.
    word_start, word_cards = 0, 0

    def error(message: str, token: str) -> CardError:
        return CardError(
            message, token=token, offset=pos, group=len(groups) + 1, index=len(current) + wrong + 1
        )

    while pos < len(text):
        char = text[pos]
        if char in _GROUP_SEPARATORS:
            if current or wrong:
                groups.append(current)
                current, wrong = [], 0
            pos += 1
            word_start, word_cards = pos, 0
            continue
        if char in _CARD_SEPARATORS or char.isspace():
            pos += 1
            word_start, word_cards = pos, 0
            continue
        match = _TOKEN.match(text, pos)
        if match is None:
            if word_cards:
                del current[-word_cards:]
            bad = _bad_token(text, word_start, len(groups) + 1, len(current) + wrong + 1)
            errors.append(bad)
            wrong += 1
            pos = word_start + len(bad.token)
            continue
        if match["joker"]:
            current.append(PRINTED_JOKER)
            word_cards += 1
        elif match["rank"]:
            current.append(Card(_rank(match["rank"]), _suit(match["suit"])))
            word_cards += 1
        else:
            suit = _suit(match["last_suit"])
            cards = _expand_range(_rank(match["first"]), _rank(match["last"]), suit)
            if match["first_suit"] and _suit(match["first_suit"]) != suit:
                said = _("range {range} mixes two suits").format(range=repr(match[0]))
                errors.append(error(said, match[0]))
                wrong += 1
            elif cards is None:
                said = _(
                    "range {range} does not run upwards (an Ace is low at the start or high "
                    "at the end, never both)"
                ).format(range=repr(match[0]))
                errors.append(error(said, match[0]))
                wrong += 1
            else:
                current.extend(cards)
                word_cards += len(cards)
        pos = match.end()
    if current or wrong:
        groups.append(current)
    return groups, errors


def _bad_token(text: str, pos: int, group: int, index: int) -> CardError:
    end = pos
    while end < len(text) and text[end] not in _GROUP_SEPARATORS + _CARD_SEPARATORS:
        if text[end].isspace():
            break
        end += 1
    token = text[pos:end] or text[pos]
    # Name what is wrong with the token when we can tell, so the player can fix it.
    if re.fullmatch(rf"(?:{_RANK})", token, re.IGNORECASE | re.ASCII):
        placed = _(
            "{token} is not a card (group {group}, card {index}): it needs a suit (S, H, D or C)"
        )
        unplaced = _("{token} is not a card: it needs a suit (S, H, D or C)")
    elif re.fullmatch(r"1[SHDC♠♥♦♣]?", token, re.IGNORECASE | re.ASCII):
        placed = _(
            "{token} is not a card (group {group}, card {index}): write 10 or T for a ten, A "
            "for an ace"
        )
        unplaced = _("{token} is not a card: write 10 or T for a ten, A for an ace")
    else:
        placed = _("{token} is not a card (group {group}, card {index})")
        unplaced = _("{token} is not a card")
    return CardError(
        placed.format(token=repr(token), group=group, index=index),
        token=token,
        offset=pos,
        group=group,
        index=index,
        unplaced=unplaced.format(token=repr(token)),
    )


def parse_cards(text: str) -> list[Card]:
    """Parse cards in notation, ignoring group separators (a hand in any order)."""
    return [card for group in parse_groups(text) for card in group]


def parse_card(text: str) -> Card:
    """Parse exactly one card, e.g. the cut joker."""
    stripped = text.strip()
    try:
        cards = parse_cards(stripped)
    except CardError as error:  # one card stands in no group: not "(group 1, card 1)"
        raise CardError(
            error.unplaced, token=error.token, offset=error.offset, group=1, index=1
        ) from None
    if len(cards) != 1:
        said = _("{text} is not one card").format(text=repr(stripped))
        raise CardError(said, token=stripped, offset=0, group=1, index=1)
    return cards[0]


def format_cards(cards: Iterable[Card]) -> str:
    """``7H 8H 9H``."""
    return " ".join(card.code for card in cards)


def format_groups(groups: Sequence[Sequence[Card]]) -> str:
    """``5H 6H 7H | 8S 8S 8S``: the canonical text of a grouped hand."""
    return " | ".join(format_cards(group) for group in groups)


def codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]
