"""Which ruleset a session plays and one line about each preset (games/services/rulesets.py)."""

from __future__ import annotations

import pytest

from games.services.rulesets import describe_preset

pytestmark = pytest.mark.django_db


def test_describe_preset_comes_from_the_preset_options() -> None:
    assert describe_preset("13-pool-101") == (
        "13 cards, 2 decks · losers add their points, lowest total is best · out at 101"
    )
    assert "value cards" in describe_preset("21-points")
