"""Declaration ways (docs/rules §4) and the round's input errors (DESIGN.md)."""

from __future__ import annotations

import pytest

from games.rules import (
    RoundErrors,
    RulesError,
    get_ruleset,
    parse_card,
    round_errors,
    score_round,
)
from tests.support.hands import (
    DUBLEES,
    EIGHT_JOKERS,
    GUS,
    JOKER_TUNNELA_MARRIAGES,
    MARRIAGES,
    NINE_JOKERS,
    SIX_DUBLEES,
    TUNNELAS,
    WIN_8S,
    WIN_PLAIN,
)
from tests.support.rules import hand, play


def declaration(preset: str, cut: str, text: str) -> str | None:
    return play(preset, cut, hand("W", "declared", text), hand("L", "first_drop"))["W"].declaration


@pytest.mark.parametrize("preset", ["21-points", "21-paplu", "21-kodai"])
def test_three_pure_sequences_and_the_rest_melded(preset):
    assert declaration(preset, "8S", WIN_PLAIN) == "three_pure"


def test_three_pure_counts_tunnelas_as_pure():
    text = "5H 5H 5H | 6C 6C 6C | 2D 3D 4D | QS QH QC | 9H 10H JH | KS KD PJ | 4C 5C 8H"
    assert declaration("21-points", "8S", text) == "three_pure"


@pytest.mark.parametrize("preset", ["21-points", "21-paplu", "21-kodai"])
def test_three_tunnelas_and_the_rest_free(preset):
    assert declaration(preset, "8S", TUNNELAS) == "tunnelas"


@pytest.mark.parametrize("preset", ["21-points", "21-paplu", "21-kodai"])
def test_eight_dublees_each_its_own_group(preset):
    assert declaration(preset, "8S", DUBLEES) == "dublees"


def test_dublees_inside_one_group_do_not_count():
    text = "2H 2H 3C 3C | 4D 4D | 5S 5S | 6H 6H | JC JC | QD QD | KS KS | AH 3S 10C 10D 9H"
    with pytest.raises(RulesError, match="not valid"):
        declaration("21-points", "8S", text)


@pytest.mark.parametrize("preset", ["21-points", "21-paplu"])
def test_eight_jokers_in_one_group(preset):
    jokers = EIGHT_JOKERS
    if preset == "21-paplu":  # only 8S of the eights is a joker in Paplu
        jokers = "7S 7S 9S 9S PJ PJ 8S 9S | 2H 3C 4D 5S 6H 10C JD QS KH AC 2D 3H 4S"
    assert declaration(preset, "8S", jokers) == "jokers"


def test_kodai_needs_nine_jokers():
    with pytest.raises(RulesError, match="not valid"):
        declaration("21-kodai", "8S", EIGHT_JOKERS)
    assert declaration("21-kodai", "8S", NINE_JOKERS) == "jokers"


@pytest.mark.parametrize("preset", ["21-paplu", "21-kodai"])
def test_two_marriage_groups(preset):
    assert declaration(preset, "8S", MARRIAGES) == "marriages"


def test_paplu_marriage_may_be_three_identical_upper_or_lower_jokers():
    assert declaration("21-paplu", "8S", JOKER_TUNNELA_MARRIAGES) == "marriages"


def test_kodai_marriage_may_be_three_identical_claim_cards():
    text = "PJ PJ PJ | 9S 9S 9S | 2H 5C JD QH 3D 6S 10C KD AH 4C 2C 5D 9H JC 3S"
    assert declaration("21-kodai", "8S", text) == "marriages"


def test_kodai_printed_joker_cut_marriage_is_king_joker_two_of_spades():
    text = "KS PJ 2S | KS PJ 2S | 2H 5C JD QH 3D 6H 10C KD 4H 4C 3C 5D 9H JC 3D"
    assert declaration("21-kodai", "PJ", text) == "marriages"


def test_marriages_are_not_a_way_in_21_points():
    with pytest.raises(RulesError, match="not valid"):
        declaration("21-points", "8S", MARRIAGES)


def test_show13_needs_a_pure_and_a_second_sequence():
    assert declaration("13-points", "7C", GUS) == "show13"
    # Seed 004's wrong show 1: both sequences hold a joker.
    wrong = "3S 4S PJ 6S | JD 2C KD | 8C 8S 8D | AC AD AS"
    with pytest.raises(RulesError, match="not valid"):
        declaration("13-points", "2C", wrong)


def test_show13_with_an_invalid_set_is_wrong():
    # Seed 004's wrong show 2: K♥ K♠ K♥ holds two hearts.
    wrong = "6C 7C 8C 9C | 4D 5D 6D | 3D 3H 3C | KH KS KH"
    with pytest.raises(RulesError) as error:
        declaration("13-points", "JS", wrong)
    assert "KH KS KH" in error.value.message


def test_show13_may_use_a_joker_group_as_the_second_sequence():
    text = "AH 2H 3H | 7D 7S PJ | 9S 9D 9H | 5C 5D 5S 5H"
    assert declaration("13-points", "7C", text) == "show13"


def test_first_way_in_table_order_is_reported():
    # Three tunnelas and the rest melded: both three_pure and tunnelas hold.
    text = "5H 5H 5H | 6C 6C 6C | JD JD JD | 2S 3S 4S | QC QH QD | 9H 10H JH | KC KD KH"
    assert declaration("21-points", "8S", text) == "three_pure"


# --- Input errors -----------------------------------------------------------------------


def errors_of(preset: str, cut: str, *hands) -> list[RulesError]:
    with pytest.raises(RoundErrors) as caught:
        play(preset, cut, *hands)
    return caught.value.errors


def test_a_false_declaration_is_an_input_error_naming_the_player():
    text = WIN_8S.replace("3D 3C 8H", "3D 3C 9D")
    [error] = errors_of(
        "21-points", "8S", hand("Asha", "declared", text), hand("Ben", "first_drop")
    )
    assert error.field == "players[0].groups"
    assert "Asha's declaration is not valid" in error.message
    assert "3D 3C 9D" in error.message


def test_a_wrong_declaration_entered_as_such_is_scored():
    text = WIN_8S.replace("3D 3C 8H", "3D 3C 9D")
    result = play(
        "21-points",
        "8S",
        hand("Asha", "invalid_declaration", text),
        hand("Ben", "declared", WIN_PLAIN),
    )
    assert result["Asha"].hand_points == 120


@pytest.mark.parametrize("outcome", ["declared", "shown", "deal_show"])
def test_a_hand_of_the_wrong_size_is_an_error(outcome):
    short = WIN_8S.replace(" | 3D 3C 8H", " | 3D 3C")
    hands = [hand("Asha", outcome, short), hand("Ben", "declared", WIN_PLAIN)]
    if outcome == "declared":
        hands[1] = hand("Ben", "shown", WIN_PLAIN)
    errors = errors_of("21-points", "8S", *hands)
    assert errors[0].field == "players[0].groups"
    assert "all 21 cards, not 20" in errors[0].message


def test_a_drop_may_give_no_cards_but_never_too_many():
    too_many = WIN_8S + " | 5D"
    errors = errors_of(
        "21-points", "8S", hand("Asha", "declared", WIN_8S), hand("Ben", "middle_drop", too_many)
    )
    assert errors[0].field == "players[1].groups"


@pytest.mark.parametrize(("chens", "copies"), [("KH KH", 4), ("KH KH KH", 5)])
def test_more_copies_than_the_decks_hold_is_an_error(chens: str, copies: int):
    # KH: Asha 1, Ben 1 and Chen's; three decks hold 3. The error stands where the
    # first one too many was typed, and counts every copy entered.
    errors = errors_of(
        "21-points",
        "8S",
        hand("Asha", "declared", WIN_8S),
        hand("Ben", "shown", WIN_PLAIN),
        hand("Chen", "middle_drop", chens),
    )
    assert [e.field for e in errors] == ["players[2].groups[0][1]"]
    assert errors[0].message.startswith(f"KH is entered {copies} times in this round, but 3")


def test_the_cut_card_has_one_copy_fewer():
    # One 8S lies on the table: hands may hold only 2.
    errors = errors_of(
        "21-points",
        "8S",
        hand("Asha", "declared", WIN_8S),
        hand("Ben", "middle_drop", "8S 8S 8S"),
    )
    assert errors[0].field == "players[1].groups[0][2]"
    assert "one more is the cut card" in errors[0].message


def test_13_card_games_hold_two_copies():
    errors = errors_of(
        "13-points", "7C", hand("Gus", "declared", GUS), hand("Hana", "middle_drop", "KC KC")
    )
    assert "KC is entered 3 times" in errors[0].message


def test_two_winners_or_none_are_errors():
    errors = errors_of(
        "21-points", "8S", hand("A", "declared", WIN_8S), hand("B", "declared", WIN_PLAIN)
    )
    assert errors[0].field == "players" and "more than one winner" in errors[0].message
    errors = errors_of("21-points", "8S", hand("A", "shown", WIN_8S), hand("B", "first_drop"))
    assert errors[0].field == "players" and "no winner" in errors[0].message


def test_default_win_needs_everyone_else_out():
    errors = errors_of("21-points", "8S", hand("A", "default_win"), hand("B", "shown", WIN_PLAIN))
    assert errors[0].field == "players[0].outcome"


def test_default_win_takes_every_drop():
    # 30 + 70 = 100 from the two drops.
    result = play(
        "21-points",
        "8S",
        hand("A", "default_win"),
        hand("B", "first_drop"),
        hand("C", "middle_drop"),
    )
    assert [result[n].score for n in "ABC"] == [100, -30, -70]


@pytest.mark.parametrize(
    ("preset", "outcome"),
    [
        ("13-points", "deal_show"),
        ("21-kodai", "declare_timeout"),
        ("21-kodai", "deal_show"),
        ("21-paplu", "declare_timeout"),
    ],
)
def test_outcomes_a_preset_does_not_play_are_errors(preset, outcome):
    cut, win = ("7C", GUS) if preset.startswith("13") else ("8S", WIN_PLAIN)
    errors = errors_of(preset, cut, hand("A", "declared", win), hand("B", outcome))
    assert errors[0].field == "players[1].outcome"
    assert "not played" in errors[0].message


def test_unknown_outcome_and_duplicate_names():
    errors = errors_of("21-points", "8S", hand("A", "declared", WIN_8S), hand("a", "scooted"))
    assert {e.field for e in errors} == {"players[1].name", "players[1].outcome"}


def test_every_error_of_a_round_is_reported_at_once():
    errors = errors_of(
        "21-points",
        "8S",
        hand("A", "declared", WIN_8S.replace("3D 3C 8H", "3D 3C 9D")),
        hand("B", "shown", "2H 3H"),
        hand("C", "middle_drop", "KH KH KH"),
    )
    assert [e.field for e in errors] == [
        "players[1].groups",
        "players[2].groups[0][2]",
        "players[0].groups",
    ]


def test_a_round_not_scored_yet_still_reports_what_can_be_told():
    # A's cards could not be read (a typo in the form), and the cut joker is not known:
    # B's and C's hand sizes and who won can still be told, and nothing about A's cards.
    hands = [hand("A", "shown"), hand("B", "shown", "2H 3H"), hand("C", "shown", "")]
    errors = round_errors(get_ruleset("21-points"), None, hands, unread=[0])
    assert [(e.field, e.message) for e in errors] == [
        ("players[1].groups", "B must show all 21 cards, not 2"),
        ("players[2].groups", "C must show all 21 cards, not 0"),
        ("players", "no winner: one player must have declared (or won by default)"),
    ]
    # An unread hand's outcome is still checked.
    hands[0] = hand("A", "scooted")
    assert round_errors(get_ruleset("21-points"), None, hands, unread=[0])[0].field == (
        "players[0].outcome"
    )


# A false declaration, a short hand and a fourth KH; Must and KH are named like the
# word their error opens with.
THREE_MISTAKES = (
    hand("Asha", "declared", WIN_8S.replace("3D 3C 8H", "3D 3C 9D")),
    hand("Must", "shown", "2H 3H"),
    hand("KH", "middle_drop", "KH KH KH"),
)


def test_an_error_about_a_player_is_said_beside_them_without_their_name():
    # Each keeps the word their error opens with.
    errors = round_errors(get_ruleset("21-points"), parse_card("8S"), THREE_MISTAKES)
    copies = "KH is entered 4 times in this round, but 3 decks hold only 3"
    assert [(e.message, e.beside) for e in errors[:2]] == [
        ("Must must show all 21 cards, not 2", "must show all 21 cards, not 2"),
        (f"{copies}: check KH's group 1", f"{copies}: check group 1"),
    ]
    declared = errors[2]
    assert declared.message.startswith("Asha's declaration is not valid: 4 pure sequences")
    assert declared.beside == "the" + declared.message.removeprefix("Asha's")


def test_an_error_about_a_players_outcome_is_said_beside_them_without_their_name():
    hands = [
        hand("Too", "default_win"),
        hand("Ben", "shown", WIN_PLAIN),
        hand("Holds", "middle_drop", WIN_8S + " | 5D"),
        hand("Unknown", "scooted"),
    ]
    errors = round_errors(get_ruleset("21-points"), parse_card("8S"), hands)
    assert [(e.message, e.beside) for e in errors] == [
        ("Holds holds 22 cards: a hand has 21", "holds 22 cards: a hand has 21"),
        ("Unknown: unknown outcome 'scooted'", "unknown outcome 'scooted'"),
    ]
    del hands[3]
    [default_win] = round_errors(get_ruleset("21-points"), parse_card("8S"), hands[:2])
    assert default_win.message == f"Too {default_win.beside}"
    assert default_win.beside.startswith("cannot win by default while Ben still played")


def test_an_error_about_the_round_is_said_the_same_beside_anyone():
    hands = [hand("A", "shown", WIN_8S), hand("B", "first_drop")]
    [error] = round_errors(get_ruleset("21-points"), parse_card("8S"), hands)
    assert error.message == "no winner: one player must have declared (or won by default)"
    assert error.beside == error.message
    # Several errors behave as the first where one is wanted: its words beside too.
    hands = [hand("Must", "shown", "2H"), hand("B", "declared", WIN_PLAIN)]
    with pytest.raises(RoundErrors) as caught:
        score_round(get_ruleset("21-points"), parse_card("8S"), hands)
    assert caught.value.beside == "must show all 21 cards, not 1"


def test_round_errors_are_what_score_round_refuses():
    errors = round_errors(get_ruleset("21-points"), parse_card("8S"), THREE_MISTAKES)
    refused = errors_of("21-points", "8S", *THREE_MISTAKES)
    assert [e.field for e in errors] == [e.field for e in refused]


# --- Why a declaration is not valid: each way the ruleset allows, in a player's words ---

# The QA walk's hand: three pure sequences, three dublees and six loose cards.
ESHA = "2C 3C 4C | 5D 6D 7D | 8S 9S 10S | QH QH | KC KC | JD JD | 3S 6C 9D 10H KH JH"


def why_not(preset: str, cut: str, text: str, **overrides) -> str:
    """The reason a declared hand is refused, between the name and the advice."""
    rules = get_ruleset(preset, overrides)
    with pytest.raises(RoundErrors) as caught:
        score_round(
            rules, parse_card(cut), [hand("Esha", "declared", text), hand("L", "first_drop")]
        )
    [error] = caught.value.errors
    assert error.message.endswith(
        ". If that is how it was shown, enter it as an invalid declaration"
    )
    return error.message.removeprefix("Esha's declaration is not valid: ").split(". If that")[0]


def test_enough_pure_sequences_are_said_to_be_enough_and_the_loose_cards_named():
    # The dublees are a dublee each (two decks' QH), but no meld: three pure sequences
    # ask every other group to be a set or sequence (docs/rules §4).
    assert why_not("21-points", "AS", ESHA) == (
        "3 pure sequences (enough), but 3S 6C 9D 10H KH JH is no group (neither one suit "
        "for a sequence nor one rank for a set), and QH QH, KC KC and JD JD are dublees, "
        "not allowed in a three-pure declaration; 0 tunnelas (3 needed); 3 dublees "
        "(8 needed); 0 jokers in one group (8 needed)"
    )


def test_too_few_pure_sequences_name_the_groups_that_are_none():
    # Cut 8S: 8C and 7S are jokers, a group of two of them is no group.
    text = "2D 3D 4D | QD QS QC | KH KH | 5D 9D 10H | 6H 6D 4C 2S 3H | 8C 7S | 2C 3C 5C"
    assert why_not("21-points", "8S", text) == (
        "1 pure sequence (3 needed), and 5D 9D 10H, 6H 6D 4C 2S 3H, 8C 7S and 2C 3C 5C are "
        "no groups, and KH KH is a dublee, not allowed in a three-pure declaration; "
        "0 tunnelas (3 needed); 1 dublee (8 needed); 2 jokers in one group (8 needed)"
    )


def test_tunnelas_are_counted_with_the_pure_sequences():
    text = "5H 5H 5H | 6C 6C 6C | 2D 3D 4D | QS QH QC | 9H 10H JH | KS KD PJ | 4C 5C 7C"
    assert why_not("21-kodai", "8S", text) == (
        "4 pure sequences or tunnelas (enough), but 4C 5C 7C is no group (the run has a gap "
        "that no joker fills); 2 tunnelas (3 needed); 0 dublees (8 needed); "
        "0 jokers in one group (9 needed); 0 marriage groups (2 needed)"
    )


def test_only_the_ways_the_rules_allow_are_explained():
    text = SIX_DUBLEES
    assert why_not("21-points", "8S", text, declarations=["dublees"]) == "6 dublees (8 needed)"


def test_a_13_card_show_short_of_sequences():
    # Seed 004's wrong show 1 (cut 2C): both sequences hold a joker.
    text = "3S 4S PJ 6S | JD 2C KD | 8C 8S 8D | AC AD AS"
    assert why_not("13-points", "2C", text) == (
        "0 pure sequences and 2 other sequences (a pure sequence and a second sequence needed)"
    )


def test_a_13_card_show_with_its_sequences_and_a_wrong_set():
    # Seed 004's wrong show 2: K♥ K♠ K♥ holds two hearts.
    text = "6C 7C 8C 9C | 4D 5D 6D | 3D 3H 3C | KH KS KH"
    assert why_not("13-points", "JS", text) == (
        "a pure sequence and a second sequence (enough), but KH KS KH is no group "
        "(a set needs a different suit for every natural card)"
    )


def test_a_13_card_show_has_no_dublees():
    text = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7H | 4C 4C | KC"
    assert why_not("13-points", "7C", text) == (
        "a pure sequence and a second sequence (enough), but 4C 4C is no group (a set or "
        "sequence needs at least 3 cards), and KC is no group (a set or sequence needs at "
        "least 3 cards)"
    )
