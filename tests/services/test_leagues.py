"""A new league's address (services.leagues): free when it is written, even when
another league takes the one picked a moment before."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import League, Membership
from games.services import leagues
from games.services.leagues import LeagueError, create_league

pytestmark = pytest.mark.django_db


def taken_first(monkeypatch: pytest.MonkeyPatch, *picks: str) -> None:
    """fresh_slug picks these in turn: as if another league had been written at each
    taken one between the pick and the insert."""
    order = iter(picks)
    monkeypatch.setattr(leagues, "fresh_slug", lambda name, wanted="": next(order))


def test_a_league_whose_address_is_taken_before_it_is_written_gets_the_next(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    create_league(user, name="Club", preset="21-points", overrides={})
    taken_first(monkeypatch, "club", "club-2")

    league = create_league(user, name="Club", preset="21-points", overrides={})

    assert league.slug == "club-2"
    assert Membership.objects.get(league=league).role == Membership.Role.OWNER


def test_no_free_address_after_three_tries_says_so_and_makes_nothing(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    create_league(user, name="Club", preset="21-points", overrides={})
    taken_first(monkeypatch, "club", "club", "club")

    with pytest.raises(LeagueError, match="free address"):
        create_league(user, name="Club", preset="21-points", overrides={})

    assert list(League.objects.values_list("slug", flat=True)) == ["club"]
