"""A player across the leagues a viewer may see: results grouped by league and game."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from games.models import GameSession, League, Player, Preset, Seat
from games.queries.standings import RoundFigures, figures, net_totals
from games.services.standing_months import seat_figures


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
        .annotate(**seat_figures())  # both ends of best and worst: the preset decides
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
                **figures(row, net),
            )
        )
    groups.sort(key=lambda g: (g.league is None, g.league.name if g.league else "", g.preset))
    return groups
