"""Rematch: the same table again from a finished session, seats rotated
by one, the same rules, ceiling, stakes and league; one rematch per session."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import GameSession
from games.services.errors import EntryRejected
from games.services.leagues import create_league
from games.services.sessions import rematch, rematch_name
from tests.support.builders import finished_session, make_session

pytestmark = pytest.mark.django_db


def seated(session: GameSession) -> list[str]:
    return [seat.player.name for seat in session.seats.select_related("player")]


def test_a_rematch_seats_the_same_players_one_place_on_with_the_same_rules_and_stakes(
    user: User,
) -> None:
    league = create_league(user, name="Tuesday Club", preset="21-points", overrides={})
    done = finished_session(
        user,
        name="Friday",
        league=league,
        overrides={"first_drop": 15},
        ceiling=250,
        money_per_point=Decimal("0.25"),
    )

    new, started = rematch(done, user)

    assert started
    assert seated(done) == ["Asha", "Ben", "Chen"]
    assert seated(new) == ["Ben", "Chen", "Asha"]
    # The very same players, not namesakes.
    assert {s.player_id for s in new.seats.all()} == {s.player_id for s in done.seats.all()}
    assert (new.preset, new.overrides, new.ceiling) == ("21-points", {"first_drop": 15}, 250)
    assert new.money_per_point == Decimal("0.25")
    assert new.league == league
    assert new.rematch_of == done
    assert new.name == "Friday (rematch)"
    assert new.played_on == timezone.localdate()
    assert new.status == GameSession.Status.ACTIVE
    assert not new.rounds.exists()


def test_the_deal_moves_on_to_the_next_player(user: User) -> None:
    done = finished_session(user, first_dealer=2)  # Chen dealt first
    assert done.first_dealer.player.name == "Chen"
    new, _ = rematch(done, user)
    # Seat 3 deals first again, and Asha now sits there: the player after Chen.
    assert new.first_dealer.position == 3
    assert new.first_dealer.player.name == "Asha"


def test_a_pool_buy_in_comes_along(user: User) -> None:
    done = finished_session(user, buy_in=Decimal("20.00"))
    new, _ = rematch(done, user)
    assert new.buy_in == Decimal("20.00")


def test_a_session_still_being_played_has_no_rematch(user: User) -> None:
    playing = make_session(user)
    with pytest.raises(EntryRejected, match="not finished yet"):
        rematch(playing, user)
    assert GameSession.objects.count() == 1


def test_a_second_tap_finds_the_rematch_instead_of_starting_another(user: User) -> None:
    done = finished_session(user)
    first, started = rematch(done, user)
    again, started_again = rematch(done, user)
    assert started and not started_again
    assert again == first
    assert GameSession.objects.filter(rematch_of=done).count() == 1


def test_a_rematch_of_a_rematch_is_not_called_rematch_twice(user: User) -> None:
    done = finished_session(user, name="Friday (rematch)")
    assert rematch_name(done) == "Friday (rematch)"
    assert rematch_name(finished_session(user, name="")) == ""
    long = finished_session(user, name="x" * 100)
    assert len(rematch_name(long)) == 100
    assert rematch_name(long).endswith(" (rematch)")
