"""League use cases: creating a league (at a free address, which an imported league
gets here too), its house rules and its members, invite links and claims.

A league is a club's record, so every change here runs in one transaction and keeps
one invariant the pages rely on: a league always has at least one owner (otherwise
nobody could manage its members or rules again). Rulesets are validated by the rules
service before they are stored, as everywhere else.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, F, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.access import AnyUser, gains
from games.models import League, LeagueInvite, Membership, Player, PlayerClaim
from games.rules import Ruleset, get_ruleset
from games.services.round_audit import signed_in_or_none
from games.services.table import league_auto_save_changed

Role = Membership.Role


class LeagueError(Exception):
    """A change to a league that its rules refuse (the message says why)."""


# Addresses of pages under /leagues/ that a league's slug must not shadow.
RESERVED_SLUGS = frozenset({"new"})


def _slug_base(name: str) -> str:
    base = slugify(name)[:90] or "league"
    return f"{base}-league" if base in RESERVED_SLUGS else base


def fresh_slug(name: str, wanted: str = "") -> str:
    """A free address for a new league: ``wanted`` (an imported file's) or its name's,
    numbered if another league has it ("club-2", "club-3"), as people read and say
    an address. Whose league has it is never said: a league a user may not see
    answers 404 at its address as a league that does not exist (access.league_for)."""
    base = wanted if wanted and wanted not in RESERVED_SLUGS else _slug_base(name)
    limit = League._meta.get_field("slug").max_length
    slug, number = base, 1
    while League.objects.filter(slug=slug).exists():
        number += 1
        suffix = f"-{number}"
        slug = base[: limit - len(suffix)].rstrip("-") + suffix
    return slug


def create_league(
    user: AnyUser,
    *,
    name: str,
    preset: str,
    overrides: dict[str, Any],
    money_per_point: Decimal | None = None,
    time_zone: str = "",
    language: str = "",
    currency: str = "",
) -> League:
    """A new league with ``user`` as its owner; raises RulesError for bad rules.
    ``time_zone``: its clock, empty for the site's (games/zones.py); ``language``:
    the one its pages open in, empty for each browser's; ``currency``: its money's ISO
    code, empty for its language's default (games/currencies.py)."""
    get_ruleset(preset, overrides)  # the rules service has the last word on options
    with transaction.atomic():
        league = league_at_a_free_address(
            name=name,
            preset=preset,
            overrides=overrides,
            money_per_point=money_per_point,
            time_zone=time_zone,
            language=language,
            currency=currency,
        )
        Membership.objects.create(league=league, user=user, role=Role.OWNER)
    return league


def league_at_a_free_address(wanted: str = "", **columns: Any) -> League:
    """A new league row at the address fresh_slug picks (``wanted`` where it is free).
    Another league may take the address picked before this one is written: the clash
    is undone by a savepoint and the next address tried, three times before giving up
    (LeagueError)."""
    for _attempt in range(3):
        try:
            with transaction.atomic():
                return League.objects.create(**columns, slug=fresh_slug(columns["name"], wanted))
        except IntegrityError:
            continue
    raise LeagueError(_("Could not find a free address for this league; try another name."))


def update_rules(
    league: League,
    *,
    name: str,
    preset: str,
    overrides: dict[str, Any],
    money_per_point: Decimal | None,
    table_auto_save: bool | None = None,
    time_zone: str | None = None,
    language: str | None = None,
    currency: str | None = None,
) -> League:
    """Replace the league's name, default rules and point value (and, given, its table
    mode, time zone, language and currency). Sessions already started keep the rules
    they were started with (they store their own); their times read in the league's
    zone, and their money in its currency, as they are now."""
    get_ruleset(preset, overrides)
    league.name = name
    league.preset = preset
    league.overrides = overrides
    league.money_per_point = money_per_point
    auto_save_moved = table_auto_save is not None and table_auto_save != league.table_auto_save
    if table_auto_save is not None:
        league.table_auto_save = table_auto_save
    if time_zone is not None:
        league.time_zone = time_zone
    if language is not None:
        league.language = language
    if currency is not None:
        league.currency = currency
    league.save(
        update_fields=[
            "name",
            "preset",
            "overrides",
            "money_per_point",
            "table_auto_save",
            "time_zone",
            "language",
            "currency",
        ]
    )
    if auto_save_moved:
        league_auto_save_changed(league)
    return league


def _owners_left(league: League, without: Membership) -> int:
    return league.memberships.filter(role=Role.OWNER).exclude(pk=without.pk).count()


def add_member(league: League, username: str, role: str) -> Membership:
    """Add an existing user to the league by username."""
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise LeagueError(
            _("Nobody has the username {username}. They sign up first.").format(
                username=repr(username.strip())
            )
        )
    if role not in Role.values:
        raise LeagueError(_("Pick a role: owner, scorer or viewer."))
    try:
        with transaction.atomic():
            return Membership.objects.create(league=league, user=user, role=role)
    except IntegrityError:
        raise LeagueError(
            _("{username} is already a member.").format(username=user.get_username())
        ) from None


def change_role(membership: Membership, role: str) -> Membership:
    if role not in Role.values:
        raise LeagueError(_("Pick a role: owner, scorer or viewer."))
    with transaction.atomic():
        # Lock the league's owners so two owners demoting each other at once cannot
        # leave it with none.
        list(
            Membership.objects.select_for_update().filter(
                league_id=membership.league_id, role=Role.OWNER
            )
        )
        if (
            membership.role == Role.OWNER
            and role != Role.OWNER
            and not _owners_left(membership.league, membership)
        ):
            raise LeagueError(_("A league needs an owner: make someone else owner first."))
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def remove_member(membership: Membership) -> list[LeagueInvite]:
    """Remove a member, and replace the league's open invite links: a link works for
    whoever holds it, the member removed too, who could otherwise join again at once.
    Returns the new links (none if none was open), each with its old one's role and
    end, for the owners to hand out instead."""
    with transaction.atomic():
        list(
            Membership.objects.select_for_update().filter(
                league_id=membership.league_id, role=Role.OWNER
            )
        )
        if membership.role == Role.OWNER and not _owners_left(membership.league, membership):
            raise LeagueError(_("A league needs an owner: make someone else owner first."))
        replaced = _replace_open_invites(membership.league_id)
        # Who they were at the table is the league's members' to say: a former member's
        # claim would keep their name on the league's standings.
        PlayerClaim.objects.filter(
            league_id=membership.league_id, user_id=membership.user_id
        ).delete()
        membership.delete()
    return replaced


def _replace_open_invites(league_id: int) -> list[LeagueInvite]:
    """Revoke the league's open invite links and make one for each: the same role,
    maker and end (a link meant to work for a week works no longer than that), a new
    address. Locked as a join locks its link: someone joining through one at this
    moment either joins first (and is a member the owners see) or is refused."""
    now = timezone.now()
    opened = list(_working_invites(league_id, now).select_for_update().order_by("created_at", "pk"))
    LeagueInvite.objects.filter(pk__in=[old.pk for old in opened]).update(revoked_at=now)
    return [
        LeagueInvite.objects.create(
            league_id=league_id,
            role=old.role,
            created_by_id=old.created_by_id,
            expires_at=old.expires_at,
        )
        for old in opened
    ]


def members(league: League) -> QuerySet[Membership]:
    return league.memberships.select_related("user").order_by("role", "user__username")


@dataclass(frozen=True)
class Invitable:
    """Someone an imported league file listed as a member, not added by the import."""

    username: str
    role: str  # the role the file gave them: what the invitation offers first
    has_account: bool  # an account by that username exists here (add_member needs one)
    claimed: str | None = None  # the player they said "this is me" of in the file


def invitable(league: League) -> list[Invitable]:
    """The members the league's imported file listed who are not members yet: its
    owners may add them with the usual form (an import adds nobody: a file may not act
    on an account)."""
    listed = [
        (item["username"], item.get("role", Role.VIEWER), item.get("claimed"))
        for item in league.imported_members
        if isinstance(item, dict) and isinstance(item.get("username"), str)
    ]
    if not listed:
        return []
    # Compared as add_member finds users: ignoring case.
    wanted = {username.lower() for username, _role, _claimed in listed}
    users = get_user_model().objects.annotate(key=Lower("username")).filter(key__in=wanted)
    accounts = set(users.values_list("key", flat=True))
    joined = set(users.filter(memberships__league=league).values_list("key", flat=True))
    return [
        Invitable(
            username,
            role if role in Role.values else Role.VIEWER,
            key in accounts,
            claimed if isinstance(claimed, str) else None,
        )
        for username, role, claimed in listed
        if (key := username.lower()) not in joined
    ]


def league_sessions(league: League):
    """The league's sessions, newest first, with their players."""
    return (
        league.sessions.prefetch_related("seats__player")
        .annotate(round_count=Count("rounds", distinct=True))
        .order_by("-played_on", "-pk")
    )


def defaults_of(league: League) -> Ruleset:
    """The league's house rules as a Ruleset (its preset with its overrides)."""
    return get_ruleset(league.preset, league.overrides)


# --- Invite links --------------------------------------------------------------------

# How long a new invite link works, in days: the owner picks one.
INVITE_DAYS = (1, 7, 30)
# What an owner is told of another choice (the invite form says the same beside it).
PICK_INVITE_ROLE = gettext_lazy("Pick the role the link gives: scorer or viewer.")
PICK_INVITE_DAYS = gettext_lazy("Pick how long the link works: 1, 7 or 30 days.")


class InviteGone(LeagueError):
    """The invite link expired or was revoked (the message says which)."""


def create_invite(league: League, user: AnyUser, *, role: str, days: int) -> LeagueInvite:
    """A new invite link to ``league`` giving ``role`` (scorer or viewer), working for
    ``days`` days for as many people as it is handed to."""
    if role not in LeagueInvite.Role.values:
        raise LeagueError(str(PICK_INVITE_ROLE))
    if days not in INVITE_DAYS:
        raise LeagueError(str(PICK_INVITE_DAYS))
    return LeagueInvite.objects.create(
        league=league,
        role=role,
        created_by=signed_in_or_none(user),
        expires_at=timezone.now() + datetime.timedelta(days=days),
    )


def revoke_invite(invite: LeagueInvite) -> None:
    """The link stops working at once; revoking it twice changes nothing."""
    LeagueInvite.objects.filter(pk=invite.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def _working_invites(league_id: int, now: datetime.datetime) -> QuerySet[LeagueInvite]:
    """The league's invite links that still work at ``now``: not revoked, not expired."""
    return LeagueInvite.objects.filter(
        league_id=league_id, revoked_at__isnull=True, expires_at__gt=now
    )


def active_invites(league: League) -> QuerySet[LeagueInvite]:
    """The league's invite links that still work, newest first, with who made them."""
    return (
        _working_invites(league.pk, timezone.now())
        .select_related("created_by")
        .order_by("-created_at", "-pk")
    )


def invite_problem(invite: LeagueInvite) -> str | None:
    """Why the link no longer works (revoked or expired), or None while it does."""
    if invite.revoked_at is not None:
        return _("This invite link was revoked by the league's owners. Ask them for a new one.")
    if not invite.is_active():
        return _("This invite link has expired. Ask the league's owners for a new one.")
    return None


@dataclass(frozen=True)
class Joined:
    """What following an invite link did: ``joined`` (a new member), ``raised`` (a
    member given the link's higher role) or ``already`` (a member at that role or
    above, unchanged)."""

    membership: Membership
    outcome: Literal["joined", "raised", "already"]


def join_by_invite(invite: LeagueInvite, user: AnyUser) -> Joined:
    """Make ``user`` a member of the invite's league with its role; raises
    InviteGone for a link that expired or was revoked meanwhile."""
    with transaction.atomic():
        # Locked: a revoke at the same moment either comes first (refused) or after.
        invite = LeagueInvite.objects.select_for_update().select_related("league").get(pk=invite.pk)
        problem = invite_problem(invite)
        if problem:
            raise InviteGone(problem)
        membership = Membership.objects.filter(league=invite.league, user=user).first()
        if membership is not None and not gains(membership.role, invite.role):
            return Joined(membership, "already")
        if membership is None:
            try:
                with transaction.atomic():
                    membership = Membership.objects.create(
                        league=invite.league, user=user, role=invite.role
                    )
            except IntegrityError:  # the same person's other tab joined a moment ago
                membership = Membership.objects.get(league=invite.league, user=user)
                return Joined(membership, "already")
            outcome: Literal["joined", "raised"] = "joined"
        else:
            membership.role = invite.role
            membership.save(update_fields=["role"])
            outcome = "raised"
        LeagueInvite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    return Joined(membership, outcome)


# --- Claiming a player name ---------------------------------------------------------


def claim_player(league: League, player: Player, user: AnyUser) -> PlayerClaim:
    """``user`` (a member of ``league``) says they are ``player`` there. One account
    per player and one player per account in a league: a second claim is refused
    with who holds it (the database's unique constraints have the last word)."""
    with transaction.atomic():
        taken = PlayerClaim.objects.filter(league=league, player=player).select_related("user")
        if (claim := taken.first()) is not None:
            if claim.user_id == user.pk:
                raise LeagueError(
                    _("You already claimed {player} in this league.").format(player=player.name)
                )
            raise LeagueError(
                _(
                    "{player} is already claimed by {username}. A league owner can undo that claim."
                ).format(player=player.name, username=claim.user.get_username())
            )
        mine = PlayerClaim.objects.filter(league=league, user=user).select_related("player")
        if (claim := mine.first()) is not None:
            raise LeagueError(
                _("You already claimed {player} in this league: unclaim it first.").format(
                    player=claim.player.name
                )
            )
        try:
            with transaction.atomic():
                return PlayerClaim.objects.create(league=league, player=player, user=user)
        except IntegrityError:  # another claim landed between the checks and the insert
            raise LeagueError(
                _(
                    "{player} was claimed a moment ago, or you claimed another player: reload "
                    "the page."
                ).format(player=player.name)
            ) from None


def unclaim_player(claim: PlayerClaim) -> None:
    """Undo a claim (its claimant, or a league owner: games.access.claim_for decides)."""
    claim.delete()
