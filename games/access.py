"""Who may see or change what: the one place that decides it.

A session outside any league belongs to its creator alone. A league's sessions follow
the league's roles, whoever started them: a member who leaves the league (or becomes a
viewer) keeps no rights over the sessions they started in it.

- **view** a session: its creator (outside a league), or any member of its league;
- **write** (add, edit and delete rounds, end the session, rejoin players): its
  creator, or a league owner or scorer;
- **manage** (stakes, the share link): its creator, or a league owner;
- a league's pages: its members; its house rules and members: its owners;
- a share link: anyone holding it, read-only;
- an invite link: anyone signed in holding it may join its league with its
  role while it works; its league's owners make and revoke them;
- a player name: a league's members may claim a player of its sessions as themselves;
  the claimant or an owner undoes the claim;
- a table link (table mode): anyone holding it may pick a free seat of a player still
  in; the phone that picked it (its signed seat cookie) may then enter that seat's
  hand of the round being entered, from a page of that seat (``seat_of_page``), and
  nothing else. Scorers (write) open, replace and close the link, release seats,
  correct hands and save the round.

Anyone else is told nothing exists (404), so ids and slugs reveal nothing; a member
without the right role gets a 403. Every view, export, standings query and share page
asks this module, through the ``*_for`` helpers below or the querysets and Q objects
for lists. The seat cookie's form is this module's too: games/live.py, which answers a
phone's polls from the cache, reads the cookie as sent through ``seat_cookie_sent``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy

from games.ids import an_id, id_in
from games.models import (
    GameSession,
    League,
    LeagueInvite,
    Membership,
    Player,
    PlayerClaim,
    Round,
    Seat,
)

AnyUser = AbstractBaseUser | AnonymousUser
Need = Literal["view", "write", "manage"]

OWNER = Membership.Role.OWNER
# Roles that may add, edit and delete rounds of a league's sessions.
WRITE_ROLES = (Membership.Role.OWNER, Membership.Role.SCORER)
ROLES_FOR: dict[Need, tuple[str, ...]] = {
    "view": tuple(Membership.Role.values),
    "write": WRITE_ROLES,
    "manage": (OWNER,),
}
# Roles from least to most: an invite raises a member's role, never lowers it.
ROLE_ORDER = (Membership.Role.VIEWER, Membership.Role.SCORER, OWNER)
# What the 403 page says (it shows a refusal's words): lazy, in the page's language.
REFUSALS = {
    "write": gettext_lazy("Only the session's creator or a league scorer may do that."),
    "manage": gettext_lazy("Only the session's creator or a league owner may do that."),
}


# --- Sessions --------------------------------------------------------------------------


@dataclass(frozen=True)
class Rights:
    """What one user may do with one session, decided with (at most) one query: a page
    that needs several answers (the session page: view, write, manage) asks once."""

    view: bool = False
    write: bool = False
    manage: bool = False

    def allow(self, need: Need) -> bool:
        return getattr(self, need)


def rights_in(user: AnyUser, session: GameSession) -> Rights:
    if not user.is_authenticated:
        return Rights()
    if session.league_id is None:
        own = session.created_by_id == user.pk
        return Rights(own, own, own)
    return league_rights(_role(user, session.league_id))


def league_rights(role: str | None) -> Rights:
    """What a member with ``role`` (None: not a member) may do in a league and its
    sessions: view; write (start sessions, enter rounds); manage (members, invites,
    house rules, the share links, others' claims)."""
    return Rights(
        view=role in ROLES_FOR["view"],
        write=role in ROLES_FOR["write"],
        manage=role in ROLES_FOR["manage"],
    )


def can_view(user: AnyUser, session: GameSession) -> bool:
    return rights_in(user, session).view


def can_write(user: AnyUser, session: GameSession) -> bool:
    """Add, edit and delete rounds, end the session, rejoin players: its creator, or
    a league owner or scorer."""
    return rights_in(user, session).write


def can_manage(user: AnyUser, session: GameSession) -> bool:
    """Set the stakes and replace the share link: its creator, or a league owner."""
    return rights_in(user, session).manage


def session_with_rights(user: AnyUser, pk: int, need: Need = "view") -> tuple[GameSession, Rights]:
    """The session, if ``user`` may see it and do what they ``need``, with all that
    they may do in it: a 404 for a session they may not see, a 403 for one they may
    see but not change."""
    # With its league (the page names it); the creator and the first dealer are not
    # looked at, and joining them in cost every save and page half a millisecond.
    session = GameSession.objects.select_related("league").filter(pk=pk).first()
    rights = rights_in(user, session) if session is not None else Rights()
    if not rights.view:
        raise Http404("No such session.")
    if not rights.allow(need):
        raise PermissionDenied(REFUSALS[need])
    return session, rights


def session_for(user: AnyUser, pk: int, need: Need = "view") -> GameSession:
    """The session, if ``user`` may see it and do what they ``need`` (see
    ``session_with_rights``)."""
    return session_with_rights(user, pk, need)[0]


# A row of a session's own: one of its rounds or seats.
OfSession = TypeVar("OfSession", Round, Seat)


def round_for(user: AnyUser, pk: int, round_pk: int, need: Need = "view") -> Round:
    """A round of a session ``user`` may see (and change, as ``session_for`` decides)."""
    session = session_for(user, pk, need)
    return _one_of(session, session.rounds.select_related("dealer__player"), round_pk, "round")


def seat_for(user: AnyUser, pk: int, seat_pk: int, need: Need = "view") -> Seat:
    """A seat at a session ``user`` may see (and change, as ``session_for`` decides);
    a 404 for a seat of another session."""
    session = session_for(user, pk, need)
    return _one_of(session, session.seats.select_related("player"), seat_pk, "seat")


def _one_of(session: GameSession, rows: QuerySet[OfSession], pk: int, what: str) -> OfSession:
    """Row ``pk`` of one of ``session``'s own tables (its rounds, its seats), else a 404,
    with the session it belongs to already loaded and its access check done."""
    row = rows.filter(pk=pk).first()
    if row is None:
        raise Http404(f"No such {what}.")
    row.session = session
    return row


def session_for_share_token(token: str) -> GameSession:
    """The session a share link shows, read-only, to anyone holding it."""
    session = GameSession.objects.select_related("league").filter(share_token=token).first()
    if session is None:
        raise Http404("No such session.")
    return session


# --- Table mode: the table link and the phones' seats ----------------------------------

SEAT_COOKIE = "seat"
# A seat is a phone's for the evening; a cookie older than this is no longer read.
SEAT_COOKIE_AGE = 2 * 24 * 3600
SEAT_REFUSED = gettext_lazy(
    "This phone holds no seat at this table: pick yours from the table link."
)


def session_for_table_token(token: str) -> GameSession:
    """The session a table link enters hands for: a 404 for a link that was replaced,
    closed or never existed."""
    session = GameSession.objects.select_related("league").filter(table_token=token).first()
    if session is None:
        raise Http404("No such table.")
    return session


def _seat_salt(session: GameSession, token: str | None = None) -> str:
    # Signed for one session and one table link: a seat cookie of another session, or
    # of a link since replaced, does not verify here.
    return f"games.seat:{session.pk}:{token or session.table_token}"


def give_seat(response: HttpResponse, session: GameSession, seat: Seat) -> None:
    """Make the phone that gets ``response`` the one holding ``seat`` (picked by
    services.table.claim_seat, which set its phone_key): a signed cookie sent only to
    this table link's pages."""
    response.set_signed_cookie(
        SEAT_COOKIE,
        f"{seat.pk}:{seat.phone_key}",
        salt=_seat_salt(session),
        max_age=SEAT_COOKIE_AGE,
        path=f"/table/{session.table_token}/",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def drop_seat(response: HttpResponse, session: GameSession) -> None:
    response.delete_cookie(SEAT_COOKIE, path=f"/table/{session.table_token}/", samesite="Lax")


def phone_seat(request: HttpRequest, session: GameSession) -> Seat | None:
    """The seat this phone holds at the session's table: its cookie verifies for
    this session and link, and the seat is still this phone's (not released since,
    nor picked again by another phone). None otherwise."""
    try:
        value = request.get_signed_cookie(
            SEAT_COOKIE, salt=_seat_salt(session), max_age=SEAT_COOKIE_AGE
        )
    except (KeyError, signing.BadSignature):
        return None
    seat_pk, _, key = value.partition(":")
    seat_pk = an_id(seat_pk)
    if seat_pk is None or not key:
        return None
    return session.seats.select_related("player").filter(pk=seat_pk, phone_key=key).first()


@dataclass(frozen=True)
class SeatCookie:
    """The seat cookie as the phone sent it, not verified: games/live.py compares it
    only with a value the verified path (``phone_seat``) answered, in the cache."""

    seat_pk: str
    value: str  # the whole signed value
    read_until: float  # the time after which phone_seat no longer reads it


def seat_cookie_sent(request: HttpRequest) -> SeatCookie | None:
    value = request.COOKIES.get(SEAT_COOKIE, "")
    seat_pk = value.partition(":")[0]
    if not (seat_pk.isascii() and seat_pk.isdigit() and len(seat_pk) <= 18 and len(value) < 300):
        return None
    try:  # signed as "seat:key:timestamp:signature" (Django's signed cookies)
        signed_at = signing.b62_decode(value.rsplit(":", 2)[-2])
    except (ValueError, IndexError):
        return None
    return SeatCookie(seat_pk, value, signed_at + SEAT_COOKIE_AGE)


def seat_of_gone_link(request: HttpRequest, token: str) -> Seat | None:
    """The seat this phone held at a table whose link ``token`` was, closed or
    replaced since: its seat cookie verifies for that session and that very link (a
    phone that never held a seat there, or a link that never existed, gets None). It
    opens nothing: the phone is only told what became of the link."""
    seat_pk = an_id(request.COOKIES.get(SEAT_COOKIE, "").partition(":")[0])
    if seat_pk is None:
        return None
    seat = Seat.objects.select_related("session__league", "player").filter(pk=seat_pk).first()
    if seat is None or seat.session.table_token == token:
        return None
    try:
        request.get_signed_cookie(
            SEAT_COOKIE, salt=_seat_salt(seat.session, token), max_age=SEAT_COOKIE_AGE
        )
    except (KeyError, signing.BadSignature):
        return None
    return seat


def seat_for_phone(request: HttpRequest, session: GameSession) -> Seat:
    """The phone's seat, or a 403: only the phone holding a seat enters its hand."""
    seat = phone_seat(request, session)
    if seat is None:
        raise PermissionDenied(SEAT_REFUSED)
    return seat


def seat_of_page(request: HttpRequest, seat: Seat | None) -> Seat | None:
    """``seat`` (the one this phone holds, or held at a link gone since) if the page
    that sent ``request`` shows it, else None. A seat's page names its seat in its poll
    and its forms (``seat``), and one phone holds one seat: a page left open on a seat
    the phone gave up since for another, picked in another tab (a phone shared by two
    players), holds nothing there, and is never answered with the other seat's hand,
    nor leaves or hands in for it. A request that names no seat (a page opened at its
    address) is the phone's."""
    named = seat_named(request)
    return seat if seat is None or named is None or named == seat.pk else None


def seat_named(request: HttpRequest) -> int | None:
    """The seat a table page's request names (``seat_of_page``), if it names one."""
    return id_in(request.POST if request.method == "POST" else request.GET, "seat")


def sessions_visible_to(user: AnyUser) -> QuerySet[GameSession]:
    """Sessions a user created outside any league, or that belong to a league they
    are a member of."""
    if not user.is_authenticated:
        return GameSession.objects.none()
    # The leagues by a subquery, not a join of their memberships: no row twice.
    return GameSession.objects.filter(own_tables(user) | league_tables(user))


def visible_sessions(user: AnyUser, league_ids: Sequence[int], through: str = "") -> Q:
    """The sessions ``user`` may see, as ``can_view`` decides one by one, as a Q over
    GameSession for queries that join it: the ones they created outside any league and
    those of the leagues (``league_ids``, e.g. the keys of ``member_leagues``) they belong to.

    ``through`` is the path to the session from another model ("session__" for
    seats, "round__session__" for hands): filtering the joined row lets the
    database start from the player's own rows, where ``session__in`` a subquery of
    every visible session made it read the whole sessions table (benchmarks/http.py)."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    return own_tables(user, through) | Q(**{f"{through}league_id__in": list(league_ids)})


def own_tables(user: AnyUser, through: str = "") -> Q:
    """The part of ``visible_sessions`` that is the user's own: the sessions they
    created outside any league (``through`` as there)."""
    return Q(**{f"{through}created_by": user, f"{through}league__isnull": True})


def league_tables(user: AnyUser, through: str = "") -> Q:
    """The other part: the sessions of every league the user is a member of, the
    leagues read by the database (``through`` as in ``visible_sessions``)."""
    return Q(**{f"{through}league__in": Membership.objects.filter(user=user).values("league_id")})


def visible_player(user: AnyUser, pk: int) -> tuple[Player, dict[int, League]]:
    """A player ``user`` may look up, with the leagues they are a member of (by id, as
    ``member_leagues``): one who sat at a session they may see, or the one they
    claimed; a 404 for any other (an id reveals nothing)."""
    leagues = member_leagues(user)
    seen = visible_sessions(user, list(leagues), through="session__")
    player = (
        Player.objects.filter(pk=pk)
        .filter(
            Exists(Seat.objects.filter(seen, player=OuterRef("pk")))
            | Exists(PlayerClaim.objects.filter(player=OuterRef("pk"), user_id=user.pk))
        )
        .first()
    )
    if player is None:
        raise Http404("No such player.")
    return player, leagues


# --- Leagues ---------------------------------------------------------------------------


def _roles(user: AnyUser) -> QuerySet[Membership]:
    """The user's memberships, as every role read in this module starts from them: by
    id, as Membership's default order would join the league and the user for nothing
    (one row a league at most)."""
    return Membership.objects.filter(user=user).order_by("pk").values("role")


def _role(user: AnyUser, league_id: int) -> str | None:
    if not user.is_authenticated:
        return None
    row = _roles(user).filter(league_id=league_id).first()
    return row["role"] if row else None


def gains(role: str | None, given: str) -> bool:
    """Whether a member with ``role`` (None: not a member) would gain by ``given``, the
    role an invite gives: a role lower than theirs is not taken."""
    return role is None or ROLE_ORDER.index(role) < ROLE_ORDER.index(given)


def role_of(user: AnyUser, league: League) -> str | None:
    """The user's role in the league, or None for someone who is not a member."""
    return _role(user, league.pk)


def league_for(user: AnyUser, slug: str, need: Literal["view", "manage"] = "view"):
    """The league and ``user``'s role in it: a 404 for anyone who is not a member, so
    a slug reveals nothing; a 403 for a member who is not an owner when ``need`` is
    "manage" (house rules, members)."""
    leagues = League.objects.filter(slug=slug)
    if user.is_authenticated:
        # The role read with the league: one query where two were.
        leagues = leagues.annotate(
            member_role=Subquery(_roles(user).filter(league=OuterRef("pk"))[:1])
        )
    league = leagues.first()
    role = getattr(league, "member_role", None)
    if role is None:
        raise Http404("No such league.")
    if need == "manage" and role != OWNER:
        raise PermissionDenied(gettext_lazy("Only the league's owners may do that."))
    return league, role


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


def member_leagues(user: AnyUser) -> dict[int, League]:
    """The leagues a user is a member of, by id in the order of their names, each
    annotated with ``role`` (the user's): one query."""
    if not user.is_authenticated:
        return {}
    return {
        league.pk: league
        for league in League.objects.filter(memberships__user=user).annotate(
            role=F("memberships__role")
        )
    }


def leagues_for_scorer(user: AnyUser) -> QuerySet[League]:
    """Leagues a user may start sessions in."""
    if not user.is_authenticated:
        return League.objects.none()
    return League.objects.filter(memberships__user=user, memberships__role__in=WRITE_ROLES)


# --- Invite links and claimed players --------------------------------------------------


def invite_for_token(token: str) -> LeagueInvite:
    """The invite an invite link names, working or not (the page says which): a 404
    for a token that never was one, so guessing finds nothing."""
    invite = LeagueInvite.objects.select_related("league").filter(token=token).first()
    if invite is None:
        raise Http404("No such invite.")
    return invite


def member_in(league: League, pk: int) -> Membership:
    """One of ``league``'s memberships (the caller checked the user manages it)."""
    membership = league.memberships.select_related("user", "league").filter(pk=pk).first()
    if membership is None:
        raise Http404("No such member.")
    return membership


def invite_in(league: League, pk: int) -> LeagueInvite:
    """One of ``league``'s invites (the caller checked the user manages it)."""
    invite = league.invites.filter(pk=pk).first()
    if invite is None:
        raise Http404("No such invite.")
    return invite


def league_player_for(user: AnyUser, slug: str, player_pk: int) -> tuple[League, str, Player]:
    """A league ``user`` is a member of, their role, and a player who sat at one of
    its sessions: a 404 for a player who never played there (ids reveal nothing)."""
    league, role = league_for(user, slug)
    player = Player.objects.filter(pk=player_pk, seats__session__league=league).first()
    if player is None:
        raise Http404("No such player in this league.")
    return league, role, player


def claim_for(user: AnyUser, slug: str, player_pk: int) -> PlayerClaim:
    """A claim of a player in a league, if ``user`` may undo it: their own, or any as
    one of the league's owners (403 for other members; 404 where nobody claimed)."""
    league, role = league_for(user, slug)
    claim = (
        PlayerClaim.objects.select_related("player", "user", "league")
        .filter(league=league, player_id=player_pk)
        .first()
    )
    if claim is None:
        raise Http404("Nobody claimed this player in this league.")
    if not may_undo(claim, user, role):
        raise PermissionDenied(
            gettext_lazy("Only the league's owners may undo someone else's claim.")
        )
    return claim


def may_undo(claim: PlayerClaim, user: AnyUser, role: str | None) -> bool:
    """Whether ``user``, with ``role`` in the claim's league, may undo ``claim``: their
    own, or any as one of the league's owners."""
    return claim.user_id == user.pk or league_rights(role).manage
