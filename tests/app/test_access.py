"""Who may see or change a session (games/access.py): its creator outside a league, the
league's members by role inside one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.access import can_view, can_write, sessions_visible_to
from games.models import GameSession

pytestmark = pytest.mark.django_db


def test_visibility_follows_creator_and_league_membership(user: User, table: GameSession) -> None:
    from games.models import League, Membership

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
