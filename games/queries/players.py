"""A player across the leagues a viewer may see: results grouped by league and game;
who claimed which player name in a league."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet

from games.access import may_undo
from games.models import HandEntry, League, Player, PlayerClaim, Preset, Seat
from games.queries.months import seat_figures
from games.queries.standings import RoundFigures, figures, net_totals


@dataclass(frozen=True)
class PlayerGroup(RoundFigures):
    """A player's results in one league (or in sessions without one) under one
    preset. Grouped by preset too: a best round means opposite things in net and
    penalty totals, and points per round of different games do not add up."""

    league: League | None
    preset: str
    preset_label: str
    sessions: int
    sessions_won: int
    rounds: int
    rounds_won: int
    drops: int
    points: int
    best_round: int | None
    worst_round: int | None


class PlayerResults(NamedTuple):
    groups: list[PlayerGroup]
    seats: int  # the player's seats let through, played in or not
    leagues: list[League]  # the leagues of those seats, by name: where they sat


def player_seats(player: Player, visible: Q) -> QuerySet[Seat]:
    """The player's seats at the sessions ``visible`` (a Q over Seat, through its
    session) lets the viewer see, the latest played first, with their sessions."""
    return (
        Seat.objects.filter(player=player)
        .filter(visible)
        .select_related("session__league")
        .order_by("-session__played_on", "-session_id")
    )


def latest_hands(player: Player, visible: Q, count: int) -> list[HandEntry]:
    """The player's ``count`` latest hands at the sessions ``visible`` (a Q over
    HandEntry, through its round's session) lets the viewer see, the latest first."""
    return list(
        HandEntry.objects.filter(player=player)
        .filter(visible)
        .select_related("round__session")
        .order_by("-round__session__played_on", "-round__session_id", "-round__number")[:count]
    )


def player_groups(player: Player, visible: Q, leagues: Mapping[int, League]) -> PlayerResults:
    """The player's results per league and preset over the sessions ``visible`` (a Q
    over Seat, through its session: `access.visible_sessions(..., through="session__")`)
    lets through, how many seats of theirs it lets through, played in or not (the
    player page pages through those), and the leagues of those seats: one aggregate
    query. ``leagues`` holds every league ``visible`` lets through
    (`access.member_leagues`). (The seats' count was a query of its own, which read
    every session again: benchmarks/http.py.)"""
    played = Q(rounds_played__gt=0)
    rows = list(
        Seat.objects.filter(player=player)
        .filter(visible)
        .values("session__league_id", "session__preset")
        # A seat with no round played adds nothing to the sums and has no best or
        # worst round; the counts of sessions leave it out by name.
        .annotate(
            **seat_figures(),  # both ends of best and worst: the preset decides
            seats=Count("id"),
        )
        .annotate(
            sessions=Count("id", filter=played),
            sessions_won=Count("id", filter=played & Q(won=True)),
        )
        .order_by()
    )
    seats = sum(row["seats"] for row in rows)
    sat_in = {row["session__league_id"] for row in rows}
    labels = dict(Preset.choices)
    groups = []
    for row in rows:
        if not row["sessions"]:
            continue
        league = leagues.get(row["session__league_id"])
        preset = row["session__preset"]
        net = net_totals(preset, league)
        groups.append(
            PlayerGroup(
                league=league,
                preset=preset,
                preset_label=labels.get(preset, preset),
                **figures(row, net),
            )
        )
    groups.sort(key=lambda g: (g.league is None, g.league.name if g.league else "", g.preset))
    return PlayerResults(groups, seats, [league for pk, league in leagues.items() if pk in sat_in])


# --- Claimed player names --------------------------------------------------------------


@dataclass(frozen=True)
class LeagueClaim:
    """A player in one league the viewer is a member of and the player played in:
    who claimed them there, and what the viewer may do about it."""

    league: League
    claimant: str | None  # the username of who claimed the player here
    mine: bool  # the viewer claimed them
    can_claim: bool  # "This is me": nobody claimed them and the viewer claims nobody here
    can_undo: bool  # the viewer's own claim, or the viewer owns the league
    other: Player | None  # the player the viewer claimed here instead, if any


def player_claims(
    player: Player, user: AbstractBaseUser, leagues: Iterable[League]
) -> list[LeagueClaim]:
    """The player's claims in ``leagues``: those ``user`` belongs to (each annotated
    with ``role``, the user's: `access.member_leagues`) where the player sat at a
    table (`PlayerResults.leagues`), only those, so a claim in another club (a
    username) never shows. One query: both the player's claims and the user's."""
    leagues = list(leagues)
    claims = PlayerClaim.objects.filter(
        Q(player=player) | Q(user=user), league__in=leagues
    ).select_related("user", "player")
    theirs, mine = {}, {}
    for claim in claims:
        if claim.player_id == player.pk:
            theirs[claim.league_id] = claim
        if claim.user_id == user.pk:
            mine[claim.league_id] = claim.player
    result = []
    for league in leagues:
        claim = theirs.get(league.pk)
        own = claim is not None and claim.user_id == user.pk
        other = mine.get(league.pk)
        result.append(
            LeagueClaim(
                league=league,
                claimant=claim.user.get_username() if claim else None,
                mine=own,
                can_claim=claim is None and other is None,
                can_undo=claim is not None and may_undo(claim, user, league.role),
                other=other if other is not None and other.pk != player.pk else None,
            )
        )
    return result


def claimed_player(league: League, user: AbstractBaseUser) -> Player | None:
    """The player ``user`` claimed in ``league``, if any."""
    if not user.is_authenticated:
        return None
    claim = PlayerClaim.objects.filter(league=league, user=user).select_related("player").first()
    return claim.player if claim else None


# How many names "Which player are you?" lists at the most: a club's regulars; past
# that, the standings (with their player pages) are the way to one's name.
UNCLAIMED_LISTED = 60


def unclaimed_players(league: League) -> list[Player]:
    """The players of ``league``'s sessions nobody has claimed there yet, by name: a
    member who has not said which one they are finds theirs among them,
    even before the first round, when the standings list nobody."""
    return list(_unclaimed_in(league).distinct().order_by("name", "pk")[:UNCLAIMED_LISTED])


def _unclaimed_in(league: League) -> QuerySet[Player]:
    """The players of ``league``'s sessions nobody has claimed there."""
    return Player.objects.filter(seats__session__league=league).exclude(claims__league=league)


def claimed_in_file(league: League, user: AbstractBaseUser) -> Player | None:
    """The player an imported league file says ``user`` claimed ("this is me") in
    ``league``, while nobody has claimed that player here: the import made no claim
    for someone else (a file may not act on an account), so the member makes it again
    with one tap. The caller checked that ``user`` claims nobody in the league yet."""
    if not user.is_authenticated:
        return None
    username = user.get_username().lower()  # listed as the file wrote it; accounts ignore case
    name = next(
        (
            item["claimed"]
            for item in league.imported_members
            if isinstance(item, dict)
            and str(item.get("username", "")).lower() == username
            and isinstance(item.get("claimed"), str)
        ),
        None,
    )
    if name is None:
        return None
    return _unclaimed_in(league).filter(name=name).order_by("pk").first()


def my_players(user: AbstractBaseUser) -> QuerySet[PlayerClaim]:
    """Every player name ``user`` claimed, with its league: "My player page" links."""
    if not user.is_authenticated:
        return PlayerClaim.objects.none()
    return (
        PlayerClaim.objects.filter(user=user)
        .select_related("league", "player")
        .order_by("league__name")
    )
