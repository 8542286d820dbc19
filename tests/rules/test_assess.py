"""The live preview of one hand: what the round form shows beside each player."""

from __future__ import annotations

from games.rules import PRESETS, parse_card
from games.rules.scoring import assess_hand
from tests.support.hands import ONE_PURE, WIN_8S
from tests.support.rules import hand


def assess(outcome: str, text: str, preset: str = "21-points", cut: str = "8S"):
    return assess_hand(PRESETS[preset], parse_card(cut), hand("A", outcome, text))


def test_a_shown_hand_previews_its_groups_and_points():
    result = assess("shown", ONE_PURE)
    assert result.hand_points == 105
    assert [str(g.kind) for g in result.groups][:3] == ["pure_sequence", "set", "dublee"]
    assert result.groups[0].left_out and not result.groups[1].left_out
    assert result.problems == ()


def test_a_declared_hand_previews_its_way():
    result = assess("declared", WIN_8S)
    assert result.declaration == "three_pure"
    assert result.hand_points is None
    assert result.problems == ()


def test_problems_are_listed_while_typing():
    short = assess("declared", "2H 3H 4H | 5C 6C")
    assert short.problems == ("must show all 21 cards, not 5",)  # said beside A: no name
    wrong = assess("declared", WIN_8S.replace("8H", "9D"))
    assert wrong.problems[0].startswith("not a valid declaration")
    not_played = assess("deal_show", ONE_PURE, preset="13-points", cut="7C")
    assert "not played" in not_played.problems[0]


def test_a_drop_costs_its_fixed_points():
    assert assess("middle_drop", "").hand_points == 70
