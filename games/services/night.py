"""The night in one message: a session's totals, best first, and who pays whom, as
plain text for a chat app (the session page's *Share the night*). Every figure comes
from the board and money_of, written as the pages write them (games.figures); this
only puts them in lines."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import figures
from games.rules import speech
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
        winners = speech.join_words(board.winners)
        lines.append(
            ngettext("{names} wins.", "{names} win.", len(board.winners)).format(names=winners)
        )
    else:
        lines.append(_("After round {number}, still playing:").format(number=board.last_round))
    columns = {column.name: column for column in board.columns}
    for name in state.order:
        out = columns[name].eliminated_in
        said = {
            "place": state.place(name),
            "name": name,
            "points": figures.points(state.totals[name]),
        }
        if out is None:
            # Translators: a line of the night's message: place, name, total.
            lines.append(_("{place}. {name} {points}").format(**said))
        else:
            lines.append(
                _("{place}. {name} {points} (out in round {round})").format(round=out, **said)
            )
    lines += _money_lines(board, money)
    if link:
        lines += ["", _("Live scores: {link}").format(link=link)]
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
        if board.finished:
            settle = _("Settle up at {amount} a point:")
        else:
            settle = _("Settle up at {amount} a point, if it ended now:")
        lines = ["", settle.format(amount=figures.money(money.per_point, currency))]
        lines += [
            _("{payer} pays {payee} {amount}").format(
                payer=p.payer, payee=p.payee, amount=figures.money(p.amount, currency)
            )
            for p in money.payments
        ]
        if not money.payments:
            lines.append(_("Nobody owes anything."))
        return lines
    if money.pot is None:
        return []
    lines = ["", _("The pot: {amount}").format(amount=figures.money(money.pot, currency))]
    if money.pot_winners:
        winners = speech.join_words(money.pot_winners)
        lines.append(
            ngettext(
                "{names} takes the pot.", "{names} share the pot.", len(money.pot_winners)
            ).format(names=winners)
        )
    else:
        lines.append(_("If the players still in split it now:"))
        lines += [f"{share.name} {figures.money(share.amount, currency)}" for share in money.shares]
    return lines
