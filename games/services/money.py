"""What the totals are worth: who pays whom in a net-format session, and a pool's pot
and its split. Every amount comes from the rules service; this converts money to and
from the smallest coin.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from games.currencies import session_currency
from games.rules import (
    balances_from_totals,
    buy_ins,
    is_net,
    pot_of,
    pot_split,
    remaining_drops,
    settle,
)
from games.services.scoreboard import Scoreboard

CENT = Decimal("0.01")


def _cents(amount: Decimal) -> int:
    return int((amount / CENT).to_integral_value())


def _money(cents: int) -> Decimal:
    return (Decimal(cents) * CENT).quantize(CENT)


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal


@dataclass(frozen=True)
class PotShare:
    name: str
    drops: int  # first drops the player can still take before the ceiling
    amount: Decimal


@dataclass(frozen=True)
class Money:
    """What the totals are worth: who pays whom (net-format sessions with a value
    per point), or the pot and how it could be split (pools with a buy-in), in the
    league's ``currency`` (an ISO code; "" for none named: games/currencies.py)."""

    currency: str = ""
    per_point: Decimal | None = None
    payments: tuple[Payment, ...] = ()
    buy_in: Decimal | None = None
    pot: Decimal | None = None
    shares: tuple[PotShare, ...] = ()  # a suggested split while the pool is still on
    pot_winners: tuple[str, ...] = ()  # who takes the pot once it is over


def money_of(board: Scoreboard) -> Money | None:
    """The money lines of the session page, or None when it plays for points only.
    Every amount comes from the rules service (settle, pot_split) on the replayed
    totals; this only converts between money and cents."""
    session = board.session
    if is_net(board.ruleset) and session.money_per_point:
        per_point = _cents(session.money_per_point)
        balances = balances_from_totals(board.state.totals, per_point)
        payments = tuple(Payment(t.payer, t.payee, _money(t.amount)) for t in settle(balances))
        return Money(
            session_currency(session), per_point=session.money_per_point, payments=payments
        )
    if board.pool and session.buy_in:
        currency = session_currency(session)
        pot = pot_of(_cents(session.buy_in), sum(buy_ins(board.state).values()))
        if board.finished:
            return Money(
                currency, buy_in=session.buy_in, pot=_money(pot), pot_winners=board.winners
            )
        drops = remaining_drops(board.state, board.ruleset)
        split = pot_split(board.state, board.ruleset, pot)
        shares = tuple(
            PotShare(name, drops[name], _money(split[name])) for name in board.state.active
        )
        return Money(currency, buy_in=session.buy_in, pot=_money(pot), shares=shares)
    return None
