"""Who may see or change a session (games/access.py): its creator outside a league, the
league's members by role inside one; and whose player pages they may open."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.http import Http404

from games.access import (
    can_view,
    can_write,
    league_rights,
    rights_in,
    sessions_visible_to,
    visible_player,
)
from games.models import GameSession, League, Membership, Player, PlayerClaim
from tests.support.builders import make_session

pytestmark = pytest.mark.django_db


def test_visibility_follows_creator_and_league_membership(user: User, table: GameSession) -> None:
    other = User.objects.create_user("ben")
    assert can_view(user, table) and can_write(user, table)
    assert not can_view(other, table)

    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    table.league = league
    table.save()
    membership = Membership.objects.create(league=league, user=other, role="viewer")
    assert can_view(other, table) and not can_write(other, table)
    membership.role = "scorer"
    membership.save()
    assert can_write(other, table)
    assert list(sessions_visible_to(other)) == [table]


@pytest.mark.parametrize(
    ("role", "view", "write", "manage"),
    [
        ("owner", True, True, True),
        ("scorer", True, True, False),
        ("viewer", True, False, False),
        (None, False, False, False),
    ],
)
def test_a_role_gives_the_same_rights_in_a_league_as_in_its_sessions(
    user: User, role: str | None, view: bool, write: bool, manage: bool
) -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    session = make_session(user, league=league)
    member = User.objects.create_user("ben")
    if role:
        Membership.objects.create(league=league, user=member, role=role)

    expected = (view, write, manage)
    rights = league_rights(role)
    assert (rights.view, rights.write, rights.manage) == expected
    rights = rights_in(member, session)
    assert (rights.view, rights.write, rights.manage) == expected


def test_a_player_is_found_where_they_played_or_by_who_claimed_them(user: User) -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    Membership.objects.create(league=league, user=user, role="viewer")
    make_session(User.objects.create_user("ben"), league=league, players=("Asha", "Ben"))
    asha = Player.objects.get(name="Asha")
    stranger = User.objects.create_user("cy")
    never_played = Player.objects.create(name="Dev")

    assert visible_player(user, asha.pk)[0] == asha  # played in their league
    with pytest.raises(Http404):
        visible_player(stranger, asha.pk)  # in no league of theirs
    with pytest.raises(Http404):
        visible_player(user, never_played.pk)
    PlayerClaim.objects.create(league=league, player=never_played, user=user)
    assert visible_player(user, never_played.pk)[0] == never_played  # "this is me"
