"""Small builders that keep the rules tests readable: hands in card notation."""

from __future__ import annotations

from games.rules import PlayerHand, get_ruleset, parse_card, parse_groups, score_round
from games.rules.melds import joker_roles
from games.rules.scoring import PlayerResult


def hand(name: str, outcome: str, text: str = "") -> PlayerHand:
    return PlayerHand(name, outcome, tuple(tuple(group) for group in parse_groups(text)))


def play(preset: str, cut: str, *hands: PlayerHand, **overrides) -> dict[str, PlayerResult]:
    """Score a round and return the results by player name."""
    result = score_round(get_ruleset(preset, overrides), parse_card(cut), hands)
    return {player.name: player for player in result.players}


def roles(preset: str, cut: str, **overrides):
    return joker_roles(get_ruleset(preset, overrides), parse_card(cut))


def cards(text: str):
    return [card for group in parse_groups(text) for card in group]


# Cut 8S in 21-card games: jokers 8C 8D 8H 8S, lower 7S, upper 9S, printed jokers.
# A three-pure declaration holding no 21-points value card (seed example's Asha).
WIN_8S = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"

# 21 loose cards with no pure sequence and no joker under cut 8S:
# 2+4+6 + 10+10+10 + 3+5+9 + 10+10+2 + 4+6+10 + 10+10+3 + 5+9+10 = 148.
LOOSE_148 = "2C 4D 6H | 10S QC KD | 3S 5H 9C | JH AD 2D | 4C 6D 10C | QS KH 3H | 5C 9D JD"
