"""The solver against the CP-SAT reference of benchmarks/reference.py on random
hands of every preset, on joker-heavy hands and on meld-rich hands that often
declare (the benchmark, in small)."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools", reason="the reference needs OR-Tools (requirements-dev.txt)")

from benchmarks.solver import HEAVY, MELD_RICH, compare, hands_for
from games.rules import PRESETS


@pytest.mark.parametrize("set_name", [*PRESETS, HEAVY, MELD_RICH])
def test_solver_and_reference_agree(set_name):
    for preset, cut, hand in hands_for(set_name, 12, seed=7):
        _, _, difference = compare(preset, cut, hand)
        assert difference is None, difference
