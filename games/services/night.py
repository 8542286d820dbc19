"""The night in one message: a session's totals, best first, and who pays whom, as
plain text for a chat app (the session page's *Share the night*). Every figure comes
from the board and money_of, written as the pages write them (games.figures); this
only puts them in lines."""

from __future__ import annotations

from games import figures
from games.services.money import Money
from games.services.scoreboard import Scoreboard


def night_text(board: Scoreboard, money: Money | None, link: str | None = None) -> str:
    """The message: the session and its day, who won (or the round it stands at),
    each player's place and total, the money and, given one, the share ``link``.
    Empty before the first round: there is nothing to tell."""
    if not board.rows:
        return ""
    state = board.state
    lines = [_title(board)]
    if board.finished:
        winners = " and ".join(board.winners)
        lines.append(f"{winners} {'wins' if len(board.winners) == 1 else 'win'}.")
    else:
        lines.append(f"After round {board.last_round}, still playing:")
    columns = {column.name: column for column in board.columns}
    for name in state.order:
        out = columns[name].eliminated_in
        note = f" (out in round {out})" if out is not None else ""
        lines.append(f"{state.place(name)}. {name} {figures.points(state.totals[name])}{note}")
    lines += _money_lines(board, money)
    if link:
        lines += ["", f"Live scores: {link}"]
    return "\n".join(lines)


def _title(board: Scoreboard) -> str:
    """The session's name and its day (an unnamed session's name is its day already)."""
    session = board.session
    if not session.name:
        return str(session)
    return f"{session.name}, {figures.day(session.played_on)}"


def _money_lines(board: Scoreboard, money: Money | None) -> list[str]:
    if money is None:
        return []
    currency = money.currency
    if money.per_point:
        when = "" if board.finished else ", if it ended now"
        lines = ["", f"Settle up at {figures.money(money.per_point, currency)} a point{when}:"]
        lines += [
            f"{p.payer} pays {p.payee} {figures.money(p.amount, currency)}" for p in money.payments
        ]
        if not money.payments:
            lines.append("Nobody owes anything.")
        return lines
    if money.pot is None:
        return []
    lines = ["", f"The pot: {figures.money(money.pot, currency)}"]
    if money.pot_winners:
        winners = " and ".join(money.pot_winners)
        verb = "takes" if len(money.pot_winners) == 1 else "share"
        lines.append(f"{winners} {verb} the pot.")
    else:
        lines.append("If the players still in split it now:")
        lines += [f"{share.name} {figures.money(share.amount, currency)}" for share in money.shares]
    return lines
