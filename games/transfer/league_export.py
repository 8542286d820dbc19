"""A whole league as JSON (the league file), which `league_import` restores exactly."""

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
    Seat,
)
from games.transfer.league_file import FORMAT, VERSION


def export_league(league: League, *, share_tokens: bool = True) -> dict[str, Any]:
    """Everything `import_league` needs to restore the league: its rules, members,
    players and who claimed which ("this is me"), and every session with its seats,
    rounds and hands and the session it is the rematch of, sessions in the order they
    are rated (the day played, then as created). Figures are included so
    the file reads on its own; the import re-scores and checks them.

    Without ``share_tokens`` (a member who is not shown the share links) each
    session's token is null, and an import makes a new one."""
    sessions = list(
        league.sessions.select_related("created_by", "first_dealer__player")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch(
                "rejoins",
                queryset=Rejoin.objects.select_related("seat__player").order_by(
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
        "share_token": session.share_token if share_tokens else None,
        "created_by": _username(session.created_by),
        "first_dealer": session.first_dealer.player.name if session.first_dealer else None,
        # None too for a rematch of a session the admin moved to another league.
        "rematch_of": number_of.get(session.rematch_of_id),
        "seats": [
            {"player": seat.player.name, "position": seat.position} for seat in session.seats.all()
        ],
        "rejoins": [
            {"player": rejoin.seat.player.name, "after_round": rejoin.after_round}
            for rejoin in session.rejoins.all()
        ],
        "rounds": [
            {
                "number": played.number,
                "dealer": played.dealer.player.name if played.dealer else None,
                "cut_joker": played.cut_joker,
                "entered_by": played.author or None,
                "entries": [
                    {
                        "player": entry.player.name,
                        "outcome": entry.outcome,
                        **({"on_deal": True} if entry.on_deal else {}),
                        "groups": entry.groups,
                        "declaration": entry.declaration,
                        "hand_points": entry.hand_points,
                        "value_points": entry.value_points,
                        "claims": entry.claims,
                        "score": entry.score,
                    }
                    for entry in played.entries.all()
                ],
            }
            for played in session.rounds.all()
        ],
    }


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
