"""Starting a session (games/services/sessions.py): seating players in order, storing
only the house rules that differ from the preset, and the toss; taking a rejoin back."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, Player, Rejoin
from games.rules import PRESETS, RulesError
from games.services.errors import EntryRejected
from games.services.scoreboard import load_scoreboard
from games.services.sessions import cancel_rejoin, create_session, rejoin, toss_seats
from tests.support.builders import (
    PLAYED_ON_REJOINS,
    make_session,
    pool_with_chen_out,
)

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
    dealt = toss_seats(["Asha", "Ben", "Chen"], PRESETS["21-points"], random.Random(7)).seats

    assert sorted(name for name, _ in dealt) == ["Asha", "Ben", "Chen"]
    assert all(not card.is_printed_joker for _, card in dealt)


def test_a_rejoin_is_taken_back_before_the_next_round(user: User) -> None:
    pool = pool_with_chen_out(user)
    made = rejoin(pool, pool.seats.get(player__name="Chen"), user)

    cancel_rejoin(pool, made.pk)

    assert not Rejoin.objects.exists()
    assert load_scoreboard(pool).state.eliminated_in == {"Chen": 2}


@pytest.mark.parametrize(("build", "why"), PLAYED_ON_REJOINS)
def test_a_rejoin_played_on_is_not_taken_back(user: User, build, why: str) -> None:
    # Chen played rounds after buying back in: without the rejoin those scores would
    # belong to a player who was out.
    pool = build(user)
    made = Rejoin.objects.get()

    with pytest.raises(EntryRejected) as refused:
        cancel_rejoin(pool, made.pk)

    assert str(refused.value) == (
        f"Chen's rejoin after round 2 can no longer be taken back: {why}."
    )
    assert Rejoin.objects.get() == made
    assert load_scoreboard(pool).state.lines[1].rejoined == {"Chen": 61}
