"""The scorekeeper's data: players, leagues, sessions, rounds and hand entries.

Only what was entered and what the rules service computed is stored, plus each
seat's result, which `games.services.results` writes after every change. Rulesets
are stored as a preset slug plus JSON overrides and validated by `games.rules` in
services and forms. The card codes and the outcomes (which of them win) that the
database checks come from `games.rules`, the one place that defines them.

By area, each a module of this package: ``leagues`` (players, leagues, members,
invite links, claimed players), ``sessions`` (a session, its seats, rejoins and seat changes),
``rounds`` (rounds, hands and the audit trail), ``table`` (table mode's round in
progress), ``standings`` (ratings and the standings' months), ``live`` (the live
cache's generation) and ``fields`` (what their fields share). Import them from
here, ``from games.models import Round``, as Django finds them: one app, one label.
"""

from __future__ import annotations

from games.models.accounts import AccountSettings
from games.models.fields import (
    CARD_CHOICES,
    CARD_CODES,
    WINNING_OUTCOMES,
    Preset,
    new_share_token,
    new_submission_token,
    validate_figures,
    validate_groups,
)
from games.models.leagues import League, LeagueInvite, Membership, Player, PlayerClaim
from games.models.live import LiveCacheEpoch
from games.models.rounds import HandEntry, Round, RoundChange
from games.models.sessions import GameSession, Rejoin, Seat, SeatChange
from games.models.standings import Rating, RatingChange, StandingMonth
from games.models.table import TableHand, TableRound

__all__ = [
    "CARD_CHOICES",
    "CARD_CODES",
    "WINNING_OUTCOMES",
    "AccountSettings",
    "GameSession",
    "HandEntry",
    "League",
    "LeagueInvite",
    "LiveCacheEpoch",
    "Membership",
    "Player",
    "PlayerClaim",
    "Preset",
    "Rating",
    "RatingChange",
    "Rejoin",
    "Round",
    "RoundChange",
    "Seat",
    "SeatChange",
    "StandingMonth",
    "TableHand",
    "TableRound",
    "new_share_token",
    "new_submission_token",
    "validate_figures",
    "validate_groups",
]
