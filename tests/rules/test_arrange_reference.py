"""The solver against the CP-SAT reference of benchmarks/reference.py on random
hands of every preset, on joker-heavy hands and on meld-rich hands that often
declare (the benchmark, in small)."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools", reason="the reference needs OR-Tools (requirements-dev.txt)")

from benchmarks.solver import HEAVY, MELD_RICH, compare, hands_for
from games.rules import PRESETS, parse_card, parse_groups


@pytest.mark.parametrize("set_name", [*PRESETS, HEAVY, MELD_RICH])
def test_solver_and_reference_agree(set_name):
    for preset, cut, hand in hands_for(set_name, 12, seed=7):
        _, _, difference = compare(preset, cut, hand)
        assert difference is None, difference


@pytest.mark.parametrize("preset", ["21-kodai", "21-points", "21-paplu"])
@pytest.mark.parametrize(
    "text",
    [
        # Cut AH: KH AH 2H and two natural rummies; a rummy in Kodai only (docs/rules §3).
        "KH AH 2H | 3C 4C 5C | 6D 7D 8D | QC QD QS | 9S 9D 9C | JH JS JD | 5S 6S AS",
        "KH AH 2H | 3C 4C 5C | 6D 7D 8D | QC QD QS | 9S 9D 9C | JH JS JD | 5S 10C 4D",
        # Two marriages' worth of K, A and 2 of hearts among loose cards.
        "KH KH AH AH 2H 2H 3C 4C 5C 9D 9C 9S JH JS QD QC 5S 10C 4D 7D 6S",
    ],
)
def test_solver_and_reference_agree_on_k_a_2_with_an_ace_cut(preset, text):
    hand = [card for group in parse_groups(text) for card in group]
    _, _, difference = compare(preset, parse_card("AH"), hand)
    assert difference is None, difference
