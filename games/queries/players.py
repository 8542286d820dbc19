"""A player across the leagues a viewer may see: results grouped by league and game."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Min, Q, Sum

from games.models import GameSession, League, Player, Preset, Seat
from games.queries.standings import RoundFigures, net_totals


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


def player_groups(player: Player, visible: Q) -> list[PlayerGroup]:
    """The player's results per league and preset over the sessions ``visible`` (a Q
    over GameSession) lets through: one aggregate query, and one for the leagues."""
    rows = list(
        Seat.objects.filter(player=player, rounds_played__gt=0)
        .filter(session__in=GameSession.objects.filter(visible).values("pk"))
        .values("session__league_id", "session__preset")
        .annotate(
            n_sessions=Count("id"),
            n_sessions_won=Count("id", filter=Q(won=True)),
            n_rounds=Sum("rounds_played"),
            n_rounds_won=Sum("rounds_won"),
            n_drops=Sum("drops"),
            n_points=Sum("points"),
            # Both ends of both: which is "best" depends on the preset's totals.
            best_high=Max("best_round"),
            best_low=Min("best_round"),
            worst_high=Max("worst_round"),
            worst_low=Min("worst_round"),
        )
        .order_by()
    )
    leagues = League.objects.in_bulk({row["session__league_id"] for row in rows} - {None})
    labels = dict(Preset.choices)
    groups = []
    for row in rows:
        league = leagues.get(row["session__league_id"])
        preset = row["session__preset"]
        net = net_totals(preset, league)
        groups.append(
            PlayerGroup(
                league=league,
                preset=preset,
                preset_label=labels.get(preset, preset),
                sessions=row["n_sessions"],
                sessions_won=row["n_sessions_won"],
                rounds=row["n_rounds"] or 0,
                rounds_won=row["n_rounds_won"] or 0,
                drops=row["n_drops"] or 0,
                points=row["n_points"] or 0,
                best_round=row["best_high"] if net else row["best_low"],
                worst_round=row["worst_low"] if net else row["worst_high"],
            )
        )
    groups.sort(key=lambda g: (g.league is None, g.league.name if g.league else "", g.preset))
    return groups
