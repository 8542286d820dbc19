from __future__ import annotations

import copy
import pickle
import re

import pytest

from games.rules import (
    NOTATION,
    PRINTED_JOKER,
    Card,
    CardError,
    format_groups,
    parse_card,
    parse_groups,
    read_groups,
    spoken_name,
)
from games.rules.cards import all_cards, format_cards, parse_cards


def codes(text: str) -> list[list[str]]:
    return [[card.code for card in group] for group in parse_groups(text)]


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("7H", "7H"),
        ("7h", "7H"),
        ("7♥", "7H"),
        ("7♥\ufe0f", "7H"),
        ("10s", "10S"),
        ("Ts", "10S"),
        ("tS", "10S"),
        ("qd", "QD"),
        ("a♣", "AC"),
        ("k♤", "KS"),
        ("PJ", "PJ"),
        ("pj", "PJ"),
        ("JK", "PJ"),
        ("jk", "PJ"),
        ("*", "PJ"),
    ],
)
def test_every_notation_of_a_card_reads_as_the_same_card(typed, code):
    assert parse_card(typed).code == code


def test_output_is_always_canonical():
    assert format_cards([Card(10, "S"), Card(1, "H"), PRINTED_JOKER, Card(12, "D")]) == (
        "10S AH PJ QD"
    )


def test_card_points_follow_the_face():
    assert [parse_card(c).face_points for c in ("AS", "2S", "9H", "10D", "JC", "QH", "KS")] == [
        10, 2, 9, 10, 10, 10, 10,
    ]  # fmt: skip
    assert PRINTED_JOKER.face_points == 0


@pytest.mark.parametrize("separator", ["|", "/", ";", "\n", " | ", "\r\n"])
def test_groups_split_on_every_separator(separator):
    assert codes(f"5h 6h 7h{separator}8s 8s 8s") == [["5H", "6H", "7H"], ["8S", "8S", "8S"]]


def test_cards_split_by_spaces_commas_or_run_together():
    assert codes("5h,6h, 7h") == [["5H", "6H", "7H"]]
    assert codes("5h6h7h") == [["5H", "6H", "7H"]]
    assert codes("10h10d10c") == [["10H", "10D", "10C"]]
    assert codes("qsPJks") == [["QS", "PJ", "KS"]]
    assert codes("5hJK*") == [["5H", "PJ", "PJ"]]


def test_ranges_expand_within_one_suit():
    assert codes("3-7S") == [["3S", "4S", "5S", "6S", "7S"]]
    assert codes("3s-7s") == [["3S", "4S", "5S", "6S", "7S"]]
    assert codes("A-3H") == [["AH", "2H", "3H"]]  # Ace low at the start
    assert codes("Q-AS") == [["QS", "KS", "AS"]]  # Ace high at the end
    assert codes("9-Jd 2c") == [["9D", "10D", "JD", "2C"]]


@pytest.mark.parametrize("text", ["K-2S", "7-3S", "5-5H", "3H-7S"])
def test_ranges_that_wrap_run_backwards_or_mix_suits_are_errors(text):
    with pytest.raises(CardError) as error:
        parse_groups(text)
    assert error.value.token == text


def test_empty_groups_are_skipped():
    assert codes("| 5h 6h 7h ||\n\n 8d 9d 10d |") == [["5H", "6H", "7H"], ["8D", "9D", "10D"]]
    assert parse_groups("  ") == []


def test_unknown_token_is_named_with_its_place():
    with pytest.raises(CardError) as error:
        parse_groups("5h 6h 7h | 8s XH 8s")
    assert error.value.token == "XH"
    assert (error.value.group, error.value.index, error.value.offset) == (2, 2, 14)
    assert "'XH'" in error.value.message
    assert "group 2, card 2" in error.value.message


def test_reading_around_typos_names_each_in_its_place_and_keeps_the_cards():
    read, typos = read_groups("5h 6X 7h | XH | 8s 3H-7S 9s 1C")

    assert [[card.code for card in group] for group in read] == [["5H", "7H"], [], ["8S", "9S"]]
    assert [(typo.token, typo.group, typo.index) for typo in typos] == [
        ("6X", 1, 2),
        ("XH", 2, 1),  # its group stays, empty: the next one is still group 3
        ("3H-7S", 3, 2),
        ("1C", 3, 4),
    ]
    assert typos[0].message == "'6X' is not a card (group 1, card 2)"
    assert typos[3].message.endswith("(group 3, card 4): write 10 or T for a ten, A for an ace")
    # The parse stops at the first, as it always did.
    with pytest.raises(CardError) as error:
        parse_groups("5h 6X 7h | XH | 8s 3H-7S 9s 1C")
    assert error.value.message == typos[0].message


def test_a_typo_run_into_cards_names_the_whole_word_and_keeps_none_of_its_cards():
    # "ahh" begins with AH; "5h6hx" with 5H 6H: the word is what was mistyped.
    read, typos = read_groups("ahh 3H | 5h6hx 7h")

    assert [[card.code for card in group] for group in read] == [["3H"], ["7H"]]
    assert [(typo.token, typo.group, typo.index, typo.offset) for typo in typos] == [
        ("ahh", 1, 1, 0),
        ("5h6hx", 2, 1, 9),
    ]
    assert typos[0].message == "'ahh' is not a card (group 1, card 1)"


@pytest.mark.parametrize(
    ("text", "hint"),
    [("5h 7", "needs a suit"), ("1H", "write 10 or T"), ("11H", "not a card")],
)
def test_common_typing_mistakes_get_a_hint(text, hint):
    with pytest.raises(CardError) as error:
        parse_groups(text)
    assert hint in error.value.message


@pytest.mark.parametrize("text", ["\u212aH", "7\u017f", "A-J\u017f", "\u212a"])
def test_letters_that_only_look_like_a_rank_or_suit_are_no_card(text):
    # The Kelvin sign and the long s are K and S to a case-blind Unicode match: each was
    # read as a card or, as a rank, failed with a KeyError (a server error).
    with pytest.raises(CardError) as error:
        parse_groups(text)
    assert error.value.token == text


def test_the_browser_gets_the_token_pattern_the_rules_read_with():
    token = NOTATION["token"]
    assert not re.search(r"\s|\(\?P", token)  # no verbose space, no Python-only groups
    assert re.compile(token.replace("(?<", "(?P<")).groupindex.keys() == {
        "joker", "rank", "suit", "first", "first_suit", "last", "last_suit"
    }  # fmt: skip


def test_parse_card_wants_exactly_one_card():
    with pytest.raises(CardError):
        parse_card("7H 8H")
    with pytest.raises(CardError):
        parse_card("")


@pytest.mark.parametrize(
    ("text", "said"),
    [("8X", "'8X' is not a card"), ("8", "'8' is not a card: it needs a suit (S, H, D or C)")],
)
def test_one_card_that_is_not_a_card_is_said_without_a_place_in_groups(text, said):
    # The cut joker is one card: "(group 1, card 1)" would point at groups it has not.
    with pytest.raises(CardError) as error:
        parse_card(text)
    assert error.value.message == said


def test_format_and_parse_round_trip():
    groups = parse_groups("5h6h7h | 10s 10s 10s | PJ qd | A-3C")
    assert format_groups(groups) == "5H 6H 7H | 10S 10S 10S | PJ QD | AC 2C 3C"
    assert parse_groups(format_groups(groups)) == groups


def test_parse_cards_ignores_grouping():
    assert [c.code for c in parse_cards("5h 6h | 7h")] == ["5H", "6H", "7H"]


def test_cards_cannot_be_built_wrong():
    with pytest.raises(ValueError):
        Card(14, "S")
    with pytest.raises(ValueError):
        Card(5, "X")


def test_a_card_typed_any_way_is_the_one_card_of_its_kind():
    assert parse_card("7h") is parse_card("7♥") is Card(7, "H") is Card(rank=7, suit="H")
    assert parse_card("*") is PRINTED_JOKER
    assert Card(7, "H") != Card(7, "S")
    assert len(set(all_cards() + all_cards())) == 53


def test_copied_or_pickled_cards_are_still_the_same_card():
    hand = [Card(10, "D"), PRINTED_JOKER]
    assert copy.copy(hand[0]) is hand[0]
    assert copy.deepcopy(hand) == hand and copy.deepcopy(hand)[0] is hand[0]
    assert all(a is b for a, b in zip(pickle.loads(pickle.dumps(hand)), hand, strict=True))


def test_cards_sort_by_rank_then_suit_letter():
    cards = [Card(10, "S"), Card(1, "H"), PRINTED_JOKER, Card(10, "C"), Card(13, "D")]
    assert format_cards(sorted(cards)) == "PJ AH 10C 10S KD"


@pytest.mark.parametrize(
    ("code", "said"),
    [("AS", "ace of spades"), ("10H", "10 of hearts"), ("QD", "queen of diamonds"),
     ("2C", "2 of clubs"), ("PJ", "printed joker")],
)  # fmt: skip
def test_a_card_is_said_by_its_name(code, said):
    assert spoken_name(parse_card(code)) == said
