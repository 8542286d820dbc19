"""Rounds with hands counted at the table (docs/rules §5, "A counted hand"), saved
through the services as the round form saves them: each counted player's figures
typed in place of their cards."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User

from games.models import GameSession, Round
from games.rules import HandFigures
from games.services.round_checks import TypedHand, check_round
from games.services.round_entries import new_round_entry, round_entry_for_edit
from games.services.round_saves import save_round
from tests.support.builders import Hands, seat_pks

# House rules that take counts, and those that trust a winner's show besides.
COUNTS = {"hand_entry": "counts"}
TRUSTED = {"hand_entry": "counts", "trust_show": True}
# What SHOWN_8S gives in 21-points under cut 8S, as Ben would say it at the table.
BEN_COUNT = HandFigures(count=102, value_points=10)
# A trusted winner's show of WIN_8S under cut 8S: no value card.
ASHA_SHOWN = HandFigures(value_points=0)

Counted = Mapping[str, HandFigures]


def typed(session: GameSession, hands: Hands, counted: Counted) -> dict[int, TypedHand]:
    """A round's hands by seat, those in ``counted`` typed as their figures."""
    seats = seat_pks(session)
    return {
        seats[name]: TypedHand(outcome, "", counted[name])
        if name in counted
        else TypedHand(outcome, text)
        for name, (outcome, text) in hands.items()
    }


def play_counted(
    session: GameSession, cut: str, hands: Hands, counted: Counted, user: User | None = None
) -> Round:
    """Save a round whose ``counted`` players were counted at the table."""
    entry = new_round_entry(session)
    check = check_round(entry, cut, typed(session, hands, counted), final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    return save_round(entry, check, user or session.created_by)


def edit_counted(
    played: Round, cut: str, hands: Hands, counted: Counted, user: User | None = None
) -> Round:
    """Save a round again, its ``counted`` players counted at the table, as the edit
    form does (at the version it was read at)."""
    entry = round_entry_for_edit(played)
    check = check_round(entry, cut, typed(played.session, hands, counted), final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    return save_round(entry, check, user or played.session.created_by, version=played.version)
