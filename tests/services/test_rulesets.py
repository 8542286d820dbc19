"""Which ruleset a session plays, one line about each preset and a session's house
rules in words (games/services/rulesets.py)."""

from __future__ import annotations

import pytest

from games.rules import PRESETS, get_ruleset
from games.services.rulesets import describe_preset, house_rule_changes

pytestmark = pytest.mark.django_db


def test_describe_preset_comes_from_the_preset_options() -> None:
    assert describe_preset("13-pool-101") == (
        "13 cards, 2 decks · losers add their points, lowest total is best · out at 101"
    )
    assert "value cards" in describe_preset("21-points")


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
