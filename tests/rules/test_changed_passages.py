"""The passages of docs/rules §3–§6 that now follow the Paplu (seed 003) and Kodai
(seed 002) texts exactly, each quoted, with hand-checked numbers.

Each rule is an option of the ruleset, on only in its preset; every test shows the
preset's figure and, where it helps, the figure with the option switched off.
"""

from __future__ import annotations

import pytest

from games.rules import PRESETS, Kind, PlayerHand, RoundErrors, classify, parse_groups
from games.rules.arrange import arrange
from games.rules.scoring import assess_hand
from tests.support.hands import (
    DUBLEES,
    EIGHT_JOKERS,
    LOOSE_148,
    ONE_PURE,
    SEVEN_DOUBLES,
    SEVEN_JOKERS,
    SIX_DUBLEES,
    THREE_PURE_LOSER,
    WIN_8S,
    WIN_MARRIAGE,
    WIN_PLAIN,
)
from tests.support.rules import cards, hand, play, roles


def on_deal(name: str, text: str) -> PlayerHand:
    """A declared winner marked as winning on the deal."""
    return PlayerHand(name, "declared", tuple(tuple(g) for g in parse_groups(text)), True)


def errors_of(preset: str, cut: str, *hands, **overrides) -> list:
    with pytest.raises(RoundErrors) as caught:
        play(preset, cut, *hands, **overrides)
    return caught.value.errors


# --- §3 "In 21-kodai the player may also count it as a rummy" ------------------------------
# Cut AH: jokers are every Ace, KH (lower), 2H (upper) and PJ; KH AH 2H is the marriage.

KA2 = "KH AH 2H"
# KA2, two natural rummies, three sets and three loose cards (5 + 10 + 4 = 19).
KA2_LOSER = "KH AH 2H | 3C 4C 5C | 6D 7D 8D | QC QD QS | 9S 9D 9C | JH JS JD | 5S 10C 4D"
# KA2 and two natural rummies are three pure groups; the rest are a set, two sets with
# a joker and an impure run (5S 6S with the joker AS).
KA2_WINNER = "KH AH 2H | 3C 4C 5C | 6D 7D 8D | QC QD QS | 9S 9D 9C | JH JS JD | 5S 6S AS"


@pytest.mark.parametrize(
    ("preset", "kind"),
    [
        # "K A 2 of the cut suit with an Ace cut is a marriage. In 21-points and 21-paplu
        # it is never a pure sequence ... but it is still a valid meld, shown as
        # impure_sequence".
        ("21-points", Kind.IMPURE_SEQUENCE),
        ("21-paplu", Kind.IMPURE_SEQUENCE),
        # "In 21-kodai the player may also count it as a rummy, i.e. as a pure_sequence".
        ("21-kodai", Kind.PURE_SEQUENCE),
    ],
)
def test_k_a_2_with_an_ace_cut_is_a_rummy_only_in_kodai(preset, kind):
    assert classify(cards(KA2), roles(preset, "AH")) == kind
    # The option off, Kodai reads it as the others do.
    off = roles("21-kodai", "AH", ace_marriage_pure=False)
    assert classify(cards(KA2), off) == Kind.IMPURE_SEQUENCE


def test_only_an_ace_cut_makes_k_a_2_a_rummy():
    # A printed joker cut plays as A♠, but its Kodai marriage is K♠ PJ 2♠, and K♠ A♠ 2♠
    # wraps round the Ace: "K A 2 is never a sequence".
    assert classify(cards("KS AS 2S"), roles("21-kodai", "PJ")) == Kind.JOKER_GROUP
    # Any other suit's K A 2 stays invalid (AD is a joker, KD and 2D are not).
    assert classify(cards("KD AD 2D"), roles("21-kodai", "AH")) == Kind.INVALID


def test_kodai_k_a_2_makes_the_third_pure_group_of_a_declaration():
    # Pure: KH AH 2H (as a rummy), 3C 4C 5C, 6D 7D 8D = 3; every group valid.
    winner = play("21-kodai", "AH", hand("W", "declared", KA2_WINNER), hand("L", "first_drop"))
    assert winner["W"].declaration == "three_pure"
    assert "KH AH 2H: the K A 2 marriage counted as a rummy (Ace cut)" in winner["W"].breakdown
    # Without the option only 2 pure groups: no declaration.
    [error] = errors_of(
        "21-kodai",
        "AH",
        hand("W", "declared", KA2_WINNER),
        hand("L", "first_drop"),
        ace_marriage_pure=False,
    )
    assert "2 pure sequences (3 needed)" in error.message


def test_kodai_loser_counts_k_a_2_as_a_rummy_where_it_helps():
    def loser(preset: str, **overrides):
        return play(
            preset,
            "AH",
            hand("W", "declared", WIN_PLAIN),
            hand("L", "shown", KA2_LOSER),
            **overrides,
        )["L"]

    # Kodai, P = 3 (KA2, 3C-5C, 6D-8D): every valid meld is left out, 5S 10C 4D = 19.
    assert loser("21-kodai").hand_points == 19
    # Option off, P = 2: Kodai leaves out only tunnelas and 4+ card rummies, so
    # 0 (jokers) + 12 + 21 + 30 + 27 + 30 + 19 = 139, capped at 100.
    assert loser("21-kodai", ace_marriage_pure=False).hand_points == 100
    # 21-points and 21-paplu, P = 2: only the two rummies are left out:
    # 0 + 30 + 27 + 30 + 19 = 106.
    assert loser("21-points").hand_points == 106
    assert loser("21-paplu").hand_points == 106


def test_the_solver_finds_k_a_2_as_a_rummy_in_kodai_only():
    # The winner's 21 cards in any order: Kodai arranges a three-pure declaration, the
    # others find none (KA2 is not pure there).
    shuffled = cards(KA2_WINNER)[::-1]
    assert arrange(PRESETS["21-kodai"], cards("AH")[0], shuffled).declaration == "three_pure"
    assert arrange(PRESETS["21-points"], cards("AH")[0], shuffled).declaration is None


# --- §4 "On the deal (21-kodai, seed 002 appendix A)" --------------------------------------
# Cut 8S: jokers 8C 8D 8H 8S, 7S, 9S, PJ.


def test_seven_dublees_win_on_the_deal():
    # "the dublees way then needs 7 dublee groups instead of 8".
    result = play("21-kodai", "8S", on_deal("W", SEVEN_DOUBLES), hand("L", "middle_drop"))
    assert result["W"].declaration == "dublees"
    assert result["W"].on_deal
    assert result["W"].breakdown == ("declared: dublees", "on the deal: 7 dublees")
    # The winner holds no claim card: the middle drop adds 60, the winner 0.
    assert (result["W"].score, result["L"].score) == (0, 60)


def test_eight_jokers_win_on_the_deal():
    # "and the jokers way 8 jokers instead of 9".
    result = play("21-kodai", "8S", on_deal("W", EIGHT_JOKERS), hand("L", "first_drop"))
    assert result["W"].declaration == "jokers"
    assert "on the deal: 8 jokers in one group" in result["W"].breakdown
    # Claims: PJ PJ 7S 9S are claim cards, no 8S so no marriage: 4 × 10 = 40.
    # The first drop adds 30 + 40 = 70.
    assert (result["L"].claims, result["L"].score) == (40, 70)


def test_after_the_first_pick_kodai_still_needs_8_dublees_and_9_jokers():
    for text in (SEVEN_DOUBLES, EIGHT_JOKERS):
        [error] = errors_of("21-kodai", "8S", hand("W", "declared", text), hand("L", "first_drop"))
        assert "declaration is not valid" in error.message
    # The message says a win on the deal would have been enough.
    [error] = errors_of(
        "21-kodai", "8S", hand("W", "declared", SEVEN_DOUBLES), hand("L", "first_drop")
    )
    assert "7 dublees (8 needed, 7 if won on the deal)" in error.message
    # Eight dublees win at any time, and on the deal too.
    for winner in (hand("W", "declared", DUBLEES), on_deal("W", DUBLEES)):
        assert play("21-kodai", "8S", winner, hand("L", "first_drop"))["W"].declaration == "dublees"


def test_six_dublees_do_not_win_even_on_the_deal():
    [error] = errors_of("21-kodai", "8S", on_deal("W", SIX_DUBLEES), hand("L", "first_drop"))
    assert "6 dublees (7 needed on the deal)" in error.message


@pytest.mark.parametrize("preset", ["21-points", "21-paplu"])
def test_on_deal_anywhere_else_is_an_input_error(preset):
    # "`on_deal` anywhere else ... is an input error" (the option is absent there).
    [error] = errors_of(preset, "8S", on_deal("W", WIN_PLAIN), hand("L", "first_drop"))
    assert error.field == "players[0].on_deal"
    assert error.message == f"W: winning on the deal is not played under {preset}"


def test_on_deal_on_any_other_outcome_is_an_input_error():
    # "... as it is on any outcome but declared".
    loser = PlayerHand("L", "middle_drop", (), True)
    [error] = errors_of("21-kodai", "8S", hand("W", "declared", WIN_PLAIN), loser)
    assert error.field == "players[1].on_deal"
    assert "only a declared winner wins on the deal" in error.message


def test_the_on_deal_counts_are_options():
    # A league may ask for 8 dublees on the deal too: the 7 no longer win.
    [error] = errors_of(
        "21-kodai", "8S", on_deal("W", SEVEN_DOUBLES), hand("L", "first_drop"), on_deal_dublees=8
    )
    assert "7 dublees (8 needed on the deal)" in error.message


def test_the_solver_arranges_a_hand_won_on_the_deal():
    hand_cards = cards(SEVEN_DOUBLES)[::-1]
    kodai, cut = PRESETS["21-kodai"], cards("8S")[0]
    assert arrange(kodai, cut, hand_cards, on_deal=True).declaration == "dublees"
    assert arrange(kodai, cut, hand_cards).declaration is None


# --- §5 "21-paplu deal show ... a fixed 60, whatever the hand holds, plus value points" ----
# Cut 8S in Paplu: jokers 8S, 7S (Taplu), 9S (Paplu), PJ; 8C 8D 8H are natural.
# Value cards: 7S, 9S, PJ, AS, 2C 20 each, 8S 10, a marriage 100.


def test_paplu_deal_show_costs_a_fixed_60_plus_value_points():
    result = play(
        "21-paplu", "8S", hand("W", "declared", WIN_PLAIN), hand("A", "deal_show", ONE_PURE)
    )
    # ONE_PURE counts 113 in Paplu (21-points' deal show would halve it); Paplu: 60.
    # Its value cards 7S 20 + 2C 20 = 40 come from the winner, who holds none.
    assert result["A"].hand_points == 60
    assert "deal show: a fixed 60, whatever the hand holds" in result["A"].breakdown
    assert (result["A"].value_points, result["A"].score) == (40, -60 + 40)
    assert result["W"].score == 60 - 40
    # 21-points: half the count 105 (8C is a joker there), 52.
    loser = play(
        "21-points", "8S", hand("W", "declared", WIN_PLAIN), hand("A", "deal_show", ONE_PURE)
    )
    assert loser["A"].hand_points == 52


def test_paplu_deal_show_is_60_even_for_a_two_point_hand():
    # 21-points: "a two-point hand still loses 2"; Paplu: 60 "whatever the hand holds".
    # THREE_PURE_LOSER holds a PJ (20), received from the winner: −60 + 20 = −40.
    def dealt(preset: str):
        return play(
            preset, "8S", hand("W", "declared", WIN_PLAIN), hand("B", "deal_show", THREE_PURE_LOSER)
        )["B"]

    assert (dealt("21-paplu").hand_points, dealt("21-paplu").score) == (60, -40)
    assert dealt("21-points").hand_points == 2


def test_paplu_deal_show_is_an_option():
    # Off (Paplu's earlier preset): deal_show is not an outcome of Paplu.
    [error] = errors_of(
        "21-paplu", "8S", hand("W", "declared", WIN_PLAIN), hand("A", "deal_show", ONE_PURE),
        deal_show=False,
    )  # fmt: skip
    assert error.field == "players[1].outcome"
    # No fixed cost: half the count 113 = 56, within 2..60.
    loser = play(
        "21-paplu", "8S", hand("W", "declared", WIN_PLAIN), hand("A", "deal_show", ONE_PURE),
        deal_show_fixed=None,
    )["A"]  # fmt: skip
    assert loser.hand_points == 56


# --- §5 "21-paplu has its own list (seed 003)" of two-point hands ---------------------------


def shown_paplu(text: str, win: str = WIN_PLAIN, **overrides):
    return play(
        "21-paplu", "8S", hand("W", "declared", win), hand("L", "shown", text), **overrides
    )["L"]


def test_paplu_seven_dublees_lose_two():
    # "7 Dublees: If you have seven dublees, then you will get a penalty of 2 points".
    loser = shown_paplu(SEVEN_DOUBLES)
    assert loser.hand_points == 2
    assert "two-point hand (7 dublees): loses 2" in loser.breakdown


def test_paplu_six_dublees_count_in_full():
    # "Six dublees are not enough there": no pure group, every card counts:
    # 2H 2H 4 + 3C 3C 6 + 4D 4D 8 + 5S 5S 10 + 6H 6H 12 + JC JC 20
    # + QD 10C 9H KS AH 3S 10D 4C 5H 71 = 131 (within the 250 cap).
    assert shown_paplu(SIX_DUBLEES).hand_points == 131
    # With the count of 21-points (6 dublees), 2.
    assert shown_paplu(SIX_DUBLEES, two_point_dublees=6).hand_points == 2


def test_paplu_seven_jokers_are_a_full_hand_penalty_eight_lose_two():
    # "Seven jokers in hand do not qualify as free hand ... it will result in a full
    # hand penalty": the other 14 cards count
    # 2+3+4+5+6+10+10+10+10+10+2+3+4+5 = 84.
    seven = SEVEN_JOKERS.replace("8C 8D 8H 7S 9S PJ PJ", "7S 7S 9S 9S PJ PJ 8S")
    assert shown_paplu(seven, win=DUBLEES).hand_points == 84
    # An all-joker group of 8 (7S 7S 7S 9S 9S 9S PJ PJ) loses 2.
    eight = "7S 7S 7S 9S 9S 9S PJ PJ | 2H 3C 4D 5S 6H 10C JD QS KH AC 2D 3H 4S"
    assert shown_paplu(eight, win=DUBLEES).hand_points == 2


# --- §6 "21-paplu value payments follow seed 003's drop rules" -------------------------------


def paplu_round(**overrides):
    """W declares (V 100); F drops first holding PJ PJ 2C (V 40 + 20 = 60); M drops
    later holding 9S AS (V 20 + 20 = 40); L shows LOOSE_148 (148 points, 2C: V 20)."""
    return play(
        "21-paplu",
        "8S",
        hand("W", "declared", WIN_MARRIAGE),
        hand("F", "first_drop", "PJ PJ 2C"),
        hand("M", "middle_drop", "9S AS 5D"),
        hand("L", "shown", LOOSE_148),
        **overrides,
    )


def test_a_first_drop_pays_the_declarer_only_and_receives_at_most_40():
    # "a first_drop pays 'the declarer' only, and never pays a wrong declarer or
    # another drop"; "a first_drop receives at most 40 from each payer".
    result = paplu_round()
    assert result["F"].paid_to == (("W", 100),)
    assert "first drop: pays the declarer only, receives at most 40 from each" in (
        result["F"].breakdown
    )
    # F's 60 is cut to 40 from W, M and L alike (L's 40 is cut again by L's cap below).
    assert ("F", 40) in result["W"].paid_to and ("F", 40) in result["M"].paid_to


def test_a_middle_drop_pays_everyone_and_receives_from_all_but_first_drops():
    # "middle_drop and invalid_declaration pay every other player"; "A middle drop
    # receives from everyone but first drops."
    result = paplu_round()
    assert result["M"].paid_to == (("W", 100), ("F", 40), ("L", 20))
    # M receives 40 from W and 22 from L (capped, below), nothing from F.
    assert not any(name == "M" for name, _ in result["F"].paid_to)
    assert result["M"].value_points == 40 + 22 - 160


def test_the_cap_limits_what_a_loser_pays_not_what_they_receive():
    # "The 250 cap in 21-paplu limits what a loser pays, not what they receive: hand
    # points ... are paid first, then the value payments they owe, reduced in
    # proportion". L owes W 100 + F 40 + M 40 = 180 on top of 148: 328 > 250, so the
    # payments share 250 − 148 = 102: 100·102/180 = 56.7, 40·102/180 = 22.7 twice →
    # 56 + 22 + 22 = 100; the 2 odd points go to the largest remainders (all equal,
    # 120/180), in seat order: W 57, F 23, M 22.
    result = paplu_round()
    assert result["L"].paid_to == (("W", 57), ("F", 23), ("M", 22))
    assert result["L"].hand_points + result["L"].value_paid == 250
    # What L receives is not capped: 20 from W and 20 from M (not from F, a first drop).
    assert result["L"].value_points == 40 - 102


def test_the_drop_rules_round_in_full_sums_to_zero():
    # Value points, received − paid:
    #   W: F 100 + M 100 + L 57 − (F 40 + M 40 + L 20) = 257 − 100 = +157
    #   F: W 40 + M 40 + L 23 − W 100 = 103 − 100 = +3
    #   M: W 40 + L 22 − (W 100 + F 40 + L 20) = 62 − 160 = −98
    #   L: W 20 + M 20 − 102 = −62
    # Scores: W 30 + 60 + 148 + 157 = 395; F −30 + 3 = −27; M −60 − 98 = −158;
    # L −148 − 62 = −210. 395 − 27 − 158 − 210 = 0.
    result = paplu_round()
    assert [result[n].value_points for n in "WFML"] == [157, 3, -98, -62]
    assert [result[n].score for n in "WFML"] == [395, -27, -158, -210]
    # 21-points' exchange instead (the option off): the drops are out, W and L trade
    # 100 and 20: W +80, L −80; L's 250 cap still holds (148 + 100).
    old = paplu_round(value_payments="players_in", first_drop_receives=None)
    assert [old[n].value_points for n in "WFML"] == [80, 0, 0, -80]


def test_a_wrong_declarer_pays_everyone_but_is_not_paid_by_a_first_drop():
    # "never pays a wrong declarer". W V 0; F holds PJ (V 20); X (wrong, 120) holds
    # 9S 9S (V 40). F pays nobody (it would pay only W, who holds nothing); W pays F
    # 20 and X 40; X pays F 20 and receives only from W. W: −60; F: 20 + 20 = +40;
    # X: 40 − 20 = +20.
    wrong = "2D 3D 4D | 9C 10C JC | QH KH AH | 5H 6H 7H | KC KC | 6C 7C 9D 10S | 9S 9S"
    result = play(
        "21-paplu",
        "8S",
        hand("W", "declared", WIN_PLAIN),
        hand("F", "first_drop", "PJ"),
        hand("X", "invalid_declaration", wrong),
    )
    assert result["F"].paid_to == ()
    assert result["X"].paid_to == (("F", 20),)
    assert [result[n].value_points for n in "WFX"] == [-60, 40, 20]


def test_a_default_win_has_no_value_points_and_every_drop_pays_30():
    # "default_win in 21-paplu ("Only Winner, no declarer"): no value points at all;
    # every dropping player pays the winner 30 points, whatever kind of drop it was."
    # W holds a marriage, the drops value cards: none of it is paid. A wrong declarer
    # still pays 120. W: 30 + 30 + 120 = 180.
    result = play(
        "21-paplu",
        "8S",
        hand("W", "default_win", "7S 8S 9S"),
        hand("A", "first_drop", "PJ"),
        hand("B", "middle_drop", "9S"),
        hand("C", "invalid_declaration", "AS 2C"),
    )
    assert [result[n].hand_points for n in "ABC"] == [30, 30, 120]
    assert [result[n].value_points for n in "WABC"] == [0, 0, 0, 0]
    assert [result[n].score for n in "WABC"] == [180, -30, -30, -120]
    assert "won by default: no value points" in result["W"].breakdown
    assert "won by default by W: every drop pays 30" in result["B"].breakdown
    # 21-points: a middle drop pays its own 70.
    points = play(
        "21-points",
        "8S",
        hand("W", "default_win"),
        hand("A", "first_drop"),
        hand("B", "middle_drop"),
    )
    assert [points[n].score for n in "WAB"] == [100, -30, -70]


def test_a_first_drop_of_21_points_still_exchanges_nothing():
    # 21-points keeps its exchange among players still in (seed 000).
    result = play(
        "21-points", "8S", hand("W", "declared", WIN_8S), hand("F", "first_drop", "9S 9S 7S")
    )
    assert [result[n].value_points for n in "WF"] == [0, 0]


def test_assessing_a_hand_reads_the_new_rules_too():
    # The live preview: a Paplu deal show costs 60, a Kodai K A 2 is a rummy.
    paplu = assess_hand(PRESETS["21-paplu"], cards("8S")[0], hand("A", "deal_show", ONE_PURE))
    assert paplu.hand_points == 60
    kodai = assess_hand(PRESETS["21-kodai"], cards("AH")[0], hand("W", "declared", KA2_WINNER))
    assert kodai.declaration == "three_pure"
