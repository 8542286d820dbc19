"""Rematch: the same table again from a finished session, seats rotated
by one, the same rules, ceiling, stakes and league; one rematch per session."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.utils import timezone, translation

from games.models import GameSession
from games.services.errors import EntryRejected
from games.services.leagues import create_league
from games.services.sessions import close_session, join, leave, rematch, rematch_name
from tests.support.builders import finished_session, make_session, play
from tests.support.hands import ROUND_1

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


def test_a_player_who_went_home_is_left_out_and_a_latecomer_kept(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Chen", "Dev"))  # Asha deals first
    play(table, "8S", {**ROUND_1, "Dev": ("first_drop", "")})
    leave(table, table.seats.get(player__name="Ben"), user)
    join(table, "Kim", user)
    close_session(table)

    new, _ = rematch(table, user)

    # Seated Asha, Ben, Chen, Dev, Kim; without Ben, one place on: Chen sits first.
    assert seated(new) == ["Chen", "Dev", "Kim", "Asha"]
    # The deal moves on from Asha past Ben, who went home, to Chen.
    assert new.first_dealer.player.name == "Chen"


def test_the_deal_skips_a_first_dealer_who_went_home(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Chen", "Dev"), first_dealer=1)
    play(table, "8S", {**ROUND_1, "Dev": ("first_drop", "")})  # Ben dealt it
    leave(table, table.seats.get(player__name="Ben"), user)
    close_session(table)

    new, _ = rematch(table, user)

    assert seated(new) == ["Chen", "Dev", "Asha"]
    assert new.first_dealer.player.name == "Chen"


def test_no_rematch_when_everyone_else_went_home(user: User) -> None:
    table = make_session(user, players=("Asha", "Ben"))
    play(table, "8S", {"Asha": ROUND_1["Asha"], "Ben": ROUND_1["Ben"]})
    leave(table, table.seats.get(player__name="Ben"), user)

    with pytest.raises(EntryRejected, match="a rematch needs two players"):
        rematch(table, user)

    assert GameSession.objects.count() == 1


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


def test_a_rematch_is_named_in_the_language_it_is_started_in_and_never_twice(user: User) -> None:
    with translation.override("hi"):
        assert rematch_name(finished_session(user, name="Friday")) == "Friday (रीमैच)"
        # A rematch of one started in English is not called rematch twice either.
        assert rematch_name(finished_session(user, name="Friday (rematch)")) == "Friday (रीमैच)"
    assert rematch_name(finished_session(user, name="Friday (रीमैच)")) == "Friday (rematch)"
