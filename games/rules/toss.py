"""The toss for seats (seed 000): each player is dealt a card, the highest card sits
first and the lowest deals first."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import groupby

from .cards import ACE, Card, all_cards

# Ties on rank go by suit, clubs lowest and spades highest (seed 004).
TOSS_SUITS = ("C", "D", "H", "S")


def toss_strength(card: Card) -> tuple[int, int]:
    """How a toss card ranks: Ace high, then by suit."""
    return (14 if card.rank == ACE else card.rank, TOSS_SUITS.index(card.suit))


def toss(players: Sequence[str], rng: random.Random, decks: int = 1) -> list[tuple[str, Card]]:
    """Deal one card to each player from ``decks`` shuffled decks (no printed jokers)
    and return (player, card) from the highest card to the lowest: that is the seat
    order, and the last player deals first. Players dealt identical cards draw again."""
    shoe = [card for card in all_cards() if not card.is_printed_joker] * decks
    rng.shuffle(shoe)
    dealt = {player: shoe.pop() for player in players}
    while True:
        seen: dict[Card, list[str]] = {}
        for player, card in dealt.items():
            seen.setdefault(card, []).append(player)
        tied = [player for group in seen.values() if len(group) > 1 for player in group]
        if not tied:
            break
        for player in tied:
            dealt[player] = shoe.pop()
    return sorted(dealt.items(), key=lambda item: toss_strength(item[1]), reverse=True)


def ties_by_suit(dealt: Sequence[tuple[str, Card]]) -> list[list[tuple[str, Card]]]:
    """The players of a toss (``toss``'s order) whose cards share a rank, each tie in
    seat order: their suits decided it, clubs lowest and spades highest (seed 004).
    What a page says, so that a tie is never broken without a word."""
    by_rank = groupby(dealt, key=lambda item: toss_strength(item[1])[0])
    return [tie for _, group in by_rank if len(tie := list(group)) > 1]
