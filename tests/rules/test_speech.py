"""The rules' words (games/rules/speech.py): English as written until the app installs
its gettext, then every message the rules give a player in the player's language."""

from __future__ import annotations

import ast
import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from games.rules import (
    JOIN,
    LEAVE,
    OPTION_NAMES,
    OPTION_SECTIONS,
    OUTCOMES,
    PRESET_NAMES,
    PRESETS,
    REJOIN,
    SUIT_SYMBOLS,
    Card,
    HandFigures,
    Kind,
    PlayerHand,
    RoundErrors,
    RulesError,
    Ruleset,
    SeatChange,
    Seating,
    all_cards,
    arrange,
    assess_hand,
    card_label,
    change_take_back_problem,
    choice_label,
    choice_words,
    describe_preset,
    get_ruleset,
    house_rule_changes,
    option_help,
    option_label,
    option_text,
    outcome_label,
    parse_card,
    parse_cards,
    read_groups,
    round_errors,
    score_round,
    session_state,
    settle,
    speech,
    spoken_name,
    suit_name,
    take_back_problem,
    why_no_group,
)
from games.rules.api import parse_round
from games.rules.counted import figure_errors
from games.rules.melds import joker_roles
from games.rules.outcomes import outcome_words
from games.rules.rulesets import CHOICE_LABELS, DECLARATION_WAYS
from games.rules.speech import join_words
from games.rules.totals import SEAT_CHANGES
from tests.support.examples import CASES
from tests.support.hands import (
    DUBLEES,
    EIGHT_JOKERS,
    FOUR_PURE,
    JOKER_TUNNELA_MARRIAGES,
    LOOSE_148,
    MARRIAGES,
    ONE_PURE,
    PAPLU_ROUND,
    SEVEN_DOUBLES,
    SEVEN_JOKERS,
    SHOWN_8S,
    SIX_DUBLEES,
    THREE_PURE_LOSER,
    TUNNELAS,
    VALUE_C,
    WIN_8S,
    WIN_13,
    WIN_MARRIAGE,
    ZERO_COUNT,
)
from tests.support.pseudo_locale import english_words, pseudo_locale, widened
from tests.support.rules import hand

RULES = Path(__file__).resolve().parents[2] / "games" / "rules"


def test_without_a_translator_the_rules_speak_the_english_as_written():
    with speech.english():
        assert speech.gettext("{name}: {problem}") == "{name}: {problem}"
        assert speech.ngettext("{count} dublee", "{count} dublees", 1) == "{count} dublee"
        assert speech.ngettext("{count} dublee", "{count} dublees", 0) == "{count} dublees"
        assert speech.gettext_noop("Cards per hand") == "Cards per hand"


def test_an_installed_translator_says_every_message_and_is_put_back_after():
    before = speech.gettext("Cards per hand")
    with pseudo_locale() as locale:
        assert speech.gettext("Cards per hand") == "⟦Ｃａｒｄｓ ｐｅｒ ｈａｎｄ⟧"
        assert speech.ngettext("{count} dublee", "{count} dublees", 2) == widened("{count} dublees")
        # A constant marked for the catalogue is translated where it is read, not here.
        assert speech.gettext_noop("Cards per hand") == "Cards per hand"
    assert locale.asked == {"Cards per hand", "{count} dublee", "{count} dublees"}
    assert speech.gettext("Cards per hand") == before


def test_a_list_reads_as_a_sentence_lists_it():
    with speech.english():
        assert speech.join_words([]) == ""
        assert speech.join_words(["Asha"]) == "Asha"
        assert speech.join_words(["Asha", "Ben"]) == "Asha and Ben"
        assert speech.join_words(["Asha", "Ben", "Chitra", "Dev"]) == "Asha, Ben, Chitra and Dev"
        assert speech.list_words(["Asha", "Ben", "Chitra"]) == "Asha, Ben, Chitra"
        assert speech.list_words(["Asha"]) == "Asha"


def test_a_language_joins_a_list_its_own_way():
    with pseudo_locale():
        joined = speech.join_words(["Asha", "Ben", "Chitra"])
    assert joined == "⟦Asha, ⟦Ben ａｎｄ Chitra⟧⟧"
    assert english_words(joined, ["Asha", "Ben", "Chitra"]) == []


def test_the_english_of_the_command_line_holds_whatever_is_installed():
    with pseudo_locale() as locale, speech.english():
        said = speech.gettext("{name}: {problem}")
    assert said == "{name}: {problem}"
    assert locale.asked == set()


def test_the_pseudo_locale_tells_untranslated_words_from_names_and_cards():
    text = "⟦Asha ｈｏｌｄｓ⟧ 7H 10S PJ A♠ in 21-points, holds"
    assert english_words(text, ["Asha", "21-points"]) == ["in", "holds"]


# --- The pseudo-locale: every word the rules say to a player is translated -------------


@dataclass(frozen=True)
class Said:
    """A text the rules gave, where from, and the values it quotes that no language
    translates (the players' names, a typo as typed, an option's name)."""

    where: str
    text: str
    values: tuple[str, ...] = ()


# Values any sentence may quote as they are: the presets' and the options' names (a
# refused override names its option, which the house-rules form replaces with the label).
QUOTED = (*PRESETS, *OPTION_NAMES)


def labels() -> Iterator[Said]:
    """Every label: options, choices, outcomes, group kinds, cards, presets."""
    for name in ("preset", *OPTION_NAMES):
        yield Said("option label", option_label(name))
        yield Said("option help", option_help(name))
    for value in CHOICE_LABELS:
        yield Said("choice", choice_label(value))
        yield Said("choice in a sentence", choice_words(value))
    for value in (True, False, None, (), ("three_pure", "show13")):
        yield Said("option value", option_text(value))
    for outcome in OUTCOMES:
        yield Said("outcome", outcome_label(outcome))
        yield Said("outcome in a sentence", outcome_words(outcome))
    for kind in Kind:
        yield Said("kind", kind.label)
    for card in all_cards():
        yield Said("card", card_label(card))
        yield Said("card said", spoken_name(card))
    for preset in PRESETS:
        yield Said("preset", describe_preset(preset))
    # A preset whose only joker is the cut card: none is, but one could be.
    plain = dataclasses.replace(PRESETS["21-paplu"], upper_lower_jokers=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(PRESETS, "plain", plain)
        yield Said("preset", describe_preset("plain"))
    changed = get_ruleset(
        "21-points",
        {"first_drop": 25, "deal_show": False, "declarations": ["three_pure"], "deal_show_max": 50}
        | {"declare_timeout": None, "counting": "kodai"},
    )
    yield from (Said("house rules", change) for change in house_rule_changes(changed))


# Overrides refused, each with the values its refusal quotes.
REFUSED_OVERRIDES = [
    ({"first_drop": -1}, ()),
    ({"decks": 9}, ()),
    ({"first_drop": "30"}, ()),
    ({"hand_size": 15}, ()),
    ({"deal_show": 1}, ()),
    ({"counting": "fast"}, ("standard", "kodai", "fast")),
    ({"declarations": ["quick"]}, (*DECLARATION_WAYS, "quick")),
    ({"declarations": "three_pure"}, ("three_pure",)),
    ({"declarations": []}, ()),
    ({"value_cut": [10, 20]}, ()),
    ({"value_extra_cards": [7]}, ()),
    ({"value_extra_cards": ["ZZ"]}, ("ZZ",)),
    ({"deal_show_min": 70}, ()),
    ({"colour": "red"}, ("colour",)),
]


def refusals_of_rules() -> Iterator[Said]:
    for overrides, values in REFUSED_OVERRIDES:
        with pytest.raises(RulesError) as refused:
            get_ruleset("21-paplu", overrides)
        yield Said(f"override {overrides}", refused.value.message, values)
    for preset in ("22-points", None):
        with pytest.raises(RulesError) as refused:
            get_ruleset(preset)
        yield Said(f"preset {preset}", refused.value.message, ("22-points", "None"))
    with pytest.raises(RulesError) as refused:
        get_ruleset("21-points", ["first_drop"])
    yield Said("overrides not an object", refused.value.message)


TYPOS = ("7H zz", "Q", "1H", "3H-7S", "7-3S")


def typos() -> Iterator[Said]:
    """Card notation that is no card, in a group and alone."""
    for text in TYPOS:
        _groups, errors = read_groups(text)
        for error in errors:
            yield Said(f"typo {text!r}", error.message, (error.token,))
            yield Said(f"typo {text!r} alone", error.unplaced, (error.token,))
    with pytest.raises(RulesError) as refused:
        parse_card("7H 8H")
    yield Said("two cuts", refused.value.message)


# Groups that are no meld, and the rules that judge them.
NO_GROUPS = [
    ("21-points", {"printed_joker_dublee": False}, "PJ PJ"),
    ("21-points", {}, "5H 6H"),
    ("13-points", {}, "5H 6H"),
    ("21-paplu", {}, "PJ PJ PJ"),
    ("13-points", {}, "3H 3H 3H"),
    ("21-points", {}, "5H 5H 5D"),
    ("21-points", {}, "5H 5D 5C 5S PJ"),
    ("21-points", {}, "5H 6H 6H"),
    ("13-points", {}, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH PJ"),
    ("21-points", {}, "AH 2H 5H"),
    ("21-points", {}, "4H 5H 10H"),
    ("21-points", {}, "4H 5D 10C"),
]


def no_groups() -> Iterator[Said]:
    for preset, overrides, text in NO_GROUPS:
        roles = joker_roles(get_ruleset(preset, overrides), parse_card("8S"))
        yield Said(f"no group {text}", why_no_group(parse_cards(text), roles))


def round_words(where: str, table: Table) -> Iterator[Said]:
    """Everything the rules say of a round: its breakdown and rules or its refusals,
    each hand judged on its own, and each full hand arranged. A refusal may quote an
    outcome as entered ("unknown outcome 'bogus'", "outcome deal_show is not played")."""
    outcomes = tuple(player.outcome for player in table.hands)
    rules, cut, hands = table.rules, table.cut, table.hands
    try:
        result = score_round(rules, cut, hands)
    except RoundErrors as refused:
        for error in refused.errors:
            yield Said(f"{where}: refusal", error.message, outcomes)
            yield Said(f"{where}: beside", error.beside, outcomes)
    else:
        for player in result.players:
            yield from (Said(f"{where}: breakdown", line) for line in player.breakdown)
            yield Said(f"{where}: rule", player.rule_applied or "")
            yield from (Said(f"{where}: kind", group.kind.label) for group in player.groups)
    for error in round_errors(rules, None, hands, unread=[0]):
        yield Said(f"{where}: without the cut", error.message, outcomes)
    for player in hands:
        judged = assess_hand(rules, cut, player)
        for line in (*judged.lines, *judged.problems, judged.rule_applied or ""):
            yield Said(f"{where}: preview", line, outcomes)
        if player.figures is None and len(player.cards) == rules.hand_size:
            try:
                lines = arrange(rules, cut, player.cards, player.on_deal).lines
            except RulesError as refused:  # more copies of a card than the decks hold
                lines = (refused.message,)
            yield from (Said(f"{where}: arranged", line) for line in lines)


@dataclass(frozen=True)
class Table:
    """A round as entered: the rules (a preset and house rules), the cut, the hands."""

    rules: Ruleset
    cut: Card
    hands: tuple[PlayerHand, ...]


def table(preset: str, cut: str, *hands: PlayerHand, **overrides: object) -> Table:
    return Table(get_ruleset(preset, overrides), parse_card(cut), hands)


def asha(outcome: str, text: str = "") -> PlayerHand:
    return hand("Asha", outcome, text)


def ben(outcome: str, text: str = "") -> PlayerHand:
    return hand("Ben", outcome, text)


def chen(outcome: str, text: str = "") -> PlayerHand:
    return hand("Chen", outcome, text)


def esha(outcome: str, text: str = "") -> PlayerHand:
    return hand("Esha", outcome, text)


def on_deal(player: PlayerHand) -> PlayerHand:
    return dataclasses.replace(player, on_deal=True)


def counted(player: PlayerHand, **figures: object) -> PlayerHand:
    return dataclasses.replace(player, groups=(), figures=HandFigures(**figures))


WIN = asha("declared", WIN_8S)
# A loser holding the cut card 8S outside a marriage: a spare cut card.
SPARE_CUT = SHOWN_8S.replace("AS 7S", "AS 8S")
WIN_13_CARDS = asha("declared", WIN_13)
# 13-card, cut 7C: a pure and a second sequence, and loose cards.
LOSER_13 = "4C 5C 6C | 8D 9D PJ | QH QD | 2S 3C 9H 10C JC"
# Paplu, cut 8S: the winner's marriage and value cards, a first drop's printed jokers.
PAPLU_WIN = asha("declared", WIN_MARRIAGE)
PAPLU_DROP = ben("first_drop", "PJ PJ 2C")
# Kodai, cut 5H: claim cards three of a kind (lower and upper jokers), a printed joker
# and a mini-marriage (a tenali of the cut rank in another suit).
KODAI_CLAIMS = "5S 5S 5S | 4H 4H 4H | 6H 6H 6H | 2C 3C 4C | 9D 10D JD | QS KS AS | PJ 7C 8C"
# Kodai, cut AS: the K A 2 marriage counted as a rummy.
ACE_MARRIAGE = "KS AS 2S | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
ACE_MARRIAGE_LOSER = "KS AS 2S | " + LOOSE_148.split(" | ", 1)[1]
TRUSTED = {"hand_entry": "counts", "trust_show": True}
# Rounds that say every line of a breakdown and every rule that replaces a count.
ROUNDS = [
    table("21-points", "8S", WIN, ben("shown", SHOWN_8S), chen("first_drop")),
    table("21-points", "8S", WIN, ben("shown", SPARE_CUT), chen("first_drop")),
    table("21-points", "8S", WIN, ben("shown", LOOSE_148), chen("middle_drop")),
    table("21-points", "8S", WIN, ben("shown", ZERO_COUNT), chen("shown", ONE_PURE)),
    table("21-points", "8S", WIN, ben("shown", FOUR_PURE), chen("shown", VALUE_C)),
    table("21-points", "8S", WIN, ben("shown", SIX_DUBLEES), chen("shown", SEVEN_JOKERS)),
    table("21-points", "8S", WIN, ben("shown", THREE_PURE_LOSER), chen("declare_timeout")),
    table("21-points", "8S", WIN, ben("deal_show", SHOWN_8S), chen("deal_show", LOOSE_148)),
    table("21-points", "8S", WIN, ben("deal_show", ZERO_COUNT), chen("deal_show", SIX_DUBLEES)),
    table("21-points", "8S", WIN, ben("deal_show", ONE_PURE), chen("invalid_declaration")),
    table("21-points", "8S", WIN, ben("shown", ONE_PURE), pure_needed=1),
    table("21-points", "8S", WIN, ben("shown", "2H 2H | " + LOOSE_148[6:]), two_point_dublees=1),
    table("21-paplu", "8S", *(hand(name, *said) for name, said in PAPLU_ROUND.items())),
    table("21-paplu", "8S", PAPLU_WIN, PAPLU_DROP, chen("middle_drop", "AS 2C")),
    table(
        "21-paplu", "8S", PAPLU_WIN, PAPLU_DROP, chen("shown", LOOSE_148), first_drop_receives=None
    ),
    table("21-paplu", "8S", asha("default_win"), PAPLU_DROP, chen("middle_drop")),
    table("21-paplu", "8S", WIN, ben("shown", TUNNELAS), chen("shown", MARRIAGES)),
    table("21-kodai", "8S", on_deal(asha("declared", DUBLEES)), ben("shown", SEVEN_DOUBLES)),
    table("21-kodai", "8S", on_deal(asha("declared", EIGHT_JOKERS)), ben("shown", SHOWN_8S)),
    table("21-kodai", "8S", asha("declared", MARRIAGES), ben("shown", EIGHT_JOKERS)),
    table("21-kodai", "8S", asha("declared", JOKER_TUNNELA_MARRIAGES), ben("shown", ONE_PURE)),
    table("21-kodai", "8S", WIN, ben("shown", FOUR_PURE)),
    table("21-kodai", "AS", asha("declared", ACE_MARRIAGE), ben("shown", ACE_MARRIAGE_LOSER)),
    table("21-kodai", "5H", asha("declared", KODAI_CLAIMS), ben("first_drop")),
    table("13-points", "7C", WIN_13_CARDS, ben("shown", LOSER_13), chen("shown", WIN_13)),
    table(
        "21-points",
        "8S",
        counted(WIN),
        counted(ben("shown"), count=34, value_points=10),
        counted(chen("shown"), two_point=True),
        **TRUSTED,
    ),
    table(
        "21-kodai",
        "8S",
        counted(on_deal(WIN), claims=30),
        counted(ben("shown"), free_hand=True),
        **TRUSTED,
    ),
]
# Three pure sequences, but dublees and six loose cards: the QA walk's false declaration.
THREE_PURE_AND_FAULTS = "2C3C4C | 5D6D7D | 8S9S10S | QH QH | KC KC | JD JD | 3S 6C 9D 10H KH JH"
ONE_DUBLEE = THREE_PURE_AND_FAULTS.replace("QH QH", "QH QC").replace("KC KC", "KC KD")
TUNNELA_AND_LOOSE = "7H 7H 7H | " + LOOSE_148.split(" | ", 1)[1]
# Rounds the rules refuse, for every reason they give.
REFUSED_ROUNDS = [
    table("21-points", "8S", WIN),
    table("21-points", "8S", WIN, hand(" ", "shown", SHOWN_8S), hand("asha", "first_drop")),
    table("21-points", "8S", WIN, ben("bogus"), chen("deal_show", SHOWN_8S)),
    table("13-points", "7C", WIN_13_CARDS, ben("deal_show", LOSER_13)),
    table("21-points", "8S", on_deal(WIN), ben("shown", SHOWN_8S + " 3S")),
    table(
        "21-kodai", "8S", WIN, on_deal(ben("shown", "2H 3H")), chen("first_drop", WIN_8S + " 2S")
    ),
    table("21-points", "8S", WIN, ben("declared", WIN_8S), chen("first_drop", "8S 8S 8S")),
    table("21-points", "8S", WIN, ben("first_drop", "2H 8S"), decks=1),
    table("21-points", "8S", asha("shown", WIN_8S), ben("first_drop")),
    table("21-points", "8S", asha("default_win"), ben("shown", SHOWN_8S)),
    table("21-points", "AS", esha("declared", THREE_PURE_AND_FAULTS), ben("first_drop")),
    table("21-points", "AS", esha("declared", ONE_DUBLEE), ben("first_drop")),
    table("21-points", "AS", esha("declared", THREE_PURE_AND_FAULTS), declarations=["show13"]),
    table("21-points", "AS", esha("declared", ONE_DUBLEE), declarations=["show13"]),
    table("21-points", "AS", esha("declared", LOOSE_148), ben("first_drop")),
    table("21-points", "AS", esha("declared", TUNNELA_AND_LOOSE), ben("first_drop")),
    table("21-paplu", "AS", esha("declared", TUNNELA_AND_LOOSE), ben("first_drop")),
    table("21-kodai", "8S", esha("declared", SEVEN_DOUBLES), ben("first_drop")),
    table("21-kodai", "8S", on_deal(esha("declared", SIX_DUBLEES)), ben("first_drop")),
    table("13-points", "7C", esha("declared", LOSER_13), ben("first_drop")),
    table(
        "13-points",
        "7C",
        esha("declared", "AH 2H PJ | 4S 5D 6C | KC KD | 2D 5D 9D JD 3S"),
        ben("first_drop"),
    ),
]


def rounds() -> Iterator[Said]:
    for case in CASES:
        rules, cut, hands = parse_round(json.loads(case.read_text())["input"])
        yield from round_words(case.name, Table(rules, cut, tuple(hands)))
    for index, played in enumerate(ROUNDS + REFUSED_ROUNDS):
        yield from round_words(f"round {index} ({played.rules.preset})", played)
    # Rules that allow no way to declare (no preset does, but a ruleset may be built so).
    rules = dataclasses.replace(get_ruleset("21-points"), declarations=())
    yield from round_words("no way", Table(rules, parse_card("8S"), (WIN, ben("first_drop"))))


# Counted hands refused: (preset, house rules, outcome, figures, cards too).
REFUSED_FIGURES = [
    ("21-points", TRUSTED, "shown", {"count": 30}, True),
    ("21-points", {"hand_entry": "counts"}, "declared", {}, False),
    ("21-points", {}, "shown", {"count": 30}, False),
    ("13-points", TRUSTED, "shown", {"count": 30, "value_points": 10, "two_point": True}, False),
    ("21-points", TRUSTED, "shown", {"count": 30, "claims": 10, "free_hand": True}, False),
    ("21-paplu", TRUSTED, "default_win", {"value_points": 10}, False),
    (
        "21-points",
        TRUSTED,
        "first_drop",
        {"count": 30, "value_points": 10, "two_point": True},
        False,
    ),
    ("21-kodai", TRUSTED, "first_drop", {"free_hand": True}, False),
    ("21-kodai", TRUSTED, "shown", {"count": 30, "claims": 10}, False),
    ("21-paplu", TRUSTED, "deal_show", {"count": 30}, False),
    ("21-kodai", TRUSTED, "declared", {"count": 30, "two_point": True, "free_hand": True}, False),
    ("21-points", TRUSTED, "declared", {"two_point": True}, False),
    ("21-points", TRUSTED, "shown", {"value_points": 10}, False),
    ("21-kodai", TRUSTED, "shown", {"count": -1}, False),
    ("21-points", TRUSTED, "shown", {"count": 30, "value_points": -1}, False),
    ("21-kodai", TRUSTED, "declared", {"claims": -1}, False),
    ("21-points", TRUSTED, "shown", {"count": 1}, False),
    ("21-points", TRUSTED, "shown", {"count": 9999, "value_points": 9999}, False),
    ("21-points", TRUSTED, "shown", {"count": 30, "value_points": 5}, False),
    ("21-kodai", TRUSTED, "declared", {"claims": 9999}, False),
    ("21-kodai", TRUSTED, "declared", {"claims": 5}, False),
]


def refused_figures() -> Iterator[Said]:
    for preset, overrides, outcome, figures, cards in REFUSED_FIGURES:
        rules = get_ruleset(preset, overrides)
        errors = figure_errors(
            rules,
            parse_card("8S"),
            "Esha",
            outcome,
            HandFigures(**figures),
            "players[0]",
            has_cards=cards,
        )
        for error in errors:
            yield Said(f"figures {preset} {outcome} {figures}", error.message)


POOL = PRESETS["13-pool-101"]
POINTS = PRESETS["21-points"]
PLAYED = [{"Asha": 10, "Ben": -10, "Chen": 0}]
ABC = ["Asha", "Ben", "Chen"]
# A pool after round 1: Ben is out (105), Asha above the cutoff of 79 (80).
OUT_AND_CLOSED = [{"Asha": 80, "Ben": 105, "Chen": 10}]
# Refused changes between rounds: (rules, rounds, changes, scores' dealers).
REFUSED_CHANGES = [
    (POOL, [{"Asha": 0, "Ben": 110, "Chen": 120}], [SeatChange(REJOIN, "Ben", 1)]),
    (POOL, [{"Asha": 0, "Ben": 110, "Chen": 120}], [SeatChange(JOIN, "Dev", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(JOIN, "Dev", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(JOIN, "Asha", 1)]),
    (POINTS, PLAYED, [SeatChange(LEAVE, "Chen", 1), SeatChange(JOIN, "Chen", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(LEAVE, "Dev", 1)]),
    (POINTS, PLAYED, [SeatChange(LEAVE, "Chen", 1), SeatChange(LEAVE, "Chen", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(LEAVE, "Chen", 1), SeatChange(REJOIN, "Chen", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(REJOIN, "Dev", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(REJOIN, "Ben", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange("swap", "Ben", 1)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(REJOIN, "Ben", 2)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(JOIN, "Dev", 0)]),
    (POOL, OUT_AND_CLOSED, [SeatChange(JOIN, "Dev", 5)]),
    (POOL, OUT_AND_CLOSED, [Seating(1, ("Asha", "Dev"))]),
    (POOL, OUT_AND_CLOSED, [Seating(1, ("Asha", "Asha", "Chen"))]),
    (POOL, OUT_AND_CLOSED, [Seating(1, ("Asha",))]),
    (POOL, OUT_AND_CLOSED, [SeatChange(LEAVE, "Chen", 1), Seating(1, ("Chen", "Asha"))]),
    (
        PRESETS["21-points"],
        [{"Asha": 10, "Ben": -10}],
        [SeatChange(JOIN, "Dev", 1), SeatChange(LEAVE, "Dev", 1)],
    ),
    (POOL, [{"Asha": 0, "Ben": 0, "Dev": 0}], []),
]


def sessions() -> Iterator[Said]:
    for rules, scores, changes in REFUSED_CHANGES:
        with pytest.raises(RulesError) as refused:
            session_state(rules, ABC, scores, changes=changes)
        quoted = (*SEAT_CHANGES, "swap", "after_round")
        yield Said(f"changes {changes}", refused.value.message, quoted)
        yield Said(f"changes {changes} beside", refused.value.beside, quoted)
    with pytest.raises(RulesError) as refused:
        session_state(POOL, ABC, OUT_AND_CLOSED, dealers=["Dev"])
    yield Said("a dealer not at the table", refused.value.message)
    # Why a player may not rejoin or join, or take a change back.
    pool = session_state(POOL, [*ABC, "Dev"], [{"Asha": 80, "Ben": 105, "Chen": 90, "Dev": 0}])
    yield from (Said("rejoin offer", offer.problem or "") for offer in pool.rejoin_offers())
    yield Said("join", pool.join_problem() or "")
    closed = session_state(POOL, ABC, OUT_AND_CLOSED)
    yield from (Said("rejoin", closed.rejoin_problem(player) or "") for player in ABC)
    yield Said("join", closed.join_problem() or "")
    over = session_state(POOL, ABC, [{"Asha": 0, "Ben": 110, "Chen": 120}], rejoins=[])
    yield Said("rejoin when over", over.rejoin_problem("Ben") or "")
    yield Said("join when over", over.join_problem() or "")
    points = session_state(PRESETS["21-points"], ABC, [{"Asha": 10, "Ben": -10, "Chen": 0}])
    yield Said("rejoin in a points game", points.rejoin_problem("Ben") or "")
    left = session_state(POOL, ABC, OUT_AND_CLOSED, changes=[SeatChange(LEAVE, "Ben", 1)])
    yield Said("rejoin after leaving", left.rejoin_problem("Ben") or "")
    unruled = dataclasses.replace(points, ruleset=None)
    yield Said("no rules", unruled.rejoin_problem("Ben") or "")
    yield Said("no rules", unruled.join_problem() or "")
    rounds = [{"Asha": 40, "Ben": 105, "Chen": 60}, {"Asha": 0, "Ben": 0, "Chen": 0}]
    rejoined = session_state(POOL, ABC, rounds, rejoins=[("Ben", 1)])
    yield Said("take back a rejoin", take_back_problem(rejoined, 1, "Ben") or "")
    # Ben rejoined after round 1; round 2 puts Asha and Chen out: the session is over.
    ended = session_state(
        POOL, ABC, [rounds[0], {"Asha": 101, "Ben": 0, "Chen": 101}], rejoins=[("Ben", 1)]
    )
    yield Said("take back after the end", take_back_problem(ended, 1, "Ben") or "")
    changes = [SeatChange(JOIN, "Dev", 1)]
    joined = session_state(points.ruleset, ABC, [{}, {}], changes=changes)
    yield Said("take back a join", change_take_back_problem(joined, changes[0]) or "")
    rejoin = SeatChange(REJOIN, "Ben", 1)
    yield Said("take back a rejoin", change_take_back_problem(joined, rejoin) or "", (REJOIN,))


def the_rest() -> Iterator[Said]:
    """The solver's refusals, a settlement's, and lists."""
    for cards in ("", WIN_8S + " 2S", "8S 8S 8S"):
        with pytest.raises(RulesError) as refused:
            arrange(get_ruleset("21-points"), parse_card("8S"), parse_cards(cards))
        yield Said(f"arrange {cards!r}", refused.value.message)
    with pytest.raises(RulesError) as refused:
        settle({"Asha": 5})
    yield Said("settle", refused.value.message)
    yield Said("suit", join_words(suit_name(suit) for suit in SUIT_SYMBOLS))


SCENES = (labels, refusals_of_rules, typos, no_groups, rounds, refused_figures, sessions, the_rest)
NAMES = ("Asha", "Ben", "Chen", "Dev", "Esha", "Ema", "Fay", "Gus", "Hana", "Ivan", "asha")


@pytest.fixture(scope="module")
def said() -> tuple[list[Said], set[str]]:
    """Everything the scenes make the rules say, in the pseudo-locale, and every
    message the rules asked it for."""
    with pseudo_locale() as locale:
        texts = [said for scene in SCENES for said in scene()]
    return texts, locale.asked


def test_no_english_word_of_the_rules_reaches_a_player(said):
    texts, _asked = said
    untranslated = {
        said.where: words
        for said in texts
        if (words := english_words(said.text, (*NAMES, *QUOTED, *said.values)))
    }
    assert untranslated == {}
    assert len(texts) > 1000


def messages_of_the_rules() -> set[str]:
    """Every message a module of the rules marks for the catalogue, as makemessages
    reads them: the literal first arguments of _, gettext, gettext_noop and ngettext."""
    found = set()
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                count = {"_": 1, "gettext": 1, "gettext_noop": 1, "ngettext": 2}.get(
                    node.func.id, 0
                )
                found |= {arg.value for arg in node.args[:count] if isinstance(arg, ast.Constant)}
    return found


# Marked for the catalogue but translated by the app, where it shows them: the presets'
# names (its choice of a preset) and the headings of the house rules.
SHOWN_BY_THE_APP = {*PRESET_NAMES.values(), *(title for title, _options in OPTION_SECTIONS)}


def test_the_scenes_say_every_message_of_the_rules(said):
    _texts, asked = said
    assert messages_of_the_rules() - asked - SHOWN_BY_THE_APP == set()
