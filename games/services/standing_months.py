"""The league standings' monthly figures (`StandingMonth`): each player's results in
a league's sessions of one game (preset) and month, summed from the seat results that
`services.results` stores. The standings add these months up (and read seats only
for the part-months at the ends of a date range), so their cost grows with players
and months, not with the hands played.

`refresh` runs in the transaction of every change to a session's results; `rebuild`
redoes whole leagues (a league file imported, a session deleted or moved in the
admin). What a month is and how seats sum to one is games/queries/months.py's, which
the standings read with too.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import DateField, F, Q
from django.db.models.functions import TruncMonth

from games.models import Player, Seat, StandingMonth
from games.queries.months import month_end, month_of, seat_figures

# The figures a StandingMonth stores: what seat_figures() sums.
FIGURES = tuple(seat_figures())


def refresh(league_id: int | None, day: datetime.date, player_ids: Iterable[int]) -> None:
    """Recompute the month of ``day`` in the league for these players, after a change
    to a session of theirs played that day. Locks the players first: two tables of a
    league saving at once for one player would otherwise each sum the other's seats
    as they were before (the later write losing the earlier one's change)."""
    players = sorted(set(player_ids))
    if league_id is None or not players:
        return
    list(Player.objects.select_for_update().filter(pk__in=players).order_by("pk").values("pk"))
    month = month_of(day)
    rows = {
        (row.pop("player_id"), row.pop("preset")): row
        for row in Seat.objects.filter(
            session__league_id=league_id,
            session__played_on__range=(month, month_end(month)),
            player_id__in=players,
            rounds_played__gt=0,
        )
        .order_by()  # a sum: the model's ordering would only add joins
        .values("player_id", preset=F("session__preset"))
        .annotate(**seat_figures())
    }
    kept = Q()  # the (player, game) months that still have seats
    for player, preset in rows:
        kept |= Q(player_id=player, preset=preset)
    StandingMonth.objects.filter(league_id=league_id, month=month, player_id__in=players).exclude(
        kept
    ).delete()
    StandingMonth.objects.bulk_create(
        [
            StandingMonth(
                league_id=league_id, player_id=player, preset=preset, month=month, **figures
            )
            for (player, preset), figures in rows.items()
        ],
        update_conflicts=True,
        unique_fields=["league", "preset", "player", "month"],
        update_fields=list(FIGURES),
    )


def rebuild(league_ids: Iterable[int]) -> None:
    """Every month of these leagues, from their seats."""
    for league_id in set(league_ids):
        StandingMonth.objects.filter(league_id=league_id).delete()
        rows = (
            Seat.objects.filter(session__league_id=league_id, rounds_played__gt=0)
            .annotate(month=TruncMonth("session__played_on", output_field=DateField()))
            .order_by()
            .values("player_id", "month", preset=F("session__preset"))
            .annotate(**seat_figures())
        )
        StandingMonth.objects.bulk_create(
            [StandingMonth(league_id=league_id, **row) for row in rows], batch_size=2000
        )
