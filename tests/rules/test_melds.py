"""Joker roles (docs/rules §2) and group kinds (§3), including the worked examples of §7."""

from __future__ import annotations

import pytest

from games.rules import Kind, classify, why_no_group
from tests.support.rules import cards, roles


def jokers(preset: str, cut: str) -> list[str]:
    return roles(preset, cut).joker_codes


# --- §2: the joker roles table ---------------------------------------------------------


def test_21_card_jokers_are_printed_wild_rank_upper_and_lower():
    assert jokers("21-points", "8S") == ["8C", "8D", "8H", "8S", "7S", "9S", "PJ"]
    assert jokers("21-kodai", "5H") == ["5C", "5D", "5H", "5S", "4H", "6H", "PJ"]


def test_paplu_wild_rank_is_only_the_cut_suit():
    assert jokers("21-paplu", "8S") == ["8S", "7S", "9S", "PJ"]


def test_13_card_jokers_are_the_cut_rank_and_printed_jokers():
    assert jokers("13-points", "7C") == ["7C", "7D", "7H", "7S", "PJ"]
    assert jokers("13-pool-101", "QH") == ["QC", "QD", "QH", "QS", "PJ"]


def test_upper_and_lower_wrap_around_the_ace():
    # Cut K: upper is A (K→A); cut A: lower is K (A→K) and upper is 2.
    assert jokers("21-points", "KD")[-3:] == ["QD", "AD", "PJ"]
    assert jokers("21-points", "AC")[-3:] == ["KC", "2C", "PJ"]
    assert jokers("21-points", "2H")[-3:] == ["AH", "3H", "PJ"]


def test_printed_joker_cut_plays_as_ace_of_spades():
    # All Aces wild, K♠ lower, 2♠ upper (seed 001).
    assert jokers("21-points", "PJ") == ["AC", "AD", "AH", "AS", "KS", "2S", "PJ"]
    assert jokers("13-points", "PJ") == ["AC", "AD", "AH", "AS", "PJ"]
    assert jokers("21-paplu", "PJ") == ["AS", "KS", "2S", "PJ"]


def test_upper_joker_is_always_one_rank_up():
    # Seed 000's "8♠ cut → 6♠ upper" is a typo.
    r = roles("21-points", "8S")
    assert (r.upper.code, r.lower.code) == ("9S", "7S")


def test_jokers_count_zero_points():
    r = roles("21-points", "8S")
    assert [r.points(c) for c in cards("8H 7S 9S PJ 9H 7H KS")] == [0, 0, 0, 0, 9, 7, 10]


# --- §3 and §7: group kinds under cut 8S ----------------------------------------------


@pytest.mark.parametrize(
    ("group", "kind"),
    [
        # The worked examples of docs/rules §7 (21-points, cut 8S).
        ("5H 6H 7H", Kind.PURE_SEQUENCE),
        ("7S 8S 9S", Kind.PURE_SEQUENCE),  # jokers standing for themselves
        ("5H PJ 7H", Kind.IMPURE_SEQUENCE),
        ("8H 8H 8H", Kind.TUNNELA),
        ("QH QS 8D", Kind.SET),
        ("QH QH QS", Kind.INVALID),
        ("4C 4C", Kind.DUBLEE),
        ("KH AH 2H", Kind.INVALID),
        # More of the table.
        ("AH 2H 3H", Kind.PURE_SEQUENCE),  # Ace low
        ("QD KD AD", Kind.PURE_SEQUENCE),  # Ace high
        ("A-KC", Kind.PURE_SEQUENCE),  # 13 cards, Ace low
        ("2-AC", Kind.PURE_SEQUENCE),  # 13 cards, Ace high
        ("6S 7S 8S 9S 10S", Kind.PURE_SEQUENCE),  # 7S 8S 9S are jokers used naturally
        ("6H 7H 8H", Kind.PURE_SEQUENCE),  # 8H wild, but natural here
        ("9H 10H PJ", Kind.IMPURE_SEQUENCE),
        ("PJ 10H 9H", Kind.IMPURE_SEQUENCE),  # order does not matter
        ("5H 8C 7H", Kind.IMPURE_SEQUENCE),  # a wild 8 fills the 6
        ("5H 7S 9S 8C", Kind.IMPURE_SEQUENCE),  # one natural card, jokers extend it
        ("QH KH PJ", Kind.IMPURE_SEQUENCE),  # the joker is J or A
        ("KH AH PJ", Kind.IMPURE_SEQUENCE),  # Q K A, Ace high
        ("AH 2H PJ PJ", Kind.IMPURE_SEQUENCE),
        ("5H PJ PJ", Kind.IMPURE_SEQUENCE),  # fits a sequence and a set: sequence wins
        ("3D 3C 8H", Kind.SET),
        ("KS KH KD", Kind.SET),
        ("KS KH KD KC", Kind.SET),
        ("KS KH PJ 9S", Kind.SET),
        ("5C 5D PJ", Kind.SET),
        ("PJ PJ 8H", Kind.JOKER_GROUP),
        ("8C 8D 7S 9S PJ PJ 8C 8H", Kind.JOKER_GROUP),
        ("PJ PJ PJ", Kind.TUNNELA),  # printed_joker_tunnela is on in 21-points
        ("PJ PJ", Kind.DUBLEE),
        ("8D 8D", Kind.DUBLEE),
        ("7S 7S 7S", Kind.TUNNELA),
        ("5H 5H PJ", Kind.INVALID),  # a joker cannot make a tunnela
        ("5H PJ", Kind.INVALID),  # nor a dublee
        ("KS KS KH KD", Kind.INVALID),
        ("KS KH KD KC PJ", Kind.INVALID),  # a set has at most 4 cards
        ("5H 6H", Kind.INVALID),
        ("5H", Kind.INVALID),
        ("5H 6H 9H", Kind.INVALID),  # a gap and no joker
        ("5H 6H 8H", Kind.IMPURE_SEQUENCE),  # 8H is a wild 8 standing for 7H
        ("5H 6H 6H 7H", Kind.INVALID),
        ("5H 6D 7H", Kind.INVALID),
        ("KH AH 2H PJ", Kind.INVALID),  # no wrap, even with a joker
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", Kind.INVALID),  # 14: never both
    ],
)
def test_group_kinds_with_cut_8s(group, kind):
    assert classify(cards(group), roles("21-points", "8S")) == kind


def test_ka2_of_the_cut_suit_with_an_ace_cut_is_a_marriage_not_a_pure_sequence():
    assert classify(cards("KS AS 2S"), roles("21-points", "AS")) == Kind.IMPURE_SEQUENCE
    assert classify(cards("KS AS 2S"), roles("21-paplu", "AS")) == Kind.IMPURE_SEQUENCE
    # Kodai with a printed joker cut: K♠ PJ 2♠.
    assert classify(cards("KS PJ 2S"), roles("21-kodai", "PJ")) == Kind.IMPURE_SEQUENCE
    # In another suit it is no sequence at all.
    assert classify(cards("KH AH 2H"), roles("21-points", "AS")) == Kind.INVALID


def test_paplu_three_printed_jokers_are_not_a_tunnela():
    r = roles("21-paplu", "8S")
    assert classify(cards("PJ PJ PJ"), r) == Kind.JOKER_GROUP
    assert classify(cards("PJ PJ"), r) == Kind.DUBLEE


def test_paplu_other_suits_of_the_cut_rank_are_natural():
    r = roles("21-paplu", "8S")
    assert classify(cards("5H 8H 7H"), r) == Kind.INVALID  # 8H is no joker in Paplu
    assert classify(cards("5H 8S 7H"), r) == Kind.IMPURE_SEQUENCE


def test_no_tunnelas_or_dublees_in_13_card_games():
    r = roles("13-points", "7C")
    assert classify(cards("KD KD"), r) == Kind.INVALID
    assert classify(cards("PJ PJ"), r) == Kind.INVALID
    assert classify(cards("PJ PJ 7C"), r) == Kind.JOKER_GROUP
    assert classify(cards("5D 6D 7H"), r) == Kind.IMPURE_SEQUENCE  # seed 004's example


def test_13_card_pure_sequence_may_hold_a_wild_card_as_itself():
    # Seed 004: with 7♥ cut, 6♥ 7♥ 8♥ is pure.
    assert classify(cards("6H 7H 8H"), roles("13-points", "7H")) == Kind.PURE_SEQUENCE
    assert classify(cards("6H 7S 8H"), roles("13-points", "7C")) == Kind.IMPURE_SEQUENCE


def test_printed_joker_cut_makes_every_ace_a_joker():
    r = roles("21-points", "PJ")
    assert classify(cards("5H AD 7H"), r) == Kind.IMPURE_SEQUENCE
    assert classify(cards("QC KC AC"), r) == Kind.PURE_SEQUENCE  # the Ace as itself


@pytest.mark.parametrize(
    ("group", "words"),
    [
        ("QH QH QS", "different suit"),
        ("5H 6H 6H 7H", "same rank twice"),
        ("KH AH 2H", "never both"),
        ("5H 6D 7C", "neither one suit"),
        ("5H 6H", "dublee"),
        ("KS KH KD KC PJ", "at most 4"),
    ],
)
def test_invalid_groups_are_explained(group, words):
    assert words in why_no_group(cards(group), roles("21-points", "8S"))


def test_short_groups_are_explained_by_what_they_hold():
    # One card is not "two cards"; two printed jokers are two identical cards, a
    # dublee only where printed_joker_dublee is on.
    assert why_no_group(cards("5H"), roles("21-points", "8S")) == (
        "a set or sequence needs at least 3 cards"
    )
    no_joker_pairs = roles("21-points", "8S", printed_joker_dublee=False)
    assert why_no_group(cards("PJ PJ"), no_joker_pairs) == (
        "two printed jokers make a dublee only where the rules say so"
    )


def test_a_broken_run_mentions_the_ace_only_when_it_holds_one():
    r = roles("21-points", "8S")
    assert why_no_group(cards("2C 3C 5C"), r) == ("the run has a gap that no joker fills")
    assert why_no_group(cards("KH AH 2H"), r) == (
        "an Ace is low or high, never both, and every gap in the run needs a joker"
    )
