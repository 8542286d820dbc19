"""Claiming a player name: one account per player and one player per
account in a league; a player may be claimed in each league they play in; owners
(and the claimant) undo a claim; leaving the league drops it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from games.models import League, Membership, Player, PlayerClaim
from games.services.leagues import (
    LeagueError,
    claim_player,
    create_league,
    remove_member,
    unclaim_player,
)
from tests.support.builders import make_session

pytestmark = pytest.mark.django_db

Role = Membership.Role


@pytest.fixture
def club(user: User) -> League:
    league = create_league(user, name="Tuesday Club", preset="21-points", overrides={})
    make_session(user, league=league)
    return league


@pytest.fixture
def ben() -> User:
    return User.objects.create_user("ben", password="x")


def named(name: str) -> Player:
    return Player.objects.get(name=name)


def test_a_member_claims_a_player_and_nobody_else_can(user: User, club: League, ben) -> None:
    Membership.objects.create(league=club, user=ben, role=Role.VIEWER)
    claim = claim_player(club, named("Ben"), ben)
    assert (claim.league, claim.player.name, claim.user) == (club, "Ben", ben)

    with pytest.raises(LeagueError, match="already claimed by ben"):
        claim_player(club, named("Ben"), user)
    with pytest.raises(LeagueError, match="You already claimed Ben"):
        claim_player(club, named("Chen"), ben)
    with pytest.raises(LeagueError, match="You already claimed Ben"):
        claim_player(club, named("Ben"), ben)
    assert PlayerClaim.objects.count() == 1


def test_the_database_holds_one_account_per_player_and_one_player_per_account(
    user: User, club: League, ben
) -> None:
    PlayerClaim.objects.create(league=club, player=named("Ben"), user=ben)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerClaim.objects.create(league=club, player=named("Ben"), user=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerClaim.objects.create(league=club, player=named("Chen"), user=ben)


def test_a_player_is_claimed_per_league(user: User, club: League, ben) -> None:
    other = create_league(ben, name="Harbour Club", preset="21-points", overrides={})
    # Ben plays in both clubs' sessions: the same Player, seated by name by the same user.
    Membership.objects.create(league=other, user=user, role=Role.SCORER)
    make_session(user, league=other)
    assert PlayerClaim.objects.count() == 0
    claim_player(club, named("Ben"), ben)
    claim_player(other, named("Ben"), user)
    assert PlayerClaim.objects.filter(player=named("Ben")).count() == 2


def test_undoing_a_claim_frees_the_player_and_the_account(user: User, club: League, ben) -> None:
    claim = claim_player(club, named("Ben"), ben)
    unclaim_player(claim)
    claim_player(club, named("Ben"), user)
    claim_player(club, named("Chen"), ben)
    assert PlayerClaim.objects.count() == 2


def test_leaving_the_league_drops_the_claim(user: User, club: League, ben) -> None:
    membership = Membership.objects.create(league=club, user=ben, role=Role.VIEWER)
    claim_player(club, named("Ben"), ben)
    remove_member(membership)
    assert not PlayerClaim.objects.exists()
