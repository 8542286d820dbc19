"""Who may see or change what: the one place that decides it.

A session outside any league belongs to its creator alone. A league's sessions follow
the league's roles, whoever started them: a member who leaves the league (or becomes a
viewer) keeps no rights over the sessions they started in it. Owners may do
everything; scorers enter, edit and delete rounds, end sessions and rejoin players;
viewers look. Anyone else is told nothing exists (404), so ids and slugs reveal
nothing; a member without the right role gets a 403.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, Q, QuerySet

from games.models import (
    GameSession,
    League,
    Membership,
)

AnyUser = AbstractBaseUser | AnonymousUser

# Roles that may add, edit and delete rounds of a league's sessions.
WRITE_ROLES = (Membership.Role.OWNER, Membership.Role.SCORER)


# A league's sessions follow the league's roles, whoever started them: a member
# who leaves the league (or becomes a viewer) keeps no rights over the sessions they
# started in it. A session outside any league belongs to its creator alone.


def sessions_visible_to(user: AnyUser) -> QuerySet[GameSession]:
    """Sessions a user created outside any league, or that belong to a league they
    are a member of."""
    if not user.is_authenticated:
        return GameSession.objects.none()
    return GameSession.objects.filter(
        Q(created_by=user, league__isnull=True) | Q(league__memberships__user=user)
    ).distinct()


def _has_role(user: AnyUser, session: GameSession, roles: Sequence[str]) -> bool:
    if not user.is_authenticated:
        return False
    if session.league_id is None:
        return session.created_by_id == user.pk
    return Membership.objects.filter(
        league_id=session.league_id, user=user, role__in=roles
    ).exists()


def can_view(user: AnyUser, session: GameSession) -> bool:
    return _has_role(user, session, Membership.Role.values)


def can_write(user: AnyUser, session: GameSession) -> bool:
    """Add, edit and delete rounds, end the session, rejoin players: its creator, or
    a league owner or scorer."""
    return _has_role(user, session, WRITE_ROLES)


def can_manage(user: AnyUser, session: GameSession) -> bool:
    """Set the stakes and replace the share link: its creator, or a league owner."""
    return _has_role(user, session, (Membership.Role.OWNER,))


def leagues_for_scorer(user: AnyUser) -> QuerySet[League]:
    """Leagues a user may start sessions in."""
    if not user.is_authenticated:
        return League.objects.none()
    return League.objects.filter(memberships__user=user, memberships__role__in=WRITE_ROLES)


def leagues_of(user: AnyUser) -> QuerySet[League]:
    """The leagues a user is a member of, each annotated with ``role`` (theirs) and
    ``session_count``."""
    if not user.is_authenticated:
        return League.objects.none()
    return (
        League.objects.filter(memberships__user=user)
        .annotate(role=F("memberships__role"), session_count=Count("sessions", distinct=True))
        .order_by("name")
    )


def role_of(user: AnyUser, league: League) -> str | None:
    """The user's role in the league, or None for someone who is not a member."""
    if not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(league=league, user=user).values_list("role", flat=True).first()
    )
