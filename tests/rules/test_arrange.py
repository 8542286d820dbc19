"""The best-arrangement solver: exact against an exhaustive search on small hands,
honest (its grouping scores what it claims), and never worse than a hand as grouped."""

from __future__ import annotations

import json
import random

import pytest

from games.rules import PRESETS, RulesError, get_ruleset, parse_card, parse_groups
from games.rules.arrange import arrange
from games.rules.cards import all_cards
from games.rules.melds import classify, joker_roles
from games.rules.scoring import PlayerHand, assess_hand, count_groups
from tests.support.examples import CASES
from tests.support.hands import (
    DUBLEES,
    EIGHT_JOKERS,
    GUS,
    MARRIAGES,
    SEVEN_DOUBLES,
    SIX_DUBLEES,
    TUNNELAS,
    WIN_PLAIN,
)
from tests.support.rules import cards, partitions

# Rules that make the hand points equal the raw count, so that the exhaustive search
# and the solver are compared on the counting rule itself.
PLAIN_COUNT = dict(
    hand_cap=1000,
    zero_count_becomes=0,
    two_point_three_pure=False,
    two_point_dublees=None,
    two_point_jokers=None,
    two_point_tunnelas=None,
    two_point_marriages=None,
    free_hand_doubles=None,
    free_hand_jokers=None,
)


def exhaustive_count(ruleset, cut, hand) -> int:
    """The fewest counted points over every grouping of the hand."""
    roles = joker_roles(ruleset, cut)
    best = None
    for partition in partitions(list(hand)):
        groups = tuple(tuple(g) for g in partition)
        kinds = [classify(g, roles) for g in groups]
        count = sum(count_groups(groups, kinds, roles).counted)
        best = count if best is None else min(best, count)
    return best


def small_hands(seed: int, number: int, size: int):
    """Hands from a few suits and ranks (so that melds are likely), any cut."""
    rng = random.Random(seed)
    for _ in range(number):
        preset = rng.choice(list(PRESETS))
        overrides = dict(PLAIN_COUNT)
        if PRESETS[preset].hand_size == 21:
            # Small hands cannot hold three pure groups: ask for fewer to reach the top tier.
            overrides["pure_needed"] = rng.choice([1, 2, 2, 3])
        ruleset = get_ruleset(preset, overrides)
        suits = rng.sample("SHDC", rng.choice([1, 2, 2, 3]))
        ranks = rng.sample(range(1, 14), rng.choice([4, 5, 6]))
        cut = rng.choice(all_cards())
        pool = [
            c for c in all_cards() if c.is_printed_joker or (c.suit in suits and c.rank in ranks)
        ]
        pool += [c for c in all_cards() if c.rank == cut.rank] * rng.choice([0, 1])
        shoe = [c for c in pool for _ in range(ruleset.decks)]
        if cut in shoe:
            shoe.remove(cut)
        counts = {}
        hand = []
        for card in rng.sample(shoe, len(shoe)):
            if counts.get(card, 0) < ruleset.decks - (card == cut) and len(hand) < size:
                counts[card] = counts.get(card, 0) + 1
                hand.append(card)
        yield preset, overrides, ruleset, cut, hand


@pytest.mark.parametrize("seed", range(8))
def test_solver_count_equals_exhaustive_search_on_small_hands(seed):
    for preset, overrides, ruleset, cut, hand in small_hands(seed, 12, 7):
        expected = exhaustive_count(ruleset, cut, hand)
        got = arrange(ruleset, cut, hand)
        assert got.count == expected, (preset, overrides.get("pure_needed"), cut, hand)


@pytest.mark.parametrize("seed", range(3))
def test_solver_hand_points_equal_exhaustive_search_under_each_presets_own_rules(seed):
    # Not only the count: what a loser who shows the hand pays (caps, a zero count
    # becoming 2, two-point and free hands), the least over every grouping.
    for preset, overrides, _, cut, hand in small_hands(seed, 12, 7):
        ruleset = get_ruleset(preset, {k: v for k, v in overrides.items() if k == "pure_needed"})
        least = min(
            assess_hand(ruleset, cut, PlayerHand("P", "shown", tuple(map(tuple, p)))).hand_points
            for p in partitions(list(hand))
        )
        assert arrange(ruleset, cut, hand).hand_points == least, (preset, cut, hand)


def test_solver_count_equals_exhaustive_search_on_eight_cards():
    for _, _, ruleset, cut, hand in small_hands(99, 6, 8):
        assert arrange(ruleset, cut, hand).count == exhaustive_count(ruleset, cut, hand)


def deal(rng: random.Random, ruleset, cut):
    shoe = [c for c in all_cards() for _ in range(ruleset.decks)]
    shoe.remove(cut)
    rng.shuffle(shoe)
    return shoe[: ruleset.hand_size]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_grouping_scores_what_the_solver_claims(preset):
    rng = random.Random(preset)
    ruleset = PRESETS[preset]
    for _ in range(25):
        cut = rng.choice(all_cards())
        hand = deal(rng, ruleset, cut)
        result = arrange(ruleset, cut, hand)
        assert sorted(c for g in result.groups for c in g) == sorted(hand)
        outcome = "declared" if result.declaration else "shown"
        judged = assess_hand(ruleset, cut, PlayerHand("P", outcome, result.groups))
        assert judged.problems == ()
        if result.declaration:
            assert judged.declaration == result.declaration
            assert result.hand_points == 0
        else:
            assert judged.hand_points == result.hand_points
            assert sum(g.counted for g in judged.groups) == result.count
        assert [g.kind for g in judged.groups] == list(result.kinds)


def test_every_shared_example_is_arranged_at_least_as_well_as_it_was_grouped():
    checked = 0
    for path in CASES:
        case = json.loads(path.read_text())["input"]
        ruleset = get_ruleset(case["ruleset"], case.get("overrides"))
        cut = parse_card(case["cut_joker"])
        for player in case["players"]:
            if player["outcome"] not in ("declared", "shown", "deal_show"):
                continue
            groups = tuple(tuple(parse_card(code) for code in g) for g in player["groups"])
            hand = [c for g in groups for c in g]
            result = arrange(ruleset, cut, hand, player.get("on_deal", False))
            as_grouped = assess_hand(ruleset, cut, PlayerHand("P", "shown", groups))
            if player["outcome"] == "declared":
                assert result.declaration is not None
            else:
                assert result.hand_points <= as_grouped.hand_points, player["name"]
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize(
    ("preset", "cut", "text", "way"),
    [
        ("21-points", "8S", WIN_PLAIN, "three_pure"),
        ("21-points", "8S", TUNNELAS, "tunnelas"),
        ("21-points", "8S", DUBLEES, "dublees"),
        ("21-points", "8S", EIGHT_JOKERS, "jokers"),
        ("21-paplu", "8S", MARRIAGES, "marriages"),
        ("21-kodai", "8S", MARRIAGES, "marriages"),
        ("13-points", "7C", GUS, "show13"),
    ],
)
def test_every_declaration_way_is_found_from_shuffled_cards(preset, cut, text, way):
    hand = cards(text)
    random.Random(1).shuffle(hand)
    assert arrange(PRESETS[preset], parse_card(cut), hand).declaration == way


def test_a_leftover_joker_is_placed_in_a_set_to_keep_three_pure():
    # Exactly three pure runs, three sets of three and a lone printed joker: in a run
    # the joker would leave only two pure runs, so it must join a set.
    text = "2H 3H 4H 5H | 5C 6C 7C | 9D 10D JD QD | KS KH KD | QC QS QH | 3D 3C 3S | PJ"
    hand = cards(text)
    random.Random(2).shuffle(hand)
    result = arrange(PRESETS["21-points"], parse_card("8S"), hand)
    assert result.declaration == "three_pure"


def test_a_leftover_joker_may_only_break_a_surplus_pure_run():
    # Pure runs and nothing else: the joker must join one of them, which stops being
    # pure; four pure runs remain.
    text = "2H 3H 4H | 5C 6C 7C | 9D 10D JD | QS KS AS | 4S 5S 6S | 9H 10H JH QH KH | PJ"
    result = arrange(PRESETS["21-points"], parse_card("8S"), cards(text))
    assert result.declaration == "three_pure"


def test_no_declaration_means_the_fewest_points():
    # Seed example's Ben: grouped he pays 102; 2D-6D and 8C-QC leave 81.
    text = "2D 3D 4D 9C 10C JC QD QS QC KH KH 5D 9D AS 7S 6H 6D 4C 2S JH 8C"
    result = arrange(PRESETS["21-points"], parse_card("8S"), cards(text))
    assert result.declaration is None
    assert result.hand_points == 81


def test_a_two_point_hand_is_preferred_to_its_count():
    result = arrange(PRESETS["21-points"], parse_card("8S"), cards(SIX_DUBLEES))
    assert result.declaration is None
    assert result.hand_points == 2


def test_a_kodai_free_hand_costs_nothing():
    result = arrange(PRESETS["21-kodai"], parse_card("8S"), cards(SEVEN_DOUBLES))
    assert result.hand_points == 0


def test_bad_hands_are_rules_errors():
    with pytest.raises(RulesError, match="a hand has 13"):
        arrange(PRESETS["13-points"], parse_card("7C"), cards(WIN_PLAIN))
    with pytest.raises(RulesError, match="KH appears 4 times"):
        arrange(PRESETS["21-points"], parse_card("8S"), cards("KH KH KH KH"))
    with pytest.raises(RulesError):
        arrange(PRESETS["21-points"], parse_card("8S"), [])


def test_groups_given_in_notation_round_trip_through_the_arrangement():
    result = arrange(PRESETS["21-points"], parse_card("8S"), cards(WIN_PLAIN))
    text = " | ".join(" ".join(c.code for c in g) for g in result.groups)
    assert [list(g) for g in parse_groups(text)] == [list(g) for g in result.groups]
