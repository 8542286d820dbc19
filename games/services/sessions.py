"""Starting a session (the toss, seating players) and managing it: stakes, ending or
reopening it, rejoins and the share link.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.utils import timezone

from games.access import AnyUser
from games.models import (
    GameSession,
    League,
    Player,
    Rejoin,
    Seat,
    new_share_token,
)
from games.rules import (
    PRESETS,
    Ruleset,
    can_end_by_hand,
    get_ruleset,
    toss,
)
from games.services.errors import EntryRejected
from games.services.results import refresh_session
from games.services.scoreboard import Scoreboard, load_scoreboard


def toss_seats(names: Sequence[str], ruleset: Ruleset, rng: random.Random | None = None):
    """Deal one card to each player: [(name, Card)] from the highest card to the
    lowest, which is the seat order; the last player deals first."""
    return toss(list(names), rng or random.Random(), ruleset.decks)


def same_name(name: str) -> Q:
    """Players whose name equals ``name`` ignoring case, compared exactly as the
    database's unique constraint compares them (LOWER of both), so a lookup never
    misses a row the constraint would clash with."""
    return Q(name_lower=Lower(Value(name)))


def player_named(name: str) -> Player:
    """The player with this name, ignoring case, created if new."""
    players = Player.objects.alias(name_lower=Lower("name"))
    existing = players.filter(same_name(name)).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return Player.objects.create(name=name)
    except IntegrityError:
        # Someone created the same name a moment ago (unique ignoring case).
        return players.get(same_name(name))


def create_session(
    user: AnyUser,
    *,
    preset: str,
    overrides: Mapping[str, object],
    players: Sequence[str],
    first_dealer: int = 0,
    ceiling: int | None = None,
    name: str = "",
    league: League | None = None,
    played_on: datetime.date | None = None,
    money_per_point: Decimal | None = None,
    buy_in: Decimal | None = None,
) -> GameSession:
    """Seat ``players`` in this order and start a session; ``first_dealer`` indexes
    ``players``. Only the overrides that differ from the preset are stored."""
    ruleset = get_ruleset(preset, dict(overrides))  # raises RulesError
    with transaction.atomic():
        session = GameSession.objects.create(
            name=name,
            league=league,
            preset=preset,
            overrides=ruleset.overrides_from(PRESETS[preset]),
            ceiling=ceiling,
            created_by=user if user.is_authenticated else None,
            played_on=played_on or timezone.localdate(),
            money_per_point=money_per_point,
            buy_in=buy_in,
        )
        seats = [
            Seat.objects.create(session=session, player=player_named(player), position=position)
            for position, player in enumerate(players, start=1)
        ]
        session.first_dealer = seats[first_dealer]
        session.save(update_fields=["first_dealer"])
    return session


# --- Managing a session: stakes, the end, rejoins, the share link ------------------------


def set_stakes(
    session: GameSession, *, money_per_point: Decimal | None, buy_in: Decimal | None
) -> None:
    """What the session is played for. Saving bumps ``updated_at``, so live views
    redraw the money lines; saving the same stakes again writes nothing."""
    if (session.money_per_point, session.buy_in) == (money_per_point, buy_in):
        return
    session.money_per_point = money_per_point
    session.buy_in = buy_in
    session.save(update_fields=["money_per_point", "buy_in", "updated_at"])


def can_close(board: Scoreboard) -> bool:
    """Whether the table may end this session now (the rules service decides)."""
    return can_end_by_hand(board.pool, len(board.rows), board.finished)


def close_session(session: GameSession) -> Scoreboard:
    """End a session without a ceiling: the best total wins (rules service)."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if not can_close(load_scoreboard(session)):
            raise EntryRejected("Only a points game with a round played can be ended here.")
        session.closed_at = timezone.now()
        session.save(update_fields=["closed_at"])
        return refresh_session(session)


def reopen_session(session: GameSession) -> Scoreboard:
    """Undo ``close_session``: the table plays on."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if session.closed_at is None:
            raise EntryRejected("This session was not ended by hand.")
        session.closed_at = None
        session.save(update_fields=["closed_at"])
        return refresh_session(session)


def rejoin(session: GameSession, seat: Seat, user: AnyUser) -> Rejoin:
    """An eliminated player buys back in after the last round, at the total the
    rules service gives (the highest total still in, plus one), if its cutoff allows."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        column = next((c for c in board.columns if c.seat.pk == seat.pk), None)
        if column is None:
            raise EntryRejected("That player has no seat at this table.")
        if column.rejoin_at is None:
            reason = column.rejoin_refused or "rejoining is not played under these rules"
            raise EntryRejected(f"{column.name} may not rejoin: {reason}.")
        made = Rejoin.objects.create(
            session=session,
            seat=column.seat,
            after_round=len(board.rows),
            created_by=user if user.is_authenticated else None,
        )
        refresh_session(session)
    return made


def cancel_rejoin(session: GameSession, rejoin_pk: int) -> None:
    """Take back a rejoin entered by mistake; later totals are replayed without it."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        deleted, _ = session.rejoins.filter(pk=rejoin_pk).delete()
        if not deleted:
            raise EntryRejected("That rejoin was already taken back.")
        refresh_session(session)


def replace_share_token(session: GameSession) -> str:
    """A new read-only link; the old one stops working at once."""
    session.share_token = new_share_token()
    session.save(update_fields=["share_token", "updated_at"])
    return session.share_token
