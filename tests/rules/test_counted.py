"""A hand counted at the table (docs/rules §5, "A counted hand"): entered as the figures
its cards give, it scores as the cards do, with every rule that needs no cards; and
figures no hand could give are refused, naming the field at fault."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    HandFigures,
    PlayerHand,
    RoundErrors,
    RulesError,
    all_cards,
    assess_hand,
    figure_limits,
    figure_names,
    get_ruleset,
    hand_figures,
    parse_card,
    score_round,
)
from games.rules.melds import joker_roles
from games.rules.values import claim_holding, claim_worths, value_holding, value_worths
from tests.support.deals import dealt_rounds
from tests.support.hands import (
    DUBLEES,
    EIGHT_JOKERS,
    GUS,
    LOOSE_148,
    MARRIAGES,
    PAPLU_ROUND,
    PAPLU_SCORES,
    SEED_BEN,
    SEVEN_DOUBLES,
    SIX_DUBLEES,
    THREE_PURE_LOSER,
    TUNNELAS,
    WIN_8S,
    WIN_PLAIN,
)
from tests.support.profiles import examples
from tests.support.rules import hand

COUNTS = {"hand_entry": "counts"}
TRUSTED = {"hand_entry": "counts", "trust_show": True}

# A Kodai winner on the deal holding claim cards (cut AH: 1 × AH and 2 × 2H, 30),
# and a loser whose six melds leave 5S 10C 4D (19) counted: docs/reference/cli.md.
KODAI_WIN = "2H 2H | 3C 3C | 4D 4D | 5S 5S | 6H 6H | JC JC | QD QD | KS AH 3S 10C 10D 9H 4C"
# 13-card, cut 7C: a pure and a second sequence leave QH QD and 2S 3C 9H 10C JC, 54.
HANA = "4C 5C 6C | 8D 9D PJ | QH QD | 2S 3C 9H 10C JC"
KODAI_BEN = "KH AH 2H | 3C 4C 5C | 6D 7D 8D | QC QD QS | 9S 9D 9C | JH JS JD | 5S 10C 4D"


def counted(player: PlayerHand, rules, cut: str) -> PlayerHand:
    """The player's hand as the figures its cards give."""
    figures = hand_figures(rules, parse_card(cut), player)
    return PlayerHand(player.name, player.outcome, on_deal=player.on_deal, figures=figures)


def figures_of(result) -> list[tuple]:
    """What a round's result says each player scores and pays, not how it got there."""
    return [
        (p.name, p.hand_points, p.value_points, p.claims, p.score, p.value_paid, p.paid_to)
        for p in result.players
    ]


def score(preset: str, cut: str, hands, **overrides):
    return score_round(get_ruleset(preset, overrides), parse_card(cut), hands)


# --- Per preset: a counted hand scores as the cards it stands for -------------------------

ROUNDS = {
    # Ben's 102 (two pure sequences) and one spare lower joker, V = 10: -92.
    "21-points": (
        "8S",
        [
            hand("Asha", "declared", WIN_8S),
            hand("Ben", "shown", SEED_BEN),
            hand("Chen", "first_drop"),
        ],
        {"Ben": HandFigures(count=102, value_points=10)},
    ),
    # Ben drops first holding PJ PJ 2C (60, of which he receives at most 40 a payer);
    # Chen's 148 and his 2C (20); the payments he owes cut by the 250 cap.
    "21-paplu": (
        "8S",
        [hand(name, outcome, text) for name, (outcome, text) in PAPLU_ROUND.items()],
        {
            "Ben": HandFigures(value_points=60),
            "Chen": HandFigures(count=148, value_points=20),
        },
    ),
    "21-kodai": (
        "AH",
        [
            PlayerHand("Asha", "declared", hand("A", "declared", KODAI_WIN).groups, on_deal=True),
            hand("Ben", "shown", KODAI_BEN),
            hand("Chen", "middle_drop"),
        ],
        {"Ben": HandFigures(count=19)},
    ),
    # Hana counts 54; Ivan's 90 is capped at 80.
    "13-points": (
        "7C",
        [
            hand("Gus", "declared", GUS),
            hand("Hana", "shown", HANA),
            hand("Ivan", "shown", "4S PJ 6S | 8H 8C 8S | AD KD 2C 5H 9C 10H JH"),
        ],
        {"Hana": HandFigures(count=54), "Ivan": HandFigures(count=90)},
    ),
    "13-pool-101": (
        "4D",
        [
            hand("Asha", "shown", "AD 2D 3D | 7H 8H | 5C 9C JC QC | 6D 10S AS 2S"),
            hand("Ben", "middle_drop"),
            hand("Chen", "declared", "5S 6S 7S | 9H 10H JH QH | 2C 3C 4C | KS KH KD"),
        ],
        {"Asha": HandFigures(count=77)},
    ),
    "13-pool-201": (
        "9S",
        [
            hand("Asha", "declared", "AH 2H 3H | 4S 5S 6S 7S | 10D JD QD | KC KH KS"),
            hand("Ben", "shown", "2C 5D 8H | JS QD KC | 3S 7D 10C | 4H 6C 9D AC"),
            hand("Chen", "middle_drop"),
        ],
        {"Ben": HandFigures(count=85)},
    ),
}


@pytest.mark.parametrize("preset", list(ROUNDS))
def test_a_counted_hand_scores_as_the_cards_it_stands_for(preset: str) -> None:
    cut, hands, expected = ROUNDS[preset]
    rules = get_ruleset(preset, COUNTS)
    by_cards = score_round(rules, parse_card(cut), hands)
    losers = [counted(h, rules, cut) if h.name in expected else h for h in hands]

    by_count = score_round(rules, parse_card(cut), losers)

    assert {h.name: h.figures for h in losers if h.figures} == expected
    assert figures_of(by_count) == figures_of(by_cards)
    for player in by_count.players:
        assert player.counted == (player.name in expected)
        if player.counted:
            assert player.groups == ()


def test_the_paplu_round_counted_pays_what_its_cards_pay() -> None:
    # The hand-worked Paplu round (tests/support/hands.py): the cap and the drop rules
    # apply to figures as to cards.
    cut, hands, expected = ROUNDS["21-paplu"]
    losers = [PlayerHand(h.name, h.outcome, figures=expected.get(h.name)) for h in hands[1:]]
    result = score("21-paplu", cut, [hands[0], *losers], **COUNTS)
    assert {p.name: p.score for p in result.players} == PAPLU_SCORES


def test_a_counted_deal_show_is_halved_as_its_count_would_be() -> None:
    # 21-points: half of 102, within 2..60.
    ben = PlayerHand("Ben", "deal_show", figures=HandFigures(count=102, value_points=10))
    result = score("21-points", "8S", [hand("Asha", "declared", WIN_8S), ben], **COUNTS)
    assert result.players[1].hand_points == 51
    assert result.players[1].rule_applied == "Deal show: half the count of 102"


def test_a_paplu_deal_show_has_no_count_only_its_values() -> None:
    rules = get_ruleset("21-paplu", COUNTS)
    assert figure_names(rules, "deal_show") == ("value_points",)
    ben = PlayerHand("Ben", "deal_show", figures=HandFigures(value_points=40))
    result = score("21-paplu", "8S", [hand("Asha", "declared", WIN_PLAIN), ben], **COUNTS)
    # A fixed 60, and his 40 in value points from Asha: -60 + 40.
    assert (result.players[1].hand_points, result.players[1].score) == (60, -20)


@pytest.mark.parametrize(("preset", "outcome", "text", "cost"), [
    ("21-points", "shown", SIX_DUBLEES, 2),  # a two-point hand
    ("21-points", "deal_show", SIX_DUBLEES, 2),  # still 2, not half its count
    ("21-points", "shown", THREE_PURE_LOSER, 2),
    ("21-paplu", "shown", TUNNELAS, 2),  # Paplu's own: 3 tunnelas (against 8 dublees)
    ("21-paplu", "shown", MARRIAGES, 2),  # and 2 marriages, holding value cards
    ("21-paplu", "deal_show", MARRIAGES, 60),  # a fixed 60 all the same
    ("21-kodai", "shown", SEVEN_DOUBLES, 0),  # a free hand
    ("21-kodai", "shown", EIGHT_JOKERS, 0),
])  # fmt: skip
def test_a_hand_the_rules_treat_apart_scores_the_same_counted(preset, outcome, text, cost):
    rules = get_ruleset(preset, COUNTS)
    winner = hand("Asha", "declared", DUBLEES if text == TUNNELAS else WIN_PLAIN)
    loser = hand("Ben", outcome, text)
    by_cards = score_round(rules, parse_card("8S"), [winner, loser])
    by_count = score_round(rules, parse_card("8S"), [winner, counted(loser, rules, "8S")])
    assert figures_of(by_count) == figures_of(by_cards)
    assert by_count.players[1].hand_points == cost


def test_a_two_point_hand_counted_loses_two_whatever_its_count() -> None:
    rules = get_ruleset("21-points", COUNTS)
    six = hand_figures(rules, parse_card("8S"), hand("Ben", "shown", SIX_DUBLEES))
    assert (six.count, six.two_point) == (131, True)
    ben = PlayerHand("Ben", "shown", figures=HandFigures(two_point=True))
    result = score("21-points", "8S", [hand("Asha", "declared", WIN_PLAIN), ben], **COUNTS)
    assert result.players[1].hand_points == 2


def test_a_kodai_free_hand_counted_pays_neither_points_nor_claims() -> None:
    asha = PlayerHand("Asha", "declared", figures=HandFigures(claims=30))
    ben = PlayerHand("Ben", "shown", figures=HandFigures(free_hand=True))
    dev = PlayerHand("Dev", "shown", figures=HandFigures(count=0))
    result = score("21-kodai", "AH", [asha, ben, dev], **TRUSTED)
    assert [(p.hand_points, p.claims) for p in result.players[1:]] == [(0, 0), (0, 30)]
    rules = get_ruleset("21-kodai", COUNTS)
    seven = hand_figures(rules, parse_card("8S"), hand("Ben", "shown", SEVEN_DOUBLES))
    assert seven.free_hand


def test_a_count_of_zero_still_costs_what_the_rules_say() -> None:
    ben = PlayerHand("Ben", "shown", figures=HandFigures(count=0))
    result = score("21-points", "8S", [hand("Asha", "declared", WIN_PLAIN), ben], **COUNTS)
    assert (result.players[1].hand_points, result.players[1].rule_applied) == (
        2,
        "A count of 0 costs 2",
    )


# --- The winner, where the table's show is trusted ---------------------------------------


@pytest.mark.parametrize(
    ("preset", "cut", "win", "figures"),
    [
        ("21-points", "8S", WIN_8S, HandFigures(value_points=0)),
        ("21-paplu", "8S", PAPLU_ROUND["Asha"][1], HandFigures(value_points=100)),
        # Under cut AH, 2H is the upper joker and KH the lower: two claim cards.
        ("21-kodai", "AH", WIN_PLAIN, HandFigures(claims=20)),
        ("13-points", "7C", GUS, HandFigures()),
    ],
)
def test_a_trusted_winner_scores_as_their_cards(preset, cut, win, figures) -> None:
    rules = get_ruleset(preset, TRUSTED)
    winner = hand("Asha", "declared", win)
    loser = hand("Ben", "shown", LOOSE_148 if rules.hand_size == 21 else HANA)
    assert hand_figures(rules, parse_card(cut), winner) == figures

    trusted = PlayerHand("Asha", "declared", figures=figures)
    by_cards = score_round(rules, parse_card(cut), [winner, loser])
    by_show = score_round(rules, parse_card(cut), [trusted, loser])

    assert figures_of(by_show) == figures_of(by_cards)
    assert by_show.players[0].declaration is None
    assert by_show.players[0].breakdown[0] == "declared: the table's show, taken as valid"


# --- Random rounds: from the cards, then from their figures ------------------------------


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(dealt_rounds(), st.booleans())
def test_a_round_scores_the_same_from_its_cards_and_from_their_figures(round_, winner_too):
    # Every loser counted at the table, and the winner too where its show is trusted:
    # the same scores and value payments as from the cards, two-point and free hands,
    # caps, drop rules and claims included.
    rules, cut, hands = round_
    counting = get_ruleset(rules.preset, {"hand_entry": "counts", "trust_show": winner_too})
    figures = [hand_figures(rules, cut, player) for player in hands]
    entered = [
        player
        if player.outcome == "declared" and not winner_too
        else PlayerHand(player.name, player.outcome, on_deal=player.on_deal, figures=found)
        for player, found in zip(hands, figures, strict=True)
    ]

    by_cards = score_round(rules, cut, hands)
    by_figures = score_round(counting, cut, entered)

    assert figures_of(by_figures) == figures_of(by_cards)


# --- What a hand could give --------------------------------------------------------------


def test_the_most_a_hand_counts_is_ten_a_card() -> None:
    for preset, most in (("21-points", 210), ("13-points", 130), ("13-pool-201", 130)):
        counts = figure_limits(get_ruleset(preset), parse_card("8S")).counts
        assert max(counts) == most
        assert 1 not in counts and set(range(2, most + 1)) <= counts


def test_one_deck_of_21_cards_counts_less_than_210() -> None:
    # One deck, the 10s wild: 15 tens (J Q K A, less the upper joker JS) and 9s, 8s.
    limits = figure_limits(get_ruleset("21-points", {"decks": 1}), parse_card("10S"))
    assert max(limits.counts) == 15 * 10 + 3 * 9 + 3 * 8


def brute_force(roles, worth) -> set[int]:
    """Every worth of every holding of the cards worth something alone or in a marriage:
    slow, and the answer the parts must add up to."""
    cards = [
        card
        for card in all_cards()
        if worth([card] * roles.copies(card)) or card in (roles.marriage or ())
    ]
    cards += [card for card in (roles.effective_cut,) if card not in cards]
    return {
        worth([card for card, count in zip(cards, counts, strict=True) for _ in range(count)])
        for counts in itertools.product(*(range(roles.copies(card) + 1) for card in cards))
        if sum(counts) <= roles.ruleset.hand_size
    }


@pytest.mark.parametrize(
    ("preset", "cut"), [("21-points", "8S"), ("21-paplu", "AS"), ("21-paplu", "KH")]
)
def test_the_value_points_a_hand_can_hold_are_every_holdings(preset: str, cut: str) -> None:
    roles = joker_roles(get_ruleset(preset), parse_card(cut))
    assert value_worths(roles) == brute_force(roles, lambda h: value_holding(h, roles).points)


def test_the_claims_a_hand_can_hold_are_every_holdings() -> None:
    roles = joker_roles(get_ruleset("21-kodai"), parse_card("PJ"))
    assert claim_worths(roles) == brute_force(roles, lambda h: claim_holding(h, roles).points)


def test_21_points_value_points_go_by_tens_with_gaps() -> None:
    values = figure_limits(get_ruleset("21-points"), parse_card("8S")).value_points
    # 3 upper, 2 cut cards (one is on the table), 3 lower: two marriages and a spare
    # upper and lower, 300 + 10 + 10.
    assert max(values) == 320
    assert {0, 10, 20, 30, 100, 110} <= values
    assert not {5, 15, 70, 90, 200} & values


# --- Refusals: each names the field at fault -----------------------------------------------


def refused(preset: str, cut: str, players: list[PlayerHand], **overrides) -> RulesError:
    with pytest.raises(RoundErrors) as raised:
        score(preset, cut, players, **overrides)
    return raised.value


def shown(figures: HandFigures, outcome: str = "shown") -> PlayerHand:
    return PlayerHand("Ben", outcome, figures=figures)


def test_a_negative_count_is_refused() -> None:
    error = refused(
        "21-points",
        "8S",
        [hand("Asha", "declared", WIN_8S), shown(HandFigures(count=-5))],
        **COUNTS,
    )
    assert (error.message, error.field) == (
        "Ben: a count cannot be below 0, not -5",
        "players[1].count",
    )


@pytest.mark.parametrize(("preset", "cut", "win", "count", "most"), [
    ("21-points", "8S", WIN_8S, 211, 210),
    ("13-points", "7C", GUS, 131, 130),
])  # fmt: skip
def test_a_count_above_what_the_cards_can_hold_is_refused(preset, cut, win, count, most) -> None:
    players = [hand("Asha", "declared", win), shown(HandFigures(count=count))]
    error = refused(preset, cut, players, **COUNTS)
    cards = get_ruleset(preset).hand_size
    assert (
        error.message
        == f"Ben: a count of {count} is more than {cards} cards can hold: at most {most}"
    )
    assert error.field == "players[1].count"


def test_a_count_of_one_is_refused() -> None:
    error = refused(
        "13-points", "7C", [hand("Gus", "declared", GUS), shown(HandFigures(count=1))], **COUNTS
    )
    assert error.message == "Ben: no 13 cards count 1: a card counts 2 to 10, a joker 0"


def test_value_points_no_cards_make_are_refused() -> None:
    players = [hand("Asha", "declared", WIN_8S), shown(HandFigures(count=20, value_points=15))]
    error = refused("21-points", "8S", players, **COUNTS)
    assert error.message == (
        "Ben: no 21 cards hold 15 in value points under 21-points: the nearest are 10 and 20"
    )
    assert error.field == "players[1].value_points"
    players[1] = shown(HandFigures(count=20, value_points=330))
    error = refused("21-points", "8S", players, **COUNTS)
    assert error.message.endswith("hold 330 in value points under 21-points: at most 320")


def test_claims_no_cards_make_are_refused() -> None:
    asha = PlayerHand("Asha", "declared", figures=HandFigures(claims=25))
    error = refused("21-kodai", "AH", [asha, shown(HandFigures(count=10))], **TRUSTED)
    assert error.message == (
        "Asha: no 21 cards hold 25 in claims under 21-kodai: the nearest are 20 and 30"
    )
    assert error.field == "players[0].claims"


@pytest.mark.parametrize(("preset", "cut", "win", "figures", "field", "said"), [
    ("13-points", "7C", GUS, HandFigures(count=20, value_points=10), "value_points",
     "value points are not played under 13-points"),
    ("21-points", "8S", WIN_8S, HandFigures(count=20, claims=10), "claims",
     "claims are not played under 21-points"),
    ("21-kodai", "8S", WIN_PLAIN, HandFigures(count=20, claims=10), "claims",
     "only the winner's claims are counted"),
    ("21-kodai", "8S", WIN_PLAIN, HandFigures(two_point=True), "two_point",
     "21-kodai has no two-point hands"),
    ("21-points", "8S", WIN_8S, HandFigures(free_hand=True), "free_hand",
     "21-points has no free hands"),
])  # fmt: skip
def test_figures_the_preset_does_not_use_are_refused(preset, cut, win, figures, field, said):
    error = refused(preset, cut, [hand("Asha", "declared", win), shown(figures)], **COUNTS)
    assert (error.message, error.field) == (f"Ben: {said}", f"players[1].{field}")


@pytest.mark.parametrize(("outcome", "figures", "field", "said"), [
    ("first_drop", HandFigures(count=20), "count",
     "a first drop costs a fixed 30: it has no count"),
    ("middle_drop", HandFigures(value_points=10), "value_points",
     "a middle drop is out of the value card exchange under 21-points"),
    ("invalid_declaration", HandFigures(two_point=True), "two_point",
     "only a shown hand can be a two-point hand"),
])  # fmt: skip
def test_figures_the_outcome_does_not_use_are_refused(outcome, figures, field, said):
    players = [hand("Asha", "declared", WIN_8S), shown(figures, outcome)]
    error = refused("21-points", "8S", players, **COUNTS)
    assert (error.message, error.field) == (f"Ben: {said}", f"players[1].{field}")


def test_a_counted_hand_needs_its_count() -> None:
    players = [hand("Asha", "declared", WIN_8S), shown(HandFigures(value_points=10))]
    error = refused("21-points", "8S", players, **COUNTS)
    assert (error.message, error.field) == (
        "Ben: a counted hand needs its count",
        "players[1].count",
    )


def test_cards_and_figures_for_one_hand_are_refused() -> None:
    both = PlayerHand(
        "Ben", "shown", hand("B", "shown", SEED_BEN).groups, figures=HandFigures(count=102)
    )
    error = refused("21-points", "8S", [hand("Asha", "declared", WIN_8S), both], **COUNTS)
    assert error.message == "Ben: entered both by cards and by a count: give one or the other"
    assert error.field == "players[1].count"


def test_counts_are_refused_where_the_house_rules_take_cards_only() -> None:
    players = [hand("Asha", "declared", WIN_8S), shown(HandFigures(count=64))]
    error = refused("21-points", "8S", players)
    assert error.message == (
        "Ben: hands are entered by their cards: the house rules allow no counts "
        "(Cards or counts: Cards only)"
    )
    assert error.field == "players[1].count"
    assert score("21-points", "8S", players, hand_entry="counts_first").players[1].score == -64


def test_a_winner_without_cards_is_refused_unless_the_show_is_trusted() -> None:
    players = [PlayerHand("Asha", "declared", figures=HandFigures()), shown(HandFigures(count=64))]
    error = refused("21-points", "8S", players, **COUNTS)
    assert error.message == (
        "Asha: a winner is entered by their cards: the house rules do not trust the table's show"
    )
    assert error.field == "players[0].counted"
    # Trusted, even where the losers' hands are entered by their cards.
    loser = hand("Ben", "shown", SEED_BEN)
    trusted = score("21-points", "8S", [players[0], loser], trust_show=True)
    assert [p.score for p in trusted.players] == [92, -92]  # Ben's 102, less his +10


def test_the_round_form_preview_says_a_figure_is_refused_beside_it() -> None:
    rules = get_ruleset("21-points", COUNTS)
    preview = assess_hand(rules, parse_card("8S"), shown(HandFigures(count=211)))
    assert preview.problems == ("a count of 211 is more than 21 cards can hold: at most 210",)
    assert assess_hand(rules, parse_card("8S"), shown(HandFigures(count=64))).hand_points == 64
