"""Invariants of the rules service, checked on random input with Hypothesis."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.rules import (
    PRESETS,
    Card,
    PlayerHand,
    RulesError,
    format_groups,
    parse_cards,
    parse_groups,
    read_groups,
    score_round,
)
from games.rules.api import score_request
from games.rules.arrange import arrange
from games.rules.cards import SUIT_SYMBOLS, all_cards
from games.rules.rulesets import OPTION_NAMES
from tests.support.deals import dealt_rounds
from tests.support.profiles import examples

CARDS = all_cards()
card_strategy = st.sampled_from(CARDS)
groups_strategy = st.lists(st.lists(card_strategy, min_size=1, max_size=8), max_size=7)


# --- Notation -------------------------------------------------------------------------------


@given(groups_strategy)
def test_format_then_parse_gives_back_the_groups(groups):
    assert parse_groups(format_groups(groups)) == groups


def typed(card: Card, rng: random.Random) -> str:
    """A card as a person might type it."""
    if card.is_printed_joker:
        return rng.choice(["PJ", "pj", "JK", "jk", "*"])
    rank = card.code[:-1]
    if rank == "10":
        rank = rng.choice(["10", "T", "t"])
    rank = rng.choice([rank, rank.lower()])
    suit = rng.choice([card.suit, card.suit.lower(), SUIT_SYMBOLS[card.suit]])
    return rank + suit


@given(groups_strategy, st.randoms(use_true_random=False))
def test_any_typed_notation_reads_as_the_canonical_cards(groups, rng):
    text = rng.choice(["|", "/", ";", "\n"]).join(
        rng.choice([" ", ",", ", ", ""]).join(typed(card, rng) for card in group)
        for group in groups
    )
    # Run-together cards are ambiguous only where a joker "JK" meets a suit-less rank,
    # which canonical ranks never produce; the parse must give the same cards.
    assert parse_groups(text) == groups


def outcome(function, *args):
    """(result, None) or (None, the RulesError raised); any other exception escapes."""
    try:
        return function(*args), None
    except RulesError as error:
        return None, error


# Text near the notation: its characters, the outline and emoji forms, and the letters a
# case-blind Unicode match takes for ASCII ones (İ ı ſ and the Kelvin sign).
NEAR_NOTATION = st.text(
    alphabet="0123456789TJQKAPjqkatp*-SHDCshdc♠♥♦♣♤♡♢♧\ufe0e\ufe0f |/;,\n\u0130\u0131\u017f\u212a",
    max_size=30,
)


@given(st.text(max_size=60) | NEAR_NOTATION)
@example("\u212aH 7\u017f")  # read as KH and 7S by a case-blind match; KH then failed
def test_random_text_parses_or_raises_a_card_error(text):
    groups, error = outcome(parse_groups, text)
    assert groups is not None or error.message


@given(st.text(max_size=60) | NEAR_NOTATION)
def test_reading_around_typos_agrees_with_the_parse_and_keeps_every_card(text):
    read, typos = read_groups(text)
    groups, error = outcome(parse_groups, text)
    if error is None:
        assert (read, typos) == (groups, [])
    else:  # the typo the parse names first, and every card it would read once fixed
        assert typos[0].message == error.message
        assert [typo.offset for typo in typos] == sorted({typo.offset for typo in typos})
        blanked = list(text)
        for typo in typos:
            blanked[typo.offset : typo.offset + len(typo.token)] = " " * len(typo.token)
        assert [card for group in read for card in group] == parse_cards("".join(blanked))


# --- Random rounds dealt from a real shoe ---------------------------------------------------


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(dealt_rounds())
def test_sound_rounds_always_score(round_):
    rules, cut, hands = round_
    result = score_round(rules, cut, hands)
    assert [p.name for p in result.players] == [h.name for h in hands]


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(dealt_rounds(presets=("21-points", "21-paplu", "13-points")))
def test_net_scores_sum_to_zero(round_):
    rules, cut, hands = round_
    result = score_round(rules, cut, hands)
    assert sum(player.score for player in result.players) == 0
    winner = result.players[0]
    losers = result.players[1:]
    assert winner.score == sum(p.hand_points + p.claims for p in losers) + winner.value_points


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(dealt_rounds())
def test_no_loser_pays_more_than_the_cap(round_):
    rules, cut, hands = round_
    for player in score_round(rules, cut, hands).players[1:]:
        assert 0 <= player.hand_points <= max(rules.hand_cap, rules.invalid_declaration)
        if player.outcome == "shown":
            assert player.hand_points <= rules.hand_cap
        if player.outcome == "deal_show" and rules.deal_show_fixed is not None:
            assert player.hand_points == rules.deal_show_fixed
        elif player.outcome == "deal_show":
            assert rules.deal_show_min <= player.hand_points <= rules.deal_show_max
        if rules.cap_includes_values and player.outcome != "declared":
            assert player.hand_points + player.value_paid <= rules.hand_cap


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(dealt_rounds(presets=("21-paplu",)))
def test_paplu_first_drops_pay_only_the_declarer(round_):
    # docs/rules §6: a first drop pays "the declarer" only and receives at most 40 from each
    # payer; a winner by default brings no value points at all, and every drop pays 30.
    rules, cut, hands = round_
    result = score_round(rules, cut, hands)
    winner = result.players[0]
    first_drops = {p.name for p in result.players if p.outcome == "first_drop"}
    for player in result.players:
        if player.outcome == "first_drop":
            assert {name for name, _ in player.paid_to} <= {winner.name}
            assert winner.outcome == "declared" or not player.paid_to
        for name, amount in player.paid_to:
            assert amount > 0 and name != player.name
            if name in first_drops:
                assert amount <= rules.first_drop_receives
    if winner.outcome == "default_win":
        assert all(p.value_points == 0 and not p.paid_to for p in result.players)
        drops = [p for p in result.players if p.outcome in ("first_drop", "middle_drop")]
        assert all(p.hand_points == rules.default_win_drop for p in drops)
    assert sum(p.value_points for p in result.players) == 0


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow])
@given(dealt_rounds(presets=("21-kodai", "13-pool-101", "13-pool-201")))
def test_penalty_totals_never_reward_a_loser(round_):
    rules, cut, hands = round_
    result = score_round(rules, cut, hands)
    assert result.players[0].score == 0
    claims = {p.claims for p in result.players[1:] if p.claims}
    assert len(claims) <= 1  # every payer pays the same claims
    for player in result.players[1:]:
        assert player.score == player.hand_points + player.claims >= 0


# --- Anything at all gives a result or the rules' own error ---------------------------------

json_scalars = st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=6)
codes = st.sampled_from([c.code for c in CARDS]) | st.text(max_size=4)
junk_groups = (
    st.lists(st.lists(codes, max_size=6), max_size=8)
    | st.text(max_size=40)
    | json_scalars
    | st.lists(json_scalars, max_size=3)
)
outcomes = st.sampled_from(
    ["declared", "shown", "deal_show", "first_drop", "middle_drop", "invalid_declaration",
     "declare_timeout", "default_win", "scooted", ""]
)  # fmt: skip
players = st.lists(
    st.fixed_dictionaries(
        {"name": st.text(max_size=5) | json_scalars, "outcome": outcomes | json_scalars},
        optional={"groups": junk_groups, "on_deal": json_scalars},
    ),
    max_size=7,
)
overrides = st.dictionaries(
    st.sampled_from([*OPTION_NAMES, "bogus"]),
    json_scalars | st.lists(json_scalars, max_size=4),
    max_size=3,
)


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries(
        {
            "ruleset": st.sampled_from([*PRESETS, "gin"]),
            "cut_joker": codes | json_scalars,
            "players": players | json_scalars,
        },
        optional={"overrides": overrides | json_scalars},
    )
)
def test_a_random_request_scores_or_raises_only_the_rules_error(request):
    result, error = outcome(score_request, request)
    if error is not None:
        assert isinstance(error.message, str)
        assert error.message
        assert isinstance(error.field, str)
    else:
        assert len(result["players"]) == len(request["players"])


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(list(PRESETS)),
    st.sampled_from(CARDS),
    st.lists(
        st.tuples(outcomes, st.lists(st.lists(card_strategy, max_size=7), max_size=6)),
        min_size=1,
        max_size=6,
    ),
)
def test_random_hands_raise_nothing_but_the_rules_error(preset, cut, entries):
    hands = [
        PlayerHand(f"P{i}", outcome, tuple(tuple(g) for g in groups if g))
        for i, (outcome, groups) in enumerate(entries)
    ]
    result, error = outcome(score_round, PRESETS[preset], cut, hands)
    assert result is not None or error.message


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(list(PRESETS)),
    st.sampled_from(CARDS),
    st.lists(card_strategy, max_size=23),
)
def test_arranging_random_cards_raises_nothing_but_the_rules_error(preset, cut, hand):
    # Any cards at all (too many, too many copies, none): an arrangement that covers
    # exactly the cards given, or the rules' own error.
    result, error = outcome(arrange, PRESETS[preset], cut, hand)
    if error is None:
        assert sorted(card for group in result.groups for card in group) == sorted(hand)
        assert result.hand_points >= 0
    else:
        assert error.message and error.field == "cards"
