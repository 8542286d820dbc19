"""Hands in card notation that several test modules play: a name says what the hand
is, a comment what it scores. Cut 8S in 21-card games (jokers 8C 8D 8H 8S, lower 7S,
upper 9S, printed jokers); cut 7C in 13-card games."""

from __future__ import annotations

import random

from games.rules import parse_cards

# --- Rounds as the web tests enter them (21-points, cut 8S; 13-card, cut 7C) -------------

# A three-pure declaration holding no 21-points value card (Asha's in docs/rules §7).
WIN_8S = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
# A loser whose hand costs 102 with one value card (+10 each way): two pure sequences
# and loose cards no grouping can leave out, so the form keeps it as typed. The same
# figures as the seed example's Ben (SEED_BEN), whose cards group better.
SHOWN_8S = "2D 3D 4D | 9C 10C JC | QD QS QH | KH KH | 5S 9D | AS 7S | 6H 6C 4C 2S JS 8C"
# The seed example's Ben (tests/rules/shared_examples/21-points-basic.json): 102 as
# grouped, with loose cards (5D 9D, AS 7S, the rest); grouped best (2D-6D, 8C-QC) he
# pays 81, so the round form arranges his cards.
SEED_BEN = "2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C"
# Three pure sequences and no joker under any cut: a valid declaration every round.
THREE_PURE = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
# 21 loose cards with no pure sequence and no joker under cut 8S:
# 2+4+6 + 10+10+10 + 3+5+9 + 10+10+2 + 4+6+10 + 10+10+3 + 5+9+10 = 148, capped at 120.
LOOSE_148 = "2C 4D 6H | 10S QC KD | 3S 5H 9C | JH AD 2D | 4C 6D 10C | QS KH 3H | 5C 9D JD"
# 13-card (cut 7C): a show13 declaration.
WIN_13 = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7H | KC KD KS"

# One round of 21-points under cut 8S: Asha declares, Ben shows, Chen drops first.
ROUND_1 = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")}
# Two rounds of 13-pool-101 under cut 7C: Ben 40 + 20 = 60, Chen 80 + 40 = 120 (out at
# 101); Asha 0.
POOL_ROUNDS = [
    {"Asha": ("declared", WIN_13), "Ben": ("middle_drop", ""), "Chen": ("invalid_declaration", "")},
    {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Chen": ("middle_drop", "")},
]

# --- Declaration ways (docs/rules §4) -----------------------------------------------------

# A plain three-pure hand with no joker and no value or claim card under cut 8S.
WIN_PLAIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
TUNNELAS = "5H 5H 5H | 6C 6C 6C | JD JD JD | 2S 3D 4C 9H QC KH AC 10D 4H 3C 2D QS"
DUBLEES = "2H 2H | 3C 3C | 4D 4D | 5S 5S | 6H 6H | JC JC | QD QD | KS KS | AH 3S 10C 10D 9H"
EIGHT_JOKERS = "8C 8D 8H 7S 9S PJ PJ 8C | 2H 3C 4D 5S 6H 10C JD QS KH AC 2D 3H 4S"
NINE_JOKERS = "8C 8D 8H 7S 9S PJ PJ 8C 8D | 2H 3C 4D 5S 6H 10C JD QS KH AC 2D 3H"
MARRIAGES = "7S 8S 9S | 7S 8S 9S | 2H 5C JD QH 3D 6S 10C KD AH 4C 2C 5D 9H JC 3S"
JOKER_TUNNELA_MARRIAGES = "9S 9S 9S | 7S 7S 7S | 2H 5C JD QH 3D 6S 10C KD AH 4C 2C 5D 9H JC 3S"
GUS = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7H | KC KD KS"

# --- Losing hands (docs/rules §5-6) -------------------------------------------------------

# One pure sequence (2D 3D 4D): only it is left out. QD QS QC 30 + KH KH 20
# + 5D 9D 10H 24 + 6H 6D 4C 2S 3H 21 + 8C 7S 0 (jokers) + 2C 3C 5C 10 = 105.
ONE_PURE = "2D 3D 4D | QD QS QC | KH KH | 5D 9D 10H | 6H 6D 4C 2S 3H | 8C 7S | 2C 3C 5C"
# Four pure groups: every valid meld is left out; the dublee KC KC (20) and the
# loose 5D 9D 6C 10S (30) still count: 50.
FOUR_PURE = "2D 3D 4D | 9C 10C JC | QH KH AH | QD QS QC | 5H PJ 7H | KC KC | 5D 9D 6C 10S"
# Melded except a group of two jokers, which counts 0.
ZERO_COUNT = "2D 3D 4D | 9C 10C JC | QH KH AH | QD QS QC | 5H PJ 7H | 6C 6D 6S 6H | 8C 8D"
# A loser whose groups would be a valid three-pure declaration.
THREE_PURE_LOSER = "2D 3D 4D | 9C 10C JC | QH KH AH | QD QS QC | 5H PJ 7H | 6C 6D 6S | 10S JS QS"
# Six dublees: without the rule, every card counts (no pure group):
# 4+6+8+10+12+20 + 10+10+9+10+10+3+10+4+5 = 131, capped at 120.
SIX_DUBLEES = "2H 2H | 3C 3C | 4D 4D | 5S 5S | 6H 6H | JC JC | QD 10C 9H KS AH 3S 10D 4C 5H"
FIVE_DUBLEES = SIX_DUBLEES.replace("JC JC", "JC QC")
# Seven jokers in one group; the other cards count 2+3+4+5+6+10+10+10+10+10+2+3+4+5 = 84.
SEVEN_JOKERS = "8C 8D 8H 7S 9S PJ PJ | 2H 3C 4D 5S 6H 10C JD QS KH AC 2D 3H 4S 5D"
SIX_JOKERS_AND_ONE = "8C 8D 8H 7S 9S PJ | PJ 2H 3C 4D 5S 6H 10C JD QS KH AC 2D 3H 4S 5D"
# Four pure groups (7S 8S 9S 10S is one), KC KC counts 20; a marriage: V = 100.
VALUE_C = "2D 3D 4D | 9C 10C JC | QH KH AH | QD QS QC | 5H PJ 7H | KC KC | 7S 8S 9S 10S"
# Kodai: seven doubles, each its own group.
SEVEN_DOUBLES = "2H 2H | 3C 3C | 4D 4D | 5S 5S | 6H 6H | JC JC | QD QD | KS AH 3S 10C 10D 9H 4C"


def shuffled(text: str, seed: int = 3) -> str:
    """The cards of ``text`` in a random order (fixed by ``seed``), with no separator:
    a hand as a scorer taps it in, card by card."""
    cards = [card.code for card in parse_cards(text)]
    random.Random(seed).shuffle(cards)
    return " ".join(cards)


# --- Paplu's drop rules and Kodai's win on the deal ---------------------------------------

# 21-paplu, cut 8S: a three-pure winner holding the marriage 7S 8S 9S (value 100).
WIN_MARRIAGE = "7S 8S 9S | 2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH"
# Asha wins holding 100 in values; Ben drops first holding PJ PJ 2C (60); Chen shows
# LOOSE_148 (148 points, 2C: 20).
PAPLU_ROUND = {
    "Asha": ("declared", WIN_MARRIAGE),
    "Ben": ("first_drop", "PJ PJ 2C"),
    "Chen": ("shown", LOOSE_148),
}
# Scored under Paplu's earlier preset (BEFORE_EXACT_TEXTS): Ben is out of the value
# exchange; Asha and Chen trade 100 and 20 (148 + 100 is within the 250 cap).
# Asha 30 + 148 + 80 = 258, Ben −30, Chen −148 − 80 = −228.
PAPLU_SCORES_BEFORE = {"Asha": 258, "Ben": -30, "Chen": -228}
# Seed 003's drop rules: Ben pays Asha 100 and receives 40 (not 60) from Asha and from
# Chen. Chen owes Asha 100 + Ben 40 = 140 on top of 148: cut to 102, 100·102/140 = 72.9
# and 40·102/140 = 29.1 → 72 + 29, the odd point to Asha: 73 and 29. Values: Asha
# 100 + 73 − 60 = +113, Ben 40 + 29 − 100 = −31, Chen 20 − 102 = −82. Scores: Asha
# 30 + 148 + 113 = 291, Ben −30 − 31 = −61, Chen −148 − 82 = −230.
PAPLU_SCORES = {"Asha": 291, "Ben": -61, "Chen": -230}
