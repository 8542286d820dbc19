"""A planned league (league_plan) written in one transaction: a handful of bulk
inserts whatever the file's size, so a league is restored completely or not at all.
It acts on nobody but the importer: the file's members are listed for the owner to
invite (only an administrator's ``keep_members`` adds them), share tokens are always
new, and whoever entered or changed a round is an account only if the import made
them a member, else a name."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Model
from django.utils.translation import gettext

from games.models import (
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    PlayerClaim,
    Rejoin,
    Round,
    RoundChange,
    Seat,
    SeatChange,
)
from games.services.leagues import LeagueError, league_at_a_free_address
from games.services.results import refresh_league
from games.services.round_saves import breakdown_of
from games.transfer.league_plan import ChangePlan, EntryPlan, LeaguePlan
from games.transfer.league_refusal import ImportRefused


@dataclass(frozen=True)
class Imported:
    league: League
    # The file's members, (username, role), who were not added: the owner may invite
    # them (the league's page lists them).
    invitable: tuple[tuple[str, str], ...] = ()
    # Whether the file held its rounds' history (version 4 on): before, none was kept
    # in a file, and its sessions' history pages start empty.
    history: bool = True
    # The name asked for (typed, or the file's) where one of the importer's leagues has
    # it, so the league came in under another (league_naming); "" where it did not.
    renamed_from: str = ""


# Rows per INSERT: large enough that a league of thousands of sessions takes a few
# dozen statements, small enough for SQLite's limit on parameters per statement.
_INSERT_BATCH = 500


def write_plan(plan: LeaguePlan, owner: AbstractBaseUser | None, keep_members: bool) -> Imported:
    """Write the plan in one transaction: a handful of bulk inserts, whatever its size.

    bulk_create sets the new rows' ids on PostgreSQL and on SQLite (3.35 and later,
    RETURNING), the two databases the app runs on, so rows can refer to each other
    without reading anything back."""
    with transaction.atomic():
        return _write(plan, owner, keep_members)


def _write(plan: LeaguePlan, owner: AbstractBaseUser | None, keep_members: bool) -> Imported:
    roles: dict[Any, str] = {}
    if keep_members:
        users = _users(plan.members)
        roles = {users[username].pk: role for username, role in plan.members.items()}
        member_ids = {username: users[username].pk for username in plan.members}
    else:
        member_ids = {owner.get_username(): owner.pk} if owner is not None else {}
    invitable = () if keep_members else _invitable(plan.members, owner)
    if owner is not None:
        roles[owner.pk] = Membership.Role.OWNER
    league = _new_league(plan.league, [_listed(u, r, plan.claims.get(u)) for u, r in invitable])
    Membership.objects.bulk_create(
        Membership(league=league, user_id=user, role=role) for user, role in roles.items()
    )
    players = _player_rows(plan.players)
    # A claim is its member's own word: made again for a member of the new league (the
    # importer; every member with --keep-members), listed with the others otherwise, for
    # them to make again once they are members (leagues.claimed_in_file).
    PlayerClaim.objects.bulk_create(
        PlayerClaim(league=league, player=players[name], user_id=member_ids[username])
        for username, name in plan.claims.items()
        if username in member_ids
    )
    # The accounts authors are linked to (_by): the members of the file whom this
    # import made members, as their claims are. Before version 4 every author is a name.
    accounts = (
        {name: pk for name, pk in member_ids.items() if name in plan.members}
        if plan.history
        else {}
    )
    sessions = GameSession.objects.bulk_create(
        (
            GameSession(league=league, created_by=owner, **planned.columns)
            for planned in plan.sessions
        ),
        batch_size=_INSERT_BATCH,
    )
    seats = Seat.objects.bulk_create(
        (
            Seat(
                session=session,
                player=players[name],
                position=position,
                # A latecomer whose join the rules refuse (a round deleted since) has no
                # place in the replay, so no result: the page leaves them off the table.
                **(vars(planned.results[name]) if name in planned.results else {}),
            )
            for session, planned in zip(sessions, plan.sessions, strict=True)
            for name, position in planned.seats
        ),
        batch_size=_INSERT_BATCH,
    )
    seat_of = {(seat.session_id, seat.player_id): seat for seat in seats}

    def seat(session: GameSession, name: str | None) -> Seat | None:
        return None if name is None else seat_of[session.pk, players[name].pk]

    # auto_now_add gave every session the time of the import: the file's, where it
    # has one; and the first dealer, now that the seats exist, and the session each
    # is the rematch of, now that they all do.
    for session, planned in zip(sessions, plan.sessions, strict=True):
        session.created_at = planned.created_at or session.created_at
        session.first_dealer = seat(session, planned.first_dealer)
        if planned.rematch_of is not None:
            session.rematch_of = sessions[planned.rematch_of - 1]
    GameSession.objects.bulk_update(
        sessions, ["created_at", "first_dealer", "rematch_of"], batch_size=_INSERT_BATCH
    )
    rounds = Round.objects.bulk_create(
        (
            Round(
                session=session,
                number=planned.number,
                dealer=seat(session, planned.dealer),
                cut_joker=planned.cut_joker,
                **_by("entered_by", planned.author, accounts),
                version=planned.version,
            )
            for session, planned_session in zip(sessions, plan.sessions, strict=True)
            for planned in planned_session.rounds
        ),
        batch_size=_INSERT_BATCH,
    )
    planned_rounds = [r for planned in plan.sessions for r in planned.rounds]
    _insert_rows(
        HandEntry,
        _HAND_FIELDS,
        (
            _hand_row(played, entry, players[entry.player])
            for played, planned in zip(rounds, planned_rounds, strict=True)
            for entry in planned.entries
        ),
    )
    # auto_now_add and auto_now gave every round the time of the import: the file's
    # (or its history's), where it has them.
    _restore_times(rounds, planned_rounds, "created_at", "updated_at")
    rejoins = Rejoin.objects.bulk_create(
        (
            Rejoin(
                session=session,
                seat=seat(session, rejoin.player),
                after_round=rejoin.after_round,
                **_by("created_by", rejoin.author, accounts),
            )
            for session, planned in zip(sessions, plan.sessions, strict=True)
            for rejoin in planned.rejoins
        ),
        batch_size=_INSERT_BATCH,
    )
    _restore_times(rejoins, [r for planned in plan.sessions for r in planned.rejoins], "created_at")
    seat_changes = SeatChange.objects.bulk_create(
        (
            SeatChange(
                session=session,
                seat=seat(session, change.player),
                kind=change.kind,
                after_round=change.after_round,
                seats=[seat_of[session.pk, players[name].pk].pk for name in change.seats],
                **_by("created_by", change.author, accounts),
            )
            for session, planned in zip(sessions, plan.sessions, strict=True)
            for change in planned.seat_changes
        ),
        batch_size=_INSERT_BATCH,
    )
    _restore_times(
        seat_changes,
        [change for planned in plan.sessions for change in planned.seat_changes],
        "created_at",
    )
    round_id = {
        (played.session_id, number): played.pk
        for played, number in zip(rounds, (r.number for r in planned_rounds), strict=True)
    }
    _insert_rows(
        RoundChange,
        _CHANGE_FIELDS,
        (
            _change_row(session.pk, change, round_id, accounts)
            for session, planned in zip(sessions, plan.sessions, strict=True)
            for change in planned.changes
        ),
    )
    # Its standings' months and ratings made once, the sessions in the order played.
    refresh_league(league.pk)
    return Imported(league, invitable, plan.history)


def _new_league(columns: Mapping[str, Any], listed: list[dict[str, str]]) -> League:
    """The league, at a free address: the file's where no league has it."""
    given = dict(columns)
    wanted = given.pop("slug")
    try:
        return league_at_a_free_address(wanted, **given, imported_members=listed)
    except LeagueError:
        raise ImportRefused(
            gettext("No free address was found for this league; nothing was imported. Try again.")
        ) from None


def _restore_times(rows: list[Model], planned: Iterable[Any], *fields: str) -> None:
    """Give rows that bulk_create stamped with the time of the import (auto_now_add,
    auto_now) their planned times, where the plan has them (else the import's stay).

    One UPDATE … FROM (VALUES …) a batch: bulk_update wrote a CASE arm a row and took
    a third of the time of a 10,000-round import. Both databases name a VALUES list's
    columns column1, column2, …"""
    changed = []
    for row, plan in zip(rows, planned, strict=True):
        times = [getattr(plan, field) for field in fields]
        if any(moment is not None for moment in times):
            current = (getattr(row, field) for field in fields)
            changed.append(
                (
                    row.pk,
                    *(
                        connection.ops.adapt_datetimefield_value(mine or theirs)
                        for mine, theirs in zip(times, current, strict=True)
                    ),
                )
            )
    if not changed:
        return
    model = type(rows[0])
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    sets = ", ".join(
        f"{quote(model._meta.get_field(field).column)} = v.column{number}"
        for number, field in enumerate(fields, start=2)
    )
    width = len(fields) + 1
    batch = min(_INSERT_BATCH, (connection.features.max_query_params or 10**6) // width)
    row = "(" + ", ".join(["%s"] * width) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(changed), batch):
            part = changed[start : start + batch]
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([row] * len(part))}) AS v "
                f"WHERE {table}.{quote(model._meta.pk.column)} = v.column1",
                [value for values in part for value in values],
            )


def _listed(username: str, role: str, claimed: str | None) -> dict[str, str]:
    """A member of the file not added, as League.imported_members lists them."""
    return {"username": username, "role": role, **({"claimed": claimed} if claimed else {})}


def _invitable(
    members: Mapping[str, str], owner: AbstractBaseUser | None
) -> tuple[tuple[str, str], ...]:
    mine = owner.get_username() if owner is not None else None
    return tuple((username, role) for username, role in members.items() if username != mine)


def _users(usernames: Iterable[str]) -> dict[str, AbstractBaseUser]:
    """username → user, matching existing users and creating the others with no
    usable password (they sign in after a password reset, if ever)."""
    model = get_user_model()
    field_name = model.USERNAME_FIELD
    wanted = set(usernames)
    users = {
        user.get_username(): user for user in model.objects.filter(**{f"{field_name}__in": wanted})
    }
    created = {
        username: model.objects.create_user(**{field_name: username}, password=None)
        for username in sorted(wanted - set(users))
    }
    return users | created


def _player_rows(wanted: Iterable[str]) -> dict[str, Player]:
    """name → player, every one new: an imported league has its own players, never
    another club's of the same name (names are not unique, and matching one
    would attach a stranger's file to that club's player and reveal it). Who is
    who among the members is said by claims alone."""
    wanted = list(wanted)
    created = Player.objects.bulk_create(Player(name=name) for name in wanted)
    return dict(zip(wanted, created, strict=True))


# HandEntry's columns as _hand_row gives them.
_HAND_FIELDS = ("round", *HandEntry.RECORDED, "breakdown")
# RoundChange's columns as _change_row gives them.
_CHANGE_FIELDS = (
    "session",
    "round",
    "number",
    "action",
    "changed_by",
    "changed_by_name",
    "changed_at",
    "before",
    "after",
)


def _hand_row(played: Round, entry: EntryPlan, player: Player) -> tuple:
    """One hand as a row of HandEntry's table (its JSON as text)."""
    result = entry.result
    return (
        played.pk,
        player.pk,
        result.outcome,
        result.on_deal,
        json.dumps(entry.groups),
        result.counted,
        json.dumps(result.figures.as_dict() if result.figures else {}),
        result.declaration or "",
        result.hand_points,
        result.value_points,
        result.claims,
        result.score,
        json.dumps(breakdown_of(result, entry.said)),
    )


def _by(field: str, author: str, accounts: Mapping[str, int]) -> dict[str, Any]:
    """Who entered, changed or rejoined something, or changed the table (``field``:
    entered_by, changed_by, created_by), as the file names them, in the row's two
    columns: a member of the file whom this import made a member is that account here;
    anyone else is kept as a name, linked to no account: a file may not act on anyone
    else."""
    if author in accounts:
        return {f"{field}_id": accounts[author], f"{field}_name": ""}
    return {f"{field}_id": None, f"{field}_name": author}


def _change_row(
    session: int, change: ChangePlan, round_id: Mapping[tuple[int, int], int], accounts
) -> tuple:
    """One change as a row of RoundChange's table (its JSON as text)."""
    by = _by("changed_by", change.author, accounts)
    return (
        session,
        None if change.round is None else round_id[session, change.round],
        change.number,
        change.action,
        by["changed_by_id"],
        by["changed_by_name"],
        connection.ops.adapt_datetimefield_value(change.changed_at),
        None if change.before is None else json.dumps(change.before),
        None if change.after is None else json.dumps(change.after),
    )


def _insert_rows(model: type[Model], fields: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """Insert rows of the largest tables of a league, its hands (several a round) and
    its history (a change or more a round), by COPY on PostgreSQL and one prepared
    INSERT on SQLite.

    Not with bulk_create: on PostgreSQL it sends a batch of rows as arrays (UNNEST),
    and psycopg escapes the JSON of every hand inside an array literal in Python,
    quote by quote, which took most of the time of a large import. The values are
    those the model would store: ids, text, whole numbers, true or false, times as
    the database takes them and JSON text."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            values = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({values})", list(rows))
