"""A whole league as JSON (the league file), which `league_import` restores exactly:
its house rules, members, players and claims, and every session with its seats,
rejoins, players joining and leaving, rounds and hands and its history of changes
(league_file.py says what a file leaves out because the rest of it says so)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch
from django.utils import timezone

from games.models import (
    GameSession,
    HandEntry,
    League,
    PlayerClaim,
    Rejoin,
    Round,
    RoundChange,
    Seat,
    SeatChange,
)
from games.transfer.league_file import (
    FORMAT,
    VERSION,
    History,
    round_times_in_history,
    said_by_history,
)
from games.zones import league_zone


def export_league(league: League, *, share_tokens: bool = True) -> dict[str, Any]:
    """Everything `import_league` needs to restore the league: its rules, members,
    players and who claimed which ("this is me"), and every session with its seats,
    rejoins, players joining and leaving (and the new seatings after), rounds and
    hands, its history of changes (who entered and changed each round, when, and the
    round before and after) and the session it is the rematch of, sessions in the
    order they are rated (the day played, then as created). Figures are included so
    the file reads on its own; the import re-scores and checks them.

    Without ``share_tokens`` (a member who is not shown the share links) each
    session's token is null, and an import makes a new one."""
    sessions = list(
        league.sessions.select_related("created_by", "first_dealer__player")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch(
                "rejoins",
                queryset=Rejoin.objects.select_related("seat__player", "created_by").order_by(
                    "after_round", "pk"
                ),
            ),
            Prefetch(
                "seat_changes",
                queryset=SeatChange.objects.select_related("created_by").order_by(
                    "after_round", "pk"
                ),
            ),
            Prefetch(
                "rounds",
                queryset=Round.objects.select_related("dealer__player", "entered_by").order_by(
                    "number"
                ),
            ),
            Prefetch(
                "rounds__entries",
                queryset=HandEntry.objects.select_related("player").order_by("pk"),
            ),
            # In the order the history page reads them (services.round_history.changes_of).
            Prefetch(
                "changes",
                queryset=RoundChange.objects.select_related("changed_by").order_by(
                    "changed_at", "pk"
                ),
            ),
        )
        .order_by("played_on", "pk")
    )
    players = {seat.player_id: seat.player for s in sessions for seat in s.seats.all()}
    members = league.memberships.select_related("user").order_by("user__username", "pk")
    # A session is named by its number in the file (from 1): ids mean nothing elsewhere.
    number_of = {session.pk: number for number, session in enumerate(sessions, start=1)}
    # Only claims of players the file holds (one with no seat in the league's sessions
    # shows on no page of it) by its members (the import refuses any other; leaving
    # the league takes a claim away, but the admin could make one).
    claims = (
        PlayerClaim.objects.filter(
            league=league, player__in=list(players), user__memberships__league=league
        )
        .select_related("player", "user")
        .order_by("player__name", "pk")
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": {
            "name": league.name,
            "slug": league.slug,
            "preset": league.preset,
            "overrides": league.overrides,
            "money_per_point": _decimal(league.money_per_point),
            "table_auto_save": league.table_auto_save,
            # The zone its times are read in: its own, else this site's, so that the
            # club keeps its clock on a server set to another. The times stay UTC.
            "time_zone": league_zone(league).key,
            # As the league keeps them: empty follows each browser's language, and the
            # language's currency (games/currencies.py), on the importing site too.
            "language": league.language,
            "currency": league.currency,
        },
        "members": [{"username": m.user.get_username(), "role": m.role} for m in members],
        "players": [
            {"name": player.name}
            for player in sorted(players.values(), key=lambda player: player.name.lower())
        ],
        "claims": [
            {"player": claim.player.name, "user": claim.user.get_username()} for claim in claims
        ],
        "sessions": [_export_session(session, share_tokens, number_of) for session in sessions],
    }


def _export_session(
    session: GameSession, share_tokens: bool, number_of: Mapping[int, int]
) -> dict[str, Any]:
    played = list(session.rounds.all())
    rounds = [_export_round(one) for one in played]
    changes = _export_changes(list(session.changes.all()), played, rounds)
    return {
        "name": session.name,
        "preset": session.preset,
        "overrides": session.overrides,
        "ceiling": session.ceiling,
        "played_on": session.played_on.isoformat(),
        "created_at": session.created_at.isoformat(),
        "closed_at": session.closed_at.isoformat() if session.closed_at else None,
        "money_per_point": _decimal(session.money_per_point),
        "buy_in": _decimal(session.buy_in),
        # Left out while the session follows its league.
        **({} if session.table_auto_save is None else {"table_auto_save": session.table_auto_save}),
        "share_token": session.share_token if share_tokens else None,
        "created_by": _username(session.created_by),
        "first_dealer": session.first_dealer.player.name if session.first_dealer else None,
        # None too for a rematch of a session the admin moved to another league.
        "rematch_of": number_of.get(session.rematch_of_id),
        "seats": [
            {"player": seat.player.name, "position": seat.position} for seat in session.seats.all()
        ],
        "rejoins": [
            {
                "player": rejoin.seat.player.name,
                "after_round": rejoin.after_round,
                "created_at": rejoin.created_at.isoformat(),
                "created_by": _username(rejoin.created_by) or rejoin.created_by_name or None,
            }
            for rejoin in session.rejoins.all()
        ],
        "seat_changes": _export_seat_changes(session),
        "rounds": rounds,
        "changes": changes,
    }


def _export_seat_changes(session: GameSession) -> list[dict[str, Any]]:
    """Players joining and leaving the table, and its new seatings, in the order the
    session page replays them (services.scoreboard), each player by name. A join or
    leave of a seat of another session (only the admin can make one) is left out, as
    the page leaves it out, and so is a name corrected: the file names each player
    as corrected."""
    name_of_seat = {seat.pk: seat.player.name for seat in session.seats.all()}
    items = []
    for change in session.seat_changes.all():
        if change.kind == SeatChange.Kind.RENAME:
            continue
        if change.kind == SeatChange.Kind.SEATING:
            item = {
                "kind": change.kind,
                "after_round": change.after_round,
                "seats": [name_of_seat[pk] for pk in change.seats if pk in name_of_seat],
            }
        elif change.seat_id in name_of_seat:
            item = {
                "kind": change.kind,
                "player": name_of_seat[change.seat_id],
                "after_round": change.after_round,
            }
        else:
            continue
        item["created_at"] = change.created_at.isoformat()
        item["created_by"] = _username(change.created_by) or change.created_by_name or None
        items.append(item)
    return items


def _export_round(played: Round) -> dict[str, Any]:
    return {
        "number": played.number,
        "dealer": played.dealer.player.name if played.dealer else None,
        "cut_joker": played.cut_joker,
        # Who saved it last.
        "entered_by": played.author or None,
        **({"version": played.version} if played.version != 1 else {}),
        # Left out by _export_changes where the history says them.
        "created_at": played.created_at.isoformat(),
        "updated_at": played.updated_at.isoformat(),
        "entries": [
            {
                "player": entry.player.name,
                "outcome": entry.outcome,
                **({"on_deal": True} if entry.on_deal else {}),
                "groups": entry.groups,
                # A hand counted at the table: its figures stand in for its (no) groups.
                **({"counted": True, "figures": entry.figures} if entry.counted else {}),
                **({"declaration": entry.declaration} if entry.declaration else {}),
                "hand_points": entry.hand_points,
                **({"value_points": entry.value_points} if entry.value_points else {}),
                **({"claims": entry.claims} if entry.claims else {}),
                "score": entry.score,
            }
            for entry in played.entries.all()
        ],
    }


def _export_changes(
    changes: list[RoundChange], played: list[Round], rounds: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The session's history, oldest first, without what the rest of the file says
    (league_file.History); and each round's times left out where its history says
    them (a round and its change are written in one save)."""
    number_of = {one.pk: one.number for one in played}
    numbers = [number_of.get(change.round_id) for change in changes]
    written = {item["number"]: item for item in rounds}

    def round_now(number: int) -> dict[str, Any]:
        item = written[number]
        return RoundChange.round_then(
            item["cut_joker"], item["dealer"], item.get("version", 1), item["entries"]
        )

    history = History(numbers, round_now)
    items = []
    for index, (change, number) in enumerate(zip(changes, numbers, strict=True)):
        item = {
            "round": number,
            "number": change.number,
            "action": change.action,
            "changed_by": change.author or None,
            "changed_at": change.changed_at.isoformat(),
        }
        if change.before != history.before(change.action, number):
            item["before"] = change.before
        if change.after != history.after(index, change.action, number):
            item["after"] = change.after
        history.record(number, change.after)
        items.append(item)
    created, last = round_times_in_history(
        (number, change.action, change.changed_at)
        for change, number in zip(changes, numbers, strict=True)
    )
    for one, item in zip(played, rounds, strict=True):
        if said_by_history(one.created_at, created.get(one.number)):
            del item["created_at"]
        if said_by_history(one.updated_at, last.get(one.number)):
            del item["updated_at"]
    return items


def _decimal(value: Decimal | None) -> str | None:
    # A string: a JSON number would come back as a float and lose the cents.
    return None if value is None else str(value)


def _username(user: AbstractBaseUser | None) -> str | None:
    return None if user is None else user.get_username()


def dumps(data: Mapping[str, Any]) -> str:
    """The export as the text of a file (UTF-8, names as they are written), without
    spaces or indentation: indented, a league's file was two and a half times larger,
    and the import page takes files up to 10 MB (games/uploads.py)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
