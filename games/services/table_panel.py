"""Table mode, the scorer's live panel: each seat's state as the phones fill the round
in, the round checked as a whole once every hand is in, and the stamps that the
scorer's panel and each seat's phone poll on (a poll answered "nothing new" while
its stamp matches). games/services/table.py writes the hands and saves the round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.utils.translation import gettext, pgettext_lazy

from games.models import GameSession, HandEntry, Seat, TableHand, TableRound
from games.rules import HandFigures
from games.services.round_checks import RoundCheck
from games.services.round_entries import RoundEntry, new_round_entry
from games.services.scoreboard import Scoreboard, live_stamp, load_scoreboard
from games.services.table import auto_saves, hands_by_seat, next_number, round_check

State = Literal["waiting", "typing", "in", "problem"]
# What the scorer's panel says of each seat's hand (the context tells translators so).
STATE_LABELS = {
    "waiting": pgettext_lazy("a seat's hand in table mode", "Waiting"),
    "typing": pgettext_lazy("a seat's hand in table mode", "Typing"),
    "in": pgettext_lazy("a seat's hand in table mode", "Hand in"),
    "problem": pgettext_lazy("a seat's hand in table mode", "Problem"),
}


def counted_words(figures: HandFigures, outcome: str) -> str:
    """A hand counted at the table as the scorer reads it back, in the words the
    round page and the history use: "counted at the table (count 34, value points
    5)", "shown at the table" (a trusted winner); "counted: nothing typed yet"."""
    if not figures.given() and outcome != "declared":
        return gettext("counted: nothing typed yet")
    return HandEntry.counted_words(outcome, figures.as_dict())


@dataclass(frozen=True)
class SeatState:
    seat: Seat
    phone: bool  # a phone holds the seat
    hand: TableHand | None
    state: State
    problems: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return str(STATE_LABELS[self.state])

    @property
    def counted(self) -> str:
        """A counted hand's figures in words (counted_words); "" for a hand
        entered by its cards."""
        figures = self.hand.hand_figures if self.hand else None
        return counted_words(figures, self.hand.outcome) if figures is not None else ""

    @property
    def corrected_by(self) -> str:
        return self.hand.entered_by.get_username() if self.hand and self.hand.entered_by else ""


@dataclass(frozen=True)
class TableView:
    """The table as the scorer sees it fill up: each seat's state and, once every
    hand is in, the round checked as a whole."""

    entry: RoundEntry
    table_round: TableRound | None
    seats: tuple[SeatState, ...]
    check: RoundCheck | None  # every hand in: the whole round's check
    auto_save: bool
    stamp: str  # see table_stamp

    @property
    def all_in(self) -> bool:
        return self.check is not None

    @property
    def ready(self) -> bool:
        return self.check is not None and self.check.valid

    @property
    def phones(self) -> int:
        return sum(1 for seat in self.seats if seat.phone)

    @property
    def hands_in(self) -> int:
        return sum(1 for seat in self.seats if seat.hand and seat.hand.status == "in")

    @property
    def cut(self) -> str:
        return self.table_round.cut_joker if self.table_round else ""


def _stamp(
    session: GameSession, number: int, table_round: TableRound | None, phones: list[bool]
) -> str:
    """Changes with every hand written, seat picked or freed, option set and round
    saved: the scorer's live view is answered "nothing new" while it matches. The
    auto-save option is in it itself (before any phone starts the round there is no
    table round whose stamp it could move), and so is the session's live stamp: a
    player renamed in the admin, or a seat changed there, moves it."""
    table = table_round.updated_at.timestamp() if table_round else 0
    seats = "".join("1" if phone else "0" for phone in phones)
    auto = int(auto_saves(session))
    return f"{number}.{int(table * 1_000_000)}.{seats}.{auto}.{live_stamp(session)}"


def table_stamp(session: GameSession) -> str:
    """TableView.stamp in two small queries, without checking any hand."""
    number = next_number(session)
    table_round = TableRound.objects.filter(session=session, number=number).first()
    phones = session.seats.order_by("position").values_list("phone_key", flat=True)
    return _stamp(session, number, table_round, [key is not None for key in phones])


def seat_stamp(session: GameSession, table_round: TableRound | None, hand: TableHand | None) -> str:
    """What a seat's phone follows: the table's cut joker, its own hand's state (a
    correction by the scorer, a problem the round check found) and, as the scorer's
    panel does, the session's live stamp: a player renamed in the admin moves it, and
    the phone shows the new name."""
    cut = table_round.cut_joker if table_round else ""
    state = f"{hand.status}.{hand.edit}.{hand.entered_by_id or ''}" if hand else ""
    return f"{cut}.{state}.{live_stamp(session)}"


def table_view(session: GameSession, board: Scoreboard | None = None) -> TableView:
    board = board or load_scoreboard(session)
    entry = new_round_entry(session, board)
    table_round = TableRound.objects.filter(session=session, number=entry.number).first()
    hands = hands_by_seat(table_round)
    playing = [seat.pk for seat in entry.seats]
    every_hand_in = (
        table_round is not None
        and bool(playing)
        and all(pk in hands and hands[pk].status == TableHand.Status.IN for pk in playing)
    )
    check = round_check(entry, table_round, hands) if every_hand_in else None
    blamed = (
        {player.seat.pk: (*player.errors, *player.party_to) for player in check.players}
        if check
        else {}
    )
    states = []
    phones = dict(session.seats.order_by("position").values_list("pk", "phone_key"))
    for seat in entry.seats:
        hand = hands.get(seat.pk)
        problems: tuple[str, ...] = ()
        if hand is None or not (hand.outcome or hand.text):
            state: State = "waiting"
        elif hand.problem:
            state, problems = "problem", (hand.problem,)
        elif hand.status == TableHand.Status.TYPING:
            state = "typing"
        elif blamed.get(seat.pk):
            state, problems = "problem", blamed[seat.pk]
        else:
            state = "in"
        states.append(SeatState(seat, bool(phones.get(seat.pk)), hand, state, problems))
    stamp = _stamp(session, entry.number, table_round, [key is not None for key in phones.values()])
    return TableView(entry, table_round, tuple(states), check, auto_saves(session), stamp)
