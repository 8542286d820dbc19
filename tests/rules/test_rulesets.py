"""The presets hold the numbers of the table of docs/rules §5; overrides are validated."""

from __future__ import annotations

import typing

import pytest

from games.rules import PRESET_NAMES, PRESETS, RulesError, Ruleset, get_ruleset
from games.rules.rulesets import (
    BEFORE_EXACT_TEXTS,
    OPTION_NAMES,
    OPTION_SECTIONS,
    as_stored_before_exact_texts,
    best_and_worst,
    describe_preset,
    house_rule_changes,
    is_net,
    option_help,
    option_label,
    option_range,
    presets_listing,
)

ALL = ["21-points", "21-paplu", "21-kodai", "13-points", "13-pool-101", "13-pool-201"]


def column(option: str) -> list:
    return [getattr(PRESETS[name], option) for name in ALL]


def test_there_are_exactly_the_six_presets():
    assert list(PRESETS) == ALL
    assert list(PRESET_NAMES) == ALL  # each named, in the same order
    assert len(set(PRESET_NAMES.values())) == len(ALL)


def test_hand_size_and_decks():
    assert column("hand_size") == [21, 21, 21, 13, 13, 13]
    assert column("decks") == [3, 3, 3, 2, 2, 2]


def test_hand_cap_row():
    assert column("hand_cap") == [120, 250, 100, 80, 80, 80]
    # Paplu's 250 covers hand points plus the value points a loser pays.
    assert column("cap_includes_values") == [False, True, False, False, False, False]


def test_drop_rows():
    assert column("first_drop") == [30, 30, 30, 20, 20, 25]
    assert column("middle_drop") == [70, 60, 60, 40, 40, 50]


def test_invalid_declaration_and_timeout_rows():
    assert column("invalid_declaration") == [120, 120, 100, 80, 80, 80]
    assert column("declare_timeout") == [120, None, None, None, None, None]


def test_two_point_hands_row():
    assert column("two_point_three_pure") == [True, True, False, False, False, False]
    # docs/rules §5: "21-paplu has its own list (seed 003): ... 8 or 7 dublees, an all-joker
    # group of 8+ jokers ... Six dublees are not enough there, and seven jokers are not
    # a free hand".
    assert column("two_point_dublees") == [6, 7, None, None, None, None]
    assert column("two_point_jokers") == [7, 8, None, None, None, None]
    assert column("two_point_tunnelas") == [None, 3, None, None, None, None]
    assert column("two_point_marriages") == [None, 2, None, None, None, None]


def test_zero_count_row():
    assert column("zero_count_becomes") == [2, 2, 0, 2, 2, 2]


def test_deal_show_row():
    # "deal_show | half, floor, 2..60 | 60 | – | – | – | –"
    assert column("deal_show") == [True, True, False, False, False, False]
    assert (PRESETS["21-points"].deal_show_min, PRESETS["21-points"].deal_show_max) == (2, 60)
    assert column("deal_show_fixed") == [None, 60, None, None, None, None]


def test_the_options_of_the_texts_read_exactly_are_on_only_in_their_preset():
    # §3 K A 2 as a rummy: 21-kodai. §4 on the deal (7 dublees, 8 jokers): 21-kodai.
    assert column("ace_marriage_pure") == [False, False, True, False, False, False]
    assert column("on_deal_dublees") == [None, None, 7, None, None, None]
    assert column("on_deal_jokers") == [None, None, 8, None, None, None]
    assert [PRESETS[name].wins_on_deal for name in ALL] == [False, False, True] + [False] * 3
    # §6 seed 003's drop rules, 40 at most to a first drop, 30 from each dropper to a
    # winner by default: 21-paplu.
    assert column("value_payments") == ["players_in", "drop_rules"] + ["players_in"] * 4
    assert column("first_drop_receives") == [None, 40, None, None, None, None]
    assert column("default_win_drop") == [None, 30, None, None, None, None]


def test_jokers_way_row():
    assert column("jokers_needed")[:3] == [8, 8, 9]
    assert ["jokers" in d for d in column("declarations")] == [True] * 3 + [False] * 3


def test_claims_values_totals_and_ceiling_rows():
    assert column("claims") == [False, False, True, False, False, False]
    assert column("value_cards") == [True, True, False, False, False, False]
    assert column("totals") == ["net", "net", "penalty", "net", "penalty", "penalty"]
    assert column("ceiling") == [None, None, 500, None, 101, 201]
    assert column("ceiling_mode")[2:] == ["game_ends", "game_ends", "out", "out"]
    assert column("rejoin_cutoff") == [None, None, None, None, 79, 174]


def test_declaration_ways_per_preset():
    assert column("declarations") == [
        ("three_pure", "tunnelas", "dublees", "jokers"),
        ("three_pure", "tunnelas", "dublees", "jokers", "marriages"),
        ("three_pure", "tunnelas", "dublees", "jokers", "marriages"),
        ("show13",),
        ("show13",),
        ("show13",),
    ]


def test_joker_switches_per_preset():
    assert column("wild_rank_all_suits") == [True, False, True, True, True, True]
    assert column("upper_lower_jokers") == [True, True, True, False, False, False]
    assert column("printed_joker_tunnela") == [True, False, True, False, False, False]
    assert column("printed_joker_dublee") == [True, True, True, False, False, False]


def test_outcomes_follow_the_options():
    assert "deal_show" in PRESETS["21-points"].outcomes
    assert "declare_timeout" in PRESETS["21-points"].outcomes
    assert "deal_show" not in PRESETS["13-points"].outcomes
    assert "declare_timeout" not in PRESETS["21-kodai"].outcomes


def test_overrides_change_only_what_they_name():
    ruleset = get_ruleset("21-points", {"hand_cap": 150, "value_upper": [20, 40, 60]})
    assert ruleset.hand_cap == 150
    assert ruleset.value_upper == (20, 40, 60)
    assert ruleset.middle_drop == 70
    assert ruleset.overrides_from(PRESETS["21-points"]) == {
        "hand_cap": 150,
        "value_upper": [20, 40, 60],
    }


def test_override_to_none_where_allowed():
    assert get_ruleset("21-points", {"declare_timeout": None}).declare_timeout is None


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"hand_kap": 100}, "overrides.hand_kap"),
        ({"hand_cap": "100"}, "overrides.hand_cap"),
        ({"hand_cap": True}, "overrides.hand_cap"),
        ({"hand_cap": 0}, "overrides.hand_cap"),
        ({"hand_cap": None}, "overrides.hand_cap"),
        ({"deal_show": 1}, "overrides.deal_show"),
        ({"totals": "points"}, "overrides.totals"),
        ({"hand_size": 20}, "overrides.hand_size"),
        ({"value_cut": [10, 30]}, "overrides.value_cut"),
        ({"value_cut": "10,30,50"}, "overrides.value_cut"),
        ({"declarations": ["three_pure", "gin"]}, "overrides.declarations"),
        ({"declarations": []}, "overrides.declarations"),
        ({"value_extra_cards": ["AS", "ZZ"]}, "overrides.value_extra_cards"),
        ({"value_extra_cards": [5]}, "overrides.value_extra_cards"),
        ({"preset": "13-points"}, "overrides.preset"),
        ({"deal_show_min": 70}, "overrides.deal_show_min"),
    ],
)
def test_bad_overrides_name_the_option(overrides, field):
    with pytest.raises(RulesError) as error:
        get_ruleset("21-points", overrides)
    assert error.value.field == field


WHOLE_NUMBER_OPTIONS = [
    name for name in OPTION_NAMES if typing.get_type_hints(Ruleset)[name] in (int, int | None)
]
# deal_show_max may not be below deal_show_min: its least is tried with that at 0.
BESIDE = {"deal_show_max": {"deal_show_min": 0}}


@pytest.mark.parametrize("name", WHOLE_NUMBER_OPTIONS)
def test_a_whole_number_option_takes_exactly_its_range(name):
    """The range the house-rules page gives the browser (option_range) is the one the
    rules service holds a value to: its least and its most are taken, one beyond
    either is refused, naming the option."""
    least, most = option_range(name)
    choices = get_ruleset("21-points").__dataclass_fields__[name].metadata.get("choices")
    taken = [least] if choices is None else [c for c in choices if c >= least]
    if most is not None:
        taken.append(most)
    beside = BESIDE.get(name, {})
    for value in taken:
        assert getattr(get_ruleset("21-points", {**beside, name: value}), name) == value
    for value in [least - 1] + ([] if most is None else [most + 1]):
        with pytest.raises(RulesError) as error:
            get_ruleset("21-points", {**beside, name: value})
        assert error.value.field == f"overrides.{name}"


NUMBER_TABLE_OPTIONS = [
    name for name in OPTION_NAMES if typing.get_type_hints(Ruleset)[name] == tuple[int, int, int]
]


@pytest.mark.parametrize("name", NUMBER_TABLE_OPTIONS)
def test_each_number_of_a_table_option_takes_the_options_range(name):
    """The three values of a value table (by players, say) are each held to the range
    of their option."""
    least, _ = option_range(name)
    assert getattr(get_ruleset("21-paplu", {name: [least] * 3}), name) == (least,) * 3
    with pytest.raises(RulesError) as error:
        get_ruleset("21-paplu", {name: [least, least - 1, least]})
    assert error.value.field == f"overrides.{name}"


def test_counts_take_one_at_least_points_nothing_and_decks_four_at_most():
    assert option_range("decks") == (1, 4)
    assert option_range("pure_needed") == (1, None)
    assert option_range("first_drop") == (0, None)
    assert option_range("hand_cap") == (1, None)


def test_unknown_preset_is_an_error():
    with pytest.raises(RulesError) as error:
        get_ruleset("gin-rummy")
    assert error.value.field == "ruleset"


def test_every_option_has_a_meaning_and_is_listed():
    listing = presets_listing()
    assert set(listing["presets"]) == set(ALL)
    for name in OPTION_NAMES:
        assert option_help(name)
        assert name in listing["options"]
        assert all(name in options for options in listing["presets"].values())


def test_every_option_has_a_label_in_words_of_its_own():
    labels = [option_label(name) for name in OPTION_NAMES]
    for name, label in zip(OPTION_NAMES, labels, strict=True):
        # Not the field name re-capitalised ("Deal show min"), not a code name.
        assert label.lower().replace("-", " ") != name.replace("_", " "), name
        assert "_" not in label and label[0].isupper() and not label.endswith("."), name
        # A few words that fit a phone's line, not the help line beneath them again.
        assert len(label) <= 30, label
        assert label.lower() not in option_help(name).lower(), name
    assert len(set(labels)) == len(labels)  # no two options answer to one label
    assert option_label("deal_show_min") == "Lowest deal show cost"


def test_rules_stored_before_the_exact_texts_keep_their_meaning():
    # A Paplu session stored with no overrides under the earlier preset played deal
    # shows not at all, two-point hands from 6 dublees or 7 jokers, and 21-points'
    # value exchange.
    paplu = get_ruleset("21-paplu", as_stored_before_exact_texts("21-paplu", {}))
    assert (paplu.deal_show, paplu.deal_show_fixed) == (False, None)
    assert (paplu.two_point_dublees, paplu.two_point_jokers) == (6, 7)
    assert (paplu.value_payments, paplu.first_drop_receives, paplu.default_win_drop) == (
        "players_in",
        None,
        None,
    )
    # What the session set itself stays: its own deal show was half the count then.
    own = get_ruleset("21-paplu", as_stored_before_exact_texts("21-paplu", {"deal_show": True}))
    assert (own.deal_show, own.deal_show_fixed) == (True, None)
    kodai = get_ruleset("21-kodai", as_stored_before_exact_texts("21-kodai", {"hand_cap": 90}))
    assert (kodai.ace_marriage_pure, kodai.wins_on_deal, kodai.hand_cap) == (False, False, 90)
    # The other presets did not change.
    assert as_stored_before_exact_texts("21-points", {"hand_cap": 150}) == {"hand_cap": 150}
    # Every option the table names is an option, and differs from today's preset.
    for preset, earlier in BEFORE_EXACT_TEXTS.items():
        assert all(getattr(PRESETS[preset], name) != value for name, value in earlier.items())


def test_every_option_comes_under_one_heading_in_the_rule_model_order():
    titles = [title for title, _names in OPTION_SECTIONS]
    assert titles == [
        "Cards and jokers",
        "Groups",
        "Declarations",
        "Entering hands",
        "Hand points",
        "Value cards",
        "Claims",
        "Totals",
    ]
    assert [name for _title, names in OPTION_SECTIONS for name in names] == list(OPTION_NAMES)
    assert dict(OPTION_SECTIONS)["Entering hands"] == ("hand_entry", "trust_show")
    assert dict(OPTION_SECTIONS)["Totals"] == (
        "totals",
        "ceiling",
        "ceiling_mode",
        "rejoin_cutoff",
        "join_total",
        "toss_on_change",
    )


def test_each_preset_is_described_in_a_line_of_its_own_options() -> None:
    assert describe_preset("13-pool-101") == (
        "13 cards, 2 decks · jokers: the cut rank in every suit · losers add their points, "
        "lowest total is best · out at 101"
    )
    # Points and Paplu differ in which cards are wild and how drops pay for value cards:
    # a club choosing between them reads the difference.
    assert describe_preset("21-points") == (
        "21 cards, 3 decks · jokers: the cut rank in every suit and the cut suit's next card "
        "up and down · losers pay the winner their points · value cards exchanged"
    )
    assert describe_preset("21-paplu") == (
        "21 cards, 3 decks · jokers: the cut card and the cut suit's next card up and down · "
        "losers pay the winner their points · value cards exchanged (drops by Paplu's rules)"
    )
    lines = [describe_preset(name) for name in PRESETS]
    assert len(set(lines)) == len(lines)


def test_house_rules_say_each_change_as_the_form_labels_it_with_the_presets_value() -> None:
    rules = get_ruleset(
        "21-points",
        {"first_drop": 25, "deal_show": False, "declarations": ["three_pure", "tunnelas"]},
    )
    # In the rule model's order, as the house-rules form lists them.
    assert house_rule_changes(rules) == (
        "Ways to declare: Three pure sequences, Tunnelas (preset Three pure sequences, "
        "Tunnelas, Dublees, Jokers)",
        "First drop costs 25 (preset 30)",
        "Deal show allowed: off (preset on)",
    )


def test_a_preset_played_as_it_is_has_no_house_rules() -> None:
    assert house_rule_changes(PRESETS["13-pool-101"]) == ()


def test_the_ways_to_declare_keep_the_rules_order_whatever_order_they_come_in() -> None:
    shuffled = get_ruleset("21-points", {"declarations": ["jokers", "dublees", "three_pure"]})
    assert shuffled.declarations == ("three_pure", "dublees", "jokers")
    # The preset's ways in another order are the preset's ways: no house rule to show.
    reordered = get_ruleset(
        "21-points", {"declarations": list(reversed(PRESETS["21-points"].declarations))}
    )
    assert house_rule_changes(reordered) == ()


@pytest.mark.parametrize(
    ("preset", "lowest", "highest", "best", "worst"),
    [
        ("21-points", -30, 80, 80, -30),  # net: a round won pays +80
        ("13-points", -40, 120, 120, -40),
        ("13-pool-101", 0, 80, 0, 80),  # penalty: a round won costs 0
        ("21-kodai", 0, 120, 0, 120),
    ],
)
def test_a_players_best_round_is_the_most_won_in_net_totals_the_least_lost_in_penalty(
    preset: str, lowest: int, highest: int, best: int, worst: int
) -> None:
    assert best_and_worst(lowest, highest, net=is_net(PRESETS[preset])) == (best, worst)
    assert best_and_worst(None, None, net=True) == (None, None)  # no hand played yet
