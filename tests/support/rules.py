"""Small builders that keep the rules tests readable: hands in card notation, scored
by the rules service alone (no Django); and every way to split a few items into
groups, for the brute-force answers the solver and the transfers are checked against."""

from __future__ import annotations

from collections.abc import Iterator

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


def partitions(items: list) -> Iterator[list[list]]:
    """Every way to split ``items`` into non-empty groups (each set partition once)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in partitions(rest):
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]
        yield [[first], *partition]
