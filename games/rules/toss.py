"""The toss for seats (seed 000): each player is dealt a card, the highest card sits
first and the lowest deals first."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from .cards import ACE, Card, all_cards

# Ties on rank go by suit, clubs lowest and spades highest (seed 004).
TOSS_SUITS = ("C", "D", "H", "S")


def toss_strength(card: Card) -> tuple[int, int]:
    """How a toss card ranks: Ace high, then by suit."""
    return (14 if card.rank == ACE else card.rank, TOSS_SUITS.index(card.suit))


@dataclass(frozen=True)
class Redraw:
    """Players dealt the very same card (two decks: an A♥ and an A♥), who drew again:
    neither rank nor suit can put one before the other."""

    players: tuple[str, ...]
    card: Card


@dataclass(frozen=True)
class Toss:
    """A toss dealt: (player, card) from the highest card to the lowest, which is the
    seat order (the last player deals first), and the redraws it took, in order."""

    seats: tuple[tuple[str, Card], ...]
    redraws: tuple[Redraw, ...] = ()


def deal_toss(players: Sequence[str], rng: random.Random, decks: int = 1) -> Toss:
    """Deal one card to each player from ``decks`` shuffled decks (no printed jokers):
    the seats from the highest card to the lowest. Players dealt identical cards draw
    again, and the toss says so (``redraws``), so a page never redeals in silence."""
    shoe = [card for card in all_cards() if not card.is_printed_joker] * decks
    rng.shuffle(shoe)
    dealt = {player: shoe.pop() for player in players}
    redraws = []
    while True:
        seen: dict[Card, list[str]] = {}
        for player, card in dealt.items():
            seen.setdefault(card, []).append(player)
        tied = [Redraw(tuple(group), card) for card, group in seen.items() if len(group) > 1]
        if not tied:
            break
        redraws += tied
        for redraw in tied:
            for player in redraw.players:
                dealt[player] = shoe.pop()
    seats = sorted(dealt.items(), key=lambda item: toss_strength(item[1]), reverse=True)
    return Toss(tuple(seats), tuple(redraws))


def toss(players: Sequence[str], rng: random.Random, decks: int = 1) -> list[tuple[str, Card]]:
    """The seats of a toss (``deal_toss``): (player, card), the highest card first."""
    return list(deal_toss(players, rng, decks).seats)


def ties_by_suit(dealt: Sequence[tuple[str, Card]]) -> list[list[tuple[str, Card]]]:
    """The players of a toss (``toss``'s order) whose cards share a rank, each tie in
    seat order: their suits decided it, clubs lowest and spades highest (seed 004).
    What a page says, so that a tie is never broken without a word."""
    by_rank = groupby(dealt, key=lambda item: toss_strength(item[1])[0])
    return [tie for _, group in by_rank if len(tie := list(group)) > 1]
