"""Random rounds dealt from a real shoe, for the rules' property tests: a sound round
(a valid winner, or a default win) whose losers hold cards dealt from what is left,
with random outcomes and random groupings."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.rules import PRESETS, WINNING_OUTCOMES, Card, PlayerHand, all_cards, parse_groups
from tests.support.hands import WIN_PLAIN
from tests.support.rules import cards as parse

# A 13-card show of natural cards only: valid whatever the cut.
WIN_13 = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"

CARDS = all_cards()


def shoe_for(preset: str, cut: Card) -> list[Card]:
    decks = PRESETS[preset].decks
    shoe = [card for card in CARDS for _ in range(decks)]
    shoe.remove(cut)
    return shoe


def random_grouping(hand: list[Card], rng: random.Random) -> tuple[tuple[Card, ...], ...]:
    groups, rest = [], list(hand)
    while rest:
        size = rng.choice([1, 2, 3, 3, 3, 4, 5])
        groups.append(tuple(rest[:size]))
        rest = rest[size:]
    return tuple(groups)


@st.composite
def dealt_rounds(draw, presets=tuple(PRESETS)):
    """A sound round: a valid winner (or a default win) and losers dealt from the
    shoe that is left, with random outcomes and random groupings."""
    preset = draw(st.sampled_from(presets))
    rules = PRESETS[preset]
    rng = draw(st.randoms(use_true_random=False))
    cut = draw(st.sampled_from(CARDS))
    shoe = shoe_for(preset, cut)
    winner_cards = parse(WIN_PLAIN if rules.hand_size == 21 else WIN_13)
    for card in winner_cards:
        shoe.remove(card)
    rng.shuffle(shoe)
    players = draw(st.integers(2, 6))
    default_win = draw(st.booleans())
    if default_win:
        winner = PlayerHand("P0", "default_win")
        loser_outcomes = [
            o
            for o in ("first_drop", "middle_drop", "declare_timeout", "invalid_declaration")
            if o in rules.outcomes
        ]
    else:
        grouped = parse_groups(WIN_PLAIN if rules.hand_size == 21 else WIN_13)
        # Kodai: the winner may be marked as winning on the deal (it declares anyway).
        on_deal = rules.wins_on_deal and draw(st.booleans())
        winner = PlayerHand("P0", "declared", tuple(tuple(g) for g in grouped), on_deal)
        loser_outcomes = [o for o in rules.outcomes if o not in WINNING_OUTCOMES]
    hands = [winner]
    for index in range(1, players):
        outcome = draw(st.sampled_from(loser_outcomes))
        gives_cards = outcome in ("shown", "deal_show") or draw(st.booleans())
        groups = ()
        if gives_cards:
            dealt, shoe = shoe[: rules.hand_size], shoe[rules.hand_size :]
            groups = random_grouping(dealt, rng)
        hands.append(PlayerHand(f"P{index}", outcome, groups))
    return rules, cut, hands
