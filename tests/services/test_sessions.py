"""Starting a session (games/services/sessions.py): seating players in order, storing
only the house rules that differ from the preset, and the toss."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, Player
from games.rules import PRESETS, RulesError
from games.services.sessions import create_session, toss_seats
from tests.support.builders import make_session

pytestmark = pytest.mark.django_db


def test_create_session_seats_players_in_order_and_stores_only_changed_options(user: User) -> None:
    make_session(user, players=("asha", "Dev"))  # a table this user played at
    session = create_session(
        user,
        preset="21-points",
        overrides={"first_drop": 25, "middle_drop": 70},  # 70 is the preset's own
        players=["Asha", "Ben", "Chen"],
        first_dealer=2,
    )

    assert [s.player.name for s in session.seats.order_by("position")] == ["asha", "Ben", "Chen"]
    assert Player.objects.count() == 4  # "Asha" is the user's "asha"; and Dev
    assert session.overrides == {"first_drop": 25}
    assert session.first_dealer.player.name == "Chen"
    assert session.created_by == user


def test_create_session_refuses_an_invalid_override(user: User) -> None:
    with pytest.raises(RulesError) as caught:
        make_session(user, overrides={"hand_cap": -1})

    assert caught.value.field == "overrides.hand_cap"
    assert not GameSession.objects.exists()


def test_toss_seats_deals_one_card_each_from_the_rules_service() -> None:
    dealt = toss_seats(["Asha", "Ben", "Chen"], PRESETS["21-points"], random.Random(7))

    assert sorted(name for name, _ in dealt) == ["Asha", "Ben", "Chen"]
    assert all(not card.is_printed_joker for _, card in dealt)
