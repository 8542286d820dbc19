"""What each player won or lost in money over a league's sessions of one game: the
standings' "net money" column.

Only finished sessions played for stakes count: a points session with a value per
point (each player wins or pays their net total times it, as its page settles
it) and a pool with a buy-in (each seat, a latecomer's too, buys in once and again
with each rejoin, as the rules' buy_ins counts, and the winners take the pot). A
player who sat at no such session has no figure (None), not 0: blank, not "broke
even".

Read when asked, never stored: stakes may be set or changed after the last round,
and the sum would otherwise have to follow them. Two queries (the seats of the
staked sessions, their rejoins) whose rows grow with the staked sessions, not with
the hands played. Every amount is the rules service's (balances_from_totals,
pot_of); this only adds them up in the smallest coin.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from decimal import Decimal
from typing import NamedTuple

from django.db.models import Count, Q

from games.models import GameSession, League, Rejoin, Seat
from games.rules import balances_from_totals, pot_of

CENT = Decimal("0.01")


class StakedSeat(NamedTuple):
    """A seat at a session played for stakes, with the session's stakes."""

    seat_id: int
    session_id: int
    player_id: int
    total: int
    won: bool
    per_point: Decimal | None
    buy_in: Decimal | None


def cents(amount: Decimal) -> int:
    return int((amount / CENT).to_integral_value())


def net_money(
    league: League,
    preset: str,
    *,
    net: bool,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[int, int]:
    """player id → what they won (+) or lost (−), in cents, over the league's finished
    ``preset`` sessions played for stakes between the dates (both inclusive). ``net``:
    the game keeps net totals (a value per point settles it) or penalty ones (a
    pool's buy-in and pot)."""
    stake = Q(money_per_point__isnull=False) if net else Q(buy_in__isnull=False)
    sessions = GameSession.objects.filter(
        stake, league=league, preset=preset, status=GameSession.Status.FINISHED
    )
    if date_from is not None:
        sessions = sessions.filter(played_on__gte=date_from)
    if date_to is not None:
        sessions = sessions.filter(played_on__lte=date_to)
    seats = (
        Seat.objects.filter(session__in=sessions)
        .order_by("session_id", "position")
        .values_list(
            "pk",
            "session_id",
            "player_id",
            "total",
            "won",
            "session__money_per_point",
            "session__buy_in",
        )
    )
    tables: dict[int, list[StakedSeat]] = {}
    for row in seats:
        seat = StakedSeat._make(row)
        tables.setdefault(seat.session_id, []).append(seat)
    rejoins: dict[int, int] = {}
    if not net and tables:
        rejoins = dict(
            Rejoin.objects.filter(session__in=sessions)
            .order_by()
            .values("seat_id")
            .annotate(n=Count("pk"))
            .values_list("seat_id", "n")
        )
    money: dict[int, int] = {}
    for table in tables.values():
        for player, amount in _session_money(table, rejoins, net=net):
            money[player] = money.get(player, 0) + amount
    return money


def _session_money(
    table: list[StakedSeat], rejoins: dict[int, int], *, net: bool
) -> Iterable[tuple[int, int]]:
    """(player id, what they won or lost) in one session: its seats in seat order."""
    first = table[0]
    if net and first.per_point is not None:
        totals = {seat.player_id: seat.total for seat in table}
        yield from balances_from_totals(totals, cents(first.per_point)).items()
        return
    if first.buy_in is None:
        return
    buy_in = cents(first.buy_in)
    bought = {seat.player_id: 1 + rejoins.get(seat.seat_id, 0) for seat in table}
    pot = pot_of(buy_in, sum(bought.values()))
    winners = [seat.player_id for seat in table if seat.won]
    # The winners share the pot evenly; a coin that will not split goes to the first
    # of them in seat order, so the session's amounts still add up to nothing.
    share, odd = divmod(pot, len(winners)) if winners else (0, 0)
    for player in bought:
        won = 0
        if player in winners:
            won = share + (1 if winners.index(player) < odd else 0)
        yield player, won - buy_in * bought[player]
