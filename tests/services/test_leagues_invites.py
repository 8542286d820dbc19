"""Invite links: a role, an expiry, revocable; many people join through
one link while it works; nobody is ever lowered by one."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import League, LeagueInvite, Membership
from games.services.leagues import (
    InviteGone,
    LeagueError,
    active_invites,
    create_invite,
    create_league,
    join_by_invite,
    remove_member,
    revoke_invite,
)

pytestmark = pytest.mark.django_db

Role = Membership.Role


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Tuesday Club", preset="21-points", overrides={})


def person(name: str) -> User:
    return User.objects.create_user(name, password="x")


def test_an_invite_gives_its_role_and_works_for_many_people(user: User, club: League) -> None:
    invite = create_invite(club, user, role="scorer", days=7)
    assert invite.created_by == user
    expected = timezone.now() + datetime.timedelta(days=7)
    assert abs((invite.expires_at - expected).total_seconds()) < 5
    assert len(invite.token) >= 22

    for number, name in enumerate(("gita", "hugo"), start=1):
        joined = join_by_invite(invite, person(name))
        assert joined.outcome == "joined"
        assert joined.membership.role == Role.SCORER
        invite.refresh_from_db()
        assert invite.uses == number


def test_a_member_is_raised_by_a_higher_role_never_lowered(user: User, club: League) -> None:
    viewer = person("vera")
    Membership.objects.create(league=club, user=viewer, role=Role.VIEWER)
    scorer_link = create_invite(club, user, role="scorer", days=1)

    assert join_by_invite(scorer_link, viewer).outcome == "raised"
    assert Membership.objects.get(league=club, user=viewer).role == Role.SCORER

    # The owner follows a viewer link: still the owner, and the link counts no use.
    viewer_link = create_invite(club, user, role="viewer", days=1)
    joined = join_by_invite(viewer_link, user)
    assert joined.outcome == "already"
    assert Membership.objects.get(league=club, user=user).role == Role.OWNER
    viewer_link.refresh_from_db()
    assert viewer_link.uses == 0


def test_an_expired_link_lets_nobody_in(user: User, club: League) -> None:
    invite = create_invite(club, user, role="viewer", days=1)
    LeagueInvite.objects.filter(pk=invite.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    with pytest.raises(InviteGone, match="expired"):
        join_by_invite(invite, person("gita"))
    assert club.memberships.count() == 1
    assert not active_invites(club).exists()


def test_a_revoked_link_lets_nobody_in(user: User, club: League) -> None:
    invite = create_invite(club, user, role="viewer", days=30)
    kept = create_invite(club, user, role="scorer", days=30)
    revoke_invite(invite)
    revoked_at = LeagueInvite.objects.get(pk=invite.pk).revoked_at
    revoke_invite(invite)  # again: nothing changes
    assert LeagueInvite.objects.get(pk=invite.pk).revoked_at == revoked_at
    with pytest.raises(InviteGone, match="revoked"):
        join_by_invite(invite, person("gita"))
    assert list(active_invites(club)) == [kept]


@pytest.mark.parametrize(("role", "days"), [("owner", 7), ("admin", 7), ("viewer", 3)])
def test_an_invite_gives_only_scorer_or_viewer_for_a_listed_time(
    user: User, club: League, role: str, days: int
) -> None:
    with pytest.raises(LeagueError):
        create_invite(club, user, role=role, days=days)
    assert not club.invites.exists()


def test_the_database_refuses_an_owner_invite_and_a_repeated_token(
    user: User, club: League
) -> None:
    later = timezone.now() + datetime.timedelta(days=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        LeagueInvite.objects.create(league=club, role="owner", expires_at=later)
    first = create_invite(club, user, role="viewer", days=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        LeagueInvite.objects.create(league=club, token=first.token, expires_at=later)


def test_removing_a_member_replaces_every_open_link_with_one_of_its_role_and_end(
    user: User, club: League
) -> None:
    scorers = create_invite(club, user, role="scorer", days=7)
    viewers = create_invite(club, user, role="viewer", days=30)
    revoked = create_invite(club, user, role="viewer", days=1)
    revoke_invite(revoked)
    revoked_at = LeagueInvite.objects.get(pk=revoked.pk).revoked_at
    expired = create_invite(club, user, role="scorer", days=1)
    LeagueInvite.objects.filter(pk=expired.pk).update(expires_at=timezone.now())
    gita = person("gita")
    join_by_invite(scorers, gita)

    new = remove_member(Membership.objects.get(league=club, user=gita))

    assert [(link.role, link.expires_at, link.created_by, link.uses) for link in new] == [
        ("scorer", scorers.expires_at, user, 0),
        ("viewer", viewers.expires_at, user, 0),
    ]
    assert list(active_invites(club)) == new[::-1]  # newest first, as listed
    for old in (scorers, viewers):
        with pytest.raises(InviteGone, match="revoked"):
            join_by_invite(old, gita)
        with pytest.raises(InviteGone, match="revoked"):
            join_by_invite(old, person(f"someone-{old.role}"))
    assert not Membership.objects.filter(league=club, user=gita).exists()
    # Links that no longer worked stay as they were: nothing to replace.
    assert LeagueInvite.objects.get(pk=revoked.pk).revoked_at == revoked_at
    assert LeagueInvite.objects.get(pk=expired.pk).revoked_at is None
    assert club.invites.count() == 6  # four made, two replacing


def test_removing_a_member_of_a_league_without_open_links_makes_none(
    user: User, club: League
) -> None:
    gita = person("gita")
    Membership.objects.create(league=club, user=gita, role=Role.VIEWER)

    assert remove_member(Membership.objects.get(league=club, user=gita)) == []
    assert not club.invites.exists()


def test_a_removal_refused_leaves_the_links_working(user: User, club: League) -> None:
    invite = create_invite(club, user, role="viewer", days=7)

    with pytest.raises(LeagueError, match="needs an owner"):
        remove_member(Membership.objects.get(league=club, user=user))

    assert list(active_invites(club)) == [invite]
