"""What a round form is for: a new round of a session or an earlier one, its players
and dealer, and the values an earlier round's form starts from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from games.models import GameSession, Round, Seat
from games.rules import HandFigures, Ruleset, format_groups, out_before, parse_card
from games.services.scoreboard import Scoreboard, load_scoreboard


@dataclass(frozen=True)
class RoundEntry:
    """What the round form is for: a new round of a session, or an earlier one."""

    session: GameSession
    ruleset: Ruleset
    seats: tuple[Seat, ...]  # the round's players, in seat order
    number: int
    dealer: Seat | None
    round: Round | None = None  # None for a new round
    finished: bool = False  # a new round on a finished session: nothing to enter
    winners: tuple[str, ...] = ()

    def seat_playing(self, pk: int | None) -> Seat | None:
        """The seat ``pk`` if its player plays this round: none once the session is
        over (a table link's phone picks only such a seat, and enters its hand)."""
        if self.finished:
            return None
        return next((seat for seat in self.seats if seat.pk == pk), None)


def new_round_entry(session: GameSession, board: Scoreboard | None = None) -> RoundEntry:
    """The next round: every player still in, dealt by the next dealer."""
    board = board or load_scoreboard(session)
    return RoundEntry(
        session=session,
        ruleset=board.ruleset,
        seats=board.playing_seats,
        number=len(board.rows) + 1,
        dealer=board.next_dealer,
        finished=board.finished,
        winners=board.winners,
    )


def round_entry_for_edit(played: Round, board: Scoreboard | None = None) -> RoundEntry:
    """An earlier round: the players who have a hand in it, plus anyone seated who
    was still in when it was played (an edit may bring a player back in), but never
    a latecomer before they joined or a player after they left the table."""
    board = board or load_scoreboard(played.session)
    in_round = set(played.entries.values_list("player_id", flat=True))
    sat_out = out_before(board.state, played.number)
    lines = board.state.lines
    at_table = lines[played.number - 1].scores if played.number <= len(lines) else None
    seats = tuple(
        seat
        for seat in board.seats
        if (seat.player_id in in_round or seat.player.name not in sat_out)
        and (at_table is None or seat.player.name in at_table)
    )
    return RoundEntry(
        session=played.session,
        ruleset=board.ruleset,
        seats=seats,
        number=played.number,
        dealer=played.dealer,
        round=played,
    )


class SavedHand(NamedTuple):
    """One hand of a saved round as the form shows it: the outcome, the groups in
    canonical notation, and the figures of a hand counted at the table (None for one
    entered by its cards)."""

    outcome: str
    text: str
    figures: HandFigures | None = None


def initial_values(played: Round) -> tuple[str, dict[int, SavedHand]]:
    """A saved round as the form shows it: the cut joker and each seat's hand."""
    seat_of = {seat.player_id: seat.pk for seat in played.session.seats.all()}
    values = {}
    for entry in played.entries.all():
        values[seat_of.get(entry.player_id)] = SavedHand(
            entry.outcome, groups_text(entry.groups), entry.hand_figures
        )
    return played.cut_joker, values


def groups_text(groups: Sequence[Sequence[str]]) -> str:
    """Stored groups (lists of card codes) in the notation the round form takes."""
    return format_groups([[parse_card(code) for code in group] for group in groups])


def on_deal_seats(played: Round) -> frozenset[int]:
    """The seat of a saved round's winner on the deal (docs/rules §4), if there is one:
    what the form's "won on the deal" box shows."""
    players = played.entries.filter(on_deal=True).values_list("player_id", flat=True)
    return frozenset(
        played.session.seats.filter(player_id__in=list(players)).values_list("pk", flat=True)
    )


def edit_form_data(played: Round) -> dict[str, object]:
    """The edit form's fields for a saved round, as the edit page first shows them:
    the cut joker, each seat's outcome and groups, the winner on the deal, and the
    version the edit starts from."""
    cut, hands = initial_values(played)
    data: dict[str, object] = {"cut_joker": cut, "version": played.version}
    for seat_pk, hand in hands.items():
        data[f"outcome_{seat_pk}"] = hand.outcome
        data[f"groups_{seat_pk}"] = hand.text
        if hand.figures is not None:
            data.update(counted_form_data(seat_pk, hand.figures))
    for seat_pk in on_deal_seats(played):
        data[f"on_deal_{seat_pk}"] = "on"
    return data


def counted_form_data(seat_pk: int, figures: HandFigures) -> dict[str, str]:
    """A counted hand's fields as the round form posts them: the hand's *Count*
    switch on, and each figure given (a yes-or-no one as a ticked box)."""
    data = {f"counted_{seat_pk}": "on"}
    for name, value in figures.as_dict().items():
        data[f"{name}_{seat_pk}"] = "on" if value is True else str(value)
    return data
